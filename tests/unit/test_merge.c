// SPDX-License-Identifier: MIT
/*
 * pktbench merge: senders' rows summed by test, method and frame size; delivered % over all
 * frames and the worst sender's; latency percentiles from the histograms added, checked
 * against the percentile of the concatenated samples (within one bucket) for two known,
 * very different distributions, where averaging the senders' percentiles is far off; a row
 * not ok counted and left out; bad input refused in one line. What cannot be one test is
 * refused naming the file: the same file twice, a shard twice, shards of different counts or
 * of different tests, a row repeated in one file, a shard missing (or, with partial, merged
 * and marked so), counts beyond 2^63 or a sum that overflows, rates no sender reaches,
 * delivered above sent, a shard that is not I/N; and the shards that fell behind their pace
 * are named with the test's offered rate against the rate asked.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "check.h"
#include "fleet.h"
#include "jsondup.h"
#include "latency.h"
#include "merge.h"
#include "pb_lat.h"

#define NA 20000
#define NB 5000

static uint64_t lcg = 42;

static uint64_t rnd(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return lcg >> 33;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A sender's row as pktbench writes it, with the histogram of samples[0..n). */
static char *row_json(const char *test_id, const char *method, double pps, uint64_t sent,
		      uint64_t delivered, const uint64_t *samples, size_t n)
{
	static uint64_t counts[PB_HIST_BUCKETS];
	size_t cap = 1 << 20, len = 0, i;
	uint64_t lo = UINT64_MAX, hi = 0;
	char *s = malloc(cap);
	uint32_t b;

	memset(counts, 0, sizeof(counts));
	for (i = 0; i < n; i++) {
		counts[pb_hist_bucket(samples[i])]++;
		lo = samples[i] < lo ? samples[i] : lo;
		hi = samples[i] > hi ? samples[i] : hi;
	}
	len += (size_t)snprintf(
		s + len, cap - len,
		"{\"schema\": 1, \"results\": [{\"method\": \"%s\", \"status\": \"ok\", "
		"%s%s%s\"frame_bytes\": 60, \"pps\": %.1f, \"app_mbps\": 1.5, "
		"\"wire_gbps\": 0.5, \"duration_s\": 5.0, \"frames_sent\": %llu, "
		"\"frames_delivered\": %llu",
		method, test_id ? "\"test_id\": \"" : "", test_id ? test_id : "",
		test_id ? "\", " : "", pps, (unsigned long long)sent,
		(unsigned long long)delivered);
	if (n) {
		len += (size_t)snprintf(
			s + len, cap - len,
			", \"latency\": {\"probes_sent\": %zu, \"probes_received\": "
			"%zu, \"lost\": 0, \"min_us\": %.3f, \"max_us\": %.3f, "
			"\"histogram\": [",
			n, n, lo / 1e3, hi / 1e3);
		for (b = 0; b < PB_HIST_BUCKETS; b++)
			if (counts[b])
				len += (size_t)snprintf(s + len, cap - len, "%s[%llu, %llu]",
							s[len - 1] == '[' ? "" : ", ",
							(unsigned long long)pb_hist_upper(b),
							(unsigned long long)counts[b]);
		len += (size_t)snprintf(s + len, cap - len, "]}");
	}
	snprintf(s + len, cap - len, "}]}");
	return s;
}

/* p of samples, nearest rank (what one receiver would say of them all) */
static uint64_t true_quantile(uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p * (double)n - 1e-9);

	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(rank ? rank : 1) - 1];
}

static void test_latency(void)
{
	static uint64_t a[NA], b[NB], all[NA + NB];
	struct pb_merge_result res = { 0 };
	char err[256], *ja, *jb;
	uint64_t want99, want50, got99;
	size_t i;
	int ra, rb;

	/* A: a fast sender, 2..6 us; B: a slow one behind a queue, 150..950 us */
	for (i = 0; i < NA; i++)
		a[i] = 2000 + rnd() % 4000;
	for (i = 0; i < NB; i++)
		b[i] = 150000 + rnd() % 800000;
	ja = row_json(NULL, "af_packet", 600000, 1000000, 1000000, a, NA);
	jb = row_json(NULL, "af_packet", 400000, 500000, 490000, b, NB);
	ra = pb_merge_add_json(&res, ja, "a.json", err, sizeof(err));
	rb = pb_merge_add_json(&res, jb, "b.json", err, sizeof(err));
	CHECK(!ra && !rb, "both load: %s", err);
	CHECK(!pb_merge_finish(&res, false, err, sizeof(err)), "finish: %s", err);
	CHECK(res.n == 1 && res.files == 2, "one merged row of two files (%u rows)", res.n);
	if (res.n != 1)
		goto out;
	memcpy(all, a, sizeof(a));
	memcpy(all + NA, b, sizeof(b));
	want99 = true_quantile(all, NA + NB, 0.99);
	want50 = true_quantile(all, NA + NB, 0.50);
	got99 = (uint64_t)llround(res.rows[0].p99_us * 1e3);
	CHECK(abs((int)pb_hist_bucket(got99) - (int)pb_hist_bucket(want99)) <= 1,
	      "merged p99 %.3f us vs the concatenated samples' %.3f us: within one bucket",
	      res.rows[0].p99_us, want99 / 1e3);
	CHECK(abs((int)pb_hist_bucket((uint64_t)llround(res.rows[0].p50_us * 1e3)) -
		  (int)pb_hist_bucket(want50)) <= 1,
	      "merged p50 %.3f us vs %.3f us", res.rows[0].p50_us, want50 / 1e3);
	/* averaging the two senders' p99 (about 6 us and 940 us) would say ~470 us */
	CHECK(fabs(res.rows[0].p99_us - want99 / 1e3) < 0.01 * (want99 / 1e3),
	      "p99 is the samples' own (%.1f us), not an average of percentiles",
	      res.rows[0].p99_us);
	CHECK(res.rows[0].samples == NA + NB && res.rows[0].probes_sent == NA + NB,
	      "probes summed");
	CHECK(res.rows[0].pps == 1000000 && res.rows[0].frames_sent == 1500000 &&
		      res.rows[0].bytes_sent == 1500000ull * 60,
	      "rates and bytes summed");
	CHECK(fabs(res.rows[0].delivered_pct - 100.0 * 1490000 / 1500000) < 1e-9 &&
		      fabs(res.rows[0].worst_delivered_pct - 98.0) < 1e-9,
	      "delivered %% over all frames (%.4f), the worst sender's (%.2f)",
	      res.rows[0].delivered_pct, res.rows[0].worst_delivered_pct);
	CHECK(res.rows[0].min_us == 2.0 || res.rows[0].min_us < 2.01, "min is the lowest sender's");
out:
	free(ja);
	free(jb);
	pb_merge_result_free(&res);
}

