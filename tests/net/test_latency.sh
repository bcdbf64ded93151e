# SPDX-License-Identifier: MIT
# Latency probes against known answers.
# 1. The receiver, on a veth pair of the test's own, fed hand-made probes by rx_probe: the
#    sequence accounting (gaps, late, duplicates, in and beyond the window, across 2^32, a
#    forged jump), a one-way latency
#    that is the delay the sender wrote into the timestamp, CLOCK_TAI probes, RFC 3550 jitter
#    of alternating delays, and a paced stream's gaps.
# 2. The lab, every method with --latency --count 20000: every probe sent arrives, none lost,
#    none out of order; and --synced-clocks stamps CLOCK_TAI.
# 3. A tbf qdisc with a latency bound on the lab's sending end (--lab-tx-setup), overloaded by
#    sendmmsg and udp_sendto: the probes' p50 is the queue's delay (its limit over its rate)
#    within 20 %, and the probes lost are exactly the ones the qdisc dropped (the sender was
#    told of each, and nothing was lost silently); af_packet (qdisc bypass) and af_xdp on the
#    same link show none of that delay.
# 4. A paced run: the mean gap between frames at the receiver within 2 % of the target.
. "$(dirname "$0")/lib.sh"
PROBE=$(dirname "$PB")/rx_probe
[ -x "$PROBE" ] || { echo "SKIP: no $PROBE (the build makes it)"; exit 77; }
lat_cleanup() {
	[ -n "${RX_PID:-}" ] && kill -KILL "$RX_PID" 2>/dev/null
	test_pair_del
}
trap 'lat_cleanup; cleanup' EXIT

# --- 1. the receiver ---------------------------------------------------------------------------
test_pair lat 76
rc=$?
check "namespace $NS with $A/$B" [ $rc = 0 ]
coproc RX { exec "$PROBE" recv "$NS" "$B" native 2>"$T/rx.err"; }
RX_PID=$RX_PID
PIDS+=("$RX_PID")
read -r -t 10 ATTACHED <&"${RX[0]}"
check "receiver attached ($ATTACHED $(cat "$T/rx.err"))" [ "$ATTACHED" = "attached native" ]
ask() {
	local line
	echo "$1" >&"${RX[1]}"
	read -r -t 10 line <&"${RX[0]}" && echo "$line"
}
# "probes RUN": its first line (streams N tai=T) and stream 0's line, as one
stream0() {
	local head line
	echo "probes $1" >&"${RX[1]}"
	read -r -t 10 head <&"${RX[0]}"
	case $head in "streams 0"*) echo "$head"; return ;; esac
	read -r -t 10 line <&"${RX[0]}" && echo "$head $line"
}
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
probes() { "$PROBE" probes "$NS" "$A" "$BMAC" "$@"; }
seq_list() { seq -s, "$@"; }
sleep 0.2

probes a0000001 P 5000 1000 0,1,3,2,2,5,6
s=$(stream0 a0000001)
check "sequence 0,1,3,2,2,5,6: 6 probes, 1 late, 1 duplicate, 1 missing ($s)" \
	[ "$(field "$s" probes)/$(field "$s" late)/$(field "$s" dup)/$(field "$s" missing)/$(field "$s" next)" = 6/1/1/1/7 ]
check "a 5 ms delay: latency from 5 ms, mean under 6 ms, duplicates not timed ($s)" \
	bash -c "[ $(field "$s" lat_n) = 6 ] && [ $(field "$s" min_us) -ge 5000 ] && [ $(field "$s" mean_us) -lt 6000 ] && [ $(field "$s" bad) = 0 ]"
check "constant delay: jitter under 0.5 ms ($(field "$s" jitter_ns) ns)" [ "$(field "$s" jitter_ns)" -lt 500000 ]
h=$(ask "hist a0000001 lat")
check "the latency histogram: 6 samples, p50 from 5 ms ($h)" \
	python3 -c "import sys; sys.exit(0 if '$(field "$h" n)' == '6' and 5000 <= float('$(field "$h" p50_us)') < 6000 else 1)"

probes a0000002 T 3000 1000 0,1,2
s=$(stream0 a0000002)
if [ "$(field "$s" tai)" = 1 ]; then
	check "CLOCK_TAI probes: kind T, latency from 3 ms ($s)" \
		bash -c "[ '$(field "$s" kind)' = T ] && [ $(field "$s" lat_n) = 3 ] && [ $(field "$s" min_us) -ge 3000 ] && [ $(field "$s" mean_us) -lt 4000 ]"
else
	check "CLOCK_TAI probes, no TAI clock at the receiver: counted, not timed ($s)" \
		[ "$(field "$s" probes)/$(field "$s" lat_n)/$(field "$s" bad)" = 3/0/3 ]
fi

probes a0000003 P 100 200 0,100,1
s=$(stream0 a0000003)
check "0,100,1: late by 99 fills its gap ($s)" \
	[ "$(field "$s" probes)/$(field "$s" late)/$(field "$s" dup)/$(field "$s" missing)" = 3/1/0/98 ]
