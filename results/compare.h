/* SPDX-License-Identifier: MIT */
/*
 * pktbench compare: two result sets, per-method (per-point) ratios NEW/BASE, a verdict per row
 * and an exit status CI can act on. Loading (compare_load.c: JSON file -> rows), the
 * computation (compare.c: rows -> verdicts), writing (compare_write.c: verdicts -> table or
 * JSON) and the command (compare_cli.c: its option table) are separate, so each can be tested
 * alone and the arithmetic never happens while printing.
 *
 * Semantics:
 * - A row's key is its method plus, when the row carries a "point" (a sweep point such as
 *   {"frame_size": 64}), the point's canonical text: keys sorted, "k=v" joined by ',',
 *   integral numbers written as integers, so key order and 64 vs 64.0 do not matter.
 * - ratio = NEW pps / BASE pps. With --normalize METHOD each pps is first divided by METHOD's
 *   pps in the same file, at the same point, else METHOD's point-less row; that cancels the
 *   machine's own speed. METHOD missing, not ok or without a rate where needed: an error.
 * - The noise of a comparison: how far its rows moved against each other. With at least
 *   PB_CMP_NOISE_MIN_ROWS rows compared by rate, noise = 1 - exp(-3 sigma), sigma = 1.4826 x
 *   the median of |ln ratio - median ln ratio| over those rows (a robust standard deviation:
 *   a few real regressions do not inflate it, a shift of every row does not either). Two runs
 *   of the same code on a busy machine scatter every row; one method's regression among rows
 *   that held still stands out. allowance = max(tolerance, noise); fixed_tolerance (or fewer
 *   rows) leaves the tolerance alone.
 * - A row regressed when any of these holds (each with a 1e-9 allowance for floating-point
 *   rounding, far below any measurement's noise; exactly at an edge passes):
 *     ratio < 1 - allowance/100                                  (packets/s)
 *     NEW delivered % < BASE delivered % - delivered tolerance    (both have a receiver)
 *     NEW accounted % < BASE accounted % - accounted tolerance    (both have a receiver)
 *     NEW accounted % outside [accounted min, 100]                (both have a receiver)
 *     NEW p99 latency > BASE p99 x (1 + latency tolerance/100)   (both have timed probes)
 *     cpu ratio > 1 + cpu tolerance/100               (--cpu-tolerance, both have CPU/frame)
 *     NEW syscalls/frame > BASE's x (1 + syscalls tolerance/100)  (--syscalls-tolerance)
 *   ratio > 1 + allowance/100 is reported as improved, never a failure. An RFC 2544 latency
 *   row has no rate (no_rate): it is compared by its p99 alone.
 * - CPU per frame (cpu_ns_per_pkt: the sending threads' CPU time over frames sent), where
 *   cpu_tol_pct > 0 and at least PB_CMP_NOISE_MIN_ROWS rows ok in both have it: each row's
 *   NEW/BASE ratio divided by the median of those ratios (the centre). Another tenant's load
 *   moves a thread's CPU time per frame far less than its rate, and what it does move (caches,
 *   a slower machine) moves every row alike, so the centre takes it out; one method whose
 *   loop costs more stands out. A rate normalised by one reference row inherits that row's
 *   noise; a median over all rows does not. Fewer rows: not judged (cpu_ratio NAN). What
 *   makes system calls dearer (a kernel, the host's mitigations) moves the rows that make one
 *   per frame (BASE syscalls/frame >= PB_CMP_CALL_ROW) apart from the batched ones: on one VM
 *   udp_sendto's CPU/frame went from 3248 to 4691 ns between two quiet runs while the batched
 *   rows held. So each class has its own centre, the median over its rows, where it has at
 *   least PB_CMP_CPU_CLASS_MIN of them (else all rows' serves).
 * - Syscalls per frame are counted, not timed: where syscalls_tol_pct > 0 and both rows have
 *   them, NEW may exceed BASE by that fraction plus PB_CMP_SYSCALLS_FLOOR.
 * - A row's own noise: where both rows are medians of --repeat runs (pps_min, pps_max), a
 *   ratio beyond the allowance regressed only when NEW's fastest run was slower than BASE's
 *   slowest (runs_hi < 1), and improved only when NEW's slowest was faster than BASE's
 *   fastest (runs_lo > 1). Else the two sets of runs overlap: the rate is not judged, and the
 *   line says so (within_runs). One method's rate can scatter more than the rest do.
 *   fixed_tolerance turns this off too.
 * - A row ok in both but partial in either (interrupted by Ctrl-C, or --count timed out) is not
 *   comparable: it fails, unless allow_interrupted says to compare it as if it were complete.
 * - Ok in BASE but absent, skipped or failed in NEW fails the comparison like a regression:
 *   a method that vanished is what CI must see. Rows only in NEW, or not ok in BASE, are
 *   listed as information and fail nothing. No row is ever dropped silently.
 * - pb_compare_main's exit status: 0 no failing row, 1 at least one, 2 unusable input or
 *   arguments (one line on stderr).
 */
