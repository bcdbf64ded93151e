// SPDX-License-Identifier: MIT
/* The receive agent's API as data: routes, JSON answers and their parsers, metrics text. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <json-c/json.h>

#include "api.h"
#include "fleet.h"
#include "options.h"
#include "pb_bpf.h"
#include "pb_lat.h"

/* ---- routes -------------------------------------------------------------------------------- */

/*
 * A number as the JSON writes it (a run id, a port): decimal, no sign, no leading zero, at
 * most max (< 10^10), up to the string's end or (with rest) a '/', where *rest is left
 * pointing.
 */
static int api_parse_dec(const char *s, uint64_t max, uint64_t *out, const char **rest)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; s[i] && !(rest && s[i] == '/'); i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 10 || (i == 1 && s[0] == '0'))
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (!i || v > max)
		return -EINVAL;
	*out = v;
	if (rest)
		*rest = s + i;
	return 0;
}

/*
 * What is not there is 404 for any method (RFC 9110 15.5.5: 405 is for a resource that exists);
 * 400 only for the run id's own place holding something that is not a run id.
 */
/* What follows prefix in s, or NULL when s does not start with it. */
static const char *api_after(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return NULL;
	return s;
}

enum pb_api_route pb_api_route(const char *method, const char *path, uint32_t *run_id)
{
	static const char runs[] = "/v1/runs/", tests[] = "/v1/tests/";
	enum pb_api_route r;
	const char *rest;
	uint64_t id;
	size_t n;

	if (!strcmp(path, "/v1/info")) {
		r = PB_API_INFO;
	} else if (!strcmp(path, "/metrics")) {
		r = PB_API_METRICS;
	} else if ((rest = api_after(path, tests))) {
		char uuid[40];

		/* a well-formed id with more after it is no such resource, not a bad id */
		if (strchr(rest, '/'))
			return PB_API_NOT_FOUND;
		r = pb_api_test_id(path, uuid) ? PB_API_BAD_TEST_ID : PB_API_TEST;
	} else if (strncmp(path, runs, sizeof(runs) - 1)) {
		return PB_API_NOT_FOUND;
	} else {
		path += sizeof(runs) - 1;
		n = strcspn(path, "/");
		rest = path + n;
		if (*rest && strcmp(rest, "/hist/lat") && strcmp(rest, "/hist/gap"))
			return PB_API_NOT_FOUND;
		if (api_parse_dec(path, UINT32_MAX, &id, &rest) || (size_t)(rest - path) != n)
			return PB_API_BAD_REQUEST;
		r = !*rest			 ? PB_API_RUN
		    : !strcmp(rest, "/hist/lat") ? PB_API_HIST_LAT
						 : PB_API_HIST_GAP;
		*run_id = (uint32_t)id;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return PB_API_BAD_METHOD;
	return r;
}

#define PB_API_STR_(x) #x
#define PB_API_STR(x)  PB_API_STR_(x)

unsigned int pb_api_status(enum pb_api_route r, const char **msg)
{
	switch (r) {
	case PB_API_BAD_METHOD:
		*msg = "only GET and HEAD: the API is read-only";
		return 405;
	case PB_API_BAD_REQUEST:
		*msg = "a run id is a decimal number from 0 to 4294967295";
		return 400;
	case PB_API_BAD_TEST_ID:
		*msg = "a test id is a UUID, 8-4-4-4-12 hex digits (--test-id)";
		return 400;
	case PB_API_MALFORMED:
		*msg = "a malformed request: a bad escape or a NUL in the path, or not exactly one "
		       "Host header in HTTP/1.1";
		return 400;
	case PB_API_TOO_LONG:
		*msg = "the request target is too long: at most " PB_API_STR(
			PB_API_MAX_TARGET) " bytes and " PB_API_STR(PB_API_MAX_PARAMS) " query "
										       "parameters "
										       "(none are "
										       "used)";
		return 414;
	case PB_API_HEADERS_TOO_LARGE:
		*msg = "the request's header fields are too large";
		return 431;
	case PB_API_NOT_ACCEPTABLE:
		*msg = "/metrics is text/plain (Prometheus 0.0.4) or application/openmetrics-text; "
		       "the Accept header takes neither";
		return 406;
	case PB_API_NOT_FOUND:
		*msg = "no such path; there are /v1/info, /v1/runs/RUN_ID, "
		       "/v1/runs/RUN_ID/hist/lat|gap, /v1/tests/UUID and /metrics";
		return 404;
	case PB_API_TEST:
	case PB_API_INFO:
	case PB_API_RUN:
	case PB_API_HIST_LAT:
	case PB_API_HIST_GAP:
	case PB_API_METRICS:
		break;
	}
	*msg = "";
	return 200;
}

/* ---- addresses ----------------------------------------------------------------------------- */

/* A port: decimal, 1 .. 65535, nothing after it. */
static int api_parse_port(const char *s, uint16_t *out)
{
	uint64_t v;

	if (api_parse_dec(s, 65535, &v, NULL) || !v)
		return -EINVAL;
	*out = (uint16_t)v;
	return 0;
}

int pb_api_parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
	char host[INET6_ADDRSTRLEN + 2];
	const char *colon, *port;
	uint16_t p;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		colon = strstr(s, "]:");
		if (!colon || (size_t)(colon - s - 1) >= sizeof(host))
			return -EINVAL;
		snprintf(host, sizeof(host), "%.*s", (int)(colon - s - 1), s + 1);
		port = colon + 2;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon || (size_t)(colon - s) >= sizeof(host))
			return -EINVAL;
		snprintf(host, sizeof(host), "%.*s", (int)(colon - s), s);
		port = colon + 1;
	}
	if (api_parse_port(port, &p))
		return -EINVAL;
	if (s[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
			return -EINVAL;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons(p);
		*len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
			return -EINVAL;
		a->sin_family = AF_INET;
		a->sin_port = htons(p);
		*len = sizeof(*a);
	}
	return 0;
}

static bool api_host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-';
}

int pb_api_check_url(const char *url, char *base, size_t baselen, char *err, size_t errlen)
{
	static const char scheme[] = "http://";
	const char *host = url + sizeof(scheme) - 1, *end, *rest;
	char buf[INET6_ADDRSTRLEN];
	struct in6_addr a6;
	size_t n = strlen(url);
	uint16_t port;

	if (!strncmp(url, "https://", 8)) {
		snprintf(err, errlen,
			 "--receiver: '%s': no https: the agent's API is plain HTTP on the test "
			 "network "
			 "(read-only, nothing secret)",
			 url);
		return -EINVAL;
	}
	if (strncmp(url, scheme, sizeof(scheme) - 1) || n >= baselen)
		goto bad;
	end = url + n - (n > sizeof(scheme) - 1 && url[n - 1] == '/');
	if (*host == '[') {
		const char *rb = memchr(host, ']', (size_t)(end - host));

		if (!rb || (size_t)(rb - host - 1) >= sizeof(buf))
			goto bad;
		snprintf(buf, sizeof(buf), "%.*s", (int)(rb - host - 1), host + 1);
		if (inet_pton(AF_INET6, buf, &a6) != 1)
			goto bad;
		rest = rb + 1;
	} else {
		for (rest = host; rest < end && api_host_char(*rest); rest++)
			;
		if (rest == host)
			goto bad;
	}
	if (rest < end) {
		if (*rest != ':' || (size_t)(end - rest - 1) >= sizeof(buf))
			goto bad;
		snprintf(buf, sizeof(buf), "%.*s", (int)(end - rest - 1), rest + 1);
		if (api_parse_port(buf, &port))
			goto bad;
	}
	snprintf(base, baselen, "%.*s", (int)(end - url), url);
	return 0;
bad:
	snprintf(err, errlen,
		 "--receiver: '%s' is not http://HOST[:PORT] (no user, path or query; at most %zu "
		 "characters)",
		 url, baselen - 1);
	return -EINVAL;
}

/* ---- JSON answers -------------------------------------------------------------------------- */

static void api_mac_str(const uint8_t mac[6], char buf[18])
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5]);
}

/* The object's text, malloc'd; NULL when building it ran out of memory (!ok). Takes o. */
static char *api_finish(struct json_object *o, bool ok)
{
	const char *s =
		ok && o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								    JSON_C_TO_STRING_NOSLASHESCAPE)
			: NULL;
	char *out = s ? strdup(s) : NULL;

	json_object_put(o);
	return out;
}

/* Adds key: v; false when out of memory (json-c frees what it could not add). */
static bool api_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v)
		return false;
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return false;
	}
	return true;
}

