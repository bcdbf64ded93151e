// SPDX-License-Identifier: MIT
/*
 * pktbench's own option table: one row per flag, nothing filled by a hand-written switch. The
 * command line, scenario files (scenario.c), --help, the man page and the completion all read
 * these rows (cmd.c, doc.c); adding a row is all a new flag needs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "fleet.h"
#include "frame.h"
#include "method.h"
#include "options.h"
#include "replay.h"
#include "stats.h"

static const char *const pb_format_names[] = { "table", "json", "csv", NULL };
static const char *const pb_xdp_mode_names[] = { "auto", "native", "generic", NULL };
static const char *const pb_tristate_names[] = { "auto", "on", "off", NULL };
static const char *const pb_lab_names[] = { "direct", "router", "bridge", NULL };
static const char *const pb_timing_names[] = { "original", "topspeed", NULL };
static const char *const pb_preload_names[] = { "auto", "always", "never", NULL };
static const char *const pb_pace_names[] = { "auto", "sleep", "spin", NULL };
/* The rows --sweep may sweep, in enum pb_sweep_kind order from PB_SWEEP_FRAME_SIZE. */
static const char *const pb_sweep_names[] = { "frame-size", "streams", "batch", "segments",
					      "ring",	    "pps",     NULL };

#define OFF(field) offsetof(struct pb_config, field)

const char *pb_sweep_name(enum pb_sweep_kind kind)
{
	return kind > PB_SWEEP_NONE && kind <= PB_SWEEP_PPS ? pb_sweep_names[kind - 1] : "";
}