#ifndef PB_COMPARE_H
#define PB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "stats.h"

#define PB_CMP_METHOD_LEN 32
#define PB_CMP_POINT_LEN  128
#define PB_CMP_REASON_LEN 160
#define PB_CMP_META_LEN	  64

#define PB_CMP_LATENCY_TOL_MAX 100000 /* --latency-tolerance: a p99 1000 times BASE's */
#define PB_CMP_NOISE_MIN_ROWS  5      /* fewer rows say nothing about the noise */
#define PB_CMP_CALL_ROW	       0.5    /* BASE syscalls/frame from which a row is per-call */
#define PB_CMP_CPU_CLASS_MIN   4      /* rows a CPU class needs for its own centre */
#define PB_CMP_NOISE_SIGMAS    3
/* syscalls/frame: fewer than one call more per this many frames is no batch that changed (a
 * method that makes a handful of calls a run: xdp_live's 2.4e-5 a frame, not exactly 0) */
#define PB_CMP_SYSCALLS_FLOOR 1e-3

#define PB_CMP_EXIT_PASS     0
#define PB_CMP_EXIT_FAIL     1
#define PB_CMP_EXIT_BADINPUT 2

/* One result row, as much of it as a comparison needs. */
struct pb_compare_row {
	char method[PB_CMP_METHOD_LEN];
	char point[PB_CMP_POINT_LEN]; /* canonical sweep point, "" when the row has none */
	enum pb_status status;
	char reason[PB_CMP_REASON_LEN]; /* "" when none was given */
	bool interrupted;		/* Ctrl-C or SIGTERM cut the run short: partial */
	bool timed_out;			/* --count not reached in --count-timeout: partial */
	double pps;			/* meaningful for ok rows only */
	double pps_min, pps_max;	/* its --repeat runs' slowest and fastest; 0: one run */
	bool no_rate;			/* an answer without a rate (RFC 2544 latency): p99 only */
	double delivered_pct;		/* NAN without a receiver */
	double accounted_pct;		/* NAN without a receiver */
	double p99_us;			/* latency.p99_us; NAN without timed probes */
	double cpu_ns_per_pkt;		/* NAN when absent or null */
	double syscalls_per_frame;	/* NAN when absent or null */
	char sender_cpus[64];		/* "0,1": the CPU each stream ran on most; "": not known */
};

struct pb_envinfo;

/* One result set. */
struct pb_compare_input {
	const char *name;	       /* for messages and output: the file name, not owned */
	char version[PB_CMP_META_LEN]; /* pktbench_version, "" when unknown */
	char kernel[PB_CMP_META_LEN];
	struct pb_envinfo *env; /* its environment object (owned); NULL: it has none */
	struct pb_compare_row *rows;
	unsigned int n;
};

enum pb_cmp_format {
	PB_CMP_FORMAT_TABLE,
	PB_CMP_FORMAT_JSON,
};

/* What a comparison allows; the command's option table (compare_cli.c) points into it. */
struct pb_compare_opts {
	double tolerance_pct;		   /* packets/s: 0..100 */
	char normalize[PB_CMP_METHOD_LEN]; /* a method name, or "" for raw rates */
	double delivered_tol_pp;	   /* percentage points delivered % may fall */
	double accounted_tol_pp;	   /* percentage points accounted % may fall */
	double accounted_min_pct;	   /* NEW's accounted % must be >= this (0: off) */
	double latency_tol_pct;		   /* p99 latency may rise this many % above BASE's */
	double cpu_tol_pct;		   /* centred CPU/frame may rise this many %; 0: off */
	double syscalls_tol_pct;	   /* syscalls/frame may rise this many %; 0: off */
	bool allow_interrupted;		   /* compare interrupted rows as if complete */
	bool fixed_tolerance;		   /* the tolerance alone, no allowance for noise */
	bool wide;			   /* the table's every column, whatever the width */
	unsigned int width;		   /* columns the table may take; 0: no limit (not a row) */
	int format;			   /* enum pb_cmp_format: the command's output */
};

