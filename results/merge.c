// SPDX-License-Identifier: MIT
/* pktbench merge: many senders' result sets summed into one table (merge.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fleet.h"
#include "jsondup.h"
#include "latency.h"
#include "merge.h"
#include "pb_lat.h"

/* ---- reading one row ------------------------------------------------------------------------ */

struct merge_ctx {
	const char *name; /* the file, for messages */
	unsigned int file_idx;
	unsigned int idx; /* the row */
	const char *method;
	char *err;
	size_t errlen;
};

/* The largest count or sum the JSON carries: its integers are signed 64-bit. */
#define MERGE_COUNT_MAX ((uint64_t)INT64_MAX)

static int merge_badf(struct merge_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int merge_badf(struct merge_ctx *c, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s: results[%u]%s%s%s: %s", c->name, c->idx,
		 c->method ? " (" : "", c->method ? c->method : "", c->method ? ")" : "", what);
	return -EINVAL;
}

static int merge_bad(struct merge_ctx *c, const char *key, const char *what)
{
	snprintf(c->err, c->errlen, "%s: results[%u]%s%s%s: %s %s", c->name, c->idx,
		 c->method ? " (" : "", c->method ? c->method : "", c->method ? ")" : "", key,
		 what);
	return -EINVAL;
}

/* A number field, 0..max: absent or null leaves *v and answers 0 with *have false. */
static int merge_num_max(struct merge_ctx *c, struct json_object *o, const char *key, double *v,
			 bool *have, double max)
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
	if (*v > max)
		return merge_badf(c, "%s %g is above %g: no sender sends that", key, *v, max);
	*have = true;
	return 0;
}

static int merge_num(struct merge_ctx *c, struct json_object *o, const char *key, double *v,
		     bool *have)
{
	return merge_num_max(c, o, key, v, have, INFINITY);
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
	/* json-c saturates a larger number at INT64_MAX: it cannot be told from one beyond it */
	if (i == INT64_MAX)
		return merge_badf(c, "%s %s is 2^63-1 or more: no count is that large", key,
				  json_object_to_json_string(x));
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
		if ((uint64_t)cnt > MERGE_COUNT_MAX - *total ||
		    (uint64_t)cnt > MERGE_COUNT_MAX - counts[b])
			return merge_bad(c, "latency.histogram", "sums beyond 2^63-1");
		counts[b] += (uint64_t)cnt;
		*total += (uint64_t)cnt;
	}
	return 0;
}

/* *acc += v, refused when the sum passes what the JSON's integers hold. */
static int merge_sum(struct merge_ctx *c, const char *key, uint64_t *acc, uint64_t v)
{
	if (v > MERGE_COUNT_MAX - *acc)
		return merge_badf(
			c, "%s: the sum over the files passes 2^63-1 (%" PRIu64 " + %" PRIu64 ")",
			key, *acc, v);
	*acc += v;
	return 0;
}

