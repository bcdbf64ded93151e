// SPDX-License-Identifier: MIT
/*
 * pktbench compare: load two JSON result sets, compute per-row ratios and verdicts, then format
 * them as a table or JSON. The semantics (edge, missing rows, exit status) are in compare.h.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "compare.h"
#include "box.h"
#include "writers.h"

/* Result sets are a few KiB; this only stops a wrong path (a disk image) eating memory. */
#define PB_CMP_MAX_FILE (64u << 20)
/* Rounding in a chain of divisions, not a measurement: see compare.h. */
#define PB_CMP_EPSILON 1e-9

static void pb_cmp_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void pb_cmp_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- loading: JSON text -> rows */

/* Appends to buf at *pos; -ENAMETOOLONG when it does not fit. */
static int pb_cmp_put(char *buf, size_t size, size_t *pos, const char *s)
{
	size_t len = strlen(s);

	if (*pos + len >= size)
		return -ENAMETOOLONG;
	memcpy(buf + *pos, s, len + 1);
	*pos += len;
	return 0;
}

static int pb_cmp_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * A point's canonical text: object keys sorted, "k=v" joined by ','; nested objects in braces,
 * arrays in brackets; an integral number is written as an integer, so 64 and 64.0 match.
 */
static int pb_cmp_canon(struct json_object *v, bool top, char *buf, size_t size, size_t *pos)
{
	char num[48];
	const char **keys = NULL;
	struct json_object *e;
	size_t i, n;
	double d;
	int err = 0;

	switch (json_object_get_type(v)) {
	case json_type_null:
		return pb_cmp_put(buf, size, pos, "null");
	case json_type_boolean:
		return pb_cmp_put(buf, size, pos, json_object_get_boolean(v) ? "true" : "false");
	case json_type_int:
		snprintf(num, sizeof(num), "%" PRId64, json_object_get_int64(v));
		return pb_cmp_put(buf, size, pos, num);
	case json_type_double:
		d = json_object_get_double(v);
		if (d == floor(d) && fabs(d) < 9e15)
			snprintf(num, sizeof(num), "%" PRId64, (int64_t)d);
		else
			pb_fmt_shortest(num, sizeof(num), d);
		return pb_cmp_put(buf, size, pos, num);
	case json_type_string:
		return pb_cmp_put(buf, size, pos, json_object_get_string(v));
	case json_type_array:
		err = pb_cmp_put(buf, size, pos, "[");
		n = json_object_array_length(v);
		for (i = 0; i < n && !err; i++) {
			if (i)
				err = pb_cmp_put(buf, size, pos, ",");
			if (!err)
				err = pb_cmp_canon(json_object_array_get_idx(v, i), false, buf,
						   size, pos);
		}
		return err ? err : pb_cmp_put(buf, size, pos, "]");
	case json_type_object:
		break;
	}

	n = (size_t)json_object_object_length(v);
	if (n) {
		keys = calloc(n, sizeof(*keys));
		if (!keys)
			return -ENOMEM;
	}
	i = 0;
	json_object_object_foreach(v, key, val)
	{
		(void)val;
		if (i < n)
			keys[i++] = key;
	}
	n = i;
	qsort(keys, n, sizeof(*keys), pb_cmp_strcmp);
	if (!top)
		err = pb_cmp_put(buf, size, pos, "{");
	for (i = 0; i < n && !err; i++) {
		if (i)
			err = pb_cmp_put(buf, size, pos, ",");
		if (!err)
			err = pb_cmp_put(buf, size, pos, keys[i]);
		if (!err)
			err = pb_cmp_put(buf, size, pos, "=");
		if (!err && json_object_object_get_ex(v, keys[i], &e))
			err = pb_cmp_canon(e, false, buf, size, pos);
	}
	if (!err && !top)
		err = pb_cmp_put(buf, size, pos, "}");
	free(keys);
	return err;
}

