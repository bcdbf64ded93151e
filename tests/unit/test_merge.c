// SPDX-License-Identifier: MIT
/*
 * pktbench merge: senders' rows summed by test, method and frame size; delivered % over all
 * frames and the worst sender's; latency percentiles from the histograms added, checked
 * against the percentile of the concatenated samples (within one bucket) for two known,
 * very different distributions, where averaging the senders' percentiles is far off; a row
 * not ok counted and left out; bad input refused in one line.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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
		"\"wire_gbps\": 0.5, \"frames_sent\": %llu, \"frames_delivered\": %llu",
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
	pb_merge_finish(&res);
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
	char err[256], *j1, *j2, *j3;
	const char *skipped = "{\"results\": [{\"method\": \"udp_sendto\", \"status\": \"skipped\","
			      " \"reason\": \"no route\", \"frame_bytes\": 60, \"pps\": null}]}";
	int ret;

	j1 = row_json("t-1", "udp_sendto", 100, 100, 100, NULL, 0);
	j2 = row_json("t-1", "udp_sendto", 200, 200, 200, NULL, 0);
	j3 = row_json("t-2", "udp_sendto", 300, 300, 300, NULL, 0);
	ret = pb_merge_add_json(&res, j1, "1", err, sizeof(err));
	ret = ret ?: pb_merge_add_json(&res, j2, "2", err, sizeof(err));
	ret = ret ?: pb_merge_add_json(&res, j3, "3", err, sizeof(err));
	ret = ret ?: pb_merge_add_json(&res, skipped, "4", err, sizeof(err));
	pb_merge_finish(&res);
	CHECK(!ret && res.n == 3, "rows keyed by test id and method: %u rows (%s)", res.n, err);
	if (res.n == 3) {
		CHECK(res.rows[0].senders == 2 && res.rows[0].pps == 300 &&
			      !strcmp(res.rows[0].test_id, "t-1"),
		      "test t-1: two senders summed");
		CHECK(res.rows[1].senders == 1 && res.rows[1].pps == 300, "test t-2 apart");
		CHECK(res.rows[2].senders == 1 && res.rows[2].not_ok == 1 && res.rows[2].pps == 0,
		      "a skipped row is counted, not summed");
	}
	free(j1);
	free(j2);
	free(j3);
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
		  "\"frames_sent\":"
		  " 1, \"latency\": {\"min_us\": 1, \"max_us\": 2, \"histogram\": [[1001, 1]]}}]}",
		  "not one of pktbench's buckets" },
		{ "{\"results\": [{\"method\": \"x\", \"status\": \"ok\", \"pps\": 1, "
		  "\"frames_sent\":"
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

int main(void)
{
	test_latency();
	test_keys_and_status();
	test_bad();
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
