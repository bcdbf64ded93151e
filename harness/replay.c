// SPDX-License-Identifier: MIT
/*
 * --replay: the capture reader (libpcap), the rebuilt per-stream frames and the absolute
 * schedule, and the departure figures. Kept out of runner.c, which only asks for a stream's
 * allowance and reports what each call handed over.
 */
#include <errno.h>
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

#include "replay.h"
#include "stats.h"

#define RP_HIST_US   10000 /* 1 us buckets of departure error up to 10 ms; later in the last */
#define RP_ALLOW_MAX 4096u /* frames one allowance hands out at most (a batch is smaller) */

/* One replayable frame of the file, before it is rebuilt. */
struct rp_rec {
	uint64_t ts_ns;
	uint32_t data; /* offset of its UDP payload in rp_file.buf */
	uint32_t len;  /* UDP payload bytes */
	uint32_t flow; /* index of its 5-tuple, in order of first appearance */
	uint16_t tci;  /* its 802.1Q tag, when tagged */
	bool tagged;
};

struct rp_file {
	struct rp_rec *rec;
	uint32_t n, cap;
	uint8_t *buf;
	size_t used, room;
	uint64_t frames; /* every frame read */
	uint64_t skipped[PB_RSKIP_N];
	uint32_t flows;
	/* the flow table: open addressing over 5-tuple keys */
	struct rp_flow {
		uint8_t key[37];
		bool used;
		uint32_t idx;
	} * ft;
	uint32_t ft_cap;
};

struct pb_replay_stream {
	double *off;   /* each frame's offset in a pass, seconds */
	uint32_t *len; /* bytes each frame hands over */
	uint32_t n;
	double period;
	bool timed;
	struct pb_pool pool;
	double call_t; /* when the last allowance was asked (the departure of what follows) */
	double anchor; /* the schedule's origin: when the stream first asked */
	bool started;
	uint64_t noted; /* frames handed over so far */
	uint64_t due_k; /* frames before it are known due: deadlines never go back */
	uint64_t bytes;
	double first_t, last_t;
	uint64_t *hist; /* RP_HIST_US + 1 buckets */
	double max_err;
};

struct pb_replay {
	uint32_t streams;
	uint32_t loops;
	double period, file_s;
	const char *timing;
	double multiplier;
	bool timed;
	uint64_t file_frames, pass_frames;
	uint64_t skipped[PB_RSKIP_N];
	struct pb_replay_stream *st;
};

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
 * One captured frame: its UDP payload and flow, or why it is not replayed. 0 with *skip set to
 * PB_RSKIP_N when kept, -ENOMEM.
 */
static int rp_parse(struct rp_file *f, const uint8_t *p, uint32_t caplen, uint32_t wirelen,
		    uint64_t ts_ns, int *skip)
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
	memcpy(f->buf + f->used, p + l4 + sizeof(struct udphdr), plen);
	r.data = (uint32_t)f->used;
	r.len = plen;
	f->used += plen;
	f->rec[f->n++] = r;
	*skip = PB_RSKIP_N;
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
 * --preload: the whole capture is read into memory (there is no streaming reader yet), so a
 * file the bound does not allow is refused before any of it is read, rather than filling
 * memory. A file that cannot be stat'ed is left to the reader to report.
 */
static int rp_preload_check(const struct pb_config *cfg, char *why, size_t len)
{
	struct stat st;

	if (cfg->preload == PB_PRELOAD_NEVER) {
		snprintf(why, len,
			 "--preload never: pktbench cannot stream a capture from disk yet; "
			 "--preload auto or always reads it into memory");
		return -EINVAL;
	}
	if (cfg->preload == PB_PRELOAD_ALWAYS || stat(cfg->replay, &st) ||
	    (uint64_t)st.st_size <= (uint64_t)cfg->preload_max_mib << 20)
		return 0;
	snprintf(why, len,
		 "--replay %s: %.1f MiB is over --preload-max %u MiB and streaming from disk "
		 "is not supported yet: raise --preload-max, or --preload always",
		 cfg->replay, st.st_size / 1048576.0, cfg->preload_max_mib);
	return -EINVAL;
}

