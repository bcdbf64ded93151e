// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the scenario loader: any bytes, as a --config file. It must not crash,
 * leak or hang; what it rejects it rejects with one line that starts with the file's name, and
 * a rejected file leaves the configuration as it was.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "options.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes go to a memfd, opened by path like any file, so nothing touches the disk. */
static int fuzz_fd = -1;
static char fuzz_path[64];
static struct pb_config fuzz_defaults;

static void fuzz_fail(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_scenario: %s: '%s'\n", what, err);
	abort();
}

static void fuzz_init(void)
{
	char *argv[] = { "pktbench", NULL };
	enum pb_opt_action action;
	char err[512];

	fuzz_fd = memfd_create("scenario.yaml", MFD_CLOEXEC);
	if (fuzz_fd < 0)
		fuzz_fail("memfd_create", strerror(errno));
	snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d", fuzz_fd);
	if (pb_options_parse(&fuzz_defaults, 1, argv, &action, err, sizeof(err)))
		fuzz_fail("defaults", err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_config cfg;
	char err[512];
	int ret;

	if (fuzz_fd < 0)
		fuzz_init();
	if (ftruncate(fuzz_fd, 0) || pwrite(fuzz_fd, data, size, 0) != (ssize_t)size)
		fuzz_fail("writing the memfd", strerror(errno));

	cfg = fuzz_defaults;
	ret = pb_scenario_load(fuzz_path, &cfg, err, sizeof(err));
	if (!ret)
		return 0;
	if (ret != -EINVAL && ret != -ENOMEM)
		fuzz_fail("unexpected return value", err);
	if (strncmp(err, fuzz_path, strlen(fuzz_path)) || err[strlen(fuzz_path)] != ':')
		fuzz_fail("message does not start with the file", err);
	if (strchr(err, '\n') || !err[strlen(fuzz_path) + 1])
		fuzz_fail("message is not one non-empty line", err);
	if (memcmp(&cfg, &fuzz_defaults, sizeof(cfg)))
		fuzz_fail("a rejected file changed the config", err);
	return 0;
}
