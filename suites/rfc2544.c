// SPDX-License-Identifier: MIT
/*
 * pktbench rfc2544: its option table, and the tests of RFC 2544 section 26 driven through the
 * runner. A trial is an ordinary run (same accounting, same row) with the trial's parameters
 * in row.rfc; the searches are rfc2544_search.c's; each test ends in summary rows that carry
 * the answer. Loss is what the receiver did not count: sent - delivered.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "clock.h"
#include "frame.h"
#include "log.h"
#include "method.h"
#include "mlrsearch.h"
#include "rfc2544.h"
#include "rfc2544_int.h"
#include "rfc2544_search.h"

/* ---- the option table ------------------------------------------------------------------ */

#define OFF(field) offsetof(struct pb_config, field)

/* The RFC's Ethernet frame sizes (section 9.1), FCS included. */
#define PB_RFC_SIZES "64,128,256,512,1024,1280,1518"

/* pktbench's rows a trial sets itself (and --tune, whose search would move them), so rfc2544
 * does not take them. */
static const char *const rfc_not_rows[] = {
	"duration",    "count", "count-timeout", "repeat", "pps",    "rate", "frame-size",
	"payloadsize", "sweep", "imix",		 "tune",   "stream", "pace", NULL,
};

/* What the rows a trial sets are called here. */
static const char *const rfc_hints[] = {
	"duration",    "did you mean --trial?",
	"count",       "did you mean --trial?",
	"pps",	       "a trial sets its own rate",
	"rate",	       "a trial sets its own rate",
	"repeat",      "did you mean --b2b-repeat or --retries?",
	"payloadsize", "did you mean --frame-sizes?",
	"sweep",       "did you mean --frame-sizes?",
	NULL,
};

static const char *const rfc_test_names[] = { "throughput", "latency", "loss", "back-to-back",
					      NULL };
static const char *const rfc_search_names[] = { "binary", "mlr", NULL };
/* enum pb_pace's order; rfc2544's own row, whose default spins */
static const char *const rfc_pace_names[] = { "auto", "sleep", "spin", NULL };

static const struct pb_opt rfc_rows[] = {
	{ "tests", 0, OPT_STR, OFF(rfc.tests_spec), 0, "throughput,latency,loss,back-to-back", 0,
	  sizeof(((struct pb_config *)0)->rfc.tests_spec), "LIST",
	  "the tests to run, in this order: throughput (26.1), latency (26.2, at the throughput "
	  "rate), loss (26.3, the frame loss rate at 100 %, 90 %, ... of the maximum), "
	  "back-to-back (26.4)",
	  rfc_test_names, .flags = PB_OPTF_LIST },
	{ "frame-sizes", 0, OPT_STR, OFF(rfc.sizes_spec), 0, PB_RFC_SIZES, 0,
	  sizeof(((struct pb_config *)0)->rfc.sizes_spec), "BYTES,..",
	  "frame sizes as the RFC counts them, on the wire with the 4-byte FCS (a tagged frame's "
	  "includes its tag); 64 is pktbench's --frame-size 60",
	  .flags = PB_OPTF_LIST },
	{ "trial", 0, OPT_SECS, OFF(rfc.trial_s), 0, "2", 0, 0, "SECS",
	  "how long each trial sends: seconds, or with ms, s, m, h or d after the number (the RFC "
	  "asks for 60 s, 1m: this default is for a quick report)" },
	{ "final-trial", 0, OPT_SECS, OFF(rfc.final_trial_s), 0, NULL, 0, 0, "SECS",
	  "seconds of the trial that confirms the throughput found (the RFC's full-length final "
	  "trial; default: --trial)" },
	{ "trial-gap", 0, OPT_SECS, OFF(rfc.trial_gap_s), 0, "0.5", 0, 0, "SECS",
	  "pause before each trial, so the DUT drains and its buckets refill (the RFC waits 2 s "
	  "for residual frames and 5 s for the DUT)" },
	{ "loss-tolerance", 0, OPT_PCT, OFF(rfc.loss_tolerance_pct), 0, "0", 0, 100, "PCT",
	  "a trial passes when it loses at most PCT % of what it sent: 0 finds the no-drop rate "
	  "(NDR), more the partial-drop rate (PDR)" },
	{ "precision", 0, OPT_PCT, OFF(rfc.precision_pct), 0, "1", 0, 50, "PCT",
	  "the searches stop when the highest pass and the lowest fail are within PCT % of each "
	  "other" },
	{ "max-trials", 0, OPT_U32, OFF(rfc.max_trials), 0, "30", 1, PB_SEARCH_MAX_TRIALS, "N",
	  "at most N trials per search; a search cut short reports its best pass" },
	{ "retries", 0, OPT_U32, OFF(rfc.retries), 0, "0", 0, 5, "N",
	  "a trial of a search that loses is tried up to N times more, and fails only if every "
	  "try loses (for noisy paths; the RFC does not retry)" },
	{ "loss-step", 0, OPT_PCT, OFF(rfc.loss_step_pct), 0, "10", 1, 10, "PCT",
	  "the frame loss rate's step down from 100 % of the maximum (the RFC's granularity is "
	  "10 at most, finer encouraged)" },
	{ "b2b-repeat", 0, OPT_U32, OFF(rfc.b2b_repeat), 0, "50", 1, 1000, "N",
	  "back-to-back: searches for the longest lossless burst, averaged (the RFC asks for at "
	  "least 50)" },
	{ "search", 0, OPT_ENUM, OFF(rfc.search), 0, "binary", 0, 0, "binary|mlr",
	  "how throughput is searched: binary, RFC 2544's bisection for one --loss-tolerance; "
	  "mlr, RFC 9971's multiple loss ratio search, every --goal in one search",
	  rfc_search_names },
	{ "goal", 0, OPT_STR, OFF(rfc.goals_spec), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->rfc.goals_spec), "SPEC",
	  "--search mlr: an RFC 9971 search goal, repeat for more: loss=RATIO (the Goal Loss "
	  "Ratio, 0.005 or 0.5%; 0), final=SECS (Goal Final Trial Duration; --final-trial), "
	  "sum=SECS (Goal Duration Sum; final), exceed=RATIO (Goal Exceed Ratio; 0), "
	  "initial=SECS (Goal Initial Trial Duration; --trial), width=RATIO (Goal Width; "
	  "--precision). Default: NDR (loss=0) and PDR (loss=0.5%)",
	  .flags = PB_OPTF_REPEAT },
	{ "pace", 0, OPT_ENUM, OFF(pace), 0, "spin", 0, 0, "spin|sleep|auto",
	  "how a paced trial waits for its next frame: spin (the last 100 us of each wait spun: "
	  "frames leave evenly, the constant load the RFCs assume; a CPU busy), sleep (slept to "
	  "the instant: what fell due meanwhile leaves at once, frames in bunches), auto "
	  "(pktbench's: sleep). Each trial's row says which (pacing)",
	  rfc_pace_names },
};

#define PB_RFC_NROWS	(sizeof(rfc_rows) / sizeof(rfc_rows[0]))
#define PB_RFC_MAX_ROWS 128

static struct pb_opt rfc_table[PB_RFC_MAX_ROWS];