static const struct pb_opt pb_opts[] = {
	{ "method", 'm', OPT_METHODS, OFF(method), 0, "af_packet", 0,
	  sizeof(((struct pb_config *)0)->method), "NAME",
	  "method to run, or 'benchmark' for all of them (see Methods below)",
	  .flags = PB_OPTF_LIST, .list_key = "methods", .group = PB_G_SEND },
	{ "duration", 'd', OPT_SECS, OFF(duration_s), 0, "5", 0, PB_DURATION_MAX_S, "SECS",
	  "how long each method sends, measured after the link is up: seconds, or with ms, s, "
	  "m, h or d after the number (500ms, 30s, 1h), 1 ms to 30 days",
	  .group = PB_G_PACE, .other = "count" },
	{ "count", 'c', OPT_U64, OFF(count), 0, NULL, 1, UINT64_MAX, "N",
	  "stop after exactly N frames sent (instead of --duration); k, M or G may follow (1.5M)",
	  .flags = PB_OPTF_SI, .group = PB_G_PACE, .other = "duration" },
	{ "count-timeout", 0, OPT_SECS, OFF(count_timeout_s), 0, NULL, 0, 0, "SECS",
	  "with --count (or --replay): give up after SECS with an error and the partial figures "
	  "(default: "
	  "10 s + twice the time N frames take at --pps, or at 10 kpps)",
	  .group = PB_G_PACE },
	{ "repeat", 'r', OPT_U32, OFF(repeat), 0, "1", 1, PB_MAX_REPEAT, "N",
	  "run each method N times and report the median run (by packets/s), with the "
	  "slowest and fastest run's (pps_min, pps_max), which compare weighs, and every run "
	  "(rounds); the table marks with % a row whose runs spread more than 10 %",
	  .group = PB_G_PACE },
	{ "iface", 'i', OPT_STR, OFF(iface), 0, NULL, 0, IF_NAMESIZE, "IFACE",
	  "send on this interface; without it pktbench builds its namespace lab",
	  .flags = PB_OPTF_IFACE, .group = PB_G_WHERE },
	{ "allow-mgmt-iface", 0, OPT_FLAG, OFF(allow_mgmt_iface), 0, NULL, 0, 0, NULL,
	  "with --iface: send even on the interface of this host's default route, or the one "
	  "holding the address of the SSH session that started pktbench (refused without it: "
	  "a flood there can cut you off)",
	  .group = PB_G_WHERE },
	{ "receiver", 0, OPT_STR, OFF(receiver), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->receiver), "URL",
	  "with --iface: the pktbench receive agent that counts what arrives, e.g. "
	  "http://198.18.0.2:9310 (default: none, delivered n/a)",
	  .group = PB_G_WHERE },
	{ "start-at", 0, OPT_STR, OFF(start_at_spec), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->start_at_spec), "TIME",
	  "wait until TIME, then open the first window: RFC 3339 (2026-12-01T16:30:00Z) or a "
	  "Unix time in ns, on CLOCK_REALTIME (CLOCK_TAI with --synced-clocks); not past, at "
	  "most a day ahead",
	  .group = PB_G_FLEET },
	{ "shard", 0, OPT_STR, OFF(shard_spec), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->shard_spec), "I/N",
	  "this sender is shard I of N (0 <= I < N): it sends its share of --flows (a disjoint "
	  "block of source ports or addresses), of --pps/--rate and of --count, which are the "
	  "whole test's",
	  .group = PB_G_FLEET },
	{ "test-id", 0, OPT_STR, OFF(test_id), 0, NULL, 0, sizeof(((struct pb_config *)0)->test_id),
	  "UUID",
	  "the whole test's name, carried by every row (and told to the agent) so that "
	  "`pktbench merge` and the agent's /v1/tests/UUID sum its senders",
	  .group = PB_G_FLEET },
	{ "frame-size", 0, OPT_U32, OFF(frame_size), 0, NULL, 60, PB_FRAME_MAX, "BYTES",
	  "frame bytes without FCS, instead of --payloadsize (60 .. the MTU's frame)",
	  .group = PB_G_SEND },
	{ "sweep", 0, OPT_SWEEP, OFF(sweep), 0, NULL, 0, 0, "NAME=V1,V2,..",
	  "one run per value: frame-size=64,128,... (bytes without FCS, as --frame-size), "
	  "streams=1,2, batch=32,64,..., "
	  "segments=8,16,..., ring=256,1024,... or pps=10k,20k,... (a rate each, as --pps)",
	  pb_sweep_names, .group = PB_G_PACE },
	{ "config", 'C', OPT_CONFIG, OFF(config), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->config), "FILE",
	  "a YAML scenario; keys are these long option names; options given here override it",
	  .flags = PB_OPTF_FILE, .group = PB_G_MORE },
	{ "payloadsize", 'p', OPT_U32, OFF(payloadsize), 0, "18", 8, 65507, "BYTES",
	  "UDP payload bytes (18 gives a 60-byte frame, 64 on the wire with FCS; >= 8 for the "
	  "signature)",
	  .group = PB_G_SEND },
	{ "imix", 0, OPT_FLAG, OFF(imix), 0, NULL, 0, 0, NULL,
	  "the standard 7:4:1 mix of 64/594/1518-byte wire frames (with FCS) instead of one size",
	  .group = PB_G_SEND },
	{ "imix-sizes", 0, OPT_STR, OFF(imix_sizes), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->imix_sizes), "SIZE:W,..",
	  "a mix of your own (implies --imix): wire sizes (with FCS, 64 to 9206) and weights, "
	  "e.g. 64:7,594:4,9018:1; the weights add up to at most 64",
	  .group = PB_G_SEND },
	{ "flows", 0, OPT_U32, OFF(flows), 0, "1", 1, 65535, "N",
	  "vary the source port over N flows, a pseudo-random flow per packet", .flags = PB_OPTF_SI,
	  .group = PB_G_SEND },
	{ "flows-src-ip", 0, OPT_FLAG, OFF(flows_src_ip), 0, NULL, 0, 0, NULL,
	  "with --flows, --streams or --shard: vary the source address (from --srcip up, in its "
	  "/15) before the port",
	  .group = PB_G_SEND },
	{ "vlan", 0, OPT_U32, OFF(vlan), 0, NULL, 1, 4094, "ID",
	  "802.1Q-tag every frame with VLAN ID (frame-building methods only)", .group = PB_G_SEND },
	{ "vlan-prio", 0, OPT_U32, OFF(vlan_prio), 0, NULL, 0, 7, "PCP",
	  "with --vlan: the tag's priority", .group = PB_G_SEND },
	{ "dstip", 0, OPT_ADDR, OFF(dstip), OFF(dstip_set), "198.18.0.2", 0, 0, "ADDR",
	  "destination IP address (--lab router: 198.19.0.2)", .group = PB_G_SEND },
	{ "srcip", 0, OPT_ADDR, OFF(srcip), 0, "198.18.0.1", 0, 0, "ADDR", "source IP address",
	  .group = PB_G_SEND },
	{ "dstmac", 0, OPT_MAC, OFF(dstmac), OFF(dstmac_set), NULL, 0, 0, "MAC",
	  "destination MAC (default: the lab receiver's, or the --receiver agent's; "
	  "c0:ff:ee:00:00:00 with a bare --iface)",
	  .group = PB_G_SEND },
	{ "srcmac", 0, OPT_MAC, OFF(srcmac), OFF(srcmac_set), NULL, 0, 0, "MAC",
	  "source MAC (default: the sending interface's MAC; a frame method's --replay: the "
	  "run's, which the receiver counts by; given, every replayed frame carries it, as "
	  "tcpreplay's --enet-smac, and a receiver cannot count them)",
	  .group = PB_G_SEND },
	{ "dstport", 0, OPT_PORT, OFF(dstport), 0, "12345", 1, 65535, "PORT",
	  "destination UDP port", .group = PB_G_SEND },
	{ "srcport", 0, OPT_PORT, OFF(srcport), 0, "12345", 1, 65535, "PORT",
	  "base source UDP port; stream i uses srcport+i", .group = PB_G_SEND },
	{ "streams", 's', OPT_U32, OFF(streams), 0, "1", 1, PB_MAX_STREAMS, "N",
	  "sending threads, each its own flow (source port)", .group = PB_G_PACE },
	{ "segments", 0, OPT_U32, OFF(segments), OFF(segments_set), "8", 1, PB_MAX_SEGMENTS, "N",
	  "GSO methods: segments per datagram, at most the kernel's UDP_MAX_SEGMENTS (64); "
	  "payloadsize x segments <= 65507 (the default 8 is lowered to what fits)",
	  .group = PB_G_PACE },
	{ "batch", 'b', OPT_U32, OFF(batch), 0, NULL, 1, 4096, "N",
	  "frames (GSO methods: datagrams) per send call for batching methods (default: the "
	  "method's own)",
	  .group = PB_G_PACE },
	{ "ring", 0, OPT_U32, OFF(ring), 0, NULL, 16, 65536, "N",
	  "ring size of ring methods: af_xdp TX descriptors, af_packet slots, io_uring SQ "
	  "entries (default: the method's own; the Mode column shows what it got)",
	  .group = PB_G_PACE },
	{ "tune", 0, OPT_FLAG, OFF(tune), 0, NULL, 0, 0, NULL,
	  "first search each method's own knobs (batch, segments, ring) in short trials, then "
	  "run it at its best setting (the Mode column shows it)",
	  .group = PB_G_PACE },
	{ "pps", 0, OPT_RATE, OFF(pps), OFF(sweep), NULL, 0, 0, "RATE",
	  "aggregate packets/s over all streams, k, M or G after the number (50k, 1.5M), at "
	  "most 10G (default: as fast "
	  "as it goes); or a profile: steps RATE:SECS[,...] (100k:10s,200k:10s) and ramps "
	  "FROM-TO:SECS (a step a second), one row a step, each method's steps back to back",
	  .flags = PB_OPTF_PROFILE, .group = PB_G_PACE, .other = "rate" },
	{ "rate", 0, OPT_RATE, OFF(rate_gbps), 0, NULL, 0, 0, "BITRATE",
	  "aggregate rate on the wire (L1) instead of --pps: Gb/s, or with its unit after the "
	  "number (100Mbit, 2.5Gbit, 10Gb/s)",
	  .flags = PB_OPTF_BITS, .group = PB_G_PACE, .other = "pps" },
	{ "pace", 0, OPT_ENUM, OFF(pace), 0, "auto", 0, 0, "auto|sleep|spin",
	  "with --pps, --rate or --replay: how a paced sender waits: sleep (slept to the "
	  "instant, what fell due meanwhile goes in one call: its CPU follows the rate, "
	  "departures late by tens of us), spin (the last 100 us of each wait spun: gaps exact "
	  "to the us, a CPU busy at any rate); auto sleeps --pps and --rate, spins a --replay's "
	  "schedule",
	  pb_pace_names, .group = PB_G_PACE },
	{ "replay", 0, OPT_STR, OFF(replay), 0, NULL, 0, sizeof(((struct pb_config *)0)->replay),
	  "FILE",
	  "send a capture (pcap, nanosecond pcap, pcapng) instead of built frames, each due at "
	  "its own deadline (--timing). Frame methods send every frame as captured (any "
	  "protocol), with the path's destination MAC and the run's source MAC, which the "
	  "receiver counts them by; socket methods and raw_socket send its UDP frames only, "
	  "rebuilt with this run's addresses and signature, and say what they left out",
	  .flags = PB_OPTF_FILE, .group = PB_G_REPLAY },
	{ "rewrite-ip", 0, OPT_STR, OFF(rewrite_ip), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->rewrite_ip), "MAP",
	  "--replay, frame methods: rewrite IP addresses (also in ARP): 'run' (sources to "
	  "--srcip, destinations to --dstip) or FROM/LEN=TO/LEN[,...] (an address in FROM takes "
	  "TO's first LEN bits), IPv4/TCP/UDP/ICMPv6 checksums brought along",
	  .group = PB_G_REPLAY },
	{ "rewrite-port", 0, OPT_STR, OFF(rewrite_port), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->rewrite_port), "MAP",
	  "--replay, frame methods: rewrite TCP and UDP ports, source and destination: "
	  "FROM=TO[,...], checksums brought along",
	  .group = PB_G_REPLAY },
	{ "vlan-strip", 0, OPT_FLAG, OFF(vlan_strip), 0, NULL, 0, 0, NULL,
	  "--replay, frame methods: send the capture's tagged frames untagged (--vlan ID sets "
	  "or adds a tag instead)",
	  .group = PB_G_REPLAY },
	{ "limit", 0, OPT_U64, OFF(limit), 0, NULL, 1, UINT64_MAX, "N",
	  "--replay: send the replay's first N frames (over its passes, in file order) and stop, "
	  "as tcpreplay's --limit (--count is for built frames)",
	  .group = PB_G_REPLAY },
	{ "fixcsum", 0, OPT_FLAG, OFF(fixcsum), 0, NULL, 0, 0, NULL,
	  "--replay, frame methods: compute every IPv4 header, UDP, TCP and ICMPv6 checksum "
	  "afresh (a capture's wrong or offloaded ones), as tcprewrite's --fixcsum; a frame "
	  "that does not hold its whole datagram keeps its own",
	  .group = PB_G_REPLAY },
	{ "timing", 0, OPT_ENUM, OFF(replay_timing), 0, "original", 0, 0, "original|topspeed",
	  "--replay: the file's own gaps (original; --pps or --rate space the frames evenly "
	  "instead) or no schedule at all (topspeed)",
	  pb_timing_names, .group = PB_G_REPLAY },
	{ "topspeed", 0, OPT_FLAG, OFF(topspeed), 0, NULL, 0, 0, NULL,
	  "--replay as fast as the path goes: the same as --timing topspeed",
	  .group = PB_G_REPLAY },
	{ "multiplier", 0, OPT_RATE, OFF(multiplier), 0, NULL, 0, 0, "X",
	  "--replay --timing original: the file's gaps divided by X (2: twice as fast)",
	  .flags = PB_OPTF_FACTOR, .group = PB_G_REPLAY },
	{ "loop", 0, OPT_U32, OFF(loop), 0, "1", 0, UINT32_MAX, "N",
	  "--replay: passes over the file, exactly N x its frames (0: until --duration)",
	  .flags = PB_OPTF_SI, .group = PB_G_REPLAY },
	{ "loop-delay", 0, OPT_SECS, OFF(loop_delay_s), 0, NULL, 0, 0, "SECS",
	  "--replay: added to the gap at each wrap, which is otherwise what one more frame "
	  "would take (the file's mean gap, 1 / --pps, or the last frame's wire time at --rate)",
	  .group = PB_G_REPLAY },
	{ "preload", 0, OPT_ENUM, OFF(preload), 0, "auto", 0, 0, "auto|always|never",
	  "--replay: read the whole file into memory when that takes at most --preload-max (auto), "
	  "whatever its size (always), or never: stream it from disk through a window of 2048 "
	  "frames a stream (also auto over the bound; af_packet*, af_xdp, raw_socket, pcap)",
	  pb_preload_names, .group = PB_G_REPLAY },
	{ "preload-max", 0, OPT_U32, OFF(preload_max_mib), 0, "1024", 1, 1048576, "MIB",
	  "--replay --preload auto: the most memory a preloaded capture may take, in MiB (its "
	  "frames once, and about 100 bytes a frame); one that would take more is streamed "
	  "from disk",
	  .group = PB_G_REPLAY },
	{ "latency", 0, OPT_FLAG, OFF(latency), 0, NULL, 0, 0, NULL,
	  "latency probes: one frame in N of each stream carries a sequence number and its "
	  "transmit time; the receiver reports one-way latency, jitter, loss and order",
	  .group = PB_G_MEASURE },
	{ "latency-pps", 0, OPT_RATE, OFF(latency_pps), 0, NULL, 0, 0, "RATE",
	  "latency probes per second over all streams (default 1000; implies --latency)",
	  .group = PB_G_MEASURE },
	{ "synced-clocks", 0, OPT_FLAG, OFF(synced_clocks), 0, NULL, 0, 0, NULL,
	  "the sender's and the receiver's clocks are synchronised (PTP): probes carry "
	  "CLOCK_TAI, so a receiver on another host reports one-way latency (implies --latency)",
	  .group = PB_G_MEASURE },
	{ "cpus", 0, OPT_CPUS, OFF(cpus), OFF(ncpus), NULL, 0, PB_MAX_STREAMS, "LIST",
	  "pin stream i to the i-th CPU of LIST (e.g. 0,1 or 0-3; default: pktbench places "
	  "them by the interface's IRQs and NAPI threads and each CPU's other work, and says "
	  "where on stderr, see pktbench environment; a lab with a DUT: the CPUs it does not "
	  "forward on)",
	  .flags = PB_OPTF_LIST, .group = PB_G_PACE },
	{ "link-timeout", 0, OPT_SECS, OFF(link_timeout_s), 0, "30", 0, 0, "SECS",
	  "how long to wait for the carrier before giving up", .group = PB_G_WHERE },
	{ "lab", 0, OPT_ENUM, OFF(lab_kind), OFF(lab_set), "direct", 0, 0, "direct|router|bridge",
	  "the namespace lab: sender and receiver on one veth pair (direct), or a device under "
	  "test between them in a namespace of its own that routes 198.18.0.0/24 <-> "
	  "198.19.0.0/24 (router) or bridges (bridge)",
	  pb_lab_names, .group = PB_G_WHERE },
	{ "lab-dut-setup", 0, OPT_STR, OFF(lab_dut_setup), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->lab_dut_setup), "FILE",
	  "with --lab router|bridge: a shell script run inside the DUT's namespace once it is "
	  "built (qdiscs, nftables rules); $PB_DUT_IN and $PB_DUT_OUT name its interfaces",
	  .flags = PB_OPTF_FILE, .group = PB_G_WHERE },
	{ "mtu", 0, OPT_U32, OFF(lab_mtu), 0, NULL, 576, PB_FRAME_MAX - PB_ETH_HLEN, "BYTES",
	  "the lab's MTU (the IP packet: a frame is 14 bytes more without FCS), on every veth "
	  "and bridge of it (default 1500, or what --frame-size "
	  "needs; 9000 for jumbo frames): its XDP programs are loaded multi-buffer, so native "
	  "XDP still runs. With --iface the interface's own MTU counts (ip link set IF mtu N)",
	  .group = PB_G_WHERE },
	{ "keep-lab", 0, OPT_FLAG, OFF(keep_lab), 0, NULL, 0, 0, NULL,
	  "leave the namespace lab in place after the run (for debugging)", .group = PB_G_WHERE },
	{ "lab-tx-setup", 0, OPT_STR, OFF(lab_tx_setup), 0, NULL, 0,
	  sizeof(((struct pb_config *)0)->lab_tx_setup), "FILE",
	  "a shell script run in the lab's sender namespace once the lab is up, before any "
	  "method (PB_LAB_TX_IF names the sending end), e.g. a qdisc that shapes the path",
	  .flags = PB_OPTF_FILE, .group = PB_G_WHERE },
	{ "xdp-mode", 0, OPT_ENUM, OFF(xdp_mode), 0, "auto", 0, 0, "auto|native|generic",
	  "XDP attach / AF_XDP bind mode; auto tries native (driver) first", pb_xdp_mode_names,
	  .group = PB_G_WHERE },
	{ "zerocopy", 0, OPT_ENUM, OFF(zerocopy), 0, "auto", 0, 0, "auto|on|off",
	  "af_xdp: zero-copy where the driver has it (auto), insist (on), copy mode (off); "
	  "io_uring: SEND_ZC from 4 KiB payloads (auto), always (on), never (off)",
	  pb_tristate_names, .group = PB_G_WHERE },
	{ "force", 0, OPT_FLAG, OFF(force), 0, NULL, 0, 0, NULL,
	  "replace an XDP program already on --iface: it is put back afterwards; after a SIGKILL "
	  "the interface has none until `pktbench receive --restore IFACE` or the next start puts "
	  "it back",
	  .group = PB_G_WHERE },
	{ "format", 'f', OPT_ENUM, OFF(format), 0, "table", 0, 0, "table|json|csv", "output format",
	  pb_format_names, .group = PB_G_OUTPUT },
	{ "output", 'o', OPT_STR, OFF(output), 0, NULL, 0, sizeof(((struct pb_config *)0)->output),
	  "FILE", "write the results to FILE (atomically) instead of stdout", .flags = PB_OPTF_FILE,
	  .group = PB_G_OUTPUT },
	{ "stream", 0, OPT_STR, OFF(stream), 0, NULL, 0, sizeof(((struct pb_config *)0)->stream),
	  "FILE",
	  "the results as they happen, one JSON object a line (NDJSON) into FILE: an interval "
	  "each second of every run (frames sent and delivered in it, their rates, the link), "
	  "then the run's row as --format json writes it. - is stdout, which then holds only "
	  "the NDJSON: the table goes to stderr, a JSON or CSV set needs -o FILE",
	  .group = PB_G_OUTPUT },
	{ "quiet", 'q', OPT_FLAG, OFF(quiet), 0, NULL, 0, 0, NULL, "no live per-second lines",
	  .group = PB_G_OUTPUT },
	{ "show-counters", 0, OPT_FLAG, OFF(show_counters), 0, NULL, 0, 0, NULL,
	  "the table adds the three-point accounting of each row: sent, what left the sending "
	  "interface, what the receiver counted, what each end dropped (the JSON always has it)",
	  .group = PB_G_MEASURE },
	{ "wide", 0, OPT_FLAG, OFF(wide), 0, NULL, 0, 0, NULL,
	  "the table's every column: on a terminal (or with $COLUMNS) it otherwise fits the "
	  "width, leaving out columns by rank (a file or a pipe gets every column)",
	  .group = PB_G_OUTPUT },
	{ "verbose", 'v', OPT_COUNT, OFF(verbose), 0, NULL, 0, 0, NULL,
	  "more log output (repeatable)", .group = PB_G_OUTPUT },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help", .group = PB_G_MORE },
	{ "version", 'V', OPT_VERSION, 0, 0, NULL, 0, 0, NULL, "print the version",
	  .group = PB_G_MORE },
};

