// SPDX-License-Identifier: MIT
/* pktbench merge: many senders' result sets summed into one table (merge.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "latency.h"
#include "merge.h"
#include "pb_lat.h"

/* ---- reading one row ------------------------------------------------------------------------ */

struct merge_ctx {
	const char *name; /* the file, for messages */
	unsigned int idx; /* the row */
	const char *method;
	char *err;
	size_t errlen;
};

static int merge_bad(struct merge_ctx *c, const char *key, const char *what)
{
	snprintf(c->err, c->errlen, "%s: results[%u]%s%s%s: %s %s", c->name, c->idx,
		 c->method ? " (" : "", c->method ? c->method : "", c->method ? ")" : "", key,
		 what);
	return -EINVAL;
}

/* A number field: absent or null leaves *v and answers 0 with *have false. */
static int merge_num(struct merge_ctx *c, struct json_object *o, const char *key, double *v,
		     bool *have)
{
	struct json_object *x;

	*have = false;
	if (!json_object_object_get_ex(o, key, &x) || !x)
		return 0;
	if (!json_object_is_type(x, json_type_int) && !json_object_is_type(x, json_type_double))
		return merge_bad(c, key, "is not a number");
	*v = json_object_get_double(x);
	if (!isfinite(*v) || *v < 0)
		return merge_bad(c, key, "is not a finite number >= 0");
	*have = true;
	return 0;
}

static int merge_count(struct merge_ctx *c, struct json_object *o, const char *key, uint64_t *v,
		       bool *have)
{
	struct json_object *x;
	int64_t i;

	*have = false;
	if (!json_object_object_get_ex(o, key, &x) || !x)
		return 0;
	if (!json_object_is_type(x, json_type_int))
		return merge_bad(c, key, "is not a whole number");
	i = json_object_get_int64(x);
	if (i < 0)
		return merge_bad(c, key, "is negative");
	*v = (uint64_t)i;
	*have = true;
	return 0;
}

static int merge_str(struct merge_ctx *c, struct json_object *o, const char *key, char *out,
		     size_t size, bool need)
{
	struct json_object *x;
	const char *s;

	out[0] = '\0';
	if (!json_object_object_get_ex(o, key, &x) || !x)
		return need ? merge_bad(c, key, "is missing") : 0;
	if (!json_object_is_type(x, json_type_string))
		return merge_bad(c, key, "is not a string");
	s = json_object_get_string(x);
	if (!s[0] || strlen(s) >= size)
		return merge_bad(c, key, "is empty or too long");
	snprintf(out, size, "%s", s);
	return 0;
}

/* [[upper_bound_ns, count], ...] added into counts; every bound must be one of our buckets'. */
static int merge_hist(struct merge_ctx *c, struct json_object *arr, uint64_t *counts,
		      uint64_t *total)
{
	size_t i, n;

	if (!json_object_is_type(arr, json_type_array))
		return merge_bad(c, "latency.histogram", "is not an array");
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(arr, i), *u, *k;
		int64_t up, cnt;
		__u32 b;

		if (!json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2)
			return merge_bad(c, "latency.histogram", "has an entry that is not a pair");
		u = json_object_array_get_idx(p, 0);
		k = json_object_array_get_idx(p, 1);
		if (!json_object_is_type(u, json_type_int) ||
		    !json_object_is_type(k, json_type_int))
			return merge_bad(c, "latency.histogram",
					 "has a pair that is not two numbers");
		up = json_object_get_int64(u);
		cnt = json_object_get_int64(k);
		if (up < 0 || cnt < 0)
			return merge_bad(c, "latency.histogram", "has a negative number");
		b = pb_hist_bucket((uint64_t)up);
		if (b >= PB_HIST_BUCKETS || pb_hist_upper(b) != (uint64_t)up)
			return merge_bad(c, "latency.histogram",
					 "has a bound that is not one of pktbench's buckets");
		counts[b] += (uint64_t)cnt;
		*total += (uint64_t)cnt;
	}
	return 0;
}