/* --tests' names, in PB_RFC_T_* bit order (the same as enum pb_rfc_test's, from 1) */
/* --tests: a comma list of test names, at least one. */
static int rfc_parse_tests(struct pb_rfc2544_opts *o, char *err, size_t errlen)
{
	const char *p = o->tests_spec;

	o->tests = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		unsigned int i;

		for (i = 0; rfc_test_names[i]; i++)
			if (strlen(rfc_test_names[i]) == len && !strncmp(p, rfc_test_names[i], len))
				break;
		if (!rfc_test_names[i] || !len) {
			snprintf(err, errlen,
				 "--tests: '%.*s' is not throughput, latency, loss or back-to-back",
				 (int)len, p);
			return -EINVAL;
		}
		o->tests |= 1u << i;
		p += len + (p[len] == ',');
	}
	if (!o->tests) {
		snprintf(err, errlen, "--tests: no test named");
		return -EINVAL;
	}
	return 0;
}

/* --frame-sizes: up to PB_RFC_MAX_SIZES whole numbers from 64 (with FCS) up. */
static int rfc_parse_sizes(struct pb_rfc2544_opts *o, char *err, size_t errlen)
{
	if (pb_parse_u32_list(o->sizes_spec, 64, PB_FRAME_MAX + 4, o->sizes, PB_RFC_MAX_SIZES,
			      &o->nsizes)) {
		snprintf(err, errlen,
			 "--frame-sizes: up to %d sizes from 64 to %d bytes (FCS included): '%s'",
			 PB_RFC_MAX_SIZES, PB_FRAME_MAX + 4, o->sizes_spec);
		return -EINVAL;
	}
	if (!o->nsizes) {
		snprintf(err, errlen, "--frame-sizes: no size given");
		return -EINVAL;
	}
	return 0;
}

/* A ratio: 0.005, or a percentage with '%' (0.5%); decimal, as every option's number. */
static bool rfc_ratio(const char *val, double *v)
{
	char num[64];
	size_t len = strlen(val);
	bool pct = len > 1 && val[len - 1] == '%';

	if (len >= sizeof(num))
		return false;
	snprintf(num, sizeof(num), "%.*s", (int)(len - pct), val);
	if (pb_parse_decimal(num, v))
		return false;
	*v /= pct ? 100 : 1;
	return true;
}

/* A duration as --trial takes it: seconds, or with ms, s, m, h or d after the number. */
static bool rfc_secs(const char *val, double *v)
{
	return !pb_parse_secs(val, v) && *v <= PB_DURATION_MAX_S;
}

/*
 * One --goal of len characters at spec: key=value items, a comma apart, over the defaults:
 * loss 0, final --final-trial, sum its final, exceed 0, initial --trial (at most its
 * final), width --precision.
 */
static int rfc_parse_goal(const struct pb_rfc2544_opts *o, const char *spec, size_t len,
			  struct pb_rfc_goal *g, char *err, size_t errlen)
{
	static const char *const keys[] = { "loss",    "final", "sum", "exceed",
					    "initial", "width", NULL };
	bool set[6] = { false };
	char buf[sizeof(o->goals_spec)], *item, *save = NULL, *val;
	unsigned int k;
	double v;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, spec);
	*g = (struct pb_rfc_goal){ .final_s = o->final_trial_s, .width = o->precision_pct / 100 };
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		val = strchr(item, '=');
		for (k = 0; val && keys[k]; k++)
			if (strlen(keys[k]) == (size_t)(val - item) &&
			    !strncmp(item, keys[k], (size_t)(val - item)))
				break;
		if (!val || !keys[k]) {
			snprintf(
				err, errlen,
				"--goal '%.*s': '%s' is not loss=, final=, sum=, exceed=, initial= "
				"or width=",
				(int)len, spec, item);
			return -EINVAL;
		}
		val++;
		set[k] = true;
		if (k == 0 || k == 3 || k == 5) {
			/* ratios: loss and exceed from 0 to below 1, width above 0 up to 0.5 */
			if (!rfc_ratio(val, &v) || v < 0 || v >= 1 ||
			    (k == 5 && !(v > 0 && v <= 0.5))) {
				snprintf(err, errlen,
					 "--goal '%.*s': %s=%s is not a ratio %s (0.005, or 0.5%%)",
					 (int)len, spec, keys[k], val,
					 k == 5 ? "above 0 up to 0.5" : "from 0 to below 1");
				return -EINVAL;
			}
			*(k == 0 ? &g->loss_ratio : k == 3 ? &g->exceed_ratio : &g->width) = v;
		} else {
			if (!rfc_secs(val, &v)) {
				snprintf(err, errlen,
					 "--goal '%.*s': %s=%s is not a positive number of seconds "
					 "(or ms, s, m, h or d after it)",
					 (int)len, spec, keys[k], val);
				return -EINVAL;
			}
			*(k == 1 ? &g->final_s : k == 2 ? &g->sum_s : &g->initial_s) = v;
		}
	}
	if (!set[2])
		g->sum_s = g->final_s;
	if (!set[4])
		g->initial_s = fmin(o->trial_s, g->final_s);
	if (g->initial_s > g->final_s) {
		snprintf(err, errlen, "--goal '%.*s': initial=%g is longer than final=%g", (int)len,
			 spec, g->initial_s, g->final_s);
		return -EINVAL;
	}
	return 0;
}

/*
 * --goal: goals a ';' apart (each --goal given adds one), for --search mlr only; none: NDR
 * (loss 0) and PDR (loss 0.5 %), as FD.io CSIT searches them. The binary search's own
 * options refused with it rather than ignored.
 */
static int rfc_parse_goals(struct pb_rfc2544_opts *o, char *err, size_t errlen)
{
	const char *p = o->goals_spec;
	size_t len;
	int ret;

	o->ngoals = 0;
	/* a --goal without --search mlr is refused by the option table (rfc_own_needs) */
	if (o->search != PB_RFC_SEARCH_MLR)
		return 0;
	if (o->loss_tolerance_pct > 0 || o->retries) {
		snprintf(err, errlen, "%s is the binary search's: --search mlr takes --goal %s",
			 o->retries ? "--retries" : "--loss-tolerance",
			 o->retries ? "exceed=RATIO,sum=SECS (lossy trials a goal tolerates)"
				    : "loss=RATIO");
		return -EINVAL;
	}
	if (!*p) {
		ret = rfc_parse_goal(o, "", 0, &o->goals[0], err, errlen);
		o->goals[1] = o->goals[0];
		o->goals[1].loss_ratio = 0.005;
		o->ngoals = 2;
		return ret;
	}
	while (*p) {
		len = strcspn(p, ";");
		if (o->ngoals == PB_RFC_MAX_GOALS) {
			snprintf(err, errlen, "--goal: at most %d goals", PB_RFC_MAX_GOALS);
			return -EINVAL;
		}
		ret = rfc_parse_goal(o, p, len, &o->goals[o->ngoals++], err, errlen);
		if (ret)
			return ret;
		p += len + (p[len] == ';');
	}
	return 0;
}

static int rfc_validate(void *dst, char *err, size_t errlen)
{
	struct pb_config *cfg = dst;
	int ret = pb_cmd_main.validate ? pb_cmd_main.validate(dst, err, errlen) : 0;

	if (!ret)
		ret = rfc_parse_tests(&cfg->rfc, err, errlen);
	if (!ret)
		ret = rfc_parse_sizes(&cfg->rfc, err, errlen);
	if (!ret && !(cfg->rfc.precision_pct > 0)) {
		snprintf(err, errlen, "--precision: must be above 0 %%");
		ret = -EINVAL;
	}
	if (!ret && !cfg->rfc.final_trial_s)
		cfg->rfc.final_trial_s = cfg->rfc.trial_s;
	if (!ret)
		ret = rfc_parse_goals(&cfg->rfc, err, errlen);
	/* loss is what a receiver did not count: on a real device, the agent on its far side */
	if (!ret && cfg->iface[0] && !cfg->receiver[0]) {
		snprintf(err, errlen,
			 "--iface %s: loss is counted by a receiver on the device's far side: run "
			 "pktbench receive there and add --receiver http://ADDRESS:9310",
			 cfg->iface);
		ret = -EINVAL;
	}
	/* RFC 2544 measures a device: without one named, nothing is started */
	if (!ret && !cfg->iface[0] && !cfg->lab_set) {
		snprintf(err, errlen,
			 "no device under test: pktbench rfc2544 --lab router (the lab's router; "
			 "--lab-dut-setup shapes it), or --iface IF --receiver URL --dstmac MAC (a "
			 "real one); --lab direct measures a bare veth pair");
		ret = -EINVAL;
	}
	return ret;
}