static void test_keys_and_status(void)
{
	struct pb_merge_result res = { 0 };
	char err[256], *j1, *j2, *j3, *j4;
	const char *skipped =
		"{\"results\": [{\"method\": \"udp_sendto\", \"status\": \"skipped\","
		" \"reason\": \"no route\", \"test_id\": \"t-1\", \"frame_bytes\": 60, "
		"\"pps\": null}]}";
	int ret;

	j1 = row_json("t-1", "udp_sendto", 100, 100, 100, NULL, 0);
	j2 = row_json("t-1", "udp_sendto", 200, 200, 200, NULL, 0);
	j3 = row_json("t-1", "af_packet", 300, 300, 300, NULL, 0);
	j4 = row_json("t-2", "udp_sendto", 300, 300, 300, NULL, 0);
	ret = pb_merge_add_json(&res, j1, "1", err, sizeof(err));
	ret = ret ?: pb_merge_add_json(&res, j2, "2", err, sizeof(err));
	ret = ret ?: pb_merge_add_json(&res, j3, "3", err, sizeof(err));
	ret = ret ?: pb_merge_add_json(&res, skipped, "4", err, sizeof(err));
	ret = ret ?: pb_merge_finish(&res, false, err, sizeof(err));
	CHECK(!ret && res.n == 2, "rows keyed by method: %u rows (%s)", res.n, err);
	if (res.n == 2) {
		CHECK(res.rows[0].senders == 3 && res.rows[0].not_ok == 1 &&
			      res.rows[0].pps == 300 && !strcmp(res.rows[0].test_id, "t-1"),
		      "two senders summed, a skipped row counted, not summed");
		CHECK(res.rows[1].senders == 1 && res.rows[1].pps == 300, "af_packet apart");
		CHECK(res.rows[0].shards_total == 0, "rows without a shard: no shard count");
	}
	/* a file of another test in the same merge: one line naming both tests and files */
	ret = pb_merge_add_json(&res, j4, "5", err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "t-2") && strstr(err, "t-1") && strstr(err, "5"),
	      "a second test refused: %s", err);
	free(j1);
	free(j2);
	free(j3);
	free(j4);
	pb_merge_result_free(&res);
}

static void test_bad(void)
{
	static const struct {
		const char *json, *want;
	} bad[] = {
		{ "not json", "not JSON" },
		{ "{\"rows\": []}", "no \"results\" array" },
		{ "{\"results\": [{\"method\": \"x\", \"status\": \"ok\", \"pps\": \"fast\"}]}",
		  "pps is not a number" },
		{ "{\"results\": [{\"status\": \"ok\", \"pps\": 1}]}", "method is missing" },
		{ "{\"results\": [{\"method\": \"x\", \"status\": \"ok\", \"pps\": -1}]}",
		  "finite number >= 0" },
		{ "{\"results\": [{\"method\": \"x\", \"status\": \"ok\", \"pps\": 1, "
		  "\"duration_s\": 1, \"frames_sent\":"
		  " 1, \"latency\": {\"min_us\": 1, \"max_us\": 2, \"histogram\": [[1001, 1]]}}]}",
		  "not one of pktbench's buckets" },
		{ "{\"results\": [{\"method\": \"x\", \"status\": \"ok\", \"pps\": 1, "
		  "\"duration_s\": 1, \"frames_sent\":"
		  " 1, \"latency\": {\"min_us\": 1, \"max_us\": 2, \"histogram\": [[1]]}}]}",
		  "not a pair" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pb_merge_result res = { 0 };
		char err[256] = "";
		int ret = pb_merge_add_json(&res, bad[i].json, "bad.json", err, sizeof(err));

		CHECK(ret == -EINVAL && strstr(err, bad[i].want) && strstr(err, "bad.json") &&
			      !strchr(err, '\n'),
		      "bad input %u refused in one line naming the file: %s", i, err);
		pb_merge_result_free(&res);
	}
}

#define TID "6f9619ff-8b86-4011-b42d-00c04fc964ff"

/*
 * A sharded sender's row: test TID unless test is given, its shard, run id and figures, its
 * window duration_s seconds long.
 */
static char *shard_json_d(const char *test, const char *shard, unsigned int run_id,
			  const char *target, const char *pps, const char *sent,
			  const char *delivered, const char *duration_s)
{
	char *s = malloc(1024);

	snprintf(s, 1024,
		 "{\"schema\": 1, \"results\": [{\"method\": \"af_packet\", \"status\": \"ok\", "
		 "\"test_id\": \"%s\", \"shard\": \"%s\", \"run_id\": %u, \"frame_bytes\": 60, "
		 "\"target_pps\": %s, \"pps\": %s, \"app_mbps\": 0.5, \"wire_gbps\": 0.1, "
		 "\"duration_s\": %s, \"frames_sent\": %s, \"frames_delivered\": %s}]}",
		 test ? test : TID, shard, run_id, target, pps, duration_s, sent, delivered);
	return s;
}

/* The same, 5 s long. */
static char *shard_json(const char *test, const char *shard, unsigned int run_id,
			const char *target, const char *pps, const char *sent,
			const char *delivered)
{
	return shard_json_d(test, shard, run_id, target, pps, sent, delivered, "5.0");
}

/*
 * Adds the files in order, then finishes: 0, or the first error (ret) with err set. Frees
 * the texts.
 */
static int merge_files(struct pb_merge_result *res, bool partial, char *err, size_t errlen,
		       unsigned int n, char **texts, const char **names)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		if (!ret)
			ret = pb_merge_add_json(res, texts[i], names[i], err, errlen);
		free(texts[i]);
	}
	return ret ?: pb_merge_finish(res, partial, err, errlen);
}

