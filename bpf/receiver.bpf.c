// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver: counts every frame with a pktbench signature (pb_bpf.h) by the run id in it,
 * or a replayed frame by the run id in its source MAC (any protocol),
 * with bytes, first and last arrival, frames per RX queue, distinct source ports and VLAN
 * ids, and drops it; every other frame is counted apart and passed (XDP_PASS), so the host's
 * own traffic (ARP, ICMP, SSH, the agent's API) keeps working on the same interface. It is
 * loaded once: a new run id simply appears in the map, and old ones age out (LRU).
 *
 * Per frame it costs a slot lookup (a per-CPU array: inlined), jiffies and the bitmap
 * cache: the run a CPU is counting is kept in front of the map (struct pb_rx_slot), and
 * arrival times are the coarse clock, exact to a scheduler tick. Measured with
 * BPF_PROG_TEST_RUN on a 2-core VM: 31 ns a frame, against 94 ns with a hash lookup and
 * bpf_ktime_get_ns() per frame (43 ns with bpf_ktime_get_coarse_ns() per frame); a frame
 * without a signature costs 26 ns either way.
 *
 * Latency probes (kinds 'P' and 'T') and a paced run's frames (kinds in lower case) take one
 * more branch, to pb_special(), which keeps each stream's probe sequence, one-way latency,
 * jitter and frame gaps in maps of their own, with the precise clock.
 *
 * Each frame is counted once: a frame of kind 'S' carries its stream's sequence number, which
 * frame_win() judges in the stream's window on this CPU (a per-CPU array entry, inlined, no
 * atomic operation; struct pb_rx_win), a probe in its own window. A duplicate or a frame too
 * far out of order is counted apart and nothing else of it; delivered is unique frames.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/in.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "pb_bpf.h"

/* Whose test each announced run is (PB_SIG_KIND_ANNOUNCE): written once or thrice a run. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PB_BPF_MAX_RUNS);
	__type(key, __u32); /* run id */
	__type(value, struct pb_rx_meta);
} meta SEC(".maps");

/* Per CPU, so counting a frame takes no atomic operation and no shared cache line. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, PB_BPF_MAX_RUNS);
	__type(key, __u32); /* run id */
	__type(value, struct pb_rx_val);
} runs SEC(".maps");

/* Runs a reader asked for, which nothing evicts (PB_BPF_MAX_KEPT in pb_bpf.h): looked up first. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, PB_BPF_MAX_KEPT);
	__type(key, __u32); /* run id */
	__type(value, struct pb_rx_val);
} kept SEC(".maps");

/* Entries the program made in runs, per CPU: the reader tells evictions from it. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pb_rx_table);
} table SEC(".maps");

/* The run each CPU counts without a lookup (struct pb_rx_slot in pb_bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pb_rx_slot);
} slot SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pb_rx_foreign);
} foreign SEC(".maps");

/*
 * Distinct source ports and VLAN ids: one bit each, in 64-bit words shared by the CPUs
 * (a distinct count cannot be summed over CPUs), keyed by { run id, word }.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PB_BPF_MAX_WORDS);
	__type(key, struct pb_rx_word_key);
	__type(value, __u64);
} seen_words SEC(".maps");

/*
 * Looking a shared word up for every frame would be a second hash lookup per frame. Each
 * CPU keeps instead a direct-mapped copy of the words it knows: one array slot per word
 * index, tagged with its run id. A frame whose bit the copy already has (every frame after
 * a flow's first, while one run at a time arrives) costs one array lookup, inlined by the
 * verifier, and no write. Only a bit not seen yet on this CPU goes to the shared word.
 * Measured with BPF_PROG_TEST_RUN on a 2-core VM: both bitmaps cost about 5 ns a frame this
 * way; a hash lookup costs about 28 ns, so a lookup per bitmap would have cost ~55 ns.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PB_BPF_SEEN_WORDS);
	__type(key, __u32);
	__type(value, struct pb_rx_cache);
} seen_cache SEC(".maps");

/* Each stream's frame sequence window on this CPU (struct pb_rx_win in pb_bpf.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PB_BPF_WINS);
	__type(key, __u32);
	__type(value, struct pb_rx_win);
} wins SEC(".maps");

/* Each stream's probes and paced frames (struct pb_rx_stream_val), shared by the CPUs. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PB_BPF_MAX_STREAMS);
	__type(key, struct pb_rx_stream_key);
	__type(value, struct pb_rx_stream_val);
} streams SEC(".maps");

/* Each run's latency and gap histograms, shared by the CPUs (atomic adds). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PB_BPF_MAX_HISTS);
	__type(key, struct pb_rx_hist_key);
	__type(value, struct pb_rx_hist_val);
} hists SEC(".maps");

/* A datagram's bytes in a multi-buffer frame's fragments, a chunk at a time, for their sum. */
#define PB_RX_CSUM_CHUNK 512
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[PB_RX_CSUM_CHUNK]);
} csum_buf SEC(".maps");