int (*pb_rfc2544_session)(int argc, char **argv);

static int rfc_run_cmd(int argc, char **argv)
{
	if (!pb_rfc2544_session) {
		fprintf(stderr, "pktbench rfc2544: needs pktbench's session (run the pktbench "
				"binary)\n");
		return 2;
	}
	return pb_rfc2544_session(argc, argv);
}

/* rfc2544's own options that need another, beside pktbench's it takes */
static const struct pb_need rfc_own_needs[] = {
	{ "goal", { "search=mlr" }, "goals are RFC 9971's multiple loss ratio search's" },
	{},
};

static const struct pb_need *const rfc_needs[] = { pb_needs, rfc_own_needs, NULL };

/* its own tests' options first, then pktbench's that it takes */
static const char *const rfc_groups[] = { PB_G_RFC,	PB_G_SEND,   PB_G_PACE,	  PB_G_WHERE,
					  PB_G_MEASURE, PB_G_OUTPUT, PB_G_REPLAY, PB_G_FLEET,
					  PB_G_MORE,	NULL };

struct pb_cmd pb_cmd_rfc2544 = {
	.name = "rfc2544",
	.summary = "RFC 2544 throughput (NDR/PDR), latency, frame loss rate and back-to-back, "
		   "per send path",
	.synopsis = "[--method NAME|LIST|benchmark] [--tests LIST] [--frame-sizes LIST] [options]",
	.description =
		"Runs the tests of RFC 2544 section 26 through a device under test: the lab's "
		"(--lab router or --lab bridge, shaped with --lab-dut-setup), or a real one with "
		"--iface towards it, --receiver on its far side and --dstmac its MAC. Every trial "
		"is an ordinary run (same accounting, same JSON row, the trial's parameters in "
		"it); loss is what the receiver did not count.\n\n"
		"throughput: a binary search over the rate for the highest whose trial loses at "
		"most --loss-tolerance, starting from the method's unpaced maximum, confirmed by "
		"one more trial; or, with --search mlr, RFC 9971's multiple loss ratio search: "
		"one search for every --goal (NDR and PDR at 0.5 % by default), each goal's "
		"conditional throughput and relevant lower and upper bounds the answer. Paced "
		"trials spin (--pace spin): frames leave evenly at the trial's rate. latency: at "
		"that rate (--search mlr: at the first goal's lower bound). loss: the loss at 100 "
		"%, 90 %, ... of the "
		"maximum until two steps in a row lose nothing. back-to-back: the longest burst at "
		"the path's maximum rate without loss, searched --b2b-repeat times and "
		"averaged.\n\n"
		"The report is a table per test; --format json gives every trial and summary rows "
		"that carry test, method, frame_size and the answer (throughput_pps, loss_pct per "
		"load_pct, burst_frames). --trial replaces --duration; a trial sets --pps, --count "
		"and the frame size itself.",
	.exit_status = "0    a test ran (the others, if any, said why they could not)\n"
		       "1    a trial failed, or the results could not be written\n"
		       "2    bad input (a file too) or missing privileges, found before anything "
		       "runs (one line on stderr)\n"
		       "3    nothing was measured: every row was skipped, each with its reason\n"
		       "130  interrupted (the rows that finished are still printed)",
	.examples = "pktbench rfc2544 --lab router --method af_packet --frame-sizes 64,512,1518\n"
		    "the lab's router, three frame sizes, every test\n"
		    "pktbench rfc2544 --lab router --lab-dut-setup tbf.sh --tests throughput,loss "
		    "--trial 60\n"
		    "a shaped DUT, the RFC's full-length trials\n"
		    "pktbench rfc2544 --lab router --lab-dut-setup tbf.sh --tests throughput "
		    "--search mlr --goal loss=0 --goal loss=0.5%,sum=4,exceed=0.5\n"
		    "NDR, and a PDR that tolerates one lossy trial in two, in one search\n"
		    "pktbench rfc2544 --iface eth1 --receiver http://198.19.0.2:9310 --dstmac "
		    "0c:42:a1:00:00:01\n"
		    "a real DUT between two hosts",
	.opts = rfc_table,
	.groups = rfc_groups,
	.size = sizeof(struct pb_config),
	.conflicts = pb_conflicts,
	.needs = rfc_needs,
	.given_off = OFF(given),
	.hints = rfc_hints,
	.validate = rfc_validate,
	.run = rfc_run_cmd,
};

/*
 * The table is pktbench's own rows (less those a trial sets) followed by rfc2544's, one
 * table of the usual shape for the parser, --help, the man page and the completion alike;
 * built before main() so every reader of pb_cmds finds it whole.
 */
__attribute__((constructor)) static void rfc_table_build(void)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < pb_cmd_main.nopts && n < PB_RFC_MAX_ROWS; i++) {
		for (j = 0; rfc_not_rows[j]; j++)
			if (!strcmp(pb_cmd_main.opts[i].name, rfc_not_rows[j]))
				break;
		if (!rfc_not_rows[j])
			rfc_table[n++] = pb_cmd_main.opts[i];
	}
	for (i = 0; i < PB_RFC_NROWS && n < PB_RFC_MAX_ROWS; i++) {
		rfc_table[n] = rfc_rows[i];
		rfc_table[n++].group = PB_G_RFC;
	}
	pb_cmd_rfc2544.nopts = n;
}

/* ---- the tests ------------------------------------------------------------------------- */

/* A 64-byte RFC frame must carry at least the headers and the 8-byte signature. */
uint32_t pb_rfc_frame_bytes(const struct pb_config *cfg, uint32_t rfc_size, char *err,
			    size_t errlen)
{
	uint32_t hdr = pb_frame_overhead(cfg->srcip.family);
	uint32_t tag = cfg->vlan ? PB_VLAN_HLEN : 0;
	uint32_t frame = rfc_size - 4 - tag; /* the frame pktbench builds: no FCS, no tag */

	if (rfc_size < 4 + tag + hdr + PB_SIG_LEN) {
		snprintf(err, errlen,
			 "a %u-byte frame cannot hold the %u bytes of headers%s, the signature and "
			 "the FCS (at least %u)",
			 rfc_size, hdr, tag ? " and tag" : "", 4 + tag + hdr + PB_SIG_LEN);
		return 0;
	}
	if (cfg->mtu && frame - PB_ETH_HLEN > cfg->mtu) {
		snprintf(err, errlen, "a %u-byte frame does not fit the MTU %u of %s", rfc_size,
			 cfg->mtu, cfg->ifname);
		return 0;
	}
	return frame;
}

