// SPDX-License-Identifier: MIT
/*
 * The namespace lab: two named netns and a veth pair between them, or three with a device
 * under test (a router or a bridge) in the middle, built without ip(8).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <net/if.h> /* before any linux/if.h: the uapi header defers to glibc's */
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/if_addr.h>
#include <linux/magic.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <netlink/netlink.h>
#include <netlink/addr.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/bridge.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/neighbour.h>
#include <netlink/route/route.h>

#include "lab.h"
#include "log.h"
#include "netif.h"

#define PB_NETNS_DIR   "/run/netns" /* where iproute2 looks, so `ip netns` sees the lab */
#define PB_LOCK_DIR    "/run/pktbench"
#define PB_NS_PREFIX   "pktbench-"
#define PB_ID_LEN      8
#define PB_USO_FEATURE "tx-udp-segmentation"
#define PB_GRO_FEATURE "rx-gro"

/*
 * Ownership, so that pb_lab_destroy() is safe on anything create left behind:
 * - create zeroes the lab and sets every fd to -1 before anything else, then fills lab->id;
 *   destroy does nothing while lab->id is empty, which covers a memset-0 lab (whose fds of
 *   0 must not be closed) and a create that failed before it got an id;
 * - lab->tx_ns / rx_ns / dut_ns are filled only once that /run/netns entry was created by us, so
 *   destroy never removes a namespace it did not make;
 * - lab->lock_fd >= 0 means we created and hold /run/pktbench/<id>.lock;
 * - lab->keep is set only when create succeeded: a failed create always cleans up.
 *
 * Stale labs: the lock file is created and flocked before any namespace exists and removed
 * only after both are gone, so a namespace pktbench-<id>-* with a free lock belongs to a dead
 * process. A kept lab renames its lock to <id>.kept, which the stale cleanup leaves alone.
 */

static void pb_lock_path(char *buf, size_t len, const char *id, const char *suffix)
{
	snprintf(buf, len, PB_LOCK_DIR "/%s%s", id, suffix);
}

static void pb_ns_name(char *buf, size_t len, const char *id, const char *side)
{
	snprintf(buf, len, PB_NS_PREFIX "%s-%s", id, side);
}

static bool pb_is_id(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* "<id>.lock" -> id; false for anything else in the lock directory. */
static bool pb_parse_lock_name(const char *name, char *id)
{
	if (strlen(name) != PB_ID_LEN + 5 || strcmp(name + PB_ID_LEN, ".lock") ||
	    !pb_is_id(name, PB_ID_LEN))
		return false;
	memcpy(id, name, PB_ID_LEN);
	id[PB_ID_LEN] = '\0';
	return true;
}

/* "pktbench-<id>-tx", "-rx" or "-dut" -> id; only our names, so nobody else's netns matches. */
static bool pb_parse_ns_name(const char *name, char *id)
{
	const size_t pre = sizeof(PB_NS_PREFIX) - 1;
	const char *side;

	if (strlen(name) < pre + PB_ID_LEN || strncmp(name, PB_NS_PREFIX, pre) ||
	    !pb_is_id(name + pre, PB_ID_LEN))
		return false;
	side = name + pre + PB_ID_LEN;
	if (strcmp(side, "-tx") && strcmp(side, "-rx") && strcmp(side, "-dut"))
		return false;
	memcpy(id, name + pre, PB_ID_LEN);
	id[PB_ID_LEN] = '\0';
	return true;
}

static int pb_mkdir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* 1 removed, 0 not there, -errno. A bind-mounted netns file: detach the mount, then unlink. */
static int pb_netns_del(const char *name)
{
	char path[128];
	int err;

	snprintf(path, sizeof(path), PB_NETNS_DIR "/%s", name);
	/* EINVAL: not a mount point (a crash between creating the file and mounting on it). */
	if (umount2(path, MNT_DETACH) && errno != EINVAL && errno != ENOENT) {
		err = -errno;
		pr_warn("umount %s: %s\n", path, strerror(-err));
		return err;
	}
	if (unlink(path)) {
		if (errno == ENOENT)
			return 0;
		err = -errno;
		pr_warn("unlink %s: %s\n", path, strerror(-err));
		return err;
	}
	return 1;
}

/* All namespaces of a lab: how many were removed, or the first error. */
static int pb_lab_del_netns(const char *id)
{
	static const char *const sides[] = { "tx", "rx", "dut" };
	int removed = 0, err = 0, r;
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		pb_ns_name(name, sizeof(name), id, sides[i]);
		r = pb_netns_del(name);
		if (r > 0)
			removed += r;
		else if (r < 0 && !err)
			err = r;
	}
	return err ? err : removed;
}

/* As iproute2 does it: /run/netns must be a shared mount so netns unmounts propagate. */
static int pb_netns_dir_ensure(void)
{
	bool made_mount = false;
	int err;

	err = pb_mkdir(PB_NETNS_DIR);
	if (err) {
		pr_err("mkdir " PB_NETNS_DIR ": %s\n", strerror(-err));
		return err;
	}
	while (mount("", PB_NETNS_DIR, "none", MS_SHARED | MS_REC, NULL)) {
		/* EINVAL: not a mount point yet; make it one by binding it on itself, once. */
		if (errno != EINVAL || made_mount) {
			err = -errno;
			pr_err("mount --make-shared " PB_NETNS_DIR ": %s\n", strerror(-err));
			return err;
		}
		if (mount(PB_NETNS_DIR, PB_NETNS_DIR, "none", MS_BIND | MS_REC, NULL)) {
			err = -errno;
			pr_err("mount --bind " PB_NETNS_DIR ": %s\n", strerror(-err));
			return err;
		}
		made_mount = true;
	}
	return 0;
}

struct pb_netns_thread_arg {
	const char *path;
	int err;
};

/* Runs on its own thread so that only this thread, never the caller, changes namespace. */
static void *pb_netns_thread(void *p)
{
	struct pb_netns_thread_arg *arg = p;

	arg->err = 0;
	if (unshare(CLONE_NEWNET))
		arg->err = -errno;
	else if (mount("/proc/thread-self/ns/net", arg->path, "none", MS_BIND, NULL))
		arg->err = -errno;
	/* The thread exits here; the bind mount is what keeps the new namespace alive. */
	return NULL;
}

