// SPDX-License-Identifier: MIT
/*
 * pktbench rfc2544's options and the lab's: the table is pktbench's rows less those a trial
 * sets, plus its own; defaults; --tests and --frame-sizes lists; one clear line for each
 * bad value; the RFC frame size to --frame-size; --lab router's default destination.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "check.h"
#include "options.h"
#include "rfc2544.h"

static struct pb_config cfg;
static char err[512];

static int parse_cmd(const struct pb_cmd *cmd, int argc, const char **argv)
{
	enum pb_opt_action action;

	return pb_options_parse_cmd(cmd, &cfg, argc, (char **)argv, &action, err, sizeof(err));
}

#define RFC(...)                                                                                   \
	({                                                                                         \
		const char *argv_[] = { "rfc2544", __VA_ARGS__, NULL };                            \
		parse_cmd(&pb_cmd_rfc2544, (int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_);    \
	})

static void bad(const char *opt, const char *val, const char *want)
{
	const char *argv[] = { "rfc2544", opt, val, NULL };
	int ret = parse_cmd(&pb_cmd_rfc2544, val ? 3 : 2, argv);

	CHECK(ret == -EINVAL, "%s %s: accepted", opt, val ? val : "");
	CHECK(strstr(err, want) != NULL, "%s %s: message '%s' lacks '%s'", opt, val ? val : "", err,
	      want);
	CHECK(!strchr(err, '\n'), "%s: the message is one line", opt);
}

static void test_table(void)
{
	static const char *const gone[] = { "duration",	   "count", "pps",  "rate",   "frame-size",
					    "payloadsize", "sweep", "imix", "repeat", NULL };
	static const char *const kept[] = { "method",  "lab",	   "lab-dut-setup",
					    "iface",   "receiver", "dstmac",
					    "streams", "format",   "output",
					    "config",  NULL };
	static const char *const own[] = { "tests",	  "frame-sizes", "trial",
					   "final-trial", "trial-gap",	 "loss-tolerance",
					   "precision",	  "max-trials",	 "retries",
					   "loss-step",	  "b2b-repeat",	 "search",
					   "goal",	  NULL };
	unsigned int i;

	for (i = 0; gone[i]; i++)
		CHECK(!pb_cmd_opt(&pb_cmd_rfc2544, gone[i]), "--%s is a trial's, not rfc2544's",
		      gone[i]);
	for (i = 0; kept[i]; i++)
		CHECK(pb_cmd_opt(&pb_cmd_rfc2544, kept[i]) || !pb_cmd_opt(&pb_cmd_main, kept[i]),
		      "--%s of pktbench is rfc2544's too", kept[i]);
	for (i = 0; own[i]; i++)
		CHECK(pb_cmd_opt(&pb_cmd_rfc2544, own[i]) && !pb_cmd_opt(&pb_cmd_main, own[i]),
		      "--%s is rfc2544's own", own[i]);
	CHECK(pb_cmd_find("rfc2544") == &pb_cmd_rfc2544, "rfc2544 is a subcommand");
}

static void test_defaults(void)
{
	static const uint32_t sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };
	unsigned int i;

	CHECK(RFC("--method", "udp_sendto", "--lab", "direct") == 0, "defaults: %s", err);
	CHECK(cfg.rfc.tests ==
		      (PB_RFC_T_THROUGHPUT | PB_RFC_T_LATENCY | PB_RFC_T_LOSS | PB_RFC_T_B2B),
	      "all four tests by default (%#x)", cfg.rfc.tests);
	CHECK(cfg.rfc.nsizes == 7, "the RFC's seven frame sizes (%u)", cfg.rfc.nsizes);
	for (i = 0; i < 7 && i < cfg.rfc.nsizes; i++)
		CHECK(cfg.rfc.sizes[i] == sizes[i], "size %u: %u", i, cfg.rfc.sizes[i]);
	CHECK(cfg.rfc.trial_s == 2 && cfg.rfc.final_trial_s == 2 && cfg.rfc.trial_gap_s == 0.5,
	      "trials of 2 s, confirmation as long, 0.5 s apart");
	CHECK(cfg.rfc.loss_tolerance_pct == 0 && cfg.rfc.precision_pct == 1 &&
		      cfg.rfc.loss_step_pct == 10 && cfg.rfc.max_trials == 30 &&
		      cfg.rfc.retries == 0 && cfg.rfc.b2b_repeat == 50,
	      "NDR, 1 %%, 10 %% steps, 30 trials, no retries, 50 repetitions");
	CHECK(!strncmp(cfg.command, "pktbench rfc2544 --method udp_sendto", 36),
	      "the command line starts with pktbench: %s", cfg.command);
	/* the binary search, and paced trials that spin: a constant load, not bunches */
	CHECK(cfg.rfc.search == PB_RFC_SEARCH_BINARY && cfg.rfc.ngoals == 0,
	      "--search binary by default, no goals (%d, %u)", cfg.rfc.search, cfg.rfc.ngoals);
	CHECK(cfg.pace == PB_PACE_SPIN, "rfc2544's trials spin by default (--pace %d)", cfg.pace);
	CHECK(RFC("--lab", "direct", "--pace", "sleep") == 0 && cfg.pace == PB_PACE_SLEEP,
	      "--pace sleep taken: %s", err);
	CHECK(pb_cmd_opt(&pb_cmd_main, "pace") &&
		      !strcmp(pb_cmd_opt(&pb_cmd_main, "pace")->def, "auto") &&
		      !strcmp(pb_cmd_opt(&pb_cmd_rfc2544, "pace")->def, "spin"),
	      "pktbench's own --pace stays auto");
}

