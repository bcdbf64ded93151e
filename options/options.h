/* SPDX-License-Identifier: MIT */
/*
 * Options as tables: one row per flag (type, offset into the command's config struct,
 * default, range, help). pktbench itself and each subcommand (compare, receive, ...) declare
 * one table of this shape; the command line, scenario files, --help, the man page and the
 * bash completion all read the rows, so a flag added to a table is everywhere at once.
 */
#ifndef PB_OPTIONS_H
#define PB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"

/*
 * What a run can do, refused beyond with the range named. 1e10 packets/s is 8 times 800GbE's
 * 64-byte line rate (1.19 Gpps). --rate's ceiling is that many of the largest frames a run
 * sends (a 64 KiB datagram): beyond it no frame size gives a rate of 1e10 packets/s or less.
 * A window under 1 ms is shorter than a timer's wake-up lateness here (50 us to 1.3 ms), so
 * no rate in it means anything; 30 days is longer than any benchmark needs one window to be.
 */
#define PB_PPS_MAX	  1e10
#define PB_RATE_GBPS_MAX  (PB_PPS_MAX * 65536 * 8 / 1e9)
#define PB_DURATION_MIN_S 1e-3
#define PB_DURATION_MAX_S (30 * 86400.0)

enum pb_opt_type {
	OPT_STR,  /* char array of size .max */
	OPT_SECS, /* double, > 0 */
	OPT_U64,  /* unsigned, .min .. .max */
	OPT_U32,
	OPT_PORT,    /* uint16_t, 1 .. 65535 */
	OPT_ADDR,    /* struct pb_addr; .flag_off (if set): the bool saying it was given */
	OPT_MAC,     /* uint8_t[6]; .flag_off: the bool saying it was given */
	OPT_FLAG,    /* bool set to true (a scenario says true or false) */
	OPT_ENUM,    /* an int: the index of the value in .names */
	OPT_RATE,    /* double > 0: packets a second (k/M/G may follow); PB_OPTF_BITS: Gb/s */
	OPT_CPUS,    /* a CPU list (0,2-3) into uint32_t[.max]; .flag_off: the uint32_t count */
	OPT_SWEEP,   /* NAME=V1,V2,.. into struct pb_sweep; .names: the rows that may be swept,
		      * kind 1, 2, .. in order; each value is checked against that row's range */
	OPT_METHODS, /* char array of .max: benchmark, a method or a comma list, all known */
	OPT_PCT,     /* double .min .. .max (a percentage), an optional '%' after it */
	OPT_CONFIG,  /* a scenario file: loaded before the other options, which override it */
	OPT_COUNT,   /* int, incremented (a scenario gives the number, 0 to 3) */
	OPT_HELP,
	OPT_VERSION,
};

/* Row flags. */
#define PB_OPTF_FILE	(1u << 0) /* the value names a file: completed with file names */
#define PB_OPTF_METHOD	(1u << 1) /* the value names a method: completed with methods */
#define PB_OPTF_LIST	(1u << 2) /* a comma list: a scenario may give a YAML list instead */
#define PB_OPTF_NO_YAML (1u << 3) /* not a scenario key (implied for config, help, version) */
#define PB_OPTF_IFACE	(1u << 4) /* the value names a network interface: completed with them */
#define PB_OPTF_PROFILE (1u << 5) /* a rate, or a profile of steps into the sweep at flag_off */
#define PB_OPTF_REPEAT	(1u << 6) /* OPT_STR: given again, adds to the value after a ';' */
#define PB_OPTF_SI	(1u << 7) /* OPT_U64, OPT_U32: a count, which k, M or G may follow */
#define PB_OPTF_BITS	(1u << 8) /* OPT_RATE: a bit rate, Gb/s bare, else with its unit (Mbit) */
#define PB_OPTF_FACTOR	(1u << 9) /* OPT_RATE: a factor (2: twice), a bare number only */

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
	const char *const *names; /* OPT_ENUM: accepted values, in enum order; OPT_SWEEP: rows */
	unsigned int flags;	  /* PB_OPTF_* */
	const char *list_key;	  /* a scenario may also give list_key: [a, b] ("methods") */
	const char *group;	  /* --help's heading it is listed under (PB_G_*); NULL: none */
	/*
	 * The row that takes the same thing in another kind of unit (pps: rate, duration:
	 * count): a value in that kind is refused with this row named in its stead.
	 */
	const char *other;
};

/*
 * --help's headings, by topic, as iproute2's and fio's: what a newcomer looks for first comes
 * first. A command lists the ones it has in pb_cmd.groups, in their order.
 */
