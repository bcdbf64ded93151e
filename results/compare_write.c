// SPDX-License-Identifier: MIT
/*
 * pktbench compare, writing: a finished comparison as text (verdicts, the summary, the table)
 * or as JSON. Nothing is computed here beyond formatting.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "box.h"
#include "compare.h"
#include "fields.h"
#include "log.h"
#include "writers.h"

const char *pb_compare_verdict_name(enum pb_cmp_verdict v)
{
	switch (v) {
	case PB_CMP_OK:
		return "ok";
	case PB_CMP_IMPROVED:
		return "improved";
	case PB_CMP_REGRESSED:
		return "regressed";
	case PB_CMP_REFERENCE:
		return "reference";
	case PB_CMP_INTERRUPTED:
		return "interrupted";
	case PB_CMP_MISSING_NEW:
		return "missing_in_new";
	case PB_CMP_NOT_OK_NEW:
		return "not_ok_in_new";
	case PB_CMP_MISSING_BASE:
		return "missing_in_base";
	case PB_CMP_NOT_OK_BASE:
		return "not_ok_in_base";
	case PB_CMP_NO_BASE_RATE:
		return "no_base_rate";
	}
	return "unknown";
}

const char *pb_compare_why_name(unsigned int bit)
{
	static const char *const names[__PB_CMP_WHY_N] = {
		[__PB_CMP_WHY_PPS] = "pps",
		[__PB_CMP_WHY_DELIVERED] = "delivered_pct",
		[__PB_CMP_WHY_ACCOUNTED] = "accounted_pct",
		[__PB_CMP_WHY_ACCT_RANGE] = "accounted_range",
		[__PB_CMP_WHY_LATENCY] = "p99_latency",
		[__PB_CMP_WHY_CPU] = "cpu_per_frame",
		[__PB_CMP_WHY_SYSCALLS] = "syscalls_per_frame",
	};

	return bit < __PB_CMP_WHY_N ? names[bit] : "unknown";
}

/* Appends to buf (of len) what fmt says; stops quietly when full. */
__attribute__((format(printf, 3, 4))) static void pb_cmp_cat(char *buf, size_t len, const char *fmt,
							     ...)
{
	size_t k = strlen(buf);
	va_list ap;

	if (k + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + k, len - k, fmt, ap);
	va_end(ap);
}

/* Whether any compared line has timed probes on both sides: the latency gate applied. */
static bool pb_cmp_any_latency(const struct pb_compare_result *res)
{
	unsigned int i;

	for (i = 0; i < res->n; i++)
		if (res->lines[i].base && res->lines[i].new_ &&
		    isfinite(res->lines[i].base->p99_us) && isfinite(res->lines[i].new_->p99_us))
			return true;
	return false;
}

static bool pb_cmp_partial(const struct pb_compare_row *r)
{
	return r && (r->interrupted || r->timed_out);
}

/*
 * "interrupted in NEW", "timed out in BASE", "interrupted in both": which of a line's rows
 * are partial, and how; NULL when neither is.
 */
static const char *pb_cmp_interrupted_in(const struct pb_compare_line *l)
{
	static char buf[64];
	bool b = pb_cmp_partial(l->base), n = pb_cmp_partial(l->new_);
	const struct pb_compare_row *r = b ? l->base : l->new_;

	if (!b && !n)
		return NULL;
	snprintf(buf, sizeof(buf), "%s %s", r->interrupted ? "interrupted" : "timed out",
		 b && n ? "in both"
		 : b	? "in BASE"
			: "in NEW");
	return buf;
}