/* Creates /run/netns/NAME holding a new, empty network namespace, like `ip netns add`. */
static int pb_netns_add(const char *name)
{
	struct pb_netns_thread_arg arg;
	char path[128];
	pthread_t thr;
	int fd, err;

	snprintf(path, sizeof(path), PB_NETNS_DIR "/%s", name);
	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		pr_err("create %s: %s\n", path, strerror(-err));
		return err;
	}
	close(fd);

	arg.path = path;
	arg.err = -EINVAL;
	err = -pthread_create(&thr, NULL, pb_netns_thread, &arg);
	if (!err) {
		pthread_join(thr, NULL);
		err = arg.err;
	}
	if (err) {
		pr_err("new netns %s: %s\n", name, strerror(-err));
		unlink(path);
	}
	return err;
}

/*
 * Creates and flocks /run/pktbench/<id>.lock. A concurrent stale cleanup may open the file
 * between our create and our flock, take the lock and unlink it as stale: after locking, make
 * sure the path still names our file, else create it again.
 */
static int pb_lab_lock(struct pb_lab *lab)
{
	struct stat st_fd, st_path;
	char path[128];
	int fd, err, tries;

	err = pb_mkdir(PB_LOCK_DIR);
	if (err) {
		pr_err("mkdir " PB_LOCK_DIR ": %s\n", strerror(-err));
		return err;
	}
	pb_lock_path(path, sizeof(path), lab->id, ".lock");
	for (tries = 0; tries < 3; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0) {
			err = -errno;
			pr_err("create %s: %s\n", path, strerror(-err));
			return err;
		}
		while (flock(fd, LOCK_EX) && errno == EINTR)
			;
		if (!fstat(fd, &st_fd) && !stat(path, &st_path) && st_fd.st_dev == st_path.st_dev &&
		    st_fd.st_ino == st_path.st_ino) {
			lab->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	pr_err("%s: removed under us repeatedly\n", path);
	return -EAGAIN;
}

/*
 * One lock file in the lock directory: if its owner is gone (the flock is free), remove that
 * lab's namespaces and the lock. 1 when a stale lab was removed, 0 when live or gone.
 */
static int pb_lab_reap(int dfd, const char *file, const char *id)
{
	struct stat st_fd, st_path;
	int fd, err, ret = 0;

	fd = openat(dfd, file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB))
		goto out; /* EWOULDBLOCK: its owner is alive */
	/* Another cleanup may have reaped it and unlinked it since we opened it. */
	if (fstat(fd, &st_fd) || fstatat(dfd, file, &st_path, 0) ||
	    st_fd.st_dev != st_path.st_dev || st_fd.st_ino != st_path.st_ino)
		goto out;

	err = pb_lab_del_netns(id);
	if (err < 0) {
		/* Keep the lock file so the next run tries again. */
		pr_warn("stale lab %s: %s\n", id, strerror(-err));
		goto out;
	}
	if (unlinkat(dfd, file, 0) && errno != ENOENT)
		pr_warn(PB_LOCK_DIR "/%s: %s\n", file, strerror(errno));
	pr_info("removed stale lab %s (%d namespaces)\n", id, err);
	ret = 1;
out:
	close(fd);
	return ret;
}

static bool pb_lab_claimed(const char *id)
{
	char path[128];

	pb_lock_path(path, sizeof(path), id, ".lock");
	if (!access(path, F_OK))
		return true;
	pb_lock_path(path, sizeof(path), id, ".kept");
	return !access(path, F_OK);
}

int pb_lab_cleanup_stale(void)
{
	char id[PB_ID_LEN + 1];
	struct dirent *de;
	int removed = 0, err;
	DIR *dir;

	dir = opendir(PB_LOCK_DIR);
	if (dir) {
		while ((de = readdir(dir)))
			if (pb_parse_lock_name(de->d_name, id))
				removed += pb_lab_reap(dirfd(dir), de->d_name, id);
		closedir(dir);
	} else if (errno != ENOENT) {
		err = -errno;
		pr_err("open " PB_LOCK_DIR ": %s\n", strerror(-err));
		return err;
	}

	/*
	 * Namespaces no lock file claims: a crash in the instant between creating them and
	 * removing the lock, or a lock lost some other way. Locks are created before namespaces,
	 * so a live lab always has one.
	 */
	dir = opendir(PB_NETNS_DIR);
	if (!dir) {
		if (errno == ENOENT)
			return removed;
		err = -errno;
		pr_err("open " PB_NETNS_DIR ": %s\n", strerror(-err));
		return err;
	}
	while ((de = readdir(dir))) {
		if (!pb_parse_ns_name(de->d_name, id) || pb_lab_claimed(id))
			continue;
		err = pb_lab_del_netns(id);
		if (err > 0) {
			pr_info("removed orphaned lab %s (%d namespaces)\n", id, err);
			removed++;
		} else if (err < 0) {
			pr_warn("orphaned lab %s: %s\n", id, strerror(-err));
		}
	}
	closedir(dir);
	return removed;
}

static bool pb_lab_addr_ok(const struct pb_addr *a)
{
	static const uint8_t v6_prefix[6] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 };

	if (a->family == AF_INET)
		return (ntohl(a->v4.s_addr) & 0xfffe0000) == 0xc6120000; /* 198.18.0.0/15 */
	if (a->family == AF_INET6)
		return !memcmp(a->v6.s6_addr, v6_prefix, sizeof(v6_prefix)); /* 2001:2::/48 */
	return false;
}

static bool pb_addr_same_prefix(const struct pb_addr *a, const struct pb_addr *b)
{
	if (a->family == AF_INET)
		return !((a->v4.s_addr ^ b->v4.s_addr) & htonl(0xffffff00));
	return !memcmp(a->v6.s6_addr, b->v6.s6_addr, 8);
}

static bool pb_addr_eq(const struct pb_addr *a, const struct pb_addr *b)
{
	return a->family == b->family &&
	       (a->family == AF_INET ? a->v4.s_addr == b->v4.s_addr
				     : !memcmp(&a->v6, &b->v6, sizeof(a->v6)));
}

/* The router's address in a's prefix: host .254 of its /24, or ::fe of its /64. */
static void pb_router_addr(const struct pb_addr *a, struct pb_addr *out)
{
	*out = *a;
	if (a->family == AF_INET) {
		out->v4.s_addr = htonl((ntohl(a->v4.s_addr) & 0xffffff00) | 254);
		return;
	}
	memset(out->v6.s6_addr + 8, 0, 8);
	out->v6.s6_addr[15] = 0xfe;
}

