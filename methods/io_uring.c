// SPDX-License-Identifier: MIT
/*
 * io_uring: connected UDP sockets (one per flow of the worker's pool, all registered as fixed
 * files), datagrams submitted as a batch of IORING_OP_SEND SQEs per io_uring_enter() and
 * counted only from the completion queue. It is the asynchronous counterpart of sendmmsg: one
 * system call per batch, no msghdr to copy, and since every SQE names its own socket and
 * buffer, flows and sizes vary per datagram, not per batch.
 *
 * SEND_ZC (kernel 6.0) is used only where it can pay: for every datagram with --zerocopy on,
 * or with --zerocopy auto for payloads of at least URING_ZC_MIN bytes. Below a page, pinning
 * the buffer and the extra notification CQE per datagram cost more than copying the payload
 * (and a datagram that must be fragmented is copied by the kernel anyway). With SEND_ZC a
 * frame counts as sent at its first CQE; its notification only frees the buffer for reuse,
 * which never matters here (the pool is never rewritten), but it takes a CQ slot, so the
 * in-flight accounting counts it.
 *
 * Helpers are prefixed uring_, not io_uring_: liburing owns that namespace.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <liburing.h>

#include "log.h"
#include "method.h"
#include "sock.h"

/* --zerocopy auto: SEND_ZC from this payload size up; below it, plain SEND */
#define URING_ZC_MIN 4096u
#define URING_BATCH  64u /* SQEs per io_uring_enter() without --batch */
/*
 * user_data of our sends (its low 16 bits); anything else on the CQ (liburing's own
 * timeouts) is skipped. A latency probe's send carries its copy's slot + 1 above them.
 */
#define URING_UD_SEND	     0x7062u
#define URING_UD_SEND_REPORT 0x7063u /* a SEND_ZC that asked for IORING_SEND_ZC_REPORT_USAGE */
#define URING_UD_KIND(ud)    ((ud)&0xffffu)
#define URING_UD_PROBE(ud)   ((int)((ud) >> 16) - 1) /* the probe copy's slot, or -1 */
#define URING_WAIT_US	     1000 /* how long send() sleeps when every slot is in flight */

/* kernel 6.2 UAPI, newer than liburing 2.3's headers */
#ifndef IORING_SEND_ZC_REPORT_USAGE
#define IORING_SEND_ZC_REPORT_USAGE (1U << 3)
#endif
#ifndef IORING_NOTIF_USAGE_ZC_COPIED
#define IORING_NOTIF_USAGE_ZC_COPIED (1U << 31)
#endif

struct uring_priv {
	struct pb_sock_priv s; /* first: pb_sock_priv_close frees the whole struct */
	struct io_uring ring;
	bool ring_ok;
	int *file;		/* pool frame i -> what its SQE names: a fixed-file index or fd */
	unsigned int sqe_flags; /* IOSQE_FIXED_FILE when the sockets are registered */
	uint32_t zc_min;	/* payloads from this size go as SEND_ZC; UINT32_MAX: none */
	uint32_t nzc;		/* pool frames that go as SEND_ZC */
	int per;		/* CQEs one send may post: 2 when any frame goes as SEND_ZC */
	bool fixed_buf;		/* SEND_ZC from a registered buffer: no page pinning per send */
	unsigned int zc_flags;
	uint32_t cq_entries;
	int inflight; /* sends submitted whose (first) CQE has not been reaped */
	int notifs;   /* SEND_ZC notifications still to come (signed: may arrive first) */
	int err;      /* a fatal CQE error, returned once the completions before it are counted */
	uint64_t zc_notifs, zc_copied;
};

/* kernel.io_uring_disabled (6.6+): 0 allowed, 1 only for io_uring_group, 2 nobody; -1 unknown */
static int uring_sysctl_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static void uring_setup_reason(int err, char *reason, size_t len)
{
	int dis = uring_sysctl_disabled();

	if (dis > 0)
		snprintf(reason, len, "io_uring_setup: %s (sysctl kernel.io_uring_disabled = %d)",
			 strerror(-err), dis);
	else if (err == -EPERM || err == -ENOSYS)
		snprintf(reason, len, "io_uring_setup: %s (io_uring disabled: seccomp or kernel)",
			 strerror(-err));
	else
		snprintf(reason, len, "io_uring_setup: %s", strerror(-err));
}

/* Which of SEND and SEND_ZC this ring's kernel has; -EOPNOTSUPP when it cannot say. */
static int uring_opcodes(struct io_uring *ring, bool *send, bool *send_zc)
{
	struct io_uring_probe *pr = io_uring_get_probe_ring(ring);

	if (!pr)
		return -EOPNOTSUPP; /* IORING_REGISTER_PROBE is 5.6, as is IORING_OP_SEND */
	*send = io_uring_opcode_supported(pr, IORING_OP_SEND);
	*send_zc = io_uring_opcode_supported(pr, IORING_OP_SEND_ZC);
	io_uring_free_probe(pr);
	return 0;
}

