// SPDX-License-Identifier: MIT
/* A `pktbench receive` agent read over HTTP with libcurl, as a struct pb_rx_source. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>
#include <json-c/json.h>

#include "client.h"
#include "log.h"
#include "pb_version.h"

struct pb_agent {
	char base[256]; /* http://HOST:PORT */
	char what[272]; /* "agent http://HOST:PORT", for messages */
	CURL *curl;	/* one handle, so the connection is kept between reads */
	pthread_mutex_t mu;
	char *buf; /* the answer being read, up to PB_API_MAX_BODY */
	size_t len, cap;
	bool too_big;
	char curl_err[CURL_ERROR_SIZE];
	char why[256];	      /* the last failure */
	char answer_why[256]; /* the last failure, when it was the agent's answer: its reason */
	bool curl_global;
	const int *stop;   /* the program's stop (a signal's number), or NULL */
	uint64_t stop_ns;  /* when a request first saw it: PB_AGENT_STOP_GRACE_MS from then */
};

static size_t agent_write(char *data, size_t size, size_t n, void *arg)
{
	struct pb_agent *a = arg;
	size_t add = size * n;
	char *nb;

	if (add > PB_API_MAX_BODY - a->len) {
		a->too_big = true;
		return 0; /* curl stops: CURLE_WRITE_ERROR */
	}
	if (a->len + add + 1 > a->cap) {
		size_t cap = (a->len + add + 1) * 2;

		nb = realloc(a->buf, cap);
		if (!nb)
			return 0;
		a->buf = nb;
		a->cap = cap;
	}
	memcpy(a->buf + a->len, data, add);
	a->len += add;
	a->buf[a->len] = '\0';
	return add;
}

