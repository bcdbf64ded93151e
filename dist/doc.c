// SPDX-License-Identifier: MIT
/*
 * The man page, the bash completion and the fuzz dictionary, generated from the command
 * tables (cli/commands.c), the method registry and the JSON writer at build time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>

#include "doc.h"
#include "method.h"
#include "options.h"
#include "pb_version.h"
#include "writers.h"

/* ---- the JSON fields */

/*
 * What each field means. Only words: the names that exist are the writer's, and a name here
 * that the writer no longer emits is a stale description (pb_doc_stale_field, tested).
 */
static const struct {
	const char *where, *name, *help;
} pb_doc_field_help[] = {
	{ "", "schema", "version of this layout; a reader refuses a newer one" },
	{ "", "pktbench_version", "the version that wrote it" },
	{ "", "command", "the command line as given" },
	{ "", "kernel", "uname -r of the sending machine" },
	{ "", "cpu_model", "the CPU's model name (null when unknown)" },
	{ "", "cpus", "online CPUs" },
	{ "", "interface", "the sending interface: --iface, or the lab's sending end" },
	{ "", "driver", "its driver" },
	{ "", "tx_queues", "TX queues of the sending interface" },
	{ "", "rx_queues", "RX queues of the sending interface" },
	{ "", "lab", "true when the namespace lab and its receiver were used" },
	{ "", "environment",
	  "what the figures depend on, read before the first run, one text a field (pktbench "
	  "environment lists them): kernel_release, cpus_online, cpu_governor, busy_poll_us, "
	  "busy_read_us, mitigation.NAME for each file of /sys/devices/system/cpu/"
	  "vulnerabilities, the interface's iface.napi_threaded, iface.napi_defer_hard_irqs, "
	  "iface.gro_flush_timeout_ns, iface.irq_affinity, iface.napi_threads, iface.ring, "
	  "iface.channels, iface.coalesce, iface.offloads, and sender_placement (where the "
	  "senders ran and who chose it); one that could not be read is \"unknown (why)\"; "
	  "compare warns about each that differs. null: not read (no interface)" },
	{ "", "results", "one object per row (method, sweep point), below" },
	{ "results[]", "method", "the method's name" },
	{ "results[]", "mode", "what the method obtained (the table's Mode column)" },
	{ "results[]", "point", "the sweep point, e.g. frame-size=64; null without --sweep" },
	{ "results[]", "status", "ok, skipped (could not run here) or error (failed)" },
	{ "results[]", "reason", "why it was skipped or failed; null when ok" },
	{ "results[]", "interrupted",
	  "true when Ctrl-C or SIGTERM ended it early: a partial result, which compare refuses" },
	{ "results[]", "timed_out",
	  "true when --count was not reached within --count-timeout: a partial result" },
	{ "results[]", "runs", "--repeat: the runs this row is the median of" },
	{ "results[]", "run_id",
	  "the random id in this run's payloads, by which the receiver counted it" },
	{ "results[]", "duration_s",
	  "the measured window: clock start to the last worker drained" },
	{ "results[]", "link_wait_s", "the carrier wait before the clock started (not measured)" },
	{ "results[]", "link_down_s",
	  "time the carrier was down inside the window (the row is flagged)" },
	{ "results[]", "link_downs", "times the carrier went down inside the window" },
	{ "results[]", "frame_bytes", "bytes per frame handed to the kernel, without the FCS" },
	{ "results[]", "wire_frame_bytes",
	  "link (L1) bytes per frame: max(frame, 60, or 64 tagged) + 24" },
	{ "results[]", "vlan", "the frames were 802.1Q-tagged" },
	{ "results[]", "padded", "the frame was padded up to the Ethernet minimum" },
	{ "results[]", "imix",
	  "the frames were a mix of sizes (--imix, --imix-sizes): frame_bytes is their mean" },
	{ "results[]", "streams", "sending threads" },
	{ "results[]", "target_pps", "--pps or --rate as packets/s; null when unlimited" },
	{ "results[]", "frames_sent", "frames the kernel accepted or completed" },
	{ "results[]", "has_receiver",
	  "a receiver counted what arrived (false on --iface without --receiver)" },
	{ "results[]", "frames_delivered",
	  "frames the receiver counted with this run's signature; null without a receiver" },
	{ "results[]", "bytes_delivered",
	  "their bytes, each frame whole from its destination MAC to its last byte (no FCS; a "
	  "multi-buffer jumbo frame counted with all its fragments); null without a receiver" },
	{ "results[]", "receiver_error",
	  "why the receiver could not be read; null when it answered" },
	{ "results[]", "frames_foreign", "frames the receiver saw without this run's signature" },
	{ "results[]", "frames_extra",
	  "delivered above sent: frames with this run's signature it did not send (forged, "
	  "replayed or counted twice); above 0 the row is an error; null without a receiver" },
	{ "results[]", "frames_duplicate",
	  "frames that arrived again (a sequence number the receiver had seen), not in delivered; "
	  "above 0 the row is an error, \"duplicates: ...\"; null without a receiver" },
	{ "results[]", "frames_reordered",
	  "frames that arrived after a later one of their stream (in delivered); null without a "
	  "receiver" },
	{ "results[]", "frames_out_of_window",
	  "frames too far out of order to tell from a duplicate (more than 960 behind on their "
	  "CPU), not in delivered; above 0 the row is an error; null without a receiver" },
	{ "results[]", "frames_unchecked",
	  "frames delivered without a sequence check: a method that stamps no number, a "
	  "replayed frame, a payload under 12 bytes; null without a receiver" },
	{ "results[]", "frames_corrupt",
	  "frames with this run's signature the host would refuse (an IPv4 header checksum or "
	  "version, a UDP checksum, lengths that disagree), not in delivered; above 0 the row is "
	  "an error; null "
	  "without a receiver" },
	{ "results[]", "frames_not_for_host",
	  "frames with this run's signature sent to another destination MAC or IP address than "
	  "the receiver's, not in delivered; above 0 the row is an error; null without a "
	  "receiver" },
	{ "results[]", "flows_seen", "distinct UDP source ports the receiver saw" },
	{ "results[]", "rx_queue_cv",
	  "spread of delivered frames over the RX queues (stddev / mean); null with one queue" },
	{ "results[]", "frames_dropped", "drops the kernel counted on the path, less retried" },
	{ "results[]", "frames_retried", "dropped attempts that were sent again (not lost)" },
	{ "results[]", "frames_undrained",
	  "frames still in flight when the drain limit passed: not counted as sent" },
	{ "results[]", "send_errors", "transient errors (EAGAIN, ENOBUFS) the harness retried" },
	{ "results[]", "netting",
	  "how frames_dropped came out of the counters: ok, skipped (no counters: dropped and "
	  "accounted unknown) or negative (the counters fell short, dropped set to 0)" },
	{ "results[]", "netting_deficit",
	  "with netting negative: by how much the counters fell short" },
	{ "results[]", "shared_iface",
	  "--iface: tx_packets includes traffic that is not pktbench's" },
	{ "results[]", "tx_packets", "the sending interface's tx_packets delta (raw, as read)" },
	{ "results[]", "tx_dropped", "its tx_dropped delta" },
	{ "results[]", "qdisc_drops", "drops of its root qdiscs" },
	{ "results[]", "xdp_xmit_errors",
	  "veth: XDP frames the peer refused (counted at both ends, netted once)" },
	{ "results[]", "rx_packets", "the receiving interface's rx_packets delta" },
	{ "results[]", "rx_dropped", "its rx_dropped delta" },
	{ "results[]", "rx_missed_errors", "its rx_missed_errors delta" },
	{ "results[]", "rx_fifo_errors", "its rx_fifo_errors delta" },
	{ "results[]", "rx_driver_drops",
	  "the driver's drop, discard and miss counters (ethtool -S): shown, not netted" },
	{ "results[]", "cpu_s", "user + system CPU time in the window" },
	{ "results[]", "syscalls", "system calls the method made in the window" },
	{ "results[]", "syscalls_per_frame", "syscalls / frames sent" },
	{ "results[]", "pps", "frames sent per second of the window" },
	{ "results[]", "pps_min",
	  "--repeat: the slowest run's pps (compare weighs a fall against this spread); null "
	  "for one run" },
	{ "results[]", "pps_max", "--repeat: the fastest run's pps; null for one run" },
	{ "results[]", "rounds_spread_pct",
	  "--repeat: (pps_max - pps_min) / pps, in %; above 10 the table marks the row %; null "
	  "for one run" },
	{ "results[]", "rounds",
	  "--repeat: each run in the order it ran, below; null for one run" },
	{ "results[]", "app_mbps", "pps x frame bytes x 8, in Mb/s" },
	{ "results[]", "wire_gbps", "pps x wire frame bytes x 8, in Gb/s" },
	{ "results[]", "delivered_pct", "delivered / sent; null without a receiver" },
	{ "results[]", "accounted_pct",
	  "(delivered + dropped) / sent: 100 when every frame is accounted for" },
	{ "results[]", "cpu_ns_per_pkt", "CPU time per frame sent, in ns" },
	{ "results[]", "per_second", "cumulative counts once a second, below" },
	{ "results[]", "rx_queue_frames",
	  "delivered frames per RX queue; null without a receiver" },
	{ "results[]", "rx_vlans", "VLAN ids that arrived (0: untagged); null without a receiver" },
	{ "results[]", "latency", "--latency: the run's probes, below" },
	{ "results[]", "gaps", "a paced run: the gaps between its frames at the receiver, below" },
	{ "latency", "probes_sent", "probes handed to the kernel, by the sender's count" },
	{ "latency", "probes_dropped_reported",
	  "of those, dropped by the path and reported to the sender (where the method can tell "
	  "which frame)" },
	{ "latency", "probes_received", "distinct probes the receiver counted" },
	{ "latency", "lost", "sent and never arrived: gaps that never filled, and a lost tail" },
	{ "latency", "reordered", "arrived after a higher sequence number (filled a gap)" },
	{ "latency", "duplicated", "arrived again" },
	{ "latency", "clock", "monotonic, or tai with --synced-clocks" },
	{ "latency", "samples", "probes whose one-way latency was taken" },
	{ "latency", "clock_errors",
	  "probes whose latency could not be taken: they arrived before they were sent by the "
	  "clocks, or were TAI probes at a receiver without CLOCK_TAI" },
	{ "latency", "min_us", "one-way latency, smallest, in us; null with null_reason" },
	{ "latency", "mean_us", "its mean" },
	{ "latency", "p50_us", "its median, from the histogram (within 0.78 %)" },
	{ "latency", "p90_us", "its 90th percentile" },
	{ "latency", "p99_us", "its 99th percentile (what compare --latency-tolerance gates on)" },
	{ "latency", "p999_us", "its 99.9th percentile" },
	{ "latency", "max_us", "its largest" },
	{ "latency", "jitter_us",
	  "RFC 3550 interarrival jitter, the mean over the streams; needs no synchronised "
	  "clocks" },
	{ "latency", "null_reason",
	  "why the latency figures are null (another host without --synced-clocks, no probe "
	  "arrived, no receiver); null when they are not" },
	{ "latency", "histogram", "[upper_bound_ns, count] for every bucket that holds probes" },
	{ "latency", "streams", "each stream's probes, below" },
	{ "latency.streams[]", "stream", "the stream id" },
	{ "latency.streams[]", "probes_sent", "its probes handed to the kernel" },
	{ "latency.streams[]", "probes_received", "its distinct probes received" },
	{ "latency.streams[]", "lost", "its probes that never arrived" },
	{ "latency.streams[]", "reordered", "its late probes" },
	{ "latency.streams[]", "duplicated", "its duplicated probes" },
	{ "latency.streams[]", "min_us", "its smallest one-way latency, in us" },
	{ "latency.streams[]", "mean_us", "its mean" },
	{ "latency.streams[]", "max_us", "its largest" },
	{ "latency.streams[]", "jitter_us", "its RFC 3550 jitter, in us" },
	{ "gaps", "target_us", "what the pacer aims at: 1 / the stream's share of the rate" },
	{ "gaps", "gaps", "gaps between consecutive frames of a stream the receiver timed" },
	{ "gaps", "mean_us", "their mean, exact (first to last arrival over the gaps)" },
	{ "gaps", "p1_us", "their 1st percentile: a burst shows here, far below the target" },
	{ "gaps", "p50_us", "their median" },
	{ "gaps", "p99_us", "their 99th percentile: a stall shows here" },
	{ "gaps", "cv", "standard deviation / mean, from the histogram" },
	{ "gaps", "null_reason", "why the figures are null; null when they are not" },
	{ "gaps", "histogram", "[upper_bound_ns, count] for every bucket that holds gaps" },
	{ "results[]", "replay", "--replay: what the capture gave and how the schedule was kept" },
	{ "replay", "timing", "original, pps, rate or topspeed" },
	{ "replay", "multiplier", "--multiplier (1 without it)" },
	{ "replay", "file_frames", "every frame in the file" },
	{ "replay", "pass_frames",
	  "of those, the ones replayed once per pass (the rest: skipped)" },
	{ "replay", "frames", "frames handed to the kernel over the run, all passes" },
	{ "replay", "bytes",
	  "their bytes as handed over (a socket method: as the kernel frames them)" },
	{ "replay", "bytes_delivered", "this run's bytes the receiver counted; null without one" },
	{ "replay", "loops", "complete passes over the file" },
	{ "replay", "file_duration_s",
	  "first to last replayed frame by the file's stamps: the sum of the gaps between "
	  "frames in file order, a stamp that goes back adding none (never negative)" },
	{ "replay", "backwards",
	  "stamps that went back in file order: replayed in file order, the gap taken as 0" },
	{ "replay", "cut_bytes",
	  "the file's last record was cut short by this many bytes (the frames before it "
	  "replayed); null when the file ends whole" },
	{ "replay", "scheduled_duration_s",
	  "first to last frame sent, as the schedule asked; null with --topspeed" },
	{ "replay", "run_duration_s", "first to last departure (when the sender handed it over)" },
	{ "replay", "drift_ppm", "(run - scheduled) / scheduled, in ppm; null with --topspeed" },
	{ "replay", "skipped", "frames not replayed, by reason, below" },
	{ "replay", "departure_error_us",
	  "how late frames were handed over after their deadlines, below" },
	{ "replay.skipped", "not_ip", "not IPv4 or IPv6 over Ethernet (ARP, LLDP...)" },
	{ "replay.skipped", "not_udp", "TCP, ICMP and the rest: a socket method sends UDP only" },
	{ "replay.skipped", "fragment", "IP fragments, and IPv6 with extension headers" },
	{ "replay.skipped", "truncated", "captured shorter than sent, or a malformed header" },
	{ "replay.skipped", "short_payload", "UDP payloads under the 8-byte signature" },
	{ "replay.skipped", "too_big", "larger than the interface's MTU: reported, never cut" },
	{ "replay.skipped", "other_family",
	  "UDP of the other address family than the run's (a socket method keeps its family)" },
	{ "replay.departure_error_us", "p50", "median lateness, in us (1 us buckets)" },
	{ "replay.departure_error_us", "p99", "99th percentile" },
	{ "replay.departure_error_us", "max", "the latest, exact" },
	{ "replay", "arrival_gap_error_us",
	  "the receiver's arrival gaps against the schedule's (the file's), below; null without "
	  "a receiver or with --topspeed" },
	{ "replay.arrival_gap_error_us", "file_p50",
	  "median gap the schedule puts between a stream's frames, in us" },
	{ "replay.arrival_gap_error_us", "file_p99", "its 99th percentile" },
	{ "replay.arrival_gap_error_us", "p50", "the arrival gaps' median less file_p50, in us" },
	{ "replay.arrival_gap_error_us", "p99", "their 99th percentile less file_p99" },
	{ "rounds[]", "pps", "that run's frames sent per second" },
	{ "rounds[]", "sender_cpu",
	  "the CPU its first stream was found on most; null: not looked (a run under a second)" },
	{ "per_second[]", "t", "seconds since the clock started" },
	{ "per_second[]", "sent", "frames sent by then" },
	{ "per_second[]", "delivered", "frames delivered by then; null without a receiver" },
};