#define PB_NOPTS (sizeof(pb_opts) / sizeof(pb_opts[0]))

const char *const pb_groups[] = { PB_G_SEND,   PB_G_PACE,  PB_G_WHERE, PB_G_MEASURE, PB_G_OUTPUT,
				  PB_G_REPLAY, PB_G_FLEET, PB_G_MORE,  NULL };

#define PB_LAB_WHY                                                                                 \
	"cannot go together: --iface sends on an interface as it is, the other builds or shapes "  \
	"the namespace lab (leave --iface out for the lab)"

/*
 * Every pair of options that set the same thing: given both, the run is refused rather than
 * one of them ignored (a --count made a --duration moot, a frame-size sweep a --frame-size).
 * What two values decide together (--timing topspeed with --pps, --replay with --count) is
 * pb_replay_validate's and opt_validate's.
 */
const struct pb_conflict pb_conflicts[] = {
	/* --tune's trials last a fifth of --duration, its rows --count frames */
	{ { "duration", "count" }, {}, "both set when each run ends: give one", "tune" },
	{ { "count", "loop" }, {}, "both set how many frames go: give one" },
	{ { "frame-size", "payloadsize", "imix", "imix-sizes", "sweep=frame-size" },
	  {},
	  "both set the frame size: give one" },
	{ { "pps", "rate", "sweep=pps", "multiplier", "topspeed" },
	  {},
	  "both set the rate: give one" },
	{ { "timing", "topspeed" }, {}, "both set the replay's timing: give one" },
	{ { "streams", "sweep=streams" }, {}, "both set the streams: give one" },
	{ { "tune", "sweep" }, {}, "both choose each run's settings: give one" },
	{ { "batch", "sweep=batch", "tune" }, {}, "both set the batch: give one" },
	{ { "segments", "sweep=segments", "tune" }, {}, "both set the segments: give one" },
	{ { "ring", "sweep=ring", "tune" }, {}, "both set the ring: give one" },
	{ { "vlan", "vlan-strip" }, {}, "both set the frames' VLAN tag: give one" },
	/* the table's own options: JSON and CSV print no table (their rows hold every field) */
	{ { "wide", "show-counters" },
	  { "format=json", "format=csv" },
	  "cannot go together: the one shapes the table, and the other prints none (its rows "
	  "hold every field)" },
	{ { "iface" }, { "lab", "lab-dut-setup", "lab-tx-setup", "keep-lab" }, PB_LAB_WHY },
	{ { "iface" },
	  { "mtu" },
	  "cannot go together: with --iface the interface's own MTU counts (ip link set dev "
	  "IFACE mtu N)" },
	{ {} },
};