/* The interface's addresses (struct pb_rx_addrs), kept current by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pb_rx_addrs);
} host_addrs SEC(".maps");

/* Set before load: this kernel has bpf_ktime_get_tai_ns() (6.1+) for 'T' probes. */
const volatile __u8 have_tai;
/*
 * Set before load: the program is loaded multi-buffer (BPF_F_XDP_HAS_FRAGS, 5.18+), so a
 * jumbo frame arrives as its first buffer here (where the signature is) and fragments: its
 * length is the whole frame's, bpf_xdp_get_buff_len() (also 5.18+).
 */
const volatile __u8 have_frags;
/* Set before load: the receiving interface's MAC, which a frame the host takes is sent to. */
const volatile __u8 host_mac[6];
const volatile __u8 host_mac_set;

/* What a new entry starts from: too large for the BPF stack. */
struct pb_rx_val rx_zero_val;
__u8 rx_zero_stream[sizeof(struct pb_rx_stream_val)];
__u8 rx_zero_hist[sizeof(struct pb_rx_hist_val)];

/* A map entry for key, created (from zero) at its first use; NULL: no room. */
static __always_inline void *entry(void *map, const void *key, const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	/* another CPU may insert it at the same time: either way, look it up again */
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

/*
 * Bit n of run's bitmap words (word index base + n / 64). Returns 1 when this call set it
 * first in the shared word: the distinct count goes up by one, on exactly one CPU.
 */
static __always_inline int seen(__u32 run, __u32 word, __u32 bit)
{
	struct pb_rx_word_key key = { .run_id = run, .word = word };
	__u64 tag = 1ull << 32 | run, m = 1ull << bit, zero = 0, old;
	struct pb_rx_cache *c;
	__u64 *bits;

	c = bpf_map_lookup_elem(&seen_cache, &word);
	if (!c)
		return 0;
	if (c->tag == tag && (c->bits & m))
		return 0;
	bits = entry(&seen_words, &key, &zero);
	if (!bits)
		return 0;
	old = *bits;
	if (!(old & m))
		old = __sync_fetch_and_or(bits, m);
	c->tag = tag;
	c->bits = old | m;
	return !(old & m);
}

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/* What the host would make of a frame that carries a signature (PB_RX_BAD_*). */
#define PB_RX_BAD_CORRUPT 1 /* a header checksum, version or length the host would refuse */
#define PB_RX_BAD_HOST	  2 /* another destination MAC or IP address */

/*
 * The IPv4 header's checksum (RFC 1071: its words sum to 0xffff) and version; ihl >= 5 and the
 * fixed 20 bytes in the frame already. Options (up to 40 bytes more) are summed word by word,
 * each word's place checked at a constant offset, so the verifier follows it.
 */
static __always_inline int ip4_ok(struct iphdr *ip, void *end)
{
	__u16 *w = (void *)ip;
	__u32 sum = 0, n = ip->ihl * 2;
	int i;

	if (ip->version != 4)
		return 0;
#pragma unroll
	for (i = 0; i < 10; i++)
		sum += w[i];
#pragma unroll
	for (i = 10; i < 30; i++) {
		if (i < n) {
			if ((void *)(w + i + 1) > end)
				return 0;
			sum += w[i];
		}
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/* Whether an IPv4 destination is one of the interface's addresses (or none is known). */
static __always_inline int for_host4(__be32 dst)
{
	__u32 zero = 0, i;
	struct pb_rx_addrs *a = bpf_map_lookup_elem(&host_addrs, &zero);

	if (!a || !a->n4)
		return 1;
#pragma unroll
	for (i = 0; i < PB_RX_ADDRS; i++)
		if (i < a->n4 && a->v4[i] == dst)
			return 1;
	return 0;
}

/* ... and an IPv6 one. */
static __always_inline int for_host6(struct ipv6hdr *ip6)
{
	__u32 zero = 0, i, *d = (__u32 *)&ip6->daddr;
	struct pb_rx_addrs *a = bpf_map_lookup_elem(&host_addrs, &zero);

	if (!a || !a->n6)
		return 1;
#pragma unroll
	for (i = 0; i < PB_RX_ADDRS; i++)
		if (i < a->n6 && a->v6[i][0] == d[0] && a->v6[i][1] == d[1] &&
		    a->v6[i][2] == d[2] && a->v6[i][3] == d[3])
			return 1;
	return 0;
}

/*
 * IPv6 extension headers the host walks to its UDP header: hop-by-hop, routing, destination
 * options, and a first fragment's header (a later fragment holds no UDP header: NULL). Up to
 * PB_RX_EXT of them; *next is the last one's next header.
 */
#define PB_RX_EXT 4
static __always_inline void *ip6_walk(struct ipv6hdr *ip6, void *end, __u8 *next)
{
	void *h = ip6 + 1;
	__u8 nh = ip6->nexthdr;
	int i;

#pragma unroll
	for (i = 0; i < PB_RX_EXT; i++) {
		__u8 *e = h;

		if (nh != IPPROTO_HOPOPTS && nh != IPPROTO_ROUTING && nh != IPPROTO_DSTOPTS &&
		    nh != IPPROTO_FRAGMENT)
			break;
		if ((void *)(e + 8) > end)
			return NULL;
		if (nh == IPPROTO_FRAGMENT) {
			if ((e[2] << 8 | e[3]) & ~7) /* its offset: not the first fragment */
				return NULL;
			h = e + 8;
		} else {
			h = e + (e[1] + 1) * 8;
		}
		nh = e[0];
	}
	*next = nh;
	return h;
}

static __always_inline __u32 csum_fold32(__u64 sum)
{
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u32)((sum & 0xffff) + (sum >> 16));
}

/*
 * The UDP checksum as the host judges it (RFC 768; RFC 8200 8.1): the pseudo-header, the
 * header and the data sum to 0xffff. What the frame's first buffer holds is summed in place:
 * 512-byte blocks and blocks of 256, 128 and 64 by bpf_csum_diff, smaller ones 32 bits at a
 * time (a 60-byte frame's 26 bytes: 16, 8, 2); what lies in a multi-buffer frame's
 * fragments, a chunk at a time through csum_buf (bpf_xdp_load_bytes, then bpf_csum_diff).
 * A frame sent by a socket on this host, through veth, still carries what the kernel left
 * for the device to finish (CHECKSUM_PARTIAL: the pseudo-header's sum alone, folded); the
 * host takes such a frame as it is, and so does this: its data is not summed by anyone. On
 * a real wire the device finishes it, and a corrupted one fails here. A global function, as
 * pb_l3(): its loops are verified once.
 */
#define PB_RX_CSUM_CHUNKS 18 /* 9216 bytes: a jumbo frame's datagram */
/* n bytes at p summed by the helper (n: a constant, 4-byte words) */
#define CSUM_BLOCK_HELPER(n)                                          \
	if (rem >= (n)) {                                             \
		if (p + (n) > end)                                    \
			return 0;                                     \
		part = bpf_csum_diff(NULL, 0, p, (n), 0);             \
		if (part < 0)                                         \
			return 0;                                     \
		sum += (__u32)part;                                   \
		p += (n);                                             \
		rem -= (n);                                           \
	}
/* n bytes at p summed in place, 32 bits at a time (cheaper than a call below 64 bytes) */
#define CSUM_BLOCK_WORDS(n)                                           \
	if (rem >= (n)) {                                             \
		if (p + (n) > end)                                    \
			return 0;                                     \
		_Pragma("unroll") for (int _k = 0; _k < (n) / 4; _k++) \
			sum += ((__u32 *)p)[_k];                      \
		p += (n);                                             \
		rem -= (n);                                           \
	}
__noinline int pb_udp_csum_ok(struct xdp_md *ctx, __u32 l3off, __u32 proto, __u32 uoff,
			      __u32 ulen)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct udphdr *udp;
	__u64 pseudo, sum;
	__u32 zero = 0, done, rem, i;
	void *l3, *p;
	__s64 part;
	__u8 *buf;

	if (l3off > 64 || uoff > 256)
		return 0;
	/*
	 * masked where they are added, the compiler kept from dropping the masks: the
	 * verifier keeps no bound through a spilled u32
	 */
	asm volatile("" : "+r"(l3off), "+r"(uoff));
	l3 = data + (l3off & 0x7f);
	udp = data + (uoff & 0x1ff);
	if ((void *)(udp + 1) > end)
		return 0;
	pseudo = bpf_htons(IPPROTO_UDP) + (__u32)udp->len;
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = l3;

		if ((void *)(ip + 1) > end)
			return 0;
		pseudo += (ip->saddr & 0xffff) + (ip->saddr >> 16) + (ip->daddr & 0xffff) +
			  (ip->daddr >> 16);
	} else {
		struct ipv6hdr *ip6 = l3;
		__u32 *a;

		if ((void *)(ip6 + 1) > end)
			return 0;
		a = (__u32 *)&ip6->saddr;
#pragma unroll
		for (i = 0; i < 8; i++) /* saddr and daddr, side by side */
			pseudo += (a[i] & 0xffff) + (a[i] >> 16);
	}
	/* a socket's frame the device was to finish: its field holds the pseudo-header's sum */
	if (udp->check == (__u16)csum_fold32(pseudo))
		return 1;
	sum = pseudo;
	/* in place: whole 512-byte blocks, then a block of each power of two the rest holds */
	p = (void *)udp;
	rem = ulen;
	for (i = 0; i < PB_RX_CSUM_CHUNKS; i++) {
		if (rem < PB_RX_CSUM_CHUNK || p + PB_RX_CSUM_CHUNK > end)
			break;
		part = bpf_csum_diff(NULL, 0, p, PB_RX_CSUM_CHUNK, 0);
		if (part < 0)
			return 0;
		sum += (__u32)part;
		p += PB_RX_CSUM_CHUNK;
		rem -= PB_RX_CSUM_CHUNK;
	}
	if (rem < PB_RX_CSUM_CHUNK && p + rem <= end) {
		CSUM_BLOCK_HELPER(256);
		CSUM_BLOCK_HELPER(128);
		CSUM_BLOCK_HELPER(64);
		CSUM_BLOCK_WORDS(32);
		CSUM_BLOCK_WORDS(16);
		CSUM_BLOCK_WORDS(8);
		CSUM_BLOCK_WORDS(4);
		if (rem >= 2) {
			if (p + 2 > end)
				return 0;
			sum += *(__u16 *)p;
			p += 2;
			rem -= 2;
		}
		/* an odd last byte: the high half of its word */
		if (rem) {
			if (p + 1 > end)
				return 0;
			sum += *(__u8 *)p;
		}
		return csum_fold32(sum) == 0xffff;
	}
	/* the rest is in a multi-buffer frame's fragments: a chunk at a time through csum_buf */
	buf = bpf_map_lookup_elem(&csum_buf, &zero);
	if (!buf)
		return 0;
	done = ulen - rem;
	for (i = 0; i < PB_RX_CSUM_CHUNKS && done < ulen; i++) {
		__u32 n = ulen - done, n4;

		if (n > PB_RX_CSUM_CHUNK)
			n = PB_RX_CSUM_CHUNK;
		/*
		 * bpf_csum_diff takes whole words: the chunk's last one zeroed first, its
		 * bytes past the datagram stay so
		 */
		n4 = (n + 3) & ~3u;
		if (n4 < 4 || n4 > PB_RX_CSUM_CHUNK)
			return 0;
		*(__u32 *)(buf + ((n4 - 4) & (PB_RX_CSUM_CHUNK - 4))) = 0; /* masked: the verifier */
		if (bpf_xdp_load_bytes(ctx, uoff + done, buf, ((n - 1) & (PB_RX_CSUM_CHUNK - 1)) + 1))
			return 0;
		part = bpf_csum_diff(NULL, 0, (__be32 *)buf, n4, 0);
		if (part < 0)
			return 0;
		/* each chunk starts at an even offset: its words are the datagram's */
		sum += (__u32)part;
		done += PB_RX_CSUM_CHUNK;
	}
	return done >= ulen && csum_fold32(sum) == 0xffff;
}

