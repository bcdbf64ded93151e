// SPDX-License-Identifier: MIT
/*
 * pktbench: parse the options, build the lab (or take --iface), run one method or all of
 * them, hand the results to a writer, and take everything down again, on every path.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>

#include "box.h"
#include "clock.h"
#include "caps.h"
#include "fleet.h"
#include "envinfo.h"
#include "lab.h"
#include "place.h"
#include "log.h"
#include "method.h"
#include "netif.h"
#include "options.h"
#include "pb_version.h"
#include "replay.h"
#include "rfc2544.h"
#include "runner.h"
#include "rx_source.h"
#include "stream.h"
#include "tune.h"
#include "writers.h"
#include "xdp_attach.h"

#define EXIT_BADINPUT	 2
#define EXIT_NOTHING	 3 /* every row skipped: nothing was measured */
#define EXIT_INTERRUPTED 130

/*
 * Set by SIGINT/SIGTERM/SIGHUP (the signal), read by every thread: a lock-free atomic int, which a signal
 * handler may store to and other threads may load without a data race (C11 7.17.5).
 */
static int pb_stop;

static void on_signal(int sig)
{
	__atomic_store_n(&pb_stop, sig, __ATOMIC_RELAXED);
}

static bool pb_stopped(void)
{
	return __atomic_load_n(&pb_stop, __ATOMIC_RELAXED);
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART: waits end early */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* an SSH session that drops: the lab is removed and the partial row written all the same */
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* The lab's traffic stays in the benchmarking ranges: 198.18.0.0/15 and 2001:2::/48. */
static bool addr_in_bench_range(const struct pb_addr *a)
{
	if (a->family == AF_INET)
		return (ntohl(a->v4.s_addr) & 0xfffe0000u) == 0xc6120000u;
	return a->v6.s6_addr[0] == 0x20 && a->v6.s6_addr[1] == 0x01 && a->v6.s6_addr[2] == 0 &&
	       a->v6.s6_addr[3] == 0x02 && a->v6.s6_addr[4] == 0 && a->v6.s6_addr[5] == 0;
}

/* The CPU's model name from /proc/cpuinfo, for the result set; NULL when unknown. */
static const char *cpu_model(char *buf, size_t len)
{
	const char *found = NULL;
	char line[256];
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		found = buf;
	}
	fclose(f);
	return found;
}

struct pb_session {
	struct pb_config cfg;
	struct pb_lab lab;
	bool have_lab;
	struct nl_sock *nl;	   /* --iface: rtnetlink in our own namespace */
	struct pb_rx_source rxsrc; /* the lab's receiver, or --receiver's agent */
	struct pb_path path;
	struct pb_path_netif tx;
	struct pb_path_dut dut; /* --lab router|bridge: the DUT's drop counters */
	struct pb_env env;
	char driver[32];
	uint32_t rx_queues;
	struct pb_result *results;
	unsigned int n;
	char link_err[160];	 /* --iface cannot send (down): the one line, before any method */
	struct pb_stream stream; /* --stream */
	const char *cur_method;	 /* the run under way, for --stream's intervals */
	const char *cur_point;
	double plan_t0;	     /* when the first run began, for the time left */
	double plan_s;	     /* the runs' estimated seconds in all; 0: not known beforehand */
	char placement[320]; /* where the senders run and who said so (environment) */
	bool placed;	     /* pktbench chose it (session_place), not --cpus */
	int claims[PB_MAX_STREAMS]; /* the CPUs it chose, held against other senders (place.h) */
	char stat0[65536]; /* /proc/stat at the session's start: the placement's first look */
	double stat0_t;	   /* when it was taken (pb_now); 0: not taken */
	struct pb_envinfo envinfo; /* what the figures depend on, read before the first run */
};

/*
 * Before the first method, once: a sending interface that is not set up is an error at once;
 * with wait (--receiver, which needs the link to reach the agent), one wait of
 * --link-timeout for the carrier. Without it the first run waits, and a timeout there ends
 * the benchmark (session_run), so the wait happens once either way.
 */
static void session_link_check(struct pb_session *s, int ifindex, bool wait)
{
	const struct pb_config *cfg = &s->cfg;
	double waited = 0;
	int up, err;

	up = pb_netif_admin_up(s->nl, ifindex);
	if (!up) {
		pb_link_reason(s->link_err, sizeof(s->link_err), cfg->iface, true, 0);
		return;
	}
	if (up < 0 || !wait)
		return;
	err = pb_netif_wait_up(s->nl, ifindex, cfg->link_timeout_s, &waited, &pb_stop);
	if (err == -ETIMEDOUT)
		pb_link_reason(s->link_err, sizeof(s->link_err), cfg->iface,
			       pb_netif_admin_up(s->nl, ifindex) == 0, waited);
	else if (!err && waited >= 0.1 && !cfg->quiet)
		fprintf(stderr, "pktbench: link of %s up after %.2f s\n", cfg->iface, waited);
}

/* The interfaces of this namespace, "eth0, lo, ..." (a few), for a name that is not one. */
static void iface_names(char *buf, size_t len)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	size_t off = 0;
	int n = 0;

	buf[0] = '\0';
	for (i = ifs; i && i->if_name && off < len; i++, n++) {
		if (n == 8) {
			snprintf(buf + off, len - off, ", ...");
			break;
		}
		off += (size_t)snprintf(buf + off, len - off, "%s%s", n ? ", " : "", i->if_name);
	}
	if (ifs)
		if_freenameindex(ifs);
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* Whether this namespace's default route (IPv4 or IPv6, main table) leaves by iface. */
static bool iface_default_route(const char *iface)
{
	char line[256], name[IF_NAMESIZE + 1], dst[40], mask[16];
	unsigned int flags, plen;
	bool found = false;
	FILE *f;

	/* Iface Destination Gateway Flags RefCnt Use Metric Mask ... */
	f = fopen("/proc/net/route", "r");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%16s %8s %*s %x %*s %*s %*s %8s", name, dst, &flags, mask) ==
				4 &&
			!strcmp(dst, "00000000") && !strcmp(mask, "00000000") && (flags & 1) &&
			!strcmp(name, iface);
	if (f)
		fclose(f);
	/* dst plen src plen nexthop metric refcnt use flags iface; a reject route is on lo */
	f = fopen("/proc/net/ipv6_route", "r");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%32s %x %*s %*s %*s %*s %*s %*s %x %16s", dst, &plen, &flags,
			       name) == 4 &&
			!plen && (flags & 1) && !(flags & 0x200) && !strcmp(name, iface);
	if (f)
		fclose(f);
	return found;
}

/* Whether iface holds addr (an address as text), in this namespace. */
static bool iface_has_addr(const char *iface, const char *addr)
{
	struct ifaddrs *ifs, *i;
	struct pb_addr a;
	bool found = false;

	if (pb_parse_addr(addr, &a) || getifaddrs(&ifs))
		return false;
	for (i = ifs; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != a.family ||
		    strcmp(i->ifa_name, iface))
			continue;
		found = a.family == AF_INET
				? ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr ==
					  a.v4.s_addr
				: !memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, &a.v6,
					  16);
	}
	freeifaddrs(ifs);
	return found;
}

