// SPDX-License-Identifier: MIT
/* `pktbench merge A.json B.json ...`: its option table, then load, sum, write (merge.h). */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "box.h"
#include "log.h"
#include "merge.h"
#include "readfile.h"

#define OFF(field) offsetof(struct pb_merge_opts, field)
#define MERGE_CELL 24

static const char *const pb_merge_format_names[] = { "table", "json", NULL };

static const struct pb_opt pb_merge_opts_tab[] = {
	{ "format", 'f', OPT_ENUM, OFF(format), 0, "table", 0, 0, "table|json", "output format",
	  pb_merge_format_names },
	{ "wide", 0, OPT_FLAG, OFF(wide), 0, NULL, 0, 0, NULL,
	  "every column, however wide the terminal (a narrow one drops columns first)" },
	{ "partial", 0, OPT_FLAG, OFF(partial), 0, NULL, 0, 0, NULL,
	  "merge a test with shards missing, marked partial (in the table and the JSON) with the "
	  "shards it lacks; exit 1" },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help" },
};

const struct pb_cmd pb_cmd_merge = {
	.name = "merge",
	.summary = "sum many senders' result sets into one table for the test",
	.synopsis = "A.json [B.json ...] [options]",
	.description =
		"Merges the JSON result sets (--format json) of the senders of one test, each "
		"sender's file once. A file may also be a log holding them among other lines, "
		"as `kubectl logs` and `podman logs` give (stderr mixed in, --prefix, "
		"--timestamps and -t, also a second stamp where the runtime kept a line as two "
		"parts, several pods' logs in one), and - reads standard input; each result set found in a log is "
		"named FILE:LINE [POD] after the line it begins on. Rows are matched by test id "
		"(where the rows carry one), "
		"method and frame size. Packets/s, Mb/s, Gb/s, frames and bytes are summed over "
		"the ok rows; delivered % is the test's own (all frames delivered over all sent) "
		"and Worst % the lowest sender's. Latency percentiles are computed from the "
		"senders' latency histograms added bucket by bucket (the receiver's log-linear "
		"buckets, within 0.8 %), never by averaging percentiles. Rows that were not ok "
		"are counted and left out of the sums. What cannot be one test is refused in one "
		"line naming the file: the same file twice, a row twice in a file, a run or a "
		"shard twice, shards of different counts or of different tests, a shard that is "
		"not I/N, a shard missing (unless --partial), a count beyond 2^63-1 or a sum that "
		"passes it, a rate no sender reaches, delivered above sent. A sharded row says "
		"how many of how many shards it holds; a shard below 98 % of the rate it was "
		"asked for is named, with the test's rate against the rate asked.",
	.exit_status =
		"0    merged; every row was ok, every shard there\n"
		"1    merged, but a sender's row was not ok (skipped or failed), or "
		"(--partial) shards are missing\n"
		"2    unreadable input, input that cannot be one test, or bad arguments (one "
		"line on stderr)",
	.examples = "pktbench merge sender-0.json sender-1.json sender-2.json\n"
		    "one table for a test of three senders\n"
		    "pktbench merge results/*.json --format json > test.json\n"
		    "the same, as JSON\n"
		    "kubectl -n pktbench logs -l job-name=pktbench-senders --prefix --tail=-1 | "
		    "pktbench merge -\n"
		    "the same, from the senders' pods' logs\n"
		    "pktbench merge sender-0.json sender-2.json --partial\n"
		    "two shards of three, marked partial (shard 1/3 missing)",
	.opts = pb_merge_opts_tab,
	.nopts = sizeof(pb_merge_opts_tab) / sizeof(pb_merge_opts_tab[0]),
	.size = sizeof(struct pb_merge_opts),
	.args = "one or more result files or logs (- for standard input)",
	.nargs = PB_MERGE_MAX_FILES,
	.min_args = 1,
	.args_glob = "*.json",
	.run = pb_merge_main,
};

/* ---- writers -------------------------------------------------------------------------------- */