/* "packets/s, delivered % -3.00 pp": what made a row regress, with the figures. */
static void pb_cmp_why_text(const struct pb_compare_line *l, char *buf, size_t len)
{
	const struct pb_compare_row *b = l->base, *n = l->new_;
	const char *sep = "";

	if (l->why & PB_CMP_WHY_PPS) {
		pb_cmp_cat(buf, len, "%spackets/s", sep);
		sep = ", ";
	}
	if (l->why & PB_CMP_WHY_DELIVERED) {
		pb_cmp_cat(buf, len, "%sdelivered %% %+.2f pp", sep,
			   n->delivered_pct - b->delivered_pct);
		sep = ", ";
	}
	if (l->why & PB_CMP_WHY_ACCOUNTED) {
		pb_cmp_cat(buf, len, "%saccounted %% %+.2f pp", sep,
			   n->accounted_pct - b->accounted_pct);
		sep = ", ";
	}
	if (l->why & PB_CMP_WHY_ACCT_RANGE) {
		pb_cmp_cat(buf, len, "%saccounted %.2f %% out of range", sep, n->accounted_pct);
		sep = ", ";
	}
	if (l->why & PB_CMP_WHY_LATENCY) {
		pb_cmp_cat(buf, len, "%sp99 latency %.1f -> %.1f us", sep, b->p99_us, n->p99_us);
		sep = ", ";
	}
	if (l->why & PB_CMP_WHY_CPU) {
		pb_cmp_cat(buf, len, "%sCPU/frame %.0f -> %.0f ns, x%.2f of the rows'", sep,
			   b->cpu_ns_per_pkt, n->cpu_ns_per_pkt, l->cpu_ratio);
		sep = ", ";
	}
	if (l->why & PB_CMP_WHY_SYSCALLS)
		pb_cmp_cat(buf, len, "%ssyscalls/frame %.4g -> %.4g", sep, b->syscalls_per_frame,
			   n->syscalls_per_frame);
}

static const char *pb_cmp_reason(const struct pb_compare_row *r)
{
	return r->reason[0] ? r->reason : "no reason given";
}

void pb_compare_verdict_text(const struct pb_compare_line *l, char *buf, size_t len)
{
	const struct pb_compare_row *b = l->base, *n = l->new_;
	const char *partial = pb_cmp_interrupted_in(l);

	switch (l->verdict) {
	case PB_CMP_OK:
	case PB_CMP_IMPROVED:
	case PB_CMP_REFERENCE:
		snprintf(buf, len, "%s", pb_compare_verdict_name(l->verdict));
		if (l->within_runs)
			pb_cmp_cat(buf, len, " (%s, within the runs)",
				   l->ratio < 1 ? "slower" : "faster");
		if (partial)
			pb_cmp_cat(buf, len, "; %s, compared anyway", partial);
		return;
	case PB_CMP_REGRESSED:
		snprintf(buf, len, "regressed: ");
		pb_cmp_why_text(l, buf, len);
		if (partial)
			pb_cmp_cat(buf, len, "; %s, compared anyway", partial);
		return;
	case PB_CMP_INTERRUPTED:
		snprintf(buf, len, "not comparable: %s", partial);
		return;
	case PB_CMP_NO_BASE_RATE:
		snprintf(buf, len, "no rate in BASE, no ratio");
		return;
	case PB_CMP_MISSING_NEW:
		snprintf(buf, len, "missing in NEW");
		return;
	case PB_CMP_NOT_OK_NEW:
		snprintf(buf, len, "%s in NEW: %s", pb_status_name(n->status), pb_cmp_reason(n));
		return;
	case PB_CMP_MISSING_BASE:
		snprintf(buf, len, "missing in BASE");
		break;
	case PB_CMP_NOT_OK_BASE:
		snprintf(buf, len, "%s in BASE: %s", pb_status_name(b->status), pb_cmp_reason(b));
		if (!n)
			pb_cmp_cat(buf, len, "; missing in NEW");
		else if (n->status == PB_STATUS_OK)
			pb_cmp_cat(buf, len, "; ok in NEW");
		break;
	}
	/* NEW's own trouble, for the informational kinds. */
	if (n && n->status != PB_STATUS_OK)
		pb_cmp_cat(buf, len, "; %s in NEW: %s", pb_status_name(n->status),
			   pb_cmp_reason(n));
}

static const char *pb_cmp_plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}

