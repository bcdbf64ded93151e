/* SPDX-License-Identifier: MIT */
/*
 * The receive agent's HTTP API, as data: which request is which, the JSON answers (json-c)
 * and the Prometheus / OpenMetrics text, written from plain structs, and the sender's
 * parsers of those answers. No sockets here, so the unit tests and a fuzzer reach all of it.
 *
 *   GET /v1/info          what the agent is: version, interface, driver, MAC, addresses,
 *                         RX queues, XDP mode, clock, instance (random at its start; also in
 *                         every run's answer, so a sender sees a restart mid-run), the runs
 *                         table: its size, runs held, kept and evicted ("runs_*")
 *   GET /v1/runs/RUN_ID   one run's counts (RUN_ID decimal, 0 .. 4294967295) and the
 *                         interface's counters; a run never seen: 200, "seen": false, zeros;
 *                         with latency probes or pacing, each stream's counts ("streams");
 *                         reading a run keeps it from being evicted ("kept"); "evicted": counts
 *                         of it were pushed out of the table
 *   GET /v1/runs/RUN_ID/hist/lat   the run's probe latency histogram, and .../hist/gap
 *                         the gaps between a paced run's frames: [[upper_bound_ns, count]]
 *   GET /metrics          every run and the interface, as Prometheus text; runs and tests
 *                         by their labels (pb_api_run_label), never by their ids
 * HEAD as GET; paths that are not there 404 (any method), other methods 405, a malformed run
 * id 400; the agent adds 400 (bad target, Host), 414, 431 and 406 (/metrics' Accept).
 */
#ifndef PB_API_H
#define PB_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <sys/socket.h>

#include "config.h"
#include "rx_source.h"

#define PB_API_VERSION	 1
#define PB_API_MAX_ADDRS 16
#define PB_API_MAX_BODY	 (1u << 20) /* the largest answer a sender reads (/v1/ answers) */

/* What a request asks for. */
enum pb_api_route {
	PB_API_INFO,
	PB_API_RUN,
	PB_API_HIST_LAT, /* /v1/runs/RUN_ID/hist/lat */
	PB_API_HIST_GAP, /* /v1/runs/RUN_ID/hist/gap */
	PB_API_METRICS,
	PB_API_TEST,	    /* /v1/tests/UUID: the sums of the runs that announced that test */
	PB_API_NOT_FOUND,   /* 404 */
	PB_API_BAD_METHOD,  /* 405: only GET and HEAD */
	PB_API_BAD_REQUEST, /* 400: /v1/runs/ with something that is not a run id */
	PB_API_BAD_TEST_ID, /* 400: /v1/tests/ with something that is not a UUID */
	PB_API_MALFORMED,   /* 400: a bad escape or NUL in the path, not one Host header */
	PB_API_TOO_LONG,    /* 414: the target is longer, or has more parameters, than we take */
	PB_API_HEADERS_TOO_LARGE, /* 431 */
	PB_API_NOT_ACCEPTABLE,	  /* 406: /metrics in neither format the Accept header takes */
};

/* The agent, as GET /v1/info tells it. */
struct pb_api_info {
	uint32_t api;	  /* PB_API_VERSION */
	char version[64]; /* pktbench's */
	char ifname[IF_NAMESIZE];
	int ifindex;
	char driver[32];
	uint8_t mac[6];
	uint32_t mtu;
	uint32_t rx_queues;
	char xdp_mode[16]; /* "native" or "generic" */
	bool xdp_frags;	   /* multi-buffer: frames over a page (jumbo MTUs) counted whole */
	uint32_t naddrs;
	struct pb_addr addrs[PB_API_MAX_ADDRS];
	uint64_t now_ns; /* the agent's CLOCK_MONOTONIC: what first_ns / last_ns compare with */
	double uptime_s;
	uint64_t instance; /* random at the agent's start: a new one is a restarted agent */
	/*
	 * The receiver's runs table (struct pb_rx_table_stats): its size and the run ids it
	 * holds, the kept runs (which new ids cannot push out) and their room, and the runs
	 * pushed out since the start. An agent that predates them says none: all 0.
	 */
	uint32_t runs_capacity, runs_held, runs_kept, runs_kept_capacity;
	uint64_t runs_evicted;
};

