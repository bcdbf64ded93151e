// SPDX-License-Identifier: MIT
/* The option table and its parser: one row per flag, nothing filled by a hand-written switch. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "frame.h"
#include "method.h"
#include "options.h"
#include "scenario.h"

enum pb_opt_type {
	OPT_STR,  /* char array of size .max */
	OPT_SECS, /* double, > 0 */
	OPT_U64,  /* unsigned, .min .. .max */
	OPT_U32,
	OPT_PORT,   /* uint16_t, 1 .. 65535 */
	OPT_ADDR,   /* struct pb_addr */
	OPT_MAC,    /* uint8_t[6]; .flag_off: the bool saying it was given */
	OPT_FLAG,   /* bool set to true */
	OPT_ENUM,   /* an enum: the index of the value in .names */
	OPT_RATE,   /* double > 0, with an optional k/M/G suffix */
	OPT_CPUS,   /* a CPU list (0,2-3) into cfg->cpus / cfg->ncpus */
	OPT_SWEEP,  /* --sweep NAME=V1,V2,... into struct pb_sweep */
	OPT_CONFIG, /* a scenario file: loaded before the other options, which override it */
	OPT_COUNT,  /* int, incremented */
	OPT_HELP,
	OPT_VERSION,
};

struct pb_opt {
	const char *name;
	char short_name;
	enum pb_opt_type type;
	size_t off;
	size_t flag_off;
	const char *def; /* parsed like user input; NULL: zero */
	uint64_t min, max;
	const char *metavar;
	const char *help;
	const char *const *names; /* OPT_ENUM: accepted values, in enum order */
};

static const char *const pb_format_names[] = { "table", "json", "csv", NULL };
static const char *const pb_xdp_mode_names[] = { "auto", "native", "generic", NULL };
static const char *const pb_tristate_names[] = { "auto", "on", "off", NULL };

#define OFF(field) offsetof(struct pb_config, field)

