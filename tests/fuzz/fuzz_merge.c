// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for what `pktbench merge` reads from a file a user or a cluster wrote
 * (results/merge_log.c, merge.c): the whole input as a result file or a log (kubectl logs
 * --prefix --timestamps, podman logs -t, stderr mixed in, a line's second stamp), merged and
 * finished. Nothing may crash, leak or hang; what is refused is said in one line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_err(const char *what, const char *err)
{
	if (!err[0] || strchr(err, '\n')) {
		fprintf(stderr, "fuzz_merge: %s: a refusal that is not one non-empty line: '%s'\n",
			what, err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_merge_result res = { 0 };
	char *text = malloc(size + 1), err[512] = "";

	if (!text)
		return 0;
	/* what readfile.c hands merge: the file's bytes, ended by a NUL */
	memcpy(text, data, size);
	text[size] = '\0';
	if (pb_merge_add_text(&res, text, "fuzz.log", err, sizeof(err)))
		fuzz_err("add", err);
	else if (pb_merge_finish(&res, true, err, sizeof(err)))
		fuzz_err("finish", err);
	pb_merge_result_free(&res);
	free(text);
	return 0;
}