/* One method at one frame size: what every trial there shares. */
struct rfc_ctx {
	const struct pb_config *cfg;
	const struct pb_env *env;
	const struct pb_selected *sel;
	struct pb_rfc2544_rows *out;
	struct pb_config tcfg; /* the trial's: the frame set, --pps and --count per trial */
	struct pb_env tenv;
	uint32_t size;	/* the RFC's frame size */
	uint32_t trial; /* trials so far in the current test */
	enum pb_rfc_test test;
	char label[96];
	/* the overall progress: (method, size) units, the one running is unit (from 0) */
	unsigned int unit, units;
	double t0;		    /* when the first unit started */
	struct pb_rfc_estimate est; /* the whole run's, before it started */
	int cols; /* stderr is a terminal this wide: one progress line; 0: a line a trial */
};

static bool rfc_stopped(const struct rfc_ctx *c)
{
	return __atomic_load_n(c->env->stop, __ATOMIC_RELAXED);
}

/*
 * On a terminal, one line rewritten after every trial: which method and size of how many,
 * the trial, the time so far and what is left at the pace of the units done (before the
 * first is done, the estimate's range: a search's length is not known beforehand), cut to
 * the terminal's width.
 */
static void rfc_progress(const struct rfc_ctx *c, bool passed, bool interrupted)
{
	double el = pb_now() - c->t0;
	char line[256], spent[32], left[32], hi[32], eta[96];

	pb_hms(spent, sizeof(spent), el);
	/* before the first size is done, the estimate's range; then the pace of those done */
	pb_hms(left, sizeof(left), c->est.secs_lo);
	pb_hms(hi, sizeof(hi), c->est.secs_hi);
	snprintf(eta, sizeof(eta), " of ~%s-%s", left, hi);
	if (c->unit) {
		pb_hms(left, sizeof(left), el / c->unit * (c->units - c->unit));
		snprintf(eta, sizeof(eta), ", ~%s left", left);
	}
	snprintf(line, sizeof(line), "rfc2544 [%u/%u] %s %u B %s #%u %s | %s%s", c->unit + 1,
		 c->units, c->sel->m->name, c->size, pb_rfc_test_name(c->test), c->trial,
		 interrupted ? "interrupted"
		 : passed    ? "pass"
			     : "fail",
		 spent, eta);
	fprintf(stderr, "\r\033[K%.*s", c->cols - 1, line);
}

/* A new row at the end of out, zeroed; NULL when memory is short. */
static struct pb_result *rfc_row_add(struct pb_rfc2544_rows *out)
{
	if (out->n == out->cap) {
		unsigned int cap = out->cap ? out->cap * 2 : 64;
		struct pb_result *r = realloc(out->r, cap * sizeof(*r));

		if (!r)
			return NULL;
		out->r = r;
		out->cap = cap;
	}
	memset(&out->r[out->n], 0, sizeof(out->r[0]));
	return &out->r[out->n++];
}

/* Sleeps the trial gap; a signal ends it early. */
static void rfc_gap(const struct rfc_ctx *c)
{
	double s = c->cfg->rfc.trial_gap_s;
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	if (s > 0 && !rfc_stopped(c))
		nanosleep(&ts, NULL);
}

/*
 * One trial: unpaced (pps 0) or paced at pps, for secs, or a burst of count frames at the
 * path's maximum. Appends its row; *idx is its index. 0, -EINTR (the row is the partial
 * run), -ENOMEM.
 */
static int rfc_trial(struct rfc_ctx *c, double pps, double secs, uint64_t count, unsigned int *idx)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	struct pb_rfc_row *rf;
	struct pb_result *r;
	double sent;
	int ret;

	rfc_gap(c);
	c->tcfg.pps = pps;
	c->tcfg.duration_s = secs;
	c->tcfg.count = count;
	r = rfc_row_add(c->out);
	if (!r)
		return -ENOMEM;
	*idx = c->out->n - 1;
	ret = pb_run_method(c->sel->m, c->sel->batch, &c->tcfg, &c->tenv, r);
	if (ret && ret != -EINTR) {
		c->out->n--;
		return ret;
	}
	rf = &r->rfc;
	rf->test = c->test;
	rf->frame_size = c->size;
	rf->trial = ++c->trial;
	rf->load_pct = -1;
	rf->burst_frames = count;
	/*
	 * Loss of what was offered: a frame the path dropped and reported (retried) was offered
	 * and not forwarded, whatever went in its place (a DUT's full input queue says so).
	 */
	sent = (double)r->frames_sent + (double)r->frames_retried;
	rf->loss_pct = pb_result_has_delivered(r)
			       ? fmax(0, 100 * (sent - (double)r->frames_delivered) / sent)
			       : NAN;
	/* NDR: not one frame; PDR: the tolerance, as a share of what was offered */
	rf->passed = r->status == PB_STATUS_OK && pb_result_has_delivered(r) && !r->interrupted &&
		     (o->loss_tolerance_pct > 0 ? rf->loss_pct <= o->loss_tolerance_pct
						: (double)r->frames_delivered >= sent);
	if (!c->cfg->quiet && r->status == PB_STATUS_OK && c->cols)
		rfc_progress(c, rf->passed, r->interrupted);
	else if (!c->cfg->quiet && r->status == PB_STATUS_OK)
		fprintf(stderr,
			"pktbench: rfc2544 %s %u B %s #%u: %s %.0f pps%s, %llu sent, loss %.4f %% "
			"%s\n",
			c->sel->m->name, c->size, pb_rfc_test_name(c->test), rf->trial,
			count ? "burst"
			: pps ? "paced"
			      : "unpaced",
			r->pps,
			count ? ""
			: pps ? ""
			      : " (the maximum)",
			(unsigned long long)r->frames_sent, rf->loss_pct,
			/* a trial cut short by a signal neither passed nor failed */
			r->interrupted ? "interrupted"
			: rf->passed   ? "pass"
				       : "fail");
	return ret;
}

/* A summary row for the current test, its run fields from the trial at from (or none). */
static struct pb_result *rfc_summary(struct rfc_ctx *c, int from)
{
	struct pb_result *r = rfc_row_add(c->out);

	if (!r)
		return NULL;
	if (from >= 0) {
		*r = c->out->r[from];
		/* the trial row owns its samples, latency and gaps lists, and receiver's lists */
		r->samples = NULL;
		r->nsamples = 0;
		memset(&r->latency, 0, sizeof(r->latency));
		memset(&r->gaps, 0, sizeof(r->gaps));
		r->rx_queues = 0;
		r->nrx_vlans = 0;
	} else {
		snprintf(r->method, sizeof(r->method), "%s", c->sel->m->name);
		snprintf(r->mode, sizeof(r->mode), "-");
		r->streams = c->tcfg.streams;
	}
	memset(&r->rfc, 0, sizeof(r->rfc));
	r->rfc.test = c->test;
	r->rfc.summary = true;
	r->rfc.frame_size = c->size;
	r->rfc.load_pct = -1;
	r->rfc.loss_pct = NAN;
	r->rfc.trials = c->trial;
	r->rfc.lat_rate_pps = r->rfc.p50_us = r->rfc.p99_us = r->rfc.max_us = r->rfc.mean_us = NAN;
	return r;
}

/* A test that could not run, or whose trial failed: one summary row that says why. */
static int rfc_no_answer(struct rfc_ctx *c, enum pb_status status, const char *pre, const char *why)
{
	struct pb_result *r = rfc_summary(c, -1);
	char buf[2 * sizeof(r->reason)] = "";

	if (!r)
		return -ENOMEM;
	r->status = status;
	/* --search mlr's throughput says why under its own box */
	r->rfc.goal = c->test == PB_RFC_THROUGHPUT && c->cfg->rfc.search == PB_RFC_SEARCH_MLR;
	/* cut to the row's reason, whatever the lengths */
	snprintf(buf, sizeof(buf), "%s%s", pre, why);
	memcpy(r->reason, buf, sizeof(r->reason) - 1);
	r->reason[sizeof(r->reason) - 1] = '\0';
	return 0;
}

