// SPDX-License-Identifier: MIT
/*
 * `pktbench receive --iface IFACE --listen ADDR:PORT`: attaches the receiver to IFACE, serves
 * its counts read-only over HTTP/1.1 (libmicrohttpd, one polling thread, keep-alive, bounded
 * connections, request size and time) until SIGINT/SIGTERM or --duration, and detaches.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "agent.h"
#include "api.h"
#include "caps.h"
#include "clock.h"
#include "log.h"
#include "netif.h"
#include "pb_bpf.h"
#include "pb_version.h"
#include "rx.h"
#include "xdp_attach.h"

#define EXIT_BADINPUT 2

/*
 * The bounds that keep clients from taking the agent from the others. Per address 8 (a
 * sender needs one connection, a host with a few senders and a Prometheus a few more) and
 * 128 in all, both counting every connection, waiting for a request or mid-answer: 15
 * addresses at their cap still leave room for a new one, and MHD, never at its limit, accepts
 * and closes what is over an address's cap at once instead of leaving it in the listen queue
 * ahead of new clients; near the 128, a connection of the address that holds the most is cut
 * for the new one (agent_conns_make_room), so a sender's one keep-alive connection is not.
 * The queue holds a burst of 512 connects, so none is dropped (a dropped SYN waits 1 s for
 * its retry). A request's headers must be in within AGENT_REQUEST_S of the accept or of the
 * previous answer, however they trickle in (MHD's own timeout, AGENT_IDLE_S, counts from the
 * last byte); they may hold AGENT_MAX_HEADERS bytes, well inside the connection's memory, so
 * MHD has room to say 431. An answer must be drained within AGENT_ANSWER_S of being queued
 * (/metrics at its largest, about 400 KB, needs 0.7 Mbit/s), and the answers queued at once
 * hold at most AGENT_ANSWER_BYTES (a reader that reads nothing holds its answer's memory):
 * past either, the reader is cut and what it did not read is dropped. A request with a body
 * is answered at once and its connection closed: the API reads none.
 */
#define AGENT_MAX_CONNS	   128
#define AGENT_MAX_PER_IP   8
#define AGENT_BACKLOG	   512
#define AGENT_REQ_MEMORY   (32 * 1024)
#define AGENT_MAX_HEADERS  (8 * 1024)
#define AGENT_IDLE_S	   10
#define AGENT_REQUEST_S	   5.0
#define AGENT_ANSWER_S	   5.0
#define AGENT_ANSWER_BYTES (8 * 1024 * 1024)
#define AGENT_MAX_RUNS	   (PB_BPF_MAX_RUNS + 256) /* the map's and the slots' */
#define AGENT_TABLE_KEEP_S 0.1 /* the runs table's figures on /v1/info: at most this old */

#define OFF(field) offsetof(struct pb_receive_opts, field)

static const char *const agent_xdp_mode_names[] = { "auto", "native", "generic", NULL };

static const struct pb_opt agent_opts[] = {
	{ "iface", 'i', OPT_STR, OFF(iface), 0, NULL, 0, IF_NAMESIZE, "IFACE",
	  "count what arrives on this interface (required)", .flags = PB_OPTF_IFACE },
	{ "listen", 'l', OPT_STR, OFF(listen), 0, NULL, 0,
	  sizeof(((struct pb_receive_opts *)0)->listen), "ADDR:PORT",
	  "answer senders here, e.g. 198.18.0.2:9310 or [2001:2::2]:9310: an address of this host "
	  "on the test network (required)" },
	{ "xdp-mode", 0, OPT_ENUM, OFF(xdp_mode), 0, "auto", 0, 0, "auto|native|generic",
	  "how the receiver attaches; auto tries native (driver) first, then generic",
	  agent_xdp_mode_names },
	{ "force", 0, OPT_FLAG, OFF(force), 0, NULL, 0, 0, NULL,
	  "replace an XDP program already on IFACE: it is put back on exit, and after a SIGKILL "
	  "by --restore or the next start (it stays pinned meanwhile)" },
	{ "restore", 0, OPT_STR, OFF(restore), 0, NULL, 0, IF_NAMESIZE, "IFACE",
	  "put back the XDP program a killed --force run (agent or sender) took off IFACE, and "
	  "exit",
	  .flags = PB_OPTF_IFACE },
	{ "duration", 'd', OPT_SECS, OFF(duration_s), 0, NULL, 0, 0, "SECS",
	  "stop after SECS, or with ms, s, m, h or d after the number (default: run until SIGINT, "
	  "SIGTERM or SIGHUP)" },
	{ "verbose", 'v', OPT_COUNT, OFF(verbose), 0, NULL, 0, 0, NULL,
	  "more log output, every request at -vv (repeatable)" },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help" },
};

/* --restore puts a program back and exits: what would start the agent has no part in it */
static const struct pb_conflict agent_conflicts[] = {
	{ { "restore" },
	  { "iface", "listen", "duration", "xdp-mode", "force" },
	  "cannot go together: --restore puts back what a killed run took off and exits; the "
	  "other is for the agent that counts" },
	{ {} },
};

static int agent_validate(void *dst, char *err, size_t errlen)
{
	struct pb_receive_opts *o = dst;
	struct sockaddr_storage ss;
	socklen_t len;

	if (o->restore[0])
		return 0;
	if (!o->iface[0] || !o->listen[0]) {
		snprintf(err, errlen, "--iface and --listen are both required (see --help)");
		return -EINVAL;
	}
	if (pb_api_parse_listen(o->listen, &ss, &len)) {
		snprintf(err, errlen,
			 "--listen: '%s' is not ADDR:PORT (198.18.0.2:9310, [2001:2::2]:9310)",
			 o->listen);
		return -EINVAL;
	}
	return 0;
}

