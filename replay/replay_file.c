// SPDX-License-Identifier: MIT
/*
 * --replay's capture: reading it (libpcap), sorting its frames into what replays and what
 * does not, rebuilding a frame for the run, and placing it in the pass's schedule. Both the
 * preloaded replay (replay.c) and the streamed one (replay_disk.c) take frames through here,
 * so that they agree frame by frame.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>

#ifdef PB_HAVE_PCAP
#include <pcap/pcap.h>
#endif

#include "log.h"
#include "replay_file.h"

/* FNV-1a over the key: the capture's own addresses only choose a flow index. */
static uint32_t rp_hash(const uint8_t *k, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ k[i]) * 16777619u;
	return h;
}

static int rp_flow_index(struct rp_file *f, const uint8_t *key, uint32_t *idx)
{
	uint32_t i;

	if ((uint64_t)f->flows * 2 >= f->ft_cap) {
		uint32_t cap = f->ft_cap ? f->ft_cap * 2 : 1024, j;
		struct rp_flow *ft = calloc(cap, sizeof(*ft)), *old = f->ft;

		if (!ft)
			return -ENOMEM;
		for (j = 0; j < f->ft_cap; j++) {
			if (!old[j].used)
				continue;
			for (i = rp_hash(old[j].key, sizeof(old[j].key)) & (cap - 1); ft[i].used;
			     i = (i + 1) & (cap - 1))
				;
			ft[i] = old[j];
		}
		free(old);
		f->ft = ft;
		f->ft_cap = cap;
	}
	for (i = rp_hash(key, 37) & (f->ft_cap - 1); f->ft[i].used; i = (i + 1) & (f->ft_cap - 1)) {
		if (!memcmp(f->ft[i].key, key, 37)) {
			*idx = f->ft[i].idx;
			return 0;
		}
	}
	f->ft[i].used = true;
	memcpy(f->ft[i].key, key, 37);
	f->ft[i].idx = f->flows++;
	*idx = f->ft[i].idx;
	return 0;
}

/*
 * A whole frame's flow key, as far as its headers go: IP addresses, protocol and ports (TCP,
 * UDP, and not a later fragment), else its MACs and EtherType. Frames of one key keep their
 * order: they go to one stream.
 */
static void rp_whole_key(const uint8_t *p, uint32_t caplen, uint32_t off, uint16_t type,
			 uint8_t key[37])
{
	uint32_t l4 = 0;
	uint8_t proto = 0;

	if (type == ETH_P_IP && caplen >= off + 20 && (p[off] >> 4) == 4) {
		key[0] = 4;
		memcpy(key + 1, p + off + 12, 8);
		proto = p[off + 9];
		if (!((p[off + 6] << 8 | p[off + 7]) & 0x1fff))
			l4 = off + (p[off] & 15u) * 4;
	} else if (type == ETH_P_IPV6 && caplen >= off + 40 && (p[off] >> 4) == 6) {
		key[0] = 6;
		memcpy(key + 1, p + off + 8, 32);
		proto = p[off + 6];
		l4 = off + 40;
	} else {
		key[0] = 1;
		memcpy(key + 1, p, 12);
		key[13] = (uint8_t)(type >> 8);
		key[14] = (uint8_t)type;
		return;
	}
	key[36] = proto;
	if (l4 && (proto == IPPROTO_TCP || proto == IPPROTO_UDP) && caplen >= l4 + 4)
		memcpy(key + 33, p + l4, 3); /* the source port and the destination's high byte */
}

/*
 * A frame method's: the frame kept whole, as captured, unless it was captured short of what
 * it was on the wire (a snap length): what was not captured cannot be sent.
 */
static int rp_classify_whole(struct rp_file *f, const uint8_t *p, uint32_t caplen, uint32_t wirelen,
			     struct rp_rec *r, int *skip)
{
	uint32_t off = PB_ETH_HLEN;
	uint8_t key[37] = { 0 };
	uint16_t type;
	int err;

	*skip = PB_RSKIP_TRUNCATED;
	if (caplen < wirelen || caplen < PB_ETH_HLEN)
		return 0;
	type = (uint16_t)(p[12] << 8 | p[13]);
	if (type == ETH_P_8021Q && caplen >= off + 4) {
		r->tagged = true;
		r->tci = (uint16_t)(p[14] << 8 | p[15]);
		type = (uint16_t)(p[16] << 8 | p[17]);
		off += 4;
	}
	rp_whole_key(p, caplen, off, type, key);
	err = rp_flow_index(f, key, &r->flow);
	if (err)
		return err;
	r->data = 0;
	r->len = caplen;
	*skip = PB_RSKIP_N;
	return 0;
}