/* A trial that did not run properly ends its test: the summary says so. */
static int rfc_trial_failed(struct rfc_ctx *c, unsigned int idx)
{
	const struct pb_result *t = &c->out->r[idx];
	char why[sizeof(t->reason)];

	snprintf(why, sizeof(why), "%s", t->reason[0] ? t->reason : "interrupted");
	if (t->status == PB_STATUS_SKIPPED)
		return rfc_no_answer(c, PB_STATUS_SKIPPED, "", why);
	return rfc_no_answer(c, PB_STATUS_ERROR, "a trial failed: ", why);
}

static bool rfc_trial_ok(const struct rfc_ctx *c, unsigned int idx)
{
	const struct pb_result *t = &c->out->r[idx];

	return t->status == PB_STATUS_OK && pb_result_has_delivered(t) && !t->interrupted;
}

/* The search's trial at value v: unpaced at (or above) the maximum, else paced at v. */
static double rfc_pace(double v, double max)
{
	return v >= max * (1 - 1e-9) ? 0 : v;
}

int pb_rfc_throughput_best(const struct pb_result *rows, unsigned int first, unsigned int n,
			   double answer)
{
	int best = -ENOENT;
	unsigned int i;

	for (i = first; i < n; i++) {
		const struct pb_result *t = &rows[i];

		if (!t->rfc.summary && t->rfc.test == PB_RFC_THROUGHPUT && t->rfc.passed &&
		    t->offered_pps == answer)
			best = (int)i;
	}
	return best;
}

void pb_rfc_throughput_fill(struct pb_result *sum, const struct pb_result *best,
			    const struct pb_search *s, double max_pps, bool pushed)
{
	double answer = pb_search_result(s);

	sum->rfc.max_pps = max_pps;
	/*
	 * A maximum the path held the sender to (a full socket or ring) is not the send path's
	 * own: whether the sender or what is behind it is the limit is then unknown.
	 */
	sum->rfc.pushed_back = pushed && answer >= max_pps;
	sum->rfc.sender_limited = answer >= max_pps && !pushed;
	snprintf(sum->rfc.search, sizeof(sum->rfc.search), "%s",
		 s->state == PB_SEARCH_EXHAUSTED ? "exhausted"
		 : s->state == PB_SEARCH_NONE	 ? "none"
		 : sum->rfc.pushed_back		 ? "pushed-back"
		 : sum->rfc.sender_limited	 ? "path-max"
						 : "found");
	if (best) {
		/* the rate the passing trial offered, as measured */
		sum->rfc.throughput_pps = best->offered_pps;
		sum->rfc.throughput_wire_gbps =
			sum->wire_avg > 0 ? sum->rfc.throughput_pps * sum->wire_avg * 8 / 1e9
					  : pb_wire_gbps(sum->rfc.throughput_pps, sum->frame_bytes,
							 sum->vlan);
		sum->rfc.loss_pct = best->rfc.loss_pct;
	} else {
		sum->status = PB_STATUS_OK;
		snprintf(sum->reason, sizeof(sum->reason),
			 "no rate down to %.0f pps passed: nothing to report", s->o.min);
	}
}

/*
 * 26.1: the unpaced maximum first; if it loses, a search below it. *answer is the rate
 * found (0: none), *max the maximum.
 */
static int rfc_throughput(struct rfc_ctx *c, double *answer, double *max_pps)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	struct pb_search_opts so = { 0 };
	unsigned int idx, first;
	struct pb_search s;
	struct pb_result *r;
	int best, ret;
	bool pushed;
	double v, m;

	*answer = 0;
	c->test = PB_RFC_THROUGHPUT;
	c->trial = 0;
	ret = rfc_trial(c, 0, o->trial_s, 0, &idx);
	if (ret)
		return ret;
	if (!rfc_trial_ok(c, idx))
		return rfc_trial_failed(c, idx);
	first = idx;
	/* the maximum is what the unpaced trial offered: the one definition every table uses */
	m = c->out->r[idx].offered_pps;
	*max_pps = m;
	pushed = c->out->r[idx].pushed_back;
	so = (struct pb_search_opts){ .min = fmax(1, m * 1e-4),
				      .max = m,
				      .precision = o->precision_pct / 100,
				      .max_trials = o->max_trials,
				      .retries = o->retries,
				      .confirm = true };
	if (pb_search_init(&s, &so))
		return rfc_no_answer(c, PB_STATUS_ERROR, "",
				     "the unpaced trial's rate makes no search");
	/* the search's first value is the maximum: the trial just run */
	pb_search_next(&s, &v);
	pb_search_record_at(&s, m, c->out->r[idx].rfc.passed);
	while (pb_search_next(&s, &v)) {
		ret = rfc_trial(c, rfc_pace(v, m), s.confirming ? o->final_trial_s : o->trial_s, 0,
				&idx);
		if (ret)
			return ret;
		if (!rfc_trial_ok(c, idx))
			return rfc_trial_failed(c, idx);
		/* what the trial offered, which a path that pushes back keeps below the pace */
		pb_search_record_at(&s, c->out->r[idx].offered_pps, c->out->r[idx].rfc.passed);
	}
	*answer = pb_search_result(&s);
	/* the row that answers: the trial that offered the rate found (and passed) */
	best = pb_rfc_throughput_best(c->out->r, first, c->out->n, *answer);
	r = rfc_summary(c, best >= 0 ? best : -1);
	if (!r)
		return -ENOMEM;
	/* rfc_summary may have moved the rows: best is found again by its index */
	pb_rfc_throughput_fill(r, best >= 0 ? &c->out->r[best] : NULL, &s, m, pushed);
	return 0;
}

/* What MLRsearch's Measurer needs of the unit it searches. */
struct rfc_mlr_arg {
	struct rfc_ctx *c;
	double max;	     /* Max Load: what the unpaced trial offered */
	double severe;	     /* a paced trial that offered less than its load by more than this
			      * share counts what it did not offer as lost */
	unsigned int failed; /* 1 + the row of a trial that did not run properly; 0: none */
};

/*
 * MLRsearch's Measurer: one trial of rfc_trial(), the binary search's own (unpaced at the
 * maximum), its Trial Loss Ratio the accounted loss of what was offered; a paced trial that
 * fell short of its load by more than the narrowest goal width has the shortfall counted as
 * lost, as RFC 9971 recommends, so a load the sender could not offer is never a lower bound.
 * -EIO when the trial did not run properly (its row says why).
 */
static int rfc_mlr_measure(void *arg, double load, double secs, double *loss_ratio)
{
	struct rfc_mlr_arg *a = arg;
	const struct pb_result *r;
	double pace = rfc_pace(load, a->max), loss;
	unsigned int idx;
	int ret;

	ret = rfc_trial(a->c, pace, secs, 0, &idx);
	if (ret)
		return ret;
	if (!rfc_trial_ok(a->c, idx)) {
		a->failed = idx + 1;
		return -EIO;
	}
	r = &a->c->out->r[idx];
	loss = r->rfc.loss_pct / 100;
	if (pace > 0 && r->offered_pps < load * (1 - a->severe))
		loss = fmax(loss, 1 - r->offered_pps * (1 - loss) / load);
	*loss_ratio = loss;
	return 0;
}