static const struct pb_opt pb_opts[] = {
	{ "method", 'm', OPT_STR, OFF(method), 0, "af_packet", 0,
	  sizeof(((struct pb_config *)0)->method), "NAME",
	  "method to run, or 'benchmark' for all of them (see Methods below)" },
	{ "duration", 'd', OPT_SECS, OFF(duration_s), 0, "5", 0, 0, "SECS",
	  "seconds each method sends, measured after the link is up" },
	{ "count", 'c', OPT_U64, OFF(count), 0, NULL, 1, UINT64_MAX, "N",
	  "stop after exactly N frames sent (instead of --duration)" },
	{ "count-timeout", 0, OPT_SECS, OFF(count_timeout_s), 0, NULL, 0, 0, "SECS",
	  "with --count: give up after SECS with an error and the partial figures (default: "
	  "10 s + twice the time N frames take at --pps, or at 10 kpps)" },
	{ "repeat", 'r', OPT_U32, OFF(repeat), 0, "1", 1, 99, "N",
	  "run each method N times and report the median run (by packets/s)" },
	{ "iface", 'i', OPT_STR, OFF(iface), 0, NULL, 0, IF_NAMESIZE, "IFACE",
	  "send on this interface; without it pktbench builds its namespace lab" },
	{ "dstip", 0, OPT_ADDR, OFF(dstip), 0, "198.18.0.2", 0, 0, "ADDR",
	  "destination IP address" },
	{ "srcip", 0, OPT_ADDR, OFF(srcip), 0, "198.18.0.1", 0, 0, "ADDR", "source IP address" },
	{ "dstmac", 0, OPT_MAC, OFF(dstmac), OFF(dstmac_set), NULL, 0, 0, "MAC",
	  "destination MAC (default: the lab receiver's; c0:ff:ee:00:00:00 with --iface)" },
	{ "srcmac", 0, OPT_MAC, OFF(srcmac), OFF(srcmac_set), NULL, 0, 0, "MAC",
	  "source MAC (default: the sending interface's MAC)" },
	{ "dstport", 0, OPT_PORT, OFF(dstport), 0, "12345", 1, 65535, "PORT",
	  "destination UDP port" },
	{ "srcport", 0, OPT_PORT, OFF(srcport), 0, "12345", 1, 65535, "PORT",
	  "base source UDP port; stream i uses srcport+i" },
	{ "frame-size", 0, OPT_U32, OFF(frame_size), 0, NULL, 60, PB_FRAME_MAX, "BYTES",
	  "frame bytes without FCS, instead of --payloadsize (60 .. the MTU's frame)" },
	{ "sweep", 0, OPT_SWEEP, OFF(sweep), 0, NULL, 0, 0, "NAME=V1,V2,..",
	  "one run per value: frame-size=64,128,... or streams=1,2" },
	{ "config", 'C', OPT_CONFIG, OFF(config), 0, NULL, 0, 0, "FILE",
	  "a YAML scenario; keys are these long option names; options given here override it" },
	{ "payloadsize", 'p', OPT_U32, OFF(payloadsize), 0, "18", 8, 65507, "BYTES",
	  "UDP payload bytes (18 gives a 60-byte frame, 64 on the wire with FCS; >= 8 for the "
	  "signature)" },
	{ "imix", 0, OPT_FLAG, OFF(imix), 0, NULL, 0, 0, NULL,
	  "the standard 7:4:1 mix of 64/594/1518-byte wire frames instead of one size" },
	{ "flows", 0, OPT_U32, OFF(flows), 0, "1", 1, 65535, "N",
	  "vary the source port over N flows, a pseudo-random flow per packet" },
	{ "flows-src-ip", 0, OPT_FLAG, OFF(flows_src_ip), 0, NULL, 0, 0, NULL,
	  "with --flows: vary the source address (from --srcip up, in its /15) before the port" },
	{ "vlan", 0, OPT_U32, OFF(vlan), 0, NULL, 1, 4094, "ID",
	  "802.1Q-tag every frame with VLAN ID (frame-building methods only)" },
	{ "vlan-prio", 0, OPT_U32, OFF(vlan_prio), 0, NULL, 0, 7, "PCP", "the tag's priority" },
	{ "streams", 's', OPT_U32, OFF(streams), 0, "1", 1, PB_MAX_STREAMS, "N",
	  "sending threads, each its own flow (source port)" },
	{ "segments", 0, OPT_U32, OFF(segments), 0, "8", 1, 128, "N",
	  "gso: segments per sendmsg (payloadsize x segments <= 65507)" },
	{ "batch", 'b', OPT_U32, OFF(batch), 0, NULL, 1, 4096, "N",
	  "frames per send call for batching methods (default: the method's own)" },
	{ "pps", 0, OPT_RATE, OFF(pps), 0, NULL, 0, 0, "RATE",
	  "aggregate packets/s over all streams, e.g. 50k or 1.5M (default: as fast as it goes)" },
	{ "rate", 0, OPT_RATE, OFF(rate_gbps), 0, NULL, 0, 0, "GBPS",
	  "aggregate rate as wire (L1) Gb/s instead of --pps" },
	{ "cpus", 0, OPT_CPUS, 0, 0, NULL, 0, 0, "LIST",
	  "pin stream i to the i-th CPU of LIST (e.g. 0,1 or 0-3; default: several streams are "
	  "spread over the CPUs, one stream is not pinned)" },
	{ "link-timeout", 0, OPT_SECS, OFF(link_timeout_s), 0, "30", 0, 0, "SECS",
	  "how long to wait for the carrier before giving up" },
	{ "keep-lab", 0, OPT_FLAG, OFF(keep_lab), 0, NULL, 0, 0, NULL,
	  "leave the namespace lab in place after the run (for debugging)" },
	{ "xdp-mode", 0, OPT_ENUM, OFF(xdp_mode), 0, "auto", 0, 0, "auto|native|generic",
	  "XDP attach / AF_XDP bind mode; auto tries native (driver) first", pb_xdp_mode_names },
	{ "zerocopy", 0, OPT_ENUM, OFF(zerocopy), 0, "auto", 0, 0, "auto|on|off",
	  "af_xdp: zero-copy where the driver has it (auto), insist (on), copy mode (off); "
	  "io_uring: SEND_ZC from 4 KiB payloads (auto), always (on), never (off)",
	  pb_tristate_names },
	{ "force", 0, OPT_FLAG, OFF(force), 0, NULL, 0, 0, NULL,
	  "replace an XDP program already on --iface (it is put back afterwards)" },
	{ "format", 'f', OPT_ENUM, OFF(format), 0, "table", 0, 0, "table|json|csv", "output format",
	  pb_format_names },
	{ "output", 'o', OPT_STR, OFF(output), 0, NULL, 0, sizeof(((struct pb_config *)0)->output),
	  "FILE", "write the results to FILE (atomically) instead of stdout" },
	{ "quiet", 'q', OPT_FLAG, OFF(quiet), 0, NULL, 0, 0, NULL, "no live per-second lines" },
	{ "verbose", 'v', OPT_COUNT, OFF(verbose), 0, NULL, 0, 0, NULL,
	  "more log output (repeatable)" },
	{ "help", 'h', OPT_HELP, 0, 0, NULL, 0, 0, NULL, "this help" },
	{ "version", 'V', OPT_VERSION, 0, 0, NULL, 0, 0, NULL, "print the version" },
};

