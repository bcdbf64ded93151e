// SPDX-License-Identifier: MIT
/*
 * Unit test of the receive agent's API as data (receiver/api.c): routes, the JSON answers
 * read back field by field and through the sender's parsers, every kind of bad answer the
 * parsers must refuse, the metrics text in both formats against golden text, and the
 * --listen and --receiver parsers. All of it is outside-facing input: it runs in the
 * sanitizer build too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <json-c/json.h>

#include "api.h"
#include "pb_bpf.h"
#include "pb_lat.h"
#include "check.h"

static void test_routes(void)
{
	static const struct {
		const char *method, *path;
		enum pb_api_route want;
		uint32_t run_id;
	} cases[] = {
		{ "GET", "/v1/info", PB_API_INFO, 0 },
		{ "HEAD", "/v1/info", PB_API_INFO, 0 },
		{ "GET", "/metrics", PB_API_METRICS, 0 },
		{ "GET", "/v1/runs/0", PB_API_RUN, 0 },
		{ "GET", "/v1/runs/7", PB_API_RUN, 7 },
		{ "GET", "/v1/runs/4294967295", PB_API_RUN, 4294967295u },
		{ "HEAD", "/v1/runs/123456789", PB_API_RUN, 123456789 },
		{ "POST", "/v1/info", PB_API_BAD_METHOD, 0 },
		{ "PUT", "/v1/runs/1", PB_API_BAD_METHOD, 0 },
		{ "DELETE", "/metrics", PB_API_BAD_METHOD, 0 },
		{ "get", "/v1/info", PB_API_BAD_METHOD, 0 },
		{ "POST", "/nope", PB_API_NOT_FOUND, 0 }, /* no such resource, for any method */
		{ "DELETE", "/v1/runs/7/hist/nope", PB_API_NOT_FOUND, 0 },
		{ "POST", "/v1/runs/7/hist/gap", PB_API_BAD_METHOD, 0 },
		{ "GET", "/", PB_API_NOT_FOUND, 0 },
		{ "GET", "", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/info/", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/INFO", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/runs", PB_API_NOT_FOUND, 0 },
		{ "GET", "/metrics/", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/info?x=1", PB_API_NOT_FOUND, 0 }, /* MHD strips queries before us */
		{ "GET", "/v1/runs/", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/4294967296", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/99999999999", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/01", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/-1", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/+1", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/1a", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/0x10", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/1/", PB_API_NOT_FOUND,
		  0 }, /* a well-formed id, no such resource */
		{ "GET", "/v1/runs/ 1", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/7/hist/lat", PB_API_HIST_LAT, 7 },
		{ "HEAD", "/v1/runs/0/hist/gap", PB_API_HIST_GAP, 0 },
		{ "GET", "/v1/runs/4294967295/hist/gap", PB_API_HIST_GAP, 4294967295u },
		{ "GET", "/v1/runs/7/hist", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/runs/7/hist/lat/", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/runs/7/hist/jitter", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/runs/7/hist/nope", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/runs/7/x", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/runs/x/hist/lat", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs/07/hist/lat", PB_API_BAD_REQUEST, 0 },
		{ "GET", "/v1/runs//hist/lat", PB_API_BAD_REQUEST, 0 },
		{ "POST", "/v1/runs/7/hist/lat", PB_API_BAD_METHOD, 0 },
		{ "GET", "/v1/tests/6f9619ff-8b86-4011-b42d-00c04fc964ff", PB_API_TEST, 0 },
		{ "HEAD", "/v1/tests/6F9619FF-8B86-4011-B42D-00C04FC964FF", PB_API_TEST, 0 },
		{ "POST", "/v1/tests/6f9619ff-8b86-4011-b42d-00c04fc964ff", PB_API_BAD_METHOD, 0 },
		{ "GET", "/v1/tests/6f9619ff-8b86-4011-b42d-00c04fc964ff/", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/tests/6f9619ff-8b86-4011-b42d-00c04fc964ff/x", PB_API_NOT_FOUND, 0 },
		{ "GET", "/v1/tests/", PB_API_BAD_TEST_ID, 0 },
		{ "GET", "/v1/tests/nope", PB_API_BAD_TEST_ID, 0 },
		{ "GET", "/v1/tests/6f9619ff-8b86-4011-b42d-00c04fc964f", PB_API_BAD_TEST_ID, 0 },
		{ "GET", "/v1/tests", PB_API_NOT_FOUND, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t id = 0xdeadbeef;
		enum pb_api_route r = pb_api_route(cases[i].method, cases[i].path, &id);

		CHECK(r == cases[i].want, "%s '%s': route %d, want %d", cases[i].method,
		      cases[i].path, r, cases[i].want);
		if (r == PB_API_RUN || r == PB_API_HIST_LAT || r == PB_API_HIST_GAP)
			CHECK(id == cases[i].run_id, "'%s': run id %u", cases[i].path, id);
	}
	{
		const char *msg;

		CHECK(pb_api_status(PB_API_NOT_FOUND, &msg) == 404 && *msg, "404");
		CHECK(pb_api_status(PB_API_BAD_METHOD, &msg) == 405 && *msg, "405");
		CHECK(pb_api_status(PB_API_BAD_REQUEST, &msg) == 400 && *msg, "400");
		CHECK(pb_api_status(PB_API_RUN, &msg) == 200, "200");
		CHECK(pb_api_status(PB_API_MALFORMED, &msg) == 400 && *msg, "400 malformed");
		CHECK(pb_api_status(PB_API_TOO_LONG, &msg) == 414 && *msg, "414");
		CHECK(pb_api_status(PB_API_HEADERS_TOO_LARGE, &msg) == 431 && *msg, "431");
		CHECK(pb_api_status(PB_API_NOT_ACCEPTABLE, &msg) == 406 && *msg, "406");
	}
}

/* The request target as it came: the path decoded, a NUL or a bad escape 400, too much 414. */
static void test_target(void)
{
	static const struct {
		const char *raw, *path;
		int want;
	} cases[] = {
		{ "/v1/info", "/v1/info", 0 },
		{ "/v1/info?x=1&y=2", "/v1/info", 0 },
		{ "/v1/runs/%37", "/v1/runs/7", 0 }, /* RFC 3986: an escaped digit is the digit */
		{ "/v1/%69nfo", "/v1/info", 0 },
		{ "/v1/info%00junk", NULL, -EINVAL },
		{ "/v1/info%00", NULL, -EINVAL },
		{ "/v1/info%", NULL, -EINVAL },
		{ "/v1/info%4", NULL, -EINVAL },
		{ "/v1/info%zz", NULL, -EINVAL },
		{ "v1/info", NULL, -EINVAL },
		{ "", NULL, -EINVAL },
		{ "*", NULL, -EINVAL },
		{ "http://198.18.0.2/v1/info", NULL, -EINVAL },
		{ "/metrics?a&b&c", "/metrics", 0 },
	};
	char path[64], big[4096];
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = pb_api_target(cases[i].raw, path, sizeof(path));

		CHECK(r == cases[i].want, "target '%s': %d, want %d", cases[i].raw, r,
		      cases[i].want);
		if (!r && cases[i].path)
			CHECK(!strcmp(path, cases[i].path), "target '%s': path '%s', want '%s'",
			      cases[i].raw, path, cases[i].path);
	}
	/* PB_API_MAX_PARAMS parameters are fine, one more is 414 */
	n = (size_t)snprintf(big, sizeof(big), "/metrics?");
	for (i = 0; i < PB_API_MAX_PARAMS; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%sa=1", i ? "&" : "");
	CHECK(!pb_api_target(big, path, sizeof(path)) && !strcmp(path, "/metrics"), "%d parameters",
	      PB_API_MAX_PARAMS);
	snprintf(big + n, sizeof(big) - n, "&b=2");
	CHECK(pb_api_target(big, path, sizeof(path)) == -ENAMETOOLONG, "%d parameters: 414",
	      PB_API_MAX_PARAMS + 1);
	/* 300 of them, as in the issue */
	n = (size_t)snprintf(big, sizeof(big), "/metrics?");
	for (i = 0; i < 300; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "&p%zu=1", i);
	CHECK(pb_api_target(big, path, sizeof(path)) == -ENAMETOOLONG, "300 parameters: 414");
	/* a target longer than PB_API_MAX_TARGET, and a path longer than the buffer */
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '/';
	big[sizeof(big) - 1] = '\0';
	CHECK(pb_api_target(big, path, sizeof(path)) == -ENAMETOOLONG, "a long target: 414");
	big[sizeof(path)] = '\0';
	CHECK(pb_api_target(big, path, sizeof(path)) == -ENAMETOOLONG,
	      "a path longer than the buffer: 414");
	big[sizeof(path) - 1] = '\0';
	CHECK(!pb_api_target(big, path, sizeof(path)) && strlen(path) == sizeof(path) - 1,
	      "a path that just fits");
}

/* RFC 9110 12.5.1: case-insensitive, q=0 is "not acceptable", highest q, then specificity. */
static void test_negotiate(void)
{
	static const struct {
		const char *accept;
		int want; /* 1 OpenMetrics, 0 Prometheus text, -1 neither (406) */
	} cases[] = {
		{ NULL, 0 },
		{ "", 0 },
		{ "*/*", 0 },
		{ "text/plain", 0 },
		{ "application/openmetrics-text", 1 },
		{ "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
		  "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		  1 }, /* Prometheus 2.x */
		{ "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;"
		  "q=0.1",
		  1 },
		{ "application/openmetrics-text;q=0", 0 },
		{ "application/openmetrics-text;q=0, */*", 0 },
		{ "application/openmetrics-text; q=0.0", 0 },
		{ "APPLICATION/OPENMETRICS-TEXT", 1 },
		{ "Application/OpenMetrics-Text; Q=1", 1 },
		{ "TEXT/PLAIN;q=0.5, application/openmetrics-text;q=0.4", 0 },
		{ "text/plain;q=0.4, application/openmetrics-text;q=0.5", 1 },
		{ "text/plain;q=0.4, application/*;q=0.5", 1 },
		{ "text/*;q=0.5, text/plain;q=0, application/openmetrics-text;q=0.1", 1 },
		{ "*/*;q=0.5, application/openmetrics-text;q=0", 0 },
		{ "*/*;q=0.9, text/plain;q=0.1", 1 },		   /* text/plain's own q is 0.1 */
		{ "application/openmetrics-text, text/*", 1 },	   /* a tie: the more specific... */
		{ "application/*, text/plain", 0 },		   /* ...range wins */
		{ "application/openmetrics-text, text/plain", 0 }, /* a full tie: the text */
		/* neither acceptable: 406 when the text is refused by name, else the text */
		{ "text/plain;q=0", -1 },
		{ "text/plain;q=0, application/openmetrics-text;q=0", -1 },
		{ "*/*;q=0", -1 },
		{ "text/*;q=0, application/openmetrics-text;q=0.000", -1 },
		{ "application/json", 0 },
		{ "text/html, application/xhtml+xml", 0 },
		{ "text/plain;q=1.5", 0 }, /* a bad q: the range is ignored... */
		{ "text/plain;q=abc, application/openmetrics-text;q=0.1", 1 },
		{ "text/plainx, application/openmetrics-textual", 0 }, /* whole tokens only */
		{ "text/plainx, application/openmetrics-textual;q=1, text/plain;q=0", -1 },
		{ "application/openmetrics-text;version=1.0.0;q=0.6;charset=utf-8, text/plain;"
		  "q=0.5",
		  1 },
		{ "application/openmetrics-text;q=1.0001", 0 },
		{ "application/openmetrics-text;q=1.", 1 },
		{ "application/openmetrics-text;q=0.", 0 },
		{ "application/openmetrics-text;q=", 0 },
		{ "/", 0 },
		{ "a/", 0 },
		{ "/b", 0 },
		{ ";q=1", 0 },
		{ "garbage;;;,,,", 0 }, /* nothing it can read: as without Accept */
		{ " , ,text/plain ; charset=utf-8 ; q=0.3 ,", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = pb_api_negotiate_metrics(cases[i].accept);

		CHECK(r == cases[i].want, "Accept '%s': %d, want %d",
		      cases[i].accept ? cases[i].accept : "(none)", r, cases[i].want);
	}
}

static struct pb_api_info sample_info(void)
{
	struct pb_api_info in;
	static const uint8_t mac[6] = { 0x02, 0xaa, 0xbb, 0x0c, 0x0d, 0xfe };

	memset(&in, 0, sizeof(in));
	in.api = PB_API_VERSION;
	snprintf(in.version, sizeof(in.version), "0.1.0-test");
	snprintf(in.ifname, sizeof(in.ifname), "eth1");
	in.ifindex = 4;
	snprintf(in.driver, sizeof(in.driver), "ice");
	memcpy(in.mac, mac, 6);
	in.mtu = 9000;
	in.rx_queues = 8;
	snprintf(in.xdp_mode, sizeof(in.xdp_mode), "native");
	in.naddrs = 2;
	in.addrs[0].family = AF_INET;
	inet_pton(AF_INET, "198.18.0.2", &in.addrs[0].v4);
	in.addrs[1].family = AF_INET6;
	inet_pton(AF_INET6, "2001:2::2", &in.addrs[1].v6);
	in.now_ns = 123456789012345ull;
	in.uptime_s = 42.5;
	return in;
}

static struct json_object *parse(const char *s)
{
	struct json_object *o = s ? json_tokener_parse(s) : NULL;

	CHECK(o && json_object_is_type(o, json_type_object), "not a JSON object: %s",
	      s ? s : "(null)");
	return o;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "(missing)";
}

static uint64_t ju64(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_int)
		       ? json_object_get_uint64(v)
		       : 0xbadbadull;
}

static void test_info(void)
{
	struct pb_api_info in = sample_info(), back;
	char *s = pb_api_info_json(&in), err[160];
	struct json_object *o = parse(s), *a;

	CHECK(ju64(o, "api") == 1 && !strcmp(jstr(o, "version"), "0.1.0-test"), "api, version");
	CHECK(!strcmp(jstr(o, "interface"), "eth1") && ju64(o, "ifindex") == 4, "interface");
	CHECK(!strcmp(jstr(o, "driver"), "ice") && !strcmp(jstr(o, "mac"), "02:aa:bb:0c:0d:fe"),
	      "driver, mac: %s", jstr(o, "mac"));
	CHECK(ju64(o, "mtu") == 9000 && ju64(o, "rx_queues") == 8, "mtu, queues");
	CHECK(!strcmp(jstr(o, "xdp_mode"), "native") && !strcmp(jstr(o, "clock"), "monotonic"),
	      "mode, clock");
	CHECK(ju64(o, "now_ns") == 123456789012345ull, "now_ns");
	CHECK(json_object_object_get_ex(o, "addresses", &a) && json_object_array_length(a) == 2 &&
		      !strcmp(json_object_get_string(json_object_array_get_idx(a, 0)),
			      "198.18.0.2") &&
		      !strcmp(json_object_get_string(json_object_array_get_idx(a, 1)), "2001:2::2"),
	      "addresses");
	CHECK(strstr(s, "\"uptime_s\":42.500"), "uptime as written: %s", s);
	CHECK(pb_api_parse_info(s, strlen(s), &back, err, sizeof(err)) == 0, "parse: %s", err);
	CHECK(!strcmp(back.version, in.version) && !strcmp(back.ifname, in.ifname) &&
		      back.ifindex == 4 && !strcmp(back.driver, "ice") &&
		      !memcmp(back.mac, in.mac, 6) && back.mtu == 9000 && back.rx_queues == 8 &&
		      !strcmp(back.xdp_mode, "native") && back.now_ns == in.now_ns &&
		      back.uptime_s == 42.5 && back.naddrs == 2 &&
		      back.addrs[0].family == AF_INET &&
		      back.addrs[0].v4.s_addr == in.addrs[0].v4.s_addr &&
		      back.addrs[1].family == AF_INET6 &&
		      !memcmp(&back.addrs[1].v6, &in.addrs[1].v6, 16),
	      "info round trip");
	json_object_put(o);
	free(s);
	/* another API version is refused, not misread */
	s = strdup("{\"api\":2}");
	CHECK(pb_api_parse_info(s, strlen(s), &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "version 2"),
	      "api 2: %s", err);
	free(s);
}

static struct pb_api_run sample_run(void)
{
	struct pb_api_run r;

	memset(&r, 0, sizeof(r));
	r.run.run_id = 3617469498u;
	r.run.seen = true;
	r.run.frames = 20000;
	r.run.bytes = 1200000;
	r.run.dup = 11;
	r.run.late = 12;
	r.run.stray = 13;
	r.run.unchecked = 14;
	r.run.corrupt = 15;
	r.run.not_host = 16;
	r.run.nqueues = 2;
	r.run.queue_frames[0] = 12000;
	r.run.queue_frames[1] = 8000;
	r.run.first_ns = 5000000000ull;
	r.run.last_ns = 5004000000ull;
	r.run.flows_seen = 7;
	r.run.nvlans = 2;
	r.run.vlans[0] = 0;
	r.run.vlans[1] = 4094;
	r.ifs = (struct pb_rx_ifstats){ .rx_packets = 20010,
					.rx_dropped = 1,
					.rx_missed_errors = 2,
					.rx_fifo_errors = 3,
					.driver_drops = 4,
					.foreign_frames = 5 };
	r.now_ns = 6000000000ull;
	/* latency probes on stream 0, a paced stream 5 without probes */
	r.run.rx_tai = true;
	r.run.nstreams = 2;
	r.run.streams[0].stream = 0;
	r.run.streams[0].probe_kind = 'P';
	r.run.streams[0].probes = 1000;
	r.run.streams[0].late = 2;
	r.run.streams[0].dup = 1;
	r.run.streams[0].missing = 3;
	r.run.streams[0].stray = 4;
	r.run.streams[0].next_seq = 1003;
	r.run.streams[0].lat_n = 999;
	r.run.streams[0].lat_min_ns = 1500;
	r.run.streams[0].lat_max_ns = 90000;
	r.run.streams[0].lat_sum_ns = 3000000;
	r.run.streams[0].lat_bad = 1;
	r.run.streams[0].jitter_ns = 250;
	r.run.streams[0].jitter_n = 999;
	r.run.streams[1].stream = 5;
	r.run.streams[1].gap_frames = 20000;
	r.run.streams[1].gap_first_ns = 5000000001ull;
	r.run.streams[1].gap_last_ns = 5004000001ull;
	return r;
}

static void test_run(void)
{
	struct pb_api_run r = sample_run(), back;
	char *s = pb_api_run_json(&r), err[160];
	struct json_object *o = parse(s), *v, *ifs;

	CHECK(ju64(o, "run_id") == 3617469498u && ju64(o, "frames") == 20000 &&
		      ju64(o, "bytes") == 1200000 && ju64(o, "rx_queues") == 2 &&
		      ju64(o, "frames_duplicate") == 11 && ju64(o, "frames_reordered") == 12 &&
		      ju64(o, "frames_out_of_window") == 13 && ju64(o, "frames_unchecked") == 14 &&
		      ju64(o, "frames_corrupt") == 15 && ju64(o, "frames_not_for_host") == 16 &&
		      ju64(o, "flows_seen") == 7 && ju64(o, "first_ns") == 5000000000ull &&
		      ju64(o, "last_ns") == 5004000000ull && ju64(o, "now_ns") == 6000000000ull,
	      "run fields: %s", s);
	CHECK(json_object_object_get_ex(o, "seen", &v) && json_object_get_boolean(v), "seen");
	CHECK(json_object_object_get_ex(o, "queue_frames", &v) &&
		      json_object_array_length(v) == 2 &&
		      json_object_get_uint64(json_object_array_get_idx(v, 1)) == 8000,
	      "queue_frames");
	CHECK(json_object_object_get_ex(o, "vlans", &v) && json_object_array_length(v) == 2 &&
		      json_object_get_uint64(json_object_array_get_idx(v, 1)) == 4094,
	      "vlans");
	CHECK(json_object_object_get_ex(o, "interface", &ifs) && ju64(ifs, "rx_packets") == 20010 &&
		      ju64(ifs, "rx_dropped") == 1 && ju64(ifs, "rx_missed_errors") == 2 &&
		      ju64(ifs, "rx_fifo_errors") == 3 && ju64(ifs, "driver_drops") == 4 &&
		      ju64(ifs, "foreign_frames") == 5,
	      "interface counters");
	CHECK(pb_api_parse_run(s, strlen(s), r.run.run_id, &back, err, sizeof(err)) == 0,
	      "parse: %s", err);
	CHECK(!memcmp(&back.run, &r.run, sizeof(r.run)) &&
		      !memcmp(&back.ifs, &r.ifs, sizeof(r.ifs)) && back.now_ns == r.now_ns,
	      "run round trip");
	CHECK(pb_api_parse_run(s, strlen(s), 1, &back, err, sizeof(err)) == -EBADMSG &&
		      strstr(err, "not 1"),
	      "another run's answer is refused: %s", err);
	{
		/* an agent from before "stray" counted none: read as 0 */
		char t[4096], *at = strstr(s, ",\"stray\":4");

		CHECK(at != NULL, "stream 0 says stray 4: %s", s);
		if (at) {
			snprintf(t, sizeof(t), "%.*s%s", (int)(at - s), s,
				 at + strlen(",\"stray\":4"));
			CHECK(pb_api_parse_run(t, strlen(t), r.run.run_id, &back, err,
					       sizeof(err)) == 0 &&
				      back.run.streams[0].stray == 0 &&
				      back.run.streams[0].missing == 3,
			      "without stray: 0 (%s)", err);
		}
	}
	json_object_put(o);
	free(s);

	/* a run never seen: zeros, seen false, no arrival times (null, not 0) */
	memset(&r.run, 0, sizeof(r.run));
	r.run.run_id = 99;
	r.run.nqueues = 2;
	s = pb_api_run_json(&r);
	o = parse(s);
	CHECK(json_object_object_get_ex(o, "seen", &v) && !json_object_get_boolean(v),
	      "unseen: seen false");
	CHECK(json_object_object_get_ex(o, "first_ns", &v) && !v &&
		      json_object_object_get_ex(o, "last_ns", &v) && !v,
	      "unseen: first_ns and last_ns null: %s", s);
	CHECK(ju64(o, "frames") == 0 && json_object_object_get_ex(o, "interface", &ifs) &&
		      ju64(ifs, "rx_packets") == 20010,
	      "unseen: zero frames, the interface counters still there");
	CHECK(pb_api_parse_run(s, strlen(s), 99, &back, err, sizeof(err)) == 0 && !back.run.seen &&
		      !back.run.frames && !back.run.first_ns && back.ifs.rx_packets == 20010,
	      "unseen parses: %s", err);
	{
		/* times without frames mean nothing: read as none, as they are written */
		char t[1024], *at = strstr(s, "\"first_ns\":null");

		if (at) {
			snprintf(t, sizeof(t), "%.*s\"first_ns\":5%s", (int)(at - s), s,
				 at + strlen("\"first_ns\":null"));
			CHECK(pb_api_parse_run(t, strlen(t), 99, &back, err, sizeof(err)) == 0 &&
				      !back.run.first_ns,
			      "a time without frames reads as none: %s", err);
		}
	}
	json_object_put(o);
	free(s);

	s = pb_api_error_json("no \"such\" path");
	o = parse(s);
	CHECK(!strcmp(jstr(o, "error"), "no \"such\" path"), "error body: %s", s);
	json_object_put(o);
	free(s);
}

/* The sample run's JSON with one substring replaced: every bad answer is refused. */
static void test_bad_answers(void)
{
	static const struct {
		const char *from, *to, *why;
	} cases[] = {
		{ "\"frames\":20000", "\"frames\":-1", "frames" },
		{ "\"frames\":20000", "\"frames\":\"20000\"", "frames" },
		{ "\"frames\":20000", "\"frames\":20000.5", "frames" },
		{ "\"frames\":20000", "\"frames\":null", "frames" },
		{ "\"frames\":20000,", "", "frames" },
		{ "\"frames_duplicate\":11,", "", "frames_duplicate" },
		{ "\"frames_duplicate\":11", "\"frames_duplicate\":-11", "frames_duplicate" },
		{ "\"frames_out_of_window\":13,", "", "frames_out_of_window" },
		{ "\"frames_corrupt\":15,", "", "frames_corrupt" },
		{ "\"seen\":true", "\"seen\":1", "seen" },
		{ "\"run_id\":3617469498", "\"run_id\":4294967296", "run_id" },
		{ "\"rx_queues\":2", "\"rx_queues\":3", "queue_frames" },
		{ "[12000,8000]", "[12000,-8000]", "queue_frames" },
		{ "[12000,8000]", "{}", "queue_frames" },
		{ "[0,4094]", "[0,4096]", "vlans" },
		{ "\"flows_seen\":7", "\"flows_seen\":4294967296", "flows_seen" },
		{ "\"first_ns\":5000000000", "\"first_ns\":null", "first_ns" },
		{ "\"last_ns\":5004000000,", "", "last_ns" },
		{ "\"rx_dropped\":1", "\"rx_dropped\":true", "rx_dropped" },
		{ "\"driver_drops\":4", "\"driver_dropz\":4", "driver_drops" },
		{ "\"foreign_frames\":5", "\"foreign_frames\":-5", "foreign_frames" },
		{ "\"interface\":{", "\"interface\":[{",
		  "" }, /* not JSON any more, or wrong type */
		{ "\"rx_tai\":true", "\"rx_tai\":1", "rx_tai" },
		{ "\"rx_tai\":true,", "", "rx_tai" },
		{ "\"probe_kind\":\"P\"", "\"probe_kind\":\"N\"", "probe_kind" },
		{ "\"probe_kind\":\"P\"", "\"probe_kind\":80", "probe_kind" },
		{ "\"stream\":5", "\"stream\":64", "stream" },
		{ "\"lat_n\":999", "\"lat_n\":-999", "lat_n" },
		{ "\"stray\":4", "\"stray\":-4", "stray" },
		{ "\"stray\":4", "\"stray\":null", "stray" },
		{ "\"next_seq\":1003", "\"next_seq\":4294967296", "next_seq" },
		{ "\"gap_last_ns\":5004000001", "\"gap_last\":5004000001", "gap_last_ns" },
		{ "\"streams\":[", "\"streams\":{\"x\":[", "" },
	};
	struct pb_api_run r = sample_run(), back;
	char *s = pb_api_run_json(&r), buf[4096], err[160];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(s, cases[i].from);
		int ret;

		CHECK(at, "case %zu: '%s' not in %s", i, cases[i].from, s);
		if (!at)
			continue;
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - s), s, cases[i].to,
			 at + strlen(cases[i].from));
		err[0] = '\0';
		ret = pb_api_parse_run(buf, strlen(buf), r.run.run_id, &back, err, sizeof(err));
		CHECK(ret == -EBADMSG && strstr(err, cases[i].why), "case %zu (%s): %d '%s'", i,
		      cases[i].to, ret, err);
	}
	/* 65 queues: more than any answer holds */
	{
		int off = snprintf(buf, sizeof(buf),
				   "{\"run_id\":1,\"seen\":true,\"frames\":1,"
				   "\"bytes\":60,\"frames_duplicate\":0,"
				   "\"frames_reordered\":0,\"frames_out_of_window\":0,"
				   "\"frames_unchecked\":0,\"frames_corrupt\":0,"
				   "\"frames_not_for_host\":0,\"rx_queues\":65,\"queue_frames\":[");

		for (i = 0; i < 65; i++)
			off += snprintf(buf + off, sizeof(buf) - (size_t)off, "%s1", i ? "," : "");
		snprintf(buf + off, sizeof(buf) - (size_t)off, "]}");
		CHECK(pb_api_parse_run(buf, strlen(buf), 1, &back, err, sizeof(err)) == -EBADMSG &&
			      strstr(err, "queue_frames"),
		      "65 queues refused: %s", err);
	}
	/* not JSON, or not one object */
	{
		static const char *const junk[] = { "",	  "x",	   "{",	  "[]",	  "null",
						    "42", "\"s\"", "{}x", "{} {}" };

		for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
			CHECK(pb_api_parse_run(junk[i], strlen(junk[i]), 1, &back, err,
					       sizeof(err)) == -EBADMSG,
			      "junk '%s' refused", junk[i]);
	}
	/* the length is what counts, not a NUL: a valid answer cut short is refused */
	CHECK(pb_api_parse_run(s, strlen(s) - 1, r.run.run_id, &back, err, sizeof(err)) == -EBADMSG,
	      "cut short refused");
	/* nesting deeper than an answer ever does */
	{
		char deep[200];

		memset(deep, '[', sizeof(deep) - 1);
		deep[sizeof(deep) - 1] = '\0';
		CHECK(pb_api_parse_run(deep, strlen(deep), 1, &back, err, sizeof(err)) == -EBADMSG,
		      "deep nesting refused");
	}
	/* larger than any answer */
	{
		size_t big = PB_API_MAX_BODY + 1;
		char *huge = malloc(big);

		if (huge) {
			memset(huge, ' ', big);
			huge[0] = '{';
			huge[big - 1] = '}';
			CHECK(pb_api_parse_run(huge, big, 1, &back, err, sizeof(err)) == -EBADMSG,
			      "an answer over %u bytes refused", PB_API_MAX_BODY);
			free(huge);
		}
	}
	/* info: a bad MAC, a bad address, a missing field */
	{
		struct pb_api_info in = sample_info(), iback;
		char *is = pb_api_info_json(&in), *at;

		snprintf(buf, sizeof(buf), "%s", is);
		at = strstr(buf, "02:aa");
		if (at)
			at[0] = 'x';
		CHECK(pb_api_parse_info(buf, strlen(buf), &iback, err, sizeof(err)) == -EBADMSG &&
			      strstr(err, "mac"),
		      "bad mac: %s", err);
		snprintf(buf, sizeof(buf), "%s", is);
		at = strstr(buf, "198.18.0.2");
		if (at)
			memcpy(at, "198.18.0.x", 10);
		CHECK(pb_api_parse_info(buf, strlen(buf), &iback, err, sizeof(err)) == -EBADMSG &&
			      strstr(err, "addresses"),
		      "bad address: %s", err);
		snprintf(buf, sizeof(buf), "%.*s\"i\\u0000e\"%s", (int)(strstr(is, "\"ice\"") - is),
			 is, strstr(is, "\"ice\"") + 5);
		CHECK(pb_api_parse_info(buf, strlen(buf), &iback, err, sizeof(err)) == -EBADMSG &&
			      strstr(err, "driver"),
		      "a NUL inside a string: %s", err);
		snprintf(buf, sizeof(buf), "%s", is);
		at = strstr(buf, "42.500");
		if (at)
			memcpy(at, "-1.000", 6);
		CHECK(pb_api_parse_info(buf, strlen(buf), &iback, err, sizeof(err)) == -EBADMSG &&
			      strstr(err, "uptime_s"),
		      "negative uptime: %s", err);
		snprintf(buf, sizeof(buf), "%s", is);
		at = strstr(buf, "\"xdp_mode\"");
		if (at)
			at[1] = 'X';
		CHECK(pb_api_parse_info(buf, strlen(buf), &iback, err, sizeof(err)) == -EBADMSG &&
			      strstr(err, "xdp_mode"),
		      "missing xdp_mode: %s", err);
		free(is);
	}
	free(s);
}

static const char golden_prom[] =
	"# HELP pktbench_receiver_info the receive agent: version, interface, driver, MAC, XDP "
	"mode\n"
	"# TYPE pktbench_receiver_info gauge\n"
	"pktbench_receiver_info{version=\"0.1.0-test\",interface=\"eth1\",driver=\"a\\\"b\\\\c\","
	"mac=\"02:aa:bb:0c:0d:fe\",xdp_mode=\"native\"} 1\n"
	"# HELP pktbench_receiver_rx_queues RX queues of the receiving interface\n"
	"# TYPE pktbench_receiver_rx_queues gauge\n"
	"pktbench_receiver_rx_queues 8\n"
	"# HELP pktbench_receiver_uptime_seconds seconds since the agent attached its receiver\n"
	"# TYPE pktbench_receiver_uptime_seconds gauge\n"
	"pktbench_receiver_uptime_seconds 42.500\n"
	"# HELP pktbench_receiver_clock_seconds the agent's CLOCK_MONOTONIC, which the arrival "
	"times are on\n"
	"# TYPE pktbench_receiver_clock_seconds gauge\n"
	"pktbench_receiver_clock_seconds 123456.789\n"
	"# HELP pktbench_receiver_runs run ids the receiver holds counts for\n"
	"# TYPE pktbench_receiver_runs gauge\n"
	"pktbench_receiver_runs 1\n"
	"# HELP pktbench_receiver_runs_capacity run ids the receiver's runs table holds at most "
	"(LRU: new ones push old out)\n"
	"# TYPE pktbench_receiver_runs_capacity gauge\n"
	"pktbench_receiver_runs_capacity 0\n"
	"# HELP pktbench_receiver_runs_held run ids the runs table holds now\n"
	"# TYPE pktbench_receiver_runs_held gauge\n"
	"pktbench_receiver_runs_held 0\n"
	"# HELP pktbench_receiver_runs_evicted_total runs pushed out of the runs table by newer "
	"run ids, counts and all\n"
	"# TYPE pktbench_receiver_runs_evicted_total counter\n"
	"pktbench_receiver_runs_evicted_total 0\n"
	"# HELP pktbench_receiver_runs_kept runs a reader asked for, kept where new run ids cannot "
	"push them out\n"
	"# TYPE pktbench_receiver_runs_kept gauge\n"
	"pktbench_receiver_runs_kept 0\n"
	"# HELP pktbench_receiver_runs_kept_capacity runs that can be kept at once\n"
	"# TYPE pktbench_receiver_runs_kept_capacity gauge\n"
	"pktbench_receiver_runs_kept_capacity 0\n"
	"# HELP pktbench_receiver_foreign_frames_total frames without a pktbench signature, "
	"passed to the stack\n"
	"# TYPE pktbench_receiver_foreign_frames_total counter\n"
	"pktbench_receiver_foreign_frames_total{interface=\"eth1\"} 6\n"
	"# HELP pktbench_receiver_foreign_bytes_total their bytes\n"
	"# TYPE pktbench_receiver_foreign_bytes_total counter\n"
	"pktbench_receiver_foreign_bytes_total{interface=\"eth1\"} 500\n"
	"# HELP pktbench_receiver_slot_switches_total times a CPU's counting slot changed runs (a "
	"flush each)\n"
	"# TYPE pktbench_receiver_slot_switches_total counter\n"
	"pktbench_receiver_slot_switches_total 3\n"
	"# HELP pktbench_interface_rx_packets_total frames the receiving interface counted\n"
	"# TYPE pktbench_interface_rx_packets_total counter\n"
	"pktbench_interface_rx_packets_total{interface=\"eth1\"} 20010\n"
	"# HELP pktbench_interface_rx_dropped_total frames the receiving interface dropped "
	"(rx_dropped)\n"
	"# TYPE pktbench_interface_rx_dropped_total counter\n"
	"pktbench_interface_rx_dropped_total{interface=\"eth1\"} 1\n"
	"# HELP pktbench_interface_rx_missed_errors_total frames the NIC missed "
	"(rx_missed_errors)\n"
	"# TYPE pktbench_interface_rx_missed_errors_total counter\n"
	"pktbench_interface_rx_missed_errors_total{interface=\"eth1\"} 2\n"
	"# HELP pktbench_interface_rx_fifo_errors_total frames lost to FIFO overruns "
	"(rx_fifo_errors)\n"
	"# TYPE pktbench_interface_rx_fifo_errors_total counter\n"
	"pktbench_interface_rx_fifo_errors_total{interface=\"eth1\"} 3\n"
	"# HELP pktbench_interface_driver_drops_total the driver's ethtool counters named drop, "
	"discard or miss (not XDP's)\n"
	"# TYPE pktbench_interface_driver_drops_total counter\n"
	"pktbench_interface_driver_drops_total{interface=\"eth1\"} 4\n"
	"# HELP pktbench_run_frames_total unique frames with this run id's signature\n"
	"# TYPE pktbench_run_frames_total counter\n"
	"pktbench_run_frames_total{run=\"edcf1584598ef29e\"} 20000\n"
	"# HELP pktbench_run_bytes_total their bytes, Ethernet header on\n"
	"# TYPE pktbench_run_bytes_total counter\n"
	"pktbench_run_bytes_total{run=\"edcf1584598ef29e\"} 1200000\n"
	"# HELP pktbench_run_frames_duplicate_total frames that arrived again (a sequence number "
	"seen before), not in frames\n"
	"# TYPE pktbench_run_frames_duplicate_total counter\n"
	"pktbench_run_frames_duplicate_total{run=\"edcf1584598ef29e\"} 11\n"
	"# HELP pktbench_run_frames_reordered_total frames that arrived after a later one of their "
	"stream, in frames\n"
	"# TYPE pktbench_run_frames_reordered_total counter\n"
	"pktbench_run_frames_reordered_total{run=\"edcf1584598ef29e\"} 12\n"
	"# HELP pktbench_run_frames_out_of_window_total frames too far out of order to tell from a "
	"duplicate, not in frames\n"
	"# TYPE pktbench_run_frames_out_of_window_total counter\n"
	"pktbench_run_frames_out_of_window_total{run=\"edcf1584598ef29e\"} 13\n"
	"# HELP pktbench_run_frames_unchecked_total frames counted without a sequence check, in "
	"frames\n"
	"# TYPE pktbench_run_frames_unchecked_total counter\n"
	"pktbench_run_frames_unchecked_total{run=\"edcf1584598ef29e\"} 14\n"
	"# HELP pktbench_run_frames_corrupt_total frames the host would refuse: an IPv4 header "
	"checksum or version, a UDP checksum, lengths\n"
	"# TYPE pktbench_run_frames_corrupt_total counter\n"
	"pktbench_run_frames_corrupt_total{run=\"edcf1584598ef29e\"} 15\n"
	"# HELP pktbench_run_frames_not_for_host_total frames sent to another destination MAC or "
	"IP address\n"
	"# TYPE pktbench_run_frames_not_for_host_total counter\n"
	"pktbench_run_frames_not_for_host_total{run=\"edcf1584598ef29e\"} 16\n"
	"# HELP pktbench_run_queue_frames_total this run's frames per RX queue (queues that had "
	"any)\n"
	"# TYPE pktbench_run_queue_frames_total counter\n"
	"pktbench_run_queue_frames_total{run=\"edcf1584598ef29e\",queue=\"0\"} 12000\n"
	"pktbench_run_queue_frames_total{run=\"edcf1584598ef29e\",queue=\"1\"} 8000\n"
	"# HELP pktbench_run_flows_seen distinct UDP source ports\n"
	"# TYPE pktbench_run_flows_seen gauge\n"
	"pktbench_run_flows_seen{run=\"edcf1584598ef29e\"} 7\n"
	"# HELP pktbench_run_vlan 1 for each VLAN id this run arrived with (0: untagged)\n"
	"# TYPE pktbench_run_vlan gauge\n"
	"pktbench_run_vlan{run=\"edcf1584598ef29e\",vlan=\"0\"} 1\n"
	"pktbench_run_vlan{run=\"edcf1584598ef29e\",vlan=\"4094\"} 1\n"
	"# HELP pktbench_run_first_arrival_seconds CLOCK_MONOTONIC of the run's first frame, exact "
	"to a scheduler tick\n"
	"# TYPE pktbench_run_first_arrival_seconds gauge\n"
	"pktbench_run_first_arrival_seconds{run=\"edcf1584598ef29e\"} 5.000\n"
	"# HELP pktbench_run_last_arrival_seconds CLOCK_MONOTONIC of the run's last frame, exact "
	"to a scheduler tick\n"
	"# TYPE pktbench_run_last_arrival_seconds gauge\n"
	"pktbench_run_last_arrival_seconds{run=\"edcf1584598ef29e\"} 5.004\n"
	"# HELP pktbench_run_probes_total latency probes of this run that arrived (--latency)\n"
	"# TYPE pktbench_run_probes_total counter\n"
	"pktbench_run_probes_total{run=\"edcf1584598ef29e\"} 1000\n"
	"# HELP pktbench_run_probes_missing probe sequence numbers skipped and not filled since: "
	"probes lost so far\n"
	"# TYPE pktbench_run_probes_missing gauge\n"
	"pktbench_run_probes_missing{run=\"edcf1584598ef29e\"} 3\n"
	"# HELP pktbench_run_latency_seconds one-way latency of the probes whose latency was taken "
	"(common clocks)\n"
	"# TYPE pktbench_run_latency_seconds histogram\n";

/* The agent's secret in these tests: 00 01 .. 0f. */
static const uint8_t label_key[PB_API_KEY_LEN] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

/* A hand-made agent's metrics: Prometheus text exactly, and what OpenMetrics does apart. */
static void test_metrics(void)
{
	struct pb_api_info in = sample_info();
	struct pb_api_run r = sample_run();
	struct pb_api_metrics m = { .info = &in,
				    .label_key = label_key,
				    .ifs = r.ifs,
				    .foreign_frames = 6,
				    .foreign_bytes = 500,
				    .slot_switches = 3,
				    .runs = &r.run,
				    .nruns = 1 };
	size_t len;
	char *t;

	snprintf(in.driver, sizeof(in.driver), "a\"b\\c"); /* label values are escaped */
	in.now_ns = 123456789000000ull;
	t = pb_api_metrics_text(&m, false, &len);
	CHECK(t && len == strlen(t) && !strcmp(t, golden_prom), "Prometheus text:\n%s",
	      t ? t : "(null)");
	free(t);

	t = pb_api_metrics_text(&m, true, &len);
	CHECK(t && len == strlen(t), "OpenMetrics text");
	if (t) {
		/* OpenMetrics: TYPE before HELP, families without the sample suffix, # EOF last */
		CHECK(strstr(t, "# TYPE pktbench_run_frames counter\n# HELP pktbench_run_frames "
				"unique frames with this run id's signature\n"
				"pktbench_run_frames_total{run=\"edcf1584598ef29e\"} 20000\n"),
		      "counter family");
		CHECK(strstr(t, "# TYPE pktbench_receiver info\n"), "info family");
		CHECK(strstr(t, "\npktbench_receiver_info{version="), "info sample");
		CHECK(strstr(t, "# TYPE pktbench_run_flows_seen gauge\n"), "gauge family");
		CHECK(!strstr(t, "_total counter") && !strstr(t, "_info info"),
		      "no suffix in a family name");
		CHECK(len > 6 && !strcmp(t + len - 6, "# EOF\n"), "ends with # EOF");
		CHECK(!strstr(golden_prom, "# EOF"), "Prometheus text has no # EOF");
	}
	free(t);

	/* an announced run: its test by label, its shard; neither id anywhere in the text */
	{
		struct pb_api_run_tag tag = { .test_id = "6f9619ff-8b86-4011-b42d-00c04fc964ff",
					      .shard = "2/3" };
		const char *frames = "\npktbench_run_frames_total{run=\"edcf1584598ef29e\",test=\""
				     "80e3efa180ebafd5\",shard=\"2/3\"} 20000\n";
		const char *queue = "{run=\"edcf1584598ef29e\",test=\"80e3efa180ebafd5\",shard=\""
				    "2/3\",queue=\"1\"} 8000\n";

		m.tags = &tag;
		t = pb_api_metrics_text(&m, false, &len);
		CHECK(t && strstr(t, frames) && strstr(t, queue) && !strstr(t, "3617469498") &&
			      !strstr(t, "6f9619ff") &&
			      !strstr(t, "d79e343a"), /* the run id in hex */
		      "a test's run by labels only:\n%s", t ? t : "(null)");
		free(t);
		m.tags = NULL;
	}

	/*
	 * The probes' latency as a Prometheus histogram: 10 probes at 20 us, 989 at 300 us, one
	 * at 2 s (fine buckets at those values, folded under the first bound they do not pass)
	 */
	{
		uint64_t *counts = calloc(PB_RX_HIST_BUCKETS, sizeof(*counts));
		struct pb_api_lat lat;
		char want[160];

		if (counts) {
			counts[pb_hist_bucket(20000)] = 10;
			counts[pb_hist_bucket(300000)] = 989;
			counts[pb_hist_bucket(2000000000)] = 1;
		}
		pb_api_lat_fold(counts ? counts : (uint64_t[PB_RX_HIST_BUCKETS]){ 0 }, &lat);
		CHECK(lat.le[0] == 0 && lat.le[1] == 10 && lat.le[4] == 10 && lat.le[5] == 999 &&
			      lat.le[PB_API_LAT_LE - 1] == 999 && lat.le[PB_API_LAT_LE] == 1000,
		      "folded: 10 us %" PRIu64 ", 25 us %" PRIu64 ", 500 us %" PRIu64
		      ", 1 s %" PRIu64 ", all %" PRIu64,
		      lat.le[0], lat.le[1], lat.le[5], lat.le[PB_API_LAT_LE - 1],
		      lat.le[PB_API_LAT_LE]);
		free(counts);
		r.run.streams[0].lat_sum_ns = 2300000000ull;
		m.lat = &lat;
		t = pb_api_metrics_text(&m, false, &len);
		snprintf(want, sizeof(want), "\npktbench_run_latency_seconds_bucket{run=\"%s\",le=\"%s\"} %s\n",
			 "edcf1584598ef29e", "2.5e-05", "10");
		CHECK(t && strstr(t, want), "the 25 us bucket:\n%s", t ? t : "(null)");
		CHECK(t && strstr(t, "{run=\"edcf1584598ef29e\",le=\"0.0005\"} 999\n") &&
			      strstr(t, "{run=\"edcf1584598ef29e\",le=\"+Inf\"} 1000\n") &&
			      strstr(t, "\npktbench_run_latency_seconds_count{run=\"edcf1584598ef29e\"} "
					"1000\n") &&
			      strstr(t, "\npktbench_run_latency_seconds_sum{run=\"edcf1584598ef29e\"} "
					"2.300000000\n"),
		      "500 us, +Inf, count, sum");
		free(t);
		t = pb_api_metrics_text(&m, true, &len);
		CHECK(t && strstr(t, "# TYPE pktbench_run_latency_seconds histogram\n# HELP "
				     "pktbench_run_latency_seconds ") &&
			      len > 6 && !strcmp(t + len - 6, "# EOF\n"),
		      "OpenMetrics: a histogram family, # EOF last");
		free(t);
		m.lat = NULL;
	}

	/* no runs: the per-run families are there, empty */
	m.nruns = 0;
	t = pb_api_metrics_text(&m, false, &len);
	CHECK(t && strstr(t, "pktbench_receiver_runs 0\n") &&
		      !strstr(t, "pktbench_run_frames_total{"),
	      "no runs");
	free(t);

	CHECK(strstr(pb_api_metrics_type(true), "openmetrics-text; version=1.0.0") &&
		      strstr(pb_api_metrics_type(false), "version=0.0.4"),
	      "content types");
}

static void test_listen(void)
{
	static const char *const good4[] = { "198.18.0.2:9310", "0.0.0.0:1", "127.0.0.1:65535" };
	static const char *const bad[] = {
		"",	     "198.18.0.2",	  "198.18.0.2:",      "198.18.0.2:0",
		":9310",     "198.18.0.2:65536",  "198.18.0.2:09310", "198.18.0.2:93a",
		"host:9310", "2001:2::2:9310",	  "[2001:2::2]",      "[2001:2::2]9310",
		"[zz]:9310", "[198.18.0.2]:9310", "198.18.0.256:1",   "198.18.0.2:1:2",
		"[::1]:-1",  "198.18.0.2:+80",
	};
	struct sockaddr_storage ss;
	socklen_t len;
	size_t i;

	for (i = 0; i < sizeof(good4) / sizeof(good4[0]); i++)
		CHECK(!pb_api_parse_listen(good4[i], &ss, &len) && ss.ss_family == AF_INET &&
			      len == sizeof(struct sockaddr_in),
		      "'%s'", good4[i]);
	CHECK(!pb_api_parse_listen("198.18.0.2:9310", &ss, &len) &&
		      ntohs(((struct sockaddr_in *)&ss)->sin_port) == 9310 &&
		      ((struct sockaddr_in *)&ss)->sin_addr.s_addr == htonl(0xc6120002),
	      "address and port");
	CHECK(!pb_api_parse_listen("[2001:2::2]:9310", &ss, &len) && ss.ss_family == AF_INET6 &&
		      len == sizeof(struct sockaddr_in6) &&
		      ntohs(((struct sockaddr_in6 *)&ss)->sin6_port) == 9310,
	      "IPv6");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(pb_api_parse_listen(bad[i], &ss, &len) == -EINVAL, "'%s' refused", bad[i]);
}

static void test_url(void)
{
	static const struct {
		const char *url, *base;
	} good[] = {
		{ "http://198.18.0.2:9310", "http://198.18.0.2:9310" },
		{ "http://198.18.0.2:9310/", "http://198.18.0.2:9310" },
		{ "http://[2001:2::2]:9310", "http://[2001:2::2]:9310" },
		{ "http://[2001:2::2]", "http://[2001:2::2]" },
		{ "http://agent-1.lab.example", "http://agent-1.lab.example" },
		{ "http://agent:80/", "http://agent:80" },
	};
	static const char *const bad[] = {
		"",
		"198.18.0.2:9310",
		"http://",
		"http:///",
		"http://:9310",
		"http://198.18.0.2:9310/v1",
		"http://198.18.0.2:9310?x=1",
		"http://198.18.0.2:9310#f",
		"http://user@198.18.0.2:9310",
		"http://198.18.0.2:0",
		"http://198.18.0.2:65536",
		"http://198.18.0.2:",
		"http://[2001:2::2",
		"http://[nope]:80",
		"http://[]:80",
		"ftp://198.18.0.2",
		"http://198.18.0.2:9310//",
		"http://a b",
	};
	char base[64], err[256];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(!pb_api_check_url(good[i].url, base, sizeof(base), err, sizeof(err)) &&
			      !strcmp(base, good[i].base),
		      "'%s': %s", good[i].url, err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(pb_api_check_url(bad[i], base, sizeof(base), err, sizeof(err)) == -EINVAL &&
			      strstr(err, "http://HOST"),
		      "'%s' refused: %s", bad[i], err);
	CHECK(pb_api_check_url("https://198.18.0.2", base, sizeof(base), err, sizeof(err)) ==
			      -EINVAL &&
		      strstr(err, "no https"),
	      "https says why: %s", err);
	/* longer than the base it would go into */
	CHECK(pb_api_check_url(
		      "http://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		      "aaaaaaaaaaaa",
		      base, sizeof(base), err, sizeof(err)) == -EINVAL,
	      "too long");
}

/* A run's histograms: the buckets that hold samples, as [upper_bound_ns, count]. */
static void test_hist(void)
{
	static uint64_t counts[PB_RX_HIST_BUCKETS], back[PB_RX_HIST_BUCKETS];
	static const struct {
		const char *from, *to, *why;
	} bad[] = {
		{ "\"run_id\":7", "\"run_id\":8", "not 7" },
		{ "\"which\":\"lat\"", "\"which\":\"gap\"", "the histogram asked for" },
		{ "\"which\":\"lat\"", "\"which\":\"l\\nat\"", "not \"lat\"" },
		{ "[1003519,3]", "[1003520,3]", "bound of a bucket" },
		{ "[1003519,3]", "[1003519,-3]", "pair of whole numbers" },
		{ "[1003519,3]", "[1003519]", "pair of whole numbers" },
		{ "[1003519,3]", "[5,1]", "" }, /* 5 before 255: fine, order is not asked */
		{ "[255,1]", "[1003519,1]", "given twice" },
		{ "\"histogram\":[", "\"histogram\":{\"x\":[", "" },
	};
	char *s, buf[4096], err[160];
	size_t i;
	int ret;

	counts[pb_hist_bucket(255)] = 1;
	counts[pb_hist_bucket(1000000)] = 3;
	counts[PB_RX_HIST_BUCKETS - 1] = 2;
	s = pb_api_hist_json(7, PB_RX_HIST_LAT, counts);
	CHECK(s && strstr(s, "\"histogram\":[[255,1],[1003519,3],[17179869183,2]]"),
	      "the histogram's pairs: %s", s);
	ret = pb_api_parse_hist(s, strlen(s), 7, PB_RX_HIST_LAT, back, err, sizeof(err));
	CHECK(!ret && !memcmp(back, counts, sizeof(counts)), "histogram round trip: %s", err);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *at = strstr(s, bad[i].from);

		CHECK(at, "case %zu: '%s' not in %s", i, bad[i].from, s);
		if (!at)
			continue;
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - s), s, bad[i].to,
			 at + strlen(bad[i].from));
		err[0] = '\0';
		ret = pb_api_parse_hist(buf, strlen(buf), 7, PB_RX_HIST_LAT, back, err,
					sizeof(err));
		if (!bad[i].why[0] && !strcmp(bad[i].to, "[5,1]"))
			CHECK(!ret && back[5] == 1, "case %zu: %d %s", i, ret, err);
		else
			CHECK(ret == -EBADMSG && strstr(err, bad[i].why) &&
				      !back[pb_hist_bucket(1000000)],
			      "case %zu (%s): %d '%s', nothing kept", i, bad[i].to, ret, err);
	}
	free(s);
	/* an empty one, and the gap histogram's name */
	memset(counts, 0, sizeof(counts));
	s = pb_api_hist_json(9, PB_RX_HIST_GAP, counts);
	CHECK(s && strstr(s, "\"which\":\"gap\"") && strstr(s, "\"histogram\":[]") &&
		      !pb_api_parse_hist(s, strlen(s), 9, PB_RX_HIST_GAP, back, err, sizeof(err)),
	      "an empty gap histogram: %s", s);
	free(s);
}