/*
 * The IP header at l3off of a frame of len bytes (proto: its EtherType, network order) as the
 * host reads it: the UDP header's offset << 8 | PB_RX_BAD_* for what the host would refuse (an
 * IPv4 header's version or checksum, an IP length the frame does not hold, a UDP length that
 * is not the IP payload's, so a signature in the Ethernet padding is no datagram's); -1 when
 * there is no UDP header where the host would look (not UDP, a later fragment). A global
 * function: the verifier takes its loops once, not again on every path of the program.
 */
__noinline int pb_l3(struct xdp_md *ctx, __u32 l3off, __u32 proto, __u32 len)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 iplen, l3len, bad = 0;
	struct udphdr *udp;
	void *l3;

	if (l3off > 64 || l3off > len)
		return -1;
	l3 = data + l3off;
	l3len = len - l3off; /* the frame's bytes from the IP header on */
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = l3;

		/* a fragment after the first has no UDP header where one is looked for */
		if ((void *)(ip + 1) > end || ip->protocol != IPPROTO_UDP || ip->ihl < 5 ||
		    (ip->frag_off & bpf_htons(0x1fff)))
			return -1;
		udp = (void *)ip + ip->ihl * 4;
		if (!ip4_ok(ip, end) || bpf_ntohs(ip->tot_len) > l3len ||
		    bpf_ntohs(ip->tot_len) < ip->ihl * 4)
			bad |= PB_RX_BAD_CORRUPT;
		if (!for_host4(ip->daddr))
			bad |= PB_RX_BAD_HOST;
		iplen = bpf_ntohs(ip->tot_len) - ip->ihl * 4; /* the UDP datagram's */
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = l3;
		__u8 nh;

		if ((void *)(ip6 + 1) > end)
			return -1;
		udp = ip6_walk(ip6, end, &nh);
		if (!udp || nh != IPPROTO_UDP)
			return -1;
		if (!for_host6(ip6))
			bad |= PB_RX_BAD_HOST;
		if (sizeof(*ip6) + bpf_ntohs(ip6->payload_len) > l3len)
			bad |= PB_RX_BAD_CORRUPT;
		/* what the extension headers took of the payload length */
		iplen = bpf_ntohs(ip6->payload_len) - (__u32)((void *)udp - (void *)(ip6 + 1));
	} else {
		return -1;
	}
	if ((void *)(udp + 1) > end)
		return -1;
	if (bpf_ntohs(udp->len) != iplen)
		bad |= PB_RX_BAD_CORRUPT;
	/* IPv4's checksum 0: the sender computed none, and the host takes it so */
	if (!bad && !(proto == bpf_htons(ETH_P_IP) && !udp->check) &&
	    !pb_udp_csum_ok(ctx, l3off, proto, (__u32)((void *)udp - data), iplen))
		bad |= PB_RX_BAD_CORRUPT;
	return (int)((void *)udp - data) << 8 | bad;
}

