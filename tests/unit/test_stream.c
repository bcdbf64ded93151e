// SPDX-License-Identifier: MIT
/*
 * --stream's NDJSON (results/stream.c) written to a file and read back line by line, against
 * lines written out here: an interval a second from the runner's cumulative samples, the
 * run's last part and its row, the set; intervals that add up to the row's frames exactly;
 * nothing on a stream not asked for; an open that fails, and a write that fails once and
 * then writes nothing more. net/test_stream runs it through the lab; here every byte counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json.h>

#include "check.h"
#include "stats.h"
#include "stream.h"
#include "writers.h"

static char path[256];

/* o as stream.c writes it: one line, slashes as they are */
static char *plain(struct json_object *o)
{
	char *s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								   JSON_C_TO_STRING_NOSLASHESCAPE));

	json_object_put(o);
	return s;
}

/* Line n (from 0) of text, without its newline, in buf; false when there are fewer. */
static bool line_of(const char *text, unsigned int n, char *buf, size_t size)
{
	const char *end;

	while (n--) {
		text = strchr(text, '\n');
		if (!text)
			return false;
		text++;
	}
	end = strchr(text, '\n');
	if (!end || (size_t)(end - text) >= size)
		return false;
	memcpy(buf, text, end - text);
	buf[end - text] = '\0';
	return true;
}

