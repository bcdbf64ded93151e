// SPDX-License-Identifier: MIT
/* Attaching our XDP programs: refuse, or replace and restore with --force (xdp_attach.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "log.h"
#include "xdp_attach.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71 /* Linux 5.14 */
#endif

#define XDP_OWN_DIR "/run/pktbench"
#define XDP_BPFFS   "/sys/fs/bpf"
#define XDP_PIN_DIR XDP_BPFFS "/pktbench"

const char *pb_xdp_mode_desc(uint32_t mode)
{
	switch (mode) {
	case XDP_FLAGS_DRV_MODE:
		return "native (drv)";
	case XDP_FLAGS_SKB_MODE:
		return "generic (skb)";
	case XDP_FLAGS_HW_MODE:
		return "offloaded (hw)";
	}
	return "unknown";
}

/* The program already on the interface, if any: its id and the mode it runs in. */
static void xdp_att_found(const struct bpf_xdp_query_opts *q, uint32_t *id, uint32_t *mode)
{
	*id = 0;
	*mode = 0;
	if (q->drv_prog_id) {
		*id = q->drv_prog_id;
		*mode = XDP_FLAGS_DRV_MODE;
	} else if (q->skb_prog_id) {
		*id = q->skb_prog_id;
		*mode = XDP_FLAGS_SKB_MODE;
	} else if (q->hw_prog_id) {
		*id = q->hw_prog_id;
		*mode = XDP_FLAGS_HW_MODE;
	} else if (q->prog_id) {
		*id = q->prog_id;
		*mode = q->attach_mode == XDP_ATTACHED_SKB  ? XDP_FLAGS_SKB_MODE
			: q->attach_mode == XDP_ATTACHED_HW ? XDP_FLAGS_HW_MODE
							    : XDP_FLAGS_DRV_MODE;
	}
}

static int xdp_att_query(int ifindex, uint32_t *id, uint32_t *mode)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	int err = bpf_xdp_query(ifindex, 0, &q);

	if (!err)
		xdp_att_found(&q, id, mode);
	return err;
}

/* Takes fd off the interface, if it is what runs there in mode (and nothing else). */
static int xdp_att_take_off(int ifindex, int fd, uint32_t mode)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = fd);

	return bpf_xdp_detach(ifindex, mode | XDP_FLAGS_REPLACE, &opts);
}

/*
 * --- owner records -------------------------------------------------------------------------
 * A record says who took which program off which interface. It must outlive the process
 * and be found again from any mount namespace (`ip netns exec` gives each command a private
 * one, with a /sys of its own and no bpffs), so records and pins are written in the outermost
 * mount namespace of pktbench's ancestors that it may enter (pid 1's, where it may), where a
 * bpffs is mounted if there is none: a pin made in a private mount namespace would die with
 * it, and the program with the pin.
 */
struct xdp_own {
	int pid;
	unsigned long long start; /* the owner's start time (/proc/PID/stat), against pid reuse */
	char ifname[IF_NAMESIZE];
	int ifindex;
	uint32_t ours;		  /* ours, attached over netlink; 0: through a link */
	uint32_t user, user_mode; /* the program taken off; 0: none */
	char pin[96];		  /* where user is pinned */
};

enum xdp_own_op { OWN_READ, OWN_WRITE, OWN_UPDATE, OWN_REMOVE, OWN_PIN, OWN_GET, OWN_UNPIN };

struct xdp_own_call {
	enum xdp_own_op op;
	const char *path;
	struct xdp_own *rec;
	int fd; /* OWN_PIN: the program; OWN_GET: the answer */
	int ret;
	bool host; /* it ran in the outer mount namespace (or that is ours) */
};

/*
 * Of /proc/PID/stat: the parent's pid (field 4) and the start time in clock ticks since boot
 * (field 22). -errno when there is no such process.
 */
static int xdp_own_stat(int pid, int *ppid, unsigned long long *start)
{
	char path[32], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	if (!p || sscanf(p + 1,
			 " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
			 "%*d %*d %*d %llu",
			 ppid, start) != 2)
		return -EINVAL;
	return 0;
}