static bool goal_is(const struct pb_rfc_goal *g, double loss, double final, double sum,
		    double exceed, double initial, double width)
{
	return fabs(g->loss_ratio - loss) < 1e-12 && g->final_s == final && g->sum_s == sum &&
	       fabs(g->exceed_ratio - exceed) < 1e-12 && g->initial_s == initial &&
	       fabs(g->width - width) < 1e-12;
}

/* --search mlr's goals: NDR and PDR by default; --goal's keys, repeated or ';' apart. */
static void test_goals(void)
{
	const struct pb_rfc_goal *g = cfg.rfc.goals;

	CHECK(RFC("--lab", "router", "--search", "mlr") == 0, "mlr: %s", err);
	CHECK(cfg.rfc.search == PB_RFC_SEARCH_MLR && cfg.rfc.ngoals == 2 &&
		      goal_is(&g[0], 0, 2, 2, 0, 2, 0.01) &&
		      goal_is(&g[1], 0.005, 2, 2, 0, 2, 0.01),
	      "default goals: NDR and PDR 0.5 %%, --final-trial, one trial's sum, exceed 0");
	CHECK(RFC("--lab", "router", "--search", "mlr", "--trial", "0.5", "--final-trial", "2",
		  "--precision", "0.5", "--goal", "loss=0.5%,final=1,sum=2,exceed=0.5", "--goal",
		  "loss=0,width=2%") == 0,
	      "two --goal: %s", err);
	CHECK(cfg.rfc.ngoals == 2 && goal_is(&g[0], 0.005, 1, 2, 0.5, 0.5, 0.005) &&
		      goal_is(&g[1], 0, 2, 2, 0, 0.5, 0.02),
	      "two --goal: %g %g %g %g %g %g / %g %g %g %g %g %g", g[0].loss_ratio, g[0].final_s,
	      g[0].sum_s, g[0].exceed_ratio, g[0].initial_s, g[0].width, g[1].loss_ratio,
	      g[1].final_s, g[1].sum_s, g[1].exceed_ratio, g[1].initial_s, g[1].width);
	CHECK(RFC("--lab", "router", "--search", "mlr", "--goal",
		  "loss=0.001,initial=0.25;loss=0.01;exceed=10%") == 0 &&
		      cfg.rfc.ngoals == 3 && goal_is(&g[0], 0.001, 2, 2, 0, 0.25, 0.01) &&
		      goal_is(&g[2], 0, 2, 2, 0.1, 2, 0.01),
	      "goals a ';' apart: %s (%u)", err, cfg.rfc.ngoals);
	/* a --trial longer than a goal's final: its initial is the final */
	CHECK(RFC("--lab", "router", "--search", "mlr", "--goal", "final=1") == 0 &&
		      goal_is(&g[0], 0, 1, 1, 0, 1, 0.01),
	      "initial at most final: %s", err);
}

static void bad_mlr(const char *goal, const char *want)
{
	const char *argv[] = {
		"rfc2544", "--lab", "router", "--search", "mlr", "--goal", goal, NULL
	};
	int ret = parse_cmd(&pb_cmd_rfc2544, 7, argv);

	CHECK(ret == -EINVAL && strstr(err, want) && !strchr(err, '\n'),
	      "--goal %s: %d '%s' lacks '%s'", goal, ret, err, want);
}