#define PB_G_SEND    "What to send"
#define PB_G_PACE    "How long and how fast"
#define PB_G_WHERE   "Where it sends"
#define PB_G_MEASURE "What to measure"
#define PB_G_OUTPUT  "Output"
#define PB_G_REPLAY  "Replaying a capture (--replay FILE)"
#define PB_G_FLEET   "Many senders as one test"
#define PB_G_MORE    "Scenario files and help"
#define PB_G_RFC     "The RFC 2544 tests"
extern const char *const pb_groups[]; /* pktbench's, in --help order; NULL-terminated */

/*
 * Options that set the same thing, or cannot go together: given both, the command is refused
 * in one line rather than one of them ignored. A token is a row's long name, "sweep=KIND"
 * for a --sweep of that kind ("sweep" alone: any kind), or "NAME=VALUE" for an enum row given
 * that value ("format=json"). Without with[], any two of opts conflict; with it, each of opts
 * with each of with[]. The message is "--A and --B " + why.
 * A scenario file's option gives way to a conflicting one on the command line, as the same
 * option's would; two in the file, or two on the command line, are refused.
 */
struct pb_conflict {
	const char *opts[8];
	const char *with[8];
	const char *why;
	const char *unless; /* a token that, given too, gives each its own part (NULL: none) */
};

/*
 * An option that does nothing without another: given (on the command line or in a scenario)
 * without any of needs[] (tokens as pb_conflict's), the command is refused in one line naming
 * them: "--A goes with --B or --C: " + why. An entry none of whose needs[] the command has
 * is not checked (that command's row of the name stands alone).
 */
struct pb_need {
	const char *opt;
	const char *needs[6];
	const char *why;
};

/*
 * A command: pktbench itself, or a subcommand (`pktbench NAME ...`) with a table of its own.
 * Its texts are what --help and the man page print around the rows.
 */
struct pb_cmd {
	const char *name;	 /* "compare"; "pktbench" for pktbench itself */
	const char *summary;	 /* one line: what it is for */
	const char *synopsis;	 /* after "pktbench [NAME] ": "BASE.json NEW.json [options]" */
	const char *description; /* paragraphs separated by a blank line */
	const char *exit_status; /* one "N  meaning" a line */
	const char *examples;	 /* pairs of lines: a command, then what it does */
	const struct pb_opt *opts;
	unsigned int nopts;
	/* --help's headings in order (NULL-terminated); NULL: one list, "Options" */
	const char *const *groups;
	size_t size;	       /* of the struct the rows point into */
	const char *args;      /* the positional arguments, e.g. "BASE.json NEW.json"; NULL: none */
	unsigned int nargs;    /* how many at most */
	unsigned int min_args; /* fewer is an error; 0: all nargs are required */
	const char *args_glob; /* completion offers the files matching it, e.g. "*.json" */
	/*
	 * Options it does not take that a user will try, in pairs: the name, then the hint the
	 * "unknown option" message adds ("did you mean --trial?"); NULL-terminated. Optional.
	 */
	const char *const *hints;
	/* Options that set the same thing (see above); ends with an entry without opts[0]. */
	const struct pb_conflict *conflicts;
	/*
	 * Tables of options that need another (see above), NULL-terminated; each ends with an
	 * entry without opt.
	 */
	const struct pb_need *const *needs;
	/* Where dst keeps a struct pb_given of the options the user gave; 0: not kept. */
	size_t given_off;
	/*
	 * What bits a second, given to rate row o as arg, are in o's own unit in this run
	 * (its frame size): "; ..." into buf, or nothing. Optional.
	 */
	void (*unit_hint)(const void *dst, const struct pb_opt *o, double bits, const char *arg,
			  char *buf, size_t len);
	/* Cross-field checks after parsing (not after --help); 0 or -EINVAL. Optional. */
	int (*validate)(void *dst, char *err, size_t errlen);
	int (*run)(int argc, char **argv); /* argv[0] is the name; NULL for pktbench itself */
};

enum pb_opt_action {
	PB_OPT_RUN,
	PB_OPT_HELP,
	PB_OPT_VERSION,
};

/* pktbench itself (options.c), then the subcommands, in --help order (commands.c). */
extern const struct pb_cmd pb_cmd_main;
extern const struct pb_cmd *const pb_cmds[];
extern const unsigned int pb_cmds_count;
/*
 * The commands pktbench's own --help lists. cli/commands.c points it at pb_cmds before main()
 * runs, so these tables never reach up to the commands built on them; unset, --help lists none.
 */