/* The smallest payload sent as SEND_ZC (the rule of the header comment); UINT32_MAX: none. */
static uint32_t uring_zc_min(const struct pb_config *cfg, bool have_zc)
{
	if (cfg->zerocopy == PB_ON)
		return 0;
	if (cfg->zerocopy == PB_OFF || !have_zc)
		return UINT32_MAX;
	return URING_ZC_MIN;
}

static int uring_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	struct io_uring ring;
	bool send = false, zc = false;
	int err;

	err = io_uring_queue_init(4, &ring, 0);
	if (err) {
		uring_setup_reason(err, reason, len);
		return -EOPNOTSUPP;
	}
	err = uring_opcodes(&ring, &send, &zc);
	io_uring_queue_exit(&ring);
	if (err) {
		snprintf(reason, len, "io_uring: cannot probe opcodes (kernel before 5.6)");
		return -EOPNOTSUPP;
	}
	if (!send) {
		snprintf(reason, len, "io_uring: this kernel has no IORING_OP_SEND (needs 5.6)");
		return -EOPNOTSUPP;
	}
	if (cfg->zerocopy == PB_ON && !zc) {
		snprintf(reason, len,
			 "io_uring: --zerocopy on, but this kernel has no IORING_OP_SEND_ZC "
			 "(needs 6.0)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static void uring_close(struct pb_worker *w)
{
	struct uring_priv *p = w->priv;

	if (!p)
		return;
	if (p->zc_notifs)
		pr_info("io_uring: send_zc: the kernel copied %llu of %llu sends%s\n",
			(unsigned long long)p->zc_copied, (unsigned long long)p->zc_notifs,
			p->zc_copied == p->zc_notifs ? " (no zero-copy on this path)" : "");
	/* cancels whatever is still queued; the registered files and buffer go with it */
	if (p->ring_ok)
		io_uring_queue_exit(&p->ring);
	free(p->file);
	pb_sock_priv_close(w); /* the sockets, and p itself */
}

/*
 * The ring, with the cheapest completion mode the kernel has: task work deferred to our own
 * io_uring_enter() calls (6.1, needs a single issuer: this worker thread does everything),
 * else cooperative task work (5.19), else the default. SUBMIT_ALL (5.18) keeps a batch going
 * past a failed SQE. Only EINVAL (an unknown flag) moves down the list.
 */
static int uring_ring_init(struct uring_priv *p, unsigned int entries, const char **how)
{
	static const struct {
		unsigned int flags;
		const char *how;
	} tries[] = {
		{ IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		  "defer_taskrun" },
		{ IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
		  "coop_taskrun" },
		{ 0, "default" },
	};
	unsigned int i;
	int err = -EINVAL;

	for (i = 0; i < sizeof(tries) / sizeof(tries[0]) && err == -EINVAL; i++) {
		struct io_uring_params prm = { .flags = tries[i].flags };

		err = io_uring_queue_init_params(entries, &p->ring, &prm);
		if (!err) {
			*how = tries[i].how;
			p->cq_entries = prm.cq_entries;
		}
	}
	return err;
}

/*
 * Registers the distinct sockets as fixed files (saving a file-table lookup and reference per
 * SQE) and maps each pool frame to its socket's index; without registration, to its fd.
 */
static int uring_files(struct pb_worker *w, struct uring_priv *p)
{
	uint32_t i, n = w->pool->n;
	int *slot, maxfd = 0;

	p->file = malloc(sizeof(*p->file) * n);
	if (!p->file)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		p->file[i] = p->s.fds[i];
	if (io_uring_register_files(&p->ring, p->s.socks, p->s.nsocks))
		return 0;
	for (i = 0; i < p->s.nsocks; i++)
		maxfd = p->s.socks[i] > maxfd ? p->s.socks[i] : maxfd;
	slot = malloc(sizeof(*slot) * ((size_t)maxfd + 1));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < p->s.nsocks; i++)
		slot[p->s.socks[i]] = (int)i;
	for (i = 0; i < n; i++)
		p->file[i] = slot[p->s.fds[i]];
	free(slot);
	p->sqe_flags = IOSQE_FIXED_FILE;
	return 0;
}

/*
 * SEND_ZC: one registered buffer spanning the payloads that go zero-copy, pinned once here
 * instead of per send. A copying SEND gains nothing from it.
 */
static void uring_fixed_buf(struct pb_worker *w, struct uring_priv *p)
{
	const uint8_t *lo = NULL, *hi = NULL;
	struct iovec iov;
	uint32_t i;

	for (i = 0; i < w->pool->n; i++) {
		const struct pb_frame *f = &w->pool->frames[i];
		const uint8_t *b = f->data + f->payload_off;

		if (f->payload_len < p->zc_min)
			continue;
		lo = !lo || b < lo ? b : lo;
		hi = !hi || b + f->payload_len > hi ? b + f->payload_len : hi;
	}
	if (!lo)
		return;
	iov.iov_base = (void *)lo;
	iov.iov_len = (size_t)(hi - lo);
	p->fixed_buf = !io_uring_register_buffers(&p->ring, &iov, 1);
}

static int uring_open(struct pb_worker *w)
{
	struct uring_priv *p = calloc(1, sizeof(*p));
	unsigned int batch = w->batch;
	bool have_send = false, have_zc = false;
	const char *how = "default", *op;
	uint32_t i;
	int err;

	if (!p)
		return -ENOMEM;
	w->priv = p;
	p->s.fd = -1;
	err = pb_udp_sockets(w, true, &p->s);
	if (err)
		return err;
	/* twice the batch: a batch can be queued while the previous one is still completing */
	err = uring_ring_init(p, 2 * batch, &how);
	if (err) {
		char reason[160];

		uring_setup_reason(err, reason, sizeof(reason));
		pr_err("io_uring: %s\n", reason);
		return err;
	}
	p->ring_ok = true;
	err = uring_opcodes(&p->ring, &have_send, &have_zc);
	if (err || !have_send || (w->cfg->zerocopy == PB_ON && !have_zc))
		return -EOPNOTSUPP;
	err = uring_files(w, p);
	if (err)
		return err;

	p->zc_min = uring_zc_min(w->cfg, have_zc);
	for (i = 0; i < w->pool->n; i++)
		p->nzc += w->pool->frames[i].payload_len >= p->zc_min;
	p->per = p->nzc ? 2 : 1;
	if (p->nzc) {
		uring_fixed_buf(w, p);
		p->zc_flags = IORING_SEND_ZC_REPORT_USAGE;
	}
	op = !p->nzc ? "send" : p->nzc == w->pool->n ? "send_zc" : "send+send_zc";
	pr_info("io_uring: worker %u: %s, ring %u/%u (%s), %u %s socket(s)%s\n", w->id, op,
		p->ring.sq.ring_entries, p->cq_entries, how, p->s.nsocks,
		p->sqe_flags ? "fixed" : "plain", p->fixed_buf ? ", fixed buffer" : "");
	snprintf(w->mode, sizeof(w->mode), "%s, batch %u", op, batch);
	return 0;
}

/* Counts one send's (first) CQE into o; keeps the first fatal error in p->err. */
static void uring_complete(struct pb_worker *w, struct uring_priv *p,
			   const struct io_uring_cqe *cqe, struct pb_outcome *o)
{
	int err, res = cqe->res, slot = URING_UD_PROBE(cqe->user_data);

	if (slot >= 0) {
		/* a copy SEND_ZC still reads until its notification frees it */
		if (!(cqe->flags & IORING_CQE_F_MORE))
			pb_probe_release(&w->probe, slot);
		if (res == -ENOBUFS)
			pb_probe_dropped(&w->probe);
		else if (res < 0)
			pb_probe_untaken(&w->probe);
	}
	if (res >= 0) {
		o->sent++;
		return;
	}
	if (res == -EINVAL && URING_UD_KIND(cqe->user_data) == URING_UD_SEND_REPORT) {
		/* 6.0 and 6.1 reject the usage report: stop asking; the frame was not sent */
		p->zc_flags &= ~IORING_SEND_ZC_REPORT_USAGE;
		return;
	}
	err = pb_send_errno(-res);
	/* the device dropped it and said so: not sent; the harness asks for another */
	if (err == -ENOBUFS)
		o->retried++;
	else if (err != -EAGAIN && err != -EINTR && !p->err)
		p->err = err;
}

/* Every CQE waiting now, counted into o. */
static void uring_reap(struct pb_worker *w, struct uring_priv *p, struct pb_outcome *o)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;

	io_uring_for_each_cqe(&p->ring, head, cqe)
	{
		uint64_t kind = URING_UD_KIND(cqe->user_data);

		seen++;
		if (kind != URING_UD_SEND && kind != URING_UD_SEND_REPORT)
			continue;
		if (cqe->flags & IORING_CQE_F_NOTIF) {
			p->notifs--;
			p->zc_notifs++;
			if ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED)
				p->zc_copied++;
			if (URING_UD_PROBE(cqe->user_data) >= 0)
				pb_probe_release(&w->probe, URING_UD_PROBE(cqe->user_data));
			continue;
		}
		p->inflight--;
		if (cqe->flags & IORING_CQE_F_MORE)
			p->notifs++;
		uring_complete(w, p, cqe, o);
	}
	io_uring_cq_advance(&p->ring, seen);
}

