// SPDX-License-Identifier: MIT
/*
 * xdp_live's in-kernel flow variation and latency probes keep every frame valid: the program
 * is run on a frame (BPF_PROG_RUN, not live), its output fed back in as the next input, as
 * live frames keep the last packet's bytes, and every output's IPv4 and UDP checksums are
 * re-verified here by a naive routine; a probe comes every probe_every frames with the next
 * sequence number and a fresh timestamp, and every other frame is an ordinary one again.
 * Needs BPF (root); skips (77) without it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "frame.h"
#include "xdp_live.skel.h"
#include "check.h"
#include "naive_csum.h"

/* The frame's checksums hold: IPv4 header, and UDP over its pseudo-header (both families). */
static bool frame_ok(const uint8_t *f, size_t len, uint32_t l3, bool v6)
{
	const uint8_t *ip = f + l3;
	int family = v6 ? AF_INET6 : AF_INET;
	size_t ulen;

	/* a length the program broke must not send the check past the frame */
	if (naive_udp(ip, family, &ulen) + ulen > f + len)
		return false;
	return (v6 || naive_ipv4_ok(ip)) && naive_udp_ok(ip, family) &&
	       naive_udp_nonzero(ip, family);
}

static void run_case(const char *name, bool v6, bool vary_addr, uint16_t vlan, uint32_t flows,
		     uint32_t every)
{
	struct pb_frame_spec spec = {
		.dstmac = { 2, 0, 0, 0, 0, 2 },
		.srcmac = { 2, 0, 0, 0, 0, 1 },
		.srcport = 12345,
		.dstport = 12345,
		.payload_len = 18,
		.run_id = 9,
		.vlan_id = vlan,
		.kind = PB_SIG_KIND_FRAME | PB_SIG_PACED, /* a paced run's, as probes are */
	};
	static uint8_t in[256], out[256], seen[65536];
	struct pb_frame f = { .data = in };
	struct xdp_live *skel;
	uint32_t i, bad = 0, distinct = 0, l3, probes = 0, badprobe = 0, badframe = 0;
	uint64_t last_ts = 0;
	int fd;

	spec.srcip.family = spec.dstip.family = v6 ? AF_INET6 : AF_INET;
	inet_pton(spec.srcip.family, v6 ? "2001:2::1" : "198.18.0.1", &spec.srcip.v4);
	inet_pton(spec.dstip.family, v6 ? "2001:2::2" : "198.18.0.2", &spec.dstip.v4);
	CHECK(pb_frame_build(&f, &spec) == 0, "%s: the frame builds", name);
	if (!f.len)
		return;
	l3 = f.l3_off;

	skel = xdp_live__open();
	CHECK(skel != NULL, "%s: open", name);
	if (!skel)
		return;
	skel->rodata->flows = flows;
	skel->rodata->flow_first = 0;
	skel->rodata->flow_step = 1;
	skel->rodata->span = flows;
	skel->rodata->base_port = 12345;
	skel->rodata->base_addr = v6 ? 1 : (198u << 24 | 18u << 16 | 1);
	skel->rodata->vary_addr = vary_addr;
	skel->rodata->ipv6 = v6;
	skel->rodata->l3_off = (uint8_t)l3;
	skel->rodata->probes = every > 0;
	skel->rodata->probe_kind = PB_SIG_KIND_PROBE | PB_SIG_PACED;
	skel->rodata->frame_kind = PB_SIG_KIND_FRAME | PB_SIG_PACED;
	CHECK(xdp_live__load(skel) == 0, "%s: load", name);
	skel->bss->probe_every = every;
	fd = bpf_program__fd(skel->progs.pb_xdp_live);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 3000; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in, .data_size_in = f.len,
			    .data_out = out, .data_size_out = sizeof(out), .repeat = 1);
		uint32_t key;

		if (bpf_prog_test_run_opts(fd, &o) || o.retval != XDP_TX) {
			bad++;
			break;
		}
		bad += !frame_ok(out, o.data_size_out, l3, v6);
		if (every) {
			const uint8_t *pl = out + f.payload_off;
			uint32_t seq = (uint32_t)pl[8] << 24 | pl[9] << 16 | pl[10] << 8 | pl[11];
			uint64_t ts = 0;
			int b;

			for (b = 0; b < 6; b++)
				ts = ts << 8 | pl[12 + b];
			if (pl[2] == (PB_SIG_KIND_PROBE | PB_SIG_PACED)) {
				badprobe += i % every || seq != probes || ts < last_ts || !ts;
				last_ts = ts;
				probes++;
			} else {
				badframe +=
					pl[2] != (PB_SIG_KIND_FRAME | PB_SIG_PACED) || !(i % every);
			}
		}
		key = vary_addr
			      ? (uint32_t)out[l3 + (v6 ? 22 : 14)] << 8 | out[l3 + (v6 ? 23 : 15)]
			      : (uint32_t)out[l3 + (v6 ? 40 : 20)] << 8 | out[l3 + (v6 ? 41 : 21)];
		distinct += !seen[key & 0xffff]++;
		memcpy(in, out, o.data_size_out); /* live frames keep the last packet's bytes */
	}
	CHECK(bad == 0, "%s: %u of 3000 frames with a bad checksum", name, bad);
	if (flows > 1)
		CHECK(distinct > 900, "%s: %u distinct flows in 3000 frames", name, distinct);
	if (every) {
		CHECK(probes == (3000 + every - 1) / every, "%s: %u probes, one every %u frames",
		      name, probes, every);
		CHECK(badprobe == 0, "%s: %u probes out of turn, sequence or time", name, badprobe);
		CHECK(badframe == 0, "%s: %u frames that should have been ordinary again", name,
		      badframe);
		CHECK(skel->bss->probe_seq == probes, "%s: the program counted %u probes", name,
		      skel->bss->probe_seq);
	}
	xdp_live__destroy(skel);
}

int main(void)
{
	struct xdp_live *probe = xdp_live__open_and_load();

	if (!probe) {
		printf("SKIP: cannot load BPF programs here (%s): needs root\n", strerror(errno));
		return 77;
	}
	xdp_live__destroy(probe);
	libbpf_set_print(NULL);
	run_case("ipv4 ports", false, false, 0, 1000, 0);
	run_case("ipv4 addresses", false, true, 0, 1000, 0);
	run_case("ipv4 ports, tagged", false, false, 100, 1000, 0);
	run_case("ipv6 ports", true, false, 0, 1000, 0);
	run_case("ipv6 addresses", true, true, 0, 1000, 0);
	run_case("ipv4 probes, one flow", false, false, 0, 1, 7);
	run_case("ipv4 probes, ports, tagged", false, false, 100, 1000, 5);
	run_case("ipv6 probes, addresses", true, true, 0, 1000, 3);
	run_case("ipv6 probes, every frame", true, false, 0, 1, 1);
	return check_summary();
}
