// SPDX-License-Identifier: MIT
/* Option parsing: defaults, accepted values, and one clear error for each kind of bad input. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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

/* A subcommand's table has the same shape: a struct of its own, positional arguments. */
struct demo {
	double tol;
	char ref[16];
	int fmt;
	bool all;
	uint32_t n;
};

static const char *const demo_formats[] = { "table", "json", NULL };

static const struct pb_opt demo_opts[] = {
	{ "tolerance", 't', OPT_PCT, offsetof(struct demo, tol), 0, "10", 0, 100, "PCT", "edge" },
	{ "ref", 0, OPT_STR, offsetof(struct demo, ref), 0, NULL, 0, 16, "NAME", "reference",
	  .flags = PB_OPTF_METHOD },
	{ "format", 'f', OPT_ENUM, offsetof(struct demo, fmt), 0, "table", 0, 0, "table|json",
	  "output", demo_formats },
	{ "all", 'a', OPT_FLAG, offsetof(struct demo, all), 0, NULL, 0, 0, NULL, "everything" },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help" },
};

static int demo_validate(void *dst, char *e, size_t len)
{
	const struct demo *d = dst;

	if (d->all && d->ref[0]) {
		snprintf(e, len, "--all and --ref: give one");
		return -EINVAL;
	}
	return 0;
}

static int demo_run(int argc, char **argv)
{
	return 0;
}

static const struct pb_cmd demo_cmd = {
	.name = "demo",
	.summary = "a test",
	.synopsis = "A B [options]",
	.description = "Demonstrates.",
	.opts = demo_opts,
	.nopts = sizeof(demo_opts) / sizeof(demo_opts[0]),
	.size = sizeof(struct demo),
	.args = "A and B",
	.nargs = 2,
	.validate = demo_validate,
	.run = demo_run,
};

static int demo(struct demo *d, char **args, const char *a1, ...)
{
	char *argv[16] = { "demo" };
	enum pb_opt_action action;
	int argc = 1;
	va_list ap;

	va_start(ap, a1);
	for (; a1 && argc < 15; a1 = va_arg(ap, const char *))
		argv[argc++] = (char *)a1;
	va_end(ap);
	return pb_cmd_parse(&demo_cmd, d, argc, argv, &action, args, err, sizeof(err));
}

static void test_subcommand_table(void)
{
	struct demo d;
	char *args[2] = { NULL, NULL };
	char *usage = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(demo(&d, args, "x", "y", NULL) == 0 && d.tol == 10 && d.fmt == 0 && !d.all &&
		      !strcmp(args[0], "x") && !strcmp(args[1], "y"),
	      "demo defaults and two arguments: %s", err);
	CHECK(demo(&d, args, "-t", "20%", "x", "--format=json", "y", "-a", NULL) == 0 &&
		      d.tol == 20 && d.fmt == 1 && d.all,
	      "options between the arguments: %s", err);
	CHECK(demo(&d, args, "x", NULL) == -EINVAL && !strcmp(err, "A and B needed (see --help)"),
	      "one argument: %s", err);
	CHECK(demo(&d, args, "x", "y", "z", NULL) == -EINVAL &&
		      !strcmp(err, "unexpected argument 'z' (see --help)"),
	      "three arguments: %s", err);
	CHECK(demo(&d, args, "-t", "101", "x", "y", NULL) == -EINVAL &&
		      !strcmp(err, "--tolerance: '101' is not a percentage from 0 to 100"),
	      "tolerance 101: %s", err);
	CHECK(demo(&d, args, "-t", "x%", "x", "y", NULL) == -EINVAL, "tolerance x%%: %s", err);
	CHECK(demo(&d, args, "x", "y", "--tolerance", NULL) == -EINVAL &&
		      !strcmp(err, "missing value for '--tolerance' (see --help)"),
	      "tolerance without a value: %s", err);
	CHECK(demo(&d, args, "x", "y", "--bogus", NULL) == -EINVAL &&
		      !strcmp(err, "unknown option '--bogus' (see --help)"),
	      "unknown option: %s", err);
	CHECK(demo(&d, args, "x", "y", "-a", "--ref", "r", NULL) == -EINVAL &&
		      !strcmp(err, "--all and --ref: give one"),
	      "the command's own cross-checks: %s", err);
	CHECK(demo(&d, args, "--help", NULL) == 0, "--help needs no arguments: %s", err);

	f = open_memstream(&usage, &len);
	if (f) {
		pb_cmd_usage(&demo_cmd, f);
		fclose(f);
		CHECK(usage && strstr(usage, "usage: pktbench demo A B [options]") &&
			      strstr(usage, "  -t, --tolerance PCT       edge (default 10)") &&
			      strstr(usage, "      --ref NAME            reference\n"),
		      "demo --help:\n%s", usage);
		free(usage);
	}
}