probes a0000004 P 100 200 "$(seq_list 0 69),3,40"
s=$(stream0 a0000004)
check "0..69 then 3 and 40: duplicates, far back and near ($s)" \
	[ "$(field "$s" probes)/$(field "$s" late)/$(field "$s" dup)/$(field "$s" missing)" = 70/0/2/0 ]

# serial arithmetic (RFC 1982) and the window's bounds (bpf/pb_lat.h), on the real program
probes a0000008 P 100 200 4294967294,4294967295,0,1
s=$(stream0 a0000008)
check "first probes 0xfffffffe, 0xffffffff, then 0, 1: 2 received, 2 stray, none missing ($s)" \
	[ "$(field "$s" probes)/$(field "$s" late)/$(field "$s" stray)/$(field "$s" missing)/$(field "$s" next)" = 2/0/2/0/2 ]
probes a0000009 P 100 200 "$(seq_list 0 9),2147483656,$(seq_list 10 59)"
s=$(stream0 a0000009)
check "one probe forged 2^31 - 1 ahead: stray, no later one late ($s)" \
	[ "$(field "$s" probes)/$(field "$s" late)/$(field "$s" stray)/$(field "$s" missing)/$(field "$s" next)" = 60/0/1/0/60 ]
probes a000000a P 100 200 "0,$(seq_list 2 1100),2"
s=$(stream0 a000000a)
check "a duplicate beyond the window, a gap open: stray, not late ($s)" \
	[ "$(field "$s" probes)/$(field "$s" late)/$(field "$s" dup)/$(field "$s" stray)/$(field "$s" missing)" = 1100/0/0/1/1 ]

probes a0000005 P 1000/3000 1000 "$(seq_list 0 39)"
s=$(stream0 a0000005)
# J = 2000 (1 - (15/16)^39) = 1839 us after 40 probes whose delays alternate 1 and 3 ms
check "alternating 1 and 3 ms: RFC 3550 jitter near 1.84 ms ($(field "$s" jitter_ns) ns)" \
	bash -c "[ $(field "$s" jitter_ns) -gt 1700000 ] && [ $(field "$s" jitter_ns) -lt 2000000 ]"

probes a0000006 n 0 2000 "$(seq_list 0 50)"
s=$(stream0 a0000006)
h=$(ask "hist a0000006 gap")
check "paced frames 2 ms apart: 51 timed, no probe ($s)" \
	[ "$(field "$s" gap_frames)/$(field "$s" probes)/$(field "$s" kind)" = "51/0/-" ]
check "their 50 gaps: p50 within 5 % of 2 ms ($h)" \
	python3 -c "import sys; sys.exit(0 if '$(field "$h" n)' == '50' and abs(float('$(field "$h" p50_us)') - 2000) < 100 else 1)"
probes a0000007 p 2000 1000 "$(seq_list 0 9)"
s=$(stream0 a0000007)
check "a paced run's probes: counted as probes and timed as frames ($s)" \
	[ "$(field "$s" probes)/$(field "$s" gap_frames)/$(field "$s" lat_n)" = 10/10/10 ]
echo quit >&"${RX[1]}"
wait "$RX_PID"
RX_PID=
test_pair_del

# --- 2. every method in the lab ----------------------------------------------------------------
lat() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; l=r.get('latency') or {}; print($2)" "$1"; }
methods=$("$PB" --help | awk '/^Methods/{m=1; next} m && !NF {exit} m {print $1}' | grep -v '^benchmark$\|^null$')
for m in $methods; do
	out=$T/$m.json
	"$PB" --method "$m" --latency --count 20000 --format json --output "$out" -q 2>"$T/$m.err"
	rc=$?
	# exit 3: nothing measured, the row says why
	if [ $rc = 3 ] && json "$out" "d['results'][0]['status'] == 'skipped'"; then
		echo "skip: $m: $(lat "$out" "r['reason']")"
		continue
	fi
	if [ $rc != 0 ]; then
		fail "$m: exit $rc: $(head -c 300 "$T/$m.err")"
		continue
	fi
	check "$m: probes sent, all received, none lost, reordered or duplicated ($(lat "$out" "l['probes_sent'], l['probes_received'], l['lost'], l['reordered'], l['duplicated']"))" \
		json "$out" "(lambda l: l['probes_sent'] > 0 and l['probes_received'] == l['probes_sent'] and l['lost'] == 0 and l['reordered'] == 0 and l['duplicated'] == 0)(d['results'][0]['latency'])"
	check "$m: timed with the lab's one clock: p50 $(lat "$out" "l['p50_us']") us, max $(lat "$out" "l['max_us']") us" \
		json "$out" "(lambda l: l['clock'] == 'monotonic' and l['null_reason'] is None and 0 < l['min_us'] <= l['p50_us'] <= l['p99_us'] <= l['max_us'] and len(l['histogram']) > 0)(d['results'][0]['latency'])"
	check "$m: still exactly 20000 sent and delivered" json "$out" \
		"d['results'][0]['frames_sent'] == 20000 and d['results'][0]['frames_delivered'] == 20000"