const struct pb_cmd pb_cmd_receive = {
	.name = "receive",
	.summary = "the receive agent: count what arrives on an interface, for senders elsewhere",
	.synopsis = "--iface IFACE --listen ADDR:PORT [options] | --restore IFACE",
	.description =
		"Attaches pktbench's receiver (an XDP program) to IFACE and answers senders "
		"(pktbench --iface X --receiver http://ADDR:PORT) and Prometheus over HTTP at "
		"ADDR:PORT, until SIGINT, SIGTERM or SIGHUP (or --duration). Frames with a pktbench "
		"signature are counted by their run id, so many senders can share one agent, and "
		"dropped; everything else passes (XDP_PASS), so the host stays reachable over the "
		"same interface.\n\n"
		"The API is read-only: GET /v1/info (the agent), GET /v1/tests/UUID (the runs that "
		"announced that --test-id, summed), GET /v1/runs/RUN_ID (one run's "
		"counts and the interface's counters), GET /metrics (Prometheus text). Nothing a "
		"client sends changes what is counted. HTTP/1.1 connections are kept. Connections "
		"are bounded in all (128) and per address (8), counting those mid-answer; a "
		"request's headers must arrive within 5 s of the connect or of the previous answer "
		"and hold at most 8 KiB, its target 1 KiB and 32 query parameters; an answer must "
		"be read within 5 s, and while answers held for slow readers fill 8 MiB /metrics "
		"answers 503.\n\n"
		"What survives SIGKILL: nothing of pktbench's (its program is attached through a "
		"BPF link, which the kernel removes with the process). A program already on IFACE "
		"is refused unless --force, which takes it off, pins it (bpffs, "
		"/sys/fs/bpf/pktbench) and records it (/run/pktbench/xdp-*) first, and puts it "
		"back on exit. After a SIGKILL the interface has no XDP program until "
		"`pktbench receive --restore IFACE`, or the next pktbench that attaches to IFACE, "
		"puts it back (the same id and mode); the same holds for a sender's --force.",
	.exit_status = "0    stopped by SIGINT, SIGTERM, SIGHUP or --duration; --restore: put back, or "
		       "nothing to put back\n"
		       "1    the receiver could not attach, the API could not listen, or IFACE "
		       "was deleted (a rename is followed); --restore: could not put it back "
		       "(said why)\n"
		       "2    bad input or missing privileges (one line on stderr)",
	.examples = "pktbench receive --iface eth1 --listen 198.18.0.2:9310\n"
		    "count on eth1 and answer senders on 198.18.0.2 port 9310\n"
		    "pktbench --iface eth1 --receiver http://198.18.0.2:9310 --method benchmark\n"
		    "on the sending host: every method, delivered and accounted by that agent",
	.opts = agent_opts,
	.nopts = sizeof(agent_opts) / sizeof(agent_opts[0]),
	.size = sizeof(struct pb_receive_opts),
	.conflicts = agent_conflicts,
	.validate = agent_validate,
	.run = pb_receive_main,
};

/* Set by SIGINT/SIGTERM/SIGHUP (the signal number); read by the main loop. */
static int agent_stop;

static void agent_on_signal(int sig)
{
	__atomic_store_n(&agent_stop, sig, __ATOMIC_RELAXED);
}

/*
 * /metrics reads every run the receiver holds (a thousand map reads and more, 40 ms here): its
 * text is kept this long after it was made, or twice as long as it took to make, so a flood
 * of scrapes leaves the agent's one thread at least two thirds of its time for the rest. Not
 * much longer: a scrape must read the counters it reports, or a Prometheus scraping every
 * second sees a value twice and rate() swings (the samples carry the scrape's time, not the
 * read's).
 */
#define AGENT_METRICS_KEEP_S 0.005

/*
 * One connection's deadlines. MHD's thread fills it (connect, request, answer, close); the
 * main loop reads it to cut a late one with shutdown(2), after which MHD sees the end of the
 * stream and closes the connection itself: no fd is closed under MHD.
 */
struct agent_conn {
	bool used;
	bool waiting;	 /* for a request's headers, until deadline (pb_now()) */
	bool headers_in; /* the access handler has seen this request */
	bool answered;	 /* its answer is made */
	bool answering;	 /* its answer is queued, not yet all sent, until deadline */
	bool cut;	 /* shut down by us: MHD closes it next */
	int fd;
	double since; /* the wait or the answer began */
	double deadline;
	size_t queued; /* the answer's bytes, while answering */
	int family;    /* the client's address, for the per-address count */
	uint8_t addr[16];
	struct MHD_Connection *conn;
	int target_err; /* pb_api_target() of the request's target */
	char path[128]; /* its path, decoded */
};

struct agent {
	struct pb_rx *rx;
	pthread_mutex_t conns_mu; /* conns[], queued: MHD's thread and the main loop's sweep */
	struct agent_conn conns[AGENT_MAX_CONNS];
	/* the bytes of the answers queued, at most AGENT_ANSWER_BYTES */
	size_t queued;
	size_t metrics_len;		/* the last /metrics answer's; MHD's thread only */
	struct pb_api_info info;	/* what does not change; addresses and clock per request */
	struct pb_rx_table_stats table; /* the runs table's figures, read at table_at ... */
	double table_at;		/* ... by MHD's thread (agent_table) */
	double t0;			/* attach time, CLOCK_MONOTONIC seconds */
	bool log_requests;
	uint8_t label_key[PB_API_KEY_LEN]; /* the runs' labels on /metrics: random, never shown */
	/* the last /metrics text per format (0: Prometheus, 1: OpenMetrics); MHD's thread only */
	struct {
		char *text;
		size_t len;
		double at, keep; /* made at, kept for (s) */
	} metrics[2];
};

static uint64_t agent_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* This agent's instance id: random, never 0, so a sender tells a restarted agent apart. */
static uint64_t agent_instance(void)
{
	uint64_t id = 0;

	if (getrandom(&id, sizeof(id), 0) != sizeof(id))
		id = agent_now_ns() ^ ((uint64_t)getpid() << 32);
	id &= PB_API_INSTANCE_MAX;
	return id ? id : 1;
}

