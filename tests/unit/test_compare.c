// SPDX-License-Identifier: MIT
/*
 * Unit test of pktbench compare: the computation on in-memory rows (raw and normalized ratios,
 * the tolerance edge, missing and skipped rows), the loader on hand-made result sets in
 * tests/unit/data/ and on a file the real writer wrote, and the command's exit codes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json.h>

#include "compare.h"
#include "config.h"
#include "options.h"
#include "stats.h"
#include "writers.h"
#include "check.h"

static char datadir[512];
static char tmpdir[256];

/* tests/unit/data beside this source file: CMake compiles it by its absolute path. */
static int find_datadir(void)
{
	const char *slash = strrchr(__FILE__, '/');
	DIR *d;

	if (!slash || __FILE__[0] != '/')
		return -ENOENT;
	snprintf(datadir, sizeof(datadir), "%.*s/data", (int)(slash - __FILE__), __FILE__);
	d = opendir(datadir);
	if (!d)
		return -errno;
	closedir(d);
	return 0;
}

/* Up to four paths alive at once, enough for one command line. */
static const char *data(const char *name)
{
	static char buf[4][768];
	static unsigned int k;
	char *p = buf[k++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", datadir, name);
	return p;
}

static const char *tmp(const char *name)
{
	static char buf[4][512];
	static unsigned int k;
	char *p = buf[k++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return p;
}

static void remove_tmpdir(void)
{
	char path[768];
	struct dirent *de;
	DIR *d;

	d = opendir(tmpdir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(tmpdir);
}

/* ---- in-memory rows */

static struct pb_compare_row ok_row(const char *method, const char *point, double pps)
{
	struct pb_compare_row r = { .status = PB_STATUS_OK,
				    .pps = pps,
				    .delivered_pct = NAN,
				    .accounted_pct = NAN,
				    .p99_us = NAN,
				    .cpu_ns_per_pkt = NAN,
				    .syscalls_per_frame = NAN };

	snprintf(r.method, sizeof(r.method), "%s", method);
	snprintf(r.point, sizeof(r.point), "%s", point);
	return r;
}

static struct pb_compare_row bad_row(const char *method, enum pb_status st, const char *reason)
{
	struct pb_compare_row r = {
		.status = st,
		.pps = 0,
		.delivered_pct = NAN,
		.accounted_pct = NAN,
		.p99_us = NAN,
		.cpu_ns_per_pkt = NAN,
		.syscalls_per_frame = NAN,
	};

	snprintf(r.method, sizeof(r.method), "%s", method);
	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	return r;
}

static struct pb_compare_input input(const char *name, struct pb_compare_row *rows, unsigned int n)
{
	return (struct pb_compare_input){ .name = name, .rows = rows, .n = n };
}

static const struct pb_compare_line *line(const struct pb_compare_result *res, const char *method,
					  const char *point)
{
	const struct pb_compare_row *r;
	unsigned int i;

	for (i = 0; i < res->n; i++) {
		r = res->lines[i].base ? res->lines[i].base : res->lines[i].new_;
		if (!strcmp(r->method, method) && !strcmp(r->point, point))
			return &res->lines[i];
	}
	return NULL;
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

/* One raw comparison of a single row pair: its verdict. */
static enum pb_cmp_verdict verdict1(double base_pps, double new_pps, double tol, double *ratio)
{
	struct pb_compare_row b = ok_row("m", "", base_pps), n = ok_row("m", "", new_pps);
	struct pb_compare_input bi = input("b", &b, 1), ni = input("n", &n, 1);
	struct pb_compare_opts o = { .tolerance_pct = tol };
	struct pb_compare_result res;
	enum pb_cmp_verdict v = PB_CMP_NO_BASE_RATE;
	int err;

	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0 && res.n == 1, "pb_compare %g/%g: %d %s", new_pps, base_pps, err, res.err);
	if (!err && res.n == 1) {
		v = res.lines[0].verdict;
		if (ratio)
			*ratio = res.lines[0].ratio;
	}
	pb_compare_result_free(&res);
	return v;
}

static void test_raw_ratios(void)
{
	struct pb_compare_row b[] = { ok_row("udp_sendto", "", 1e6), ok_row("sendmmsg", "", 2e6),
				      ok_row("af_packet", "", 4e6) };
	struct pb_compare_row n[] = { ok_row("udp_sendto", "", 1.5e6), ok_row("sendmmsg", "", 1e6),
				      ok_row("af_packet", "", 4.2e6) };
	struct pb_compare_input bi = input("BASE.json", b, 3), ni = input("NEW.json", n, 3);
	struct pb_compare_opts o;
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char text[256];
	int err;

	pb_compare_opts_init(&o);
	CHECK(o.tolerance_pct == 10 && !o.normalize[0] && o.delivered_tol_pp == 1 &&
		      o.accounted_tol_pp == 0.1 && o.accounted_min_pct == 99.9 &&
		      !o.allow_interrupted && o.format == PB_CMP_FORMAT_TABLE,
	      "the table's defaults");
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0, "pb_compare raw: %s", res.err);
	if (err)
		return;
	CHECK(res.n == 3, "raw: %u lines, want 3", res.n);
	l = line(&res, "udp_sendto", "");
	CHECK(l && l->ratio == 1.5 && l->verdict == PB_CMP_IMPROVED, "udp_sendto ratio %g, %s",
	      l ? l->ratio : -1, l ? pb_compare_verdict_name(l->verdict) : "");
	CHECK(l && isnan(l->norm_base) && isnan(l->norm_new), "raw: normalized figures set");
	l = line(&res, "sendmmsg", "");
	CHECK(l && l->ratio == 0.5 && l->verdict == PB_CMP_REGRESSED, "sendmmsg ratio %g, %s",
	      l ? l->ratio : -1, l ? pb_compare_verdict_name(l->verdict) : "");
	l = line(&res, "af_packet", "");
	CHECK(l && NEAR(l->ratio, 1.05) && l->verdict == PB_CMP_OK, "af_packet ratio %g, %s",
	      l ? l->ratio : -1, l ? pb_compare_verdict_name(l->verdict) : "");
	CHECK(res.compared == 3 && res.regressed == 1 && res.improved == 1 && !res.lost,
	      "raw counts: %u compared %u regressed %u improved %u lost", res.compared,
	      res.regressed, res.improved, res.lost);
	CHECK(pb_compare_failed(&res), "raw: a regression must fail");
	pb_compare_summary(&res, text, sizeof(text));
	CHECK(!strncmp(text, "1 row regressed (1 on packets/s) (3 compared, 1 improved)", 57),
	      "summary: %s", text);
	/* BASE's order is kept */
	CHECK(res.lines[0].base == &b[0] && res.lines[1].base == &b[1] &&
		      res.lines[2].base == &b[2],
	      "lines not in BASE's order");
	pb_compare_result_free(&res);
}

/*
 * BASE on one machine, NEW on one twice as fast. Normalized by udp_sendto:
 *   sendmmsg  2e6/1e6 = 2.0  vs 3.6e6/2e6 = 1.8  -> 0.9, exactly at the 10 % edge: passes
 *   af_packet 3e6/1e6 = 3.0  vs 4.8e6/2e6 = 2.4  -> 0.8: regressed, although raw it is 1.6
 *   gso       5e5/1e6 = 0.5  vs 1.5e6/2e6 = 0.75 -> 1.5: improved
 *   udp_sendto itself: 1 vs 1, the reference
 */
static void test_normalized_ratios(void)
{
	struct pb_compare_row b[] = { ok_row("udp_sendto", "", 1e6), ok_row("sendmmsg", "", 2e6),
				      ok_row("af_packet", "", 3e6), ok_row("gso", "", 5e5) };
	struct pb_compare_row n[] = { ok_row("gso", "", 1.5e6), ok_row("af_packet", "", 4.8e6),
				      ok_row("sendmmsg", "", 3.6e6),
				      ok_row("udp_sendto", "", 2e6) };
	struct pb_compare_input bi = input("BASE.json", b, 4), ni = input("NEW.json", n, 4);
	struct pb_compare_opts o = { .tolerance_pct = 10, .normalize = "udp_sendto" };
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char text[256];
	int err;

	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0, "pb_compare normalized: %s", res.err);
	if (err)
		return;
	l = line(&res, "udp_sendto", "");
	CHECK(l && l->norm_base == 1 && l->norm_new == 1 && l->ratio == 1 &&
		      l->verdict == PB_CMP_REFERENCE,
	      "udp_sendto: %g %g %g %s", l ? l->norm_base : -1, l ? l->norm_new : -1,
	      l ? l->ratio : -1, l ? pb_compare_verdict_name(l->verdict) : "");
	l = line(&res, "sendmmsg", "");
	CHECK(l && l->norm_base == 2.0 && NEAR(l->norm_new, 1.8) && NEAR(l->ratio, 0.9) &&
		      l->verdict == PB_CMP_OK,
	      "sendmmsg: %g %g %.17g %s", l ? l->norm_base : -1, l ? l->norm_new : -1,
	      l ? l->ratio : -1, l ? pb_compare_verdict_name(l->verdict) : "");
	l = line(&res, "af_packet", "");
	CHECK(l && l->norm_base == 3.0 && NEAR(l->norm_new, 2.4) && NEAR(l->ratio, 0.8) &&
		      l->verdict == PB_CMP_REGRESSED,
	      "af_packet: %g %g %g %s", l ? l->norm_base : -1, l ? l->norm_new : -1,
	      l ? l->ratio : -1, l ? pb_compare_verdict_name(l->verdict) : "");
	l = line(&res, "gso", "");
	CHECK(l && l->norm_base == 0.5 && l->norm_new == 0.75 && l->ratio == 1.5 &&
		      l->verdict == PB_CMP_IMPROVED,
	      "gso: %g %g %g %s", l ? l->norm_base : -1, l ? l->norm_new : -1, l ? l->ratio : -1,
	      l ? pb_compare_verdict_name(l->verdict) : "");
	CHECK(res.compared == 4 && res.regressed == 1 && res.improved == 1,
	      "normalized counts: %u compared %u regressed %u improved", res.compared,
	      res.regressed, res.improved);
	pb_compare_summary(&res, text, sizeof(text));
	CHECK(strstr(text, "normalized by udp_sendto"), "summary: %s", text);
	pb_compare_result_free(&res);

	/* Without --normalize the same data shows no regression: the machine is faster. */
	o.normalize[0] = '\0';
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0 && !pb_compare_failed(&res) && res.improved == 4,
	      "raw on the faster machine: %d failed %d improved %u", err, pb_compare_failed(&res),
	      res.improved);
	pb_compare_result_free(&res);
}