/* Each merge that cannot be one test: -EINVAL, one line naming what and which files. */
static void refused(const char *what, unsigned int n, char **texts, const char **names,
		    const char *want1, const char *want2)
{
	struct pb_merge_result res = { 0 };
	char err[512] = "";
	int ret = merge_files(&res, false, err, sizeof(err), n, texts, names);

	CHECK(ret == -EINVAL && strstr(err, want1) && (!want2 || strstr(err, want2)) &&
		      !strchr(err, '\n'),
	      "%s: refused naming '%s'%s%s (ret %d): %s", what, want1, want2 ? " and " : "",
	      want2 ? want2 : "", ret, err);
	pb_merge_result_free(&res);
}

static void test_one_test(void)
{
	const char *ab[] = { "s0.json", "s1.json" }, *a[] = { "s0.json" };
	char *t[2];
	char *big;
	size_t i, len;
	unsigned int k;

	/* the same file twice: 2 senders and double the rate on main */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	t[1] = strdup(t[0]);
	refused("the same file twice", 2, t, ab, "s1.json", "s0.json");
	/* shard 0 run twice (another run id): still one shard counted twice */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	t[1] = shard_json(NULL, "0/2", 12, "1000", "990", "4950", "4950");
	refused("shard 0/2 twice", 2, t, ab, "0/2", "s0.json");
	/* one shard of two shown as the whole test on main */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	refused("shard 1/2 missing", 1, t, a, "1/2", "missing");
	/* 0/2 with 1/3 */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	t[1] = shard_json(NULL, "1/3", 12, "1000", "1000", "5000", "5000");
	refused("0/2 with 1/3", 2, t, ab, "1/3", "2 shards");
	/* shards of two tests */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	t[1] = shard_json("11111111-2222-3333-4444-555555555555", "1/2", 12, "1000", "1000", "5000",
			  "5000");
	refused("shards of two tests", 2, t, ab, "11111111-2222-3333-4444-555555555555", TID);
	/* a shard that is not I/N */
	t[0] = shard_json(NULL, "x", 11, "1000", "1000", "5000", "5000");
	refused("shard x", 1, t, a, "shard", "s0.json");
	t[0] = shard_json(NULL, "5/2", 11, "1000", "1000", "5000", "5000");
	refused("shard 5/2", 1, t, a, "5/2", "s0.json");
	/* 5000 copies of a row in one file: 5000 senders and 5000x the rate on main */
	t[0] = shard_json(NULL, "0/1", 11, "1000", "1000", "5000", "5000");
	len = strlen(t[0]);
	big = malloc(5000 * len + 64);
	i = (size_t)sprintf(big, "{\"results\": [");
	for (k = 0; k < 5000; k++) {
		const char *r = strchr(t[0], '[') + 1;

		i += (size_t)sprintf(big + i, "%s%.*s", k ? ", " : "",
				     (int)(strrchr(t[0], ']') - r), r);
	}
	sprintf(big + i, "]}");
	free(t[0]);
	t[0] = big;
	refused("5000 copies of a row", 1, t, a, "results[1]", "results[0]");
	/* counts that cannot be true: merged into -9223372036854775309 on main */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "18446744073709551615", "5000");
	t[1] = shard_json(NULL, "1/2", 12, "1000", "1000", "5000", "5000");
	refused("frames_sent 2^64-1", 2, t, ab, "frames_sent", "s0.json");
	/* 1-byte frames, so that the bytes (frames x 60) do not pass 2^63 before the sum */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000000000000000000", "0");
	t[1] = shard_json(NULL, "1/2", 12, "1000", "1000", "5000000000000000000", "0");
	memcpy(strstr(t[0], "\"frame_bytes\": 60") + 15, "1 ", 2);
	memcpy(strstr(t[1], "\"frame_bytes\": 60") + 15, "1 ", 2);
	refused("a sum beyond 2^63", 2, t, ab, "frames_sent", "s1.json");
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "9000000000000000000", "0");
	refused("bytes beyond 2^63", 1, t, a, "frames_sent", "bytes");
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "1e30", "5000");
	refused("frames_sent 1e30", 1, t, a, "frames_sent", "s0.json");
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1e30", "5000", "5000");
	refused("pps 1e30", 1, t, a, "pps", "s0.json");
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "-5");
	refused("frames_delivered -5", 1, t, a, "frames_delivered", "s0.json");
	/* delivered 10x sent: 550 % on main */
	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "500", "5000");
	t[1] = shard_json(NULL, "1/2", 12, "1000", "1000", "5000", "5000");
	refused("delivered 10x sent", 2, t, ab, "frames_delivered", "s0.json");
}

/* partial: one shard of two merged and marked so, in the row, the table and the JSON */
/*
 * What is summed is checked first: an ok row's frames_sent is there and a count, its window
 * (duration_s) finite and positive, and the windows summed into one row agree within
 * PB_MERGE_DURATION_PCT % (PB_MERGE_DURATION_MIN_S at least); a key twice in one object is
 * refused, however it is spelled (json-c keeps the last one, silently).
 */