void pb_compare_summary(const struct pb_compare_result *res, char *buf, size_t len)
{
	static const char *const on[__PB_CMP_WHY_N] = {
		[__PB_CMP_WHY_PPS] = "packets/s",
		[__PB_CMP_WHY_DELIVERED] = "delivered %",
		[__PB_CMP_WHY_ACCOUNTED] = "accounted %",
		[__PB_CMP_WHY_ACCT_RANGE] = "accounted % range",
		[__PB_CMP_WHY_LATENCY] = "p99 latency",
		[__PB_CMP_WHY_CPU] = "CPU/frame",
		[__PB_CMP_WHY_SYSCALLS] = "syscalls/frame",
	};
	const char *sep = "";
	unsigned int k;

	buf[0] = '\0';
	if (!pb_compare_failed(res))
		pb_cmp_cat(buf, len, "no regression");
	if (res->regressed) {
		pb_cmp_cat(buf, len, "%u row%s regressed (", res->regressed,
			   pb_cmp_plural(res->regressed));
		for (k = 0; k < __PB_CMP_WHY_N; k++) {
			if (!res->regressed_on[k])
				continue;
			pb_cmp_cat(buf, len, "%s%u on %s", sep, res->regressed_on[k], on[k]);
			sep = ", ";
		}
		pb_cmp_cat(buf, len, ")");
	}
	if (res->lost)
		pb_cmp_cat(buf, len, "%s%u row%s missing or not ok in NEW",
			   res->regressed ? ", " : "", res->lost, pb_cmp_plural(res->lost));
	if (res->interrupted)
		pb_cmp_cat(buf, len, "%s%u row%s interrupted or timed out, not compared",
			   res->regressed || res->lost ? ", " : "", res->interrupted,
			   pb_cmp_plural(res->interrupted));
	pb_cmp_cat(buf, len, " (%u compared", res->compared);
	if (res->improved)
		pb_cmp_cat(buf, len, ", %u improved", res->improved);
	if (res->within_runs)
		pb_cmp_cat(buf, len, ", %u beyond the allowance but within %s runs",
			   res->within_runs, res->within_runs == 1 ? "its" : "their");
	if (res->informational)
		pb_cmp_cat(buf, len, ", %u not comparable", res->informational);
	if (res->opts.normalize[0])
		pb_cmp_cat(buf, len, ", normalized by %s", res->opts.normalize);
	pb_cmp_cat(buf, len, ")");
}

/* -- table */

enum {
	PB_CC_METHOD,
	PB_CC_POINT,
	PB_CC_BASE,
	PB_CC_NEW,
	PB_CC_NBASE,
	PB_CC_NNEW,
	PB_CC_RATIO,
	PB_CC_DELIVERED,
	PB_CC_ACCOUNTED,
	PB_CC_VERDICT,
	PB_CC_N,
};

#define PB_CMP_CELL 400

struct pb_cmp_trow {
	char cell[PB_CC_N][PB_CMP_CELL];
};

/* Names and verdicts read left to right; numbers align right. */
/*
 * Names and verdicts read left to right; numbers align right. On a narrow terminal the
 * normalized rates go first, then accounted %, delivered %, the raw rates; Method, Point,
 * Ratio and Verdict stay (a verdict too long is cut: --wide or --format json has it whole).
 */
static const struct pb_box_col pb_cmp_cols[PB_CC_N] = {
	[PB_CC_METHOD] = { "Method", true },
	[PB_CC_POINT] = { "Point", true },
	[PB_CC_BASE] = { "Base pps", .drop = 1 },
	[PB_CC_NEW] = { "New pps", .drop = 2 },
	[PB_CC_NBASE] = { "Base norm", .drop = 6 },
	[PB_CC_NNEW] = { "New norm", .drop = 5 },
	[PB_CC_RATIO] = { "Ratio" },
	[PB_CC_DELIVERED] = { "Delivered %", .abbr = "Deliv %", .drop = 3 },
	[PB_CC_ACCOUNTED] = { "Accounted %", .abbr = "Acct %", .drop = 4 },
	[PB_CC_VERDICT] = { "Verdict", true },
};

/* A rate of an ok row; "-" where the row is absent or did not run. */
static void pb_cmp_pps_cell(char *cell, const struct pb_compare_row *r)
{
	if (r && r->status == PB_STATUS_OK)
		pb_box_cell(cell, PB_CMP_CELL, "%.0f", r->pps);
	else
		pb_box_cell(cell, PB_CMP_CELL, "-");
}