/* Sweep points: the reference at the same point, else its point-less row. */
static void test_points_in_memory(void)
{
	struct pb_compare_row b[] = { ok_row("udp_sendto", "frame_size=64", 1e6),
				      ok_row("udp_sendto", "frame_size=1518", 5e5),
				      ok_row("af_packet", "frame_size=64", 2e6),
				      ok_row("af_packet", "frame_size=1518", 1e6) };
	struct pb_compare_row n[] = { ok_row("udp_sendto", "frame_size=64", 1e6),
				      ok_row("udp_sendto", "frame_size=1518", 1e6),
				      ok_row("af_packet", "frame_size=64", 2e6),
				      ok_row("af_packet", "frame_size=1518", 1e6) };
	/* A reference without a point serves every point. */
	struct pb_compare_row b2[] = { ok_row("udp_sendto", "", 1e6),
				       ok_row("af_packet", "streams=2", 4e6) };
	struct pb_compare_row n2[] = { ok_row("udp_sendto", "", 2e6),
				       ok_row("af_packet", "streams=2", 6e6) };
	struct pb_compare_input bi = input("B", b, 4), ni = input("N", n, 4);
	struct pb_compare_opts o = { .tolerance_pct = 10, .normalize = "udp_sendto" };
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	int err;

	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0, "points: %s", res.err);
	if (!err) {
		l = line(&res, "af_packet", "frame_size=64");
		CHECK(l && l->ratio == 1 && l->verdict == PB_CMP_OK, "af_packet@64: %g",
		      l ? l->ratio : -1);
		/* 1518: 1e6/5e5 = 2 in BASE, 1e6/1e6 = 1 in NEW: halved */
		l = line(&res, "af_packet", "frame_size=1518");
		CHECK(l && l->norm_base == 2 && l->norm_new == 1 && l->ratio == 0.5 &&
			      l->verdict == PB_CMP_REGRESSED,
		      "af_packet@1518: %g", l ? l->ratio : -1);
		CHECK(res.n == 4 && res.regressed == 1, "points: %u lines %u regressed", res.n,
		      res.regressed);
	}
	pb_compare_result_free(&res);

	bi = input("B", b2, 2);
	ni = input("N", n2, 2);
	err = pb_compare(&bi, &ni, &o, &res);
	l = err ? NULL : line(&res, "af_packet", "streams=2");
	CHECK(l && l->norm_base == 4 && l->norm_new == 3 && l->ratio == 0.75,
	      "point-less reference: %d %s", err, res.err);
	pb_compare_result_free(&res);

	/* A reference that has points, none of them this row's: nothing to divide by. */
	b[0] = ok_row("af_packet", "frame_size=512", 1e6);
	n[0] = ok_row("af_packet", "frame_size=512", 1e6);
	bi = input("B", b, 4);
	ni = input("N", n, 4);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -ENOENT &&
		      strstr(res.err, "udp_sendto at point frame_size=512 missing in BASE"),
	      "reference missing at a point: %d %s", err, res.err);
	pb_compare_result_free(&res);
}

static void test_tolerance_edge(void)
{
	double ratio = 0;

	/* Exactly at the edge passes: ratio >= 1 - tolerance. */
	CHECK(verdict1(1e6, 9e5, 10, &ratio) == PB_CMP_OK, "0.9 at 10 %% must pass");
	CHECK(ratio == 0.9, "ratio %.17g, want 0.9", ratio);
	CHECK(verdict1(1e6, 899900, 10, &ratio) == PB_CMP_REGRESSED, "0.8999 at 10 %% regressed");
	CHECK(verdict1(1e6, 899999, 10, NULL) == PB_CMP_REGRESSED, "0.899999 at 10 %% regressed");
	CHECK(verdict1(1e6, 875000, 12.5, NULL) == PB_CMP_OK, "0.875 at 12.5 %% must pass");
	CHECK(verdict1(1e6, 874900, 12.5, NULL) == PB_CMP_REGRESSED, "0.8749 at 12.5 %%");
	/* 1 - 0.3 is not 0.7 in binary; the edge still passes. */
	CHECK(verdict1(1e6, 7e5, 30, NULL) == PB_CMP_OK, "0.7 at 30 %% must pass");
	CHECK(verdict1(3e6, 2.1e6, 30, NULL) == PB_CMP_OK, "2.1/3 at 30 %% must pass");
	CHECK(verdict1(1e6, 8e5, 20, NULL) == PB_CMP_OK, "0.8 at 20 %% must pass");
	/* tolerance 0: only a drop fails */
	CHECK(verdict1(1e6, 1e6, 0, NULL) == PB_CMP_OK, "equal at 0 %% must pass");
	CHECK(verdict1(1e6, 999990, 0, NULL) == PB_CMP_REGRESSED, "0.99999 at 0 %%");
	CHECK(verdict1(1e6, 1, 100, NULL) == PB_CMP_OK, "anything at 100 %% passes");
	/* the improvement side only reports */
	CHECK(verdict1(1e6, 1.1e6, 10, NULL) == PB_CMP_OK, "1.1 at 10 %% is ok, not improved");
	CHECK(verdict1(1e6, 1.1001e6, 10, NULL) == PB_CMP_IMPROVED, "1.1001 is improved");
	/* a rate that fell to zero is a regression; one from zero has no ratio */
	CHECK(verdict1(1e6, 0, 10, &ratio) == PB_CMP_REGRESSED && ratio == 0, "to 0 regressed");
	CHECK(verdict1(0, 1e6, 10, &ratio) == PB_CMP_NO_BASE_RATE && isnan(ratio),
	      "from 0: no ratio");
}

static void test_missing_rows(void)
{
	struct pb_compare_row b[] = {
		ok_row("udp_sendto", "", 1e6),
		ok_row("sendmmsg", "", 2e6),
		bad_row("pcap", PB_STATUS_SKIPPED, "libpcap not found"),
		ok_row("raw_socket", "", 5e5),
		bad_row("xdp", PB_STATUS_ERROR, "attach failed"),
		bad_row("af_xdp", PB_STATUS_SKIPPED, "no driver support"),
	};
	struct pb_compare_row n[] = {
		ok_row("io_uring", "", 3e6),
		ok_row("udp_sendto", "", 1e6),
		bad_row("sendmmsg", PB_STATUS_ERROR, "sendmmsg: Operation not permitted"),
		ok_row("pcap", "", 1e6),
		bad_row("af_xdp", PB_STATUS_SKIPPED, "no driver support"),
		bad_row("gso", PB_STATUS_SKIPPED, "no UDP GSO"),
	};
	struct pb_compare_input bi = input("BASE.json", b, 6), ni = input("NEW.json", n, 6);
	struct pb_compare_opts o = { .tolerance_pct = 10 };
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char text[512];
	int err;

	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0, "missing rows: %s", res.err);
	if (err)
		return;
	/* every key of either set once: 6 in BASE + io_uring + gso */
	CHECK(res.n == 8, "missing rows: %u lines, want 8", res.n);

	l = line(&res, "udp_sendto", "");
	CHECK(l && l->verdict == PB_CMP_OK, "udp_sendto");
	l = line(&res, "sendmmsg", "");
	CHECK(l && l->verdict == PB_CMP_NOT_OK_NEW && pb_compare_verdict_fails(l->verdict),
	      "sendmmsg error in NEW must fail");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "error in NEW: sendmmsg: Operation not permitted"), "text: %s", text);

	l = line(&res, "pcap", "");
	CHECK(l && l->verdict == PB_CMP_NOT_OK_BASE && !pb_compare_verdict_fails(l->verdict),
	      "pcap skipped in BASE is information");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "skipped in BASE: libpcap not found; ok in NEW"), "text: %s", text);

	l = line(&res, "raw_socket", "");
	CHECK(l && l->verdict == PB_CMP_MISSING_NEW && pb_compare_verdict_fails(l->verdict) &&
		      !l->new_ && isnan(l->ratio),
	      "raw_socket missing in NEW must fail");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "missing in NEW"), "text: %s", text);

	l = line(&res, "xdp", "");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(l && l->verdict == PB_CMP_NOT_OK_BASE &&
		      !strcmp(text, "error in BASE: attach failed; missing in NEW"),
	      "xdp: %s", text);

	l = line(&res, "af_xdp", "");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(l && l->verdict == PB_CMP_NOT_OK_BASE &&
		      !strcmp(text, "skipped in BASE: no driver support; skipped in NEW: no "
				    "driver support"),
	      "af_xdp: %s", text);

	l = line(&res, "io_uring", "");
	CHECK(l && l->verdict == PB_CMP_MISSING_BASE && !l->base && l->new_ == &n[0] &&
		      !pb_compare_verdict_fails(l->verdict),
	      "io_uring only in NEW is information");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "missing in BASE"), "text: %s", text);
	l = line(&res, "gso", "");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(l && l->verdict == PB_CMP_MISSING_BASE &&
		      !strcmp(text, "missing in BASE; skipped in NEW: no UDP GSO"),
	      "gso: %s", text);
	/* rows only in NEW come last, in NEW's order */
	CHECK(res.lines[6].new_ == &n[0] && res.lines[7].new_ == &n[5], "NEW-only rows' order");

	CHECK(res.compared == 1 && res.lost == 2 && res.regressed == 0 && res.informational == 5,
	      "counts: %u compared %u lost %u regressed %u informational", res.compared, res.lost,
	      res.regressed, res.informational);
	CHECK(pb_compare_failed(&res), "missing rows must fail");
	pb_compare_summary(&res, text, sizeof(text));
	CHECK(!strncmp(text, "2 rows missing or not ok in NEW (1 compared", 43), "summary: %s",
	      text);
	pb_compare_result_free(&res);

	/* Only informational differences: passes. */
	bi = input("BASE.json", b, 1);
	ni = input("NEW.json", n, 2);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0 && !pb_compare_failed(&res) && res.informational == 1,
	      "a row only in NEW must not fail");
	pb_compare_summary(&res, text, sizeof(text));
	CHECK(!strcmp(text, "no regression (1 compared, 1 not comparable)"), "summary: %s", text);
	pb_compare_result_free(&res);
}

static void test_errors(void)
{
	struct pb_compare_row b[] = { ok_row("udp_sendto", "", 1e6), ok_row("sendmmsg", "", 2e6) };
	struct pb_compare_row n[] = { bad_row("udp_sendto", PB_STATUS_SKIPPED, "no route"),
				      ok_row("sendmmsg", "", 2e6) };
	struct pb_compare_row n0[] = { ok_row("sendmmsg", "", 2e6) };
	struct pb_compare_row dup[] = { ok_row("sendmmsg", "", 2e6), ok_row("sendmmsg", "", 3e6) };
	struct pb_compare_row zero[] = { ok_row("udp_sendto", "", 0), ok_row("sendmmsg", "", 2e6) };
	struct pb_compare_input bi = input("BASE.json", b, 2), ni = input("NEW.json", n, 2);
	struct pb_compare_opts o = { .tolerance_pct = 10, .normalize = "udp_sendto" };
	struct pb_compare_result res;
	int err;

	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -ENOENT && strstr(res.err, "udp_sendto") && strstr(res.err, "NEW") &&
		      strstr(res.err, "no route"),
	      "normalize method skipped in NEW: %d %s", err, res.err);
	pb_compare_result_free(&res);

	ni = input("NEW.json", n0, 1);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -ENOENT && strstr(res.err, "no udp_sendto row in NEW"),
	      "normalize method missing in NEW: %d %s", err, res.err);
	pb_compare_result_free(&res);

	/* missing in BASE, the other way round */
	err = pb_compare(&ni, &bi, &o, &res);
	CHECK(err == -ENOENT && strstr(res.err, "no udp_sendto row in BASE"),
	      "normalize method missing in BASE: %d %s", err, res.err);
	pb_compare_result_free(&res);

	snprintf(o.normalize, sizeof(o.normalize), "no_such_method");
	ni = input("NEW.json", b, 2);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -ENOENT, "unknown normalize method: %d %s", err, res.err);
	pb_compare_result_free(&res);

	snprintf(o.normalize, sizeof(o.normalize), "udp_sendto");
	ni = input("NEW.json", zero, 2);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -ENOENT && strstr(res.err, "rate of 0"), "reference rate 0: %d %s", err,
	      res.err);
	pb_compare_result_free(&res);

	o.normalize[0] = '\0';
	ni = input("NEW.json", dup, 2);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -EINVAL && strstr(res.err, "twice"), "duplicate key: %d %s", err, res.err);
	pb_compare_result_free(&res);

	ni = input("NEW.json", b, 2);
	o.tolerance_pct = -1;
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -EINVAL, "tolerance -1: %d", err);
	o.tolerance_pct = NAN;
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -EINVAL, "tolerance NaN: %d", err);
	o.tolerance_pct = 10;
	n0[0].pps = NAN;
	ni = input("NEW.json", n0, 1);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == -EINVAL, "an ok row with NaN pps: %d", err);

	/* Two empty sets: nothing compared, nothing failed. */
	bi = input("B", NULL, 0);
	ni = input("N", NULL, 0);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0 && res.n == 0 && !pb_compare_failed(&res), "empty sets: %d", err);
	pb_compare_result_free(&res);
}

/* An ok row with the receiver's figures. */
static struct pb_compare_row rx_row(const char *method, double pps, double delivered,
				    double accounted)
{
	struct pb_compare_row r = ok_row(method, "", pps);

	r.delivered_pct = delivered;
	r.accounted_pct = accounted;
	return r;
}

