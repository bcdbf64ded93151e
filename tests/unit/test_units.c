// SPDX-License-Identifier: MIT
/*
 * Issue 45's one rule for units, as a table: every duration takes ms, s, m, h, d; every count
 * and packet rate k, M, G; every bit rate its unit (Mbit, Gb/s); a bare number keeps the
 * option's own unit. A value in another kind of unit is refused in one line that names only
 * what means the same (the option that takes it), never a value of another kind: on main
 * --rate 1Gbit was refused with "e.g. 50k, 1.5M", and --rate 1.5M then ran 1.5 million Gb/s.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "check.h"

/* pb_parse_unit: the number and its unit, whatever option it goes to. */
static const struct {
	const char *in;
	int ret;
	enum pb_unit unit;
	double v;
} units[] = {
	{ "30", 0, PB_UNIT_NONE, 30 },
	{ "2.5", 0, PB_UNIT_NONE, 2.5 },
	{ "1e3", 0, PB_UNIT_NONE, 1000 },
	{ "30s", 0, PB_UNIT_TIME, 30 },
	{ "500ms", 0, PB_UNIT_TIME, 0.5 },
	{ "2m", 0, PB_UNIT_TIME, 120 },
	{ "2min", 0, PB_UNIT_TIME, 120 },
	{ "1h", 0, PB_UNIT_TIME, 3600 },
	{ "1.5d", 0, PB_UNIT_TIME, 129600 },
	{ "50k", 0, PB_UNIT_COUNT, 5e4 },
	{ "50K", 0, PB_UNIT_COUNT, 5e4 },
	{ "1.5M", 0, PB_UNIT_COUNT, 1.5e6 },
	{ "10G", 0, PB_UNIT_COUNT, 1e10 },
	{ "1.5e3k", 0, PB_UNIT_COUNT, 1.5e6 },
	{ "1Gbit", 0, PB_UNIT_BITS, 1e9 },
	{ "1gbit", 0, PB_UNIT_BITS, 1e9 },
	{ "100Mbit", 0, PB_UNIT_BITS, 1e8 },
	{ "100mbit", 0, PB_UNIT_BITS, 1e8 },
	{ "10Gb/s", 0, PB_UNIT_BITS, 1e10 },
	{ "10Gbps", 0, PB_UNIT_BITS, 1e10 },
	{ "2.5Gbit/s", 0, PB_UNIT_BITS, 2.5e9 },
	{ "1Tbit", 0, PB_UNIT_BITS, 1e12 },
	{ "800kb/s", 0, PB_UNIT_BITS, 8e5 },
	{ "9600bit", 0, PB_UNIT_BITS, 9600 },
	{ "1MB/s", 0, PB_UNIT_BYTES, 1e6 },
	{ "1MBps", 0, PB_UNIT_BYTES, 1e6 },
	{ "2GB", 0, PB_UNIT_BYTES, 2e9 },
	{ "3kbyte/s", 0, PB_UNIT_BYTES, 3e3 },
	/* not a decimal number first */
	{ "", -EINVAL, PB_UNIT_NONE, 0 },
	{ "s", -EINVAL, PB_UNIT_NONE, 0 },
	{ "Gbit", -EINVAL, PB_UNIT_NONE, 0 },
	{ " 5", -EINVAL, PB_UNIT_NONE, 0 },
	{ "inf", -EINVAL, PB_UNIT_NONE, 0 },
	{ "nan", -EINVAL, PB_UNIT_NONE, 0 },
	{ ".", -EINVAL, PB_UNIT_NONE, 0 },
	{ "1e999", -EINVAL, PB_UNIT_NONE, 0 },
	{ "1e300G", -EINVAL, PB_UNIT_COUNT, 0 },
	/* a word that is no unit */
	{ "0x10", -EDOM, PB_UNIT_NONE, 0 },
	{ "5 ", -EDOM, PB_UNIT_NONE, 0 },
	{ "5x", -EDOM, PB_UNIT_NONE, 0 },
	{ "1e", -EDOM, PB_UNIT_NONE, 0 },
	{ "5sec", -EDOM, PB_UNIT_NONE, 0 },
	{ "1kk", -EDOM, PB_UNIT_NONE, 0 },
	{ "1Gbitt", -EDOM, PB_UNIT_NONE, 0 },
	{ "1xbit", -EDOM, PB_UNIT_NONE, 0 },
	{ "1T", -EDOM, PB_UNIT_NONE, 0 },
};

/*
 * Every option of a kind, in every command: the value it gets (its field, in its own unit),
 * or the one line it is refused with. cmd NULL is pktbench itself.
 */
