// SPDX-License-Identifier: GPL-2.0
/*
 * The xdp_live generator: BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES runs this program
 * once per frame, in the kernel, and transmits every frame it returns XDP_TX for out of
 * the ingress interface given in the context. With --flows it varies the frame per packet
 * here: a pseudo-random flow of this stream's share, the same flow numbering as the user
 * space pools (source port first, or the source address first with --flows-src-ip), and
 * the IPv4 and UDP checksums updated incrementally (RFC 1624) so every frame stays valid.
 */
#include <linux/bpf.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "pb_bpf.h"

/* Set between open and load; the defaults send the frame exactly as given. */
const volatile __u32 flows = 1;	    /* flows of this stream */
const volatile __u32 flow_first;    /* this stream's first flow: k = first + i * step */
const volatile __u32 flow_step = 1; /* the number of streams */
const volatile __u32 span = 1;	    /* values of the field that varies first */
const volatile __u16 base_port;	    /* --srcport, host order */
const volatile __u32 base_addr;	    /* IPv4 source, or IPv6's low 32 bits, host order */
const volatile __u8 vary_addr;
const volatile __u8 ipv6;
const volatile __u8 l3_off = 14; /* 18 with an 802.1Q tag */
/*
 * A router downstream (--lab router) rewrites each frame in place, MACs and TTL, and the
 * kernel hands the same pages back to this program for later frames: put them back.
 */
const volatile __u8 restore;
const volatile __u8 macs[12]; /* destination, then source, as the frame was built */

#define PB_TTL 64 /* what harness/frame.c writes, IPv4 TTL and IPv6 hop limit alike */

/*
 * --replay: the stream's frames in replay_frames (replay_n of them, sized at load); each run
 * of the program writes the next one, in order, over the live frame and sends it. The live
 * frame starts each run at the longest frame's length (data_in), so the tail only shrinks.
 */
const volatile __u32 replay_n; /* 0: not a replay */
__u32 replay_next;	       /* the next frame's entry, over every BPF_PROG_RUN of the worker */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pb_xdp_replay_frame);
} replay_frames SEC(".maps");

static __always_inline int replay_frame(struct xdp_md *ctx)
{
	__u32 idx = replay_next, len;
	struct pb_xdp_replay_frame *f = bpf_map_lookup_elem(&replay_frames, &idx);
	int cur = (int)(ctx->data_end - ctx->data);

	if (!f)
		return XDP_ABORTED;
	/* wrapped, not divided: this runs for every frame sent */
	replay_next = idx + 1 == replay_n ? 0 : idx + 1;
	len = f->len;
	if (len < 14 || len > PB_XDP_REPLAY_LEN)
		return XDP_ABORTED;
	if ((int)len != cur && bpf_xdp_adjust_tail(ctx, (int)len - cur))
		return XDP_ABORTED;
	if (bpf_xdp_store_bytes(ctx, 0, f->data, len))
		return XDP_ABORTED;
	return XDP_TX;
}

/*
 * Latency probes (--latency, payload layout in pb_bpf.h): the frame whose countdown runs out
 * carries the stream's next sequence number and the time now, then the countdown starts
 * again from probe_every. Frames persist in the kernel's page pool from run to run, so a
 * frame that was a probe is put back to an ordinary one (its kind) the next time it comes.
 */
const volatile __u8 probes; /* 0: no probes (and no per-frame work for them) */
const volatile __u8 tai;    /* stamp CLOCK_TAI (--synced-clocks), else CLOCK_MONOTONIC */
const volatile __u8 probe_kind = 'P';
const volatile __u8 frame_kind = 'N';
__u32 probe_every; /* frames from one probe to the next; set by the worker between runs */
__u32 probe_left;  /* frames before the next probe */
__u32 probe_seq;   /* the next sequence number; the worker counts its probes by it */

static __always_inline __u16 csum_fold(__u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)s;
}

/* RFC 1624: checksum after a 16-bit word changes; any byte order, used consistently. */
static __always_inline __u16 csum_repl16(__u16 check, __u16 old, __u16 new)
{
	return (__u16)~csum_fold((__u16)~check + (__u32)(__u16)~old + new);
}

static __always_inline __u16 csum_repl32(__u16 check, __u32 old, __u32 new)
{
	check = csum_repl16(check, (__u16)(old >> 16), (__u16)(new >> 16));
	return csum_repl16(check, (__u16)old, (__u16) new);
}

/* Stamps the probe into the payload pl (18 bytes there), keeping the UDP checksum right. */
static __always_inline void probe_stamp(__u8 *pl, __u16 *check)
{
	__u16 *w = (__u16 *)pl, old[6], i;
	__u64 ns = tai ? bpf_ktime_get_tai_ns() : bpf_ktime_get_ns();
	__u32 seq = probe_seq++;

	old[0] = w[1];
#pragma unroll
	for (i = 0; i < 5; i++)
		old[i + 1] = w[4 + i];
	pl[2] = probe_kind;
	pl[8] = (__u8)(seq >> 24);
	pl[9] = (__u8)(seq >> 16);
	pl[10] = (__u8)(seq >> 8);
	pl[11] = (__u8)seq;
#pragma unroll
	for (i = 0; i < 6; i++)
		pl[12 + i] = (__u8)(ns >> (40 - 8 * i));
	*check = csum_repl16(*check, old[0], w[1]);
#pragma unroll
	for (i = 0; i < 5; i++)
		*check = csum_repl16(*check, old[i + 1], w[4 + i]);
}