/* One pair of rows under the default options (less what the caller changes): the line. */
static struct pb_compare_line pair(struct pb_compare_row b, struct pb_compare_row n,
				   const struct pb_compare_opts *opts, unsigned int *fails)
{
	struct pb_compare_input bi = input("B", &b, 1), ni = input("N", &n, 1);
	struct pb_compare_line l = { .verdict = PB_CMP_NO_BASE_RATE };
	struct pb_compare_opts o;
	struct pb_compare_result res;
	int err;

	if (opts)
		o = *opts;
	else
		pb_compare_opts_init(&o);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(err == 0 && res.n == 1, "pair %s: %d %s", b.method, err, res.err);
	if (!err && res.n == 1) {
		l = res.lines[0];
		l.base = l.new_ = NULL; /* they point into this frame */
		if (fails)
			*fails = pb_compare_failed(&res);
	}
	pb_compare_result_free(&res);
	return l;
}

/* delivered % and accounted % gate as well as packets/s, where both sides had a receiver. */
static void test_delivery_gates(void)
{
	struct pb_compare_opts o;
	struct pb_compare_line l;
	unsigned int fails = 0;

	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 1e6, 100, 100), NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK && !l.why && !fails, "all delivered: %d", l.verdict);
	/* delivered: 1 pp by default; exactly at the edge passes */
	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 1e6, 99, 100), NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK && !fails, "delivered -1 pp at the edge: %d", l.verdict);
	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 1e6, 98.99, 100), NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_DELIVERED && fails,
	      "delivered -1.01 pp: %d why %#x", l.verdict, l.why);
	/* a faster NEW that loses frames still regressed */
	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 2e6, 90, 100), NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_DELIVERED,
	      "faster but lossy: %d why %#x", l.verdict, l.why);
	/* slower and lossy: both reasons */
	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 5e5, 90, 100), NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == (PB_CMP_WHY_PPS | PB_CMP_WHY_DELIVERED),
	      "slower and lossy: why %#x", l.why);
	/* better delivery than BASE is fine */
	l = pair(rx_row("m", 1e6, 95, 100), rx_row("m", 1e6, 100, 100), NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK, "delivered up: %d", l.verdict);

	/* accounted: 0.1 pp below BASE, and within [99.9, 100] */
	l = pair(rx_row("m", 1e6, 99, 99.95), rx_row("m", 1e6, 99, 99.9), NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK, "accounted 99.95 -> 99.9: at both edges: %d why %#x",
	      l.verdict, l.why);
	l = pair(rx_row("m", 1e6, 99, 100), rx_row("m", 1e6, 99, 99.85), NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED &&
		      l.why == (PB_CMP_WHY_ACCOUNTED | PB_CMP_WHY_ACCT_RANGE),
	      "accounted 100 -> 99.85: why %#x", l.why);
	l = pair(rx_row("m", 1e6, 99, 99.5), rx_row("m", 1e6, 99, 99.5), NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_ACCT_RANGE,
	      "accounted 99.5 in both: outside the range: why %#x", l.why);
	l = pair(rx_row("m", 1e6, 99, 100), rx_row("m", 1e6, 99, 100.5), NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_ACCT_RANGE,
	      "accounted above 100 (counted twice): why %#x", l.why);

	/* the flags move the edges, and turn the lower bound off */
	pb_compare_opts_init(&o);
	o.delivered_tol_pp = 20;
	o.accounted_min_pct = 0;
	o.accounted_tol_pp = 1;
	l = pair(rx_row("m", 1e6, 100, 99.5), rx_row("m", 1e6, 85, 99.0), &o, &fails);
	CHECK(l.verdict == PB_CMP_OK && !fails, "wider tolerances: %d why %#x", l.verdict, l.why);
	o.delivered_tol_pp = 0;
	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 1e6, 99.99, 100), &o, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED, "no loss allowed: %d", l.verdict);

	/* no receiver on one side: nothing to gate on, the rate decides */
	l = pair(rx_row("m", 1e6, 100, 100), rx_row("m", 1e6, NAN, NAN), NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK, "no receiver in NEW: %d", l.verdict);
	l = pair(rx_row("m", 1e6, NAN, NAN), rx_row("m", 1e6, 50, 50), NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK, "no receiver in BASE: %d", l.verdict);
}

/* The reference row of --normalize is gated on delivery too, and counts show each reason. */
static void test_delivery_counts(void)
{
	struct pb_compare_row b[] = { rx_row("udp_sendto", 1e6, 100, 100),
				      rx_row("sendmmsg", 2e6, 100, 100),
				      rx_row("gso", 3e6, 100, 100) };
	struct pb_compare_row n[] = { rx_row("udp_sendto", 1e6, 95, 100),
				      rx_row("sendmmsg", 1e6, 100, 99),
				      rx_row("gso", 3e6, 100, 100) };
	struct pb_compare_input bi = input("B", b, 3), ni = input("N", n, 3);
	struct pb_compare_opts o;
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char text[512];

	pb_compare_opts_init(&o);
	snprintf(o.normalize, sizeof(o.normalize), "udp_sendto");
	CHECK(pb_compare(&bi, &ni, &o, &res) == 0, "counts: %s", res.err);
	l = line(&res, "udp_sendto", "");
	CHECK(l && l->verdict == PB_CMP_REGRESSED && l->why == PB_CMP_WHY_DELIVERED,
	      "the reference lost frames: %d", l ? (int)l->verdict : -1);
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "regressed: delivered % -5.00 pp"), "text: %s", text);
	l = line(&res, "sendmmsg", "");
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "regressed: packets/s, accounted % -1.00 pp, accounted 99.00 % out of "
			    "range"),
	      "text: %s", text);
	CHECK(res.regressed == 2 && res.regressed_on[__PB_CMP_WHY_PPS] == 1 &&
		      res.regressed_on[__PB_CMP_WHY_DELIVERED] == 1 &&
		      res.regressed_on[__PB_CMP_WHY_ACCOUNTED] == 1 &&
		      res.regressed_on[__PB_CMP_WHY_ACCT_RANGE] == 1,
	      "regressed_on counts");
	pb_compare_summary(&res, text, sizeof(text));
	CHECK(!strcmp(text, "2 rows regressed (1 on packets/s, 1 on delivered %, 1 on accounted %, "
			    "1 on accounted % range) (3 compared, normalized by udp_sendto)"),
	      "summary: %s", text);
	pb_compare_result_free(&res);
}

/* A partial run is not comparable unless the user says so. */
static void test_interrupted(void)
{
	struct pb_compare_row b = rx_row("m", 1e6, 100, 100), n = rx_row("m", 1e6, 100, 100);
	struct pb_compare_row b2[] = { rx_row("a", 1e6, 100, 100), rx_row("m", 1e6, 100, 100) };
	struct pb_compare_row n2[] = { rx_row("a", 1e6, 100, 100), rx_row("m", 1e6, 100, 100) };
	struct pb_compare_input bi = input("B", b2, 2), ni = input("N", n2, 2);
	struct pb_compare_opts o;
	struct pb_compare_result res;
	struct pb_compare_line l;
	unsigned int fails = 0;
	char text[512];

	n.interrupted = true;
	l = pair(b, n, NULL, &fails);
	CHECK(l.verdict == PB_CMP_INTERRUPTED && fails && pb_compare_verdict_fails(l.verdict),
	      "interrupted in NEW: %d fails %u", l.verdict, fails);
	n.interrupted = false;
	b.interrupted = true;
	l = pair(b, n, NULL, &fails);
	CHECK(l.verdict == PB_CMP_INTERRUPTED && fails, "interrupted in BASE: %d", l.verdict);
	/* even one that would have regressed is not compared */
	n.pps = 1;
	l = pair(b, n, NULL, &fails);
	CHECK(l.verdict == PB_CMP_INTERRUPTED && !l.why, "interrupted and slow: %d", l.verdict);

	pb_compare_opts_init(&o);
	o.allow_interrupted = true;
	l = pair(b, n, &o, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_PPS,
	      "--allow-interrupted compares it: %d", l.verdict);
	/* a --count that timed out is just as partial */
	b.interrupted = false;
	n.timed_out = true;
	l = pair(b, n, NULL, &fails);
	CHECK(l.verdict == PB_CMP_INTERRUPTED && fails, "timed out in NEW: %d", l.verdict);
	n.timed_out = false;

	n2[1].interrupted = true;
	pb_compare_opts_init(&o);
	CHECK(pb_compare(&bi, &ni, &o, &res) == 0, "interrupted: %s", res.err);
	pb_compare_verdict_text(line(&res, "m", ""), text, sizeof(text));
	CHECK(!strcmp(text, "not comparable: interrupted in NEW"), "text: %s", text);
	CHECK(res.interrupted == 1 && res.compared == 1 && pb_compare_failed(&res),
	      "counts: %u interrupted %u compared", res.interrupted, res.compared);
	pb_compare_summary(&res, text, sizeof(text));
	CHECK(!strcmp(text, "1 row interrupted or timed out, not compared (1 compared)"),
	      "summary: %s", text);
	pb_compare_result_free(&res);
	o.allow_interrupted = true;
	CHECK(pb_compare(&bi, &ni, &o, &res) == 0 && !pb_compare_failed(&res), "allowed: %s",
	      res.err);
	pb_compare_verdict_text(line(&res, "m", ""), text, sizeof(text));
	CHECK(!strcmp(text, "ok; interrupted in NEW, compared anyway"), "text: %s", text);
	pb_compare_result_free(&res);
}

/* ---- the loader */

static void test_load_files(void)
{
	struct pb_compare_input b, n;
	struct pb_compare_opts o = { .tolerance_pct = 10, .normalize = "udp_sendto" };
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char err[512];
	int ret;

	ret = pb_compare_load(data("base.json"), &b, err, sizeof(err));
	CHECK(ret == 0, "load base.json: %s", err);
	if (ret)
		return;
	CHECK(b.n == 6, "base.json: %u rows", b.n);
	CHECK(!strcmp(b.version, "0.1.0-handmade") && !strcmp(b.kernel, "6.1.0-test"),
	      "base.json metadata: %s %s", b.version, b.kernel);
	CHECK(b.n == 6 && !strcmp(b.rows[4].method, "pcap") &&
		      b.rows[4].status == PB_STATUS_SKIPPED &&
		      !strcmp(b.rows[4].reason, "libpcap not found at build time") &&
		      b.rows[0].pps == 1e6 && !b.rows[0].reason[0] && !b.rows[0].point[0],
	      "base.json rows");
	pb_compare_input_free(&b);

	ret = pb_compare_load(data("base_points.json"), &b, err, sizeof(err));
	CHECK(ret == 0, "load base_points.json: %s", err);
	ret = ret ? ret : pb_compare_load(data("new_points.json"), &n, err, sizeof(err));
	CHECK(ret == 0, "load new_points.json: %s", err);
	if (ret)
		return;
	/* keys in either order, 64 or 64.0: one canonical text */
	CHECK(!strcmp(b.rows[0].point, "frame_size=64,streams=1"), "point: %s", b.rows[0].point);
	CHECK(!strcmp(n.rows[0].point, "frame_size=64,streams=1"), "point: %s", n.rows[0].point);
	ret = pb_compare(&b, &n, &o, &res);
	CHECK(ret == 0, "compare points: %s", res.err);
	if (!ret) {
		CHECK(res.n == 5, "points: %u lines", res.n);
		/* 3e6/1e6 = 3 vs 4.8e6/2e6 = 2.4 */
		l = line(&res, "af_packet", "frame_size=64,streams=1");
		CHECK(l && l->verdict == PB_CMP_REGRESSED && NEAR(l->ratio, 0.8),
		      "af_packet@64: %g", l ? l->ratio : -1);
		/* 1e6/8e5 = 1.25 vs 2e6/1.6e6 = 1.25 */
		l = line(&res, "af_packet", "frame_size=1518,streams=1");
		CHECK(l && l->verdict == PB_CMP_OK && NEAR(l->ratio, 1), "af_packet@1518: %g",
		      l ? l->ratio : -1);
		l = line(&res, "af_packet", "frame_size=512,streams=1");
		CHECK(l && l->verdict == PB_CMP_MISSING_BASE, "af_packet@512 only in NEW");
		l = line(&res, "udp_sendto", "frame_size=1518,streams=1");
		CHECK(l && l->verdict == PB_CMP_REFERENCE, "udp_sendto@1518 is the reference");
	}
	pb_compare_result_free(&res);
	pb_compare_input_free(&n);
	pb_compare_input_free(&b);

	/* unusable files: the message names the file and says what is wrong */
	ret = pb_compare_load(data("no_such_file.json"), &b, err, sizeof(err));
	CHECK(ret == -ENOENT && strstr(err, "no_such_file.json"), "missing file: %d %s", ret, err);
	ret = pb_compare_load(data("not_json.json"), &b, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "not JSON"), "not_json: %d %s", ret, err);
	ret = pb_compare_load(data("no_results.json"), &b, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "no results array"), "no_results: %d %s", ret, err);
	ret = pb_compare_load(data("bad_row.json"), &b, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "pps"), "bad_row: %d %s", ret, err);
	ret = pb_compare_load(datadir, &b, err, sizeof(err));
	CHECK(ret < 0, "a directory: %d %s", ret, err);
	CHECK(!b.rows && !b.n, "a failed load leaves no rows");
}