/* The interface's addresses now (they may change while the agent runs). */
static void agent_addresses(struct pb_api_info *info)
{
	int n = pb_netif_addrs(info->ifname, info->addrs, PB_API_MAX_ADDRS);

	info->naddrs = n > 0 ? (uint32_t)n : 0;
}

/*
 * The runs table's figures into info (/v1/info, /metrics), at most AGENT_TABLE_KEEP_S old:
 * reading them walks the table's 2048 entries, a syscall each, which made every /v1/info
 * cost milliseconds; readers pipelining /v1/info then held the agent's thread long enough
 * that a new client waited 2 s. The runs kept are read now; a sender's read of its run reads
 * them all afresh (pb_rx_read_asked).
 */
static int agent_table(struct agent *ag, struct pb_api_info *info)
{
	const struct pb_rx_table_stats *ts = &ag->table;
	double now = pb_now();
	int err;

	if (!ag->table_at || now - ag->table_at >= AGENT_TABLE_KEEP_S) {
		err = pb_rx_table_stats(ag->rx, &ag->table);
		if (err)
			return err;
		ag->table_at = now;
	}
	info->runs_capacity = ts->capacity;
	info->runs_held = ts->held;
	info->runs_kept = pb_rx_kept(ag->rx); /* cheap: always now */
	info->runs_kept_capacity = ts->kept_capacity;
	info->runs_evicted = ts->evicted;
	return 0;
}

/* Every run the receiver holds, read, with whose test it is; *out and *tags are malloc'd. */
static int agent_runs(struct agent *ag, struct pb_rx_run **out, struct pb_api_run_tag **tags,
		      uint32_t *n)
{
	uint32_t *ids = calloc(AGENT_MAX_RUNS, sizeof(*ids)), nids = 0, i;
	struct pb_api_run_tag *tg = NULL;
	struct pb_rx_run *runs = NULL;
	struct pb_rx_meta meta;
	bool found;
	int err;

	*out = NULL;
	*tags = NULL;
	*n = 0;
	if (!ids)
		return -ENOMEM;
	err = pb_rx_list_runs(ag->rx, ids, AGENT_MAX_RUNS, &nids);
	if (!err && nids) {
		runs = calloc(nids, sizeof(*runs));
		tg = calloc(nids, sizeof(*tg));
		err = runs && tg ? 0 : -ENOMEM;
	}
	for (i = 0; !err && i < nids; i++) {
		err = pb_rx_read_run(ag->rx, ids[i], &runs[*n]);
		if (!err)
			err = pb_rx_read_meta(ag->rx, ids[i], &meta, &found);
		if (!err && found)
			pb_api_run_tag(&meta, &tg[*n]);
		/* a run aged out between the listing and the read is simply not shown */
		if (!err && runs[*n].seen)
			(*n)++;
	}
	free(ids);
	if (err) {
		free(runs);
		free(tg);
		return err;
	}
	*out = runs;
	*tags = tg;
	return 0;
}

/*
 * The test's runs whose counts aged out of the runs table: those whose announcement says a
 * second entry was made (the first went with its counts), and those counted once and now
 * held nowhere (runs: the n runs held, read).
 */
static int agent_test_evicted(struct agent *ag, struct pb_api_test *t, const struct pb_rx_run *runs,
			      uint32_t n)
{
	uint32_t *ids = calloc(PB_BPF_MAX_RUNS, sizeof(*ids)), nm = 0, i, j;
	struct pb_rx_meta *metas = calloc(PB_BPF_MAX_RUNS, sizeof(*metas));
	struct pb_api_run_tag tag;
	int err =
		ids && metas ? pb_rx_list_meta(ag->rx, ids, metas, PB_BPF_MAX_RUNS, &nm) : -ENOMEM;

	for (i = 0; !err && i < nm; i++) {
		if (!(metas[i].flags & (PB_RX_META_COUNTED | PB_RX_META_EVICTED)))
			continue;
		pb_api_run_tag(&metas[i], &tag);
		if (strcmp(tag.test_id, t->test_id))
			continue;
		for (j = 0; j < n && runs[j].run_id != ids[i]; j++)
			;
		if ((metas[i].flags & PB_RX_META_EVICTED) || j == n)
			pb_api_test_evicted(t, ids[i]);
	}
	free(ids);
	free(metas);
	return err;
}

/* GET /v1/tests/UUID: the runs that announced the test, summed. */
static char *agent_test(struct agent *ag, const char *path, int *err)
{
	struct pb_api_run_tag *tags = NULL;
	struct pb_rx_run *runs = NULL;
	struct pb_api_test *t;
	char *body = NULL;
	uint32_t n = 0, i;

	t = calloc(1, sizeof(*t));
	*err = t ? pb_api_test_id(path, t->test_id) : -ENOMEM;
	if (!*err)
		*err = agent_runs(ag, &runs, &tags, &n);
	for (i = 0; !*err && i < n; i++)
		if (!strcmp(tags[i].test_id, t->test_id))
			pb_api_test_add(t, &runs[i], &tags[i]);
	if (!*err)
		*err = agent_test_evicted(ag, t, runs, n);
	if (!*err) {
		struct timespec rt;

		t->now_ns = agent_now_ns();
		clock_gettime(CLOCK_REALTIME, &rt);
		t->realtime_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
		body = pb_api_test_json(t);
	}
	free(runs);
	free(tags);
	free(t);
	return body;
}

/* The probe latency of the runs that timed any, for /metrics; NULL in *out when none did. */
static int agent_lat(struct agent *ag, const struct pb_rx_run *runs, uint32_t n,
		     struct pb_api_lat **out)
{
	uint64_t *counts = NULL;
	uint32_t i, s;
	int err = 0;