enum { MC_METHOD, MC_BYTES, MC_SENDERS, MC_PPS, MC_WIRE, MC_DELIV, MC_WORST, MC_P50, MC_P99, MC_N };

struct merge_trow {
	char cell[MC_N][MERGE_CELL];
};

static void merge_pct_cell(char *cell, bool known, double v)
{
	if (known)
		pb_box_cell(cell, MERGE_CELL, "%.2f", v);
	else
		pb_box_cell(cell, MERGE_CELL, "-");
}

static void merge_us_cell(char *cell, bool known, double v)
{
	if (known)
		pb_box_cell(cell, MERGE_CELL, "%.1f", v);
	else
		pb_box_cell(cell, MERGE_CELL, "-");
}

/* Under the table: a row's shards if some are missing, and the shards behind their pace. */
static void merge_row_notes(FILE *f, const struct pb_merge_row *m, unsigned int width)
{
	char what[160], miss[96];
	unsigned int k;

	snprintf(what, sizeof(what), "%s %" PRIu64 " B%s%s", m->method, m->frame_bytes,
		 m->point[0] ? " " : "", m->point);
	if (m->partial) {
		pb_merge_missing(m, miss, sizeof(miss));
		pb_box_note(f, width,
			    "  partial: %s is %u of %u shards (missing %s): its sums are those "
			    "shards' alone, not the test's",
			    what, m->shards_merged, m->shards_total, miss);
	}
	if (m->skew_known)
		pb_box_note(f, width,
			    "  %s: the latest sender woke %.1f us after --start-at (start_skew_us; "
			    "when each shard's first frame arrived: the agent's /v1/tests/UUID)",
			    what, m->worst_skew_us);
	if (!m->behind)
		return;
	for (k = 0; k < m->nmem; k++) {
		const struct pb_merge_member *p = &m->mem[k];

		if (!pb_merge_behind(p))
			continue;
		if (p->has_shard)
			pb_box_note(f, width,
				    "  %s: shard %u/%u (%s) reached %.1f %% of its %.0f pps asked",
				    what, p->shard_index, p->shard_count, p->file,
				    100 * p->pps / p->target_pps, p->target_pps);
		else
			pb_box_note(f, width, "  %s: %s reached %.1f %% of its %.0f pps asked",
				    what, p->file, 100 * p->pps / p->target_pps, p->target_pps);
	}
	if (m->target_known)
		pb_box_note(f, width,
			    "  %s: the test sent %.0f of the %.0f pps asked (%.1f %%): short by "
			    "the sender%s behind",
			    what, m->pps, m->target_pps, 100 * m->pps / m->target_pps,
			    m->behind > 1 ? "s" : "");
}

