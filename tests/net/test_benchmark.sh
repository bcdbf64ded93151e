# SPDX-License-Identifier: MIT
# A short benchmark in the lab, every method at full rate: one row per built-in method, each
# with delivered >= 99 % and <= sent, accounted 100 %, the raw counter deltas in the JSON, what
# was counted as sent equal to what left the sending veth, and wire/app figures that follow
# from the documented formulas.
. "$(dirname "$0")/lib.sh"
out=$T/bench.json
"$PB" --method benchmark --duration 1 --format json --output "$out" -q 2>"$T/err"
rc=$?
check "benchmark exits 0 (got $rc: $(tail -3 "$T/err"))" [ $rc = 0 ]
nmethods=$(pb_methods | wc -l)
# a method this kernel refuses (lib.sh's refused_methods) has its row, skipped with the reason
REFUSED=$(refused_methods | paste -sd, -)
export REFUSED
check "a row per method ($nmethods${REFUSED:+, and $REFUSED skipped})" json "$out" \
	"len(d['results']) == $nmethods + len([m for m in '$REFUSED'.split(',') if m])"
check "lab is recorded" json "$out" "d['lab'] is True"
# how long, said before it starts, counting the runs that go (issue 45): 1 s each and 0.1 s more
ran=$(python3 -c "import json,sys; print(sum(r['status'] == 'ok' for r in json.load(open(sys.argv[1]))['results']))" "$out")
want=$(python3 -c "t = int($ran * 1.1 + 0.5); print('%d:%02d' % (t // 60, t % 60))")
check "the estimate first: $ran runs of 1 s, about $want in all ($(head -1 "$T/err"))" \
	grep -qx "pktbench: $ran runs of 1 s, about $want in all ($((ran - 1)) methods and null)" "$T/err"
python3 - "$out" <<'PY' && ok "every row: pps > 0, delivered >= 99 %, accounted 100 %, formulas" || fail "row checks"
import json, os, sys
d = json.load(open(sys.argv[1]))
refused = [m for m in os.environ.get('REFUSED', '').split(',') if m]
bad = 0
for r in d['results']:
    m = r['method']
    if m in refused and r['status'] == 'skipped' and 'live frames' in (r['reason'] or ''):
        continue
    if r['status'] != 'ok':
        print(f"{m}: status {r['status']}: {r['reason']}"); bad += 1; continue
    if not r['pps'] > 0:
        print(f"{m}: pps {r['pps']}"); bad += 1
    wire = max(r['frame_bytes'], 64 if r.get('vlan') else 60) + 24
    if abs(r['wire_gbps'] - r['pps'] * wire * 8 / 1e9) > 1e-9 * max(1, r['wire_gbps']):
        print(f"{m}: wire {r['wire_gbps']}"); bad += 1
    if abs(r['app_mbps'] - r['pps'] * r['frame_bytes'] * 8 / 1e6) > 1e-9 * max(1, r['app_mbps']):
        print(f"{m}: app {r['app_mbps']}"); bad += 1
    if m == 'null':
        continue
    for k in ('tx_packets', 'tx_dropped', 'qdisc_drops', 'xdp_xmit_errors', 'rx_packets',
              'rx_dropped', 'rx_missed_errors', 'frames_retried', 'netting'):
        if r.get(k) is None:
            print(f"{m}: no raw {k} in the JSON"); bad += 1
    if r['tx_packets'] != r['frames_sent']:
        print(f"{m}: sent {r['frames_sent']} but the sending veth's tx_packets is "
              f"{r['tx_packets']}"); bad += 1
    if r['frames_delivered'] > r['frames_sent']:
        print(f"{m}: delivered {r['frames_delivered']} > sent {r['frames_sent']}"); bad += 1
    if r['delivered_pct'] < 99:
        print(f"{m}: delivered {r['delivered_pct']} %"); bad += 1
    if abs(r['accounted_pct'] - 100) > 1e-9:
        print(f"{m}: accounted {r['accounted_pct']} % (sent {r['frames_sent']}, delivered "
              f"{r['frames_delivered']}, dropped {r['frames_dropped']})"); bad += 1
sys.exit(1 if bad else 0)
PY
check "no lab left" no_leftovers
finish