/* api_add() when all went well so far; either way v is taken (freed when not added). */
static bool api_add_then(bool ok, struct json_object *o, const char *key, struct json_object *v)
{
	if (ok)
		return api_add(o, key, v);
	json_object_put(v);
	return false;
}

static bool api_add_u64(struct json_object *o, const char *key, uint64_t v)
{
	return api_add(o, key, json_object_new_uint64(v));
}

static bool api_add_str(struct json_object *o, const char *key, const char *s)
{
	return api_add(o, key, json_object_new_string(s));
}

static bool api_push(struct json_object *a, struct json_object *v)
{
	if (!v)
		return false;
	if (json_object_array_add(a, v)) {
		json_object_put(v);
		return false;
	}
	return true;
}

/*
 * The counters that go into an answer as they are, as one table for the agent's writer and
 * the sender's parser: a key of "interface" (struct pb_rx_ifstats, all 64-bit), of each
 * stream after "stream" and "probe_kind" (struct pb_rx_stream), and /v1/info's runs table
 * (struct pb_api_info), in the answer's order.
 */
struct api_field {
	const char *key;
	size_t off;
	bool u32; /* a uint32_t; else a uint64_t */
};

/* A field's key and offset: the key is the field's name. */
#define API_IF(f) #f, offsetof(struct pb_rx_ifstats, f)
#define API_ST(f) #f, offsetof(struct pb_rx_stream, f)
#define API_TB(f) #f, offsetof(struct pb_api_info, f)

static const struct api_field api_ifstats_fields[] = {
	{ API_IF(rx_packets) },	    { API_IF(rx_dropped) },   { API_IF(rx_missed_errors) },
	{ API_IF(rx_fifo_errors) }, { API_IF(driver_drops) }, { API_IF(foreign_frames) },
};

static const struct api_field api_stream_fields[] = {
	{ API_ST(probes) },	{ API_ST(late) },	    { API_ST(dup) },
	{ API_ST(missing) },	{ API_ST(next_seq), true }, { API_ST(lat_n) },
	{ API_ST(lat_min_ns) }, { API_ST(lat_max_ns) },	    { API_ST(lat_sum_ns) },
	{ API_ST(lat_bad) },	{ API_ST(jitter_ns) },	    { API_ST(jitter_n) },
	{ API_ST(gap_frames) }, { API_ST(gap_first_ns) },   { API_ST(gap_last_ns) },
};

static const struct api_field api_table_fields[] = {
	{ API_TB(runs_capacity), true }, { API_TB(runs_held), true },
	{ API_TB(runs_kept), true },	 { API_TB(runs_kept_capacity), true },
	{ API_TB(runs_evicted) },
};

static uint64_t api_field_get(const void *s, const struct api_field *f)
{
	const char *p = (const char *)s + f->off;

	return f->u32 ? *(const uint32_t *)(const void *)p : *(const uint64_t *)(const void *)p;
}

/* Adds the fields of s (n of them) to o. */
static bool api_add_fields(struct json_object *o, const void *s, const struct api_field *f,
			   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!api_add_u64(o, f[i].key, api_field_get(s, &f[i])))
			return false;
	return true;
}

char *pb_api_info_json(const struct pb_api_info *in)
{
	struct json_object *o = json_object_new_object(), *addrs = json_object_new_array();
	char mac[18], a[INET6_ADDRSTRLEN];
	bool ok = o && addrs;
	uint32_t i;

	api_mac_str(in->mac, mac);
	for (i = 0; ok && i < in->naddrs && i < PB_API_MAX_ADDRS; i++) {
		const struct pb_addr *ad = &in->addrs[i];

		ok = inet_ntop(ad->family,
			       ad->family == AF_INET ? (const void *)&ad->v4
						     : (const void *)&ad->v6,
			       a, sizeof(a)) &&
		     api_push(addrs, json_object_new_string(a));
	}
	ok = ok && api_add_u64(o, "api", in->api) && api_add_str(o, "version", in->version) &&
	     api_add_str(o, "interface", in->ifname) &&
	     api_add(o, "ifindex", json_object_new_int(in->ifindex)) &&
	     api_add_str(o, "driver", in->driver) && api_add_str(o, "mac", mac) &&
	     api_add_u64(o, "mtu", in->mtu) && api_add_u64(o, "rx_queues", in->rx_queues) &&
	     api_add_str(o, "xdp_mode", in->xdp_mode) &&
	     api_add(o, "xdp_frags", json_object_new_boolean(in->xdp_frags));
	ok = api_add_then(ok, o, "addresses", addrs);
	snprintf(a, sizeof(a), "%.3f", in->uptime_s);
	ok = ok && api_add_str(o, "clock", "monotonic") && api_add_u64(o, "now_ns", in->now_ns) &&
	     api_add(o, "uptime_s", json_object_new_double_s(in->uptime_s, a)) &&
	     api_add_u64(o, "instance", in->instance);
	ok = ok && api_add_fields(o, in, api_table_fields,
				  sizeof(api_table_fields) / sizeof(api_table_fields[0]));
	return api_finish(o, ok);
}

static struct json_object *api_ifstats_json(const struct pb_rx_ifstats *s)
{
	struct json_object *o = json_object_new_object();

	if (o && api_add_fields(o, s, api_ifstats_fields,
				sizeof(api_ifstats_fields) / sizeof(api_ifstats_fields[0])))
		return o;
	json_object_put(o);
	return NULL;
}

/* One stream's probes and paced frames (struct pb_rx_stream), field for field. */
static struct json_object *api_stream_json(const struct pb_rx_stream *s)
{
	struct json_object *o = json_object_new_object();
	char kind[2] = { (char)s->probe_kind, 0 };

	if (o && api_add_u64(o, "stream", s->stream) &&
	    (s->probe_kind ? api_add_str(o, "probe_kind", kind)
			   : !json_object_object_add(o, "probe_kind", NULL)) &&
	    api_add_fields(o, s, api_stream_fields,
			   sizeof(api_stream_fields) / sizeof(api_stream_fields[0])) &&
	    api_add_u64(o, "stray", s->stray))
		return o;
	json_object_put(o);
	return NULL;
}

/* The run's latency probes and paced frames: "rx_tai" and one object per stream. */
static bool api_add_streams(struct json_object *o, const struct pb_rx_run *r)
{
	struct json_object *a = json_object_new_array();
	uint32_t i, n = r->nstreams < PB_RX_MAX_STREAMS ? r->nstreams : PB_RX_MAX_STREAMS;
	bool ok = a != NULL;

	for (i = 0; ok && i < n; i++)
		ok = api_push(a, api_stream_json(&r->streams[i]));
	ok = ok && api_add(o, "rx_tai", json_object_new_boolean(r->rx_tai));
	return api_add_then(ok, o, "streams", a);
}

char *pb_api_hist_json(uint32_t run_id, enum pb_rx_hist which, const uint64_t *counts)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array(), *p;
	bool ok = o && a;
	uint32_t b;

	for (b = 0; ok && b < PB_RX_HIST_BUCKETS; b++) {
		if (!counts[b])
			continue;
		p = json_object_new_array();
		ok = api_push(a, p) && api_push(p, json_object_new_uint64(pb_hist_upper(b))) &&
		     api_push(p, json_object_new_uint64(counts[b]));
	}
	ok = ok && api_add_u64(o, "run_id", run_id) &&
	     api_add_str(o, "which", which == PB_RX_HIST_GAP ? "gap" : "lat");
	ok = api_add_then(ok, o, "histogram", a);
	return api_finish(o, ok);
}

