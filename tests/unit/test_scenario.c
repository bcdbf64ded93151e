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

#include "options.h"
#include "scenario.h"
#include "check.h"

#ifndef PB_SOURCE_DIR
#error "PB_SOURCE_DIR: the source tree, for scenarios/ (set by CMakeLists.txt)"
#endif

static char dir[64];
static char path[128];
static char err[512];

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
			static const uint32_t want[] = { 64, 128, 256, 512, 1024, 1518 };

			CHECK(!strcmp(cfg.method, "af_packet,sendmmsg"), "frame-size-sweep: %s",
			      cfg.method);
			CHECK(cfg.duration_s == 2, "frame-size-sweep: duration %g", cfg.duration_s);
			CHECK(cfg.sweep.kind == PB_SWEEP_FRAME_SIZE && cfg.sweep.n == 6 &&
				      !memcmp(cfg.sweep.values, want, sizeof(want)),
			      "frame-size-sweep: the six sizes");
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
	CHECK(load("{duration: 3, dstport: 99}\n", &cfg) == 0 && cfg.dstport == 99,
	      "a flow mapping: %s", err);
	CHECK(load("---\nduration: 3\n...\n", &cfg) == 0 && cfg.duration_s == 3,
	      "explicit document markers: %s", err);
}

/*
 * Every option --help lists is a key a file may give (less help, version and config): an
 * option added to the table but not to the schema in scenario.c fails here.
 */
static void test_schema_covers_options(void)
{
	char *usage = NULL, *line, *save = NULL;
	size_t len = 0;
	unsigned int n = 0;
	FILE *f = open_memstream(&usage, &len);

	if (!f)
		return;
	pb_options_usage(f);
	fclose(f);
	for (line = strtok_r(usage, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64], text[128];
		const char *o = strstr(line, "--");
		struct pb_config cfg;

		if (strncmp(line, "  -", 3) && strncmp(line, "      --", 8))
			continue;
		if (!o || sscanf(o, "--%63[a-z0-9-]", name) != 1 || !strcmp(name, "help") ||
		    !strcmp(name, "version") || !strcmp(name, "config"))
			continue;
		snprintf(text, sizeof(text), "%s: 1\n", name);
		load(text, &cfg);
		CHECK(!strstr(err, "unknown key"), "--%s is not a scenario key: %s", name, err);
		n++;
	}
	free(usage);
	CHECK(n >= 25, "only %u options found in --help", n);
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

	/* types */
	BAD("dstport: {a: 1}\n", "1:10: dstport: expected a whole number, not a mapping");
	BAD("duration: [1, 2]\n", "1:11: duration: expected a number, not a list");
	BAD("methods: udp_sendto\n", "1:10: methods: expected a list, not 'udp_sendto'");
	BAD("sweep: frame-size=64\n", "1:8: sweep: expected a mapping, not 'frame-size=64'");
	BAD("\n\ndstport: abc\n", "3:10: dstport: 'abc' is not a whole number from 1 to 65535");
	BAD("# one\n# two\n# three\nduration: abc\n",
	    "4:11: duration: 'abc' is not a positive number of seconds");
	BAD("sweep:\n  frame-size: [64, x]\n",
	    "2:20: sweep: frame-size: 'x' is not a whole number");
	BAD("quiet: maybe\n", "1:8: quiet: 'maybe' is not true or false");
	BAD("iface:\n", "1:7: iface: no value given");

	/* ranges: the command line's own checks and words */
	BAD("duration: 0\n", "1:11: duration: '0' is not a positive number of seconds");
	BAD("dstport: 70000\n", "1:10: dstport: '70000' is not a whole number from 1 to 65535");
	BAD("dstport: -1\n", "1:10: dstport: '-1' is not a whole number from 1 to 65535");
	BAD("payloadsize: 3\n", "1:14: payloadsize: '3' is not a whole number from 8 to 65507");
	BAD("dstport: 1.5\n", "1:10: dstport: '1.5' is not a whole number from 1 to 65535");
	BAD_PREFIX("sweep: {frame-size: [64, 20]}\n", "1:21: sweep: frame-size takes up to");
	BAD("pps: fast\n", "1:6: pps: 'fast' is not a positive rate (e.g. 50k, 1.5M)");
	BAD("format: yaml\n", "1:9: format: 'yaml' is not one of table|json|csv");

	/* addresses */
	BAD("dstip: 300.1.1.1\n", "1:8: dstip: '300.1.1.1' is not an IPv4 or IPv6 address");
	BAD("srcmac: aa:bb:cc\n",
	    "1:9: srcmac: 'aa:bb:cc' is not a MAC address (aa:bb:cc:dd:ee:ff)");

	/* methods */
	BAD_PREFIX("methods: [udp_sendto, bogus]\n",
		   "1:23: unknown method 'bogus'; valid: benchmark, ");
	BAD_PREFIX("method: nope\n", "1:9: unknown method 'nope'; valid: benchmark, ");
	BAD("methods: []\n", "1:10: methods: the list is empty");
	BAD("method: af_packet\nmethods: [sendmmsg]\n",
	    "2:1: give 'method' or 'methods', not both");
	BAD("sweep: {frame-size: [64], streams: [1]}\n",
	    "1:27: sweep: give frame-size or streams, not both");
	BAD("sweep: {}\n", "1:8: sweep: expected frame-size: [..] or streams: [..]");

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
	test_shipped();
	test_every_key();
	test_schema_covers_options();
	test_bad();
	test_precedence();

	unlink(write_file("s.yaml", ""));
	unlink(write_file("p.yaml", ""));
	unlink(write_file("bad.yaml", ""));
	rmdir(dir);
	return check_summary();
}