/* An agent from before the probes sends neither rx_tai nor streams: a run without them. */
static void test_run_without_streams(void)
{
	struct pb_api_run r = sample_run(), back;
	char *s = pb_api_run_json(&r), buf[4096], err[160];
	char *at = s ? strstr(s, ",\"rx_tai\"") : NULL;

	CHECK(at != NULL, "rx_tai written: %s", s);
	if (at) {
		snprintf(buf, sizeof(buf), "%.*s}", (int)(at - s), s);
		CHECK(!pb_api_parse_run(buf, strlen(buf), r.run.run_id, &back, err, sizeof(err)) &&
			      !back.run.nstreams && !back.run.rx_tai && back.run.frames == 20000,
		      "an older agent's answer: %s", err);
	}
	free(s);
}

/* /v1/tests/UUID: runs announced for the test summed, per shard; labels from the announcement */
/* SHA-256 against FIPS 180-4's examples and Python's hashlib; the labels made of it. */
static void test_labels(void)
{
	static const struct {
		const char *in;
		size_t n; /* of 'a's, where in is NULL */
		const char *hex;
	} v[] = {
		{ "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", 0, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 0,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		/* either side of the padding's one block or two, and two whole blocks */
		{ NULL, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ NULL, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ NULL, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ NULL, 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
	};
	uint8_t key2[PB_API_KEY_LEN] = { 0 }, d[32];
	char in[128], hex[65], a[PB_API_LABEL_LEN], b[PB_API_LABEL_LEN];
	size_t i, k, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		n = v[i].in ? strlen(v[i].in) : v[i].n;
		if (v[i].in)
			memcpy(in, v[i].in, n);
		else
			memset(in, 'a', n);
		pb_api_sha256(in, n, d);
		for (k = 0; k < 32; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		CHECK(!strcmp(hex, v[i].hex), "SHA-256 of %zu bytes: %s", n, hex);
	}
	/* sha256(00 01 .. 0f, then 3617469498 big-endian), as Python's hashlib has it */
	pb_api_run_label(label_key, 3617469498u, a);
	CHECK(!strcmp(a, "edcf1584598ef29e"), "a run's label: %s", a);
	pb_api_run_label(key2, 3617469498u, b);
	CHECK(strlen(b) == 16 && strcmp(a, b), "another agent's key, another label: %s", b);
	pb_api_run_label(label_key, 3617469499u, b);
	CHECK(strcmp(a, b), "another run, another label: %s", b);
	/* `printf %s UUID | sha256sum | cut -c1-16` */
	pb_api_test_label("6f9619ff-8b86-4011-b42d-00c04fc964ff", a);
	CHECK(!strcmp(a, "80e3efa180ebafd5"), "a test's label: %s", a);
	pb_api_test_label("", a);
	CHECK(!a[0], "no test, no label");
}

/* /v1/runs/RUN_ID gives its run's label, so whoever knows the run id finds its series. */
static void test_run_label(void)
{
	struct pb_api_run r = sample_run();
	char *s;

	s = pb_api_run_json(&r);
	CHECK(s && !strstr(s, "\"label\""), "no label given: none in the answer");
	free(s);
	pb_api_run_label(label_key, r.run.run_id, r.label);
	s = pb_api_run_json(&r);
	CHECK(s && strstr(s, "\"label\":\"edcf1584598ef29e\""), "the run's label: %s",
	      s ? s : "(null)");
	free(s);
}

static void test_tests(void)
{
	struct pb_rx_meta meta = { .test = { 0x6f, 0x96, 0x19, 0xff, 0x8b, 0x86, 0x40, 0x11, 0xb4,
					     0x2d, 0x00, 0xc0, 0x4f, 0xc9, 0x64, 0xff },
				   .shard_index = 2,
				   .shard_count = 3 };
	struct pb_api_run_tag tag, none;
	struct pb_rx_meta empty = { .shard_index = 1, .shard_count = 2 };
	/* r1 paced: its stream timed its first frame; r2 has only the coarse clock's tick */
	struct pb_rx_run r1 = { .run_id = 1,
				.seen = true,
				.frames = 10,
				.bytes = 600,
				.first_ns = 999000,
				.nstreams = 1,
				.streams = { { .gap_frames = 10, .gap_first_ns = 1000500 } } };
	struct pb_rx_run r2 = {
		.run_id = 2, .seen = true, .frames = 5, .bytes = 300, .first_ns = 1000000
	};
	struct pb_api_test *t = calloc(1, sizeof(*t));
	char id[40], *j;

	pb_api_run_tag(&meta, &tag);
	CHECK(!strcmp(tag.test_id, "6f9619ff-8b86-4011-b42d-00c04fc964ff") &&
		      !strcmp(tag.shard, "2/3"),
	      "an announcement as labels: %s %s", tag.test_id, tag.shard);
	pb_api_run_tag(&empty, &none);
	CHECK(!none.test_id[0] && !strcmp(none.shard, "1/2"), "a shard of no named test");
	CHECK(!pb_api_test_id("/v1/tests/6F9619FF-8B86-4011-B42D-00C04FC964FF", id) &&
		      !strcmp(id, "6f9619ff-8b86-4011-b42d-00c04fc964ff"),
	      "the test id from the path, lower case");
	if (!t)
		return;
	snprintf(t->test_id, sizeof(t->test_id), "%s", tag.test_id);
	pb_api_test_add(t, &r1, &tag);
	pb_api_test_add(t, &r2, &tag);
	pb_api_test_add(t, &r2, &none);
	j = pb_api_test_json(t);
	CHECK(j && strstr(j, "\"label\":\"80e3efa180ebafd5\""), "the test's label: %s",
	      j ? j : "(null)");
	CHECK(j && strstr(j, "\"runs\":3") && strstr(j, "\"frames\":20") &&
		      strstr(j, "\"2/3\":{\"runs\":2,\"frames\":15,\"bytes\":900,") &&
		      strstr(j, "\"1/2\":{\"runs\":1,\"frames\":5,\"bytes\":300,"),
	      "the test's sums and its shards: %s", j ? j : "(null)");
	/* a shard's first arrival: a timed frame's over an earlier tick (2/3), else the tick */
	CHECK(j &&
		      strstr(j, "\"bytes\":900,\"first_arrival_ns\":1000500,"
				"\"first_arrival_timed\":true}") &&
		      strstr(j, "\"bytes\":300,\"first_arrival_ns\":1000000,"
				"\"first_arrival_timed\":false}") &&
		      strstr(j, "\"arrival_spread_us\":0.5,\"arrival_timed\":false"),
	      "the shards' first arrivals and their spread: %s", j ? j : "(null)");
	free(j);
	free(t);
}

int main(void)
{
	test_routes();
	test_tests();
	test_target();
	test_negotiate();
	test_info();
	test_run();
	test_bad_answers();
	test_hist();
	test_run_without_streams();
	test_metrics();
	test_labels();
	test_run_label();
	test_listen();
	test_url();
	return check_summary();
}