char *pb_api_run_json(const struct pb_api_run *in)
{
	const struct pb_rx_run *r = &in->run;
	struct json_object *o = json_object_new_object(), *q = json_object_new_array(),
			   *vl = json_object_new_array();
	uint32_t nq = r->nqueues < PB_RX_MAX_QUEUES ? r->nqueues : PB_RX_MAX_QUEUES;
	uint32_t nv = r->nvlans < PB_RX_MAX_VLANS ? r->nvlans : PB_RX_MAX_VLANS, i;
	bool ok = o && q && vl;

	for (i = 0; ok && i < nq; i++)
		ok = api_push(q, json_object_new_uint64(r->queue_frames[i]));
	for (i = 0; ok && i < nv; i++)
		ok = api_push(vl, json_object_new_uint64(r->vlans[i]));
	ok = ok && api_add_u64(o, "run_id", r->run_id) &&
	     api_add(o, "seen", json_object_new_boolean(r->seen)) &&
	     api_add_u64(o, "frames", r->frames) && api_add_u64(o, "bytes", r->bytes) &&
	     api_add_u64(o, "frames_duplicate", r->dup) &&
	     api_add_u64(o, "frames_reordered", r->late) &&
	     api_add_u64(o, "frames_out_of_window", r->stray) &&
	     api_add_u64(o, "frames_unchecked", r->unchecked) &&
	     api_add_u64(o, "frames_corrupt", r->corrupt) &&
	     api_add_u64(o, "frames_not_for_host", r->not_host) && api_add_u64(o, "rx_queues", nq);
	ok = api_add_then(ok, o, "queue_frames", q);
	ok = ok && api_add_u64(o, "flows_seen", r->flows_seen);
	ok = api_add_then(ok, o, "vlans", vl);
	/* no frames: no arrival to tell, rather than a time of 0 */
	ok = ok &&
	     (r->frames ? api_add_u64(o, "first_ns", r->first_ns) &&
				  api_add_u64(o, "last_ns", r->last_ns)
			: !json_object_object_add(o, "first_ns", NULL) &&
				  !json_object_object_add(o, "last_ns", NULL)) &&
	     api_add_u64(o, "now_ns", in->now_ns) && api_add_u64(o, "instance", r->instance) &&
	     api_add(o, "interface", api_ifstats_json(&in->ifs)) && api_add_streams(o, r);
	ok = ok && api_add(o, "kept", json_object_new_boolean(r->kept)) &&
	     api_add(o, "evicted", json_object_new_boolean(r->evicted)) &&
	     api_add_u64(o, "runs_evicted", r->runs_evicted);
	/* the run's label on /metrics: its series, found by whoever knows the run id */
	ok = ok && (!in->label[0] || api_add_str(o, "label", in->label));
	return api_finish(o, ok);
}

/* ---- labels: SHA-256 (FIPS 180-4), for the few bytes a label digests --------------------- */

static const uint32_t api_sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t api_ror(uint32_t x, unsigned int n)
{
	return x >> n | x << (32 - n);
}

static void api_sha_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], v[8], t1, t2;
	unsigned int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] +
		       (api_ror(w[i - 15], 7) ^ api_ror(w[i - 15], 18) ^ w[i - 15] >> 3) +
		       w[i - 7] + (api_ror(w[i - 2], 17) ^ api_ror(w[i - 2], 19) ^ w[i - 2] >> 10);
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (api_ror(v[4], 6) ^ api_ror(v[4], 11) ^ api_ror(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + api_sha_k[i] + w[i];
		t2 = (api_ror(v[0], 2) ^ api_ror(v[0], 13) ^ api_ror(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

void pb_api_sha256(const void *data, size_t len, uint8_t out[32])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	uint64_t bits = (uint64_t)len * 8;
	uint8_t last[128] = { 0 };
	size_t n, i;

	for (; len >= 64; p += 64, len -= 64)
		api_sha_block(h, p);
	/* the rest, a 1 bit, zeros, and the length in bits: one block or two */
	memcpy(last, p, len);
	last[len] = 0x80;
	n = len < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		last[n - 1 - i] = (uint8_t)(bits >> (8 * i));
	api_sha_block(h, last);
	if (n == 128)
		api_sha_block(h, last + 64);
	for (i = 0; i < 32; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

static void api_label_hex(const uint8_t d[32], char out[PB_API_LABEL_LEN])
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

void pb_api_run_label(const uint8_t key[PB_API_KEY_LEN], uint32_t run_id,
		      char out[PB_API_LABEL_LEN])
{
	uint8_t in[PB_API_KEY_LEN + 4], d[32];
	uint32_t be = htonl(run_id);

	/* a secret prefix and an input of fixed length: a keyed function, no extension */
	memcpy(in, key, PB_API_KEY_LEN);
	memcpy(in + PB_API_KEY_LEN, &be, 4);
	pb_api_sha256(in, sizeof(in), d);
	api_label_hex(d, out);
}

void pb_api_test_label(const char *test_id, char out[PB_API_LABEL_LEN])
{
	uint8_t d[32];

	out[0] = '\0';
	if (!test_id[0])
		return;
	pb_api_sha256(test_id, strlen(test_id), d);
	api_label_hex(d, out);
}

int pb_api_test_id(const char *path, char *out)
{
	static const char tests[] = "/v1/tests/";

	if (strncmp(path, tests, sizeof(tests) - 1))
		return -EINVAL;
	return pb_parse_test_id(path + sizeof(tests) - 1, out);
}

void pb_api_run_tag(const struct pb_rx_meta *meta, struct pb_api_run_tag *tag)
{
	static const uint8_t zero[16];
	const uint8_t *u = meta->test;

	memset(tag, 0, sizeof(*tag));
	/* an all-zero UUID: the run announced a shard of no named test */
	if (memcmp(u, zero, sizeof(zero)))
		snprintf(tag->test_id, sizeof(tag->test_id),
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
			 u[12], u[13], u[14], u[15]);
	if (meta->shard_count)
		snprintf(tag->shard, sizeof(tag->shard), "%u/%u", meta->shard_index,
			 meta->shard_count);
}

void pb_api_test_evicted(struct pb_api_test *t, uint32_t run_id)
{
	t->evicted_runs++;
	if (t->nevicted_ids < PB_API_MAX_EVICTED_IDS)
		t->evicted_ids[t->nevicted_ids++] = run_id;
}

/*
 * A shard's first arrival: its runs' earliest. A paced run's streams time each frame's
 * arrival (gap_first_ns, to the ns), which says when a --start-at instant really began at
 * this end; a run without them has only the coarse clock's tick (first_ns).
 */
static void api_test_first(struct pb_api_test_shard *sh, const struct pb_rx_run *r)
{
	uint64_t first = 0;
	bool timed = false;
	uint32_t k;

	for (k = 0; k < r->nstreams && k < PB_RX_MAX_STREAMS; k++)
		if (r->streams[k].gap_frames && (!timed || r->streams[k].gap_first_ns < first)) {
			first = r->streams[k].gap_first_ns;
			timed = true;
		}
	if (!timed)
		first = r->frames ? r->first_ns : 0;
	if (!first || (sh->first_timed && !timed))
		return; /* a tick's time never replaces a frame's own */
	if (!sh->first_ns || first < sh->first_ns || (timed && !sh->first_timed)) {
		sh->first_ns = first;
		sh->first_timed = timed;
	}
}

void pb_api_test_add(struct pb_api_test *t, const struct pb_rx_run *r,
		     const struct pb_api_run_tag *tag)
{
	uint32_t i;

	t->runs++;
	t->frames += r->frames;
	t->bytes += r->bytes;
	for (i = 0; i < t->nshards && strcmp(t->shards[i].shard, tag->shard); i++)
		;
	if (i == t->nshards) {
		if (i == PB_API_MAX_SHARDS)
			return; /* in the sums above, not listed */
		snprintf(t->shards[i].shard, sizeof(t->shards[i].shard), "%s", tag->shard);
		t->nshards++;
	}
	t->shards[i].runs++;
	t->shards[i].frames += r->frames;
	t->shards[i].bytes += r->bytes;
	api_test_first(&t->shards[i], r);
}

char *pb_api_test_json(const struct pb_api_test *t)
{
	struct json_object *o = json_object_new_object(), *sh = json_object_new_object(), *ids;
	char label[PB_API_LABEL_LEN];
	bool ok = o && sh, timed = true;
	uint64_t lo = 0, hi = 0;
	uint32_t i, nfirst = 0;

	for (i = 0; ok && i < t->nshards; i++) {
		struct json_object *s = json_object_new_object();

		ok = s && api_add_u64(s, "runs", t->shards[i].runs) &&
		     api_add_u64(s, "frames", t->shards[i].frames) &&
		     api_add_u64(s, "bytes", t->shards[i].bytes);
		ok = ok && (t->shards[i].first_ns
				    ? api_add_u64(s, "first_arrival_ns", t->shards[i].first_ns)
				    : !json_object_object_add(s, "first_arrival_ns", NULL));
		ok = ok && api_add(s, "first_arrival_timed",
				   json_object_new_boolean(t->shards[i].first_timed));
		if (t->shards[i].first_ns) {
			lo = !lo || t->shards[i].first_ns < lo ? t->shards[i].first_ns : lo;
			hi = t->shards[i].first_ns > hi ? t->shards[i].first_ns : hi;
			timed &= t->shards[i].first_timed;
			nfirst++;
		}
		ok = api_add_then(ok, sh, t->shards[i].shard[0] ? t->shards[i].shard : "-", s);
	}
	if (!ok)
		json_object_put(sh);
	sh = ok ? sh : NULL;
	pb_api_test_label(t->test_id, label);
	ok = ok && api_add_str(o, "test_id", t->test_id) && api_add_str(o, "label", label) &&
	     api_add_u64(o, "runs", t->runs) && api_add_u64(o, "frames", t->frames) &&
	     api_add_u64(o, "bytes", t->bytes);
	ok = sh ? api_add_then(ok, o, "shards", sh) : false;
	ok = ok && api_add_u64(o, "evicted_runs", t->evicted_runs);
	ids = ok ? json_object_new_array() : NULL;
	for (i = 0; ids && ok && i < t->nevicted_ids && i < PB_API_MAX_EVICTED_IDS; i++)
		ok = api_push(ids, json_object_new_uint64(t->evicted_ids[i]));
	ok = ids ? api_add_then(ok, o, "evicted_run_ids", ids) : false;
	ok = ok && api_add_u64(o, "now_ns", t->now_ns) &&
	     api_add_u64(o, "realtime_ns", t->realtime_ns);
	/* how far apart the shards' first frames arrived, on this one clock */
	ok = ok && (nfirst > 1 ? api_add(o, "arrival_spread_us",
					 json_object_new_double((double)(hi - lo) / 1e3))
			       : !json_object_object_add(o, "arrival_spread_us", NULL));
	ok = ok && api_add(o, "arrival_timed", json_object_new_boolean(nfirst > 1 && timed));
	return api_finish(o, ok);
}

char *pb_api_error_json(const char *msg)
{
	struct json_object *o = json_object_new_object();

	return api_finish(o, o && api_add_str(o, "error", msg));
}

/* ---- parsing answers (the sender) ---------------------------------------------------------- */

struct api_in {
	struct json_object *root;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int api_bad(struct api_in *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->err, in->errlen, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

static int api_open(struct api_in *in, const char *text, size_t len)
{
	struct json_tokener *tok;
	enum json_tokener_error e;

	in->root = NULL;
	if (len > PB_API_MAX_BODY || len > INT32_MAX)
		return api_bad(in, "an answer of %zu bytes: more than an agent sends", len);
	tok = json_tokener_new_ex(16); /* our answers nest 2 deep */
	if (!tok)
		return -ENOMEM;
	in->root = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	/* one object, and nothing after it */
	if (in->root && e == json_tokener_success && json_tokener_get_parse_end(tok) != len) {
		json_object_put(in->root);
		in->root = NULL;
	}
	json_tokener_free(tok);
	if (!in->root || !json_object_is_type(in->root, json_type_object)) {
		json_object_put(in->root);
		in->root = NULL;
		return api_bad(in, "not a JSON object");
	}
	return 0;
}

static int api_u64(struct api_in *in, struct json_object *o, const char *key, uint64_t max,
		   uint64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0 || json_object_get_uint64(v) > max)
		return api_bad(in, "'%s': missing or not a whole number from 0 to %" PRIu64, key,
			       max);
	*out = json_object_get_uint64(v);
	return 0;
}

/* "instance": optional (an agent before it had one says nothing: 0, unknown). */
static int api_instance(struct api_in *in, uint64_t *out)
{
	*out = 0;
	if (!json_object_object_get_ex(in->root, "instance", NULL))
		return 0;
	return api_u64(in, in->root, "instance", PB_API_INSTANCE_MAX, out);
}

static int api_u32(struct api_in *in, struct json_object *o, const char *key, uint32_t *out)
{
	uint64_t v;
	int err = api_u64(in, o, key, UINT32_MAX, &v);

	if (!err)
		*out = (uint32_t)v;
	return err;
}

/* The fields of o (n of them) into s, each a whole number its type holds. */
static int api_fields(struct api_in *in, struct json_object *o, void *s, const struct api_field *f,
		      size_t n)
{
	uint64_t v;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		err = api_u64(in, o, f[i].key, f[i].u32 ? UINT32_MAX : UINT64_MAX, &v);
		if (err)
			return err;
		if (f[i].u32)
			*(uint32_t *)(void *)((char *)s + f[i].off) = (uint32_t)v;
		else
			*(uint64_t *)(void *)((char *)s + f[i].off) = v;
	}
	return 0;
}

static int api_str(struct api_in *in, struct json_object *o, const char *key, char *buf,
		   size_t size)
{
	struct json_object *v;

	/* a NUL inside ("\u0000") would cut the string short: refused with the rest */
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string) ||
	    (size_t)json_object_get_string_len(v) >= size ||
	    strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v))
		return api_bad(in, "'%s': missing, not a string or longer than %zu", key, size - 1);
	memcpy(buf, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
	return 0;
}

/* An array of at most max whole numbers up to vmax. */
static int api_u64s(struct api_in *in, struct json_object *o, const char *key, size_t max,
		    uint64_t vmax, uint64_t *out, uint32_t *n)
{
	struct json_object *a, *v;
	size_t i, len;

	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array) ||
	    (len = json_object_array_length(a)) > max)
		return api_bad(in, "'%s': missing, not an array or more than %zu long", key, max);
	for (i = 0; i < len; i++) {
		v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
		    json_object_get_uint64(v) > vmax)
			return api_bad(in, "'%s'[%zu]: not a whole number from 0 to %" PRIu64, key,
				       i, vmax);
		out[i] = json_object_get_uint64(v);
	}
	*n = (uint32_t)len;
	return 0;
}