static unsigned long long xdp_own_start(int pid)
{
	unsigned long long start;
	int ppid;

	return xdp_own_stat(pid, &ppid, &start) ? 0 : start;
}

static bool xdp_own_alive(const struct xdp_own *r)
{
	if (r->pid <= 0 || (kill(r->pid, 0) && errno != EPERM))
		return false;
	return !r->start || xdp_own_start(r->pid) == r->start;
}

static int xdp_own_parse(FILE *f, struct xdp_own *r)
{
	char line[160], key[16], val[128];

	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%15[a-z_]=%127s", key, val) != 2)
			continue;
		if (!strcmp(key, "pid"))
			r->pid = atoi(val);
		else if (!strcmp(key, "start"))
			r->start = strtoull(val, NULL, 10);
		else if (!strcmp(key, "ifname"))
			snprintf(r->ifname, sizeof(r->ifname), "%.*s", IF_NAMESIZE - 1, val);
		else if (!strcmp(key, "ifindex"))
			r->ifindex = atoi(val);
		else if (!strcmp(key, "ours"))
			r->ours = (uint32_t)strtoul(val, NULL, 10);
		else if (!strcmp(key, "user"))
			r->user = (uint32_t)strtoul(val, NULL, 10);
		else if (!strcmp(key, "user_mode"))
			r->user_mode = (uint32_t)strtoul(val, NULL, 10);
		else if (!strcmp(key, "pin"))
			snprintf(r->pin, sizeof(r->pin), "%.*s", (int)sizeof(r->pin) - 1, val);
	}
	if (r->user && !r->pin[0])
		return -EINVAL;
	if (r->user_mode != XDP_FLAGS_DRV_MODE && r->user_mode != XDP_FLAGS_SKB_MODE)
		r->user_mode = r->user ? XDP_FLAGS_DRV_MODE : 0;
	return 0;
}

/* Writes the record to a new file beside path; returns that file's name in tmp. */
static int xdp_own_put(const char *path, const struct xdp_own *r, char *tmp, size_t len)
{
	FILE *f;
	int err = 0;

	if (mkdir(XDP_OWN_DIR, 0755) && errno != EEXIST)
		return -errno;
	snprintf(tmp, len, "%s.%d.tmp", path, (int)getpid());
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f,
		"pid=%d\nstart=%llu\nifname=%s\nifindex=%d\nours=%u\nuser=%u\nuser_mode=%u\n"
		"pin=%s\n",
		r->pid, r->start, r->ifname, r->ifindex, r->ours, r->user, r->user_mode,
		r->pin[0] ? r->pin : "-");
	if (fflush(f) || fsync(fileno(f)))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* Makes sure a bpffs is mounted where the pins go. */
