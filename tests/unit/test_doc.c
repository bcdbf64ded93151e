// SPDX-License-Identifier: MIT
/*
 * The generated documents cover what the binary has: the man page names every option of
 * every command (read from the tables and, independently, from the built pktbench's --help),
 * every method and every JSON field the writer emits; the completion and the fuzz dictionary
 * list every option, method and value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "method.h"
#include "options.h"
#include "check.h"

#ifndef PB_PKTBENCH
#error "PB_PKTBENCH: the built pktbench, whose --help is compared (set by dist/dist.cmake)"
#endif

/* What a generator writes, as one string (free it). */
static char *capture(int (*gen)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return NULL;
	ret = gen(f, arg);
	fclose(f);
	CHECK(ret == 0, "a generator failed: %d", ret);
	return buf;
}

static int gen_man(FILE *f, const void *arg)
{
	return pb_doc_man(f, arg);
}

static int gen_bash(FILE *f, const void *arg)
{
	return pb_doc_bash_completion(f);
}

static int gen_dict(FILE *f, const void *arg)
{
	return pb_doc_fuzz_dict(f);
}

/* s as roff writes it: dashes escaped. */
static const char *roff(const char *s, char *buf, size_t len)
{
	size_t k = 0;

	for (; *s && k + 3 < len; s++) {
		if (*s == '-')
			buf[k++] = '\\';
		buf[k++] = *s;
	}
	buf[k] = '\0';
	return buf;
}

static void check_man_has(const char *man, const char *what, const char *text)
{
	char esc[256];

	CHECK(strstr(man, roff(text, esc, sizeof(esc))) != NULL, "man page lacks %s '%s'", what,
	      text);
}

/* An entry of its own for option --name (a .TP tag, after the short name if it has one). */
static void check_man_option(const char *man, const char *name)
{
	char esc[128], tag[192], tag2[192];

	roff(name, esc, sizeof(esc));
	snprintf(tag, sizeof(tag), ".TP\n\\fB\\-\\-%s\\fR", esc);
	snprintf(tag2, sizeof(tag2), "\\fR, \\fB\\-\\-%s\\fR", esc);
	CHECK(strstr(man, tag) || strstr(man, tag2), "man page has no entry for --%s", name);
}

/* Every "--word" in a command's --help as the built binary prints it is in the man page. */
static unsigned int check_help_in_man(const char *man, const char *args)
{
	char cmd[512], line[1024];
	unsigned int n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s --help", PB_PKTBENCH, args);
	p = popen(cmd, "r");
	CHECK(p != NULL, "cannot run %s", cmd);
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		const char *s = line;
		char word[96];

		while ((s = strstr(s, "--"))) {
			/* an option's own entry in --help: "  -m, --method" or "      --dstip" */
			if (sscanf(s, "--%94[a-z0-9-]", word) == 1 &&
			    (s == line + 6 || (s == line + 8 && line[2] == '-'))) {
				check_man_option(man, word);
				n++;
			}
			s += 2;
		}
	}
	CHECK(pclose(p) == 0, "%s failed", cmd);
	return n;
}

static void test_man(void)
{
	struct pb_doc_paths paths = { .scenarios = "/usr/share/pktbench/scenarios",
				      .unit = "/usr/lib/systemd/system/pktbench-receive@.service",
				      .envfile = "/etc/default/pktbench-receive-%i",
				      .completion =
					      "/usr/share/bash-completion/completions/pktbench" };
	static struct pb_doc_field fields[256];
	char *man = capture(gen_man, &paths), flag[80], sec[80];
	unsigned int i, j, n;
	int nf;

	CHECK(man != NULL, "no man page");
	if (!man)
		return;
	CHECK(!strncmp(man, ".\\\"", 3) && strstr(man, ".TH PKTBENCH 8 "), "man header");
	for (i = 0; i < pb_cmds_count; i++) {
		const struct pb_cmd *cmd = pb_cmds[i];

		if (cmd->run) {
			snprintf(sec, sizeof(sec), ".SH \"PKTBENCH %s\"", cmd->name);
			for (j = 13; sec[j] != '"'; j++)
				sec[j] = (char)(sec[j] >= 'a' && sec[j] <= 'z' ? sec[j] - 32
									       : sec[j]);
			CHECK(strstr(man, sec) != NULL, "no section %s", sec);
		}
		for (j = 0; j < cmd->nopts; j++)
			check_man_option(man, cmd->opts[j].name);
	}
	for (i = 0; i < pb_methods_count; i++) {
		snprintf(flag, sizeof(flag), ".TP\n\\fB%s\\fR\n", pb_methods[i]->name);
		check_man_has(man, "an entry for method", flag);
	}
	nf = pb_doc_json_fields(fields, 256);
	CHECK(nf >= 40 && nf <= 256, "%d JSON fields", nf);
	for (i = 0; nf > 0 && i < (unsigned int)nf; i++) {
		char tag[128], esc[100];

		snprintf(tag, sizeof(tag), ".TP\n\\fB%s\\fR (",
			 roff(fields[i].name, esc, sizeof(esc)));
		CHECK(strstr(man, tag) != NULL, "man page lacks JSON field %s%s", fields[i].where,
		      fields[i].name);
		if (!fields[i].help)
			printf("note: JSON field %s%s has no description yet\n", fields[i].where,
			       fields[i].name);
	}
	CHECK(pb_doc_stale_field() == NULL, "a description for a field the writer lacks: %s",
	      pb_doc_stale_field());
	check_man_has(man, "a file", paths.unit);
	check_man_has(man, "a section", ".SH \"EXIT STATUS\"");
	check_man_has(man, "a section", ".SH EXAMPLES");
	check_man_has(man, "a section", ".SH \"JSON RESULTS\"");

	/* independently of the tables: what the built binary says */
	n = check_help_in_man(man, "");
	CHECK(n >= 30, "only %u options in pktbench --help", n);
	for (i = 0; i < pb_cmds_count; i++)
		if (pb_cmds[i]->run)
			CHECK(check_help_in_man(man, pb_cmds[i]->name) >= 2, "pktbench %s --help",
			      pb_cmds[i]->name);
	free(man);
}