static struct pb_merge_row *merge_row_of(struct pb_merge_result *res, const char *test_id,
					 const char *method, uint64_t frame_bytes)
{
	struct pb_merge_row *r;
	unsigned int i;

	for (i = 0; i < res->n; i++) {
		r = &res->rows[i];
		if (!strcmp(r->test_id, test_id) && !strcmp(r->method, method) &&
		    r->frame_bytes == frame_bytes)
			return r;
	}
	r = realloc(res->rows, sizeof(*r) * (res->n + 1));
	if (!r)
		return NULL;
	res->rows = r;
	r = &res->rows[res->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->test_id, sizeof(r->test_id), "%s", test_id);
	snprintf(r->method, sizeof(r->method), "%s", method);
	r->frame_bytes = frame_bytes;
	r->delivered_known = true;
	r->worst_delivered_pct = 100;
	return r;
}

/* The latency object of an ok row, if it was timed: its probes and its histogram. */
static int merge_latency(struct merge_ctx *c, struct json_object *row, struct pb_merge_row *m)
{
	struct json_object *lat, *h;
	uint64_t sent = 0, recv = 0, lost = 0, total = 0;
	double mn = 0, mx = 0;
	bool h1, h2, h3, h4, h5;
	int err;

	if (!json_object_object_get_ex(row, "latency", &lat) || !lat)
		return 0;
	if (!json_object_is_type(lat, json_type_object))
		return merge_bad(c, "latency", "is not an object");
	err = merge_count(c, lat, "probes_sent", &sent, &h1);
	err = err ?: merge_count(c, lat, "probes_received", &recv, &h2);
	err = err ?: merge_count(c, lat, "lost", &lost, &h3);
	err = err ?: merge_num(c, lat, "min_us", &mn, &h4);
	err = err ?: merge_num(c, lat, "max_us", &mx, &h5);
	if (err)
		return err;
	m->probes_sent += sent;
	m->probes_received += recv;
	m->probes_lost += lost;
	if (!json_object_object_get_ex(lat, "histogram", &h) || !h || !h4 || !h5)
		return 0; /* probes without times (no synced clocks): counted, not timed */
	if (!m->hist) {
		m->hist = calloc(PB_HIST_BUCKETS, sizeof(*m->hist));
		if (!m->hist) {
			snprintf(c->err, c->errlen, "out of memory");
			return -ENOMEM;
		}
	}
	err = merge_hist(c, h, m->hist, &total);
	if (err || !total)
		return err;
	if (!m->lat_known || mn < m->min_us)
		m->min_us = mn;
	if (!m->lat_known || mx > m->max_us)
		m->max_us = mx;
	m->lat_known = true;
	m->samples += total;
	return 0;
}