done
"$PB" --method udp_sendto --synced-clocks --count 20000 --format json --output "$T/tai.json" -q
check "--synced-clocks: CLOCK_TAI probes, timed ($(lat "$T/tai.json" "l['clock'], l['p50_us'], l['null_reason']"))" \
	json "$T/tai.json" "(lambda l: l['clock'] == 'tai' and l['p50_us'] is not None and l['lost'] == 0 and l['probes_received'] == l['probes_sent'] > 0)(d['results'][0]['latency'])"

# --- 3. a queue of known delay ------------------------------------------------------------------
cat >"$T/tbf.sh" <<EOF
tc qdisc add dev "\$PB_LAB_TX_IF" root tbf rate 40mbit burst 8kb latency 6ms || exit 1
tc -j qdisc show dev "\$PB_LAB_TX_IF" > "$T/tbf.json"
EOF
# 1400-byte payloads: with 60-byte frames the qdisc's per-frame timer (at 83 kpps, a VM exit
# each) takes the whole CPU, so the sender never fills the queue and nothing waits or drops
row() { python3 -c "import json,sys; r=[r for r in json.load(open(sys.argv[1]))['results'] if r['method'] == sys.argv[2]][0]; l=r['latency']; print($2)" "$T/q.json" "$1"; }
# a timing known answer (the socket senders fill the queue only while the machine lets them:
# one fresh CI run saw udp_sendto's p50 at 48 us, the queue never full), measured afresh by
# each attempt; the checks after it read the run that passed, or the last
tbf_attempt() {
	"$PB" --method sendmmsg,udp_sendto,af_packet,af_xdp --latency --payloadsize 1400 --duration 2 \
		--lab-tx-setup "$T/tbf.sh" --format json --output "$T/q.json" -q 2>"$T/q.err"
	echo $? >"$T/q.rc"
	# a full queue holds limit = rate x latency + burst bytes, and drains at rate: the wait
	want=$(python3 -c "import json; o=json.load(open('$T/tbf.json'))[0]['options']; print((o['rate'] * o['lat'] / 1e6 + o['burst']) / o['rate'] * 1e6)") || return 1
	local m ok=0
	for m in sendmmsg udp_sendto; do
		echo "  $m into the full queue: p50 $(row $m "l['p50_us']") us, the queue's $want us"
		python3 -c "import sys; sys.exit(0 if abs($(row $m "l['p50_us']") - $want) <= 0.2 * $want else 1)" || ok=1
	done
	return $ok
}
attempts 3 "sendmmsg and udp_sendto into the full queue: p50 the queue's wait within 20 %" tbf_attempt
rc=$(cat "$T/q.rc")
check "tbf run: exit 0 (got $rc: $(head -c 300 "$T/q.err"))" [ "$rc" = 0 ]
for m in sendmmsg udp_sendto; do
	check "$m: the qdisc dropped frames, each drop reported ($(row $m "r['qdisc_drops'], r['frames_retried']"))" \
		python3 -c "import sys; sys.exit(0 if $(row $m "r['qdisc_drops'] > 100 and r['frames_retried'] == r['qdisc_drops'] and r['frames_dropped'] == 0") else 1)"
	check "$m: probes lost = the probes the qdisc dropped, the sender told of each: $(row $m "l['lost'], l['probes_dropped_reported'], l['probes_sent']")" \
		python3 -c "import sys; sys.exit(0 if $(row $m "l['lost'] > 0 and abs(l['lost'] - l['probes_dropped_reported']) <= 2 and l['probes_received'] + l['lost'] == l['probes_sent']") else 1)"
done
for m in af_packet af_xdp; do
	if [ "$(row $m "r['status']")" != ok ]; then
		echo "skip: $m: $(row $m "r['reason']")"
		continue
	fi
	check "$m bypasses the qdisc: p50 $(row $m "l['p50_us']") us, p99 $(row $m "l['p99_us']") us, far below the queue's" \
		python3 -c "import sys; sys.exit(0 if $(row $m "l['p99_us']") < $want / 10 and $(row $m "l['lost']") == 0 else 1)"
done

# --- 4. the gaps of a paced run ------------------------------------------------------------------
# A timing answer on the wire, re-measured: the gaps' exact mean (first to last arrival over the
# gaps) within 2 % of 50 us. A pacer 5 % slow gives at least 52.5 us however loaded (a stall only
# adds forgiven frames), where the p50 is not one-sided: a stall's catch-up puts it at 25 us.
pace_run() {
	"$PB" --method "$1" --pps 20k --duration 2 --format json --output "$T/pace.json" -q
	echo "  $1 --pps 20k: gaps $(lat "$T/pace.json" "' '.join('%s %s' % (k, r['gaps'][k]) for k in ('mean_us', 'p50_us', 'p1_us', 'p99_us', 'cv', 'gaps'))")"
	json "$T/pace.json" "(lambda g: g['target_us'] == 50 and abs(g['mean_us'] - 50) <= 1 and g['gaps'] > 30000)(d['results'][0]['gaps'])"
}
for m in af_packet udp_sendto; do
	attempts 3 "$m --pps 20k: the gaps' mean within 2 % of 50 us" pace_run $m
done
check "no lab left" no_leftovers
finish