/*
 * 26.1 by RFC 9971's MLRsearch (--search mlr): the unpaced maximum first, at the shortest
 * initial duration (it is Max Load), then one search for every --goal, each trial the binary
 * search's. A summary row per goal: the conditional throughput (throughput_pps), the
 * relevant lower and upper bounds. *answer is the first goal's lower bound (latency is
 * measured there), *max the maximum.
 */
static int rfc_mlr(struct rfc_ctx *c, double *answer, double *max_pps)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	struct rfc_mlr_arg a = { .c = c, .severe = 1 };
	struct pb_mlr_opts mo = { .ngoals = o->ngoals, .max_trials = o->max_trials };
	double first = INFINITY;
	unsigned int idx, i, k, row0;
	struct pb_mlr *m;
	struct pb_result *r;
	bool pushed;
	int ret;

	*answer = 0;
	c->test = PB_RFC_THROUGHPUT;
	c->trial = 0;
	for (i = 0; i < o->ngoals; i++) {
		mo.goals[i] = (struct pb_mlr_goal){ .loss_ratio = o->goals[i].loss_ratio,
						    .final_s = o->goals[i].final_s,
						    .sum_s = o->goals[i].sum_s,
						    .exceed_ratio = o->goals[i].exceed_ratio,
						    .initial_s = o->goals[i].initial_s,
						    .width = o->goals[i].width };
		first = fmin(first, o->goals[i].initial_s);
		a.severe = fmin(a.severe, o->goals[i].width);
	}
	ret = rfc_trial(c, 0, first, 0, &idx);
	if (ret)
		return ret;
	if (!rfc_trial_ok(c, idx))
		return rfc_trial_failed(c, idx);
	row0 = idx;
	a.max = c->out->r[idx].offered_pps;
	*max_pps = a.max;
	pushed = c->out->r[idx].pushed_back;
	mo.min_load = fmax(1, a.max * 1e-4);
	mo.max_load = a.max;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (pb_mlr_init(m, &mo)) {
		ret = rfc_no_answer(c, PB_STATUS_ERROR, "",
				    "the unpaced trial's rate makes no search");
		goto out;
	}
	pb_mlr_add(m, a.max, first, c->out->r[idx].rfc.loss_pct / 100);
	ret = pb_mlr_run(m, rfc_mlr_measure, &a);
	if (ret == -EIO && a.failed) {
		ret = rfc_trial_failed(c, a.failed - 1);
		goto out;
	}
	if (ret)
		goto out;
	for (i = 0; i < o->ngoals; i++) {
		struct pb_mlr_result res;
		int best = -1;

		pb_mlr_result(m, i, &res);
		/* the row that answers: the last full-length trial at the lower bound */
		for (k = 0; res.have_lower && k < m->n; k++)
			if (m->t[k].load == res.lower && m->t[k].duration_s >= o->goals[i].final_s)
				best = (int)(row0 + k);
		r = rfc_summary(c, best);
		if (!r) {
			ret = -ENOMEM;
			goto out;
		}
		r->rfc.goal = i + 1;
		r->rfc.mlr = o->goals[i];
		snprintf(r->rfc.goal_spec, sizeof(r->rfc.goal_spec),
			 "loss=%g,final=%g,sum=%g,exceed=%g,initial=%g,width=%g",
			 o->goals[i].loss_ratio, o->goals[i].final_s, o->goals[i].sum_s,
			 o->goals[i].exceed_ratio, o->goals[i].initial_s, o->goals[i].width);
		r->rfc.max_pps = a.max;
		r->rfc.lower_pps = res.have_lower ? res.lower : NAN;
		r->rfc.upper_pps = res.have_upper ? res.upper : NAN;
		r->rfc.regular = res.regular;
		r->rfc.search_s = m->trial_s;
		/* a maximum the path held the sender to is not the path's own (rfc_throughput) */
		r->rfc.pushed_back = pushed && res.have_lower && !res.have_upper;
		r->rfc.sender_limited = res.have_lower && !res.have_upper && !pushed;
		snprintf(r->rfc.search, sizeof(r->rfc.search), "%s",
			 res.regular			? "found"
			 : m->state == PB_MLR_EXHAUSTED ? "exhausted"
			 : !res.have_lower		? "none"
			 : r->rfc.pushed_back		? "pushed-back"
			 : r->rfc.sender_limited	? "path-max"
							: "irregular");
		if (!res.have_lower) {
			r->status = PB_STATUS_OK;
			snprintf(r->reason, sizeof(r->reason),
				 "no load down to %.0f pps met the goal: nothing to report",
				 mo.min_load);
			continue;
		}
		if (!i)
			*answer = res.lower;
		r->rfc.throughput_pps = res.conditional;
		r->rfc.loss_pct = 100 * (1 - res.conditional / res.lower);
		r->rfc.throughput_wire_gbps =
			r->wire_avg > 0 ? res.conditional * r->wire_avg * 8 / 1e9
					: pb_wire_gbps(res.conditional, r->frame_bytes, r->vlan);
	}
out:
	free(m);
	return ret;
}

/* Probes in a latency trial: at most one frame in 10, so the trial is the load it measures. */
#define PB_RFC_PROBE_SHARE 10

/*
 * 26.2: one trial of --trial seconds at the throughput rate with latency probes in it
 * (--latency), its p50, p99, max and mean one-way latency the answer. The RFC's one tagged
 * frame in a 120 s stream, repeated 20 times and averaged, is many probes in one trial here.
 */
static int rfc_latency(struct rfc_ctx *c, double rate, double max)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	const struct pb_latency *lat;
	double probes = c->cfg->latency_pps > 0 ? c->cfg->latency_pps : PB_LATENCY_PPS;
	bool latency = c->tcfg.latency;
	double latency_pps = c->tcfg.latency_pps;
	struct pb_result *r;
	char why[96];
	unsigned int idx;
	int ret;

	c->test = PB_RFC_LATENCY;
	c->trial = 0;
	if (!(rate > 0))
		return rfc_no_answer(c, PB_STATUS_SKIPPED, "",
				     "no throughput rate to measure the latency at");
	if (c->tcfg.payloadsize < PB_PROBE_LEN) {
		snprintf(why, sizeof(why),
			 "a probe needs a %u-byte payload; a %u-byte frame has %u", PB_PROBE_LEN,
			 c->size, c->tcfg.payloadsize);
		return rfc_no_answer(c, PB_STATUS_SKIPPED, "", why);
	}
	c->tcfg.latency = true;
	c->tcfg.latency_pps = fmin(probes, rate / PB_RFC_PROBE_SHARE);
	ret = rfc_trial(c, rfc_pace(rate, max), o->trial_s, 0, &idx);
	c->tcfg.latency = latency;
	c->tcfg.latency_pps = latency_pps;
	if (ret)
		return ret;
	if (!rfc_trial_ok(c, idx))
		return rfc_trial_failed(c, idx);
	r = rfc_summary(c, (int)idx);
	if (!r)
		return -ENOMEM;
	lat = &c->out->r[idx].latency;
	r->rfc.lat_rate_pps = c->out->r[idx].offered_pps;
	r->rfc.loss_pct = c->out->r[idx].rfc.loss_pct;
	if (!lat->timed || !lat->samples) {
		r->status = PB_STATUS_SKIPPED;
		if (strstr(lat->why, "latency unknown"))
			snprintf(r->reason, sizeof(r->reason), "%s", lat->why);
		else
			snprintf(r->reason, sizeof(r->reason), "latency unknown: %.*s",
				 (int)(sizeof(r->reason) - sizeof("latency unknown: ")),
				 lat->why[0] ? lat->why : "no probe was timed");
		return 0;
	}
	r->rfc.p50_us = lat->p50_us;
	r->rfc.p99_us = lat->p99_us;
	r->rfc.max_us = lat->max_us;
	r->rfc.mean_us = lat->mean_us;
	return 0;
}

