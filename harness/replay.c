// SPDX-License-Identifier: MIT
/*
 * --replay: the capture reader (libpcap), the rebuilt per-stream frames and the absolute
 * schedule, and the departure figures; streaming from disk is replay_disk.c's. Kept out of
 * runner.c, which only asks for a stream's allowance and reports what each call handed over.
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
#include <sys/stat.h>

#ifdef PB_HAVE_PCAP
#include <pcap/pcap.h>
#endif

#include "log.h"
#include "replay.h"
#include "replay_int.h"
#include "stats.h"

double pb_replay_due(const double *off, uint32_t n, double period, uint64_t k)
{
	return (double)(k / n) * period + off[k % n];
}

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
 * One captured frame: its UDP payload (r->data: its offset in p) and flow, or why it is not
 * replayed. 0 with *skip set to PB_RSKIP_N when kept, -ENOMEM.
 */
int rp_classify(struct rp_file *f, const uint8_t *p, uint32_t caplen, uint32_t wirelen,
		uint64_t ts_ns, struct rp_rec *out, int *skip)
{
	uint32_t off = PB_ETH_HLEN, l4, ulen, plen, iplen;
	uint8_t key[37] = { 0 };
	struct rp_rec r = { .ts_ns = ts_ns };
	uint16_t type;
	int err;

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
		if (caplen < off + 40 || (p[off] >> 4) != 6)
			return 0;
		iplen = (uint32_t)(p[off + 4] << 8 | p[off + 5]);
		if (caplen < off + 40 + iplen)
			return 0;
		*skip = p[off + 6] == IPPROTO_UDP ? PB_RSKIP_N
			: p[off + 6] == IPPROTO_TCP || p[off + 6] == IPPROTO_ICMPV6 ||
					p[off + 6] == IPPROTO_NONE
				? PB_RSKIP_NOT_UDP
				: PB_RSKIP_FRAGMENT; /* an extension header first */
		if (*skip != PB_RSKIP_N)
			return 0;
		key[0] = 6;
		memcpy(key + 1, p + off + 8, 32);
		l4 = off + 40;
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
	r.data = (uint32_t)f->used;
	f->used += plen;
	f->rec[f->n++] = r;
	return 0;
}

static void rp_file_free(struct rp_file *f)
{
	free(f->rec);
	free(f->buf);
	free(f->ft);
	memset(f, 0, sizeof(*f));
}

/*
 * --preload: whether the capture is streamed from disk through a window rather than read
 * into memory. A file that cannot be stat'ed is left to the reader to report.
 */
static bool rp_streams(const struct pb_config *cfg)
{
	struct stat st;

	if (cfg->preload == PB_PRELOAD_NEVER)
		return true;
	if (cfg->preload == PB_PRELOAD_ALWAYS || stat(cfg->replay, &st))
		return false;
	return (uint64_t)st.st_size > (uint64_t)cfg->preload_max_mib << 20;
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
		*cut = true;
		*cut_bytes = want - got;
		return 0;
	}
	snprintf(why, len, "--replay %s: %s", path, e);
	return -EINVAL;
}

static int rp_read(const char *path, struct rp_file *f, char *why, size_t len)
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
static int rp_read(const char *path, struct rp_file *f, char *why, size_t len)
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

