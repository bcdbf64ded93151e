// SPDX-License-Identifier: MIT
/*
 * What a run's figures depend on, read from sysfs, procfs and ethtool (envinfo.h). Every
 * reader takes a root so that a test can hand it a made-up tree; every failure becomes the
 * field's "unknown (why)".
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/ethtool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "envinfo.h"
#include "netif.h"
#include "place.h"

static struct pb_envinfo_field *pb_envinfo_slot(struct pb_envinfo *e, const char *key)
{
	unsigned int i;

	for (i = 0; i < e->n; i++)
		if (!strcmp(e->f[i].key, key))
			return &e->f[i];
	if (e->n >= PB_ENVINFO_MAX)
		return NULL; /* a full set drops the rest: PB_ENVINFO_MAX leaves room */
	snprintf(e->f[e->n].key, sizeof(e->f[e->n].key), "%s", key);
	return &e->f[e->n++];
}

static void pb_envinfo_vset(struct pb_envinfo *e, const char *key, bool known, const char *fmt,
			    va_list ap)
{
	struct pb_envinfo_field *f = pb_envinfo_slot(e, key);
	size_t off = 0;

	if (!f)
		return;
	f->known = known;
	if (!known)
		off = (size_t)snprintf(f->val, sizeof(f->val), "unknown (");
	vsnprintf(f->val + off, sizeof(f->val) - off, fmt, ap);
	if (!known) {
		off = strnlen(f->val, sizeof(f->val) - 2);
		f->val[off] = ')';
		f->val[off + 1] = '\0';
	}
}

void pb_envinfo_set(struct pb_envinfo *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_envinfo_vset(e, key, true, fmt, ap);
	va_end(ap);
}

void pb_envinfo_unknown(struct pb_envinfo *e, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pb_envinfo_vset(e, key, false, fmt, ap);
	va_end(ap);
}

const struct pb_envinfo_field *pb_envinfo_get(const struct pb_envinfo *e, const char *key)
{
	unsigned int i;

	for (i = 0; i < e->n; i++)
		if (!strcmp(e->f[i].key, key))
			return &e->f[i];
	return NULL;
}

/*
 * The first line of root/rel into buf, without its line end and trailing blanks; a control
 * byte becomes '?', since a file's text ends up in a terminal. 0 or -errno.
 */
static int pb_read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	size_t n, i;
	FILE *f;

	buf[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = '\0';
		fclose(f);
		return -ENODATA;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	for (i = 0; i < n; i++)
		if (iscntrl((unsigned char)buf[i]) && buf[i] != '\t')
			buf[i] = '?';
	return 0;
}

/* key from root/rel, or unknown with the file and the error. */
static void pb_envinfo_file(struct pb_envinfo *e, const char *key, const char *root,
			    const char *rel)
{
	char buf[PB_ENVINFO_VAL];
	int err = pb_read_line(root, rel, buf, sizeof(buf));

	if (err)
		pb_envinfo_unknown(e, key, "/%s: %s", rel, strerror(-err));
	else
		pb_envinfo_set(e, key, "%s", buf);
}

/*
 * Appends "s" to buf at *off, with ", " before all but the first; a text that does not fit
 * ends in "...".
 */
static void pb_append(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void pb_append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len - 1)
		return;
	if (*off)
		*off += (size_t)snprintf(buf + *off, len - *off, ", ");
	if (*off >= len - 1)
		goto full;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *off)
		goto full;
	*off += (size_t)n;
	return;
full:
	*off = len - 1;
	if (len > 4)
		memcpy(buf + len - 4, "...", 4);
}

struct pb_gov_ctx {
	const char *root;
	char *buf;
	size_t len, off;
	char first[64], first_err[160];
	bool differ;
	int nread, n;
};

static void pb_gov_one(int cpu, void *arg)
{
	struct pb_gov_ctx *g = arg;
	char rel[96], gov[64];
	int err;

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	err = pb_read_line(g->root, rel, gov, sizeof(gov));
	g->n++;
	if (err) {
		if (!g->first_err[0])
			snprintf(g->first_err, sizeof(g->first_err), "/%s: %s", rel,
				 strerror(-err));
		snprintf(gov, sizeof(gov), "?");
	} else {
		g->nread++;
	}
	if (g->n == 1)
		snprintf(g->first, sizeof(g->first), "%s", gov);
	else if (strcmp(g->first, gov))
		g->differ = true;
	pb_append(g->buf, g->len, &g->off, "cpu%d %s", cpu, gov);
}