#define PB_NOPTS (sizeof(pb_opts) / sizeof(pb_opts[0]))

int pb_parse_addr(const char *s, struct pb_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, s, &out->v4) == 1) {
		out->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &out->v6) == 1) {
		out->family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

int pb_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
		   &tail) != 6 ||
	    strlen(s) != 17)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int opt_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* --sweep frame-size=64,128,256 or streams=1,2 */
static int opt_parse_sweep(struct pb_sweep *sw, const char *arg, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		enum pb_sweep_kind kind;
		uint32_t min, max;
	} kinds[] = {
		{ "frame-size", PB_SWEEP_FRAME_SIZE, 60, PB_FRAME_MAX },
		{ "streams", PB_SWEEP_STREAMS, 1, PB_MAX_STREAMS },
	};
	const char *eq = strchr(arg, '='), *p;
	size_t k;

	memset(sw, 0, sizeof(*sw));
	for (k = 0; eq && k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strlen(kinds[k].name) == (size_t)(eq - arg) &&
		    !strncmp(arg, kinds[k].name, eq - arg))
			break;
	if (!eq || k == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(err, errlen,
			 "--sweep: '%s' is not frame-size=V1,V2,.. or streams=V1,V2,..", arg);
		return -EINVAL;
	}
	for (p = eq + 1; *p;) {
		unsigned long v;
		char *end;

		errno = 0;
		v = (*p >= '0' && *p <= '9') ? strtoul(p, &end, 10) : 0;
		if (errno || !v || (*end && *end != ',') || v < kinds[k].min || v > kinds[k].max ||
		    sw->n == PB_MAX_SWEEP) {
			snprintf(err, errlen,
				 "--sweep: %s takes up to %d values from %u to %u: '%s'",
				 kinds[k].name, PB_MAX_SWEEP, kinds[k].min, kinds[k].max, arg);
			return -EINVAL;
		}
		sw->values[sw->n++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	if (!sw->n) {
		snprintf(err, errlen, "--sweep: no values in '%s'", arg);
		return -EINVAL;
	}
	sw->kind = kinds[k].kind;
	return 0;
}

/* --cpus 0,2-3: every CPU must be one this process may run on (online and allowed). */
static int opt_parse_cpus(struct pb_config *cfg, const char *arg, char *err, size_t errlen)
{
	cpu_set_t allowed;
	const char *p = arg;

	CPU_ZERO(&allowed);
	sched_getaffinity(0, sizeof(allowed), &allowed);
	cfg->ncpus = 0;
	while (*p) {
		unsigned long lo, hi, c;
		char *end;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				goto bad;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || (*end && *end != ','))
			goto bad;
		for (c = lo; c <= hi; c++) {
			if (c >= CPU_SETSIZE || !CPU_ISSET(c, &allowed)) {
				snprintf(err, errlen,
					 "--cpus: CPU %lu is not online (or not allowed)", c);
				return -EINVAL;
			}
			if (cfg->ncpus == PB_MAX_STREAMS) {
				snprintf(err, errlen, "--cpus: more than %d CPUs", PB_MAX_STREAMS);
				return -EINVAL;
			}
			cfg->cpus[cfg->ncpus++] = (uint32_t)c;
		}
		p = *end ? end + 1 : end;
	}
	if (cfg->ncpus)
		return 0;
bad:
	snprintf(err, errlen, "--cpus: '%s' is not a CPU list (e.g. 0,1 or 0-3)", arg);
	return -EINVAL;
}