static int xdp_own_bpffs(void)
{
	struct statfs st;

	if (!statfs(XDP_BPFFS, &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	if (mkdir(XDP_BPFFS, 0700) && errno != EEXIST)
		return -errno;
	if (mount("bpf", XDP_BPFFS, "bpf", 0, "mode=0700"))
		return -errno;
	pr_info("mounted a bpffs on " XDP_BPFFS " for the pin of a replaced XDP program\n");
	return 0;
}

static int xdp_own_do(struct xdp_own_call *c)
{
	char tmp[96];
	FILE *f;
	int err;

	switch (c->op) {
	case OWN_READ:
		f = fopen(c->path, "re");
		if (!f)
			return -errno;
		err = xdp_own_parse(f, c->rec);
		fclose(f);
		return err;
	case OWN_WRITE:
	case OWN_UPDATE:
		err = xdp_own_put(c->path, c->rec, tmp, sizeof(tmp));
		if (err)
			return err;
		/* a new record appears whole, and only if there is none (link fails if so) */
		if (c->op == OWN_WRITE ? link(tmp, c->path) : rename(tmp, c->path))
			err = -errno;
		unlink(tmp);
		return err;
	case OWN_REMOVE:
		return unlink(c->path) ? -errno : 0;
	case OWN_PIN:
		err = xdp_own_bpffs();
		if (err)
			return err;
		if (mkdir(XDP_PIN_DIR, 0700) && errno != EEXIST)
			return -errno;
		unlink(c->path); /* a pin of the same program left by an earlier failure */
		return bpf_obj_pin(c->fd, c->path);
	case OWN_GET:
		c->fd = bpf_obj_get(c->path);
		return c->fd < 0 ? -errno : 0;
	case OWN_UNPIN:
		return unlink(c->path) ? -errno : 0;
	}
	return -EINVAL;
}

static int xdp_own_mntns_fd = -1;

/* The outermost mount namespace up the chain of parents that can be opened (ours at least). */
static void xdp_own_mntns_find(void)
{
	unsigned long long start;
	char path[32];
	int pid = (int)getpid(), ppid, fd, n;

	for (n = 0; pid > 0 && n < 128; n++, pid = ppid) {
		snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			break;
		if (xdp_own_mntns_fd >= 0)
			close(xdp_own_mntns_fd);
		xdp_own_mntns_fd = fd; /* held: it stays, and stays the same, while we run */
		if (pid == 1 || xdp_own_stat(pid, &ppid, &start))
			break;
	}
}

/* In a thread of its own, the only one that moves to the outer mount namespace. */
static void *xdp_own_thread(void *arg)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct xdp_own_call *c = arg;
	struct stat here, host;

	pthread_once(&once, xdp_own_mntns_find);
	if (xdp_own_mntns_fd < 0 || fstat(xdp_own_mntns_fd, &host) ||
	    stat("/proc/thread-self/ns/mnt", &here) ||
	    (here.st_ino == host.st_ino && here.st_dev == host.st_dev))
		c->host = xdp_own_mntns_fd >= 0;
	else /* a mount namespace is entered by a thread with an fs_struct of its own */
		c->host = !unshare(CLONE_FS) && !setns(xdp_own_mntns_fd, CLONE_NEWNS);
	c->ret = xdp_own_do(c);
	return NULL;
}

static int xdp_own_call(struct xdp_own_call *c)
{
	pthread_t t;
	int err;

	err = pthread_create(&t, NULL, xdp_own_thread, c);
	if (err)
		return -err;
	pthread_join(t, NULL);
	return c->ret;
}

static int xdp_own_read(const char *path, struct xdp_own *r)
{
	struct xdp_own_call c = { .op = OWN_READ, .path = path, .rec = r };

	return xdp_own_call(&c);
}

static int xdp_own_write(const char *path, struct xdp_own *r, enum xdp_own_op op)
{
	struct xdp_own_call c = { .op = op, .path = path, .rec = r };

	return xdp_own_call(&c);
}

static void xdp_own_remove(const char *path)
{
	struct xdp_own_call c = { .op = OWN_REMOVE, .path = path };

	xdp_own_call(&c);
}

static int xdp_own_pin(int fd, const char *path, bool *host)
{
	struct xdp_own_call c = { .op = OWN_PIN, .path = path, .fd = fd };
	int err = xdp_own_call(&c);

	*host = c.host;
	return err;
}

static int xdp_own_get(const char *path)
{
	struct xdp_own_call c = { .op = OWN_GET, .path = path, .fd = -1 };
	int err = xdp_own_call(&c);

	return err ? err : c.fd;
}

static void xdp_own_unpin(const char *path)
{
	struct xdp_own_call c = { .op = OWN_UNPIN, .path = path };

	xdp_own_call(&c);
}

/* The record's path for ifindex in the calling thread's namespace (its cookie, or inode). */
static void xdp_own_path(struct pb_xdp_att *a)
{
	unsigned long long ns = 0;
	uint64_t cookie;
	socklen_t len = sizeof(cookie);
	struct stat st;
	int fd;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len))
		ns = cookie; /* never reused while the machine runs, unlike an inode number */
	else if (!stat("/proc/thread-self/ns/net", &st))
		ns = (unsigned long long)st.st_ino << 1 | 1ull << 63;
	if (fd >= 0)
		close(fd);
	snprintf(a->record, sizeof(a->record), XDP_OWN_DIR "/xdp-%llx-%d", ns, a->ifindex);
}