/*
 * IPv6's extension headers at ip (len bytes) walked to the first header that is not one of
 * them, or to a fragment header: its offset, *nh its type; 0 when they run past len.
 */
static uint32_t rp_v6_walk(const uint8_t *ip, uint32_t len, uint8_t *nh)
{
	uint32_t off = 40;
	int i;

	*nh = ip[6];
	for (i = 0; i < 8; i++) {
		if (*nh != IPPROTO_HOPOPTS && *nh != IPPROTO_ROUTING && *nh != IPPROTO_DSTOPTS)
			return off;
		if (off + 8 > len || off + (ip[off + 1] + 1u) * 8 > len)
			return 0;
		*nh = ip[off];
		off += (ip[off + 1] + 1u) * 8;
	}
	return 0;
}

/*
 * One captured frame: what of it replays (whole: the frame; else its UDP payload; r->data:
 * its offset in p) and its flow, or why it is not replayed. 0 with *skip set to PB_RSKIP_N
 * when kept, -ENOMEM.
 */
int rp_classify(struct rp_file *f, const uint8_t *p, uint32_t caplen, uint32_t wirelen,
		uint64_t ts_ns, struct rp_rec *out, int *skip)
{
	uint32_t off = PB_ETH_HLEN, l4, ulen, plen, iplen;
	uint8_t key[37] = { 0 };
	struct rp_rec r = { .ts_ns = ts_ns };
	uint16_t type;
	int err;

	if (f->whole) {
		err = rp_classify_whole(f, p, caplen, wirelen, &r, skip);
		*out = r;
		return err;
	}
	*skip = PB_RSKIP_TRUNCATED;
	if (caplen < wirelen || caplen < PB_ETH_HLEN)
		return 0;
	type = (uint16_t)(p[12] << 8 | p[13]);
	if (type == ETH_P_8021Q) {
		if (caplen < off + 4)
			return 0;
		r.tagged = true;
		r.tci = (uint16_t)(p[14] << 8 | p[15]);
		type = (uint16_t)(p[16] << 8 | p[17]);
		off += 4;
	}
	if (type == ETH_P_IP) {
		uint32_t ihl;

		if (caplen < off + 20 || (p[off] >> 4) != 4)
			return 0;
		ihl = (p[off] & 15u) * 4;
		iplen = (uint32_t)(p[off + 2] << 8 | p[off + 3]);
		if (ihl < 20 || iplen < ihl || caplen < off + iplen)
			return 0;
		*skip = PB_RSKIP_NOT_UDP;
		if (p[off + 9] != IPPROTO_UDP)
			return 0;
		*skip = PB_RSKIP_FRAGMENT;
		if ((p[off + 6] << 8 | p[off + 7]) & 0x3fff)
			return 0;
		key[0] = 4;
		memcpy(key + 1, p + off + 12, 8);
		l4 = off + ihl;
		iplen -= ihl;
	} else if (type == ETH_P_IPV6) {
		uint32_t ext;
		uint8_t nh;

		if (caplen < off + 40 || (p[off] >> 4) != 6)
			return 0;
		iplen = (uint32_t)(p[off + 4] << 8 | p[off + 5]);
		if (caplen < off + 40 + iplen)
			return 0;
		/*
		 * Its extension headers walked: only a fragment header makes a fragment; a
		 * hop-by-hop one (MLD's router alert) merely stands before ICMPv6, not UDP
		 * (issue 46: an MLD report was named an IP fragment)
		 */
		ext = rp_v6_walk(p + off, 40 + iplen, &nh);
		if (!ext)
			return 0;
		*skip = nh == IPPROTO_FRAGMENT ? PB_RSKIP_FRAGMENT
			: nh == IPPROTO_UDP    ? PB_RSKIP_N
					       : PB_RSKIP_NOT_UDP;
		if (*skip != PB_RSKIP_N)
			return 0;
		key[0] = 6;
		memcpy(key + 1, p + off + 8, 32);
		l4 = off + ext;
		iplen -= ext - 40;
	} else {
		*skip = PB_RSKIP_NOT_IP;
		return 0;
	}
	*skip = PB_RSKIP_TRUNCATED;
	if (iplen < sizeof(struct udphdr))
		return 0;
	ulen = (uint32_t)(p[l4 + 4] << 8 | p[l4 + 5]);
	if (ulen < sizeof(struct udphdr) || ulen > iplen)
		return 0;
	plen = ulen - sizeof(struct udphdr);
	*skip = PB_RSKIP_SHORT_PAYLOAD;
	if (plen < PB_SIG_LEN)
		return 0;
	/* an IPv6 datagram stays IPv6: a socket of the run's family cannot send it */
	*skip = PB_RSKIP_FAMILY;
	if (f->family && f->family != (key[0] == 4 ? AF_INET : AF_INET6))
		return 0;
	memcpy(key + 33, p + l4, 4); /* both ports */
	err = rp_flow_index(f, key, &r.flow);
	if (err)
		return err;
	r.data = l4 + (uint32_t)sizeof(struct udphdr);
	r.len = plen;
	*out = r;
	*skip = PB_RSKIP_N;
	return 0;
}

