// SPDX-License-Identifier: MIT
/*
 * The sender's default placement (place.h): the rule, pure, and the topology it reads.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "place.h"

/* a before b in the rule's order (place.h): true when CPU a is the better place */
static bool pb_place_before(const struct pb_topo *t, unsigned int a, unsigned int b)
{
	const struct pb_topo_cpu *x = &t->cpu[a], *y = &t->cpu[b];
	double bx = x->busy < 0 ? 0 : x->busy, by = y->busy < 0 ? 0 : y->busy;

	if (x->reserved != y->reserved)
		return !x->reserved;
	if (x->claimed != y->claimed)
		return !x->claimed;
	if (x->napi_thread != y->napi_thread)
		return !x->napi_thread;
	if (t->has_irqs && x->iface_irq != y->iface_irq)
		return x->iface_irq;
	if (bx + PB_PLACE_BUSY_EPS < by || by + PB_PLACE_BUSY_EPS < bx)
		return bx < by;
	return a > b;
}

/*
 * What put the first choice ahead of the second, or why it stands alone: short, since it is
 * a line on the user's terminal ("least busy (3 %, cpu 0 21 %)").
 */
static void pb_place_why(const struct pb_topo *t, const unsigned int *order, unsigned int n,
			 char *why, size_t len)
{
	const struct pb_topo_cpu *x = &t->cpu[order[0]], *y = n > 1 ? &t->cpu[order[1]] : NULL;

	if (!y)
		snprintf(why, len, "the only CPU allowed");
	else if (x->reserved != y->reserved)
		snprintf(why, len, "cpu %u is the lab DUT's", order[1]);
	else if (x->claimed != y->claimed)
		snprintf(why, len, "cpu %u is another pktbench's", order[1]);
	else if (x->napi_thread != y->napi_thread)
		snprintf(why, len, "NAPI thread on cpu %u", order[1]);
	else if (t->has_irqs && x->iface_irq != y->iface_irq)
		snprintf(why, len, "the interface's IRQs go there");
	else if (x->busy >= 0 && y->busy >= 0 && x->busy + PB_PLACE_BUSY_EPS < y->busy)
		snprintf(why, len, "least busy (%.0f %%, cpu %u %.0f %%)", 100 * x->busy, order[1],
			 100 * y->busy);
	else
		snprintf(why, len, "CPUs alike: the highest");
}

int pb_place(const struct pb_topo *t, uint32_t streams, uint32_t *cpus, char *why, size_t len)
{
	unsigned int order[PB_PLACE_MAX_CPUS], n = 0, i, j, k;

	for (i = 0; i < t->ncpus && i < PB_PLACE_MAX_CPUS; i++)
		if (t->cpu[i].usable)
			order[n++] = i;
	if (!n) {
		snprintf(why, len, "no CPU this process may use");
		return -ENODEV;
	}
	/* insertion sort: n is the CPUs of one machine */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && pb_place_before(t, order[j], order[j - 1]); j--) {
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
	pb_place_why(t, order, n, why, len);
	if (streams < n)
		n = streams ? streams : 1;
	for (i = 0; i < n; i++)
		cpus[i] = order[i];
	return (int)n;
}

/* dir/cpuN, opened (created) to be flock'ed; -1 when it cannot be */
static int pb_claim_open(const char *dir, unsigned int cpu)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/cpu%u", dir, cpu);
	return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
}

int pb_claims_begin(const char *dir, struct pb_topo *t)
{
	char path[256];
	unsigned int c;
	int fd, cfd;

	/* dir and each directory above it (/run/pktbench, then its cpus/), as mkdir -p */
	snprintf(path, sizeof(path), "%s/", dir);
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	snprintf(path, sizeof(path), "%s/place.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/*
	 * held for a moment by each placing process: wait for it, a second at most (a holder
	 * stopped mid-placement must not stop every sender after it)
	 */
	for (c = 0; flock(fd, LOCK_EX | LOCK_NB); c++) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || c == 1000) {
			close(fd);
			return c == 1000 ? -ETIMEDOUT : -errno;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	for (c = 0; c < t->ncpus && c < PB_PLACE_MAX_CPUS; c++) {
		if (!t->cpu[c].usable)
			continue;
		cfd = pb_claim_open(dir, c);
		if (cfd < 0)
			continue;
		/* a holder's shared lock refuses this one: someone sends from c */
		if (flock(cfd, LOCK_EX | LOCK_NB))
			t->cpu[c].claimed = errno == EWOULDBLOCK;
		close(cfd); /* and with it the lock it got */
	}
	return fd;
}

int pb_claims_take(const char *dir, const uint32_t *cpus, int n, int *fds)
{
	int i, j, got = 0, fd;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && cpus[j] != cpus[i]; j++)
			;
		if (j < i) /* two streams on one CPU: one claim */
			continue;
		fd = pb_claim_open(dir, cpus[i]);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_SH | LOCK_NB)) {
			close(fd);
			continue;
		}
		fds[got++] = fd;
	}
	return got;
}