static void xdp_own_pin_path(const struct pb_xdp_att *a, uint32_t id, char *buf, size_t len)
{
	snprintf(buf, len, XDP_PIN_DIR "/%s-%u", strrchr(a->record, '/') + 1, id);
}

static void xdp_own_drop(struct pb_xdp_att *a, const struct xdp_own *r)
{
	if (r->user)
		xdp_own_unpin(r->pin);
	xdp_own_remove(a->record);
	a->recorded = false;
}

/*
 * An owner record for the interface: a running pktbench's is a refusal (-EBUSY); a gone
 * one's is undone: its netlink-attached program taken off, and the program it had taken off
 * put back (if the interface has nothing else by now). explicit: --restore, which says what
 * it found either way. 0 when nothing is left to undo.
 */
static int xdp_own_settle(struct pb_xdp_att *a, bool explicit)
{
	struct xdp_own r;
	uint32_t cur, mode;
	int fd, err;

	err = xdp_own_read(a->record, &r);
	if (err == -ENOENT) {
		if (explicit)
			pr_warn("%s: nothing to put back on %s: no pktbench that replaced an "
				"XDP program there was stopped before putting it back\n",
				a->who, a->ifname);
		return 0;
	}
	if (err) {
		pr_err("%s: cannot read pktbench's owner record %s: %s\n", a->who, a->record,
		       strerror(-err));
		return err;
	}
	if (xdp_own_alive(&r)) {
		if (r.user)
			pr_err("%s: %s is in use by pktbench (pid %d), which replaced XDP program "
			       "id %u there; it puts it back itself when it stops (SIGTERM, "
			       "Ctrl-C)\n",
			       a->who, a->ifname, r.pid, r.user);
		else
			pr_err("%s: %s is in use by pktbench (pid %d), which has its XDP program "
			       "there\n",
			       a->who, a->ifname, r.pid);
		return -EBUSY;
	}
	err = xdp_att_query(a->ifindex, &cur, &mode);
	if (err) {
		pr_err("%s: cannot query the XDP program of %s: %s\n", a->who, a->ifname,
		       strerror(-err));
		return err;
	}
	if (r.ours && cur == r.ours) {
		fd = bpf_prog_get_fd_by_id(cur);
		err = fd < 0 ? -errno : xdp_att_take_off(a->ifindex, fd, mode);
		if (fd >= 0)
			close(fd);
		if (err) {
			pr_err("%s: cannot take off XDP program id %u, which pktbench (pid %d, "
			       "gone) left on %s: %s\n",
			       a->who, cur, r.pid, a->ifname, strerror(-err));
			return err;
		}
		pr_warn("%s: took off XDP program id %u, which pktbench (pid %d, gone) had "
			"attached to %s\n",
			a->who, cur, r.pid, a->ifname);
		cur = 0;
	}
	if (!r.user) {
		xdp_own_remove(a->record);
		return 0;
	}
	if (cur == r.user) {
		pr_info("%s: XDP program id %u is back on %s already\n", a->who, cur, a->ifname);
		xdp_own_drop(a, &r);
		return 0;
	}
	if (cur) {
		pr_err("%s: %s has XDP program id %u now, so the program id %u that pktbench "
		       "(pid %d, gone) took off it stays pinned at %s: take id %u off and run "
		       "`pktbench receive --restore %s` to put it back, or delete %s and %s to "
		       "let it go\n",
		       a->who, a->ifname, cur, r.user, r.pid, r.pin, cur, a->ifname, r.pin,
		       a->record);
		return -EEXIST;
	}
	fd = xdp_own_get(r.pin);
	if (fd < 0) {
		pr_err("%s: XDP program id %u, which pktbench (pid %d, gone) took off %s, is "
		       "lost: its pin %s is gone (%s)\n",
		       a->who, r.user, r.pid, a->ifname, r.pin, strerror(-fd));
		xdp_own_remove(a->record);
		return explicit ? fd : 0;
	}
	err = bpf_xdp_attach(a->ifindex, fd, r.user_mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	close(fd);
	if (err) {
		pr_err("%s: cannot put XDP program id %u back on %s (%s mode): %s; it stays "
		       "pinned at %s\n",
		       a->who, r.user, a->ifname, pb_xdp_mode_desc(r.user_mode), strerror(-err),
		       r.pin);
		return err;
	}
	pr_warn("%s: put XDP program id %u back on %s (%s mode): pktbench (pid %d) had "
		"replaced it with --force and was stopped before it could (SIGKILL?)\n",
		a->who, r.user, a->ifname, pb_xdp_mode_desc(r.user_mode), r.pid);
	xdp_own_drop(a, &r);
	return 0;
}

/*
 * A record of ours: what --force took off (user, pinned), or ours over netlink (ours). The
 * record comes first, made only if there is none, so of two runs that race for one interface
 * one gets it and the other touches nothing; then the pin it names.
 */
static int xdp_own_take(struct pb_xdp_att *a, uint32_t ours, uint32_t user, int user_fd)
{
	struct xdp_own r = { .pid = (int)getpid(), .ifindex = a->ifindex };
	bool host = false;
	int err;

	r.start = xdp_own_start(r.pid);
	snprintf(r.ifname, sizeof(r.ifname), "%s", a->ifname);
	r.ours = ours;
	r.user = user;
	r.user_mode = user ? a->old_mode : 0;
	if (user)
		xdp_own_pin_path(a, user, r.pin, sizeof(r.pin));
	err = xdp_own_write(a->record, &r, a->recorded ? OWN_UPDATE : OWN_WRITE);
	if (err == -EEXIST) {
		pr_err("%s: %s: another pktbench took it over just now\n", a->who, a->ifname);
		return -EBUSY;
	}
	if (err) {
		pr_err("%s: cannot write pktbench's owner record %s: %s\n", a->who, a->record,
		       strerror(-err));
		return err;
	}
	a->recorded = true;
	if (!user)
		return 0;
	err = xdp_own_pin(user_fd, r.pin, &host);
	if (err) {
		pr_err("%s: --force: cannot pin XDP program id %u at %s (%s), which keeps it from "
		       "being lost if pktbench is killed; it is left alone\n",
		       a->who, user, r.pin, strerror(-err));
		xdp_own_remove(a->record);
		a->recorded = false;
		return err;
	}
	if (!host)
		pr_warn("%s: --force: XDP program id %u is pinned in this mount namespace only (no "
			"outer one can be entered): it is lost if pktbench is killed and this "
			"namespace ends\n",
			a->who, user);
	return 0;
}

static void xdp_own_release(struct pb_xdp_att *a)
{
	struct xdp_own r = { 0 };

	if (!a->recorded)
		return;
	if (a->old_id) {
		r.user = a->old_id;
		xdp_own_pin_path(a, a->old_id, r.pin, sizeof(r.pin));
	}
	xdp_own_drop(a, &r);
}

/* ------------------------------------------------------------------------------------------ */

/*
 * A program named as ours (bpf/): only said in a refusal, never acted on, since a user may
 * load our objects too; ours of this version never outlive their process.
 */
static bool xdp_att_named_ours(uint32_t id)
{
	static const char *const names[] = { "pb_receiver", "pb_xdp_pass", "pb_xdp_live" };
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	bool ours = false;
	size_t i;
	int fd;

	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return false;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			ours |= !strncmp(info.name, names[i], sizeof(info.name));
	close(fd);
	return ours;
}

/* The process that holds BPF link link_id open (its first), by its fdinfo; 0: none found. */
static pid_t xdp_link_holder(uint32_t link_id, char *comm, size_t commlen)
{
	char path[2 * 256 + 32], line[64], want[32];
	struct dirent *p, *f;
	DIR *procs, *fds;
	pid_t pid = 0;
	FILE *in;

	snprintf(want, sizeof(want), "link_id:\t%u\n", link_id);
	procs = opendir("/proc");
	while (procs && !pid && (p = readdir(procs))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fdinfo", p->d_name);
		fds = opendir(path);
		while (fds && !pid && (f = readdir(fds))) {
			if (f->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", p->d_name, f->d_name);
			in = fopen(path, "r");
			while (in && !pid && fgets(line, sizeof(line), in))
				if (!strcmp(line, want))
					pid = (pid_t)atoi(p->d_name);
			if (in)
				fclose(in);
		}
		if (fds)
			closedir(fds);
	}
	if (procs)
		closedir(procs);
	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	in = pid ? fopen(path, "r") : NULL;
	if (in) {
		if (fgets(comm, (int)commlen, in))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(in);
	}
	return pid;
}

/*
 * The BPF link that holds program prog_id on ifindex, if one does: its id, 0 when the
 * program went on over netlink (or the links cannot be listed).
 */
static uint32_t xdp_link_of(uint32_t prog_id, int ifindex)
{
	struct bpf_link_info info;
	uint32_t id = 0, len;
	int fd;

	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.type == BPF_LINK_TYPE_XDP &&
		    info.prog_id == prog_id && (int)info.xdp.ifindex == ifindex) {
			close(fd);
			return id;
		}
		close(fd);
	}
	return 0;
}