/* rp_classify(), and a kept frame's payload copied into the file's buffer. */
static int rp_parse(struct rp_file *f, const uint8_t *p, uint32_t caplen, uint32_t wirelen,
		    uint64_t ts_ns, int *skip)
{
	struct rp_rec r;
	uint32_t plen;
	int err;

	err = rp_classify(f, p, caplen, wirelen, ts_ns, &r, skip);
	if (err || *skip != PB_RSKIP_N)
		return err;
	plen = r.len;
	if (f->whole) /* room for a tag to go in by moving the MACs alone */
		f->used += RP_HEADROOM;
	if (f->budget && f->used + plen + (f->n + 1ull) * RP_FRAME_COST > f->budget)
		return -E2BIG;
	if (f->used + plen > f->room) {
		size_t room = f->room ? f->room * 2 : 1 << 20;
		uint8_t *buf;

		while (room < f->used + plen)
			room *= 2;
		buf = realloc(f->buf, room);
		if (!buf)
			return -ENOMEM;
		f->buf = buf;
		f->room = room;
	}
	if (f->n == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 1024;
		struct rp_rec *rec = realloc(f->rec, sizeof(*rec) * cap);

		if (!rec)
			return -ENOMEM;
		f->rec = rec;
		f->cap = cap;
	}
	memcpy(f->buf + f->used, p + r.data, plen);
	r.data = f->used;
	f->used += plen;
	f->rec[f->n++] = r;
	return 0;
}

void rp_file_free(struct rp_file *f)
{
	free(f->rec);
	free(f->buf);
	free(f->ft);
	memset(f, 0, sizeof(*f));
}

#ifdef PB_HAVE_PCAP
/* The capture, for a read from its start; NULL with why filled. */
pcap_t *rp_pcap_open(const char *path, char *why, size_t len)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *pc;

	/* nanosecond stamps whatever the file holds: libpcap scales microsecond files up */
	pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		snprintf(why, len, "--replay %s: %s", path, errbuf);
		return NULL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		snprintf(why, len, "--replay %s: link type %s, only Ethernet captures replay", path,
			 pcap_datalink_val_to_name(pcap_datalink(pc)) ?: "unknown");
		pcap_close(pc);
		return NULL;
	}
	return pc;
}

uint64_t rp_stamp(const struct pcap_pkthdr *h)
{
	/*
	 * A pcap record's seconds are 32 bits unsigned, but libpcap reads them as signed: past
	 * 2^31 (2038, or a 4e9 s gap) they come negative and are taken back to unsigned here.
	 * pcapng's 64-bit stamps never come negative.
	 */
	uint64_t sec = h->ts.tv_sec < 0 ? (uint32_t)h->ts.tv_sec : (uint64_t)h->ts.tv_sec;

	return sec * 1000000000ull + (uint64_t)h->ts.tv_usec;
}