#define PB_DOC_NHELP (sizeof(pb_doc_field_help) / sizeof(pb_doc_field_help[0]))

static const char *pb_doc_help_of(const char *where, const char *name)
{
	size_t i;

	for (i = 0; i < PB_DOC_NHELP; i++)
		if (!strcmp(pb_doc_field_help[i].where, where) &&
		    !strcmp(pb_doc_field_help[i].name, name))
			return pb_doc_field_help[i].help;
	return NULL;
}

static const char *pb_doc_type(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		return "boolean";
	case json_type_int:
		return "integer";
	case json_type_double:
		return "number";
	case json_type_string:
		return "string";
	case json_type_array:
		return "list";
	case json_type_object:
		return "object";
	default:
		return "null";
	}
}

static unsigned int pb_doc_add_keys(struct json_object *o, const char *where,
				    struct pb_doc_field *out, unsigned int n, unsigned int max)
{
	json_object_object_foreach(o, key, val)
	{
		if (n < max) {
			out[n].where = where;
			snprintf(out[n].name, sizeof(out[n].name), "%s", key);
			out[n].type = pb_doc_type(val);
			out[n].help = pb_doc_help_of(where, key);
		}
		n++;
	}
	return n;
}

/* A result set with one row whose every field has a value, written by the real writer. */
static struct json_object *pb_doc_sample_set(void)
{
	static struct pb_sample sample = { .t = 1, .sent = 1, .delivered = 1 };
	static struct pb_hist_pair pair = { 1023, 1 };
	static struct pb_lat_stream stream = {
		.sent = 1, .received = 1, .samples = 1, .jitter_known = true
	};
	struct pb_result r = {
		.method = "m",
		.mode = "m",
		.point = "frame-size=64",
		.reason = "r",
		.duration_s = 1,
		.frame_bytes = 60,
		.streams = 1,
		.frames_sent = 1,
		.has_receiver = true,
		.frames_delivered = 1,
		.rx_queues = 2,
		.rx_queue_frames = { 1, 1 },
		.nrounds = 2,
		.rounds = { { 1, 1 }, { 1, 1 } },
		.nrx_vlans = 1,
		.target_pps = 1,
		.samples = &sample,
		.nsamples = 1,
		.latency = { .on = true,
			     .measured = true,
			     .timed = true,
			     .jitter_known = true,
			     .hist = &pair,
			     .nhist = 1,
			     .streams = &stream,
			     .nstreams = 1 },
		.gaps = { .on = true, .measured = true, .hist = &pair, .nhist = 1 },
		.replay = { .on = true,
			    .timed = true,
			    .timing = "original",
			    .frames = 1,
			    .rx_known = true,
			    .gaps_known = true,
			    .sched_duration_s = 1 },
	};
	struct pb_report rep = {
		.version = PB_VERSION,
		.command = "pktbench",
		.kernel = "k",
		.iface = "i",
		.driver = "d",
		.cpu_model = "c",
		.lab = true,
		.results = &r,
		.n = 1,
	};
	struct json_object *root = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	pb_result_compute(&r);
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (!pb_write_json(f, &rep) && !fflush(f))
		root = json_tokener_parse(buf);
	fclose(f);
	free(buf);
	return root;
}