static void test_validated(void)
{
	static const struct {
		const char *from, *to, *want;
	} rows[] = {
		{ "\"frames_sent\": 5000, ", "", "frames_sent is missing in an ok row" },
		{ "\"frames_sent\": 5000", "\"frames_sent\": null", "frames_sent is missing" },
		{ "\"duration_s\": 5.0, ", "", "duration_s is missing in an ok row" },
		{ "\"duration_s\": 5.0", "\"duration_s\": null", "duration_s is missing" },
		{ "\"duration_s\": 5.0", "\"duration_s\": 0", "duration_s 0 is not" },
		{ "\"duration_s\": 5.0", "\"duration_s\": -5", "duration_s" },
		{ "\"duration_s\": 5.0", "\"duration_s\": \"5\"", "duration_s is not a number" },
		{ "\"duration_s\": 5.0", "\"duration_s\": 1e400", "duration_s" },
		{ "\"frames_sent\": 5000", "\"frames_sent\": 5000, \"frames_sent\": 50",
		  "\"frames_sent\" twice" },
		{ "\"frames_sent\": 5000", "\"frames_sent\": 5000, \"frames\\u005fsent\": 50",
		  "\"frames_sent\" twice" },
		{ "\"results\": [", "\"results\": [], \"results\": [", "\"results\" twice" },
		{ "\"schema\": 1", "\"schema\": {\"a\": 1, \"b\": {\"a\": 2, \"a\": 3}}",
		  "\"a\" twice" },
	};
	const char *ab[] = { "s0.json", "s1.json" }, *a[] = { "s0.json" };
	char *t[2], buf[1280];
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *base = shard_json(NULL, "0/1", 11, "1000", "1000", "5000", "5000");
		char *at = strstr(base, rows[i].from);

		CHECK(at, "case %u: '%s' not in %s", i, rows[i].from, base);
		if (!at) {
			free(base);
			continue;
		}
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - base), base, rows[i].to,
			 at + strlen(rows[i].from));
		free(base);
		t[0] = strdup(buf);
		refused(rows[i].to[0] ? rows[i].to : rows[i].from, 1, t, a, rows[i].want,
			"s0.json");
	}
	/* the scan itself: keys decoded, compared per object, strings' braces not objects */
	{
		static const struct {
			const char *json, *key;
		} d[] = {
			{ "{\"a\": \"}{\\\"a\\\": 1\", \"b\": {\"a\": 2}}", NULL },
			{ "[{\"a\": 1}, {\"a\": 2}]", NULL },
			{ "{\"x\": {\"a\": 1}, \"a\": 2, \"y\": [{\"a\": 3}]}", NULL },
			{ "{\"a\\u0000b\": 1, \"a\\u0000c\": 2}", NULL },
			{ "{\"ab\": 1, \"a\": 2, \"b\": 3}", NULL },
			{ "{\"k\": [1, {\"k\": 1, \"j\": {}, \"k\": 2}]}", "k" },
			{ "{\"\\ud83d\\ude00\": 1, \"\xf0\x9f\x98\x80\": 2}", "????" },
			{ "{\"\\/\\n\": 1, \"/\\u000a\": 2}", "/?" },
			{ "{\"a\": {\"b\": {\"c\": {\"d\": 1, \"d\": 1}}}}", "d" },
			/* no key before them: no key table yet (UBSan; fuzz_merge found it) */
			{ "{}", NULL },
			{ "[{}, {\"a\": 1, \"a\": 2}]", "a" },
		};
		char key[16];
		size_t at;

		for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
			int r = pb_json_dup_key(d[i].json, strlen(d[i].json), key, sizeof(key),
						&at);

			CHECK(d[i].key ? r == 1 && !strcmp(key, d[i].key) : r == 0,
			      "dup scan %u (%s): %d '%s', want %s", i, d[i].json, r, r ? key : "",
			      d[i].key ? d[i].key : "none");
		}
	}
	/* a not-ok row says no count: not refused */
	{
		struct pb_merge_result res = { 0 };
		char err[256] = "";
		const char *skipped = "{\"results\": [{\"method\": \"x\", \"status\": \"error\", "
				      "\"reason\": \"r\", \"pps\": null, \"frames_sent\": null, "
				      "\"duration_s\": null}]}";

		CHECK(!pb_merge_add_json(&res, skipped, "e.json", err, sizeof(err)),
		      "a row not ok without counts: merged (counted not ok): %s", err);
		pb_merge_result_free(&res);
	}
	/* windows 5 % apart at most: 5.0 and 5.25 s are one test's, 5.0 and 5.3 s are not */
	{
		struct pb_merge_result res = { 0 };
		char err[512] = "";

		t[0] = shard_json_d(NULL, "0/2", 11, "1000", "1000", "5000", "5000", "5.0");
		t[1] = shard_json_d(NULL, "1/2", 12, "1000", "1000", "5000", "5000", "5.25");
		CHECK(!merge_files(&res, false, err, sizeof(err), 2, t, ab),
		      "5.0 and 5.25 s: merged (%s)", err);
		pb_merge_result_free(&res);
	}
	t[0] = shard_json_d(NULL, "0/2", 11, "1000", "1000", "5000", "5000", "5.0");
	t[1] = shard_json_d(NULL, "1/2", 12, "1000", "1000", "5000", "5000", "5.3");
	refused("windows 5.0 and 5.3 s", 2, t, ab, "duration_s 5.3 s", "s0.json's 5 s");
	t[0] = shard_json_d(NULL, "0/2", 11, "1000", "1000", "5000", "5000", "5.3");
	t[1] = shard_json_d(NULL, "1/2", 12, "1000", "1000", "5000", "5000", "5.0");
	refused("windows 5.3 and 5.0 s", 2, t, ab, "duration_s 5 s", "s0.json's 5.3 s");
	/* short runs: 0.1 s apart at most */
	{
		struct pb_merge_result res = { 0 };
		char err[512] = "";

		t[0] = shard_json_d(NULL, "0/2", 11, "1000", "1000", "5000", "5000", "1.0");
		t[1] = shard_json_d(NULL, "1/2", 12, "1000", "1000", "5000", "5000", "1.09");
		CHECK(!merge_files(&res, false, err, sizeof(err), 2, t, ab),
		      "1.0 and 1.09 s: merged (%s)", err);
		pb_merge_result_free(&res);
	}
	t[0] = shard_json_d(NULL, "0/2", 11, "1000", "1000", "5000", "5000", "1.0");
	t[1] = shard_json_d(NULL, "1/2", 12, "1000", "1000", "5000", "5000", "1.15");
	refused("windows 1.0 and 1.15 s", 2, t, ab, "duration_s 1.15 s", "0.1 s");
}