int pb_api_parse_info(const char *text, size_t len, struct pb_api_info *out, char *err,
		      size_t errlen)
{
	struct api_in in = { .err = err, .errlen = errlen };
	struct json_object *a, *v;
	char mac[18];
	uint64_t ifindex = 0;
	size_t i, n;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = api_open(&in, text, len);
	if (ret)
		return ret;
	ret = api_u32(&in, in.root, "api", &out->api);
	if (!ret && out->api != PB_API_VERSION)
		ret = api_bad(&in, "API version %u; this pktbench speaks %u", out->api,
			      PB_API_VERSION);
	if (!ret)
		ret = api_str(&in, in.root, "version", out->version, sizeof(out->version));
	if (!ret)
		ret = api_str(&in, in.root, "interface", out->ifname, sizeof(out->ifname));
	if (!ret)
		ret = api_u64(&in, in.root, "ifindex", INT32_MAX, &ifindex);
	out->ifindex = (int)ifindex;
	if (!ret)
		ret = api_str(&in, in.root, "driver", out->driver, sizeof(out->driver));
	if (!ret)
		ret = api_str(&in, in.root, "mac", mac, sizeof(mac));
	if (!ret && pb_parse_mac(mac, out->mac))
		ret = api_bad(&in, "'mac': not a MAC address (aa:bb:cc:dd:ee:ff)");
	if (!ret)
		ret = api_u32(&in, in.root, "mtu", &out->mtu);
	if (!ret)
		ret = api_u32(&in, in.root, "rx_queues", &out->rx_queues);
	if (!ret)
		ret = api_str(&in, in.root, "xdp_mode", out->xdp_mode, sizeof(out->xdp_mode));
	if (!ret && (!json_object_object_get_ex(in.root, "addresses", &a) ||
		     !json_object_is_type(a, json_type_array)))
		ret = api_bad(&in, "'addresses': missing or not an array");
	n = ret ? 0 : json_object_array_length(a);
	for (i = 0; !ret && i < n && out->naddrs < PB_API_MAX_ADDRS; i++) {
		v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_string) ||
		    pb_parse_addr(json_object_get_string(v), &out->addrs[out->naddrs]))
			ret = api_bad(&in, "'addresses'[%zu]: not an IPv4 or IPv6 address", i);
		else
			out->naddrs++;
	}
	if (!ret)
		ret = api_u64(&in, in.root, "now_ns", UINT64_MAX, &out->now_ns);
	if (!ret &&
	    (!json_object_object_get_ex(in.root, "uptime_s", &v) ||
	     !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) ||
	     !(json_object_get_double(v) >= 0 && json_object_get_double(v) < 1e12)))
		ret = api_bad(&in, "'uptime_s': missing or not a number of seconds");
	if (!ret)
		out->uptime_s = json_object_get_double(v);
	if (!ret)
		ret = api_instance(&in, &out->instance);
	/* the runs table: all of it or none (an agent that predates it) */
	if (!ret && json_object_object_get_ex(in.root, "runs_capacity", NULL))
		ret = api_fields(&in, in.root, out, api_table_fields,
				 sizeof(api_table_fields) / sizeof(api_table_fields[0]));
	json_object_put(in.root);
	return ret;
}