/* Sends that may be queued now: the CQ must hold every CQE still to come, notifications too. */
static uint32_t uring_room(const struct uring_priv *p)
{
	int per = p->per;
	int notifs = p->notifs > 0 ? p->notifs : 0;
	int free_cqes = (int)p->cq_entries - per * p->inflight - notifs;
	unsigned int sq = io_uring_sq_space_left(&p->ring);

	if (free_cqes < per)
		return 0;
	return (uint32_t)free_cqes / per < sq ? (uint32_t)free_cqes / per : sq;
}

/*
 * One SQE for pool frame i: its payload, on its flow's socket. A probe (the call's frame k)
 * sends a stamped copy instead, which is not in the registered buffer: SEND_ZC without it.
 */
static void uring_prep(struct pb_worker *w, struct uring_priv *p, struct io_uring_sqe *sqe,
		       uint32_t i, uint32_t k)
{
	const struct pb_frame *f = &w->pool->frames[i];
	bool zc = f->payload_len >= p->zc_min;
	uint64_t probe = 0;
	const uint8_t *buf;
	int slot;

	if (pb_probe_due(&w->probe, k)) {
		const struct pb_frame *c = pb_probe_copy(&w->probe, f, &slot);

		if (c) {
			f = c;
			probe = (uint64_t)(slot + 1) << 16;
		}
	}
	buf = f->data + f->payload_off;
	if (!zc)
		io_uring_prep_send(sqe, p->file[i], buf, f->payload_len, 0);
	else if (p->fixed_buf && !probe)
		io_uring_prep_send_zc_fixed(sqe, p->file[i], buf, f->payload_len, 0, p->zc_flags,
					    0);
	else
		io_uring_prep_send_zc(sqe, p->file[i], buf, f->payload_len, 0, p->zc_flags);
	sqe->flags |= p->sqe_flags;
	io_uring_sqe_set_data64(sqe, probe | (zc && (p->zc_flags & IORING_SEND_ZC_REPORT_USAGE)
						      ? URING_UD_SEND_REPORT
						      : URING_UD_SEND));
}