	*out = NULL;
	for (i = 0; !err && i < n; i++) {
		uint64_t timed = 0;

		for (s = 0; s < runs[i].nstreams && s < PB_RX_MAX_STREAMS; s++)
			timed += runs[i].streams[s].lat_n;
		if (!timed)
			continue;
		if (!*out) {
			*out = calloc(n, sizeof(**out));
			counts = malloc(PB_RX_HIST_BUCKETS * sizeof(*counts));
			if (!*out || !counts) {
				err = -ENOMEM;
				break;
			}
		}
		err = pb_rx_read_hist(ag->rx, runs[i].run_id, PB_RX_HIST_LAT, counts);
		/* a run aged out since it was read shows no histogram */
		if (err == -ENOENT)
			err = 0;
		else if (!err)
			pb_api_lat_fold(counts, &(*out)[i]);
	}
	free(counts);
	if (err) {
		free(*out);
		*out = NULL;
	}
	return err;
}

/* /metrics text now, or as read less than its keep ago (AGENT_METRICS_KEEP_S); a copy to send. */
static char *agent_metrics(struct agent *ag, bool om, size_t *len, int *err)
{
	struct pb_api_info info = ag->info;
	struct pb_api_metrics m = { .info = &info, .label_key = ag->label_key };
	struct pb_api_run_tag *tags = NULL;
	struct pb_rx_run *runs = NULL;
	struct pb_api_lat *lat = NULL;
	char *text = NULL, *copy;
	double now = pb_now();

	*err = 0;
	if (!ag->metrics[om].text || now - ag->metrics[om].at >= ag->metrics[om].keep) {
		info.now_ns = agent_now_ns();
		info.uptime_s = now - ag->t0;
		*err = pb_rx_ifname(ag->rx, info.ifname); /* the interface label: its name now */
		if (!*err)
			*err = agent_runs(ag, &runs, &tags, &m.nruns);
		m.runs = runs;
		m.tags = tags;
		if (!*err)
			*err = agent_lat(ag, runs, m.nruns, &lat);
		m.lat = lat;
		if (!*err)
			*err = pb_rx_read_ifstats(ag->rx, &m.ifs);
		if (!*err)
			*err = pb_rx_read_foreign(ag->rx, &m.foreign_frames, &m.foreign_bytes);
		if (!*err)
			*err = pb_rx_slot_switches(ag->rx, &m.slot_switches);
		if (!*err)
			*err = agent_table(ag, &info);
		if (!*err)
			text = pb_api_metrics_text(&m, om, len);
		free(runs);
		free(tags);
		free(lat);
		if (*err || !text)
			return NULL;
		free(ag->metrics[om].text);
		ag->metrics[om].text = text;
		ag->metrics[om].len = *len;
		ag->metrics[om].at = pb_now();
		ag->metrics[om].keep = fmax(AGENT_METRICS_KEEP_S, 2 * (ag->metrics[om].at - now));
	}
	*len = ag->metrics[om].len;
	copy = malloc(*len + 1);
	if (copy)
		memcpy(copy, ag->metrics[om].text, *len + 1);
	return copy;
}

/* The answer's body (malloc'd), its status and type; NULL body: out of memory. */
static char *agent_answer(struct agent *ag, enum pb_api_route route, uint32_t run_id,
			  const char *path, bool openmetrics, unsigned int *status,
			  const char **type, size_t *len)
{
	struct pb_api_info info;
	char *body = NULL;
	const char *msg;
	int err = 0;

	*status = pb_api_status(route, &msg);
	*type = "application/json";
	switch (route) {
	case PB_API_INFO:
		info = ag->info;
		/* by its index: a renamed interface is the same one, with its addresses */
		err = pb_rx_ifname(ag->rx, info.ifname);
		if (err)
			break;
		agent_addresses(&info);
		err = agent_table(ag, &info);
		if (err)
			break;
		info.now_ns = agent_now_ns();
		info.uptime_s = pb_now() - ag->t0;
		body = pb_api_info_json(&info);
		break;
	case PB_API_RUN: {
		struct pb_api_run r = { 0 };

		/* a run someone reads is kept from now on (run 0: the interface counters alone) */
		err = pb_rx_read_asked(ag->rx, run_id, &r.run);
		if (!err)
			err = pb_rx_read_ifstats(ag->rx, &r.ifs);
		r.now_ns = agent_now_ns();
		r.run.instance = ag->info.instance; /* a sender sees a restart by it */
		pb_api_run_label(ag->label_key, run_id, r.label);
		if (!err)
			body = pb_api_run_json(&r);
		break;
	}
	case PB_API_HIST_LAT:
	case PB_API_HIST_GAP: {
		enum pb_rx_hist which = route == PB_API_HIST_GAP ? PB_RX_HIST_GAP : PB_RX_HIST_LAT;
		uint64_t *counts = calloc(PB_RX_HIST_BUCKETS, sizeof(*counts));

		err = counts ? pb_rx_read_hist(ag->rx, run_id, which, counts) : -ENOMEM;
		if (!err)
			body = pb_api_hist_json(run_id, which, counts);
		free(counts);
		break;
	}
	case PB_API_METRICS:
		body = agent_metrics(ag, openmetrics, len, &err);
		if (body) {
			*type = pb_api_metrics_type(openmetrics);
			return body;
		}
		break;
	case PB_API_TEST:
		body = agent_test(ag, path, &err);
		break;
	case PB_API_NOT_FOUND:
	case PB_API_BAD_METHOD:
	case PB_API_BAD_TEST_ID:
	case PB_API_BAD_REQUEST:
	case PB_API_MALFORMED:
	case PB_API_TOO_LONG:
	case PB_API_HEADERS_TOO_LARGE:
	case PB_API_NOT_ACCEPTABLE:
		body = pb_api_error_json(msg);
		break;
	}
	if (err) {
		pr_warn("receive: cannot read the receiver: %s\n", strerror(-err));
		*status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		free(body);
		body = pb_api_error_json(strerror(-err));
	}
	*len = body ? strlen(body) : 0;
	return body;
}

