// SPDX-License-Identifier: MIT
/*
 * The receiver test's helper (tests/net/test_receiver.sh), so the test can drive the
 * receiver with known answers:
 *   rx_probe recv NETNS IFACE [auto|native|generic] [force]
 *       attaches the receiver to IFACE inside /run/netns/NETNS, goes back to the namespace
 *       it started in, prints "attached MODE", then answers one line per command on stdin:
 *       "run ID", "source ID" (the same through a struct pb_rx_source), "foreign", "runs",
 *       "ifstats"; EOF or "quit" detaches.
 *       "switches" (slot switches summed over CPUs); "probes ID" (one line per stream:
 *       its probes and paced gaps), "hist ID lat|gap" (the histogram's count and p1/p50/p99);
 *   rx_probe send NETNS IFACE DSTMAC RUN COUNT PORTS VLAN KIND [BURST GAP_MS [PHASE_MS]]
 *       sends COUNT frames 198.18.77.1 -> 198.18.77.2 from IFACE inside NETNS over AF_PACKET,
 *       with run id RUN (hex), PORTS source ports from 10000, VLAN (0: untagged), kind N or P;
 *       with BURST, in bursts of BURST frames GAP_MS apart; with PHASE_MS, each burst starts
 *       PHASE_MS after a multiple of GAP_MS on CLOCK_MONOTONIC, so two senders keep a phase
 *       however late each process started.
 *   rx_probe probes NETNS IFACE DSTMAC RUN KIND DELAY_US[/DELAY2_US] GAP_US SEQ[,SEQ..]
 *       sends one frame of kind KIND (P, T, p, t: probes; n: a paced run's ordinary frame)
 *       per SEQ, GAP_US apart, on stream 0 of run RUN: a probe carries SEQ and a transmit
 *       time DELAY_US before now (CLOCK_MONOTONIC, CLOCK_TAI for T and t), so its one-way
 *       latency is DELAY_US plus the path's own; with DELAY2_US every other probe's is that.
 *   rx_probe churn NETNS IFACE DSTMAC RUN SECS [RATE]
 *       for SECS seconds, one frame per run id RUN, RUN+1, ... (hex) as fast as the socket
 *       takes them: run ids arrive faster than the receiver's LRU holds them (the agent's
 *       /metrics under churn); prints "sent N" at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "clock.h"
#include "frame.h"
#include "latency.h"
#include "log.h"
#include "netif.h"
#include "rx.h"

static int enter_netns(const char *name)
{
	char path[128];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET))
		err = -errno;
	if (fd >= 0)
		close(fd);
	if (err)
		fprintf(stderr, "rx_probe: cannot enter %s: %s\n", path, strerror(-err));
	return err;
}

static void print_run(const char *what, const struct pb_rx_run *r)
{
	struct timespec now;
	uint64_t qsum = 0;
	uint32_t i;

	printf("%s %08x seen=%d frames=%llu bytes=%llu flows=%u", what, r->run_id, r->seen,
	       (unsigned long long)r->frames, (unsigned long long)r->bytes, r->flows_seen);
	printf(" vlans=");
	for (i = 0; i < r->nvlans; i++)
		printf("%s%u", i ? "," : "", r->vlans[i]);
	for (i = 0; i < r->nqueues; i++)
		qsum += r->queue_frames[i];
	printf(" nqueues=%u qsum=%llu ordered=%d", r->nqueues, (unsigned long long)qsum,
	       r->first_ns <= r->last_ns && (!r->frames || r->first_ns));
	/* arrival times are CLOCK_MONOTONIC (coarse): how long the run took, how long ago */
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf(" span_ms=%lld age_ms=%lld\n", (long long)(r->last_ns - r->first_ns) / 1000000,
	       r->frames ? ((long long)now.tv_sec * 1000000000 + now.tv_nsec -
			    (long long)r->last_ns) /
				   1000000
			 : -1);
}

