# SPDX-License-Identifier: MIT
# --tune in the lab: each method with knobs gets its short trials and one line naming its best
# setting; its row then runs at that setting (the Mode shows it) for the full duration and is
# exact; a method without knobs runs as it is; --tune with --sweep is refused.
. "$(dirname "$0")/lib.sh"

"$PB" --method gso,udp_sendto,sendmmsg --tune --duration 1 --count 20000 --format json \
	-o "$T/tune.json" 2>"$T/tune.err"
rc=$?
check "tune: exit 0 (got $rc: $(tail -3 "$T/tune.err"))" [ $rc = 0 ]
check "tune: says how many trials (gso 5, sendmmsg 5), and how long each" \
	grep -q '^tune: 10 trials of 0.2 s' "$T/tune.err"
check "tune: makes as many as it said" [ "$(grep -c '^tune: [a-z_]* \[' "$T/tune.err")" = 10 ]
check "tune: gso's trials are printed as they go (the defaults, then 4 other counts)" \
	[ "$(grep -c '^tune: gso \[[1-5]/5\] segments ' "$T/tune.err")" = 5 ]
for m in gso sendmmsg; do
	check "tune: $m's best setting is printed" grep -q "^tune: $m best: " "$T/tune.err"
done
check "tune: udp_sendto has no knobs, so no trials" bash -c "! grep -q '^tune: udp_sendto' '$T/tune.err'"
best=$(sed -n 's/^tune: gso best: segments \([0-9]*\) .*/\1/p' "$T/tune.err")
check "tune: gso's row runs at the best it printed (segments $best)" json "$T/tune.json" \
	"[r['mode'] for r in d['results'] if r['method'] == 'gso'] == ['x${best} segments']"
best=$(sed -n 's/^tune: sendmmsg best: batch \([0-9]*\) .*/\1/p' "$T/tune.err")
check "tune: sendmmsg's row runs at the best it printed (batch $best)" json "$T/tune.json" \
	"[r['mode'] for r in d['results'] if r['method'] == 'sendmmsg'] == ['batch ${best}']"
check "tune: the rows are the full runs, exact" json "$T/tune.json" \
	"len(d['results']) == 3 and all(r['status'] == 'ok' and r['frames_sent'] == 20000 and r['frames_delivered'] == 20000 for r in d['results'])"

"$PB" --method gso --tune --sweep segments=8,16 --duration 1 -q 2>"$T/both.err"
rc=$?
check "tune with a sweep: refused, exit 2 (got $rc)" [ $rc = 2 ]
check "tune with a sweep: says why" grep -q -- "--tune and --sweep" "$T/both.err"
check "no lab left" no_leftovers
finish