int pb_merge_write_table(FILE *f, const struct pb_merge_result *res, unsigned int width)
{
	/* on a narrow terminal, dropped from the highest rank down */
	struct pb_box_col cols[MC_N] = {
		[MC_METHOD] = { "Method", true },
		[MC_BYTES] = { "Frame", .drop = 4 }, /* the frame's bytes, not bytes sent */
		[MC_SENDERS] = { "Senders", .abbr = "Snd" },
		[MC_PPS] = { "pps" },
		[MC_WIRE] = { "Wire Gb/s", .abbr = "Gb/s", .drop = 3 },
		[MC_DELIV] = { "Deliv %" },
		[MC_WORST] = { "Worst %", .drop = 2 },
		[MC_P50] = { "p50 us", .drop = 1 },
		[MC_P99] = { "p99 us" },
	};
	struct merge_trow *rows;
	const char *last_test = NULL;
	unsigned int i, start = 0;

	rows = calloc(res->n ? res->n : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < res->n; i++) {
		const struct pb_merge_row *m = &res->rows[i];
		bool ok = m->senders > m->not_ok;

		pb_box_cell(rows[i].cell[MC_METHOD], MERGE_CELL, "%s", m->method);
		pb_box_cell(rows[i].cell[MC_BYTES], MERGE_CELL, "%" PRIu64, m->frame_bytes);
		if (m->not_ok)
			pb_box_cell(rows[i].cell[MC_SENDERS], MERGE_CELL, "%u (%u not ok)",
				    m->senders, m->not_ok);
		else
			pb_box_cell(rows[i].cell[MC_SENDERS], MERGE_CELL, "%u", m->senders);
		pb_box_cell(rows[i].cell[MC_PPS], MERGE_CELL, "%.0f", m->pps);
		pb_box_cell(rows[i].cell[MC_WIRE], MERGE_CELL, "%.3f", m->wire_gbps);
		merge_pct_cell(rows[i].cell[MC_DELIV], ok && m->delivered_known, m->delivered_pct);
		merge_pct_cell(rows[i].cell[MC_WORST], ok && m->delivered_known,
			       m->worst_delivered_pct);
		merge_us_cell(rows[i].cell[MC_P50], m->lat_known, m->p50_us);
		merge_us_cell(rows[i].cell[MC_P99], m->lat_known, m->p99_us);
	}
	/* one table per test id, in the order the tests first appear */
	for (i = 0; i <= res->n; i++) {
		const char *t = i < res->n ? res->rows[i].test_id : NULL;

		if (i && (!t || strcmp(t, last_test))) {
			if (last_test[0])
				fprintf(f, "test %s\n", last_test);
			pb_box_table(f, cols, MC_N, rows + start, sizeof(*rows), MERGE_CELL,
				     i - start, width);
			start = i;
		}
		last_test = t;
	}
	pb_box_note(f, width,
		    "  %u result files; Deliv %% = all delivered / all sent, Worst %% = the lowest "
		    "sender's; latency from the senders' histograms added, not averaged",
		    res->files);
	for (i = 0; i < res->n; i++)
		merge_row_notes(f, &res->rows[i], width);
	free(rows);
	return ferror(f) ? -EIO : 0;
}

static int merge_add(struct json_object *o, const char *k, struct json_object *v)
{
	if (!v && k)
		return -ENOMEM;
	return json_object_object_add(o, k, v) ? -ENOMEM : 0;
}

/* A null where a figure is unknown (json-c adds NULL as null). */
static int merge_add_null(struct json_object *o, const char *k)
{
	return json_object_object_add(o, k, NULL) ? -ENOMEM : 0;
}

/* shards_merged of shards_total, the missing ones, partial; the asked rate, who fell behind. */
static int merge_json_shards(struct json_object *o, const struct pb_merge_row *m)
{
	struct json_object *miss, *behind;
	unsigned int k;
	int err = 0;

	if (m->shards_total) {
		err = merge_add(o, "shards_merged", json_object_new_int((int)m->shards_merged));
		err = err
			      ?: merge_add(o, "shards_total",
					   json_object_new_int((int)m->shards_total));
		miss = json_object_new_array();
		err = err ?: merge_add(o, "shards_missing", miss);
		for (k = 0; !err && k < m->shards_total; k++) {
			char sh[24];

			if (pb_merge_has_shard(m, k))
				continue;
			snprintf(sh, sizeof(sh), "%u/%u", k, m->shards_total);
			if (json_object_array_add(miss, json_object_new_string(sh)))
				err = -ENOMEM;
		}
	} else {
		err = merge_add_null(o, "shards_merged");
		err = err ?: merge_add_null(o, "shards_total");
		err = err ?: merge_add_null(o, "shards_missing");
	}
	err = err ?: merge_add(o, "partial", json_object_new_boolean(m->partial));
	if (m->target_known) {
		err = err ?: merge_add(o, "target_pps", json_object_new_double(m->target_pps));
		err = err
			      ?: merge_add(o, "reached_pct",
					   json_object_new_double(100 * m->pps / m->target_pps));
	} else {
		err = err ?: merge_add_null(o, "target_pps");
		err = err ?: merge_add_null(o, "reached_pct");
	}
	behind = json_object_new_array();
	err = err ?: merge_add(o, "behind_pace", behind);
	for (k = 0; !err && k < m->nmem; k++) {
		const struct pb_merge_member *p = &m->mem[k];
		struct json_object *b;
		char sh[24];

		if (!pb_merge_behind(p))
			continue;
		b = json_object_new_object();
		err = b && !json_object_array_add(behind, b) ? 0 : -ENOMEM;
		if (err) {
			json_object_put(b);
			break;
		}
		snprintf(sh, sizeof(sh), "%u/%u", p->shard_index, p->shard_count);
		err = p->has_shard ? merge_add(b, "shard", json_object_new_string(sh))
				   : merge_add_null(b, "shard");
		err = err ?: merge_add(b, "file", json_object_new_string(p->file));
		err = err ?: merge_add(b, "pps", json_object_new_double(p->pps));
		err = err ?: merge_add(b, "target_pps", json_object_new_double(p->target_pps));
		err = err
			      ?: merge_add(b, "reached_pct",
					   json_object_new_double(100 * p->pps / p->target_pps));
	}
	return err;
}