int pb_doc_json_fields(struct pb_doc_field *out, unsigned int max)
{
	struct json_object *root = pb_doc_sample_set(), *rows, *row, *ps;
	unsigned int n;

	if (!root)
		return -ENOMEM;
	n = pb_doc_add_keys(root, "", out, 0, max);
	if (json_object_object_get_ex(root, "results", &rows) &&
	    (row = json_object_array_get_idx(rows, 0))) {
		n = pb_doc_add_keys(row, "results[]", out, n, max);
		if (json_object_object_get_ex(row, "per_second", &ps) &&
		    json_object_array_get_idx(ps, 0))
			n = pb_doc_add_keys(json_object_array_get_idx(ps, 0), "per_second[]", out,
					    n, max);
		if (json_object_object_get_ex(row, "rounds", &ps) &&
		    json_object_array_get_idx(ps, 0))
			n = pb_doc_add_keys(json_object_array_get_idx(ps, 0), "rounds[]", out, n,
					    max);
		if (json_object_object_get_ex(row, "latency", &ps)) {
			n = pb_doc_add_keys(ps, "latency", out, n, max);
			if (json_object_object_get_ex(ps, "streams", &ps) &&
			    json_object_array_get_idx(ps, 0))
				n = pb_doc_add_keys(json_object_array_get_idx(ps, 0),
						    "latency.streams[]", out, n, max);
		}
		if (json_object_object_get_ex(row, "gaps", &ps))
			n = pb_doc_add_keys(ps, "gaps", out, n, max);
		if (json_object_object_get_ex(row, "replay", &ps)) {
			struct json_object *sub;

			n = pb_doc_add_keys(ps, "replay", out, n, max);
			if (json_object_object_get_ex(ps, "skipped", &sub))
				n = pb_doc_add_keys(sub, "replay.skipped", out, n, max);
			if (json_object_object_get_ex(ps, "departure_error_us", &sub))
				n = pb_doc_add_keys(sub, "replay.departure_error_us", out, n, max);
			if (json_object_object_get_ex(ps, "arrival_gap_error_us", &sub))
				n = pb_doc_add_keys(sub, "replay.arrival_gap_error_us", out, n,
						    max);
		}
	}
	json_object_put(root);
	return (int)n;
}