static void pb_cmp_num_cell(char *cell, double d)
{
	if (isfinite(d))
		pb_box_cell(cell, PB_CMP_CELL, "%.4f", d);
	else
		pb_box_cell(cell, PB_CMP_CELL, "-");
}

/* "100.00 -> 97.00" for a percentage in BASE and NEW; "-" for a side without it. */
static void pb_cmp_pct_cell(char *cell, const struct pb_compare_row *b,
			    const struct pb_compare_row *n, bool delivered)
{
	double vb = !b ? NAN : delivered ? b->delivered_pct : b->accounted_pct;
	double vn = !n ? NAN : delivered ? n->delivered_pct : n->accounted_pct;
	char sb[32] = "-", sn[32] = "-";

	if (isfinite(vb))
		snprintf(sb, sizeof(sb), "%.2f", vb);
	if (isfinite(vn))
		snprintf(sn, sizeof(sn), "%.2f", vn);
	if (!isfinite(vb) && !isfinite(vn))
		pb_box_cell(cell, PB_CMP_CELL, "-");
	else
		pb_box_cell(cell, PB_CMP_CELL, "%s -> %s", sb, sn);
}

/* Any line with a receiver's figures: else the columns would say "-" on every row. */
static bool pb_cmp_any_pct(const struct pb_compare_result *res)
{
	const struct pb_compare_line *l;
	unsigned int i;

	for (i = 0; i < res->n; i++) {
		l = &res->lines[i];
		if ((l->base && isfinite(l->base->delivered_pct)) ||
		    (l->new_ && isfinite(l->new_->delivered_pct)) ||
		    (l->base && isfinite(l->base->accounted_pct)) ||
		    (l->new_ && isfinite(l->new_->accounted_pct)))
			return true;
	}
	return false;
}

/* The value of key in a canonical point ("a=1,b=2"), into buf; false when absent. */
static bool pb_cmp_point_get(const char *point, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	const char *p = point;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n > k && !strncmp(p, key, k) && p[k] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - k - 1), p + k + 1);
			return true;
		}
		p += n + (p[n] == ',');
	}
	return false;
}

/*
 * An RFC 2544 row's point as a person reads it ("64 B loss 90 %"); any other point as its
 * canonical text, "-" for none.
 */
static void pb_cmp_point_cell(char *cell, const char *point)
{
	char test[32], size[16], load[16];

	if (!point[0]) {
		pb_box_cell(cell, PB_CMP_CELL, "-");
		return;
	}
	if (!pb_cmp_point_get(point, "test", test, sizeof(test)) ||
	    !pb_cmp_point_get(point, "frame_size", size, sizeof(size))) {
		pb_box_cell(cell, PB_CMP_CELL, "%s", point);
		return;
	}
	if (pb_cmp_point_get(point, "load_pct", load, sizeof(load)))
		pb_box_cell(cell, PB_CMP_CELL, "%s B %s %s %%", size, test, load);
	else
		pb_box_cell(cell, PB_CMP_CELL, "%s B %s", size, test);
}

static void pb_cmp_trow_fill(struct pb_cmp_trow *t, const struct pb_compare_line *l)
{
	const struct pb_compare_row *r = l->base ? l->base : l->new_;

	pb_box_cell(t->cell[PB_CC_METHOD], PB_CMP_CELL, "%s", r->method);
	pb_cmp_point_cell(t->cell[PB_CC_POINT], r->point);
	pb_cmp_pps_cell(t->cell[PB_CC_BASE], l->base);
	pb_cmp_pps_cell(t->cell[PB_CC_NEW], l->new_);
	pb_cmp_num_cell(t->cell[PB_CC_NBASE], l->norm_base);
	pb_cmp_num_cell(t->cell[PB_CC_NNEW], l->norm_new);
	pb_cmp_num_cell(t->cell[PB_CC_RATIO], l->ratio);
	pb_cmp_pct_cell(t->cell[PB_CC_DELIVERED], l->base, l->new_, true);
	pb_cmp_pct_cell(t->cell[PB_CC_ACCOUNTED], l->base, l->new_, false);
	pb_compare_verdict_text(l, t->cell[PB_CC_VERDICT], PB_CMP_CELL);
}