static int opt_apply(const struct pb_opt *o, struct pb_config *cfg, const char *arg, char *err,
		     size_t errlen)
{
	char *field = (char *)cfg + o->off;
	uint64_t v;
	double d;
	char *end;

	switch (o->type) {
	case OPT_STR:
		if (strlen(arg) >= o->max || !*arg) {
			snprintf(err, errlen, "--%s: '%s' is empty or longer than %llu characters",
				 o->name, arg, (unsigned long long)o->max - 1);
			return -EINVAL;
		}
		strcpy(field, arg);
		return 0;
	case OPT_SECS:
		errno = 0;
		d = strtod(arg, &end);
		if (errno || *end || !*arg || !(d > 0) || !isfinite(d) || d > 86400 * 365) {
			snprintf(err, errlen, "--%s: '%s' is not a positive number of seconds",
				 o->name, arg);
			return -EINVAL;
		}
		*(double *)field = d;
		return 0;
	case OPT_U64:
	case OPT_U32:
	case OPT_PORT:
		if (opt_parse_u64(arg, &v) || v < o->min || v > o->max) {
			snprintf(err, errlen, "--%s: '%s' is not a whole number from %llu to %llu",
				 o->name, arg, (unsigned long long)o->min,
				 (unsigned long long)o->max);
			return -EINVAL;
		}
		if (o->type == OPT_U64)
			*(uint64_t *)field = v;
		else if (o->type == OPT_U32)
			*(uint32_t *)field = (uint32_t)v;
		else
			*(uint16_t *)field = (uint16_t)v;
		return 0;
	case OPT_ADDR:
		if (pb_parse_addr(arg, (struct pb_addr *)field)) {
			snprintf(err, errlen, "--%s: '%s' is not an IPv4 or IPv6 address", o->name,
				 arg);
			return -EINVAL;
		}
		return 0;
	case OPT_MAC:
		if (pb_parse_mac(arg, (uint8_t *)field)) {
			snprintf(err, errlen, "--%s: '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)",
				 o->name, arg);
			return -EINVAL;
		}
		*(bool *)((char *)cfg + o->flag_off) = true;
		return 0;
	case OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OPT_ENUM: {
		int i;

		for (i = 0; o->names[i]; i++) {
			if (!strcmp(arg, o->names[i])) {
				*(int *)field = i;
				return 0;
			}
		}
		snprintf(err, errlen, "--%s: '%s' is not one of %s", o->name, arg, o->metavar);
		return -EINVAL;
	}
	case OPT_RATE: {
		static const struct {
			char c;
			double mult;
		} sfx[] = { { 'k', 1e3 }, { 'K', 1e3 }, { 'm', 1e6 }, { 'M', 1e6 }, { 'G', 1e9 } };
		size_t k;

		errno = 0;
		d = strtod(arg, &end);
		for (k = 0; *arg && *end && k < sizeof(sfx) / sizeof(sfx[0]); k++) {
			if (*end == sfx[k].c && !end[1]) {
				d *= sfx[k].mult;
				end++;
			}
		}
		if (errno || *end || !*arg || !(d > 0) || !isfinite(d)) {
			snprintf(err, errlen, "--%s: '%s' is not a positive rate (e.g. 50k, 1.5M)",
				 o->name, arg);
			return -EINVAL;
		}
		*(double *)field = d;
		return 0;
	}
	case OPT_CPUS:
		return opt_parse_cpus(cfg, arg, err, errlen);
	case OPT_SWEEP:
		return opt_parse_sweep((struct pb_sweep *)field, arg, err, errlen);
	case OPT_CONFIG:
		/* loaded by pb_options_parse before everything else; keep the name */
		snprintf(field, sizeof(cfg->config), "%s", arg);
		return 0;
	case OPT_COUNT:
		(*(int *)field)++;
		return 0;
	case OPT_HELP:
	case OPT_VERSION:
		return 0;
	}
	return -EINVAL;
}

static int opt_has_arg(const struct pb_opt *o)
{
	return o->type == OPT_FLAG || o->type == OPT_COUNT || o->type == OPT_HELP ||
			       o->type == OPT_VERSION
		       ? no_argument
		       : required_argument;
}

int pb_methods_select(const char *spec, struct pb_selected *out, unsigned int max, char *bad,
		      size_t badlen)
{
	unsigned int n = 0, i;
	const char *p = spec;

	if (!strcmp(spec, "benchmark")) {
		for (i = 0; i < pb_methods_count; i++)
			if (n < max && out)
				out[n++] = (struct pb_selected){ pb_methods[i], 0 };
		return out ? (int)n : (int)pb_methods_count;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[64];
		const struct pb_method *m;
		unsigned int batch = 0;

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		m = len < sizeof(name) ? pb_method_find(name, &batch) : NULL;
		if (!m) {
			snprintf(bad, badlen, "%s", name);
			return -EINVAL;
		}
		if (out && n < max)
			out[n] = (struct pb_selected){ m, batch };
		n++;
		p += len + (p[len] == ',');
	}
	if (!n) {
		snprintf(bad, badlen, "%s", spec);
		return -EINVAL;
	}
	return (int)n;
}