const char *pb_doc_stale_field(void)
{
	static struct pb_doc_field fields[256];
	int n = pb_doc_json_fields(fields, 256), j;
	size_t i;

	for (i = 0; n > 0 && i < PB_DOC_NHELP; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(fields[j].where, pb_doc_field_help[i].where) &&
			    !strcmp(fields[j].name, pb_doc_field_help[i].name))
				break;
		if (j == n)
			return pb_doc_field_help[i].name;
	}
	return NULL;
}

/* ---- roff */

/* Text for roff: backslashes and dashes escaped, no line starting with a control character. */
static void man_text(FILE *f, const char *s)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = false;
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
}

/* Paragraphs: a blank line starts a new one, a single line break stays one. */
static void man_paragraphs(FILE *f, const char *text)
{
	const char *p = text;

	fputs(".PP\n", f);
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len);

		if (line) {
			man_text(f, line);
			fputc('\n', f);
			free(line);
		}
		p += len;
		if (!strncmp(p, "\n\n", 2)) {
			fputs(".PP\n", f);
			p += 2;
		} else if (*p == '\n') {
			fputs(".br\n", f);
			p++;
		}
	}
}

/* "-m, --method NAME" for .TP: names bold, the value italic. */
static void man_opt_tag(FILE *f, const struct pb_opt *o)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", f);
	man_text(f, o->name);
	fputs("\\fR", f);
	if (o->metavar) {
		fputs(" \\fI", f);
		man_text(f, o->metavar);
		fputs("\\fR", f);
	}
	fputc('\n', f);
}

