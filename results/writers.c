// SPDX-License-Identifier: MIT
/* Table, JSON and CSV over finished results, and the atomic file write all three share. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json.h>

#include "box.h"
#include "fields.h"
#include "envinfo.h"
#include "writers.h"

/* The null method's mode: it sends nothing, so its row measures the harness, not a path. */
#define PB_MODE_NOWIRE "no-wire"

/* ---- one list of fields per result, read by both JSON and CSV so they carry the same data */

/* A raw counter delta, or null when that side's counters could not be read. */
static struct pb_field pb_fcount(const char *name, bool have, uint64_t v)
{
	return have ? pb_fu64(name, v) : pb_fnull(name);
}

static bool pb_dnull(double d)
{
	return !isfinite(d);
}

/* A double where it means something (finite and asked for), else null. */
static struct pb_field pb_fdbl_if(const char *name, bool have, double d)
{
	return have && !pb_dnull(d) ? pb_fdbl(name, d) : pb_fnull(name);
}

/*
 * What a summary row keeps of the run fields: who and which frame. The rest is its trials',
 * in their own rows, so nothing is counted twice by a reader that adds rows up.
 */
static bool pb_summary_keeps(const char *name)
{
	static const char *const keep[] = {
		"method",      "mode",	    "point",   "status",      "reason",
		"interrupted", "timed_out", "streams", "frame_bytes", "wire_frame_bytes",
		"vlan",	       "padded",    "imix",    NULL,
	};
	unsigned int i;

	for (i = 0; keep[i]; i++)
		if (!strcmp(keep[i], name))
			return true;
	return false;
}

/*
 * pktbench rfc2544's fields after the run's, the same list on every row of its report (null
 * where a field is not the row's), so CSV columns line up.
 */
static void pb_rfc_fields(const struct pb_result *r, struct pb_fields *fs)
{
	const struct pb_rfc_row *f = &r->rfc;
	bool rfc = f->test != PB_RFC_NONE, sum = rfc && f->summary, trial = rfc && !sum;
	bool tput = sum && f->test == PB_RFC_THROUGHPUT && r->status == PB_STATUS_OK;
	bool b2b = f->test == PB_RFC_B2B, loss = f->test == PB_RFC_LOSS;
	bool b2b_sum = sum && b2b && r->status == PB_STATUS_OK;
	bool lat = sum && f->test == PB_RFC_LATENCY && r->status == PB_STATUS_OK;
	bool mlr = sum && f->goal && r->status == PB_STATUS_OK;
	unsigned int i, first = fs->n;

	if (sum) /* the run fields of a summary row are its trials', in their rows */
		for (i = 0; i < first; i++)
			if (!pb_summary_keeps(fs->f[i].name))
				fs->f[i] = pb_fnull(fs->f[i].name);
	pb_add(fs, rfc ? pb_fstr("test", pb_rfc_test_name(f->test), 0) : pb_fnull("test"));
	pb_add(fs, pb_fbool("summary", sum));
	pb_add(fs, rfc ? pb_fu64("frame_size", f->frame_size) : pb_fnull("frame_size"));
	pb_add(fs, trial ? pb_fu64("trial", f->trial) : pb_fnull("trial"));
	pb_add(fs, trial && b2b && f->repetition ? pb_fu64("repetition", f->repetition)
						 : pb_fnull("repetition"));
	pb_add(fs, pb_fdbl_if("load_pct", loss && f->load_pct >= 0, f->load_pct));
	pb_add(fs, pb_fdbl_if("loss_pct", trial || (sum && (loss || tput)), f->loss_pct));
	pb_add(fs, trial ? pb_fbool("passed", f->passed) : pb_fnull("passed"));
	pb_add(fs, (trial && b2b && f->burst_frames) || b2b_sum
			   ? pb_fu64("burst_frames", f->burst_frames)
			   : pb_fnull("burst_frames"));
	pb_add(fs, pb_fdbl_if("throughput_pps", tput, f->throughput_pps));
	pb_add(fs, pb_fdbl_if("throughput_wire_gbps", tput, f->throughput_wire_gbps));
	pb_add(fs, tput || b2b_sum ? pb_fbool("sender_limited", f->sender_limited)
				   : pb_fnull("sender_limited"));
	pb_add(fs, tput ? pb_fbool("sender_pushed_back", f->pushed_back)
			: pb_fnull("sender_pushed_back"));
	pb_add(fs, pb_fdbl_if("max_pps", sum && f->max_pps > 0, f->max_pps));
	pb_add(fs, pb_fdbl_if("burst_frames_mean", b2b_sum, f->burst_mean));
	pb_add(fs,
	       b2b_sum ? pb_fu64("burst_frames_min", f->burst_min) : pb_fnull("burst_frames_min"));
	pb_add(fs,
	       b2b_sum ? pb_fu64("burst_frames_max", f->burst_max) : pb_fnull("burst_frames_max"));
	pb_add(fs, pb_fdbl_if("burst_frames_stddev", b2b_sum, f->burst_stddev));
	pb_add(fs, b2b_sum ? pb_fu64("repetitions", f->repetitions) : pb_fnull("repetitions"));
	pb_add(fs, sum ? pb_fu64("trials", f->trials) : pb_fnull("trials"));
	pb_add(fs, sum && f->search[0] ? pb_fstr("search", f->search, sizeof(f->search))
				       : pb_fnull("search"));
	/* --search mlr: RFC 9971's Goal Result, a row per goal */
	pb_add(fs, mlr ? pb_fstr("goal", f->goal_spec, sizeof(f->goal_spec)) : pb_fnull("goal"));
	pb_add(fs, pb_fdbl_if("goal_loss_ratio", mlr, f->mlr.loss_ratio));
	pb_add(fs, pb_fdbl_if("goal_final_trial_s", mlr, f->mlr.final_s));
	pb_add(fs, pb_fdbl_if("goal_duration_sum_s", mlr, f->mlr.sum_s));
	pb_add(fs, pb_fdbl_if("goal_exceed_ratio", mlr, f->mlr.exceed_ratio));
	pb_add(fs, pb_fdbl_if("goal_initial_trial_s", mlr, f->mlr.initial_s));
	pb_add(fs, pb_fdbl_if("goal_width", mlr, f->mlr.width));
	pb_add(fs, pb_fdbl_if("conditional_throughput_pps", mlr && isfinite(f->lower_pps),
			      f->throughput_pps));
	pb_add(fs,
	       pb_fdbl_if("relevant_lower_bound_pps", mlr && isfinite(f->lower_pps), f->lower_pps));
	pb_add(fs,
	       pb_fdbl_if("relevant_upper_bound_pps", mlr && isfinite(f->upper_pps), f->upper_pps));
	pb_add(fs, mlr ? pb_fstr("goal_result", f->regular ? "regular" : "irregular", 0)
		       : pb_fnull("goal_result"));
	pb_add(fs, pb_fdbl_if("search_trial_s", mlr, f->search_s));
	/* 26.2's answer, with the latency object's names */
	pb_add(fs, pb_fdbl_if("latency_rate_pps", lat, f->lat_rate_pps));
	pb_add(fs, pb_fdbl_if("p50_us", lat, f->p50_us));
	pb_add(fs, pb_fdbl_if("p99_us", lat, f->p99_us));
	pb_add(fs, pb_fdbl_if("max_us", lat, f->max_us));
	pb_add(fs, pb_fdbl_if("mean_us", lat, f->mean_us));
}