static void test_completion(void)
{
	char *bash = capture(gen_bash, NULL), *dict = capture(gen_dict, NULL), w[96];
	char *methods = NULL;
	unsigned int i, j, k;

	CHECK(bash && dict, "no completion or dictionary");
	if (!bash || !dict)
		goto out;
	CHECK(strstr(bash, "complete -F _pktbench pktbench") != NULL, "completion registers");
	for (i = 0; i < pb_cmds_count; i++) {
		const struct pb_cmd *cmd = pb_cmds[i];

		if (cmd->run) {
			snprintf(w, sizeof(w), "\t%s)\n", cmd->name);
			CHECK(strstr(bash, w) != NULL, "completion lacks command %s", cmd->name);
		}
		for (j = 0; j < cmd->nopts; j++) {
			const struct pb_opt *o = &cmd->opts[j];

			snprintf(w, sizeof(w), "--%s", o->name);
			CHECK(strstr(bash, w) != NULL, "completion lacks %s", w);
			for (k = 0; o->type == OPT_ENUM && o->names[k]; k++) {
				snprintf(w, sizeof(w), "%s%s", k ? " " : "\"", o->names[k]);
				CHECK(strstr(bash, w) != NULL, "completion lacks %s's value %s",
				      o->name, o->names[k]);
			}
			snprintf(w, sizeof(w), "\"%s\"\n", o->name);
			if (cmd == &pb_cmd_main && pb_opt_in_file(o))
				CHECK(strstr(dict, w) != NULL, "fuzz dictionary lacks key %s",
				      o->name);
		}
	}
	/* the methods' list: one line, its words */
	methods = strstr(bash, "_pktbench_methods=\"");
	CHECK(methods != NULL, "completion lacks the methods' list");
	if (methods)
		methods = strndup(methods + 19, strcspn(methods + 19, "\""));
	for (i = 0; methods && i < pb_methods_count; i++) {
		char *copy = strdup(methods), *tok, *save = NULL;
		bool found = false;

		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			found |= !strcmp(tok, pb_methods[i]->name);
		CHECK(found, "completion lacks method %s", pb_methods[i]->name);
		free(copy);
	}
	free(methods);
out:
	free(bash);
	free(dict);
}

/*
 * Every token of a command's conflicts and needs names one of its rows, a kind its --sweep
 * takes, or a value an enum row takes ("format=json").
 */
static void check_tokens(const struct pb_cmd *cmd, const char *const *toks)
{
	unsigned int i, k;

	for (i = 0; toks[i]; i++) {
		size_t len = strcspn(toks[i], "=");
		const struct pb_opt *o = NULL;
		bool kind = !toks[i][len];

		for (k = 0; k < cmd->nopts && !o; k++)
			if (strlen(cmd->opts[k].name) == len &&
			    !strncmp(cmd->opts[k].name, toks[i], len))
				o = &cmd->opts[k];
		for (k = 0;
		     o && !kind && (o->type == OPT_SWEEP || o->type == OPT_ENUM) && o->names[k];
		     k++)
			kind = !strcmp(o->names[k], toks[i] + len + 1);
		CHECK(o && kind, "pktbench %s: conflict token '%s' is no option of it", cmd->name,
		      toks[i]);
	}
}

