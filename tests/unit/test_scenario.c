// SPDX-License-Identifier: MIT
/*
 * Scenario files: every shipped scenario loads with the values it says; each kind of bad YAML
 * gives its one-line message with the file, line and column; the command line overrides a file.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "method.h"
#include "options.h"
#include "scenario.h"
#include "check.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR: the source tree, for scenarios/ (set by CMakeLists.txt)"
#endif

static char dir[64];
static char path[128];
static char err[512];
static char capture[128]; /* a capture --replay takes: a pcap header, no frames */

static void write_capture(void)
{
	/* pcap, microseconds, version 2.4, snaplen 65535, Ethernet: little-endian */
	static const unsigned char hdr[24] = {
		0xd4, 0xc3, 0xb2, 0xa1, 2,    0,    4, 0, 0, 0, 0, 0,
		0,    0,    0,	  0,	0xff, 0xff, 0, 0, 1, 0, 0, 0
	};
	FILE *f;

	snprintf(capture, sizeof(capture), "%s/x.pcap", dir);
	f = fopen(capture, "wb");
	if (!f || fwrite(hdr, sizeof(hdr), 1, f) != 1 || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", capture);
		exit(1);
	}
}

/* The defaults, as pb_options_parse leaves them for a bare "pktbench". */
static void defaults(struct pb_config *cfg)
{
	char *argv[] = { "pktbench", NULL };
	enum pb_opt_action action;

	if (pb_options_parse(cfg, 1, argv, &action, err, sizeof(err)))
		fprintf(stderr, "defaults: %s\n", err);
}

/* Writes text to a file of the temp dir named name; its path is left in path. */
static const char *write_file(const char *name, const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(1);
	}
	return path;
}

/* Loads text (written to a file) on top of the defaults; the loader's return value. */
static int load(const char *text, struct pb_config *cfg)
{
	defaults(cfg);
	write_file("s.yaml", text);
	return pb_scenario_load(path, cfg, err, sizeof(err));
}

/* text must fail with -EINVAL and exactly "path:want" (want holds line:col: message). */
#define BAD(text, want)                                                                            \
	do {                                                                                       \
		struct pb_config c_;                                                               \
		char w_[600];                                                                      \
		int r_ = load(text, &c_);                                                          \
                                                                                                   \
		snprintf(w_, sizeof(w_), "%s:%s", path, want);                                     \
		CHECK(r_ == -EINVAL, "%s: returned %d, want -EINVAL", want, r_);                   \
		CHECK(!strcmp(err, w_), "message\n  got  '%s'\n  want '%s'", err, w_);             \
		CHECK(!strchr(err, '\n'), "one line: '%s'", err);                                  \
	} while (0)

/* The same, when only the start of the message is fixed. */
#define BAD_PREFIX(text, want)                                                                     \
	do {                                                                                       \
		struct pb_config c_;                                                               \
		char w_[600];                                                                      \
		int r_ = load(text, &c_);                                                          \
                                                                                                   \
		snprintf(w_, sizeof(w_), "%s:%s", path, want);                                     \
		CHECK(r_ == -EINVAL, "%s: returned %d, want -EINVAL", want, r_);                   \
		CHECK(!strncmp(err, w_, strlen(w_)), "message\n  got  '%s'\n  want '%s...'", err,  \
		      w_);                                                                         \
		CHECK(!strchr(err, '\n'), "one line: '%s'", err);                                  \
	} while (0)

static int parse(int argc, char **argv, struct pb_config *cfg)
{
	enum pb_opt_action action;

	return pb_options_parse(cfg, argc, argv, &action, err, sizeof(err));
}

/* Every file in scenarios/ loads, through --config as a user runs it; the three we ship say
 * what they are for. */