const char *pb_lab_kind_name(enum pb_lab_kind kind)
{
	switch (kind) {
	case PB_LAB_DIRECT:
		return "direct";
	case PB_LAB_ROUTER:
		return "router";
	case PB_LAB_BRIDGE:
		return "bridge";
	}
	return "unknown";
}

/*
 * Only benchmarking addresses; both in the one on-link prefix the lab configures, or for a
 * router in two prefixes, neither of them the router's own address.
 */
static int pb_lab_check_opts(const struct pb_lab_opts *opts)
{
	const struct pb_addr *tx = &opts->tx_addr, *rx = &opts->rx_addr;
	int plen = tx->family == AF_INET ? 24 : 64;
	struct pb_addr r_in, r_out;

	if (!pb_lab_addr_ok(tx) || !pb_lab_addr_ok(rx) || tx->family != rx->family) {
		pr_err("lab: addresses must both be in 198.18.0.0/15 or both in 2001:2::/48\n");
		return -EINVAL;
	}
	if (opts->kind == PB_LAB_ROUTER) {
		pb_router_addr(tx, &r_in);
		pb_router_addr(rx, &r_out);
		if (pb_addr_same_prefix(tx, rx)) {
			pr_err("lab: a router needs the two addresses in different /%d prefixes "
			       "(e.g. 198.18.0.1 -> 198.19.0.2, 2001:2::1 -> 2001:2:0:1::2)\n",
			       plen);
			return -EINVAL;
		}
		if (pb_addr_eq(tx, &r_in) || pb_addr_eq(rx, &r_out)) {
			pr_err("lab: host .254 (::fe) of each prefix is the router's own\n");
			return -EINVAL;
		}
	} else if (!pb_addr_same_prefix(tx, rx)) {
		pr_err("lab: the two addresses must share a /%d\n", plen);
		return -EINVAL;
	}
	if (pb_addr_eq(tx, rx)) {
		pr_err("lab: sender and receiver addresses must differ\n");
		return -EINVAL;
	}
	if (opts->queues < 1 || opts->queues > 4096) {
		pr_err("lab: %u queues: need 1..4096\n", opts->queues);
		return -EINVAL;
	}
	return 0;
}

static struct nl_addr *pb_nl_addr(const struct pb_addr *a)
{
	if (a->family == AF_INET)
		return nl_addr_build(AF_INET, &a->v4, sizeof(a->v4));
	return nl_addr_build(AF_INET6, &a->v6, sizeof(a->v6));
}

static int pb_setns(int fd, const char *what)
{
	int err;

	if (fd < 0)
		return -EBADF;
	if (setns(fd, CLONE_NEWNET)) {
		err = -errno;
		pr_err("setns %s: %s\n", what, strerror(-err));
		return err;
	}
	return 0;
}

int pb_lab_enter(struct pb_lab *lab, enum pb_lab_side side)
{
	if (!lab->created)
		return -EBADF;
	switch (side) {
	case PB_LAB_HOST:
		return pb_setns(lab->host_fd, "host");
	case PB_LAB_TX:
		return pb_setns(lab->tx_fd, lab->tx_ns);
	case PB_LAB_RX:
		return pb_setns(lab->rx_fd, lab->rx_ns);
	case PB_LAB_DUT:
		return pb_setns(lab->dut_fd, lab->dut_ns);
	}
	return -EINVAL;
}

/*
 * A veth pair, created from inside the namespace sk lives in, with its peer born in the
 * namespace of peer_fd.
 */
static int pb_lab_veth_add(struct nl_sock *sk, const char *tx_name, const char *rx_name,
			   int peer_fd, uint32_t queues, uint32_t mtu)
{
	struct rtnl_link *link, *peer;
	int err;

	link = rtnl_link_veth_alloc();
	if (!link)
		return -ENOMEM;
	peer = rtnl_link_veth_get_peer(link);
	rtnl_link_set_name(link, tx_name);
	rtnl_link_set_num_tx_queues(link, queues);
	rtnl_link_set_num_rx_queues(link, queues);
	rtnl_link_set_name(peer, rx_name);
	rtnl_link_set_num_tx_queues(peer, queues);
	rtnl_link_set_num_rx_queues(peer, queues);
	if (mtu) {
		rtnl_link_set_mtu(link, mtu);
		rtnl_link_set_mtu(peer, mtu);
	}
	/* IFLA_NET_NS_FD on the peer: it never exists anywhere but its own namespace. */
	rtnl_link_set_ns_fd(peer, peer_fd);
	err = rtnl_link_add(sk, link, NLM_F_CREATE | NLM_F_EXCL);
	rtnl_link_put(peer);
	rtnl_link_put(link);
	return pb_nl_errno(err);
}

static int pb_link_up(struct nl_sock *sk, const char *name)
{
	struct rtnl_link *link = NULL, *req;
	int err;

	err = rtnl_link_get_kernel(sk, 0, name, &link);
	if (err < 0 || !link)
		return err < 0 ? pb_nl_errno(err) : -ENODEV;
	req = rtnl_link_alloc();
	if (!req) {
		err = -ENOMEM;
		goto out;
	}
	rtnl_link_set_flags(req, IFF_UP);
	err = pb_nl_errno(rtnl_link_change(sk, link, req, 0));
	rtnl_link_put(req);
out:
	rtnl_link_put(link);
	return err;
}

static int pb_addr_add(struct nl_sock *sk, int ifindex, const struct pb_addr *a)
{
	int plen = a->family == AF_INET ? 24 : 64;
	struct nl_addr *local;
	struct rtnl_addr *ra;
	int err = -ENOMEM;

	ra = rtnl_addr_alloc();
	local = pb_nl_addr(a);
	if (!ra || !local)
		goto out;
	nl_addr_set_prefixlen(local, plen);
	rtnl_addr_set_ifindex(ra, ifindex);
	rtnl_addr_set_family(ra, a->family);
	err = pb_nl_errno(rtnl_addr_set_local(ra, local));
	if (err)
		goto out;
	rtnl_addr_set_prefixlen(ra, plen);
	/* No duplicate address detection: usable at once, and nobody else is on this link. */
	if (a->family == AF_INET6)
		rtnl_addr_set_flags(ra, IFA_F_NODAD);
	err = pb_nl_errno(rtnl_addr_add(sk, ra, NLM_F_CREATE | NLM_F_EXCL));
out:
	nl_addr_put(local);
	rtnl_addr_put(ra);
	return err;
}