/*
 * The interface this host is reached through: the one its default route leaves by, or the
 * one holding the local address of the SSH session that started pktbench ($SSH_CONNECTION:
 * client address and port, server address and port). A flood there can cut the user off, so
 * it takes --allow-mgmt-iface. 0, or -EINVAL with the one line in err.
 */
static int iface_mgmt_check(const struct pb_config *cfg, char *err, size_t errlen)
{
	const char *ssh = getenv("SSH_CONNECTION");
	char local[INET6_ADDRSTRLEN + 1] = "";

	if (cfg->allow_mgmt_iface)
		return 0;
	if (iface_default_route(cfg->iface)) {
		snprintf(err, errlen,
			 "--iface %s carries this host's default route: a flood there can cut you "
			 "off; --allow-mgmt-iface sends on it anyway",
			 cfg->iface);
		return -EINVAL;
	}
	if (ssh && sscanf(ssh, "%*s %*s %46s", local) == 1 && iface_has_addr(cfg->iface, local)) {
		snprintf(err, errlen,
			 "--iface %s holds %s, the address of the SSH session that started "
			 "pktbench: a flood there can cut you off; --allow-mgmt-iface sends on it "
			 "anyway",
			 cfg->iface, local);
		return -EINVAL;
	}
	return 0;
}

/* The loopback interface (IFF_LOOPBACK), whatever its name. */
static bool iface_loopback(const char *name)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool lo = false;

	if (fd < 0)
		return false;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr))
		lo = ifr.ifr_flags & IFF_LOOPBACK;
	close(fd);
	return lo;
}

/*
 * A name given that is not the method's own (a go-pktgen alias, another case) says which
 * method runs, once: the rows carry the method's name, not the one typed.
 */
static void methods_note(const char *spec, const struct pb_selected *list, unsigned int n,
			 bool quiet)
{
	const char *p = spec;
	unsigned int i = 0;

	if (quiet || !strcmp(spec, "benchmark"))
		return;
	for (; *p && i < n; i++) {
		size_t len = strcspn(p, ",");

		if (strlen(list[i].m->name) != len || strncmp(list[i].m->name, p, len))
			fprintf(stderr, "pktbench: %.*s is %s here%s\n", (int)len, p,
				list[i].m->name,
				list[i].batch ? " (with its batch, as go-pktgen's method sends)"
					      : "");
		p += len + (p[len] == ',');
	}
}

/* --frame-size becomes a payload size; either must fit the interface's MTU. */
static int resolve_size(struct pb_config *cfg, char *err, size_t errlen)
{
	uint32_t hdr = pb_frame_overhead(cfg->srcip.family), l3 = hdr - PB_ETH_HLEN, i;

	if (cfg->frame_size) {
		if (cfg->frame_size < hdr + PB_SIG_LEN) {
			snprintf(err, errlen,
				 "--frame-size %u is below %u: %u bytes of headers and the 8-byte "
				 "signature",
				 cfg->frame_size, hdr + PB_SIG_LEN, hdr);
			return -EINVAL;
		}
		cfg->payloadsize = cfg->frame_size - hdr;
	}
	/* a jumbo frame's payload 8 times over is more than a datagram: as many as fit */
	if (!cfg->segments_set && (uint64_t)cfg->payloadsize * cfg->segments > PB_UDP_MAX_PAYLOAD)
		cfg->segments = cfg->payloadsize < PB_UDP_MAX_PAYLOAD
					? PB_UDP_MAX_PAYLOAD / cfg->payloadsize
					: 1;
	if (cfg->mtu && l3 + cfg->payloadsize > cfg->mtu) {
		if (cfg->frame_size)
			snprintf(err, errlen,
				 "--frame-size %u does not fit the MTU %u of %s (at most %u)",
				 cfg->frame_size, cfg->mtu, cfg->ifname, cfg->mtu + PB_ETH_HLEN);
		else
			snprintf(err, errlen,
				 "--payloadsize %u does not fit the MTU %u of %s (at most %u)",
				 cfg->payloadsize, cfg->mtu, cfg->ifname, cfg->mtu - l3);
		return -EINVAL;
	}
	for (i = 0; cfg->mtu && cfg->imix && i < cfg->imix_n; i++)
		if (cfg->imix_cycle[i] > cfg->mtu + PB_ETH_HLEN) {
			snprintf(err, errlen,
				 "the mix's %u-byte wire frames do not fit the MTU %u of %s (at "
				 "most "
				 "%u with FCS)",
				 cfg->imix_cycle[i] + 4, cfg->mtu, cfg->ifname,
				 cfg->mtu + PB_ETH_HLEN + 4);
			return -EINVAL;
		}
	return 0;
}

/* The largest value a --sweep asks for of kind, or fallback. */
static uint32_t sweep_max(const struct pb_sweep *sw, enum pb_sweep_kind kind, uint32_t fallback)
{
	uint32_t i, max = fallback;

	for (i = 0; sw->kind == kind && i < sw->n; i++)
		max = sw->values[i] > max ? sw->values[i] : max;
	return max;
}

/*
 * The lab's MTU: --mtu, or 1500, or more when a --frame-size (a sweep of them, rfc2544's
 * --frame-sizes, the largest of an --imix-sizes mix) needs it.
 * Its XDP programs are multi-buffer where the kernel has it (pb_xdp_frags), which is what lets
 * native XDP run on a veth over a page; without it, a page less headroom is the most.
 * --payloadsize keeps go-pktgen's meaning: it must fit the MTU as it is.
 */
#define PB_LAB_PAGE_MTU 3500

static uint32_t lab_mtu(const struct pb_config *cfg)
{
	uint32_t frame = sweep_max(&cfg->sweep, PB_SWEEP_FRAME_SIZE, cfg->frame_size), need, i;

	/* rfc2544's sizes are on the wire: the FCS is not the lab's to carry */
	for (i = 0; i < cfg->rfc.nsizes; i++)
		frame = cfg->rfc.sizes[i] - 4 > frame ? cfg->rfc.sizes[i] - 4 : frame;
	for (i = 0; cfg->imix && i < cfg->imix_n; i++)
		frame = cfg->imix_cycle[i] > frame ? cfg->imix_cycle[i] : frame;
	need = frame > PB_ETH_HLEN ? frame - PB_ETH_HLEN : 0;
	if (cfg->lab_mtu)
		return cfg->lab_mtu;
	if (need > PB_LAB_PAGE_MTU && !pb_xdp_has_frags())
		need = PB_LAB_PAGE_MTU;
	return need > 1500 ? need : 1500;
}

/*
 * --receiver: the agent must answer before anything runs; its MAC is the default --dstmac
 * and --dstip should be one of its addresses. The runner then reads it like the lab's.
 */
