// SPDX-License-Identifier: MIT
/*
 * `pktbench compare BASE.json NEW.json`: its option table (the same shape as pktbench's own,
 * parsed by the same code), then load, compute, write. The semantics are in compare.h.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "box.h"
#include "compare.h"
#include "log.h"
#include "options.h"

#define OFF(field) offsetof(struct pb_compare_opts, field)

static const char *const pb_cmp_format_names[] = { "table", "json", NULL };

static const struct pb_opt pb_cmp_opts[] = {
	{ "tolerance", 't', OPT_PCT, OFF(tolerance_pct), 0, "10", 0, 100, "PCT",
	  "a row regressed when its packets/s ratio NEW/BASE < 1 - PCT/100 (exactly at the edge "
	  "passes), or below the comparison's own noise when that is larger (see above)" },
	{ "fixed-tolerance", 0, OPT_FLAG, OFF(fixed_tolerance), 0, NULL, 0, 0, NULL,
	  "the --tolerance alone: no allowance for the noise the rows show (for sets of "
	  "--repeat medians on a quiet machine)" },
	{ "normalize", 'n', OPT_STR, OFF(normalize), 0, NULL, 0, PB_CMP_METHOD_LEN, "METHOD",
	  "divide each rate by METHOD's rate in the same file first, which cancels the machine's "
	  "own speed (e.g. udp_sendto)",
	  .flags = PB_OPTF_METHOD },
	{ "delivered-tolerance", 0, OPT_PCT, OFF(delivered_tol_pp), 0, "1", 0, 100, "PP",
	  "with a receiver on both sides: a row regressed when its delivered % fell more than PP "
	  "percentage points below BASE's (100 turns it off)" },
	{ "accounted-tolerance", 0, OPT_PCT, OFF(accounted_tol_pp), 0, "0.1", 0, 100, "PP",
	  "with a receiver on both sides: a row regressed when its accounted % fell more than PP "
	  "percentage points below BASE's" },
	{ "accounted-min", 0, OPT_PCT, OFF(accounted_min_pct), 0, "99.9", 0, 100, "PCT",
	  "with a receiver on both sides: a row regressed when NEW's accounted % is outside "
	  "PCT .. 100 (frames nobody can account for; 0 turns the lower bound off)" },
	{ "latency-tolerance", 0, OPT_PCT, OFF(latency_tol_pct), 0, "100", 0,
	  PB_CMP_LATENCY_TOL_MAX, "PCT",
	  "with timed latency probes on both sides (--latency): a row regressed when its p99 "
	  "latency rose more than PCT % above BASE's (100: it may double)" },
	{ "cpu-tolerance", 0, OPT_PCT, OFF(cpu_tol_pct), 0, "0", 0, 1000, "PCT",
	  "a row regressed when its CPU per frame (cpu_ns_per_pkt) NEW/BASE, divided by the "
	  "median of that ratio over the rows (at least 5), exceeds 1 + PCT/100: another "
	  "tenant's load moves it far less than the rate (0, the default, turns it off)" },
	{ "syscalls-tolerance", 0, OPT_PCT, OFF(syscalls_tol_pct), 0, "0", 0, 1000, "PCT",
	  "a row regressed when its syscalls per frame exceed BASE's by more than PCT % (they "
	  "are counted, not timed; 0, the default, turns it off)" },
	{ "allow-interrupted", 0, OPT_FLAG, OFF(allow_interrupted), 0, NULL, 0, 0, NULL,
	  "compare rows of partial runs (interrupted, or --count timed out) as if they were "
	  "complete; without it they are not comparable and fail" },
	{ "format", 'f', OPT_ENUM, OFF(format), 0, "table", 0, 0, "table|json", "output format",
	  pb_cmp_format_names },
	{ "wide", 0, OPT_FLAG, OFF(wide), 0, NULL, 0, 0, NULL,
	  "the table's every column: on a terminal (or with $COLUMNS) it otherwise fits the "
	  "width, leaving columns out" },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help" },
};

const struct pb_cmd pb_cmd_compare = {
	.name = "compare",
	.summary = "compare two JSON result sets; exit 1 on a regression, for CI",
	.synopsis = "BASE.json NEW.json [options]",
	.description =
		"Compares two JSON result sets (--format json) row by row: method, and sweep point "
		"when there is one. ratio = NEW packets/s / BASE packets/s.\n\n"
		"Noise: two runs of the same build on a busy machine differ by tens of percent per "
		"method, in both directions, while a regression moves one method against the "
		"rest. So the comparison measures its own noise from how far its rows moved "
		"against each other: 3 x a robust standard deviation of ln(ratio) (1.4826 x the "
		"median absolute deviation) over the rows compared by rate, when there are at "
		"least 5. A row regressed when its ratio fell below 1 - max(tolerance, noise); the "
		"table's last line says what the noise was. --fixed-tolerance turns this off; "
		"--repeat N on both sides makes each row a median and the noise smaller.\n\n"
		"A row's own noise: one method's rate can scatter more than the rest do. Where "
		"both rows are medians of --repeat runs (pps_min, pps_max), a ratio beyond the "
		"allowance regressed only when NEW's fastest run was slower than BASE's slowest "
		"(and improved only when NEW's slowest was faster than BASE's fastest); runs that "
		"overlap read \"ok (slower, within the runs)\" and are not judged by rate. "
		"--fixed-tolerance turns this off too.\n\n"
		"A row regressed when its ratio fell below that allowance, or, with a receiver on "
		"both sides, when its delivered % or accounted % fell more than their tolerances "
		"below BASE's, or when NEW's accounted % is outside --accounted-min .. 100, or, "
		"with timed latency probes on both sides, when its p99 latency rose more than "
		"--latency-tolerance above BASE's. A row "
		"ok in BASE but missing, skipped or failed in NEW fails like a regression. A row "
		"of a partial run (Ctrl-C: \"interrupted\": true, or a --count that timed out: "
		"\"timed_out\": true) is not comparable and fails, unless --allow-interrupted. "
		"Rows only in NEW or not ok in BASE are listed "
		"and fail nothing. RFC 2544 results compare by their answers: throughput "
		"packets/s, "
		"burst frames, 100 - loss % per load, and the latency rows by p99 "
		"(--latency-tolerance).\n\n"
		"What the runs depended on: where both sets carry an environment object (the "
		"kernel, its mitigations, the CPU governor, busy polling, the interface's IRQs, "
		"NAPI threads, rings and offloads, where the sender ran: pktbench environment "
		"lists them), each field whose text differs is a warning line above the table "
		"(JSON: environment_differs), a list by the items it lacks and adds; a set "
		"without one is said once. So is a row whose senders ran on other CPUs in NEW "
		"than in BASE (sender_cpus; JSON: base_sender_cpus, new_sender_cpus): a send "
		"path's cost depends on its CPU. Warnings fail nothing.",
	.exit_status = "0    no row regressed, went missing or was partial\n"
		       "1    at least one did\n"
		       "2    unreadable input or bad arguments (one line on stderr)",
	.examples = "pktbench compare base.json new.json --normalize udp_sendto --tolerance 20\n"
		    "each rate relative to udp_sendto of its own run, so two machines compare\n"
		    "pktbench compare base.json new.json --delivered-tolerance 0 --format json\n"
		    "no loss allowed beyond BASE's; the verdicts as JSON",
	.opts = pb_cmp_opts,
	.nopts = sizeof(pb_cmp_opts) / sizeof(pb_cmp_opts[0]),
	.size = sizeof(struct pb_compare_opts),
	.args = "BASE.json and NEW.json",
	.nargs = 2,
	.args_glob = "*.json",
	.run = pb_compare_main,
};

void pb_compare_opts_init(struct pb_compare_opts *o)
{
	char err[256];

	/* the rows' defaults are constants: a failure here is a bug the unit test shows */
	if (pb_cmd_defaults(&pb_cmd_compare, o, err, sizeof(err)))
		pb_log_say("pktbench compare", err);
}