#define PB_REPLAY_WHY "it shapes how a capture is replayed"

/*
 * Options that do nothing without another: refused, naming what they need, rather than run
 * as if they were not given (on main --count-timeout 5 without --count ran 5 s and said
 * nothing). rfc2544 shares these; pb_needs_main is pktbench's own.
 */
const struct pb_need pb_needs[] = {
	{ "count-timeout",
	  { "count", "replay" },
	  "it bounds a run that ends after a count of frames (--count, or a --replay's --loop "
	  "passes); a --duration run ends on time" },
	{ "allow-mgmt-iface",
	  { "iface" },
	  "it lets --iface name the interface you are logged in through; the lab is its own" },
	{ "receiver", { "iface" }, "the lab has its own receiver" },
	{ "lab-dut-setup",
	  { "lab=router", "lab=bridge" },
	  "it runs in the device under test's namespace, and the direct lab has none" },
	{ "force",
	  { "iface" },
	  "it replaces an XDP program already on --iface; the lab's interfaces are its own" },
	{ "flows-src-ip",
	  { "flows", "streams", "shard", "sweep=streams" },
	  "it varies the source address over the flows, and one stream alone is one flow" },
	{ "vlan-prio", { "vlan" }, "it is the priority of the tag --vlan ID adds" },
	{ "rewrite-ip", { "replay" }, PB_REPLAY_WHY },
	{ "rewrite-port", { "replay" }, PB_REPLAY_WHY },
	{ "vlan-strip", { "replay" }, PB_REPLAY_WHY },
	{ "timing", { "replay" }, PB_REPLAY_WHY },
	{ "topspeed", { "replay" }, PB_REPLAY_WHY },
	{ "multiplier", { "replay" }, PB_REPLAY_WHY },
	{ "loop", { "replay" }, PB_REPLAY_WHY },
	{ "loop-delay", { "replay" }, PB_REPLAY_WHY },
	{ "preload", { "replay" }, PB_REPLAY_WHY },
	{ "preload-max", { "replay" }, PB_REPLAY_WHY },
	{},
};

