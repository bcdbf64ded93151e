# SPDX-License-Identifier: MIT
# The CI gate's arithmetic and its word (scripts/ci_rounds.py with pktbench compare), on
# made-up rounds with known answers: the paired CPU ratio, a row slowed 1.3x failing and no
# other, a method skipped in the base said as not judged, a gate that judged nothing failing.
command -v python3 >/dev/null || { echo "SKIP: no python3 (Debian package python3)"; exit 77; }
PB=$1
. "$(dirname "$0")/lib.sh"
R=$top/scripts/ci_rounds.py

# mk FILE SLOW_METHOD FACTOR CPU_SCALE: one round's result set, twelve rows; a round's CPU
# figures all scaled by CPU_SCALE (the CPU it ran on), SLOW_METHOD's CPU and rate by FACTOR;
# row "skipme" skipped
mk() {
	python3 - "$@" <<'PY'
import json, sys
path, slow, factor, scale = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
names = ['udp_sendto', 'udp_connected', 'raw_socket', 'pcap', 'udp_zerocopy', 'sendmmsg',
         'af_packet', 'af_packet_v2', 'gso', 'gso_mmsg', 'io_uring', 'af_xdp']
rows = []
for i, m in enumerate(names):
    f = factor if m == slow else 1.0
    per_call = i < 5
    cpu = (1000.0 + 10 * i) * scale * f
    rows.append({'method': m, 'point': None, 'status': 'ok', 'reason': None,
                 'pps': 1e6 / f * (1 + i / 10), 'cpu_ns_per_pkt': cpu,
                 'syscalls_per_frame': 1.0 if per_call else 0.015625,
                 'delivered_pct': 100.0, 'accounted_pct': 100.0, 'has_receiver': True,
                 'interrupted': False, 'timed_out': False, 'pps_min': None, 'pps_max': None})
rows.append({'method': 'skipme', 'point': None, 'status': 'skipped', 'reason': 'not here',
             'pps': 0, 'cpu_ns_per_pkt': 0, 'syscalls_per_frame': None, 'interrupted': False,
             'timed_out': False})
json.dump({'schema': 1, 'command': 'made up', 'kernel': 'k', 'results': rows}, open(path, 'w'))
PY
}

# three rounds a side; the rounds' CPUs cost 1.0, 1.5 and 1.0 (both sides alike)
for r in 1 2 3; do
	s=1.0
	[ $r = 2 ] && s=1.5
	mk "$T/b$r.json" none 1 $s
	mk "$T/n$r.json" sendmmsg 1.3 $s
	mk "$T/u$r.json" none 1 $s
done
python3 "$R" merge "$T/B.json" "$T/N.json" --base "$T"/b?.json --new "$T"/n?.json
check "merge: exit 0" [ $? = 0 ]
check "merge: the change's CPU/frame is the base's cheapest times the paired median (1.3)" \
	python3 -c "import json,sys
b={r['method']: r for r in json.load(open('$T/B.json'))['results']}
n={r['method']: r for r in json.load(open('$T/N.json'))['results']}
sys.exit(0 if abs(n['sendmmsg']['cpu_ns_per_pkt'] / b['sendmmsg']['cpu_ns_per_pkt'] - 1.3) < 1e-9
	and abs(n['af_packet']['cpu_ns_per_pkt'] / b['af_packet']['cpu_ns_per_pkt'] - 1) < 1e-9 else 1)"

"$PB" compare "$T/B.json" "$T/N.json" --normalize udp_sendto --tolerance 45 --cpu-tolerance 15 \
	--syscalls-tolerance 10 -f json >"$T/cmp.json"
rc=$?
check "compare: sendmmsg 1.3x fails the gate (exit $rc)" [ $rc = 1 ]
check "compare: sendmmsg alone regressed, on CPU/frame" python3 -c "import json,sys
d=json.load(open('$T/cmp.json'))
bad=[r['method'] for r in d['rows'] if r['fails']]
sys.exit(0 if bad == ['sendmmsg'] else 1)"
python3 "$R" judged "$T/cmp.json" "the made-up base" >"$T/judged"
rc=$?
cat "$T/judged"
check "judged: exit 0 when rows were judged ($rc)" [ $rc = 0 ]
check "judged: the skipped row said as not judged, with its reason" \
	grep -q "^gate: NOT JUDGED skipme: skipped in the base (not here)" "$T/judged"
check "judged: 12 of 13 rows, naming the base" grep -q "^gate: judged 12 of 13 rows against the made-up base" "$T/judged"

# unchanged against itself: passes
python3 "$R" merge "$T/B2.json" "$T/U.json" --base "$T"/b?.json --new "$T"/u?.json
"$PB" compare "$T/B2.json" "$T/U.json" --normalize udp_sendto --tolerance 45 --cpu-tolerance 15 \
	--syscalls-tolerance 10 >/dev/null
check "unchanged rounds pass" [ $? = 0 ]

# nothing judged: every row skipped in the base
python3 - "$T/b1.json" "$T/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d['results']:
    r['status'], r['reason'] = 'skipped', 'gone'
json.dump(d, open(sys.argv[2], 'w'))
PY
python3 "$R" merge "$T/SB.json" "$T/SN.json" --base "$T/s.json" --new "$T/n1.json"
"$PB" compare "$T/SB.json" "$T/SN.json" -f json >"$T/scmp.json"
python3 "$R" judged "$T/scmp.json" "the made-up base" >"$T/sjudged"
rc=$?
check "judged: a gate that compared nothing fails ($rc)" [ $rc = 1 ]
check "judged: and says so" grep -q "^gate: FAIL: compared nothing" "$T/sjudged"

python3 "$R" merge "$T/x.json" "$T/y.json" --base "$T/b1.json" --new "$T/n1.json" "$T/n2.json" 2>/dev/null
check "merge: unequal rounds refused" [ $? = 2 ]
finish