/*
 * Who has the interface, for a refusal: a program held by a link belongs to the process that
 * holds the link (taking it off over netlink fails, and would break that process if it did
 * not); one of ours over netlink was left by a pktbench that was killed.
 */
static void xdp_att_whose(const struct pb_xdp_att *a, char *buf, size_t len)
{
	uint32_t link = xdp_link_of(a->old_id, a->ifindex);
	char comm[32];
	pid_t pid;

	buf[0] = '\0';
	if (link) {
		pid = xdp_link_holder(link, comm, sizeof(comm));
		if (pid)
			snprintf(buf, len,
				 " (it is held by BPF link %u of a running process, %s pid %d%s; "
				 "stop that process first: --force cannot replace a program "
				 "held by a link)",
				 link, comm, (int)pid,
				 xdp_att_named_ours(a->old_id) ? ", a pktbench on this interface"
							       : "");
		else
			snprintf(buf, len,
				 " (it is held by BPF link %u, pinned or of a process this one "
				 "cannot see: `bpftool link show id %u`; --force cannot replace a "
				 "program held by a link)",
				 link, link);
	} else if (xdp_att_named_ours(a->old_id)) {
		snprintf(buf, len,
			 " (its name is one of pktbench's and no running process holds it: left "
			 "by an older pktbench that was killed? `ip link set dev %s xdp off` "
			 "removes it)",
			 a->ifname);
	}
}

