/* SPDX-License-Identifier: MIT */
/*
 * Output writers: each format is one function over the same finished results, so no
 * arithmetic happens while formatting.
 */
#ifndef PB_WRITERS_H
#define PB_WRITERS_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "stats.h"

#define PB_SCHEMA_VERSION 1

struct pb_envinfo;

struct pb_report {
	const char *version;		   /* pktbench version */
	const char *command;		   /* the command line as given */
	const char *kernel;		   /* uname -r */
	const char *iface;		   /* the sending interface */
	const char *driver;		   /* its driver, or "" */
	const char *cpu_model;		   /* /proc/cpuinfo's model name, or NULL */
	unsigned int cpus;		   /* online CPUs */
	unsigned int tx_queues, rx_queues; /* of the sending interface */
	bool lab;			   /* the namespace lab, with its receiver */
	const char *lab_kind;		   /* its shape: direct, router, bridge; NULL: none */
	int lab_dut_cpu; /* router, bridge: the CPU the DUT forwards on; -1: none of its own */
	/* what the run depended on (JSON's environment object); NULL: not read */
	const struct pb_envinfo *env;
	const struct pb_result *results;
	unsigned int n;
	bool sort_by_pps;   /* benchmark: fastest first, skipped and no-wire rows last */
	bool show_counters; /* the table adds the three-point accounting of every row */
	unsigned int width; /* columns the table may take (pb_box_out_width); 0: no limit */
	/* pktbench rfc2544: its parameters; rows carry their rfc fields and the table is its own */
	const struct pb_rfc2544_opts *rfc2544;
};

/*
 * The shortest text that reads back as the same double, with '.' whatever LC_NUMERIC says
 * (for data files and anything that must read back exactly).
 */
void pb_fmt_shortest(char *buf, size_t size, double d);
struct json_object;
/* Writes o as pretty JSON (slashes unescaped) and a newline; 0 or -errno. */
int pb_json_print(FILE *f, struct json_object *o);
int pb_write_table(FILE *f, const struct pb_report *rep);
int pb_write_json(FILE *f, const struct pb_report *rep);
/* One result row as pb_write_json writes it under "results" (rfc: with its RFC 2544 fields). */
struct json_object *pb_json_row(const struct pb_result *r, bool rfc);
/* env as the object "environment" of root (null without one); 0 or -ENOMEM. */
int pb_json_add_environment(struct json_object *root, const struct pb_envinfo *env);
/* The result set's own fields (--format json's top level, without results); NULL: no memory. */
struct json_object *pb_json_set(const struct pb_report *rep);
int pb_write_csv(FILE *f, const struct pb_report *rep);
/* pktbench rfc2544's table format: a box per test over the summary rows (rfc2544_report.c). */
int pb_rfc2544_write_table(FILE *f, const struct pb_report *rep);
/*
 * Whether pb_report_write() will be able to write path, checked before any run: its
 * directory takes the temp file, and path is not something a file cannot replace. 0, or
 * -errno with the reason in err.
 */
int pb_report_check_path(const char *path, char *err, size_t errlen);
/* Writes in fmt to f as it is (stderr, when --stream - has stdout); 0 or -errno. */
int pb_report_print(FILE *f, const struct pb_report *rep, enum pb_format fmt);
/* Writes in fmt to path ("" or "-": stdout); a file is written atomically (temp + rename). */
int pb_report_write(const struct pb_report *rep, enum pb_format fmt, const char *path);

struct pb_cmd;
/* `pktbench environment`: what a run would depend on here, sending nothing. */
extern const struct pb_cmd pb_cmd_environment;

#endif