static struct pb_merge_row *merge_row_of(struct pb_merge_result *res, const char *test_id,
					 const char *method, const char *point,
					 uint64_t frame_bytes)
{
	struct pb_merge_row *r;
	unsigned int i;

	for (i = 0; i < res->n; i++) {
		r = &res->rows[i];
		if (!strcmp(r->test_id, test_id) && !strcmp(r->method, method) &&
		    !strcmp(r->point, point) && r->frame_bytes == frame_bytes)
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
	snprintf(r->point, sizeof(r->point), "%s", point);
	r->frame_bytes = frame_bytes;
	r->delivered_known = true;
	r->target_known = true;
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
	if (h1 && h2 && recv > sent)
		return merge_badf(c,
				  "latency.probes_received %" PRIu64
				  " is above probes_sent %" PRIu64
				  ": a receiver counts no more probes than were sent",
				  recv, sent);
	err = merge_sum(c, "latency.probes_sent", &m->probes_sent, sent);
	err = err ?: merge_sum(c, "latency.probes_received", &m->probes_received, recv);
	err = err ?: merge_sum(c, "latency.lost", &m->probes_lost, lost);
	if (err)
		return err;
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
	if (total > MERGE_COUNT_MAX - m->samples)
		return merge_bad(c, "latency.histogram", "sums beyond 2^63-1 over the files");
	if (!m->lat_known || mn < m->min_us)
		m->min_us = mn;
	if (!m->lat_known || mx > m->max_us)
		m->max_us = mx;
	m->lat_known = true;
	m->samples += total;
	return 0;
}

/* "(none)" for a row without a test id, in messages */
static const char *merge_test_name(const char *test_id)
{
	return test_id[0] ? test_id : "(none)";
}

/* Two windows within PB_MERGE_DURATION_PCT % of the longer, or PB_MERGE_DURATION_MIN_S. */
static bool merge_same_window(double a, double b)
{
	double hi = fmax(a, b);

	return hi - fmin(a, b) <= fmax(hi * PB_MERGE_DURATION_PCT / 100, PB_MERGE_DURATION_MIN_S);
}

/*
 * The checks that make the rows one test: one test id over the files, each row once per file,
 * each run and each shard once, every shard of the same count. Then the row joins m.
 */
static int merge_member(struct merge_ctx *c, struct pb_merge_row *m,
			const struct pb_merge_member *n)
{
	struct pb_merge_member *p;
	unsigned int i;

	for (i = 0; i < m->nmem; i++) {
		p = &m->mem[i];
		if (p->file_idx == n->file_idx)
			return merge_badf(c,
					  "repeats results[%u]'s method, frame size and point: a "
					  "sender's file holds each row once",
					  p->row);
		if (p->has_shard != n->has_shard) {
			if (n->has_shard)
				return merge_badf(c,
						  "is shard %u/%u, but %s's row has no shard: not "
						  "one test",
						  n->shard_index, n->shard_count, p->file);
			return merge_badf(c,
					  "has no shard, but %s's row is shard %u/%u: not one test",
					  p->file, p->shard_index, p->shard_count);
		}
		if (n->has_shard && p->shard_count != n->shard_count)
			return merge_badf(c,
					  "shard %u/%u is of %u shards, but %s's (%u/%u) is of %u "
					  "shards: not one test",
					  n->shard_index, n->shard_count, n->shard_count, p->file,
					  p->shard_index, p->shard_count, p->shard_count);
		if (n->has_shard && p->shard_index == n->shard_index)
			return merge_badf(c, "shard %u/%u is already in %s: a shard counts once",
					  n->shard_index, n->shard_count, p->file);
		if (n->run_id && p->run_id == n->run_id)
			return merge_badf(c, "run %" PRIu64 " is already in %s: a run counts once",
					  n->run_id, p->file);
		if (n->ok && p->ok && !merge_same_window(p->duration_s, n->duration_s))
			return merge_badf(c,
					  "duration_s %g s, but %s's %g s: windows more than %g %% "
					  "(%g s at least) apart are not one test's, their rates "
					  "do not add up",
					  n->duration_s, p->file, p->duration_s,
					  PB_MERGE_DURATION_PCT, PB_MERGE_DURATION_MIN_S);
	}
	p = realloc(m->mem, sizeof(*p) * (m->nmem + 1));
	if (!p) {
		snprintf(c->err, c->errlen, "out of memory");
		return -ENOMEM;
	}
	m->mem = p;
	m->mem[m->nmem++] = *n;
	return 0;
}

static int merge_one_row(struct pb_merge_result *res, struct merge_ctx *c, struct json_object *row)
{
	char method[PB_MERGE_KEY_LEN], test_id[PB_MERGE_KEY_LEN], status[32];
	char point[PB_MERGE_KEY_LEN], shard[32];
	struct pb_merge_member n = { .file_idx = c->file_idx, .row = c->idx };
	uint64_t fb = 0, sent = 0, deliv = 0, bytes;
	double pps = 0, app = 0, wire = 0, target = 0, skew = 0, dur = 0;
	bool h_fb, h_sent, h_deliv, h_pps, h_app, h_wire, h_target, h_run, h_skew = false, h_dur;
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
	err = err ?: merge_str(c, row, "point", point, sizeof(point), false);
	err = err ?: merge_str(c, row, "shard", shard, sizeof(shard), false);
	err = err ?: merge_count(c, row, "frame_bytes", &fb, &h_fb);
	err = err ?: merge_count(c, row, "run_id", &n.run_id, &h_run);
	if (err)
		return err;
	if (shard[0]) {
		if (pb_parse_shard(shard, &n.shard_index, &n.shard_count))
			return merge_badf(c, "shard \"%s\" is not I/N with 0 <= I < N <= %u", shard,
					  PB_SHARD_MAX);
		n.has_shard = true;
	}
	if (!res->have_test) {
		res->have_test = true;
		snprintf(res->test_id, sizeof(res->test_id), "%s", test_id);
		snprintf(res->test_file, sizeof(res->test_file), "%s", c->name);
	} else if (strcmp(res->test_id, test_id)) {
		return merge_badf(c, "test %s, but %s is test %s: merge one test's files at a time",
				  merge_test_name(test_id), res->test_file,
				  merge_test_name(res->test_id));
	}
	m = merge_row_of(res, test_id, method, point, fb);
	if (!m) {
		snprintf(c->err, c->errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(n.file, sizeof(n.file), "%s", c->name);
	n.ok = !strcmp(status, "ok");
	if (n.ok) {
		err = merge_num_max(c, row, "pps", &pps, &h_pps, PB_MERGE_PPS_MAX);
		err = err
			      ?: merge_num_max(c, row, "target_pps", &target, &h_target,
					       PB_MERGE_PPS_MAX);
		/* 10 Pb/s: a thousand 10 Tb/s links, beyond any one sender */
		err = err ?: merge_num_max(c, row, "app_mbps", &app, &h_app, 1e10);
		err = err ?: merge_num_max(c, row, "wire_gbps", &wire, &h_wire, 1e7);
		/* a day: no --start-at wait is longer */
		err = err ?: merge_num_max(c, row, "start_skew_us", &skew, &h_skew, 86400e6);
		err = err ?: merge_num(c, row, "duration_s", &dur, &h_dur);
		err = err ?: merge_count(c, row, "frames_sent", &sent, &h_sent);
		err = err ?: merge_count(c, row, "frames_delivered", &deliv, &h_deliv);
		if (err)
			return err;
		/* what is summed must be there: pktbench writes them in every ok row */
		if (!h_pps)
			return merge_bad(c, "pps", "is missing in an ok row");
		if (!h_sent)
			return merge_bad(c, "frames_sent", "is missing in an ok row");
		if (!h_dur)
			return merge_bad(c, "duration_s", "is missing in an ok row");
		if (!(dur > 0))
			return merge_badf(c, "duration_s %g is not a window: an ok row ran", dur);
		if (h_sent && h_deliv && deliv > sent)
			return merge_badf(c,
					  "frames_delivered %" PRIu64
					  " is above frames_sent %" PRIu64
					  ": a receiver counts no more than was sent",
					  deliv, sent);
		n.pps = pps;
		n.target_pps = h_target ? target : 0;
		n.duration_s = dur;
	}
	err = merge_member(c, m, &n);
	if (err)
		return err;
	m->senders++;
	if (!n.ok) {
		m->not_ok++;
		return 0;
	}
	if (__builtin_mul_overflow(sent, fb, &bytes) || bytes > MERGE_COUNT_MAX)
		return merge_badf(c,
				  "frames_sent %" PRIu64 " of %" PRIu64 " bytes pass 2^63-1 bytes",
				  sent, fb);
	err = merge_sum(c, "frames_sent", &m->frames_sent, sent);
	err = err ?: merge_sum(c, "bytes_sent", &m->bytes_sent, bytes);
	if (!err && h_deliv)
		err = merge_sum(c, "frames_delivered", &m->frames_delivered, deliv);
	if (err)
		return err;
	m->pps += pps;
	m->app_mbps += app;
	m->wire_gbps += wire;
	if (h_skew && (!m->skew_known || skew > m->worst_skew_us)) {
		m->skew_known = true;
		m->worst_skew_us = skew;
	}
	if (h_target && target > 0)
		m->target_pps += target;
	else
		m->target_known = false;
	if (!h_deliv) {
		m->delivered_known = false;
	} else {
		double pct = sent ? 100.0 * (double)deliv / (double)sent : 100.0;

		if (pct < m->worst_delivered_pct)
			m->worst_delivered_pct = pct;
	}
	return merge_latency(c, row, m);
}

/* FNV-1a: the same text twice is the same file twice */
static uint64_t merge_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

void pb_merge_one_line(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < 0x20 || *err == 0x7f)
			*err = '?';
}

static int merge_add_json(struct pb_merge_result *res, const char *text, const char *name,
			  char *err, size_t errlen)
{
	struct merge_ctx c = { .name = name, .file_idx = res->files, .err = err, .errlen = errlen };
	struct json_tokener *tok;
	struct json_object *root = NULL, *rows;
	struct pb_merge_file *file;
	uint64_t hash = merge_hash(text);
	char key[48];
	size_t i, n, at;
	int ret = 0, dup;

	for (i = 0; i < res->files; i++)
		if (res->file[i].hash == hash) {
			snprintf(err, errlen,
				 "%s: the same result set as %s: each sender's file counts once",
				 name, res->file[i].name);
			return -EINVAL;
		}
	file = realloc(res->file, sizeof(*file) * (res->files + 1));
	if (!file) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	res->file = file;

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
	dup = pb_json_dup_key(text, strlen(text), key, sizeof(key), &at);
	if (dup) {
		if (dup < 0)
			snprintf(err, errlen, "out of memory");
		else
			snprintf(err, errlen,
				 "%s: \"%s\" twice in one object (byte %zu): which value counts "
				 "is not said; write each key once",
				 name, key, at);
		ret = dup < 0 ? dup : -EINVAL;
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
	snprintf(res->file[res->files].name, sizeof(res->file[0].name), "%s", name);
	res->file[res->files].hash = hash;
	res->files++;
out:
	json_object_put(root);
	json_tokener_free(tok);
	return ret;
}

bool pb_merge_has_shard(const struct pb_merge_row *m, uint32_t index)
{
	unsigned int i;

	for (i = 0; i < m->nmem; i++)
		if (m->mem[i].has_shard && m->mem[i].shard_index == index)
			return true;
	return false;
}

size_t pb_merge_missing(const struct pb_merge_row *m, char *buf, size_t size)
{
	unsigned int shown = 0, more = 0;
	size_t len = 0;
	uint32_t k;

	buf[0] = '\0';
	for (k = 0; k < m->shards_total; k++) {
		if (pb_merge_has_shard(m, k))
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%u/%u",
					shown ? ", " : "", k, m->shards_total);
		shown++;
	}
	if (more)
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, " and %u more",
					more);
	return len;
}

bool pb_merge_behind(const struct pb_merge_member *p)
{
	return p->ok && p->target_pps > 0 && p->pps < PB_MERGE_BEHIND * p->target_pps;
}

int pb_merge_add_json(struct pb_merge_result *res, const char *text, const char *name, char *err,
		      size_t errlen)
{
	int ret = merge_add_json(res, text, name, err, errlen);

	if (ret)
		pb_merge_one_line(err);
	return ret;
}

static int merge_finish(struct pb_merge_result *res, bool partial, char *err, size_t errlen)
{
	unsigned int i, k;

	for (i = 0; i < res->n; i++) {
		struct pb_merge_row *m = &res->rows[i];
		uint64_t lo, hi;

		m->shards_total = m->nmem && m->mem[0].has_shard ? m->mem[0].shard_count : 0;
		m->shards_merged = m->shards_total ? m->nmem : 0;
		m->behind = 0;
		for (k = 0; k < m->nmem; k++)
			m->behind += pb_merge_behind(&m->mem[k]);
		if (m->senders == m->not_ok)
			m->target_known = false;
		if (m->shards_merged < m->shards_total) {
			char miss[96];

			pb_merge_missing(m, miss, sizeof(miss));
			if (!partial) {
				snprintf(
					err, errlen,
					"test %s, %s %" PRIu64 " B%s%s: shard%s %s missing (%u of "
					"%u shards merged): merge every shard's file, or --partial",
					merge_test_name(m->test_id), m->method, m->frame_bytes,
					m->point[0] ? " " : "", m->point,
					m->shards_total - m->shards_merged > 1 ? "s" : "", miss,
					m->shards_merged, m->shards_total);
				return -EINVAL;
			}
			m->partial = true;
			res->partial = true;
		}

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
	return 0;
}

void pb_merge_result_free(struct pb_merge_result *res)
{
	unsigned int i;

	for (i = 0; i < res->n; i++) {
		free(res->rows[i].hist);
		free(res->rows[i].mem);
	}
	free(res->rows);
	free(res->file);
	memset(res, 0, sizeof(*res));
}

int pb_merge_finish(struct pb_merge_result *res, bool partial, char *err, size_t errlen)
{
	int ret = merge_finish(res, partial, err, errlen);

	if (ret)
		pb_merge_one_line(err);
	return ret;
}