static void test_bad_goals(void)
{
	bad_mlr("bogus=1", "'bogus=1' is not loss=, final=, sum=, exceed=, initial= or width=");
	bad_mlr("loss", "'loss' is not loss=");
	bad_mlr("loss=1", "loss=1 is not a ratio from 0 to below 1");
	bad_mlr("loss=abc", "loss=abc is not a ratio");
	bad_mlr("loss=-0.1", "is not a ratio");
	bad_mlr("exceed=100%", "exceed=100% is not a ratio");
	bad_mlr("width=0", "width=0 is not a ratio above 0 up to 0.5");
	bad_mlr("final=0", "final=0 is not a positive number of seconds");
	bad_mlr("sum=x", "sum=x is not a positive number of seconds");
	bad_mlr("final=1,initial=2", "initial=2 is longer than final=1");
	bad_mlr("loss=0;loss=0;loss=0;loss=0;loss=0;loss=0;loss=0;loss=0;loss=0",
		"at most 8 goals");
	bad("--goal", "loss=0",
	    "--goal goes with --search mlr: goals are RFC 9971's multiple loss ratio search's");
	bad("--search", "linear", "'linear'");
	CHECK(RFC("--lab", "router", "--search", "mlr", "--loss-tolerance", "0.5") == -EINVAL &&
		      strstr(err, "--loss-tolerance is the binary search's: --search mlr takes "
				  "--goal loss="),
	      "mlr and --loss-tolerance: %s", err);
	CHECK(RFC("--lab", "router", "--search", "mlr", "--retries", "1") == -EINVAL &&
		      strstr(err, "--retries is the binary search's"),
	      "mlr and --retries: %s", err);
}

static void test_values(void)
{
	CHECK(RFC("--lab", "bridge", "--tests", "back-to-back,throughput", "--frame-sizes",
		  "1518,64", "--trial", "0.5", "--final-trial", "60", "--loss-tolerance", "0.1%",
		  "--precision", "2.5", "--loss-step", "2.5", "--b2b-repeat", "3", "--retries",
		  "1") == 0,
	      "values: %s", err);
	CHECK(cfg.rfc.tests == (PB_RFC_T_THROUGHPUT | PB_RFC_T_B2B), "two tests (%#x)",
	      cfg.rfc.tests);
	CHECK(cfg.rfc.nsizes == 2 && cfg.rfc.sizes[0] == 1518 && cfg.rfc.sizes[1] == 64,
	      "sizes as given");
	CHECK(cfg.rfc.trial_s == 0.5 && cfg.rfc.final_trial_s == 60 &&
		      cfg.rfc.loss_tolerance_pct == 0.1 && cfg.rfc.precision_pct == 2.5 &&
		      cfg.rfc.loss_step_pct == 2.5 && cfg.rfc.b2b_repeat == 3 &&
		      cfg.rfc.retries == 1,
	      "every value taken");
	/* pktbench's own rows still work, and still check */
	CHECK(RFC("--lab", "router", "--streams", "2", "--method", "af_packet,udp_sendto") == 0,
	      "pktbench's rows: %s", err);
	CHECK(cfg.lab_kind == PB_LAB_ROUTER && cfg.streams == 2 &&
		      !strcmp(cfg.method, "af_packet,udp_sendto"),
	      "lab, streams, methods");
}

static void test_bad(void)
{
	bad("--tests", "throughput,bogus", "'bogus' is not throughput, latency, loss");
	bad("--tests", ",", "is not throughput");
	bad("--tests", "throughputx", "'throughputx'");
	bad("--frame-sizes", "63", "from 64 to");
	bad("--frame-sizes", "64,,128", "from 64 to");
	bad("--frame-sizes", "64,abc", "from 64 to");
	bad("--frame-sizes", "99999", "from 64 to");
	bad("--frame-sizes",
	    "64,128,256,512,1024,1280,1518,64,128,256,512,1024,1280,1518,64,128,256",
	    "up to 16 sizes");
	bad("--precision", "0", "above 0");
	bad("--precision", "51", "percentage from 0 to 50");
	bad("--loss-step", "20", "percentage from 1 to 10");
	bad("--loss-tolerance", "-1", "percentage");
	bad("--trial", "0", "positive number of seconds");
	bad("--b2b-repeat", "0", "whole number from 1");
	bad("--max-trials", "129", "whole number from 1 to 128");
	bad("--duration", "5", "unknown option '--duration': did you mean --trial?");
	bad("--duration=5", NULL, "unknown option '--duration=5': did you mean --trial?");
	bad("--count", "5", "did you mean --trial?");
	bad("--pps", "1M", "unknown option '--pps'");
	/* getopt takes an unambiguous prefix: --frame-size is --frame-sizes, in wire bytes */
	bad("--frame-size", "60", "--frame-sizes: up to 16 sizes from 64");
}