static struct json_object *pb_cmp_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A string member copied into buf, truncated; "" when absent or null. -EINVAL: not a string. */
static int pb_cmp_get_str(struct json_object *o, const char *key, char *buf, size_t size)
{
	struct json_object *v = pb_cmp_get(o, key);

	buf[0] = '\0';
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	snprintf(buf, size, "%s", json_object_get_string(v));
	return 0;
}

static int pb_cmp_parse_row(struct json_object *o, struct pb_compare_row *r, unsigned int i,
			    const char *name, char *err, size_t errlen)
{
	struct json_object *v;
	const char *s;
	size_t pos = 0;
	int ret;

	if (!json_object_is_type(o, json_type_object)) {
		pb_cmp_err(err, errlen, "%s: results[%u] is not an object", name, i);
		return -EINVAL;
	}

	v = pb_cmp_get(o, "method");
	s = json_object_get_string(v);
	if (!json_object_is_type(v, json_type_string) || !*s) {
		pb_cmp_err(err, errlen, "%s: results[%u] has no method", name, i);
		return -EINVAL;
	}
	if (strlen(s) >= sizeof(r->method)) {
		pb_cmp_err(err, errlen, "%s: results[%u]: method name longer than %zu bytes", name,
			   i, sizeof(r->method) - 1);
		return -EINVAL;
	}
	snprintf(r->method, sizeof(r->method), "%s", s);

	v = pb_cmp_get(o, "status");
	s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	if (s && !strcmp(s, pb_status_name(PB_STATUS_OK)))
		r->status = PB_STATUS_OK;
	else if (s && !strcmp(s, pb_status_name(PB_STATUS_SKIPPED)))
		r->status = PB_STATUS_SKIPPED;
	else if (s && !strcmp(s, pb_status_name(PB_STATUS_ERROR)))
		r->status = PB_STATUS_ERROR;
	else {
		pb_cmp_err(err, errlen, "%s: results[%u] (%s): status is not ok, skipped or error",
			   name, i, r->method);
		return -EINVAL;
	}

	if (pb_cmp_get_str(o, "reason", r->reason, sizeof(r->reason))) {
		pb_cmp_err(err, errlen, "%s: results[%u] (%s): reason is not a string", name, i,
			   r->method);
		return -EINVAL;
	}

	/* pps is data only for a row that ran; a skipped row's figure means nothing. */
	v = pb_cmp_get(o, "pps");
	r->pps = NAN;
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
		r->pps = json_object_get_double(v);
	if (r->status == PB_STATUS_OK && !(isfinite(r->pps) && r->pps >= 0)) {
		pb_cmp_err(err, errlen, "%s: results[%u] (%s): ok but pps is not a number >= 0",
			   name, i, r->method);
		return -EINVAL;
	}

	r->point[0] = '\0';
	v = pb_cmp_get(o, "point");
	if (v) {
		ret = pb_cmp_canon(v, true, r->point, sizeof(r->point), &pos);
		if (ret == -ENAMETOOLONG) {
			pb_cmp_err(err, errlen, "%s: results[%u] (%s): point longer than %zu bytes",
				   name, i, r->method, sizeof(r->point) - 1);
			return -EINVAL;
		}
		if (ret) {
			pb_cmp_err(err, errlen, "%s: %s", name, strerror(-ret));
			return ret;
		}
		/* null or {} is no point at all */
		if (!strcmp(r->point, "null"))
			r->point[0] = '\0';
	}
	return 0;
}

static int pb_cmp_parse_root(struct json_object *root, const char *name,
			     struct pb_compare_input *in, char *err, size_t errlen)
{
	struct json_object *v, *arr;
	unsigned int i, n;
	int64_t schema;
	int ret;