static int parse(const char *text, struct pb_compare_input *in, char *err, size_t len)
{
	return pb_compare_parse(text, strlen(text), "text", in, err, len);
}

static void test_parse_text(void)
{
	/* the fields the gates read, each with a value of the wrong type */
	static const struct {
		const char *field, *want;
	} wrong[] = {
		{ "\"interrupted\":\"yes\"", "interrupted is not true or false" },
		{ "\"timed_out\":1", "timed_out is not true or false" },
		{ "\"delivered_pct\":\"100\"", "delivered_pct is not a number or null" },
		{ "\"accounted_pct\":[]", "accounted_pct is not a number or null" },
		{ "\"latency\":{\"p99_us\":\"1\"}", "latency.p99_us is not a number or null" },
		{ "\"latency\":7", "latency.p99_us is not a number or null" },
		{ "\"latency\":{\"p99_us\":-1}", "latency.p99_us is not a number or null" },
		{ "\"pps_min\":1", "pps_min and pps_max are not both null or numbers" },
		{ "\"pps_min\":0.5,\"pps_max\":null", "pps_min and pps_max are not both" },
		{ "\"pps_min\":2,\"pps_max\":3", "numbers around pps" },
		{ "\"pps_min\":0.5,\"pps_max\":\"2\"", "pps_min and pps_max are not both" },
	};
	struct pb_compare_input in;
	char err[512];
	size_t i;
	int ret;

	ret = parse("", &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "not JSON"), "empty: %s", err);
	ret = parse("{\"schema\":1,\"results\":[]} x", &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "not JSON"), "trailing data: %s", err);
	ret = parse("[1,2]", &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "not a JSON object"), "array: %s", err);
	/* json-c keeps the last of a key given twice: what is compared would not be what is seen */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"pps\":1000000}]}",
		    &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "\"pps\" twice"), "a key twice: %d %s", ret, err);
	ret = parse("{\"results\":[]}", &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "no schema"), "no schema: %s", err);
	ret = parse("{\"schema\":99,\"results\":[]}", &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "schema 99"), "schema 99: %s", err);
	ret = parse("{\"schema\":1,\"results\":{}}", &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "no results array"), "results object: %s", err);
	ret = parse("{\"schema\":1,\"results\":[{\"status\":\"ok\",\"pps\":1}]}", &in, err,
		    sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "no method"), "no method: %s", err);
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"fine\"}]}", &in, err,
		    sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "status"), "bad status: %s", err);
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":-1}]}",
		    &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "pps"), "negative pps: %s", err);
	/* a skipped row needs no rate; null point and reason are none */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"skipped\","
		    "\"reason\":null,\"pps\":null,\"point\":null}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && in.n == 1 && !in.rows[0].point[0] && !in.rows[0].reason[0],
	      "skipped row: %d %s", ret, err);
	pb_compare_input_free(&in);
	/* the fields the gates read: strict types, null is "no receiver" */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"interrupted\":true,\"delivered_pct\":99.5,\"accounted_pct\":null}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && in.n == 1 && in.rows[0].interrupted && in.rows[0].delivered_pct == 99.5 &&
		      isnan(in.rows[0].accounted_pct),
	      "interrupted and percentages: %d %s", ret, err);
	pb_compare_input_free(&in);
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && !in.rows[0].interrupted && isnan(in.rows[0].delivered_pct),
	      "absent fields: %d %s", ret, err);
	pb_compare_input_free(&in);
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"timed_out\":true}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && in.rows[0].timed_out && !in.rows[0].interrupted, "timed_out: %s", err);
	pb_compare_input_free(&in);
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"pps_min\":0.5,\"pps_max\":1.5},{\"method\":\"b\",\"status\":\"ok\","
		    "\"pps\":1,\"pps_min\":null,\"pps_max\":null}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && in.rows[0].pps_min == 0.5 && in.rows[0].pps_max == 1.5 &&
		      in.rows[1].pps_min == 0 && in.rows[1].pps_max == 0,
	      "runs' spread, and none: %d %s", ret, err);
	pb_compare_input_free(&in);
	for (i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text),
			 "{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\","
			 "\"pps\":1,%s}]}",
			 wrong[i].field);
		ret = parse(text, &in, err, sizeof(err));
		CHECK(ret == -EINVAL && strstr(err, wrong[i].want), "%s: %d %s", wrong[i].field,
		      ret, err);
	}

	/* nested and scalar points still make a canonical key */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"point\":{\"z\":[1,2.5],\"a\":{\"y\":true,\"x\":\"s\"}}},"
		    "{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,\"point\":64}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && in.n == 2 && !strcmp(in.rows[0].point, "a={x=s,y=true},z=[1,2.5]") &&
		      !strcmp(in.rows[1].point, "64"),
	      "canonical points: %d %s | %s", ret, ret ? err : in.rows[0].point,
	      ret ? "" : in.rows[1].point);
	pb_compare_input_free(&in);
}

/*
 * pktbench rfc2544's sets: trials are not compared; summary rows are, by their answer as
 * "higher is better" (throughput pps, burst frames, 100 - loss %), keyed by test, frame size
 * and load. A fall in throughput, a shorter burst and more loss all regress.
 */
static void test_rfc2544_rows(void)
{
#define RFC_TRIAL(pps)                                                                             \
	"{\"method\":\"af_packet\",\"status\":\"ok\",\"pps\":" #pps ",\"test\":\"throughput\","    \
	"\"summary\":false,\"frame_size\":64,\"load_pct\":null}"
#define RFC_SET(tput, burst, loss90)                                                               \
	"{\"schema\":1,\"results\":[" RFC_TRIAL(100) "," RFC_TRIAL(                                \
		200) ","                                                                           \
		     "{\"method\":\"af_packet\",\"status\":\"ok\",\"pps\":null,\"test\":"          \
		     "\"throughput\","                                                             \
		     "\"summary\":true,\"frame_size\":64,\"load_pct\":null,\"throughput_"          \
		     "pps\":" #tput "},"                                                           \
		     "{\"method\":\"af_packet\",\"status\":\"ok\",\"pps\":null,\"test\":\"back-"   \
		     "to-back\","                                                                  \
		     "\"summary\":true,\"frame_size\":64,\"burst_frames\":" #burst "},"            \
		     "{\"method\":\"af_packet\",\"status\":\"ok\",\"pps\":null,\"test\":\"loss\"," \
		     "\"summary\":true,\"frame_size\":64,\"load_pct\":90,\"loss_pct\":" #loss90    \
		     "},"                                                                          \
		     "{\"method\":\"af_packet\",\"status\":\"skipped\",\"reason\":\"no probes\","  \
		     "\"pps\":null,\"test\":\"latency\",\"summary\":true,\"frame_size\":64}]}"
	struct pb_compare_input b, n;
	struct pb_compare_result res;
	struct pb_compare_opts o;
	const struct pb_compare_line *l;
	char err[512];
	int ret;

	ret = parse(RFC_SET(41000, 500, 50), &b, err, sizeof(err));
	CHECK(ret == 0 && b.n == 4, "rfc2544 set: %d rows (trials left out): %s", b.n, err);
	if (ret)
		return;
	CHECK(!strcmp(b.rows[0].point, "frame_size=64,test=throughput") && b.rows[0].pps == 41000,
	      "throughput row: point %s, value %g", b.rows[0].point, b.rows[0].pps);
	CHECK(!strcmp(b.rows[2].point, "frame_size=64,load_pct=90,test=loss") &&
		      b.rows[2].pps == 50,
	      "loss row: point %s, value %g (100 - loss %%)", b.rows[2].point, b.rows[2].pps);
	ret = parse(RFC_SET(30000, 520, 60), &n, err, sizeof(err));
	CHECK(ret == 0, "rfc2544 NEW: %s", err);
	pb_compare_opts_init(&o);
	ret = ret ? ret : pb_compare(&b, &n, &o, &res);
	CHECK(ret == 0, "rfc2544 compare: %s", ret ? res.err : "");
	if (!ret) {
		l = line(&res, "af_packet", "frame_size=64,test=throughput");
		CHECK(l && l->verdict == PB_CMP_REGRESSED, "a lower throughput regresses");
		l = line(&res, "af_packet", "frame_size=64,test=back-to-back");
		CHECK(l && l->verdict == PB_CMP_OK, "a slightly longer burst is fine");
		l = line(&res, "af_packet", "frame_size=64,load_pct=90,test=loss");
		CHECK(l && l->verdict == PB_CMP_REGRESSED, "60 %% loss after 50 %% regresses");
		CHECK(res.compared == 3 && pb_compare_failed(&res), "3 compared, the set fails");
		pb_compare_result_free(&res);
	}
	pb_compare_input_free(&n);
	/* an answer that is not a number is bad input, like an ok row without pps */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"test\":"
		    "\"throughput\",\"summary\":true,\"frame_size\":64,\"throughput_pps\":null}]}",
		    &n, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "throughput_pps is not a number"), "no answer: %s",
	      err);
	/* --search mlr: a row per goal, each its own point, by its conditional throughput */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"test\":"
		    "\"throughput\",\"summary\":true,\"frame_size\":64,\"goal\":\"loss=0\","
		    "\"throughput_pps\":100},{\"method\":\"a\",\"status\":\"ok\",\"test\":"
		    "\"throughput\",\"summary\":true,\"frame_size\":64,\"goal\":\"loss=0.005\","
		    "\"throughput_pps\":101}]}",
		    &n, err, sizeof(err));
	CHECK(ret == 0 && n.n == 2 &&
		      !strcmp(n.rows[0].point, "frame_size=64,goal=loss=0,test=throughput") &&
		      !strcmp(n.rows[1].point, "frame_size=64,goal=loss=0.005,test=throughput") &&
		      n.rows[1].pps == 101,
	      "mlr goals: two points (%s, %s): %s", ret ? "" : n.rows[0].point,
	      ret ? "" : n.rows[1].point, err);
	if (!ret)
		pb_compare_input_free(&n);
	pb_compare_input_free(&b);
#undef RFC_SET
#undef RFC_TRIAL
}

/*
 * The default tells a machine's noise from a regression by the comparison's own rows: when
 * every row moved about as much as one did, that one is noise; when the others stayed put, it
 * is not. --fixed-tolerance goes back to the tolerance alone.
 */