/*
 * What no run can do is refused, naming the range: on main --pps 1e28 sent 1 frame and
 * --pps 1.7e308 none, --duration 1e-9 sent 0 frames, all with exit 0; an all-zero --test-id
 * named nothing the agent could show.
 */
static void test_ranges(void)
{
	bad("--pps", "1e28", "--pps 1e+28 is more than any run sends: from above 0 up to 1e+10");
	bad("--pps", "1.7e308", "up to 1e+10 packets/s");
	bad("--pps", "10.1G", "up to 1e+10 packets/s");
	bad("--latency-pps", "1e28", "--latency-pps 1e+28 is more than any run sends");
	bad("--rate", "1e9",
	    "--rate 1e+09 is more than any run sends: from above 0 up to 5.24288e+06 Gb/s");
	bad("--rate", "1e300", "up to 5.24288e+06 Gb/s");
	bad("--duration", "1e-9", "--duration 1e-09 s is shorter than any run: from 0.001 s");
	bad("--duration", "0.0009", "from 0.001 s to 2592000 s (30 days)");
	bad("--duration", "2592001", "at most 2592000 s (30 days)");
	/* past the parser's own year: the limit is named, not "not a positive number" */
	bad("--duration", "1e12", "more than any run lasts: at most 2592000 s (30 days)");
	bad("--link-timeout", "1e12", "more than any run lasts: at most 31536000 s (365 days)");
	bad("--test-id", "00000000-0000-0000-0000-000000000000", "all zero");
	CHECK(PARSE("--pps", "10G") == 0 && cfg.pps == 1e10, "--pps 10G, the most: %s", err);
	CHECK(PARSE("--rate", "5e6") == 0 && cfg.rate_gbps == 5e6, "--rate 5e6, near the most: %s",
	      err);
	CHECK(PARSE("--duration", "0.001") == 0 && cfg.duration_s == 0.001, "1 ms: %s", err);
	CHECK(PARSE("--duration", "2592000") == 0, "30 days: %s", err);
	CHECK(PARSE("--test-id", "00000000-0000-0000-0000-000000000001") == 0, "a UUID: %s", err);
	CHECK(PARSE("--count", "5", "--duration", "1e-9") == -EINVAL,
	      "a duration no run has is refused with --count too");
}

/*
 * Every number an option takes is decimal: strtod took hex ("0x10" as 16, "0x1p4"), and
 * leading blanks; inf and nan were refused only by the range checks after them. One parser
 * for all: seconds, rates, percentages, counts, a profile's seconds.
 */
