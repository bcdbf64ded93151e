// SPDX-License-Identifier: MIT
/*
 * pktbench-gendoc: writes pktbench(8), the bash completion or the fuzz dictionary from the
 * tables linked into it (the same pbcore as pktbench), so the build can never ship a document
 * that disagrees with the binary. Run by CMake; not installed.
 *   pktbench-gendoc man|bash|fuzz-dict -o FILE [--scenarios DIR] [--unit FILE]
 *                   [--envfile FILE] [--completion FILE]
 */
#include <stdio.h>
#include <string.h>

#include "doc.h"

int main(int argc, char **argv)
{
	struct pb_doc_paths paths = { 0 };
	const char *what = argc > 1 ? argv[1] : "", *out = NULL;
	FILE *f;
	int i, ret;

	for (i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-o"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "--scenarios"))
			paths.scenarios = argv[i + 1];
		else if (!strcmp(argv[i], "--unit"))
			paths.unit = argv[i + 1];
		else if (!strcmp(argv[i], "--envfile"))
			paths.envfile = argv[i + 1];
		else if (!strcmp(argv[i], "--completion"))
			paths.completion = argv[i + 1];
		else
			break;
	}
	if (i != argc || !out ||
	    (strcmp(what, "man") && strcmp(what, "bash") && strcmp(what, "fuzz-dict"))) {
		fprintf(stderr,
			"usage: pktbench-gendoc man|bash|fuzz-dict -o FILE [--scenarios DIR] "
			"[--unit FILE] [--envfile FILE] [--completion FILE]\n");
		return 2;
	}
	f = fopen(out, "w");
	if (!f) {
		perror(out);
		return 1;
	}
	if (!strcmp(what, "man"))
		ret = pb_doc_man(f, &paths);
	else if (!strcmp(what, "bash"))
		ret = pb_doc_bash_completion(f);
	else
		ret = pb_doc_fuzz_dict(f);
	if (fclose(f) || ret) {
		fprintf(stderr, "pktbench-gendoc: cannot write %s\n", out);
		remove(out);
		return 1;
	}
	return 0;
}
