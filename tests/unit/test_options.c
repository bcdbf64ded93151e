// SPDX-License-Identifier: MIT
/* Option parsing: defaults, accepted values, and one clear error for each kind of bad input. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "method.h"
#include "options.h"
#include "check.h"

static struct pb_config cfg;
static char err[512];

static int parse(int argc, const char **argv)
{
	enum pb_opt_action action;

	return pb_options_parse(&cfg, argc, (char **)argv, &action, err, sizeof(err));
}

#define PARSE(...)                                                                                 \
	({                                                                                         \
		const char *argv_[] = { "pktbench", __VA_ARGS__, NULL };                           \
		parse((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_);                         \
	})

/* A bad value: -EINVAL, and the message names the option and contains want. */
static void bad(const char *opt, const char *val, const char *want)
{
	const char *argv[] = { "pktbench", opt, val, NULL };
	int ret = parse(val ? 3 : 2, argv);

	CHECK(ret == -EINVAL, "%s %s: accepted", opt, val ? val : "");
	CHECK(strstr(err, want) != NULL, "%s %s: message '%s' lacks '%s'", opt, val ? val : "", err,
	      want);
	CHECK(!strchr(err, '\n'), "%s: message is one line", opt);
}

/* --method alias parses and selects method want, with the alias's batch. */
static void alias(const char *name, const char *want, unsigned int batch)
{
	struct pb_selected sel[2];
	char badname[64];
	int n;

	CHECK(PARSE("--method", name) == 0, "alias %s: %s", name, err);
	n = pb_methods_select(name, sel, 2, badname, sizeof(badname));
	CHECK(n == 1 && !strcmp(sel[0].m->name, want) && sel[0].batch == batch,
	      "alias %s selects %s (batch %u), got %s (batch %u)", name, want, batch,
	      n == 1 ? sel[0].m->name : "nothing", n == 1 ? sel[0].batch : 0);
}

int main(void)
{
	CHECK(PARSE("--duration", "1") == 0, "a plain run parses: %s", err);
	CHECK(!strcmp(cfg.method, "af_packet"), "default method is go-pktgen's af_packet");
	CHECK(cfg.payloadsize == 18 && cfg.segments == 8 && cfg.streams == 1, "defaults");
	CHECK(cfg.srcip.family == AF_INET && cfg.dstport == 12345, "default addresses and ports");

	/* go-pktgen's names: each selects our method of that path (and its batch, if any) */
	alias("udp_syscall", "udp_sendto", 0);
	alias("net_conn", "udp_connected", 0);
	alias("pkt_conn", "sendmmsg", 128); /* WriteBatch: sendmmsg, 128 datagrams a call */
	alias("af_pcap", "pcap", 0);	    /* listed even when libpcap was missing at build */
	CHECK(PARSE("--method", "benchmark", "--duration", "0.5") == 0, "benchmark, fractional s");
	CHECK(PARSE("--dstmac", "aa:bb:cc:dd:ee:ff") == 0 && cfg.dstmac_set &&
		      cfg.dstmac[5] == 0xff,
	      "MAC parses");
	CHECK(PARSE("--srcip", "2001:2::1", "--dstip", "2001:2::2") == 0 &&
		      cfg.dstip.family == AF_INET6,
	      "IPv6 pair");
	CHECK(PARSE("--count", "20000") == 0 && cfg.count == 20000, "--count");
	CHECK(PARSE("--pps", "50k") == 0 && cfg.pps == 50000, "--pps 50k");
	CHECK(PARSE("--pps", "1.5M") == 0 && cfg.pps == 1500000, "--pps 1.5M");
	CHECK(PARSE("--cpus", "0") == 0 && cfg.ncpus == 1 && cfg.cpus[0] == 0, "--cpus 0");
	CHECK(PARSE("--sweep", "frame-size=64,128,1518") == 0 &&
		      cfg.sweep.kind == PB_SWEEP_FRAME_SIZE && cfg.sweep.n == 3 &&
		      cfg.sweep.values[2] == 1518,
	      "--sweep frame-size");
	CHECK(PARSE("--sweep", "streams=1,2") == 0 && cfg.sweep.kind == PB_SWEEP_STREAMS,
	      "--sweep streams");
	CHECK(PARSE("--method", "udp_sendto,af_packet") == 0, "a method list");
	CHECK(PARSE("--pps", "1k", "--rate", "1") == -EINVAL, "--pps and --rate together");

	bad("--method", "warp_drive", "unknown method 'warp_drive'");
	bad("--method", "warp_drive", "udp_sendto");
	bad("--dstip", "198.18.0.300", "--dstip");
	bad("--srcip", "not-an-ip", "--srcip");
	bad("--dstmac", "aa:bb:cc:dd:ee", "--dstmac");
	bad("--srcmac", "aa:bb:cc:dd:ee:fg", "--srcmac");
	bad("--dstport", "0", "--dstport");
	bad("--dstport", "65536", "--dstport");
	bad("--srcport", "-1", "--srcport");
	bad("--duration", "0", "positive");
	bad("--duration", "-5", "positive");
	bad("--duration", "abc", "positive");
	bad("--payloadsize", "7", "--payloadsize");
	bad("--payloadsize", "70000", "--payloadsize");
	bad("--streams", "0", "--streams");
	bad("--format", "xml", "table|json|csv");
	bad("--xdp-mode", "turbo", "auto|native|generic");
	bad("--zerocopy", "maybe", "auto|on|off");
	bad("--pps", "0", "positive rate");
	bad("--pps", "-5k", "positive rate");
	bad("--pps", "10x", "positive rate");
	bad("--rate", "0", "positive rate");
	bad("--cpus", "0,4096", "not online");
	bad("--cpus", "1-0", "not a CPU list");
	bad("--cpus", "a", "not a CPU list");
	bad("--sweep", "colour=1,2", "frame-size=");
	bad("--sweep", "frame-size=64,x", "frame-size takes");
	bad("--sweep", "frame-size=10", "frame-size takes");
	bad("--sweep", "streams=", "no values");
	bad("--frame-size", "59", "--frame-size");
	bad("--method", "udp_sendto,warp", "unknown method 'warp'");
	bad("--no-such-flag", NULL, "unknown option");
	bad("--duration", NULL, "missing value");

	CHECK(PARSE("--srcip", "198.18.0.1", "--dstip", "2001:2::2") == -EINVAL &&
		      strstr(err, "both"),
	      "mixed families: %s", err);
	/* gso's probe refuses payload x segments over a datagram, for lists and scenarios too */
	CHECK(PARSE("--method", "gso", "--payloadsize", "9000", "--segments", "8") == 0,
	      "gso payload x segments is the probe's, not the parser's: %s", err);

	return check_summary();
}