static void test_decimal(void)
{
	bad("--duration", "0x10", "decimal");
	bad("--duration", "0X10", "decimal");
	bad("--duration", "0x1p4", "decimal");
	bad("--duration", " 5", "decimal");
	bad("--duration", "5 ", "decimal");
	bad("--duration", "inf", "decimal");
	bad("--duration", "nan", "decimal");
	bad("--duration", "1e", "decimal");
	bad("--duration", ".", "decimal");
	bad("--pps", "0x10", "decimal");
	bad("--pps", "0x10k", "decimal");
	bad("--pps", "infinity", "decimal");
	bad("--pps", "+nan", "decimal");
	bad("--latency-pps", "0x10", "decimal");
	bad("--count", "0x10", "whole number");
	bad("--count", " 5", "whole number");
	bad("--streams", "0x2", "whole number");
	bad("--pps", "0x10:5s", "a rate or a profile");
	bad("--pps", "10k:0x5s", "a rate or a profile");
	CHECK(PARSE("--duration", "1e1") == 0 && cfg.duration_s == 10, "1e1 s: %s", err);
	CHECK(PARSE("--duration", ".5") == 0 && cfg.duration_s == 0.5, ".5 s: %s", err);
	CHECK(PARSE("--duration", "2.") == 0 && cfg.duration_s == 2, "2. s: %s", err);
	CHECK(PARSE("--duration", "+2.5E0") == 0 && cfg.duration_s == 2.5, "+2.5E0 s: %s", err);
	CHECK(PARSE("--pps", "1.5e3k") == 0 && cfg.pps == 1.5e6, "1.5e3k: %s", err);
}

/*
 * A rate that sends no frame in the run: the pacer's stream sends its first frame 1 / (its
 * share of the rate) after the start, so a share below 1 / the window sends none, and the
 * row said ok with 0 sent. Refused, saying the least rate that sends one.
 */
static void test_no_frame_rate(void)
{
	CHECK(PARSE("--pps", "1e-300") == -EINVAL && strstr(err, "no frame"), "--pps 1e-300: %s",
	      err);
	CHECK(PARSE("--pps", "0.5", "--duration", "1") == -EINVAL && strstr(err, "no frame") &&
		      strstr(err, "at least 1"),
	      "--pps 0.5 for 1 s: %s", err);
	CHECK(PARSE("--pps", "0.5", "--duration", "2") == 0, "--pps 0.5 for 2 s: one frame: %s",
	      err);
	CHECK(PARSE("--pps", "3", "--duration", "1", "--streams", "4") == -EINVAL &&
		      strstr(err, "4 streams") && strstr(err, "at least 4"),
	      "3 pps over 4 streams for 1 s: a stream sends none: %s", err);
	CHECK(PARSE("--pps", "4", "--duration", "1", "--streams", "4") == 0,
	      "4 pps over 4 streams for 1 s: %s", err);
	CHECK(PARSE("--pps", "100", "--duration", "1", "--shard", "0/200") == -EINVAL &&
		      strstr(err, "200 shards") && strstr(err, "at least 200"),
	      "100 pps shared by 200 shards for 1 s: %s", err);
	CHECK(PARSE("--pps", "1e-300", "--count", "10") == -EINVAL && strstr(err, "no frame"),
	      "--count 10 at 1e-300 pps: %s", err);
	CHECK(PARSE("--latency-pps", "0.1", "--duration", "5") == -EINVAL &&
		      strstr(err, "--latency-pps") && strstr(err, "no probe"),
	      "--latency-pps 0.1 for 5 s: %s", err);
	CHECK(PARSE("--rate", "1e-15", "--duration", "1") == -EINVAL && strstr(err, "no frame"),
	      "--rate 1e-15 Gb/s for 1 s: %s", err);
}