/* SO_LINGER 0: the close resets the connection, dropping what the kernel still holds for it */
static const struct linger agent_reset = { .l_onoff = 1, .l_linger = 0 };

/* k's answer is all sent or gone: its bytes leave the queued total. */
static void agent_conn_unqueue(struct agent *ag, struct agent_conn *k)
{
	ag->queued -= k->queued;
	k->queued = 0;
}

/*
 * Cut k, whatever it is doing: MHD sees the end of the stream and closes it. An answer it was
 * being sent is dropped (SO_LINGER 0: MHD's close resets the connection), so its bytes are
 * not left in the kernel, pushed for minutes to a reader that reads nothing.
 */
static void agent_conn_cut(struct agent *ag, struct agent_conn *k)
{
	if (k->answering)
		setsockopt(k->fd, SOL_SOCKET, SO_LINGER, &agent_reset, sizeof(agent_reset));
	shutdown(k->fd, SHUT_RDWR);
	agent_conn_unqueue(ag, k);
	k->cut = true;
	k->waiting = k->answering = false;
}

/* The connections of k's address (k's own too), those cut not counted: they are going. */
static uint32_t agent_conns_of_addr(const struct agent *ag, const struct agent_conn *k)
{
	uint32_t i, n = 0;

	for (i = 0; i < AGENT_MAX_CONNS; i++) {
		const struct agent_conn *o = &ag->conns[i];

		n += o->used && !o->cut && o->family == k->family &&
		     !memcmp(o->addr, k->addr, sizeof(o->addr));
	}
	return n;
}

/*
 * Near the cap in all (room for one address's 8 left), one connection is cut to make room for
 * the newcomer k: however many addresses hold connections, idle, dawdling over a request or
 * reading an answer slowly, MHD never reaches its limit and stops accepting, and a new client
 * is served. The one cut is of the address that holds the most connections, and of those the
 * one waiting for a request, or for its answer to be read, the longest: a sender's one
 * keep-alive connection is not cut while anybody holds more. The newcomer itself is the one
 * cut when its address, holding another already, holds the most: an address that keeps
 * reconnecting cannot cut the others' connections one by one (each a new request to answer,
 * /metrics taking 40 ms of this thread), while an address's first connection always gets in.
 * A connection whose request is being answered right now is not touched.
 */
static void agent_conns_make_room(struct agent *ag, struct agent_conn *k)
{
	struct agent_conn *victim = NULL;
	uint32_t i, used = 0, n, most = 0;

	for (i = 0; i < AGENT_MAX_CONNS; i++)
		used += ag->conns[i].used && !ag->conns[i].cut;
	if (used <= AGENT_MAX_CONNS - AGENT_MAX_PER_IP)
		return;
	for (i = 0; i < AGENT_MAX_CONNS; i++) {
		struct agent_conn *o = &ag->conns[i];

		if (o == k || !o->used || o->cut || !(o->waiting || o->answering))
			continue;
		n = agent_conns_of_addr(ag, o);
		if (!victim || n > most || (n == most && o->since < victim->since)) {
			victim = o;
			most = n;
		}
	}
	n = agent_conns_of_addr(ag, k);
	if (n > 1 && n >= most)
		victim = k;
	if (victim)
		agent_conn_cut(ag, victim);
}

/*
 * k's answer of len bytes is queued: its deadline starts, and past AGENT_ANSWER_BYTES queued in
 * all the readers that have held theirs longest are cut (a reader that keeps up has drained
 * its answer long before). One answer alone is never cut for its size.
 */
static void agent_conn_answering(struct agent *ag, struct agent_conn *k, size_t len)
{
	double now = pb_now();
	uint32_t i;

	pthread_mutex_lock(&ag->conns_mu);
	k->answering = true;
	k->since = now;
	k->deadline = now + AGENT_ANSWER_S;
	k->queued = len;
	ag->queued += len;
	while (ag->queued > AGENT_ANSWER_BYTES) {
		struct agent_conn *oldest = NULL;

		for (i = 0; i < AGENT_MAX_CONNS; i++) {
			struct agent_conn *o = &ag->conns[i];

			if (o != k && o->used && o->answering &&
			    (!oldest || o->since < oldest->since))
				oldest = o;
		}
		if (!oldest)
			break;
		agent_conn_cut(ag, oldest);
	}
	pthread_mutex_unlock(&ag->conns_mu);
}