static void pb_result_fields(const struct pb_result *r, struct pb_fields *fs, bool rfc)
{
	const struct pb_raw_counts *c = &r->raw;
	bool rx = r->has_receiver && r->delivered_known;
	/* A percentage of nothing sent is undefined, not 0 %. */
	bool dpct = pb_result_has_delivered(r), apct = pb_result_has_accounted(r);
	bool figures = r->status == PB_STATUS_OK || r->measured;

	fs->n = 0;
	pb_add(fs, pb_fstr("method", r->method, sizeof(r->method)));
	pb_add(fs, pb_fstr("mode", r->mode, sizeof(r->mode)));
	pb_add(fs, r->point[0] ? pb_fstr("point", r->point, sizeof(r->point)) : pb_fnull("point"));
	pb_add(fs, pb_fstr("status", pb_status_name(r->status), 0));
	pb_add(fs,
	       r->reason[0] ? pb_fstr("reason", r->reason, sizeof(r->reason)) : pb_fnull("reason"));
	pb_add(fs, pb_fbool("interrupted", r->interrupted));
	pb_add(fs, pb_fbool("timed_out", r->timed_out));
	pb_add(fs, pb_fu64("runs", r->runs ? r->runs : 1));
	pb_add(fs, r->run_id ? pb_fu64("run_id", r->run_id) : pb_fnull("run_id"));
	pb_add(fs, r->test_id[0] ? pb_fstr("test_id", r->test_id, sizeof(r->test_id))
				 : pb_fnull("test_id"));
	pb_add(fs, r->shard[0] ? pb_fstr("shard", r->shard, sizeof(r->shard)) : pb_fnull("shard"));
	pb_add(fs, r->node[0] ? pb_fstr("node", r->node, sizeof(r->node)) : pb_fnull("node"));
	pb_add(fs, r->start_planned_ns ? pb_fu64("start_planned_ns", (uint64_t)r->start_planned_ns)
				       : pb_fnull("start_planned_ns"));
	pb_add(fs, r->start_planned_ns ? pb_fu64("start_actual_ns", (uint64_t)r->start_actual_ns)
				       : pb_fnull("start_actual_ns"));
	pb_add(fs, r->start_planned_ns
			   ? pb_fdbl("start_skew_us",
				     (double)(r->start_actual_ns - r->start_planned_ns) / 1e3)
			   : pb_fnull("start_skew_us"));
	pb_add(fs, r->start_planned_ns && r->start_cpu_wait_ns >= 0
			   ? pb_fdbl("start_cpu_wait_us", (double)r->start_cpu_wait_ns / 1e3)
			   : pb_fnull("start_cpu_wait_us"));
	pb_add(fs, pb_fdbl("duration_s", r->duration_s));
	pb_add(fs, pb_fdbl("link_wait_s", r->link_wait_s));
	pb_add(fs, pb_fdbl("link_down_s", r->link_down_s));
	pb_add(fs, pb_fu64("link_downs", r->link_downs));
	pb_add(fs, pb_fu64("frame_bytes", r->frame_bytes));
	pb_add(fs, pb_fu64("wire_frame_bytes", pb_wire_bytes(r->frame_bytes, r->vlan)));
	pb_add(fs, pb_fbool("vlan", r->vlan));
	pb_add(fs, pb_fbool("padded", r->padded));
	pb_add(fs, pb_fbool("imix", r->imix));
	pb_add(fs, pb_fu64("streams", r->streams));
	pb_add(fs,
	       r->target_pps > 0 ? pb_fdbl("target_pps", r->target_pps) : pb_fnull("target_pps"));
	pb_add(fs, pb_fu64("frames_sent", r->frames_sent));
	pb_add(fs, pb_fbool("has_receiver", r->has_receiver));
	pb_add(fs, rx ? pb_fu64("frames_delivered", r->frames_delivered)
		      : pb_fnull("frames_delivered"));
	pb_add(fs,
	       rx ? pb_fu64("bytes_delivered", r->bytes_delivered) : pb_fnull("bytes_delivered"));
	pb_add(fs, r->rx_error[0] ? pb_fstr("receiver_error", r->rx_error, sizeof(r->rx_error))
				  : pb_fnull("receiver_error"));
	pb_add(fs, rx ? pb_fu64("frames_foreign", r->frames_foreign) : pb_fnull("frames_foreign"));
	pb_add(fs, rx ? pb_fu64("frames_extra", r->frames_extra) : pb_fnull("frames_extra"));
	pb_add(fs, rx ? pb_fu64("frames_duplicate", r->frames_duplicate)
		      : pb_fnull("frames_duplicate"));
	pb_add(fs, rx ? pb_fu64("frames_reordered", r->frames_reordered)
		      : pb_fnull("frames_reordered"));
	pb_add(fs, rx ? pb_fu64("frames_out_of_window", r->frames_out_of_window)
		      : pb_fnull("frames_out_of_window"));
	pb_add(fs, rx ? pb_fu64("frames_unchecked", r->frames_unchecked)
		      : pb_fnull("frames_unchecked"));
	pb_add(fs, rx ? pb_fu64("frames_corrupt", r->frames_corrupt) : pb_fnull("frames_corrupt"));
	pb_add(fs, rx ? pb_fu64("frames_not_for_host", r->frames_not_for_host)
		      : pb_fnull("frames_not_for_host"));
	pb_add(fs, rx ? pb_fu64("flows_seen", r->flows_seen) : pb_fnull("flows_seen"));
	pb_add(fs, rx && r->rx_queues > 1 ? pb_fdbl("rx_queue_cv", r->rx_queue_cv)
					  : pb_fnull("rx_queue_cv"));
	pb_add(fs, r->netting != PB_NET_SKIPPED ? pb_fu64("frames_dropped", r->frames_dropped)
						: pb_fnull("frames_dropped"));
	pb_add(fs, pb_fu64("frames_retried", r->frames_retried));
	pb_add(fs, pb_fu64("frames_undrained", r->frames_undrained));
	pb_add(fs, pb_fu64("send_errors", r->send_errors));
	/* where a wait the probes' stamps do not see went: the path held the sender back */
	pb_add(fs, pb_fu64("send_eagain", r->send_eagain));
	pb_add(fs, pb_fdbl("sender_blocked_s", r->send_blocked_s));
	pb_add(fs, r->target_pps > 0 ? pb_fu64("paced_behind", r->paced_behind)
				     : pb_fnull("paced_behind"));
	pb_add(fs, r->target_pps > 0 ? pb_fdbl("sender_in_send_s", r->send_call_s)
				     : pb_fnull("sender_in_send_s"));
	pb_add(fs, pb_fu64("sender_cpu_moves", r->sender_cpu_moves));
	/* how the paced sender waited (--pace), and how late its frames went against the rate */
	pb_add(fs, r->pacing ? pb_fstr("pacing", r->pacing, 0) : pb_fnull("pacing"));
	pb_add(fs, r->pacing ? pb_fdbl("pace_error_p50_us", r->pace_p50_us)
			     : pb_fnull("pace_error_p50_us"));
	pb_add(fs, r->pacing ? pb_fdbl("pace_error_p99_us", r->pace_p99_us)
			     : pb_fnull("pace_error_p99_us"));
	pb_add(fs, r->pacing ? pb_fdbl("pace_error_max_us", r->pace_max_us)
			     : pb_fnull("pace_error_max_us"));
	pb_add(fs, pb_fbool("pushed_back", r->pushed_back));
	pb_add(fs, pb_fbool("receiver_restarted", r->rx_restarted));
	pb_add(fs, pb_fbool("receiver_evicted", r->rx_evicted));
	/* the raw counter deltas the netting used, as read */
	pb_add(fs, pb_fstr("netting", pb_netting_name(r->netting), 0));
	pb_add(fs, pb_fu64("netting_deficit", r->netting_deficit));
	pb_add(fs, pb_fbool("shared_iface", r->shared_iface));
	pb_add(fs, pb_fcount("tx_packets", c->have_tx, c->tx_packets));
	pb_add(fs, pb_fcount("tx_dropped", c->have_tx, c->tx_dropped));
	pb_add(fs, pb_fcount("qdisc_drops", c->have_tx, c->qdisc_drops));
	pb_add(fs, pb_fcount("xdp_xmit_errors", c->have_tx, c->xdp_xmit_errors));
	pb_add(fs, pb_fcount("rx_packets", c->have_rx, c->rx_packets));
	pb_add(fs, pb_fcount("rx_dropped", c->have_rx, c->rx_dropped));
	pb_add(fs, pb_fcount("rx_missed_errors", c->have_rx, c->rx_missed_errors));
	pb_add(fs, pb_fcount("rx_fifo_errors", c->have_rx, c->rx_fifo_errors));
	pb_add(fs, pb_fcount("rx_driver_drops", c->have_rx, c->rx_driver_drops));
	pb_add(fs, pb_fcount("dut_rx_dropped", c->have_dut, c->dut_rx_dropped));
	pb_add(fs, pb_fcount("dut_tx_dropped", c->have_dut, c->dut_tx_dropped));
	pb_add(fs, pb_fcount("dut_qdisc_drops", c->have_dut, c->dut_qdisc_drops));
	pb_add(fs, pb_fdbl("cpu_s", r->cpu_s));
	pb_add(fs, pb_fu64("syscalls", r->syscalls));
	pb_add(fs, figures && r->frames_sent ? pb_fdbl("syscalls_per_frame", r->syscalls_per_frame)
					     : pb_fnull("syscalls_per_frame"));
	pb_add(fs, pb_fdbl("pps", r->pps));
	/* set by pb_result_pick for a median of --repeat runs only */
	pb_add(fs, r->pps_max > 0 ? pb_fdbl("pps_min", r->pps_min) : pb_fnull("pps_min"));
	pb_add(fs, r->pps_max > 0 ? pb_fdbl("pps_max", r->pps_max) : pb_fnull("pps_max"));
	pb_add(fs, r->nrounds > 1 ? pb_fdbl("rounds_spread_pct", r->rounds_spread_pct)
				  : pb_fnull("rounds_spread_pct"));
	pb_add(fs, pb_fdbl("offered_pps", r->offered_pps));
	pb_add(fs, pb_fdbl("app_mbps", r->app_mbps));
	pb_add(fs, pb_fdbl("wire_gbps", r->wire_gbps));
	pb_add(fs, dpct ? pb_fdbl("delivered_pct", r->delivered_pct) : pb_fnull("delivered_pct"));
	pb_add(fs, apct ? pb_fdbl("accounted_pct", r->accounted_pct) : pb_fnull("accounted_pct"));
	pb_add(fs, pb_fdbl("cpu_ns_per_pkt", r->cpu_ns_per_pkt));
	if (rfc)
		pb_rfc_fields(r, fs);
}