static int merge_json_row(struct json_object *arr, const struct pb_merge_row *m)
{
	struct json_object *o = json_object_new_object(), *l;
	bool ok = m->senders > m->not_ok, d = ok && m->delivered_known;
	int err;

	if (!o || json_object_array_add(arr, o)) {
		json_object_put(o);
		return -ENOMEM;
	}
	err = merge_add(o, "test_id", m->test_id[0] ? json_object_new_string(m->test_id) : NULL);
	if (!m->test_id[0])
		err = 0;
	err = err ?: merge_add(o, "method", json_object_new_string(m->method));
	err = err
		      ?: (m->point[0] ? merge_add(o, "point", json_object_new_string(m->point))
				      : merge_add_null(o, "point"));
	err = err ?: merge_add(o, "frame_bytes", json_object_new_int64((int64_t)m->frame_bytes));
	err = err ?: merge_add(o, "senders", json_object_new_int((int)m->senders));
	err = err ?: merge_add(o, "senders_not_ok", json_object_new_int((int)m->not_ok));
	err = err ?: merge_add(o, "pps", json_object_new_double(m->pps));
	err = err ?: merge_add(o, "app_mbps", json_object_new_double(m->app_mbps));
	err = err ?: merge_add(o, "wire_gbps", json_object_new_double(m->wire_gbps));
	err = err ?: merge_add(o, "frames_sent", json_object_new_int64((int64_t)m->frames_sent));
	err = err ?: merge_add(o, "bytes_sent", json_object_new_int64((int64_t)m->bytes_sent));
	err = err ?: merge_json_shards(o, m);
	err = err
		      ?: (m->skew_known
				  ? merge_add(o, "start_skew_us_worst",
					      json_object_new_double(m->worst_skew_us))
				  : (json_object_object_add(o, "start_skew_us_worst", NULL), 0));
	if (err)
		return err;
	if (d) {
		err = merge_add(o, "frames_delivered",
				json_object_new_int64((int64_t)m->frames_delivered));
		err = err
			      ?: merge_add(o, "delivered_pct",
					   json_object_new_double(m->delivered_pct));
		err = err
			      ?: merge_add(o, "worst_delivered_pct",
					   json_object_new_double(m->worst_delivered_pct));
	} else {
		json_object_object_add(o, "frames_delivered", NULL);
		json_object_object_add(o, "delivered_pct", NULL);
		json_object_object_add(o, "worst_delivered_pct", NULL);
	}
	if (err || !m->lat_known)
		return err;
	l = json_object_new_object();
	err = merge_add(o, "latency", l);
	err = err ?: merge_add(l, "probes_sent", json_object_new_int64((int64_t)m->probes_sent));
	err = err
		      ?: merge_add(l, "probes_received",
				   json_object_new_int64((int64_t)m->probes_received));
	err = err ?: merge_add(l, "lost", json_object_new_int64((int64_t)m->probes_lost));
	err = err ?: merge_add(l, "samples", json_object_new_int64((int64_t)m->samples));
	err = err ?: merge_add(l, "min_us", json_object_new_double(m->min_us));
	err = err ?: merge_add(l, "p50_us", json_object_new_double(m->p50_us));
	err = err ?: merge_add(l, "p90_us", json_object_new_double(m->p90_us));
	err = err ?: merge_add(l, "p99_us", json_object_new_double(m->p99_us));
	err = err ?: merge_add(l, "p999_us", json_object_new_double(m->p999_us));
	err = err ?: merge_add(l, "max_us", json_object_new_double(m->max_us));
	return err;
}

