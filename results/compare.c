// SPDX-License-Identifier: MIT
/*
 * pktbench compare, the computation: rows of two result sets -> one line per key with its
 * ratio and verdict. No I/O, no text beyond the error message: compare.h has the semantics.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_int.h"
#include "envinfo.h"
#include "options.h"

void pb_cmp_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static bool pb_cmp_same_key(const struct pb_compare_row *a, const struct pb_compare_row *b)
{
	return !strcmp(a->method, b->method) && !strcmp(a->point, b->point);
}

static const struct pb_compare_row *pb_cmp_find(const struct pb_compare_input *in,
						const char *method, const char *point)
{
	unsigned int i;

	for (i = 0; i < in->n; i++)
		if (!strcmp(in->rows[i].method, method) && !strcmp(in->rows[i].point, point))
			return &in->rows[i];
	return NULL;
}

static const char *pb_cmp_point_text(const char *point)
{
	return point[0] ? point : "(none)";
}

/* Every key once, every ok row with a usable rate: the computation trusts nothing else. */
static int pb_cmp_validate(const struct pb_compare_input *in, const char *which,
			   struct pb_compare_result *out)
{
	const struct pb_compare_row *r;
	unsigned int i, j;

	if (in->n && !in->rows) {
		pb_cmp_err(out->err, sizeof(out->err), "%s: rows missing", which);
		return -EINVAL;
	}
	for (i = 0; i < in->n; i++) {
		r = &in->rows[i];
		if (r->status == PB_STATUS_OK && !r->no_rate &&
		    !(isfinite(r->pps) && r->pps >= 0)) {
			pb_cmp_err(out->err, sizeof(out->err),
				   "%s (%s): %s is ok but has no rate (pps %g)", which,
				   in->name ? in->name : "", r->method, r->pps);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (pb_cmp_same_key(r, &in->rows[j])) {
				pb_cmp_err(out->err, sizeof(out->err),
					   "%s (%s): %s at point %s appears twice", which,
					   in->name ? in->name : "", r->method,
					   pb_cmp_point_text(r->point));
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* The --normalize method must have run somewhere in the set, or nothing can be compared. */
static int pb_cmp_check_reference(const struct pb_compare_input *in, const char *which,
				  const char *method, struct pb_compare_result *out)
{
	const struct pb_compare_row *seen = NULL;
	unsigned int i;

	for (i = 0; i < in->n; i++) {
		if (strcmp(in->rows[i].method, method))
			continue;
		if (in->rows[i].status == PB_STATUS_OK)
			return 0;
		seen = seen ? seen : &in->rows[i];
	}
	if (!seen)
		pb_cmp_err(out->err, sizeof(out->err), "--normalize %s: no %s row in %s (%s)",
			   method, method, which, in->name ? in->name : "");
	else
		pb_cmp_err(out->err, sizeof(out->err), "--normalize %s: %s in %s (%s): %s", method,
			   pb_status_name(seen->status), which, in->name ? in->name : "",
			   seen->reason[0] ? seen->reason : "no reason given");
	return -ENOENT;
}

/* row's rate divided by the reference's at the same point, else the point-less reference. */
static int pb_cmp_normalize(const struct pb_compare_input *in, const char *which,
			    const char *method, const struct pb_compare_row *row, double *norm,
			    struct pb_compare_result *out)
{
	const struct pb_compare_row *ref;

	ref = pb_cmp_find(in, method, row->point);
	if (!ref && row->point[0])
		ref = pb_cmp_find(in, method, "");
	if (!ref || ref->status != PB_STATUS_OK) {
		pb_cmp_err(out->err, sizeof(out->err),
			   "--normalize %s: %s at point %s %s in %s (%s), needed for %s", method,
			   method, pb_cmp_point_text(row->point), ref ? "is not ok" : "missing",
			   which, in->name ? in->name : "", row->method);
		return -ENOENT;
	}
	if (!(ref->pps > 0)) {
		pb_cmp_err(out->err, sizeof(out->err),
			   "--normalize %s: %s at point %s has a rate of 0 in %s (%s)", method,
			   method, pb_cmp_point_text(ref->point), which, in->name ? in->name : "");
		return -ENOENT;
	}
	*norm = row->pps / ref->pps;
	return 0;
}

bool pb_compare_verdict_fails(enum pb_cmp_verdict v)
{
	return v == PB_CMP_REGRESSED || v == PB_CMP_INTERRUPTED || v == PB_CMP_MISSING_NEW ||
	       v == PB_CMP_NOT_OK_NEW;
}

/*
 * Where both rows carry their runs' spread: the ratios of the runs furthest apart, each rate
 * scaled as the row's median was (normalized, or 1). A BASE run at 0 makes runs_hi infinite:
 * nothing is slower than that.
 */
static void pb_cmp_runs(struct pb_compare_line *l, double scale_b, double scale_n)
{
	const struct pb_compare_row *b = l->base, *n = l->new_;

	if (!(b->pps_max > 0) || !(n->pps_max > 0))
		return; /* one run, or no spread to speak of */
	l->runs_hi = b->pps_min > 0 ? n->pps_max * scale_n / (b->pps_min * scale_b) : INFINITY;
	l->runs_lo = n->pps_min * scale_n / (b->pps_max * scale_b);
}

/* Both rows ok: the ratio (its verdict waits for the noise of every row). */
static int pb_cmp_rate(const struct pb_compare_input *base, const struct pb_compare_input *new_,
		       const struct pb_compare_opts *o, struct pb_compare_line *l,
		       struct pb_compare_result *out)
{
	double b = l->base->pps, n = l->new_->pps;
	int err;

	l->verdict = PB_CMP_OK;
	if (l->base->no_rate || l->new_->no_rate)
		return 0; /* p99 only: pb_cmp_delivery */
	if (o->normalize[0]) {
		err = pb_cmp_normalize(base, "BASE", o->normalize, l->base, &l->norm_base, out);
		if (!err)
			err = pb_cmp_normalize(new_, "NEW", o->normalize, l->new_, &l->norm_new,
					       out);
		if (err)
			return err;
		b = l->norm_base;
		n = l->norm_new;
	}
	if (!(b > 0)) {
		l->verdict = PB_CMP_NO_BASE_RATE;
		return 0;
	}
	l->ratio = n / b;
	if (o->normalize[0] && !strcmp(l->base->method, o->normalize))
		l->verdict = PB_CMP_REFERENCE;
	if (!o->fixed_tolerance)
		pb_cmp_runs(l, b / l->base->pps, l->new_->pps > 0 ? n / l->new_->pps : 0);
	return 0;
}

/* A ratio's verdict against the allowance (a percentage). */
static void pb_cmp_judge(struct pb_compare_line *l, double allowance_pct)
{
	double tol = allowance_pct / 100.0;

	bool down, up;

	if (l->verdict != PB_CMP_OK || !isfinite(l->ratio))
		return;
	down = l->ratio < 1.0 - tol - PB_CMP_EPSILON;
	up = l->ratio > 1.0 + tol + PB_CMP_EPSILON;
	/* beyond the allowance, but the runs overlap (false for NAN: no runs to weigh) */
	if ((down && l->runs_hi >= 1.0) || (up && l->runs_lo <= 1.0)) {
		l->within_runs = true;
		return;
	}
	if (down) {
		l->verdict = PB_CMP_REGRESSED;
		l->why |= PB_CMP_WHY_PPS;
	} else if (up) {
		l->verdict = PB_CMP_IMPROVED;
	}
}

static int pb_cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted in place); n > 0. */
static double pb_cmp_median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), pb_cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The rows' own scatter as a percentage (compare.h): a robust sigma of ln ratio over the rows
 * compared by rate, as the fall 3 sigma below 1 is. NAN with too few rows; -ENOMEM.
 */
static int pb_cmp_noise(const struct pb_compare_result *out, double *noise_pct)
{
	double *v, med, sigma;
	unsigned int i, n = 0;

	*noise_pct = NAN;
	v = calloc(out->n ? out->n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < out->n; i++) {
		const struct pb_compare_line *l = &out->lines[i];

		if (l->verdict == PB_CMP_OK && isfinite(l->ratio) && l->ratio > 0)
			v[n++] = log(l->ratio);
	}
	if (n >= PB_CMP_NOISE_MIN_ROWS) {
		med = pb_cmp_median(v, n);
		for (i = 0; i < n; i++)
			v[i] = fabs(v[i] - med);
		sigma = 1.4826 * pb_cmp_median(v, n);
		*noise_pct = 100.0 * (1.0 - exp(-PB_CMP_NOISE_SIGMAS * sigma));
	}
	free(v);
	return 0;
}

/*
 * What the receiver saw, where both sides had one: delivered % and accounted % may fall no
 * further than their tolerances below BASE's, and NEW's accounted % must lie within
 * [accounted_min, 100]. Frames nobody can account for are a regression whatever the rate.
 */
static void pb_cmp_delivery(const struct pb_compare_opts *o, struct pb_compare_line *l)
{
	const struct pb_compare_row *b = l->base, *n = l->new_;
	unsigned int why = 0;

	if (isfinite(b->delivered_pct) && isfinite(n->delivered_pct) &&
	    n->delivered_pct < b->delivered_pct - o->delivered_tol_pp - PB_CMP_EPSILON)
		why |= PB_CMP_WHY_DELIVERED;
	if (isfinite(b->accounted_pct) && isfinite(n->accounted_pct)) {
		if (n->accounted_pct < b->accounted_pct - o->accounted_tol_pp - PB_CMP_EPSILON)
			why |= PB_CMP_WHY_ACCOUNTED;
		if ((o->accounted_min_pct > 0 &&
		     n->accounted_pct < o->accounted_min_pct - PB_CMP_EPSILON) ||
		    n->accounted_pct > 100.0 + PB_CMP_EPSILON)
			why |= PB_CMP_WHY_ACCT_RANGE;
	}
	/* the probes' p99, where both runs timed probes (--latency): it may rise so far */
	if (isfinite(b->p99_us) && isfinite(n->p99_us) &&
	    n->p99_us > b->p99_us * (1.0 + o->latency_tol_pct / 100.0) + PB_CMP_EPSILON)
		why |= PB_CMP_WHY_LATENCY;
	if (why) {
		l->verdict = PB_CMP_REGRESSED;
		l->why |= why;
	}
}

/* Both rows ok with CPU per frame: NEW/BASE, uncentred; NAN otherwise. */
static double pb_cmp_cpu_raw(const struct pb_compare_line *l)
{
	if (!l->base || !l->new_ || l->base->status != PB_STATUS_OK ||
	    l->new_->status != PB_STATUS_OK || !(l->base->cpu_ns_per_pkt > 0) ||
	    !(l->new_->cpu_ns_per_pkt > 0) || !isfinite(l->new_->cpu_ns_per_pkt) ||
	    !isfinite(l->base->cpu_ns_per_pkt))
		return NAN;
	return l->new_->cpu_ns_per_pkt / l->base->cpu_ns_per_pkt;
}

/* Whether the row's BASE makes a system call per frame or more (compare.h: its CPU class). */
static bool pb_cmp_call_per_frame(const struct pb_compare_line *l)
{
	return l->base && isfinite(l->base->syscalls_per_frame) &&
	       l->base->syscalls_per_frame >= PB_CMP_CALL_ROW;
}

/*
 * The median CPU/frame ratio over the rows that have one (compare.h), over all of them
 * (centre) and over each class: rows that make a system call per frame, and the rest. NAN:
 * too few rows; -ENOMEM.
 */
static int pb_cmp_cpu_centre(const struct pb_compare_result *out, double *centre,
			     double class_centre[2])
{
	unsigned int i, n = 0, nc[2] = { 0, 0 }, c, rows = out->n ? out->n : 1;
	/* all rows' ratios, then each class's, in one array */
	double *v = calloc(3 * (size_t)rows, sizeof(*v)), *vc[2];

	*centre = class_centre[0] = class_centre[1] = NAN;
	if (!v)
		return -ENOMEM;
	vc[0] = v + rows;
	vc[1] = v + 2 * rows;
	for (i = 0; i < out->n; i++) {
		double r = pb_cmp_cpu_raw(&out->lines[i]);

		if (!isfinite(r))
			continue;
		v[n++] = r;
		c = pb_cmp_call_per_frame(&out->lines[i]);
		vc[c][nc[c]++] = r;
	}
	if (n >= PB_CMP_NOISE_MIN_ROWS)
		*centre = pb_cmp_median(v, n);
	for (c = 0; c < 2; c++)
		if (nc[c] >= PB_CMP_CPU_CLASS_MIN)
			class_centre[c] = pb_cmp_median(vc[c], nc[c]);
	free(v);
	return 0;
}

/*
 * What the sending threads cost per frame and how many calls they made: CPU/frame centred by
 * the rows' median may rise cpu_tol_pct, syscalls/frame syscalls_tol_pct (each 0: off).
 */
static void pb_cmp_cost(const struct pb_compare_opts *o, const struct pb_compare_result *out,
			struct pb_compare_line *l)
{
	const struct pb_compare_row *b = l->base, *n = l->new_;
	double centre = out->cpu_centre, own = out->cpu_class_centre[pb_cmp_call_per_frame(l)];
	unsigned int why = 0;

	/* the row's class's centre where the class has rows enough, else all rows' */
	if (isfinite(centre) && isfinite(own))
		centre = own;
	if (o->cpu_tol_pct > 0 && isfinite(centre) && centre > 0) {
		l->cpu_ratio = pb_cmp_cpu_raw(l) / centre;
		if (l->cpu_ratio > 1.0 + o->cpu_tol_pct / 100.0 + PB_CMP_EPSILON)
			why |= PB_CMP_WHY_CPU;
	}
	if (o->syscalls_tol_pct > 0 && isfinite(b->syscalls_per_frame) &&
	    isfinite(n->syscalls_per_frame) &&
	    n->syscalls_per_frame > b->syscalls_per_frame * (1.0 + o->syscalls_tol_pct / 100.0) +
					    PB_CMP_SYSCALLS_FLOOR + PB_CMP_EPSILON)
		why |= PB_CMP_WHY_SYSCALLS;
	if (why) {
		l->verdict = PB_CMP_REGRESSED;
		l->why |= why;
	}
}

static void pb_cmp_count(struct pb_compare_result *out, const struct pb_compare_line *l)
{
	unsigned int k;

	switch (l->verdict) {
	case PB_CMP_IMPROVED:
		out->improved++;
		/* fall through */
	case PB_CMP_OK:
	case PB_CMP_REFERENCE:
		out->compared++;
		out->within_runs += l->within_runs;
		break;
	case PB_CMP_REGRESSED:
		out->regressed++;
		out->compared++;
		for (k = 0; k < __PB_CMP_WHY_N; k++)
			out->regressed_on[k] += !!(l->why & (1u << k));
		break;
	case PB_CMP_INTERRUPTED:
		out->interrupted++;
		break;
	case PB_CMP_MISSING_NEW:
	case PB_CMP_NOT_OK_NEW:
		out->lost++;
		break;
	case PB_CMP_MISSING_BASE:
	case PB_CMP_NOT_OK_BASE:
	case PB_CMP_NO_BASE_RATE:
		out->informational++;
		break;
	}
}

/*
 * Options pb_compare was not given through the command's table are checked all the same,
 * against the table's own ranges.
 */
static int pb_cmp_check_opts(const struct pb_compare_opts *o, struct pb_compare_result *out)
{
	unsigned int i;

	for (i = 0; i < pb_cmd_compare.nopts; i++) {
		const struct pb_opt *row = &pb_cmd_compare.opts[i];
		double v;

		if (row->type != OPT_PCT)
			continue;
		v = *(const double *)((const char *)o + row->off);
		if (!(v >= (double)row->min && v <= (double)row->max)) {
			pb_cmp_err(out->err, sizeof(out->err),
				   "--%s %g: a percentage from %llu to %llu is needed", row->name,
				   v, (unsigned long long)row->min, (unsigned long long)row->max);
			return -EINVAL;
		}
	}
	if (!memchr(o->normalize, '\0', sizeof(o->normalize))) {
		pb_cmp_err(out->err, sizeof(out->err), "--normalize: the name is too long");
		return -EINVAL;
	}
	return 0;
}

/* Whether item (len bytes) is one of the ", "-separated items of list. */
static bool pb_cmp_has_item(const char *list, const char *item, size_t len)
{
	size_t n;

	for (;;) {
		n = strcspn(list, ",");
		if (n == len && !strncmp(list, item, len))
			return true;
		if (!list[n])
			return false;
		list += n + 1;
		list += strspn(list, " ");
	}
}

/* The items of a that b lacks, ", "-joined into buf at *off; how many. */
static unsigned int pb_cmp_items_not_in(const char *a, const char *b, char *buf, size_t len,
					size_t *off)
{
	unsigned int k = 0;
	size_t n;
	int w;

	for (;;) {
		n = strcspn(a, ",");
		if (n && !pb_cmp_has_item(b, a, n)) {
			w = snprintf(buf + *off, len - *off, "%s%.*s", k ? ", " : "", (int)n, a);
			if (w > 0)
				*off = *off + (size_t)w < len ? *off + (size_t)w : len - 1;
			k++;
		}
		if (!a[n])
			return k;
		a += n + 1;
		a += strspn(a, " ");
	}
}

/* The fields whose text is a list of items ("a, b, c"), the rest being prose. */
static bool pb_cmp_env_is_list(const char *key)
{
	static const char *const lists[] = { "iface.offloads", "iface.irq_affinity",
					     "iface.napi_threads", "cpu_governor" };
	unsigned int i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!strcmp(key, lists[i]))
			return true;
	return false;
}

/*
 * d->text for two texts that differ; false when they do not (the same list in another
 * order). Lists (pb_cmp_env_is_list, neither unknown) by their items.
 */
static bool pb_cmp_env_text(struct pb_compare_env_diff *d)
{
	const char *b = d->base, *n = d->new_;
	size_t off = 0;
	unsigned int lacks, adds;

	if (b && n && !strcmp(b, n))
		return false;
	/* a list of one item each reads better as the two texts */
	if (b && n && pb_cmp_env_is_list(d->key) && (strstr(b, ", ") || strstr(n, ", ")) &&
	    strncmp(b, "unknown (", 9) && strncmp(n, "unknown (", 9)) {
		off = (size_t)snprintf(d->text, sizeof(d->text), "NEW lacks ");
		lacks = pb_cmp_items_not_in(b, n, d->text, sizeof(d->text), &off);
		if (!lacks)
			off = 0;
		off += (size_t)snprintf(d->text + off, sizeof(d->text) - off, "%sNEW adds ",
					lacks ? "; " : "");
		if (off >= sizeof(d->text))
			off = sizeof(d->text) - 1;
		adds = pb_cmp_items_not_in(n, b, d->text, sizeof(d->text), &off);
		if (!adds)
			d->text[off - strlen(lacks ? "; NEW adds " : "NEW adds ")] = '\0';
		return lacks || adds;
	}
	snprintf(d->text, sizeof(d->text), "BASE %s, NEW %s", b ? b : "(not recorded)",
		 n ? n : "(not recorded)");
	return true;
}

/* The fields the two sets' environments differ in (pb_compare_env_diff); 0 or -ENOMEM. */
static int pb_cmp_env(const struct pb_compare_input *base, const struct pb_compare_input *new_,
		      struct pb_compare_result *out)
{
	const struct pb_envinfo *b = base->env, *n = new_->env;
	const struct pb_envinfo_field *f;
	struct pb_compare_env_diff *d;
	unsigned int i;

