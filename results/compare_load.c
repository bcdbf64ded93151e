// SPDX-License-Identifier: MIT
/*
 * pktbench compare, loading: a JSON result set (a file pktbench wrote, or text) into rows.
 * Strict about what a comparison depends on (method, status, pps, interrupted, the
 * percentages), lenient about metadata, which is only shown.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "compare.h"
#include "compare_int.h"
#include "envinfo.h"
#include "jsondup.h"
#include "readfile.h"
#include "writers.h"

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

/* A number (a percentage, a rate): NAN when absent or null, -EINVAL when not a finite one. */
static int pb_cmp_get_num(struct json_object *o, const char *key, double *out)
{
	struct json_object *v = pb_cmp_get(o, key);

	*out = NAN;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
		return -EINVAL;
	*out = json_object_get_double(v);
	return isfinite(*out) ? 0 : -EINVAL;
}

/* A boolean: false when absent; -EINVAL when not a boolean. */
static int pb_cmp_get_bool(struct json_object *o, const char *key, bool *out)
{
	struct json_object *v = pb_cmp_get(o, key);

	*out = false;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return -EINVAL;
	*out = json_object_get_boolean(v);
	return 0;
}

/*
 * pktbench rfc2544's rows. Trials are the searches' steps, which differ from run to run by
 * design: not compared (1). A summary row is compared by its answer, put as "higher is
 * better" like packets/s: the throughput's packets/s, the back-to-back burst in frames, and
 * 100 - loss % at each load (a rise in loss is a fall here); a latency row has no rate
 * (no_rate), its p99 is its answer. Its point is its test, frame size, load and (--search
 * mlr) goal. 0, 1, or
 * -EINVAL with the message in err.
 */
static int pb_cmp_rfc_row(struct json_object *o, struct pb_compare_row *r, unsigned int i,
			  const char *name, char *err, size_t errlen)
{
	struct json_object *v, *pt;
	const char *test = json_object_get_string(pb_cmp_get(o, "test"));
	const char *metric = NULL;
	size_t pos = 0;
	double d;
	int ret;

	v = pb_cmp_get(o, "summary");
	if (!json_object_is_type(v, json_type_boolean) || !json_object_get_boolean(v))
		return 1;
	if (!strcmp(test, "throughput"))
		metric = "throughput_pps";
	else if (!strcmp(test, "back-to-back"))
		metric = "burst_frames";
	else if (!strcmp(test, "loss"))
		metric = "loss_pct";
	else if (!strcmp(test, "latency"))
		r->no_rate = true;
	v = metric ? pb_cmp_get(o, metric) : NULL;
	r->pps = NAN;
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
		d = json_object_get_double(v);
		r->pps = !strcmp(test, "loss") ? 100 - d : d;
	}
	if (r->status == PB_STATUS_OK && !r->no_rate && !(isfinite(r->pps) && r->pps >= 0)) {
		pb_cmp_err(err, errlen, "%s: results[%u] (%s %s): ok but %s is not a number", name,
			   i, r->method, test, metric ? metric : "its answer");
		return -EINVAL;
	}
	pt = json_object_new_object();
	if (!pt)
		return -ENOMEM;
	json_object_object_add(pt, "test", json_object_get(pb_cmp_get(o, "test")));
	json_object_object_add(pt, "frame_size", json_object_get(pb_cmp_get(o, "frame_size")));
	v = pb_cmp_get(o, "load_pct");
	if (v && !json_object_is_type(v, json_type_null))
		json_object_object_add(pt, "load_pct", json_object_get(v));
	/* --search mlr: a row per goal, each its own point */
	v = pb_cmp_get(o, "goal");
	if (v && !json_object_is_type(v, json_type_null))
		json_object_object_add(pt, "goal", json_object_get(v));
	ret = pb_cmp_canon(pt, true, r->point, sizeof(r->point), &pos);
	json_object_put(pt);
	if (ret) {
		pb_cmp_err(err, errlen, "%s: results[%u] (%s): its test and frame size: %s", name,
			   i, r->method, strerror(-ret));
		return -EINVAL;
	}
	return 0;
}