static void test_noise_from_rows(void)
{
	static const double scatter[10] = { 0.7, 1.3, 0.85, 1.2, 1.1, 0.9, 0.75, 1.25, 1.0, 0.95 };
	struct pb_compare_row b[10], n[10];
	struct pb_compare_input bi, ni;
	struct pb_compare_opts o;
	struct pb_compare_result res;
	char name[16];
	unsigned int i;
	int err;

	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "m%u", i);
		b[i] = ok_row(name, "", 1000);
		n[i] = ok_row(name, "", 1000 * scatter[i]);
	}
	bi = input("b", b, 10);
	ni = input("n", n, 10);
	pb_compare_opts_init(&o);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(!err && !pb_compare_failed(&res) && res.regressed == 0,
	      "rows that all scatter by 30 %%: noise, not %u regressions (%s)", res.regressed,
	      res.err);
	CHECK(!err && res.noise_pct > 30 && res.noise_pct < 70, "noise %.1f %% from the rows",
	      res.noise_pct);
	pb_compare_result_free(&res);

	o.fixed_tolerance = true;
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(!err && res.regressed == 3 && isnan(res.noise_pct),
	      "--fixed-tolerance: 3 rows below 0.9 regress, got %u", res.regressed);
	pb_compare_result_free(&res);

	/* the same rows, all steady but one 20 % drop: the drop stands out */
	for (i = 0; i < 10; i++)
		n[i].pps = i == 4 ? 800 : 1000;
	pb_compare_opts_init(&o);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(!err && res.regressed == 1 && line(&res, "m4", "")->verdict == PB_CMP_REGRESSED,
	      "one 20 %% drop among steady rows regresses: %u", res.regressed);
	CHECK(!err && res.noise_pct == 0, "steady rows: noise %g", res.noise_pct);
	pb_compare_result_free(&res);

	/* too few rows to estimate anything: the tolerance alone */
	bi.n = ni.n = 4;
	for (i = 0; i < 4; i++)
		n[i].pps = 1000 * scatter[i];
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(!err && res.regressed == 2 && isnan(res.noise_pct),
	      "4 rows: no noise estimate, 0.7 and 0.85 regress (%u)", res.regressed);
	pb_compare_result_free(&res);
}

/*
 * Real sets: two back-to-back `--method benchmark --duration 2` runs on a busy 2-core machine
 * compare clean; the first with one method's rate cut by 20 % does not; a default
 * `rfc2544 --format json` result (with its latency rows) compares with itself, and its latency
 * rows regress on a p99 three times as high.
 */
static int run(const char *arg, ...);
static struct pb_compare_row runs_row(const char *method, double pps, double lo, double hi)
{
	struct pb_compare_row r = ok_row(method, "", pps);

	r.pps_min = lo;
	r.pps_max = hi;
	return r;
}

/*
 * Rows that are medians of --repeat runs carry their runs' spread: a fall beyond the
 * allowance regresses only when NEW's fastest run is slower than BASE's slowest, a rise
 * improves only when NEW's slowest is faster than BASE's fastest. Without the spread on both
 * sides, the allowance alone, as before.
 */
static void test_runs_spread(void)
{
	struct pb_compare_row b[13], n[13];
	struct pb_compare_input bi, ni;
	struct pb_compare_opts o;
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char text[400], summary[512], name[16];
	unsigned int i;
	int err;

	/* seven rows that held still: the rows' common noise is 0, the allowance 10 % */
	for (i = 6; i < 13; i++) {
		snprintf(name, sizeof(name), "still%u", i);
		b[i] = n[i] = runs_row(name, 100, 99, 101);
	}

	b[0] = runs_row("overlap", 100, 90, 110);
	n[0] = runs_row("overlap", 85, 80, 92); /* 0.85, but 92 >= 90 */
	b[1] = runs_row("apart", 100, 90, 110);
	n[1] = runs_row("apart", 85, 80, 89); /* 0.85, and 89 < 90 */
	b[2] = ok_row("one_side", "", 100);
	n[2] = runs_row("one_side", 85, 80, 92); /* BASE had one run: the allowance alone */
	b[3] = runs_row("up_overlap", 100, 90, 110);
	n[3] = runs_row("up_overlap", 120, 105, 125); /* 1.2, but 105 <= 110 */
	b[4] = runs_row("up_apart", 100, 90, 110);
	n[4] = runs_row("up_apart", 130, 115, 140);
	b[5] = runs_row("halved", 100, 90, 110);
	n[5] = runs_row("halved", 50, 45, 55);
	bi = input("b", b, 13);
	ni = input("n", n, 13);
	pb_compare_opts_init(&o);
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(!err && res.allowance_pct == 10, "compare: allowance %g %s", res.allowance_pct,
	      res.err);
	if (err)
		return;
	l = line(&res, "overlap", "");
	CHECK(l->verdict == PB_CMP_OK && l->within_runs && NEAR(l->runs_hi, 92.0 / 90) &&
		      NEAR(l->runs_lo, 80.0 / 110),
	      "overlapping runs: verdict %d within %d hi %g lo %g", l->verdict, l->within_runs,
	      l->runs_hi, l->runs_lo);
	pb_compare_verdict_text(l, text, sizeof(text));
	CHECK(!strcmp(text, "ok (slower, within the runs)"), "text: %s", text);
	l = line(&res, "apart", "");
	CHECK(l->verdict == PB_CMP_REGRESSED && !l->within_runs, "runs apart: verdict %d",
	      l->verdict);
	l = line(&res, "one_side", "");
	CHECK(l->verdict == PB_CMP_REGRESSED && isnan(l->runs_hi),
	      "spread on one side only: verdict %d hi %g", l->verdict, l->runs_hi);
	l = line(&res, "up_overlap", "");
	CHECK(l->verdict == PB_CMP_OK && l->within_runs, "rise within the runs: verdict %d",
	      l->verdict);
	l = line(&res, "up_apart", "");
	CHECK(l->verdict == PB_CMP_IMPROVED && !l->within_runs, "rise apart: verdict %d",
	      l->verdict);
	l = line(&res, "halved", "");
	CHECK(l->verdict == PB_CMP_REGRESSED, "halved: verdict %d", l->verdict);
	CHECK(res.regressed == 3 && res.within_runs == 2 && res.improved == 1 && res.compared == 13,
	      "counts: %u regressed %u within %u improved %u compared", res.regressed,
	      res.within_runs, res.improved, res.compared);
	pb_compare_summary(&res, summary, sizeof(summary));
	CHECK(strstr(summary, "2 beyond the allowance but within their runs") != NULL,
	      "summary: %s", summary);
	pb_compare_result_free(&res);

	/* --fixed-tolerance: the tolerance alone, the runs not weighed */
	o.fixed_tolerance = true;
	err = pb_compare(&bi, &ni, &o, &res);
	CHECK(!err && res.regressed == 4 && res.within_runs == 0 && res.improved == 2,
	      "--fixed-tolerance: %u regressed %u within %u improved", res.regressed,
	      res.within_runs, res.improved);
	pb_compare_result_free(&res);
	o.fixed_tolerance = false;

	/* normalized: each run scaled by its own file's reference, as the median is */
	b[0] = runs_row("ref", 200, 200, 200);
	n[0] = runs_row("ref", 400, 400, 400); /* NEW's machine twice as fast */
	b[1] = runs_row("m", 100, 90, 110);
	n[1] = runs_row("m", 170, 160, 184); /* 0.85 normalized; 184/400 >= 90/200 */
	bi.n = ni.n = 2;
	snprintf(o.normalize, sizeof(o.normalize), "ref");
	err = pb_compare(&bi, &ni, &o, &res);
	l = err ? NULL : line(&res, "m", "");
	CHECK(l && NEAR(l->ratio, 0.85) && l->within_runs && NEAR(l->runs_hi, (184.0 / 400) / 0.45),
	      "normalized spread: ratio %g hi %g (%s)", l ? l->ratio : NAN, l ? l->runs_hi : NAN,
	      res.err);
	pb_compare_result_free(&res);
	n[1] = runs_row("m", 170, 160, 178); /* 178/400 < 90/200 */
	err = pb_compare(&bi, &ni, &o, &res);
	l = err ? NULL : line(&res, "m", "");
	CHECK(l && l->verdict == PB_CMP_REGRESSED, "normalized, apart: verdict %d",
	      l ? (int)l->verdict : -1);
	pb_compare_result_free(&res);
}

static void check_one_error_line(const char *what, const char *want);
static void check_stdout_has(const char *what, const char *want);

static void test_real_sets(void)
{
	char a[768], b[768];
	int st;

	snprintf(a, sizeof(a), "%s", data("bench_a.json"));
	snprintf(b, sizeof(b), "%s", data("bench_b.json"));
	st = run(a, b, NULL);
	CHECK(st == 0, "two back-to-back benchmark runs: exit %d", st);
	check_stdout_has("back-to-back", "noise");
	st = run(a, data("bench_a_drop20.json"), NULL);
	CHECK(st == 1, "gso_mmsg 20 %% lower: exit %d", st);
	check_stdout_has("drop20", "1 row regressed (1 on packets/s)");

	snprintf(a, sizeof(a), "%s", data("rfc2544_default.json"));
	st = run(a, a, NULL);
	CHECK(st == 0, "rfc2544 result with itself: exit %d", st);
	if (st)
		check_one_error_line("rfc2544 with itself", NULL);
	st = run(a, data("rfc2544_default_p99x3.json"), NULL);
	CHECK(st == 1, "rfc2544 latency p99 x3: exit %d", st);
	check_stdout_has("p99x3", "p99 latency");
}

/* A result set the real writer wrote reads back with the same rows. */
static void test_writer_roundtrip(void)
{
	struct pb_result r[3];
	struct pb_report rep = {
		.version = "0.1.0-test",
		.command = "pktbench --method benchmark",
		.kernel = "6.1.0",
		.iface = "veth0",
		.driver = "veth",
		.lab = true,
		.results = r,
		.n = 3,
		.sort_by_pps = true,
	};
	struct pb_compare_input in, again;
	struct pb_compare_opts o = { .tolerance_pct = 0, .normalize = "udp_sendto" };
	struct pb_compare_result res;
	char err[512];
	unsigned int i;
	int ret;

	memset(r, 0, sizeof(r));
	snprintf(r[0].method, sizeof(r[0].method), "af_packet");
	snprintf(r[0].mode, sizeof(r[0].mode), "tpacket_v3");
	r[0].status = PB_STATUS_OK;
	r[0].duration_s = 3.0;
	r[0].frame_bytes = 60;
	r[0].frames_sent = 1000001; /* 333333.666...: not a round number */
	r[0].has_receiver = true;
	r[0].frames_delivered = 1000001;
	snprintf(r[1].method, sizeof(r[1].method), "pcap");
	r[1].status = PB_STATUS_SKIPPED;
	snprintf(r[1].reason, sizeof(r[1].reason), "libpcap not found, \"pcap\" disabled");
	snprintf(r[2].method, sizeof(r[2].method), "udp_sendto");
	snprintf(r[2].mode, sizeof(r[2].mode), "socket");
	r[2].status = PB_STATUS_OK;
	r[2].duration_s = 2.0;
	r[2].frame_bytes = 60;
	r[2].frames_sent = 777777;
	for (i = 0; i < 3; i++)
		pb_result_compute(&r[i]);

	ret = pb_report_write(&rep, PB_FORMAT_JSON, tmp("written.json"));
	CHECK(ret == 0, "pb_report_write: %s", strerror(-ret));
	ret = pb_compare_load(tmp("written.json"), &in, err, sizeof(err));
	CHECK(ret == 0, "load the writer's file: %s", err);
	if (ret)
		return;
	CHECK(in.n == 3, "written.json: %u rows", in.n);
	CHECK(!strcmp(in.version, "0.1.0-test") && !strcmp(in.kernel, "6.1.0"), "metadata");
	for (i = 0; i < in.n && i < 3; i++) {
		CHECK(!strcmp(in.rows[i].method, r[i].method), "row %u method %s", i,
		      in.rows[i].method);
		CHECK(in.rows[i].status == r[i].status, "row %u status", i);
		CHECK(!strcmp(in.rows[i].reason, r[i].reason), "row %u reason '%s'", i,
		      in.rows[i].reason);
		CHECK(!in.rows[i].point[0], "row %u point '%s'", i, in.rows[i].point);
		if (r[i].status == PB_STATUS_OK)
			CHECK(in.rows[i].pps == r[i].pps, "row %u pps %.17g, want %.17g", i,
			      in.rows[i].pps, r[i].pps);
	}

	/* The file against itself: every ratio exactly 1, even at tolerance 0. */
	ret = pb_compare_load(tmp("written.json"), &again, err, sizeof(err));
	CHECK(ret == 0, "load again: %s", err);
	if (!ret) {
		ret = pb_compare(&in, &again, &o, &res);
		CHECK(ret == 0 && !pb_compare_failed(&res) && res.compared == 2 &&
			      res.informational == 1,
		      "self compare: %d %s", ret, res.err);
		for (i = 0; !ret && i < res.n; i++)
			CHECK(isnan(res.lines[i].ratio) || res.lines[i].ratio == 1, "self ratio %g",
			      res.lines[i].ratio);
		pb_compare_result_free(&res);
		pb_compare_input_free(&again);
	}
	pb_compare_input_free(&in);
}