/* One word when every online CPU has the same governor; else each CPU's. */
static void pb_envinfo_governor(struct pb_envinfo *e, const char *root)
{
	char online[256], list[PB_ENVINFO_VAL] = "";
	struct pb_gov_ctx g = { .root = root, .buf = list, .len = sizeof(list) };
	int err = pb_read_line(root, "sys/devices/system/cpu/online", online, sizeof(online));

	if (err) {
		pb_envinfo_unknown(e, "cpu_governor", "/sys/devices/system/cpu/online: %s",
				   strerror(-err));
		return;
	}
	if (pb_cpulist_each(online, 4096, pb_gov_one, &g) <= 0) {
		pb_envinfo_unknown(e, "cpu_governor", "/sys/devices/system/cpu/online: '%s'",
				   online);
		return;
	}
	if (!g.nread)
		pb_envinfo_unknown(e, "cpu_governor", "no cpufreq: %s", g.first_err);
	else if (!g.differ)
		pb_envinfo_set(e, "cpu_governor", "%s", g.first);
	else
		pb_envinfo_set(e, "cpu_governor", "%s", list);
}

static int pb_name_sort(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int pb_not_dot(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Each file of the vulnerabilities folder as mitigation.NAME, in name order. */
static void pb_envinfo_mitigations(struct pb_envinfo *e, const char *root)
{
	static const char dir[] = "sys/devices/system/cpu/vulnerabilities";
	struct dirent **names = NULL;
	char path[512], rel[256], key[PB_ENVINFO_KEY];
	int n, i;

	snprintf(path, sizeof(path), "%s/%s", root, dir);
	n = scandir(path, &names, pb_not_dot, pb_name_sort);
	if (n <= 0) {
		pb_envinfo_unknown(e, "mitigations", "/%s: %s", dir,
				   n < 0 ? strerror(errno) : "empty");
		free(names);
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "mitigation.%.30s", names[i]->d_name);
		snprintf(rel, sizeof(rel), "%s/%.100s", dir, names[i]->d_name);
		pb_envinfo_file(e, key, root, rel);
		free(names[i]);
	}
	free(names);
}

static bool pb_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * IRQ irq's CPUs as "cpus E" where it is delivered (effective_affinity_list), with "(allowed
 * A)" when that is wider, into buf: an IRQ allowed on every CPU still runs on one.
 */
static void pb_irq_cpus(const char *root, const char *irq, char *buf, size_t len)
{
	char rel[96], aff[256], eff[256];
	bool have_aff, have_eff;

	snprintf(rel, sizeof(rel), "proc/irq/%.20s/smp_affinity_list", irq);
	have_aff = !pb_read_line(root, rel, aff, sizeof(aff));
	snprintf(rel, sizeof(rel), "proc/irq/%.20s/effective_affinity_list", irq);
	have_eff = !pb_read_line(root, rel, eff, sizeof(eff)) && eff[0];
	if (have_eff && have_aff && strcmp(eff, aff))
		snprintf(buf, len, "irq %s cpus %s (allowed %s)", irq, eff, aff);
	else
		snprintf(buf, len, "irq %s cpus %s", irq, have_eff ? eff : have_aff ? aff : "?");
}

/*
 * The interface's IRQs (its device's MSI vectors, else its one legacy IRQ) and the CPUs each
 * runs on. A virtual interface has no device, so no IRQs: its receive work runs where
 * its sender's softirq does.
 */