/* MHD_OPTION_NOTIFY_CONNECTION: a connection's slot, from its accept to its close. */
static void agent_conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			      enum MHD_ConnectionNotificationCode code)
{
	struct agent *ag = cls;
	struct agent_conn *k = *socket_context;
	const union MHD_ConnectionInfo *ci, *ca;
	const struct sockaddr *sa;
	uint32_t i;

	pthread_mutex_lock(&ag->conns_mu);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		ca = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		for (i = 0; ci && i < AGENT_MAX_CONNS && ag->conns[i].used; i++)
			;
		/* MHD holds at most AGENT_MAX_CONNS: a slot is always free */
		if (ci && i < AGENT_MAX_CONNS) {
			k = &ag->conns[i];
			*k = (struct agent_conn){
				.used = true, .waiting = true, .fd = ci->connect_fd, .conn = c
			};
			sa = ca ? ca->client_addr : NULL;
			if (sa && sa->sa_family == AF_INET) {
				k->family = AF_INET;
				memcpy(k->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
			} else if (sa && sa->sa_family == AF_INET6) {
				k->family = AF_INET6;
				memcpy(k->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
			}
			k->since = pb_now();
			k->deadline = k->since + AGENT_REQUEST_S;
			*socket_context = k;
			agent_conns_make_room(ag, k);
		}
	} else if (k) {
		agent_conn_unqueue(ag, k);
		k->used = false;
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&ag->conns_mu);
}

/*
 * Connections whose request or whose answer's reading is late, cut (the main loop, every
 * 100 ms). Slowloris sends a byte every few seconds, each resetting MHD's idle timeout, and a
 * slow reader reads one: these deadlines do not move.
 */
static void agent_conns_sweep(struct agent *ag)
{
	double now = pb_now();
	uint32_t i, requests = 0, answers = 0;

	pthread_mutex_lock(&ag->conns_mu);
	for (i = 0; i < AGENT_MAX_CONNS; i++) {
		struct agent_conn *k = &ag->conns[i];

		if (k->used && (k->waiting || k->answering) && now > k->deadline) {
			requests += k->waiting;
			answers += k->answering;
			agent_conn_cut(ag, k);
		}
	}
	pthread_mutex_unlock(&ag->conns_mu);
	if (requests)
		pr_debug("receive: closed %u connection(s) without a request within %.0f s\n",
			 requests, AGENT_REQUEST_S);
	if (answers)
		pr_debug("receive: closed %u connection(s) not reading an answer within %.0f s\n",
			 answers, AGENT_ANSWER_S);
}

static struct agent_conn *agent_conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/*
 * MHD_OPTION_URI_LOG_CALLBACK: the request target as it came, before MHD splits off the
 * query and decodes the path (so an escaped NUL is still visible). Its return value is the
 * request's *req_cls: the connection's slot.
 */
static void *agent_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct agent_conn *k = agent_conn_of(c);
	char *q;

	(void)cls;
	if (!k)
		return NULL;
	k->target_err = pb_api_target(uri, k->path, sizeof(k->path));
	/*
	 * MHD stores each query parameter in the connection's memory next; 300 of them fill it
	 * and the connection is closed with no answer. The API takes none: the query is blanked
	 * in MHD's own buffer (the string is its read buffer, writable; only the part after '?'
	 * is touched), having been counted above for the 414.
	 */
	q = strchr(uri, '?');
	if (q)
		memset(q + 1, 0, strlen(q + 1));
	return k;
}

/* MHD_OPTION_NOTIFY_COMPLETED: the answer is out; the next request's deadline starts. */
static void agent_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			    enum MHD_RequestTerminationCode toe)
{
	struct agent *ag = cls;
	struct agent_conn *k = *req_cls;

	(void)c;
	(void)toe;
	if (!k)
		return;
	pthread_mutex_lock(&ag->conns_mu);
	agent_conn_unqueue(ag, k);
	k->waiting = !k->cut;
	k->headers_in = k->answered = k->answering = false;
	k->since = pb_now();
	k->deadline = k->since + AGENT_REQUEST_S;
	pthread_mutex_unlock(&ag->conns_mu);
	*req_cls = NULL;
}

struct agent_hdrs {
	unsigned int hosts;
	size_t bytes;
};

static enum MHD_Result agent_hdr(void *cls, enum MHD_ValueKind kind, const char *key,
				 const char *value)
{
	struct agent_hdrs *h = cls;

	(void)kind;
	h->hosts += key && !strcasecmp(key, MHD_HTTP_HEADER_HOST);
	h->bytes += (key ? strlen(key) : 0) + (value ? strlen(value) : 0) + 4; /* ": ", CRLF */
	return MHD_YES;
}

/* A request's route by its target, headers and method; the run id into *run_id. */
static enum pb_api_route agent_route(struct MHD_Connection *c, const struct agent_conn *k,
				     const char *url, const char *method, const char *version,
				     uint32_t *run_id)
{
	struct agent_hdrs h = { 0 };

	if (k && k->target_err)
		return k->target_err == -ENAMETOOLONG ? PB_API_TOO_LONG : PB_API_MALFORMED;
	MHD_get_connection_values(c, MHD_HEADER_KIND, agent_hdr, &h);
	if (h.bytes > AGENT_MAX_HEADERS)
		return PB_API_HEADERS_TOO_LARGE;
	/* RFC 9112 3.2: exactly one Host in HTTP/1.1; HTTP/1.0 may go without */
	if (h.hosts > 1 || (!h.hosts && strcmp(version, MHD_HTTP_VERSION_1_0)))
		return PB_API_MALFORMED;
	return pb_api_route(method, k ? k->path : url, run_id);
}