/* Element i of array a as a whole number >= 0; -EINVAL when it is not one. */
static int api_elem_u64(struct json_object *a, size_t i, uint64_t *out)
{
	struct json_object *v = json_object_array_get_idx(a, i);

	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return -EINVAL;
	*out = json_object_get_uint64(v);
	return 0;
}

/*
 * "rx_tai" and "streams" of a run answer (struct pb_rx_stream each). An agent that predates
 * them sends neither: no streams then; one without the other is a bad answer.
 */
static int api_streams(struct api_in *in, struct pb_rx_run *r)
{
	struct json_object *a, *t, *o, *k;
	bool have_a = json_object_object_get_ex(in->root, "streams", &a);
	bool have_t = json_object_object_get_ex(in->root, "rx_tai", &t);
	uint64_t id = 0;
	size_t i, n;
	int ret;

	if (!have_a && !have_t)
		return 0;
	if (!have_t || !json_object_is_type(t, json_type_boolean))
		return api_bad(in, "'rx_tai': missing or not true or false");
	r->rx_tai = json_object_get_boolean(t);
	if (!have_a || !json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) > PB_RX_MAX_STREAMS)
		return api_bad(in, "'streams': missing, not an array or more than %d long",
			       PB_RX_MAX_STREAMS);
	for (i = 0; i < n; i++) {
		struct pb_rx_stream *s = &r->streams[i];
		const char *kind;

		o = json_object_array_get_idx(a, i);
		if (!json_object_is_type(o, json_type_object))
			return api_bad(in, "'streams'[%zu]: not an object", i);
		ret = api_u64(in, o, "stream", PB_RX_MAX_STREAMS - 1, &id);
		if (!ret)
			ret = api_fields(in, o, s, api_stream_fields,
					 sizeof(api_stream_fields) / sizeof(api_stream_fields[0]));
		/* optional: an agent from before it counted none */
		if (!ret && json_object_object_get_ex(o, "stray", NULL))
			ret = api_u64(in, o, "stray", UINT64_MAX, &s->stray);
		if (ret)
			return ret;
		if (!json_object_object_get_ex(o, "probe_kind", &k))
			return api_bad(in, "'streams'[%zu]: 'probe_kind' missing", i);
		kind = k && json_object_is_type(k, json_type_string) ? json_object_get_string(k)
								     : NULL;
		if (k && (!kind || (strcmp(kind, "P") && strcmp(kind, "T"))))
			return api_bad(
				in, "'streams'[%zu]: 'probe_kind' is not \"P\", \"T\" or null", i);
		/* field by field: the struct was zeroed, padding and all */
		s->stream = (uint32_t)id;
		s->probe_kind = kind ? (uint8_t)kind[0] : 0;
		r->nstreams++;
	}
	return 0;
}

static int api_bool(struct api_in *in, const char *key, bool *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(in->root, key, &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return api_bad(in, "'%s': missing or not true or false", key);
	*out = json_object_get_boolean(v);
	return 0;
}

/*
 * "kept", "evicted" and "runs_evicted" of a run answer: all or none (an agent that predates
 * them: none, the run neither kept nor known to be evicted).
 */
static int api_run_table(struct api_in *in, struct pb_rx_run *r)
{
	int ret;

	if (!json_object_object_get_ex(in->root, "kept", NULL))
		return 0;
	ret = api_bool(in, "kept", &r->kept);
	if (!ret)
		ret = api_bool(in, "evicted", &r->evicted);
	if (!ret)
		ret = api_u64(in, in->root, "runs_evicted", UINT64_MAX, &r->runs_evicted);
	return ret;
}

/* first_ns / last_ns: a time, or null for a run without frames. */
static int api_time(struct api_in *in, const char *key, bool frames, uint64_t *out)
{
	struct json_object *v;

	*out = 0;
	if (!json_object_object_get_ex(in->root, key, &v))
		return api_bad(in, "'%s': missing", key);
	if (!v && !frames)
		return 0;
	return api_u64(in, in->root, key, UINT64_MAX, out);
}

int pb_api_parse_run(const char *text, size_t len, uint32_t run_id, struct pb_api_run *out,
		     char *err, size_t errlen)
{
	struct api_in in = { .err = err, .errlen = errlen };
	struct pb_rx_run *r = &out->run;
	uint64_t vlans[PB_RX_MAX_VLANS];
	struct json_object *v, *ifs;
	uint32_t i, nq;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = api_open(&in, text, len);
	if (ret)
		return ret;
	ret = api_u32(&in, in.root, "run_id", &r->run_id);
	if (!ret && r->run_id != run_id)
		ret = api_bad(&in, "the answer is for run %u, not %u", r->run_id, run_id);
	if (!ret && (!json_object_object_get_ex(in.root, "seen", &v) ||
		     !json_object_is_type(v, json_type_boolean)))
		ret = api_bad(&in, "'seen': missing or not true or false");
	if (!ret)
		r->seen = json_object_get_boolean(v);
	if (!ret)
		ret = api_u64(&in, in.root, "frames", UINT64_MAX, &r->frames);
	if (!ret)
		ret = api_u64(&in, in.root, "bytes", UINT64_MAX, &r->bytes);
	/* required: an agent that does not tell duplicates apart cannot say delivered */
	if (!ret)
		ret = api_u64(&in, in.root, "frames_duplicate", UINT64_MAX, &r->dup);
	if (!ret)
		ret = api_u64(&in, in.root, "frames_reordered", UINT64_MAX, &r->late);
	if (!ret)
		ret = api_u64(&in, in.root, "frames_out_of_window", UINT64_MAX, &r->stray);
	if (!ret)
		ret = api_u64(&in, in.root, "frames_unchecked", UINT64_MAX, &r->unchecked);
	if (!ret)
		ret = api_u64(&in, in.root, "frames_corrupt", UINT64_MAX, &r->corrupt);
	if (!ret)
		ret = api_u64(&in, in.root, "frames_not_for_host", UINT64_MAX, &r->not_host);
	if (!ret)
		ret = api_u32(&in, in.root, "rx_queues", &nq);
	if (!ret)
		ret = api_u64s(&in, in.root, "queue_frames", PB_RX_MAX_QUEUES, UINT64_MAX,
			       r->queue_frames, &r->nqueues);
	if (!ret && nq != r->nqueues)
		ret = api_bad(&in, "'queue_frames': %u of them for %u RX queues", r->nqueues, nq);
	if (!ret)
		ret = api_u32(&in, in.root, "flows_seen", &r->flows_seen);
	if (!ret)
		ret = api_u64s(&in, in.root, "vlans", PB_RX_MAX_VLANS, 4095, vlans, &r->nvlans);
	for (i = 0; !ret && i < r->nvlans; i++)
		r->vlans[i] = (uint16_t)vlans[i];
	if (!ret)
		ret = api_time(&in, "first_ns", r->frames, &r->first_ns);
	if (!ret)
		ret = api_time(&in, "last_ns", r->frames, &r->last_ns);
	if (!r->frames)
		r->first_ns = r->last_ns = 0; /* no frames, no arrival, whatever was written */
	if (!ret)
		ret = api_u64(&in, in.root, "now_ns", UINT64_MAX, &out->now_ns);
	if (!ret && (!json_object_object_get_ex(in.root, "interface", &ifs) ||
		     !json_object_is_type(ifs, json_type_object)))
		ret = api_bad(&in, "'interface': missing or not an object");
	if (!ret)
		ret = api_fields(&in, ifs, &out->ifs, api_ifstats_fields,
				 sizeof(api_ifstats_fields) / sizeof(api_ifstats_fields[0]));
	if (!ret)
		ret = api_streams(&in, r);
	if (!ret)
		ret = api_instance(&in, &r->instance);
	if (!ret)
		ret = api_run_table(&in, r);
	out->ifs.instance = r->instance;
	json_object_put(in.root);
	return ret;
}

int pb_api_parse_hist(const char *text, size_t len, uint32_t run_id, enum pb_rx_hist which,
		      uint64_t *counts, char *err, size_t errlen)
{
	struct api_in in = { .err = err, .errlen = errlen };
	const char *want = which == PB_RX_HIST_GAP ? "gap" : "lat";
	struct json_object *a, *p;
	char got[8];
	uint32_t id;
	size_t i, n;
	int ret;

	memset(counts, 0, sizeof(*counts) * PB_RX_HIST_BUCKETS);
	ret = api_open(&in, text, len);
	if (ret)
		return ret;
	ret = api_u32(&in, in.root, "run_id", &id);
	if (!ret && id != run_id)
		ret = api_bad(&in, "the answer is for run %u, not %u", id, run_id);
	if (!ret)
		ret = api_str(&in, in.root, "which", got, sizeof(got));
	if (!ret && strcmp(got, want))
		ret = api_bad(&in, "'which': not \"%s\", the histogram asked for", want);
	if (!ret && (!json_object_object_get_ex(in.root, "histogram", &a) ||
		     !json_object_is_type(a, json_type_array) ||
		     json_object_array_length(a) > PB_RX_HIST_BUCKETS))
		ret = api_bad(&in, "'histogram': missing, not an array or more than %u long",
			      PB_RX_HIST_BUCKETS);
	n = ret ? 0 : json_object_array_length(a);
	for (i = 0; !ret && i < n; i++) {
		uint64_t upper, count;
		uint32_t b;

		p = json_object_array_get_idx(a, i);
		if (!json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2 ||
		    api_elem_u64(p, 0, &upper) || api_elem_u64(p, 1, &count)) {
			ret = api_bad(&in, "'histogram'[%zu]: not a pair of whole numbers", i);
			break;
		}
		b = pb_hist_bucket(upper);
		if (pb_hist_upper(b) != upper || counts[b]) {
			ret = api_bad(&in,
				      "'histogram'[%zu]: %" PRIu64 " is not the bound of a bucket "
				      "(or one given twice)",
				      i, upper);
			break;
		}
		counts[b] = count;
	}
	json_object_put(in.root);
	if (ret)
		memset(counts, 0, sizeof(*counts) * PB_RX_HIST_BUCKETS);
	return ret;
}

/* ---- metrics text -------------------------------------------------------------------------- */

/* A run's labels on /metrics, digested once a scrape (pb_api_run_label, pb_api_test_label). */
struct api_run_labels {
	char run[PB_API_LABEL_LEN];
	char test[PB_API_LABEL_LEN];
};

struct api_buf {
	char *p;
	size_t len, cap;
	bool oom;
	const struct api_run_labels *labels; /* the metrics' runs', one each */
};

__attribute__((format(printf, 2, 3))) static void api_printf(struct api_buf *b, const char *fmt,
							     ...)
{
	va_list ap;
	char *np;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		if (b->oom)
			return;
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->p && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		np = realloc(b->p, b->cap * 2 + (size_t)n + 1);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = b->cap * 2 + (size_t)n + 1;
	}
}