/* ---- the command */

/* Runs `pktbench compare ARGS...` with stdout and stderr in files; returns the exit status. */
static int run(const char *arg, ...)
{
	char *argv[16];
	int argc = 0, status, out, errfd, save_out, save_err;
	va_list ap;

	argv[argc++] = "compare";
	va_start(ap, arg);
	for (; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = (char *)arg;
	va_end(ap);
	argv[argc] = NULL;

	fflush(stdout);
	fflush(stderr);
	out = open(tmp("stdout"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	errfd = open(tmp("stderr"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	save_out = dup(1);
	save_err = dup(2);
	if (out < 0 || errfd < 0 || save_out < 0 || save_err < 0) {
		CHECK(0, "run: cannot redirect: %s", strerror(errno));
		return -1;
	}
	dup2(out, 1);
	dup2(errfd, 2);
	status = pb_compare_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(save_out, 1);
	dup2(save_err, 2);
	close(save_out);
	close(save_err);
	close(out);
	close(errfd);
	return status;
}

/* The captured stderr is exactly one "pktbench compare: ..." line (holding want, if given). */
static void check_one_error_line(const char *what, const char *want)
{
	char *e = read_all(tmp("stderr"));
	char *nl = e ? strchr(e, '\n') : NULL;

	CHECK(e && !strncmp(e, "pktbench compare: ", 18) && nl && !nl[1] &&
		      (!want || strstr(e, want)),
	      "%s: stderr is not one error line%s%s: %s", what, want ? " with " : "",
	      want ? want : "", e ? e : "(none)");
	free(e);
}

static void check_stdout_has(const char *what, const char *want)
{
	char *o = read_all(tmp("stdout"));

	CHECK(o && strstr(o, want), "%s: stdout lacks \"%s\":\n%s", what, want, o ? o : "");
	free(o);
}

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL, "cannot write %s", path);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* How many times want occurs in the captured stdout. */
static unsigned int stdout_count(const char *want)
{
	char *o = read_all(tmp("stdout")), *p;
	unsigned int n = 0;

	for (p = o; p && (p = strstr(p, want)); p++)
		n++;
	free(o);
	return n;
}

/*
 * What the runs depended on (the sets' environment objects): one warning line a field that
 * differs, a list field by what it lacks and adds, none for the same text (or the same list
 * in another order); the verdict is the rates', not the warnings'.
 */
static void test_environment_warnings(void)
{
	static const char head[] = "{\"schema\":1,\"kernel\":\"6.18.1\",";
	static const char rows[] =
		"\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":100}]}";
	char a[1024], b[1024], path_a[512], path_b[512], path_c[512];
	struct json_object *root, *d, *e;
	char *out;
	int st;

	snprintf(
		a, sizeof(a),
		"%s\"environment\":{\"kernel_release\":\"6.18.1\",\"cpu_governor\":\"performance\","
		"\"iface.irq_affinity\":\"irq 40 cpus 0\",\"iface.offloads\":\"rx-gro, "
		"tx-udp-segmentation, highdma\",\"iface.ring\":\"unknown (ETHTOOL_GRINGPARAM: "
		"Operation not supported)\",\"sender_placement\":\"cpus 1\"},%s",
		head, rows);
	snprintf(b, sizeof(b),
		 "%s\"environment\":{\"kernel_release\":\"6.18.1\",\"cpu_governor\":\"powersave\","
		 "\"iface.irq_affinity\":\"irq 40 cpus 1\",\"iface.offloads\":\"highdma, rx-gro, "
		 "rx-gro-list\",\"iface.ring\":\"unknown (ETHTOOL_GRINGPARAM: Operation not "
		 "supported)\",\"sender_placement\":\"cpus 1\",\"mitigation.retbleed\":"
		 "\"Vulnerable\"},%s",
		 head, rows);
	snprintf(path_a, sizeof(path_a), "%s", tmp("env_a.json"));
	snprintf(path_b, sizeof(path_b), "%s", tmp("env_b.json"));
	snprintf(path_c, sizeof(path_c), "%s", tmp("env_none.json"));
	write_file(path_a, a);
	write_file(path_b, b);
	snprintf(a, sizeof(a), "%s%s", head, rows);
	write_file(path_c, a);

	st = run(path_a, path_b, NULL);
	CHECK(st == 0, "environment differs, rates do not: exit %d", st);
	check_stdout_has("env", "warning: environment differs in cpu_governor: BASE performance, "
				"NEW powersave");
	check_stdout_has("env", "warning: environment differs in iface.irq_affinity: BASE irq 40 "
				"cpus 0, NEW irq 40 cpus 1");
	check_stdout_has("env", "warning: environment differs in iface.offloads: NEW lacks "
				"tx-udp-segmentation; NEW adds rx-gro-list");
	check_stdout_has("env", "warning: environment differs in mitigation.retbleed: BASE (not "
				"recorded), NEW Vulnerable");
	CHECK(stdout_count("environment differs") == 4, "%u warnings, want 4",
	      stdout_count("environment differs"));

	/* the same file twice: no warning */
	st = run(path_a, path_a, NULL);
	CHECK(st == 0 && stdout_count("environment differs") == 0, "same file: exit %d, %u", st,
	      stdout_count("environment differs"));

	/* a set without the object: said once, not a field at a time */
	st = run(path_c, path_a, NULL);
	CHECK(st == 0, "no environment in BASE: exit %d", st);
	check_stdout_has("env none", "warning: BASE has no environment record");
	CHECK(stdout_count("warning:") == 1, "%u warning lines, want 1", stdout_count("warning:"));
	st = run(path_c, path_c, NULL);
	CHECK(st == 0 && stdout_count("warning:") == 0, "neither has one: %u warnings",
	      stdout_count("warning:"));

	/* JSON: the fields that differ, each with both texts (null: not recorded) */
	st = run(path_a, path_b, "--format", "json", NULL);
	out = read_all(tmp("stdout"));
	root = out ? json_tokener_parse(out) : NULL;
	free(out);
	CHECK(st == 0 && root, "json: exit %d", st);
	d = root ? jget(root, "environment_differs") : NULL;
	CHECK(json_object_is_type(d, json_type_array) && json_object_array_length(d) == 4,
	      "environment_differs: %s", json_object_get_string(d));
	e = d ? json_object_array_get_idx(d, 0) : NULL;
	CHECK(e && !strcmp(json_object_get_string(jget(e, "field")), "cpu_governor") &&
		      !strcmp(json_object_get_string(jget(e, "base")), "performance") &&
		      !strcmp(json_object_get_string(jget(e, "new")), "powersave"),
	      "first difference: %s", json_object_get_string(e));
	e = d ? json_object_array_get_idx(d, 3) : NULL;
	CHECK(e && !strcmp(json_object_get_string(jget(e, "field")), "mitigation.retbleed") &&
		      json_object_is_type(jget(e, "base"), json_type_null),
	      "a field only NEW has: %s", json_object_get_string(e));
	json_object_put(root);

	/*
	 * where each row's senders ran: a row that ran on other CPUs in NEW is a warning line;
	 * the same CPUs, or a side that did not look (null), is none
	 */
	write_file(path_a, "{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\","
			   "\"pps\":100,\"sender_cpus\":[1]},{\"method\":\"b\",\"status\":\"ok\","
			   "\"pps\":100,\"sender_cpus\":[0,1]},{\"method\":\"c\",\"status\":\"ok\","
			   "\"pps\":100,\"sender_cpus\":[null]}]}");
	write_file(path_b, "{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\","
			   "\"pps\":100,\"sender_cpus\":[0]},{\"method\":\"b\",\"status\":\"ok\","
			   "\"pps\":100,\"sender_cpus\":[0,1]},{\"method\":\"c\",\"status\":\"ok\","
			   "\"pps\":100,\"sender_cpus\":[1]}]}");
	st = run(path_a, path_b, NULL);
	CHECK(st == 0, "sender CPUs differ: exit %d", st);
	check_stdout_has("cpus", "warning: a's senders ran on cpus 1 in BASE, 0 in NEW");
	CHECK(stdout_count("senders ran on") == 1, "%u sender lines, want 1 (a's)",
	      stdout_count("senders ran on"));
	st = run(path_a, path_b, "--format", "json", NULL);
	out = read_all(tmp("stdout"));
	CHECK(st == 0 && out && strstr(out, "\"base_sender_cpus\":\"1\"") &&
		      strstr(out, "\"new_sender_cpus\":\"0\""),
	      "json: the rows' sender CPUs: %s", out ? out : "");
	free(out);
}

static void test_main_exit_codes(void)
{
	char base[768];
	unsigned int i;
	int st;

	/* a copy: data()'s buffers are reused */
	snprintf(base, sizeof(base), "%s", data("base.json"));

	/* 0: no regression */
	st = run(base, data("new_pass.json"), NULL);
	CHECK(st == 0, "new_pass raw: exit %d", st);
	st = run(base, data("new_pass.json"), "--normalize", "udp_sendto", NULL);
	CHECK(st == 0, "new_pass normalized (0.9 at the edge): exit %d", st);
	check_stdout_has("new_pass", "no regression (");
	check_stdout_has("new_pass", "missing in BASE"); /* io_uring is listed */
	check_stdout_has("new_pass", "skipped in BASE: libpcap not found at build time");

	/* 1: a regression only normalization shows */
	st = run(base, data("new_regress.json"), "--normalize", "udp_sendto", NULL);
	CHECK(st == 1, "new_regress normalized: exit %d", st);
	check_stdout_has("new_regress", "1 row regressed (1 on packets/s)");
	check_stdout_has("new_regress", "0.8999");
	st = run(base, data("new_regress.json"), NULL);
	CHECK(st == 0, "new_regress raw (machine twice as fast): exit %d", st);
	/* options anywhere, with a '%' if the user likes */
	st = run("-t", "20%", base, "-n", "udp_sendto", data("new_regress.json"), NULL);
	CHECK(st == 0, "new_regress at 20 %%: exit %d", st);
	st = run(base, data("new_regress.json"), "--tolerance=10", "--normalize=udp_sendto", NULL);
	CHECK(st == 1, "new_regress with --opt=value: exit %d", st);

	/* the slow machine: raw fails, normalized passes */
	st = run(base, data("new_slow.json"), NULL);
	CHECK(st == 1, "new_slow raw: exit %d", st);
	check_stdout_has("new_slow raw", "5 rows regressed (5 on packets/s)");
	st = run(base, data("new_slow.json"), "--normalize", "udp_sendto", NULL);
	CHECK(st == 0, "new_slow normalized: exit %d", st);

	/* missing and failed rows */
	st = run(base, data("new_missing.json"), "--normalize", "udp_sendto", NULL);
	CHECK(st == 1, "new_missing: exit %d", st);
	check_stdout_has("new_missing", "missing in NEW");
	check_stdout_has("new_missing", "error in NEW: sendto: Operation not permitted");
	check_stdout_has("new_missing", "2 rows missing or not ok in NEW");

	/* 2: the normalize method cannot be used */
	st = run(base, data("new_noref.json"), "--normalize", "udp_sendto", NULL);
	CHECK(st == 2, "new_noref: exit %d", st);
	check_one_error_line("new_noref", "no IPv4 route");
	st = run(base, data("new_pass.json"), "--normalize", "nosuch", NULL);
	CHECK(st == 2, "unknown normalize method: exit %d", st);
	check_one_error_line("normalize nosuch", "nosuch");

	/* 2: unreadable input */
	st = run(base, data("no_such_file.json"), NULL);
	CHECK(st == 2, "missing file: exit %d", st);
	check_one_error_line("missing file", "No such file or directory");
	st = run(data("not_json.json"), base, NULL);
	CHECK(st == 2, "not JSON: exit %d", st);
	check_one_error_line("not JSON", "not JSON");
	st = run(base, data("no_results.json"), NULL);
	CHECK(st == 2, "no results: exit %d", st);
	check_one_error_line("no results", "no results array");
	st = run(base, data("bad_row.json"), NULL);
	CHECK(st == 2, "bad row: exit %d", st);
	check_one_error_line("bad row", "pps");

	/* 2: bad arguments */
	st = run(base, NULL);
	CHECK(st == 2, "one file: exit %d", st);
	check_one_error_line("one file", "BASE.json and NEW.json");
	st = run(base, base, base, NULL);
	CHECK(st == 2, "three files: exit %d", st);
	st = run(base, base, "--tolerance", "abc", NULL);
	CHECK(st == 2, "tolerance abc: exit %d", st);
	check_one_error_line("tolerance abc",
			     "--tolerance: 'abc' is not a percentage from 0 to 100");
	st = run(base, base, "--tolerance", "101", NULL);
	CHECK(st == 2, "tolerance 101: exit %d", st);
	st = run(base, base, "--tolerance", "-5", NULL);
	CHECK(st == 2, "tolerance -5: exit %d", st);
	st = run(base, base, "--tolerance", NULL);
	CHECK(st == 2, "tolerance without a value: exit %d", st);
	check_one_error_line("tolerance without a value", "missing value for '--tolerance'");
	st = run(base, base, "--format", "xml", NULL);
	CHECK(st == 2, "format xml: exit %d", st);
	st = run(base, base, "--bogus", NULL);
	CHECK(st == 2, "unknown option: exit %d", st);
	check_one_error_line("unknown option", "--bogus");
	st = run(base, base, "--normalize", "", NULL);
	CHECK(st == 2, "empty normalize: exit %d", st);

	/* delivery and partial runs, from files */
	snprintf(base, sizeof(base), "%s", data("base_rx.json"));
	st = run(base, data("new_rx_loss.json"), NULL);
	CHECK(st == 1, "new_rx_loss: exit %d", st);
	check_stdout_has("new_rx_loss", "regressed: delivered % -2.00 pp");
	check_stdout_has("new_rx_loss", "regressed: accounted % -0.15 pp, accounted 99.85 % out of "
					"range");
	check_stdout_has("new_rx_loss", " 99.50 -> 98.50 | ");
	check_stdout_has("new_rx_loss",
			 "2 rows regressed (1 on delivered %, 1 on accounted %, 1 on "
			 "accounted % range)");
	check_stdout_has("new_rx_loss",
			 "delivered % fell more than 1 pp, accounted % more than 0.1 "
			 "pp or outside 99.9 .. 100 %");
	st = run(base, data("new_rx_loss.json"), "--delivered-tolerance", "2",
		 "--accounted-tolerance", "0.15", "--accounted-min", "99.8", NULL);
	CHECK(st == 0, "new_rx_loss at the edges the flags set: exit %d", st);
	st = run(base, data("new_interrupted.json"), NULL);
	CHECK(st == 1, "new_interrupted: exit %d", st);
	check_stdout_has("new_interrupted", "not comparable: interrupted in NEW");
	check_stdout_has("new_interrupted",
			 "1 row interrupted or timed out, not compared (3 compared)");
	st = run(base, data("new_interrupted.json"), "--allow-interrupted", NULL);
	CHECK(st == 0, "new_interrupted --allow-interrupted: exit %d", st);
	check_stdout_has("new_interrupted allowed", "ok; interrupted in NEW, compared anyway");
	st = run(base, data("new_rx_loss.json"), "--delivered-tolerance", "101", NULL);
	CHECK(st == 2, "delivered tolerance 101: exit %d", st);
	snprintf(base, sizeof(base), "%s", data("base.json"));

	st = run("--help", NULL);
	CHECK(st == 0, "--help: exit %d", st);
	check_stdout_has("--help", "usage: pktbench compare BASE.json NEW.json");
	/* every row of the table is in --help: nothing listed by hand */
	for (i = 0; i < pb_cmd_compare.nopts; i++) {
		char flag[64];

		snprintf(flag, sizeof(flag), "--%s", pb_cmd_compare.opts[i].name);
		check_stdout_has("--help", flag);
	}
	st = run(base, base, NULL);
	CHECK(st == 0, "a file against itself: exit %d", st);
}

static void test_main_json(void)
{
	struct json_object *root, *rows, *r, *sm = NULL;
	const char *m;
	size_t i;
	char *out;
	int st;

	st = run(data("base.json"), data("new_regress.json"), "--normalize", "udp_sendto",
		 "--format", "json", NULL);
	CHECK(st == 1, "json new_regress: exit %d", st);
	out = read_all(tmp("stdout"));
	root = out ? json_tokener_parse(out) : NULL;
	CHECK(root != NULL, "--format json does not parse:\n%s", out ? out : "");
	free(out);
	if (!root)
		return;
	CHECK(json_object_get_int(jget(root, "regressed")) == 1, "json regressed");
	CHECK(json_object_get_boolean(jget(root, "failed")), "json failed");
	CHECK(json_object_get_double(jget(root, "tolerance_pct")) == 10, "json tolerance");
	CHECK(!strcmp(json_object_get_string(jget(root, "normalize")), "udp_sendto"),
	      "json normalize");
	CHECK(!strncmp(json_object_get_string(jget(root, "summary")),
		       "1 row regressed (1 on packets/s)", 32),
	      "json summary: %s", json_object_get_string(jget(root, "summary")));
	CHECK(!strcmp(json_object_get_string(jget(jget(root, "base"), "file")), data("base.json")),
	      "json base file");
	rows = jget(root, "rows");
	CHECK(json_object_array_length(rows) == 6, "json rows: %zu",
	      json_object_array_length(rows));
	for (i = 0; i < json_object_array_length(rows); i++) {
		r = json_object_array_get_idx(rows, i);
		m = json_object_get_string(jget(r, "method"));
		if (m && !strcmp(m, "sendmmsg"))
			sm = r;
		if (m && !strcmp(m, "pcap"))
			CHECK(json_object_is_type(jget(r, "ratio"), json_type_null) &&
				      !strcmp(json_object_get_string(jget(r, "verdict")),
					      "not_ok_in_base") &&
				      !json_object_get_boolean(jget(r, "fails")),
			      "json pcap row");
	}
	CHECK(sm != NULL, "json: no sendmmsg row");
	if (sm) {
		CHECK(!strcmp(json_object_get_string(jget(sm, "verdict")), "regressed") &&
			      json_object_get_boolean(jget(sm, "fails")),
		      "json sendmmsg verdict");
		CHECK(NEAR(json_object_get_double(jget(sm, "ratio")), 0.8999), "json ratio %.17g",
		      json_object_get_double(jget(sm, "ratio")));
		CHECK(json_object_get_double(jget(sm, "base_normalized")) == 2.0 &&
			      NEAR(json_object_get_double(jget(sm, "new_normalized")), 1.7998),
		      "json normalized figures");
		CHECK(json_object_get_double(jget(sm, "base_pps")) == 2e6 &&
			      json_object_get_double(jget(sm, "new_pps")) == 3599600,
		      "json pps");
		CHECK(json_object_is_type(jget(sm, "point"), json_type_null), "json point null");
	}
	json_object_put(root);

	st = run(data("base_rx.json"), data("new_rx_loss.json"), "--format", "json", NULL);
	CHECK(st == 1, "json new_rx_loss: exit %d", st);
	out = read_all(tmp("stdout"));
	root = out ? json_tokener_parse(out) : NULL;
	free(out);
	CHECK(root != NULL, "json new_rx_loss does not parse");
	if (!root)
		return;
	CHECK(json_object_get_double(jget(root, "delivered_tolerance_pp")) == 1 &&
		      json_object_get_double(jget(root, "accounted_min_pct")) == 99.9 &&
		      json_object_get_int(jget(root, "interrupted")) == 0,
	      "json gates");
	rows = jget(root, "rows");
	for (i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *why;

		r = json_object_array_get_idx(rows, i);
		m = json_object_get_string(jget(r, "method"));
		why = jget(r, "regressed_on");
		if (m && !strcmp(m, "sendmmsg"))
			CHECK(json_object_array_length(why) == 1 &&
				      !strcmp(json_object_get_string(
						      json_object_array_get_idx(why, 0)),
					      "delivered_pct") &&
				      json_object_get_double(jget(r, "new_delivered_pct")) == 98,
			      "json sendmmsg regressed_on");
		if (m && !strcmp(m, "udp_sendto"))
			CHECK(json_object_is_type(why, json_type_array) &&
				      !json_object_array_length(why) &&
				      !json_object_get_boolean(jget(r, "new_interrupted")),
			      "json udp_sendto: no reasons");
	}
	json_object_put(root);
}

/* With timed probes on both sides the p99 latency gates too; without, it cannot. */
static void test_latency_gate(void)
{
	struct pb_compare_row b = ok_row("m", "", 1e6), n = ok_row("m", "", 1e6);
	struct pb_compare_input in;
	struct pb_compare_opts o;
	struct pb_compare_line l;
	unsigned int fails;
	char err[512], text[256];
	int ret;

	pb_compare_opts_init(&o);
	CHECK(o.latency_tol_pct == 100, "--latency-tolerance defaults to 100 %%: %g",
	      o.latency_tol_pct);
	b.p99_us = 100;
	n.p99_us = 200;
	l = pair(b, n, NULL, &fails);
	CHECK(l.verdict == PB_CMP_OK && !fails, "p99 doubled: at the edge, passes (%d)", l.verdict);
	n.p99_us = 200.5;
	l = pair(b, n, NULL, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_LATENCY && fails,
	      "p99 beyond double: regressed on latency (%d, why %#x)", l.verdict, l.why);
	l.base = &b;
	l.new_ = &n;
	pb_compare_verdict_text(&l, text, sizeof(text));
	CHECK(strstr(text, "p99 latency 100.0 -> 200.5 us") != NULL, "the reason says so: %s",
	      text);
	o.latency_tol_pct = 10;
	n.p99_us = 110;
	l = pair(b, n, &o, &fails);
	CHECK(l.verdict == PB_CMP_OK, "10 %%: 110 us passes (%d)", l.verdict);
	n.p99_us = 111;
	l = pair(b, n, &o, &fails);
	CHECK(l.verdict == PB_CMP_REGRESSED && l.why == PB_CMP_WHY_LATENCY, "10 %%: 111 us fails");
	n.p99_us = 50;
	l = pair(b, n, &o, &fails);
	CHECK(l.verdict == PB_CMP_OK, "lower latency is fine");
	b.p99_us = NAN;
	n.p99_us = 1e9;
	l = pair(b, n, &o, &fails);
	CHECK(l.verdict == PB_CMP_OK, "BASE without timed probes: no latency gate (%d)", l.verdict);
	o.latency_tol_pct = -1;
	{
		struct pb_compare_input bi = input("B", &b, 1), ni = input("N", &n, 1);
		struct pb_compare_result res;

		CHECK(pb_compare(&bi, &ni, &o, &res) == -EINVAL && strstr(res.err, "--latency"),
		      "a negative tolerance is refused: %s", res.err);
		pb_compare_result_free(&res);
	}
	/* read from a result set: latency.p99_us, null and absent alike none */
	ret = parse(
		"{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		"\"latency\":{\"p99_us\":12.5}},{\"method\":\"b\",\"status\":\"ok\",\"pps\":1,"
		"\"latency\":{\"p99_us\":null}},{\"method\":\"c\",\"status\":\"ok\",\"pps\":1}]}",
		&in, err, sizeof(err));
	CHECK(ret == 0 && in.n == 3 && in.rows[0].p99_us == 12.5 && isnan(in.rows[1].p99_us) &&
		      isnan(in.rows[2].p99_us),
	      "latency.p99_us read: %d %s", ret, err);
	if (!ret)
		pb_compare_input_free(&in);
}

/*
 * CPU classes: what makes system calls dearer moves the rows that make one per frame apart
 * from the batched ones. 12 batched rows as BASE, 5 per-call rows (1 syscall a frame) all at
 * 1.45 x: none regresses at 35 % (against all rows' median, 1.0, all five would). One
 * per-call row at 2 x its class (2.9) regresses, and so does one batched row at 1.5 x. With
 * only 3 per-call rows their class has no centre of its own: all rows' serves, and they
 * regress.
 */
static void test_cost_classes(void)
{
	struct pb_compare_row b[17], n[17];
	struct pb_compare_input bi, ni;
	struct pb_compare_opts o;
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char name[16];
	unsigned int i;
	int ret;

	for (i = 0; i < 17; i++) {
		bool call = i >= 12;

		snprintf(name, sizeof(name), "m%u", i);
		b[i] = ok_row(name, "", 1000);
		n[i] = ok_row(name, "", 1000);
		b[i].cpu_ns_per_pkt = 500 + 10 * i;
		n[i].cpu_ns_per_pkt = b[i].cpu_ns_per_pkt * (call ? 1.45 : 1.0);
		b[i].syscalls_per_frame = n[i].syscalls_per_frame = call ? 1.0 : 1.0 / 64;
	}
	bi = input("b", b, 17);
	ni = input("n", n, 17);
	pb_compare_opts_init(&o);
	o.cpu_tol_pct = 35;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0 && NEAR(res.cpu_class_centre[1], 1.45) &&
		      NEAR(res.cpu_class_centre[0], 1.0) && NEAR(res.cpu_centre, 1.0),
	      "per-call rows all 1.45 x: none regressed (%u); centres all %g, batched %g, "
	      "per call %g",
	      res.regressed, res.cpu_centre, res.cpu_class_centre[0], res.cpu_class_centre[1]);
	pb_compare_result_free(&res);

	n[14].cpu_ns_per_pkt = b[14].cpu_ns_per_pkt * 2.9;
	n[5].cpu_ns_per_pkt = b[5].cpu_ns_per_pkt * 1.5;
	ret = pb_compare(&bi, &ni, &o, &res);
	l = ret ? NULL : line(&res, "m14", "");
	CHECK(l && l->verdict == PB_CMP_REGRESSED && NEAR(l->cpu_ratio, 2.0) && res.regressed == 2,
	      "a per-call row at 2 x its class regresses (ratio %g), and a batched one at 1.5 x "
	      "(%u in all)",
	      l ? l->cpu_ratio : NAN, res.regressed);
	pb_compare_result_free(&res);

	n[14].cpu_ns_per_pkt = b[14].cpu_ns_per_pkt * 1.45;
	n[5].cpu_ns_per_pkt = b[5].cpu_ns_per_pkt;
	bi.n = ni.n = 15; /* 3 per-call rows */
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && isnan(res.cpu_class_centre[1]) && res.regressed == 3,
	      "3 per-call rows: no class centre (%g), judged by all rows': %u regressed",
	      res.cpu_class_centre[1], res.regressed);
	pb_compare_result_free(&res);
}