/*
 * Returns the UDP payload when the frame is UDP over IPv4/IPv6 with room for a signature,
 * else NULL; *bad says what the host would refuse in it (PB_RX_BAD_*): another destination
 * MAC, and what pb_l3() finds.
 */
static __always_inline void *udp_payload(struct xdp_md *ctx, void *data, void *end, __u64 len,
					 __u16 *sport, __u16 *vlan, __u32 *bad)
{
	struct ethhdr *eth = data;
	struct udphdr *udp;
	void *l3;
	__u16 proto;
	int i, r;

	if ((void *)(eth + 1) > end)
		return NULL;
	if (host_mac_set && (eth->h_dest[0] != host_mac[0] || eth->h_dest[1] != host_mac[1] ||
			     eth->h_dest[2] != host_mac[2] || eth->h_dest[3] != host_mac[3] ||
			     eth->h_dest[4] != host_mac[4] || eth->h_dest[5] != host_mac[5]))
		*bad |= PB_RX_BAD_HOST;
	proto = eth->h_proto;
	l3 = eth + 1;
#pragma unroll
	for (i = 0; i < 2; i++) { /* up to two tags: 802.1Q, 802.1ad */
		struct vlan_hdr *vh = l3;

		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(vh + 1) > end)
			return NULL;
		if (!i)
			*vlan = bpf_ntohs(vh->tci) & 0xfff;
		proto = vh->proto;
		l3 = vh + 1;
	}
	r = pb_l3(ctx, (__u32)(l3 - data), proto, (__u32)len);
	if (r < 0)
		return NULL;
	*bad |= r & 0xff;
	udp = data + (r >> 8 & 0xfff);
	if ((void *)(udp + 1) > end || bpf_ntohs(udp->len) < sizeof(*udp) + 8)
		return NULL;
	*sport = bpf_ntohs(udp->source);
	return udp + 1;
}