/*
 * A row's sender_cpus ([1], [0, 1]) as "1", "0,1" into buf; "" when absent or when a stream
 * was not looked at (null), so only CPUs known on both sides are compared.
 */
static void pb_cmp_sender_cpus(struct json_object *o, char *buf, size_t len)
{
	struct json_object *arr = pb_cmp_get(o, "sender_cpus"), *c;
	size_t n, i, off = 0;
	int w;

	buf[0] = '\0';
	if (!json_object_is_type(arr, json_type_array))
		return;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		c = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(c, json_type_int) || json_object_get_int64(c) < 0 ||
		    json_object_get_int64(c) > 65535)
			goto unknown;
		w = snprintf(buf + off, len - off, "%s%" PRId64, i ? "," : "",
			     json_object_get_int64(c));
		if (w < 0 || (size_t)w >= len - off)
			goto unknown;
		off += (size_t)w;
	}
	return;
unknown:
	buf[0] = '\0';
}

static int pb_cmp_parse_row(struct json_object *o, struct pb_compare_row *r, unsigned int i,
			    const char *name, char *err, size_t errlen)
{
	const struct {
		const char *key;
		bool *out;
	} flags[2] = { { "interrupted", &r->interrupted }, { "timed_out", &r->timed_out } };
	const struct {
		const char *key;
		double *out;
	} pcts[4] = { { "delivered_pct", &r->delivered_pct },
		      { "accounted_pct", &r->accounted_pct },
		      { "cpu_ns_per_pkt", &r->cpu_ns_per_pkt },
		      { "syscalls_per_frame", &r->syscalls_per_frame } };
	double lo, hi; /* its runs' spread, as read */
	bool rfc;
	struct json_object *v;
	const char *s;
	size_t pos = 0;
	unsigned int k;
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

	rfc = json_object_is_type(pb_cmp_get(o, "test"), json_type_string);
	if (rfc) {
		ret = pb_cmp_rfc_row(o, r, i, name, err, errlen);
		if (ret)
			return ret;
	}
	/* pps is data only for a row that ran; a skipped row's figure means nothing. */
	v = pb_cmp_get(o, "pps");
	if (!rfc)
		r->pps = NAN;
	if (!rfc &&
	    (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		r->pps = json_object_get_double(v);
	if (r->status == PB_STATUS_OK && !r->no_rate && !(isfinite(r->pps) && r->pps >= 0)) {
		pb_cmp_err(err, errlen, "%s: results[%u] (%s): ok but pps is not a number >= 0",
			   name, i, r->method);
		return -EINVAL;
	}

	/* its runs' spread (an answer of RFC 2544 has none): both or neither, around its median */
	lo = hi = NAN;
	if (!rfc &&
	    (pb_cmp_get_num(o, "pps_min", &lo) || pb_cmp_get_num(o, "pps_max", &hi) ||
	     isfinite(lo) != isfinite(hi) ||
	     (isfinite(lo) && isfinite(r->pps) && !(0 <= lo && lo <= r->pps && r->pps <= hi)))) {
		pb_cmp_err(err, errlen,
			   "%s: results[%u] (%s): pps_min and pps_max are not both null or numbers "
			   "around pps",
			   name, i, r->method);
		return -EINVAL;
	}
	r->pps_min = isfinite(lo) ? lo : 0;
	r->pps_max = isfinite(hi) ? hi : 0;
	pb_cmp_sender_cpus(o, r->sender_cpus, sizeof(r->sender_cpus));

	/* A partial run must never pass for a complete one: a wrong type is an error. */
	for (k = 0; k < 2; k++) {
		if (pb_cmp_get_bool(o, flags[k].key, flags[k].out)) {
			pb_cmp_err(err, errlen, "%s: results[%u] (%s): %s is not true or false",
				   name, i, r->method, flags[k].key);
			return -EINVAL;
		}
	}
	for (k = 0; k < 4; k++) {
		if (pb_cmp_get_num(o, pcts[k].key, pcts[k].out)) {
			pb_cmp_err(err, errlen, "%s: results[%u] (%s): %s is not a number or null",
				   name, i, r->method, pcts[k].key);
			return -EINVAL;
		}
	}

	/* latency.p99_us (an RFC 2544 latency row's own p99_us): a number, or null / absent */
	v = r->no_rate ? o : pb_cmp_get(o, "latency");
	ret = v && !json_object_is_type(v, json_type_object)
		      ? -EINVAL
		      : pb_cmp_get_num(v, "p99_us", &r->p99_us);
	if (!v)
		r->p99_us = NAN;
	if (ret || (isfinite(r->p99_us) && r->p99_us < 0)) {
		pb_cmp_err(err, errlen,
			   "%s: results[%u] (%s): latency.p99_us is not a number or null", name, i,
			   r->method);
		return -EINVAL;
	}

	if (rfc)
		return 0; /* its point is its test and frame size */
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

/*
 * The set's environment object: each field's text (a value that is not a string, as its JSON
 * text). Absent or null: in->env stays NULL. Not an object: the set is not one pktbench wrote.
 */
static int pb_cmp_parse_env(struct json_object *o, struct pb_compare_input *in, char *err,
			    size_t errlen)
{
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object)) {
		pb_cmp_err(err, errlen, "%s: environment is not an object", in->name);
		return -EINVAL;
	}
	in->env = calloc(1, sizeof(*in->env));
	if (!in->env) {
		pb_cmp_err(err, errlen, "%s: %s", in->name, strerror(ENOMEM));
		return -ENOMEM;
	}
	json_object_object_foreach(o, key, v)
	{
		const char *text = json_object_is_type(v, json_type_string)
					   ? json_object_get_string(v)
					   : json_object_to_json_string(v);

		pb_envinfo_set(in->env, key, "%s", text ? text : "null");
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
	ret = pb_cmp_parse_env(pb_cmp_get(root, "environment"), in, err, errlen);
	if (ret)
		return ret;

	n = (unsigned int)json_object_array_length(arr);
	if (n) {
		in->rows = calloc(n, sizeof(*in->rows));
		if (!in->rows) {
			pb_cmp_err(err, errlen, "%s: %s", name, strerror(ENOMEM));
			return -ENOMEM;
		}
	}
	for (i = 0; i < n; i++) {
		ret = pb_cmp_parse_row(json_object_array_get_idx(arr, i), &in->rows[in->n], i, name,
				       err, errlen);
		if (ret < 0)
			return ret;
		if (!ret) /* 1: a row that is not compared (an RFC 2544 trial) */
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
	char key[48];
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
	/* json-c keeps the last of a key given twice, silently: which one counts is not said */
	ret = pb_json_dup_key(text, len, key, sizeof(key), &end);
	if (ret) {
		if (ret > 0)
			pb_cmp_err(err, errlen,
				   "%s: \"%s\" twice in one object (byte %zu): write each key once",
				   name, key, end);
		else
			pb_cmp_err(err, errlen, "%s: %s", name, strerror(ENOMEM));
		ret = ret > 0 ? -EINVAL : ret;
		goto out;
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
	char *buf;
	size_t len;
	int ret;

	memset(in, 0, sizeof(*in));
	in->name = path;
	ret = pb_results_read(path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = pb_compare_parse(buf, len, path, in, err, errlen);
	free(buf);
	return ret;
}

void pb_compare_input_free(struct pb_compare_input *in)
{
	if (!in)
		return;
	free(in->env);
	in->env = NULL;
	free(in->rows);
	in->rows = NULL;
	in->n = 0;
}