/* Whether row o is under heading g (NULL: any row; "": none of the command's headings). */
static bool man_in_group(const struct pb_cmd *cmd, const struct pb_opt *o, const char *g)
{
	unsigned int k;

	if (!g)
		return true;
	if (g[0])
		return o->group && !strcmp(o->group, g);
	for (k = 0; o->group && cmd->groups[k]; k++)
		if (!strcmp(cmd->groups[k], o->group))
			return false;
	return true;
}

/* The rows under heading g (see man_in_group). */
static void man_option_rows(FILE *f, const struct pb_cmd *cmd, const char *g)
{
	unsigned int i;

	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		if (!man_in_group(cmd, o, g))
			continue;
		man_opt_tag(f, o);
		man_text(f, o->help);
		if (o->def && o->type != OPT_FLAG) {
			fputs(" (default ", f);
			man_text(f, o->def);
			fputc(')', f);
		}
		fputs(o->help[strlen(o->help) - 1] == '.' && !o->def ? "\n" : ".\n", f);
	}
}

/* The rows, under --help's headings where the command has them (subsections: sub true). */
static void man_options(FILE *f, const struct pb_cmd *cmd, bool sub)
{
	unsigned int g, i;

	if (!cmd->groups || !sub) {
		man_option_rows(f, cmd, NULL);
		return;
	}
	for (g = 0; cmd->groups[g]; g++) {
		fputs(".SS \"", f);
		man_text(f, cmd->groups[g]);
		fputs("\"\n", f);
		man_option_rows(f, cmd, cmd->groups[g]);
	}
	for (i = 0; i < cmd->nopts && !man_in_group(cmd, &cmd->opts[i], ""); i++)
		;
	if (i < cmd->nopts) {
		fputs(".SS \"Other options\"\n", f);
		man_option_rows(f, cmd, "");
	}
}

/* "0    meaning" lines as a tagged list. */
static void man_exit_status(FILE *f, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n"), code = strcspn(p, " ");
		char *line = strndup(p, len);

		if (line && code < len) {
			fputs(".TP\n", f);
			fprintf(f, "\\fB%.*s\\fR\n", (int)code, line);
			man_text(f, line + code + strspn(line + code, " "));
			fputc('\n', f);
		}
		free(line);
		p += len + (p[len] == '\n');
	}
}

/* The examples' scenario folder, written for a Debian install, where this install has it. */
#define PB_DOC_SCENARIOS "/usr/share/pktbench/scenarios"

/* Pairs of lines: a command in bold, then what it does. */
static void man_examples(FILE *f, const char *text, const struct pb_doc_paths *paths)
{
	const char *p = text;
	bool cmdline = true;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len), *at;

		if (line && cmdline && paths && paths->scenarios &&
		    (at = strstr(line, PB_DOC_SCENARIOS))) {
			char *moved = NULL;

			*at = '\0';
			if (asprintf(&moved, "%s%s%s", line, paths->scenarios,
				     at + strlen(PB_DOC_SCENARIOS)) >= 0) {
				free(line);
				line = moved;
			}
		}
		if (line) {
			if (cmdline) {
				fputs(".TP\n\\fB", f);
				man_text(f, line);
				fputs("\\fR\n", f);
			} else {
				man_text(f, line);
				fputs(".\n", f);
			}
			free(line);
		}
		cmdline = !cmdline;
		p += len + (p[len] == '\n');
	}
}

/* A FILES entry: the path in italics, then roff text (already escaped). */
static void man_file(FILE *f, const char *path, const char *roff_text)
{
	if (!path)
		return;
	fputs(".TP\n\\fI", f);
	man_text(f, path);
	fprintf(f, "\\fR\n%s\n", roff_text);
}

static void man_synopsis(FILE *f, const struct pb_cmd *cmd)
{
	fputs(".B pktbench", f);
	if (cmd->run)
		fprintf(f, " %s", cmd->name);
	fputc('\n', f);
	man_text(f, cmd->synopsis);
	fputc('\n', f);
}

static void man_methods(FILE *f)
{
	unsigned int i, j;

	for (i = 0; i < pb_methods_count; i++) {
		const struct pb_method *m = pb_methods[i];

		fputs(".TP\n\\fB", f);
		man_text(f, m->name);
		fputs("\\fR\n", f);
		man_text(f, m->help);
		for (j = 0; j < 3 && m->aliases[j].name; j++) {
			fputs(j ? ", " : " (go\\-pktgen: ", f);
			man_text(f, m->aliases[j].name);
			if (m->aliases[j].batch)
				fprintf(f, " with \\-\\-batch %u", m->aliases[j].batch);
		}
		fputs(m->aliases[0].name ? ").\n" : ".\n", f);
	}
	fputs(".TP\n\\fBbenchmark\\fR\nevery method that can run here, one after another, then "
	      "one table by packets/s.\n",
	      f);
}