/* --imix's cycle: the standard 7:4:1, or --imix-sizes' wire sizes by their weights */
static void test_imix(void)
{
	uint32_t i, big = 0;

	CHECK(PARSE("--imix") == 0 && cfg.imix && cfg.imix_n == 12 && cfg.imix_cycle[0] == 60 &&
		      cfg.imix_cycle[7] == 590 && cfg.imix_cycle[11] == 1514,
	      "--imix: 7 x 60, 4 x 590, 1 x 1514 without FCS: %s", err);
	CHECK(PARSE("--imix-sizes", "64:7,594:4,9018:1") == 0 && cfg.imix && cfg.imix_n == 12 &&
		      cfg.imix_cycle[6] == 60 && cfg.imix_cycle[10] == 590 &&
		      cfg.imix_cycle[11] == 9014,
	      "--imix-sizes past 1518, implying --imix: %s", err);
	CHECK(PARSE("--imix-sizes", "1518,9018:3") == 0 && cfg.imix_n == 4 &&
		      cfg.imix_cycle[0] == 1514 && cfg.imix_cycle[3] == 9014,
	      "a weight of 1 by default: %s", err);
	CHECK(PARSE("--imix-sizes", "64:63,9206") == 0 && cfg.imix_n == PB_IMIX_MAX,
	      "64 frames: %s", err);
	for (i = 0; i < cfg.imix_n; i++)
		big += cfg.imix_cycle[i] == 9202;
	CHECK(big == 1, "the most the lab takes, 9206 on the wire, once");
	bad("--imix-sizes", "64:7,", "give SIZE:WEIGHT,... with wire sizes 64 to 9206");
	bad("--imix-sizes", "63", "wire sizes 64 to 9206");
	bad("--imix-sizes", "9207", "wire sizes 64 to 9206");
	bad("--imix-sizes", "64:0", "weights adding up to at most 64");
	bad("--imix-sizes", "64:60,594:5", "weights adding up to at most 64");
	bad("--imix-sizes", "64:x", "give SIZE:WEIGHT");
	bad("--imix-sizes", "99999999999999999999", "give SIZE:WEIGHT");
	CHECK(PARSE("--imix-sizes", "64,1518", "--frame-size", "100") == -EINVAL,
	      "a mix and --frame-size: refused");
}

/* refused(want, args...): -EINVAL with exactly want */
#define REFUSED(want, ...)                                                                         \
	CHECK(PARSE(__VA_ARGS__) == -EINVAL && !strcmp(err, want), "%s: '%s'", want, err)

/*
 * Two options that set the same thing are refused in one line, never one of them ignored
 * (issue 45): on main --count 1000 --duration 5 ran 1000 frames and said nothing of the
 * duration, --sweep frame-size=64,128 --frame-size 100 swept and dropped --frame-size.
 */