/* pktbench's --pace; rfc2544's own --pace paces every trial */
static const struct pb_need pb_needs_main[] = {
	{ "pace",
	  { "pps", "rate", "sweep=pps", "replay" },
	  "it says how a paced sender waits, and without a rate or a capture's schedule none "
	  "waits" },
	{},
};

static const struct pb_need *const pb_main_needs[] = { pb_needs, pb_needs_main, NULL };

/* IMIX: 7:4:1 of 64, 594 and 1518-byte wire frames. */
static const char pb_imix_std[] = "64:7,594:4,1518:1";

/*
 * --imix's cycle from --imix-sizes (or the standard mix): each size, FCS taken off, as many
 * times as its weight, in the order given. The sizes are on the wire as IMIX's are; 9206 is a
 * 9202-byte MTU's frame with its FCS, the most the lab takes.
 */
static int opt_parse_imix(struct pb_config *cfg, char *err, size_t errlen)
{
	const char *p = cfg->imix_sizes[0] ? cfg->imix_sizes : pb_imix_std;
	unsigned long size, weight;
	char *end;

	cfg->imix_n = 0;
	while (*p) {
		/* decimal digits first: strtoul takes blanks and signs too */
		errno = 0;
		size = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
		end = size ? end : (char *)p;
		weight = 1;
		if (end != p && *end == ':') {
			p = end + 1;
			weight = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
		}
		if (end == p || errno || (*end && (*end != ',' || !end[1])) || size < 64 ||
		    size > 9206 ||
		    !weight || weight > PB_IMIX_MAX - cfg->imix_n) {
			snprintf(err, errlen,
				 "--imix-sizes %s: give SIZE:WEIGHT,... with wire sizes 64 to 9206 "
				 "and weights adding up to at most %d (e.g. 64:7,594:4,1518:1)",
				 cfg->imix_sizes, PB_IMIX_MAX);
			return -EINVAL;
		}
		while (weight--)
			cfg->imix_cycle[cfg->imix_n++] = (uint32_t)size - 4;
		p = *end ? end + 1 : end;
	}
	cfg->imix = true;
	return 0;
}