/* What a scenario file may say: drawn from the rows, so a new row is a new key. */
static void man_scenarios(FILE *f, const struct pb_doc_paths *paths)
{
	const struct pb_cmd *cmd = &pb_cmd_main;
	const char *sep = "";
	unsigned int i, k;

	fputs(".PP\n\\fB\\-\\-config\\fR \\fIFILE\\fR reads a YAML mapping whose keys are the long "
	      "option names above, without the dashes; options on the command line override it. "
	      "A value is written as on the command line and checked by the same code, so the "
	      "errors are the same, with the file, line and column in front. A flag takes "
	      "\\fBtrue\\fR or \\fBfalse\\fR, ",
	      f);
	for (i = 0; i < cmd->nopts; i++)
		if (cmd->opts[i].type == OPT_COUNT)
			fprintf(f, "\\fB%s\\fR its count (0 to 3), ", cmd->opts[i].name);
	fputs("and these may also be YAML lists:", f);
	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		if (!(o->flags & PB_OPTF_LIST))
			continue;
		fprintf(f, "%s \\fB%s\\fR", sep, o->name);
		if (o->list_key)
			fprintf(f, " (also spelt \\fB%s\\fR)", o->list_key);
		sep = ",";
	}
	fputs(". Not keys:", f);
	sep = "";
	for (i = 0; i < cmd->nopts; i++) {
		if (pb_opt_in_file(&cmd->opts[i]))
			continue;
		fprintf(f, "%s \\fB%s\\fR", sep, cmd->opts[i].name);
		sep = ",";
	}
	fputs(". YAML reads a bare \\fBnull\\fR or \\fB~\\fR as no value: quote it.\n", f);
	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		if (o->type != OPT_SWEEP)
			continue;
		fprintf(f, ".PP\n\\fB%s\\fR is a mapping of one of", o->name);
		for (k = 0; o->names[k]; k++) {
			fprintf(f, "%s \\fB", k ? (o->names[k + 1] ? "," : " or") : "");
			man_text(f, o->names[k]);
			fputs("\\fR", f);
		}
		fputs(" to a list of values, each within that option's range.\n", f);
	}
	fputs(".PP\n.nf\n.RS\nmethods: [udp_sendto, af_packet]\nduration: 2\nsweep:\n  "
	      "frame\\-size: [64, 128, 1518]\n.RE\n.fi\n",
	      f);
	if (paths && paths->scenarios)
		fprintf(f, ".PP\nExamples are installed in \\fI%s\\fR.\n", paths->scenarios);
}

static void man_fields(FILE *f, const char *where, const struct pb_doc_field *fs, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(fs[i].where, where))
			continue;
		fputs(".TP\n\\fB", f);
		man_text(f, fs[i].name);
		fprintf(f, "\\fR (%s)\n", fs[i].type);
		if (fs[i].help) {
			man_text(f, fs[i].help);
			fputs(".\n", f);
		} else {
			fputs("(not described yet)\n", f);
		}
	}
}

static void man_json(FILE *f)
{
	static struct pb_doc_field fs[256];
	int n = pb_doc_json_fields(fs, 256);

	if (n > 256)
		n = 256;
	fputs(".PP\n\\fB\\-\\-format json\\fR writes one object: the result set's fields, then "
	      "\\fBresults\\fR, a list of rows. Counts are integers, rates and times numbers; a "
	      "figure that does not exist (no receiver, nothing sent) is \\fBnull\\fR, never 0. "
	      "\\fB\\-\\-format csv\\fR has the same row fields as columns, then the scalars of "
	      "\\fBlatency\\fR and \\fBgaps\\fR as latency_ and gaps_ columns, then the set's.\n",
	      f);
	fputs(".SS \"The result set\"\n", f);
	man_fields(f, "", fs, n);
	fputs(".SS \"Each row of results\"\n", f);
	man_fields(f, "results[]", fs, n);
	fputs(".SS \"Each entry of per_second\"\n", f);
	man_fields(f, "per_second[]", fs, n);
	fputs(".SS \"Each entry of rounds (\\-\\-repeat)\"\n", f);
	man_fields(f, "rounds[]", fs, n);
	fputs(".SS \"The latency object (\\-\\-latency)\"\n", f);
	man_fields(f, "latency", fs, n);
	fputs(".SS \"Each of latency's streams\"\n", f);
	man_fields(f, "latency.streams[]", fs, n);
	fputs(".SS \"The gaps object (a paced run)\"\n", f);
	man_fields(f, "gaps", fs, n);
	fputs(".SS \"The replay object (\\-\\-replay, JSON only)\"\n", f);
	man_fields(f, "replay", fs, n);
	fputs(".SS \"replay's skipped\"\n", f);
	man_fields(f, "replay.skipped", fs, n);
	fputs(".SS \"replay's departure_error_us\"\n", f);
	man_fields(f, "replay.departure_error_us", fs, n);
	fputs(".SS \"replay's arrival_gap_error_us\"\n", f);
	man_fields(f, "replay.arrival_gap_error_us", fs, n);
}