/* A label value: backslash, double quote and newline escaped, as both formats want. */
static void api_label(struct api_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			api_printf(b, "\\%c", *s);
		else if (*s == '\n')
			api_printf(b, "\\n");
		else
			api_printf(b, "%c", *s);
	}
}

enum api_type {
	API_GAUGE,
	API_COUNTER,   /* samples are NAME_total */
	API_INFO,      /* samples are NAME_info, value 1; a gauge in Prometheus 0.0.4 */
	API_HISTOGRAM, /* samples are NAME_bucket{le=...}, NAME_count, NAME_sum */
};

/*
 * A family's header. OpenMetrics names the family without the suffix its samples carry;
 * Prometheus 0.0.4 names it as its samples.
 */
static void api_family(struct api_buf *b, bool om, const char *name, enum api_type t,
		       const char *help)
{
	static const char *const om_types[] = { "gauge", "counter", "info", "histogram" };
	static const char *const prom_types[] = { "gauge", "counter", "gauge", "histogram" };
	const char *sfx = t == API_COUNTER ? "_total" : t == API_INFO ? "_info" : "";

	if (om)
		api_printf(b, "# TYPE %s %s\n# HELP %s %s\n", name, om_types[t], name, help);
	else
		api_printf(b, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, sfx, help, name, sfx,
			   prom_types[t]);
}

static void api_sample_if(struct api_buf *b, const char *name, const char *ifname, uint64_t v)
{
	api_printf(b, "%s_total{interface=\"", name);
	api_label(b, ifname);
	api_printf(b, "\"} %" PRIu64 "\n", v);
}

static void api_counter_if(struct api_buf *b, bool om, const char *name, const char *help,
			   const char *ifname, uint64_t v)
{
	api_family(b, om, name, API_COUNTER, help);
	api_sample_if(b, name, ifname, v);
}

static uint64_t api_run_frames(const struct pb_rx_run *r)
{
	return r->frames;
}

static uint64_t api_run_bytes(const struct pb_rx_run *r)
{
	return r->bytes;
}

static uint64_t api_run_dup(const struct pb_rx_run *r)
{
	return r->dup;
}

static uint64_t api_run_late(const struct pb_rx_run *r)
{
	return r->late;
}

static uint64_t api_run_stray(const struct pb_rx_run *r)
{
	return r->stray;
}

static uint64_t api_run_unchecked(const struct pb_rx_run *r)
{
	return r->unchecked;
}

static uint64_t api_run_corrupt(const struct pb_rx_run *r)
{
	return r->corrupt;
}

static uint64_t api_run_not_host(const struct pb_rx_run *r)
{
	return r->not_host;
}

static uint64_t api_run_flows(const struct pb_rx_run *r)
{
	return r->flows_seen;
}

/*
 * NAME{run="...",test="...",shard="..." of run i: its label, and its test's and its shard where
 * the run announced them (a few labels a run, never one a flow). Never the run id or the test
 * UUID: those are what a forged frame or announcement would need.
 */
static void api_run_series(struct api_buf *b, const struct pb_api_metrics *m, const char *name,
			   uint32_t i)
{
	const struct pb_api_run_tag *t = m->tags ? &m->tags[i] : NULL;
	const struct api_run_labels *l = &b->labels[i];

	api_printf(b, "%s{run=\"%s\"", name, l->run);
	if (l->test[0])
		api_printf(b, ",test=\"%s\"", l->test);
	if (t && t->shard[0])
		api_printf(b, ",shard=\"%s\"", t->shard);
}

/* One sample of each run, NAME{run="..."} value, for a per-run family. */
static void api_runs(struct api_buf *b, const struct pb_api_metrics *m, const char *name,
		     uint64_t (*get)(const struct pb_rx_run *r))
{
	uint32_t i;

	for (i = 0; i < m->nruns; i++) {
		api_run_series(b, m, name, i);
		api_printf(b, "} %" PRIu64 "\n", get(&m->runs[i]));
	}
}

/* 10 us to 1 s, 1-2.5-5 a decade: where a one-way latency on a LAN or a queue lies */
static const double api_lat_bounds[PB_API_LAT_LE] = {
	10e-6, 25e-6, 50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3,
	5e-3,  10e-3, 25e-3, 50e-3,  100e-3, 250e-3, 500e-3, 1.0,
};

double pb_api_lat_bound(unsigned int i)
{
	return i < PB_API_LAT_LE ? api_lat_bounds[i] : 0;
}

/* A fine bucket goes under the first bound its largest value does not pass. */
void pb_api_lat_fold(const uint64_t *counts, struct pb_api_lat *out)
{
	uint32_t b;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (b = 0; b < PB_RX_HIST_BUCKETS && b < PB_HIST_BUCKETS; b++) {
		if (!counts[b])
			continue;
		for (i = 0; i < PB_API_LAT_LE; i++)
			if ((double)pb_hist_upper(b) <= api_lat_bounds[i] * 1e9)
				out->le[i] += counts[b];
		out->le[PB_API_LAT_LE] += counts[b];
	}
}

/* A run's probes summed over its streams: received, missing, and the latency's sum in ns. */
static void api_run_probes(const struct pb_rx_run *r, uint64_t *probes, uint64_t *missing,
			   uint64_t *lat_sum_ns)
{
	uint32_t s;

	*probes = *missing = *lat_sum_ns = 0;
	for (s = 0; s < r->nstreams && s < PB_RX_MAX_STREAMS; s++) {
		*probes += r->streams[s].probes;
		*missing += r->streams[s].missing;
		*lat_sum_ns += r->streams[s].lat_sum_ns;
	}
}

/*
 * The probes of the runs that sent any (--latency): how many arrived and how many the
 * sequence says are missing (a loss a dashboard can show while the run goes), and their
 * one-way latency as a histogram.
 */