static void test_conflicts(void)
{
	REFUSED("--duration and --count both set when each run ends: give one", "--count", "1000",
		"--duration", "5");
	REFUSED("--frame-size and --sweep frame-size= both set the frame size: give one", "--sweep",
		"frame-size=64,128", "--frame-size", "100");
	REFUSED("--payloadsize and --sweep frame-size= both set the frame size: give one",
		"--sweep", "frame-size=64,128", "--payloadsize", "100");
	REFUSED("--frame-size and --payloadsize both set the frame size: give one", "--frame-size",
		"100", "--payloadsize", "18");
	REFUSED("--imix and --imix-sizes both set the frame size: give one", "--imix",
		"--imix-sizes", "64:1");
	REFUSED("--streams and --sweep streams= both set the streams: give one", "--streams", "2",
		"--sweep", "streams=1,2");
	REFUSED("--batch and --sweep batch= both set the batch: give one", "--batch", "8",
		"--sweep", "batch=16,32");
	REFUSED("--batch and --tune both set the batch: give one", "--tune", "--batch", "8");
	REFUSED("--ring and --tune both set the ring: give one", "--tune", "--ring", "64");
	REFUSED("--segments and --tune both set the segments: give one", "--tune", "--segments",
		"4");
	REFUSED("--tune and --sweep streams= both choose each run's settings: give one", "--tune",
		"--sweep", "streams=1,2");
	REFUSED("--pps and --rate both set the rate: give one", "--pps", "1k", "--rate", "1");
	REFUSED("--pps and --sweep pps= both set the rate: give one", "--sweep", "pps=1k,2k",
		"--pps", "1k");
	REFUSED("--timing and --topspeed both set the replay's timing: give one", "--timing",
		"original", "--topspeed");
	REFUSED("--vlan and --vlan-strip both set the frames' VLAN tag: give one", "--vlan-strip",
		"--vlan", "10");
	REFUSED("--count and --loop both set how many frames go: give one", "--loop", "2",
		"--count", "10");
	REFUSED("--iface and --lab cannot go together: --iface sends on an interface as it is, "
		"the other builds or shapes the namespace lab (leave --iface out for the lab)",
		"--iface", "eth9", "--lab", "direct");
	REFUSED("--iface and --keep-lab cannot go together: --iface sends on an interface as it "
		"is, the other builds or shapes the namespace lab (leave --iface out for the lab)",
		"--keep-lab", "--iface", "eth9");
	REFUSED("--iface and --mtu cannot go together: with --iface the interface's own MTU "
		"counts (ip link set dev IFACE mtu N)",
		"--iface", "eth9", "--mtu", "9000");
	REFUSED("--tune and --sweep batch= both choose each run's settings: give one", "--tune",
		"--sweep", "batch=16,32");
	/* a value of an enum row is a token too: the table's options with a format of no table */
	REFUSED("--wide and --format json cannot go together: the one shapes the table, and the "
		"other prints none (its rows hold every field)",
		"--format", "json", "--wide");
	REFUSED("--show-counters and --format csv cannot go together: the one shapes the table, "
		"and the other prints none (its rows hold every field)",
		"--show-counters", "-f", "csv");
	CHECK(PARSE("--format", "json", "--format", "table", "--wide", "--show-counters") == 0,
	      "the last --format, table, with the table's options: %s", err);
	/* what is the same option twice, or a value the two share, is no conflict */
	CHECK(PARSE("--tune", "--duration", "1", "--count", "10") == 0,
	      "--tune: its trials a fifth of --duration, its rows --count frames (%s)", err);
	CHECK(PARSE("--duration", "1", "--duration", "2") == 0 && cfg.duration_s == 2,
	      "the same option twice: the last wins (%s)", err);
	CHECK(PARSE("--count", "10") == 0 && cfg.count == 10, "--count alone (%s)", err);
	CHECK(PARSE("--latency", "--latency-pps", "10") == 0, "--latency-pps implies --latency: %s",
	      err);
	CHECK(PARSE("--sweep", "streams=1,2", "--frame-size", "100") == 0,
	      "a sweep of another setting beside --frame-size: %s", err);
}

/*
 * An option that does nothing without another is refused in one line naming what it needs
 * (issue 45): on main each of these parsed, and --count-timeout 5 without --count ran for
 * --duration and said nothing of it.
 */