static void test_partial(void)
{
	struct pb_merge_result res = { 0 };
	const char *a[] = { "s0.json" };
	char err[512] = "", *t[1], *out = NULL;
	size_t outlen = 0;
	FILE *f;
	int ret;

	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	ret = merge_files(&res, true, err, sizeof(err), 1, t, a);
	CHECK(!ret, "partial: one shard of two merged: %s", err);
	if (ret || res.n != 1)
		goto out;
	CHECK(res.rows[0].partial && res.rows[0].shards_merged == 1 &&
		      res.rows[0].shards_total == 2,
	      "the row is 1 of 2 shards, partial (%u of %u, partial %d)", res.rows[0].shards_merged,
	      res.rows[0].shards_total, res.rows[0].partial);
	f = open_memstream(&out, &outlen);
	pb_merge_write_table(f, &res, 0);
	fclose(f);
	CHECK(out && strstr(out, "partial") && strstr(out, "1 of 2 shards") && strstr(out, "1/2"),
	      "the table says partial, 1 of 2 shards, 1/2 missing:\n%s", out ? out : "");
	free(out);
	out = NULL;
	f = open_memstream(&out, &outlen);
	pb_merge_write_json(f, &res);
	fclose(f);
	CHECK(out && strstr(out, "\"shards_merged\":1") && strstr(out, "\"shards_total\":2") &&
		      strstr(out, "\"partial\":true") && strstr(out, "\"shards_missing\":[") &&
		      strstr(out, "\"1/2\""),
	      "the JSON says shards_merged 1, shards_total 2, partial, 1/2 missing:\n%s",
	      out ? out : "");
	free(out);
out:
	pb_merge_result_free(&res);
}

/* the whole test; shard 1 at 96.6 % of its asked rate: the test's offered rate is short */
static void test_behind(void)
{
	struct pb_merge_result res = { 0 };
	const char *ab[] = { "s0.json", "s1.json" };
	char err[512] = "", *t[2], *out = NULL;
	size_t outlen = 0;
	FILE *f;
	int ret;

	t[0] = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	t[1] = shard_json(NULL, "1/2", 12, "1000", "966", "4830", "4830");
	ret = merge_files(&res, false, err, sizeof(err), 2, t, ab);
	CHECK(!ret, "two shards of two merged: %s", err);
	if (ret || res.n != 1)
		goto out;
	CHECK(!res.rows[0].partial && res.rows[0].shards_merged == 2 &&
		      res.rows[0].shards_total == 2,
	      "the whole test: 2 of 2 shards");
	CHECK(res.rows[0].target_known && res.rows[0].target_pps == 2000 && res.rows[0].pps == 1966,
	      "asked 2000 pps (%.0f), sent 1966 (%.0f)", res.rows[0].target_pps, res.rows[0].pps);
	f = open_memstream(&out, &outlen);
	pb_merge_write_table(f, &res, 0);
	fclose(f);
	CHECK(out && strstr(out, "shard 1/2") && strstr(out, "s1.json") && strstr(out, "96.6 %") &&
		      strstr(out, "98.3 %") && !strstr(out, "shard 0/2"),
	      "the table names shard 1/2 (s1.json) at 96.6 %% and the test at 98.3 %%:\n%s",
	      out ? out : "");
	free(out);
	out = NULL;
	f = open_memstream(&out, &outlen);
	pb_merge_write_json(f, &res);
	fclose(f);
	CHECK(out && strstr(out, "\"behind_pace\":[") && strstr(out, "\"shard\":\"1/2\"") &&
		      strstr(out, "\"partial\":false") && strstr(out, "\"shards_merged\":2") &&
		      strstr(out, "\"target_pps\":2000"),
	      "the JSON names shard 1/2 behind its pace, target 2000:\n%s", out ? out : "");
	free(out);
out:
	pb_merge_result_free(&res);
}

/* The command: exit 2 for what cannot be one test, 1 for --partial, 0 for the whole test. */

/* shard I/3 of TID as pktbench prints it: pretty JSON, one line a value, into a fresh string */
static char *pretty_shard(unsigned int i, uint64_t sent)
{
	char shard[8], *compact, *out;
	struct json_object *o;

	snprintf(shard, sizeof(shard), "%u/3", i);
	compact = shard_json(NULL, shard, 21 + i, "1000", "990", "0", "0");
	o = json_tokener_parse(compact);
	free(compact);
	json_object_object_add(json_object_array_get_idx(json_object_object_get(o, "results"), 0),
			       "frames_sent", json_object_new_int64((int64_t)sent));
	json_object_object_add(json_object_array_get_idx(json_object_object_get(o, "results"), 0),
			       "frames_delivered", json_object_new_int64((int64_t)sent - i));
	out = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return out;
}