static void pb_envinfo_irqs(struct pb_envinfo *e, const char *root, const char *iface,
			    bool in_sysfs)
{
	struct dirent **names = NULL;
	char path[512], rel[256], aff[256], out[PB_ENVINFO_VAL] = "";
	size_t off = 0;
	int n, i, err;

	if (!in_sysfs) {
		pb_envinfo_unknown(e, "iface.irq_affinity",
				   "no /sys/class/net/%s: another network namespace than sysfs "
				   "shows",
				   iface);
		return;
	}
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/device", root, iface);
	if (access(path, F_OK)) {
		pb_envinfo_set(e, "iface.irq_affinity", "none (no device: a virtual interface)");
		return;
	}
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/device/msi_irqs", root, iface);
	n = scandir(path, &names, pb_not_dot, pb_name_sort);
	if (n <= 0) {
		free(names);
		names = NULL;
		snprintf(rel, sizeof(rel), "sys/class/net/%s/device/irq", iface);
		err = pb_read_line(root, rel, aff, sizeof(aff));
		if (err || !pb_all_digits(aff) || !strcmp(aff, "0")) {
			pb_envinfo_unknown(e, "iface.irq_affinity", "no MSI IRQs and no /%s", rel);
			return;
		}
		pb_irq_cpus(root, aff, out, sizeof(out));
		pb_envinfo_set(e, "iface.irq_affinity", "%s", out);
		return;
	}
	/* numeric order: 9 before 10 */
	for (i = 0; i < n; i++)
		for (int j = i; j > 0 && atol(names[j]->d_name) < atol(names[j - 1]->d_name); j--) {
			struct dirent *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		if (pb_all_digits(names[i]->d_name)) {
			pb_irq_cpus(root, names[i]->d_name, aff, sizeof(aff));
			pb_append(out, sizeof(out), &off, "%s", aff);
		}
		free(names[i]);
	}
	free(names);
	pb_envinfo_set(e, "iface.irq_affinity", "%s", out);
}

/*
 * The CPU a task last ran on: field 39 of /proc/PID/stat, counted after the ')' that ends
 * its name (which may hold blanks and parentheses). -1 when the text is not one.
 */
static int pb_stat_cpu(const char *stat)
{
	const char *p = strrchr(stat, ')');
	long v;
	int field = 2;
	char *end;

	if (!p)
		return -1;
	p++;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (++field == 39) {
			v = strtol(p, &end, 10);
			return end == p || v < 0 || v > 65535 ? -1 : (int)v;
		}
		p += strcspn(p, " ");
	}
	return -1;
}

/* Cpus_allowed_list from /proc/PID/status into buf ("?" when not there). */
static void pb_status_allowed(const char *root, const char *pid, char *buf, size_t len)
{
	char path[512], line[512];
	FILE *f;

	snprintf(buf, len, "?");
	snprintf(path, sizeof(path), "%s/proc/%s/status", root, pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			char *v = line + 18;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(buf, len, "%.*s", (int)strcspn(v, "\r"), v);
			break;
		}
	}
	fclose(f);
}

/*
 * Threaded NAPI: the interface's kthreads (named napi/IFACE-ID), the CPU each last ran on and
 * where it may run; they compete with the sender for a CPU.
 */
static void pb_envinfo_napi_threads(struct pb_envinfo *e, const char *root, const char *iface)
{
	const struct pb_envinfo_field *thr = pb_envinfo_get(e, "iface.napi_threaded");
	char path[512], rel[128], comm[64], stat[1024], allowed[128], prefix[32];
	char out[PB_ENVINFO_VAL] = "";
	struct dirent *d;
	size_t off = 0, plen;
	DIR *dir;
	int nfound = 0, cpu;

	plen = (size_t)snprintf(prefix, sizeof(prefix), "napi/%s-", iface);
	snprintf(path, sizeof(path), "%s/proc", root);
	dir = opendir(path);
	if (!dir) {
		pb_envinfo_unknown(e, "iface.napi_threads", "/proc: %s", strerror(errno));
		return;
	}
	while ((d = readdir(dir))) {
		if (!pb_all_digits(d->d_name) || strlen(d->d_name) > 10)
			continue;
		snprintf(rel, sizeof(rel), "proc/%s/comm", d->d_name);
		if (pb_read_line(root, rel, comm, sizeof(comm)) || strncmp(comm, prefix, plen))
			continue;
		snprintf(rel, sizeof(rel), "proc/%s/stat", d->d_name);
		cpu = pb_read_line(root, rel, stat, sizeof(stat)) ? -1 : pb_stat_cpu(stat);
		pb_status_allowed(root, d->d_name, allowed, sizeof(allowed));
		if (cpu < 0)
			pb_append(out, sizeof(out), &off, "%s on cpu ? (allowed %s)", comm, allowed);
		else
			pb_append(out, sizeof(out), &off, "%s on cpu %d (allowed %s)", comm, cpu,
				  allowed);
		nfound++;
	}
	closedir(dir);
	if (nfound)
		pb_envinfo_set(e, "iface.napi_threads", "%s", out);
	else if (thr && thr->known && !strcmp(thr->val, "0"))
		pb_envinfo_set(e, "iface.napi_threads", "none (threaded NAPI off)");
	else
		pb_envinfo_set(e, "iface.napi_threads", "none found (no napi/%s-* thread)", iface);
}