/* Cross-field checks that no single row can make. */
static int opt_validate(struct pb_config *cfg, char *err, size_t errlen)
{
	struct pb_frame_spec base = { .srcip = cfg->srcip, .srcport = cfg->srcport };
	uint64_t room = pb_flows_available(&base, cfg->flows_src_ip);
	char bad[64];

	if (cfg->srcip.family != cfg->dstip.family) {
		snprintf(err, errlen, "--srcip and --dstip must both be IPv4 or both IPv6");
		return -EINVAL;
	}
	if (pb_methods_select(cfg->method, NULL, 0, bad, sizeof(bad)) < 0) {
		int off = snprintf(err, errlen, "unknown method '%s'; valid: benchmark", bad);
		unsigned int i;

		for (i = 0; i < pb_methods_count && off > 0 && (size_t)off < errlen; i++)
			off += snprintf(err + off, errlen - off, ", %s", pb_methods[i]->name);
		return -EINVAL;
	}
	if (cfg->flows > room || cfg->streams > room) {
		snprintf(err, errlen, "--flows %u: only %llu flows fit above source port %u%s",
			 cfg->flows, (unsigned long long)room, cfg->srcport,
			 cfg->flows_src_ip ? " and address" : " (try --flows-src-ip)");
		return -EINVAL;
	}
	if (cfg->imix && cfg->frame_size) {
		snprintf(err, errlen, "--imix and --frame-size both set the frame size: give one");
		return -EINVAL;
	}
	if (cfg->imix && cfg->sweep.kind == PB_SWEEP_FRAME_SIZE) {
		snprintf(err, errlen, "--imix cannot be swept over frame sizes");
		return -EINVAL;
	}
	if (cfg->pps && cfg->rate_gbps) {
		snprintf(err, errlen, "--pps and --rate both set a rate: give one");
		return -EINVAL;
	}
	return 0;
}

int pb_option_set(struct pb_config *cfg, const char *name, const char *value, char *err,
		  size_t errlen)
{
	size_t i;

	for (i = 0; i < PB_NOPTS; i++) {
		const struct pb_opt *o = &pb_opts[i];

		if (strcmp(o->name, name))
			continue;
		switch (o->type) {
		case OPT_HELP:
		case OPT_VERSION:
		case OPT_CONFIG:
			break; /* not something a scenario sets */
		case OPT_FLAG:
			if (!strcmp(value, "true") || !strcmp(value, "false")) {
				*(bool *)((char *)cfg + o->off) = !strcmp(value, "true");
				return 0;
			}
			snprintf(err, errlen, "%s: '%s' is not true or false", name, value);
			return -EINVAL;
		case OPT_COUNT: {
			uint64_t v;

			if (opt_parse_u64(value, &v) || v > 3) {
				snprintf(err, errlen, "%s: '%s' is not 0 to 3", name, value);
				return -EINVAL;
			}
			*(int *)((char *)cfg + o->off) = (int)v;
			return 0;
		}
		default:
			return opt_apply(o, cfg, value, err, errlen);
		}
	}
	snprintf(err, errlen, "unknown key '%s'", name);
	return -EINVAL;
}

/* --config FILE / -C FILE / --config=FILE, wherever it stands: it goes first. */
static const char *opt_find_config(int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if ((!strcmp(argv[i], "--config") || !strcmp(argv[i], "-C")) && i + 1 < argc)
			path = argv[++i];
		else if (!strncmp(argv[i], "--config=", 9))
			path = argv[i] + 9;
	}
	return path;
}