static void test_needs(void)
{
	REFUSED("--count-timeout goes with --count or --replay: it bounds a run that ends after a "
		"count of frames (--count, or a --replay's --loop passes); a --duration run ends "
		"on time",
		"--count-timeout", "5");
	REFUSED("--allow-mgmt-iface goes with --iface: it lets --iface name the interface you are "
		"logged in through; the lab is its own",
		"--allow-mgmt-iface");
	REFUSED("--receiver goes with --iface: the lab has its own receiver", "--receiver",
		"http://198.18.0.2:9310");
	REFUSED("--force goes with --iface: it replaces an XDP program already on --iface; the "
		"lab's interfaces are its own",
		"--force");
	REFUSED("--flows-src-ip goes with --flows, --streams, --shard or --sweep streams=: it "
		"varies the "
		"source address over the flows, and one stream alone is one flow",
		"--flows-src-ip");
	REFUSED("--vlan-prio goes with --vlan: it is the priority of the tag --vlan ID adds",
		"--vlan-prio", "3");
	REFUSED("--pace goes with --pps, --rate, --sweep pps= or --replay: it says how a paced "
		"sender "
		"waits, and without a rate or a capture's schedule none waits",
		"--pace", "spin");
	REFUSED("--loop goes with --replay: it shapes how a capture is replayed", "--loop", "2");
	REFUSED("--timing goes with --replay: it shapes how a capture is replayed", "--timing",
		"topspeed");
	REFUSED("--multiplier goes with --replay: it shapes how a capture is replayed",
		"--multiplier", "2");
	REFUSED("--preload-max goes with --replay: it shapes how a capture is replayed",
		"--preload-max", "8");
	REFUSED("--rewrite-port goes with --replay: it shapes how a capture is replayed",
		"--rewrite-port", "1=2");
	/* a need may be an enum's value: a DUT's script needs a DUT */
	REFUSED("--lab-dut-setup goes with --lab router or --lab bridge: it runs in the device "
		"under test's namespace, and the direct lab has none",
		"--lab-dut-setup", "/etc/hostname");
	REFUSED("--lab-dut-setup goes with --lab router or --lab bridge: it runs in the device "
		"under test's namespace, and the direct lab has none",
		"--lab", "direct", "--lab-dut-setup", "/etc/hostname");
	CHECK(PARSE("--lab", "bridge", "--lab-dut-setup", "/etc/hostname") == 0, "--lab bridge: %s",
	      err);
	/* with what they need, each parses */
	CHECK(PARSE("--count", "10", "--count-timeout", "5") == 0, "--count-timeout: %s", err);
	CHECK(PARSE("--iface", "eth9", "--allow-mgmt-iface", "--force") == 0, "--iface: %s", err);
	CHECK(PARSE("--streams", "2", "--flows-src-ip") == 0, "--streams: %s", err);
	CHECK(PARSE("--flows", "8", "--flows-src-ip") == 0, "--flows: %s", err);
	CHECK(PARSE("--shard", "0/2", "--flows-src-ip") == 0, "--shard: %s", err);
	CHECK(PARSE("--sweep", "streams=1,2", "--flows-src-ip") == 0, "a streams sweep: %s", err);
	CHECK(PARSE("--vlan", "10", "--vlan-prio", "3") == 0, "--vlan: %s", err);
	CHECK(PARSE("--pps", "1k", "--pace", "spin") == 0, "--pps: %s", err);
	CHECK(PARSE("--sweep", "pps=1k,2k", "--pace", "spin") == 0, "a pps sweep: %s", err);
	CHECK(PARSE("--pps", "1k:1s", "--pace", "spin") == 0, "a profile: %s", err);
	/* a sweep of another kind is no rate */
	CHECK(PARSE("--sweep", "batch=1,2", "--pace", "spin") == -EINVAL && strstr(err, "--pace"),
	      "--pace with a batch sweep: %s", err);
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
	CHECK(PARSE("--sweep", "batch=16,256") == 0 && cfg.sweep.kind == PB_SWEEP_BATCH &&
		      cfg.sweep.values[1] == 256 && !strcmp(pb_sweep_name(cfg.sweep.kind), "batch"),
	      "--sweep batch");
	CHECK(PARSE("--sweep", "segments=1,64") == 0 && cfg.sweep.kind == PB_SWEEP_SEGMENTS,
	      "--sweep segments up to the kernel's 64");
	CHECK(PARSE("--sweep", "ring=64,4096") == 0 && cfg.sweep.kind == PB_SWEEP_RING &&
		      !strcmp(pb_sweep_name(cfg.sweep.kind), "ring"),
	      "--sweep ring");
	CHECK(PARSE("--sweep", "pps=10k,20000,1.5M") == 0 && cfg.sweep.kind == PB_SWEEP_PPS &&
		      cfg.sweep.n == 3 && cfg.sweep.values[0] == 10000 &&
		      cfg.sweep.values[1] == 20000 && cfg.sweep.values[2] == 1500000 &&
		      !strcmp(pb_sweep_name(cfg.sweep.kind), "pps"),
	      "--sweep pps: rates as --pps takes them");
	CHECK(PARSE("--pps", "10k", "--sweep", "pps=1k,2k") == -EINVAL &&
		      strstr(err, "--pps and --sweep pps= both set the rate"),
	      "--sweep pps= beside --pps: refused (%s)", err);
	CHECK(PARSE("--rate", "1", "--sweep", "pps=1k,2k") == -EINVAL &&
		      strstr(err, "--rate and --sweep pps= both set the rate"),
	      "--sweep pps= beside --rate: refused (%s)", err);
	/* a --pps profile: steps, and a ramp of a step a second, its ends included */
	CHECK(PARSE("--pps", "100k:10s,200k:2.5") == 0 && cfg.sweep.kind == PB_SWEEP_PPS &&
		      cfg.sweep.profile && cfg.sweep.n == 2 && cfg.sweep.values[0] == 100000 &&
		      cfg.sweep.values[1] == 200000 && cfg.sweep.secs[0] == 10 &&
		      cfg.sweep.secs[1] == 2.5 && cfg.pps == 0,
	      "--pps 100k:10s,200k:2.5: two steps");
	CHECK(PARSE("--pps", "10k-50k:5s") == 0 && cfg.sweep.n == 5 &&
		      cfg.sweep.values[0] == 10000 && cfg.sweep.values[1] == 20000 &&
		      cfg.sweep.values[4] == 50000 && cfg.sweep.secs[4] == 1,
	      "--pps 10k-50k:5s: a ramp of 5 steps of 1 s, 10k to 50k");
	CHECK(PARSE("--pps", "1k:1s,90k-10k:0.5s") == 0 && cfg.sweep.n == 3 &&
		      cfg.sweep.values[1] == 90000 && cfg.sweep.values[2] == 10000 &&
		      cfg.sweep.secs[2] == 0.25,
	      "a step, then a ramp down of at least 2 steps");
	CHECK(PARSE("--pps", "100k") == 0 && cfg.pps == 100000 && !cfg.sweep.kind,
	      "--pps 100k: a rate, no profile");
	bad("--pps", "100k:", "profile");
	bad("--pps", "100k:10s,", "profile");
	bad("--pps", "100k:0", "profile");
	bad("--pps", "0:10s", "profile");
	bad("--pps", "100k:10x", "profile");
	bad("--pps", "1k-2k-3k:2s", "profile");
	bad("--pps", "1k-100k:100s", "profile"); /* 100 steps: more than a sweep holds */
	CHECK(PARSE("--pps", "1k:1s", "--sweep", "batch=1,2") == -EINVAL && strstr(err, "profile"),
	      "a profile and --sweep: refused (%s)", err);
	CHECK(PARSE("--sweep", "batch=1,2", "--pps", "1k:1s") == -EINVAL && strstr(err, "profile"),
	      "--sweep and a profile: refused (%s)", err);
	CHECK(PARSE("--segments", "64", "--ring", "512") == 0 && cfg.segments == 64 &&
		      cfg.ring == 512,
	      "--segments 64 (UDP_MAX_SEGMENTS), --ring");
	CHECK(PARSE("--method", "udp_sendto,af_packet") == 0, "a method list");
	CHECK(PARSE("--pps", "1k", "--rate", "1") == -EINVAL, "--pps and --rate together");

	bad("--method", "warp_drive", "unknown method 'warp_drive'");
	bad("--method", "warp_drive", "pktbench --help lists every method and alias");
	/* a near miss is answered with the name; any case is the method; aliases too */
	bad("--method", "af_packt", "unknown method 'af_packt': did you mean af_packet?");
	bad("--method", "udp_sendot", "did you mean udp_sendto?");
	bad("--method", "udp_syscal", "did you mean udp_syscall?");
	CHECK(PARSE("--method", "AF_PACKET,Udp_Syscall") == 0, "names in any case: %s", err);
	/* issue 45: benchmark in a list is no unknown name; a part of a name is answered too */
	bad("--method", "benchmark,af_xdp",
	    "--method benchmark runs every method: it cannot be combined with others (give "
	    "benchmark alone, or a list of methods)");
	bad("--method", "af_xdp,Benchmark", "benchmark runs every method");
	bad("--method", "sendto", "unknown method 'sendto': did you mean udp_sendto?");
	bad("--method", "syscall", "did you mean udp_syscall?");
	bad("--size", "100", "unknown option '--size': did you mean --frame-size?");
	bad("--durration", "2", "unknown option '--durration': did you mean --duration?");
	bad("--mehtod", "af_xdp", "did you mean --method?");
	/* tcpreplay's flags: ours named */
	bad("-x", "2", "tcpreplay's -x X is --multiplier X");
	bad("-l", "3", "tcpreplay's -l N is --loop N");
	bad("-K", NULL, "tcpreplay's -K is --preload always");
	bad("--mbps", "100", "tcpreplay's --mbps M is --rate MMbit");
	bad("--intf1", "eth1", "tcpreplay's --intf1 IF is --iface IF");
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
	bad("--pps", "10x", "'10x' is not a decimal number of packets a second");
	bad("--rate", "0", "positive rate");
	bad("--cpus", "0,4096", "not online");
	bad("--cpus", "1-0", "not a CPU list");
	bad("--cpus", "a", "not a CPU list");
	bad("--sweep", "colour=1,2", "frame-size=");
	bad("--sweep", "frame-size=64,x", "frame-size takes");
	bad("--sweep", "frame-size=10", "frame-size takes");
	bad("--sweep", "streams=", "no values");
	bad("--sweep", "segments=8,65", "segments takes up to 32 values from 1 to 64");
	bad("--sweep", "batch=0", "batch takes");
	bad("--sweep", "pps=10k,,20k", "pps takes up to 32 rates");
	bad("--sweep", "pps=10k,", "pps takes up to 32 rates");
	bad("--sweep", "pps=0.4", "pps takes up to 32 rates");
	bad("--sweep", "pps=5G", "pps takes up to 32 rates");
	bad("--segments", "65", "--segments: '65' is not a whole number from 1 to 64");
	bad("--segments", "128", "from 1 to 64");
	bad("--ring", "8", "--ring");
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

	/* getopt's spellings, and --config found however it is written */
	CHECK(PARSE("--dur", "2") == 0 && cfg.duration_s == 2, "an unambiguous abbreviation");
	CHECK(PARSE("--duration=3", "-qv") == 0 && cfg.duration_s == 3 && cfg.quiet &&
		      cfg.verbose == 1,
	      "--opt=value and grouped short flags: %s", err);
	CHECK(PARSE("--config", "/nonexistent.yaml") == -ENOENT &&
		      strstr(err, "/nonexistent.yaml: No such file"),
	      "--config: %s", err);
	CHECK(PARSE("--conf", "/nonexistent.yaml") == -ENOENT && strstr(err, "/nonexistent.yaml"),
	      "--conf abbreviated still loads the file: %s", err);
	CHECK(PARSE("-qC/nonexistent.yaml") == -ENOENT && strstr(err, "/nonexistent.yaml"),
	      "-C grouped and attached: %s", err);
	CHECK(PARSE("-q", "--duration", "1") == 0 &&
		      !strcmp(cfg.command, "pktbench -q --duration 1"),
	      "the command line is recorded as given: '%s'", cfg.command);
	CHECK(PARSE("stray") == -EINVAL && !strcmp(err, "unexpected argument 'stray' (see --help)"),
	      "a stray argument: %s", err);
	CHECK(PARSE("--cpus",
		    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
		    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0") == -EINVAL &&
		      strstr(err, "more than 64 CPUs"),
	      "--cpus: 65 CPUs: %s", err);
	CHECK(PARSE("--pps", "2.5k") == 0 && cfg.pps == 2500, "--pps 2.5k");
	/* a bit rate's unit says bits: k, M, G alone are counts (issue 45; test_units) */
	CHECK(PARSE("--rate", "1.5Tbit") == 0 && cfg.rate_gbps == 1500, "--rate with a unit");
	bad("--pps", "k", "positive rate");
	bad("--pps", "nan", "positive rate");
	bad("--pps", "inf", "positive rate");
	bad("--method", "", "empty");

	test_subcommand_table();
	test_ranges();
	test_decimal();
	test_no_frame_rate();
	test_imix();
	test_conflicts();
	test_needs();
	return check_summary();
}