static void api_probe_families(struct api_buf *b, const struct pb_api_metrics *m, bool om)
{
	uint64_t probes, missing, sum;
	uint32_t i;
	unsigned int k;

	api_family(b, om, "pktbench_run_probes", API_COUNTER,
		   "latency probes of this run that arrived (--latency)");
	for (i = 0; i < m->nruns; i++) {
		api_run_probes(&m->runs[i], &probes, &missing, &sum);
		if (!probes && !missing)
			continue;
		api_run_series(b, m, "pktbench_run_probes_total", i);
		api_printf(b, "} %" PRIu64 "\n", probes);
	}
	api_family(b, om, "pktbench_run_probes_missing", API_GAUGE,
		   "probe sequence numbers skipped and not filled since: probes lost so far");
	for (i = 0; i < m->nruns; i++) {
		api_run_probes(&m->runs[i], &probes, &missing, &sum);
		if (!probes && !missing)
			continue;
		api_run_series(b, m, "pktbench_run_probes_missing", i);
		api_printf(b, "} %" PRIu64 "\n", missing);
	}
	api_family(b, om, "pktbench_run_latency_seconds", API_HISTOGRAM,
		   "one-way latency of the probes whose latency was taken (common clocks)");
	for (i = 0; m->lat && i < m->nruns; i++) {
		const struct pb_api_lat *l = &m->lat[i];

		if (!l->le[PB_API_LAT_LE])
			continue;
		api_run_probes(&m->runs[i], &probes, &missing, &sum);
		for (k = 0; k <= PB_API_LAT_LE; k++) {
			api_run_series(b, m, "pktbench_run_latency_seconds_bucket", i);
			if (k < PB_API_LAT_LE)
				api_printf(b, ",le=\"%g\"} %" PRIu64 "\n", api_lat_bounds[k], l->le[k]);
			else
				api_printf(b, ",le=\"+Inf\"} %" PRIu64 "\n", l->le[k]);
		}
		api_run_series(b, m, "pktbench_run_latency_seconds_count", i);
		api_printf(b, "} %" PRIu64 "\n", l->le[PB_API_LAT_LE]);
		api_run_series(b, m, "pktbench_run_latency_seconds_sum", i);
		api_printf(b, "} %.9f\n", (double)sum / 1e9);
	}
}

/* The runs table: what it holds, keeps and pushed out (agent_flood's figures). */
static void api_table(struct api_buf *b, bool om, const struct pb_api_info *in)
{
	const struct {
		const char *name, *help;
		enum api_type type;
		uint64_t v;
	} rows[] = {
		{ "pktbench_receiver_runs_capacity",
		  "run ids the receiver's runs table holds at most (LRU: new ones push old out)",
		  API_GAUGE, in->runs_capacity },
		{ "pktbench_receiver_runs_held", "run ids the runs table holds now", API_GAUGE,
		  in->runs_held },
		{ "pktbench_receiver_runs_evicted",
		  "runs pushed out of the runs table by newer run ids, counts and all", API_COUNTER,
		  in->runs_evicted },
		{ "pktbench_receiver_runs_kept",
		  "runs a reader asked for, kept where new run ids cannot push them out", API_GAUGE,
		  in->runs_kept },
		{ "pktbench_receiver_runs_kept_capacity", "runs that can be kept at once",
		  API_GAUGE, in->runs_kept_capacity },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		api_family(b, om, rows[i].name, rows[i].type, rows[i].help);
		api_printf(b, "%s%s %" PRIu64 "\n", rows[i].name,
			   rows[i].type == API_COUNTER ? "_total" : "", rows[i].v);
	}
}