static int session_agent(struct pb_session *s, char *err, size_t errlen)
{
	struct pb_config *cfg = &s->cfg;
	struct pb_rx_peer info;
	char a[INET6_ADDRSTRLEN];
	uint32_t i;
	int ret;

	ret = pb_rx_source_agent(&s->rxsrc, cfg->receiver, &pb_stop, &info, err, errlen);
	if (ret)
		return -EINVAL; /* nothing can run as asked: bad input, exit 2 */
	if (!cfg->dstmac_set) {
		memcpy(cfg->dstmac, info.mac, 6);
		cfg->dstmac_set = true;
		pr_info("--dstmac %02x:%02x:%02x:%02x:%02x:%02x: the agent's\n", info.mac[0],
			info.mac[1], info.mac[2], info.mac[3], info.mac[4], info.mac[5]);
	}
	for (i = 0; i < info.naddrs; i++)
		if (info.addrs[i].family == cfg->dstip.family &&
		    !memcmp(&info.addrs[i].v6, &cfg->dstip.v6,
			    cfg->dstip.family == AF_INET ? 4 : 16))
			break;
	if (i == info.naddrs) {
		inet_ntop(cfg->dstip.family, &cfg->dstip.v6, a, sizeof(a));
		pr_warn("--dstip %s is not an address of the agent's %s: its host would not take "
			"the frames, and the agent counts them as not for this host\n",
			a, info.ifname);
	}
	pr_info("receiver: agent %s on %s (%s, %s XDP)\n", cfg->receiver, info.ifname, info.driver,
		info.xdp_mode);
	s->path.rx = &s->rxsrc;
	return 0;
}

/*
 * --lab-tx-setup FILE: runs FILE with /bin/sh in the lab's sender namespace (where this
 * thread is now), with PB_LAB_TX_IF and PB_LAB_RX_IF naming the ends and PB_LAB_TX_NS,
 * PB_LAB_RX_NS the namespaces. 0, or -EINVAL with the reason in err when it fails.
 */