/* The smallest UDP payload the run sends, as far as the options tell. */
static uint32_t opt_min_payload(const struct pb_config *cfg)
{
	uint32_t hdr = pb_frame_overhead(cfg->dstip.family), min = UINT32_MAX, i;

	if (cfg->imix) {
		for (i = 0; i < cfg->imix_n; i++)
			min = cfg->imix_cycle[i] < min ? cfg->imix_cycle[i] : min;
		/* its frames too small for IPv6 become the smallest that can hold it */
		return min >= hdr + PB_PROBE_LEN ? min - hdr : PB_SIG_LEN;
	}
	if (cfg->sweep.kind == PB_SWEEP_FRAME_SIZE) {
		for (i = 0; i < cfg->sweep.n; i++)
			if (cfg->sweep.values[i] < min)
				min = cfg->sweep.values[i];
		return min > hdr ? min - hdr : 0;
	}
	if (cfg->frame_size)
		return cfg->frame_size > hdr ? cfg->frame_size - hdr : 0;
	return cfg->payloadsize;
}

static int opt_validate_latency(struct pb_config *cfg, char *err, size_t errlen)
{
	uint32_t min = opt_min_payload(cfg);

	/* either says what the probes are like: there are probes */
	cfg->latency |= cfg->latency_pps > 0 || cfg->synced_clocks;
	if (!cfg->latency)
		return 0;
	if (min < PB_PROBE_LEN) {
		snprintf(err, errlen,
			 "--latency needs UDP payloads of %u bytes or more (signature, sequence "
			 "number, timestamp); this run sends %u-byte ones",
			 PB_PROBE_LEN, min);
		return -EINVAL;
	}
	if (cfg->pps && cfg->latency_pps > cfg->pps) {
		snprintf(err, errlen,
			 "--latency-pps %.0f is more than --pps %.0f: at most every frame is a "
			 "probe",
			 cfg->latency_pps, cfg->pps);
		return -EINVAL;
	}
	return 0;
}

/* A rate above what any run sends (1e28 paced one frame; 1.7e308 none): refused. */
static int opt_validate_rate(const char *name, double v, double max, const char *unit, char *err,
			     size_t errlen)
{
	if (v <= max)
		return 0;
	snprintf(err, errlen, "--%s %g is more than any run sends: from above 0 up to %g %s", name,
		 v, max, unit);
	return -EINVAL;
}

/*
 * A rate whose share sends nothing in the run: the pacer sends a stream's first frame (and
 * the probe scheduler its first probe) 1 / the stream's share of the rate after the start
 * (harness/pacer.c, with its 1e-6 of rounding), so a share below 1 / the window sends none,
 * and the row said ok with nothing sent. rate is what the option says, per_unit the frames a
 * second one unit of it is at most; shards, the senders that split it (--shard).
 */
static int opt_validate_sends(const struct pb_config *cfg, const char *name, double rate,
			      double per_unit, const char *unit, uint32_t shards, const char *what,
			      char *err, size_t errlen)
{
	double window = cfg->count ? cfg->count_timeout_s : cfg->duration_s;
	uint32_t streams = cfg->streams, i;
	char who[96];
	double share;

	if (cfg->count && !window)
		window = PB_DURATION_MAX_S; /* --count runs until done: at most the longest run */
	for (i = 0; cfg->sweep.kind == PB_SWEEP_STREAMS && i < cfg->sweep.n; i++)
		streams = cfg->sweep.values[i] > streams ? cfg->sweep.values[i] : streams;
	share = (double)streams * shards;
	if (!(rate > 0) || !(window > 0) || window * rate * per_unit / share + 1e-6 >= 1)
		return 0;
	if (shards > 1)
		snprintf(who, sizeof(who), "%u stream%s in each of %u shards", streams,
			 streams > 1 ? "s" : "", shards);
	else
		snprintf(who, sizeof(who), "%u stream%s", streams, streams > 1 ? "s" : "");
	snprintf(err, errlen,
		 "--%s %g%s sends no %s in this run: shared by %s, a stream's first %s is due %g "
		 "s after the start, past the %g s %s; give at least %g%s",
		 name, rate, unit, what, who, what, share / (rate * per_unit), window,
		 cfg->count ? "a run may last" : "window", share / (window * per_unit), unit);
	return -EINVAL;
}

