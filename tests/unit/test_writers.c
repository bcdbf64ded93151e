// SPDX-License-Identifier: MIT
/* Unit test of the writers: JSON and CSV read back field by field, the table, atomic files. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json.h>

#include "config.h"
#include "stats.h"
#include "envinfo.h"
#include "writers.h"
#include "check.h"

/* A comma and quotes, so CSV has to quote it and double the quotes. */
#define SKIP_REASON "libpcap not found, \"pcap\" disabled at build time"

static struct pb_result results[4];
static char tmpdir[256];

/* Row 0: lab, with receiver. Row 1: skipped. Row 2: no receiver (a real NIC), interrupted. */
static void make_results(void)
{
	struct pb_result *r;

	memset(results, 0, sizeof(results));

	r = &results[0];
	snprintf(r->method, sizeof(r->method), "af_packet");
	snprintf(r->mode, sizeof(r->mode), "tpacket_v3");
	r->status = PB_STATUS_OK;
	r->duration_s = 2.0;
	r->link_wait_s = 0.25;
	r->frame_bytes = 60;
	r->padded = true;
	r->streams = 2;
	r->frames_sent = 2000000;
	r->has_receiver = true;
	r->delivered_known = true;
	r->frames_delivered = 1980000;
	r->bytes_delivered = 1980000ull * 64;
	r->frames_foreign = 3;
	r->raw.have_tx = r->raw.have_rx = true;
	r->raw.tx_packets = 1980000;
	r->raw.tx_dropped = 20007; /* 7 of them reported and retried */
	r->frames_retried = 7;
	r->send_errors = 7;
	r->run_id = 0x1234;
	r->syscalls = 4000;
	r->cpu_s = 1.5;
	r->runs = 3; /* --repeat 3: the median of runs at 0.9 and 1.05 Mpps */
	r->pps_min = 9e5;
	r->pps_max = 1.05e6;
	r->nrounds = 3; /* in the order they ran: 0.9 M on CPU 1, 1.05 M on 0, 1 M on 0 */
	r->rounds[0] = (struct pb_round){ .pps = 9e5, .sender_cpu = 2 };
	r->rounds[1] = (struct pb_round){ .pps = 1.05e6, .sender_cpu = 1 };
	r->rounds[2] = (struct pb_round){ .pps = 1e6, .sender_cpu = 1 };
	r->rounds_spread_pct = 15.0;

	r = &results[1];
	snprintf(r->method, sizeof(r->method), "pcap");
	r->status = PB_STATUS_SKIPPED;
	snprintf(r->reason, sizeof(r->reason), "%s", SKIP_REASON);
	r->frame_bytes = 60;
	r->has_receiver = true;

	r = &results[2];
	snprintf(r->method, sizeof(r->method), "udp_sendto");
	snprintf(r->mode, sizeof(r->mode), "socket");
	r->status = PB_STATUS_OK;
	r->interrupted = true;
	r->duration_s = 2.0;
	r->frame_bytes = 60;
	r->streams = 1;
	r->frames_sent = 3000000;
	r->cpu_s = 2.0;

	/* Only used by the no-wire test: the fastest row, yet it must come last. */
	r = &results[3];
	snprintf(r->method, sizeof(r->method), "null");
	snprintf(r->mode, sizeof(r->mode), "no-wire");
	r->status = PB_STATUS_OK;
	r->duration_s = 2.0;
	r->frame_bytes = 60;
	r->streams = 1;
	r->frames_sent = 100000000;
	r->cpu_s = 2.0;

	for (r = results; r < results + 4; r++)
		pb_result_compute(r);
}

static struct pb_report make_report(unsigned int n)
{
	return (struct pb_report){
		.version = "0.1.0-test",
		.command = "pktbench --method all --output \"/tmp/x.json\"",
		.kernel = "6.18.0",
		.iface = "veth0",
		.driver = "veth",
		.cpu_model = "AMD EPYC, \"test\" edition",
		.cpus = 2,
		.tx_queues = 2,
		.rx_queues = 1,
		.lab = true,
		.results = results,
		.n = n,
		.sort_by_pps = true,
	};
}

static char *path_in_tmp(const char *name)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

/* Names in tmpdir, so a leftover temp file shows whatever it is called. */
static int count_entries(char *names, size_t size)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	names[0] = '\0';
	d = opendir(tmpdir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		strncat(names, de->d_name, size - strlen(names) - 1);
		strncat(names, " ", size - strlen(names) - 1);
	}
	closedir(d);
	return n;
}

static void remove_tmpdir(void)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	d = opendir(tmpdir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, de->d_name);
		if (unlink(path))
			rmdir(path);
	}
	closedir(d);
	rmdir(tmpdir);
}

/* ---- JSON */

struct want {
	const char *name;
	enum json_type type;
};

/* Every result field, in output order, typed as for a lab row that ran (row 0). */
static const struct want result_fields[] = {
	{ "method", json_type_string },
	{ "mode", json_type_string },
	{ "point", json_type_null }, /* no --sweep */
	{ "status", json_type_string },
	{ "reason", json_type_null },
	{ "interrupted", json_type_boolean },
	{ "timed_out", json_type_boolean },
	{ "runs", json_type_int },
	{ "run_id", json_type_int },
	{ "test_id", json_type_null }, /* no --test-id, --shard or --start-at */
	{ "shard", json_type_null },
	{ "node", json_type_null },
	{ "start_planned_ns", json_type_null },
	{ "start_actual_ns", json_type_null },
	{ "start_skew_us", json_type_null },
	{ "start_cpu_wait_us", json_type_null },
	{ "duration_s", json_type_double },
	{ "link_wait_s", json_type_double },
	{ "link_down_s", json_type_double },
	{ "link_downs", json_type_int },
	{ "frame_bytes", json_type_int },
	{ "wire_frame_bytes", json_type_int },
	{ "vlan", json_type_boolean },
	{ "padded", json_type_boolean },
	{ "imix", json_type_boolean },
	{ "streams", json_type_int },
	{ "target_pps", json_type_null }, /* no --pps: unlimited, not 0 */
	{ "frames_sent", json_type_int },
	{ "has_receiver", json_type_boolean },
	{ "frames_delivered", json_type_int },
	{ "bytes_delivered", json_type_int },
	{ "receiver_error", json_type_null },
	{ "frames_foreign", json_type_int },
	{ "frames_extra", json_type_int },
	{ "frames_duplicate", json_type_int },
	{ "frames_reordered", json_type_int },
	{ "frames_out_of_window", json_type_int },
	{ "frames_unchecked", json_type_int },
	{ "frames_corrupt", json_type_int },
	{ "frames_not_for_host", json_type_int },
	{ "flows_seen", json_type_int },
	{ "rx_queue_cv", json_type_null }, /* one RX queue: no spread to speak of */
	{ "frames_dropped", json_type_int },
	{ "frames_retried", json_type_int },
	{ "frames_undrained", json_type_int },
	{ "send_errors", json_type_int },
	{ "send_eagain", json_type_int },
	{ "sender_blocked_s", json_type_double },
	{ "paced_behind", json_type_null }, /* not paced */
	{ "sender_in_send_s", json_type_null },
	{ "sender_cpu_moves", json_type_int },
	{ "pacing", json_type_null },
	{ "pace_error_p50_us", json_type_null },
	{ "pace_error_p99_us", json_type_null },
	{ "pace_error_max_us", json_type_null },
	{ "pushed_back", json_type_boolean },
	{ "receiver_restarted", json_type_boolean },
	{ "receiver_evicted", json_type_boolean },
	{ "netting", json_type_string },
	{ "netting_deficit", json_type_int },
	{ "shared_iface", json_type_boolean },
	{ "tx_packets", json_type_int },
	{ "tx_dropped", json_type_int },
	{ "qdisc_drops", json_type_int },
	{ "xdp_xmit_errors", json_type_int },
	{ "rx_packets", json_type_int },
	{ "rx_dropped", json_type_int },
	{ "rx_missed_errors", json_type_int },
	{ "rx_fifo_errors", json_type_int },
	{ "rx_driver_drops", json_type_int },
	{ "dut_rx_dropped", json_type_null }, /* no device under test in the path */
	{ "dut_tx_dropped", json_type_null },
	{ "dut_qdisc_drops", json_type_null },
	{ "cpu_s", json_type_double },
	{ "syscalls", json_type_int },
	{ "syscalls_per_frame", json_type_double },
	{ "pps", json_type_double },
	{ "pps_min", json_type_double },
	{ "pps_max", json_type_double },
	{ "rounds_spread_pct", json_type_double },
	{ "offered_pps", json_type_double },
	{ "app_mbps", json_type_double },
	{ "wire_gbps", json_type_double },
	{ "delivered_pct", json_type_double },
	{ "accounted_pct", json_type_double },
	{ "cpu_ns_per_pkt", json_type_double },
};