static bool agent_has_body(struct MHD_Connection *c)
{
	const char *cl =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	/* "00" is a zero body too (1*DIGIT); MHD has refused what is not a number */
	return (cl && cl[strspn(cl, "0")]) ||
	       MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

static enum MHD_Result agent_request(void *cls, struct MHD_Connection *c, const char *url,
				     const char *method, const char *version,
				     const char *upload_data, size_t *upload_data_size,
				     void **req_cls)
{
	struct agent *ag = cls;
	struct agent_conn *k = *req_cls;
	struct MHD_Response *resp;
	enum pb_api_route route;
	const char *type, *accept;
	unsigned int status;
	uint32_t run_id = 0;
	enum MHD_Result ret;
	int format = 0;
	bool busy;
	char *body;
	size_t len;

	(void)upload_data;
	if (k && !k->headers_in) {
		pthread_mutex_lock(&ag->conns_mu);
		k->waiting = false;
		k->headers_in = true;
		pthread_mutex_unlock(&ag->conns_mu);
		/*
		 * Answered on the next call, when MHD has the whole request: an answer queued
		 * before that makes MHD close the connection after it (no keep-alive). A request
		 * with a body is answered now, and closed: no body is read.
		 */
		if (!agent_has_body(c))
			return MHD_YES;
	}
	*upload_data_size = 0;
	if (k && k->answered)
		return MHD_YES;
	if (k)
		k->answered = true;
	route = agent_route(c, k, url, method, version, &run_id);
	if (route == PB_API_METRICS) {
		accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
		format = pb_api_negotiate_metrics(accept);
		if (format < 0)
			route = PB_API_NOT_ACCEPTABLE;
	}
	/*
	 * /metrics (hundreds of KB, 40 ms of this thread to make) only while the answers queued
	 * have room for another: slow readers holding them get 503 at no cost, not a new answer
	 * for each one cut, and the sweep frees their room within AGENT_ANSWER_S.
	 */
	pthread_mutex_lock(&ag->conns_mu);
	busy = route == PB_API_METRICS && ag->queued + ag->metrics_len > AGENT_ANSWER_BYTES;
	pthread_mutex_unlock(&ag->conns_mu);
	if (busy) {
		status = MHD_HTTP_SERVICE_UNAVAILABLE;
		type = "application/json";
		body = pb_api_error_json("busy: slow readers hold the answers' memory; try again");
		len = body ? strlen(body) : 0;
	} else {
		body = agent_answer(ag, route, run_id, k ? k->path : url, format == 1, &status,
				    &type, &len);
		if (body && route == PB_API_METRICS)
			ag->metrics_len = len;
	}
	if (ag->log_requests)
		pr_info("receive: %s %s: %u\n", method, url, status);
	if (!body)
		return MHD_NO; /* out of memory: MHD closes the connection */
	resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (route == PB_API_METRICS || route == PB_API_NOT_ACCEPTABLE)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (busy)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "5");
	/* before: whatever MHD does with the connection from here, the bytes are counted */
	if (k)
		agent_conn_answering(ag, k, len);
	ret = MHD_queue_response(c, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/*
 * libmicrohttpd 0.9.75 answers a Content-Length that is no number (-1: 400) or too large
 * (413) itself, before any callback of ours, and sends its status line and headers twice: it
 * builds them for its error, then again when its state machine, not told, goes on to reply.
 * Its log line, which comes first, is the one hook in between: the connection whose headers
 * are in (MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) but that has neither reached our handler
 * nor an answer queued is that request's. It is answered here, once, and shut for writing,
 * so MHD's own answer cannot follow and MHD closes it. Anything else (another version's log
 * text, not exactly one such connection): MHD's answer goes out as it is.
 */
static void agent_bad_length(struct agent *ag, bool too_large)
{
	struct agent_conn *k = NULL;
	char *body = NULL, answer[512];
	uint32_t i, n = 0;
	int len = 0;

	pthread_mutex_lock(&ag->conns_mu);
	for (i = 0; i < AGENT_MAX_CONNS; i++) {
		struct agent_conn *o = &ag->conns[i];

		if (o->used && !o->cut && !o->headers_in &&
		    MHD_get_connection_info(o->conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) &&
		    !MHD_get_connection_info(o->conn, MHD_CONNECTION_INFO_HTTP_STATUS)) {
			k = o;
			n++;
		}
	}
	if (n == 1)
		body = pb_api_error_json(
			too_large ? "Content-Length: too large (the API reads no body)"
				  : "Content-Length: not a number");
	if (body)
		len = snprintf(answer, sizeof(answer),
			       "HTTP/1.1 %s\r\nContent-Type: application/json\r\nCache-Control: "
			       "no-store\r\nConnection: close\r\nContent-Length: %zu\r\n\r\n%s",
			       too_large ? "413 Content Too Large" : "400 Bad Request",
			       strlen(body), body);
	if (len > 0 && (size_t)len < sizeof(answer)) {
		/* a socket buffer too full to take it whole: a reset, not an answer cut short */
		if (send(k->fd, answer, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) != len)
			setsockopt(k->fd, SOL_SOCKET, SO_LINGER, &agent_reset, sizeof(agent_reset));
		shutdown(k->fd, SHUT_WR);
		k->cut = true;
		k->waiting = false;
	}
	pthread_mutex_unlock(&ag->conns_mu);
	free(body);
}

static void agent_mhd_log(void *cls, const char *fmt, va_list ap)
{
	char line[256];

	if (!fmt)
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	line[strcspn(line, "\n")] = '\0';
	pr_debug("receive: http: %s\n", line);
	if (strstr(fmt, "Content-Length' header"))
		agent_bad_length(cls, !strncmp(fmt, "Too large", 9));
}

static struct MHD_Daemon *agent_listen(struct agent *ag, const struct pb_receive_opts *o)
{
	struct sockaddr_storage ss;
	socklen_t len;
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;

	if (pb_api_parse_listen(o->listen, &ss, &len))
		return NULL; /* validated before */
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* the logger first, so MHD's messages about the other options come through it too */
	return MHD_start_daemon(
		flags, ntohs(((struct sockaddr_in *)&ss)->sin_port), NULL, NULL, agent_request, ag,
		MHD_OPTION_EXTERNAL_LOGGER, agent_mhd_log, ag, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT, (unsigned int)AGENT_MAX_CONNS,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)AGENT_MAX_PER_IP,
		MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)AGENT_BACKLOG,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)AGENT_REQ_MEMORY,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)AGENT_IDLE_S,
		MHD_OPTION_NOTIFY_CONNECTION, agent_conn_notify, ag, MHD_OPTION_URI_LOG_CALLBACK,
		agent_uri, ag, MHD_OPTION_NOTIFY_COMPLETED, agent_completed, ag, MHD_OPTION_END);
}

/*
 * What /v1/info tells that does not change while the agent runs: the interface as attached
 * (its name is read again by its index per request).
 */
static void agent_info(struct agent *ag)
{
	const struct pb_netif *nif = pb_rx_netif(ag->rx);
	struct pb_api_info *info = &ag->info;

	info->api = PB_API_VERSION;
	snprintf(info->version, sizeof(info->version), "%s", PB_VERSION);
	snprintf(info->ifname, sizeof(info->ifname), "%s", nif->name);
	info->ifindex = nif->ifindex;
	snprintf(info->driver, sizeof(info->driver), "%s", nif->driver);
	memcpy(info->mac, nif->mac, 6);
	info->mtu = nif->mtu;
	info->rx_queues = nif->rx_queues;
	snprintf(info->xdp_mode, sizeof(info->xdp_mode), "%s", pb_rx_mode(ag->rx));
	info->xdp_frags = pb_rx_frags(ag->rx);
}