int rp_end(pcap_t *pc, int ret, const char *path, bool *cut, uint64_t *cut_bytes, char *why,
	   size_t len)
{
	const char *e, *t, *g;
	unsigned long long want, got;

	if (ret != PCAP_ERROR)
		return 0;
	/*
	 * libpcap says "truncated ... tried to read N ... bytes, only got M" when the file
	 * ends inside a record (pcap: its header or its data; pcapng: a block): the frames
	 * before it are whole, and replay.
	 */
	e = pcap_geterr(pc);
	t = strstr(e, "tried to read ");
	g = strstr(e, "only got ");
	if (strstr(e, "truncated") && t && g && sscanf(t + 14, "%llu", &want) == 1 &&
	    sscanf(g + 9, "%llu", &got) == 1 && want > got) {
		if (cut)
			*cut = true;
		if (cut_bytes)
			*cut_bytes = want - got;
		return 0;
	}
	snprintf(why, len, "--replay %s: %s", path, e);
	return -EINVAL;
}

int rp_read(const char *path, struct rp_file *f, char *why, size_t len)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *pc;
	int ret, err = 0, skip;

	pc = rp_pcap_open(path, why, len);
	if (!pc)
		return -EINVAL;
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		uint64_t ts = rp_stamp(h);

		f->frames++;
		err = rp_parse(f, data, h->caplen, h->len, ts, &skip);
		if (err)
			goto out;
		if (skip < PB_RSKIP_N)
			f->skipped[skip]++;
	}
	err = rp_end(pc, ret, path, &f->cut, &f->cut_bytes, why, len);
out:
	pcap_close(pc);
	if (err == -ENOMEM)
		snprintf(why, len, "--replay %s: out of memory", path);
	return err;
}
#else
int rp_read(const char *path, struct rp_file *f, char *why, size_t len)
{
	(void)f;
	snprintf(why, len, "--replay %s: this pktbench was built without libpcap", path);
	return -EOPNOTSUPP;
}

#endif

/* The spec of a captured frame's rebuilt frame, before its stream, flow and payload. */
void rp_spec(const struct pb_replay *rp, const struct rp_rec *r, struct pb_frame_spec *spec)
{
	*spec = rp->base;
	spec->payload_len = r->len;
	if (rp->frames && !rp->cfg.vlan && r->tagged) {
		spec->vlan_id = r->tci & 0xfff;
		spec->vlan_prio = (uint8_t)(r->tci >> 13);
	}
}

/* Whether a whole frame goes out tagged: --vlan's tag, or its own unless --vlan-strip. */
static bool rp_tag_out(const struct pb_replay *rp, const struct rp_rec *r)
{
	return rp->cfg.vlan || (r->tagged && !rp->cfg.vlan_strip);
}

uint32_t rp_out_len(const struct pb_replay *rp, const struct rp_rec *r)
{
	struct pb_frame_spec spec;

	if (rp->frames)
		return r->len - (r->tagged ? PB_VLAN_HLEN : 0) +
		       (rp_tag_out(rp, r) ? PB_VLAN_HLEN : 0);
	rp_spec(rp, r, &spec);
	return pb_frame_len(&spec);
}

/* Its bytes on the wire, for --rate. */
static uint32_t rp_wire(const struct pb_replay *rp, const struct rp_rec *r)
{
	struct pb_frame_spec spec;

	if (rp->frames) /* a NIC pads a short one all the same: pb_wire_bytes counts that */
		return pb_wire_bytes(rp_out_len(rp, r), rp_tag_out(rp, r));
	rp_spec(rp, r, &spec);
	return pb_wire_bytes(pb_frame_len(&spec), spec.vlan_id != 0);
}

/*
 * A whole frame as it goes out, written at out from its captured bytes at src (NULL: in
 * place, RP_HEADROOM bytes either side of src: the bytes after the MACs and the tag never
 * move): the path's destination MAC, the run's source MAC (pb_bpf.h: the receiver counts the
 * frame by it), the tag as asked, then the frame as captured, rewritten where --rewrite-ip or
 * --rewrite-port ask.
 */