/* Each stream's probes and paced frames, as the receiver counted them. */
static void print_streams(const struct pb_rx_run *r)
{
	uint32_t i;

	printf("streams %u tai=%d\n", r->nstreams, r->rx_tai);
	for (i = 0; i < r->nstreams; i++) {
		const struct pb_rx_stream *s = &r->streams[i];

		printf("stream %u kind=%c probes=%llu late=%llu dup=%llu missing=%llu stray=%llu "
		       "next=%u "
		       "lat_n=%llu min_us=%llu max_us=%llu mean_us=%llu bad=%llu jitter_ns=%llu "
		       "gap_frames=%llu\n",
		       s->stream, s->probe_kind ? s->probe_kind : '-',
		       (unsigned long long)s->probes, (unsigned long long)s->late,
		       (unsigned long long)s->dup, (unsigned long long)s->missing,
		       (unsigned long long)s->stray, s->next_seq, (unsigned long long)s->lat_n,
		       (unsigned long long)s->lat_min_ns / 1000,
		       (unsigned long long)s->lat_max_ns / 1000,
		       (unsigned long long)(s->lat_n ? s->lat_sum_ns / s->lat_n / 1000 : 0),
		       (unsigned long long)s->lat_bad, (unsigned long long)s->jitter_ns,
		       (unsigned long long)s->gap_frames);
	}
}

/* One histogram of a run: how many samples, and its p1, p50 and p99 in us. */
static int print_hist(struct pb_rx *rx, uint32_t id, enum pb_rx_hist which)
{
	static uint64_t counts[PB_RX_HIST_BUCKETS];
	uint64_t n = 0;
	uint32_t b;
	int err;

	err = pb_rx_read_hist(rx, id, which, counts);
	if (err)
		return err;
	for (b = 0; b < PB_RX_HIST_BUCKETS; b++)
		n += counts[b];
	printf("hist n=%llu p1_us=%.1f p50_us=%.1f p99_us=%.1f\n", (unsigned long long)n,
	       pb_hist_quantile(counts, n, 0.01, 0, UINT64_MAX) / 1e3,
	       pb_hist_quantile(counts, n, 0.50, 0, UINT64_MAX) / 1e3,
	       pb_hist_quantile(counts, n, 0.99, 0, UINT64_MAX) / 1e3);
	return 0;
}

static int serve(struct pb_rx *rx)
{
	struct pb_rx_source src;
	char line[128];

	pb_rx_source_init(rx, &src);
	while (fgets(line, sizeof(line), stdin)) {
		struct pb_rx_run r;
		unsigned int id;
		int err = 0;

		if (sscanf(line, "run %x", &id) == 1) {
			err = pb_rx_read_run(rx, id, &r);
			if (!err)
				print_run("run", &r);
		} else if (sscanf(line, "source %x", &id) == 1) {
			err = src.read_run(src.ctx, id, &r);
			if (!err)
				print_run("source", &r);
		} else if (!strncmp(line, "foreign", 7)) {
			uint64_t f, b;

			err = pb_rx_read_foreign(rx, &f, &b);
			if (!err)
				printf("foreign frames=%llu bytes=%llu\n", (unsigned long long)f,
				       (unsigned long long)b);
		} else if (!strncmp(line, "runs", 4)) {
			uint32_t ids[16], n, i;

			err = pb_rx_list_runs(rx, ids, 16, &n);
			if (!err) {
				printf("runs %u", n);
				for (i = 0; i < n; i++)
					printf(" %08x", ids[i]);
				printf("\n");
			}
		} else if (!strncmp(line, "ifstats", 7)) {
			struct pb_rx_ifstats s;

			err = src.read_ifstats(src.ctx, &s);
			if (!err)
				printf("ifstats rx_packets=%llu rx_dropped=%llu missed=%llu "
				       "fifo=%llu "
				       "driver_drops=%llu\n",
				       (unsigned long long)s.rx_packets,
				       (unsigned long long)s.rx_dropped,
				       (unsigned long long)s.rx_missed_errors,
				       (unsigned long long)s.rx_fifo_errors,
				       (unsigned long long)s.driver_drops);
		} else if (!strncmp(line, "switches", 8)) {
			uint64_t n;

			err = pb_rx_slot_switches(rx, &n);
			if (!err)
				printf("switches %llu\n", (unsigned long long)n);
		} else if (sscanf(line, "probes %x", &id) == 1) {
			err = pb_rx_read_run(rx, id, &r);
			if (!err)
				print_streams(&r);
		} else if (sscanf(line, "hist %x", &id) == 1) {
			err = print_hist(rx, id,
					 strstr(line, "gap") ? PB_RX_HIST_GAP : PB_RX_HIST_LAT);
		} else if (!strncmp(line, "quit", 4)) {
			break;
		} else {
			printf("error unknown command\n");
		}
		if (err)
			printf("error %s\n", strerror(-err));
		fflush(stdout);
	}
	return 0;
}