int pb_merge_write_json(FILE *f, const struct pb_merge_result *res)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	unsigned int i;
	int err;

	err = root && arr ? 0 : -ENOMEM;
	err = err ?: merge_add(root, "schema", json_object_new_string("pktbench-merge/1"));
	err = err ?: merge_add(root, "files", json_object_new_int((int)res->files));
	err = err ?: merge_add(root, "partial", json_object_new_boolean(res->partial));
	if (!err) {
		err = merge_add(root, "results", arr);
		if (!err)
			arr = NULL;
	}
	for (i = 0; !err && i < res->n; i++)
		err = merge_json_row(json_object_object_get(root, "results"), &res->rows[i]);
	if (!err &&
	    fprintf(f, "%s\n",
		    json_object_to_json_string_ext(
			    root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		err = -EIO;
	json_object_put(arr);
	json_object_put(root);
	return err;
}

/* ---- the command ---------------------------------------------------------------------------- */

int pb_merge_main(int argc, char **argv)
{
	struct pb_merge_opts o;
	struct pb_merge_result res = { 0 };
	enum pb_opt_action action;
	char err[512], **files = calloc(PB_MERGE_MAX_FILES + 1, sizeof(*files));
	unsigned int i, not_ok = 0, stdin_n = 0;
	int ret, status = 2;

	if (!files) {
		pb_log_say("pktbench merge", "out of memory");
		return 2;
	}
	if (pb_cmd_parse(&pb_cmd_merge, &o, argc, argv, &action, files, err, sizeof(err))) {
		pb_log_say("pktbench merge", err);
		goto out;
	}
	if (action == PB_OPT_HELP) {
		pb_cmd_usage(&pb_cmd_merge, stdout);
		status = 0;
		goto out;
	}
	/* a second "-" would read what the first left: nothing, "not JSON" */
	for (i = 0; files[i]; i++)
		stdin_n += !strcmp(files[i], "-");
	if (stdin_n > 1) {
		pb_log_say("pktbench merge",
			   "'-' (standard input) may be given once: it holds one stream, which "
			   "may hold many result sets or logs");
		goto out;
	}
	for (i = 0; files[i]; i++) {
		char *text;
		size_t len;

		ret = pb_results_read(files[i], &text, &len, err, sizeof(err));
		if (!ret) {
			ret = pb_merge_add_text(&res, text, files[i], err, sizeof(err));
			free(text);
		}
		if (ret) {
			pb_log_say("pktbench merge", err);
			goto out;
		}
	}
	ret = pb_merge_finish(&res, o.partial, err, sizeof(err));
	if (ret) {
		pb_log_say("pktbench merge", err);
		goto out;
	}
	o.width = pb_box_out_width(STDOUT_FILENO, o.wide);
	ret = o.format == PB_MERGE_FORMAT_JSON ? pb_merge_write_json(stdout, &res)
					       : pb_merge_write_table(stdout, &res, o.width);
	if (ret) {
		fprintf(stderr, "pktbench merge: cannot write: %s\n", strerror(-ret));
		goto out;
	}
	for (i = 0; i < res.n; i++)
		not_ok += res.rows[i].not_ok;
	status = not_ok || res.partial ? 1 : 0;
out:
	pb_merge_result_free(&res);
	free(files);
	return status;
}