#define N_FIELDS (sizeof(result_fields) / sizeof(result_fields[0]))
/*
 * schema, pktbench_version, command, kernel, cpu_model, cpus, interface, driver, tx/rx_queues,
 * lab, lab_kind, lab_dut_cpu
 */
#define N_REPORT_FIELDS 13
#define N_LAT_CSV	27 /* latency_ (19) and gaps_ (8) columns */

/* Where a row differs from row 0's types. */
/* a counter nobody read is unknown (null), not 0 */
#define PB_NO_COUNTERS                                                                             \
	{ "netting", json_type_string }, { "frames_dropped", json_type_null },                     \
		{ "tx_packets", json_type_null }, { "tx_dropped", json_type_null },                \
		{ "qdisc_drops", json_type_null }, { "xdp_xmit_errors", json_type_null },          \
		{ "rx_packets", json_type_null }, { "rx_dropped", json_type_null },                \
		{ "rx_missed_errors", json_type_null }, { "rx_fifo_errors", json_type_null },      \
		{ "rx_driver_drops", json_type_null },                                             \
	{                                                                                          \
		"run_id", json_type_null                                                           \
	}

static const struct want row1_types[] = {
	{ "reason", json_type_string },
	{ "delivered_pct", json_type_null }, /* nothing sent: a percentage of nothing */
	{ "accounted_pct", json_type_null },
	{ "frames_delivered", json_type_null }, /* it never ran: the receiver was not asked */
	{ "bytes_delivered", json_type_null },
	{ "frames_foreign", json_type_null },
	{ "frames_extra", json_type_null },
	{ "frames_duplicate", json_type_null },
	{ "frames_reordered", json_type_null },
	{ "frames_out_of_window", json_type_null },
	{ "frames_unchecked", json_type_null },
	{ "frames_corrupt", json_type_null },
	{ "frames_not_for_host", json_type_null },
	{ "flows_seen", json_type_null },
	{ "syscalls_per_frame", json_type_null },
	{ "pps_min", json_type_null }, /* one run: no spread */
	{ "pps_max", json_type_null },
	{ "rounds_spread_pct", json_type_null },
	PB_NO_COUNTERS,
	{ NULL, json_type_null },
};

static const struct want row2_types[] = {
	{ "frames_delivered", json_type_null },
	{ "bytes_delivered", json_type_null },
	{ "frames_foreign", json_type_null },
	{ "frames_extra", json_type_null },
	{ "frames_duplicate", json_type_null },
	{ "frames_reordered", json_type_null },
	{ "frames_out_of_window", json_type_null },
	{ "frames_unchecked", json_type_null },
	{ "frames_corrupt", json_type_null },
	{ "frames_not_for_host", json_type_null },
	{ "flows_seen", json_type_null },
	{ "delivered_pct", json_type_null },
	{ "accounted_pct", json_type_null },
	{ "pps_min", json_type_null }, /* one run: no spread */
	{ "pps_max", json_type_null },
	{ "rounds_spread_pct", json_type_null },
	PB_NO_COUNTERS,
	{ NULL, json_type_null },
};

static enum json_type want_type(const struct want *w, const struct want *over)
{
	for (; over && over->name; over++)
		if (!strcmp(over->name, w->name))
			return over->type;
	return w->type;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static void check_result_types(struct json_object *o, int row, const struct want *over)
{
	struct json_object *v;
	enum json_type t;
	unsigned int i;

	CHECK(json_object_is_type(o, json_type_object), "results[%d] is not an object", row);
	/*
	 * JSON has five more: per_second, rx_queue_frames, rx_vlans, sender_cpus, rounds: lists
	 * CSV cannot hold
	 */
	CHECK(json_object_object_length(o) == (int)N_FIELDS + 5,
	      "results[%d] has %d fields, want %zu", row, json_object_object_length(o),
	      N_FIELDS + 5);
	CHECK(json_object_is_type(get(o, "per_second"), json_type_array),
	      "results[%d].per_second is not an array", row);
	for (i = 0; i < N_FIELDS; i++) {
		t = want_type(&result_fields[i], over);
		CHECK(json_object_object_get_ex(o, result_fields[i].name, &v),
		      "results[%d].%s missing", row, result_fields[i].name);
		CHECK(json_object_get_type(v) == t, "results[%d].%s is %s, want %s", row,
		      result_fields[i].name, json_type_to_name(json_object_get_type(v)),
		      json_type_to_name(t));
	}
}

static void check_str(struct json_object *o, const char *key, const char *want)
{
	const char *got = json_object_get_string(get(o, key));

	CHECK(json_object_is_type(get(o, key), json_type_string) && got && !strcmp(got, want),
	      "%s = \"%s\", want \"%s\"", key, got ? got : "(null)", want);
}

static void test_json(void)
{
	struct pb_report rep = make_report(3);
	struct json_object *root, *res, *r0, *r1, *r2;
	char names[512];
	int err, n;

	err = pb_report_write(&rep, PB_FORMAT_JSON, path_in_tmp("out.json"));
	CHECK(err == 0, "pb_report_write json: %s", strerror(-err));
	n = count_entries(names, sizeof(names));
	CHECK(n == 1 && !strcmp(names, "out.json "), "after a json write the dir holds: %s", names);

	root = json_object_from_file(path_in_tmp("out.json"));
	CHECK(root != NULL, "json_object_from_file: %s", json_util_get_last_err());
	if (!root)
		return;

	CHECK(json_object_is_type(get(root, "schema"), json_type_int) &&
		      json_object_get_int(get(root, "schema")) == 1,
	      "schema is not the integer 1");
	CHECK(PB_SCHEMA_VERSION == 1, "PB_SCHEMA_VERSION %d", PB_SCHEMA_VERSION);
	check_str(root, "pktbench_version", "0.1.0-test");
	/* NOSLASHESCAPE: paths in the command stay readable. */
	check_str(root, "command", "pktbench --method all --output \"/tmp/x.json\"");
	check_str(root, "kernel", "6.18.0");
	check_str(root, "interface", "veth0");
	check_str(root, "driver", "veth");
	check_str(root, "cpu_model", "AMD EPYC, \"test\" edition");
	CHECK(json_object_get_int(get(root, "cpus")) == 2, "cpus");
	CHECK(json_object_get_int(get(root, "tx_queues")) == 2 &&
		      json_object_get_int(get(root, "rx_queues")) == 1,
	      "queue counts");
	CHECK(json_object_is_type(get(root, "lab"), json_type_boolean) &&
		      json_object_get_boolean(get(root, "lab")),
	      "lab is not true");
	/* no environment was read: null, not an empty object */
	CHECK(json_object_object_get_ex(root, "environment", NULL) &&
		      get(root, "environment") == NULL,
	      "environment without one read: %s", json_object_get_string(get(root, "environment")));

	res = get(root, "results");
	CHECK(json_object_is_type(res, json_type_array), "results is not an array");
	CHECK(json_object_array_length(res) == 3, "results has %zu entries, want 3",
	      json_object_array_length(res));
	if (json_object_array_length(res) != 3)
		goto out;
	r0 = json_object_array_get_idx(res, 0);
	r1 = json_object_array_get_idx(res, 1);
	r2 = json_object_array_get_idx(res, 2);
	check_result_types(r0, 0, NULL);
	check_result_types(r1, 1, row1_types);
	check_result_types(r2, 2, row2_types);

	/* The caller's order even though sort_by_pps is set: sorting is for the table. */
	check_str(r0, "method", "af_packet");
	check_str(r1, "method", "pcap");
	check_str(r2, "method", "udp_sendto");

	check_str(r0, "status", "ok");
	check_str(r1, "status", "skipped");
	check_str(r1, "reason", SKIP_REASON);
	CHECK(json_object_get_int64(get(r0, "frames_sent")) == 2000000, "r0 frames_sent");
	CHECK(json_object_get_int64(get(r0, "frames_delivered")) == 1980000, "r0 delivered");
	CHECK(json_object_get_int64(get(r0, "wire_frame_bytes")) == 84, "r0 wire_frame_bytes");
	CHECK(json_object_get_double(get(r0, "pps")) == 1e6, "r0 pps %g",
	      json_object_get_double(get(r0, "pps")));
	CHECK(json_object_get_double(get(r0, "duration_s")) == 2.0, "r0 duration_s");
	CHECK(json_object_get_int(get(r0, "runs")) == 3 &&
		      json_object_get_double(get(r0, "pps_min")) == 9e5 &&
		      json_object_get_double(get(r0, "pps_max")) == 1.05e6,
	      "r0: 3 runs from 0.9 to 1.05 Mpps, got %s %s %s",
	      json_object_get_string(get(r0, "runs")), json_object_get_string(get(r0, "pps_min")),
	      json_object_get_string(get(r0, "pps_max")));
	/* the rounds as they ran, each with its sender's CPU; one run: null */
	{
		struct json_object *rs = get(r0, "rounds"), *e;

		CHECK(json_object_is_type(rs, json_type_array) && json_object_array_length(rs) == 3,
		      "r0: 3 rounds, got %s", json_object_get_string(rs));
		e = rs ? json_object_array_get_idx(rs, 0) : NULL;
		CHECK(e && json_object_get_double(get(e, "pps")) == 9e5 &&
			      json_object_get_int(get(e, "sender_cpu")) == 1,
		      "r0: round 1 was 0.9 M on CPU 1: %s", json_object_get_string(e));
		CHECK(json_object_get_double(get(r0, "rounds_spread_pct")) == 15.0,
		      "r0: rounds_spread_pct %s",
		      json_object_get_string(get(r0, "rounds_spread_pct")));
		CHECK(get(r2, "rounds") == NULL && json_object_object_get_ex(r2, "rounds", NULL),
		      "r2: one run, rounds null: %s", json_object_get_string(get(r2, "rounds")));
	}
	CHECK(json_object_get_double(get(r0, "app_mbps")) == 480.0, "r0 app_mbps");
	CHECK(json_object_get_double(get(r0, "delivered_pct")) == 99.0, "r0 delivered_pct");
	CHECK(json_object_get_double(get(r0, "accounted_pct")) == 100.0, "r0 accounted_pct");
	/* Read back bit for bit: the writer must not round data away. */
	CHECK(json_object_get_double(get(r0, "wire_gbps")) == results[0].wire_gbps,
	      "r0 wire_gbps %.17g, want %.17g", json_object_get_double(get(r0, "wire_gbps")),
	      results[0].wire_gbps);
	CHECK(json_object_get_double(get(r0, "cpu_ns_per_pkt")) == 750.0, "r0 cpu_ns_per_pkt");
	CHECK(json_object_get_boolean(get(r2, "interrupted")), "r2 interrupted");
	CHECK(!json_object_get_boolean(get(r2, "has_receiver")), "r2 has_receiver");
out:
	json_object_put(root);
}

/* What the run depended on: the set's environment object, each field's text as read */
static void test_json_environment(void)
{
	static struct pb_envinfo env;
	struct pb_report rep = make_report(0);
	struct json_object *root, *e;

	memset(&env, 0, sizeof(env));
	pb_envinfo_set(&env, "cpu_governor", "performance");
	pb_envinfo_unknown(&env, "iface.ring", "ETHTOOL_GRINGPARAM: %s", "Operation not supported");
	rep.env = &env;
	CHECK(pb_report_write(&rep, PB_FORMAT_JSON, path_in_tmp("env.json")) == 0, "json");
	root = json_object_from_file(path_in_tmp("env.json"));
	CHECK(root != NULL, "env.json reads back");
	if (!root)
		return;
	e = get(root, "environment");
	CHECK(json_object_is_type(e, json_type_object) && json_object_object_length(e) == 2,
	      "environment: %s", json_object_get_string(e));
	check_str(e, "cpu_governor", "performance");
	check_str(e, "iface.ring", "unknown (ETHTOOL_GRINGPARAM: Operation not supported)");
	json_object_put(root);
	unlink(path_in_tmp("env.json"));
}

static void test_json_null_strings(void)
{
	struct pb_report rep = make_report(0);
	struct json_object *root;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	/* An unknown driver is null, not a made-up string. */
	rep.driver = NULL;
	f = open_memstream(&buf, &len);
	if (!f) {
		CHECK(0, "open_memstream: %s", strerror(errno));
		return;
	}
	err = pb_write_json(f, &rep);
	fclose(f);
	CHECK(err == 0, "pb_write_json: %s", strerror(-err));
	root = json_tokener_parse(buf);
	CHECK(root != NULL, "json does not parse");
	CHECK(json_object_object_get_ex(root, "driver", NULL) &&
		      json_object_is_type(get(root, "driver"), json_type_null),
	      "driver is not null");
	CHECK(json_object_array_length(get(root, "results")) == 0, "results not empty");
	json_object_put(root);
	free(buf);
}

/* ---- CSV */

#define MAX_REC 8
#define MAX_FLD 192 /* the rfc2544 rows: the result's fields and the trial's */

struct csv {
	char *f[MAX_REC][MAX_FLD];
	unsigned int nf[MAX_REC];
	unsigned int nrec;
};

/* RFC 4180, enough for the test: quoted fields with doubled quotes and line breaks. */
static int csv_parse(const char *p, struct csv *c)
{
	char field[512];
	unsigned int rec;
	size_t len;

	memset(c, 0, sizeof(*c));
	while (*p) {
		if (c->nrec == MAX_REC)
			return -1;
		rec = c->nrec++;
		for (;;) {
			len = 0;
			if (*p == '"') {
				for (p++;; p++) {
					if (!*p || len == sizeof(field) - 1)
						return -1;
					if (*p == '"' && p[1] != '"')
						break;
					if (*p == '"')
						p++;
					field[len++] = *p;
				}
				p++;
			} else {
				while (*p && *p != ',' && *p != '\n' && len < sizeof(field) - 1)
					field[len++] = *p++;
			}
			field[len] = '\0';
			if (c->nf[rec] == MAX_FLD)
				return -1;
			c->f[rec][c->nf[rec]++] = strdup(field);
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p == '\n')
				p++;
			else if (*p)
				return -1;
			break;
		}
	}
	return 0;
}