int pb_xdp_att_check(struct pb_xdp_att *a, const char *who, const char *ifname, int ifindex,
		     bool force)
{
	char whose[256];

	int err;

	a->who = who;
	snprintf(a->ifname, sizeof(a->ifname), "%s", ifname);
	a->ifindex = ifindex;
	xdp_own_path(a);
	err = xdp_own_settle(a, false);
	if (err)
		return err == -EBUSY || err == -EEXIST ? -EEXIST : err;
	err = xdp_att_query(ifindex, &a->old_id, &a->old_mode);
	if (err) {
		pr_err("%s: cannot query the XDP program of %s: %s\n", who, ifname, strerror(-err));
		return err;
	}
	if (a->old_id && !force) {
		xdp_att_whose(a, whose, sizeof(whose));
		pr_err("%s: %s already has an XDP program (id %u, %s mode) and pktbench would "
		       "have to replace it; it is left alone%s%s\n",
		       who, ifname, a->old_id, pb_xdp_mode_desc(a->old_mode), whose,
		       strstr(whose, "BPF link") ? ""
						 : ". --force replaces it while pktbench runs and "
						   "puts it back afterwards");
		return -EEXIST;
	}
	if (a->old_id && a->old_mode == XDP_FLAGS_HW_MODE) {
		pr_err("%s: %s has an offloaded XDP program (id %u); pktbench does not replace "
		       "offloaded programs, even with --force\n",
		       who, ifname, a->old_id);
		return -EEXIST;
	}
	return 0;
}