/* A permanent neighbour entry, so neither side ever sends ARP or neighbour solicitation. */
static int pb_neigh_add(struct nl_sock *sk, int ifindex, const struct pb_addr *dst,
			const uint8_t mac[6])
{
	struct nl_addr *nl_dst, *nl_mac;
	struct rtnl_neigh *n;
	int err = -ENOMEM;

	n = rtnl_neigh_alloc();
	nl_dst = pb_nl_addr(dst);
	nl_mac = nl_addr_build(AF_LLC, mac, 6);
	if (!n || !nl_dst || !nl_mac)
		goto out;
	rtnl_neigh_set_ifindex(n, ifindex);
	rtnl_neigh_set_family(n, dst->family);
	err = pb_nl_errno(rtnl_neigh_set_dst(n, nl_dst));
	if (err)
		goto out;
	rtnl_neigh_set_lladdr(n, nl_mac);
	rtnl_neigh_set_state(n, NUD_PERMANENT);
	err = pb_nl_errno(rtnl_neigh_add(sk, n, NLM_F_CREATE | NLM_F_EXCL));
out:
	nl_addr_put(nl_mac);
	nl_addr_put(nl_dst);
	rtnl_neigh_put(n);
	return err;
}

/*
 * Turns one ethtool feature (by its name, as ethtool -k shows it) on or off, and checks it
 * took. Run in the interface's namespace. A kernel without the feature: a warning, 0.
 */
static int pb_feature_set(const char *ifname, const char *feature, bool on)
{
	struct ethtool_sfeatures *sf = NULL;
	struct ethtool_gfeatures *gf = NULL;
	struct ethtool_gstrings *strs = NULL;
	uint32_t count = 0, i, idx, blocks, bit;
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = pb_ethtool_strings(fd, ifname, ETH_SS_FEATURES, &strs);
	if (err < 0)
		goto out;
	count = strs->len;
	for (idx = count, i = 0; i < count; i++) {
		if (!strncmp((char *)strs->data + (size_t)i * ETH_GSTRING_LEN, feature,
			     ETH_GSTRING_LEN)) {
			idx = i;
			break;
		}
	}
	if (idx == count) {
		pr_warn("%s: no %s feature; leaving offloads as they are\n", ifname, feature);
		err = 0;
		goto out;
	}

	blocks = (count + 31) / 32;
	bit = 1U << (idx % 32);
	sf = calloc(1, sizeof(*sf) + blocks * sizeof(sf->features[0]));
	gf = calloc(1, sizeof(*gf) + blocks * sizeof(gf->features[0]));
	if (!sf || !gf) {
		err = -ENOMEM;
		goto out;
	}
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = blocks;
	sf->features[idx / 32].valid = bit;
	sf->features[idx / 32].requested = on ? bit : 0;
	err = pb_ethtool(fd, ifname, sf);
	if (err < 0)
		goto out;

	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = blocks;
	err = pb_ethtool(fd, ifname, gf);
	if (err < 0)
		goto out;
	err = 0;
	if (!!(gf->features[idx / 32].active & bit) != on) {
		pr_err("%s: %s is still %s\n", ifname, feature, on ? "off" : "on");
		err = -EOPNOTSUPP;
	}
out:
	if (fd >= 0)
		close(fd);
	free(gf);
	free(sf);
	free(strs);
	return err;
}

/* Writes a /proc/sys/net file: those belong to the namespace of the thread that opens them. */
static int pb_sysctl_net(const char *path, const char *value)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/*
 * No IPv6 link-local address on a lab end: without it the kernel sends no router
 * solicitations or MLD reports of its own, so every frame on the pair is a run's (the
 * sender's tx_packets then equals what the methods sent). The 2001:2:: addresses the lab
 * adds still work. Written through the calling thread's namespace's /proc/sys view.
 */
static void pb_lab_quiet_ipv6(const char *ifname)
{
	char path[96];
	int err;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/addr_gen_mode", ifname);
	err = pb_sysctl_net(path, "1");
	/* no such file: no IPv6 in this kernel, nothing to quieten */
	if (err && err != -ENOENT)
		pr_debug("lab: %s: addr_gen_mode: %s\n", ifname, strerror(-err));
}

/* One side's half of the setup, run while the calling thread is in that side's namespace. */
static int pb_lab_side_up(struct nl_sock *sk, const char *ifname, struct pb_netif *out,
			  const char **step)
{
	int err;

	pb_lab_quiet_ipv6(ifname);
	*step = "bring lo up";
	err = pb_link_up(sk, "lo");
	if (err)
		return err;
	*step = "bring the veth end up";
	err = pb_link_up(sk, ifname);
	if (err)
		return err;
	/* In its namespace, so the ethtool driver lookup sees the right interface. */
	*step = "read the veth end";
	return pb_netif_get(sk, ifname, out);
}

/* The hex mask sysfs takes for one CPU: 32-bit words, comma-separated, highest first. */
static void pb_cpu_mask(int cpu, char *buf, size_t len)
{
	int words = cpu / 32 + 1, w, off = 0;

	for (w = words - 1; w >= 0 && off >= 0 && (size_t)off < len; w--)
		off += snprintf(buf + off, len - off, w == words - 1 ? "%x" : ",%08x",
				w == cpu / 32 ? 1u << (cpu % 32) : 0);
}

/*
 * Queue q of ifname belongs to CPU cpu[q] (file: "xps" for its TX queues, "rps" for its RX
 * queues). XPS on the sending end: TX queue q is the queue of the CPU that stream q runs on,
 * so streams of the socket methods use a queue each, as the frame methods do, rather than
 * whatever the flow hash picks (which can put two streams on one queue). RPS on the DUT's
 * input: the DUT forwards on a CPU of its own, not in the sender's softirq. sysfs shows a
 * namespace's devices only to a sysfs mounted from inside it: a child process does that
 * in a mount namespace of its own, so nothing changes for anyone else.
 */