/*
 * 26.3: loss at 100 %, 100 - step, ... of the unpaced maximum until two steps lose nothing.
 * max: the throughput test's maximum when it ran (0: none), so both tables mean one
 * maximum: the steps below 100 % are paced at their share of it (or of what the 100 % step
 * offered, when that is less, so the offered load only falls). The 100 % step is unpaced
 * either way, as the throughput search's maximum is (rfc_pace): a sender paced at the rate
 * an unpaced one just reached falls short of it whenever this machine is a little slower
 * now. Without max, that step measures it.
 */
static int rfc_loss(struct rfc_ctx *c, double max)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	struct pb_loss_walk w;
	unsigned int idx;
	double load, m = max, base = max;
	int ret;

	c->test = PB_RFC_LOSS;
	c->trial = 0;
	pb_loss_walk_init(&w, o->loss_step_pct);
	while (pb_loss_walk_next(&w, &load)) {
		struct pb_result *r;
		bool full = load >= 100 - 1e-9;

		ret = rfc_trial(c, rfc_pace(load / 100 * base, m), o->trial_s, 0, &idx);
		if (ret)
			return ret;
		if (!rfc_trial_ok(c, idx))
			return rfc_trial_failed(c, idx);
		if (full && !max)
			m = c->out->r[idx].offered_pps;
		/*
		 * The steps below pace at their share of what the 100 % step offered when that is
		 * less than the maximum (a slower moment of the machine): a 90 % step paced at the
		 * maximum's 90 % offered more than the 100 % step had (1,029,176 against 792,324
		 * pps), and the table's load then rose as it went down.
		 */
		if (full)
			base = fmin(m, c->out->r[idx].offered_pps);
		c->out->r[idx].rfc.load_pct = load;
		pb_loss_walk_record(&w, c->out->r[idx].rfc.loss_pct);
		r = rfc_summary(c, (int)idx);
		if (!r)
			return -ENOMEM;
		r->rfc.load_pct = load;
		r->rfc.loss_pct = c->out->r[idx].rfc.loss_pct;
		r->rfc.max_pps = m;
		r->rfc.trials = 1;
	}
	return 0;
}

/*
 * 26.4: the longest burst at the path's maximum that loses nothing. A whole unpaced trial
 * first: if it loses nothing, no burst up to its length can (the send path is the limit).
 * Else a search up to that length, then --b2b-repeat - 1 more, each starting from the last
 * answer, averaged.
 */
static int rfc_b2b(struct rfc_ctx *c)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	struct pb_b2b avg = { 0 };
	struct pb_result *r;
	unsigned int idx, rep, last = 0;
	double prev = 0, v, m;
	uint64_t longest;
	bool path_max;
	int ret;

	c->test = PB_RFC_B2B;
	c->trial = 0;
	ret = rfc_trial(c, 0, o->trial_s, 0, &idx);
	if (ret)
		return ret;
	if (!rfc_trial_ok(c, idx))
		return rfc_trial_failed(c, idx);
	m = c->out->r[idx].offered_pps;
	longest = c->out->r[idx].frames_sent;
	last = idx;
	path_max = c->out->r[idx].rfc.passed;
	if (path_max) {
		pb_b2b_add(&avg, longest);
	} else {
		for (rep = 1; rep <= o->b2b_repeat && !rfc_stopped(c); rep++) {
			struct pb_search_opts so = {
				.min = 1,
				.max = (double)longest,
				.start = rep > 1 ? fmax(prev, 1) : 0,
				.precision = o->precision_pct / 100,
				.abs_precision = 1,
				.max_trials = o->max_trials,
				.retries = o->retries,
				.integer = true,
				.expand = rep > 1,
			};
			struct pb_search s;

			if (pb_search_init(&s, &so))
				return rfc_no_answer(c, PB_STATUS_ERROR, "",
						     "the unpaced trial sent too little to search");
			while (pb_search_next(&s, &v)) {
				/* the first search's first value, the whole trial, just failed */
				if (rep == 1 && s.trials == 0 && v >= (double)longest) {
					pb_search_record(&s, false);
					continue;
				}
				ret = rfc_trial(c, 0, 0, (uint64_t)v, &idx);
				if (ret)
					return ret;
				if (!rfc_trial_ok(c, idx))
					return rfc_trial_failed(c, idx);
				c->out->r[idx].rfc.repetition = rep;
				pb_search_record(&s, c->out->r[idx].rfc.passed);
				if (c->out->r[idx].rfc.passed)
					last = idx;
			}
			prev = pb_search_result(&s);
			pb_b2b_add(&avg, (uint64_t)prev);
		}
	}
	r = rfc_summary(c, (int)last);
	if (!r)
		return -ENOMEM;
	r->rfc.max_pps = m;
	r->rfc.sender_limited = path_max;
	r->rfc.burst_mean = pb_b2b_mean(&avg);
	r->rfc.burst_stddev = pb_b2b_stddev(&avg);
	r->rfc.burst_min = avg.min;
	r->rfc.burst_max = avg.max;
	r->rfc.burst_frames = (uint64_t)llround(r->rfc.burst_mean);
	r->rfc.repetitions = avg.n;
	snprintf(r->rfc.search, sizeof(r->rfc.search), "%s",
		 r->rfc.sender_limited ? "path-max"
		 : avg.n	       ? "found"
				       : "none");
	return 0;
}

/* Every test asked for, for one method at one frame size. */
static int rfc_one_size(struct rfc_ctx *c)
{
	const struct pb_rfc2544_opts *o = &c->cfg->rfc;
	char why[160];
	double rate = 0, max = 0;
	uint32_t frame;
	unsigned int t;
	int ret = 0;

	frame = pb_rfc_frame_bytes(c->cfg, c->size, why, sizeof(why));
	if (!frame) {
		for (t = PB_RFC_THROUGHPUT; t <= PB_RFC_B2B && !ret; t++) {
			if (!(o->tests & (1u << (t - 1))))
				continue;
			c->test = (enum pb_rfc_test)t;
			c->trial = 0;
			ret = rfc_no_answer(c, PB_STATUS_SKIPPED, "", why);
		}
		return ret;
	}
	c->tcfg.frame_size = frame;
	c->tcfg.payloadsize = frame - pb_frame_overhead(c->cfg->srcip.family);
	/* latency is measured at the throughput rate: searched for it too */
	if ((o->tests & (PB_RFC_T_THROUGHPUT | PB_RFC_T_LATENCY)) && !rfc_stopped(c))
		ret = o->search == PB_RFC_SEARCH_MLR ? rfc_mlr(c, &rate, &max)
						     : rfc_throughput(c, &rate, &max);
	if (!ret && (o->tests & PB_RFC_T_LATENCY) && !rfc_stopped(c))
		ret = rfc_latency(c, rate, max);
	if (!ret && (o->tests & PB_RFC_T_LOSS) && !rfc_stopped(c))
		ret = rfc_loss(c, max);
	if (!ret && (o->tests & PB_RFC_T_B2B) && !rfc_stopped(c))
		ret = rfc_b2b(c);
	return ret;
}

/* stderr's width when it is a terminal, else 0. */
static int rfc_tty_cols(void)
{
	struct winsize ws;

	if (!isatty(STDERR_FILENO))
		return 0;
	return !ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 20 ? ws.ws_col : 80;
}