/*
 * The labels /metrics shows in place of run ids and test UUIDs. A frame or an announcement
 * counts for the run id it carries, so a run id shown is a run anyone on the test network can
 * add frames to, or move into another test. A run's label is a keyed digest: the first 16 hex
 * digits of SHA-256(the agent's secret, random at its start, then the run id big-endian), which
 * tells nothing of the run id and changes when the agent restarts; /v1/runs/RUN_ID gives it
 * ("label"). A test's label is the first 16 hex digits of SHA-256 of its UUID as written, lower
 * case: the same on every agent, so a fleet's series sum by it, and found from the UUID alone
 * (`printf %s UUID | sha256sum | cut -c1-16`, or /v1/tests/UUID's "label"); a UUID has far too
 * many bits to be found from it.
 */
#define PB_API_KEY_LEN	 16
#define PB_API_LABEL_LEN 17 /* 16 hex digits and the NUL */

void pb_api_sha256(const void *data, size_t len, uint8_t out[32]);
void pb_api_run_label(const uint8_t key[PB_API_KEY_LEN], uint32_t run_id,
		      char out[PB_API_LABEL_LEN]);
/* test_id: the UUID as pb_parse_test_id() writes it; "" gives "". */
void pb_api_test_label(const char *test_id, char out[PB_API_LABEL_LEN]);

/* One run's answer: its counts, the interface's counters now, the agent's clock now. */
struct pb_api_run {
	struct pb_rx_run run; /* run.instance and ifs.instance: the agent's instance */
	struct pb_rx_ifstats ifs;
	uint64_t now_ns;
	char label[PB_API_LABEL_LEN]; /* the run's label on /metrics; "": not in the answer */
};

/* An instance id fits a JSON number exactly (a double's 53 bits); 0 is "unknown". */
#define PB_API_INSTANCE_MAX ((1ull << 53) - 1)

/* Whose test a run is, as labels: "" where the run announced none (pb_bpf.h). */
struct pb_api_run_tag {
	char test_id[40]; /* the UUID, lower case */
	char shard[24];	  /* "I/N" */
};

/* A run's announcement as its labels. */
struct pb_rx_meta;
void pb_api_run_tag(const struct pb_rx_meta *meta, struct pb_api_run_tag *tag);

#define PB_API_MAX_SHARDS      256 /* shards /v1/tests/UUID lists one by one; all are summed */
#define PB_API_MAX_EVICTED_IDS 64  /* runs of a test that aged out, listed (all are counted) */

/* GET /v1/tests/UUID: the runs that announced the test, summed, and per shard. */
struct pb_api_test {
	char test_id[40];
	uint32_t runs;
	uint64_t frames, bytes;
	struct pb_api_test_shard {
		char shard[24]; /* "I/N", "" for runs without --shard */
		uint32_t runs;
		uint64_t frames, bytes;
		/*
		 * its first frame's arrival (CLOCK_MONOTONIC, the agent's): a paced run's first
		 * timed frame, to the ns, or the run's first frame at the coarse clock's tick
		 */
		uint64_t first_ns;
		bool first_timed;
	} shards[PB_API_MAX_SHARDS];
	uint32_t nshards;
	uint64_t realtime_ns; /* CLOCK_REALTIME at now_ns: an arrival's wall time */
	/* its runs whose counts were pushed out of the runs table: not in the sums above */
	uint32_t evicted_runs, nevicted_ids;
	uint32_t evicted_ids[PB_API_MAX_EVICTED_IDS];
	uint64_t now_ns;
};

/* Adds a run (its counts and tag) to a test's sums. */
void pb_api_test_add(struct pb_api_test *t, const struct pb_rx_run *r,
		     const struct pb_api_run_tag *tag);
/* Notes a run of the test whose counts aged out of the runs table. */
void pb_api_test_evicted(struct pb_api_test *t, uint32_t run_id);
char *pb_api_test_json(const struct pb_api_test *t);
/* /v1/tests/UUID's UUID into out (lower case), or -EINVAL. */
int pb_api_test_id(const char *path, char *out);

/* Everything /metrics shows. */
/*
 * A run's probe latency for /metrics: a Prometheus histogram of PB_API_LAT_LE bounds (10 us to
 * 1 s, then +Inf), counts cumulative, from the receiver's fine histogram.
 */
#define PB_API_LAT_LE 16
struct pb_api_lat {
	uint64_t le[PB_API_LAT_LE + 1]; /* probes at or below each bound; the last: all */
};