extern const struct pb_cmd *const *pb_cmd_usage_list;
extern unsigned int pb_cmd_usage_count;
/* A subcommand by name; NULL when there is none (pktbench itself is not one). */
const struct pb_cmd *pb_cmd_find(const char *name);
/* The subcommand a word that is none was meant as ("comapre": compare), or NULL. */
const char *pb_cmd_suggest(const char *word);
/* A row by its long name (or list_key); NULL when unknown. */
const struct pb_opt *pb_cmd_opt(const struct pb_cmd *cmd, const char *name);
/* pktbench's own conflicts, which rfc2544 shares (its table is pktbench's rows and more). */
extern const struct pb_conflict pb_conflicts[];
/* pktbench's options that need another, which rfc2544 shares (its own --pace is not these). */
extern const struct pb_need pb_needs[];
/* Whether a scenario file may give the row. */
bool pb_opt_in_file(const struct pb_opt *o);
/* Whether the option is followed by a value on the command line (not a flag, count, ...). */
bool pb_opt_takes_value(const struct pb_opt *o);
/* A row's short and long names and metavar as --help shows them: "-m, --method NAME". */
void pb_opt_label(const struct pb_opt *o, char *buf, size_t len);

/*
 * Zeroes dst (cmd->size bytes), then sets every row's default, then loads a scenario
 * (OPT_CONFIG) if argv names one, then parses argv (argv[0] is skipped; options and
 * arguments in any order). args (room for cmd->nargs) gets the positional arguments.
 * 0 with *action set, or -EINVAL with a one-line message in err (no trailing newline).
 */
int pb_cmd_parse(const struct pb_cmd *cmd, void *dst, int argc, char **argv,
		 enum pb_opt_action *action, char **args, char *err, size_t errlen);
/* Only the defaults; 0 or -EINVAL (a bad default is a bug). */
int pb_cmd_defaults(const struct pb_cmd *cmd, void *dst, char *err, size_t errlen);
/*
 * Sets row o from a string as a scenario file spells it: the command line's checks and
 * words, but a flag takes true or false and a count its number. 0, or -EINVAL with a message
 * that starts with "--NAME: " (unknown methods excepted: they say so themselves).
 */
int pb_cmd_set(const struct pb_cmd *cmd, void *dst, const struct pb_opt *o, const char *value,
	       char *err, size_t errlen);
/* --help: the synopsis, the description, the rows, and what the command adds (methods...). */
void pb_cmd_usage(const struct pb_cmd *cmd, FILE *f);

/*
 * pktbench's own: fills cfg from defaults, a --config file, then argv; also records the
 * command line in cfg->command. 0 with *action set, or -EINVAL with a one-line message.
 */
int pb_options_parse(struct pb_config *cfg, int argc, char **argv, enum pb_opt_action *action,
		     char *err, size_t errlen);
/* The same for a command whose table fills a struct pb_config (pktbench rfc2544). */
int pb_options_parse_cmd(const struct pb_cmd *cmd, struct pb_config *cfg, int argc, char **argv,
			 enum pb_opt_action *action, char *err, size_t errlen);
/*
 * Issue 45's one rule for units: a number is decimal, and the word after it says what it is.
 * Durations take ms, s, m (min), h, d; counts and packet rates k, M, G (m is minutes, never
 * millions); bit rates bit, b/s or bps with k, M, G or T before it (1Gbit, 100Mb/s); B/s,
 * Bps and byte are bytes. A bare number is in the option's own unit.
 */
enum pb_unit {
	PB_UNIT_NONE,  /* no unit word */
	PB_UNIT_TIME,  /* seconds */
	PB_UNIT_COUNT, /* things (or things a second) */
	PB_UNIT_BITS,  /* bits a second */
	PB_UNIT_BYTES, /* bytes a second */
};
/*
 * s as a number and its unit: *v in the unit's base (seconds, things, bits or bytes a
 * second; a bare number as written), *unit its kind, word (if not NULL) the unit as typed.
 * 0; -EINVAL when s does not start with a decimal number; -EDOM when the word after it is
 * no unit (word says which).
 */
int pb_parse_unit(const char *s, double *v, enum pb_unit *unit, char *word, size_t wordlen);
/* A duration as every SECS option takes it (a bare number: seconds), > 0; 0 or -EINVAL. */
int pb_parse_secs(const char *s, double *secs);
/* A decimal number, finite, the whole text (no hex, blanks, inf or nan); 0 or -EINVAL. */
int pb_parse_decimal(const char *s, double *d);
/* Parsers shared with other inputs (e.g. scenario files); 0 or -EINVAL. */
int pb_parse_addr(const char *s, struct pb_addr *out);
int pb_parse_mac(const char *s, uint8_t mac[6]);
/*
 * "64,128,256": whole numbers from min to max (none 0), at most cap of them, into out; *n says
 * how many ("" gives none). 0, or -EINVAL.
 */
int pb_parse_u32_list(const char *s, uint64_t min, uint64_t max, uint32_t *out, unsigned int cap,
		      uint32_t *n);

/* The --sweep NAME of a sweep kind ("batch"); "" for PB_SWEEP_NONE. */
const char *pb_sweep_name(enum pb_sweep_kind kind);

#endif