#ifdef PB_HAVE_PCAP
static int rp_read(const char *path, struct rp_file *f, char *why, size_t len)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *pc;
	int ret, err = 0, skip;

	/* nanosecond stamps whatever the file holds: libpcap scales microsecond files up */
	pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!pc) {
		snprintf(why, len, "--replay %s: %s", path, errbuf);
		return -EINVAL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		snprintf(why, len, "--replay %s: link type %s, only Ethernet captures replay", path,
			 pcap_datalink_val_to_name(pcap_datalink(pc)) ?: "unknown");
		err = -EINVAL;
		goto out;
	}
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000000ull + (uint64_t)h->ts.tv_usec;

		f->frames++;
		err = rp_parse(f, data, h->caplen, h->len, ts, &skip);
		if (err)
			goto out;
		if (skip < PB_RSKIP_N)
			f->skipped[skip]++;
	}
	if (ret == PCAP_ERROR) {
		snprintf(why, len, "--replay %s: %s", path, pcap_geterr(pc));
		err = -EINVAL;
	}
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

/* The UDP checksum of a rebuilt frame whose payload was replaced after pb_frame_build(). */
static void rp_udp_csum(struct pb_frame *fr, int family)
{
	uint8_t *p = fr->data, *udp = p + fr->payload_off - sizeof(struct udphdr);
	uint32_t ulen = (uint32_t)sizeof(struct udphdr) + fr->payload_len, sum;
	uint8_t tail[4] = { 0, IPPROTO_UDP, (uint8_t)(ulen >> 8), (uint8_t)ulen };
	uint16_t c;

	udp[6] = udp[7] = 0;
	if (family == AF_INET6) {
		sum = pb_csum_add(0, p + fr->l3_off + 8, 32);
		sum = pb_csum_add(sum, &(uint32_t){ htonl(ulen) }, 4);
		sum += IPPROTO_UDP;
	} else {
		sum = pb_csum_add(0, p + fr->l3_off + 12, 8);
		sum = pb_csum_add(sum, tail, 4);
	}
	sum = pb_csum_add(sum, udp, ulen);
	c = (uint16_t)~pb_csum_fold(sum);
	c = c ? c : 0xffff;
	udp[6] = (uint8_t)(c >> 8);
	udp[7] = (uint8_t)c;
}

/*
 * Stream i's frames, rebuilt: this run's MACs, addresses, destination port and signature;
 * source port --srcport + the capture's flow index; the capture's payload after the
 * signature, its VLAN tag unless --vlan sets one (frame methods only).
 */
static int rp_build(struct pb_replay_stream *s, const struct rp_file *f, const uint8_t *keep,
		    uint32_t stream, const struct pb_config *cfg, bool frames, bool timed)
{
	struct pb_frame_spec base, spec;
	uint32_t i, j, stride = 0;
	uint32_t ports = 65536u - cfg->srcport;

	pb_frame_spec_from_config(cfg, frames && cfg->vlan, &base);
	for (i = 0; i < f->n; i++) {
		if (!keep[i] || f->rec[i].flow % cfg->streams != stream)
			continue;
		spec = base;
		spec.payload_len = f->rec[i].len;
		spec.vlan_id = frames && !cfg->vlan && f->rec[i].tagged ? f->rec[i].tci & 0xfff
									: base.vlan_id;
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
		spec = base;
		spec.stream_id = (uint8_t)stream;
		/* timed frames say so: the receiver times the gaps between them */
		if (timed)
			spec.kind = PB_SIG_KIND_FRAME | PB_SIG_PACED;
		spec.payload_len = r->len;
		spec.srcport = (uint16_t)(cfg->srcport + r->flow % ports);
		if (frames && !cfg->vlan && r->tagged) {
			spec.vlan_id = r->tci & 0xfff;
			spec.vlan_prio = (uint8_t)(r->tci >> 13);
		}
		fr->data = s->pool.buf + (size_t)j * stride;
		err = pb_frame_build(fr, &spec);
		if (err)
			return err;
		memcpy(fr->data + fr->payload_off + PB_SIG_LEN, f->buf + r->data + PB_SIG_LEN,
		       r->len - PB_SIG_LEN);
		rp_udp_csum(fr, spec.srcip.family);
		if (fr->len > s->pool.max_len)
			s->pool.max_len = fr->len;
		s->len[j] = frames ? fr->len : fr->unpadded;
		j++;
	}
	s->pool.n = s->n;
	s->pool.ordered = true;
	s->hist = calloc(RP_HIST_US + 1, sizeof(*s->hist));
	return s->hist ? 0 : -ENOMEM;
}