#define SIG_MASK  bpf_htonl(0xffffff00)
#define SIG_FRAME bpf_htonl(PB_SIG_P0 << 24 | PB_SIG_P1 << 16 | PB_SIG_KIND_FRAME << 8)
#define SIG_SEQ	  bpf_htonl(PB_SIG_P0 << 24 | PB_SIG_P1 << 16 | PB_SIG_KIND_SEQ << 8)

/* Not judged by a sequence number: counted as delivered, and as unchecked. */
#define PB_RX_UNCHECKED 16
#define SIG_ANNOUNCE bpf_htonl(PB_SIG_P0 << 24 | PB_SIG_P1 << 16 | PB_SIG_KIND_ANNOUNCE << 8)

/*
 * This CPU's counters of run: in the kept map when a reader asked for it, else in the runs
 * map, created at its first frame; NULL: no room. Making an entry is counted, and marked in
 * the run's announcement: a second one means the first was pushed out, counts and all.
 */
static __always_inline struct pb_rx_val *run_entry(__u32 run)
{
	struct pb_rx_val *v = bpf_map_lookup_elem(&kept, &run);
	struct pb_rx_table *t;
	struct pb_rx_meta *m;
	__u32 zero = 0;

	if (v)
		return v;
	v = bpf_map_lookup_elem(&runs, &run);
	if (v)
		return v;
	/* another CPU may insert it at the same time: either way, look it up again */
	if (!bpf_map_update_elem(&runs, &run, &rx_zero_val, BPF_NOEXIST)) {
		t = bpf_map_lookup_elem(&table, &zero);
		if (t)
			t->inserts++;
		m = bpf_map_lookup_elem(&meta, &run);
		if (m)
			__sync_fetch_and_or(&m->flags, m->flags & PB_RX_META_COUNTED
							       ? PB_RX_META_EVICTED
							       : PB_RX_META_COUNTED);
	}
	return bpf_map_lookup_elem(&runs, &run);
}

/*
 * The flush: the slot's run gets its counts in the runs map and the slot starts again for
 * run. seq goes odd, then even, with fetching atomics, which are fully ordered barriers on
 * every architecture, so a reader never sees the counts in both places or in neither with
 * the same even seq. 0, or -1 when the old run has no entry to go to (the slot stays).
 */
static __always_inline int slot_take(struct pb_rx_slot *s, __u32 run)
{
	struct pb_rx_val *to = NULL;

	if (s->tag) {
		to = run_entry((__u32)s->tag);
		if (!to)
			return -1;
	}
	/* even before (a flush runs to its end before another can start on this CPU) */
	if (__sync_fetch_and_add(&s->seq, 1) & 1)
		return -1;
	if (to)
		pb_rx_val_merge(to, &s->val);
	__builtin_memset(&s->val, 0, sizeof(s->val));
	s->tag = PB_BPF_SLOT_TAG(run);
	return __sync_fetch_and_add(&s->seq, 1) & 1 ? 0 : -1;
}

/*
 * Arrival time: the coarse clock only changes at a tick, so it is read again only when
 * jiffies (a plain load the verifier inlines) has moved. Right at a tick jiffies moves a
 * moment before the coarse clock does: until the clock has moved too, it is read every time.
 */