/*
 * The interface, by its index, once per tick of the main loop: a rename is followed (and
 * said), a deletion (or a move to another namespace) is -ENODEV, which ends the agent: there
 * is nothing left to count on, and a service manager can start it again on a new interface.
 */
static int agent_follow_iface(struct agent *ag, char *ifname)
{
	char now[IF_NAMESIZE];
	int err = pb_rx_ifname(ag->rx, now);

	if (err)
		return err == -ENODEV ? err : 0; /* anything else: try again at the next tick */
	if (strcmp(now, ifname)) {
		fprintf(stderr, "pktbench receive: %s (index %d) is now %s; counting on\n", ifname,
			ag->info.ifindex, now);
		snprintf(ifname, IF_NAMESIZE, "%s", now);
	}
	return 0;
}

static void agent_signals(void)
{
	struct sigaction sa = { .sa_handler = agent_on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * a dropped SSH session: detach and put a user's program back (--force) as for SIGTERM,
	 * rather than die and leave it off the interface, pinned, until --restore
	 */
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int pb_receive_main(int argc, char **argv)
{
	struct pb_receive_opts o;
	struct pb_rx_opts ro = { 0 };
	struct agent ag = { 0 };
	struct MHD_Daemon *d = NULL;
	const struct timespec nap = { 0, 100 * 1000 * 1000 };
	enum pb_opt_action action;
	char err[512], caps[128], ifname[IF_NAMESIZE];
	int ret, sig, gone = 0;
	unsigned int naps = 0;

	if (pb_cmd_parse(&pb_cmd_receive, &o, argc, argv, &action, NULL, err, sizeof(err))) {
		pb_log_say("pktbench receive", err);
		return EXIT_BADINPUT;
	}
	if (action == PB_OPT_HELP) {
		pb_cmd_usage(&pb_cmd_receive, stdout);
		return 0;
	}
	pb_log_set_level(PB_LOG_WARN + (o.verbose > 2 ? 2 : o.verbose));
	pb_log_route_libbpf();
	ag.log_requests = o.verbose >= 2;
	if (pb_caps_check(true, false, caps, sizeof(caps))) {
		fprintf(stderr, "pktbench receive: missing capabilities: %s (run as root)\n", caps);
		return EXIT_BADINPUT;
	}
	if (o.restore[0]) {
		ret = (int)if_nametoindex(o.restore);
		if (!ret) {
			fprintf(stderr, "pktbench receive: --restore %s: no such interface\n",
				o.restore);
			return EXIT_BADINPUT;
		}
		return pb_xdp_att_restore("restore", o.restore, ret) ? 1 : 0;
	}
	if (!if_nametoindex(o.iface)) {
		fprintf(stderr, "pktbench receive: --iface %s: no such interface\n", o.iface);
		return EXIT_BADINPUT;
	}
	agent_signals();

	ro.ifname = o.iface;
	ro.mode = (enum pb_xdp_mode)o.xdp_mode;
	ro.force = o.force;
	ret = pb_rx_attach(&ag.rx, &ro);
	if (ret)
		return 1; /* it said why */
	ag.t0 = pb_now();
	pthread_mutex_init(&ag.conns_mu, NULL);
	agent_info(&ag);
	ag.info.instance = agent_instance();
	/* no fallback: a key that could be guessed would show the run ids it hides */
	if (getrandom(ag.label_key, sizeof(ag.label_key), 0) != sizeof(ag.label_key)) {
		fprintf(stderr, "pktbench receive: no random bytes for the labels' key: %s\n",
			strerror(errno));
		goto out;
	}
	d = agent_listen(&ag, &o);
	if (!d) {
		fprintf(stderr,
			"pktbench receive: cannot listen on %s (in use, or not an address of this "
			"host?)\n",
			o.listen);
		goto out;
	}
	fprintf(stderr,
		"pktbench receive: counting on %s (%s XDP); API on http://%s (/v1/info, "
		"/v1/runs/RUN_ID, /v1/tests/UUID, /metrics)\n",
		o.iface, pb_rx_mode(ag.rx), o.listen);
	snprintf(ifname, sizeof(ifname), "%s", o.iface);
	while (!gone && !__atomic_load_n(&agent_stop, __ATOMIC_RELAXED) &&
	       (!o.duration_s || pb_now() - ag.t0 < o.duration_s)) {
		nanosleep(&nap, NULL);
		agent_conns_sweep(&ag);
		gone = agent_follow_iface(&ag, ifname);
		/* an address added or removed: frames to it are the host's, or no longer (a look
		 * a second: each is a netlink dump, and the loop also keeps the API's pace) */
		if (!gone && ++naps % 10 == 0)
			pb_rx_refresh_addrs(ag.rx);
	}
	MHD_stop_daemon(d);
	free(ag.metrics[0].text);
	free(ag.metrics[1].text);
	pb_rx_detach(ag.rx);
	if (gone) {
		fprintf(stderr,
			"pktbench receive: %s (index %d) was deleted or left this namespace after "
			"%.1f s: nothing to count on; exiting\n",
			ifname, ag.info.ifindex, pb_now() - ag.t0);
		return 1;
	}
	sig = __atomic_load_n(&agent_stop, __ATOMIC_RELAXED);
	fprintf(stderr, "pktbench receive: stopped by %s after %.1f s; detached from %s\n",
		sig == SIGINT	 ? "SIGINT"
		: sig == SIGTERM ? "SIGTERM"
		: sig == SIGHUP	 ? "SIGHUP"
				 : "--duration",
		pb_now() - ag.t0, ifname);
	return 0;
out:
	pb_rx_detach(ag.rx);
	return 1;
}