static void test_shipped(void)
{
	const char *sdir = PB_SOURCE_DIR "/scenarios";
	unsigned int n = 0;
	struct dirent *e;
	DIR *d = opendir(sdir);

	CHECK(d != NULL, "%s: %s", sdir, strerror(errno));
	while (d && (e = readdir(d))) {
		const char *name = e->d_name, *dot = strrchr(name, '.');
		char file[512];
		struct pb_config cfg;
		char *argv[] = { "pktbench", "--config", file, NULL };
		int ret;

		if (!dot || strcmp(dot, ".yaml"))
			continue;
		snprintf(file, sizeof(file), "%s/%s", sdir, name);
		ret = parse(3, argv, &cfg);
		CHECK(ret == 0, "%s does not load: %s", name, err);
		n++;
		if (ret)
			continue;
		if (!strcmp(name, "ci-smoke.yaml")) {
			CHECK(!strcmp(cfg.method, "udp_sendto,sendmmsg,af_packet"), "ci-smoke: %s",
			      cfg.method);
			CHECK(cfg.duration_s == 1, "ci-smoke: duration %g", cfg.duration_s);
			CHECK(cfg.sweep.kind == PB_SWEEP_NONE, "ci-smoke: no sweep");
		} else if (!strcmp(name, "frame-size-sweep.yaml")) {
			/* RFC 2544's sizes less the FCS: 1514 fills a 1500-byte MTU (issue 45) */
			static const uint32_t want[] = { 60, 124, 252, 508, 1020, 1514 };

			CHECK(!strcmp(cfg.method, "af_packet,sendmmsg"), "frame-size-sweep: %s",
			      cfg.method);
			CHECK(cfg.duration_s == 2, "frame-size-sweep: duration %g", cfg.duration_s);
			CHECK(cfg.sweep.kind == PB_SWEEP_FRAME_SIZE && cfg.sweep.n == 6 &&
				      !memcmp(cfg.sweep.values, want, sizeof(want)),
			      "frame-size-sweep: the six sizes, the largest %u (a 1500-byte MTU's "
			      "frame is 1514)",
			      cfg.sweep.n ? cfg.sweep.values[cfg.sweep.n - 1] : 0);
		} else if (!strcmp(name, "queue-sweep.yaml")) {
			CHECK(!strcmp(cfg.method, "af_packet"), "queue-sweep: %s", cfg.method);
			CHECK(cfg.duration_s == 2, "queue-sweep: duration %g", cfg.duration_s);
			CHECK(cfg.sweep.kind == PB_SWEEP_STREAMS && cfg.sweep.n == 2 &&
				      cfg.sweep.values[0] == 1 && cfg.sweep.values[1] == 2,
			      "queue-sweep: streams 1,2");
		}
	}
	if (d)
		closedir(d);
	CHECK(n >= 3, "only %u scenarios in %s", n, sdir);
}