enum field { F_NONE, F_DURATION, F_COUNT, F_PPS, F_RATE, F_FLOWS, F_LINK, F_TRIAL };

static const struct {
	const char *cmd;
	const char *opt, *val;
	enum field field;
	double want;	 /* the field's value when accepted */
	const char *err; /* NULL: accepted; else exactly this refusal (or a part, after '~') */
} rows[] = {
	/* durations: a bare number is seconds */
	{ NULL, "--duration", "30", F_DURATION, 30, NULL },
	{ NULL, "--duration", "30s", F_DURATION, 30, NULL },
	{ NULL, "--duration", "500ms", F_DURATION, 0.5, NULL },
	{ NULL, "--duration", "1h", F_DURATION, 3600, NULL },
	{ NULL, "--duration", "2m", F_DURATION, 120, NULL },
	{ NULL, "--duration", "1d", F_DURATION, 86400, NULL },
	{ NULL, "--link-timeout", "1m", F_LINK, 60, NULL },
	{ "rfc2544", "--trial", "1m", F_TRIAL, 60, NULL },
	{ "rfc2544", "--trial", "250ms", F_TRIAL, 0.25, NULL },
	{ NULL, "--duration", "1M", F_NONE, 0,
	  "--duration: '1M' is a count (M); --duration takes a decimal number of seconds, or one "
	  "with ms, s, m, h or d after it; for a count, --count 1M" },
	{ NULL, "--duration", "1Gbit", F_NONE, 0,
	  "--duration: '1Gbit' is a bit rate (Gbit); --duration takes a decimal number of "
	  "seconds, or one with ms, s, m, h or d after it" },
	/* rfc2544 has no --count: nothing named in its stead */
	{ "rfc2544", "--trial", "1M", F_NONE, 0,
	  "--trial: '1M' is a count (M); --trial takes a decimal number of seconds, or one with "
	  "ms, s, m, h or d after it" },
	{ NULL, "--duration", "5x", F_NONE, 0,
	  "--duration: '5x' is not a decimal number of seconds, or one with ms, s, m, h or d after "
	  "it" },
	{ NULL, "--duration", "31d", F_NONE, 0,
	  "--duration: '31d' (2678400 s) is more than any run lasts: at most 2592000 s (30 "
	  "days)" },
	{ NULL, "--duration", "0.5ms", F_NONE, 0, "~shorter than any run: from 0.001 s" },
	{ NULL, "--duration", "0s", F_NONE, 0, "~is not a positive number of seconds" },
	/* counts: k, M, G, exactly */
	{ NULL, "--count", "1000", F_COUNT, 1000, NULL },
	{ NULL, "--count", "1.5M", F_COUNT, 1.5e6, NULL },
	{ NULL, "--count", "10k", F_COUNT, 1e4, NULL },
	{ NULL, "--count", "2G", F_COUNT, 2e9, NULL },
	{ NULL, "--count", "1.10k", F_COUNT, 1100, NULL },
	{ NULL, "--flows", "1k", F_FLOWS, 1000, NULL },
	{ NULL, "--count", "1.0005k", F_NONE, 0,
	  "--count: '1.0005k' is not a whole number from 1 to 18446744073709551615 (k, M or G may "
	  "follow)" },
	{ NULL, "--count", "1.5", F_NONE, 0, "~is not a whole number" },
	{ NULL, "--count", "1e3k", F_NONE, 0, "~is not a whole number" },
	{ NULL, "--count", "-1k", F_NONE, 0, "~is not a whole number" },
	{ NULL, "--count", "99999999999G", F_NONE, 0, "~is not a whole number" },
	{ NULL, "--flows", "66k", F_NONE, 0, "~from 1 to 65535" },
	{ NULL, "--count", "30s", F_NONE, 0,
	  "--count: '30s' is a time (s); --count takes a whole number, or a decimal one with k, M "
	  "or G after it; for a duration, --duration 30s" },
	{ NULL, "--count", "5m", F_NONE, 0, "~'5m' is a time (m);" },
	/* a whole number that is no count takes no unit */
	{ NULL, "--dstport", "1k", F_NONE, 0,
	  "--dstport: '1k' is not a whole number from 1 to 65535" },
	/* packet rates: k, M, G */
	{ NULL, "--pps", "50k", F_PPS, 5e4, NULL },
	{ NULL, "--pps", "1.5M", F_PPS, 1.5e6, NULL },
	{ NULL, "--pps", "1Gbit", F_NONE, 0,
	  "--pps: '1Gbit' is a bit rate (Gbit); --pps takes a decimal number of packets a second, "
	  "or one with k, M or G after it; for a bit rate, --rate 1Gbit; at this run's 60-byte "
	  "frames, 1Gbit on the wire is --pps 1488095" },
	{ NULL, "--pps", "1MB/s", F_NONE, 0,
	  "--pps: '1MB/s' is bytes a second (MB/s); --pps takes a decimal number of packets a "
	  "second, or one with k, M or G after it; 1MB/s is --rate 8Mbit; at this run's 60-byte "
	  "frames, 1MB/s on the wire is --pps 11905" },
	{ NULL, "--pps", "1.5m", F_NONE, 0,
	  "~'1.5m' is a time (m); --pps takes a decimal number of "
	  "packets a second, or one with k, M or G after it; "
	  "millions are M" },
	{ NULL, "--pps", "30s", F_NONE, 0, "~'30s' is a time (s);" },
	{ NULL, "--latency-pps", "1Gbit", F_NONE, 0, "~'1Gbit' is a bit rate (Gbit);" },
	{ NULL, "--sweep", "pps=10k,1Gbit", F_NONE, 0, "~for a bit rate, --rate 1Gbit" },
	{ NULL, "--pps", "10k:1Gbit", F_NONE, 0, "~is not a rate or a profile" },
	{ NULL, "--pps", "1Gbit:5s", F_NONE, 0, "~'1Gbit' is a bit rate (Gbit);" },
	/* bit rates: a bare number is Gb/s, a unit says its own */
	{ NULL, "--rate", "1", F_RATE, 1, NULL },
	{ NULL, "--rate", "1Gbit", F_RATE, 1, NULL },
	{ NULL, "--rate", "1Gb/s", F_RATE, 1, NULL },
	{ NULL, "--rate", "100Mbit", F_RATE, 0.1, NULL },
	{ NULL, "--rate", "10Gbps", F_RATE, 10, NULL },
	{ NULL, "--rate", "500kbit", F_RATE, 5e-4, NULL },
	{ NULL, "--rate", "1.5M", F_NONE, 0,
	  "--rate: '1.5M' is a count (M); --rate takes a decimal number of Gb/s on the wire, or "
	  "one "
	  "with kbit, Mbit, Gbit, Tbit, Mb/s or Gb/s after it; 1.5 Mb/s is --rate 1.5Mbit; for "
	  "packets a second, --pps 1.5M" },
	{ NULL, "--rate", "1G", F_NONE, 0,
	  "~1 Gb/s is --rate 1Gbit; for packets a second, --pps 1G" },
	{ NULL, "--rate", "1MB/s", F_NONE, 0,
	  "~'1MB/s' is bytes a second (MB/s); --rate takes a "
	  "decimal number of Gb/s on the wire, or one with "
	  "kbit, Mbit, Gbit, Tbit, Mb/s or Gb/s after it; 1MB/s "
	  "is --rate 8Mbit" },
	{ NULL, "--rate", "10s", F_NONE, 0, "~'10s' is a time (s); --rate takes" },
	{ NULL, "--rate", "0Gbit", F_NONE, 0, "~is not a positive rate" },
	/* a factor takes no unit */
	{ NULL, "--multiplier", "2k", F_NONE, 0,
	  "--multiplier: '2k' is a count (k); --multiplier takes a decimal number, no unit" },
	/* the receive agent's --duration */
	{ "receive", "--duration", "1Gbit", F_NONE, 0,
	  "--duration: '1Gbit' is a bit rate (Gbit); --duration takes a decimal number of "
	  "seconds, or one with ms, s, m, h or d after it" },
};