static int pb_lab_queue_cpus(int ns_fd, const char *ifname, const char *file, const int *cpu,
			     uint32_t nq)
{
	int status = 0, err;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		char path[128], mask[160];
		uint32_t q;
		int fd, bad = 0;

		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    setns(ns_fd, CLONE_NEWNET) || mount("sysfs", "/sys", "sysfs", 0, NULL))
			_exit(1);
		for (q = 0; q < nq; q++) {
			if (cpu[q] < 0)
				continue;
			snprintf(path, sizeof(path), "/sys/class/net/%s/queues/%s-%u/%s_cpus",
				 ifname, file[0] == 'x' ? "tx" : "rx", q, file);
			pb_cpu_mask(cpu[q], mask, sizeof(mask));
			fd = open(path, O_WRONLY | O_CLOEXEC);
			bad |= fd < 0 || write(fd, mask, strlen(mask)) < 0;
			if (fd >= 0)
				close(fd);
		}
		_exit(bad ? 2 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	err = WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
	return err;
}

/* A route to the prefix (/24, /64) of dst through gw on ifindex, in sk's namespace. */
static int pb_route_add(struct nl_sock *sk, int ifindex, const struct pb_addr *dst,
			const struct pb_addr *gw)
{
	int plen = dst->family == AF_INET ? 24 : 64;
	struct pb_addr net = *dst;
	struct nl_addr *nl_dst = NULL, *nl_gw = NULL;
	struct rtnl_nexthop *nh = NULL;
	struct rtnl_route *rt;
	int err = -ENOMEM;

	/* the kernel takes a prefix only with its host bits clear */
	if (net.family == AF_INET)
		net.v4.s_addr &= htonl(0xffffff00);
	else
		memset(net.v6.s6_addr + 8, 0, 8);
	rt = rtnl_route_alloc();
	nh = rtnl_route_nh_alloc();
	nl_dst = pb_nl_addr(&net);
	nl_gw = pb_nl_addr(gw);
	if (!rt || !nh || !nl_dst || !nl_gw)
		goto out;
	nl_addr_set_prefixlen(nl_dst, plen);
	rtnl_route_set_family(rt, (uint8_t)dst->family);
	err = pb_nl_errno(rtnl_route_set_dst(rt, nl_dst));
	if (err)
		goto out;
	rtnl_route_set_table(rt, RT_TABLE_MAIN);
	rtnl_route_set_scope(rt, RT_SCOPE_UNIVERSE);
	rtnl_route_set_protocol(rt, RTPROT_STATIC);
	rtnl_route_nh_set_ifindex(nh, ifindex);
	rtnl_route_nh_set_gateway(nh, nl_gw);
	rtnl_route_add_nexthop(rt, nh);
	nh = NULL; /* the route owns it now */
	err = pb_nl_errno(rtnl_route_add(sk, rt, NLM_F_CREATE | NLM_F_EXCL));
out:
	if (nh)
		rtnl_route_nh_free(nh);
	nl_addr_put(nl_gw);
	nl_addr_put(nl_dst);
	rtnl_route_put(rt);
	return err;
}

/*
 * A Linux bridge holding the DUT's two veth ends: STP off (ports forward at once) and
 * multicast snooping off. A snooping bridge joins the all-snoopers groups and reports them
 * (MLD for ff02::6a, IGMP for 224.0.0.106), flooded out of both ports: they were the only
 * frames on the pair that were not a run's, and one dropped by a port full of the run's
 * frames made a drop no run frame had (test_lab_dut's bridge io_uring, 1 run in 3). libnl
 * 3.7 has no setter for snooping: the message is built here.
 */
static int pb_bridge_create(struct nl_sock *sk, const char *name, uint32_t mtu)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *info, *data;
	struct nl_msg *msg;
	int err = -EMSGSIZE;

	msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	if (!msg)
		return -ENOMEM;
	if (nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(msg, IFLA_IFNAME, name) < 0 ||
	    (mtu && nla_put_u32(msg, IFLA_MTU, mtu) < 0))
		goto out;
	info = nla_nest_start(msg, IFLA_LINKINFO);
	if (!info || nla_put_string(msg, IFLA_INFO_KIND, "bridge") < 0)
		goto out;
	data = nla_nest_start(msg, IFLA_INFO_DATA);
	if (!data || nla_put_u32(msg, IFLA_BR_STP_STATE, 0) < 0 ||
	    nla_put_u8(msg, IFLA_BR_MCAST_SNOOPING, 0) < 0)
		goto out;
	nla_nest_end(msg, data);
	nla_nest_end(msg, info);
	err = nl_send_auto(sk, msg);
	if (err >= 0)
		err = nl_wait_for_ack(sk);
	err = err < 0 ? pb_nl_errno(err) : 0;
out:
	nlmsg_free(msg);
	return err;
}

static int pb_bridge_add(struct nl_sock *sk, const char *name, uint32_t mtu, const int *ports,
			 unsigned int nports, int *ifindex)
{
	struct pb_netif br;
	unsigned int i;
	int err;

	err = pb_bridge_create(sk, name, mtu);
	if (err)
		return err;
	err = pb_netif_get(sk, name, &br);
	if (err)
		return err;
	*ifindex = br.ifindex;
	/* nor its own router solicitations */
	pb_lab_quiet_ipv6(name);
	for (i = 0; i < nports && !err; i++)
		err = pb_nl_errno(rtnl_link_enslave_ifindex(sk, br.ifindex, ports[i]));
	return err ? err : pb_link_up(sk, name);
}

/*
 * The device under test, inside its namespace (the calling thread is in it): both ends up,
 * GRO on the end facing the sender, so that end accepts the XDP frames a peer transmits
 * (xdp_live) and turns them into skbs for the stack; then forwarding, or the bridge.
 */
static int pb_lab_dut_up(struct pb_lab *lab, const char *in_if, const char *out_if,
			 const char *br_if, uint32_t mtu, int family, const char **step)
{
	int err;

	err = pb_lab_side_up(lab->dut_nl, in_if, &lab->dut_in, step);
	if (err)
		return err;
	err = pb_lab_side_up(lab->dut_nl, out_if, &lab->dut_out, step);
	if (err)
		return err;
	*step = "turn GRO on at the DUT's input";
	err = pb_feature_set(in_if, PB_GRO_FEATURE, true);
	if (err)
		return err;
	if (lab->kind == PB_LAB_BRIDGE) {
		int ports[2] = { lab->dut_in.ifindex, lab->dut_out.ifindex };

		*step = "bridge the DUT's ends";
		return pb_bridge_add(lab->dut_nl, br_if, mtu, ports, 2, &lab->dut_bridge);
	}
	/*
	 * Only the run's family: IPv6 forwarding joins the all-routers groups and reports them
	 * (MLD, out of both ends), frames that are not the run's and that a full port can drop
	 * as if they were. An IPv6 run has them (its rows count them as foreign).
	 */
	if (family == AF_INET) {
		*step = "turn IPv4 forwarding on in the DUT";
		return pb_sysctl_net("/proc/sys/net/ipv4/ip_forward", "1");
	}
	*step = "turn IPv6 forwarding on in the DUT";
	return pb_sysctl_net("/proc/sys/net/ipv6/conf/all/forwarding", "1");
}

