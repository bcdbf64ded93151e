// SPDX-License-Identifier: MIT
/*
 * What a run depended on, read from a made-up sysfs and procfs tree this test writes: every
 * field's text is a known answer, and what the tree lacks is "unknown (why)", never 0 or "".
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "envinfo.h"
#include "check.h"

static char root[] = "/tmp/pb-envinfo-XXXXXX";

/* Writes text to root/rel, making the folders on the way. */
static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	CHECK(f != NULL, "cannot write %s: %s", path, strerror(errno));
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static const char *val(const struct pb_envinfo *e, const char *key)
{
	const struct pb_envinfo_field *f = pb_envinfo_get(e, key);

	return f ? f->val : "(absent)";
}

#define CHECK_VAL(e, key, want)                                                                    \
	CHECK(!strcmp(val(e, key), want), "%s = '%s', want '%s'", key, val(e, key), want)
#define CHECK_UNKNOWN(e, key, why)                                                                 \
	CHECK(pb_envinfo_get(e, key) && !pb_envinfo_get(e, key)->known &&                          \
		      !strncmp(val(e, key), "unknown (", 9) && strstr(val(e, key), why),           \
	      "%s = '%s', want unknown (... %s ...)", key, val(e, key), why)

/* A NIC eth9 with two MSI IRQs and threaded NAPI, on a 2-CPU host */
static void make_nic_tree(void)
{
	put("proc/sys/kernel/osrelease", "6.18.44-test\n");
	put("sys/devices/system/cpu/online", "0-1\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	put("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/vulnerabilities/spectre_v2",
	    "Mitigation: Retpolines; IBPB: conditional\n");
	put("sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
	put("proc/sys/net/core/busy_poll", "50\n");
	put("proc/sys/net/core/busy_read", "0\n");
	put("sys/class/net/eth9/threaded", "1\n");
	put("sys/class/net/eth9/napi_defer_hard_irqs", "2\n");
	put("sys/class/net/eth9/gro_flush_timeout", "20000\n");
	put("sys/class/net/eth9/device/msi_irqs/41", "msix\n");
	put("sys/class/net/eth9/device/msi_irqs/40", "msix\n");
	put("proc/irq/40/smp_affinity_list", "0\n");
	/* allowed on both, delivered to one: the effective affinity is where it runs */
	put("proc/irq/41/smp_affinity_list", "0-1\n");
	put("proc/irq/41/effective_affinity_list", "1\n");
	/* eth9's NAPI kthread, last on CPU 1, allowed on both; another process between */
	put("proc/812/comm", "napi/eth9-8193\n");
	put("proc/812/stat", "812 (napi/eth9-8193) S 2 0 0 0 -1 2129984 0 0 0 0 0 3 0 0 20 0 1 0 "
			     "176 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 1 0 "
			     "0 0 0 0 0 0 0 0 0 0 0 0\n");
	put("proc/812/status", "Name:\tnapi/eth9-8193\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n");
	put("proc/900/comm", "sshd\n");
	put("proc/self", "not a process folder\n");
}

static void test_nic(void)
{
	static struct pb_envinfo e;

	memset(&e, 0, sizeof(e));
	make_nic_tree();
	pb_envinfo_read(&e, root, "eth9");
	CHECK_VAL(&e, "kernel_release", "6.18.44-test");
	CHECK_VAL(&e, "cpus_online", "0-1");
	CHECK_VAL(&e, "cpu_governor", "cpu0 performance, cpu1 powersave");
	CHECK_VAL(&e, "mitigation.meltdown", "Not affected");
	CHECK_VAL(&e, "mitigation.spectre_v2", "Mitigation: Retpolines; IBPB: conditional");
	CHECK_VAL(&e, "busy_poll_us", "50");
	CHECK_VAL(&e, "busy_read_us", "0");
	CHECK_VAL(&e, "iface.napi_threaded", "1");
	CHECK_VAL(&e, "iface.napi_defer_hard_irqs", "2");
	CHECK_VAL(&e, "iface.gro_flush_timeout_ns", "20000");
	CHECK_VAL(&e, "iface.irq_affinity", "irq 40 cpus 0, irq 41 cpus 1 (allowed 0-1)");
	CHECK_VAL(&e, "iface.napi_threads", "napi/eth9-8193 on cpu 1 (allowed 0-1)");
	/* fields in one order: the mitigations by name, so two files list them alike */
	CHECK(pb_envinfo_get(&e, "mitigation.meltdown") <
		      pb_envinfo_get(&e, "mitigation.spectre_v2"),
	      "mitigations not in name order");
}

/*
 * What the tree lacks says so: no cpufreq (a VM), no vulnerabilities folder, the interface
 * not in this sysfs (another namespace), no busy_read.
 */
static void test_missing(void)
{
	static struct pb_envinfo e;
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/sys '%s'/proc/sys/net/core/busy_read", root, root);
	CHECK(system(cmd) == 0, "%s", cmd);
	put("sys/devices/system/cpu/online", "0\n");
	memset(&e, 0, sizeof(e));
	pb_envinfo_read(&e, root, "eth9");
	CHECK_VAL(&e, "kernel_release", "6.18.44-test");
	CHECK_UNKNOWN(&e, "cpu_governor", "no cpufreq");
	CHECK_UNKNOWN(&e, "mitigations", "vulnerabilities");
	CHECK_UNKNOWN(&e, "busy_read_us", "busy_read");
	CHECK_UNKNOWN(&e, "iface.napi_threaded", "another network namespace");
	CHECK_UNKNOWN(&e, "iface.irq_affinity", "another network namespace");
	/* the NAPI thread is still in procfs, whatever sysfs shows */
	CHECK_VAL(&e, "iface.napi_threads", "napi/eth9-8193 on cpu 1 (allowed 0-1)");

	/* a virtual interface: sysfs has it, without a device: no IRQs, by its nature */
	put("sys/class/net/veth7/threaded", "0\n");
	memset(&e, 0, sizeof(e));
	pb_envinfo_read(&e, root, "veth7");
	CHECK_VAL(&e, "iface.napi_threaded", "0");
	CHECK_VAL(&e, "iface.irq_affinity", "none (no device: a virtual interface)");
	CHECK_VAL(&e, "iface.napi_threads", "none (threaded NAPI off)");
	CHECK_UNKNOWN(&e, "iface.gro_flush_timeout_ns", "gro_flush_timeout");

	/* no interface: the host's fields only */
	memset(&e, 0, sizeof(e));
	pb_envinfo_read(&e, root, NULL);
	CHECK(!pb_envinfo_get(&e, "iface.irq_affinity"), "interface fields without one");

	/* a root that is not there: every field unknown, none empty */
	memset(&e, 0, sizeof(e));
	pb_envinfo_read(&e, "/nonexistent-pb-root", "eth9");
	CHECK(e.n >= 10, "%u fields from an empty root", e.n);
	for (unsigned int i = 0; i < e.n; i++)
		CHECK(!e.f[i].known && !strncmp(e.f[i].val, "unknown (", 9),
		      "%s = '%s' from an empty root", e.f[i].key, e.f[i].val);
}

/* A field set twice keeps one entry: the last text */
static void test_set(void)
{
	static struct pb_envinfo e;

	memset(&e, 0, sizeof(e));
	pb_envinfo_set(&e, "sender_cpus", "%d", 1);
	pb_envinfo_unknown(&e, "x", "%s", "why");
	pb_envinfo_set(&e, "sender_cpus", "%d", 0);
	CHECK(e.n == 2, "%u fields", e.n);
	CHECK_VAL(&e, "sender_cpus", "0");
	CHECK_VAL(&e, "x", "unknown (why)");
}

/* ethtool's answers as text: ethtool -g, -l, -c in one line each */
static void test_ethtool_fmt(void)
{
	struct ethtool_ringparam r = { .rx_pending = 256,
				       .rx_max_pending = 4096,
				       .tx_pending = 512,
				       .tx_max_pending = 4096 };
	struct ethtool_channels c = { .max_combined = 8, .combined_count = 2 };
	struct ethtool_coalesce k = { .rx_coalesce_usecs = 50,
				      .rx_max_coalesced_frames = 0,
				      .tx_coalesce_usecs = 8,
				      .tx_max_coalesced_frames = 32,
				      .use_adaptive_rx_coalesce = 1 };
	char buf[256];

	pb_envinfo_fmt_ring(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "rx 256 (max 4096), tx 512 (max 4096)"), "ring: %s", buf);
	pb_envinfo_fmt_channels(&c, buf, sizeof(buf));
	CHECK(!strcmp(buf, "rx 0, tx 0, other 0, combined 2 (max 8)"), "channels: %s", buf);
	pb_envinfo_fmt_coalesce(&k, buf, sizeof(buf));
	CHECK(!strcmp(buf, "rx-usecs 50, rx-frames 0, tx-usecs 8, tx-frames 32, adaptive-rx on, "
			   "adaptive-tx off"),
	      "coalesce: %s", buf);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	test_nic();
	test_missing();
	test_set();
	test_ethtool_fmt();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	return check_summary();
}