static int lab_tx_setup(const struct pb_lab *lab, const char *file, char *err, size_t errlen)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "--lab-tx-setup %s: fork: %s", file, strerror(errno));
		return -EINVAL;
	}
	if (!pid) {
		setenv("PB_LAB_TX_IF", lab->tx.name, 1);
		setenv("PB_LAB_RX_IF", lab->rx.name, 1);
		setenv("PB_LAB_TX_NS", lab->tx_ns, 1);
		setenv("PB_LAB_RX_NS", lab->rx_ns, 1);
		execl("/bin/sh", "sh", file, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	snprintf(err, errlen, "--lab-tx-setup %s: %s %d", file,
		 WIFEXITED(status) ? "exit status" : "killed by signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -EINVAL;
}

/*
 * The lab DUT's own CPU: the highest one we may use that --cpus leaves free, and without
 * --cpus the sender's streams are pinned to the others, so the DUT forwards beside the
 * sender rather than inside its softirq. -1 when there is no CPU to spare.
 */
static int lab_dut_cpu(struct pb_config *cfg)
{
	cpu_set_t allowed, used;
	int c, dut = -1;
	uint32_t i;

	CPU_ZERO(&used);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	for (i = 0; i < cfg->ncpus; i++)
		CPU_SET(cfg->cpus[i], &used);
	for (c = CPU_SETSIZE - 1; c >= 0 && dut < 0; c--)
		if (CPU_ISSET(c, &allowed) && !CPU_ISSET(c, &used))
			dut = c;
	if (dut < 0 || (!cfg->ncpus && CPU_COUNT(&allowed) < 2)) {
		pr_warn("lab: no CPU to spare for the DUT: it forwards in the sender's context, "
			"and a DUT that queues slows the sender down instead of dropping\n");
		return -1;
	}
	if (!cfg->ncpus)
		for (c = 0; c < CPU_SETSIZE && cfg->ncpus < PB_MAX_STREAMS; c++)
			if (CPU_ISSET(c, &allowed) && c != dut)
				cfg->cpus[cfg->ncpus++] = (uint32_t)c;
	return dut;
}

/* The lab's scripts can be read, checked before anything is built. 0, or -EINVAL. */
static int lab_opts_check(const struct pb_config *cfg, char *err, size_t errlen)
{
	/* --lab-dut-setup without --lab router or bridge is the option table's (pb_needs) */
	if (cfg->lab_dut_setup[0] && access(cfg->lab_dut_setup, R_OK)) {
		snprintf(err, errlen, "--lab-dut-setup %s: %s", cfg->lab_dut_setup,
			 strerror(errno));
		return -EINVAL;
	}
	if (cfg->lab_tx_setup[0] && access(cfg->lab_tx_setup, R_OK)) {
		snprintf(err, errlen, "--lab-tx-setup %s: %s", cfg->lab_tx_setup, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/*
 * The default placement (place.h), when --cpus did not say: pins stream i to cfg->cpus[i %
 * ncpus] as --cpus would; the session says so once the runs are sure to go. iface: the interface
 * whose IRQs and NAPI threads count (NULL: the lab's veth, which has none). A topology that cannot
 * be read leaves the senders to the scheduler, and says that.
 */
static void session_place(struct pb_session *s, const char *iface)
{
	static struct pb_topo t;
	struct pb_config *cfg = &s->cfg;
	uint32_t streams = sweep_max(&cfg->sweep, PB_SWEEP_STREAMS, cfg->streams), i;
	char why[192], list[96] = "";
	size_t off = 0;
	int n;

	if (streams > PB_MAX_STREAMS)
		streams = PB_MAX_STREAMS;
	/*
	 * a fleet's sender (a shard, --start-at, --test-id): its neighbours on this host choose
	 * alone and would all take the same CPU (net/test_fleet's three senders: first frames
	 * 340-550 us after the instant, 200 allowed), so the scheduler spreads them
	 */
	if (pb_fleet_named(cfg)) {
		s->placed = true;
		snprintf(s->placement, sizeof(s->placement),
			 "left to the scheduler (a fleet's sender: its neighbours choose alone)");
		return;
	}
	/*
	 * the look since the session began (at least half of PB_PLACE_LOOK_MS, waiting out
	 * only what is missing of it), so that a session's start is not a whole look later
	 */
	if (s->stat0_t > 0) {
		double left = PB_PLACE_LOOK_MS / 2e3 - (pb_now() - s->stat0_t);

		if (left > 0)
			usleep((useconds_t)(left * 1e6));
		n = pb_topo_read_since(&t, "/", iface, s->stat0);
	} else {
		n = pb_topo_read(&t, "/", iface, PB_PLACE_LOOK_MS);
	}
	if (!n) {
		/*
		 * one process places at a time, away from the CPUs other senders hold; its own
		 * claims stay open until it exits (the kernel drops them even on SIGKILL)
		 */
		int lock = pb_claims_begin(PB_PLACE_CLAIM_DIR, &t);

		n = pb_place(&t, streams, cfg->cpus, why, sizeof(why));
		if (n > 0 && lock >= 0)
			pb_claims_take(PB_PLACE_CLAIM_DIR, cfg->cpus, n, s->claims);
		pb_claims_end(lock);
	} else {
		snprintf(why, sizeof(why), "/sys/devices/system/cpu/online: %s", strerror(-n));
	}
	s->placed = true;
	if (n <= 0) {
		snprintf(s->placement, sizeof(s->placement), "left to the scheduler (%s)", why);
		return;
	}
	cfg->ncpus = (uint32_t)n;
	for (i = 0; i < (uint32_t)n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%u", i ? "," : "",
					cfg->cpus[i]);
	snprintf(s->placement, sizeof(s->placement), "cpus %s, pktbench's choice: %s", list, why);
}

/* What the figures depend on, read once before the first run (envinfo.h). */
static void session_envinfo(struct pb_session *s)
{
	struct pb_config *cfg = &s->cfg;
	char list[96] = "";
	size_t off = 0;
	uint32_t i;

	s->envinfo.n = 0;
	/* the lab's sending end is in a namespace the host's sysfs does not show */
	if (!s->have_lab || pb_envinfo_read_netns(&s->envinfo, cfg->ifname))
		pb_envinfo_read(&s->envinfo, "/", cfg->ifname[0] ? cfg->ifname : NULL);
	if (cfg->ifname[0])
		pb_envinfo_read_ethtool(&s->envinfo, cfg->ifname);
	if (!s->placement[0]) {
		for (i = 0; i < cfg->ncpus && off < sizeof(list); i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%u",
						i ? "," : "", cfg->cpus[i]);
		if (cfg->ncpus)
			snprintf(s->placement, sizeof(s->placement), "cpus %s, %s", list,
				 s->have_lab && s->lab.dut_cpu >= 0
					 ? "those the lab's DUT does not forward on"
					 : "--cpus");
		else
			snprintf(s->placement, sizeof(s->placement), "left to the scheduler");
	}
	pb_envinfo_set(&s->envinfo, "sender_placement", "%s", s->placement);
}

/* Everything a run needs before the first method opens. 0, or -errno with a message given. */
static int session_prepare(struct pb_session *s, bool need_wire, char *err, size_t errlen)
{
	struct pb_config *cfg = &s->cfg;
	struct pb_netif nif;
	int ret;

	s->env.stop = &pb_stop;
	s->env.replay = &pb_replay_source;
	s->env.fleet = &pb_fleet_door;
	if (!cfg->ncpus && !pb_topo_stat("/", s->stat0, sizeof(s->stat0)))
		s->stat0_t = pb_now();
	/* the start instant against the clock now, as close to the start as the check can be */
	ret = pb_fleet_validate(cfg, pb_wall_ns(), err, errlen);
	if (ret)
		return ret;
	/* --receiver without --iface is the option table's to refuse (pb_needs) */
	if (!need_wire)
		return 0;

	if (cfg->iface[0]) {
		ret = pb_nl_open(&s->nl);
		if (ret)
			return ret;
		ret = pb_netif_get(s->nl, cfg->iface, &nif);
		if (ret == -ENODEV) {
			char have[160];

			iface_names(have, sizeof(have));
			snprintf(err, errlen, "--iface %s: no such interface; here: %s", cfg->iface,
				 have);
			return -EINVAL;
		}
		if (ret) {
			snprintf(err, errlen, "--iface %s: %s", cfg->iface, strerror(-ret));
			return -EINVAL;
		}
		ret = iface_mgmt_check(cfg, err, errlen);
		if (ret)
			return ret;
		s->tx.nl = s->nl;
		pb_path_netif(&s->path, &s->tx);
		s->path.shared = true;
		session_link_check(s, nif.ifindex, cfg->receiver[0]);
		/* a down link cannot reach the agent: the link is what the one line names */
		if (cfg->receiver[0] && !s->link_err[0]) {
			ret = session_agent(s, err, errlen);
			if (ret)
				return ret;
		}
		if (iface_loopback(cfg->iface)) {
			snprintf(
				err, errlen,
				"--iface %s is the loopback interface: its frames come back to "
				"this "
				"host through no device and no receiver; leave --iface out for the "
				"lab, or name a real interface",
				cfg->iface);
			return -EINVAL;
		}
		if (!cfg->dstmac_set)
			pb_parse_mac("c0:ff:ee:00:00:00", cfg->dstmac);
		if (!cfg->ncpus)
			session_place(s, cfg->iface);
	} else {
		struct pb_lab_opts lo = {
			.tx_addr = cfg->srcip,
			.rx_addr = cfg->dstip,
			.queues = sweep_max(&cfg->sweep, PB_SWEEP_STREAMS, cfg->streams),
			.mtu = lab_mtu(cfg),
			.keep = cfg->keep_lab,
			.kind = cfg->lab_kind,
			.dut_setup = cfg->lab_dut_setup[0] ? cfg->lab_dut_setup : NULL,
			.dut_setup_err = err,
			.dut_setup_errlen = errlen,
		};
		struct pb_config xcfg;
		uint32_t q;

		lo.dut_cpu = cfg->lab_kind == PB_LAB_DIRECT ? -1 : lab_dut_cpu(cfg);
		/* a veth has no IRQs: its receive work runs in the sender's softirq */
		if (!cfg->ncpus)
			session_place(s, NULL);
		xcfg = *cfg;

		/* queue q carries the stream that runs on the CPU stream q is pinned to */
		xcfg.streams = lo.queues;
		for (q = 0; q < lo.queues && q < PB_MAX_STREAMS; q++)
			lo.xps_cpu[q] = pb_stream_cpu(&xcfg, q);

		if (!addr_in_bench_range(&cfg->srcip) || !addr_in_bench_range(&cfg->dstip)) {
			char a[INET6_ADDRSTRLEN];
			bool src = !addr_in_bench_range(&cfg->srcip);
			const struct pb_addr *x = src ? &cfg->srcip : &cfg->dstip;

			inet_ntop(x->family, &x->v6, a, sizeof(a));
			snprintf(
				err, errlen,
				"--%s %s: the lab uses only benchmarking addresses (198.18.0.0/15, "
				"2001:2::/48); leave it out, or send on a real interface with "
				"--iface "
				"IF --%s %s",
				src ? "srcip" : "dstip", a, src ? "srcip" : "dstip", a);
			return -EINVAL;
		}
		ret = pb_lab_cleanup_stale();
		if (ret > 0)
			pr_warn("removed %d lab(s) left by earlier runs that did not end cleanly\n",
				ret);
		ret = pb_bpffs_ensure();
		if (ret)
			pr_warn("cannot mount bpffs on /sys/fs/bpf: %s\n", strerror(-ret));
		ret = pb_lab_create(&s->lab, &lo);
		if (ret)
			return ret;
		s->have_lab = true;
		ret = pb_lab_enter(&s->lab, PB_LAB_RX);
		/* native: the peer's XDP_TX frames (xdp_live) reach a veth only so */
		if (!ret)
			ret = pb_rx_source_lab(&s->rxsrc, s->lab.rx.ifindex, s->lab.rx.name,
					       PB_XDP_NATIVE);
		if (ret)
			return ret;
		/* from here on this thread, and every worker it starts, lives in the sender's ns */
		ret = pb_lab_enter(&s->lab, PB_LAB_TX);
		if (!ret && cfg->lab_tx_setup[0])
			ret = lab_tx_setup(&s->lab, cfg->lab_tx_setup, err, errlen);
		if (ret)
			return ret;
		nif = s->lab.tx;
		/* the next hop: the router's end, or the receiver itself (also across a bridge) */
		if (!cfg->dstmac_set)
			memcpy(cfg->dstmac, s->lab.next_hop_mac, 6);
		s->tx.nl = s->lab.tx_nl;
		pb_path_netif(&s->path, &s->tx);
		s->path.rx = &s->rxsrc;
		if (s->lab.kind == PB_LAB_DIRECT) {
			s->path.veth_pair = true;
		} else {
			/* the sender's peer is the DUT's input, which counts its drops again */
			s->dut = (struct pb_path_dut){ .nl = s->lab.dut_nl };
			s->dut.ifindex[s->dut.n++] = s->lab.dut_in.ifindex;
			s->dut.ifindex[s->dut.n++] = s->lab.dut_out.ifindex;
			if (s->lab.dut_bridge)
				s->dut.ifindex[s->dut.n++] = s->lab.dut_bridge;
			pb_path_dut(&s->path, &s->dut);
			s->path.dut_veth = true;
		}
	}
	snprintf(cfg->ifname, sizeof(cfg->ifname), "%s", nif.name);
	snprintf(s->driver, sizeof(s->driver), "%s", nif.driver);
	cfg->ifindex = nif.ifindex;
	cfg->mtu = nif.mtu;
	cfg->tx_queues = nif.tx_queues;
	s->rx_queues = nif.rx_queues;
	s->tx.ifindex = nif.ifindex;
	snprintf(s->tx.ifname, sizeof(s->tx.ifname), "%s", nif.name);
	s->env.path = &s->path;
	if (!cfg->srcmac_set)
		memcpy(cfg->srcmac, nif.mac, 6);

	ret = resolve_size(cfg, err, errlen);
	if (ret)
		return ret;
	if (cfg->streams > cfg->tx_queues) {
		snprintf(err, errlen,
			 "--streams %u is more than the %u TX queues of %s: fewer streams, or more "
			 "queues where the driver has them (ethtool -L %s combined %u, or tx %u)",
			 cfg->streams, cfg->tx_queues, cfg->ifname, cfg->ifname, cfg->streams,
			 cfg->streams);
		return -EINVAL;
	}
	return 0;
}

static void session_teardown(struct pb_session *s)
{
	unsigned int i;

	/* still in the sender's namespace: what methods kept across runs goes first */
	for (i = 0; i < pb_methods_count; i++)
		if (pb_methods[i]->finish)
			pb_methods[i]->finish();
	pb_rx_source_close(&s->rxsrc);
	pb_stream_close(&s->stream); /* its first error stays in s->stream.error */
	if (s->have_lab)
		pb_lab_destroy(&s->lab);
	s->have_lab = false;
	if (s->nl)
		pb_nl_close(s->nl);
	s->nl = NULL;
}

/*
 * --repeat N: runs the method N times and keeps the median run (by packets/s), so one noisy
 * second on a shared machine does not make the row; the row says how many runs it had.
 */
static int run_repeated(struct pb_session *s, const struct pb_config *cfg,
			const struct pb_selected *sel, struct pb_result *r)
{
	const struct pb_method *m = sel->m;
	struct pb_result *runs;
	uint32_t i, k, n = 0;
	int ret = 0;

	if (cfg->repeat <= 1)
		return pb_run_method(m, sel->batch, cfg, &s->env, r);
	runs = calloc(cfg->repeat, sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	for (i = 0; i < cfg->repeat && !pb_stopped(); i++) {
		ret = pb_run_method(m, sel->batch, cfg, &s->env, &runs[n]);
		if (ret && ret != -EINTR)
			break;
		n++;
		if (runs[n - 1].status != PB_STATUS_OK)
			break; /* skipped or failed: repeating will not change that */
	}
	if (n) {
		/* the row owns the chosen run's lists; the other runs' go */
		k = pb_result_pick(runs, n);
		*r = runs[k];
		r->runs = n;
		for (i = 0; i < n; i++)
			if (i != k)
				pb_result_release(&runs[i]);
	}
	free(runs);
	return ret;
}

/* --stream: a second of the run under way (pb_env.on_sample). */
static void session_sample(void *ctx, uint32_t run_id, const struct pb_sample *prev,
			   const struct pb_sample *smp, bool link_up)
{
	struct pb_session *s = ctx;

	pb_stream_interval(&s->stream, s->cur_method, s->cur_point, run_id, prev, smp, link_up);
}

/*
 * "[k/total] label, ~1:05 left" before run k (of those that go): the estimate until a run is
 * done, then the pace of those done, as rfc2544's progress line.
 */
static void session_progress(const struct pb_session *s, unsigned int k, unsigned int total,
			     const char *label)
{
	double left = k > 1 ? (pb_now() - s->plan_t0) / (k - 1) * (total - k + 1) : s->plan_s;
	char hms[32] = "";

	if (left > 0)
		pb_hms(hms, sizeof(hms), left);
	fprintf(stderr, "pktbench: [%u/%u] %s%s%s%s\n", k, total, label, hms[0] ? ", ~" : "", hms,
		hms[0] ? " left" : "");
}

/* Runs one method at one point (cfg already holds the point's values) into the next row. */
static int session_run_one(struct pb_session *s, const struct pb_config *cfg,
			   const struct pb_selected *sel, const char *point, unsigned int k,
			   unsigned int total)
{
	const struct pb_method *m = sel->m;
	struct pb_result *r = &s->results[s->n];
	char label[96];
	int ret;

	snprintf(label, sizeof(label), "%s%s%s", m->name, point[0] ? " " : "", point);
	s->env.label = label;
	s->cur_method = m->name;
	s->cur_point = point;
	if (k && total > 1 && !cfg->quiet)
		session_progress(s, k, total, label);
	ret = run_repeated(s, cfg, sel, r);
	if (ret && ret != -EINTR)
		return ret;
	if (r->link_failed && s->nl && pb_netif_admin_up(s->nl, cfg->ifindex) == 0)
		pb_link_reason(r->reason, sizeof(r->reason), cfg->ifname, true, 0);
	snprintf(r->point, sizeof(r->point), "%s", point);
	s->n++;
	pb_stream_row(&s->stream, r);
	if (r->status == PB_STATUS_SKIPPED && !cfg->quiet)
		fprintf(stderr, "pktbench: %s skipped: %s\n", label, r->reason);
	if (r->status == PB_STATUS_ERROR)
		pr_err("%s failed: %s\n", label, r->reason);
	/* offered is said only where it differs from sent: frames the path refused, retried */
	if (r->status == PB_STATUS_OK && r->target_pps && r->pps < 0.98 * r->target_pps) {
		char offered[64] = "";

		if (r->offered_pps >= r->pps + 0.5)
			snprintf(offered, sizeof(offered), "; %.0f packets/s offered with retries",
				 r->offered_pps);
		pr_warn("%s reached %.0f of the %.0f packets/s asked (%.1f %%%s); %.2f s of the "
			"%.2f s window inside send calls%s\n",
			label, r->pps, r->target_pps, 100 * r->pps / r->target_pps, offered,
			r->send_call_s, r->duration_s,
			r->pushed_back ? ", held back by a full socket or ring" : "");
	}
	return 0;
}

/* --tune's trial: one short run, nothing printed, its row not kept. */
static int tune_trial(void *ctx, const struct pb_method *m, const struct pb_config *cfg,
		      struct pb_result *res)
{
	struct pb_session *s = ctx;
	struct pb_config t = *cfg;
	struct pb_env env = s->env;
	int ret;

	t.quiet = true;
	env.on_sample = NULL; /* a trial is not a row: --stream leaves it out */
	ret = pb_run_method(m, 0, &t, &env, res);
	return ret == -EINTR || pb_stopped() ? -EINTR : ret;
}

/* --tune: each method's knobs searched, then the method run at its best; one row each. */
static int session_tune(struct pb_session *s, const struct pb_selected *list, unsigned int n)
{
	static struct pb_config best;
	unsigned int i, trials = 0;
	int ret;

	s->plan_t0 = pb_now(); /* the time left goes by the pace of the methods done */
	for (i = 0; i < n; i++)
		trials += pb_tune_trials(list[i].m, list[i].batch, &s->cfg);
	fprintf(stderr, "tune: %u trials of %.1f s, then each method at its best setting\n", trials,
		pb_tune_trial_s(&s->cfg));
	for (i = 0; i < n && !pb_stopped(); i++) {
		struct pb_selected sel = { list[i].m, 0 };

		s->env.label = list[i].m->name;
		ret = pb_tune(list[i].m, list[i].batch, &s->cfg, tune_trial, s, &best, stderr);
		if (!ret)
			ret = session_run_one(s, &best, &sel, "", i + 1, n);
		if (list[i].m->finish)
			list[i].m->finish();
		if (ret && ret != -EINTR)
			return ret;
	}
	return 0;
}

/*
 * A --pps profile: each method through every step back to back, a row a step (each step a
 * run of its own, with its own run id: its counts and latency are its own, exactly).
 */
static int session_profile(struct pb_session *s, const struct pb_selected *list, unsigned int n,
			   const bool *goes, unsigned int total)
{
	const struct pb_sweep *sw = &s->cfg.sweep;
	static struct pb_config pcfg;
	unsigned int p, i, k = 0;
	char point[64]; /* the row keeps 31: "step 12: pps=100000 10s" is 23 */
	int ret = 0;

	for (i = 0; i < n && !pb_stopped() && !ret; i++) {
		for (p = 0; p < sw->n && !pb_stopped(); p++) {
			pcfg = s->cfg;
			pcfg.duration_s = sw->secs[p];
			pb_knob_set(&pcfg, PB_SWEEP_PPS, sw->values[p]);
			snprintf(point, sizeof(point), "step %u: pps=%u %.3gs", p + 1,
				 sw->values[p], sw->secs[p]);
			ret = session_run_one(s, &pcfg, &list[i], point, goes[p * n + i] ? ++k : 0,
					      total);
			if (ret || (s->n && s->results[s->n - 1].link_failed))
				break;
		}
		if (list[i].m->finish)
			list[i].m->finish();
		if (s->n && s->results[s->n - 1].link_failed)
			return 0;
	}
	return ret;
}

/*
 * Point p of the sweep (or the one run) into pcfg, its name into point; 0, or -EINVAL with
 * why its frame cannot be sent in err.
 */
static int session_point(const struct pb_session *s, unsigned int p, struct pb_config *pcfg,
			 char *point, size_t plen, char *err, size_t errlen)
{
	const struct pb_sweep *sw = &s->cfg.sweep;

	*pcfg = s->cfg;
	point[0] = '\0';
	if (sw->kind) {
		pb_knob_set(pcfg, sw->kind, sw->values[p]);
		snprintf(point, plen, "%s=%u", pb_sweep_name(sw->kind), sw->values[p]);
	}
	if (sw->profile) /* a step lasts its own seconds */
		pcfg->duration_s = sw->secs[p];
	return resolve_size(pcfg, err, errlen);
}

/* A run's seconds as its options tell; 0 when only the run will (a count at full speed). */
static double run_secs(const struct pb_config *cfg)
{
	if (cfg->replay[0] && cfg->loop)
		return 0; /* the capture's passes */
	if (cfg->count)
		return cfg->pps > 0 ? (double)cfg->count / cfg->pps : 0;
	return cfg->duration_s;
}

/*
 * Before the first run, as rfc2544 does: how many runs go (each method's options and probe at
 * each point: what cannot run here is a row that says why, not a run), what each is, and about
 * how long they take in all, on stderr (also under -q: it is no live line); the ones that do
 * not go on a second line. goes[p * n + i]: method i at point p runs. Returns how many go.
 */
static unsigned int session_plan(struct pb_session *s, const struct pb_selected *list,
				 unsigned int n, unsigned int npoints, bool *goes)
{
	static struct pb_config pcfg;
	const struct pb_config *cfg = &s->cfg;
	char point[32], why[160], label[96], what[96], each[64], hms[32], skip[128] = "";
	unsigned int p, i, runs = 0, methods = 0, points = 0, off = 0;
	bool null = false, known = true, any;
	const char *one = NULL; /* the method, when only one goes */
	double secs = 0;

	for (p = 0; p < npoints; p++) {
		bool ok = !session_point(s, p, &pcfg, point, sizeof(point), why, sizeof(why));

		for (i = 0, any = false; i < n; i++) {
			goes[p * n + i] = ok && !pb_run_check(list[i].m, &pcfg, why, sizeof(why));
			any |= goes[p * n + i];
			if (goes[p * n + i]) {
				runs++;
				known &= run_secs(&pcfg) > 0;
				secs += cfg->repeat * (run_secs(&pcfg) + PB_RUN_COST_S);
				continue;
			}
			snprintf(label, sizeof(label), "%s%s%s", list[i].m->name,
				 point[0] ? " " : "", point);
			if (off < sizeof(skip) - 1)
				off += (size_t)snprintf(skip + off, sizeof(skip) - off, "%s%s",
							off ? ", " : "", label);
		}
		points += any;
	}
	for (i = 0; i < n; i++) {
		for (p = 0, any = false; p < npoints; p++)
			any |= goes[p * n + i];
		methods += any;
		null |= any && (list[i].m->flags & PB_M_NO_WIRE);
		one = any ? list[i].m->name : one;
	}
	s->plan_t0 = pb_now();
	s->plan_s = known ? secs : 0;
	if (n * npoints < 2)
		return runs;
	/* "18 methods and null x 2 frame-size points x 3 repeats" */
	if (!methods)
		snprintf(what, sizeof(what), "none can run here");
	else if (methods == 1)
		snprintf(what, sizeof(what), "%s", one);
	else
		snprintf(what, sizeof(what), "%u methods%s", methods - null,
			 null ? " and null" : "");
	off = strlen(what);
	if (cfg->sweep.kind && off < sizeof(what))
		off += (size_t)snprintf(what + off, sizeof(what) - off, " x %u %s%s%s", points,
					cfg->sweep.profile ? "" : pb_sweep_name(cfg->sweep.kind),
					cfg->sweep.profile ? "step" : " point",
					points == 1 ? "" : "s");
	if (cfg->repeat > 1 && off < sizeof(what))
		snprintf(what + off, sizeof(what) - off, " x %u repeats", cfg->repeat);
	if (cfg->sweep.profile) /* each step its own seconds */
		each[0] = '\0';
	else if (cfg->replay[0] && cfg->loop)
		snprintf(each, sizeof(each), " of %u pass%s of the capture", cfg->loop,
			 cfg->loop > 1 ? "es" : "");
	else if (cfg->count)
		snprintf(each, sizeof(each), " of %llu frames", (unsigned long long)cfg->count);
	else
		snprintf(each, sizeof(each), " of %g s", cfg->duration_s);
	pb_hms(hms, sizeof(hms), s->plan_s);
	fprintf(stderr, "pktbench: %u run%s%s%s%s%s (%s)\n", runs, runs == 1 ? "" : "s", each,
		known ? ", about " : "", known ? hms : "", known ? " in all" : "", what);
	if (skip[0])
		fprintf(stderr, "  not run, each row says why: %.*s%s\n", 50, skip,
			strlen(skip) > 50 ? ", ..." : "");
	return runs;
}

/* Every method at every sweep point (or just once): one row each, in that order. */
static int session_run(struct pb_session *s, const struct pb_selected *list, unsigned int n)
{
	const struct pb_sweep *sw = &s->cfg.sweep;
	unsigned int npoints = sw->kind ? sw->n : 1, p, i, k = 0, total;
	static struct pb_config pcfg;
	char point[32] = "", err[sizeof(s->results[0].reason)];
	bool *goes;
	int ret = 0;

	if (s->link_err[0]) {
		/* nothing can go: the first method's row says why, once, and nothing else runs */
		struct pb_result *r = &s->results[s->n++];

		memset(r, 0, sizeof(*r));
		snprintf(r->method, sizeof(r->method), "%s", list[0].m->name);
		snprintf(r->mode, sizeof(r->mode), "-");
		r->streams = s->cfg.streams;
		r->status = PB_STATUS_ERROR;
		r->link_failed = true;
		snprintf(r->reason, sizeof(r->reason), "%s", s->link_err);
		pr_err("%s\n", s->link_err);
		return 0;
	}
	goes = calloc((size_t)n * npoints, sizeof(*goes));
	if (!goes)
		return -ENOMEM;
	total = session_plan(s, list, n, npoints, goes);
	if (sw->profile) {
		ret = session_profile(s, list, n, goes, total);
		goto out;
	}
	for (p = 0; p < npoints && !pb_stopped(); p++) {
		if (session_point(s, p, &pcfg, point, sizeof(point), err, sizeof(err))) {
			/* a point that cannot be sent is a row that says why, not an abort */
			for (i = 0; i < n; i++) {
				struct pb_result *r = &s->results[s->n++];

				memset(r, 0, sizeof(*r));
				snprintf(r->method, sizeof(r->method), "%s", list[i].m->name);
				snprintf(r->point, sizeof(r->point), "%s", point);
				r->status = PB_STATUS_SKIPPED;
				snprintf(r->reason, sizeof(r->reason), "%s", err);
			}
			continue;
		}
		for (i = 0; i < n && !pb_stopped(); i++) {
			struct pb_selected sel = list[i];

			/* a swept batch is the batch, also for an alias that implies its own */
			if (sw->kind == PB_SWEEP_BATCH)
				sel.batch = 0;
			/* only the runs that go are counted: a skip is a row, not a run */
			ret = session_run_one(s, &pcfg, &sel, point, goes[p * n + i] ? ++k : 0,
					      total);
			/*
			 * What the method kept across its runs (an XDP attachment) goes before a
			 * different method runs, so no method runs on another's leftovers.
			 */
			if (list[i].m->finish && (n > 1 || ret))
				list[i].m->finish();
			/* the link did not come up: the next method would only wait as long again
			 */
			if (ret || (s->n && s->results[s->n - 1].link_failed))
				goto out;
		}
	}
out:
	free(goes);
	return ret;
}

/* rfc2544: its frame sizes, as a sweep of them, so the lab's MTU fits the largest. */
static void rfc_sizes_as_sweep(struct pb_config *cfg)
{
	uint32_t i, tag = cfg->vlan ? 4 : 0;

	cfg->sweep.kind = PB_SWEEP_FRAME_SIZE;
	cfg->sweep.n = 0;
	for (i = 0; i < cfg->rfc.nsizes && i < PB_MAX_SWEEP; i++)
		cfg->sweep.values[cfg->sweep.n++] = cfg->rfc.sizes[i] - 4 - tag;
}

/*
 * pktbench itself, or pktbench rfc2544 (cmd): options, the session (lab or --iface), the
 * runs, the report, and everything taken down again, on every path.
 */
static int pktbench_run(const struct pb_cmd *cmd, int argc, char **argv)
{
	static struct pb_session s; /* large: keep it off the stack */
	static struct pb_rfc2544_rows rows;
	bool rfc = cmd == &pb_cmd_rfc2544;
	struct pb_selected list[64];
	enum pb_opt_action action;
	struct pb_report rep = { 0 };
	struct utsname uts;
	char err[512], caps[128], cpu[128];
	unsigned int n = 0, i;
	bool need_wire = false, need_raw = false, measured = false;
	int ret, status = 0, report_fd;

	install_signals();
	if (pb_options_parse_cmd(cmd, &s.cfg, argc, argv, &action, err, sizeof(err))) {
		pb_log_say(rfc ? "pktbench rfc2544" : "pktbench", err);
		return EXIT_BADINPUT;
	}
	if (action == PB_OPT_HELP) {
		pb_cmd_usage(cmd, stdout);
		return 0;
	}
	if (action == PB_OPT_VERSION) {
		printf("pktbench %s\n", PB_VERSION);
		return 0;
	}
	pb_log_set_level(PB_LOG_WARN + (s.cfg.verbose > 2 ? 2 : s.cfg.verbose));
	pb_log_route_libbpf();
	if (lab_opts_check(&s.cfg, err, sizeof(err))) {
		pb_log_say("pktbench", err);
		return EXIT_BADINPUT;
	}

	ret = pb_methods_select(s.cfg.method, list, sizeof(list) / sizeof(list[0]), err,
				sizeof(err));
	if (ret < 0)
		return EXIT_BADINPUT; /* options.c already checked the names */
	if ((size_t)ret > sizeof(list) / sizeof(list[0])) {
		fprintf(stderr, "pktbench: --method: at most %zu methods in one run\n",
			sizeof(list) / sizeof(list[0]));
		return EXIT_BADINPUT;
	}
	n = (unsigned int)ret;
	for (i = 0; i < n; i++) {
		need_wire |= !(list[i].m->flags & PB_M_NO_WIRE);
		need_raw |= !!(list[i].m->flags & PB_M_NEEDS_RAW);
	}
	methods_note(s.cfg.method, list, n, s.cfg.quiet);
	if (rfc && !need_wire) {
		fprintf(stderr,
			"pktbench rfc2544: --method %s puts nothing on a wire: no loss to "
			"count\n",
			s.cfg.method);
		return EXIT_BADINPUT;
	}
	if (rfc)
		rfc_sizes_as_sweep(&s.cfg);
	if (pb_caps_check(need_wire && !s.cfg.iface[0], need_raw || (need_wire && !s.cfg.iface[0]),
			  caps, sizeof(caps))) {
		fprintf(stderr, "pktbench: missing capabilities: %s (run as root)\n", caps);
		return EXIT_BADINPUT;
	}
	/* a whole benchmark must not be lost to an output file that cannot be written */
	if (s.cfg.output[0] && pb_report_check_path(s.cfg.output, err, sizeof(err))) {
		fprintf(stderr, "pktbench: --output %s\n", err);
		return EXIT_BADINPUT;
	}
	s.results =
		rfc ? NULL : calloc(n * (s.cfg.sweep.kind ? s.cfg.sweep.n : 1), sizeof(*s.results));
	if (!rfc && !s.results)
		return 1;
	/* from here every way out goes through session_teardown(), which closes it */
	if (s.cfg.stream[0] && pb_stream_open(&s.stream, s.cfg.stream, err, sizeof(err))) {
		pb_log_say("pktbench", err);
		free(s.results);
		return EXIT_BADINPUT;
	}
	s.env.on_sample = s.stream.f ? session_sample : NULL;
	s.env.sample_ctx = &s;
	err[0] = '\0';
	ret = session_prepare(&s, need_wire, err, sizeof(err));
	if (!ret && need_wire)
		session_envinfo(&s);
	if (ret) {
		if (err[0])
			pb_log_say("pktbench", err);
		else
			fprintf(stderr, "pktbench: cannot set up %s: %s\n",
				s.cfg.iface[0] ? s.cfg.iface : "the namespace lab", strerror(-ret));
		session_teardown(&s);
		free(s.results);
		return ret == -EINVAL ? EXIT_BADINPUT : 1;
	}
	if (s.link_err[0] && (rfc || s.cfg.tune)) {
		pr_err("%s\n", s.link_err);
		session_teardown(&s);
		free(s.results);
		return 1;
	}
	if (rfc && !s.path.rx) {
		fprintf(stderr, "pktbench rfc2544: loss is counted at a receiver: use the lab, or "
				"--iface with a receiver on the far side\n");
		session_teardown(&s);
		return EXIT_BADINPUT;
	}

	/*
	 * after every check that ends the session (an error stays the one line it is), wrapped
	 * at the terminal's width like the live line
	 */
	if (s.placed && !s.link_err[0])
		pb_box_note(stderr, pb_box_out_width(STDERR_FILENO, false), "pktbench: %s%s%s",
			    s.cfg.ncpus ? "sending from " : "senders ", s.placement,
			    s.cfg.ncpus ? "; --cpus overrides" : "");
	if (rfc)
		ret = pb_rfc2544_run(&s.cfg, list, n, &s.env, &rows);
	else if (s.cfg.tune)
		ret = session_tune(&s, list, n);
	else
		ret = session_run(&s, list, n);
	if (ret && ret != -EINTR)
		fprintf(stderr, "pktbench: %s\n", strerror(-ret));
	if (rfc) {
		s.results = rows.r;
		s.n = rows.n;
	}

	uname(&uts);
	rep.version = PB_VERSION;
	rep.command = s.cfg.command;
	rep.kernel = uts.release;
	rep.iface = s.cfg.ifname[0] ? s.cfg.ifname : "none";
	rep.driver = s.driver;
	rep.cpu_model = cpu_model(cpu, sizeof(cpu));
	rep.cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	rep.tx_queues = s.cfg.tx_queues;
	rep.rx_queues = s.rx_queues;
	rep.lab = s.have_lab;
	rep.lab_kind = s.have_lab ? pb_lab_kind_name(s.lab.kind) : NULL;
	rep.lab_dut_cpu = s.have_lab ? s.lab.dut_cpu : -1;
	rep.env = s.envinfo.n ? &s.envinfo : NULL;
	rep.results = s.results;
	rep.n = s.n;
	rep.sort_by_pps = !rfc && n > 1 && !s.cfg.sweep.kind; /* a sweep reads in its order */
	rep.show_counters = s.cfg.show_counters;
	/*
	 * --stream - has stdout, which then holds only NDJSON (a reader pipes it to jq): the
	 * table goes to stderr (options.c refused a JSON or CSV set there beside it)
	 */
	report_fd = !s.cfg.output[0] && !strcmp(s.cfg.stream, "-") ? STDERR_FILENO : STDOUT_FILENO;
	/* a file keeps every column for the scripts that read it; a terminal, its width */
	rep.width = s.cfg.output[0] && strcmp(s.cfg.output, "-")
			    ? 0
			    : pb_box_out_width(report_fd, s.cfg.wide);
	rep.rfc2544 = rfc ? &s.cfg.rfc : NULL;
	pb_stream_set(&s.stream, &rep); /* the stream's last line, before teardown closes it */
	/* take the lab down first: the results are already in memory */
	session_teardown(&s);
	if (s.n &&
	    (report_fd == STDERR_FILENO ? pb_report_print(stderr, &rep, s.cfg.format)
					: pb_report_write(&rep, s.cfg.format, s.cfg.output))) {
		fprintf(stderr, "pktbench: cannot write the results to %s\n", s.cfg.output);
		status = 1;
	}
	for (i = 0; i < s.n; i++) {
		if (s.results[i].status == PB_STATUS_ERROR)
			status = 1;
		measured |= s.results[i].status == PB_STATUS_OK;
	}
	/* nothing measured is no success: each row said why, and the status says it too */
	if (!status && s.n && !measured) {
		pb_log_say(rfc ? "pktbench rfc2544" : "pktbench",
			   "nothing was measured: every row was skipped (each says why)");
		status = EXIT_NOTHING;
	}
	if (ret && ret != -EINTR)
		status = 1;
	if (s.stream.error) {
		fprintf(stderr, "pktbench: cannot write --stream %s: %s\n", s.cfg.stream,
			strerror(-s.stream.error));
		status = 1;
	}
	/* 130 for Ctrl-C and SIGTERM, 129 for a hang-up: a shell's 128 + the signal, but TERM's */
	if (pb_stopped())
		status = __atomic_load_n(&pb_stop, __ATOMIC_RELAXED) == SIGHUP ? 128 + SIGHUP
									: EXIT_INTERRUPTED;
	/* rfc2544's rows are s.results now, released like any run's */
	for (i = 0; i < s.n; i++)
		pb_result_release(&s.results[i]);
	free(s.results);
	return status;
}

static int rfc2544_main(int argc, char **argv)
{
	return pktbench_run(&pb_cmd_rfc2544, argc, argv);
}

int main(int argc, char **argv)
{
	pb_rfc2544_session = rfc2544_main;
	if (argc > 1 && pb_cmd_find(argv[1]))
		return pb_cmd_find(argv[1])->run(argc - 1, argv + 1);
	/* a first word near a command's name was meant as it, whatever options follow it */
	if (argc > 1 && argv[1][0] != '-' && pb_cmd_suggest(argv[1])) {
		char err[160];

		snprintf(err, sizeof(err), "unknown command '%s': did you mean %s? (see --help)",
			 argv[1], pb_cmd_suggest(argv[1]));
		pb_log_say("pktbench", err);
		return EXIT_BADINPUT;
	}
	return pktbench_run(&pb_cmd_main, argc, argv);
}