static int merge_one_row(struct pb_merge_result *res, struct merge_ctx *c, struct json_object *row)
{
	char method[PB_MERGE_KEY_LEN], test_id[PB_MERGE_KEY_LEN], status[32];
	uint64_t fb = 0, sent = 0, deliv = 0;
	double pps = 0, app = 0, wire = 0;
	bool h_fb, h_sent, h_deliv, h_pps, h_app, h_wire;
	struct pb_merge_row *m;
	int err;

	if (!json_object_is_type(row, json_type_object))
		return merge_bad(c, "the row", "is not an object");
	err = merge_str(c, row, "method", method, sizeof(method), true);
	if (err)
		return err;
	c->method = method;
	err = merge_str(c, row, "status", status, sizeof(status), true);
	err = err ?: merge_str(c, row, "test_id", test_id, sizeof(test_id), false);
	err = err ?: merge_count(c, row, "frame_bytes", &fb, &h_fb);
	if (err)
		return err;
	m = merge_row_of(res, test_id, method, fb);
	if (!m) {
		snprintf(c->err, c->errlen, "out of memory");
		return -ENOMEM;
	}
	m->senders++;
	if (strcmp(status, "ok")) {
		m->not_ok++;
		return 0;
	}
	err = merge_num(c, row, "pps", &pps, &h_pps);
	err = err ?: merge_num(c, row, "app_mbps", &app, &h_app);
	err = err ?: merge_num(c, row, "wire_gbps", &wire, &h_wire);
	err = err ?: merge_count(c, row, "frames_sent", &sent, &h_sent);
	err = err ?: merge_count(c, row, "frames_delivered", &deliv, &h_deliv);
	if (err)
		return err;
	if (!h_pps)
		return merge_bad(c, "pps", "is missing in an ok row");
	if (!h_sent) /* a hand-made or foreign row: its rate is summed, its counts are unknown */
		h_deliv = false;
	m->pps += pps;
	m->app_mbps += app;
	m->wire_gbps += wire;
	m->frames_sent += sent;
	m->bytes_sent += sent * fb;
	if (!h_deliv) {
		m->delivered_known = false;
	} else {
		double pct = sent ? 100.0 * (double)deliv / (double)sent : 100.0;

		m->frames_delivered += deliv;
		if (pct < m->worst_delivered_pct)
			m->worst_delivered_pct = pct;
	}
	return merge_latency(c, row, m);
}

int pb_merge_add_json(struct pb_merge_result *res, const char *text, const char *name, char *err,
		      size_t errlen)
{
	struct merge_ctx c = { .name = name, .err = err, .errlen = errlen };
	struct json_tokener *tok;
	struct json_object *root = NULL, *rows;
	size_t i, n;
	int ret = 0;

	tok = json_tokener_new();
	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	root = json_tokener_parse_ex(tok, text, (int)strlen(text));
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		snprintf(err, errlen, "%s: not JSON: %s", name,
			 json_tokener_error_desc(json_tokener_get_error(tok)));
		ret = -EINVAL;
		goto out;
	}
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "results", &rows) ||
	    !json_object_is_type(rows, json_type_array)) {
		snprintf(err, errlen, "%s: not a pktbench result set (no \"results\" array)", name);
		ret = -EINVAL;
		goto out;
	}
	n = json_object_array_length(rows);
	for (i = 0; i < n && !ret; i++) {
		c.idx = (unsigned int)i;
		c.method = NULL;
		ret = merge_one_row(res, &c, json_object_array_get_idx(rows, i));
	}
	res->files++;
out:
	json_object_put(root);
	json_tokener_free(tok);
	return ret;
}

void pb_merge_finish(struct pb_merge_result *res)
{
	unsigned int i;

	for (i = 0; i < res->n; i++) {
		struct pb_merge_row *m = &res->rows[i];
		uint64_t lo, hi;

		if (m->delivered_known && m->frames_sent)
			m->delivered_pct =
				100.0 * (double)m->frames_delivered / (double)m->frames_sent;
		if (!m->lat_known)
			continue;
		/* the same rule as one receiver's: nearest rank, clamped to the seen extremes */
		lo = (uint64_t)llround(m->min_us * 1e3);
		hi = (uint64_t)llround(m->max_us * 1e3);
		m->p50_us = pb_hist_quantile(m->hist, m->samples, 0.50, lo, hi) / 1e3;
		m->p90_us = pb_hist_quantile(m->hist, m->samples, 0.90, lo, hi) / 1e3;
		m->p99_us = pb_hist_quantile(m->hist, m->samples, 0.99, lo, hi) / 1e3;
		m->p999_us = pb_hist_quantile(m->hist, m->samples, 0.999, lo, hi) / 1e3;
	}
}

void pb_merge_result_free(struct pb_merge_result *res)
{
	unsigned int i;

	for (i = 0; i < res->n; i++)
		free(res->rows[i].hist);
	free(res->rows);
	memset(res, 0, sizeof(*res));
}