int pb_compare_main(int argc, char **argv)
{
	struct pb_compare_opts o;
	struct pb_compare_input base = { 0 }, new_ = { 0 };
	struct pb_compare_result res = { 0 };
	enum pb_opt_action action;
	char err[512], *files[2] = { NULL, NULL };
	int ret, status = PB_CMP_EXIT_BADINPUT;

	if (pb_cmd_parse(&pb_cmd_compare, &o, argc, argv, &action, files, err, sizeof(err))) {
		pb_log_say("pktbench compare", err);
		return PB_CMP_EXIT_BADINPUT;
	}
	if (action == PB_OPT_HELP) {
		pb_cmd_usage(&pb_cmd_compare, stdout);
		return PB_CMP_EXIT_PASS;
	}
	o.width = pb_box_out_width(STDOUT_FILENO, o.wide);
	ret = pb_compare_load(files[0], &base, err, sizeof(err));
	if (!ret)
		ret = pb_compare_load(files[1], &new_, err, sizeof(err));
	if (ret) {
		pb_log_say("pktbench compare", err);
		goto out;
	}
	ret = pb_compare(&base, &new_, &o, &res);
	if (ret) {
		pb_log_say("pktbench compare", res.err);
		goto out;
	}
	ret = o.format == PB_CMP_FORMAT_JSON ? pb_compare_write_json(stdout, &res)
					     : pb_compare_write_table(stdout, &res);
	if (ret) {
		fprintf(stderr, "pktbench compare: cannot write the comparison: %s\n",
			strerror(-ret));
		goto out;
	}
	status = pb_compare_failed(&res) ? PB_CMP_EXIT_FAIL : PB_CMP_EXIT_PASS;
out:
	pb_compare_result_free(&res);
	pb_compare_input_free(&new_);
	pb_compare_input_free(&base);
	return status;
}
