// SPDX-License-Identifier: MIT
/* Many senders as one test: start instant, shards, test id (fleet.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <sys/socket.h>

#include "clock.h"
#include "fleet.h"
#include "frame.h"
#include "log.h"
#include "pb_bpf.h"
#include "probe.h"

/* n decimal digits at *s into *v; advances *s. */
static int fleet_digits(const char **s, unsigned int n, int *v)
{
	unsigned int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*s)[i]))
			return -EINVAL;
		*v = *v * 10 + ((*s)[i] - '0');
	}
	*s += n;
	return 0;
}

static int fleet_expect(const char **s, const char *any)
{
	if (!**s || !strchr(any, **s))
		return -EINVAL;
	(*s)++;
	return 0;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t fleet_days(int y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

static int fleet_rfc3339(const char *s, int64_t *out)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0;
	int64_t frac = 0, scale = 100000000, secs;
	int err;

	err = fleet_digits(&s, 4, &y);
	err = err ?: fleet_expect(&s, "-");
	err = err ?: fleet_digits(&s, 2, &mo);
	err = err ?: fleet_expect(&s, "-");
	err = err ?: fleet_digits(&s, 2, &d);
	err = err ?: fleet_expect(&s, "Tt ");
	err = err ?: fleet_digits(&s, 2, &h);
	err = err ?: fleet_expect(&s, ":");
	err = err ?: fleet_digits(&s, 2, &mi);
	err = err ?: fleet_expect(&s, ":");
	err = err ?: fleet_digits(&s, 2, &sec);
	if (err)
		return err;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		/* any number of digits (RFC 3339); those finer than a nanosecond are dropped */
		for (; isdigit((unsigned char)*s); s++) {
			frac += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (*s == 'Z' || *s == 'z') {
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		err = fleet_digits(&s, 2, &oh);
		err = err ?: fleet_expect(&s, ":");
		err = err ?: fleet_digits(&s, 2, &om);
		if (err || oh > 23 || om > 59)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	if (*s || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 ||
	    mi > 59 || sec > 60)
		return -EINVAL;
	/* February 29th only in a leap year; a leap second (:60) counts as the next second */
	if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100) || y % 400 == 0))
		return -EINVAL;
	secs = fleet_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec -
	       sign * (oh * 3600 + om * 60);
	/* 64 bits of ns end at 2262-04-11T23:47:16.854775807Z: past it, refuse, never wrap */
	if (secs > INT64_MAX / 1000000000 ||
	    (secs == INT64_MAX / 1000000000 && frac > INT64_MAX % 1000000000))
		return -ERANGE;
	*out = secs * 1000000000ll + frac;
	return 0;
}