/* Every key the schema has, each with a good value: also proves each is an option's name. */
static void test_every_key(void)
{
	struct pb_config cfg;
	int ret = load("method: udp_sendto\n"
		       "duration: 0.5\n"
		       "count: 1000\n"
		       "repeat: 3\n"
		       "iface: veth9\n"
		       "dstip: 2001:db8::2\n"
		       "srcip: '2001:db8::1'\n"
		       "dstmac: aa:bb:cc:dd:ee:ff\n"
		       "srcmac: \"02:00:00:00:00:01\"\n"
		       "dstport: 9\n"
		       "srcport: 1000\n"
		       "payloadsize: 100\n"
		       "frame-size: 128\n"
		       "sweep: {streams: [1, 2]}\n"
		       "imix: false\n"
		       "flows: 16\n"
		       "flows-src-ip: true\n"
		       "vlan: 100\n"
		       "vlan-prio: 3\n"
		       "streams: 2\n"
		       "segments: 4\n"
		       "batch: 32\n"
		       "pps: 50k\n"
		       "rate: 1.5\n"
		       "cpus: 0\n"
		       "link-timeout: 10\n"
		       "keep-lab: true\n"
		       "xdp-mode: generic\n"
		       "zerocopy: off\n"
		       "force: false\n"
		       "format: json\n"
		       "output: /tmp/out.json\n"
		       "quiet: true\n"
		       "verbose: 2\n",
		       &cfg);

	CHECK(ret == 0, "every key: %s", err);
	CHECK(!strcmp(cfg.method, "udp_sendto") && cfg.duration_s == 0.5 && cfg.count == 1000,
	      "method, duration, count");
	CHECK(!strcmp(cfg.iface, "veth9") && cfg.dstip.family == AF_INET6 &&
		      cfg.srcip.family == AF_INET6,
	      "iface, addresses");
	CHECK(cfg.dstmac_set && cfg.dstmac[5] == 0xff && cfg.srcmac_set && cfg.srcmac[5] == 1,
	      "MACs");
	CHECK(cfg.dstport == 9 && cfg.srcport == 1000, "ports");
	CHECK(cfg.payloadsize == 100 && cfg.frame_size == 128, "sizes");
	CHECK(cfg.sweep.kind == PB_SWEEP_STREAMS && cfg.sweep.n == 2, "sweep");
	CHECK(cfg.repeat == 3 && !cfg.imix, "repeat, imix");
	CHECK(cfg.flows == 16 && cfg.flows_src_ip && cfg.vlan == 100 && cfg.vlan_prio == 3,
	      "flows, vlan");
	CHECK(cfg.streams == 2 && cfg.segments == 4 && cfg.batch == 32, "streams, segments, batch");
	CHECK(cfg.pps == 50000 && cfg.rate_gbps == 1.5, "pps 50k, rate 1.5");
	CHECK(cfg.ncpus == 1 && cfg.cpus[0] == 0, "cpus");
	CHECK(cfg.link_timeout_s == 10 && cfg.keep_lab && !cfg.force, "link-timeout, flags");
	CHECK(cfg.xdp_mode == PB_XDP_GENERIC && cfg.zerocopy == PB_OFF, "xdp-mode, zerocopy");
	CHECK(cfg.format == PB_FORMAT_JSON && !strcmp(cfg.output, "/tmp/out.json"), "output");
	CHECK(cfg.quiet && cfg.verbose == 2, "quiet, verbose");

	CHECK(load("method: af_packet,sendmmsg\n", &cfg) == 0 &&
		      !strcmp(cfg.method, "af_packet,sendmmsg"),
	      "method: a comma list: %s", err);
	CHECK(load("methods:\n  - udp_sendto\n  - af_packet\n", &cfg) == 0 &&
		      !strcmp(cfg.method, "udp_sendto,af_packet"),
	      "methods as a block list: %s", err);
	CHECK(load("pps: 50000\n", &cfg) == 0 && cfg.pps == 50000, "pps as a number: %s", err);
	CHECK(load("sweep:\n  pps: [10k, 20000]\n", &cfg) == 0 && cfg.sweep.kind == PB_SWEEP_PPS &&
		      cfg.sweep.n == 2 && cfg.sweep.values[0] == 10000 &&
		      cfg.sweep.values[1] == 20000,
	      "sweep: {pps: [10k, 20000]}, rates as --pps takes them: %s", err);
	CHECK(load("method: [udp_sendto, af_packet]\n", &cfg) == 0 &&
		      !strcmp(cfg.method, "udp_sendto,af_packet"),
	      "method as a list: %s", err);
	CHECK(load("cpus: [0]\n", &cfg) == 0 && cfg.ncpus == 1 && cfg.cpus[0] == 0,
	      "cpus as a list: %s", err);
	CHECK(load("sweep: frame-size=64,128\n", &cfg) == 0 &&
		      cfg.sweep.kind == PB_SWEEP_FRAME_SIZE && cfg.sweep.n == 2 &&
		      cfg.sweep.values[1] == 128,
	      "sweep as the command line spells it: %s", err);
	CHECK(load("sweep:\n  streams: 1,2\n", &cfg) == 0 && cfg.sweep.kind == PB_SWEEP_STREAMS &&
		      cfg.sweep.n == 2,
	      "sweep with its values in one scalar: %s", err);
	CHECK(load("dstport: !!int 99\nquiet: false\n", &cfg) == 0 && cfg.dstport == 99 &&
		      !cfg.quiet,
	      "a tag is ignored, false is false: %s", err);
	CHECK(load("{duration: 3, dstport: 99}\n", &cfg) == 0 && cfg.dstport == 99,
	      "a flow mapping: %s", err);
	CHECK(load("---\nduration: 3\n...\n", &cfg) == 0 && cfg.duration_s == 3,
	      "explicit document markers: %s", err);
}