/* Addresses, neighbours and routes, once every link is up (a link going down flushes them). */
static int pb_lab_addresses(struct pb_lab *lab, const struct pb_lab_opts *opts, const char **step)
{
	const struct pb_addr *tx = &opts->tx_addr, *rx = &opts->rx_addr;
	int err;

	*step = "address on the tx end";
	err = pb_addr_add(lab->tx_nl, lab->tx.ifindex, tx);
	if (err)
		return err;
	*step = "address on the rx end";
	err = pb_addr_add(lab->rx_nl, lab->rx.ifindex, rx);
	if (err)
		return err;
	if (lab->kind != PB_LAB_ROUTER) {
		/* one link, or a bridge that is transparent to it: the ends know each other */
		memcpy(lab->next_hop_mac, lab->rx.mac, 6);
		*step = "neighbour on the tx end";
		err = pb_neigh_add(lab->tx_nl, lab->tx.ifindex, rx, lab->rx.mac);
		if (err)
			return err;
		*step = "neighbour on the rx end";
		return pb_neigh_add(lab->rx_nl, lab->rx.ifindex, tx, lab->tx.mac);
	}

	pb_router_addr(tx, &lab->dut_in_addr);
	pb_router_addr(rx, &lab->dut_out_addr);
	memcpy(lab->next_hop_mac, lab->dut_in.mac, 6);
	*step = "the router's address towards the sender";
	err = pb_addr_add(lab->dut_nl, lab->dut_in.ifindex, &lab->dut_in_addr);
	if (err)
		return err;
	*step = "the router's address towards the receiver";
	err = pb_addr_add(lab->dut_nl, lab->dut_out.ifindex, &lab->dut_out_addr);
	if (err)
		return err;
	*step = "neighbour of the sender: the router";
	err = pb_neigh_add(lab->tx_nl, lab->tx.ifindex, &lab->dut_in_addr, lab->dut_in.mac);
	if (err)
		return err;
	*step = "the router's neighbour: the sender";
	err = pb_neigh_add(lab->dut_nl, lab->dut_in.ifindex, tx, lab->tx.mac);
	if (err)
		return err;
	*step = "the router's neighbour: the receiver";
	err = pb_neigh_add(lab->dut_nl, lab->dut_out.ifindex, rx, lab->rx.mac);
	if (err)
		return err;
	*step = "neighbour of the receiver: the router";
	err = pb_neigh_add(lab->rx_nl, lab->rx.ifindex, &lab->dut_out_addr, lab->dut_out.mac);
	if (err)
		return err;
	*step = "the sender's route to the receiver's prefix";
	err = pb_route_add(lab->tx_nl, lab->tx.ifindex, rx, &lab->dut_in_addr);
	if (err)
		return err;
	*step = "the receiver's route to the sender's prefix";
	return pb_route_add(lab->rx_nl, lab->rx.ifindex, tx, &lab->dut_out_addr);
}

/*
 * Copies what the script writes on fd to our stderr as it comes, keeping its last non-empty
 * line in last (the line a failing script ends with says why).
 */
static void pb_lab_relay(int fd, char *last, size_t lastlen)
{
	char buf[512], line[256];
	size_t n = 0;
	ssize_t got;
	ssize_t i;

	last[0] = '\0';
	while ((got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		fwrite(buf, 1, (size_t)got, stderr);
		for (i = 0; i < got; i++) {
			if (buf[i] == '\n') {
				if (n)
					snprintf(last, lastlen, "%.*s", (int)n, line);
				n = 0;
			} else if (n < sizeof(line) - 1) {
				line[n++] = buf[i];
			}
		}
	}
	if (n)
		snprintf(last, lastlen, "%.*s", (int)n, line);
	fflush(stderr);
}

/*
 * --lab-dut-setup: the user's script, run by /bin/sh in the DUT's namespace. It runs in a
 * mount namespace of its own with that namespace's sysfs, as `ip netns exec` would, so tc,
 * ip, sysctl and /sys/class/net all see the DUT; its environment names the interfaces.
 * stdin is /dev/null and its stdout and stderr go to our stderr, so it cannot mix into the
 * results; when it fails, its status and its last line are the error (opts->dut_setup_err).
 */
static int pb_lab_run_dut_setup(struct pb_lab *lab, const struct pb_lab_opts *opts)
{
	extern char **environ;
	const char *script = opts->dut_setup;
	char vars[5][64], last[200] = "", how[64];
	char *argv[] = { "sh", (char *)script, NULL };
	char **envp;
	size_t n = 0, i, k = 0;
	int status = 0, err = 0, pfd[2] = { -1, -1 };
	pid_t pid;

	snprintf(vars[0], sizeof(vars[0]), "PB_LAB=%s", pb_lab_kind_name(lab->kind));
	snprintf(vars[1], sizeof(vars[1]), "PB_DUT_NS=%s", lab->dut_ns);
	snprintf(vars[2], sizeof(vars[2]), "PB_DUT_IN=%s", lab->dut_in.name);
	snprintf(vars[3], sizeof(vars[3]), "PB_DUT_OUT=%s", lab->dut_out.name);
	snprintf(vars[4], sizeof(vars[4]), "PB_DUT_BRIDGE=pbb-%s", lab->id); /* bridge only */
	while (environ && environ[n])
		n++;
	envp = calloc(n + 6, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	/* ours, and the caller's without any stale PB_LAB / PB_DUT_ of its own */
	for (i = 0; i < 5; i++)
		if (lab->kind == PB_LAB_BRIDGE || i != 4)
			envp[k++] = vars[i];
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "PB_LAB=", 7) && strncmp(environ[i], "PB_DUT_", 7))
			envp[k++] = environ[i];

	if (pipe2(pfd, O_CLOEXEC)) {
		err = -errno;
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (!pid) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (fd < 0 || dup2(fd, 0) < 0 || dup2(pfd[1], 1) < 0 || dup2(pfd[1], 2) < 0)
			_exit(126);
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    setns(lab->dut_fd, CLONE_NEWNET) || mount("sysfs", "/sys", "sysfs", 0, NULL))
			_exit(126);
		execve("/bin/sh", argv, envp);
		_exit(127);
	}
	close(pfd[1]);
	pfd[1] = -1;
	pb_lab_relay(pfd[0], last, sizeof(last));
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			err = -errno;
			goto out;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFEXITED(status))
			snprintf(how, sizeof(how), "exited with status %d%s", WEXITSTATUS(status),
				 WEXITSTATUS(status) == 126 ? " (could not enter the DUT)" : "");
		else
			snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(status));
		if (opts->dut_setup_err && opts->dut_setup_errlen)
			snprintf(opts->dut_setup_err, opts->dut_setup_errlen,
				 "--lab-dut-setup %s %s%s%s", script, how, last[0] ? ": " : "",
				 last);
		else
			pr_err("lab: --lab-dut-setup %s %s%s%s\n", script, how, last[0] ? ": " : "",
			       last);
		err = -ECANCELED;
	}
