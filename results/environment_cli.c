// SPDX-License-Identifier: MIT
/*
 * `pktbench environment [--iface IF]`: what a run's figures would depend on here (envinfo.h)
 * and where pktbench would place its sender (place.h), without sending anything. The same
 * fields a result set keeps as its environment object, which compare checks.
 */
#include <errno.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "envinfo.h"
#include "log.h"
#include "options.h"
#include "place.h"
#include "writers.h"

struct pb_env_opts {
	char iface[IF_NAMESIZE];
	int format; /* 0 table, 1 json */
};

#define OFF(field) offsetof(struct pb_env_opts, field)

static const char *const pb_env_format_names[] = { "table", "json", NULL };

static const struct pb_opt pb_env_opts_table[] = {
	{ "iface", 'i', OPT_STR, OFF(iface), 0, NULL, 0, IF_NAMESIZE, "IFACE",
	  "the interface's fields too: its IRQs and NAPI threads, ring, channel, coalescing and "
	  "offload settings (in another namespace: ip netns exec NS pktbench environment ...)",
	  .flags = PB_OPTF_IFACE },
	{ "format", 'f', OPT_ENUM, OFF(format), 0, "table", 0, 0, "table|json",
	  "output format; json is {\"environment\": {...}}, as a result set holds it",
	  pb_env_format_names },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help" },
};

static int pb_environment_main(int argc, char **argv);

const struct pb_cmd pb_cmd_environment = {
	.name = "environment",
	.summary = "print what a run's figures depend on here, sending nothing",
	.synopsis = "[--iface IFACE] [options]",
	.description =
		"Prints what a benchmark's figures depend on beyond pktbench itself, read now: "
		"the kernel release, the CPUs online and their frequency governor, the kernel's "
		"mitigations (/sys/devices/system/cpu/vulnerabilities), busy polling "
		"(net.core.busy_poll, busy_read), and with --iface the interface's threaded NAPI, "
		"napi_defer_hard_irqs and gro_flush_timeout, the CPUs its IRQs are affine to, its "
		"NAPI threads and the CPU each last ran on, and its ring, channel, coalescing and "
		"offload settings (as ethtool -g, -l, -c and -k show them, asked over ethtool's "
		"ioctl). Last, where pktbench would place its sender without --cpus, and why.\n\n"
		"Each field is text; one that cannot be read says \"unknown (why)\". A result "
		"set (--format json) keeps the same fields, read before its first run, as its "
		"\"environment\" object, and pktbench compare warns about each field two sets "
		"differ in. Nothing is sent.",
	.exit_status = "0    printed\n"
		       "2    bad arguments, or no such interface (one line on stderr)",
	.examples = "pktbench environment --iface eth1\n"
		    "eth1's IRQs, NAPI threads, rings and offloads, and the host's settings\n"
		    "ip netns exec lab pktbench environment --iface veth0 --format json\n"
		    "an interface of another namespace (ip netns exec mounts its sysfs)",
	.opts = pb_env_opts_table,
	.nopts = sizeof(pb_env_opts_table) / sizeof(pb_env_opts_table[0]),
	.size = sizeof(struct pb_env_opts),
	.run = pb_environment_main,
};

/* Where pktbench would send from, as the sender's default placement decides it. */
static void pb_env_placement(struct pb_envinfo *e, const char *iface)
{
	static struct pb_topo t;
	uint32_t cpus[8], i;
	char why[192], list[64] = "";
	size_t off = 0;
	int n;

	n = pb_topo_read(&t, "/", iface, PB_PLACE_LOOK_MS);
	if (n) {
		pb_envinfo_unknown(e, "sender_placement", "/sys/devices/system/cpu/online: %s",
				   strerror(-n));
		return;
	}
	/* what a sender would see: the CPUs other senders hold come last */
	pb_claims_end(pb_claims_begin(PB_PLACE_CLAIM_DIR, &t));
	n = pb_place(&t, 1, cpus, why, sizeof(why));
	if (n <= 0) {
		pb_envinfo_set(e, "sender_placement", "left to the scheduler (%s)", why);
		return;
	}
	for (i = 0; i < (uint32_t)n; i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%u", i ? "," : "",
					cpus[i]);
	pb_envinfo_set(e, "sender_placement", "cpus %s, pktbench's choice: %s", list, why);
}

static int pb_env_table(FILE *f, const struct pb_envinfo *e)
{
	size_t w = 0, k;
	unsigned int i;

	for (i = 0; i < e->n; i++) {
		k = strlen(e->f[i].key);
		w = k > w ? k : w;
	}
	for (i = 0; i < e->n; i++) {
		fprintf(f, "%-*s  ", (int)w, e->f[i].key);
		pb_log_write(f, e->f[i].val);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}

static int pb_env_json(FILE *f, const struct pb_envinfo *e)
{
	struct json_object *root = json_object_new_object();
	int err;

	if (!root)
		return -ENOMEM;
	err = pb_json_add_environment(root, e);
	if (!err)
		err = pb_json_print(f, root);
	json_object_put(root);
	return err;
}

static int pb_environment_main(int argc, char **argv)
{
	static struct pb_envinfo e;
	struct pb_env_opts o;
	enum pb_opt_action action;
	char err[256];
	int ret;

	if (pb_cmd_parse(&pb_cmd_environment, &o, argc, argv, &action, NULL, err, sizeof(err))) {
		pb_log_say("pktbench environment", err);
		return 2;
	}
	if (action == PB_OPT_HELP) {
		pb_cmd_usage(&pb_cmd_environment, stdout);
		return 0;
	}
	if (o.iface[0] && !if_nametoindex(o.iface)) {
		snprintf(err, sizeof(err), "--iface %s: no such interface here", o.iface);
		pb_log_say("pktbench environment", err);
		return 2;
	}
	pb_envinfo_read(&e, "/", o.iface[0] ? o.iface : NULL);
	if (o.iface[0])
		pb_envinfo_read_ethtool(&e, o.iface);
	pb_env_placement(&e, o.iface[0] ? o.iface : NULL);
	ret = o.format ? pb_env_json(stdout, &e) : pb_env_table(stdout, &e);
	if (ret) {
		fprintf(stderr, "pktbench environment: cannot write: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