static void test_conflict_tokens(void)
{
	const struct pb_need *const *t;
	const struct pb_conflict *c;
	const struct pb_need *e;
	unsigned int i;

	for (i = 0; i < pb_cmds_count; i++)
		for (c = pb_cmds[i]->conflicts; c && c->opts[0]; c++) {
			/* rfc2544 shares pktbench's: a row it leaves out is never given there */
			if (pb_cmds[i]->conflicts == pb_conflicts && pb_cmds[i] != &pb_cmd_main)
				continue;
			check_tokens(pb_cmds[i], c->opts);
			check_tokens(pb_cmds[i], c->with);
			check_tokens(pb_cmds[i], (const char *const[]){ c->unless, NULL });
			CHECK(c->why && c->why[0], "pktbench %s: a conflict without a why",
			      pb_cmds[i]->name);
		}
	/* pktbench's own needs: the option and every one it needs are rows of it */
	for (t = pb_cmd_main.needs; t && *t; t++)
		for (e = *t; e->opt; e++) {
			check_tokens(&pb_cmd_main, (const char *const[]){ e->opt, NULL });
			check_tokens(&pb_cmd_main, e->needs);
			CHECK(e->needs[0] && e->why && e->why[0],
			      "pktbench: --%s needs nothing, or says no why", e->opt);
		}
}

/*
 * --help by topic (issue 45): every row of every command under one of its headings, shown
 * once; pktbench's headings what to send, how fast, where, what to measure, output first.
 */
static void test_help_groups(void)
{
	static const char *const first[] = { PB_G_SEND, PB_G_PACE, PB_G_WHERE, PB_G_MEASURE,
					     PB_G_OUTPUT };
	unsigned int i, k, g;

	for (k = 0; k < 5; k++)
		CHECK(pb_cmd_main.groups && pb_cmd_main.groups[k] &&
			      !strcmp(pb_cmd_main.groups[k], first[k]),
		      "pktbench --help's heading %u is %s", k + 1, first[k]);
	for (i = 0; i < pb_cmds_count; i++) {
		const struct pb_cmd *cmd = pb_cmds[i];
		char *usage = NULL, label[64], *at;
		size_t len = 0;
		FILE *f;

		for (k = 0; cmd->groups && k < cmd->nopts; k++) {
			for (g = 0; cmd->opts[k].group && cmd->groups[g]; g++)
				if (!strcmp(cmd->groups[g], cmd->opts[k].group))
					break;
			CHECK(cmd->opts[k].group && cmd->groups[g], "pktbench %s --%s: no heading",
			      cmd->name, cmd->opts[k].name);
		}
		f = open_memstream(&usage, &len);
		if (!f)
			continue;
		pb_cmd_usage(cmd, f);
		fclose(f);
		for (k = 0; usage && k < cmd->nopts; k++) {
			char row[80];

			/* a row as usage_row starts it: its label, then its help or a new line */
			pb_opt_label(&cmd->opts[k], label, sizeof(label));
			snprintf(row, sizeof(row), "\n  %s ", label);
			at = strstr(usage, row);
			if (!at) {
				snprintf(row, sizeof(row), "\n  %s\n", label);
				at = strstr(usage, row);
			}
			CHECK(at && !strstr(at + 1, row), "pktbench %s --help: --%s %s", cmd->name,
			      cmd->opts[k].name, at ? "twice" : "missing");
		}
		free(usage);
	}
}

/*
 * One rule for frame sizes (issue 45): a size pktbench builds (--frame-size, --sweep
 * frame-size=) is without the FCS, one named after a standard that counts the wire (rfc2544's
 * --frame-sizes, --imix-sizes) with it; every row that takes or names a size in bytes says
 * which.
 */
static void test_fcs_said(void)
{
	unsigned int i, k;

	for (i = 0; i < pb_cmds_count; i++)
		for (k = 0; k < pb_cmds[i]->nopts; k++) {
			const struct pb_opt *o = &pb_cmds[i]->opts[k];
			bool sized = (o->metavar && (strstr(o->metavar, "BYTES") ||
						     strstr(o->metavar, "SIZE"))) ||
				     strstr(o->help, "-byte") || strstr(o->help, "frame-size=");

			CHECK(!sized || strstr(o->help, "FCS"),
			      "pktbench %s --%s names a size without saying whether the FCS is in "
			      "it",
			      pb_cmds[i]->name, o->name);
		}
}

int main(void)
{
	test_man();
	test_fcs_said();
	test_help_groups();
	test_completion();
	test_conflict_tokens();
	return check_summary();
}