/* Burst trials: a search of a burst's length, and each later repetition's from the last. */
#define PB_RFC_B2B_FIRST 16
#define PB_RFC_B2B_NEXT	 6

/* --search mlr's trials per goal on a lossy device: initial (short) and final loads. */
#define PB_RFC_MLR_SHORT 4
#define PB_RFC_MLR_FINAL 4

/*
 * --search mlr's throughput. Lossless: the maximum at the shortest initial duration, then
 * the final trials there that the goal needing most seconds still lacks. Lossy: per goal,
 * PB_RFC_MLR_SHORT initial trials when its initial duration is shorter, and
 * PB_RFC_MLR_FINAL loads (the forwarding rate's guess, a width up, two more) of as many final
 * trials as its duration sum holds; at most --max-trials in all.
 */
static void rfc_estimate_mlr(const struct pb_rfc2544_opts *o, struct pb_rfc_estimate *e)
{
	double gap = o->trial_gap_s + PB_RFC_TRIAL_COST_S, first = INFINITY, extra_s = 0, s;
	unsigned int i, extra = 0, reps, n = 1, k;

	for (i = 0; i < o->ngoals; i++)
		first = fmin(first, o->goals[i].initial_s);
	s = first + gap;
	for (i = 0; i < o->ngoals; i++) {
		const struct pb_rfc_goal *g = &o->goals[i];

		reps = (unsigned int)ceil(g->sum_s / g->final_s - 1e-9);
		k = reps - (first >= g->final_s);
		if (k * (g->final_s + gap) > extra_s) {
			extra = k;
			extra_s = k * (g->final_s + gap);
		}
		for (k = 0; k < PB_RFC_MLR_FINAL * reps && n < o->max_trials; k++, n++)
			s += g->final_s + gap;
		for (k = 0; g->initial_s < g->final_s && k < PB_RFC_MLR_SHORT && n < o->max_trials;
		     k++, n++)
			s += g->initial_s + gap;
	}
	e->trials_lo += 1 + extra;
	e->secs_lo += first + gap + extra_s;
	e->trials_hi += n;
	e->secs_hi += s;
}

void pb_rfc_estimate(const struct pb_rfc2544_opts *o, unsigned int units, struct pb_rfc_estimate *e)
{
	struct pb_search_opts so = { .min = 1e-4,
				     .max = 1,
				     .precision = o->precision_pct / 100,
				     .max_trials = o->max_trials,
				     .confirm = true };
	double per = o->trial_s + o->trial_gap_s + PB_RFC_TRIAL_COST_S;
	double fin = o->final_trial_s + o->trial_gap_s + PB_RFC_TRIAL_COST_S;
	double burst = o->trial_gap_s + PB_RFC_TRIAL_COST_S; /* a burst lasts milliseconds */
	unsigned int n, steps;

	memset(e, 0, sizeof(*e));
	if ((o->tests & PB_RFC_T_THROUGHPUT) && o->search == PB_RFC_SEARCH_MLR) {
		rfc_estimate_mlr(o, e);
	} else if (o->tests & PB_RFC_T_THROUGHPUT) {
		/* lossless: the unpaced trial passes and is confirmed */
		e->trials_lo += 2;
		e->secs_lo += per + fin;
		n = pb_search_bound(&so, 0.01);
		n = n < o->max_trials ? n : o->max_trials;
		/* about half a search's trials fail, and each failure is tried --retries more */
		e->trials_hi += n + n / 2 * o->retries;
		e->secs_hi += (n - 1 + n / 2 * o->retries) * per + fin;
	}
	if (o->tests & PB_RFC_T_LATENCY) {
		e->trials_lo++;
		e->trials_hi++;
		e->secs_lo += per;
		e->secs_hi += per;
	}
	if (o->tests & PB_RFC_T_LOSS) {
		steps = (unsigned int)ceil(100 / o->loss_step_pct);
		e->trials_lo += 2;
		e->secs_lo += 2 * per;
		e->trials_hi += steps;
		e->secs_hi += steps * per;
	}
	if (o->tests & PB_RFC_T_B2B) {
		n = PB_RFC_B2B_FIRST + (o->b2b_repeat - 1) * PB_RFC_B2B_NEXT;
		e->trials_lo++;
		e->secs_lo += per;
		e->trials_hi += 1 + n;
		e->secs_hi += per + n * burst;
	}
	e->trials_lo *= units;
	e->trials_hi *= units;
	e->secs_lo = e->secs_lo * units + PB_RFC_SETUP_S;
	e->secs_hi = e->secs_hi * units + PB_RFC_SETUP_S;
}

int pb_rfc2544_run(const struct pb_config *cfg, const struct pb_selected *list, unsigned int n,
		   const struct pb_env *env, struct pb_rfc2544_rows *out)
{
	static struct rfc_ctx c; /* large (two configurations): off the stack */
	struct pb_rfc_estimate est;
	double t0 = pb_now();
	unsigned int i, k;
	int ret = 0, cols = rfc_tty_cols();

	/* the direct lab is one veth pair: whatever is found is the send path's own limit */
	if (!cfg->iface[0] && cfg->lab_kind == PB_LAB_DIRECT)
		pr_warn("no device under test (--lab router|bridge, or --iface to a device):\n"
			"  this measures a bare veth pair, the send path's own limit\n");
	/* what it will do and how long, before it starts (also under -q: it is not a live line) */
	pb_rfc_estimate(&cfg->rfc, n * cfg->rfc.nsizes, &est);
	{
		char lo[32], hi[32];

		pb_hms(lo, sizeof(lo), est.secs_lo);
		pb_hms(hi, sizeof(hi), est.secs_hi);
		/* two lines that fit 80 columns, as the progress line does */
		fprintf(stderr,
			"pktbench rfc2544: %u method%s x %u frame size%s, %u to %u trials\n"
			"  time: ~%s if the device loses nothing, up to ~%s if it is lossy\n",
			n, n > 1 ? "s" : "", cfg->rfc.nsizes, cfg->rfc.nsizes > 1 ? "s" : "",
			est.trials_lo, est.trials_hi, lo, hi);
	}

	for (i = 0; i < n && !ret && !__atomic_load_n(env->stop, __ATOMIC_RELAXED); i++) {
		for (k = 0; k < cfg->rfc.nsizes && !ret; k++) {
			if (__atomic_load_n(env->stop, __ATOMIC_RELAXED))
				break;
			memset(&c, 0, sizeof(c));
			c.cfg = cfg;
			c.env = env;
			c.sel = &list[i];
			c.out = out;
			c.size = cfg->rfc.sizes[k];
			c.tcfg = *cfg;
			c.tcfg.sweep.kind = PB_SWEEP_NONE;
			c.tcfg.repeat = 1;
			c.tcfg.quiet = true; /* one line per trial instead of one a second */
			c.tenv = *env;
			snprintf(c.label, sizeof(c.label), "%s %u B", list[i].m->name, c.size);
			c.tenv.label = c.label;
			c.unit = i * cfg->rfc.nsizes + k;
			c.units = n * cfg->rfc.nsizes;
			c.t0 = t0;
			c.est = est;
			c.cols = cfg->quiet ? 0 : cols;
			ret = rfc_one_size(&c);
		}
		/* what the method kept across its trials goes before the next method runs */
		if (list[i].m->finish && n > 1)
			list[i].m->finish();
	}
	if (cols && !cfg->quiet)
		fputs("\r\033[K", stderr); /* the report follows on a clean line */
	if (!ret && __atomic_load_n(env->stop, __ATOMIC_RELAXED))
		ret = -EINTR;
	return ret;
}
