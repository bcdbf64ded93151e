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
if [ $rc = 3 ] && [ -s "$out" ] && [ "$(row "$out" status)" = skipped ]; then
	skip_cap io_uring "io_uring: $(row "$out" reason)"
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

# the variants: registered buffers, SQPOLL, UDP_SEGMENT; each exact, or skipped with a reason
for m in io_uring_fixed io_uring_sqpoll io_uring_gso; do
	out=$T/$m.json
	"$PB" --method $m --count $N --ring 256 --format json --output "$out" -q 2>"$T/$m.err"
	rc=$?
	if [ $rc = 3 ] && [ "$(row "$out" status)" = skipped ]; then
		skip_part "$(method_caps $m)" "$m: $(row "$out" reason)"
		continue
	fi
	check "$m: exit 0 (got $rc: $(tail -3 "$T/$m.err"))" [ $rc = 0 ]
	check "$m: exactly $N sent and delivered, accounted 100 %" json "$out" \
		"(lambda r: r['frames_sent'] == $N and r['frames_delivered'] == $N and abs(r['accounted_pct'] - 100) < 1e-9)(d['results'][0])"
	check "$m: the Mode says --ring 256" json "$out" "', ring 256' in d['results'][0]['mode']"
done
[ -f "$T/io_uring_fixed.json" ] && [ "$(row "$T/io_uring_fixed.json" status)" = ok ] &&
	check "io_uring_fixed: every datagram from the registered buffer" json "$T/io_uring_fixed.json" \
		"d['results'][0]['mode'].split(',')[0] in ('send fixed', 'send_zc fixed')"
# SQPOLL: the kernel thread submits, and its CPU time is in the row's (test_syscalls checks
# that the worker's own calls are counted as they are made)
[ -f "$T/io_uring_sqpoll.json" ] && [ "$(row "$T/io_uring_sqpoll.json" status)" = ok ] &&
	check "io_uring_sqpoll: the Mode says sqpoll" json "$T/io_uring_sqpoll.json" \
		"', sqpoll,' in d['results'][0]['mode']"
[ -f "$T/io_uring_gso.json" ] && [ "$(row "$T/io_uring_gso.json" status)" = ok ] &&
	check "io_uring_gso: datagrams of 8 segments" json "$T/io_uring_gso.json" \
		"d['results'][0]['mode'].startswith('send x8 segments')"
check "variants: no lab left" no_leftovers
finish