int pb_options_parse(struct pb_config *cfg, int argc, char **argv, enum pb_opt_action *action,
		     char *err, size_t errlen)
{
	struct option lopts[PB_NOPTS + 1];
	char sopts[PB_NOPTS * 2 + 2] = ":";
	size_t i, n = 1, off = 0;
	const char *config;
	int c, idx, ret;

	memset(cfg, 0, sizeof(*cfg));
	err[0] = '\0';
	*action = PB_OPT_RUN;
	for (i = 0; i < PB_NOPTS; i++) {
		if (pb_opts[i].def && opt_apply(&pb_opts[i], cfg, pb_opts[i].def, err, errlen))
			return -EINVAL; /* a bad default is a bug; say so rather than run */
		lopts[i] = (struct option){ pb_opts[i].name, opt_has_arg(&pb_opts[i]), NULL, 0 };
		if (pb_opts[i].short_name) {
			sopts[n++] = pb_opts[i].short_name;
			if (opt_has_arg(&pb_opts[i]) == required_argument)
				sopts[n++] = ':';
		}
	}
	memset(&lopts[PB_NOPTS], 0, sizeof(lopts[0]));

	for (i = 0; i < (size_t)argc && off < sizeof(cfg->command) - 1; i++)
		off += snprintf(cfg->command + off, sizeof(cfg->command) - off, "%s%s",
				i ? " " : "", argv[i]);

	/* defaults, then the scenario file, then the command line: the last word wins */
	config = opt_find_config(argc, argv);
	if (config) {
		ret = pb_scenario_load(config, cfg, err, errlen);
		if (ret)
			return ret;
	}

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, sopts, lopts, &idx)) != -1) {
		const struct pb_opt *o = NULL;

		if (c == '?' || c == ':') {
			const char *what =
				optopt ? (char[]){ '-', (char)optopt, 0 } : argv[optind - 1];

			snprintf(err, errlen, "%s '%s' (see --help)",
				 c == ':' ? "missing value for" : "unknown option", what);
			return -EINVAL;
		}
		if (c == 0)
			o = &pb_opts[idx];
		for (i = 0; !o && i < PB_NOPTS; i++)
			if (pb_opts[i].short_name == c)
				o = &pb_opts[i];
		if (!o)
			return -EINVAL;
		if (o->type == OPT_HELP)
			*action = PB_OPT_HELP;
		if (o->type == OPT_VERSION)
			*action = PB_OPT_VERSION;
		ret = opt_apply(o, cfg, optarg, err, errlen);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
		return -EINVAL;
	}
	if (*action != PB_OPT_RUN)
		return 0;
	return opt_validate(cfg, err, errlen);
}

void pb_options_usage(FILE *f)
{
	unsigned int i, j;

	fprintf(f,
		"usage: pktbench [--method NAME|benchmark] [options]\n\n"
		"Sends UDP traffic through a Linux send path and measures it. Without --iface it\n"
		"builds a namespace lab (veth pair, 198.18.0.1 -> 198.18.0.2) whose XDP receiver\n"
		"counts what really arrived. Needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN, "
		"CAP_NET_RAW).\n\n"
		"Options:\n");
	for (i = 0; i < PB_NOPTS; i++) {
		const struct pb_opt *o = &pb_opts[i];
		char left[64];

		snprintf(left, sizeof(left), "%s%c%s--%s%s%s", o->short_name ? "-" : "  ",
			 o->short_name ? o->short_name : ' ', o->short_name ? "," : " ", o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
		fprintf(f, "  %-30s %s", left, o->help);
		if (o->def && o->type != OPT_FLAG)
			fprintf(f, " (default %s)", o->def);
		fputc('\n', f);
	}
	fprintf(f, "\nMethods (built into this binary):\n");
	for (i = 0; i < pb_methods_count; i++) {
		const struct pb_method *m = pb_methods[i];
		char names[80];
		int off = snprintf(names, sizeof(names), "%s", m->name);

		for (j = 0; j < 3 && m->aliases[j].name; j++)
			off += snprintf(names + off, sizeof(names) - off, "%s%s",
					j ? "," : " (alias ", m->aliases[j].name);
		if (m->aliases[0].name)
			snprintf(names + off, sizeof(names) - off, ")");
		fprintf(f, "  %-30s %s\n", names, m->help);
	}
	fprintf(f, "  %-30s %s\n", "benchmark",
		"every method that can run here, one after another, then a table by packets/s");
	fprintf(f,
		"\n  pktbench compare BASE.json NEW.json [--tolerance PCT] [--normalize METHOD]\n"
		"      compares two JSON result sets; exit 1 on a regression beyond PCT (default\n"
		"      10), 2 on unreadable input (pktbench compare --help tells more)\n");
	fprintf(f, "\nExit status: 0 ok, 1 a run failed, 2 bad input or missing privileges,\n"
		   "130 interrupted (partial results are still printed).\n");
}
