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
 * The same ring carries io_uring's variants (methods/io_uring.h): io_uring_fixed sends every
 * datagram from a registered buffer (SEND_ZC on kernels whose SEND takes none), io_uring_sqpoll
 * lets a kernel thread submit (no system call per batch), io_uring_gso sends UDP_SEGMENT
 * datagrams of --segments frames each.
 *
 * Helpers are prefixed uring_, not io_uring_: liburing owns that namespace.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <liburing.h>

#include "clock.h"
#include "gso.h"
#include "io_uring.h"
#include "log.h"
#include "method.h"
#include "sock.h"

/* --zerocopy auto: SEND_ZC from this payload size up; below it, plain SEND */
#define URING_ZC_MIN 4096u
#define URING_BATCH  64u /* SQEs per io_uring_enter() without --batch */
/*
 * user_data of our sends (its low 16 bits); anything else on the CQ (liburing's own
 * timeouts) is skipped. A latency probe's send carries its copy's slot + 1 in bits 16..31,
 * and every send the frames it carries (GSO: segments) above those.
 */
#define URING_UD_SEND	     0x7062u
#define URING_UD_SEND_REPORT 0x7063u /* a SEND_ZC that asked for IORING_SEND_ZC_REPORT_USAGE */
#define URING_WAIT_US	     1000    /* how long send() sleeps when every slot is in flight */
#define URING_SPIN_S	     100e-6  /* SQPOLL: how long send() spins on the CQ before it sleeps */
#define URING_SQ_IDLE_MS     2000u   /* SQPOLL: the thread sleeps after this long without work */
#define URING_UD(tag, slot, frames)                                                                \
	((uint64_t)(frames) << 32 | (uint64_t)((slot) + 1) << 16 | (tag))
#define URING_UD_TAG(ud)    ((uint32_t)(ud)&0xffffu)
#define URING_UD_PROBE(ud)  ((int)(((ud) >> 16) & 0xffffu) - 1) /* the copy's slot, or -1 */
#define URING_UD_FRAMES(ud) ((uint32_t)((ud) >> 32))

/* kernel 6.2 UAPI, newer than liburing 2.3's headers */
#ifndef IORING_SEND_ZC_REPORT_USAGE
#define IORING_SEND_ZC_REPORT_USAGE (1U << 3)
#endif
#ifndef IORING_NOTIF_USAGE_ZC_COPIED
#define IORING_NOTIF_USAGE_ZC_COPIED (1U << 31)
#endif

