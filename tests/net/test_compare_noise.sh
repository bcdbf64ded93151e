# SPDX-License-Identifier: MIT
# compare's default tells this machine's noise from a regression: two back-to-back runs of the
# same methods compare clean (exit 0); the first run with one method halved does not (exit 1),
# nor, without the runs' spread, with one method 20 % lower. Each row is the median of three
# short runs (--repeat 3), so it carries its own spread: one method's rate here scatters more
# than the rest do (af_packet's three runs of 0.5 s spanned 0.89-1.13 of their median), which
# the rows' common noise alone took for a regression in a CI run. When a pair is not clean,
# a third run decides (below). Six socket methods keep it short; the full benchmark's pair is
# tests/unit/data/bench_[ab].json (the unit test).
. "$(dirname "$0")/lib.sh"
M=udp_sendto,udp_connected,sendmmsg,gso,raw_socket,af_packet
run() {
	"$PB" --method $M --duration 0.5 --repeat 3 -q --format json -o "$T/$1.json" 2>"$T/$1.err"
	rc=$?
	check "run $1: exit 0 (got $rc: $(head -c 300 "$T/$1.err"))" [ $rc = 0 ]
}
# "ok" when every row of the files has 3 runs and pps_min <= pps <= pps_max
spread() {
	python3 - "$@" <<'PY'
import json, sys
bad = []
for f in sys.argv[1:]:
    for r in json.load(open(f))["results"]:
        if r["status"] != "ok" or r["runs"] != 3 or not (r["pps_min"] <= r["pps"] <= r["pps_max"]):
            bad.append("%s %s runs %s %s <= %s <= %s" % (f[-6:], r["method"], r["runs"],
                       r.get("pps_min"), r.get("pps"), r.get("pps_max")))
print("; ".join(bad) if bad else "ok")
PY
}
# exit status of compare A B, its rows and last lines kept in $T/A-B.txt
cmp_pair() {
	"$PB" compare "$T/$1.json" "$T/$2.json" >"$T/$1-$2.txt" 2>&1
}
rows() { grep -e '^| [a-z]' -e allowance -e compared "$T/$1.txt"; }
run a
run b
s=$(spread "$T/a.json" "$T/b.json")
check "every row: 3 runs, pps_min <= pps <= pps_max ($s)" [ "$s" = ok ]
# Back to back, the same build compares clean. A spell of the machine's can still slow one
# method through all three runs of one file (a fresh CI run: gso at 0.79, every run below
# the other file's slowest), which no comparison of two files can tell from a regression. A
# third run tells such a spell from a compare that flags noise: it compares clean with one
# of the two, which a compare that flags noise does not.
cmp_pair a b
rc=$?
if [ $rc = 0 ]; then
	ok "back-to-back runs compare clean: $(rows a-b)"
else
	echo "a and b did not compare clean (exit $rc), a third run decides: $(rows a-b)"
	run c
	cmp_pair a c
	rac=$?
	cmp_pair b c
	rbc=$?
	check "a third run compares clean with one of the two (a-c exit $rac, b-c exit $rbc): $(rows a-c) $(rows b-c)" \
		[ $rac = 0 -o $rbc = 0 ]
fi
# the same file with sendmmsg scaled: every run (a real regression moves them all), or, with
# the spreads gone from both sides, the median alone
python3 - "$T/a.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def scaled(k, keep_spread):
    out = json.loads(json.dumps(d))
    for r in out["results"]:
        if not keep_spread:
            r["pps_min"] = r["pps_max"] = None
        if r["method"] == "sendmmsg":
            for f in ("pps", "pps_min", "pps_max"):
                if r[f] is not None:
                    r[f] *= k
    return out
json.dump(scaled(0.5, True), open(sys.argv[2] + "/half.json", "w"))
json.dump(scaled(1, False), open(sys.argv[2] + "/a1.json", "w"))
json.dump(scaled(0.8, False), open(sys.argv[2] + "/drop.json", "w"))
PY
# flagged WHAT BASE NEW: compare exits 1 with sendmmsg's row regressed on packets/s
flagged() {
	cmp_pair "$2" "$3"
	rc=$?
	check "sendmmsg $1 is flagged (exit $rc): $(grep sendmmsg "$T/$2-$3.txt")" \
		sh -c "[ $rc = 1 ] && grep -q '^| sendmmsg .*regressed: packets/s' '$T/$2-$3.txt'"
}
flagged "halved, every run," a half
flagged "20 % lower, no spreads," a1 drop
check "no lab left" no_leftovers
finish
