// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for what the receive agent and its client parse from the network or the
 * command line (receiver/api.c): the first line as a request's "METHOD PATH", as a raw
 * request target, as an Accept header, as --listen and as --receiver; the whole input as a /v1/runs
 * answer, a /v1/info answer and a run's histogram (/v1/runs/RUN_ID/hist/lat). Nothing may crash,
 * leak or hang; a run id routed is the one the path spells; an answer that parses is written back
 * and parses to the same struct; what is refused is said in one line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_api: %s: '%s'\n", what, detail);
	abort();
}

static void fuzz_err(const char *what, const char *err)
{
	if (!err[0] || strchr(err, '\n'))
		fuzz_fail(what, "a refusal that is not one non-empty line");
}

static void fuzz_line(const char *line)
{
	char method[16], base[64], err[256], num[16], target[128];
	const char *path = strchr(line, ' ');
	struct sockaddr_storage ss;
	uint32_t id = 0;
	socklen_t len;
	int r;

	if (path && (size_t)(path - line) < sizeof(method)) {
		snprintf(method, sizeof(method), "%.*s", (int)(path - line), line);
		r = pb_api_route(method, path + 1, &id);
		if (r == PB_API_RUN) {
			snprintf(num, sizeof(num), "%u", id);
			if (strcmp(path + 1 + strlen("/v1/runs/"), num))
				fuzz_fail("the run id routed is not the path's", path + 1);
		}
	}
	r = pb_api_target(line, target, sizeof(target));
	if (r != 0 && r != -EINVAL && r != -ENAMETOOLONG)
		fuzz_fail("a target is neither taken nor refused", line);
	if (!r && (target[0] != '/' || strlen(target) > strcspn(line, "?")))
		fuzz_fail("a decoded path is not a path, or longer than the raw one", line);
	r = pb_api_negotiate_metrics(line);
	if (r < -1 || r > 1)
		fuzz_fail("Accept negotiated to no format", line);
	if (!pb_api_parse_listen(line, &ss, &len) && ss.ss_family != AF_INET &&
	    ss.ss_family != AF_INET6)
		fuzz_fail("--listen parsed to no family", line);
	err[0] = '\0';
	if (pb_api_check_url(line, base, sizeof(base), err, sizeof(err)))
		fuzz_err("--receiver", err);
	else if (strncmp(base, line, strlen(base)))
		fuzz_fail("the base is not the URL's beginning", line);
}

static void fuzz_run(const char *text, size_t size)
{
	struct pb_api_run r, back;
	char err[256] = "", *json;

	if (pb_api_parse_run(text, size, 7, &r, err, sizeof(err))) {
		fuzz_err("run", err);
		return;
	}
	json = pb_api_run_json(&r);
	if (!json)
		return;
	if (pb_api_parse_run(json, strlen(json), 7, &back, err, sizeof(err)) ||
	    memcmp(&r, &back, sizeof(r)))
		fuzz_fail("a run answer written back reads differently", json);
	free(json);
}

static void fuzz_info(const char *text, size_t size)
{
	struct pb_api_info in, back;
	char err[256] = "", *json;

	if (pb_api_parse_info(text, size, &in, err, sizeof(err))) {
		fuzz_err("info", err);
		return;
	}
	json = pb_api_info_json(&in);
	if (!json)
		return;
	/* uptime_s is written to the millisecond: compare the rest */
	if (pb_api_parse_info(json, strlen(json), &back, err, sizeof(err)))
		fuzz_fail("an info answer written back does not parse", err);
	back.uptime_s = in.uptime_s;
	if (memcmp(&in, &back, sizeof(in)))
		fuzz_fail("an info answer written back reads differently", json);
	free(json);
}

static void fuzz_hist(const char *text, size_t size)
{
	static uint64_t counts[PB_RX_HIST_BUCKETS], back[PB_RX_HIST_BUCKETS];
	char err[256] = "", *json;

	if (pb_api_parse_hist(text, size, 7, PB_RX_HIST_LAT, counts, err, sizeof(err))) {
		fuzz_err("hist", err);
		return;
	}
	json = pb_api_hist_json(7, PB_RX_HIST_LAT, counts);
	if (!json)
		return;
	if (pb_api_parse_hist(json, strlen(json), 7, PB_RX_HIST_LAT, back, err, sizeof(err)) ||
	    memcmp(counts, back, sizeof(counts)))
		fuzz_fail("a histogram written back reads differently", json);
	free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *nl;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the parsers take a length: give them the bytes without the NUL we added */
	fuzz_run(text, size);
	fuzz_info(text, size);
	fuzz_hist(text, size);
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	fuzz_line(text);
	free(text);
	return 0;
}