/* A value row o takes that differs from its default, spelt as on the command line. */
static const char *sample(const struct pb_opt *o, char *buf, size_t len)
{
	const struct pb_opt *swept;

	switch (o->type) {
	case OPT_STR:
		/* the string rows with a grammar of their own, or a file checked as it is given */
		if (!strcmp(o->name, "replay"))
			return capture;
		return strcmp(o->name, "imix-sizes") ? "x1" : "64:7,9018:1";
	case OPT_SECS:
		return "2.5";
	case OPT_U64:
	case OPT_U32:
	case OPT_PORT: {
		/* a value above the minimum that is not the default, so it changes something */
		unsigned long long v = o->min < o->max ? o->min + 1 : o->min;

		if (o->def && strtoull(o->def, NULL, 10) == v && v < o->max)
			v++;
		snprintf(buf, len, "%llu", v);
		return buf;
	}
	case OPT_ADDR:
		return "198.18.0.9";
	case OPT_MAC:
		return "02:00:00:00:00:09";
	case OPT_ENUM: {
		unsigned int k = 0;

		while (o->names[k + 1])
			k++;
		return o->names[k];
	}
	case OPT_RATE:
		/* a bit rate says its unit; a factor has none (issue 45's rule) */
		return o->flags & PB_OPTF_BITS	   ? "1.5Gbit"
		       : o->flags & PB_OPTF_FACTOR ? "1.5"
						   : "1.5M";
	case OPT_PCT:
		return "5";
	case OPT_CPUS:
		return "0";
	case OPT_SWEEP:
		swept = pb_cmd_opt(&pb_cmd_main, o->names[0]);
		if (!swept)
			return NULL;
		snprintf(buf, len, "%s=%llu,%llu", o->names[0], (unsigned long long)swept->min,
			 (unsigned long long)swept->min + 1);
		return buf;
	case OPT_METHODS:
		return strcmp(pb_methods[0]->name, o->def ? o->def : "") ? pb_methods[0]->name
									 : pb_methods[1]->name;
	case OPT_FLAG:
		return "true";
	case OPT_COUNT:
		return "2";
	default:
		return NULL;
	}
}

/* cfg less what records how it was made (the command line, the scenario's name). */
static void strip(struct pb_config *cfg)
{
	memset(cfg->command, 0, sizeof(cfg->command));
	memset(cfg->config, 0, sizeof(cfg->config));
}

/*
 * The row o needs to do anything (pktbench's pb_need tables: the first it names), or NULL;
 * *value the value it needs ("lab=router": router), or NULL for any.
 */
static const struct pb_opt *row_need(const struct pb_opt *o, const char **value)
{
	const struct pb_need *const *t;
	const struct pb_need *e;
	char name[32];

	for (t = pb_cmd_main.needs; t && *t; t++) {
		for (e = *t; e->opt; e++) {
			if (strcmp(e->opt, o->name))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(e->needs[0], "="),
				 e->needs[0]);
			*value = strchr(e->needs[0], '=') ? strchr(e->needs[0], '=') + 1 : NULL;
			return pb_cmd_opt(&pb_cmd_main, name);
		}
	}
	return NULL;
}

/*
 * Every row of pktbench's table that a file may give, with a value generated from the row's
 * type: `name: value` in a file gives exactly the configuration `--name value` gives on the
 * command line (also as a one-item list where the row takes lists), and it changes something.
 * Rows a file may not give are unknown keys there. Nothing here lists option names by hand
 * but the one whose string has a grammar (sample()).
 */