/* --pps, --rate and --latency-pps: each sends something in the run (opt_validate_sends). */
static int opt_validate_shares(const struct pb_config *cfg, char *err, size_t errlen)
{
	uint32_t idx, shards = 1, i;
	double pps = cfg->pps;
	int ret;

	/* a bad --shard is said later, with the fleet's checks */
	if (cfg->shard_spec[0] && pb_parse_shard(cfg->shard_spec, &idx, &shards))
		shards = 1;
	for (i = 0; cfg->sweep.kind == PB_SWEEP_PPS && !cfg->sweep.profile && i < cfg->sweep.n; i++)
		pps = !pps || cfg->sweep.values[i] < pps ? cfg->sweep.values[i] : pps;
	ret = opt_validate_sends(cfg, "pps", pps, 1, "", shards, "frame", err, errlen);
	/* the most frames a Gb/s can be: 84 bytes each on the wire (60, FCS, preamble, gap) */
	ret = ret
		      ?: opt_validate_sends(cfg, "rate", cfg->rate_gbps, 1e9 / (8 * 84.0), " Gb/s",
					    shards, "frame", err, errlen);
	return ret
		       ?: opt_validate_sends(cfg, "latency-pps", cfg->latency_pps, 1, "", 1,
					     "probe", err, errlen);
}

/* The ranges a run can have (options.h); an all-zero --test-id names no test. */
static int opt_validate_ranges(const struct pb_config *cfg, char *err, size_t errlen)
{
	int ret;

	ret = opt_validate_rate("pps", cfg->pps, PB_PPS_MAX, "packets/s", err, errlen);
	ret = ret
		      ?: opt_validate_rate("latency-pps", cfg->latency_pps, PB_PPS_MAX, "packets/s",
					   err, errlen);
	ret = ret
		      ?: opt_validate_rate("rate", cfg->rate_gbps, PB_RATE_GBPS_MAX, "Gb/s", err,
					   errlen);
	if (ret)
		return ret;
	/* 0: a command without --duration (rfc2544 times its own trials) */
	if (cfg->duration_s &&
	    (cfg->duration_s < PB_DURATION_MIN_S || cfg->duration_s > PB_DURATION_MAX_S)) {
		snprintf(err, errlen,
			 "--duration %g s is %s than any run: from %g s to %.0f s (30 days)",
			 cfg->duration_s,
			 cfg->duration_s < PB_DURATION_MIN_S ? "shorter" : "longer",
			 PB_DURATION_MIN_S, PB_DURATION_MAX_S);
		return -EINVAL;
	}
	if (cfg->test_id[0] && !cfg->test_id[strspn(cfg->test_id, "0-")]) {
		snprintf(err, errlen,
			 "--test-id %s is all zero: give the test a UUID of its own (uuidgen)",
			 cfg->test_id);
		return -EINVAL;
	}
	return opt_validate_shares(cfg, err, errlen);
}

/* Cross-field checks that no single row can make. */
static int opt_validate(void *dst, char *err, size_t errlen)
{
	struct pb_config *cfg = dst;
	struct pb_frame_spec base = { .srcip = cfg->srcip, .srcport = cfg->srcport };
	uint64_t room = pb_flows_available(&base, cfg->flows_src_ip);
	int ret;

	/* the router's receiver lives in the second test network, 198.19.0.0/24 (RFC 2544 C.2.2) */
	if (cfg->lab_kind == PB_LAB_ROUTER && !cfg->dstip_set)
		pb_parse_addr(cfg->srcip.family == AF_INET6 ? "2001:2:0:1::2" : "198.19.0.2",
			      &cfg->dstip);
	if (cfg->srcip.family != cfg->dstip.family) {
		snprintf(err, errlen, "--srcip and --dstip must both be IPv4 or both IPv6");
		return -EINVAL;
	}
	if (cfg->lab_kind == PB_LAB_ROUTER &&
	    (cfg->srcip.family == AF_INET
		     ? !((cfg->srcip.v4.s_addr ^ cfg->dstip.v4.s_addr) & htonl(0xffffff00))
		     : !memcmp(cfg->srcip.v6.s6_addr, cfg->dstip.v6.s6_addr, 8))) {
		snprintf(err, errlen,
			 "--lab router routes between two prefixes: --srcip and --dstip must "
			 "be in different /%d (e.g. 198.18.0.1 -> 198.19.0.2, 2001:2::1 -> "
			 "2001:2:0:1::2)",
			 cfg->srcip.family == AF_INET ? 24 : 64);
		return -EINVAL;
	}
	if (cfg->flows > room || cfg->streams > room) {
		snprintf(err, errlen, "--flows %u: only %llu flows fit above source port %u%s",
			 cfg->flows, (unsigned long long)room, cfg->srcport,
			 cfg->flows_src_ip ? " and address" : " (try --flows-src-ip)");
		return -EINVAL;
	}
	if ((cfg->imix || cfg->imix_sizes[0]) && (ret = opt_parse_imix(cfg, err, errlen)))
		return ret;
	/* stdout holds one thing: --stream -'s NDJSON or the result set (a table: stderr) */
	if (!strcmp(cfg->stream, "-") &&
	    (!strcmp(cfg->output, "-") || (!cfg->output[0] && cfg->format != PB_FORMAT_TABLE))) {
		snprintf(err, errlen,
			 "--stream - and %s both write to stdout: give the result set a file "
			 "(-o FILE), or the stream one",
			 cfg->output[0]			 ? "--output -"
			 : cfg->format == PB_FORMAT_JSON ? "--format json"
							 : "--format csv");
		return -EINVAL;
	}
	ret = opt_validate_ranges(cfg, err, errlen);
	ret = ret ?: opt_validate_latency(cfg, err, errlen);
	ret = ret ?: pb_replay_validate(cfg, err, errlen);
	/* a file that cannot be replayed is bad input, found before anything runs */
	return ret || !cfg->replay[0] ? ret : pb_replay_check_file(cfg->replay, err, errlen);
}