static void pb_cmp_describe(FILE *f, const char *label, const struct pb_compare_input *in, size_t w)
{
	char meta[160] = "";

	if (in->version[0] || in->kernel[0])
		snprintf(meta, sizeof(meta), " (pktbench %s, kernel %s)",
			 in->version[0] ? in->version : "?", in->kernel[0] ? in->kernel : "?");
	pb_box_note(f, w, "%s %s%s", label, in->name ? in->name : "", meta);
}

/* Both rows say where their senders ran, and not the same. */
static bool pb_cmp_cpus_differ(const struct pb_compare_line *l)
{
	return l->base && l->new_ && l->base->sender_cpus[0] && l->new_->sender_cpus[0] &&
	       strcmp(l->base->sender_cpus, l->new_->sender_cpus);
}

/*
 * What the runs depended on and differed in, a line a field (whole, not fitted to the
 * width: the texts are what a user needs to reproduce a run).
 */
static void pb_cmp_env_warnings(FILE *f, const struct pb_compare_result *res)
{
	unsigned int i;

	if (res->env_missing)
		fprintf(f,
			"warning: %s has no environment record (written before pktbench kept "
			"one): what its runs depended on cannot be compared\n",
			res->env_missing);
	for (i = 0; i < res->nenv_diffs; i++) {
		fprintf(f, "warning: environment differs in %s: ", res->env_diffs[i].key);
		pb_log_write(f, res->env_diffs[i].text);
		fputc('\n', f);
	}
	/* a send path's cost depends on its CPU: a row that ran elsewhere is not alike */
	for (i = 0; i < res->n; i++) {
		const struct pb_compare_line *l = &res->lines[i];
		char text[PB_CMP_METHOD_LEN + PB_CMP_POINT_LEN + 2 * 64 + 64];

		if (!pb_cmp_cpus_differ(l))
			continue;
		snprintf(text, sizeof(text),
			 "warning: %s%s%s's senders ran on cpus %s in BASE, %s in NEW\n",
			 l->base->method, l->base->point[0] ? " " : "", l->base->point,
			 l->base->sender_cpus, l->new_->sender_cpus);
		pb_log_write(f, text);
	}
}

