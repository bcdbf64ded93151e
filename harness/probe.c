// SPDX-License-Identifier: MIT
/* Latency probes, the sender's half: the schedule, the stamp, the copies. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "probe.h"

static uint64_t probe_clock_ns(int clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int pb_probe_init(struct pb_probe *p, const struct pb_config *cfg, bool on, bool paced,
		  uint32_t max_len)
{
	memset(p, 0, sizeof(*p));
	p->at = PB_PROBE_NONE;
	p->stamped = PB_PROBE_NONE;
	if (!on)
		return 0;
	p->on = true;
	p->kind = cfg->synced_clocks ? PB_SIG_KIND_TAI : PB_SIG_KIND_PROBE;
	p->frame_kind = PB_SIG_KIND_FRAME;
	if (paced) {
		p->kind |= PB_SIG_PACED;
		p->frame_kind |= PB_SIG_PACED;
	}
	p->clock = cfg->synced_clocks ? CLOCK_TAI : CLOCK_MONOTONIC;
	/* any nonzero seed: streams and runs apart by their address and the time */
	p->rng = (probe_clock_ns(CLOCK_MONOTONIC) ^ (uint64_t)(uintptr_t)p) | 1;
	/* --latency-pps over all streams; each stream's first frame is a probe */
	p->interval = cfg->streams / (cfg->latency_pps > 0 ? cfg->latency_pps : PB_LATENCY_PPS);
	p->stride = pb_cache_align(max_len);
	p->copies = aligned_alloc(64, (size_t)p->stride * PB_PROBE_COPIES);
	return p->copies ? 0 : -ENOMEM;
}

void pb_probe_free(struct pb_probe *p)
{
	free(p->copies);
	p->copies = NULL;
}

/* RFC 1624's checksum update (probe.h). */
void pb_csum_fix(uint8_t *check, const uint8_t *old, const uint8_t *now, size_t len)
{
	uint32_t sum = (uint16_t) ~(check[0] << 8 | check[1]);
	uint16_t c;
	size_t i;

	if (!check[0] && !check[1])
		return; /* UDP over IPv4 without a checksum stays so */
	for (i = 0; i + 1 < len; i += 2) {
		uint16_t o = (uint16_t)(old[i] << 8 | old[i + 1]);
		uint16_t n = (uint16_t)(now[i] << 8 | now[i + 1]);

		if (o != n)
			sum += (uint16_t)~o + (uint32_t)n;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	/* 0 means "no checksum" in UDP: its ones' complement twin says the same sum */
	if (!c)
		c = 0xffff;
	check[0] = (uint8_t)(c >> 8);
	check[1] = (uint8_t)c;
}

/*
 * The gap to the next probe: 0.5 to 1.5 intervals, uniform. A fixed gap locks onto whatever
 * else is periodic on the path (RFC 2330 11.1): a spinning pacer's even frames into a tbf
 * lose in a pattern, and probes every 84th frame, always at one phase of it, lost 46.7-53.7 %
 * where the frames lost 50.1 %. Random gaps keep the rate and sample every phase.
 */
static double probe_gap(struct pb_probe *p)
{
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return p->interval * (0.5 + (double)(p->rng >> 11) / 9007199254740992.0);
}

/*
 * k probes went. The schedule is absolute: a stream that fell more than a probe behind skips,
 * never bursts.
 */
static void probe_went(struct pb_probe *p, uint32_t k, double now)
{
	uint32_t i;

	p->seq += k;
	p->sent += k;
	p->at = PB_PROBE_NONE;
	for (i = 0; i < k; i++)
		p->next_t += probe_gap(p);
	if (p->next_t <= now)
		p->next_t = now + probe_gap(p);
}

void pb_probe_stamp(struct pb_probe *p, uint8_t *pl, bool csum)
{
	uint8_t old[PB_PROBE_LEN];
	uint64_t ns = probe_clock_ns(p->clock);
	int i;

	if (csum)
		memcpy(old, pl, sizeof(old));
	pl[2] = p->kind;
	for (i = 0; i < 4; i++)
		pl[PB_PROBE_SEQ_OFF + i] = (uint8_t)(p->seq >> (24 - 8 * i));
	for (i = 0; i < 6; i++)
		pl[PB_PROBE_TS_OFF + i] = (uint8_t)(ns >> (40 - 8 * i));
	if (csum)
		pb_csum_fix(pl - 2, old, pl, sizeof(old));

	p->stamped = p->at;
	p->prev_t = p->next_t;
	probe_went(p, 1, p->clock == CLOCK_MONOTONIC ? ns / 1e9 : pb_now());
}

void pb_probe_stamped(struct pb_probe *p, uint32_t k)
{
	if (k)
		probe_went(p, k, pb_now());
}

void pb_probe_unsent(struct pb_probe *p)
{
	if (p->stamped == PB_PROBE_NONE)
		return;
	p->seq--;
	p->sent--;
	p->next_t = p->prev_t;
	p->at = p->stamped; /* still due: the next frame of this call, or the next call's first */
	p->stamped = PB_PROBE_NONE;
}

const struct pb_frame *pb_probe_copy(struct pb_probe *p, const struct pb_frame *f, int *slot)
{
	uint32_t i, k;

	for (i = 0; i < PB_PROBE_COPIES; i++) {
		k = (p->next_copy + i) % PB_PROBE_COPIES;
		if (!p->busy[k])
			break;
	}
	if (i == PB_PROBE_COPIES)
		return NULL;
	p->next_copy = (k + 1) % PB_PROBE_COPIES;
	p->busy[k] = 1;
	*slot = (int)k;
	p->copy = *f;
	p->copy.data = p->copies + (size_t)k * p->stride;
	memcpy(p->copy.data, f->data, f->len);
	pb_probe_stamp(p, p->copy.data + f->payload_off, true);
	return &p->copy;
}

void pb_probe_release(struct pb_probe *p, int slot)
{
	if (slot >= 0 && slot < PB_PROBE_COPIES)
		p->busy[slot] = 0;
}

void pb_probe_restore(uint8_t *frame, const struct pb_frame *orig)
{
	uint32_t off = orig->payload_off - 2;

	memcpy(frame + off, orig->data + off, 2 + PB_PROBE_LEN);
}