/*
 * The latency probes' figures (--latency): JSON's `latency` object, and CSV's latency_
 * columns. Unknown is null: counts without a receiver, latency without comparable clocks.
 */
static void pb_latency_fields(const struct pb_result *r, struct pb_fields *fs)
{
	const struct pb_latency *l = &r->latency;
	bool m = l->on && l->measured, t = m && l->timed;

	fs->n = 0;
	pb_add(fs, l->on ? pb_fu64("probes_sent", l->probes_sent) : pb_fnull("probes_sent"));
	pb_add(fs, l->on ? pb_fu64("probes_dropped_reported", l->probes_dropped)
			 : pb_fnull("probes_dropped_reported"));
	pb_add(fs,
	       m ? pb_fu64("probes_received", l->probes_received) : pb_fnull("probes_received"));
	pb_add(fs, m ? pb_fu64("lost", l->lost) : pb_fnull("lost"));
	pb_add(fs, m ? pb_fu64("reordered", l->reordered) : pb_fnull("reordered"));
	pb_add(fs, m ? pb_fu64("duplicated", l->duplicated) : pb_fnull("duplicated"));
	pb_add(fs, l->on ? pb_fstr("clock", l->tai ? "tai" : "monotonic", 0) : pb_fnull("clock"));
	/* true: a probe the path dropped goes again with its first stamp (never lost, later) */
	pb_add(fs, l->on ? pb_fbool("includes_retries", l->includes_retries)
			 : pb_fnull("includes_retries"));
	pb_add(fs, m ? pb_fu64("samples", l->samples) : pb_fnull("samples"));
	pb_add(fs, m ? pb_fu64("clock_errors", l->clock_errors) : pb_fnull("clock_errors"));
	pb_add(fs, t ? pb_fdbl("min_us", l->min_us) : pb_fnull("min_us"));
	pb_add(fs, t ? pb_fdbl("mean_us", l->mean_us) : pb_fnull("mean_us"));
	pb_add(fs, t ? pb_fdbl("p50_us", l->p50_us) : pb_fnull("p50_us"));
	pb_add(fs, t ? pb_fdbl("p90_us", l->p90_us) : pb_fnull("p90_us"));
	pb_add(fs, t ? pb_fdbl("p99_us", l->p99_us) : pb_fnull("p99_us"));
	pb_add(fs, t ? pb_fdbl("p999_us", l->p999_us) : pb_fnull("p999_us"));
	pb_add(fs, t ? pb_fdbl("max_us", l->max_us) : pb_fnull("max_us"));
	pb_add(fs,
	       m && l->jitter_known ? pb_fdbl("jitter_us", l->jitter_us) : pb_fnull("jitter_us"));
	pb_add(fs, l->on && !t ? pb_fstr("null_reason", l->why, sizeof(l->why))
			       : pb_fnull("null_reason"));
}

/* The gaps between a paced run's frames at the receiver: `gaps`, and CSV's gaps_ columns. */
static void pb_gaps_fields(const struct pb_result *r, struct pb_fields *fs)
{
	const struct pb_gaps *g = &r->gaps;
	bool m = g->on && g->measured;

	fs->n = 0;
	pb_add(fs, g->on ? pb_fdbl("target_us", g->target_us) : pb_fnull("target_us"));
	pb_add(fs, m ? pb_fu64("gaps", g->n) : pb_fnull("gaps"));
	pb_add(fs, m ? pb_fdbl("mean_us", g->mean_us) : pb_fnull("mean_us"));
	pb_add(fs, m ? pb_fdbl("p1_us", g->p1_us) : pb_fnull("p1_us"));
	pb_add(fs, m ? pb_fdbl("p50_us", g->p50_us) : pb_fnull("p50_us"));
	pb_add(fs, m ? pb_fdbl("p99_us", g->p99_us) : pb_fnull("p99_us"));
	pb_add(fs, m ? pb_fdbl("cv", g->cv) : pb_fnull("cv"));
	pb_add(fs, g->on && !m ? pb_fstr("null_reason", g->why, sizeof(g->why))
			       : pb_fnull("null_reason"));
}

#define PB_DBL_LEN 40

/*
 * The shortest text that reads back as the same double, so data files neither lose precision
 * nor show 0.24000000000000002. Always with '.' or an exponent, so JSON readers keep it a
 * double, and always '.', whatever LC_NUMERIC says, since JSON and our CSV require it.
 */
void pb_fmt_shortest(char *buf, size_t size, double d)
{
	char *p;
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	if (prec == 17)
		snprintf(buf, size, "%.17g", d);
	p = strchr(buf, ',');
	if (p)
		*p = '.';
}

static void pb_fmt_double(char *buf, size_t size, double d)
{
	pb_fmt_shortest(buf, size, d);
	if (!strpbrk(buf, ".eE"))
		strncat(buf, ".0", size - strlen(buf) - 1);
}

int pb_json_print(FILE *f, struct json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!s)
		return -ENOMEM;
	fputs(s, f);
	fputc('\n', f);
	return pb_stream_status(f);
}

/* ---- JSON */

/* Adds one field to o; JSON null is a NULL value in json-c. */
static int pb_json_add(struct json_object *o, const struct pb_field *f)
{
	/* JSON has no NaN or infinity: an impossible figure is unknown, not a number. */
	bool null = f->kind == PB_K_NULL || (f->kind == PB_K_DBL && !isfinite(f->d));
	struct json_object *v = NULL;
	char buf[PB_DBL_LEN];

	switch (f->kind) {
	case PB_K_NULL:
		break;
	case PB_K_BOOL:
		v = json_object_new_boolean(f->b);
		break;
	case PB_K_U64:
		v = json_object_new_int64(f->u > INT64_MAX ? INT64_MAX : (int64_t)f->u);
		break;
	case PB_K_DBL:
		if (null)
			break;
		pb_fmt_double(buf, sizeof(buf), f->d);
		v = json_object_new_double_s(f->d, buf);
		break;
	case PB_K_STR:
		v = json_object_new_string_len(f->s, (int)f->len);
		break;
	}
	if (!v && !null)
		return -ENOMEM;
	if (json_object_object_add(o, f->name, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

int pb_json_add_fields(struct json_object *o, const struct pb_fields *fs)
{
	unsigned int i;
	int err;

	for (i = 0; i < fs->n; i++) {
		err = pb_json_add(o, &fs->f[i]);
		if (err)
			return err;
	}
	return 0;
}

struct json_object *pb_json_add_array(struct json_object *o, const char *name)
{
	struct json_object *arr = json_object_new_array();

	if (!arr || json_object_object_add(o, name, arr)) {
		json_object_put(arr);
		return NULL;
	}
	return arr;
}

int pb_json_push(struct json_object *arr, struct json_object *v)
{
	if (!v || json_object_array_add(arr, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

struct json_object *pb_json_child(struct json_object *o, const char *name)
{
	struct json_object *c = json_object_new_object();

	if (!c || json_object_object_add(o, name, c)) {
		json_object_put(c);
		return NULL;
	}
	return c;
}

/* fs as a new object at the end of the list arr. */
static int pb_json_append(struct json_object *arr, const struct pb_fields *fs)
{
	struct json_object *e = json_object_new_object();

	if (pb_json_push(arr, e))
		return -ENOMEM;
	return pb_json_add_fields(e, fs);
}

/*
 * The per-second view, JSON only (it is a list, not a column): cumulative counts at t, so
 * readers take differences themselves and nothing is rounded away here.
 */
static int pb_json_add_samples(struct json_object *o, const struct pb_result *r)
{
	struct json_object *arr = pb_json_add_array(o, "per_second");
	struct pb_fields fs;
	uint32_t i;
	int err;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < r->nsamples; i++) {
		fs.n = 0;
		pb_add(&fs, pb_fdbl("t", r->samples[i].t));
		pb_add(&fs, pb_fu64("sent", r->samples[i].sent));
		pb_add(&fs, r->samples[i].delivered_known
				    ? pb_fu64("delivered", r->samples[i].delivered)
				    : pb_fnull("delivered"));
		err = pb_json_append(arr, &fs);
		if (err)
			return err;
	}
	return 0;
}

/*
 * What the receiver saw beyond counts (JSON only, lists like per_second): delivered frames per
 * RX queue, the spread's raw data, and the VLAN ids that arrived.
 */
static int pb_json_add_receiver(struct json_object *o, const struct pb_result *r)
{
	struct json_object *arr;
	uint32_t i;

	if (!r->has_receiver || !r->rx_queues)
		return json_object_object_add(o, "rx_queue_frames", NULL) ||
				       json_object_object_add(o, "rx_vlans", NULL)
			       ? -ENOMEM
			       : 0;
	arr = pb_json_add_array(o, "rx_queue_frames");
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < r->rx_queues; i++)
		if (pb_json_push(arr, json_object_new_int64((int64_t)r->rx_queue_frames[i])))
			return -ENOMEM;
	/* the VLAN ids that arrived (0: untagged), so a tag can be checked end to end */
	arr = pb_json_add_array(o, "rx_vlans");
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < r->nrx_vlans; i++)
		if (pb_json_push(arr, json_object_new_int(r->rx_vlans[i])))
			return -ENOMEM;
	return 0;
}

/*
 * Where the sender ran (JSON only, a list): the CPU each stream was found on most, looked at
 * once a second (null for a stream never looked at: a run under a second); sender_cpu_moves
 * (a field) how often a look found a stream on another CPU. A sender's rate here depends on
 * its CPU: rounds that differ can be told apart by it.
 */
static int pb_json_add_cpus(struct json_object *o, const struct pb_result *r)
{
	struct json_object *arr = pb_json_add_array(o, "sender_cpus");
	uint32_t i;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < r->streams && i < PB_MAX_STREAMS; i++) {
		if (!r->sender_cpu[i]
			    ? json_object_array_add(arr, NULL)
			    : pb_json_push(arr, json_object_new_int(r->sender_cpu[i] - 1)))
			return -ENOMEM;
	}
	return 0;
}

/*
 * --repeat: the row's rounds in the order they ran, each with the CPU its first stream ran on
 * most (null: not looked), so a slow round can be matched with where it ran; null for one run.
 */
static int pb_json_add_rounds(struct json_object *o, const struct pb_result *r)
{
	struct json_object *arr;
	struct pb_fields fs;
	uint32_t i;
	int err;

	if (r->nrounds < 2)
		return json_object_object_add(o, "rounds", NULL) ? -ENOMEM : 0;
	arr = pb_json_add_array(o, "rounds");
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < r->nrounds && i < PB_MAX_REPEAT; i++) {
		fs.n = 0;
		pb_add(&fs, pb_fdbl("pps", r->rounds[i].pps));
		pb_add(&fs, r->rounds[i].sender_cpu
				    ? pb_fu64("sender_cpu", r->rounds[i].sender_cpu - 1u)
				    : pb_fnull("sender_cpu"));
		err = pb_json_append(arr, &fs);
		if (err)
			return err;
	}
	return 0;
}

/* A histogram as [upper_bound_ns, count] pairs, added to o as key. */
static int pb_json_add_hist(struct json_object *o, const char *key, const struct pb_hist_pair *h,
			    uint32_t n)
{
	struct json_object *arr = pb_json_add_array(o, key), *pair;
	uint32_t i;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		pair = json_object_new_array();
		if (pb_json_push(arr, pair) ||
		    pb_json_push(pair, json_object_new_int64((int64_t)h[i].upper_ns)) ||
		    pb_json_push(pair, json_object_new_int64((int64_t)h[i].count)))
			return -ENOMEM;
	}
	return 0;
}