char *pb_api_metrics_text(const struct pb_api_metrics *m, bool om, size_t *len)
{
	const struct pb_api_info *in = m->info;
	struct api_run_labels *labels;
	struct api_buf b = { 0 };
	char mac[18];
	uint32_t i, q;

	*len = 0;
	labels = calloc(m->nruns ? m->nruns : 1, sizeof(*labels));
	if (!labels)
		return NULL;
	for (i = 0; i < m->nruns; i++) {
		pb_api_run_label(m->label_key, m->runs[i].run_id, labels[i].run);
		if (m->tags)
			pb_api_test_label(m->tags[i].test_id, labels[i].test);
	}
	b.labels = labels;
	api_mac_str(in->mac, mac);
	api_family(&b, om, "pktbench_receiver", API_INFO,
		   "the receive agent: version, interface, driver, MAC, XDP mode");
	api_printf(&b, "pktbench_receiver_info{version=\"");
	api_label(&b, in->version);
	api_printf(&b, "\",interface=\"");
	api_label(&b, in->ifname);
	api_printf(&b, "\",driver=\"");
	api_label(&b, in->driver);
	api_printf(&b, "\",mac=\"%s\",xdp_mode=\"", mac);
	api_label(&b, in->xdp_mode);
	api_printf(&b, "\"} 1\n");
	api_family(&b, om, "pktbench_receiver_rx_queues", API_GAUGE,
		   "RX queues of the receiving interface");
	api_printf(&b, "pktbench_receiver_rx_queues %" PRIu32 "\n", in->rx_queues);
	api_family(&b, om, "pktbench_receiver_uptime_seconds", API_GAUGE,
		   "seconds since the agent attached its receiver");
	api_printf(&b, "pktbench_receiver_uptime_seconds %.3f\n", in->uptime_s);
	api_family(&b, om, "pktbench_receiver_clock_seconds", API_GAUGE,
		   "the agent's CLOCK_MONOTONIC, which the arrival times are on");
	api_printf(&b, "pktbench_receiver_clock_seconds %.3f\n", (double)in->now_ns / 1e9);
	api_family(&b, om, "pktbench_receiver_runs", API_GAUGE,
		   "run ids the receiver holds counts for");
	api_printf(&b, "pktbench_receiver_runs %" PRIu32 "\n", m->nruns);
	api_table(&b, om, in);
	api_counter_if(&b, om, "pktbench_receiver_foreign_frames",
		       "frames without a pktbench signature, passed to the stack", in->ifname,
		       m->foreign_frames);
	api_counter_if(&b, om, "pktbench_receiver_foreign_bytes", "their bytes", in->ifname,
		       m->foreign_bytes);
	api_family(&b, om, "pktbench_receiver_slot_switches", API_COUNTER,
		   "times a CPU's counting slot changed runs (a flush each)");
	api_printf(&b, "pktbench_receiver_slot_switches_total %" PRIu64 "\n", m->slot_switches);

	api_counter_if(&b, om, "pktbench_interface_rx_packets",
		       "frames the receiving interface counted", in->ifname, m->ifs.rx_packets);
	api_counter_if(&b, om, "pktbench_interface_rx_dropped",
		       "frames the receiving interface dropped (rx_dropped)", in->ifname,
		       m->ifs.rx_dropped);
	api_counter_if(&b, om, "pktbench_interface_rx_missed_errors",
		       "frames the NIC missed (rx_missed_errors)", in->ifname,
		       m->ifs.rx_missed_errors);
	api_counter_if(&b, om, "pktbench_interface_rx_fifo_errors",
		       "frames lost to FIFO overruns (rx_fifo_errors)", in->ifname,
		       m->ifs.rx_fifo_errors);
	api_counter_if(&b, om, "pktbench_interface_driver_drops",
		       "the driver's ethtool counters named drop, discard or miss (not XDP's)",
		       in->ifname, m->ifs.driver_drops);

	api_family(&b, om, "pktbench_run_frames", API_COUNTER,
		   "unique frames with this run id's signature");
	api_runs(&b, m, "pktbench_run_frames_total", api_run_frames);
	api_family(&b, om, "pktbench_run_bytes", API_COUNTER, "their bytes, Ethernet header on");
	api_runs(&b, m, "pktbench_run_bytes_total", api_run_bytes);
	api_family(&b, om, "pktbench_run_frames_duplicate", API_COUNTER,
		   "frames that arrived again (a sequence number seen before), not in frames");
	api_runs(&b, m, "pktbench_run_frames_duplicate_total", api_run_dup);
	api_family(&b, om, "pktbench_run_frames_reordered", API_COUNTER,
		   "frames that arrived after a later one of their stream, in frames");
	api_runs(&b, m, "pktbench_run_frames_reordered_total", api_run_late);
	api_family(&b, om, "pktbench_run_frames_out_of_window", API_COUNTER,
		   "frames too far out of order to tell from a duplicate, not in frames");
	api_runs(&b, m, "pktbench_run_frames_out_of_window_total", api_run_stray);
	api_family(&b, om, "pktbench_run_frames_unchecked", API_COUNTER,
		   "frames counted without a sequence check, in frames");
	api_runs(&b, m, "pktbench_run_frames_unchecked_total", api_run_unchecked);
	api_family(&b, om, "pktbench_run_frames_corrupt", API_COUNTER,
		   "frames the host would refuse: an IPv4 header checksum or version, a UDP "
		   "checksum, lengths");
	api_runs(&b, m, "pktbench_run_frames_corrupt_total", api_run_corrupt);
	api_family(&b, om, "pktbench_run_frames_not_for_host", API_COUNTER,
		   "frames sent to another destination MAC or IP address");
	api_runs(&b, m, "pktbench_run_frames_not_for_host_total", api_run_not_host);
	api_family(&b, om, "pktbench_run_queue_frames", API_COUNTER,
		   "this run's frames per RX queue (queues that had any)");
	for (i = 0; i < m->nruns; i++)
		for (q = 0; q < m->runs[i].nqueues && q < PB_RX_MAX_QUEUES; q++)
			if (m->runs[i].queue_frames[q]) {
				api_run_series(&b, m, "pktbench_run_queue_frames_total", i);
				api_printf(&b, ",queue=\"%" PRIu32 "\"} %" PRIu64 "\n", q,
					   m->runs[i].queue_frames[q]);
			}
	api_family(&b, om, "pktbench_run_flows_seen", API_GAUGE, "distinct UDP source ports");
	api_runs(&b, m, "pktbench_run_flows_seen", api_run_flows);
	api_family(&b, om, "pktbench_run_vlan", API_GAUGE,
		   "1 for each VLAN id this run arrived with (0: untagged)");
	for (i = 0; i < m->nruns; i++)
		for (q = 0; q < m->runs[i].nvlans && q < PB_RX_MAX_VLANS; q++) {
			api_run_series(&b, m, "pktbench_run_vlan", i);
			api_printf(&b, ",vlan=\"%u\"} 1\n", m->runs[i].vlans[q]);
		}
	api_family(&b, om, "pktbench_run_first_arrival_seconds", API_GAUGE,
		   "CLOCK_MONOTONIC of the run's first frame, exact to a scheduler tick");
	for (i = 0; i < m->nruns; i++)
		if (m->runs[i].frames) {
			api_run_series(&b, m, "pktbench_run_first_arrival_seconds", i);
			api_printf(&b, "} %.3f\n", (double)m->runs[i].first_ns / 1e9);
		}
	api_family(&b, om, "pktbench_run_last_arrival_seconds", API_GAUGE,
		   "CLOCK_MONOTONIC of the run's last frame, exact to a scheduler tick");
	for (i = 0; i < m->nruns; i++)
		if (m->runs[i].frames) {
			api_run_series(&b, m, "pktbench_run_last_arrival_seconds", i);
			api_printf(&b, "} %.3f\n", (double)m->runs[i].last_ns / 1e9);
		}
	api_probe_families(&b, m, om);
	if (om)
		api_printf(&b, "# EOF\n");
	free(labels);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

const char *pb_api_metrics_type(bool openmetrics)
{
	return openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
			   : "text/plain; version=0.0.4; charset=utf-8";
}

/* ---- content negotiation and request targets ------------------------------------------- */

static bool api_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* [s, e) without the optional white space around it. */
static void api_trim(const char **s, const char **e)
{
	while (*s < *e && api_ows(**s))
		(*s)++;
	while (*e > *s && api_ows((*e)[-1]))
		(*e)--;
}

static bool api_token_is(const char *s, const char *e, const char *want)
{
	size_t n = strlen(want);

	return (size_t)(e - s) == n && !strncasecmp(s, want, n);
}

/* A qvalue (RFC 9110 12.4.2): 0, 1, 0.d{0,3} or 1.0{0,3}, in thousandths; -1 when not one. */
static int api_qvalue(const char *s, const char *e)
{
	int q, i;

	if (s == e || (*s != '0' && *s != '1'))
		return -1;
	q = (*s - '0') * 1000;
	if (++s == e)
		return q;
	if (*s++ != '.' || e - s > 3)
		return -1;
	for (i = 100; s < e; s++, i /= 10) {
		if (*s < '0' || *s > '9')
			return -1;
		q += (*s - '0') * i;
	}
	return q > 1000 ? -1 : q;
}

/*
 * One media range of an Accept header, [s, e): how specifically it matches type/subtype
 * (3 exactly, 2 type/star, 1 star/star, 0 not at all) and its q in thousandths (-1: the
 * range is malformed and ignored).
 */
static int api_range(const char *s, const char *e, const char *type, const char *sub, int *q)
{
	const char *semi = memchr(s, ';', (size_t)(e - s)), *end = semi ? semi : e, *slash;
	int spec;

	*q = 1000;
	api_trim(&s, &end);
	slash = memchr(s, '/', (size_t)(end - s));
	if (!slash || slash == s || slash + 1 == end) {
		*q = -1;
		return 0;
	}
	if (api_token_is(s, slash, "*"))
		spec = api_token_is(slash + 1, end, "*") ? 1 : 0;
	else if (!api_token_is(s, slash, type))
		spec = 0;
	else if (api_token_is(slash + 1, end, "*"))
		spec = 2;
	else
		spec = api_token_is(slash + 1, end, sub) ? 3 : 0;
	/* parameters: only q matters (it ends them, RFC 9110 12.5.1) */
	while (semi) {
		const char *ps = semi + 1, *pe, *eq;

		semi = memchr(ps, ';', (size_t)(e - ps));
		pe = semi ? semi : e;
		eq = memchr(ps, '=', (size_t)(pe - ps));
		if (!eq)
			continue;
		api_trim(&ps, &eq);
		if (api_token_is(ps, eq, "q")) {
			const char *vs = eq + 1, *ve = pe;

			api_trim(&vs, &ve);
			*q = api_qvalue(vs, ve);
			break;
		}
	}
	return spec;
}

/*
 * The q an Accept header gives type/subtype: that of the most specific range matching it
 * (*spec), or -1 when none does.
 */
static int api_accept_q(const char *accept, const char *type, const char *sub, int *spec)
{
	const char *s = accept, *e;
	int best_spec = 0, best_q = -1, spec_i, q;

	for (; *s; s = *e ? e + 1 : e) {
		e = s + strcspn(s, ",");
		spec_i = api_range(s, e, type, sub, &q);
		if (q >= 0 && spec_i > best_spec) {
			best_spec = spec_i;
			best_q = q;
		}
	}
	*spec = best_spec;
	return best_q;
}

int pb_api_negotiate_metrics(const char *accept)
{
	int q_om, q_txt, s_om, s_txt;

	if (!accept)
		return 0;
	q_om = api_accept_q(accept, "application", "openmetrics-text", &s_om);
	q_txt = api_accept_q(accept, "text", "plain", &s_txt);
	if (q_om <= 0 && q_txt <= 0)
		/*
		 * neither acceptable: 406 when the text was refused by name (q=0); a header that
		 * names neither is disregarded, as RFC 9110 12.5.1 allows, for the plain text
		 */
		return q_txt == 0 ? -1 : 0;
	if (q_om != q_txt)
		return q_om > q_txt;
	/* the same q: the type the client named more specifically; else the plain text */
	return s_om > s_txt;
}

static int api_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int pb_api_target(const char *raw, char *path, size_t pathlen)
{
	size_t n = strcspn(raw, "?"), i, o = 0, params = 0;
	const char *q = raw + n;

	if (strnlen(raw, PB_API_MAX_TARGET + 1) > PB_API_MAX_TARGET)
		return -ENAMETOOLONG;
	if (raw[0] != '/')
		return -EINVAL; /* origin-form only: we are no proxy, and OPTIONS * is not ours */
	/* parameters: a&b&c is 3, an empty one ("a&&b") is none */
	if (*q) {
		for (i = 1; q[i - 1]; i += strcspn(q + i, "&") + 1)
			if (q[i] && q[i] != '&')
				params++;
	}
	if (params > PB_API_MAX_PARAMS)
		return -ENAMETOOLONG;
	for (i = 0; i < n; i++) {
		char c = raw[i];

		if (c == '%') {
			/* raw[i + 2] is there when raw[i + 1] is a digit (not the NUL) */
			int hi = api_hex(raw[i + 1]), lo = hi >= 0 ? api_hex(raw[i + 2]) : -1;

			if (lo < 0 || (hi == 0 && lo == 0))
				return -EINVAL;
			c = (char)(hi * 16 + lo);
			i += 2;
		}
		if (o + 1 >= pathlen)
			return -ENAMETOOLONG;
		path[o++] = c;
	}
	path[o] = '\0';
	return 0;
}