/*
 * CPU per frame, centred by the rows' median: a busy machine that makes every row cost 40 %
 * more is no regression, one row at 1.5 x that is; exactly at the edge passes; fewer than 5
 * rows with CPU/frame are not judged. Syscalls per frame are counted: twice BASE's fails at
 * 10 %, one call per 1000 frames more is not judged. Both are off by default. What the
 * loader reads for them.
 */
static void test_cost_gates(void)
{
	struct pb_compare_row b[10], n[10];
	struct pb_compare_input bi, ni, in;
	struct pb_compare_opts o;
	struct pb_compare_result res;
	const struct pb_compare_line *l;
	char name[16], err[512], text[256];
	unsigned int i;
	int ret;

	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "m%u", i);
		b[i] = ok_row(name, "", 1000);
		n[i] = ok_row(name, "", 1000);
		b[i].cpu_ns_per_pkt = 100 + 10 * i;
		n[i].cpu_ns_per_pkt = 1.4 * b[i].cpu_ns_per_pkt * (i == 3 ? 1.5 : 1);
		b[i].syscalls_per_frame = n[i].syscalls_per_frame = 1.0 / 64;
	}
	bi = input("b", b, 10);
	ni = input("n", n, 10);
	pb_compare_opts_init(&o);
	CHECK(o.cpu_tol_pct == 0 && o.syscalls_tol_pct == 0, "both off by default: %g %g",
	      o.cpu_tol_pct, o.syscalls_tol_pct);
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0 && isnan(res.cpu_centre), "off: nothing judged (%u)",
	      res.regressed);
	pb_compare_result_free(&res);

	o.cpu_tol_pct = 30;
	ret = pb_compare(&bi, &ni, &o, &res);
	l = ret ? NULL : line(&res, "m3", "");
	CHECK(!ret && NEAR(res.cpu_centre, 1.4), "the centre is the rows' common rise: %g",
	      res.cpu_centre);
	CHECK(l && res.regressed == 1 && l->verdict == PB_CMP_REGRESSED &&
		      l->why == PB_CMP_WHY_CPU && NEAR(l->cpu_ratio, 1.5) &&
		      res.regressed_on[__PB_CMP_WHY_CPU] == 1,
	      "the one row at 1.5 x regresses on CPU/frame alone: %u rows, ratio %g", res.regressed,
	      l ? l->cpu_ratio : NAN);
	if (l) {
		pb_compare_verdict_text(l, text, sizeof(text));
		CHECK(strstr(text, "CPU/frame 130 -> 273 ns, x1.50") != NULL, "the reason: %s",
		      text);
	}
	l = ret ? NULL : line(&res, "m0", "");
	CHECK(l && l->verdict == PB_CMP_OK && NEAR(l->cpu_ratio, 1.0),
	      "a row that rose with the rest is ok: %g", l ? l->cpu_ratio : NAN);
	pb_compare_result_free(&res);

	/* exactly at the edge passes; just beyond fails */
	n[3].cpu_ns_per_pkt = 1.4 * 1.3 * b[3].cpu_ns_per_pkt;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0, "x1.30 at 30 %%: passes (%u)", res.regressed);
	pb_compare_result_free(&res);
	n[3].cpu_ns_per_pkt = 1.4 * 1.31 * b[3].cpu_ns_per_pkt;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 1, "x1.31 at 30 %%: fails (%u)", res.regressed);
	pb_compare_result_free(&res);

	/* a row without CPU/frame (null in the file) is not judged by it */
	n[3].cpu_ns_per_pkt = NAN;
	ret = pb_compare(&bi, &ni, &o, &res);
	l = ret ? NULL : line(&res, "m3", "");
	CHECK(l && l->verdict == PB_CMP_OK && isnan(l->cpu_ratio) && res.regressed == 0,
	      "no CPU/frame in NEW: not judged (%u)", res.regressed);
	pb_compare_result_free(&res);

	/* 4 rows say nothing about a centre: not judged, however far one moved */
	n[3].cpu_ns_per_pkt = 10 * b[3].cpu_ns_per_pkt;
	bi.n = ni.n = 4;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0 && isnan(res.cpu_centre),
	      "4 rows: no centre, not judged (%u, %g)", res.regressed, res.cpu_centre);
	pb_compare_result_free(&res);
	bi.n = ni.n = 10;
	n[3].cpu_ns_per_pkt = 1.4 * b[3].cpu_ns_per_pkt;

	/* syscalls per frame: a batch of 64 that became 32 */
	o.cpu_tol_pct = 0;
	o.syscalls_tol_pct = 10;
	n[5].syscalls_per_frame = 2.0 / 64;
	ret = pb_compare(&bi, &ni, &o, &res);
	l = ret ? NULL : line(&res, "m5", "");
	CHECK(l && res.regressed == 1 && l->why == PB_CMP_WHY_SYSCALLS,
	      "twice the syscalls per frame regress: %u", res.regressed);
	if (l) {
		pb_compare_verdict_text(l, text, sizeof(text));
		CHECK(strstr(text, "syscalls/frame 0.01562 -> 0.03125") != NULL, "the reason: %s",
		      text);
	}
	pb_compare_result_free(&res);
	n[5].syscalls_per_frame = 1.1 / 64;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0, "10 %% more at 10 %%: passes (%u)", res.regressed);
	pb_compare_result_free(&res);
	b[5].syscalls_per_frame = 0;
	n[5].syscalls_per_frame = 0;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0, "0 in both: passes (%u)", res.regressed);
	pb_compare_result_free(&res);
	n[5].syscalls_per_frame = 0.001;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 0, "0 in BASE, a call per 1000 frames in NEW: passes (%u)",
	      res.regressed);
	pb_compare_result_free(&res);
	n[5].syscalls_per_frame = 0.0011;
	ret = pb_compare(&bi, &ni, &o, &res);
	CHECK(!ret && res.regressed == 1, "0 in BASE, more in NEW: fails (%u)", res.regressed);
	pb_compare_result_free(&res);

	/* read from a result set: numbers, null and absent, and a string refused */
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"cpu_ns_per_pkt\":250.5,\"syscalls_per_frame\":0.015625},{\"method\":\"b\","
		    "\"status\":\"ok\",\"pps\":1,\"cpu_ns_per_pkt\":null},{\"method\":\"c\","
		    "\"status\":\"ok\",\"pps\":1}]}",
		    &in, err, sizeof(err));
	CHECK(ret == 0 && in.n == 3 && in.rows[0].cpu_ns_per_pkt == 250.5 &&
		      in.rows[0].syscalls_per_frame == 0.015625 &&
		      isnan(in.rows[1].cpu_ns_per_pkt) && isnan(in.rows[2].cpu_ns_per_pkt) &&
		      isnan(in.rows[2].syscalls_per_frame),
	      "cpu_ns_per_pkt and syscalls_per_frame read: %d %s", ret, err);
	if (!ret)
		pb_compare_input_free(&in);
	ret = parse("{\"schema\":1,\"results\":[{\"method\":\"a\",\"status\":\"ok\",\"pps\":1,"
		    "\"syscalls_per_frame\":\"1\"}]}",
		    &in, err, sizeof(err));
	CHECK(ret == -EINVAL && strstr(err, "syscalls_per_frame"), "a string is refused: %d %s",
	      ret, err);
	if (!ret)
		pb_compare_input_free(&in);
	CHECK(!strcmp(pb_compare_why_name(__PB_CMP_WHY_CPU), "cpu_per_frame") &&
		      !strcmp(pb_compare_why_name(__PB_CMP_WHY_SYSCALLS), "syscalls_per_frame"),
	      "the JSON's names for the two reasons");
}

int main(void)
{
	int err;

	err = find_datadir();
	if (err) {
		fprintf(stderr, "test_compare: no data directory beside %s: %s\n", __FILE__,
			strerror(-err));
		return 1;
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pb-test-compare.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}

	test_raw_ratios();
	test_normalized_ratios();
	test_points_in_memory();
	test_tolerance_edge();
	test_missing_rows();
	test_errors();
	test_delivery_gates();
	test_latency_gate();
	test_delivery_counts();
	test_interrupted();
	test_load_files();
	test_parse_text();
	test_rfc2544_rows();
	test_writer_roundtrip();
	test_main_exit_codes();
	test_environment_warnings();
	test_main_json();
	test_noise_from_rows();
	test_runs_spread();
	test_cost_gates();
	test_cost_classes();
	test_real_sets();

	remove_tmpdir();
	return check_summary();
}