struct uring_priv {
	struct pb_gso g; /* first: pb_gso_close frees the whole struct (buf NULL without GSO) */
	const struct pb_uring_kind *kind;
	struct io_uring ring;
	bool ring_ok;
	int sq_tid;		  /* SQPOLL: the kernel thread that submits; 0 if unknown */
	uint32_t inflight_frames; /* frames in the sends in flight */
	int *file;		  /* pool frame i -> what its SQE names: a fixed-file index or fd */
	unsigned int sqe_flags;	  /* IOSQE_FIXED_FILE when the sockets are registered */
	uint32_t zc_min;	  /* payloads from this size go as SEND_ZC; UINT32_MAX: none */
	uint32_t nzc;		  /* pool frames that go as SEND_ZC */
	int per;		  /* CQEs one send may post: 2 when any frame goes as SEND_ZC */
	bool fixed_buf;		  /* SEND_ZC from a registered buffer: no page pinning per send */
	bool send_fixed;	  /* SEND from the registered buffer (io_uring_fixed, if it may) */
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

/*
 * Whether this kernel's IORING_OP_SEND takes a registered buffer (IORING_RECVSEND_FIXED_BUF;
 * SEND_ZC does from 6.0): one send over a local socket pair, which puts nothing on a wire.
 */
static bool uring_send_takes_fixed_buf(void)
{
	static char buf[64];
	struct iovec iov = { buf, sizeof(buf) };
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	bool ok = false;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return false;
	if (!io_uring_queue_init(2, &ring, 0)) {
		sqe = io_uring_get_sqe(&ring);
		if (!io_uring_register_buffers(&ring, &iov, 1) && sqe) {
			io_uring_prep_send(sqe, sv[0], buf, 1, 0);
			sqe->ioprio |= IORING_RECVSEND_FIXED_BUF;
			sqe->buf_index = 0;
			ok = io_uring_submit_and_wait(&ring, 1) == 1 &&
			     !io_uring_peek_cqe(&ring, &cqe) && cqe->res == 1;
		}
		io_uring_queue_exit(&ring);
	}
	close(sv[0]);
	close(sv[1]);
	return ok;
}

/* A ring with SQPOLL can be made here: 0, or -errno with the reason. */
static int uring_probe_sqpoll(char *reason, size_t len)
{
	struct io_uring_params prm = { .flags = IORING_SETUP_SQPOLL, .sq_thread_idle = 10 };
	struct io_uring ring;
	int err = io_uring_queue_init_params(2, &ring, &prm);

	if (err) {
		snprintf(reason, len, "io_uring: IORING_SETUP_SQPOLL refused: %s%s", strerror(-err),
			 err == -EPERM ? " (needs CAP_SYS_NICE before 5.11, or a policy forbids it)"
				       : "");
		return -EOPNOTSUPP;
	}
	io_uring_queue_exit(&ring);
	return 0;
}

int pb_uring_probe(const struct pb_config *cfg, const struct pb_uring_kind *kind, char *reason,
		   size_t len)
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
	if (kind->fixed_buf && !uring_send_takes_fixed_buf() && (!zc || cfg->zerocopy == PB_OFF)) {
		snprintf(reason, len,
			 "io_uring: this kernel's IORING_OP_SEND takes no registered buffer, and "
			 "SEND_ZC (which does) is %s",
			 zc ? "off (--zerocopy off)" : "missing (needs 6.0)");
		return -EOPNOTSUPP;
	}
	if (kind->gso && (err = pb_gso_probe(cfg, reason, len)))
		return err;
	if (kind->sqpoll)
		return uring_probe_sqpoll(reason, len);
	return 0;
}

void pb_uring_close(struct pb_worker *w)
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
	pb_gso_close(w); /* the sockets, the GSO buffer, and p itself */
}

/*
 * SQPOLL: a CPU for the kernel thread other than the one this worker runs on, so that the
 * worker's short spins for completions do not take the thread's CPU; -1 with only one CPU.
 */
static int uring_sq_cpu(void)
{
	int here = sched_getcpu(), c, first = -1;
	cpu_set_t allowed;

	if (here < 0 || sched_getaffinity(0, sizeof(allowed), &allowed) || CPU_COUNT(&allowed) < 2)
		return -1;
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &allowed) || c == here)
			continue;
		if (c > here)
			return c;
		if (first < 0)
			first = c;
	}
	return first;
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
	}, sqpoll[] = {
		/* the kernel thread submits: task work runs there, not in our calls */
		{ IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF | IORING_SETUP_SUBMIT_ALL, "sqpoll" },
		{ IORING_SETUP_SQPOLL | IORING_SETUP_SUBMIT_ALL, "sqpoll" },
		{ IORING_SETUP_SQPOLL, "sqpoll" },
	};
	unsigned int i, n = 3;
	int cpu = p->kind->sqpoll ? uring_sq_cpu() : -1, err = -EINVAL;

	for (i = 0; i < n && err == -EINVAL; i++) {
		struct io_uring_params prm = {
			.flags = p->kind->sqpoll ? sqpoll[i].flags : tries[i].flags,
			.sq_thread_idle = URING_SQ_IDLE_MS,
			.sq_thread_cpu = cpu >= 0 ? (unsigned int)cpu : 0,
		};

		if (cpu < 0 && (prm.flags & IORING_SETUP_SQ_AFF))
			continue;

		err = io_uring_queue_init_params(entries, &p->ring, &prm);
		if (!err) {
			*how = p->kind->sqpoll ? sqpoll[i].how : tries[i].how;
			p->cq_entries = prm.cq_entries;
		}
	}
	return err;
}

/* The SQPOLL thread's id, from the ring's fdinfo (5.19+), so its CPU time can be counted. */
static int uring_sq_thread(const struct uring_priv *p)
{
	char path[64], line[128];
	int tid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", p->ring.ring_fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SqThread: %d", &tid) == 1)
			break;
	fclose(f);
	return tid > 0 ? tid : 0;
}

