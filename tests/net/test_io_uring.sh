# SPDX-License-Identifier: MIT
# io_uring in the lab: --count 20000 is exact (sent, delivered, accounted), and a timed run
# delivers. Where io_uring is disabled (sysctl, seccomp) or not built, it skips with the reason.
. "$(dirname "$0")/lib.sh"
N=20000

# status of the only row, and its reason
row() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r[sys.argv[2]])" "$1" "$2"; }

out=$T/count.json
"$PB" --method io_uring --count $N --format json --output "$out" -q 2>"$T/count.err"
rc=$?
if [ $rc = 0 ] && [ -s "$out" ] && [ "$(row "$out" status)" = skipped ]; then
	echo "SKIP: io_uring: $(row "$out" reason)"
	exit 77
fi
check "count: exit 0 (got $rc: $(tail -3 "$T/count.err"))" [ $rc = 0 ]
if [ $rc = 0 ]; then
	check "count: status ok" json "$out" "d['results'][0]['status'] == 'ok'"
	check "count: mode is send or send_zc" json "$out" \
		"d['results'][0]['mode'].split(',')[0] in ('send', 'send_zc')"
	check "count: exactly $N sent" json "$out" "d['results'][0]['frames_sent'] == $N"
	check "count: exactly $N delivered" json "$out" "d['results'][0]['frames_delivered'] == $N"
	check "count: accounted 100 %" json "$out" "abs(d['results'][0]['accounted_pct'] - 100) < 1e-9"
fi
check "count: no lab left" no_leftovers

out=$T/timed.json
"$PB" --method io_uring --duration 2 --format json --output "$out" -q 2>"$T/timed.err"
rc=$?
check "timed: exit 0 (got $rc: $(tail -3 "$T/timed.err"))" [ $rc = 0 ]
if [ $rc = 0 ]; then
	check "timed: status ok" json "$out" "d['results'][0]['status'] == 'ok'"
	check "timed: pps > 0" json "$out" "d['results'][0]['pps'] > 0"
	check "timed: delivered >= 99 %" json "$out" "d['results'][0]['delivered_pct'] >= 99"
	check "timed: accounted 100 %" json "$out" "abs(d['results'][0]['accounted_pct'] - 100) < 1e-9"
fi
check "timed: no lab left" no_leftovers
finish