/* Hands queued SQEs to the kernel and runs its pending completions: one io_uring_enter(). */
static int uring_submit(struct uring_priv *p)
{
	int ret = io_uring_submit_and_get_events(&p->ring);

	/* EBUSY: the CQ overflowed; EAGAIN: no memory for requests; both pass once we reap */
	if (ret < 0 && ret != -EBUSY && ret != -EAGAIN && ret != -EINTR)
		return ret;
	return 0;
}

/* Sleeps until a CQE arrives or timeout_us passes (running deferred task work meanwhile). */
static void uring_wait(struct uring_priv *p, unsigned int timeout_us)
{
	struct __kernel_timespec ts = { .tv_sec = timeout_us / 1000000,
					.tv_nsec = (long long)(timeout_us % 1000000) * 1000 };
	struct io_uring_cqe *cqe;

	io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
}

/*
 * Reaps, queues up to min(budget, batch) sends and submits them with one io_uring_enter().
 * With budget 0 (the harness draining) it submits what is queued and waits briefly for
 * completions. SEND_ZC notifications only free buffers (the pool is never rewritten);
 * they only take CQ slots, which uring_room() keeps for them.
 */
static int uring_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct uring_priv *p = w->priv;
	uint32_t n = 0, room = budget < w->batch ? budget : w->batch;
	int err;

	if (p->err)
		return p->err;
	uring_reap(w, p, o);
	if (room > uring_room(p))
		room = uring_room(p);
	for (; n < room; n++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);

		if (!sqe)
			break;
		uring_prep(w, p, sqe, p->s.next, n);
		pb_sock_advance(w, &p->s);
	}
	p->inflight += (int)n;

	if (io_uring_sq_ready(&p->ring)) {
		o->calls++;
		err = uring_submit(p);
		if (err)
			return err;
	} else if (!o->sent && !o->retried && (p->inflight || p->notifs > 0)) {
		/* every slot is in flight (the socket is full): sleep until one completes */
		o->calls++;
		uring_wait(p, URING_WAIT_US);
	}
	uring_reap(w, p, o);
	o->inflight = (uint32_t)p->inflight;
	return p->err;
}

const struct pb_method pb_method_io_uring = {
	.name = "io_uring",
	.help = "UDP sockets, batches of IORING_OP_SEND via io_uring (--batch, default 64; "
		"SEND_ZC from 4 KiB or --zerocopy on)",
	.default_batch = URING_BATCH,
	.probe = uring_probe,
	.flags = PB_M_ASYNC,
	.open = uring_open,
	.send = uring_send,
	.close = uring_close,
};