double pb_uring_helper_cpu_s(struct pb_worker *w)
{
	const struct uring_priv *p = w->priv;
	struct timespec ts;
	clockid_t clk;

	if (!p || !p->sq_tid)
		return 0;
	/* a thread of this process: its CPU clock, as the kernel numbers per-thread clocks */
	clk = (clockid_t)((~(unsigned int)p->sq_tid << 3) | 6);
	if (clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Registers the distinct sockets as fixed files (saving a file-table lookup and reference per
 * SQE) and maps each pool frame to its socket's index; without registration, to its fd.
 */
static int uring_files(struct pb_worker *w, struct uring_priv *p)
{
	uint32_t i;

	p->file = malloc(sizeof(*p->file) * w->pool->n);
	if (!p->file)
		return -ENOMEM;
	if (io_uring_register_files(&p->ring, p->g.s.socks, p->g.s.nsocks)) {
		for (i = 0; i < w->pool->n; i++)
			p->file[i] = p->g.s.fds[i];
		return 0;
	}
	p->sqe_flags = IOSQE_FIXED_FILE;
	return pb_sock_index(w, &p->g.s, p->file);
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

	if (p->g.buf) {
		lo = p->g.buf;
		hi = p->g.buf + p->g.bytes;
	}
	for (i = 0; !p->g.buf && i < w->pool->n; i++) {
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

/*
 * Which sends go as SEND_ZC: the header comment's rule, but io_uring_fixed sends every one
 * from the registered buffer, as SEND where the kernel's SEND takes one, else as SEND_ZC.
 */
static void uring_pick_ops(struct pb_worker *w, struct uring_priv *p, bool have_zc)
{
	uint32_t i;

	p->zc_min = uring_zc_min(w->cfg, have_zc);
	if (p->kind->fixed_buf) {
		p->send_fixed = uring_send_takes_fixed_buf();
		p->zc_min = p->send_fixed ? UINT32_MAX : 0;
	}
	if (p->g.buf)
		p->nzc = p->g.bytes >= p->zc_min ? w->pool->n : 0;
	else
		for (i = 0; i < w->pool->n; i++)
			p->nzc += w->pool->frames[i].payload_len >= p->zc_min;
	p->per = p->nzc ? 2 : 1;
	if (p->nzc || p->send_fixed)
		uring_fixed_buf(w, p);
	if (p->nzc)
		p->zc_flags = IORING_SEND_ZC_REPORT_USAGE;
}

int pb_uring_open(struct pb_worker *w, const struct pb_uring_kind *kind)
{
	struct uring_priv *p;
	unsigned int batch = w->batch;
	bool have_send = false, have_zc = false;
	const char *how = "default", *op;
	int err;

	err = pb_udp_open(w, sizeof(*p), kind->gso);
	p = w->priv;
	if (!p || err)
		return err;
	p->kind = kind;
	/* twice the batch: a batch can be queued while the previous one is still completing */
	err = uring_ring_init(p, w->cfg->ring ? w->cfg->ring : 2 * batch, &how);
	if (err) {
		char reason[160];

		uring_setup_reason(err, reason, sizeof(reason));
		pr_err("io_uring: %s\n", reason);
		return err;
	}
	p->ring_ok = true;
	if (kind->sqpoll)
		p->sq_tid = uring_sq_thread(p);
	err = uring_opcodes(&p->ring, &have_send, &have_zc);
	if (err || !have_send || (w->cfg->zerocopy == PB_ON && !have_zc))
		return -EOPNOTSUPP;
	err = uring_files(w, p);
	if (err)
		return err;
	uring_pick_ops(w, p, have_zc);
	if (p->send_fixed && !p->fixed_buf)
		return -EOPNOTSUPP; /* the registered buffer is what io_uring_fixed is */

	op = !p->nzc ? "send" : p->nzc == w->pool->n ? "send_zc" : "send+send_zc";
	pr_info("io_uring: worker %u: %s, ring %u/%u (%s), %u %s socket(s)%s\n", w->id, op,
		p->ring.sq.ring_entries, p->cq_entries, how, p->g.s.nsocks,
		p->sqe_flags ? "fixed" : "plain", p->fixed_buf ? ", fixed buffer" : "");
	if (p->g.buf)
		snprintf(w->mode, sizeof(w->mode), "%s x%u segments, batch %u, ring %u", op,
			 p->g.seg, batch, p->ring.sq.ring_entries);
	else
		snprintf(w->mode, sizeof(w->mode), "%s%s%s, batch %u, ring %u", op,
			 p->fixed_buf ? " fixed" : "", kind->sqpoll ? ", sqpoll" : "", batch,
			 p->ring.sq.ring_entries);
	return 0;
}

static int uring_open(struct pb_worker *w)
{
	static const struct pb_uring_kind plain;

	return pb_uring_open(w, &plain);
}

/* Counts one send's (first) CQE into o; keeps the first fatal error in p->err. */
static void uring_complete(struct pb_worker *w, struct uring_priv *p,
			   const struct io_uring_cqe *cqe, struct pb_outcome *o)
{
	uint32_t frames = URING_UD_FRAMES(cqe->user_data);
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
	p->inflight_frames -= frames;
	if (res >= 0) {
		o->sent += frames;
		return;
	}
	if (res == -EINVAL && URING_UD_TAG(cqe->user_data) == URING_UD_SEND_REPORT) {
		/* 6.0 and 6.1 reject the usage report: stop asking; the frame was not sent */
		p->zc_flags &= ~IORING_SEND_ZC_REPORT_USAGE;
		return;
	}
	err = pb_send_errno(-res);
	/*
	 * The device dropped it and said so: not sent; the harness asks for another. A GSO
	 * datagram was sliced first, and which segments went is unknown: it counts as sent,
	 * as with gso, and the drop counters say how many were lost.
	 */
	if (err == -ENOBUFS && p->g.buf)
		o->sent += frames;
	else if (err == -ENOBUFS)
		o->retried += frames;
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
		uint32_t tag = URING_UD_TAG(cqe->user_data);

		seen++;
		if (tag != URING_UD_SEND && tag != URING_UD_SEND_REPORT)
			continue;
		if (cqe->flags & IORING_CQE_F_NOTIF) {
			if (URING_UD_PROBE(cqe->user_data) >= 0)
				pb_probe_release(&w->probe, URING_UD_PROBE(cqe->user_data));
			p->notifs--;
			p->zc_notifs++;
			if ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED)
				p->zc_copied++;
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
 * One SQE for pool frame i on its flow's socket: its payload, or with GSO *frames segments
 * of the GSO buffer. This is where a datagram is handed to the kernel. A probe (the call's
 * frame k) sends a stamped copy of one payload instead, alone (GSO: a datagram of one
 * segment, *frames becomes 1), and the copy is not in the registered buffer.
 */
static void uring_prep(struct pb_worker *w, struct uring_priv *p, struct io_uring_sqe *sqe,
		       uint32_t i, uint32_t k, uint32_t *frames)
{
	const struct pb_frame *f = &w->pool->frames[i];
	const uint8_t *buf = p->g.buf ? p->g.buf : f->data + f->payload_off;
	size_t len = p->g.buf ? (size_t)*frames * w->cfg->payloadsize : f->payload_len;
	int slot = -1;
	bool zc;

	if (pb_probe_due(&w->probe, k)) {
		const struct pb_frame *c = pb_probe_copy(&w->probe, f, &slot);

		if (c) {
			buf = c->data + c->payload_off;
			len = c->payload_len;
			*frames = 1;
		}
	}
	zc = len >= p->zc_min;
	if (!zc)
		io_uring_prep_send(sqe, p->file[i], buf, len, 0);
	else if (p->fixed_buf && slot < 0)
		io_uring_prep_send_zc_fixed(sqe, p->file[i], buf, len, 0, p->zc_flags, 0);
	else
		io_uring_prep_send_zc(sqe, p->file[i], buf, len, 0, p->zc_flags);
	if (!zc && p->send_fixed && slot < 0) {
		sqe->ioprio |= IORING_RECVSEND_FIXED_BUF;
		sqe->buf_index = 0;
	}
	sqe->flags |= p->sqe_flags;
	io_uring_sqe_set_data64(sqe, URING_UD(zc && (p->zc_flags & IORING_SEND_ZC_REPORT_USAGE)
						      ? URING_UD_SEND_REPORT
						      : URING_UD_SEND,
					      slot, *frames));
}

/*
 * Hands queued SQEs to the kernel and runs its pending completions: one io_uring_enter(),
 * counted in o. With SQPOLL the kernel thread takes them from the ring by itself, and
 * liburing enters only to wake it or to flush an overflowed CQ: the same test here.
 */
static int uring_submit(struct uring_priv *p, struct pb_outcome *o)
{
	int ret;

	if (p->kind->sqpoll) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(p->ring.sq.kflags, __ATOMIC_RELAXED) &
		    (IORING_SQ_NEED_WAKEUP | IORING_SQ_CQ_OVERFLOW))
			o->calls++;
		ret = io_uring_submit(&p->ring);
	} else {
		o->calls++;
		ret = io_uring_submit_and_get_events(&p->ring);
	}
	/* EBUSY: the CQ overflowed; EAGAIN: no memory for requests; both pass once we reap */
	if (ret < 0 && ret != -EBUSY && ret != -EAGAIN && ret != -EINTR)
		return ret;
	return 0;
}

/*
 * Waits until a CQE arrives or timeout_us passes (running deferred task work meanwhile);
 * the sleep is a system call, counted in o. With SQPOLL, completions arrive without one:
 * spin on the CQ a little first.
 */
static void uring_wait(struct uring_priv *p, unsigned int timeout_us, struct pb_outcome *o)
{
	struct __kernel_timespec ts = { .tv_sec = timeout_us / 1000000,
					.tv_nsec = (long long)(timeout_us % 1000000) * 1000 };
	struct io_uring_cqe *cqe;
	double until;

	if (p->kind->sqpoll) {
		for (until = pb_now() + URING_SPIN_S; pb_now() < until;)
			if (io_uring_cq_ready(&p->ring))
				return;
	}
	o->calls++;
	io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
}

/*
 * Reaps, queues up to min(budget, batch) frames' sends (GSO: datagrams of --segments
 * frames, a shorter last one for the end of a --count) and submits them with one
 * io_uring_enter(). With budget 0 (the harness draining) it submits what is queued and
 * waits briefly for completions. SEND_ZC notifications only free buffers (the pool is never
 * rewritten); they only take CQ slots, which uring_room() keeps for them.
 */
int pb_uring_send(struct pb_worker *w, unsigned int budget, struct pb_outcome *o)
{
	struct uring_priv *p = w->priv;
	uint32_t n = 0, room, left = budget, frames;
	int err;

	if (p->err)
		return p->err;
	uring_reap(w, p, o);
	room = uring_room(p);
	if (room > w->batch)
		room = w->batch;
	for (; n < room && left; n++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);

		if (!sqe)
			break;
		frames = left < p->g.seg ? left : p->g.seg;
		uring_prep(w, p, sqe, p->g.s.next, budget - left, &frames);
		left -= frames;
		p->inflight_frames += frames;
		pb_sock_advance(w, &p->g.s);
	}
	p->inflight += (int)n;

	if (io_uring_sq_ready(&p->ring)) {
		err = uring_submit(p, o);
		if (err)
			return err;
	} else if (!o->sent && !o->retried && (p->inflight || p->notifs > 0)) {
		/* every slot is in flight (the socket is full): sleep until one completes */
		uring_wait(p, URING_WAIT_US, o);
	}
	uring_reap(w, p, o);
	o->inflight = p->inflight_frames;
	return p->err;
}

static int uring_probe(const struct pb_config *cfg, char *reason, size_t len)
{
	static const struct pb_uring_kind plain;

	return pb_uring_probe(cfg, &plain, reason, len);
}

const struct pb_method pb_method_io_uring = {
	.name = "io_uring",
	.help = "UDP sockets, batches of IORING_OP_SEND via io_uring (--batch, default 64; "
		"SEND_ZC from 4 KiB or --zerocopy on)",
	.default_batch = URING_BATCH,
	.knobs = PB_K_BATCH | PB_K_RING,
	.probe = uring_probe,
	.flags = PB_M_ASYNC,
	.open = uring_open,
	.send = pb_uring_send,
	.close = pb_uring_close,
};