void pb_claims_end(int fd)
{
	if (fd >= 0)
		close(fd);
}

/*
 * The per-CPU lines of a /proc/stat text: for CPU c, its total and idle (idle + iowait)
 * ticks. Returns how many were parsed; lines that are not "cpuN" and 4 numbers or more are
 * passed over.
 */
static unsigned int pb_stat_parse(const char *s, unsigned long long *total,
				  unsigned long long *idle, bool *seen, unsigned int max)
{
	unsigned long long v[8];
	unsigned int got = 0, nv;
	unsigned long c;
	char *end;

	while (*s) {
		const char *line = s, *p;

		s += strcspn(s, "\n");
		if (*s)
			s++;
		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		errno = 0;
		c = strtoul(line + 3, &end, 10);
		if (errno || c >= max || *end != ' ')
			continue;
		p = end;
		for (nv = 0; nv < 8; nv++) {
			while (*p == ' ')
				p++;
			if (!isdigit((unsigned char)*p))
				break;
			v[nv] = strtoull(p, &end, 10);
			p = end;
		}
		if (nv < 4)
			continue;
		/*
		 * user nice system idle iowait irq softirq steal (guest is inside user already).
		 * Niced work (a build at nice 19) yields the CPU to a sender at nice 0: it counts
		 * as idle; interrupts, softirqs, a hypervisor's steal and other tasks do not.
		 */
		total[c] = 0;
		for (unsigned int i = 0; i < nv; i++)
			total[c] += v[i];
		idle[c] = v[1] + v[3] + (nv > 4 ? v[4] : 0);
		seen[c] = true;
		got++;
	}
	return got;
}

int pb_topo_busy(const char *a, const char *b, struct pb_topo *t)
{
	static unsigned long long ta[PB_PLACE_MAX_CPUS], ia[PB_PLACE_MAX_CPUS];
	static unsigned long long tb[PB_PLACE_MAX_CPUS], ib[PB_PLACE_MAX_CPUS];
	bool sa[PB_PLACE_MAX_CPUS] = { false }, sb[PB_PLACE_MAX_CPUS] = { false };
	unsigned int c;
	int n = 0;

	pb_stat_parse(a, ta, ia, sa, PB_PLACE_MAX_CPUS);
	pb_stat_parse(b, tb, ib, sb, PB_PLACE_MAX_CPUS);
	for (c = 0; c < t->ncpus && c < PB_PLACE_MAX_CPUS; c++) {
		t->cpu[c].busy = -1;
		if (!sa[c] || !sb[c] || tb[c] <= ta[c] || ib[c] < ia[c] ||
		    ib[c] - ia[c] > tb[c] - ta[c])
			continue;
		t->cpu[c].busy = 1.0 - (double)(ib[c] - ia[c]) / (double)(tb[c] - ta[c]);
		n++;
	}
	return n;
}

/* The first line of root/rel into buf, its line end cut. 0 or -errno. */
static int pb_topo_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

/*
 * A CPU list as sysfs writes it ("0-3,8"): calls fn for each CPU up to max. The count, or
 * -EINVAL for text that is not one.
 */
int pb_cpulist_each(const char *s, int max, void (*fn)(int cpu, void *arg), void *arg)
{
	long lo, hi, c;
	char *end;
	int n = 0;

	while (*s) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		lo = strtol(s, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			hi = strtol(end + 1, &end, 10);
		}
		if (hi < lo || hi >= max)
			return -EINVAL;
		for (c = lo; c <= hi; c++, n++)
			fn((int)c, arg);
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		s = end;
	}
	return n;
}

struct pb_topo_mark_ctx {
	struct pb_topo *t;
	size_t flag;
};

static void pb_topo_mark_one(int cpu, void *arg)
{
	struct pb_topo_mark_ctx *m = arg;

	*(bool *)((char *)&m->t->cpu[cpu] + m->flag) = true;
	if ((unsigned int)cpu >= m->t->ncpus && m->flag == offsetof(struct pb_topo_cpu, usable))
		m->t->ncpus = (unsigned int)cpu + 1;
}

/* Sets flag (an offset into struct pb_topo_cpu) on each CPU of a list "0-3,8"; -EINVAL. */
static int pb_topo_mark(struct pb_topo *t, const char *s, size_t flag)
{
	struct pb_topo_mark_ctx m = { t, flag };
	int n = pb_cpulist_each(s, PB_PLACE_MAX_CPUS, pb_topo_mark_one, &m);

	return n < 0 ? n : 0;
}

