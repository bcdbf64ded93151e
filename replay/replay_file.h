/* SPDX-License-Identifier: MIT */
/*
 * --replay's capture (replay_file.c): its frames read and sorted, rebuilt for the run, and
 * each placed in its pass's schedule. Used by replay.c and replay_disk.c alike; it calls
 * neither.
 */
#ifndef PB_REPLAY_FILE_H
#define PB_REPLAY_FILE_H

#include "replay_int.h"

/* The whole file read into f (preloading): its kept frames' records and payloads. */
int rp_read(const char *path, struct rp_file *f, char *why, size_t len);
void rp_file_free(struct rp_file *f);
int rp_classify(struct rp_file *f, const uint8_t *p, uint32_t caplen, uint32_t wirelen,
		uint64_t ts_ns, struct rp_rec *out, int *skip);
bool rp_fits(const struct pb_replay *rp, const struct rp_rec *r);
/* The bytes a kept frame goes out as. */
uint32_t rp_out_len(const struct pb_replay *rp, const struct rp_rec *r);
/*
 * A frame method's frame: the captured frame at src written as it goes out at out (NULL: in
 * place, which takes RP_HEADROOM bytes free before src), described in fr.
 */
int rp_build_whole(struct pb_frame *fr, uint8_t *out, const uint8_t *src,
		   const struct pb_replay *rp, uint32_t stream, const struct rp_rec *r);
void rp_spec(const struct pb_replay *rp, const struct rp_rec *r, struct pb_frame_spec *spec);
/* A kept frame's flow: the capture's 5-tuple's, or with --flows the kept-th in turn. */
uint32_t rp_flow_of(const struct pb_config *cfg, const struct rp_rec *r, uint64_t kept);
int rp_build_one(struct pb_frame *fr, const struct pb_replay *rp, uint32_t stream,
		 const struct rp_rec *r, const uint8_t *payload);
void rp_timing(struct pb_replay *rp);
double rp_offset(const struct pb_replay *rp, struct rp_clock *c, const struct rp_rec *r);
void rp_pass_end(struct pb_replay *rp, const struct rp_clock *c);
/* --limit over several streams: the next kept frame (file order) goes to stream i. */
int rp_order_add(struct pb_replay *rp, uint32_t i);
/* --limit: each stream's share of the replay's first N frames, once the pass is read. */
void rp_limits(struct pb_replay *rp);
int rp_none(const struct pb_replay *rp, char *why, size_t len);
int rp_no_flows(const struct pb_replay *rp, uint32_t flows, uint32_t i, char *why, size_t len);
#ifdef PB_HAVE_PCAP
pcap_t *rp_pcap_open(const char *path, char *why, size_t len);
uint64_t rp_stamp(const struct pcap_pkthdr *h);
/*
 * After pcap_next_ex() returned ret != 1: 0 at the file's end, also when its last record
 * is cut (a capture stopped mid-write: *cut set, *cut_bytes what is missing, each unless
 * NULL); -EINVAL on any other error, why filled.
 */
int rp_end(pcap_t *pc, int ret, const char *path, bool *cut, uint64_t *cut_bytes, char *why,
	   size_t len);
#endif

#endif