/* Its bytes on the wire, for --rate. */
static uint32_t rp_wire(const struct pb_replay *rp, const struct rp_rec *r)
{
	struct pb_frame_spec spec;

	rp_spec(rp, r, &spec);
	return pb_wire_bytes(pb_frame_len(&spec), spec.vlan_id != 0);
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

/* Stream i's frames of a preloaded file, rebuilt, in file order. */
static int rp_build(struct pb_replay_stream *s, const struct pb_replay *rp, const struct rp_file *f,
		    const uint8_t *keep, uint32_t stream)
{
	const struct pb_config *cfg = &rp->cfg;
	struct pb_frame_spec spec;
	uint32_t i, j, stride = 0;

	for (i = 0; i < f->n; i++) {
		if (!keep[i] || f->rec[i].flow % cfg->streams != stream)
			continue;
		rp_spec(rp, &f->rec[i], &spec);
		if (pb_frame_len(&spec) > stride)
			stride = pb_frame_len(&spec);
		s->n++;
	}
	if (!s->n)
		return -ENOENT;
	stride = (stride + 63) & ~63u;
	s->pool.frames = calloc(s->n, sizeof(*s->pool.frames));
	s->pool.buf = aligned_alloc(64, (size_t)stride * s->n);
	s->off = calloc(s->n, sizeof(*s->off));
	s->len = calloc(s->n, sizeof(*s->len));
	if (!s->pool.frames || !s->pool.buf || !s->off || !s->len)
		return -ENOMEM;
	for (i = 0, j = 0; i < f->n; i++) {
		const struct rp_rec *r = &f->rec[i];
		struct pb_frame *fr = &s->pool.frames[j];
		int err;

		if (!keep[i] || r->flow % cfg->streams != stream)
			continue;
		fr->data = s->pool.buf + (size_t)j * stride;
		err = rp_build_one(fr, rp, stream, r, f->buf + r->data);
		if (err)
			return err;
		if (fr->len > s->pool.max_len)
			s->pool.max_len = fr->len;
		s->len[j] = rp->frames ? fr->len : fr->unpadded;
		j++;
	}
	s->pool.n = s->n;
	s->pool.ordered = true;
	s->hist = calloc(RP_HIST_US + 1, sizeof(*s->hist));
	return s->hist ? 0 : -ENOMEM;
}

/* Whether a frame fits the MTU as m hands it over; the kernel would refuse or fragment it. */
bool rp_fits(const struct pb_config *cfg, const struct rp_rec *r)
{
	uint32_t ip = pb_frame_overhead(cfg->srcip.family) - PB_ETH_HLEN;

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
	 * The file's time runs on by each gap between two frames in file order; a stamp that
	 * goes back (a merged capture, a clock stepped) adds nothing and is counted. Integer
	 * nanoseconds: exact over any file, and never negative.
	 */
	if (c->k && ts_ns >= c->t_prev)
		c->acc_ns += ts_ns - c->t_prev;
	else if (c->k)
		c->backwards++;
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

static const char *rp_unsupported(const struct pb_method *m)
{
	if (m->knobs & PB_K_SEGMENTS)
		return "--replay: GSO cuts one payload into equal segments; a capture's differ";
	return NULL;
}

/* Where stream frame k's deadline is: its window's place, or the preloaded schedule. */
static double rp_due(const struct pb_replay_stream *s, uint64_t k)
{
	return s->streamed ? s->due[k & s->mask] : pb_replay_due(s->off, s->n, s->period, k);
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

/*
 * Preloaded: the whole file read into memory, its pass scheduled in file order, then every
 * stream's frames rebuilt.
 */
static int rp_open_preloaded(struct pb_replay *rp, char *why, size_t len)
{
	const struct pb_config *cfg = &rp->cfg;
	struct rp_clock c = { 0 };
	struct rp_file f = { 0 };
	uint8_t *keep = NULL;
	double *goff = NULL;
	uint32_t i;
	int err;

	err = rp_read(cfg->replay, &f, why, len);
	if (err)
		goto out;
	err = -ENOMEM;
	keep = calloc(f.n + 1, 1);
	goff = calloc(f.n + 1, sizeof(*goff));
	if (!keep || !goff)
		goto out;
	rp->file_frames = f.frames;
	rp->cut = f.cut;
	rp->cut_bytes = f.cut_bytes;
	memcpy(rp->skipped, f.skipped, sizeof(rp->skipped));
	rp_timing(rp);
	for (i = 0; i < f.n; i++) {
		keep[i] = rp_fits(cfg, &f.rec[i]);
		if (!keep[i]) {
			rp->skipped[PB_RSKIP_TOO_BIG]++;
			continue;
		}
		f.rec[i].flow = rp_flow_of(cfg, &f.rec[i], c.k);
		goff[i] = rp_offset(rp, &c, &f.rec[i]);
	}
	rp_pass_end(rp, &c);
	rp->flows = cfg->flows > 1 ? cfg->flows : f.flows;
	if (!rp->pass_frames) {
		err = rp_none(rp, why, len);
		goto out;
	}
	for (i = 0; i < cfg->streams; i++) {
		struct pb_replay_stream *s = &rp->st[i];
		uint32_t j, k = 0;

		err = rp_build(s, rp, &f, keep, i);
		if (err == -ENOENT)
			err = rp_no_flows(rp, rp->flows, i, why, len);
		else if (err && err != -ENOMEM)
			snprintf(why, len, "--replay: building the frames: %s", strerror(-err));
		if (err)
			goto out;
		for (j = 0; j < f.n; j++)
			if (keep[j] && f.rec[j].flow % cfg->streams == i)
				s->off[k++] = goff[j];
		s->period = rp->period;
		s->timed = rp->timed;
		s->first_due = s->off[0];
	}
out:
	free(keep);
	free(goff);
	rp_file_free(&f);
	return err;
}

int pb_replay_open(struct pb_replay **out, const struct pb_method *m, const struct pb_config *cfg,
		   char *why, size_t len)
{
	const char *no = rp_unsupported(m);
	struct pb_replay *rp;
	int err;

	*out = NULL;
	if (no) {
		snprintf(why, len, "%s", no);
		return -EOPNOTSUPP;
	}
	rp = calloc(1, sizeof(*rp));
	if (!rp) {
		snprintf(why, len, "--replay %s: out of memory", cfg->replay);
		return -ENOMEM;
	}
	rp->cfg = *cfg;
	pb_frame_spec_from_config(cfg, (m->flags & PB_M_FRAME) && cfg->vlan, &rp->base);
	rp->streams = cfg->streams;
	rp->loops = cfg->loop;
	rp->frames = m->flags & PB_M_FRAME;
	rp->st = calloc(cfg->streams, sizeof(*rp->st));
	rp->streamed = rp_streams(cfg);
	if (!rp->st)
		err = -ENOMEM;
	else if (rp->streamed)
		err = rp_open_streamed(rp, m, why, len);
	else
		err = rp_open_preloaded(rp, why, len);
	if (err == -ENOMEM)
		snprintf(why, len, "--replay %s: out of memory", cfg->replay);
	if (err) {
		pb_replay_free(rp);
		return err;
	}
	if (rp->cut)
		pr_warn("--replay %s: the last record is cut short (%" PRIu64 " bytes missing): "
			"the %" PRIu64 " whole frames before it replay\n",
			cfg->replay, rp->cut_bytes, rp->file_frames);
	if (rp->backwards)
		pr_warn("--replay %s: a stamp goes back %" PRIu64 " time(s) in file order: the "
			"frames replay in file order, each such gap taken as 0\n",
			cfg->replay, rp->backwards);
	*out = rp;
	return 0;
}

void pb_replay_free(struct pb_replay *r)
{
	uint32_t i;

	if (!r)
		return;
	pb_replay_stop(r);
#ifdef PB_HAVE_PCAP
	if (r->rd.pc)
		pcap_close(r->rd.pc);
#endif
	for (i = 0; r->st && i < r->streams; i++) {
		pb_pool_free(&r->st[i].pool);
		free(r->st[i].off);
		free(r->st[i].len);
		free(r->st[i].hist);
		free(r->st[i].due);
	}
	free(r->gap_hist);
	rp_file_free(&r->file);
	free(r->st);
	free(r);
}

void pb_replay_apply(const struct pb_replay *r, struct pb_config *cfg)
{
	cfg->count = r->loops ? r->pass_frames * r->loops : 0;
	if (cfg->count && !cfg->count_timeout_s)
		cfg->count_timeout_s = 10.0 + r->period * r->loops;
}

void pb_replay_take_pool(struct pb_replay *r, uint32_t i, struct pb_pool *pool)
{
	*pool = r->st[i].pool;
	memset(&r->st[i].pool, 0, sizeof(r->st[i].pool));
}

uint64_t pb_replay_quota(const struct pb_replay *r, uint32_t i)
{
	return r->loops ? (uint64_t)r->st[i].n * r->loops : UINT64_MAX;
}

struct pb_replay_stream *pb_replay_stream(struct pb_replay *r, uint32_t i)
{
	return &r->st[i];
}

uint64_t pb_replay_allowance(struct pb_replay_stream *s, double t, uint64_t handed, double *next)
{
	/* streamed: frames are counted as the method takes them out of its window */
	uint64_t at = s->streamed ? *s->taken : handed, k;
	uint64_t avail = s->streamed ? __atomic_load_n(&s->avail, __ATOMIC_ACQUIRE) : UINT64_MAX;
	double due, rel;

	/*
	 * The schedule starts when the stream first asks, not at the clock start: a thread that
	 * woke late would otherwise begin with a burst of everything due meanwhile.
	 */
	if (!s->started) {
		s->started = true;
		s->anchor = t;
	}
	s->call_t = t;
	if (!s->timed && !s->streamed)
		return UINT64_MAX;
	rel = t - s->anchor;
	/* a late sender does not scan the same due frames again on every call */
	k = s->due_k > at ? s->due_k : at;
	if (!s->timed)
		k = avail - at < RP_ALLOW_MAX ? avail : at + RP_ALLOW_MAX;
	while (s->timed && k - at < RP_ALLOW_MAX && k < avail) {
		due = rp_due(s, k);
		if (due > rel) {
			if (k == at)
				*next = s->anchor + due;
			break;
		}
		k++;
	}
	if (k == at && k == avail) {
		/*
		 * The window is empty: the reader is behind, or done and the stream with it (done
		 * first: the reader's last avail was stored before it)
		 */
		if (__atomic_load_n(s->reader_done, __ATOMIC_ACQUIRE))
			s->exhausted = at >= __atomic_load_n(&s->avail, __ATOMIC_ACQUIRE);
		else if (!s->starved)
			s->waits++;
		s->starved = true;
		*next = t + RP_NAP_NS * 1e-9;
	} else if (k > at) {
		s->starved = false;
	}
	s->due_k = k;
	return k - at;
}

void pb_replay_note(struct pb_replay_stream *s, uint64_t handed)
{
	uint64_t at = s->streamed ? *s->taken : handed;

	for (; s->noted < at; s->noted++) {
		double due = s->timed ? rp_due(s, s->noted) : 0;
		double err = s->timed ? s->call_t - s->anchor - due : 0;
		uint64_t us = err > 0 ? (uint64_t)(err * 1e6) : 0;

		if (!s->noted)
			s->first_t = s->call_t;
		s->last_t = s->call_t;
		s->last_due = due;
		s->bytes += s->len[s->streamed ? s->noted & s->mask : s->noted % s->n];
		s->hist[us < RP_HIST_US ? us : RP_HIST_US]++;
		if (err > s->max_err)
			s->max_err = err;
	}
	/* what the method took out is copied: the reader may write those places again */
	if (s->streamed)
		__atomic_store_n(&s->freed, at, __ATOMIC_RELEASE);
}

/* The upper bound of the bucket that holds the q-th quantile, in us. */
static double rp_quantile(const uint64_t *h, uint64_t total, double q, double max_us)
{
	uint64_t want = (uint64_t)ceil(q * (double)total), seen = 0;
	uint32_t i;

	for (i = 0; i <= RP_HIST_US; i++) {
		seen += h[i];
		if (seen >= want && seen)
			return i < RP_HIST_US ? fmin(i + 1.0, max_us) : max_us;
	}
	return max_us;
}

void pb_replay_result(const struct pb_replay *r, struct pb_result *res)
{
	struct pb_replay_stats *o = &res->replay;
	double first = INFINITY, last = -INFINITY, s0 = INFINITY, s1 = -INFINITY;
	uint64_t *h = calloc(RP_HIST_US + 1, sizeof(*h)), loops = UINT64_MAX;
	uint32_t i, j;

	memset(o, 0, sizeof(*o));
	o->on = true;
	o->timed = r->timed;
	o->timing = r->timing;
	o->multiplier = r->multiplier;
	o->file_frames = r->file_frames;
	o->pass_frames = r->pass_frames;
	memcpy(o->skipped, r->skipped, sizeof(o->skipped));
	o->file_duration_s = r->file_s;
	o->backwards = r->backwards;
	o->cut = r->cut;
	o->cut_bytes = r->cut_bytes;
	o->streamed = r->streamed;
	o->reader_failed = r->rd.err != 0;
	for (i = 0; i < r->streams; i++) {
		const struct pb_replay_stream *s = &r->st[i];

		o->window_frames += s->streamed ? s->mask + 1 : 0;
		o->reader_waits += s->waits;
		o->frames += s->noted;
		o->bytes += s->bytes;
		loops = s->noted / s->n < loops ? s->noted / s->n : loops;
		if (!s->noted)
			continue;
		first = fmin(first, s->first_t);
		last = fmax(last, s->last_t);
		/* what the schedule asked, each stream from its own origin */
		s0 = fmin(s0, s->anchor + s->first_due);
		s1 = fmax(s1, s->anchor + s->last_due);
		o->dep_max_us = fmax(o->dep_max_us, s->max_err * 1e6);
		for (j = 0; h && j <= RP_HIST_US; j++)
			h[j] += s->hist[j];
	}
	o->loops = loops == UINT64_MAX ? 0 : loops;
	if (r->rd.err) {
		res->status = PB_STATUS_ERROR;
		snprintf(res->reason, sizeof(res->reason),
			 "--replay: reading the capture from disk failed: %s",
			 strerror(-r->rd.err));
	}
	o->run_duration_s = o->frames ? last - first : 0;
	o->sched_duration_s = o->frames && r->timed ? s1 - s0 : 0;
	o->drift_ppm = o->sched_duration_s > 0 ? (o->run_duration_s - o->sched_duration_s) /
							 o->sched_duration_s * 1e6
					       : 0;
	if (h && o->frames) {
		o->dep_p50_us = rp_quantile(h, o->frames, 0.50, o->dep_max_us);
		o->dep_p99_us = rp_quantile(h, o->frames, 0.99, o->dep_max_us);
	}
	free(h);
}

static int rp_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A stream's gap at the wrap, when a pass followed another; 0 when none did. */
static double rp_wrap_gap(const struct pb_replay_stream *s, double last_off)
{
	uint64_t loops = s->noted / s->n;

	if (loops > 1 || (loops == 1 && s->noted > s->n))
		return s->period - last_off + s->first_due;
	return 0;
}

/*
 * Streamed: the schedule's gaps from the first read's histogram (100 ns buckets) and the
 * wraps', as rp_sched_gaps() gives them.
 */
static bool rp_hist_gaps(const struct pb_replay *r, double *p50, double *p99, double *pmax)
{
	uint64_t *h = malloc(sizeof(*h) * (RP_GAP_BUCKETS + 1)), total = 0, seen;
	double q[2] = { 0.50, 0.99 }, *out[2] = { p50, p99 }, max = r->gap_max, b;
	uint32_t i, j;

	if (!h)
		return false;
	memcpy(h, r->gap_hist, sizeof(*h) * (RP_GAP_BUCKETS + 1));
	for (i = 0; i < r->streams; i++) {
		double g = rp_wrap_gap(&r->st[i], r->st[i].scan_off);

		if (g <= 0)
			continue;
		b = round(g * 1e7);
		h[b < RP_GAP_BUCKETS ? (uint32_t)b : RP_GAP_BUCKETS]++;
		max = fmax(max, g);
	}
	for (j = 0; j <= RP_GAP_BUCKETS; j++)
		total += h[j];
	for (i = 0; i < 2 && total; i++) {
		uint64_t want = (uint64_t)ceil(q[i] * (double)total);

		for (j = 0, seen = 0; j <= RP_GAP_BUCKETS; j++) {
			seen += h[j];
			if (seen >= want)
				break;
		}
		*out[i] = j < RP_GAP_BUCKETS ? j * 0.1 : max * 1e6;
	}
	*pmax = max * 1e6;
	free(h);
	return total > 0;
}

/*
 * The gaps the schedule puts between a stream's consecutive frames over the passes sent: each
 * of a pass's gaps, and the wrap's between passes. Its p50 and p99, in us, or false.
 */
static bool rp_sched_gaps(const struct pb_replay *r, double *p50, double *p99, double *pmax)
{
	uint64_t n = 0, k;
	double *g;
	uint32_t i, j;

	if (r->streamed)
		return rp_hist_gaps(r, p50, p99, pmax);
	for (i = 0; i < r->streams; i++)
		n += r->st[i].n;
	g = malloc(sizeof(*g) * (n + 1));
	if (!g)
		return false;
	for (i = 0, k = 0; i < r->streams; i++) {
		const struct pb_replay_stream *s = &r->st[i];

		for (j = 1; j < s->n; j++)
			g[k++] = s->off[j] - s->off[j - 1];
		if (rp_wrap_gap(s, s->off[s->n - 1]) > 0)
			g[k++] = rp_wrap_gap(s, s->off[s->n - 1]);
	}
	if (!k) {
		free(g);
		return false;
	}
	qsort(g, k, sizeof(*g), rp_cmp);
	*p50 = g[(size_t)ceil(0.50 * (double)k) - 1] * 1e6;
	*p99 = g[(size_t)ceil(0.99 * (double)k) - 1] * 1e6;
	*pmax = g[k - 1] * 1e6;
	free(g);
	return true;
}

void pb_replay_gaps(const struct pb_replay *r, struct pb_result *res)
{
	struct pb_replay_stats *o = &res->replay;

	if (!r->timed || !res->gaps.on || !res->gaps.measured ||
	    !rp_sched_gaps(r, &o->gap_p50_us, &o->gap_p99_us, &o->gap_max_us))
		return;
	o->gaps_known = true;
	o->gap_err_p50_us = res->gaps.p50_us - o->gap_p50_us;
	o->gap_err_p99_us = res->gaps.p99_us - o->gap_p99_us;
	o->gap_err_max_us = res->gaps.max_us - o->gap_max_us;
}

void pb_replay_delivered(struct pb_result *res, uint64_t bytes)
{
	res->replay.rx_known = true;
	res->replay.rx_bytes = bytes;
}

int pb_replay_validate(const struct pb_config *cfg, char *err, size_t errlen)
{
	bool top = cfg->topspeed || cfg->replay_timing == PB_TIMING_TOPSPEED;

	/* without --replay its options have nothing to shape: they are not used */
	if (!cfg->replay[0])
		return 0;
	if (top && (cfg->pps || cfg->rate_gbps || cfg->multiplier > 0 || cfg->loop_delay_s > 0)) {
		snprintf(err, errlen,
			 "--topspeed has no schedule: --pps, --rate, --multiplier and "
			 "--loop-delay cannot go with it");
		return -EINVAL;
	}
	if (cfg->multiplier > 0 && (cfg->pps || cfg->rate_gbps)) {
		snprintf(err, errlen,
			 "--multiplier scales the file's own gaps; --pps and --rate "
			 "replace them: give one");
		return -EINVAL;
	}
	if (cfg->count || cfg->imix || cfg->frame_size || cfg->sweep.kind == PB_SWEEP_FRAME_SIZE ||
	    cfg->latency) {
		snprintf(err, errlen,
			 "--replay: the capture gives the frames and their sizes, and --loop the "
			 "count: --count, --imix, --frame-size and --latency do not apply");
		return -EINVAL;
	}
	return 0;
}