/* The RFC's frame sizes are on the wire with FCS; pktbench builds the frame without it. */
static void test_frame_bytes(void)
{
	char why[160];

	CHECK(RFC("--method", "udp_sendto", "--lab", "router") == 0, "v4: %s", err);
	CHECK(pb_rfc_frame_bytes(&cfg, 64, why, sizeof(why)) == 60, "64 B is a 60-byte frame");
	CHECK(pb_rfc_frame_bytes(&cfg, 1518, why, sizeof(why)) == 1514, "1518 B is 1514");
	cfg.mtu = 1500;
	CHECK(pb_rfc_frame_bytes(&cfg, 1522, why, sizeof(why)) == 0 && strstr(why, "MTU 1500"),
	      "1522 does not fit an MTU of 1500: %s", why);
	cfg.vlan = 100;
	CHECK(pb_rfc_frame_bytes(&cfg, 1522, why, sizeof(why)) == 1514,
	      "a tagged 1522-byte frame is 1514 and its tag");
	CHECK(RFC("--srcip", "2001:2::1", "--dstip", "2001:2::2", "--lab", "bridge") == 0, "v6: %s",
	      err);
	CHECK(pb_rfc_frame_bytes(&cfg, 64, why, sizeof(why)) == 0 && strstr(why, "at least 74"),
	      "IPv6 cannot fit 64 bytes: %s", why);
	CHECK(pb_rfc_frame_bytes(&cfg, 74, why, sizeof(why)) == 70, "74 B carries IPv6");
}

/* --lab router's receiver lives in the second test network, unless --dstip says otherwise. */
static void test_router_defaults(void)
{
	const char *v4[] = { "pktbench", "--lab", "router", NULL };
	const char *v6[] = { "pktbench", "--lab", "router", "--srcip", "2001:2::1", NULL };
	const char *own[] = { "pktbench", "--lab", "router", "--dstip", "198.19.5.9", NULL };
	const char *same[] = { "pktbench", "--lab", "router", "--dstip", "198.18.0.9", NULL };
	const char *iface[] = { "pktbench", "--lab", "bridge", "--iface", "lo", NULL };
	char a[INET6_ADDRSTRLEN];

	CHECK(parse_cmd(&pb_cmd_main, 3, v4) == 0, "router: %s", err);
	inet_ntop(AF_INET, &cfg.dstip.v4, a, sizeof(a));
	CHECK(!strcmp(a, "198.19.0.2") && !cfg.dstip_set, "router v4: --dstip %s", a);
	CHECK(parse_cmd(&pb_cmd_main, 5, v6) == 0, "router v6: %s", err);
	inet_ntop(AF_INET6, &cfg.dstip.v6, a, sizeof(a));
	CHECK(!strcmp(a, "2001:2:0:1::2"), "router v6: --dstip %s", a);
	CHECK(parse_cmd(&pb_cmd_main, 5, own) == 0 && cfg.dstip_set, "router, own --dstip: %s",
	      err);
	inet_ntop(AF_INET, &cfg.dstip.v4, a, sizeof(a));
	CHECK(!strcmp(a, "198.19.5.9"), "the given --dstip stands: %s", a);
	CHECK(parse_cmd(&pb_cmd_main, 5, same) == -EINVAL && strstr(err, "different /24"),
	      "router within one /24: %s", err);
	CHECK(parse_cmd(&pb_cmd_main, 5, iface) == -EINVAL && strstr(err, "--iface"),
	      "a DUT lab with --iface: %s", err);
	bad("--lab", "hub", "is not one of direct|router|bridge");
}

/*
 * RFC 2544 measures a device: with neither --lab nor --iface, nothing starts, and the one
 * line names the two commands that work; --lab direct (a bare veth pair) is a choice.
 */
static void test_no_device(void)
{
	const char *none[] = { "rfc2544", NULL };
	const char *eth[] = { "rfc2544", "--iface", "eth9", "--dstmac", "02:00:00:00:00:01", NULL };

	CHECK(parse_cmd(&pb_cmd_rfc2544, 1, none) == -EINVAL &&
		      strstr(err, "no device under test: pktbench rfc2544 --lab router") &&
		      strstr(err, "or --iface IF --receiver URL --dstmac MAC") &&
		      !strchr(err, '\n'),
	      "no arguments: refused in one line naming both ways: %s", err);
	CHECK(RFC("--lab", "direct") == 0 && cfg.lab_set, "--lab direct, given: %s", err);
	CHECK(parse_cmd(&pb_cmd_rfc2544, 5, eth) != -EINVAL || !strstr(err, "no device under test"),
	      "--iface names a device: %s", err);
}