/* Each stream's probes: where the row's sums come from. */
static int pb_json_add_lat_streams(struct json_object *o, const struct pb_latency *l)
{
	struct json_object *arr = pb_json_add_array(o, "streams");
	struct pb_fields fs;
	uint32_t i;
	int err;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < l->nstreams; i++) {
		const struct pb_lat_stream *st = &l->streams[i];
		bool t = l->measured && l->timed && st->samples;

		fs.n = 0;
		pb_add(&fs, pb_fu64("stream", st->stream));
		pb_add(&fs, pb_fu64("probes_sent", st->sent));
		pb_add(&fs, l->measured ? pb_fu64("probes_received", st->received)
					: pb_fnull("probes_received"));
		pb_add(&fs, l->measured ? pb_fu64("lost", st->lost) : pb_fnull("lost"));
		pb_add(&fs,
		       l->measured ? pb_fu64("reordered", st->reordered) : pb_fnull("reordered"));
		pb_add(&fs, l->measured ? pb_fu64("duplicated", st->duplicated)
					: pb_fnull("duplicated"));
		pb_add(&fs, t ? pb_fdbl("min_us", st->min_us) : pb_fnull("min_us"));
		pb_add(&fs, t ? pb_fdbl("mean_us", st->mean_us) : pb_fnull("mean_us"));
		pb_add(&fs, t ? pb_fdbl("max_us", st->max_us) : pb_fnull("max_us"));
		pb_add(&fs, l->measured && st->jitter_known ? pb_fdbl("jitter_us", st->jitter_us)
							    : pb_fnull("jitter_us"));
		err = pb_json_append(arr, &fs);
		if (err)
			return err;
	}
	return 0;
}

/*
 * With --latency a `latency` object, in a paced run a `gaps` object (JSON only, next to
 * per_second): the figures, the histogram as [upper_bound_ns, count] pairs, and for the
 * probes each stream's own counts.
 */
static int pb_json_add_latency(struct json_object *o, const struct pb_result *r)
{
	struct pb_fields fs;
	struct json_object *c;
	int err;

	if (r->latency.on) {
		c = pb_json_child(o, "latency");
		if (!c)
			return -ENOMEM;
		pb_latency_fields(r, &fs);
		err = pb_json_add_fields(c, &fs);
		if (!err)
			err = pb_json_add_hist(c, "histogram", r->latency.hist, r->latency.nhist);
		if (!err)
			err = pb_json_add_lat_streams(c, &r->latency);
		if (err)
			return err;
	}
	if (!r->gaps.on)
		return 0;
	c = pb_json_child(o, "gaps");
	if (!c)
		return -ENOMEM;
	pb_gaps_fields(r, &fs);
	err = pb_json_add_fields(c, &fs);
	return err ? err : pb_json_add_hist(c, "histogram", r->gaps.hist, r->gaps.nhist);
}

/*
 * With --replay a `replay` object (JSON only): what the capture gave, what was handed over,
 * and how late the departures were against their deadlines (null with --topspeed).
 */
static int pb_json_add_replay(struct json_object *o, const struct pb_result *r)
{
	static const char *const skip[PB_RSKIP_N] = { "not_ip",	     "not_udp",	      "fragment",
						      "truncated",   "short_payload", "too_big",
						      "other_family" };
	const struct pb_replay_stats *p = &r->replay;
	struct json_object *c, *d;
	struct pb_fields fs = { .n = 0 };
	bool t = p->timed && p->frames;
	int err, i;

	if (!p->on)
		return 0;
	c = pb_json_child(o, "replay");
	if (!c)
		return -ENOMEM;
	pb_add(&fs, pb_fstr("timing", p->timing, 0));
	pb_add(&fs, pb_fdbl("multiplier", p->multiplier));
	pb_add(&fs, pb_fu64("file_frames", p->file_frames));
	pb_add(&fs, pb_fu64("pass_frames", p->pass_frames));
	pb_add(&fs, pb_fu64("frames", p->frames));
	pb_add(&fs, pb_fu64("bytes", p->bytes));
	pb_add(&fs,
	       p->rx_known ? pb_fu64("bytes_delivered", p->rx_bytes) : pb_fnull("bytes_delivered"));
	pb_add(&fs, pb_fu64("loops", p->loops));
	pb_add(&fs, pb_fdbl("file_duration_s", p->file_duration_s));
	pb_add(&fs, pb_fu64("backwards", p->backwards));
	pb_add(&fs, p->cut ? pb_fu64("cut_bytes", p->cut_bytes) : pb_fnull("cut_bytes"));
	pb_add(&fs, t ? pb_fdbl("scheduled_duration_s", p->sched_duration_s)
		      : pb_fnull("scheduled_duration_s"));
	pb_add(&fs, pb_fdbl("run_duration_s", p->run_duration_s));
	pb_add(&fs, t && p->sched_duration_s > 0 ? pb_fdbl("drift_ppm", p->drift_ppm)
						 : pb_fnull("drift_ppm"));
	pb_add(&fs, pb_fstr("source", p->streamed ? "disk" : "memory", 0));
	pb_add(&fs, p->streamed ? pb_fu64("window_frames", p->window_frames)
				: pb_fnull("window_frames"));
	pb_add(&fs,
	       p->streamed ? pb_fu64("reader_waits", p->reader_waits) : pb_fnull("reader_waits"));
	err = pb_json_add_fields(c, &fs);
	if (err)
		return err;
	d = pb_json_child(c, "skipped");
	if (!d)
		return -ENOMEM;
	fs.n = 0;
	for (i = 0; i < PB_RSKIP_N; i++)
		pb_add(&fs, pb_fu64(skip[i], p->skipped[i]));
	err = pb_json_add_fields(d, &fs);
	if (err)
		return err;
	d = pb_json_child(c, "departure_error_us");
	if (!d)
		return -ENOMEM;
	fs.n = 0;
	pb_add(&fs, t ? pb_fdbl("p50", p->dep_p50_us) : pb_fnull("p50"));
	pb_add(&fs, t ? pb_fdbl("p99", p->dep_p99_us) : pb_fnull("p99"));
	pb_add(&fs, t ? pb_fdbl("max", p->dep_max_us) : pb_fnull("max"));
	err = pb_json_add_fields(d, &fs);
	if (err)
		return err;
	d = pb_json_child(c, "arrival_gap_error_us");
	if (!d)
		return -ENOMEM;
	fs.n = 0;
	pb_add(&fs, p->gaps_known ? pb_fdbl("file_p50", p->gap_p50_us) : pb_fnull("file_p50"));
	pb_add(&fs, p->gaps_known ? pb_fdbl("file_p99", p->gap_p99_us) : pb_fnull("file_p99"));
	pb_add(&fs, p->gaps_known ? pb_fdbl("p50", p->gap_err_p50_us) : pb_fnull("p50"));
	pb_add(&fs, p->gaps_known ? pb_fdbl("p99", p->gap_err_p99_us) : pb_fnull("p99"));
	pb_add(&fs, p->gaps_known ? pb_fdbl("file_max", p->gap_max_us) : pb_fnull("file_max"));
	pb_add(&fs, p->gaps_known ? pb_fdbl("max", p->gap_err_max_us) : pb_fnull("max"));
	return pb_json_add_fields(d, &fs);
}