static int do_recv(int argc, char **argv)
{
	struct pb_rx_opts o = { .ifname = argv[3], .mode = PB_XDP_AUTO };
	struct pb_rx *rx;
	int host, i, err;

	for (i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "native"))
			o.mode = PB_XDP_NATIVE;
		else if (!strcmp(argv[i], "generic"))
			o.mode = PB_XDP_GENERIC;
		else if (!strcmp(argv[i], "force"))
			o.force = true;
	}
	host = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (host < 0 || enter_netns(argv[2]))
		return 1;
	err = pb_rx_attach(&rx, &o);
	/* every read from here on comes from the namespace we started in */
	if (setns(host, CLONE_NEWNET)) {
		perror("rx_probe: setns back");
		pb_rx_detach(rx);
		return 1;
	}
	close(host);
	if (err)
		return 1;
	printf("attached %s\n", pb_rx_mode(rx));
	fflush(stdout);
	serve(rx);
	pb_rx_detach(rx);
	return 0;
}

/*
 * What both senders share: into NETNS, IFACE's MAC and index, the frame's addresses
 * (198.18.77.1 -> 198.18.77.2, to DSTMAC) and run id, and an AF_PACKET socket to send on.
 * The socket, or -1 (said why).
 */
static int sender_open(const char *netns, const char *ifname, const unsigned int mac[6],
		       uint32_t run, struct pb_frame_spec *spec, struct sockaddr_ll *sll)
{
	struct nl_sock *nl = NULL;
	struct pb_netif nif;
	unsigned int i;
	int fd;

	if (enter_netns(netns) || pb_nl_open(&nl) || pb_netif_get(nl, ifname, &nif))
		return -1;
	pb_nl_close(nl);
	for (i = 0; i < 6; i++)
		spec->dstmac[i] = (uint8_t)mac[i];
	memcpy(spec->srcmac, nif.mac, 6);
	spec->srcip.family = spec->dstip.family = AF_INET;
	inet_pton(AF_INET, "198.18.77.1", &spec->srcip.v4);
	inet_pton(AF_INET, "198.18.77.2", &spec->dstip.v4);
	spec->run_id = run;
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("rx_probe: AF_PACKET");
		return -1;
	}
	sll->sll_family = AF_PACKET;
	sll->sll_ifindex = nif.ifindex;
	sll->sll_halen = 6;
	memcpy(sll->sll_addr, spec->dstmac, 6);
	return fd;
}

