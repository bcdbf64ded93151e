// SPDX-License-Identifier: MIT
/*
 * Unit test of what the agent's API tells of its runs table (receiver/api.c): /v1/info's
 * size, runs held, kept and evicted, a run's "kept", "evicted" and "runs_evicted", a test's
 * runs that aged out, and the /metrics families, each written, read back through the
 * sender's parsers, and refused when malformed; an agent that predates them still parses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "api.h"
#include "check.h"

static struct pb_api_info table_info(void)
{
	struct pb_api_info in;

	memset(&in, 0, sizeof(in));
	in.api = PB_API_VERSION;
	snprintf(in.version, sizeof(in.version), "0.1.0-test");
	snprintf(in.ifname, sizeof(in.ifname), "eth1");
	in.ifindex = 4;
	snprintf(in.driver, sizeof(in.driver), "veth");
	in.mtu = 1500;
	in.rx_queues = 2;
	snprintf(in.xdp_mode, sizeof(in.xdp_mode), "native");
	in.now_ns = 1000;
	in.uptime_s = 1.5;
	in.instance = 77;
	in.runs_capacity = 1024;
	in.runs_held = 1000;
	in.runs_kept = 3;
	in.runs_kept_capacity = 256;
	in.runs_evicted = 1977;
	return in;
}

/* text with the first occurrence of from replaced by to, into buf */
static const char *swap(char *buf, size_t len, const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	if (!at)
		return "";
	snprintf(buf, len, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return buf;
}

static void test_info_table(void)
{
	struct pb_api_info in = table_info(), back;
	char *s = pb_api_info_json(&in), buf[4096], err[256];
	const char *t;

	CHECK(s && strstr(s, "\"runs_capacity\":1024") && strstr(s, "\"runs_held\":1000") &&
		      strstr(s, "\"runs_kept\":3") && strstr(s, "\"runs_kept_capacity\":256") &&
		      strstr(s, "\"runs_evicted\":1977"),
	      "/v1/info tells the runs table: %s", s ? s : "(null)");
	CHECK(s && !pb_api_parse_info(s, strlen(s), &back, err, sizeof(err)) &&
		      back.runs_capacity == 1024 && back.runs_held == 1000 && back.runs_kept == 3 &&
		      back.runs_kept_capacity == 256 && back.runs_evicted == 1977,
	      "read back: %s", err);
	if (!s)
		return;
	/* an agent that predates the table: all of it absent, all 0 */
	t = swap(buf, sizeof(buf), s,
		 ",\"runs_capacity\":1024,\"runs_held\":1000,\"runs_kept\":3,"
		 "\"runs_kept_capacity\":256,\"runs_evicted\":1977",
		 "");
	CHECK(!pb_api_parse_info(t, strlen(t), &back, err, sizeof(err)) && !back.runs_capacity &&
		      !back.runs_evicted && back.instance == 77,
	      "an older agent without the table: %s (%s)", err, t);
	/* part of it, or a bad value: refused, naming the field */
	t = swap(buf, sizeof(buf), s, "\"runs_evicted\":1977", "\"runs_evictedX\":1977");
	CHECK(pb_api_parse_info(t, strlen(t), &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "runs_evicted"),
	      "runs_evicted missing: %s", err);
	t = swap(buf, sizeof(buf), s, "\"runs_held\":1000", "\"runs_held\":-1");
	CHECK(pb_api_parse_info(t, strlen(t), &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "runs_held"),
	      "runs_held negative: %s", err);
	t = swap(buf, sizeof(buf), s, "\"runs_kept\":3", "\"runs_kept\":4294967296");
	CHECK(pb_api_parse_info(t, strlen(t), &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "runs_kept"),
	      "runs_kept beyond 32 bits: %s", err);
	free(s);
}

static void test_run_table(void)
{
	struct pb_api_run r, back;
	char *s, buf[8192], err[256];
	const char *t;

	memset(&r, 0, sizeof(r));
	r.run.run_id = 42;
	r.run.seen = true;
	r.run.frames = 150;
	r.run.bytes = 9000;
	r.run.nqueues = 1;
	r.run.queue_frames[0] = 150;
	r.run.first_ns = 1;
	r.run.last_ns = 2;
	r.run.instance = 77;
	r.run.kept = true;
	r.run.evicted = false;
	r.run.runs_evicted = 1977;
	s = pb_api_run_json(&r);
	CHECK(s && strstr(s, "\"kept\":true") && strstr(s, "\"evicted\":false") &&
		      strstr(s, "\"runs_evicted\":1977"),
	      "a run's answer tells kept, evicted, runs_evicted: %s", s ? s : "(null)");
	CHECK(s && !pb_api_parse_run(s, strlen(s), 42, &back, err, sizeof(err)) && back.run.kept &&
		      !back.run.evicted && back.run.runs_evicted == 1977 &&
		      back.run.frames == 150 && back.run.instance == 77,
	      "read back: %s", err);
	free(s);
	r.run.kept = false;
	r.run.evicted = true;
	s = pb_api_run_json(&r);
	CHECK(s && !pb_api_parse_run(s, strlen(s), 42, &back, err, sizeof(err)) && !back.run.kept &&
		      back.run.evicted,
	      "not kept, evicted: read back: %s", err);
	if (!s)
		return;
	/* an agent that predates them: none of the three, the run not kept nor evicted */
	t = swap(buf, sizeof(buf), s, ",\"kept\":false,\"evicted\":true,\"runs_evicted\":1977", "");
	CHECK(!pb_api_parse_run(t, strlen(t), 42, &back, err, sizeof(err)) && !back.run.kept &&
		      !back.run.evicted && !back.run.runs_evicted,
	      "an older agent: %s (%s)", err, t);
	t = swap(buf, sizeof(buf), s, "\"evicted\":true", "\"evicted\":1");
	CHECK(pb_api_parse_run(t, strlen(t), 42, &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "evicted"),
	      "evicted not a boolean: %s", err);
	t = swap(buf, sizeof(buf), s, "\"kept\":false", "\"kept\":\"no\"");
	CHECK(pb_api_parse_run(t, strlen(t), 42, &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "kept"),
	      "kept not a boolean: %s", err);
	t = swap(buf, sizeof(buf), s, "\"runs_evicted\":1977", "\"runs_evicted\":-5");
	CHECK(pb_api_parse_run(t, strlen(t), 42, &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "runs_evicted"),
	      "runs_evicted negative: %s", err);
	free(s);
}

static void test_test_evicted(void)
{
	struct pb_api_test *t = calloc(1, sizeof(*t));
	struct json_object *o, *v;
	char *s;
	uint32_t i;

	if (!t)
		return;
	snprintf(t->test_id, sizeof(t->test_id), "5e2f0c1a-7a4b-4c6d-9e8f-0123456789ab");
	s = pb_api_test_json(t);
	CHECK(s && strstr(s, "\"evicted_runs\":0") && strstr(s, "\"evicted_run_ids\":[]"),
	      "no run aged out: %s", s ? s : "(null)");
	free(s);
	pb_api_test_evicted(t, 300000007u);
	s = pb_api_test_json(t);
	CHECK(s && strstr(s, "\"evicted_runs\":1") && strstr(s, "\"evicted_run_ids\":[300000007]"),
	      "one run aged out, named: %s", s ? s : "(null)");
	free(s);
	/* more than are listed: all counted, the first PB_API_MAX_EVICTED_IDS named */
	for (i = 1; i < PB_API_MAX_EVICTED_IDS + 10; i++)
		pb_api_test_evicted(t, i);
	s = pb_api_test_json(t);
	o = s ? json_tokener_parse(s) : NULL;
	CHECK(o && json_object_object_get_ex(o, "evicted_runs", &v) &&
		      json_object_get_int64(v) == PB_API_MAX_EVICTED_IDS + 10 &&
		      json_object_object_get_ex(o, "evicted_run_ids", &v) &&
		      json_object_array_length(v) == PB_API_MAX_EVICTED_IDS,
	      "%d aged out, %d named: %s", PB_API_MAX_EVICTED_IDS + 10, PB_API_MAX_EVICTED_IDS,
	      s ? s : "(null)");
	json_object_put(o);
	free(s);
	free(t);
}

static void test_metrics_table(void)
{
	static const uint8_t key[PB_API_KEY_LEN];
	struct pb_api_info in = table_info();
	struct pb_api_metrics m = { .info = &in, .label_key = key };
	size_t len;
	char *t;

	t = pb_api_metrics_text(&m, false, &len);
	CHECK(t && strstr(t, "\npktbench_receiver_runs_capacity 1024\n") &&
		      strstr(t, "\npktbench_receiver_runs_held 1000\n") &&
		      strstr(t, "\n# TYPE pktbench_receiver_runs_evicted_total counter\n"
				"pktbench_receiver_runs_evicted_total 1977\n") &&
		      strstr(t, "\npktbench_receiver_runs_kept 3\n") &&
		      strstr(t, "\npktbench_receiver_runs_kept_capacity 256\n"),
	      "Prometheus text tells the table:\n%s", t ? t : "(null)");
	free(t);
	t = pb_api_metrics_text(&m, true, &len);
	CHECK(t && strstr(t, "# TYPE pktbench_receiver_runs_evicted counter\n") &&
		      strstr(t, "\npktbench_receiver_runs_evicted_total 1977\n") &&
		      strstr(t, "# TYPE pktbench_receiver_runs_capacity gauge\n"),
	      "OpenMetrics: the evictions a counter family without _total");
	free(t);
}

int main(void)
{
	test_info_table();
	test_run_table();
	test_test_evicted();
	test_metrics_table();
	return check_summary();
}