static void test_table_keys(void)
{
	static struct pb_config def, cli, file;
	unsigned int i, n = 0;

	defaults(&def);
	strip(&def);
	for (i = 0; i < pb_cmd_main.nopts; i++) {
		const struct pb_opt *o = &pb_cmd_main.opts[i];
		char buf[128], text[512], flag[80], cerr[512], nbuf[128], nflag[80];
		const char *v = sample(o, buf, sizeof(buf)), *nv;
		char *argv[] = { "pktbench", flag, (char *)v, NULL, NULL, NULL, NULL };
		const struct pb_opt *need;
		char *fargv[] = { "pktbench", "--config", path, NULL };
		int argc = 3, rc, rf;

		snprintf(flag, sizeof(flag), "--%s", o->name);
		if (!pb_opt_in_file(o)) {
			snprintf(text, sizeof(text), "%s: x\n", o->name);
			CHECK(load(text, &file) == -EINVAL && strstr(err, "unknown key"),
			      "%s: not a scenario key, yet: %s", o->name, err);
			continue;
		}
		CHECK(v != NULL, "--%s: no sample value for its type %d", o->name, o->type);
		if (!v)
			continue;
		if (o->type == OPT_FLAG)
			argc = 2;
		if (o->type == OPT_COUNT) {
			argv[2] = flag;
			argc = 3;
		}
		argv[argc] = NULL;
		/* a row that does nothing alone is given with the first option it needs */
		nv = NULL;
		need = row_need(o, &nv);
		nv = need && !nv ? sample(need, nbuf, sizeof(nbuf)) : nv;
		if (nv) {
			/* in the table's order, as a file's options are noted */
			snprintf(nflag, sizeof(nflag), "--%s", need->name);
			memmove(argv + 3, argv + 1, (size_t)(argc - 1) * sizeof(*argv));
			argv[1] = nflag;
			argv[2] = (char *)nv;
			argc += 2;
			argv[argc] = NULL;
		}
		rc = parse(argc, argv, &cli);
		snprintf(cerr, sizeof(cerr), "%s", err);
		snprintf(text, sizeof(text), "%s: %s\n%s%s%s%s", o->name, v, nv ? need->name : "",
			 nv ? ": " : "", nv ? nv : "", nv ? "\n" : "");
		write_file("k.yaml", text);
		rf = parse(3, fargv, &file);
		CHECK(rc == 0, "--%s %s: %s", o->name, v, cerr);
		CHECK(rf == rc, "%s: %s in a file: %d (%s), on the command line %d", o->name, v, rf,
		      err, rc);
		if (rc || rf)
			continue;
		strip(&cli);
		strip(&file);
		CHECK(!memcmp(&cli, &file, sizeof(cli)), "%s: %s: the file means something else",
		      o->name, v);
		CHECK(memcmp(&cli, &def, sizeof(cli)), "--%s %s changes nothing", o->name, v);
		n++;

		if (!(o->flags & PB_OPTF_LIST) && !o->list_key)
			continue;
		snprintf(text, sizeof(text), "%s: [%s]\n", o->list_key ? o->list_key : o->name, v);
		write_file("k.yaml", text);
		rf = parse(3, fargv, &file);
		strip(&file);
		CHECK(rf == 0 && !memcmp(&cli, &file, sizeof(cli)), "%s as a list: %s", text, err);
	}
	CHECK(n >= 30, "only %u keys checked", n);
	unlink(write_file("k.yaml", ""));
}