/* The defaults, as the command's option table gives them. */
void pb_compare_opts_init(struct pb_compare_opts *o);

enum pb_cmp_verdict {
	/* both ok: compared */
	PB_CMP_OK,	  /* within the tolerances */
	PB_CMP_IMPROVED,  /* ratio > 1 + tolerance */
	PB_CMP_REGRESSED, /* beyond a tolerance: fails; pb_compare_line.why says which */
	PB_CMP_REFERENCE, /* the --normalize method's own row: 1 by construction */
	/* both ok, but not comparable: fails */
	PB_CMP_INTERRUPTED, /* partial in BASE or NEW (without allow_interrupted) */
	/* ok in BASE only: fails */
	PB_CMP_MISSING_NEW, /* no such row in NEW */
	PB_CMP_NOT_OK_NEW,  /* skipped or error in NEW */
	/* information only */
	PB_CMP_MISSING_BASE, /* a row only NEW has */
	PB_CMP_NOT_OK_BASE,  /* skipped or error in BASE: nothing to regress from */
	PB_CMP_NO_BASE_RATE, /* ok in both but BASE's rate is 0: a ratio is undefined */
};

/* Why a row regressed: bit index, then mask. */
enum {
	__PB_CMP_WHY_PPS,	 /* packets/s ratio below 1 - tolerance */
	__PB_CMP_WHY_DELIVERED,	 /* delivered % fell beyond its tolerance */
	__PB_CMP_WHY_ACCOUNTED,	 /* accounted % fell beyond its tolerance */
	__PB_CMP_WHY_ACCT_RANGE, /* NEW's accounted % outside [min, 100] */
	__PB_CMP_WHY_LATENCY,	 /* p99 latency rose beyond its tolerance */
	__PB_CMP_WHY_CPU,	 /* CPU/frame, centred, rose beyond its tolerance */
	__PB_CMP_WHY_SYSCALLS,	 /* syscalls/frame rose beyond its tolerance */
	__PB_CMP_WHY_N,
};
#define PB_CMP_WHY_PPS	      (1u << __PB_CMP_WHY_PPS)
#define PB_CMP_WHY_DELIVERED  (1u << __PB_CMP_WHY_DELIVERED)
#define PB_CMP_WHY_ACCOUNTED  (1u << __PB_CMP_WHY_ACCOUNTED)
#define PB_CMP_WHY_ACCT_RANGE (1u << __PB_CMP_WHY_ACCT_RANGE)
#define PB_CMP_WHY_LATENCY    (1u << __PB_CMP_WHY_LATENCY)
#define PB_CMP_WHY_CPU	      (1u << __PB_CMP_WHY_CPU)
#define PB_CMP_WHY_SYSCALLS   (1u << __PB_CMP_WHY_SYSCALLS)

/* One output line: a key seen in either set. */
struct pb_compare_line {
	const struct pb_compare_row *base; /* NULL when absent from BASE */
	const struct pb_compare_row *new_; /* NULL when absent from NEW */
	double norm_base;		   /* normalized rates; NAN without --normalize */
	double norm_new;
	double ratio; /* NAN unless both were ok with a BASE rate */
	/* NEW's fastest run over BASE's slowest, NEW's slowest over BASE's fastest (normalized
	 * as the ratio is); NAN unless both rows carry their runs' spread */
	double runs_hi, runs_lo;
	bool within_runs; /* beyond the allowance, but the two rows' runs overlap: not judged */
	double cpu_ratio; /* NEW/BASE CPU per frame over the rows' centre; NAN when not judged */
	enum pb_cmp_verdict verdict;
	unsigned int why; /* PB_CMP_WHY_* for PB_CMP_REGRESSED */
};

/*
 * A field of the sets' environment objects (what the runs depended on) whose texts differ:
 * compare warns, one line each, and fails nothing for it. The list fields (offloads, IRQ
 * affinities, NAPI threads, per-CPU governors: "a, b, c") differ only when their items do,
 * whatever the order.
 */