/*
 * Ours on the interface: through a BPF link, which the kernel detaches when its last fd
 * closes, however the process ends. A kernel without XDP links (before 5.9: EINVAL) gets a
 * netlink attachment, with an owner record so that the next start can take it off.
 */
static int xdp_att_link(struct pb_xdp_att *a, int prog_fd, uint32_t mode)
{
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .flags = mode);
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int err;

	a->link_fd = bpf_link_create(prog_fd, a->ifindex, BPF_XDP, &lopts);
	if (a->link_fd >= 0)
		return 0;
	err = a->link_fd;
	a->link_fd = -1;
	if (err != -EINVAL)
		return err;
	err = bpf_obj_get_info_by_fd(prog_fd, &info, &len);
	if (err)
		return err;
	err = xdp_own_take(a, info.id, a->old_id, a->old_fd);
	if (err)
		return err;
	err = bpf_xdp_attach(a->ifindex, prog_fd, mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	if (err) {
		if (!a->old_id)
			xdp_own_release(a);
		return err;
	}
	pr_info("%s: this kernel has no XDP links: attached to %s over netlink; if pktbench is "
		"killed, its next start on %s takes it off\n",
		a->who, a->ifname, a->ifname);
	a->netlink = true;
	return 0;
}

static void xdp_att_fail_msg(const struct pb_xdp_att *a, uint32_t mode, int err)
{
	pr_err("%s: cannot attach an XDP program to %s in %s mode: %s%s\n", a->who, a->ifname,
	       pb_xdp_mode_desc(mode), strerror(-err),
	       mode == XDP_FLAGS_DRV_MODE ? " (does the driver have native XDP? try "
					    "--xdp-mode generic)"
					  : "");
}

/*
 * --force: the program there is pinned and recorded, taken off (over netlink, as it was
 * attached: a BPF link cannot replace it) and ours goes on through a link. Not an atomic
 * swap: for a moment neither runs (on a real NIC each change may also reset the link).
 */
static int xdp_att_force(struct pb_xdp_att *a, int prog_fd, uint32_t mode, bool quiet)
{
	int err, err2;

	if (a->old_fd < 0) {
		a->old_fd = bpf_prog_get_fd_by_id(a->old_id);
		if (a->old_fd < 0) {
			err = -errno;
			a->old_fd = -1;
			pr_err("%s: --force: cannot hold XDP program id %u of %s: %s\n", a->who,
			       a->old_id, a->ifname, strerror(-err));
			return err;
		}
	}
	err = xdp_own_take(a, 0, a->old_id, a->old_fd);
	if (err)
		return err;
	err = xdp_att_take_off(a->ifindex, a->old_fd, a->old_mode);
	if (err) {
		char whose[256];

		xdp_att_whose(a, whose, sizeof(whose));
		pr_err("%s: --force: cannot take XDP program id %u off %s: %s%s\n", a->who,
		       a->old_id, a->ifname, strerror(-err), whose);
		xdp_own_release(a);
		a->refused = true;
		return err;
	}
	err = xdp_att_link(a, prog_fd, mode);
	if (!err)
		return 0;
	if (!quiet)
		xdp_att_fail_msg(a, mode, err);
	err2 = bpf_xdp_attach(a->ifindex, a->old_fd, a->old_mode | XDP_FLAGS_UPDATE_IF_NOEXIST,
			      NULL);
	if (err2)
		pr_err("%s: cannot put XDP program id %u back on %s: %s; it stays pinned: "
		       "`pktbench receive --restore %s` puts it back\n",
		       a->who, a->old_id, a->ifname, strerror(-err2), a->ifname);
	else
		xdp_own_release(a);
	return err;
}