static void man_command(FILE *f, const struct pb_cmd *cmd)
{
	char up[64];
	size_t i;

	for (i = 0; cmd->name[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)(cmd->name[i] >= 'a' && cmd->name[i] <= 'z' ? cmd->name[i] - 32
									  : cmd->name[i]);
	up[i] = '\0';
	fprintf(f, ".SH \"PKTBENCH %s\"\n", up);
	man_synopsis(f, cmd);
	man_paragraphs(f, cmd->description);
	fputs(".SS Options\n", f);
	man_options(f, cmd, false);
	if (cmd->exit_status) {
		fputs(".SS \"Exit status\"\n", f);
		man_exit_status(f, cmd->exit_status);
	}
}

int pb_doc_man(FILE *f, const struct pb_doc_paths *paths)
{
	const struct pb_cmd *top = &pb_cmd_main;
	unsigned int i;

	fputs(".\\\" Generated by pktbench-gendoc from pktbench's own tables: do not edit.\n", f);
	fputs(".TH PKTBENCH 8 \"\" \"pktbench ", f);
	man_text(f, PB_VERSION);
	fputs("\" \"System Administration\"\n", f);
	/* option and method names must not be hyphenated or stretched */
	fputs(".nh\n.ad l\n", f);
	fputs(".SH NAME\npktbench \\- ", f);
	man_text(f, top->summary);
	fputs("\n.SH SYNOPSIS\n", f);
	for (i = 0; i < pb_cmds_count; i++) {
		if (i)
			fputs(".br\n", f);
		man_synopsis(f, pb_cmds[i]);
	}
	fputs(".SH DESCRIPTION\n", f);
	man_paragraphs(f, top->description);
	fputs(".SH OPTIONS\n", f);
	man_options(f, top, true);
	fputs(".SH METHODS\nThe send paths built into this binary, in benchmark order:\n", f);
	man_methods(f);
	fputs(".SH \"SCENARIO FILES\"\n", f);
	man_scenarios(f, paths);
	fputs(".SH \"JSON RESULTS\"\n", f);
	man_json(f);
	for (i = 0; i < pb_cmds_count; i++)
		if (pb_cmds[i]->run)
			man_command(f, pb_cmds[i]);
	fputs(".SH \"EXIT STATUS\"\n", f);
	man_exit_status(f, top->exit_status);
	fputs(".SH EXAMPLES\n", f);
	for (i = 0; i < pb_cmds_count; i++)
		if (pb_cmds[i]->examples)
			man_examples(f, pb_cmds[i]->examples, paths);
	if (paths) {
		fputs(".SH FILES\n", f);
		man_file(f, paths->scenarios, "example scenarios for \\fB\\-\\-config\\fR.");
		man_file(f, paths->unit,
			 "the receive agent as a service, one instance per interface: "
			 "\\fBsystemctl enable \\-\\-now pktbench\\-receive@eth1\\fR.");
		man_file(f, paths->envfile,
			 "that instance's settings: \\fBPKTBENCH_LISTEN=\\fR\\fIADDRESS:PORT\\fR "
			 "(required) and \\fBPKTBENCH_RECEIVE_OPTS\\fR.");
		man_file(f, paths->completion, "bash completion.");
		man_file(f, "/run/pktbench/",
			 "lock files of running labs; a lab left by a killed run is removed by the "
			 "next one.");
	}
	fputs(".SH \"SEE ALSO\"\n.BR ip (8),\n.BR ethtool (8),\n.BR xdp\\-loader (8),\n"
	      ".BR trafgen (8)\n",
	      f);
	return ferror(f) ? -EIO : 0;
}

/* ---- bash completion */

/* Every spelling of the rows for which pred holds, space-separated. */
static void bash_spellings(FILE *f, const struct pb_cmd *cmd,
			   bool (*pred)(const struct pb_opt *o, const void *arg), const void *arg)
{
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < cmd->nopts; i++) {
		if (!pred(&cmd->opts[i], arg))
			continue;
		fprintf(f, "%s--%s", sep, cmd->opts[i].name);
		sep = "|";
		if (cmd->opts[i].short_name)
			fprintf(f, "|-%c", cmd->opts[i].short_name);
	}
}

static bool pred_same(const struct pb_opt *o, const void *arg)
{
	return o == arg;
}

/* A comma list of known words (rfc2544 --tests): each item is completed. */
static bool pb_opt_list_names(const struct pb_opt *o)
{
	return o->type == OPT_STR && (o->flags & PB_OPTF_LIST) && o->names;
}

static bool pred_plain_value(const struct pb_opt *o, const void *arg)
{
	return pb_opt_takes_value(o) && o->type != OPT_ENUM && o->type != OPT_METHODS &&
	       o->type != OPT_CONFIG && o->type != OPT_SWEEP && !pb_opt_list_names(o) &&
	       !(o->flags & (PB_OPTF_FILE | PB_OPTF_METHOD | PB_OPTF_IFACE));
}