/* One frame of the run: a probe when its turn comes, else an ordinary frame again. */
static __always_inline void probe_frame(void *data, void *end)
{
	__u8 *l3 = data + l3_off;
	__u8 *pl = l3 + (ipv6 ? 48 : 28);
	__u16 *check = (__u16 *)(l3 + (ipv6 ? 46 : 26));
	__u16 old;

	if ((void *)(pl + PB_PROBE_LEN) > end)
		return;
	if (!probe_left) {
		probe_left = probe_every ? probe_every - 1 : 0;
		probe_stamp(pl, check);
	} else {
		probe_left--;
		if (pl[2] == frame_kind)
			return;
		old = *(__u16 *)(pl + 2);
		pl[2] = frame_kind;
		*check = csum_repl16(*check, old, *(__u16 *)(pl + 2));
	}
	/* 0 means "no checksum" in UDP: its ones' complement twin says the same sum */
	if (!*check)
		*check = 0xffff;
}

SEC("xdp")
int pb_xdp_live(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 k, port, addr, old_addr, new_addr;
	__u16 *check, *sport, new_port;
	__u8 *l3 = data + l3_off;
	__u8 *saddr;

	if (replay_n)
		return replay_frame(ctx);
	if (restore) {
		__u8 *eth = data;
		int i;

		if ((void *)(l3 + 12) > end)
			return XDP_TX;
#pragma unroll
		for (i = 0; i < 12; i++)
			eth[i] = macs[i];
		if (ipv6) {
			l3[7] = PB_TTL;
		} else if (l3[8] != PB_TTL) {
			__u16 *word = (__u16 *)(l3 + 8), *ipcheck = (__u16 *)(l3 + 10);
			__u16 old = *word;

			l3[8] = PB_TTL;
			*ipcheck = csum_repl16(*ipcheck, old, *word);
		}
	}
	if (probes)
		probe_frame(data, end);
	if (flows <= 1)
		return XDP_TX;
	k = flow_first + (bpf_get_prandom_u32() % flows) * flow_step;
	if (vary_addr) {
		addr = base_addr + k % span;
		port = base_port + k / span;
	} else {
		addr = base_addr;
		port = base_port + k % span;
	}
	new_port = bpf_htons((__u16)port);
	new_addr = bpf_htonl(addr);

	if (ipv6) {
		if ((void *)(l3 + 48) > end)
			return XDP_TX;
		saddr = l3 + 8 + 12; /* the source address's low 32 bits */
		sport = (__u16 *)(l3 + 40);
		check = (__u16 *)(l3 + 46);
	} else {
		if ((void *)(l3 + 28) > end)
			return XDP_TX;
		saddr = l3 + 12;
		sport = (__u16 *)(l3 + 20);
		check = (__u16 *)(l3 + 26);
	}
	__builtin_memcpy(&old_addr, saddr, 4);
	if (old_addr != new_addr) {
		__builtin_memcpy(saddr, &new_addr, 4);
		if (!ipv6) {
			__u16 *ipcheck = (__u16 *)(l3 + 10);

			*ipcheck = csum_repl32(*ipcheck, old_addr, new_addr);
		}
		/* the source address is in the UDP pseudo-header too */
		*check = csum_repl32(*check, old_addr, new_addr);
	}
	*check = csum_repl16(*check, *sport, new_port);
	*sport = new_port;
	/* 0 means "no checksum" in UDP: its ones' complement twin says the same sum */
	if (!*check)
		*check = 0xffff;
	return XDP_TX;
}

/*
 * What the device did with the frames: the kernel flushes each batch of XDP_TX frames to
 * the device (ndo_xdp_xmit) in the calling task's context and reports, per flush, how many
 * it sent and how many the device refused (tracepoint xdp:xdp_devmap_xmit, arguments
 * from_dev, to_dev, sent, drops, err). Counted for this worker's thread only, so the
 * method reports frames transmitted, not program runs.
 */
__u32 tid;	 /* the worker's thread id, set before attach */
__u64 xmit_sent; /* written by this program only, read by the worker */
__u64 xmit_drops;

SEC("raw_tracepoint/xdp_devmap_xmit")
int pb_xdp_live_xmit(struct bpf_raw_tracepoint_args *ctx)
{
	if ((__u32)bpf_get_current_pid_tgid() != tid)
		return 0;
	xmit_sent += (int)ctx->args[2];
	xmit_drops += (int)ctx->args[3];
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