/* Whether a frame fits the MTU as m hands it over; the kernel would refuse or fragment it. */
static bool rp_fits(const struct pb_config *cfg, const struct rp_rec *r)
{
	uint32_t ip = pb_frame_overhead(cfg->srcip.family) - PB_ETH_HLEN;

	if (r->len + pb_frame_overhead(cfg->srcip.family) + PB_VLAN_HLEN > PB_FRAME_MAX)
		return false;
	return !cfg->mtu || ip + r->len <= cfg->mtu;
}

/*
 * The offsets of a pass (global file order) and its period, by the timing asked for; wire[i]
 * is frame i's wire bytes, for --rate.
 */
static void rp_schedule(struct pb_replay *rp, const struct rp_file *f, const uint8_t *keep,
			const uint32_t *wire, const struct pb_config *cfg, double *goff)
{
	double gap = 0, at = 0, mult = cfg->multiplier > 0 ? cfg->multiplier : 1;
	uint64_t t_first = 0, t_last = 0;
	uint32_t i, k = 0, prev = 0;

	for (i = 0; i < f->n; i++) {
		if (!keep[i])
			continue;
		if (!k++)
			t_first = f->rec[i].ts_ns;
		t_last = f->rec[i].ts_ns;
	}
	rp->file_s = (double)(int64_t)(t_last - t_first) / 1e9;
	rp->timed = true;
	rp->multiplier = mult;
	if (cfg->topspeed || cfg->replay_timing == PB_TIMING_TOPSPEED) {
		rp->timing = "topspeed";
		rp->timed = false;
	} else if (cfg->pps) {
		rp->timing = "pps";
		gap = 1.0 / cfg->pps;
	} else if (cfg->rate_gbps) {
		rp->timing = "rate";
	} else {
		rp->timing = "original";
	}
	for (i = 0, k = 0; i < f->n; i++) {
		if (!keep[i])
			continue;
		if (!rp->timed)
			goff[i] = 0;
		else if (cfg->pps)
			goff[i] = k / cfg->pps;
		else if (cfg->rate_gbps)
			goff[i] = at;
		else /* stamps may step back in a merged capture: never before the previous */
			goff[i] = fmax(k ? goff[prev] : 0,
				       (double)(int64_t)(f->rec[i].ts_ns - t_first) / 1e9 / mult);
		if (cfg->rate_gbps)
			at += wire[i] * 8.0 / (cfg->rate_gbps * 1e9);
		prev = i;
		k++;
	}
	if (!rp->timed) {
		rp->period = 0;
		return;
	}
	if (cfg->rate_gbps)
		gap = wire[prev] * 8.0 / (cfg->rate_gbps * 1e9);
	else if (!cfg->pps)
		gap = k > 1 ? goff[prev] / (k - 1) : 0;
	rp->period = goff[prev] + gap + cfg->loop_delay_s;
}

static const char *rp_unsupported(const struct pb_method *m)
{
	if (!strcmp(m->name, "xdp_live"))
		return "--replay: xdp_live builds its frames in BPF from one template";
	if (m->knobs & PB_K_SEGMENTS)
		return "--replay: GSO cuts one payload into equal segments; a capture's differ";
	return NULL;
}

/* af_xdp's UMEM holds at most this many frames per stream (AF_XDP_FRAMES): the rest never go. */
#define RP_AF_XDP_FRAMES 4096u