static int do_send(int argc, char **argv)
{
	struct pb_frame_spec spec = { .dstport = 9, .payload_len = 18 };
	static uint8_t buf[256];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct pb_frame f = { .data = buf };
	unsigned int mac[6], i, count, ports, vlan, run, burst = 0, gap_ms = 0, phase_ms = 0;
	double next = 0, gap_s;
	bool grid = argc == 13; /* bursts on the clock's grid, else a sleep after each */
	int fd, err;

	if ((argc != 10 && argc != 12 && argc != 13) ||
	    (argc >= 12 && (sscanf(argv[10], "%u", &burst) != 1 || !burst ||
			    sscanf(argv[11], "%u", &gap_ms) != 1)) ||
	    (grid && (sscanf(argv[12], "%u", &phase_ms) != 1 || !gap_ms)) ||
	    sscanf(argv[4], "%x:%x:%x:%x:%x:%x", &mac[0], &mac[1], &mac[2], &mac[3], &mac[4],
		   &mac[5]) != 6 ||
	    sscanf(argv[5], "%x", &run) != 1 || sscanf(argv[6], "%u", &count) != 1 ||
	    sscanf(argv[7], "%u", &ports) != 1 || sscanf(argv[8], "%u", &vlan) != 1 || !ports) {
		fprintf(stderr, "rx_probe send: bad arguments\n");
		return 2;
	}
	fd = sender_open(argv[2], argv[3], mac, run, &spec, &sll);
	if (fd < 0)
		return 1;
	spec.vlan_id = (uint16_t)vlan;
	gap_s = gap_ms / 1e3;
	for (i = 0; i < count; i++) {
		if (grid && i % burst == 0) {
			/* the burst's own instant on the shared grid, not a sleep after the last */
			double now = pb_now();

			if (next < now)
				next = (floor(now / gap_s) + 1) * gap_s + phase_ms / 1e3;
			pb_sleep_until(next);
			next += gap_s;
		}
		spec.srcport = (uint16_t)(10000 + i % ports);
		if (pb_frame_build(&f, &spec))
			return 1;
		if (argv[9][0] == 'P') {
			/*
			 * a latency probe's kind and its own sequence number (the receiver counts
			 * a probe number it saw before as a duplicate); no UDP checksum (0) rather
			 * than a wrong one
			 */
			buf[f.payload_off + 2] = PB_SIG_KIND_PROBE;
			buf[f.payload_off + PB_PROBE_SEQ_OFF] = (uint8_t)(i >> 24);
			buf[f.payload_off + PB_PROBE_SEQ_OFF + 1] = (uint8_t)(i >> 16);
			buf[f.payload_off + PB_PROBE_SEQ_OFF + 2] = (uint8_t)(i >> 8);
			buf[f.payload_off + PB_PROBE_SEQ_OFF + 3] = (uint8_t)i;
			buf[f.payload_off - 2] = buf[f.payload_off - 1] = 0;
		}
		while (sendto(fd, buf, f.len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
			err = errno;
			if (err != ENOBUFS && err != EAGAIN) {
				perror("rx_probe: sendto");
				return 1;
			}
			usleep(100);
		}
		/* a little slower than the receiving veth's ring: a test wants every frame */
		if (i % 64 == 63)
			usleep(50);
		if (burst && !grid && i % burst == burst - 1)
			usleep(gap_ms * 1000);
	}
	close(fd);
	return 0;
}

static uint64_t probes_now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* rx_probe probes ...: hand-made probe sequences with a known delay, GAP_US apart. */
static int do_probes(int argc, char **argv)
{
	struct pb_frame_spec spec = { .dstport = 9, .payload_len = 18, .srcport = 10000 };
	static uint8_t buf[256];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct pb_frame f = { .data = buf };
	unsigned int mac[6], run, delay_us[2], gap_us, i, k = 0;
	const char *p = argv[9];
	uint8_t kind;
	clockid_t clk;
	uint64_t next;
	int fd;

	if (argc != 10 ||
	    sscanf(argv[4], "%x:%x:%x:%x:%x:%x", &mac[0], &mac[1], &mac[2], &mac[3], &mac[4],
		   &mac[5]) != 6 ||
	    sscanf(argv[5], "%x", &run) != 1 || !strchr("PTptn", argv[6][0]) || !argv[6][0] ||
	    sscanf(argv[7], "%u", &delay_us[0]) != 1 || sscanf(argv[8], "%u", &gap_us) != 1) {
		fprintf(stderr, "rx_probe probes: bad arguments\n");
		return 2;
	}
	if (sscanf(argv[7], "%*u/%u", &delay_us[1]) != 1)
		delay_us[1] = delay_us[0];
	kind = (uint8_t)argv[6][0];
	clk = (kind | 0x20) == 't' ? CLOCK_TAI : CLOCK_MONOTONIC;
	fd = sender_open(argv[2], argv[3], mac, run, &spec, &sll);
	if (fd < 0 || pb_frame_build(&f, &spec))
		return 1;
	next = probes_now(CLOCK_MONOTONIC);
	while (*p) {
		uint8_t *pl = buf + f.payload_off;
		unsigned long seq = strtoul(p, (char **)&p, 10);
		uint64_t ts;

		while (probes_now(CLOCK_MONOTONIC) < next)
			;
		next += (uint64_t)gap_us * 1000;
		ts = probes_now(clk) - (uint64_t)delay_us[k++ % 2] * 1000;
		/* written here by hand, not by pb_probe_stamp: the receiver is what is tested */
		pl[2] = kind;
		for (i = 0; i < 4; i++)
			pl[8 + i] = (uint8_t)(seq >> (24 - 8 * i));
		for (i = 0; i < 6; i++)
			pl[12 + i] = (uint8_t)(ts >> (40 - 8 * i));
		buf[f.payload_off - 2] = buf[f.payload_off - 1] = 0; /* no UDP checksum */
		if (sendto(fd, buf, f.len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
			perror("rx_probe: sendto");
			return 1;
		}
		if (*p == ',')
			p++;
	}
	close(fd);
	return 0;
}

/*
 * rx_probe churn ...: a new run id every frame, for SECS seconds, at most RATE a second (0 or
 * none: as fast as it goes, which on a quiet machine starves everything else of a CPU).
 */
static int do_churn(int argc, char **argv)
{
	struct pb_frame_spec spec = { .dstport = 9, .payload_len = 18, .srcport = 10000 };
	static uint8_t buf[256];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct pb_frame f = { .data = buf };
	unsigned int mac[6], run, secs, rate = 0;
	uint64_t start, end, n = 0;
	int fd;

	if ((argc != 7 && (argc != 8 || sscanf(argv[7], "%u", &rate) != 1)) ||
	    sscanf(argv[4], "%x:%x:%x:%x:%x:%x", &mac[0], &mac[1], &mac[2], &mac[3], &mac[4],
		   &mac[5]) != 6 ||
	    sscanf(argv[5], "%x", &run) != 1 || sscanf(argv[6], "%u", &secs) != 1) {
		fprintf(stderr, "rx_probe churn: bad arguments\n");
		return 2;
	}
	fd = sender_open(argv[2], argv[3], mac, run, &spec, &sll);
	if (fd < 0)
		return 1;
	start = probes_now(CLOCK_MONOTONIC);
	end = start + (uint64_t)secs * 1000000000ull;
	while (probes_now(CLOCK_MONOTONIC) < end) {
		/* frame n is due at start + n / rate: ahead of that, let the CPU go */
		if (rate && probes_now(CLOCK_MONOTONIC) < start + n * 1000000000ull / rate) {
			sched_yield();
			continue;
		}
		spec.run_id = run + (uint32_t)n;
		if (pb_frame_build(&f, &spec))
			return 1;
		if (sendto(fd, buf, f.len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
			if (errno != ENOBUFS && errno != EAGAIN) {
				perror("rx_probe: sendto");
				return 1;
			}
			continue; /* the same run id again: every one sent arrives */
		}
		n++;
	}
	close(fd);
	printf("sent %llu\n", (unsigned long long)n);
	return 0;
}

int main(int argc, char **argv)
{
	pb_log_set_level(PB_LOG_WARN);
	if (argc >= 4 && !strcmp(argv[1], "recv"))
		return do_recv(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "send"))
		return do_send(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "probes"))
		return do_probes(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "churn"))
		return do_churn(argc, argv);
	fprintf(stderr,
		"usage: rx_probe recv NETNS IFACE [auto|native|generic] [force]\n"
		"       rx_probe send NETNS IFACE DSTMAC RUN COUNT PORTS VLAN KIND [BURST "
		"GAP_MS]\n"
		"       rx_probe probes NETNS IFACE DSTMAC RUN KIND DELAY_US GAP_US SEQ,..\n"
		"       rx_probe churn NETNS IFACE DSTMAC RUN SECS [RATE]\n");
	return 2;
}