int pb_compare_write_table(FILE *f, const struct pb_compare_result *res)
{
	struct pb_box_col cols[PB_CC_N];
	struct pb_cmp_trow *rows = NULL;
	size_t w = res ? res->opts.width : 0;
	char summary[512], range[64] = "";
	unsigned int i;

	if (!res || (res->n && !res->lines))
		return -EINVAL;
	if (res->base)
		pb_cmp_describe(f, "BASE", res->base, w);
	if (res->new_)
		pb_cmp_describe(f, "NEW ", res->new_, w);
	pb_cmp_env_warnings(f, res);

	/* Columns that would be empty on every row are left out. */
	memcpy(cols, pb_cmp_cols, sizeof(cols));
	cols[PB_CC_POINT].hidden = true;
	for (i = 0; i < res->n; i++) {
		const struct pb_compare_line *l = &res->lines[i];

		if ((l->base && l->base->point[0]) || (l->new_ && l->new_->point[0]))
			cols[PB_CC_POINT].hidden = false;
	}
	cols[PB_CC_NBASE].hidden = cols[PB_CC_NNEW].hidden = !res->opts.normalize[0];
	cols[PB_CC_DELIVERED].hidden = cols[PB_CC_ACCOUNTED].hidden = !pb_cmp_any_pct(res);

	if (res->n) {
		rows = calloc(res->n, sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		for (i = 0; i < res->n; i++)
			pb_cmp_trow_fill(&rows[i], &res->lines[i]);
		pb_box_table(f, cols, PB_CC_N, rows, sizeof(*rows), PB_CMP_CELL, res->n, w);
		pb_box_dropped_note(f, cols, PB_CC_N, w);
		free(rows);
	} else {
		fputs("  no rows in either result set\n", f);
	}
	pb_box_note(f, w, "  ratio = NEW/BASE%s; regressed: ratio < %g",
		    res->opts.normalize[0] ? " of rates normalized by the reference" : "",
		    1.0 - res->allowance_pct / 100.0);
	if (isfinite(res->noise_pct))
		pb_box_note(f, w,
			    "  allowance %.1f %% = max(tolerance %g %%, noise %.1f %% of these "
			    "rows)",
			    res->allowance_pct, res->opts.tolerance_pct, res->noise_pct);
	else
		pb_box_note(f, w, "  allowance = tolerance %g %% (%s)", res->opts.tolerance_pct,
			    res->opts.fixed_tolerance ? "--fixed-tolerance"
						      : "too few rows to measure the noise");
	if (!cols[PB_CC_DELIVERED].hidden || cols[PB_CC_DELIVERED].dropped) {
		if (res->opts.accounted_min_pct > 0)
			snprintf(range, sizeof(range), " or outside %g .. 100 %%",
				 res->opts.accounted_min_pct);
		pb_box_note(f, w,
			    "  with a receiver on both sides also when delivered %% fell more than "
			    "%g pp, accounted %% more than %g pp%s",
			    res->opts.delivered_tol_pp, res->opts.accounted_tol_pp, range);
	}
	if (pb_cmp_any_latency(res))
		pb_box_note(f, w,
			    "  with timed latency probes on both sides also when p99 latency rose "
			    "more than %g %%",
			    res->opts.latency_tol_pct);
	if (res->opts.cpu_tol_pct > 0)
		pb_box_note(f, w,
			    "  also when CPU/frame rose more than %g %% against its class's median "
			    "(all rows x%.2f; batched x%.2f, a syscall per frame x%.2f)%s",
			    res->opts.cpu_tol_pct, res->cpu_centre, res->cpu_class_centre[0],
			    res->cpu_class_centre[1],
			    isfinite(res->cpu_centre) ? "" : ": too few rows, not judged");
	if (res->opts.syscalls_tol_pct > 0)
		pb_box_note(f, w, "  also when syscalls/frame rose more than %g %%",
			    res->opts.syscalls_tol_pct);
	pb_compare_summary(res, summary, sizeof(summary));
	pb_box_note(f, w, "%s", summary);
	return pb_stream_status(f);
}

/* -- JSON */

static int pb_cmp_jset(struct json_object *root, const char *key, const struct pb_compare_input *in)
{
	struct json_object *o = pb_json_child(root, key);
	struct pb_fields fs = { .n = 0 };

	if (!o)
		return -ENOMEM;
	pb_add(&fs, pb_fstr("file", in ? in->name : NULL, 0));
	pb_add(&fs, pb_fstr("pktbench_version", in && in->version[0] ? in->version : NULL, 0));
	pb_add(&fs, pb_fstr("kernel", in && in->kernel[0] ? in->kernel : NULL, 0));
	return pb_json_add_fields(o, &fs);
}

/* "regressed_on": the reasons' names, [] when none. */
static int pb_cmp_jwhy(struct json_object *o, unsigned int why)
{
	struct json_object *arr = pb_json_add_array(o, "regressed_on");
	unsigned int k;

	if (!arr)
		return -ENOMEM;
	for (k = 0; k < __PB_CMP_WHY_N; k++)
		if ((why & (1u << k)) &&
		    pb_json_push(arr, json_object_new_string(pb_compare_why_name(k))))
			return -ENOMEM;
	return 0;
}

static int pb_cmp_jline(struct json_object *o, const struct pb_compare_line *l)
{
	const struct pb_compare_row *r = l->base ? l->base : l->new_;
	const struct pb_compare_row *b = l->base, *n = l->new_;
	struct pb_fields fs = { .n = 0 };
	char text[PB_CMP_CELL];
	int err;

	pb_compare_verdict_text(l, text, sizeof(text));
	pb_add(&fs, pb_fstr("method", r->method, 0));
	pb_add(&fs, pb_fstr("point", r->point[0] ? r->point : NULL, 0));
	pb_add(&fs, pb_fstr("base_status", b ? pb_status_name(b->status) : NULL, 0));
	pb_add(&fs, pb_fstr("base_reason", b && b->reason[0] ? b->reason : NULL, 0));
	pb_add(&fs, pb_fstr("new_status", n ? pb_status_name(n->status) : NULL, 0));
	pb_add(&fs, pb_fstr("new_reason", n && n->reason[0] ? n->reason : NULL, 0));
	pb_add(&fs, pb_fdbl("base_pps", b && b->status == PB_STATUS_OK ? b->pps : NAN));
	pb_add(&fs, pb_fdbl("new_pps", n && n->status == PB_STATUS_OK ? n->pps : NAN));
	pb_add(&fs, pb_fdbl("base_normalized", l->norm_base));
	pb_add(&fs, pb_fdbl("new_normalized", l->norm_new));
	pb_add(&fs, pb_fdbl("ratio", l->ratio));
	pb_add(&fs, pb_fdbl("runs_hi", l->runs_hi));
	pb_add(&fs, pb_fdbl("runs_lo", l->runs_lo));
	pb_add(&fs, pb_fbool("within_runs", l->within_runs));
	pb_add(&fs, pb_fdbl("base_delivered_pct", b ? b->delivered_pct : NAN));
	pb_add(&fs, pb_fdbl("new_delivered_pct", n ? n->delivered_pct : NAN));
	pb_add(&fs, pb_fdbl("base_p99_us", b ? b->p99_us : NAN));
	pb_add(&fs, pb_fdbl("new_p99_us", n ? n->p99_us : NAN));
	pb_add(&fs, pb_fdbl("base_cpu_ns_per_pkt", b ? b->cpu_ns_per_pkt : NAN));
	pb_add(&fs, pb_fdbl("new_cpu_ns_per_pkt", n ? n->cpu_ns_per_pkt : NAN));
	pb_add(&fs, pb_fdbl("cpu_ratio", l->cpu_ratio));
	pb_add(&fs, pb_fdbl("base_syscalls_per_frame", b ? b->syscalls_per_frame : NAN));
	pb_add(&fs, pb_fdbl("new_syscalls_per_frame", n ? n->syscalls_per_frame : NAN));
	pb_add(&fs, pb_fstr("base_sender_cpus", b && b->sender_cpus[0] ? b->sender_cpus : NULL, 0));
	pb_add(&fs, pb_fstr("new_sender_cpus", n && n->sender_cpus[0] ? n->sender_cpus : NULL, 0));
	pb_add(&fs, pb_fdbl("base_accounted_pct", b ? b->accounted_pct : NAN));
	pb_add(&fs, pb_fdbl("new_accounted_pct", n ? n->accounted_pct : NAN));
	pb_add(&fs, pb_fbool("base_interrupted", b && b->interrupted));
	pb_add(&fs, pb_fbool("new_interrupted", n && n->interrupted));
	pb_add(&fs, pb_fbool("base_timed_out", b && b->timed_out));
	pb_add(&fs, pb_fbool("new_timed_out", n && n->timed_out));
	pb_add(&fs, pb_fstr("verdict", pb_compare_verdict_name(l->verdict), 0));
	err = pb_json_add_fields(o, &fs);
	if (!err)
		err = pb_cmp_jwhy(o, l->why);
	if (err)
		return err;
	fs.n = 0;
	pb_add(&fs, pb_fstr("detail", text, 0));
	pb_add(&fs, pb_fbool("fails", pb_compare_verdict_fails(l->verdict)));
	return pb_json_add_fields(o, &fs);
}

/* "environment_differs": a field, its texts in BASE and NEW (null: not recorded), the line. */
static int pb_cmp_jenv(struct json_object *root, const struct pb_compare_result *res)
{
	struct json_object *arr = pb_json_add_array(root, "environment_differs"), *o;
	const struct pb_compare_env_diff *d;
	struct pb_fields fs;
	unsigned int i;
	int err;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < res->nenv_diffs; i++) {
		d = &res->env_diffs[i];
		o = json_object_new_object();
		if (pb_json_push(arr, o))
			return -ENOMEM;
		fs.n = 0;
		pb_add(&fs, pb_fstr("field", d->key, 0));
		pb_add(&fs, pb_fstr("base", d->base, 0));
		pb_add(&fs, pb_fstr("new", d->new_, 0));
		pb_add(&fs, pb_fstr("warning", d->text, sizeof(d->text)));
		err = pb_json_add_fields(o, &fs);
		if (err)
			return err;
	}
	return 0;
}