/*
 * The estimate before a run: a device that loses nothing ends each search at its first trial
 * (confirmed); a lossy one searches to --precision (an answer above 1 % of the maximum: 17
 * trials at 1 %). Each trial its seconds, its gap and 0.1 s; 0.5 s for the whole.
 */
static void test_estimate(void)
{
	struct pb_rfc2544_opts o = { .tests = PB_RFC_T_THROUGHPUT | PB_RFC_T_LATENCY,
				     .trial_s = 1,
				     .final_trial_s = 1,
				     .trial_gap_s = 0.5,
				     .precision_pct = 1,
				     .loss_step_pct = 10,
				     .max_trials = 30,
				     .b2b_repeat = 3 };
	struct pb_rfc_estimate e;

	pb_rfc_estimate(&o, 1, &e);
	CHECK(e.trials_lo == 3 && e.trials_hi == 18, "trials: %u to %u, want 3 to 18", e.trials_lo,
	      e.trials_hi);
	CHECK(fabs(e.secs_lo - 5.3) < 1e-9 && fabs(e.secs_hi - 29.3) < 1e-9,
	      "seconds: %g to %g, want 5.3 to 29.3", e.secs_lo, e.secs_hi);
	o.tests |= PB_RFC_T_LOSS | PB_RFC_T_B2B;
	pb_rfc_estimate(&o, 2, &e);
	/* loss: 2 steps to 10; back-to-back: 1 trial to 1 + 16 + 2 x 6 (bursts: gap and cost) */
	CHECK(e.trials_lo == 2 * (3 + 2 + 1) && e.trials_hi == 2 * (18 + 10 + 1 + 28),
	      "all four tests, two units: %u to %u trials", e.trials_lo, e.trials_hi);
	CHECK(fabs(e.secs_hi - (2 * (27.2 + 1.6 + 16 + 1.6 + 28 * 0.6) + 0.5)) < 1e-9,
	      "all four, two units: up to %g s", e.secs_hi);
	o.max_trials = 5;
	pb_rfc_estimate(&o, 1, &e);
	CHECK(e.trials_hi == 5 + 1 + 10 + 29, "a search stops at --max-trials: %u", e.trials_hi);
	o.max_trials = 30;
	o.retries = 2;
	o.tests = PB_RFC_T_THROUGHPUT;
	pb_rfc_estimate(&o, 1, &e);
	CHECK(e.trials_hi == 17 + 8 * 2,
	      "--retries 2: half the search's 17 trials tried twice more: %u", e.trials_hi);
	/*
	 * --search mlr, NDR and PDR of 1 s trials: lossless, the maximum alone; lossy, four
	 * loads a goal. With 0.5 s initial trials, a final one at the maximum too, and four
	 * short trials a goal; a duration sum of two trials doubles the final ones.
	 */
	o.retries = 0;
	o.search = PB_RFC_SEARCH_MLR;
	o.ngoals = 2;
	o.goals[0] = (struct pb_rfc_goal){ 0, 1, 1, 0, 1, 0.01 };
	o.goals[1] = (struct pb_rfc_goal){ 0.005, 1, 1, 0, 1, 0.01 };
	pb_rfc_estimate(&o, 1, &e);
	CHECK(e.trials_lo == 1 && e.trials_hi == 9 && fabs(e.secs_lo - 2.1) < 1e-9 &&
		      fabs(e.secs_hi - (9 * 1.6 + 0.5)) < 1e-9,
	      "mlr: %u to %u trials, %g to %g s", e.trials_lo, e.trials_hi, e.secs_lo, e.secs_hi);
	o.goals[0].initial_s = o.goals[1].initial_s = 0.5;
	o.goals[1].sum_s = 2;
	pb_rfc_estimate(&o, 1, &e);
	CHECK(e.trials_lo == 3 && e.trials_hi == 1 + 4 + 4 + 8 + 4 &&
		      fabs(e.secs_lo - (1.1 + 2 * 1.6 + 0.5)) < 1e-9 &&
		      fabs(e.secs_hi - (1.1 + 12 * 1.6 + 8 * 1.1 + 0.5)) < 1e-9,
	      "mlr, short trials first, a sum of two: %u to %u trials, %g to %g s", e.trials_lo,
	      e.trials_hi, e.secs_lo, e.secs_hi);
	o.max_trials = 5;
	pb_rfc_estimate(&o, 1, &e);
	CHECK(e.trials_hi == 5, "mlr: at most --max-trials: %u", e.trials_hi);
}

int main(void)
{
	test_table();
	test_defaults();
	test_values();
	test_goals();
	test_bad();
	test_bad_goals();
	test_frame_bytes();
	test_router_defaults();
	test_no_device();
	test_estimate();
	return check_summary();
}