#define WARN "pktbench: af_packet reached 990 of the 1000 packets/s asked (99.0 %%)"

/*
 * The lines of shard i's pod as `kubectl logs` gives them: a warning before the document and
 * one between two of its lines (stdout and stderr reach the log line by line), each line
 * after pre (a prefix, a time stamp, or nothing) and ended by eol.
 */
static size_t pod_log(char *out, size_t size, unsigned int i, const char *pre, const char *eol)
{
	char *doc = pretty_shard(i, 10000 + i), *line, *save = NULL;
	size_t len = 0;
	unsigned int n = 0;

	len += (size_t)snprintf(out + len, size - len, "%s" WARN "%s", pre, eol);
	for (line = strtok_r(doc, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		len += (size_t)snprintf(out + len, size - len, "%s%s%s", pre, line, eol);
		if (n == 3)
			len += (size_t)snprintf(out + len, size - len,
						"%slibbpf: a line of stderr%s", pre, eol);
	}
	len += (size_t)snprintf(out + len, size - len, "%s\n", pre);
	free(doc);
	return len;
}

/* a log merged: its result sets' count, and the merged row's sums */
static int merge_log(const char *log, char *err, size_t errlen, unsigned int *sets,
		     uint64_t *sent, uint64_t *deliv, unsigned int *senders)
{
	struct pb_merge_result res = { 0 };
	int ret = pb_merge_add_text(&res, log, "pods.log", err, errlen);

	ret = ret ?: pb_merge_finish(&res, false, err, errlen);
	*sets = res.files;
	if (!ret && res.n == 1) {
		*sent = res.rows[0].frames_sent;
		*deliv = res.rows[0].frames_delivered;
		*senders = res.rows[0].senders;
	}
	pb_merge_result_free(&res);
	return ret;
}

/*
 * kubectl logs: three pods' logs, concatenated or interleaved line by line (--follow of
 * several pods, told apart by --prefix), with stderr inside and around each document, time
 * stamps, CRLF; the merged sums exact. A log cut short, the same document twice and a log
 * without a result set are refused in one line naming the file and the line.
 */
static void test_logs(void)
{
	static char log[3][16384], all[65536];
	size_t len[3], pos[3] = { 0 }, n = 0;
	char err[512], pre[128];
	unsigned int i, sets = 0, senders = 0;
	uint64_t sent = 0, deliv = 0;
	int ret;

	/* concatenated, no prefix: what `for p in pods; do kubectl logs $p; done` gives */
	for (i = 0; i < 3; i++)
		n += pod_log(all + n, sizeof(all) - n, i, "", "\n");
	ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
	CHECK(!ret && sets == 3 && senders == 3 && sent == 30003 && deliv == 30000,
	      "three pods' logs concatenated: %u sets, %u senders, %llu sent, %llu delivered "
	      "(want 3, 3, 30003, 30000): %s",
	      sets, senders, (unsigned long long)sent, (unsigned long long)deliv, ret ? err : "");
	/* interleaved a line at a time, prefixed and time-stamped, CRLF */
	for (i = 0; i < 3; i++) {
		snprintf(pre, sizeof(pre), "[pod/pktbench-senders-%u-x%u/sender] "
			 "2026-12-01T16:30:0%u.123456789Z ", i, i, i);
		len[i] = pod_log(log[i], sizeof(log[i]), i, pre, "\r\n");
	}
	n = 0;
	while (pos[0] < len[0] || pos[1] < len[1] || pos[2] < len[2])
		for (i = 0; i < 3; i++) {
			const char *e = pos[i] < len[i] ? strchr(log[i] + pos[i], '\n') : NULL;

			if (!e)
				continue;
			memcpy(all + n, log[i] + pos[i], (size_t)(e + 1 - log[i] - pos[i]));
			n += (size_t)(e + 1 - log[i] - pos[i]);
			pos[i] = (size_t)(e + 1 - log[i]);
		}
	all[n] = '\0';
	ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
	CHECK(!ret && sets == 3 && senders == 3 && sent == 30003 && deliv == 30000,
	      "three pods interleaved by line, --prefix --timestamps, CRLF: %u sets, %llu sent, "
	      "%llu delivered: %s",
	      sets, (unsigned long long)sent, (unsigned long long)deliv, ret ? err : "");
	/* cut short: pod 2's log ends inside its document */
	n = pod_log(all, sizeof(all), 0, "", "\n");
	n += pod_log(all + n, sizeof(all) - n, 1, "", "\n");
	n += pod_log(all + n, sizeof(all) - n, 2, "", "\n");
	all[n - 40] = '\0';
	ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
	CHECK(ret == -EINVAL && strstr(err, "pods.log:") && strstr(err, "does not end") &&
		      !strchr(err, '\n'),
	      "a log cut inside a document: refused naming the line (%d): %s", ret, err);
	/* the same pod's log twice */
	n = pod_log(all, sizeof(all), 0, "", "\n");
	n += pod_log(all + n, sizeof(all) - n, 0, "[pod/p0/sender] ", "\n");
	ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
	CHECK(ret == -EINVAL && strstr(err, "the same result set") && strstr(err, "pod/p0") &&
		      !strchr(err, '\n'),
	      "one pod's document twice: refused (%d): %s", ret, err);
	/* only stderr, and a JSON object that is no result set */
	snprintf(all, sizeof(all), WARN "\n{\"t\": 1}\n");
	ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
	CHECK(ret == -EINVAL && strstr(err, "pods.log: not JSON") && strstr(err, "1 other"),
	      "a log without a result set: refused (%d): %s", ret, err);
	/* a line inside a document that breaks it */
	n = pod_log(all, sizeof(all), 0, "", "\n");
	memcpy(strstr(all, "\n  \"results\"") + 1, "  xresults", 10);
	ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
	CHECK(ret == -EINVAL && strstr(err, "pods.log:4: not JSON") && !strchr(err, '\n'),
	      "a broken document: refused naming its line (%d): %s", ret, err);
}

/*
 * A refusal is one line even when it quotes the input: a method whose JSON string holds a
 * newline and a CR (the fuzzer found a two-line refusal), in a file and in a log.
 */
static void test_refusal_one_line(void)
{
	static const char bad[] = "{\"schema\": 1, \"results\": [{\"method\": \"af\\npa\\rcket\", "
				  "\"frame_bytes\": 60}]}";
	struct pb_merge_result res = { 0 };
	char err[512], log[256];
	int ret;

	ret = pb_merge_add_json(&res, bad, "bad.json", err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "status") && !strpbrk(err, "\r\n"),
	      "a method with a newline, in a file: refused in one line (%d): %s", ret, err);
	pb_merge_result_free(&res);
	snprintf(log, sizeof(log), "stderr words\n%s\n", bad);
	ret = pb_merge_add_text(&res, log, "bad.log", err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "status") && !strpbrk(err, "\r\n"),
	      "a method with a newline, in a log: refused in one line (%d): %s", ret, err);
	pb_merge_result_free(&res);
}