/* What describes the whole set: JSON's top level, and the last columns of every CSV row. */
static void pb_report_fields(const struct pb_report *rep, struct pb_fields *fs)
{
	fs->n = 0;
	pb_add(fs, pb_fu64("schema", PB_SCHEMA_VERSION));
	pb_add(fs, pb_fstr("pktbench_version", rep->version, 0));
	pb_add(fs, pb_fstr("command", rep->command, 0));
	pb_add(fs, pb_fstr("kernel", rep->kernel, 0));
	pb_add(fs, pb_fstr("cpu_model", rep->cpu_model, 0));
	pb_add(fs, pb_fu64("cpus", rep->cpus));
	pb_add(fs, pb_fstr("interface", rep->iface, 0));
	pb_add(fs, pb_fstr("driver", rep->driver, 0));
	pb_add(fs, pb_fu64("tx_queues", rep->tx_queues));
	pb_add(fs, pb_fu64("rx_queues", rep->rx_queues));
	pb_add(fs, pb_fbool("lab", rep->lab));
	pb_add(fs, pb_fstr("lab_kind", rep->lab_kind, 0));
	pb_add(fs, rep->lab_kind && strcmp(rep->lab_kind, "direct") && rep->lab_dut_cpu >= 0
			   ? pb_fu64("lab_dut_cpu", (uint64_t)rep->lab_dut_cpu)
			   : pb_fnull("lab_dut_cpu"));
}

/* pktbench rfc2544's parameters, one object at the top of its JSON. */
static int pb_json_add_rfc2544(struct json_object *root, const struct pb_rfc2544_opts *o)
{
	struct json_object *obj = pb_json_child(root, "rfc2544"), *arr;
	struct pb_fields fs = { .n = 0 };
	unsigned int i;

	if (!obj)
		return -ENOMEM;
	arr = pb_json_add_array(obj, "tests");
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < 4; i++)
		if (o->tests & (1u << i) &&
		    pb_json_push(arr, json_object_new_string(
					      pb_rfc_test_name((enum pb_rfc_test)(i + 1)))))
			return -ENOMEM;
	arr = pb_json_add_array(obj, "frame_sizes");
	if (!arr)
		return -ENOMEM;
	for (i = 0; i < o->nsizes; i++)
		if (pb_json_push(arr, json_object_new_int64(o->sizes[i])))
			return -ENOMEM;
	pb_add(&fs, pb_fdbl("trial_s", o->trial_s));
	pb_add(&fs, pb_fdbl("final_trial_s", o->final_trial_s));
	pb_add(&fs, pb_fdbl("trial_gap_s", o->trial_gap_s));
	pb_add(&fs, pb_fdbl("loss_tolerance_pct", o->loss_tolerance_pct));
	pb_add(&fs, pb_fstr("rate", o->loss_tolerance_pct > 0 ? "PDR" : "NDR", 0));
	pb_add(&fs, pb_fdbl("precision_pct", o->precision_pct));
	pb_add(&fs, pb_fdbl("loss_step_pct", o->loss_step_pct));
	pb_add(&fs, pb_fu64("max_trials", o->max_trials));
	pb_add(&fs, pb_fu64("retries", o->retries));
	pb_add(&fs, pb_fu64("b2b_repeat", o->b2b_repeat));
	pb_add(&fs, pb_fstr("search", o->search == PB_RFC_SEARCH_MLR ? "mlr" : "binary", 0));
	if (o->search == PB_RFC_SEARCH_MLR) {
		arr = pb_json_add_array(obj, "goals");
		if (!arr)
			return -ENOMEM;
		for (i = 0; i < o->ngoals; i++) {
			const struct pb_rfc_goal *g = &o->goals[i];
			struct json_object *go = json_object_new_object();

			if (pb_json_push(arr, go))
				return -ENOMEM;
			json_object_object_add(go, "loss_ratio",
					       json_object_new_double(g->loss_ratio));
			json_object_object_add(go, "final_trial_s",
					       json_object_new_double(g->final_s));
			json_object_object_add(go, "duration_sum_s",
					       json_object_new_double(g->sum_s));
			json_object_object_add(go, "exceed_ratio",
					       json_object_new_double(g->exceed_ratio));
			json_object_object_add(go, "initial_trial_s",
					       json_object_new_double(g->initial_s));
			json_object_object_add(go, "width", json_object_new_double(g->width));
		}
	}
	return pb_json_add_fields(obj, &fs);
}

/* One result row as --format json writes it under "results"; NULL on a lack of memory. */
struct json_object *pb_json_row(const struct pb_result *r, bool rfc)
{
	struct json_object *o = json_object_new_object();
	struct pb_fields fs = { .n = 0 };
	int err;

	if (!o)
		return NULL;
	pb_result_fields(r, &fs, rfc);
	err = pb_json_add_fields(o, &fs);
	if (!err)
		err = pb_json_add_samples(o, r);
	if (!err)
		err = pb_json_add_receiver(o, r);
	if (!err)
		err = pb_json_add_cpus(o, r);
	if (!err)
		err = pb_json_add_rounds(o, r);
	if (!err)
		err = pb_json_add_latency(o, r);
	if (!err)
		err = pb_json_add_replay(o, r);
	if (err) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * What the run's figures depend on (envinfo.h), JSON only: one text a field, "unknown (why)"
 * where it could not be read; null when nothing was read. compare warns about each that
 * differs.
 */
int pb_json_add_environment(struct json_object *root, const struct pb_envinfo *env)
{
	struct pb_fields fs = { .n = 0 };
	struct json_object *o;
	unsigned int i;
	int err;

	if (!env)
		return json_object_object_add(root, "environment", NULL) ? -ENOMEM : 0;
	o = pb_json_child(root, "environment");
	if (!o)
		return -ENOMEM;
	for (i = 0; i < env->n; i++) {
		fs.n = 0;
		pb_add(&fs, pb_fstr(env->f[i].key, env->f[i].val, sizeof(env->f[i].val)));
		err = pb_json_add_fields(o, &fs);
		if (err)
			return err;
	}
	return 0;
}

struct json_object *pb_json_set(const struct pb_report *rep)
{
	struct json_object *root = json_object_new_object();
	struct pb_fields fs = { .n = 0 };
	int err;