static double field(const struct pb_config *cfg, enum field f)
{
	switch (f) {
	case F_DURATION:
		return cfg->duration_s;
	case F_COUNT:
		return (double)cfg->count;
	case F_PPS:
		return cfg->pps;
	case F_RATE:
		return cfg->rate_gbps;
	case F_FLOWS:
		return cfg->flows;
	case F_LINK:
		return cfg->link_timeout_s;
	case F_TRIAL:
		return cfg->rfc.trial_s;
	default:
		return NAN;
	}
}

static void test_units(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		enum pb_unit unit;
		char word[16];
		double v = 0;
		int ret = pb_parse_unit(units[i].in, &v, &unit, word, sizeof(word));

		CHECK(ret == units[i].ret && (ret || unit == units[i].unit) &&
			      (ret || fabs(v - units[i].v) <= 1e-9 * fabs(units[i].v)),
		      "pb_parse_unit('%s'): %d, unit %d, %g; want %d, unit %d, %g", units[i].in,
		      ret, unit, v, units[i].ret, units[i].unit, units[i].v);
	}
}

static void test_rows(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		static struct pb_config cfg;
		/* another command's options (the agent's): room enough, aligned for any field */
		static _Alignas(16) char room[1 << 16];
		const struct pb_cmd *cmd = rows[i].cmd ? pb_cmd_find(rows[i].cmd) : &pb_cmd_main;
		char *argv[] = { (char *)(rows[i].cmd ? rows[i].cmd : "pktbench"),
				 (char *)rows[i].opt, (char *)rows[i].val,
				 /* rfc2544 needs a device: the lab's */
				 (char *)"--lab", (char *)"router", NULL };
		int argc = rows[i].cmd && !strcmp(rows[i].cmd, "rfc2544") ? 5 : 3;
		enum pb_opt_action action;
		char err[512] = "";
		int ret;

		if (!cmd) {
			CHECK(false, "no command %s", rows[i].cmd);
			continue;
		}
		if (cmd->size != sizeof(cfg) && cmd->size > sizeof(room)) {
			CHECK(false, "%s: no room for its options", cmd->name);
			continue;
		}
		ret = cmd->size == sizeof(cfg) ? pb_options_parse_cmd(cmd, &cfg, argc, argv,
								      &action, err, sizeof(err))
					       : pb_cmd_parse(cmd, room, argc, argv, &action, NULL,
							      err, sizeof(err));
		if (!rows[i].err) {
			double got = field(&cfg, rows[i].field);

			CHECK(!ret && fabs(got - rows[i].want) <= 1e-12 * fabs(rows[i].want),
			      "%s %s %s: %d '%s', %g; want %g", cmd->name, rows[i].opt, rows[i].val,
			      ret, err, got, rows[i].want);
			continue;
		}
		CHECK(ret == -EINVAL && !strchr(err, '\n') &&
			      (rows[i].err[0] == '~' ? strstr(err, rows[i].err + 1) != NULL
						     : !strcmp(err, rows[i].err)),
		      "%s %s %s: %d '%s'; want '%s'", cmd->name, rows[i].opt, rows[i].val, ret, err,
		      rows[i].err);
	}
}