	if (!json_object_is_type(root, json_type_object)) {
		pb_cmp_err(err, errlen, "%s: not a pktbench result set (not a JSON object)", name);
		return -EINVAL;
	}
	v = pb_cmp_get(root, "schema");
	if (!json_object_is_type(v, json_type_int)) {
		pb_cmp_err(err, errlen, "%s: not a pktbench result set (no schema version)", name);
		return -EINVAL;
	}
	schema = json_object_get_int64(v);
	if (schema < 1 || schema > PB_SCHEMA_VERSION) {
		pb_cmp_err(err, errlen,
			   "%s: result set schema %" PRId64 ", this pktbench reads 1..%d", name,
			   schema, PB_SCHEMA_VERSION);
		return -EINVAL;
	}
	arr = pb_cmp_get(root, "results");
	if (!json_object_is_type(arr, json_type_array)) {
		pb_cmp_err(err, errlen, "%s: not a pktbench result set (no results array)", name);
		return -EINVAL;
	}
	/* Metadata is shown, not needed: a wrong type just leaves it empty. */
	if (pb_cmp_get_str(root, "pktbench_version", in->version, sizeof(in->version)))
		in->version[0] = '\0';
	if (pb_cmp_get_str(root, "kernel", in->kernel, sizeof(in->kernel)))
		in->kernel[0] = '\0';