/*
 * A log whose last line ends in a CR without its LF (a CRLF file cut after the CR): merged,
 * and in bounded time (the fuzzer found merge looping on that CR for ever). SIGALRM ends a
 * test that hangs.
 */
static void test_log_last_cr(void)
{
	static char log[65536];
	unsigned int i, sets = 0, senders = 0;
	uint64_t sent = 0, deliv = 0;
	char err[512];
	size_t n = 0;
	int ret;

	for (i = 0; i < 3; i++)
		n += pod_log(log + n, sizeof(log) - n, i, "", "\r\n");
	snprintf(log + n, sizeof(log) - n, "trailing words\r"); /* no LF after it */
	alarm(10);
	ret = merge_log(log, err, sizeof(err), &sets, &sent, &deliv, &senders);
	alarm(0);
	CHECK(!ret && sets == 3 && sent == 30003,
	      "a log ending in CR without LF: %u sets, %llu sent: %s", sets,
	      (unsigned long long)sent, ret ? err : "");
}

/*
 * shard i's log as a runtime keeps it and a timestamped log shows it: the container's output
 * (a warning on stderr, the document) read read bytes at a time, each read's lines stamped,
 * a line across two reads a part from each, the second part's stamp on the same line (podman
 * logs -t; the kubelet for kubectl logs --timestamps); pre before each line. The lines that
 * hold a second stamp are counted in *parted.
 */
/*
 * err_inside: podman logs -t 2>&1, where a stderr line, an entry of its own, comes between the
 * two parts of the first stdout line a read cut inside the document.
 */
static size_t parted_log(char *out, size_t size, unsigned int i, const char *pre,
			     size_t read, unsigned int *parted, bool err_inside)
{
	char *doc = pretty_shard(i, 10000 + i), *text;
	size_t len = 0, k, tlen;
	unsigned int t = 0;
	bool bol = true, two = false;

	if (asprintf(&text, WARN "\n%s\n", doc) < 0)
		text = NULL;
	tlen = text ? strlen(text) : 0;
	for (k = 0; k < tlen; k++) {
		if (!(k % read) || bol) { /* a read begins, or a line in it: a stamp */
			if (bol) {
				len += (size_t)snprintf(out + len, size - len, "%s", pre);
			} else {
				two = true;
				if (err_inside && k > 200) {
					len += (size_t)snprintf(out + len, size - len,
								"2026-12-01T16:30:0%u.%09uZ "
								"libbpf: a line of stderr\n",
								i, t++);
					err_inside = false;
				}
			}
			len += (size_t)snprintf(out + len, size - len,
						"2026-12-01T16:30:0%u.%09uZ ", i, t++);
		}
		out[len++] = text[k];
		bol = text[k] == '\n';
		if (bol && two)
			(*parted)++;
		if (bol)
			two = false;
	}
	out[len] = '\0';
	free(text);
	free(doc);
	return len;
}

/*
 * Timestamped logs whose lines a runtime kept as parts, each part with its own stamp on the
 * same line, wherever its read ended (inside a number, a key): podman logs -t of three
 * senders one after the other, and kubectl logs --timestamps --prefix of three pods
 * interleaved by line; the merged sums exact.
 */
static void test_parted_logs(void)
{
	static const struct {
		const char *what;
		size_t read;
		bool prefix, err_inside;
	} forms[] = {
		{ "podman logs -t, reads of 97 bytes", 97, false, false },
		{ "kubectl logs --timestamps --prefix, reads of 61 bytes", 61, true, false },
		{ "podman logs -t 2>&1, a stderr line between a line's two parts", 97, false, true },
	};
	static char log[3][32768], all[3 * 32768];
	size_t len[3], pos[3], n, l;
	unsigned int f, i, sets, senders, parted;
	uint64_t sent, deliv;
	char err[512], pre[64];
	int ret;

	for (f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		parted = 0;
		for (i = 0; i < 3; i++) {
			snprintf(pre, sizeof(pre), "[pod/pktbench-senders-%u-x%u/sender] ", i, i);
			len[i] = parted_log(log[i], sizeof(log[i]), i,
						forms[f].prefix ? pre : "", forms[f].read, &parted,
						forms[f].err_inside);
			pos[i] = 0;
		}
		n = 0;
		/* a line of each pod in turn, or each pod's after the other's */
		while (pos[0] < len[0] || pos[1] < len[1] || pos[2] < len[2])
			for (i = 0; i < 3; i++) {
				const char *e = pos[i] < len[i] ? strchr(log[i] + pos[i], '\n') : NULL;

				if (!e || (!forms[f].prefix && i && pos[i - 1] < len[i - 1]))
					continue;
				l = (size_t)(e + 1 - log[i]) - pos[i];
				memcpy(all + n, log[i] + pos[i], l);
				n += l;
				pos[i] += l;
			}
		all[n] = '\0';
		sets = senders = 0;
		sent = deliv = 0;
		ret = merge_log(all, err, sizeof(err), &sets, &sent, &deliv, &senders);
		CHECK(!ret && sets == 3 && senders == 3 && sent == 30003 && deliv == 30000 &&
			      parted >= 6,
		      "%s (%u lines in two parts): %u sets, %u senders, %llu sent, %llu delivered "
		      "(want 3, 3, 30003, 30000): %s",
		      forms[f].what, parted, sets, senders, (unsigned long long)sent,
		      (unsigned long long)deliv, ret ? err : "");
	}
}

