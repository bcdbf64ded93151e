#!/bin/bash
# SPDX-License-Identifier: MIT
# Replay drift soak: a 50 kpps capture looped with --loop 0 for SECONDS (default
# 60) through the namespace lab; the row's |drift_ppm| (first to last departure against the
# schedule's own span) must stay under 100, and every frame sent must be delivered. Not a
# CTest test: a timed run on a shared machine. Run it under the lab lock, e.g.
#   flock -o LOCKFILE tests/soak/replay_drift.sh build/pktbench 5
# usage: replay_drift.sh PKTBENCH [SECONDS] [METHOD]   (METHOD: af_packet unless given)
# exit 0 pass, 1 fail, 77 skip
set -u
PB=${1:?usage: $0 PKTBENCH [SECONDS] [METHOD]}
SECS=${2:-60}
METHOD=${3:-af_packet}
HERE=$(cd "$(dirname "$0")" && pwd)

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (namespaces, veth, XDP)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 reads the JSON (Debian package python3)"; exit 77; }
T=$(mktemp -d /tmp/pbdrift.XXXXXX)
trap 'rm -rf "$T"' EXIT

# one second of frames 20 us apart: each pass is 50000 frames, the wrap adds one more gap
python3 "$HERE/../net/pcapgen.py" "$T/c.pcap" --n 50000 --pps 50000 --format nsec >/dev/null || exit 1
"$PB" --method "$METHOD" --replay "$T/c.pcap" --loop 0 --duration "$SECS" -q --format json \
	-o "$T/d.json" 2>"$T/err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: pktbench exit $rc: $(head -c 500 "$T/err")"; exit 1; }
python3 - "$T/d.json" "$SECS" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
if r['status'] != 'ok':
    print("FAIL: %s: %s %s" % (r['method'], r['status'], r.get('reason', '')))
    sys.exit(1)
p = r['replay']
g = p.get('arrival_gap_error_us', {})
print("%s, %s s at 50 kpps: %d frames (%d delivered), %d passes, run %.6f s vs scheduled %.6f s:"
      " drift %+.1f ppm; departures late p50 %s p99 %s max %s us; arrival gap - file p50 %s"
      " p99 %s us" % (r['method'], sys.argv[2], r['frames_sent'], r['frames_delivered'],
                      p['loops'], p['run_duration_s'], p['scheduled_duration_s'], p['drift_ppm'],
                      p['departure_error_us']['p50'], p['departure_error_us']['p99'],
                      p['departure_error_us']['max'], g.get('p50'), g.get('p99')))
good = abs(p['drift_ppm']) < 100 and r['frames_delivered'] == r['frames_sent'] > 0
print("PASS: |drift| < 100 ppm, every frame delivered" if good else
      "FAIL: |drift| must be < 100 ppm and every frame delivered")
sys.exit(0 if good else 1)
PY