void pb_envinfo_read(struct pb_envinfo *e, const char *root, const char *iface)
{
	char path[512], rel[160];
	bool in_sysfs;

	pb_envinfo_file(e, "kernel_release", root, "proc/sys/kernel/osrelease");
	pb_envinfo_file(e, "cpus_online", root, "sys/devices/system/cpu/online");
	pb_envinfo_governor(e, root);
	pb_envinfo_file(e, "busy_poll_us", root, "proc/sys/net/core/busy_poll");
	pb_envinfo_file(e, "busy_read_us", root, "proc/sys/net/core/busy_read");
	pb_envinfo_mitigations(e, root);
	if (!iface || !iface[0])
		return;
	snprintf(path, sizeof(path), "%s/sys/class/net/%s", root, iface);
	in_sysfs = !access(path, F_OK);
	if (in_sysfs) {
		snprintf(rel, sizeof(rel), "sys/class/net/%s/threaded", iface);
		pb_envinfo_file(e, "iface.napi_threaded", root, rel);
		snprintf(rel, sizeof(rel), "sys/class/net/%s/napi_defer_hard_irqs", iface);
		pb_envinfo_file(e, "iface.napi_defer_hard_irqs", root, rel);
		snprintf(rel, sizeof(rel), "sys/class/net/%s/gro_flush_timeout", iface);
		pb_envinfo_file(e, "iface.gro_flush_timeout_ns", root, rel);
	} else {
		static const char *const keys[] = { "iface.napi_threaded",
						    "iface.napi_defer_hard_irqs",
						    "iface.gro_flush_timeout_ns" };

		for (unsigned int i = 0; i < 3; i++)
			pb_envinfo_unknown(e, keys[i],
					   "no /sys/class/net/%s: another network namespace than "
					   "sysfs shows",
					   iface);
	}
	pb_envinfo_irqs(e, root, iface, in_sysfs);
	pb_envinfo_napi_threads(e, root, iface);
}

int pb_envinfo_read_netns(struct pb_envinfo *e, const char *iface)
{
	struct pb_envinfo *got = NULL;
	size_t done = 0;
	ssize_t n;
	int fds[2], status = 0, err = 0;
	pid_t pid;

	got = calloc(1, sizeof(*got));
	if (!got)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC)) {
		free(got);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (!pid) {
		/* as ip netns exec does: this namespace's sysfs, in a mount namespace of our own */
		close(fds[0]);
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount("sysfs", "/sys", "sysfs", 0, NULL))
			_exit(1);
		pb_envinfo_read(got, "/", iface);
		for (done = 0; done < sizeof(*got); done += (size_t)n) {
			n = write(fds[1], (char *)got + done, sizeof(*got) - done);
			if (n <= 0)
				_exit(2);
		}
		_exit(0);
	}
	close(fds[1]);
	fds[1] = -1;
	while (done < sizeof(*got)) {
		n = read(fds[0], (char *)got + done, sizeof(*got) - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			err = -errno;
			goto out;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) || done != sizeof(*got) ||
	    got->n > PB_ENVINFO_MAX) {
		err = -EIO;
		goto out;
	}
	for (unsigned int i = 0; i < got->n; i++) {
		struct pb_envinfo_field *f;

		got->f[i].key[PB_ENVINFO_KEY - 1] = '\0';
		got->f[i].val[PB_ENVINFO_VAL - 1] = '\0';
		f = pb_envinfo_slot(e, got->f[i].key);
		if (f)
			*f = got->f[i];
	}
out:
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	free(got);
	return err;
}

/* ---- ethtool */

void pb_envinfo_fmt_ring(const struct ethtool_ringparam *r, char *buf, size_t len)
{
	snprintf(buf, len, "rx %" PRIu32 " (max %" PRIu32 "), tx %" PRIu32 " (max %" PRIu32 ")",
		 r->rx_pending, r->rx_max_pending, r->tx_pending, r->tx_max_pending);
}