static void test_cli(void)
{
	char p0[] = "/tmp/pb-merge-s0-XXXXXX", p1[] = "/tmp/pb-merge-s1-XXXXXX";
	char *t0 = shard_json(NULL, "0/2", 11, "1000", "1000", "5000", "5000");
	char *t1 = shard_json(NULL, "1/2", 12, "1000", "1000", "5000", "5000");
	int f0 = mkstemp(p0), f1 = mkstemp(p1), r;
	FILE *keep = stdout;

	CHECK(f0 >= 0 && f1 >= 0 && write(f0, t0, strlen(t0)) == (ssize_t)strlen(t0) &&
		      write(f1, t1, strlen(t1)) == (ssize_t)strlen(t1),
	      "temp files");
	stdout = fopen("/dev/null", "w");
	{
		char *dup[] = { "merge", p0, p0, NULL }, *one[] = { "merge", p0, NULL };
		char *part[] = { "merge", p0, "--partial", NULL },
		     *all[] = { "merge", p0, p1, NULL };

		r = pb_merge_main(3, dup);
		CHECK(r == 2, "merge s0 s0: exit %d, want 2", r);
		r = pb_merge_main(2, one);
		CHECK(r == 2, "merge s0 (of 2): exit %d, want 2", r);
		r = pb_merge_main(3, part);
		CHECK(r == 1, "merge s0 --partial: exit %d, want 1 (merged, not the whole test)",
		      r);
		r = pb_merge_main(3, all);
		CHECK(r == 0, "merge s0 s1: exit %d, want 0", r);
	}
	fclose(stdout);
	stdout = keep;
	close(f0);
	close(f1);
	unlink(p0);
	unlink(p1);
	free(t0);
	free(t1);
}

/* pb_merge_main(argv) with stdout to /dev/null and stderr into err: its exit status. */
static int merge_main_err(int argc, char **argv, char *err, size_t errlen)
{
	char path[] = "/tmp/pb-merge-err-XXXXXX";
	int fd = mkstemp(path), keep_err = dup(2), r;
	FILE *keep = stdout;
	ssize_t n = 0;

	fflush(stderr);
	dup2(fd, 2);
	stdout = fopen("/dev/null", "w");
	r = pb_merge_main(argc, argv);
	fclose(stdout);
	stdout = keep;
	fflush(stderr);
	dup2(keep_err, 2);
	close(keep_err);
	if (lseek(fd, 0, SEEK_SET) == 0)
		n = read(fd, err, errlen - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return r;
}

/*
 * As many files as a test has shards (PB_SHARD_MAX; 256 were refused), one more refused by
 * name of the limit; "-" (standard input) once only, said so before anything is read.
 */
static void test_cli_files(void)
{
	char dir[] = "/tmp/pb-merge-many-XXXXXX", err[512], shard[16];
	unsigned int n = PB_SHARD_MAX + 1, i;
	char **argv = calloc(n + 3, sizeof(*argv)), *t;
	int r;

	CHECK(PB_SHARD_MAX == 4096 && mkdtemp(dir) && argv, "a folder, 4097 names");
	argv[0] = "merge";
	for (i = 0; i < n; i++) {
		FILE *f;

		argv[i + 1] = malloc(sizeof(dir) + 16);
		snprintf(argv[i + 1], sizeof(dir) + 16, "%s/s%u.json", dir, i);
		snprintf(shard, sizeof(shard), "%u/%u", i, PB_SHARD_MAX);
		t = shard_json(NULL, shard, 100 + i, "1000", "1000", "5000", "5000");
		f = fopen(argv[i + 1], "w");
		if (f) {
			fputs(t, f);
			fclose(f);
		}
		free(t);
	}
	r = merge_main_err(PB_SHARD_MAX + 1, argv, err, sizeof(err));
	CHECK(r == 0, "%u shards' files merged: exit %d, want 0: %s", PB_SHARD_MAX, r, err);
	r = merge_main_err(PB_SHARD_MAX + 2, argv, err, sizeof(err));
	CHECK(r == 2 && strstr(err, "4096"), "%u files: exit %d, want 2, naming 4096: %s",
	      PB_SHARD_MAX + 1, r, err);
	{
		char *dash[] = { "merge", argv[1], "-", "-", NULL };

		r = merge_main_err(4, dash, err, sizeof(err));
		CHECK(r == 2 && strstr(err, "'-' (standard input) may be given once") &&
			      !strstr(err, "not JSON"),
		      "merge a.json - -: exit %d, want 2, '-' once: %s", r, err);
	}
	for (i = 0; i < n; i++) {
		unlink(argv[i + 1]);
		free(argv[i + 1]);
	}
	rmdir(dir);
	free(argv);
}

int main(void)
{
	test_latency();
	test_keys_and_status();
	test_bad();
	test_one_test();
	test_validated();
	test_partial();
	test_behind();
	test_logs();
	test_parted_logs();
	test_log_last_cr();
	test_refusal_one_line();
	test_cli();
	test_cli_files();
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