out:
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	free(envp);
	return err;
}

/* Moves the calling thread into a namespace and opens its rtnetlink socket there. */
static int pb_lab_enter_nl(int fd, const char *ns, struct nl_sock **nl, const char **step)
{
	int err;

	*step = "enter a namespace of the lab";
	err = pb_setns(fd, ns);
	if (err)
		return err;
	*step = "open netlink in a namespace of the lab";
	return pb_nl_open(nl);
}

/*
 * Creates the namespace name; once it exists its name goes to kept (what destroy removes),
 * and it is opened into *fd.
 */
static int pb_lab_netns_new(const char *name, char *kept, size_t keptlen, int *fd,
			    const char **step)
{
	char path[128];
	int err;

	err = pb_netns_add(name);
	if (err)
		return err;
	snprintf(kept, keptlen, "%s", name);
	*step = "open the namespaces";
	snprintf(path, sizeof(path), PB_NETNS_DIR "/%s", name);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

int pb_lab_create(struct pb_lab *lab, const struct pb_lab_opts *opts)
{
	char tx_ns[sizeof(lab->tx_ns)], rx_ns[sizeof(lab->rx_ns)], dut_ns[sizeof(lab->dut_ns)];
	char tx_if[IF_NAMESIZE], rx_if[IF_NAMESIZE], in_if[IF_NAMESIZE], out_if[IF_NAMESIZE];
	char br_if[IF_NAMESIZE];
	bool dut = opts->kind != PB_LAB_DIRECT;
	const char *step;
	uint32_t rnd;
	ssize_t n;
	int err;

	memset(lab, 0, sizeof(*lab));
	lab->host_fd = lab->tx_fd = lab->rx_fd = lab->dut_fd = lab->lock_fd = -1;
	lab->kind = opts->kind;
	lab->dut_cpu = opts->kind == PB_LAB_DIRECT ? -1 : opts->dut_cpu;

	err = pb_lab_check_opts(opts);
	if (err)
		return err;

	step = "random id";
	n = getrandom(&rnd, sizeof(rnd), 0);
	if (n != sizeof(rnd)) {
		err = n < 0 ? -errno : -EIO;
		goto out;
	}
	snprintf(lab->id, sizeof(lab->id), "%08x", rnd);
	pb_ns_name(tx_ns, sizeof(tx_ns), lab->id, "tx");
	pb_ns_name(rx_ns, sizeof(rx_ns), lab->id, "rx");
	pb_ns_name(dut_ns, sizeof(dut_ns), lab->id, "dut");
	snprintf(tx_if, sizeof(tx_if), "pbt-%08x", rnd);
	snprintf(rx_if, sizeof(rx_if), "pbr-%08x", rnd);
	snprintf(in_if, sizeof(in_if), "pbi-%08x", rnd);
	snprintf(out_if, sizeof(out_if), "pbo-%08x", rnd);
	snprintf(br_if, sizeof(br_if), "pbb-%08x", rnd);

	/* The thread's own namespace, which is where create and destroy come back to. */
	step = "open the host namespace";
	lab->host_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (lab->host_fd < 0) {
		err = -errno;
		goto out;
	}

	/* First, before any namespace: a lab without a lock would look like an orphan. */
	step = "lock file";
	err = pb_lab_lock(lab);
	if (err)
		goto out;

	step = "prepare " PB_NETNS_DIR;
	err = pb_netns_dir_ensure();
	if (err)
		goto out;
	step = "create the tx namespace";
	err = pb_lab_netns_new(tx_ns, lab->tx_ns, sizeof(lab->tx_ns), &lab->tx_fd, &step);
	if (err)
		goto out;
	step = "create the rx namespace";
	err = pb_lab_netns_new(rx_ns, lab->rx_ns, sizeof(lab->rx_ns), &lab->rx_fd, &step);
	if (err)
		goto out;
	if (dut) {
		step = "create the DUT namespace";
		err = pb_lab_netns_new(dut_ns, lab->dut_ns, sizeof(lab->dut_ns), &lab->dut_fd,
				       &step);
		if (err)
			goto out;
	}

	/* Sockets opened in a namespace stay bound to it, so each side gets its own. */
	err = pb_lab_enter_nl(lab->tx_fd, lab->tx_ns, &lab->tx_nl, &step);
	if (err)
		goto out;
	step = "create the veth pair";
	err = pb_lab_veth_add(lab->tx_nl, tx_if, dut ? in_if : rx_if,
			      dut ? lab->dut_fd : lab->rx_fd, opts->queues, opts->mtu);
	if (err)
		goto out;
	step = "turn UDP segmentation offload off";
	err = pb_feature_set(tx_if, PB_USO_FEATURE, false);
	if (err)
		goto out;
	err = pb_lab_side_up(lab->tx_nl, tx_if, &lab->tx, &step);
	if (err)
		goto out;
	if (opts->queues > 1 &&
	    pb_lab_queue_cpus(lab->tx_fd, tx_if, "xps", opts->xps_cpu, opts->queues))
		pr_warn("lab: cannot set XPS on %s: socket streams may share a TX queue\n", tx_if);

	if (dut) {
		err = pb_lab_enter_nl(lab->dut_fd, lab->dut_ns, &lab->dut_nl, &step);
		if (err)
			goto out;
		step = "create the DUT's veth pair to the receiver";
		err = pb_lab_veth_add(lab->dut_nl, out_if, rx_if, lab->rx_fd, opts->queues,
				      opts->mtu);
		if (err)
			goto out;
		err = pb_lab_dut_up(lab, in_if, out_if, br_if, opts->mtu, opts->tx_addr.family,
				    &step);
		if (err)
			goto out;
		if (opts->dut_cpu >= 0) {
			int cpus[PB_MAX_STREAMS];
			uint32_t q,
				nq = opts->queues < PB_MAX_STREAMS ? opts->queues : PB_MAX_STREAMS;

			for (q = 0; q < nq; q++)
				cpus[q] = opts->dut_cpu;
			step = "steer the DUT's input to its CPU (RPS)";
			err = pb_lab_queue_cpus(lab->dut_fd, in_if, "rps", cpus, nq);
			if (err)
				goto out;
		}
	}

	err = pb_lab_enter_nl(lab->rx_fd, lab->rx_ns, &lab->rx_nl, &step);
	if (err)
		goto out;
	err = pb_lab_side_up(lab->rx_nl, rx_if, &lab->rx, &step);
	if (err)
		goto out;

	step = "return to the host namespace";
	err = pb_setns(lab->host_fd, "host");
	if (err)
		goto out;

	err = pb_lab_addresses(lab, opts, &step);
	if (err)
		goto out;

	if (dut && opts->dut_setup) {
		step = "--lab-dut-setup";
		err = pb_lab_run_dut_setup(lab, opts);
		if (err)
			goto out;
	}

	lab->created = true;
	lab->keep = opts->keep;
	if (dut)
		pr_info("lab %s: %s in %s -> %s %s/%s in %s (CPU %d) -> %s in %s, %u queues\n",
			lab->id, lab->tx.name, lab->tx_ns, pb_lab_kind_name(lab->kind),
			lab->dut_in.name, lab->dut_out.name, lab->dut_ns, lab->dut_cpu,
			lab->rx.name, lab->rx_ns, opts->queues);
	else
		pr_info("lab %s: %s in %s <-> %s in %s, %u queues\n", lab->id, lab->tx.name,
			lab->tx_ns, lab->rx.name, lab->rx_ns, opts->queues);
	return 0;
out:
	/* the script said what went wrong itself */
	if (err != -ECANCELED)
		pr_err("lab: %s: %s\n", step, strerror(-err));
	pb_lab_destroy(lab);
	return err;
}

void pb_lab_destroy(struct pb_lab *lab)
{
	char lock[128], kept[128];

	if (!lab || !lab->id[0])
		return; /* zeroed, or create stopped before it owned anything */

	/* Back home first: a thread left inside would also keep the namespace alive. */
	if (lab->host_fd >= 0)
		pb_setns(lab->host_fd, "host");
	pb_nl_close(lab->tx_nl);
	pb_nl_close(lab->rx_nl);
	pb_nl_close(lab->dut_nl);
	lab->tx_nl = lab->rx_nl = lab->dut_nl = NULL;
	if (lab->tx_fd >= 0)
		close(lab->tx_fd);
	if (lab->rx_fd >= 0)
		close(lab->rx_fd);
	if (lab->dut_fd >= 0)
		close(lab->dut_fd);
	if (lab->host_fd >= 0)
		close(lab->host_fd);
	lab->host_fd = lab->tx_fd = lab->rx_fd = lab->dut_fd = -1;

	pb_lock_path(lock, sizeof(lock), lab->id, ".lock");
	if (lab->keep) {
		/* Renamed while still locked, so no stale cleanup ever sees it free. */
		pb_lock_path(kept, sizeof(kept), lab->id, ".kept");
		if (rename(lock, kept))
			pr_warn("rename %s: %s; the next run will remove the lab\n", lock,
				strerror(errno));
		if (lab->dut_ns[0])
			pr_warn("lab kept: ip netns exec %s ... / %s ... / %s ...; remove with: "
				"ip netns del %s; ip netns del %s; ip netns del %s; rm %s\n",
				lab->tx_ns, lab->dut_ns, lab->rx_ns, lab->tx_ns, lab->dut_ns,
				lab->rx_ns, kept);
		else
			pr_warn("lab kept: ip netns exec %s ... / ip netns exec %s ...; remove "
				"with: ip netns del %s; ip netns del %s; rm %s\n",
				lab->tx_ns, lab->rx_ns, lab->tx_ns, lab->rx_ns, kept);
	} else {
		/* Deleting a namespace takes the veth end inside it, and with it the pair. */
		if (lab->tx_ns[0] && pb_netns_del(lab->tx_ns) < 0)
			pr_warn("lab %s: could not remove %s\n", lab->id, lab->tx_ns);
		if (lab->dut_ns[0] && pb_netns_del(lab->dut_ns) < 0)
			pr_warn("lab %s: could not remove %s\n", lab->id, lab->dut_ns);
		if (lab->rx_ns[0] && pb_netns_del(lab->rx_ns) < 0)
			pr_warn("lab %s: could not remove %s\n", lab->id, lab->rx_ns);
		/* Last: until the namespaces are gone, the lock is what marks them ours. */
		if (lab->lock_fd >= 0 && unlink(lock))
			pr_warn("unlink %s: %s\n", lock, strerror(errno));
	}
	if (lab->lock_fd >= 0)
		close(lab->lock_fd);
	lab->lock_fd = -1;
	lab->tx_ns[0] = lab->rx_ns[0] = lab->dut_ns[0] = '\0';
	lab->created = false;
	lab->keep = false;
}

int pb_bpffs_ensure(void)
{
	struct statfs st;
	int err;

	if (statfs("/sys/fs/bpf", &st)) {
		err = -errno;
		pr_err("statfs /sys/fs/bpf: %s\n", strerror(-err));
		return err;
	}
	if (st.f_type == BPF_FS_MAGIC)
		return 0;
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700")) {
		err = -errno;
		pr_err("mount bpffs on /sys/fs/bpf: %s\n", strerror(-err));
		return err;
	}
	return 0;
}