static void test_bad(void)
{
	struct pb_config cfg;
	char want[600];
	int ret;

	/* keys */
	BAD("duration: 3\ndurration: 5\n", "2:1: unknown key 'durration'");
	BAD("config: other.yaml\n", "1:1: unknown key 'config'");
	BAD("sweep:\n  steps: [1, 2]\n", "2:3: sweep: unknown key 'steps'");
	BAD("duration: 1\nduration: 2\n", "2:1: 'duration' is given twice (first at line 1)");
	BAD("[a, b]: 1\n", "1:1: a key must be an option name, not a list");
	BAD("{a: 1}: 2\n", "1:1: a key must be an option name, not a mapping");
	BAD("duration: 1\nmethods: [udp_sendto]\nduration: 2\n",
	    "3:1: 'duration' is given twice (first at line 1)");
	BAD("methods: [sendmmsg]\nmethods: [udp_sendto]\n",
	    "2:1: 'methods' is given twice (first at line 1)");
	BAD("help: true\n", "1:1: unknown key 'help'");
	/* one line: a line end in a value is a space; other control bytes stay for the printer,
	 * which escapes them (pb_log_write, unit/test_log) */
	BAD("\"dur\\nation\": 1\n", "1:1: unknown key 'dur ation'");
	BAD("\"dur\\x01ation\": 1\n", "1:1: unknown key 'dur\x01"
				      "ation'");

	/* types */
	BAD("dstport: {a: 1}\n", "1:10: dstport: expected a whole number, not a mapping");
	BAD("duration: [1, 2]\n", "1:11: duration: expected a number, not a list");
	BAD("methods: udp_sendto\n", "1:10: methods: expected a list, not 'udp_sendto'");
	BAD("sweep: [64]\n", "1:8: sweep: expected a mapping, not a list");
	BAD("sweep: 64\n",
	    "1:8: sweep: '64' is not frame-size=V1,V2,.. or streams=V1,V2,.. or batch=V1,V2,.. or "
	    "segments=V1,V2,.. or ring=V1,V2,.. or pps=V1,V2,..");
	BAD("\n\ndstport: abc\n", "3:10: dstport: 'abc' is not a whole number from 1 to 65535");
	BAD("# one\n# two\n# three\nduration: abc\n",
	    "4:11: duration: 'abc' is not a positive number of seconds (a decimal number of "
	    "seconds, or one with ms, s, m, h or d after it)");
	BAD("sweep:\n  frame-size: [64, x]\n",
	    "2:20: sweep: frame-size: 'x' is not a whole number from 60 to 9216");
	BAD("quiet: maybe\n", "1:8: quiet: 'maybe' is not true or false");
	BAD("iface:\n", "1:7: iface: no value given");

	/* ranges: the command line's own checks and words */
	BAD("duration: 0\n", "1:11: duration: '0' is not a positive number of seconds (a decimal "
			     "number of seconds, or one with ms, s, m, h or d after it)");
	/* YAML's 0x10 is 16 to some readers: the options' own parser says it is no decimal */
	BAD("duration: 0x10\n", "1:11: duration: '0x10' is not a decimal number of seconds, or one "
				"with ms, s, m, h or d after it");
	BAD("pps: .inf\n", "1:6: pps: '.inf' is not a positive rate (a decimal number of packets "
			   "a second, or one with k, M or G after it)");
	/* issue 45: the units the command line takes, and its refusals, in a file too */
	BAD("rate: 1.5M\n",
	    "1:7: rate: '1.5M' is a count (M); --rate takes a decimal number of "
	    "Gb/s on the wire, or one with kbit, Mbit, Gbit, Tbit, Mb/s or Gb/s "
	    "after it; 1.5 Mb/s is --rate 1.5Mbit; for packets a second, --pps 1.5M");
	CHECK(load("duration: 500ms\nrate: 100Mbit\n", &cfg) == 0 && cfg.duration_s == 0.5 &&
		      cfg.rate_gbps == 0.1,
	      "duration: 500ms, rate: 100Mbit: %s", err);
	BAD("dstport: 70000\n", "1:10: dstport: '70000' is not a whole number from 1 to 65535");
	BAD("dstport: -1\n", "1:10: dstport: '-1' is not a whole number from 1 to 65535");
	BAD("payloadsize: 3\n", "1:14: payloadsize: '3' is not a whole number from 8 to 65507");
	BAD("dstport: 1.5\n", "1:10: dstport: '1.5' is not a whole number from 1 to 65535");
	BAD("sweep: {frame-size: [64, 20]}\n",
	    "1:26: sweep: frame-size: '20' is not a whole number from 60 to 9216");
	BAD("sweep:\n  frame-size: 64,20\n",
	    "2:15: sweep: frame-size takes up to 32 values from 60 to 9216: 'frame-size=64,20'");
	BAD("sweep: {frame-size: [64], 2: [1]}\n", "1:27: sweep: unknown key '2'");
	BAD("method: null\n", "1:9: method: no value given (YAML reads null as nothing: quote it)");
	BAD("sweep: {streams: [0]}\n",
	    "1:19: sweep: streams: '0' is not a whole number from 1 to 64");
	BAD("pps: fast\n", "1:6: pps: 'fast' is not a positive rate (a decimal number of packets "
			   "a second, or one with k, M or G after it)");
	BAD("format: yaml\n", "1:9: format: 'yaml' is not one of table|json|csv");

	BAD("verbose: 4\n", "1:10: verbose: '4' is not 0 to 3");
	BAD("imix: yes\n", "1:7: imix: 'yes' is not true or false");
	BAD("cpus: [0, 4096]\n", "1:11: cpus: CPU 4096 is not online (or not allowed)");
	BAD("cpus: [0, x]\n", "1:11: cpus: 'x' is not a CPU list (e.g. 0,1 or 0-3)");
	BAD("dstport: [1]\n", "1:10: dstport: expected a whole number, not a list");

	/* addresses */
	BAD("dstip: 300.1.1.1\n", "1:8: dstip: '300.1.1.1' is not an IPv4 or IPv6 address");
	BAD("srcmac: aa:bb:cc\n",
	    "1:9: srcmac: 'aa:bb:cc' is not a MAC address (aa:bb:cc:dd:ee:ff)");

	/* methods */
	BAD_PREFIX("methods: [udp_sendto, bogus]\n", "1:23: unknown method 'bogus': ");
	BAD_PREFIX("method: nope\n", "1:9: unknown method 'nope': ");
	BAD("methods: []\n", "1:10: methods: the list is empty");
	BAD("methods: [udp_sendto, [af_packet]]\n",
	    "1:23: methods: expected a single value in the list, not a list");
	BAD("methods: [udp_sendto, ~]\n", "1:23: methods: an empty item in the list");
	BAD("method: {a: 1}\n", "1:9: method: expected a single value or a list, not a mapping");
	BAD("method: af_packet\nmethods: [sendmmsg]\n",
	    "2:1: give 'method' or 'methods', not both");
	BAD("sweep: {frame-size: [64], streams: [1]}\n",
	    "1:27: sweep: give frame-size, streams, batch, segments, ring or pps, only one");
	BAD("sweep: {}\n", "1:8: sweep: expected frame-size, streams, batch, segments, ring or pps "
			   "with a list of values");
	BAD("sweep: {frame-size: {a: 1}}\n",
	    "1:21: sweep: frame-size: expected a list, not a mapping");
	BAD("sweep: {frame-size: }\n", "1:21: sweep: frame-size: no value given");
	BAD("sweep: {[a]: 1}\n", "1:9: a key must be an option name, not a list");

	/* malformed YAML */
	BAD("duration: 1\n  x: 2\n", "2:4: mapping values are not allowed in this context");
	BAD("methods: [udp_sendto, af_packet\nduration: 1\n",
	    "2:9: did not find expected ',' or ']' (while parsing a flow sequence at line 1)");
	BAD("duration: \"5\n", "2:1: found unexpected end of stream (while scanning a quoted "
			       "scalar at line 1)");
	BAD("duration: 1\n\tdstport: 9\n", "2:1: found a tab character that violates indentation "
					   "(while scanning a plain scalar at line 1)");
	BAD("duration: 1\xff\n", "1:12: invalid leading UTF-8 octet (byte 0xff)");
	BAD("pps: &a 5k\nrate: *a\n", "2:7: aliases (*name) are not supported in a scenario");
	BAD("duration: 1\n---\nduration: 2\n", "2:1: a second YAML document: a scenario is one");
	BAD("iface: \"a\\0b\"\n", "1:8: a NUL character in a key or value");
	BAD("sweep: [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]\n",
	    "1:23: nested more than 16 deep: not a scenario");

	/* not a mapping, or nothing */
	BAD("", "1:1: empty scenario: expected option names and values, e.g. 'duration: 5'");
	BAD("# only a comment\n\n",
	    "1:1: empty scenario: expected option names and values, e.g. 'duration: 5'");
	BAD("{}\n", "1:1: empty scenario: expected option names and values, e.g. 'duration: 5'");
	BAD("- duration: 1\n",
	    "1:1: expected a mapping of option names to values (e.g. 'duration: 5'), not a list");
	BAD("duration\n", "1:1: expected a mapping of option names to values (e.g. 'duration: "
			  "5'), not 'duration'");

	/* a bad file changes nothing */
	defaults(&cfg);
	write_file("s.yaml", "duration: 9\nstreams: 4\ndstport: 0\n");
	ret = pb_scenario_load(path, &cfg, err, sizeof(err));
	CHECK(ret == -EINVAL && cfg.duration_s == 5 && cfg.streams == 1,
	      "a file that fails leaves the config as it was");

	/* unreadable */
	snprintf(want, sizeof(want), "%s/missing.yaml", dir);
	ret = pb_scenario_load(want, &cfg, err, sizeof(err));
	CHECK(ret == -ENOENT, "missing file: %d", ret);
	snprintf(want, sizeof(want), "%s/missing.yaml: No such file or directory", dir);
	CHECK(!strcmp(err, want), "missing file: '%s'", err);
	ret = pb_scenario_load(dir, &cfg, err, sizeof(err));
	CHECK(ret == -EISDIR && strstr(err, ": Is a directory"), "a directory: %d '%s'", ret, err);
}