int pb_xdp_att_attach(struct pb_xdp_att *a, int prog_fd, uint32_t mode, bool quiet)
{
	int err;

	a->prog_fd = prog_fd;
	/* undone in this namespace, wherever the detach is called from */
	if (a->netns_fd < 0)
		a->netns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (!a->old_id) {
		err = xdp_att_link(a, prog_fd, mode);
		if (err) {
			if (!quiet)
				xdp_att_fail_msg(a, mode, err);
			return err;
		}
		a->mode = mode;
		return 0;
	}
	err = xdp_att_force(a, prog_fd, mode, quiet);
	if (err)
		return err;
	a->mode = mode;
	a->replaced = true;
	pr_warn("%s: --force: XDP program id %u (%s mode) is off %s while pktbench runs and "
		"goes back when it ends; if pktbench is killed it stays pinned, and `pktbench "
		"receive --restore %s` (or pktbench's next start there) puts it back\n",
		a->who, a->old_id, pb_xdp_mode_desc(a->old_mode), a->ifname, a->ifname);
	return 0;
}

/* Our netlink attachment off and the replaced program back, in the attachment's namespace. */
static int xdp_att_undo(struct pb_xdp_att *a)
{
	int err = 0;

	if (a->netlink) {
		err = xdp_att_take_off(a->ifindex, a->prog_fd, a->mode);
		if (err)
			pr_err("%s: cannot take our XDP program off %s: %s\n", a->who, a->ifname,
			       strerror(-err));
		a->netlink = false;
	}
	if (a->replaced)
		err = bpf_xdp_attach(a->ifindex, a->old_fd,
				     a->old_mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	return err;
}

static int xdp_att_undo_in_ns(struct pb_xdp_att *a)
{
	int here = -1, err;

	if (a->netns_fd >= 0) {
		here = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (here < 0 || setns(a->netns_fd, CLONE_NEWNET)) {
			err = -errno;
			if (here >= 0)
				close(here);
			return err;
		}
	}
	err = xdp_att_undo(a);
	if (here >= 0) {
		if (setns(here, CLONE_NEWNET))
			pr_err("%s: cannot return to the caller's network namespace: %s\n", a->who,
			       strerror(errno));
		close(here);
	}
	return err;
}

void pb_xdp_att_detach(struct pb_xdp_att *a)
{
	int err = 0;

	if (a->link_fd >= 0) {
		bpf_link_detach(a->link_fd);
		close(a->link_fd);
		a->link_fd = -1;
	}
	if (a->replaced || a->netlink) {
		err = xdp_att_undo_in_ns(a);
		if (err && a->replaced)
			pr_err("%s: cannot put XDP program id %u back on %s (%s mode): %s; it "
			       "stays "
			       "pinned: `pktbench receive --restore %s` puts it back\n",
			       a->who, a->old_id, a->ifname, pb_xdp_mode_desc(a->old_mode),
			       strerror(-err), a->ifname);
		a->replaced = false;
	}
	if (!err)
		xdp_own_release(a);
	a->recorded = false;
	if (a->old_fd >= 0)
		close(a->old_fd);
	a->old_fd = -1;
	if (a->netns_fd >= 0)
		close(a->netns_fd);
	a->netns_fd = -1;
	a->mode = 0;
	a->old_id = 0;
}

int pb_xdp_att_restore(const char *who, const char *ifname, int ifindex)
{
	struct pb_xdp_att a = PB_XDP_ATT_INIT;

	a.who = who;
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	a.ifindex = ifindex;
	xdp_own_path(&a);
	return xdp_own_settle(&a, true);
}

bool pb_xdp_has_frags(void)
{
	static int have = -1;

	/* the flag and the helper came in one release: a kernel with the one has the other */
	if (have < 0)
		have = libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_xdp_get_buff_len,
					       NULL) > 0;
	return have;
}

bool pb_xdp_frags(struct bpf_program *prog)
{
	return pb_xdp_has_frags() &&
	       !bpf_program__set_flags(prog, bpf_program__flags(prog) | BPF_F_XDP_HAS_FRAGS);
}