int rp_build_whole(struct pb_frame *fr, uint8_t *out, const uint8_t *src,
		   const struct pb_replay *rp, uint32_t stream, const struct rp_rec *r)
{
	uint32_t hin = 12 + (r->tagged ? PB_VLAN_HLEN : 0);
	uint32_t hout = 12 + (rp_tag_out(rp, r) ? PB_VLAN_HLEN : 0);
	uint16_t tci = r->tci;

	if (!out)
		out = (uint8_t *)src + hin - hout;
	if (out + hout != src + hin)
		memmove(out + hout, src + hin, r->len - hin);
	memcpy(out, rp->base.dstmac, 6);
	/* --srcmac, as tcpreplay's --enet-smac, else the run's MAC that the receiver counts by */
	if (rp->cfg.srcmac_set)
		memcpy(out + 6, rp->cfg.srcmac, 6);
	else
		pb_run_mac(out + 6, rp->base.run_id, (uint8_t)stream, rp->timed);
	if (hout > 12) {
		if (rp->cfg.vlan)
			tci = (uint16_t)(rp->cfg.vlan_prio << 13 | rp->cfg.vlan);
		out[12] = ETH_P_8021Q >> 8;
		out[13] = ETH_P_8021Q & 0xff;
		out[14] = (uint8_t)(tci >> 8);
		out[15] = (uint8_t)tci;
	}
	rp_rewrite(out + hout, r->len - hin, &rp->rw);
	/* after the rewrites: a checksum computed afresh covers what they changed */
	if (rp->cfg.fixcsum)
		rp_fixcsum(out + hout, r->len - hin);
	memset(fr, 0, sizeof(*fr));
	fr->data = out;
	fr->len = r->len - hin + hout;
	fr->unpadded = fr->len;
	fr->l3_off = hout + 2;
	return 0;
}

uint32_t rp_flow_of(const struct pb_config *cfg, const struct rp_rec *r, uint64_t kept)
{
	return cfg->flows > 1 ? (uint32_t)(kept % cfg->flows) : r->flow;
}

/*
 * One captured frame rebuilt into fr (fr->data holds its bytes): this run's MACs, addresses,
 * destination port and signature; its flow's source port and address (pb_flow_apply: flow k
 * of rp->flows); the capture's payload after the signature, its VLAN tag unless --vlan sets
 * one (frame methods only).
 */
int rp_build_one(struct pb_frame *fr, const struct pb_replay *rp, uint32_t stream,
		 const struct rp_rec *r, const uint8_t *payload)
{
	struct pb_frame_spec spec, base;

	if (rp->frames)
		return rp_build_whole(fr, fr->data, payload, rp, stream, r);

	rp_spec(rp, r, &spec);
	base = spec;
	spec.stream_id = (uint8_t)stream;
	/* timed frames say so: the receiver times the gaps between them */
	if (rp->timed)
		spec.kind = PB_SIG_KIND_FRAME | PB_SIG_PACED;
	pb_flow_apply(&spec, &base, r->flow, rp->flows, rp->cfg.flows_src_ip);
	spec.payload = payload;
	return pb_frame_build(fr, &spec);
}

/* Whether a frame fits the MTU as m hands it over; the kernel would refuse or fragment it. */
bool rp_fits(const struct pb_replay *rp, const struct rp_rec *r)
{
	const struct pb_config *cfg = &rp->cfg;
	uint32_t ip = pb_frame_overhead(cfg->srcip.family) - PB_ETH_HLEN;

	if (rp->frames) {
		uint32_t len = rp_out_len(rp, r);
		uint32_t l2 = PB_ETH_HLEN + (rp_tag_out(rp, r) ? PB_VLAN_HLEN : 0);

		return len <= PB_FRAME_MAX && (!cfg->mtu || len <= l2 + cfg->mtu);
	}

	if (r->len + pb_frame_overhead(cfg->srcip.family) + PB_VLAN_HLEN > PB_FRAME_MAX)
		return false;
	return !cfg->mtu || ip + r->len <= cfg->mtu;
}

/* The timing asked for. */
void rp_timing(struct pb_replay *rp)
{
	const struct pb_config *cfg = &rp->cfg;

	rp->multiplier = cfg->multiplier > 0 ? cfg->multiplier : 1;
	rp->timed = true;
	if (cfg->topspeed || cfg->replay_timing == PB_TIMING_TOPSPEED) {
		rp->timing = "topspeed";
		rp->timed = false;
	} else if (cfg->pps) {
		rp->timing = "pps";
	} else if (cfg->rate_gbps) {
		rp->timing = "rate";
	} else {
		rp->timing = "original";
	}
}

/*
 * The next replayed frame's offset in its pass (global file order), by the timing asked for:
 * the file's gaps, evenly spaced (--pps), the frames' wire time (--rate), 0.
 */