/* The bound of le[i] in seconds (i < PB_API_LAT_LE). */
double pb_api_lat_bound(unsigned int i);
/* A receiver's PB_RX_HIST_BUCKETS latency counts (ns) into the coarse, cumulative histogram. */
void pb_api_lat_fold(const uint64_t *counts, struct pb_api_lat *out);

struct pb_api_metrics {
	const struct pb_api_info *info;
	const uint8_t *label_key; /* PB_API_KEY_LEN bytes: the runs' labels (pb_api_run_label) */
	struct pb_rx_ifstats ifs;
	uint64_t foreign_frames, foreign_bytes; /* frames without a signature, passed */
	uint64_t slot_switches;
	const struct pb_rx_run *runs;
	const struct pb_api_run_tag *tags; /* one per run, or NULL */
	const struct pb_api_lat *lat;	   /* one per run (all 0 without probes), or NULL */
	uint32_t nruns;
};

/*
 * The route of a request line's method and path (without the query string); RUN sets
 * *run_id. Never reads past the strings' NULs.
 */
enum pb_api_route pb_api_route(const char *method, const char *path, uint32_t *run_id);
/* The HTTP status of a route that is not an answer (404, 405, 400), and its message. */
unsigned int pb_api_status(enum pb_api_route r, const char **msg);

/* The answers as JSON text, malloc'd (free them); NULL when out of memory. */
char *pb_api_info_json(const struct pb_api_info *info);
char *pb_api_run_json(const struct pb_api_run *r);
/* A run's histogram (PB_RX_HIST_BUCKETS counts) as its buckets that hold samples. */
char *pb_api_hist_json(uint32_t run_id, enum pb_rx_hist which, const uint64_t *counts);
char *pb_api_error_json(const char *msg);
/*
 * The metrics as text, malloc'd, *len its length. openmetrics: the OpenMetrics 1.0 form
 * (counter families without _total, "# EOF" last); else Prometheus text 0.0.4.
 */
char *pb_api_metrics_text(const struct pb_api_metrics *m, bool openmetrics, size_t *len);
/* The Content-Type of that text. */
const char *pb_api_metrics_type(bool openmetrics);
/*
 * Which /metrics format an Accept header (NULL: none) asks for, by RFC 9110 12.5.1: 1
 * OpenMetrics, 0 Prometheus text, -1 neither (406).
 */
int pb_api_negotiate_metrics(const char *accept);

#define PB_API_MAX_TARGET 1024 /* the longest request target (path and query) we take */
#define PB_API_MAX_PARAMS 32   /* query parameters (ignored, but MHD stores each) */

/*
 * A request target as it came, before any decoding: its path percent-decoded into path
 * (pathlen bytes with the NUL), the query dropped. 0; -EINVAL (400): not starting with '/',
 * a bad escape or an escaped NUL; -ENAMETOOLONG (414): longer than PB_API_MAX_TARGET, more
 * than PB_API_MAX_PARAMS parameters, or a path longer than pathlen.
 */
int pb_api_target(const char *raw, char *path, size_t pathlen);

/*
 * --listen ADDR:PORT: an IPv4 address and port, or [IPv6]:PORT, into *ss (and *len). 0 or
 * -EINVAL.
 */
int pb_api_parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len);
/*
 * --receiver URL: http://HOST[:PORT][/], nothing else (no https, user, path or query). The
 * base to put paths after goes to base (without the trailing slash). 0, or -EINVAL with why.
 */
int pb_api_check_url(const char *url, char *base, size_t baselen, char *err, size_t errlen);

/*
 * The sender's side: an answer of len bytes (not NUL-terminated) into the struct. 0, or
 * -EBADMSG with what was wrong in err: not JSON, a field missing or of the wrong type, a
 * number out of range, another run id than asked for.
 */
int pb_api_parse_info(const char *text, size_t len, struct pb_api_info *out, char *err,
		      size_t errlen);
int pb_api_parse_run(const char *text, size_t len, uint32_t run_id, struct pb_api_run *out,
		     char *err, size_t errlen);
/* A histogram answer into PB_RX_HIST_BUCKETS counts; each pair's bound must be a bucket's. */
int pb_api_parse_hist(const char *text, size_t len, uint32_t run_id, enum pb_rx_hist which,
		      uint64_t *counts, char *err, size_t errlen);

#endif