	n = (unsigned int)json_object_array_length(arr);
	if (n) {
		in->rows = calloc(n, sizeof(*in->rows));
		if (!in->rows) {
			pb_cmp_err(err, errlen, "%s: %s", name, strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	for (i = 0; i < n; i++) {
		ret = pb_cmp_parse_row(json_object_array_get_idx(arr, i), &in->rows[i], i, name,
				       err, errlen);
		if (ret)
			return ret;
		in->n++;
	}
	return 0;
}

int pb_compare_parse(const char *text, size_t len, const char *name, struct pb_compare_input *in,
		     char *err, size_t errlen)
{
	struct json_object *root = NULL;
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	size_t end;
	int ret = -EINVAL;

	memset(in, 0, sizeof(*in));
	in->name = name;
	if (len > INT32_MAX) {
		pb_cmp_err(err, errlen, "%s: too large", name);
		return -EFBIG;
	}
	tok = json_tokener_new();
	if (!tok) {
		pb_cmp_err(err, errlen, "%s: %s", name, strerror(ENOMEM));
		return -ENOMEM;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		pb_cmp_err(err, errlen, "%s: not JSON (unexpected end of input)", name);
		goto out;
	}
	if (!root || jerr != json_tokener_success) {
		pb_cmp_err(err, errlen, "%s: not JSON (%s at byte %zu)", name,
			   json_tokener_error_desc(jerr), json_tokener_get_parse_end(tok));
		goto out;
	}
	for (end = json_tokener_get_parse_end(tok); end < len; end++) {
		if (!strchr(" \t\r\n", text[end])) {
			pb_cmp_err(err, errlen, "%s: not JSON (trailing data at byte %zu)", name,
				   end);
			goto out;
		}
	}
	ret = pb_cmp_parse_root(root, name, in, err, errlen);
out:
	if (ret)
		pb_compare_input_free(in);
	json_object_put(root);
	json_tokener_free(tok);
	return ret;
}

int pb_compare_load(const char *path, struct pb_compare_input *in, char *err, size_t errlen)
{
	char *buf = NULL, *nbuf;
	size_t len = 0, cap = 0, got;
	FILE *f;
	int ret;

	memset(in, 0, sizeof(*in));
	in->name = path;
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		pb_cmp_err(err, errlen, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	for (;;) {
		if (len == cap) {
			if (cap >= PB_CMP_MAX_FILE) {
				ret = -EFBIG;
				pb_cmp_err(err, errlen, "%s: larger than %u MiB, not a result set",
					   path, PB_CMP_MAX_FILE >> 20);
				goto out;
			}
			cap = cap ? cap * 2 : 16384;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				ret = -ENOMEM;
				pb_cmp_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
				goto out;
			}
			buf = nbuf;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got)
			continue;
		if (ferror(f)) {
			ret = errno ? -errno : -EIO;
			pb_cmp_err(err, errlen, "cannot read %s: %s", path, strerror(-ret));
			goto out;
		}
		break;
	}
	ret = pb_compare_parse(buf ? buf : "", len, path, in, err, errlen);
out:
	free(buf);
	fclose(f);
	return ret;
}

void pb_compare_input_free(struct pb_compare_input *in)
{
	if (!in)
		return;
	free(in->rows);
	in->rows = NULL;
	in->n = 0;
}

/* ---- the computation: rows -> verdicts */

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
		if (r->status == PB_STATUS_OK && !(isfinite(r->pps) && r->pps >= 0)) {
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
	return v == PB_CMP_REGRESSED || v == PB_CMP_MISSING_NEW || v == PB_CMP_NOT_OK_NEW;
}

/* Both rows ok: the ratio and its verdict. */
static int pb_cmp_rate(const struct pb_compare_input *base, const struct pb_compare_input *new_,
		       const struct pb_compare_opts *o, struct pb_compare_line *l,
		       struct pb_compare_result *out)
{
	double b = l->base->pps, n = l->new_->pps;
	double tol = o->tolerance_pct / 100.0;
	int err;

	if (o->normalize) {
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
	if (o->normalize && !strcmp(l->base->method, o->normalize))
		l->verdict = PB_CMP_REFERENCE;
	else if (l->ratio < 1.0 - tol - PB_CMP_EPSILON)
		l->verdict = PB_CMP_REGRESSED;
	else if (l->ratio > 1.0 + tol + PB_CMP_EPSILON)
		l->verdict = PB_CMP_IMPROVED;
	else
		l->verdict = PB_CMP_OK;
	return 0;
}

static void pb_cmp_count(struct pb_compare_result *out, enum pb_cmp_verdict v)
{
	switch (v) {
	case PB_CMP_IMPROVED:
		out->improved++;
		/* fall through */
	case PB_CMP_OK:
	case PB_CMP_REFERENCE:
		out->compared++;
		break;
	case PB_CMP_REGRESSED:
		out->regressed++;
		out->compared++;
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
	out->tolerance_pct = o->tolerance_pct;
	out->normalize = o->normalize;
	if (!(o->tolerance_pct >= 0 && o->tolerance_pct <= 100)) {
		pb_cmp_err(out->err, sizeof(out->err),
			   "--tolerance %g: a percentage from 0 to 100 is needed",
			   o->tolerance_pct);
		return -EINVAL;
	}
	if (o->normalize && !*o->normalize) {
		pb_cmp_err(out->err, sizeof(out->err), "--normalize needs a method name");
		return -EINVAL;
	}
	err = pb_cmp_validate(base, "BASE", out);
	if (!err)
		err = pb_cmp_validate(new_, "NEW", out);
	if (!err && o->normalize)
		err = pb_cmp_check_reference(base, "BASE", o->normalize, out);
	if (!err && o->normalize)
		err = pb_cmp_check_reference(new_, "NEW", o->normalize, out);
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
		l->norm_base = l->norm_new = l->ratio = NAN;
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
		pb_cmp_count(out, l->verdict);
	}
	for (i = 0; i < new_->n; i++) {
		if (pb_cmp_find(base, new_->rows[i].method, new_->rows[i].point))
			continue;
		l = &out->lines[out->n++];
		l->new_ = &new_->rows[i];
		l->norm_base = l->norm_new = l->ratio = NAN;
		l->verdict = PB_CMP_MISSING_BASE;
		pb_cmp_count(out, l->verdict);
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
}

bool pb_compare_failed(const struct pb_compare_result *res)
{
	return res->regressed || res->lost;
}

/* ---- formatting: verdicts -> text */

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

static const char *pb_cmp_reason(const struct pb_compare_row *r)
{
	return r->reason[0] ? r->reason : "no reason given";
}

void pb_compare_verdict_text(const struct pb_compare_line *l, char *buf, size_t len)
{
	const struct pb_compare_row *b = l->base, *n = l->new_;
	size_t k;

	switch (l->verdict) {
	case PB_CMP_OK:
	case PB_CMP_IMPROVED:
	case PB_CMP_REGRESSED:
	case PB_CMP_REFERENCE:
		snprintf(buf, len, "%s", pb_compare_verdict_name(l->verdict));
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
			snprintf(buf + strlen(buf), len - strlen(buf), "; missing in NEW");
		else if (n->status == PB_STATUS_OK)
			snprintf(buf + strlen(buf), len - strlen(buf), "; ok in NEW");
		break;
	}
	/* NEW's own trouble, for the informational kinds. */
	if (n && n->status != PB_STATUS_OK) {
		k = strlen(buf);
		snprintf(buf + k, len - k, "; %s in NEW: %s", pb_status_name(n->status),
			 pb_cmp_reason(n));
	}
}

static const char *pb_cmp_plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}

void pb_compare_summary(const struct pb_compare_result *res, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	if (!pb_compare_failed(res))
		k += snprintf(buf, len, "no regression beyond %g %%", res->tolerance_pct);
	if (res->regressed)
		k += snprintf(buf, len, "%u row%s regressed beyond %g %%", res->regressed,
			      pb_cmp_plural(res->regressed), res->tolerance_pct);
	if (res->lost && k < len)
		k += snprintf(buf + k, len - k, "%s%u row%s missing or not ok in NEW",
			      res->regressed ? ", " : "", res->lost, pb_cmp_plural(res->lost));
	if (k < len)
		k += snprintf(buf + k, len - k, " (%u compared", res->compared);
	if (res->improved && k < len)
		k += snprintf(buf + k, len - k, ", %u improved", res->improved);
	if (res->informational && k < len)
		k += snprintf(buf + k, len - k, ", %u not comparable", res->informational);
	if (res->normalize && k < len)
		k += snprintf(buf + k, len - k, ", normalized by %s", res->normalize);
	if (k < len)
		snprintf(buf + k, len - k, ")");
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
	PB_CC_VERDICT,
	PB_CC_N,
};

#define PB_CMP_CELL 400

struct pb_cmp_trow {
	char cell[PB_CC_N][PB_CMP_CELL];
};

/* Names and verdicts read left to right; numbers align right. */
static const struct pb_box_col pb_cmp_cols[PB_CC_N] = {
	[PB_CC_METHOD] = { "Method", true }, [PB_CC_POINT] = { "Point", true },
	[PB_CC_BASE] = { "Base pps" },	     [PB_CC_NEW] = { "New pps" },
	[PB_CC_NBASE] = { "Base norm" },     [PB_CC_NNEW] = { "New norm" },
	[PB_CC_RATIO] = { "Ratio" },	     [PB_CC_VERDICT] = { "Verdict", true },
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

static void pb_cmp_trow_fill(struct pb_cmp_trow *t, const struct pb_compare_line *l)
{
	const struct pb_compare_row *r = l->base ? l->base : l->new_;

	pb_box_cell(t->cell[PB_CC_METHOD], PB_CMP_CELL, "%s", r->method);
	pb_box_cell(t->cell[PB_CC_POINT], PB_CMP_CELL, "%s", r->point[0] ? r->point : "-");
	pb_cmp_pps_cell(t->cell[PB_CC_BASE], l->base);
	pb_cmp_pps_cell(t->cell[PB_CC_NEW], l->new_);
	pb_cmp_num_cell(t->cell[PB_CC_NBASE], l->norm_base);
	pb_cmp_num_cell(t->cell[PB_CC_NNEW], l->norm_new);
	pb_cmp_num_cell(t->cell[PB_CC_RATIO], l->ratio);
	pb_compare_verdict_text(l, t->cell[PB_CC_VERDICT], PB_CMP_CELL);
}

static void pb_cmp_describe(FILE *f, const char *label, const struct pb_compare_input *in)
{
	fprintf(f, "%s %s", label, in->name ? in->name : "");
	if (in->version[0] || in->kernel[0])
		fprintf(f, " (pktbench %s, kernel %s)", in->version[0] ? in->version : "?",
			in->kernel[0] ? in->kernel : "?");
	fputc('\n', f);
}

int pb_compare_write_table(FILE *f, const struct pb_compare_result *res)
{
	struct pb_box_col cols[PB_CC_N];
	struct pb_cmp_trow *rows = NULL;
	char summary[256];
	unsigned int i;

	if (!res || (res->n && !res->lines))
		return -EINVAL;
	if (res->base)
		pb_cmp_describe(f, "BASE", res->base);
	if (res->new_)
		pb_cmp_describe(f, "NEW ", res->new_);

	/* Columns that would be empty on every row are left out. */
	memcpy(cols, pb_cmp_cols, sizeof(cols));
	cols[PB_CC_POINT].hidden = true;
	for (i = 0; i < res->n; i++) {
		const struct pb_compare_line *l = &res->lines[i];

		if ((l->base && l->base->point[0]) || (l->new_ && l->new_->point[0]))
			cols[PB_CC_POINT].hidden = false;
	}
	cols[PB_CC_NBASE].hidden = cols[PB_CC_NNEW].hidden = res->normalize == NULL;

	if (res->n) {
		rows = calloc(res->n, sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		for (i = 0; i < res->n; i++)
			pb_cmp_trow_fill(&rows[i], &res->lines[i]);
		pb_box_fit(cols, PB_CC_N, rows, sizeof(*rows), PB_CMP_CELL, res->n);
		pb_box_rule(f, cols, PB_CC_N);
		pb_box_head(f, cols, PB_CC_N);
		pb_box_rule(f, cols, PB_CC_N);
		for (i = 0; i < res->n; i++)
			pb_box_row(f, cols, PB_CC_N, &rows[i], PB_CMP_CELL);
		pb_box_rule(f, cols, PB_CC_N);
		free(rows);
	} else {
		fputs("  no rows in either result set\n", f);
	}
	fprintf(f, "  ratio = NEW/BASE%s; a row regressed when ratio < %g (tolerance %g %%)\n",
		res->normalize ? " of the rates normalized by the reference method" : "",
		1.0 - res->tolerance_pct / 100.0, res->tolerance_pct);
	pb_compare_summary(res, summary, sizeof(summary));
	fprintf(f, "%s\n", summary);
	return pb_stream_status(f);
}

/* -- JSON */

static int pb_cmp_jadd(struct json_object *o, const char *key, struct json_object *v)
{
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* A string, or JSON null for NULL (json-c's NULL value is null). */
static int pb_cmp_jstr(struct json_object *o, const char *key, const char *s)
{
	struct json_object *v = NULL;

	if (s) {
		v = json_object_new_string(s);
		if (!v)
			return -ENOMEM;
	}
	return pb_cmp_jadd(o, key, v);
}

/* A double, or null when there is none (JSON has no NaN). */
static int pb_cmp_jdbl(struct json_object *o, const char *key, double d)
{
	struct json_object *v = NULL;
	char buf[48];

	if (isfinite(d)) {
		pb_fmt_shortest(buf, sizeof(buf), d);
		if (!strpbrk(buf, ".eE"))
			strncat(buf, ".0", sizeof(buf) - strlen(buf) - 1);
		v = json_object_new_double_s(d, buf);
		if (!v)
			return -ENOMEM;
	}
	return pb_cmp_jadd(o, key, v);
}

static int pb_cmp_jint(struct json_object *o, const char *key, int64_t n)
{
	struct json_object *v = json_object_new_int64(n);

	return v ? pb_cmp_jadd(o, key, v) : -ENOMEM;
}

static int pb_cmp_jbool(struct json_object *o, const char *key, bool b)
{
	struct json_object *v = json_object_new_boolean(b);

	return v ? pb_cmp_jadd(o, key, v) : -ENOMEM;
}

static int pb_cmp_jset(struct json_object *root, const char *key, const struct pb_compare_input *in)
{
	struct json_object *o = json_object_new_object();
	int err;

	if (!o)
		return -ENOMEM;
	err = pb_cmp_jadd(root, key, o);
	if (!err)
		err = pb_cmp_jstr(o, "file", in ? in->name : NULL);
	if (!err)
		err = pb_cmp_jstr(o, "pktbench_version", in && in->version[0] ? in->version : NULL);
	if (!err)
		err = pb_cmp_jstr(o, "kernel", in && in->kernel[0] ? in->kernel : NULL);
	return err;
}

static int pb_cmp_jline(struct json_object *o, const struct pb_compare_line *l)
{
	const struct pb_compare_row *r = l->base ? l->base : l->new_;
	const struct pb_compare_row *b = l->base, *n = l->new_;
	char text[PB_CMP_CELL];
	int err;

	pb_compare_verdict_text(l, text, sizeof(text));
	err = pb_cmp_jstr(o, "method", r->method);
	if (!err)
		err = pb_cmp_jstr(o, "point", r->point[0] ? r->point : NULL);
	if (!err)
		err = pb_cmp_jstr(o, "base_status", b ? pb_status_name(b->status) : NULL);
	if (!err)
		err = pb_cmp_jstr(o, "base_reason", b && b->reason[0] ? b->reason : NULL);
	if (!err)
		err = pb_cmp_jstr(o, "new_status", n ? pb_status_name(n->status) : NULL);
	if (!err)
		err = pb_cmp_jstr(o, "new_reason", n && n->reason[0] ? n->reason : NULL);
	if (!err)
		err = pb_cmp_jdbl(o, "base_pps", b && b->status == PB_STATUS_OK ? b->pps : NAN);
	if (!err)
		err = pb_cmp_jdbl(o, "new_pps", n && n->status == PB_STATUS_OK ? n->pps : NAN);
	if (!err)
		err = pb_cmp_jdbl(o, "base_normalized", l->norm_base);
	if (!err)
		err = pb_cmp_jdbl(o, "new_normalized", l->norm_new);
	if (!err)
		err = pb_cmp_jdbl(o, "ratio", l->ratio);
	if (!err)
		err = pb_cmp_jstr(o, "verdict", pb_compare_verdict_name(l->verdict));
	if (!err)
		err = pb_cmp_jstr(o, "detail", text);
	if (!err)
		err = pb_cmp_jbool(o, "fails", pb_compare_verdict_fails(l->verdict));
	return err;
}

int pb_compare_write_json(FILE *f, const struct pb_compare_result *res)
{
	struct json_object *root, *arr, *o;
	char summary[256];
	unsigned int i;
	int err = -ENOMEM;

	if (!res || (res->n && !res->lines))
		return -EINVAL;
	root = json_object_new_object();
	if (!root)
		return -ENOMEM;
	err = pb_cmp_jint(root, "schema", PB_SCHEMA_VERSION);
	if (!err)
		err = pb_cmp_jset(root, "base", res->base);
	if (!err)
		err = pb_cmp_jset(root, "new", res->new_);
	if (!err)
		err = pb_cmp_jdbl(root, "tolerance_pct", res->tolerance_pct);
	if (!err)
		err = pb_cmp_jstr(root, "normalize", res->normalize);
	if (err)
		goto out;

	err = -ENOMEM;
	arr = json_object_new_array();
	if (!arr || pb_cmp_jadd(root, "rows", arr))
		goto out;
	for (i = 0; i < res->n; i++) {
		o = json_object_new_object();
		if (!o)
			goto out;
		if (json_object_array_add(arr, o)) {
			json_object_put(o);
			goto out;
		}
		err = pb_cmp_jline(o, &res->lines[i]);
		if (err)
			goto out;
		err = -ENOMEM;
	}

	pb_compare_summary(res, summary, sizeof(summary));
	err = pb_cmp_jint(root, "compared", res->compared);
	if (!err)
		err = pb_cmp_jint(root, "improved", res->improved);
	if (!err)
		err = pb_cmp_jint(root, "regressed", res->regressed);
	if (!err)
		err = pb_cmp_jint(root, "missing_or_not_ok_in_new", res->lost);
	if (!err)
		err = pb_cmp_jint(root, "not_comparable", res->informational);
	if (!err)
		err = pb_cmp_jbool(root, "failed", pb_compare_failed(res));
	if (!err)
		err = pb_cmp_jstr(root, "summary", summary);
	if (err)
		goto out;

	err = pb_json_print(f, root);
out:
	json_object_put(root);
	return err;
}

/* ---- the command */

void pb_compare_usage(FILE *f)
{
	fputs("usage: pktbench compare BASE.json NEW.json [--tolerance PCT] [--normalize METHOD]\n"
	      "                        [--format table|json]\n"
	      "\n"
	      "Compares two JSON result sets row by row (method, and sweep point when there is\n"
	      "one): ratio = NEW pps / BASE pps.\n"
	      "\n"
	      "  -t, --tolerance PCT    a row regressed when ratio < 1 - PCT/100 (default 10;\n"
	      "                         exactly at the edge passes)\n"
	      "  -n, --normalize METHOD divide each rate by METHOD's rate in the same file first,\n"
	      "                         which cancels the machine's own speed\n"
	      "  -f, --format FMT       table (default) or json\n"
	      "  -h, --help             this text\n"
	      "\n"
	      "A row ok in BASE but missing, skipped or failed in NEW fails like a regression;\n"
	      "rows only in NEW or not ok in BASE are listed and fail nothing.\n"
	      "Exit status: 0 no regression, 1 a row regressed or went missing, 2 unreadable\n"
	      "input or bad arguments.\n",
	      f);
}

static int pb_cmp_parse_tolerance(const char *s, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || errno)
		return -EINVAL;
	if (*end == '%')
		end++;
	if (*end || !(d >= 0 && d <= 100))
		return -EINVAL;
	*out = d;
	return 0;
}

int pb_compare_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tolerance", required_argument, NULL, 't' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pb_compare_opts o = { .tolerance_pct = PB_CMP_DEFAULT_TOLERANCE };
	struct pb_compare_input base = { 0 }, new_ = { 0 };
	struct pb_compare_result res = { 0 };
	bool json = false;
	char err[512];
	int c, ret, status = PB_CMP_EXIT_BADINPUT;

	/*
	 * 0, not 1: glibc then starts over, so the command can run more than once (tests).
	 * Options may come before, between or after the two files (GNU permutation).
	 */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:n:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (pb_cmp_parse_tolerance(optarg, &o.tolerance_pct)) {
				fprintf(stderr,
					"pktbench compare: --tolerance %s: a percentage from 0 to "
					"100 is needed\n",
					optarg);
				return PB_CMP_EXIT_BADINPUT;
			}
			break;
		case 'n':
			if (!*optarg) {
				fprintf(stderr, "pktbench compare: --normalize needs a method\n");
				return PB_CMP_EXIT_BADINPUT;
			}
			o.normalize = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "table")) {
				json = false;
			} else if (!strcmp(optarg, "json")) {
				json = true;
			} else {
				fprintf(stderr,
					"pktbench compare: --format %s: table or json is needed\n",
					optarg);
				return PB_CMP_EXIT_BADINPUT;
			}
			break;
		case 'h':
			pb_compare_usage(stdout);
			return PB_CMP_EXIT_PASS;
		case ':':
			fprintf(stderr, "pktbench compare: %s needs a value\n", argv[optind - 1]);
			return PB_CMP_EXIT_BADINPUT;
		default:
			fprintf(stderr, "pktbench compare: unknown option %s (see --help)\n",
				argv[optind - 1]);
			return PB_CMP_EXIT_BADINPUT;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr,
			"pktbench compare: BASE.json and NEW.json are needed (see --help)\n");
		return PB_CMP_EXIT_BADINPUT;
	}

	ret = pb_compare_load(argv[optind], &base, err, sizeof(err));
	if (!ret)
		ret = pb_compare_load(argv[optind + 1], &new_, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "pktbench compare: %s\n", err);
		goto out;
	}
	ret = pb_compare(&base, &new_, &o, &res);
	if (ret) {
		fprintf(stderr, "pktbench compare: %s\n", res.err);
		goto out;
	}
	ret = json ? pb_compare_write_json(stdout, &res) : pb_compare_write_table(stdout, &res);
	if (ret) {
		fprintf(stderr, "pktbench compare: cannot write the comparison: %s\n",
			strerror(-ret));
		goto out;
	}
	status = pb_compare_failed(&res) ? PB_CMP_EXIT_FAIL : PB_CMP_EXIT_PASS;
out:
	pb_compare_result_free(&res);
	pb_compare_input_free(&new_);
	pb_compare_input_free(&base);
	return status;
}