/* defaults < file < command line, wherever --config stands. */
/* A --pps profile in a scenario: the same string as on the command line (issue 30). */
static void test_profile(void)
{
	struct pb_config cfg;

	CHECK(load("pps: 100k:10s,200k:2.5s\n", &cfg) == 0 && cfg.sweep.profile &&
		      cfg.sweep.n == 2 && cfg.sweep.values[1] == 200000 &&
		      cfg.sweep.secs[1] == 2.5 && cfg.pps == 0,
	      "pps: 100k:10s,200k:2.5s: two steps (%s)", err);
	CHECK(load("pps: 10k-50k:5s\n", &cfg) == 0 && cfg.sweep.n == 5 &&
		      cfg.sweep.values[4] == 50000,
	      "pps: 10k-50k:5s: a ramp of 5 steps (%s)", err);
	CHECK(load("pps: '100k:'\n", &cfg) == -EINVAL && strstr(err, "profile"),
	      "pps: '100k:' is refused, saying what a profile is (%s)", err);
}

static void test_precedence(void)
{
	struct pb_config cfg;
	const char *file = write_file("p.yaml", "duration: 3\ndstport: 9\nmethods: [udp_sendto]\n");
	char eq[160];
	char *a1[] = { "pktbench", "--config", (char *)file, "--duration", "7", NULL };
	char *a2[] = { "pktbench", "-d", "7", "-C", (char *)file, NULL };
	char *a3[] = { "pktbench", eq, "--dstport", "10", NULL };
	char *a4[] = { "pktbench", "--config", (char *)file, NULL };
	char *bad[] = { "pktbench", "--config", eq, NULL };

	CHECK(parse(5, a1, &cfg) == 0, "--config then --duration: %s", err);
	CHECK(cfg.duration_s == 7, "the command line wins: duration %g", cfg.duration_s);
	CHECK(cfg.dstport == 9 && !strcmp(cfg.method, "udp_sendto"),
	      "what the command line does not give comes from the file");
	CHECK(cfg.payloadsize == 18, "what neither gives is the default");
	CHECK(!strcmp(cfg.config, file), "cfg.config names the file");

	CHECK(parse(5, a2, &cfg) == 0 && cfg.duration_s == 7 && cfg.dstport == 9,
	      "-d before -C: still the command line: %s", err);
	snprintf(eq, sizeof(eq), "--config=%s", file);
	CHECK(parse(4, a3, &cfg) == 0 && cfg.dstport == 10 && cfg.duration_s == 3,
	      "--config=FILE: %s", err);
	CHECK(parse(3, a4, &cfg) == 0 && cfg.duration_s == 3, "the file alone: %s", err);

	/*
	 * Options that set the same thing: both in the file is a bad file; the command line's
	 * overrides the file's, as the same option's would (the file's goes back to its default)
	 */
	file = write_file("c.yaml", "duration: 3\ncount: 10\n");
	CHECK(parse(3, a4, &cfg) == -EINVAL &&
		      !strcmp(err + strlen(file), ": duration and count both set when each run "
						  "ends: give one"),
	      "duration and count in one file: '%s'", err);
	file = write_file("c.yaml", "duration: 3\nsweep: frame-size=64,128\nstreams: 2\n");
	{
		char *a5[] = { "pktbench", "--config",	   (char *)file, "--count",
			       "5",	   "--frame-size", "100",	 NULL };

		CHECK(parse(7, a5, &cfg) == 0 && cfg.count == 5 && cfg.duration_s == 5 &&
			      cfg.frame_size == 100 && !cfg.sweep.kind && cfg.streams == 2,
		      "--count and --frame-size over the file's duration and sweep: %s", err);
	}
	unlink(file);
	write_file("bad.yaml", "duration: 3\ndurration: 4\n");
	snprintf(eq, sizeof(eq), "%s", path);
	CHECK(parse(3, bad, &cfg) == -EINVAL, "a bad file fails the parse");
	CHECK(!strncmp(err, path, strlen(path)) && strstr(err, ":2:1: unknown key 'durration'"),
	      "and says where: '%s'", err);
}

int main(void)
{
	struct pb_config cfg;

	snprintf(dir, sizeof(dir), "/tmp/pb-scenario-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	if (load("duration: 1\n", &cfg) == -EOPNOTSUPP) {
		printf("skip: %s\n", err);
		return 77;
	}
	write_capture();
	test_shipped();
	test_every_key();
	test_table_keys();
	test_bad();
	test_profile();
	test_precedence();

	unlink(write_file("s.yaml", ""));
	unlink(write_file("p.yaml", ""));
	unlink(write_file("bad.yaml", ""));
	unlink(capture);
	rmdir(dir);
	return check_summary();
}