/*
 * A bit rate given to --pps: the packets a second it is on the wire (L1) at the run's one
 * frame size, so the refusal can say the value that means what was asked. Nothing where the
 * frames' size varies (--imix, a frame-size sweep, --replay) or a tag may be added (--vlan).
 */
static void opt_unit_hint(const void *dst, const struct pb_opt *o, double bits, const char *arg,
			  char *buf, size_t len)
{
	const struct pb_config *cfg = dst;
	uint32_t frame;

	if (strcmp(o->name, "pps") || cfg->imix || cfg->imix_sizes[0] || cfg->replay[0] ||
	    cfg->sweep.kind == PB_SWEEP_FRAME_SIZE || cfg->vlan)
		return;
	frame = cfg->frame_size ?: pb_frame_overhead(cfg->dstip.family) + cfg->payloadsize;
	snprintf(buf, len, "; at this run's %u-byte frames, %s on the wire is --pps %.0f", frame,
		 arg, bits / (8.0 * pb_wire_bytes(frame, false)));
}

const struct pb_cmd pb_cmd_main = {
	.name = "pktbench",
	.summary = "measure which Linux send path is fastest, and by how much",
	.synopsis = "[--method NAME|benchmark] [options]",
	.description =
		"Sends UDP traffic through a Linux send path and measures it: AF_XDP, the "
		"kernel's XDP transmit loop, sendto, connected sockets, sendmmsg, io_uring, UDP "
		"GSO, raw sockets, an AF_PACKET ring and libpcap, one of them or each in turn "
		"for the same time. Without --iface it builds a namespace lab (veth pair, "
		"198.18.0.1 -> 198.18.0.2) whose XDP receiver counts what really arrived. Needs "
		"root (CAP_SYS_ADMIN, CAP_NET_ADMIN, CAP_NET_RAW).\n\n"
		"Numbers are decimal, in the option's own unit or with one after them: durations "
		"take ms, s, m, h or d (--duration 30s; bare: seconds), counts and packet rates k, "
		"M or G (--count 1.5M, --pps 50k), bit rates kbit, Mbit, Gbit or Tbit, or Mb/s and "
		"Gb/s (--rate 100Mbit; bare: Gb/s). m is minutes, M millions. A value in another "
		"kind of unit is refused, and so is an option given without the one it goes with "
		"(--count-timeout without --count).",
	.exit_status = "0    something was measured as asked: a row ran (the others, if any, "
		       "skipped with their reasons)\n"
		       "1    a run failed, or the results could not be written\n"
		       "2    bad input (a file too) or missing privileges, found before anything "
		       "runs (one line on stderr)\n"
		       "3    nothing was measured: every row was skipped, each with its reason\n"
		       "129  hung up (SIGHUP: partial results are still printed)\n"
		       "130  interrupted (SIGINT, SIGTERM: partial results are still printed)",
	.examples = "pktbench --method benchmark --duration 30\n"
		    "every method in the namespace lab, 30 s each, one table by packets/s\n"
		    "pktbench --method af_xdp,af_packet --pps 1M --format json -o run.json\n"
		    "two methods at one million packets/s, the results as JSON in run.json\n"
		    "pktbench --config /usr/share/pktbench/scenarios/frame-size-sweep.yaml\n"
		    "a frame-size sweep from a scenario file (in a source tree, not installed: "
		    "scenarios/frame-size-sweep.yaml)\n"
		    "pktbench --iface eth1 --dstmac 0c:42:a1:00:00:01 --method udp_sendto\n"
		    "send on a real interface towards a receiver's MAC",
	.opts = pb_opts,
	.nopts = PB_NOPTS,
	.groups = pb_groups,
	.size = sizeof(struct pb_config),
	.conflicts = pb_conflicts,
	.needs = pb_main_needs,
	.given_off = OFF(given),
	.unit_hint = opt_unit_hint,
	.validate = opt_validate,
};

int pb_options_parse_cmd(const struct pb_cmd *cmd, struct pb_config *cfg, int argc, char **argv,
			 enum pb_opt_action *action, char *err, size_t errlen)
{
	size_t i, off = 0;
	int ret;

	ret = pb_cmd_parse(cmd, cfg, argc, argv, action, NULL, err, errlen);
	/* a subcommand's argv[0] is its name: the command line starts with pktbench still */
	if (cmd != &pb_cmd_main)
		off = (size_t)snprintf(cfg->command, sizeof(cfg->command), "pktbench ");
	for (i = 0; i < (size_t)argc && off < sizeof(cfg->command) - 1; i++)
		off += snprintf(cfg->command + off, sizeof(cfg->command) - off, "%s%s",
				i ? " " : "", argv[i]);
	return ret;
}

int pb_options_parse(struct pb_config *cfg, int argc, char **argv, enum pb_opt_action *action,
		     char *err, size_t errlen)
{
	return pb_options_parse_cmd(&pb_cmd_main, cfg, argc, argv, action, err, errlen);
}