int pb_compare_write_json(FILE *f, const struct pb_compare_result *res)
{
	const struct pb_compare_opts *op;
	struct json_object *root, *arr, *o;
	struct pb_fields fs = { .n = 0 };
	char summary[512];
	unsigned int i;
	int err = -ENOMEM;

	if (!res || (res->n && !res->lines))
		return -EINVAL;
	root = json_object_new_object();
	if (!root)
		return -ENOMEM;
	op = &res->opts;
	pb_add(&fs, pb_fu64("schema", PB_SCHEMA_VERSION));
	err = pb_json_add_fields(root, &fs);
	if (!err)
		err = pb_cmp_jset(root, "base", res->base);
	if (!err)
		err = pb_cmp_jset(root, "new", res->new_);
	if (err)
		goto out;
	fs.n = 0;
	pb_add(&fs, pb_fdbl("tolerance_pct", op->tolerance_pct));
	pb_add(&fs, pb_fdbl("delivered_tolerance_pp", op->delivered_tol_pp));
	pb_add(&fs, pb_fdbl("accounted_tolerance_pp", op->accounted_tol_pp));
	pb_add(&fs, pb_fdbl("accounted_min_pct", op->accounted_min_pct));
	pb_add(&fs, pb_fdbl("latency_tolerance_pct", op->latency_tol_pct));
	pb_add(&fs, pb_fdbl("cpu_tolerance_pct", op->cpu_tol_pct));
	pb_add(&fs, pb_fdbl("syscalls_tolerance_pct", op->syscalls_tol_pct));
	pb_add(&fs, pb_fdbl("cpu_centre", res->cpu_centre));
	pb_add(&fs, pb_fdbl("cpu_centre_batched", res->cpu_class_centre[0]));
	pb_add(&fs, pb_fdbl("cpu_centre_per_call", res->cpu_class_centre[1]));
	pb_add(&fs, pb_fbool("allow_interrupted", op->allow_interrupted));
	pb_add(&fs, pb_fbool("fixed_tolerance", op->fixed_tolerance));
	pb_add(&fs, pb_fdbl("noise_pct", res->noise_pct)); /* null when not estimated */
	pb_add(&fs, pb_fdbl("allowance_pct", res->allowance_pct));
	pb_add(&fs, pb_fstr("normalize", op->normalize[0] ? op->normalize : NULL, 0));
	pb_add(&fs, pb_fstr("environment_missing_in", res->env_missing, 0));
	err = pb_json_add_fields(root, &fs);
	if (!err)
		err = pb_cmp_jenv(root, res);
	if (err)
		goto out;

	err = -ENOMEM;
	arr = pb_json_add_array(root, "rows");
	if (!arr)
		goto out;
	for (i = 0; i < res->n; i++) {
		o = json_object_new_object();
		if (pb_json_push(arr, o))
			goto out;
		err = pb_cmp_jline(o, &res->lines[i]);
		if (err)
			goto out;
		err = -ENOMEM;
	}

	pb_compare_summary(res, summary, sizeof(summary));
	fs.n = 0;
	pb_add(&fs, pb_fu64("compared", res->compared));
	pb_add(&fs, pb_fu64("improved", res->improved));
	pb_add(&fs, pb_fu64("regressed", res->regressed));
	pb_add(&fs, pb_fu64("missing_or_not_ok_in_new", res->lost));
	pb_add(&fs, pb_fu64("interrupted", res->interrupted));
	pb_add(&fs, pb_fu64("not_comparable", res->informational));
	pb_add(&fs, pb_fu64("within_runs", res->within_runs));
	pb_add(&fs, pb_fbool("failed", pb_compare_failed(res)));
	pb_add(&fs, pb_fstr("summary", summary, 0));
	err = pb_json_add_fields(root, &fs);
	if (err)
		goto out;

	err = pb_json_print(f, root);
out:
	json_object_put(root);
	return err;
}
