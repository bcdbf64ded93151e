# SPDX-License-Identifier: MIT
# A short benchmark in the lab: one row per built-in method, each with packets/s > 0,
# delivered >= 99 %, accounted 100 %, and wire/app figures that follow from the formulas.
. "$(dirname "$0")/lib.sh"
out=$T/bench.json
"$PB" --method benchmark --duration 1 --format json --output "$out" -q 2>"$T/err"
rc=$?
check "benchmark exits 0 (got $rc: $(tail -3 "$T/err"))" [ $rc = 0 ]
nmethods=$("$PB" --help | awk '/^Methods/{m=1; next} m && !NF {exit} m {print $1}' | grep -vc '^benchmark$')
check "a row per method ($nmethods)" json "$out" "len(d['results']) == $nmethods"
check "lab is recorded" json "$out" "d['lab'] is True"
python3 - "$out" <<'PY' && ok "every row: pps > 0, delivered >= 99 %, accounted 100 %, formulas" || fail "row checks"
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for r in d['results']:
    m = r['method']
    if r['status'] != 'ok':
        print(f"{m}: status {r['status']}: {r['reason']}"); bad += 1; continue
    pps = r['frames_sent'] / r['duration_s']
    if not r['pps'] > 0 or abs(r['pps'] - pps) > 1e-6 * pps:
        print(f"{m}: pps {r['pps']} vs sent/duration {pps}"); bad += 1
    wire = max(r['frame_bytes'], 64 if r.get('vlan') else 60) + 24
    if abs(r['wire_gbps'] - r['pps'] * wire * 8 / 1e9) > 1e-9 * max(1, r['wire_gbps']):
        print(f"{m}: wire {r['wire_gbps']}"); bad += 1
    if abs(r['app_mbps'] - r['pps'] * r['frame_bytes'] * 8 / 1e6) > 1e-9 * max(1, r['app_mbps']):
        print(f"{m}: app {r['app_mbps']}"); bad += 1
    if m == 'null':
        continue
    if r['delivered_pct'] < 99:
        print(f"{m}: delivered {r['delivered_pct']} %"); bad += 1
    if abs(r['accounted_pct'] - 100) > 1e-9:
        print(f"{m}: accounted {r['accounted_pct']} % (sent {r['frames_sent']}, delivered "
              f"{r['frames_delivered']}, dropped {r['frames_dropped']})"); bad += 1
sys.exit(1 if bad else 0)
PY
check "no lab left" no_leftovers
finish