static bool pb_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* The interface's MSI IRQs' affinities, and its NAPI kthreads' (threaded NAPI). */
static void pb_topo_iface(struct pb_topo *t, const char *root, const char *iface)
{
	char path[512], rel[256], line[512], prefix[32];
	struct dirent *d;
	size_t plen;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/class/net/%s/device/msi_irqs", root, iface);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (!pb_digits(d->d_name) || strlen(d->d_name) > 10)
			continue;
		/* where it is delivered, which may be one of the CPUs it is allowed on */
		snprintf(rel, sizeof(rel), "proc/irq/%s/effective_affinity_list", d->d_name);
		if (pb_topo_line(root, rel, line, sizeof(line)) || !line[0]) {
			snprintf(rel, sizeof(rel), "proc/irq/%s/smp_affinity_list", d->d_name);
			if (pb_topo_line(root, rel, line, sizeof(line)))
				continue;
		}
		if (!pb_topo_mark(t, line, offsetof(struct pb_topo_cpu, iface_irq)))
			t->has_irqs = true;
	}
	if (dir)
		closedir(dir);

	plen = (size_t)snprintf(prefix, sizeof(prefix), "napi/%s-", iface);
	snprintf(path, sizeof(path), "%s/proc", root);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		if (!pb_digits(d->d_name) || strlen(d->d_name) > 10)
			continue;
		snprintf(rel, sizeof(rel), "proc/%s/comm", d->d_name);
		if (pb_topo_line(root, rel, line, sizeof(line)) || strncmp(line, prefix, plen))
			continue;
		snprintf(path, sizeof(path), "%s/proc/%s/status", root, d->d_name);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f)) {
			char *v = line + 18;

			if (strncmp(line, "Cpus_allowed_list:", 18))
				continue;
			v += strspn(v, " \t");
			v[strcspn(v, "\r\n")] = '\0';
			/* a thread allowed everywhere is pinned nowhere: it moves off the sender */
			{
				struct pb_topo m = { .ncpus = t->ncpus };
				unsigned int c, in = 0, usable = 0;

				if (pb_topo_mark(&m, v, offsetof(struct pb_topo_cpu, napi_thread)))
					break;
				for (c = 0; c < t->ncpus; c++) {
					usable += t->cpu[c].usable;
					in += t->cpu[c].usable && m.cpu[c].napi_thread;
				}
				if (in < usable)
					for (c = 0; c < t->ncpus; c++)
						t->cpu[c].napi_thread |= m.cpu[c].napi_thread;
			}
			break;
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
}

int pb_topo_stat(const char *root, char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/stat", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* pb_topo_read's and pb_topo_read_since's common part; first: NULL, or the first look. */
static int pb_topo_read_look(struct pb_topo *t, const char *root, const char *iface,
			     unsigned int look_ms, const char *first)
{
	static char a[65536], b[65536];
	char online[1024];
	unsigned int c;
	int err;

	memset(t, 0, sizeof(*t));
	err = pb_topo_line(root, "sys/devices/system/cpu/online", online, sizeof(online));
	if (err)
		return err;
	err = pb_topo_mark(t, online, offsetof(struct pb_topo_cpu, usable));
	if (err)
		return err;
	if (!strcmp(root, "/")) {
		cpu_set_t allowed;

		if (!sched_getaffinity(0, sizeof(allowed), &allowed))
			for (c = 0; c < t->ncpus; c++)
				t->cpu[c].usable &= CPU_ISSET(c, &allowed);
	}
	for (c = 0; c < t->ncpus; c++)
		t->cpu[c].busy = -1;
	if (iface && iface[0])
		pb_topo_iface(t, root, iface);
	if (first) {
		if (!pb_topo_stat(root, b, sizeof(b)))
			pb_topo_busy(first, b, t);
	} else if (look_ms && !pb_topo_stat(root, a, sizeof(a))) {
		struct timespec ts = { .tv_sec = look_ms / 1000,
				       .tv_nsec = (long)(look_ms % 1000) * 1000000L };

		nanosleep(&ts, NULL);
		if (!pb_topo_stat(root, b, sizeof(b)))
			pb_topo_busy(a, b, t);
	}
	return 0;
}

int pb_topo_read(struct pb_topo *t, const char *root, const char *iface, unsigned int look_ms)
{
	return pb_topo_read_look(t, root, iface, look_ms, NULL);
}

int pb_topo_read_since(struct pb_topo *t, const char *root, const char *iface, const char *first)
{
	return pb_topo_read_look(t, root, iface, 0, first);
}