	if (!root)
		return NULL;
	pb_report_fields(rep, &fs);
	err = pb_json_add_fields(root, &fs);
	if (!err)
		err = pb_json_add_environment(root, rep->env);
	if (!err && rep->rfc2544)
		err = pb_json_add_rfc2544(root, rep->rfc2544);
	if (err) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

int pb_write_json(FILE *f, const struct pb_report *rep)
{
	struct json_object *root, *arr;
	unsigned int i;
	int err = -ENOMEM;

	if (!rep || (rep->n && !rep->results))
		return -EINVAL;
	root = pb_json_set(rep);
	if (!root)
		return -ENOMEM;

	arr = pb_json_add_array(root, "results");
	if (!arr)
		goto out;
	/* Given order: JSON is data, and sorting is the table's business. */
	for (i = 0; i < rep->n; i++) {
		if (pb_json_push(arr, pb_json_row(&rep->results[i], rep->rfc2544 != NULL)))
			goto out;
	}

	err = pb_json_print(f, root);
out:
	json_object_put(root);
	return err;
}

/* ---- CSV */

/* RFC 4180: quote a field holding a comma, quote or line break, and double its quotes. */
static void pb_csv_str(FILE *f, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (strchr(",\"\r\n", s[i]))
			break;
	if (i == len) {
		fwrite(s, 1, len, f);
		return;
	}
	fputc('"', f);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

static void pb_csv_field(FILE *f, const struct pb_field *fl)
{
	char buf[PB_DBL_LEN];

	switch (fl->kind) {
	case PB_K_NULL:
		break;
	case PB_K_BOOL:
		fputs(fl->b ? "true" : "false", f);
		break;
	case PB_K_U64:
		fprintf(f, "%" PRIu64, fl->u);
		break;
	case PB_K_DBL:
		if (isfinite(fl->d)) {
			pb_fmt_double(buf, sizeof(buf), fl->d);
			fputs(buf, f);
		}
		break;
	case PB_K_STR:
		pb_csv_str(f, fl->s, fl->len);
		break;
	}
}

/*
 * The latency_ and gaps_ columns: the scalars of JSON's latency and gaps objects (null
 * without --latency or pacing), so a CSV row carries what the table shows. header: names.
 */
static void pb_csv_latency(FILE *f, const struct pb_result *r, bool header)
{
	static const char *const prefix[2] = { "latency_", "gaps_" };
	struct pb_fields fs;
	unsigned int k, j;

	for (k = 0; k < 2; k++) {
		if (!k)
			pb_latency_fields(r, &fs);
		else
			pb_gaps_fields(r, &fs);
		for (j = 0; j < fs.n; j++) {
			fputc(',', f);
			if (header)
				fprintf(f, "%s%s", prefix[k], fs.f[j].name);
			else
				pb_csv_field(f, &fs.f[j]);
		}
	}
}

int pb_write_csv(FILE *f, const struct pb_report *rep)
{
	static const struct pb_result blank;
	struct pb_fields fs, top;
	unsigned int i, j;

	if (!rep || (rep->n && !rep->results))
		return -EINVAL;
	/* The header comes from the same list as the rows, so the two cannot drift apart. */
	pb_result_fields(&blank, &fs, rep->rfc2544 != NULL);
	pb_report_fields(rep, &top);
	for (j = 0; j < fs.n; j++)
		fprintf(f, "%s%s", j ? "," : "", fs.f[j].name);
	pb_csv_latency(f, &blank, true);
	for (j = 0; j < top.n; j++)
		fprintf(f, ",%s", top.f[j].name);
	fputc('\n', f);
	for (i = 0; i < rep->n; i++) {
		pb_result_fields(&rep->results[i], &fs, rep->rfc2544 != NULL);
		for (j = 0; j < fs.n; j++) {
			if (j)
				fputc(',', f);
			pb_csv_field(f, &fs.f[j]);
		}
		pb_csv_latency(f, &rep->results[i], false);
		/* each row carries the set's description, so rows can be pooled across files */
		for (j = 0; j < top.n; j++) {
			fputc(',', f);
			pb_csv_field(f, &top.f[j]);
		}
		fputc('\n', f);
	}
	return pb_stream_status(f);
}

/* ---- table */

#define PB_TCOLS	 16
#define PB_TCOLS_LAT	 11 /* the first of the latency columns, shown only with --latency */
#define PB_TCOLS_REORDER 15 /* shown only where a row had frames arrive out of order */
#define PB_CELL		 48

struct pb_trow {
	char cell[PB_TCOLS][PB_CELL];
};

/*
 * Names read left to right; numbers align right so their digits line up. On a narrow
 * terminal the short headings come first, then columns go, the highest drop first: Sent,
 * Delivered (the % says it), Mb/s (app), Syscalls/frame, Max us, Accounted %, Probes lost,
 * Mode, Gb/s (wire L1), CPU ns/pkt, p50 us, p99 us. Method, Packets/s and Delivered % stay.
 */
static const struct pb_box_col pb_tcols[PB_TCOLS] = {
	{ "Method", true },
	{ "Mode", true, .drop = 5 },
	{ "Packets/s" },
	{ "Mb/s (app)", .abbr = "Mb/s", .drop = 10 },
	{ "Gb/s (wire L1)", .abbr = "Gb/s L1", .drop = 4 },
	{ "Sent", .drop = 12 },
	{ "Delivered", .drop = 11 },
	{ "Delivered %", .abbr = "Deliv %" },
	{ "Accounted %", .abbr = "Acct %", .drop = 7 },
	{ "CPU ns/pkt", .abbr = "ns/pkt", .drop = 3 },
	{ "Syscalls/frame", .abbr = "Sys/frame", .drop = 9 },
	{ "p50 us", .drop = 2 },
	{ "p99 us", .drop = 1 },
	{ "Max us", .drop = 8 },
	{ "Probes lost", .abbr = "Lost", .drop = 6 },
	{ "Reordered", .abbr = "Reord", .drop = 13 },
};

static bool pb_nowire(const struct pb_result *r)
{
	return !strncmp(r->mode, PB_MODE_NOWIRE, sizeof(r->mode));
}

/* p50, p99 and max one-way latency, and lost of sent probes; n/a where unknown. */
static void pb_trow_latency(struct pb_trow *t, const struct pb_result *r)
{
	const struct pb_latency *l = &r->latency;
	const double us[3] = { l->p50_us, l->p99_us, l->max_us };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (l->on && l->measured && l->timed)
			pb_box_cell(t->cell[PB_TCOLS_LAT + i], PB_CELL, "%.1f", us[i]);
		else
			pb_box_cell(t->cell[PB_TCOLS_LAT + i], PB_CELL, "n/a");
	}
	if (l->on && l->measured)
		pb_box_cell(t->cell[PB_TCOLS_LAT + 3], PB_CELL, "%" PRIu64 "/%" PRIu64, l->lost,
			    l->probes_sent);
	else
		pb_box_cell(t->cell[PB_TCOLS_LAT + 3], PB_CELL, "n/a");
}

static void pb_trow_fill(struct pb_trow *t, const struct pb_result *r)
{

	/* '*' and '~' point at the footnotes: interrupted (partial), the link went down */
	pb_box_cell(t->cell[0], PB_CELL, "%.*s%s%.*s%s%s",
		    (int)strnlen(r->method, sizeof(r->method)), r->method, r->point[0] ? " " : "",
		    (int)strnlen(r->point, sizeof(r->point)), r->point, r->interrupted ? "*" : "",
		    r->link_downs ? "~" : "");
	pb_box_cell(t->cell[1], PB_CELL, "%.*s", (int)strnlen(r->mode, sizeof(r->mode)), r->mode);
	pb_box_cell(t->cell[2], PB_CELL, "%.0f", r->pps);
	pb_box_cell(t->cell[3], PB_CELL, "%.1f", r->app_mbps);
	pb_box_cell(t->cell[4], PB_CELL, "%.3f", r->wire_gbps);
	pb_box_cell(t->cell[5], PB_CELL, "%" PRIu64, r->frames_sent);
	/* Without a receiver, delivery is unknown: "n/a", never a 0 that reads as total loss. */
	if (r->has_receiver && r->delivered_known)
		pb_box_cell(t->cell[6], PB_CELL, "%" PRIu64, r->frames_delivered);
	else
		pb_box_cell(t->cell[6], PB_CELL, "n/a");
	if (pb_result_has_delivered(r))
		pb_box_cell(t->cell[7], PB_CELL, "%.2f", r->delivered_pct);
	else
		pb_box_cell(t->cell[7], PB_CELL, "n/a");
	/* '!' points at the footnote: the drop counters did not add up */
	if (pb_result_has_accounted(r))
		pb_box_cell(t->cell[8], PB_CELL, "%.2f%s", r->accounted_pct,
			    r->netting == PB_NET_NEGATIVE ? "!" : "");
	else
		pb_box_cell(t->cell[8], PB_CELL, "n/a");
	if (r->frames_sent) {
		pb_box_cell(t->cell[9], PB_CELL, "%.1f", r->cpu_ns_per_pkt);
		pb_box_cell(t->cell[10], PB_CELL, "%.4f", r->syscalls_per_frame);
	} else {
		pb_box_cell(t->cell[9], PB_CELL, "n/a");
		pb_box_cell(t->cell[10], PB_CELL, "n/a");
	}
	pb_trow_latency(t, r);
	if (r->has_receiver && r->delivered_known)
		pb_box_cell(t->cell[PB_TCOLS_REORDER], PB_CELL, "%" PRIu64, r->frames_reordered);
	else
		pb_box_cell(t->cell[PB_TCOLS_REORDER], PB_CELL, "n/a");
}

/*
 * --show-counters: the three points of view of every row that ran, beside the netting
 * that turns them into dropped and accounted: what pktbench counted as sent, what left
 * the sending interface (its tx_packets, and its drop counters), what the receiver counted,
 * and what the receiving interface counted as lost.
 */
#define PB_KCOLS 9

/* On a narrow terminal: Retried goes first, then TX iface pkts; the netting's terms stay. */
static const struct pb_box_col pb_kcols[PB_KCOLS] = {
	{ "Method", true },
	{ "Sent" },
	{ "Retried", .drop = 2 },
	{ "TX iface pkts", .abbr = "TX pkts", .drop = 1 },
	{ "TX drops" },
	{ "Delivered" },
	{ "RX iface drops", .abbr = "RX drops" },
	{ "Dropped (net)", .abbr = "Dropped" },
	{ "Accounted %", .abbr = "Acct %" },
};

struct pb_krow {
	char cell[PB_KCOLS][PB_CELL];
};

static void pb_kcount(char *cell, bool have, uint64_t v, const char *mark)
{
	if (have)
		pb_box_cell(cell, PB_CELL, "%" PRIu64 "%s", v, mark);
	else
		pb_box_cell(cell, PB_CELL, "n/a");
}

static void pb_krow_fill(struct pb_krow *k, const struct pb_result *r)
{
	const struct pb_raw_counts *c = &r->raw;

	pb_box_cell(k->cell[0], PB_CELL, "%.*s%s%.*s", (int)strnlen(r->method, sizeof(r->method)),
		    r->method, r->point[0] ? " " : "", (int)strnlen(r->point, sizeof(r->point)),
		    r->point);
	pb_box_cell(k->cell[1], PB_CELL, "%" PRIu64, r->frames_sent);
	pb_box_cell(k->cell[2], PB_CELL, "%" PRIu64, r->frames_retried);
	pb_kcount(k->cell[3], c->have_tx, c->tx_packets, r->shared_iface ? "+" : "");
	pb_kcount(k->cell[4], c->have_tx, c->tx_dropped + c->qdisc_drops, "");
	pb_kcount(k->cell[5], r->has_receiver && r->delivered_known, r->frames_delivered, "");
	pb_kcount(k->cell[6], c->have_rx, c->rx_dropped + c->rx_missed_errors + c->rx_fifo_errors,
		  "");
	pb_kcount(k->cell[7], r->netting != PB_NET_SKIPPED, r->frames_dropped,
		  r->netting == PB_NET_NEGATIVE ? "!" : "");
	if (pb_result_has_accounted(r))
		pb_box_cell(k->cell[8], PB_CELL, "%.2f", r->accounted_pct);
	else
		pb_box_cell(k->cell[8], PB_CELL, "n/a");
}

static int pb_write_counters(FILE *f, const struct pb_result *res, const unsigned int *idx,
			     unsigned int n, size_t w)
{
	struct pb_box_col cols[PB_KCOLS];
	struct pb_krow *rows = calloc(n ? n : 1, sizeof(*rows));
	bool shared = false;
	unsigned int i;

	if (!rows)
		return -ENOMEM;
	memcpy(cols, pb_kcols, sizeof(cols));
	for (i = 0; i < n; i++) {
		pb_krow_fill(&rows[i], &res[idx[i]]);
		shared |= res[idx[i]].shared_iface;
	}
	fputs("\n  Three-point accounting (--show-counters):\n", f);
	pb_box_table(f, cols, PB_KCOLS, rows, sizeof(*rows), PB_CELL, n, w);
	pb_box_note(f, w,
		    "  TX iface pkts: the sending interface's tx_packets; TX drops: its "
		    "tx_dropped + qdisc drops;\n  RX iface drops: the receiving interface's "
		    "rx_dropped + missed + fifo; Dropped (net): see docs/accounting.md");
	pb_box_dropped_note(f, cols, PB_KCOLS, w);
	if (shared)
		pb_box_note(f, w, "  + the interface also carries traffic that is not this run's");
	free(rows);
	return 0;
}

/* Stable, so equal rates keep the caller's order; n is a handful of methods. */
static void pb_sort_by_pps(unsigned int *idx, unsigned int n, const struct pb_result *res)
{
	unsigned int i, j, v;

	for (i = 1; i < n; i++) {
		v = idx[i];
		for (j = i; j > 0 && res[idx[j - 1]].pps < res[v].pps; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
}

/* Two rows that replayed and left out the same frames, kind by kind. */
static bool pb_same_skips(const struct pb_replay_stats *a, const struct pb_replay_stats *b)
{
	return a->on && b->on && !memcmp(a->skipped, b->skipped, sizeof(a->skipped));
}

/*
 * --replay: the capture's frames a row left out, said under the table (not only in JSON):
 * how many, by kind. Rows that left out the same are said once, their methods named.
 */
static void pb_replay_skips_note(FILE *f, const struct pb_result *res, const unsigned int *idx,
				 unsigned int n, size_t w)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		const struct pb_replay_stats *p = &res[idx[i]].replay;
		char kinds[512] = "", methods[256] = "";
		uint64_t out = pb_replay_skips_str(p->skipped, kinds, sizeof(kinds));
		size_t mo = 0;
		bool said = false;

		if (!p->on || !out)
			continue;
		for (j = 0; j < i && !said; j++)
			said = pb_same_skips(&res[idx[j]].replay, p);
		if (said)
			continue;
		for (j = i; j < n; j++)
			if (pb_same_skips(&res[idx[j]].replay, p) && mo < sizeof(methods))
				mo += (size_t)snprintf(methods + mo, sizeof(methods) - mo, "%s%s",
						       mo ? ", " : "", res[idx[j]].method);
		pb_box_note(f, w,
			    "  replay (%s): %" PRIu64 " of the file's %" PRIu64
			    " frames left out: %s (JSON: replay.skipped)",
			    methods, out, p->file_frames, kinds);
	}
}

/*
 * In a table sorted by rate, row i (of idx) is within the run's noise of the row above it:
 * both are medians of --repeat runs, and the faster row's slowest run was no faster than this
 * row's fastest. Their order is then not known; one run a row says nothing of it.
 */
static bool pb_ties_above(const struct pb_result *res, const unsigned int *idx, unsigned int i)
{
	const struct pb_result *a, *b;

	if (!i)
		return false;
	a = &res[idx[i - 1]];
	b = &res[idx[i]];
	return a->pps_max > 0 && b->pps_max > 0 && a->pps_min <= b->pps_max;
}

/* A median of --repeat rounds that spread more than PB_ROUNDS_SPREAD_MARK_PCT: not steady. */
static bool pb_spread_marked(const struct pb_result *r)
{
	return r->nrounds > 1 && r->rounds_spread_pct > PB_ROUNDS_SPREAD_MARK_PCT;
}

static void pb_table_footer(FILE *f, const struct pb_report *rep, const unsigned int *idx,
			    unsigned int n, unsigned int nreal)
{
	const struct pb_result *res = rep->results;
	size_t w = rep->width;
	bool ranked = rep->sort_by_pps && nreal > 1, repeated = true, ties = false;
	uint32_t lo = UINT32_MAX, hi = 0;
	bool vlan = false, padded = false, partial = false, down = false, negative = false;
	bool lat = false, untimed = false, unsteady = false;
	const struct pb_result *r, *paced = NULL;
	double p99 = 0;
	char frame[96];
	unsigned int i;

	for (i = 0; i < n; i++) {
		r = &res[idx[i]];
		lo = r->frame_bytes < lo ? r->frame_bytes : lo;
		hi = r->frame_bytes > hi ? r->frame_bytes : hi;
		vlan |= r->vlan;
		padded |= r->padded;
		partial |= r->interrupted;
		down |= r->link_downs > 0;
		negative |= r->netting == PB_NET_NEGATIVE;
		lat |= r->latency.on;
		untimed |= r->latency.on && !(r->latency.measured && r->latency.timed);
		unsteady |= pb_spread_marked(r);
		/* the paced row whose departures kept worst to the rate speaks for the table */
		if (r->pacing && (!paced || r->pace_p99_us > p99)) {
			paced = r;
			p99 = r->pace_p99_us;
		}
	}
	if (lo == hi)
		snprintf(frame, sizeof(frame), "frame %" PRIu32 " bytes without FCS", lo);
	else
		snprintf(frame, sizeof(frame),
			 "frame %" PRIu32 "-%" PRIu32 " bytes without FCS (varies by row)", lo, hi);
	pb_box_note(f, w, "  %s%s%s", frame, vlan ? ", VLAN-tagged" : "",
		    padded ? ", padded up to the Ethernet minimum" : "");
	pb_box_note(f, w,
		    "  wire L1 = max(frame, 60 | 64 tagged) + 24 bytes per frame (FCS, preamble, "
		    "IFG)");
	if (partial)
		pb_box_note(f, w, "  * partial: interrupted by signal");
	if (down)
		pb_box_note(
			f, w,
			"  ~ the carrier went down during the window (JSON: link_down_s): the rate "
			"averages it in");
	if (negative)
		pb_box_note(f, w,
			    "  ! the path reported more drops than its counters show (JSON: "
			    "netting_deficit): dropped counted as 0");
	if (lat)
		pb_box_note(f, w,
			    "  latency: one-way, from the probe's stamp before the kernel took it "
			    "to the "
			    "receiver; probes lost: lost/sent");
	if (untimed)
		pb_box_note(f, w, "  n/a latency: see latency.null_reason in JSON");
	if (paced)
		pb_box_note(f, w,
			    "  paced by %s (--pace): frames left late by p50 %.0f us, p99 %.0f us "
			    "(%s, worst row)",
			    paced->pacing, paced->pace_p50_us, paced->pace_p99_us, paced->method);
	for (i = 0; ranked && i < nreal; i++) {
		repeated &= res[idx[i]].pps_max > 0;
		ties |= pb_ties_above(res, idx, i);
	}
	if (ranked && !repeated)
		pb_box_note(
			f, w,
			"  one run a method: on a shared machine a short run can move a method 2x from run "
			"to run; --repeat 3 marks rows within the noise (^)");
	else if (ranked && ties)
		pb_box_note(f, w,
			    "  ^ within the noise of the row above: its --repeat runs (slowest to "
			    "fastest) overlap that row's, so which is faster is not known");
	else if (ranked)
		pb_box_note(f, w,
			    "  every row's --repeat runs were all faster than the next row's: the "
			    "order held in each run");
	if (unsteady)
		pb_box_note(f, w,
			    "  %% its --repeat rounds spread more than %.0f %% of its median "
			    "((max - min) / median; JSON: rounds, rounds_spread_pct): not a steady "
			    "figure",
			    PB_ROUNDS_SPREAD_MARK_PCT);
	pb_replay_skips_note(f, res, idx, n, w);
}

int pb_write_table(FILE *f, const struct pb_report *rep)
{
	const struct pb_result *res, *r;
	struct pb_box_col cols[PB_TCOLS];
	struct pb_trow *rows = NULL;
	const char *why;
	unsigned int *idx = NULL;
	unsigned int i, nreal = 0, nrows = 0;
	int err = -ENOMEM;

	if (!rep || (rep->n && !rep->results))
		return -EINVAL;
	res = rep->results;
	if (!rep->n) {
		fputs("  no results\n", f);
		return pb_stream_status(f);
	}

	/* Indices, not copies: the caller's array stays in its order for JSON and CSV. */
	idx = calloc(rep->n, sizeof(*idx));
	if (!idx)
		goto out;
	for (i = 0; i < rep->n; i++)
		if (res[i].status == PB_STATUS_OK && !pb_nowire(&res[i]))
			idx[nreal++] = i;
	if (rep->sort_by_pps)
		pb_sort_by_pps(idx, nreal, res);
	nrows = nreal;
	for (i = 0; i < rep->n; i++)
		if (res[i].status == PB_STATUS_OK && pb_nowire(&res[i]))
			idx[nrows++] = i;

	if (nrows) {
		bool lat = false, reord = false;

		memcpy(cols, pb_tcols, sizeof(cols));
		for (i = 0; i < nrows; i++) {
			lat |= res[idx[i]].latency.on;
			reord |= res[idx[i]].frames_reordered > 0;
		}
		for (i = PB_TCOLS_LAT; i < PB_TCOLS_REORDER; i++)
			cols[i].hidden = !lat;
		cols[PB_TCOLS_REORDER].hidden = !reord;
		rows = calloc(nrows, sizeof(*rows));
		if (!rows)
			goto out;
		for (i = 0; i < nrows; i++)
			pb_trow_fill(&rows[i], &res[idx[i]]);
		for (i = 0; rep->sort_by_pps && i < nreal; i++)
			if (pb_ties_above(res, idx, i))
				strncat(rows[i].cell[0], "^",
					PB_CELL - 1 - strnlen(rows[i].cell[0], PB_CELL));
		for (i = 0; i < nrows; i++)
			if (pb_spread_marked(&res[idx[i]]))
				strncat(rows[i].cell[0], "%",
					PB_CELL - 1 - strnlen(rows[i].cell[0], PB_CELL));
		pb_box_fit_width(cols, PB_TCOLS, rows, sizeof(*rows), PB_CELL, nrows, rep->width);

		pb_box_rule(f, cols, PB_TCOLS);
		pb_box_head(f, cols, PB_TCOLS);
		pb_box_rule(f, cols, PB_TCOLS);
		for (i = 0; i < nreal; i++)
			pb_box_row(f, cols, PB_TCOLS, &rows[i], PB_CELL);
		/* Apart from the send paths, so nobody ranks the harness's own loop as a method. */
		if (nrows > nreal) {
			if (nreal)
				pb_box_rule(f, cols, PB_TCOLS);
			pb_box_span(f, cols, PB_TCOLS,
				    "harness overhead, no wire (not a send path):");
			for (i = nreal; i < nrows; i++)
				pb_box_row(f, cols, PB_TCOLS, &rows[i], PB_CELL);
		}
		pb_box_rule(f, cols, PB_TCOLS);
		pb_table_footer(f, rep, idx, nrows, nreal);
		pb_box_dropped_note(f, cols, PB_TCOLS, rep->width);
		if (rep->show_counters && nreal) {
			err = pb_write_counters(f, res, idx, nreal, rep->width);
			if (err)
				goto out;
		}
	}

	for (i = 0; i < rep->n; i++) {
		r = &res[i];
		if (r->status == PB_STATUS_OK)
			continue;
		why = r->reason[0] ? r->reason : "no reason given";
		pb_box_note(f, rep->width, "  %-8s %.*s%s%.*s: %.*s", pb_status_name(r->status),
			    (int)strnlen(r->method, sizeof(r->method)), r->method,
			    r->point[0] ? " " : "", (int)strnlen(r->point, sizeof(r->point)),
			    r->point, (int)strnlen(why, sizeof(r->reason)), why);
		if (r->measured)
			fprintf(f, "           partial: %" PRIu64 " sent in %.2f s (%.0f pps)%s\n",
				r->frames_sent, r->duration_s, r->pps,
				pb_result_has_delivered(r) ? "" : ", delivered unknown");
	}
	err = pb_stream_status(f);
out:
	free(rows);
	free(idx);
	return err;
}

/* ---- where it goes */

int pb_report_print(FILE *f, const struct pb_report *rep, enum pb_format fmt)
{
	switch (fmt) {
	case PB_FORMAT_TABLE:
		return rep->rfc2544 ? pb_rfc2544_write_table(f, rep) : pb_write_table(f, rep);
	case PB_FORMAT_JSON:
		return pb_write_json(f, rep);
	case PB_FORMAT_CSV:
		return pb_write_csv(f, rep);
	}
	return -EINVAL;
}

/* The temp file's name beside path: only a crashed run with our pid leaves it behind. */
static int pb_report_tmp(const char *path, char *tmp, size_t len)
{
	int n = snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ENOENT creating beside path: when its folder is not there, say which; true if so. */
static bool pb_report_folder_missing(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (!slash || slash == path)
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!stat(dir, &st))
		return false;
	snprintf(err, errlen, "%s: the folder %s does not exist", path, dir);
	return true;
}

int pb_report_check_path(const char *path, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	struct stat st;
	int fd, ret;

	if (!strcmp(path, "-"))
		return 0;
	ret = pb_report_tmp(path, tmp, sizeof(tmp));
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	/* rename() replaces a regular file, never a directory, a device or /proc's files */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file, cannot be replaced by results",
			 path);
		return -EINVAL;
	}
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ENOENT && pb_report_folder_missing(path, err, errlen))
			return ret;
		snprintf(err, errlen, "%s: cannot create a file beside it: %s", path,
			 strerror(-ret));
		return ret;
	}
	close(fd);
	unlink(tmp);
	/* a file in /proc or /sys (or another odd filesystem) takes the temp file, not rename */
	if (!stat(path, &st) && access(path, W_OK)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

int pb_report_write(const struct pb_report *rep, enum pb_format fmt, const char *path)
{
	char tmp[PATH_MAX];
	FILE *f = NULL;
	int fd, err;

	if (!path || !*path || !strcmp(path, "-"))
		return pb_report_print(stdout, rep, fmt);

	/*
	 * Temp file beside the target, then rename: a reader (compare, a script, CI) sees the
	 * old file or the whole new one, never half a result set.
	 */
	err = pb_report_tmp(path, tmp, sizeof(tmp));
	if (err)
		return err;
	/* Only a crashed run with our pid leaves this name behind; O_EXCL would trip on it. */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto out;
	}
	err = pb_report_print(f, rep, fmt);
	if (err)
		goto out;
	if (fflush(f) || fsync(fileno(f))) {
		err = -errno;
		goto out;
	}
	err = fclose(f) ? -errno : 0;
	f = NULL;
	if (err)
		goto out;
	if (rename(tmp, path)) {
		err = -errno;
		goto out;
	}
	return 0;
out:
	if (f)
		fclose(f);
	unlink(tmp);
	return err;
}