static void csv_free(struct csv *c)
{
	unsigned int i, j;

	for (i = 0; i < MAX_REC; i++)
		for (j = 0; j < MAX_FLD; j++)
			free(c->f[i][j]);
}

static const char *csv_get(const struct csv *c, unsigned int rec, const char *name)
{
	unsigned int j;

	for (j = 0; j < c->nf[0] && j < c->nf[rec]; j++)
		if (!strcmp(c->f[0][j], name))
			return c->f[rec][j];
	return NULL;
}

static void check_csv_field(const struct csv *c, unsigned int rec, const char *name,
			    const char *want)
{
	const char *got = csv_get(c, rec, name);

	CHECK(got && !strcmp(got, want), "csv row %u %s = \"%s\", want \"%s\"", rec, name,
	      got ? got : "(missing)", want);
}

static void test_csv(void)
{
	struct pb_report rep = make_report(3);
	unsigned int i, lines = 0;
	char names[512], *buf, *p;
	struct csv c;
	int err, n;

	err = pb_report_write(&rep, PB_FORMAT_CSV, path_in_tmp("out.csv"));
	CHECK(err == 0, "pb_report_write csv: %s", strerror(-err));
	n = count_entries(names, sizeof(names));
	CHECK(n == 2, "after a csv write the dir holds: %s", names);

	buf = read_all(path_in_tmp("out.csv"));
	CHECK(buf != NULL, "cannot read out.csv");
	if (!buf)
		return;
	for (p = buf; *p; p++)
		lines += *p == '\n';
	CHECK(lines == 4, "out.csv has %u lines, want a header and 3 rows", lines);
	CHECK(strstr(buf, ",\"libpcap not found, \"\"pcap\"\" disabled at build time\",") != NULL,
	      "the reason with a comma is not quoted per RFC 4180:\n%s", buf);

	err = csv_parse(buf, &c);
	CHECK(err == 0 && c.nrec == 4, "csv does not parse into 4 records (%u)", c.nrec);
	if (err || c.nrec != 4)
		goto out;
	/* the result's fields, the latency_ and gaps_ columns, then the set's description */
	CHECK(c.nf[0] == N_FIELDS + N_LAT_CSV + N_REPORT_FIELDS,
	      "csv header has %u columns, want %zu", c.nf[0],
	      N_FIELDS + N_LAT_CSV + N_REPORT_FIELDS);
	CHECK(c.nf[0] > N_FIELDS + N_LAT_CSV && !strcmp(c.f[0][N_FIELDS], "latency_probes_sent") &&
		      !strcmp(c.f[0][N_FIELDS + N_LAT_CSV - 1], "gaps_null_reason"),
	      "the latency_ and gaps_ columns follow the result's");
	check_csv_field(&c, 1, "latency_p99_us", "");
	check_csv_field(&c, 1, "gaps_p50_us", "");
	for (i = 0; i < N_FIELDS && i < c.nf[0]; i++)
		CHECK(!strcmp(c.f[0][i], result_fields[i].name), "csv column %u is %s, want %s", i,
		      c.f[0][i], result_fields[i].name);
	for (i = 1; i < 4; i++)
		CHECK(c.nf[i] == c.nf[0], "csv row %u has %u fields, header %u", i, c.nf[i],
		      c.nf[0]);

	check_csv_field(&c, 1, "method", "af_packet");
	check_csv_field(&c, 1, "reason", "");
	check_csv_field(&c, 1, "frames_delivered", "1980000");
	check_csv_field(&c, 1, "bytes_delivered", "126720000");
	check_csv_field(&c, 1, "pps", "1000000.0");
	check_csv_field(&c, 1, "delivered_pct", "99.0");
	check_csv_field(&c, 1, "padded", "true");
	check_csv_field(&c, 2, "status", "skipped");
	check_csv_field(&c, 2, "reason", SKIP_REASON);
	/* No receiver: empty, the CSV spelling of null. */
	check_csv_field(&c, 3, "frames_delivered", "");
	check_csv_field(&c, 3, "bytes_delivered", "");
	check_csv_field(&c, 3, "frames_foreign", "");
	check_csv_field(&c, 3, "delivered_pct", "");
	check_csv_field(&c, 3, "accounted_pct", "");
	check_csv_field(&c, 3, "interrupted", "true");
	/* every row carries the set's description */
	check_csv_field(&c, 1, "schema", "1");
	check_csv_field(&c, 3, "kernel", "6.18.0");
	check_csv_field(&c, 2, "cpu_model", "AMD EPYC, \"test\" edition");
	check_csv_field(&c, 3, "tx_queues", "2");
	check_csv_field(&c, 1, "lab", "true");
out:
	csv_free(&c);
	free(buf);
}