/* The body of one command's completion: values after an option, else the options. */
static void bash_command(FILE *f, const struct pb_cmd *cmd)
{
	unsigned int i, k;
	bool any_plain = false;

	fputs("\t\tcase $prev in\n", f);
	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		if (o->type == OPT_ENUM || o->type == OPT_SWEEP) {
			fputs("\t\t", f);
			bash_spellings(f, cmd, pred_same, o);
			fputs(")\n\t\t\tCOMPREPLY=($(compgen -W \"", f);
			for (k = 0; o->names[k]; k++)
				fprintf(f, "%s%s%s", k ? " " : "", o->names[k],
					o->type == OPT_SWEEP ? "=" : "");
			fprintf(f, "\" -- \"$cur\"))\n%s\t\t\treturn ;;\n",
				o->type == OPT_SWEEP ? "\t\t\tcompopt -o nospace 2>/dev/null\n"
						     : "");
		} else if (pb_opt_list_names(o)) {
			fputs("\t\t", f);
			bash_spellings(f, cmd, pred_same, o);
			fputs(")\n\t\t\t_pktbench_list \"", f);
			for (k = 0; o->names[k]; k++)
				fprintf(f, "%s%s", k ? " " : "", o->names[k]);
			fputs("\"\n\t\t\treturn ;;\n", f);
		} else if (o->type == OPT_METHODS) {
			fputs("\t\t", f);
			bash_spellings(f, cmd, pred_same, o);
			fputs(")\n\t\t\t_pktbench_list \"benchmark $_pktbench_methods\"\n"
			      "\t\t\treturn ;;\n",
			      f);
		} else if (o->flags & PB_OPTF_METHOD) {
			fputs("\t\t", f);
			bash_spellings(f, cmd, pred_same, o);
			fputs(")\n\t\t\tCOMPREPLY=($(compgen -W \"$_pktbench_methods\" -- "
			      "\"$cur\"))\n"
			      "\t\t\treturn ;;\n",
			      f);
		} else if (o->flags & PB_OPTF_IFACE) {
			fputs("\t\t", f);
			bash_spellings(f, cmd, pred_same, o);
			fputs(")\n\t\t\tCOMPREPLY=($(compgen -W \"$(ls /sys/class/net "
			      "2>/dev/null)\" "
			      "-- \"$cur\"))\n\t\t\treturn ;;\n",
			      f);
		} else if (o->type == OPT_CONFIG || (o->flags & PB_OPTF_FILE)) {
			fputs("\t\t", f);
			bash_spellings(f, cmd, pred_same, o);
			fprintf(f, ")\n\t\t\t_pktbench_files '%s'\n\t\t\treturn ;;\n",
				o->type == OPT_CONFIG ? "*.y*ml" : "*");
		} else if (pred_plain_value(o, NULL)) {
			any_plain = true;
		}
	}
	if (any_plain) {
		/* a value is wanted, and there is nothing to offer for it */
		fputs("\t\t", f);
		bash_spellings(f, cmd, pred_plain_value, NULL);
		fputs(")\n\t\t\treturn ;;\n", f);
	}
	fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then\n\t\t\tCOMPREPLY=($(compgen -W \"", f);
	for (i = 0; i < cmd->nopts; i++)
		fprintf(f, "%s--%s", i ? " " : "", cmd->opts[i].name);
	fputs("\" -- \"$cur\"))\n", f);
	if (cmd->args_glob)
		fprintf(f, "\t\telse\n\t\t\t_pktbench_files '%s'\n", cmd->args_glob);
	else if (!cmd->run) {
		fputs("\t\telif ((COMP_CWORD == 1)); then\n\t\t\tCOMPREPLY=($(compgen -W \"", f);
		for (i = 0, k = 0; i < pb_cmds_count; i++)
			if (pb_cmds[i]->run)
				fprintf(f, "%s%s", k++ ? " " : "", pb_cmds[i]->name);
		fputs("\" -- \"$cur\"))\n", f);
	}
	fputs("\t\tfi\n", f);
}

int pb_doc_bash_completion(FILE *f)
{
	unsigned int i;

	fputs("# bash completion for pktbench(8); generated by pktbench-gendoc from pktbench's "
	      "own\n# option tables and method registry: do not edit.\n\n",
	      f);
	fputs("_pktbench_methods=\"", f);
	/* the names only: go-pktgen's aliases are accepted, not offered */
	for (i = 0; i < pb_methods_count; i++)
		fprintf(f, "%s%s", i ? " " : "", pb_methods[i]->name);
	fputs("\"\n\n", f);
	fputs("# the last item of a comma list, e.g. --method udp_sendto,af_<TAB>\n"
	      "_pktbench_list()\n{\n"
	      "\tlocal head=${cur%\"${cur##*,}\"}\n"
	      "\tCOMPREPLY=($(compgen -P \"$head\" -W \"$1\" -- \"${cur##*,}\"))\n"
	      "}\n\n"
	      "# files matching a glob, and directories to get there\n"
	      "_pktbench_files()\n{\n"
	      "\tlocal IFS=$'\\n'\n"
	      "\tcompopt -o filenames 2>/dev/null\n"
	      "\tif [[ $1 == '*' ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -X \"!$1\" -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n\n",
	      f);
	fputs("_pktbench()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd=\n"
	      "\t# --opt=value: bash splits the word at '='\n"
	      "\tif [[ $cur == = ]]; then\n\t\tcur=\n\telif [[ $prev == = ]]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD - 2]}\n\tfi\n"
	      "\t((COMP_CWORD > 1)) && cmd=${COMP_WORDS[1]}\n"
	      "\tcase $cmd in\n",
	      f);
	for (i = 0; i < pb_cmds_count; i++) {
		if (!pb_cmds[i]->run)
			continue;
		fprintf(f, "\t%s)\n", pb_cmds[i]->name);
		bash_command(f, pb_cmds[i]);
		fputs("\t\t;;\n", f);
	}
	fputs("\t*)\n", f);
	bash_command(f, &pb_cmd_main);
	fputs("\t\t;;\n\tesac\n}\n\ncomplete -F _pktbench pktbench\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- the fuzzer's dictionary: every key a scenario may have, and the values that matter */

static void dict_word(FILE *f, const char *w)
{
	fputc('"', f);
	for (; *w; w++)
		fprintf(f, (*w == '"' || *w == '\\') ? "\\%c" : "%c", *w);
	fputs("\"\n", f);
}

int pb_doc_fuzz_dict(FILE *f)
{
	const struct pb_cmd *cmd = &pb_cmd_main;
	unsigned int i, k;

	fputs("# generated by pktbench-gendoc from pktbench's option table: keys and values\n", f);
	for (i = 0; i < cmd->nopts; i++) {
		const struct pb_opt *o = &cmd->opts[i];

		if (!pb_opt_in_file(o))
			continue;
		dict_word(f, o->name);
		if (o->list_key)
			dict_word(f, o->list_key);
		for (k = 0; o->names && o->names[k]; k++)
			dict_word(f, o->names[k]);
	}
	for (i = 0; i < pb_methods_count; i++)
		dict_word(f, pb_methods[i]->name);
	dict_word(f, "benchmark");
	return ferror(f) ? -EIO : 0;
}