	if (!b != !n)
		out->env_missing = b ? "NEW" : "BASE";
	if (!b || !n)
		return 0;
	out->env_diffs = calloc(b->n + n->n + 1, sizeof(*out->env_diffs));
	if (!out->env_diffs) {
		pb_cmp_err(out->err, sizeof(out->err), "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (i = 0; i < b->n + n->n; i++) {
		bool in_base = i < b->n;

		f = in_base ? &b->f[i] : &n->f[i - b->n];
		if (!in_base && pb_envinfo_get(b, f->key))
			continue; /* both have it: seen in BASE's pass */
		d = &out->env_diffs[out->nenv_diffs];
		d->key = f->key;
		d->base = in_base ? f->val : NULL;
		if (in_base) {
			const struct pb_envinfo_field *g = pb_envinfo_get(n, f->key);

			d->new_ = g ? g->val : NULL;
		} else {
			d->new_ = f->val;
		}
		if (pb_cmp_env_text(d))
			out->nenv_diffs++;
	}
	return 0;
}

int pb_compare(const struct pb_compare_input *base, const struct pb_compare_input *new_,
	       const struct pb_compare_opts *o, struct pb_compare_result *out)
{
	struct pb_compare_line *l;
	unsigned int i;
	int err;

	memset(out, 0, sizeof(*out));
	if (!base || !new_ || !o) {
		pb_cmp_err(out->err, sizeof(out->err), "nothing to compare");
		return -EINVAL;
	}
	out->base = base;
	out->new_ = new_;
	out->opts = *o;
	err = pb_cmp_check_opts(o, out);
	if (!err)
		err = pb_cmp_validate(base, "BASE", out);
	if (!err)
		err = pb_cmp_validate(new_, "NEW", out);
	if (!err && o->normalize[0])
		err = pb_cmp_check_reference(base, "BASE", o->normalize, out);
	if (!err && o->normalize[0])
		err = pb_cmp_check_reference(new_, "NEW", o->normalize, out);
	if (!err)
		err = pb_cmp_env(base, new_, out);
	if (err)
		return err;

	if (base->n + new_->n) {
		out->lines = calloc(base->n + new_->n, sizeof(*out->lines));
		if (!out->lines) {
			pb_cmp_err(out->err, sizeof(out->err), "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	for (i = 0; i < base->n; i++) {
		l = &out->lines[out->n++];
		l->base = &base->rows[i];
		l->new_ = pb_cmp_find(new_, l->base->method, l->base->point);
		l->norm_base = l->norm_new = l->ratio = l->runs_hi = l->runs_lo = NAN;
		l->cpu_ratio = NAN;
		if (l->base->status != PB_STATUS_OK)
			l->verdict = PB_CMP_NOT_OK_BASE;
		else if (!l->new_)
			l->verdict = PB_CMP_MISSING_NEW;
		else if (l->new_->status != PB_STATUS_OK)
			l->verdict = PB_CMP_NOT_OK_NEW;
		else {
			err = pb_cmp_rate(base, new_, o, l, out);
			if (err)
				goto fail;
		}
	}
	/* every ratio first: the noise is what they say together */
	out->noise_pct = NAN;
	if (!o->fixed_tolerance) {
		err = pb_cmp_noise(out, &out->noise_pct);
		if (err) {
			pb_cmp_err(out->err, sizeof(out->err), "%s", strerror(-err));
			goto fail;
		}
	}
	out->cpu_centre = out->cpu_class_centre[0] = out->cpu_class_centre[1] = NAN;
	if (o->cpu_tol_pct > 0) {
		err = pb_cmp_cpu_centre(out, &out->cpu_centre, out->cpu_class_centre);
		if (err) {
			pb_cmp_err(out->err, sizeof(out->err), "%s", strerror(-err));
			goto fail;
		}
	}
	out->allowance_pct = o->tolerance_pct;
	if (isfinite(out->noise_pct) && out->noise_pct > out->allowance_pct)
		out->allowance_pct = out->noise_pct;
	for (i = 0; i < out->n; i++) {
		l = &out->lines[i];
		if (l->base->status == PB_STATUS_OK && l->new_ && l->new_->status == PB_STATUS_OK) {
			pb_cmp_judge(l, out->allowance_pct);
			if (l->verdict != PB_CMP_NO_BASE_RATE) {
				pb_cmp_delivery(o, l);
				pb_cmp_cost(o, out, l);
			}
			/* a partial run is no measurement to regress from or to */
			if ((l->base->interrupted || l->base->timed_out || l->new_->interrupted ||
			     l->new_->timed_out) &&
			    !o->allow_interrupted) {
				l->verdict = PB_CMP_INTERRUPTED;
				l->why = 0;
			}
		}
		pb_cmp_count(out, l);
	}
	for (i = 0; i < new_->n; i++) {
		if (pb_cmp_find(base, new_->rows[i].method, new_->rows[i].point))
			continue;
		l = &out->lines[out->n++];
		l->new_ = &new_->rows[i];
		l->norm_base = l->norm_new = l->ratio = l->runs_hi = l->runs_lo = NAN;
		l->cpu_ratio = NAN;
		l->verdict = PB_CMP_MISSING_BASE;
		pb_cmp_count(out, l);
	}
	return 0;
fail:
	free(out->lines);
	out->lines = NULL;
	out->n = 0;
	return err;
}

void pb_compare_result_free(struct pb_compare_result *res)
{
	if (!res)
		return;
	free(res->lines);
	res->lines = NULL;
	res->n = 0;
	free(res->env_diffs);
	res->env_diffs = NULL;
	res->nenv_diffs = 0;
}

bool pb_compare_failed(const struct pb_compare_result *res)
{
	return res->regressed || res->lost || res->interrupted;
}