static unsigned int lines(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void expect_line(const char *text, unsigned int n, const char *want, const char *what)
{
	static char got[16384];

	if (!line_of(text, n, got, sizeof(got))) {
		CHECK(0, "%s: no line %u", what, n + 1);
		return;
	}
	CHECK(!strcmp(got, want), "%s: line %u\n  got  %s\n  want %s", what, n + 1, got, want);
}

/*
 * A run of 2.5 s: its two seconds streamed as they went (the second with --latency probes and
 * the link down), then its end: the last half second and the drain, and the row; then a
 * skipped row (no window: no interval) and the set.
 */
static void test_run(void)
{
	struct pb_sample zero = { 0 };
	struct pb_sample s[2] = {
		{ .t = 1, .sent = 1000, .delivered = 990, .delivered_known = true },
		{ .t = 2,
		  .sent = 2500,
		  .delivered = 2450,
		  .delivered_known = true,
		  .lat_known = true,
		  .lat_n = 4,
		  .lat_p50_us = 12.5,
		  .lat_p99_us = 40.25 },
	};
	struct pb_result r[2];
	struct pb_report rep = { .version = "0.1.0-test",
				 .command = "pktbench --stream /tmp/s.ndjson",
				 .kernel = "6.18.0",
				 .iface = "pbA",
				 .driver = "veth",
				 .cpus = 2,
				 .tx_queues = 1,
				 .rx_queues = 1,
				 .lab = true,
				 .lab_dut_cpu = -1,
				 .results = r,
				 .n = 2 };
	char err[128] = "", *text, *row0, *row1, *set, want[20000];
	struct pb_stream st;

	memset(r, 0, sizeof(r));
	snprintf(r[0].method, sizeof(r[0].method), "af_packet");
	snprintf(r[0].point, sizeof(r[0].point), "pps=10000");
	r[0].status = PB_STATUS_OK;
	r[0].measured = true;
	r[0].run_id = 0x1234;
	r[0].duration_s = 2.5;
	r[0].frame_bytes = 60;
	r[0].streams = 1;
	r[0].frames_sent = 3000;
	r[0].has_receiver = true;
	r[0].delivered_known = true;
	r[0].frames_delivered = 2950;
	r[0].samples = s;
	r[0].nsamples = 2;
	pb_result_compute(&r[0]);
	snprintf(r[1].method, sizeof(r[1].method), "pcap");
	r[1].status = PB_STATUS_SKIPPED;
	snprintf(r[1].reason, sizeof(r[1].reason), "not built");

	CHECK(!pb_stream_open(&st, path, err, sizeof(err)), "open %s: %s", path, err);
	pb_stream_interval(&st, "af_packet", "pps=10000", 0x1234, &zero, &s[0], true);
	pb_stream_interval(&st, "af_packet", "pps=10000", 0x1234, &s[0], &s[1], false);
	pb_stream_row(&st, &r[0]);
	pb_stream_row(&st, &r[1]);
	pb_stream_set(&st, &rep);
	CHECK(pb_stream_close(&st) == 0, "close: 0");

	text = read_all(path);
	if (!text) {
		CHECK(0, "read %s back", path);
		return;
	}
	CHECK(lines(text) == 6, "3 intervals, 2 rows, the set: 6 lines (got %u)", lines(text));
	expect_line(text, 0,
		    "{\"type\":\"interval\",\"method\":\"af_packet\",\"point\":\"pps=10000\","
		    "\"run_id\":4660,\"t_s\":1.0,\"dt_s\":1.0,\"frames_sent\":1000,"
		    "\"frames_delivered\":990,\"pps\":1000.0,\"delivered_pps\":990.0,"
		    "\"probes\":null,\"latency_p50_us\":null,\"latency_p99_us\":null,"
		    "\"last\":false,\"link_up\":true}",
		    "the first second, from the window's start");
	expect_line(text, 1,
		    "{\"type\":\"interval\",\"method\":\"af_packet\",\"point\":\"pps=10000\","
		    "\"run_id\":4660,\"t_s\":2.0,\"dt_s\":1.0,\"frames_sent\":1500,"
		    "\"frames_delivered\":1460,\"pps\":1500.0,\"delivered_pps\":1460.0,"
		    "\"probes\":4,\"latency_p50_us\":12.5,\"latency_p99_us\":40.25,"
		    "\"last\":false,\"link_up\":false}",
		    "the second second: differences, its probes, the link down");
	/* the rest: 3000 - 2500 sent and 2950 - 2450 delivered in the last 0.5 s */
	expect_line(text, 2,
		    "{\"type\":\"interval\",\"method\":\"af_packet\",\"point\":\"pps=10000\","
		    "\"run_id\":4660,\"t_s\":2.5,\"dt_s\":0.5,\"frames_sent\":500,"
		    "\"frames_delivered\":500,\"pps\":1000.0,\"delivered_pps\":1000.0,"
		    "\"probes\":null,\"latency_p50_us\":null,\"latency_p99_us\":null,"
		    "\"last\":true}",
		    "the run's end: the last part, so the intervals add up to the row");
	row0 = plain(pb_json_row(&r[0], false));
	row1 = plain(pb_json_row(&r[1], false));
	set = plain(pb_json_set(&rep));
	snprintf(want, sizeof(want), "{\"type\":\"row\",\"row\":%s}", row0);
	expect_line(text, 3, want, "the row, as --format json writes it");
	snprintf(want, sizeof(want), "{\"type\":\"row\",\"row\":%s}", row1);
	expect_line(text, 4, want, "a skipped row: no interval before it");
	snprintf(want, sizeof(want), "{\"type\":\"set\",\"set\":%s}", set);
	expect_line(text, 5, want, "the set last");
	CHECK(strstr(row0, "\"frames_sent\":3000") && strstr(row0, "\"frames_delivered\":2950"),
	      "the row's own counts are the intervals' sums (1000 + 1500 + 500, 990 + 1460 + 500)");
	free(row0);
	free(row1);
	free(set);
	free(text);
}

/* A second the receiver did not answer: that interval and the next have no delivered count. */
static void test_delivered_unknown(void)
{
	struct pb_sample a = { .t = 1, .sent = 100, .delivered = 100, .delivered_known = true };
	struct pb_sample b = { .t = 2, .sent = 300 };
	struct pb_sample c = { .t = 3, .sent = 600, .delivered = 550, .delivered_known = true };
	char err[128] = "", *text;
	struct pb_stream st;

	CHECK(!pb_stream_open(&st, path, err, sizeof(err)), "open %s: %s", path, err);
	pb_stream_interval(&st, "udp_sendto", "", 7, &a, &b, true);
	pb_stream_interval(&st, "udp_sendto", "", 7, &b, &c, true);
	CHECK(pb_stream_close(&st) == 0, "unknown: close 0");
	text = read_all(path);
	if (!text) {
		CHECK(0, "read %s back", path);
		return;
	}
	CHECK(lines(text) == 2, "unknown: 2 lines (got %u)", lines(text));
	expect_line(text, 0,
		    "{\"type\":\"interval\",\"method\":\"udp_sendto\",\"point\":null,"
		    "\"run_id\":7,\"t_s\":2.0,\"dt_s\":1.0,\"frames_sent\":200,"
		    "\"frames_delivered\":null,\"pps\":200.0,\"delivered_pps\":null,"
		    "\"probes\":null,\"latency_p50_us\":null,\"latency_p99_us\":null,"
		    "\"last\":false,\"link_up\":true}",
		    "unknown: the second not answered");
	expect_line(text, 1,
		    "{\"type\":\"interval\",\"method\":\"udp_sendto\",\"point\":null,"
		    "\"run_id\":7,\"t_s\":3.0,\"dt_s\":1.0,\"frames_sent\":300,"
		    "\"frames_delivered\":null,\"pps\":300.0,\"delivered_pps\":null,"
		    "\"probes\":null,\"latency_p50_us\":null,\"latency_p99_us\":null,"
		    "\"last\":false,\"link_up\":true}",
		    "unknown: the next one, whose start is unknown");
	free(text);
}

/* No --stream, an open that fails, a device that is full, and "-" (stdout, never closed). */
static void test_edges(void)
{
	struct pb_sample a = { 0 }, b = { .t = 1, .sent = 10 };
	struct pb_result r = { .status = PB_STATUS_OK };
	struct pb_stream st = { 0 };
	char err[128] = "";
	int ret;

	pb_stream_interval(&st, "null", "", 1, &a, &b, true);
	pb_stream_row(&st, &r);
	pb_stream_set(&st, NULL);
	CHECK(pb_stream_close(&st) == 0 && !st.error, "no --stream: nothing written, close 0");

	ret = pb_stream_open(&st, "/nonexistent-pb-dir/s.ndjson", err, sizeof(err));
	CHECK(ret == -ENOENT && !st.f, "a missing folder: -ENOENT (got %d)", ret);
	CHECK(!strcmp(err, "--stream /nonexistent-pb-dir/s.ndjson: No such file or directory"),
	      "... saying where and why: '%s'", err);

	if (access("/dev/full", W_OK) == 0) {
		CHECK(!pb_stream_open(&st, "/dev/full", err, sizeof(err)), "open /dev/full: %s",
		      err);
		pb_stream_interval(&st, "null", "", 1, &a, &b, true);
		CHECK(st.error == -ENOSPC, "a full device: the first write's -ENOSPC (got %d)",
		      st.error);
		st.error = -EIO; /* what the next write would find, if it wrote */
		pb_stream_interval(&st, "null", "", 1, &a, &b, true);
		CHECK(st.error == -EIO, "... then nothing more is written (error kept: %d)",
		      st.error);
		st.error = -ENOSPC;
		CHECK(pb_stream_close(&st) == -ENOSPC, "... and close says so");
	}

	CHECK(!pb_stream_open(&st, "-", err, sizeof(err)) && st.f == stdout && !st.own,
	      "\"-\": stdout, not ours to close");
	CHECK(pb_stream_close(&st) == 0 && fileno(stdout) == 1 && fflush(stdout) == 0,
	      "... and stdout still open after close");
}

int main(void)
{
	const char *base = getenv("TMPDIR");
	int fd;

	snprintf(path, sizeof(path), "%s/pb_test_stream.XXXXXX", base && *base ? base : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	close(fd);
	test_run();
	test_delivered_unknown();
	test_edges();
	unlink(path);
	return check_summary();
}