static void test_csv_line_break(void)
{
	struct pb_report rep = make_report(3);
	char *buf = NULL;
	size_t len = 0;
	struct csv c;
	FILE *f;
	int err;

	snprintf(results[1].reason, sizeof(results[1].reason), "probe said:\n\"no\"");
	f = open_memstream(&buf, &len);
	if (!f) {
		CHECK(0, "open_memstream: %s", strerror(errno));
		return;
	}
	err = pb_write_csv(f, &rep);
	fclose(f);
	CHECK(err == 0, "pb_write_csv: %s", strerror(-err));
	err = csv_parse(buf, &c);
	CHECK(err == 0 && c.nrec == 4, "csv with a line break in a field: %u records", c.nrec);
	if (!err && c.nrec == 4)
		check_csv_field(&c, 2, "reason", "probe said:\n\"no\"");
	csv_free(&c);
	free(buf);
	snprintf(results[1].reason, sizeof(results[1].reason), "%s", SKIP_REASON);
}

/* ---- table */

static char *table(const struct pb_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	f = open_memstream(&buf, &len);
	if (!f) {
		CHECK(0, "open_memstream: %s", strerror(errno));
		return NULL;
	}
	err = pb_write_table(f, rep);
	fclose(f);
	CHECK(err == 0, "pb_write_table: %s", strerror(-err));
	return buf;
}

/* Every line of the box as wide as the others, or the columns do not line up. */
static void check_box(const char *t)
{
	size_t width = 0, len;
	const char *p, *e;

	for (p = t; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		len = (size_t)(e - p);
		if (*p != '+' && *p != '|')
			continue;
		if (!width)
			width = len;
		CHECK(len == width, "table line is %zu wide, others %zu: %.*s", len, width,
		      (int)len, p);
	}
	CHECK(width > 0, "no table box");
}

static int pos(const char *hay, const char *needle)
{
	const char *p = strstr(hay, needle);

	return p ? (int)(p - hay) : -1;
}