double rp_offset(const struct pb_replay *rp, struct rp_clock *c, const struct rp_rec *r)
{
	const struct pb_config *cfg = &rp->cfg;
	uint64_t ts_ns = r->ts_ns;
	double off;

	/*
	 * The file's clock is its latest stamp so far, as tcpreplay keeps it: a frame stamped
	 * before it (a merged capture, a clock stepped) is due at once and moves nothing, and
	 * the next frame is due at its own stamp. Summing the gaps from the previous frame
	 * instead added each step back again through the next gap (issue 46: 26.6 s of capture
	 * with 27 frames 2 s early took 80.6 s). Integer nanoseconds: exact, never negative.
	 */
	if (c->k && ts_ns < c->t_prev)
		c->backwards++;
	if (!c->k) {
		c->t_max = ts_ns;
	} else if (ts_ns > c->t_max) {
		c->acc_ns += ts_ns - c->t_max;
		c->t_max = ts_ns;
	}
	c->t_prev = ts_ns;
	if (!rp->timed)
		off = 0;
	else if (cfg->pps)
		off = (double)c->k / cfg->pps;
	else if (cfg->rate_gbps)
		off = c->at;
	else
		off = (double)c->acc_ns / 1e9 / rp->multiplier;
	if (cfg->rate_gbps) {
		c->wire = rp_wire(rp, r);
		c->at += c->wire * 8.0 / (cfg->rate_gbps * 1e9);
	}
	c->prev = off;
	c->k++;
	return off;
}

/*
 * A pass read to its end: its frames, the file's duration, and the period: the last frame's
 * offset, what one more frame would take, --loop-delay.
 */
void rp_pass_end(struct pb_replay *rp, const struct rp_clock *c)
{
	const struct pb_config *cfg = &rp->cfg;
	double gap;

	rp->pass_frames = c->k;
	rp->file_s = (double)c->acc_ns / 1e9;
	rp->backwards = c->backwards;
	if (!rp->timed) {
		rp->period = 0;
		return;
	}
	if (cfg->rate_gbps)
		gap = c->wire * 8.0 / (cfg->rate_gbps * 1e9);
	else if (cfg->pps)
		gap = 1.0 / cfg->pps;
	else
		gap = c->k > 1 ? c->prev / (double)(c->k - 1) : 0;
	rp->period = c->prev + gap + cfg->loop_delay_s;
}

int rp_order_add(struct pb_replay *rp, uint32_t i)
{
	if (!rp->cfg.limit || rp->streams < 2)
		return 0;
	if (rp->norder == rp->order_cap) {
		uint64_t cap = rp->order_cap ? rp->order_cap * 2 : 4096;
		uint8_t *o = realloc(rp->order, cap);

		if (!o)
			return -ENOMEM;
		rp->order = o;
		rp->order_cap = cap;
	}
	rp->order[rp->norder++] = (uint8_t)i;
	return 0;
}

/*
 * The first N frames of the replay are whole passes and then the first N mod pass frames of
 * one more, in file order: each stream sends its frames among them (tcpreplay's --limit).
 */
void rp_limits(struct pb_replay *rp)
{
	uint64_t n = rp->cfg.limit, whole, rest, g;
	uint32_t i;

	for (i = 0; i < rp->streams; i++)
		rp->st[i].limit = UINT64_MAX;
	if (!n || !rp->pass_frames)
		return;
	whole = n / rp->pass_frames;
	rest = n % rp->pass_frames;
	for (i = 0; i < rp->streams; i++)
		rp->st[i].limit = whole * rp->st[i].n + (rp->streams == 1 ? rest : 0);
	for (g = 0; rp->streams > 1 && g < rest && g < rp->norder; g++)
		rp->st[rp->order[g]].limit++;
	free(rp->order);
	rp->order = NULL;
	rp->norder = rp->order_cap = 0;
}

int rp_none(const struct pb_replay *rp, char *why, size_t len)
{
	snprintf(why, len,
		 "--replay %s: none of its %llu frames can be replayed (UDP over Ethernet, "
		 "payload >= 8 bytes, within the MTU)",
		 rp->cfg.replay, (unsigned long long)rp->file_frames);
	return -EINVAL;
}

int rp_no_flows(const struct pb_replay *rp, uint32_t flows, uint32_t i, char *why, size_t len)
{
	snprintf(why, len,
		 "--streams %u: the replay has %u flows (the capture's, or --flows), so stream "
		 "%u would have none (flows are hashed to streams)",
		 rp->streams, flows, i);
	return -EINVAL;
}