static __always_inline __u64 tick_now(struct pb_rx_slot *s)
{
	__u64 j = bpf_jiffies64(), ns;

	if (j == s->tick)
		return s->tick_ns;
	ns = bpf_ktime_get_coarse_ns();
	if (ns != s->tick_ns) {
		s->tick = j;
		s->tick_ns = ns;
	}
	return ns;
}

static __always_inline void hist_add(__u32 run, __u32 which, __u64 ns)
{
	struct pb_rx_hist_key key = { .run_id = run, .which = which };
	struct pb_rx_hist_val *h = entry(&hists, &key, &rx_zero_hist);
	__u32 b = pb_hist_bucket(ns);

	if (h && b < PB_HIST_BUCKETS)
		__sync_fetch_and_add(&h->counts[b], 1);
}

/*
 * A probe or a paced run's frame (kind as sent) of stream, whose UDP payload is pl: the gap
 * since the stream's previous frame (paced), then the probe's sequence number, latency and
 * jitter. Returns a probe's pb_seq_kind, else PB_RX_UNCHECKED.
 */
static __noinline int pb_special(__u8 *pl, void *end, __u32 run, __u32 kind, __u32 stream)
{
	struct pb_rx_stream_key key = { .run_id = run, .stream = stream };
	struct pb_rx_stream_val *st = entry(&streams, &key, &rx_zero_stream);
	struct udphdr *udp = (struct udphdr *)pl - 1;
	__u64 now, prev, rx, ts, lat, transit;
	enum pb_seq_kind got;
	__u32 seq;
	int timed, counted;

	if (!st)
		return PB_RX_UNCHECKED;
	now = bpf_ktime_get_ns();
	if (kind & PB_SIG_PACED) {
		/* which frame was the previous one is what the exchange says, on every CPU */
		prev = __sync_lock_test_and_set(&st->gap_last_ns, now);
		if (!prev)
			st->gap_first_ns = now;
		else if (now > prev)
			hist_add(run, PB_BPF_HIST_GAP, now - prev);
		__sync_fetch_and_add(&st->gap_frames, 1);
	}
	kind &= ~PB_SIG_PACED;
	if (kind == PB_SIG_KIND_FRAME || kind == PB_SIG_KIND_SEQ)
		return PB_RX_UNCHECKED;
	if ((void *)(pl + PB_PROBE_LEN) > end || bpf_ntohs(udp->len) < sizeof(*udp) + PB_PROBE_LEN)
		return PB_RX_UNCHECKED;
	seq = (__u32)pl[8] << 24 | (__u32)pl[9] << 16 | (__u32)pl[10] << 8 | pl[11];
	ts = (__u64)pl[12] << 40 | (__u64)pl[13] << 32 | (__u64)pl[14] << 24 | (__u64)pl[15] << 16 |
	     (__u64)pl[16] << 8 | pl[17];
	rx = now;
	if (kind == PB_SIG_KIND_TAI)
		rx = have_tai ? bpf_ktime_get_tai_ns() : 0;
	lat = pb_ts_diff(rx & PB_TS_MASK, ts);
	timed = rx && !pb_ts_negative(lat);
	/* any offset between the clocks cancels in the jitter: transit on our own clock */
	transit = pb_ts_diff(now & PB_TS_MASK, ts);

	/* two probes of one stream at once on two CPUs: milliseconds apart, so hardly ever */
	if (__sync_val_compare_and_swap(&st->busy, 0, 1)) {
		__sync_fetch_and_add(&st->busy_probes, 1);
		return PB_RX_UNCHECKED;
	}
	st->kind = kind;
	got = pb_seq_update(&st->seq, seq);
	/* a duplicate, or one out of the window (forged, or too old to tell), is not timed */
	counted = got == PB_SEQ_NEW || got == PB_SEQ_LATE || got == PB_SEQ_RESYNC;
	if (counted) {
		pb_jitter_update(&st->jitter, transit);
		if (timed) {
			if (!st->lat_n || lat < st->lat_min_ns)
				st->lat_min_ns = lat;
			if (lat > st->lat_max_ns)
				st->lat_max_ns = lat;
			st->lat_sum_ns += lat;
			st->lat_n++;
		} else {
			st->lat_bad++;
		}
	}
	__sync_lock_test_and_set(&st->busy, 0); /* an exchange: ordered after the updates */
	if (counted && timed)
		hist_add(run, PB_BPF_HIST_LAT, lat);
	return got;
}

/*
 * A sequenced frame of stream on this CPU: its pb_seq_kind in the stream's window (struct
 * pb_rx_win), or PB_RX_UNCHECKED when another run's stream holds the window and has not been
 * idle long enough to give it up. Beyond pb_seq_update's resync (two in a row), two strays
 * ascending within a window of each other restart it too: a CPU sees only the frames of the
 * flows its queue takes, never each number in turn, and a long loss or a move of the
 * stream's queue to this CPU must not leave it out of the window for good.
 */