/* How often needle occurs on the table line that starts with "| <method>". */
static int count_on_row(const char *t, const char *method, const char *needle)
{
	char start[64];
	const char *p, *e;
	int n = 0;

	snprintf(start, sizeof(start), "| %s", method);
	p = strstr(t, start);
	if (!p)
		return -1;
	e = strchr(p, '\n');
	for (p = strstr(p, needle); p && (!e || p < e); p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_table(void)
{
	struct pb_result before[3];
	struct pb_report rep = make_report(3);
	char *t;

	memcpy(before, results, sizeof(before));
	t = table(&rep);
	if (!t)
		return;
	check_box(t);
	CHECK(memcmp(before, results, sizeof(before)) == 0, "the table changed the caller's array");
	CHECK(pos(t, "| Method ") >= 0 && pos(t, "Packets/s") >= 0 && pos(t, "CPU ns/pkt") >= 0,
	      "header missing:\n%s", t);
	CHECK(pos(t, "af_packet") >= 0, "af_packet missing:\n%s", t);
	CHECK(pos(t, "udp_sendto") >= 0, "udp_sendto missing:\n%s", t);
	/* Delivered, Delivered % and Accounted %: unknown without a receiver, never 0. */
	CHECK(count_on_row(t, "udp_sendto", "n/a") == 3, "want n/a x3 without a receiver:\n%s", t);
	CHECK(count_on_row(t, "af_packet", "n/a") == 0, "n/a on the lab row:\n%s", t);
	/* Sorted by rate: udp_sendto (1.5 Mpps) before af_packet (1 Mpps). */
	CHECK(pos(t, "udp_sendto") < pos(t, "af_packet"), "not sorted by pps:\n%s", t);
	CHECK(pos(t, " 1000000 |") >= 0 && pos(t, " 1500000 |") >= 0, "pps not integers:\n%s", t);
	CHECK(pos(t, " 480.0 |") >= 0, "app Mb/s not one decimal:\n%s", t);
	CHECK(pos(t, " 0.672 |") >= 0, "wire Gb/s not three decimals:\n%s", t);
	CHECK(pos(t, " 99.00 |") >= 0 && pos(t, " 100.00 |") >= 0, "percentages:\n%s", t);
	/* system calls per frame beside the CPU cost: 4000 calls for 2 M frames */
	CHECK(pos(t, "| Syscalls/frame |") > pos(t, "| CPU ns/pkt ") &&
		      count_on_row(t, "af_packet", " 0.0020 |") == 1,
	      "syscalls per frame:\n%s", t);
	CHECK(pos(t, "\n  skipped  pcap: " SKIP_REASON "\n") >= 0, "skipped line missing:\n%s", t);
	CHECK(pos(t, "| pcap") < 0, "a skipped row is in the table:\n%s", t);
	CHECK(pos(t, "udp_sendto*") >= 0 && pos(t, "partial: interrupted by signal") >= 0,
	      "interrupted row not marked:\n%s", t);
	CHECK(pos(t, "wire L1 = max(frame, 60") >= 0, "no wire footnote:\n%s", t);
	CHECK(pos(t, "frame 60 bytes") >= 0, "no frame footnote:\n%s", t);
	free(t);

	rep.sort_by_pps = false;
	t = table(&rep);
	if (!t)
		return;
	CHECK(pos(t, "af_packet") < pos(t, "udp_sendto"), "sorted without sort_by_pps:\n%s", t);
	free(t);
}

/*
 * The ranking's noise: with --repeat, a row whose runs overlap the faster row's is marked ^
 * (af_packet's slowest run, 0.9 M, is below udp_sendto's fastest, 1.2 M: a tie; af_packet's
 * slowest is above raw_socket's fastest, 0.85 M: ordered). One run a row: the footnote says
 * the order may change, and no row is marked.
 */
static void test_table_ties(void)
{
	struct pb_result saved[4], *r;
	struct pb_report rep = make_report(3);
	char *t;

	memcpy(saved, results, sizeof(saved));
	results[0].rounds_spread_pct = 0; /* the spread's own mark: test_table_spread */
	r = &results[1]; /* the skipped row becomes a third method */
	*r = results[0];
	snprintf(r->method, sizeof(r->method), "raw_socket");
	r->frames_sent = 1900000;
	r->pps_min = 7e5;
	r->pps_max = 8.5e5;
	pb_result_compute(r);
	results[2].interrupted = false;
	results[2].frames_sent = 2 * 1050000; /* 1.05 M: above af_packet's 1 M median */
	pb_result_compute(&results[2]);
	results[2].pps_min = 1.1e6;
	results[2].pps_max = 1.2e6;
	results[0].pps_min = 0.9e6;
	results[0].pps_max = 1.1e6;
	t = table(&rep);
	if (t) {
		check_box(t);
		CHECK(pos(t, "| udp_sendto ") >= 0 && pos(t, "| udp_sendto^") < 0,
		      "the fastest row is never marked:\n%s", t);
		CHECK(pos(t, "| af_packet^ ") >= 0, "af_packet's runs overlap udp_sendto's:\n%s",
		      t);
		CHECK(pos(t, "| raw_socket ") >= 0 && pos(t, "| raw_socket^") < 0,
		      "raw_socket's runs are all below af_packet's:\n%s", t);
		CHECK(pos(t, "^ within the noise of the row above") >= 0, "no ^ footnote:\n%s", t);
		free(t);
	}
	results[0].pps_min = results[0].pps_max = 0;
	results[1].pps_min = results[1].pps_max = 0;
	results[2].pps_min = results[2].pps_max = 0;
	t = table(&rep);
	if (t) {
		CHECK(count_on_row(t, "af_packet", "^") == 0 &&
			      count_on_row(t, "raw_socket", "^") == 0,
		      "one run: no row marked:\n%s", t);
		CHECK(pos(t, "one run a method: on a shared machine a short run can move a method 2x") >= 0,
		      "one run: the footnote:\n%s", t);
		free(t);
	}
	memcpy(results, saved, sizeof(saved));
}

/*
 * A row whose --repeat rounds spread more than 10 % ((max - min) / median) is marked %, with a
 * footnote; 10 % or less, or one run, is not.
 */
static void test_table_spread(void)
{
	struct pb_result saved[4];
	struct pb_report rep = make_report(3);
	char *t;

	memcpy(saved, results, sizeof(saved));
	results[0].rounds_spread_pct = 15.0; /* 0.9 to 1.05 M about 1 M */
	t = table(&rep);
	if (t) {
		check_box(t);
		CHECK(pos(t, "| af_packet% ") >= 0, "15 %% spread, not marked:\n%s", t);
		CHECK(pos(t, "| udp_sendto%") < 0 && pos(t, "| udp_sendto*%") < 0,
		      "one run marked:\n%s", t);
		CHECK(pos(t, "% its --repeat rounds spread more than 10 %") >= 0,
		      "no spread footnote:\n%s", t);
		free(t);
	}
	results[0].rounds_spread_pct = 10.0;
	t = table(&rep);
	if (t) {
		CHECK(pos(t, "| af_packet ") >= 0 && pos(t, "rounds spread more") < 0,
		      "10 %% spread marked:\n%s", t);
		free(t);
	}
	memcpy(results, saved, sizeof(saved));
}

/* --show-counters: the three points of view of each row, and n/a where a side was not read */
/* Widest line of t. */
static size_t widest(const char *t)
{
	size_t w = 0, n;

	while (*t) {
		n = strcspn(t, "\n");
		w = n > w ? n : w;
		t += n + (t[n] == '\n');
	}
	return w;
}

/*
 * A table fits the width it is given: short headings first, then columns by rank (Sent and
 * Delivered go first; Method, Packets/s and Delivered % stay), a note naming them; width 0 is
 * the full table.
 */
static void test_table_width(void)
{
	struct pb_report rep = make_report(3);
	unsigned int w[] = { 60, 80, 100 }, i;
	char *t;

	t = table(&rep);
	CHECK(t && widest(t) > 100 && pos(t, " Sent |") >= 0 && pos(t, "Mb/s (app)") >= 0,
	      "width 0: the full table (%zu wide):\n%s", t ? widest(t) : 0, t ? t : "");
	free(t);
	for (i = 0; i < 3; i++) {
		rep.width = w[i];
		t = table(&rep);
		if (!t)
			continue;
		CHECK(widest(t) <= w[i], "width %u: %zu wide:\n%s", w[i], widest(t), t);
		CHECK(pos(t, "| Method ") >= 0 && pos(t, "Packets/s") >= 0 &&
			      pos(t, "Deliv %") >= 0,
		      "width %u: a column that stays is gone:\n%s", w[i], t);
		CHECK(pos(t, " Sent |") < 0 && pos(t, "--wide shows all): ") >= 0,
		      "width %u: Sent still there, or no note:\n%s", w[i], t);
		free(t);
	}
	rep.width = 80;
	t = table(&rep);
	CHECK(t && pos(t, "ns/pkt") >= 0 && pos(t, "Syscalls/frame") < 0,
	      "80: CPU ns/pkt outranks Syscalls/frame:\n%s", t ? t : "");
	free(t);
}

static void test_table_counters(void)
{
	struct pb_report rep = make_report(3);
	const char *k;
	char *t;

	t = table(&rep);
	CHECK(t && pos(t, "Three-point") < 0, "counters without --show-counters:\n%s", t);
	free(t);
	rep.show_counters = true;
	t = table(&rep);
	if (!t)
		return;
	k = strstr(t, "Three-point accounting");
	CHECK(k != NULL, "no counters table:\n%s", t);
	if (!k)
		goto out;
	/* the lab row: sent, retried 7, tx_packets, tx drops 20007, delivered, net 20000 */
	CHECK(count_on_row(k, "af_packet", " 2000000 |") == 1 &&
		      count_on_row(k, "af_packet", " 7 |") == 1 &&
		      count_on_row(k, "af_packet", " 1980000 |") == 2 &&
		      count_on_row(k, "af_packet", " 20007 |") == 1 &&
		      count_on_row(k, "af_packet", " 20000 |") == 1,
	      "lab row's counters:\n%s", k);
	/* no receiver, no counters: unknown, never 0 */
	CHECK(count_on_row(k, "udp_sendto", "n/a") == 6, "want n/a x6 on the bare row:\n%s", k);
out:
	free(t);
}

static void test_table_nowire(void)
{
	struct pb_report rep = make_report(4);
	int label;
	char *t;

	t = table(&rep);
	if (!t)
		return;
	check_box(t);
	label = pos(t, "harness overhead");
	/* The fastest row, still after the send paths and under its own label. */
	CHECK(label >= 0, "no harness overhead label:\n%s", t);
	CHECK(pos(t, "+\n| harness overhead") >= 0, "no rule above the no-wire rows:\n%s", t);
	CHECK(label > pos(t, "af_packet") && label > pos(t, "udp_sendto") &&
		      label < pos(t, "| null "),
	      "the no-wire row is not after the real rows:\n%s", t);
	free(t);
}

static void test_table_only_skipped(void)
{
	struct pb_report rep = make_report(3);
	char *t;

	rep.results = &results[1];
	rep.n = 1;
	t = table(&rep);
	if (!t)
		return;
	CHECK(pos(t, "skipped  pcap") >= 0 && pos(t, "+--") < 0, "only skipped:\n%s", t);
	free(t);
}

/*
 * --replay's frames left out are said under the table, by kind, once for rows that left out
 * the same (their methods named), not only in JSON.
 */
static void test_table_replay_skips(void)
{
	struct pb_report rep = make_report(3);
	char *t;

	rep.width = 400;
	results[0].replay.on = results[2].replay.on = true;
	results[0].replay.file_frames = results[2].replay.file_frames = 50000;
	results[0].replay.skipped[PB_RSKIP_NOT_UDP] = 29984;
	results[0].replay.skipped[PB_RSKIP_NOT_IP] = 2423;
	memcpy(results[2].replay.skipped, results[0].replay.skipped,
	       sizeof(results[0].replay.skipped));
	t = table(&rep);
	if (t) {
		const char *a = strstr(t, "32407 of the file's 50000 frames left out: not IP (ARP, "
					  "LLDP...) 2423, not UDP (TCP, ICMP...) 29984");

		CHECK(a && !strstr(a + 41, "frames left out") &&
			      (strstr(t, "af_packet, udp_sendto") ||
			       strstr(t, "udp_sendto, af_packet")),
		      "one line for both rows' frames left out:\n%s", t);
		free(t);
	}
	results[2].replay.skipped[PB_RSKIP_FRAGMENT] = 474;
	t = table(&rep);
	if (t) {
		const char *a = strstr(t, "32881 of the file's 50000 frames left out");

		CHECK(a && strstr(t, "IP fragments 474") && strstr(t, "32407 of the file's"),
		      "a line each for rows that left out different frames:\n%s", t);
		free(t);
	}
	memset(&results[0].replay, 0, sizeof(results[0].replay));
	memset(&results[2].replay, 0, sizeof(results[2].replay));
	t = table(&rep);
	if (t) {
		CHECK(!strstr(t, "left out"), "no replay, no line:\n%s", t);
		free(t);
	}
}

/* ---- atomic writes */

static void test_atomic_failures(void)
{
	struct pb_report rep = make_report(3);
	char names[512];
	int err, n;

	err = pb_report_write(&rep, PB_FORMAT_JSON, path_in_tmp("nodir/out.json"));
	CHECK(err == -ENOENT, "write into a missing directory: %d, want -ENOENT", err);

	/* rename() over a directory fails after the temp file is written: it must go. */
	mkdir(path_in_tmp("isdir"), 0700);
	err = pb_report_write(&rep, PB_FORMAT_CSV, path_in_tmp("isdir"));
	CHECK(err < 0, "rename over a directory succeeded");

	err = pb_report_write(&rep, (enum pb_format)99, path_in_tmp("bad.out"));
	CHECK(err == -EINVAL, "unknown format: %d, want -EINVAL", err);

	n = count_entries(names, sizeof(names));
	CHECK(n == 3 && !strstr(names, ".tmp.") && !strstr(names, "bad.out"),
	      "after failed writes the dir holds: %s", names);

	/* Overwriting an existing file replaces it whole. */
	err = pb_report_write(&rep, PB_FORMAT_TABLE, path_in_tmp("out.json"));
	CHECK(err == 0, "overwrite: %s", strerror(-err));
	n = count_entries(names, sizeof(names));
	CHECK(n == 3 && !strstr(names, ".tmp."), "after an overwrite the dir holds: %s", names);
}

/* ---- latency probes and gaps */

/* Row 0: the lab's probes, timed; row 1: another host, unsynchronised; both paced. */
static void make_latency(struct pb_result *lr)
{
	static struct pb_hist_pair hist[2] = { { 40063, 190 }, { 1000447, 4 } };
	static struct pb_hist_pair ghist[1] = { { 10047, 9999 } };
	static struct pb_lat_stream streams[2] = {
		{ .stream = 0,
		  .sent = 100,
		  .received = 100,
		  .samples = 100,
		  .min_us = 10,
		  .mean_us = 50,
		  .max_us = 1000,
		  .jitter_known = true,
		  .jitter_us = 3 },
		{ .stream = 3,
		  .sent = 100,
		  .received = 95,
		  .lost = 5,
		  .samples = 94,
		  .min_us = 20,
		  .mean_us = 40,
		  .max_us = 60,
		  .jitter_known = true,
		  .jitter_us = 1 },
	};
	unsigned int i;

	memset(lr, 0, 2 * sizeof(*lr));
	for (i = 0; i < 2; i++) {
		struct pb_result *r = &lr[i];

		snprintf(r->method, sizeof(r->method), i ? "af_xdp" : "udp_sendto");
		snprintf(r->mode, sizeof(r->mode), "x");
		r->status = PB_STATUS_OK;
		r->duration_s = 1;
		r->frame_bytes = 60;
		r->frames_sent = 100000;
		r->has_receiver = r->delivered_known = true;
		r->frames_delivered = 100000;
		r->raw.have_tx = r->raw.have_rx = true;
		r->raw.tx_packets = 100000;
		r->latency = (struct pb_latency){ .on = true,
						  .measured = true,
						  .timed = !i,
						  .probes_sent = 200,
						  .probes_received = 195,
						  .lost = 5,
						  .reordered = 2,
						  .duplicated = 1,
						  .samples = 194,
						  .min_us = 10,
						  .mean_us = 45.2,
						  .p50_us = 40.063,
						  .p90_us = 40.063,
						  .p99_us = 1000,
						  .p999_us = 1000,
						  .max_us = 1000,
						  .jitter_known = true,
						  .jitter_us = 2,
						  .hist = hist,
						  .nhist = 2,
						  .streams = streams,
						  .nstreams = 2 };
		if (i)
			snprintf(r->latency.why, sizeof(r->latency.why), "not synchronised");
		r->gaps = (struct pb_gaps){ .on = true,
					    .measured = true,
					    .target_us = 10,
					    .n = 9999,
					    .mean_us = 10,
					    .p1_us = 9.9,
					    .p50_us = 10.047,
					    .p99_us = 10.1,
					    .cv = 0.01,
					    .hist = ghist,
					    .nhist = 1 };
		pb_result_compute(r);
	}
}

static void test_latency(void)
{
	struct pb_result lr[2];
	struct pb_report rep = make_report(2);
	struct json_object *root, *r0, *r1, *l0, *l1, *g, *h, *st;
	char *t, *buf = NULL;
	size_t len = 0;
	struct csv c;
	FILE *f;

	make_latency(lr);
	rep.results = lr;
	CHECK(pb_report_write(&rep, PB_FORMAT_JSON, path_in_tmp("lat.json")) == 0, "json");
	root = json_object_from_file(path_in_tmp("lat.json"));
	CHECK(root != NULL, "lat.json reads back");
	if (!root)
		return;
	r0 = json_object_array_get_idx(get(root, "results"), 0);
	r1 = json_object_array_get_idx(get(root, "results"), 1);
	l0 = get(r0, "latency");
	l1 = get(r1, "latency");
	CHECK(json_object_is_type(l0, json_type_object) &&
		      json_object_object_length(r0) == (int)N_FIELDS + 7,
	      "a latency object and a gaps object next to per_second");
	CHECK(json_object_get_int64(get(l0, "probes_sent")) == 200 &&
		      json_object_get_int64(get(l0, "probes_received")) == 195 &&
		      json_object_get_int64(get(l0, "lost")) == 5 &&
		      json_object_get_int64(get(l0, "reordered")) == 2 &&
		      json_object_get_int64(get(l0, "duplicated")) == 1,
	      "the probe counts");
	CHECK(json_object_get_double(get(l0, "p50_us")) == 40.063 &&
		      json_object_get_double(get(l0, "p90_us")) == 40.063 &&
		      json_object_get_double(get(l0, "p99_us")) == 1000 &&
		      json_object_get_double(get(l0, "p999_us")) == 1000 &&
		      json_object_get_double(get(l0, "min_us")) == 10 &&
		      json_object_get_double(get(l0, "mean_us")) == 45.2 &&
		      json_object_get_double(get(l0, "max_us")) == 1000 &&
		      json_object_get_double(get(l0, "jitter_us")) == 2,
	      "the latency figures");
	check_str(l0, "clock", "monotonic");
	CHECK(get(l0, "null_reason") == NULL && json_object_object_get_ex(l0, "null_reason", NULL),
	      "timed: null_reason is null");
	h = get(l0, "histogram");
	CHECK(json_object_array_length(h) == 2 &&
		      json_object_get_int64(json_object_array_get_idx(
			      json_object_array_get_idx(h, 1), 0)) == 1000447 &&
		      json_object_get_int64(
			      json_object_array_get_idx(json_object_array_get_idx(h, 1), 1)) == 4,
	      "the histogram as [upper_bound_ns, count] pairs");
	st = get(l0, "streams");
	CHECK(json_object_array_length(st) == 2 &&
		      json_object_get_int64(get(json_object_array_get_idx(st, 1), "stream")) == 3 &&
		      json_object_get_int64(get(json_object_array_get_idx(st, 1), "lost")) == 5,
	      "each stream's counts");
	/* untimed: the counts and jitter stay, the latency figures are null with the reason */
	CHECK(get(l1, "p50_us") == NULL && get(l1, "max_us") == NULL &&
		      json_object_get_int64(get(l1, "lost")) == 5 &&
		      json_object_get_double(get(l1, "jitter_us")) == 2,
	      "untimed: latency null, loss and jitter kept");
	check_str(l1, "null_reason", "not synchronised");
	g = get(r0, "gaps");
	CHECK(json_object_get_double(get(g, "target_us")) == 10 &&
		      json_object_get_double(get(g, "p1_us")) == 9.9 &&
		      json_object_get_double(get(g, "p50_us")) == 10.047 &&
		      json_object_get_double(get(g, "p99_us")) == 10.1 &&
		      json_object_get_double(get(g, "cv")) == 0.01 &&
		      json_object_get_int64(get(g, "gaps")) == 9999 &&
		      json_object_array_length(get(g, "histogram")) == 1,
	      "the gaps object");
	json_object_put(root);

	/* CSV: the same scalars in its latency_ and gaps_ columns */
	f = open_memstream(&buf, &len);
	if (f) {
		pb_write_csv(f, &rep);
		fclose(f);
		if (!csv_parse(buf, &c) && c.nrec == 3) {
			check_csv_field(&c, 1, "latency_p99_us", "1000.0");
			check_csv_field(&c, 1, "latency_lost", "5");
			check_csv_field(&c, 2, "latency_p99_us", "");
			check_csv_field(&c, 2, "latency_null_reason", "not synchronised");
			check_csv_field(&c, 2, "gaps_cv", "0.01");
		} else {
			CHECK(0, "the latency CSV does not parse");
		}
		csv_free(&c);
		free(buf);
	}

	/* the table: p50, p99, max and lost/sent; n/a where untimed */
	t = table(&rep);
	if (t) {
		check_box(t);
		CHECK(pos(t, "p50 us") >= 0 && pos(t, "p99 us") >= 0 && pos(t, "Max us") >= 0 &&
			      pos(t, "Probes lost") >= 0,
		      "latency columns:\n%s", t);
		CHECK(count_on_row(t, "udp_sendto", " 40.1 |") == 1 &&
			      count_on_row(t, "udp_sendto", " 1000.0 |") == 2 &&
			      count_on_row(t, "udp_sendto", " 5/200 |") == 1,
		      "latency cells:\n%s", t);
		CHECK(count_on_row(t, "af_xdp", "n/a") == 3 &&
			      count_on_row(t, "af_xdp", " 5/200 |") == 1,
		      "untimed: n/a latency, the loss known:\n%s", t);
		CHECK(pos(t, "latency.null_reason") >= 0, "the footnote for n/a:\n%s", t);
		free(t);
	}
	/* and no latency columns without --latency */
	t = table(&(struct pb_report){ .results = results, .n = 1 });
	if (t) {
		CHECK(pos(t, "p50 us") < 0 && pos(t, "Probes lost") < 0, "no probes: no columns");
		free(t);
	}
}

/*
 * pktbench rfc2544's report: trial rows are full run rows with their trial's fields; summary
 * rows carry the answer with null run fields; the parameters sit at the top; CSV columns
 * line up across both kinds; the table is a box per test.
 */
static void test_rfc2544_report(void)
{
	struct pb_rfc2544_opts o = { .tests = PB_RFC_T_THROUGHPUT | PB_RFC_T_LOSS,
				     .sizes = { 64, 1518 },
				     .nsizes = 2,
				     .trial_s = 2,
				     .final_trial_s = 2,
				     .trial_gap_s = 0.5,
				     .precision_pct = 1,
				     .loss_step_pct = 10,
				     .max_trials = 30,
				     .b2b_repeat = 50 };
	struct pb_result rows[6];
	struct pb_report rep = make_report(6);
	struct json_object *root, *arr, *r0, *r1;
	unsigned int i;
	char *buf;
	struct csv c;

	for (i = 0; i < 6; i++)
		rows[i] = results[0]; /* an ok run: 60-byte frames */
	rows[0].rfc = (struct pb_rfc_row){ .test = PB_RFC_THROUGHPUT,
					   .frame_size = 64,
					   .trial = 1,
					   .load_pct = -1,
					   .loss_pct = 0,
					   .passed = true };
	rows[1].rfc = (struct pb_rfc_row){ .test = PB_RFC_THROUGHPUT,
					   .summary = true,
					   .frame_size = 64,
					   .load_pct = -1,
					   .loss_pct = 0,
					   .throughput_pps = 41000,
					   .throughput_wire_gbps = 0.02755,
					   .max_pps = 250000,
					   .trials = 9,
					   .search = "found" };
	rows[2].rfc = (struct pb_rfc_row){ .test = PB_RFC_LOSS,
					   .summary = true,
					   .frame_size = 64,
					   .load_pct = 90,
					   .loss_pct = 12.5,
					   .max_pps = 250000,
					   .trials = 1 };
	rows[3].rfc = (struct pb_rfc_row){ .test = PB_RFC_B2B,
					   .summary = true,
					   .frame_size = 64,
					   .load_pct = -1,
					   .burst_frames = 506,
					   .burst_mean = 506,
					   .burst_min = 500,
					   .burst_max = 512,
					   .repetitions = 3,
					   .trials = 20,
					   .max_pps = 230000,
					   .search = "found" };
	rows[4] = (struct pb_result){ .status = PB_STATUS_SKIPPED, .streams = 1 };
	snprintf(rows[4].method, sizeof(rows[4].method), "af_packet");
	snprintf(rows[4].reason, sizeof(rows[4].reason), "needs latency probes");
	rows[4].rfc = (struct pb_rfc_row){
		.test = PB_RFC_LATENCY, .summary = true, .frame_size = 64, .load_pct = -1
	};
	rows[5].rfc = (struct pb_rfc_row){ .test = PB_RFC_LATENCY,
					   .summary = true,
					   .frame_size = 1518,
					   .load_pct = -1,
					   .lat_rate_pps = 1600,
					   .p50_us = 12.5,
					   .p99_us = 40,
					   .max_us = 120,
					   .mean_us = 15.25,
					   .trials = 1 };
	rep.results = rows;
	rep.sort_by_pps = false;
	rep.rfc2544 = &o;

	CHECK(!pb_report_write(&rep, PB_FORMAT_JSON, path_in_tmp("rfc.json")), "rfc json write");
	root = json_object_from_file(path_in_tmp("rfc.json"));
	CHECK(root != NULL, "rfc json: %s", json_util_get_last_err());
	if (!root)
		return;
	CHECK(get(root, "rfc2544") &&
		      json_object_array_length(get(get(root, "rfc2544"), "tests")) == 2 &&
		      !strcmp(json_object_get_string(get(get(root, "rfc2544"), "rate")), "NDR"),
	      "rfc2544 parameters at the top");
	arr = get(root, "results");
	r0 = json_object_array_get_idx(arr, 0);
	r1 = json_object_array_get_idx(arr, 1);
	CHECK(!strcmp(json_object_get_string(get(r0, "test")), "throughput") &&
		      !json_object_get_boolean(get(r0, "summary")) &&
		      json_object_get_int(get(r0, "trial")) == 1 &&
		      json_object_get_boolean(get(r0, "passed")) &&
		      json_object_get_int64(get(r0, "frames_sent")) ==
			      (int64_t)results[0].frames_sent &&
		      get(r0, "throughput_pps") == NULL &&
		      json_object_object_get_ex(r0, "throughput_pps", NULL),
	      "a trial: a run row with its trial's fields, no answer");
	CHECK(json_object_get_boolean(get(r1, "summary")) &&
		      json_object_get_double(get(r1, "throughput_pps")) == 41000 &&
		      json_object_get_int(get(r1, "frame_size")) == 64 &&
		      json_object_get_int(get(r1, "frame_bytes")) == 60 &&
		      !get(r1, "frames_sent") && !get(r1, "pps") && !get(r1, "passed") &&
		      !strcmp(json_object_get_string(get(r1, "search")), "found"),
	      "a throughput summary: the answer, frame sizes, null run fields");
	r1 = json_object_array_get_idx(arr, 2);
	CHECK(json_object_get_double(get(r1, "load_pct")) == 90 &&
		      json_object_get_double(get(r1, "loss_pct")) == 12.5 &&
		      !get(r1, "burst_frames"),
	      "a loss summary: loss_pct at load_pct");
	r1 = json_object_array_get_idx(arr, 3);
	CHECK(json_object_get_int(get(r1, "burst_frames")) == 506 &&
		      json_object_get_int(get(r1, "repetitions")) == 3 && !get(r1, "load_pct"),
	      "a back-to-back summary: burst_frames and its repetitions");
	r1 = json_object_array_get_idx(arr, 4);
	CHECK(!strcmp(json_object_get_string(get(r1, "status")), "skipped") &&
		      !strcmp(json_object_get_string(get(r1, "test")), "latency") &&
		      json_object_object_get_ex(r1, "p99_us", NULL),
	      "a latency row that cannot answer says why, with its fields null");
	r1 = json_object_array_get_idx(arr, 5);
	CHECK(json_object_get_double(get(r1, "p50_us")) == 12.5 &&
		      json_object_get_double(get(r1, "p99_us")) == 40 &&
		      json_object_get_double(get(r1, "max_us")) == 120 &&
		      json_object_get_double(get(r1, "latency_rate_pps")) == 1600,
	      "a latency summary: p50_us, p99_us, max_us at the rate");
	CHECK(!get(json_object_array_get_idx(arr, 1), "p50_us"),
	      "latency fields are null on other tests' rows");
	json_object_put(root);

	CHECK(!pb_report_write(&rep, PB_FORMAT_CSV, path_in_tmp("rfc.csv")), "rfc csv write");
	buf = read_all(path_in_tmp("rfc.csv"));
	CHECK(buf && !csv_parse(buf, &c) && c.nrec == 7, "rfc csv: 7 records");
	for (i = 1; buf && i < c.nrec; i++)
		CHECK(c.nf[i] == c.nf[0], "rfc csv row %u has %u fields, header %u", i, c.nf[i],
		      c.nf[0]);
	if (buf) {
		CHECK(csv_get(&c, 2, "throughput_pps") &&
			      !strcmp(csv_get(&c, 2, "throughput_pps"), "41000.0"),
		      "rfc csv: the answer in its column");
		csv_free(&c);
	}
	free(buf);

	CHECK(!pb_report_write(&rep, PB_FORMAT_TABLE, path_in_tmp("rfc.txt")), "rfc table write");
	buf = read_all(path_in_tmp("rfc.txt"));
	CHECK(buf && strstr(buf, "RFC 2544 26.1 throughput") && strstr(buf, "|          41000 |") &&
		      strstr(buf, "RFC 2544 26.3 frame loss rate") && strstr(buf, "| 12.5000 |") &&
		      strstr(buf, "RFC 2544 26.4 back-to-back") &&
		      strstr(buf, "skipped  af_packet 64 B: needs latency probes") &&
		      strstr(buf, "RFC 2544 26.2 latency") && strstr(buf, "|   12.5 |   40.0 |") &&
		      !strstr(buf, "Packets/s"),
	      "rfc table: a box per test, the answers, latency's reason:\n%s", buf ? buf : "");
	free(buf);

	/*
	 * the same reason at every method and size (latency without common clocks) is one line,
	 * not one a row: row 5 says what row 4 says, at 1518 B
	 */
	rows[5] = rows[4];
	rows[5].rfc.frame_size = 1518;
	CHECK(!pb_report_write(&rep, PB_FORMAT_TABLE, path_in_tmp("rfc2.txt")), "rfc table write");
	buf = read_all(path_in_tmp("rfc2.txt"));
	CHECK(buf && strstr(buf, "skipped  2 method and size pairs: needs latency probes\n") &&
		      !strstr(buf, "af_packet 64 B: needs") &&
		      !strstr(buf, "af_packet 1518 B: needs"),
	      "one reason shared by two rows: one line:\n%s", buf ? buf : "");
	free(buf);
}

/*
 * --search mlr's report: a summary row per goal with RFC 9971's Goal Result (conditional
 * throughput, relevant bounds, regular or not) in JSON, CSV and a box of its own; the goals
 * at the top; the binary search's box is not drawn for them.
 */
static void test_rfc2544_mlr_report(void)
{
	struct pb_rfc2544_opts o = { .tests = PB_RFC_T_THROUGHPUT,
				     .sizes = { 64 },
				     .nsizes = 1,
				     .trial_s = 1,
				     .final_trial_s = 1,
				     .trial_gap_s = 0.5,
				     .precision_pct = 1,
				     .max_trials = 30,
				     .b2b_repeat = 50,
				     .search = PB_RFC_SEARCH_MLR,
				     .ngoals = 2,
				     .goals = { { 0, 1, 1, 0, 1, 0.01 },
						{ 0.005, 1, 2, 0.5, 0.5, 0.01 } } };
	struct pb_result rows[3];
	struct pb_report rep = make_report(3);
	struct json_object *root, *arr, *r1, *r2, *p;
	unsigned int i;
	char *buf;
	struct csv c;

	for (i = 0; i < 3; i++)
		rows[i] = results[0];
	rows[0].rfc = (struct pb_rfc_row){
		.test = PB_RFC_THROUGHPUT, .frame_size = 64, .trial = 1, .load_pct = -1
	};
	rows[1].rfc =
		(struct pb_rfc_row){ .test = PB_RFC_THROUGHPUT,
				     .summary = true,
				     .frame_size = 64,
				     .load_pct = -1,
				     .loss_pct = 0,
				     .throughput_pps = 41250,
				     .throughput_wire_gbps = 0.0277,
				     .max_pps = 250000,
				     .trials = 5,
				     .search = "found",
				     .goal = 1,
				     .mlr = o.goals[0],
				     .goal_spec =
					     "loss=0,final=1,sum=1,exceed=0,initial=1,width=0.01",
				     .lower_pps = 41250,
				     .upper_pps = 41600,
				     .regular = true,
				     .search_s = 5.5 };
	rows[2].rfc = rows[1].rfc;
	rows[2].rfc.goal = 2;
	rows[2].rfc.mlr = o.goals[1];
	rows[2].rfc.throughput_pps = 249000;
	rows[2].rfc.lower_pps = 250000;
	rows[2].rfc.upper_pps = NAN;
	rows[2].rfc.regular = false;
	rows[2].rfc.sender_limited = true;
	rows[2].rfc.search[0] = '\0';
	strcpy(rows[2].rfc.search, "path-max");
	rep.results = rows;
	rep.sort_by_pps = false;
	rep.rfc2544 = &o;

	CHECK(!pb_report_write(&rep, PB_FORMAT_JSON, path_in_tmp("mlr.json")), "mlr json write");
	root = json_object_from_file(path_in_tmp("mlr.json"));
	CHECK(root != NULL, "mlr json: %s", json_util_get_last_err());
	if (!root)
		return;
	p = get(root, "rfc2544");
	CHECK(p && !strcmp(json_object_get_string(get(p, "search")), "mlr") &&
		      json_object_array_length(get(p, "goals")) == 2 &&
		      json_object_get_double(get(json_object_array_get_idx(get(p, "goals"), 1),
						 "loss_ratio")) == 0.005 &&
		      json_object_get_double(get(json_object_array_get_idx(get(p, "goals"), 1),
						 "duration_sum_s")) == 2,
	      "mlr: the search and its goals at the top");
	arr = get(root, "results");
	r1 = json_object_array_get_idx(arr, 1);
	r2 = json_object_array_get_idx(arr, 2);
	CHECK(!strcmp(json_object_get_string(get(r1, "goal")),
		      "loss=0,final=1,sum=1,exceed=0,initial=1,width=0.01") &&
		      json_object_get_double(get(r1, "goal_loss_ratio")) == 0 &&
		      json_object_get_double(get(r1, "goal_final_trial_s")) == 1 &&
		      json_object_get_double(get(r1, "conditional_throughput_pps")) == 41250 &&
		      json_object_get_double(get(r1, "throughput_pps")) == 41250 &&
		      json_object_get_double(get(r1, "relevant_lower_bound_pps")) == 41250 &&
		      json_object_get_double(get(r1, "relevant_upper_bound_pps")) == 41600 &&
		      !strcmp(json_object_get_string(get(r1, "goal_result")), "regular") &&
		      json_object_get_double(get(r1, "search_trial_s")) == 5.5,
	      "mlr: a goal's result, regular");
	CHECK(json_object_get_double(get(r2, "goal_exceed_ratio")) == 0.5 &&
		      json_object_get_double(get(r2, "goal_duration_sum_s")) == 2 &&
		      json_object_get_double(get(r2, "relevant_lower_bound_pps")) == 250000 &&
		      !get(r2, "relevant_upper_bound_pps") &&
		      json_object_object_get_ex(r2, "relevant_upper_bound_pps", NULL) &&
		      !strcmp(json_object_get_string(get(r2, "goal_result")), "irregular"),
	      "mlr: an irregular result without an upper bound");
	r1 = json_object_array_get_idx(arr, 0);
	CHECK(!get(r1, "goal") && !get(r1, "conditional_throughput_pps"),
	      "mlr: a trial row has no goal result");
	json_object_put(root);

	CHECK(!pb_report_write(&rep, PB_FORMAT_CSV, path_in_tmp("mlr.csv")), "mlr csv write");
	buf = read_all(path_in_tmp("mlr.csv"));
	CHECK(buf && !csv_parse(buf, &c) && c.nrec == 4, "mlr csv: 4 records");
	for (i = 1; buf && i < c.nrec; i++)
		CHECK(c.nf[i] == c.nf[0], "mlr csv row %u has %u fields, header %u", i, c.nf[i],
		      c.nf[0]);
	if (buf) {
		CHECK(csv_get(&c, 2, "relevant_upper_bound_pps") &&
			      !strcmp(csv_get(&c, 2, "relevant_upper_bound_pps"), "41600.0"),
		      "mlr csv: the upper bound in its column");
		csv_free(&c);
	}
	free(buf);

	CHECK(!pb_report_write(&rep, PB_FORMAT_TABLE, path_in_tmp("mlr.txt")), "mlr table write");
	buf = read_all(path_in_tmp("mlr.txt"));
	CHECK(buf && strstr(buf, "26.1 throughput by RFC 9971's MLRsearch, per goal") &&
		      !strstr(buf, "26.1 throughput: the highest rate") &&
		      strstr(buf, "loss 0% final 1s sum 1s exceed 0%") &&
		      strstr(buf, "loss 0.5% final 1s sum 2s exceed 50%") &&
		      strstr(buf, "|          41250 |     41250 |     41600 | regular ") &&
		      strstr(buf, "|         249000 |    250000 |         - | irregular ") &&
		      strstr(buf, "send path") && strstr(buf, "MLRsearch (RFC 9971): Goal:"),
	      "mlr table: a box of goals, each result marked regular or irregular:\n%s",
	      buf ? buf : "");
	free(buf);
}

/* -o into a folder that is not there says so, not "cannot create a file beside it". */
static void test_missing_folder(void)
{
	char err[512] = "";
	int ret;

	ret = pb_report_check_path("/tmp/pb-no-such-folder.h6/sub/out.json", err, sizeof(err));
	CHECK(ret == -ENOENT, "missing folder: %d", ret);
	CHECK(strstr(err, "folder /tmp/pb-no-such-folder.h6/sub does not exist") != NULL &&
		      !strstr(err, "beside"),
	      "missing folder: '%s'", err);
	ret = pb_report_check_path("out-in-cwd-h6.json", err, sizeof(err));
	CHECK(ret == 0, "a bare name in the current folder: %d %s", ret, err);
}

int main(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/pb_test_writers.XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "mkdtemp %s: %s\n", tmpdir, strerror(errno));
		return 1;
	}
	make_results();
	test_json();
	test_json_environment();
	test_json_null_strings();
	test_csv();
	test_csv_line_break();
	test_table();
	test_table_ties();
	test_table_spread();
	test_table_nowire();
	test_table_only_skipped();
	test_table_replay_skips();
	test_table_counters();
	test_table_width();
	test_atomic_failures();
	test_latency();
	test_rfc2544_report();
	test_rfc2544_mlr_report();
	test_missing_folder();
	remove_tmpdir();
	return check_summary();
}
