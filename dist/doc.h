/* SPDX-License-Identifier: MIT */
/*
 * Documents generated from the binary's own tables, so they can never disagree with it: the
 * man page pktbench(8) (every command's rows, the method registry, the JSON fields the writer
 * emits), the bash completion, and the fuzzer's dictionary of scenario keys.
 */
#ifndef PB_DOC_H
#define PB_DOC_H

#include <stdio.h>

/* Where the installed files are, for the man page's FILES section. */
struct pb_doc_paths {
	const char *scenarios;	/* the example scenarios' directory */
	const char *unit;	/* the systemd unit pktbench-receive@.service */
	const char *envfile;	/* its per-interface environment file, with %i for the name */
	const char *completion; /* the bash completion file */
};

/* One field of the JSON result set, as the writer emits it. */
struct pb_doc_field {
	const char *where; /* "" (the set), "results[]", "per_second[]" */
	char name[48];
	const char *type; /* "number", "integer", "string", "boolean", "list", "object" */
	const char *help; /* NULL when the field has no description yet */
};

/*
 * The fields, read off a result set the real writer wrote (so a field added there appears
 * here without a word changed). Up to max into out; returns how many, or -errno.
 */
int pb_doc_json_fields(struct pb_doc_field *out, unsigned int max);
/* A described field the writer no longer emits (a stale description); NULL when none. */
const char *pb_doc_stale_field(void);

int pb_doc_man(FILE *f, const struct pb_doc_paths *paths);
int pb_doc_bash_completion(FILE *f);
int pb_doc_fuzz_dict(FILE *f);

#endif