int pb_parse_start_at(const char *s, int64_t *unix_ns)
{
	size_t i, n = strlen(s);
	int64_t v = 0;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n && isdigit((unsigned char)s[i]); i++)
		;
	if (i < n)
		return fleet_rfc3339(s, unix_ns);
	for (i = 0; i < n; i++) {
		if (v > (INT64_MAX - (s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (s[i] - '0');
	}
	*unix_ns = v;
	return 0;
}

int pb_parse_shard(const char *s, uint32_t *index, uint32_t *count)
{
	unsigned long long i = 0, n = 0;
	const char *p = s;
	bool any = false;

	for (; isdigit((unsigned char)*p) && i <= PB_SHARD_MAX; p++, any = true)
		i = i * 10 + (unsigned long long)(*p - '0');
	if (!any || *p++ != '/')
		return -EINVAL;
	any = false;
	for (; isdigit((unsigned char)*p) && n <= PB_SHARD_MAX; p++, any = true)
		n = n * 10 + (unsigned long long)(*p - '0');
	if (!any || *p || !n || n > PB_SHARD_MAX || i >= n)
		return -EINVAL;
	*index = (uint32_t)i;
	*count = (uint32_t)n;
	return 0;
}

int pb_parse_test_id(const char *s, char *out)
{
	static const unsigned int dash[] = { 8, 13, 18, 23 };
	unsigned int i, k = 0;

	if (strlen(s) != 36)
		return -EINVAL;
	for (i = 0; i < 36; i++) {
		if (k < 4 && i == dash[k]) {
			if (s[i] != '-')
				return -EINVAL;
			out[i] = '-';
			k++;
			continue;
		}
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[36] = '\0';
	return 0;
}

/*
 * The width of each shard's block of flows: the test's flows in n blocks, and never fewer than
 * a flow per stream, which a shard keeps even when its block holds fewer of the test's.
 */
static uint32_t pb_shard_block(uint32_t flows, uint32_t streams, uint32_t n)
{
	uint32_t share = (flows + n - 1) / n;

	return share > streams ? share : streams;
}

int pb_fleet_validate(struct pb_config *cfg, int64_t now_ns, char *err, size_t errlen)
{
	int err_at;

	if (cfg->start_at_spec[0]) {
		err_at = pb_parse_start_at(cfg->start_at_spec, &cfg->start_at_ns);
		if (err_at == -ERANGE) {
			snprintf(err, errlen,
				 "--start-at '%s' is more than a day ahead (and past 2262-04-11, "
				 "where 64 bits of nanoseconds end)",
				 cfg->start_at_spec);
			return -EINVAL;
		}
		if (err_at) {
			snprintf(err, errlen,
				 "--start-at '%s': not an RFC 3339 time (2026-12-01T16:30:00Z) or "
				 "a Unix time in ns",
				 cfg->start_at_spec);
			return -EINVAL;
		}
		if (cfg->start_at_ns <= now_ns) {
			snprintf(err, errlen, "--start-at '%s' is %.3f s in the past",
				 cfg->start_at_spec, (double)(now_ns - cfg->start_at_ns) / 1e9);
			return -EINVAL;
		}
		if (cfg->start_at_ns - now_ns > PB_START_AT_MAX_AHEAD_NS) {
			snprintf(err, errlen, "--start-at '%s' is more than a day ahead",
				 cfg->start_at_spec);
			return -EINVAL;
		}
	}
	if (cfg->shard_spec[0] &&
	    pb_parse_shard(cfg->shard_spec, &cfg->shard_index, &cfg->shard_count)) {
		snprintf(err, errlen, "--shard '%s': want I/N with 0 <= I < N <= %u (e.g. 0/3)",
			 cfg->shard_spec, PB_SHARD_MAX);
		return -EINVAL;
	}
	if (cfg->test_id[0] && pb_parse_test_id(cfg->test_id, cfg->test_id)) {
		snprintf(err, errlen,
			 "--test-id '%s': not a UUID (8-4-4-4-12 hex digits, e.g. from uuidgen)",
			 cfg->test_id);
		return -EINVAL;
	}
	if (cfg->shard_count > 1) {
		uint32_t flows = cfg->flows > cfg->streams ? cfg->flows : cfg->streams;
		uint64_t share = pb_shard_block(flows, cfg->streams, cfg->shard_count);

		if (cfg->flows_src_ip ? share * cfg->shard_count > 0x20000u
				      : cfg->srcport + share * cfg->shard_count > 65536u) {
			snprintf(
				err, errlen,
				"--shard %s: %u shards of %llu flows do not fit above source %s %u",
				cfg->shard_spec, cfg->shard_count, (unsigned long long)share,
				cfg->flows_src_ip ? "address block" : "port", cfg->srcport);
			return -EINVAL;
		}
	}
	return 0;
}

void pb_shard_apply(struct pb_config *cfg)
{
	uint32_t n = cfg->shard_count, i = cfg->shard_index, flows, share, mine;

	if (n < 2)
		return;
	cfg->pps /= n;
	cfg->rate_gbps /= n;
	if (cfg->count)
		cfg->count = cfg->count / n + (i < cfg->count % n);
	/*
	 * The test's flows in N blocks of share each, the last one short: a shard's flows are
	 * its block's, so no two shards send the same flow. Each keeps one flow per stream.
	 */
	flows = cfg->flows > cfg->streams ? cfg->flows : cfg->streams;
	share = pb_shard_block(flows, cfg->streams, n);
	mine = flows > i * share ? flows - i * share : 0;
	mine = mine < share ? mine : share;
	cfg->flows = mine > cfg->streams ? mine : cfg->streams;
	if (cfg->flows_src_ip)
		pb_addr_add(&cfg->srcip, i * share);
	else
		cfg->srcport = (uint16_t)(cfg->srcport + i * share);
}

static int64_t fleet_clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * The calling thread's time runnable but waiting for a CPU (ns) from its schedstat, opened
 * once (*ctx, an fd), so that the read after the wake is a short pread; -1 when unknown.
 */
static int64_t fleet_run_delay_ns(void *ctx)
{
	int fd = *(int *)ctx;
	unsigned long long delay;
	char buf[96];
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* time on a CPU, then time waiting for one */
	return sscanf(buf, "%*s %llu", &delay) == 1 ? (int64_t)delay : -1;
}

static int64_t fleet_now_ns(void *ctx, clockid_t clk)
{
	(void)ctx;
	return fleet_clock_ns(clk);
}

/*
 * Asleep until PB_START_SPIN_NS before t, then on the CPU to t itself: a timer here wakes
 * 50-750 us late (a virtual CPU leaving its idle, three senders on two CPUs), which the spin
 * takes up. It yields the CPU at each turn, so a sender woken beside it on the same CPU is
 * not held back by a scheduler slice.
 */
#define PB_START_SPIN_NS 1000000ll
#define PB_START_NAP_NS  100000000ll /* the longest nap before a --start-at instant */

static int fleet_sleep_until_ns(void *ctx, clockid_t clk, int64_t t)
{
	int64_t early = t - PB_START_SPIN_NS;
	struct timespec ts = { .tv_sec = early / 1000000000ll, .tv_nsec = early % 1000000000ll };
	int err;

	(void)ctx;
	if (fleet_clock_ns(clk) < early) {
		err = clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL);
		if (err)
			return err;
	}
	while (fleet_clock_ns(clk) < t)
		sched_yield();
	return 0;
}

static int64_t fleet_cpu_ns(void *ctx)
{
	(void)ctx;
	return fleet_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

int pb_start_wait_clock(const struct pb_config *cfg, const struct pb_fleet_clock *clock,
			const int *stop, struct pb_start *st)
{
	int64_t target = cfg->start_at_ns;
	clockid_t clk = CLOCK_REALTIME;

	st->clock = *clock;
	st->target_ns = cfg->start_at_ns;
	if (cfg->synced_clocks) {
		/* the same instant on CLOCK_TAI: UTC plus the kernel's TAI offset, whole seconds */
		int64_t off = clock->now_ns(clock->ctx, CLOCK_TAI) -
			      clock->now_ns(clock->ctx, CLOCK_REALTIME);

		target += (off + 500000000ll) / 1000000000ll * 1000000000ll;
		clk = CLOCK_TAI;
	}
	/*
	 * Naps while the instant is far, *stop read between them: a signal goes to any thread of
	 * the process, most often not this one, so it cannot be counted on to break a sleep (a
	 * Ctrl-C 4 s before the instant was seen at the instant). The last sleep, to the instant
	 * itself, is at most PB_START_NAP_NS: a stop is seen within that.
	 */
	for (;;) {
		int64_t now = clock->now_ns(clock->ctx, clk);

		if (__atomic_load_n(stop, __ATOMIC_RELAXED) || target - now <= PB_START_NAP_NS)
			break;
		clock->sleep_until_ns(clock->ctx, clk, now + PB_START_NAP_NS);
	}
	/*
	 * Read last before the sleep: a wait for a CPU before it (a busy machine's preemption of
	 * milliseconds) delayed nothing, and counted would pass a late timer for the load's.
	 */
	st->delay0 = clock->run_delay_ns(clock->ctx);
	/* a signal (SIGINT, SIGTERM, SIGHUP) may interrupt the sleep; its handler has set *stop */
	while (!__atomic_load_n(stop, __ATOMIC_RELAXED) &&
	       clock->sleep_until_ns(clock->ctx, clk, target) == EINTR)
		;
	/*
	 * Only what the wake must read, so that the first frame follows it at once: the
	 * schedstat read and the rest (50-80 us here, of the 140-170 us between the instant and
	 * the first frame at the agent) wait for pb_start_settle
	 */
	st->actual_ns = clock->now_ns(clock->ctx, CLOCK_REALTIME);
	st->cpu_wake = clock->cpu_ns ? clock->cpu_ns(clock->ctx) : -1;
	return __atomic_load_n(stop, __ATOMIC_RELAXED) ? -EINTR : 0;
}

int64_t pb_start_settle(struct pb_start *st)
{
	const struct pb_fleet_clock *clock = &st->clock;
	int64_t delay1, cpu1, now, after, late, wait = -1;

	delay1 = clock->run_delay_ns(clock->ctx);
	cpu1 = clock->cpu_ns && st->cpu_wake >= 0 ? clock->cpu_ns(clock->ctx) : -1;
	now = clock->now_ns(clock->ctx, CLOCK_REALTIME);
	/*
	 * The thread does not sleep between the wake and this read: what of that span it was not
	 * on a CPU, it waited for one, and that wait (the first frame's, this read's) is not the
	 * start's lateness; without the thread's CPU time the whole span is taken off. And no
	 * wait explains more than the start's lateness: the rest of it was before the instant
	 * (between the read of delay0 and the sleep).
	 */
	after = now - st->actual_ns - (cpu1 >= 0 ? cpu1 - st->cpu_wake : 0);
	late = st->actual_ns - st->target_ns;
	if (st->delay0 >= 0 && delay1 >= st->delay0) {
		wait = delay1 - st->delay0 - (after > 0 ? after : 0);
		wait = wait < late ? wait : late;
		wait = wait > 0 ? wait : 0;
	}
	if (st->fd >= 0)
		close(st->fd);
	st->fd = -1;
	if (st->slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)st->slack, 0, 0, 0);
	st->slack = 0;
	return wait;
}

int pb_start_wait(const struct pb_config *cfg, const int *stop, struct pb_start *st)
{
	struct pb_fleet_clock clock = {
		.now_ns = fleet_now_ns,
		.sleep_until_ns = fleet_sleep_until_ns,
		.run_delay_ns = fleet_run_delay_ns,
		.cpu_ns = fleet_cpu_ns,
		.ctx = &st->fd,
	};

	st->fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	st->slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	/*
	 * Asleep to a millisecond before the instant, with the timer's slack (50 us by default)
	 * at its least, then on the CPU to it (fleet_sleep_until_ns), yielding at each turn:
	 * several senders spinning on fewer CPUs without yielding waited for each other by a
	 * scheduler slice.
	 */
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	return pb_start_wait_clock(cfg, &clock, stop, st);
}

/* The UUID's 16 bytes from its text (validated by pb_parse_test_id). */
static void fleet_uuid_bytes(const char *id, uint8_t *out)
{
	unsigned int i, k = 0;

	memset(out, 0, 16);
	for (i = 0; id[i] && k < 32; i++) {
		int c = tolower((unsigned char)id[i]);

		if (c == '-')
			continue;
		out[k / 2] |= (uint8_t)((isdigit(c) ? c - '0' : c - 'a' + 10) << (k % 2 ? 0 : 4));
		k++;
	}
}

int pb_announce_build(const struct pb_config *cfg, bool tagged, uint8_t *buf, uint32_t *len)
{
	struct pb_frame_spec spec;
	struct pb_frame f = { .data = buf };
	uint8_t old[PB_ANNOUNCE_LEN], *pl;
	uint32_t be;
	int err;

	pb_frame_spec_from_config(cfg, tagged, &spec);
	spec.payload_len = PB_ANNOUNCE_LEN;
	spec.kind = PB_SIG_KIND_FRAME;
	spec.stream_id = 0;
	err = pb_frame_build(&f, &spec);
	if (err)
		return err;
	pl = buf + f.payload_off;
	memcpy(old, pl, sizeof(old));
	pl[2] = PB_SIG_KIND_ANNOUNCE;
	if (cfg->test_id[0])
		fleet_uuid_bytes(cfg->test_id, pl + 8);
	be = htonl(cfg->shard_index);
	memcpy(pl + 24, &be, 4);
	be = htonl(cfg->shard_count);
	memcpy(pl + 28, &be, 4);
	/* the UDP checksum sits just before the payload */
	pb_csum_fix(pl - 2, old, pl, sizeof(old));
	*len = f.len;
	return 0;
}

int pb_announce(const struct pb_config *cfg, bool tagged)
{
	uint8_t buf[PB_FRAME_MAX];
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_ifindex = cfg->ifindex,
		.sll_halen = 6,
	};
	uint32_t len;
	int fd, i, err;

	/* a replay's frames are counted by the run's MAC only once the run has announced itself */
	if (!cfg->test_id[0] && !cfg->shard_count && !cfg->replay[0])
		return 0;
	err = pb_announce_build(cfg, tagged, buf, &len);
	if (err)
		return err;
	memcpy(sll.sll_addr, cfg->dstmac, 6);
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* three copies a millisecond apart: one lost frame does not lose the test's labels */
	for (i = 0, err = 0; i < 3 && !err; i++) {
		if (sendto(fd, buf, len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0)
			err = -errno;
		else if (i < 2)
			usleep(1000);
	}
	close(fd);
	return err;
}

const struct pb_fleet_door pb_fleet_door = {
	.shard_apply = pb_shard_apply,
	.start_wait = pb_start_wait,
	.start_settle = pb_start_settle,
	.announce = pb_announce,
};