static __noinline int frame_win(__u32 run, __u32 stream, __u32 seq, __u64 now)
{
	__u32 i = pb_rx_win_index(run, stream), prev;
	__u64 tag = PB_BPF_WIN_TAG(run, stream);
	struct pb_rx_win *w = bpf_map_lookup_elem(&wins, &i);
	int got, armed;

	if (!w)
		return PB_RX_UNCHECKED;
	if (w->tag != tag) {
		if (w->tag && now - w->last_ns < PB_BPF_SLOT_IDLE_NS)
			return PB_RX_UNCHECKED;
		w->tag = tag;
		w->last_ns = now;
		pb_seq_start(&w->seq, seq);
		return PB_SEQ_NEW;
	}
	w->last_ns = now;
	armed = w->seq.flags & PB_SEQ_ARMED;
	prev = w->seq.resync - 1;
	got = pb_seq_update(&w->seq, seq);
	if (got == PB_SEQ_STRAY && armed && seq - prev - 1 < PB_SEQ_WINDOW) {
		pb_seq_start(&w->seq, seq);
		if (seq - prev < w->seq.depth)
			*pb_seq_word(&w->seq, prev) |= 1ull << (prev % 64);
		return PB_SEQ_RESYNC;
	}
	return got;
}

/*
 * A run's announcement: its test and shard, kept by run id (an impossible shard is not). It is
 * not one of the run's frames: counted with the foreign ones (the interface counters see it)
 * and dropped.
 */
static __noinline int announce(__be32 *sig, void *end)
{
	struct pb_rx_meta m, *old;
	__u32 run;

	if ((void *)sig + PB_ANNOUNCE_LEN > end)
		return 0;
	run = bpf_ntohl(sig[1]);
	__builtin_memcpy(m.test, (__u8 *)sig + 8, 16);
	m.shard_index = bpf_ntohl(sig[6]);
	m.shard_count = bpf_ntohl(sig[7]);
	/* a shard no sender can be (7/3, or an index without a count): not kept */
	if (m.shard_count ? m.shard_index >= m.shard_count : m.shard_index)
		return 0;
	/* announced again: what became of its counts stays said */
	old = bpf_map_lookup_elem(&meta, &run);
	m.flags = old ? old->flags : 0;
	bpf_map_update_elem(&meta, &run, &m, BPF_ANY);
	return 0;
}

/*
 * A replayed frame (any protocol, no signature): the run's source MAC (pb_bpf.h) gives its
 * run id, stream and whether it was timed. 1 when it is one.
 */
static __always_inline int run_mac(void *data, void *end, __u32 *run, __u32 *kind,
				   __u32 *stream)
{
	struct ethhdr *eth = data;
	__u8 *m = eth->h_source;

	if ((void *)(eth + 1) > end || m[0] != PB_RUN_MAC0 || !(m[1] & PB_RUN_MAC_MARK))
		return 0;
	*run = (__u32)m[2] << 24 | (__u32)m[3] << 16 | (__u32)m[4] << 8 | m[5];
	*kind = PB_SIG_KIND_FRAME | (m[1] & PB_RUN_MAC_PACED ? PB_SIG_PACED : 0);
	*stream = m[1] & 0x3f;
	return 1;
}

/* "pb" and a probe's or a paced run's kind: what pb_special() takes. */
static __always_inline int special_kind(__u32 word, __u32 *kind)
{
	__u32 w = bpf_ntohl(word);

	*kind = w >> 8 & 0xff;
	if (w >> 16 != (PB_SIG_P0 << 8 | PB_SIG_P1) || (w & 0xff) >= PB_BPF_MAX_QUEUES)
		return 0;
	switch (*kind) {
	case PB_SIG_KIND_PROBE:
	case PB_SIG_KIND_TAI:
	case PB_SIG_KIND_FRAME | PB_SIG_PACED:
	case PB_SIG_KIND_SEQ | PB_SIG_PACED:
	case PB_SIG_KIND_PROBE | PB_SIG_PACED:
	case PB_SIG_KIND_TAI | PB_SIG_PACED:
		return 1;
	}
	return 0;
}