static int rp_fits_method(const struct pb_method *m, const struct pb_replay *rp, char *why,
			  size_t len)
{
	uint32_t i;

	if (strcmp(m->name, "af_xdp"))
		return 0;
	for (i = 0; i < rp->streams; i++) {
		if (rp->st[i].n > RP_AF_XDP_FRAMES) {
			snprintf(why, len,
				 "--replay: af_xdp holds %u frames a stream in its UMEM, this "
				 "capture gives stream %u %u (more --streams spread its flows)",
				 RP_AF_XDP_FRAMES, i, rp->st[i].n);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

int pb_replay_open(struct pb_replay **out, const struct pb_method *m, const struct pb_config *cfg,
		   char *why, size_t len)
{
	bool frames = m->flags & PB_M_FRAME;
	const char *no = rp_unsupported(m);
	struct rp_file f = { 0 };
	struct pb_replay *rp = NULL;
	uint32_t *wire = NULL, i;
	uint8_t *keep = NULL;
	double *goff = NULL;
	int err;

	*out = NULL;
	if (no) {
		snprintf(why, len, "%s", no);
		return -EOPNOTSUPP;
	}
	err = rp_preload_check(cfg, why, len);
	if (!err)
		err = rp_read(cfg->replay, &f, why, len);
	if (err)
		goto out;
	err = -ENOMEM;
	rp = calloc(1, sizeof(*rp));
	keep = calloc(f.n + 1, 1);
	wire = calloc(f.n + 1, sizeof(*wire));
	goff = calloc(f.n + 1, sizeof(*goff));
	if (!rp || !keep || !wire || !goff)
		goto out_nomem;
	rp->streams = cfg->streams;
	rp->loops = cfg->loop;
	rp->file_frames = f.frames;
	memcpy(rp->skipped, f.skipped, sizeof(rp->skipped));
	for (i = 0; i < f.n; i++) {
		struct pb_frame_spec spec;

		keep[i] = rp_fits(cfg, &f.rec[i]);
		if (!keep[i]) {
			rp->skipped[PB_RSKIP_TOO_BIG]++;
			continue;
		}
		/* its size as rp_build() makes it, for --rate */
		pb_frame_spec_from_config(cfg, frames && cfg->vlan, &spec);
		if (frames && !cfg->vlan && f.rec[i].tagged)
			spec.vlan_id = f.rec[i].tci & 0xfff;
		spec.payload_len = f.rec[i].len;
		wire[i] = pb_wire_bytes(pb_frame_len(&spec), spec.vlan_id != 0);
		rp->pass_frames++;
	}
	if (!rp->pass_frames) {
		snprintf(why, len,
			 "--replay %s: none of its %llu frames can be replayed (UDP over "
			 "Ethernet, payload >= 8 bytes, within the MTU)",
			 cfg->replay, (unsigned long long)f.frames);
		err = -EINVAL;
		goto out;
	}
	rp_schedule(rp, &f, keep, wire, cfg, goff);
	rp->st = calloc(cfg->streams, sizeof(*rp->st));
	if (!rp->st)
		goto out_nomem;
	for (i = 0; i < cfg->streams; i++) {
		struct pb_replay_stream *s = &rp->st[i];
		uint32_t j, k = 0;

		err = rp_build(s, &f, keep, i, cfg, frames, rp->timed);
		if (err == -ENOENT) {
			snprintf(why, len,
				 "--streams %u: the capture has only %u flows, so stream %u "
				 "would have none (flows are hashed to streams)",
				 cfg->streams, f.flows, i);
			err = -EINVAL;
			goto out;
		}
		if (err == -ENOMEM)
			goto out_nomem;
		if (err) {
			snprintf(why, len, "--replay: building the frames: %s", strerror(-err));
			goto out;
		}
		for (j = 0; j < f.n; j++)
			if (keep[j] && f.rec[j].flow % cfg->streams == i)
				s->off[k++] = goff[j];
		s->period = rp->period;
		s->timed = rp->timed;
	}
	err = rp_fits_method(m, rp, why, len);
	goto out;
out_nomem:
	err = -ENOMEM;
	snprintf(why, len, "--replay %s: out of memory", cfg->replay);
out:
	free(keep);
	free(wire);
	free(goff);
	rp_file_free(&f);
	if (err)
		pb_replay_free(rp);
	else
		*out = rp;
	return err;
}

void pb_replay_free(struct pb_replay *r)
{
	uint32_t i;

	if (!r)
		return;
	for (i = 0; r->st && i < r->streams; i++) {
		pb_pool_free(&r->st[i].pool);
		free(r->st[i].off);
		free(r->st[i].len);
		free(r->st[i].hist);
	}
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
	uint64_t k;
	double due;

	/*
	 * The schedule starts when the stream first asks, not at the clock start: a thread that
	 * woke late would otherwise begin with a burst of everything due meanwhile.
	 */
	if (!s->started) {
		s->started = true;
		s->anchor = t;
	}
	s->call_t = t;
	if (!s->timed)
		return UINT64_MAX;
	t -= s->anchor;
	/* a late sender does not scan the same due frames again on every call */
	k = s->due_k > handed ? s->due_k : handed;
	while (k - handed < RP_ALLOW_MAX) {
		due = pb_replay_due(s->off, s->n, s->period, k);
		if (due > t) {
			if (k == handed)
				*next = s->anchor + due;
			break;
		}
		k++;
	}
	s->due_k = k;
	return k - handed;
}

void pb_replay_note(struct pb_replay_stream *s, uint64_t handed)
{
	for (; s->noted < handed; s->noted++) {
		double err = s->timed ? s->call_t - s->anchor -
						pb_replay_due(s->off, s->n, s->period, s->noted)
				      : 0;
		uint64_t us = err > 0 ? (uint64_t)(err * 1e6) : 0;

		if (!s->noted)
			s->first_t = s->call_t;
		s->last_t = s->call_t;
		s->bytes += s->len[s->noted % s->n];
		s->hist[us < RP_HIST_US ? us : RP_HIST_US]++;
		if (err > s->max_err)
			s->max_err = err;
	}
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
	for (i = 0; i < r->streams; i++) {
		const struct pb_replay_stream *s = &r->st[i];

		o->frames += s->noted;
		o->bytes += s->bytes;
		loops = s->noted / s->n < loops ? s->noted / s->n : loops;
		if (!s->noted)
			continue;
		first = fmin(first, s->first_t);
		last = fmax(last, s->last_t);
		/* what the schedule asked, each stream from its own origin */
		s0 = fmin(s0, s->anchor + s->off[0]);
		s1 = fmax(s1, s->anchor + pb_replay_due(s->off, s->n, s->period, s->noted - 1));
		o->dep_max_us = fmax(o->dep_max_us, s->max_err * 1e6);
		for (j = 0; h && j <= RP_HIST_US; j++)
			h[j] += s->hist[j];
	}
	o->loops = loops == UINT64_MAX ? 0 : loops;
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

/*
 * The gaps the schedule puts between a stream's consecutive frames over the passes sent: each
 * of a pass's gaps, and the wrap's between passes. Its p50 and p99, in us, or false.
 */
static bool rp_sched_gaps(const struct pb_replay *r, double *p50, double *p99)
{
	uint64_t n = 0, k, loops;
	double *g;
	uint32_t i, j;

	for (i = 0; i < r->streams; i++)
		n += r->st[i].n;
	g = malloc(sizeof(*g) * (n + 1));
	if (!g)
		return false;
	for (i = 0, k = 0; i < r->streams; i++) {
		const struct pb_replay_stream *s = &r->st[i];

		loops = s->noted / s->n;
		for (j = 1; j < s->n; j++)
			g[k++] = s->off[j] - s->off[j - 1];
		/* the wrap's gap, when a pass followed another */
		if (loops > 1 || (loops == 1 && s->noted > s->n))
			g[k++] = s->period - s->off[s->n - 1] + s->off[0];
	}
	if (!k) {
		free(g);
		return false;
	}
	qsort(g, k, sizeof(*g), rp_cmp);
	*p50 = g[(size_t)ceil(0.50 * (double)k) - 1] * 1e6;
	*p99 = g[(size_t)ceil(0.99 * (double)k) - 1] * 1e6;
	free(g);
	return true;
}

void pb_replay_gaps(const struct pb_replay *r, struct pb_result *res)
{
	struct pb_replay_stats *o = &res->replay;

	if (!r->timed || !res->gaps.on || !res->gaps.measured ||
	    !rp_sched_gaps(r, &o->gap_p50_us, &o->gap_p99_us))
		return;
	o->gaps_known = true;
	o->gap_err_p50_us = res->gaps.p50_us - o->gap_p50_us;
	o->gap_err_p99_us = res->gaps.p99_us - o->gap_p99_us;
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
	    cfg->latency || cfg->flows > 1 || cfg->flows_src_ip) {
		snprintf(
			err, errlen,
			"--replay: the capture gives the frames, their sizes and flows, and --loop "
			"the count: --count, --imix, --frame-size, --flows and --latency do not "
			"apply");
		return -EINVAL;
	}
	return rp_preload_check(cfg, err, errlen);
}