#define PB_CMP_ENV_TEXT 2200
struct pb_compare_env_diff {
	const char *key;	    /* points into BASE's or NEW's environment */
	const char *base, *new_;    /* the texts; NULL: that set does not record the field */
	char text[PB_CMP_ENV_TEXT]; /* "BASE x, NEW y", or "NEW lacks a; NEW adds b" */
};

struct pb_compare_result {
	const struct pb_compare_input *base, *new_;
	struct pb_compare_opts opts;   /* what it was computed with */
	struct pb_compare_line *lines; /* BASE's order, then rows only in NEW in NEW's order */
	unsigned int n;
	unsigned int compared; /* ok in both and comparable */
	unsigned int improved;
	unsigned int regressed;
	unsigned int regressed_on[__PB_CMP_WHY_N]; /* rows per reason (a row may have several) */
	unsigned int interrupted;		   /* ok in both, partial in one: fails */
	unsigned int lost;			   /* ok in BASE, missing or not ok in NEW */
	unsigned int informational;		   /* only in NEW, not ok in BASE, no BASE rate */
	unsigned int within_runs;		   /* beyond the allowance, within their runs */
	double noise_pct;     /* the rows' own scatter (see above); NAN when not estimated */
	double allowance_pct; /* max(tolerance, noise): the packets/s gate */
	double cpu_centre;    /* median NEW/BASE CPU per frame over the rows; NAN: not judged */
	/* the same over the rows of each CPU class: [0] batched, [1] a syscall per frame; NAN:
	 * fewer than PB_CMP_CPU_CLASS_MIN rows, all rows' centre serves */
	double cpu_class_centre[2];
	char err[320]; /* why pb_compare failed, one line */
	struct pb_compare_env_diff *env_diffs; /* BASE's order, then fields only NEW has */
	unsigned int nenv_diffs;
	const char *env_missing; /* "BASE", "NEW": that set has no environment, the other has */
};

/*
 * Reads a JSON result set. 0, or -errno with a one-line message in err: -ENOENT etc. from the
 * file, -EINVAL for text that is not JSON or not a result set (no schema, no results array,
 * a row without method, status or, when ok, pps; a field of the wrong type). in->name is set
 * to path.
 */
int pb_compare_load(const char *path, struct pb_compare_input *in, char *err, size_t errlen);
/* The same from text in memory; name is used in messages. */
int pb_compare_parse(const char *text, size_t len, const char *name, struct pb_compare_input *in,
		     char *err, size_t errlen);
void pb_compare_input_free(struct pb_compare_input *in);

/*
 * The computation. 0 with out filled (free with pb_compare_result_free), or -EINVAL (bad
 * options, duplicate keys, an ok row without a finite pps >= 0) / -ENOENT (the --normalize
 * method missing, not ok or without a rate where a row needs it) with out->err set.
 * out points into base and new_, which must outlive it.
 */
int pb_compare(const struct pb_compare_input *base, const struct pb_compare_input *new_,
	       const struct pb_compare_opts *o, struct pb_compare_result *out);
void pb_compare_result_free(struct pb_compare_result *res);
/* True when a row regressed, went missing or is not comparable: the exit status is then 1. */
bool pb_compare_failed(const struct pb_compare_result *res);
bool pb_compare_verdict_fails(enum pb_cmp_verdict v);

/* Writing: names and texts of a finished result. */
/* A stable machine name ("regressed", "missing_in_new", ...) for JSON. */
const char *pb_compare_verdict_name(enum pb_cmp_verdict v);
/* A stable machine name for one PB_CMP_WHY_* bit index ("pps", "delivered_pct", ...). */
const char *pb_compare_why_name(unsigned int bit);
/* The human text of a line's verdict, with the reason where there is one. */
void pb_compare_verdict_text(const struct pb_compare_line *l, char *buf, size_t len);
/* "2 rows regressed: ..." or "no regression beyond 10 %", plus the counts. */
void pb_compare_summary(const struct pb_compare_result *res, char *buf, size_t len);
/* Each over the same finished result. 0 or -errno. */
int pb_compare_write_table(FILE *f, const struct pb_compare_result *res);
int pb_compare_write_json(FILE *f, const struct pb_compare_result *res);

struct pb_cmd;
/* `pktbench compare`'s option table and texts. */
extern const struct pb_cmd pb_cmd_compare;
/* `pktbench compare ...` with argv[0] == "compare"; returns the exit status. */
int pb_compare_main(int argc, char **argv);

#endif