SEC("xdp")
int pb_receiver(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 queue = ctx->rx_queue_index, zero = 0, run, seq = 0, n;
	__u64 len = have_frags ? bpf_xdp_get_buff_len(ctx) : (__u64)(end - data), now;
	struct pb_rx_foreign *f;
	struct pb_rx_slot *s = NULL;
	struct pb_rx_val *v;
	__u16 sport = 0, vlan = 0;
	__u32 kind = 0, stream = 0, w0;
	struct udphdr *udp;
	__be32 *sig;
	void *pl;
	int got, seqd = 0;
	__u32 bad = 0;

	sig = udp_payload(ctx, data, end, len, &sport, &vlan, &bad);
	if (!sig || (void *)(sig + 2) > end)
		goto by_mac;
	w0 = sig[0] & SIG_MASK;
	if (w0 == SIG_SEQ) {
		kind = PB_SIG_KIND_SEQ;
	} else if (w0 == SIG_FRAME) {
		kind = PB_SIG_KIND_FRAME;
	} else if (w0 == SIG_ANNOUNCE) {
		announce(sig, end);
		f = bpf_map_lookup_elem(&foreign, &zero);
		if (f) {
			f->frames++;
			f->bytes += len;
		}
		return XDP_DROP; /* nobody listens for it */
	} else if (!special_kind(sig[0], &kind)) {
		goto by_mac;
	}
	if ((kind | PB_SIG_PACED) == (PB_SIG_KIND_SEQ | PB_SIG_PACED)) {
		/* a number the datagram does not hold is no frame of ours */
		udp = (struct udphdr *)sig - 1;
		if ((void *)(sig + 3) > end ||
		    bpf_ntohs(udp->len) < sizeof(*udp) + PB_FRAME_SEQ_LEN)
			goto by_mac;
		seq = bpf_ntohl(sig[2]);
		seqd = 1;
	}
	run = bpf_ntohl(sig[1]);
	stream = bpf_ntohl(sig[0]) & 0xff;
	pl = sig;
	goto count;

by_mac:
	bad = 0; /* a replayed capture's frame carries whatever it carried */
	/*
	 * A replay's frame, counted by its source MAC: whatever it carries is the capture's. Only
	 * after the signature: a host's own random MAC that looks like a run's (1 in 128 do)
	 * never takes a built frame from its run.
	 */
	if (!run_mac(data, end, &run, &kind, &stream))
		goto foreign;
	/*
	 * ... and only for a run that announced itself (pb_announce: a replay always does): a
	 * host whose MAC merely looks like a run's keeps its traffic (ARP, the agent's API)
	 */
	s = bpf_map_lookup_elem(&slot, &zero);
	if (!(s && s->tag == PB_BPF_SLOT_TAG(run)) && !bpf_map_lookup_elem(&meta, &run))
		goto foreign;
	pl = data + sizeof(struct ethhdr); /* only paced timing: never read */

count:
	if (!s) /* the MAC's path has it already */
		s = bpf_map_lookup_elem(&slot, &zero);
	if (!s)
		return XDP_DROP;
	now = tick_now(s);
	/*
	 * The slot's run is idle once no frame of it at all came for a while: a flood of its
	 * frames that are not counted (corrupt, another host's, duplicates) keeps it, or every
	 * frame of a stream of new run ids would flush it (which kept a reader retrying into
	 * EAGAIN: a scrape of /metrics failed under such a churn)
	 */
	if (s->tag == PB_BPF_SLOT_TAG(run) ||
	    ((!s->tag || now - s->used_ns >= PB_BPF_SLOT_IDLE_NS) && !slot_take(s, run))) {
		v = &s->val;
		s->used_ns = now;
	} else {
		v = run_entry(run);
		if (!v)
			return XDP_DROP;
	}
	/*
	 * What the host would not take is counted apart, before its number is looked at: a
	 * corrupt frame's number may be anything
	 */
	if (bad) {
		if (bad & PB_RX_BAD_CORRUPT)
			v->corrupt++;
		else
			v->not_host++;
		return XDP_DROP;
	}
	/*
	 * the verdict first: a duplicate is counted apart, nothing else of it; a stray (too far
	 * out of order to tell from a duplicate) is delivered unchecked and counted as one: a
	 * flow's frames that cross CPUs, or a loss run of a window, put real frames there (a
	 * steady 10 kpps sender through the agent: 26 of 110000), and a forger's frames there
	 * show as delivered above sent (pb_result_check_extra)
	 */
	if (seqd)
		got = frame_win(run, stream, seq, now);
	else if (kind == PB_SIG_KIND_FRAME)
		got = PB_RX_UNCHECKED;
	else /* a probe's window, or a paced frame's gap (no verdict) */
		got = pb_special(pl, end, run, kind, stream);
	if (got == PB_SEQ_DUP) {
		v->dup++;
		return XDP_DROP;
	}
	n = 1;
	if (got == PB_SEQ_STRAY) {
		v->stray++;
	} else if (got == PB_SEQ_LATE) {
		v->late++;
	} else if (got == PB_SEQ_RESYNC) {
		v->stray--; /* the stray before it was in order after all: already delivered */
	} else if (got == PB_RX_UNCHECKED) {
		v->unchecked++;
	}
	if (!v->frames)
		v->first_ns = now;
	v->last_ns = now;
	v->frames += n;
	v->bytes += len * n;
	if (queue >= PB_BPF_MAX_QUEUES)
		queue = PB_BPF_MAX_QUEUES - 1; /* queues above 63 are counted in the last slot */
	v->queue_frames[queue] += n;
	v->flows += seen(run, sport / 64, sport % 64);
	seen(run, PB_BPF_PORT_WORDS + vlan / 64, vlan % 64);
	/* a paced sequenced frame's gap, once it is known to be no duplicate */
	if (seqd && (kind & PB_SIG_PACED))
		pb_special(pl, end, run, kind, stream);
	return XDP_DROP;

foreign:
	f = bpf_map_lookup_elem(&foreign, &zero);
	if (f) {
		f->frames++;
		f->bytes += len;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