void pb_envinfo_fmt_channels(const struct ethtool_channels *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "rx %" PRIu32 ", tx %" PRIu32 ", other %" PRIu32 ", combined %" PRIu32
		 " (max %" PRIu32 ")",
		 c->rx_count, c->tx_count, c->other_count, c->combined_count, c->max_combined);
}

void pb_envinfo_fmt_coalesce(const struct ethtool_coalesce *c, char *buf, size_t len)
{
	snprintf(buf, len,
		 "rx-usecs %" PRIu32 ", rx-frames %" PRIu32 ", tx-usecs %" PRIu32
		 ", tx-frames %" PRIu32 ", adaptive-rx %s, adaptive-tx %s",
		 c->rx_coalesce_usecs, c->rx_max_coalesced_frames, c->tx_coalesce_usecs,
		 c->tx_max_coalesced_frames, c->use_adaptive_rx_coalesce ? "on" : "off",
		 c->use_adaptive_tx_coalesce ? "on" : "off");
}

/* ethtool -k: the names of the features that are active, in the driver's order. */
static int pb_envinfo_features(int fd, const char *iface, char *buf, size_t len)
{
	struct ethtool_gstrings *names = NULL;
	struct ethtool_gfeatures *feat = NULL;
	uint32_t nblocks, i;
	size_t off = 0;
	int err;

	err = pb_ethtool_strings(fd, iface, ETH_SS_FEATURES, &names);
	if (err)
		goto out;
	nblocks = (names->len + 31) / 32;
	feat = calloc(1, sizeof(*feat) + nblocks * sizeof(feat->features[0]));
	if (!feat) {
		err = -ENOMEM;
		goto out;
	}
	feat->cmd = ETHTOOL_GFEATURES;
	feat->size = nblocks;
	err = pb_ethtool(fd, iface, feat);
	if (err)
		goto out;
	buf[0] = '\0';
	for (i = 0; i < names->len; i++)
		if (feat->features[i / 32].active & (1u << (i % 32)))
			pb_append(buf, len, &off, "%.*s", ETH_GSTRING_LEN,
				  (const char *)names->data + (size_t)i * ETH_GSTRING_LEN);
	if (!off)
		snprintf(buf, len, "none");
out:
	free(feat);
	free(names);
	return err;
}

void pb_envinfo_read_ethtool(struct pb_envinfo *e, const char *iface)
{
	struct ethtool_ringparam ring = { .cmd = ETHTOOL_GRINGPARAM };
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ethtool_coalesce co = { .cmd = ETHTOOL_GCOALESCE };
	char buf[PB_ENVINFO_VAL];
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = errno;
		pb_envinfo_unknown(e, "iface.ring", "socket: %s", strerror(err));
		pb_envinfo_unknown(e, "iface.channels", "socket: %s", strerror(err));
		pb_envinfo_unknown(e, "iface.coalesce", "socket: %s", strerror(err));
		pb_envinfo_unknown(e, "iface.offloads", "socket: %s", strerror(err));
		return;
	}
	err = pb_ethtool(fd, iface, &ring);
	if (err) {
		pb_envinfo_unknown(e, "iface.ring", "ETHTOOL_GRINGPARAM: %s", strerror(-err));
	} else {
		pb_envinfo_fmt_ring(&ring, buf, sizeof(buf));
		pb_envinfo_set(e, "iface.ring", "%s", buf);
	}
	err = pb_ethtool(fd, iface, &ch);
	if (err) {
		pb_envinfo_unknown(e, "iface.channels", "ETHTOOL_GCHANNELS: %s", strerror(-err));
	} else {
		pb_envinfo_fmt_channels(&ch, buf, sizeof(buf));
		pb_envinfo_set(e, "iface.channels", "%s", buf);
	}
	err = pb_ethtool(fd, iface, &co);
	if (err) {
		pb_envinfo_unknown(e, "iface.coalesce", "ETHTOOL_GCOALESCE: %s", strerror(-err));
	} else {
		pb_envinfo_fmt_coalesce(&co, buf, sizeof(buf));
		pb_envinfo_set(e, "iface.coalesce", "%s", buf);
	}
	err = pb_envinfo_features(fd, iface, buf, sizeof(buf));
	if (err)
		pb_envinfo_unknown(e, "iface.offloads", "ETHTOOL_GFEATURES: %s", strerror(-err));
	else
		pb_envinfo_set(e, "iface.offloads", "%s", buf);
	close(fd);
}
