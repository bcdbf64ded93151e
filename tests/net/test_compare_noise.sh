# SPDX-License-Identifier: MIT
# compare's default tells this machine's noise from a regression: two back-to-back runs of the
# same methods compare clean (exit 0), the first run with one method's rate cut by 20 % does
# not (exit 1). Six socket methods for one second each keep it short; the full benchmark's
# pair is tests/unit/data/bench_[ab].json, checked by the unit test.
. "$(dirname "$0")/lib.sh"
M=udp_sendto,udp_connected,sendmmsg,gso,raw_socket,af_packet
for r in a b; do
	"$PB" --method $M --duration 1 -q --format json -o "$T/$r.json" 2>"$T/$r.err"
	rc=$?
	check "run $r: exit 0 (got $rc: $(head -c 300 "$T/$r.err"))" [ $rc = 0 ]
done
"$PB" compare "$T/a.json" "$T/b.json" >"$T/ab.txt" 2>&1
rc=$?
check "back-to-back runs compare clean (exit $rc): $(tail -n 3 "$T/ab.txt")" [ $rc = 0 ]
python3 - "$T/a.json" "$T/drop.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["method"] == "sendmmsg":
        r["pps"] *= 0.8
json.dump(d, open(sys.argv[2], "w"))
PY
"$PB" compare "$T/a.json" "$T/drop.json" >"$T/drop.txt" 2>&1
rc=$?
check "sendmmsg 20 % lower is flagged (exit $rc): $(grep sendmmsg "$T/drop.txt")" \
	sh -c "[ $rc = 1 ] && grep -q '^| sendmmsg .*regressed: packets/s' '$T/drop.txt'"
check "no lab left" no_leftovers
finish