/*
 * A bit rate given to --pps is said in packets a second at the run's frame size, whatever
 * order the options come in (L1: the frame, FCS, preamble and gap, 24 bytes more); where the
 * size varies, or the line has another error (said first), nothing is added.
 */
static void test_pps_hint(void)
{
	static const struct {
		const char *argv[8];
		const char *want;
	} cases[] = {
		{ { "--pps", "1Gbit", "--frame-size", "1514" },
		  "~; at this run's 1514-byte frames, 1Gbit on the wire is --pps 81274" },
		{ { "--srcip", "2001:2::1", "--pps", "10Gb/s", "--dstip", "2001:2::2" },
		  "~; at this run's 80-byte frames, 10Gb/s on the wire is --pps 12019231" },
		{ { "--pps", "1Gbit", "--imix" }, "~for a bit rate, --rate 1Gbit" },
		{ { "--pps", "1Gbit", "--dstport", "0" }, "~for a bit rate, --rate 1Gbit" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct pb_config cfg;
		char *argv[10] = { (char *)"pktbench" }, err[512] = "";
		enum pb_opt_action action;
		int argc = 1, ret;

		while (argc <= 8 && cases[i].argv[argc - 1])
			argv[argc] = (char *)cases[i].argv[argc - 1], argc++;
		ret = pb_options_parse(&cfg, argc, argv, &action, err, sizeof(err));
		CHECK(ret == -EINVAL && strstr(err, cases[i].want + 1) &&
			      (i < 2 || !strstr(err, "at this run's")),
		      "case %u: %d '%s'; want '%s'", i, ret, err, cases[i].want + 1);
	}
}

/* --loop goes with --replay (a capture): its value alone, as a scenario's setter reads it */
static void test_loop(void)
{
	static struct pb_config cfg;
	const struct pb_opt *o = pb_cmd_opt(&pb_cmd_main, "loop");
	char err[512] = "";

	CHECK(o && !pb_cmd_set(&pb_cmd_main, &cfg, o, "2k", err, sizeof(err)) && cfg.loop == 2000,
	      "--loop 2k: %s, %u", err, cfg.loop);
	CHECK(o && pb_cmd_set(&pb_cmd_main, &cfg, o, "2s", err, sizeof(err)) == -EINVAL &&
		      strstr(err, "'2s' is a time (s);"),
	      "--loop 2s: %s", err);
}

int main(void)
{
	test_units();
	test_rows();
	test_loop();
	test_pps_hint();
	return check_summary();
}