/* libcurl's failure as the -errno the runner's message shows (strerror). */
static int agent_errno(struct pb_agent *a, CURLcode c)
{
	long os = 0;

	if (a->too_big)
		return -EMSGSIZE;
	curl_easy_getinfo(a->curl, CURLINFO_OS_ERRNO, &os);
	switch (c) {
	case CURLE_OPERATION_TIMEDOUT:
		return -ETIMEDOUT;
	case CURLE_COULDNT_RESOLVE_HOST:
		return -EHOSTUNREACH;
	case CURLE_COULDNT_CONNECT:
		return os ? -(int)os : -ECONNREFUSED;
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
		return os ? -(int)os : -ECONNRESET;
	case CURLE_OUT_OF_MEMORY:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

/* The reason an error answer gives ({"error": "..."}), or "" when it gives none. */
static void agent_reason(const struct pb_agent *a, char *buf, size_t len)
{
	struct json_object *o = NULL, *e;
	struct json_tokener *tok;

	buf[0] = '\0';
	if (!a->len || a->len > INT32_MAX)
		return;
	tok = json_tokener_new_ex(4);
	if (tok)
		o = json_tokener_parse_ex(tok, a->buf, (int)a->len);
	if (o && json_object_object_get_ex(o, "error", &e) &&
	    json_object_is_type(e, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(e));
	json_object_put(o);
	json_tokener_free(tok);
}

/*
 * GET base + path; 0 with the body in a->buf (a->len bytes), or -errno: the request failed
 * (curl's reason in a->why), the answer was not 200 (-EPROTO; a->why and a->answer_why say
 * which status and, the agent's reason) or too large (-EMSGSIZE). Called with a->mu held.
 * The handle keeps its connection (HTTP/1.1 keep-alive): a run's reads share one.
 */
static int agent_get(struct pb_agent *a, const char *path)
{
	char url[sizeof(a->base) + 32], reason[160];
	long code = 0;
	CURLcode c;

	snprintf(url, sizeof(url), "%s%s", a->base, path);
	a->len = 0;
	a->too_big = false;
	a->curl_err[0] = '\0';
	a->answer_why[0] = '\0';
	curl_easy_setopt(a->curl, CURLOPT_URL, url);
	c = curl_easy_perform(a->curl);
	if (c != CURLE_OK) {
		snprintf(a->why, sizeof(a->why), "%s",
			 a->curl_err[0] ? a->curl_err : curl_easy_strerror(c));
		pr_debug("%s: GET %s: %s\n", a->what, path, a->why);
		return agent_errno(a, c);
	}
	curl_easy_getinfo(a->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code != 200) {
		agent_reason(a, reason, sizeof(reason));
		snprintf(a->why, sizeof(a->why), "GET %s answered HTTP %ld%s%s", path, code,
			 reason[0] ? ": " : "", reason);
		/* short: it goes into the row's receiver_error */
		snprintf(a->answer_why, sizeof(a->answer_why), "HTTP %ld%s%s", code,
			 reason[0] ? ": " : "", reason);
		pr_debug("%s: %s\n", a->what, a->why);
		return -EPROTO;
	}
	return 0;
}

/*
 * Called by curl during a request: after a stop, the reads still due (the settle, the run's
 * counters) get PB_AGENT_STOP_GRACE_MS in all, so an agent that hangs (stopped, a network
 * gone) cannot hold a Ctrl-C for a request's timeout at each read.
 */
static int agent_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
			  curl_off_t ulnow)
{
	struct pb_agent *a = arg;
	struct timespec ts;
	uint64_t now;

	if (!a->stop || !__atomic_load_n(a->stop, __ATOMIC_RELAXED))
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!a->stop_ns)
		a->stop_ns = now;
	return now - a->stop_ns > PB_AGENT_STOP_GRACE_MS * 1000000ull; /* non-zero: abort */
}

int pb_agent_open(struct pb_agent **out, const char *url, char *err, size_t errlen)
{
	static const char *const v = "pktbench/" PB_VERSION;
	struct pb_agent *a;
	int ret;

	*out = NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->mu, NULL);
	ret = pb_api_check_url(url, a->base, sizeof(a->base), err, errlen);
	if (ret) {
		pthread_mutex_destroy(&a->mu);
		free(a);
		return ret;
	}
	snprintf(a->what, sizeof(a->what), "agent %s", a->base);
	/* before any thread of ours: curl's global set-up is not thread-safe */
	a->curl_global = !curl_global_init(CURL_GLOBAL_DEFAULT);
	a->curl = a->curl_global ? curl_easy_init() : NULL;
	if (!a->curl) {
		snprintf(err, errlen, "--receiver: cannot start libcurl");
		pb_agent_close(a);
		return -ENOMEM;
	}
	curl_easy_setopt(a->curl, CURLOPT_NOSIGNAL, 1L); /* no SIGALRM in a threaded program */
	curl_easy_setopt(a->curl, CURLOPT_CONNECTTIMEOUT_MS, (long)PB_AGENT_CONNECT_MS);
	curl_easy_setopt(a->curl, CURLOPT_TIMEOUT_MS, (long)PB_AGENT_REQUEST_MS);
	curl_easy_setopt(a->curl, CURLOPT_PROTOCOLS_STR, "http");
	curl_easy_setopt(a->curl, CURLOPT_FOLLOWLOCATION, 0L);
	/* the agent is on the test network: never through a proxy from the environment */
	curl_easy_setopt(a->curl, CURLOPT_PROXY, "");
	curl_easy_setopt(a->curl, CURLOPT_USERAGENT, v);
	curl_easy_setopt(a->curl, CURLOPT_ERRORBUFFER, a->curl_err);
	curl_easy_setopt(a->curl, CURLOPT_WRITEFUNCTION, agent_write);
	curl_easy_setopt(a->curl, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(a->curl, CURLOPT_XFERINFOFUNCTION, agent_progress);
	curl_easy_setopt(a->curl, CURLOPT_XFERINFODATA, a);
	curl_easy_setopt(a->curl, CURLOPT_NOPROGRESS, 0L);
	*out = a;
	return 0;
}

int pb_agent_info(struct pb_agent *a, struct pb_api_info *info, char *err, size_t errlen)
{
	char why[192];
	int ret;

	pthread_mutex_lock(&a->mu);
	ret = agent_get(a, "/v1/info");
	if (ret == -EPROTO || ret == -EBADMSG || ret == -EMSGSIZE) {
		snprintf(err, errlen, "--receiver %s is not a pktbench agent (%s)", a->base,
			 ret == -EPROTO ? a->why : "no answer of the right size");
	} else if (ret) {
		snprintf(err, errlen, "--receiver: cannot reach the agent at %s: %s (%s)", a->base,
			 strerror(-ret), a->why);
	} else {
		ret = pb_api_parse_info(a->buf, a->len, info, why, sizeof(why));
		if (ret)
			snprintf(err, errlen,
				 "--receiver %s: not an answer of a pktbench agent: /v1/info: %s",
				 a->base, why);
	}
	pthread_mutex_unlock(&a->mu);
	return ret;
}

/* One run's answer; run 0 (never a run's id) when only the interface counters are wanted. */
static int agent_read(struct pb_agent *a, uint32_t run_id, struct pb_api_run *r)
{
	char path[32], why[160];
	int ret;

	snprintf(path, sizeof(path), "/v1/runs/%u", run_id);
	pthread_mutex_lock(&a->mu);
	ret = agent_get(a, path);
	if (!ret) {
		ret = pb_api_parse_run(a->buf, a->len, run_id, r, why, sizeof(why));
		if (ret)
			pr_warn("%s: %s: %s\n", a->what, path, why);
	}
	pthread_mutex_unlock(&a->mu);
	return ret;
}

static int agent_source_run(void *ctx, uint32_t run_id, struct pb_rx_run *out)
{
	struct pb_api_run r;
	int ret = agent_read(ctx, run_id, &r);

	if (!ret)
		*out = r.run;
	return ret;
}

static int agent_source_hist(void *ctx, uint32_t run_id, enum pb_rx_hist which, uint64_t *counts)
{
	struct pb_agent *a = ctx;
	char path[48], why[160];
	int ret;

	snprintf(path, sizeof(path), "/v1/runs/%u/hist/%s", run_id,
		 which == PB_RX_HIST_GAP ? "gap" : "lat");
	pthread_mutex_lock(&a->mu);
	ret = agent_get(a, path);
	if (!ret) {
		ret = pb_api_parse_hist(a->buf, a->len, run_id, which, counts, why, sizeof(why));
		if (ret)
			pr_warn("%s: %s: %s\n", a->what, path, why);
	}
	pthread_mutex_unlock(&a->mu);
	return ret;
}

static int agent_source_ifstats(void *ctx, struct pb_rx_ifstats *out)
{
	struct pb_api_run r;
	int ret = agent_read(ctx, 0, &r);

	if (!ret)
		*out = r.ifs;
	return ret;
}

static void agent_source_set_timeout(void *ctx, unsigned int ms)
{
	struct pb_agent *a = ctx;
	long all = ms ? (long)ms : PB_AGENT_REQUEST_MS;

	pthread_mutex_lock(&a->mu);
	curl_easy_setopt(a->curl, CURLOPT_TIMEOUT_MS, all);
	curl_easy_setopt(a->curl, CURLOPT_CONNECTTIMEOUT_MS,
			 all < PB_AGENT_CONNECT_MS ? all : (long)PB_AGENT_CONNECT_MS);
	pthread_mutex_unlock(&a->mu);
}

static void agent_source_last_error(void *ctx, char *buf, size_t len)
{
	struct pb_agent *a = ctx;

	pthread_mutex_lock(&a->mu);
	snprintf(buf, len, "%s", a->answer_why);
	pthread_mutex_unlock(&a->mu);
}

void pb_agent_source(struct pb_agent *a, struct pb_rx_source *src)
{
	*src = (struct pb_rx_source){
		.ctx = a,
		.what = a->what,
		.read_run = agent_source_run,
		.read_ifstats = agent_source_ifstats,
		/* another host: its CLOCK_MONOTONIC is not ours (same_clock stays false) */
		.read_hist = agent_source_hist,
		.last_error = agent_source_last_error,
		.set_timeout = agent_source_set_timeout,
	};
}

void pb_agent_close(struct pb_agent *a)
{
	if (!a)
		return;
	if (a->curl)
		curl_easy_cleanup(a->curl);
	if (a->curl_global)
		curl_global_cleanup();
	pthread_mutex_destroy(&a->mu);
	free(a->buf);
	free(a);
}

static void agent_source_close(void *ctx)
{
	pb_agent_close(ctx);
}

int pb_rx_source_agent(struct pb_rx_source *src, const char *url, const int *stop,
		       struct pb_rx_peer *peer, char *err, size_t errlen)
{
	struct pb_api_info info;
	struct pb_agent *a;
	uint32_t i;
	int ret;

	ret = pb_agent_open(&a, url, err, errlen);
	if (ret)
		return ret;
	ret = pb_agent_info(a, &info, err, errlen);
	if (ret) {
		pb_agent_close(a);
		return ret;
	}
	*peer = (struct pb_rx_peer){ .naddrs = 0 };
	snprintf(peer->ifname, sizeof(peer->ifname), "%s", info.ifname);
	snprintf(peer->driver, sizeof(peer->driver), "%s", info.driver);
	snprintf(peer->xdp_mode, sizeof(peer->xdp_mode), "%s", info.xdp_mode);
	memcpy(peer->mac, info.mac, sizeof(peer->mac));
	for (i = 0; i < info.naddrs && i < PB_RX_PEER_ADDRS; i++)
		peer->addrs[peer->naddrs++] = info.addrs[i];
	a->stop = stop;
	pb_agent_source(a, src);
	src->close = agent_source_close;
	return 0;
}
