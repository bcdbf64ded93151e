# SPDX-License-Identifier: MIT
# Link-up-aware timing: a run started while the carrier is down waits for it, reports the
# wait, and measures exactly --duration after it; the timeout path is a clear error. Uses
# its own namespace and veth pair (--iface), since the lab's link is up from the start.
. "$(dirname "$0")/lib.sh"
trap 'test_pair_del; cleanup' EXIT
test_pair link 99 down # $B stays down: no carrier on $A
rc=$?
check "namespace $NS with $A/$B" [ $rc = 0 ]

run() { ip netns exec $NS "$PB" --iface $A --srcip 198.18.99.1 --dstip 198.18.99.2 \
	--dstmac "$BMAC" --method af_packet -q --format json "$@"; }

# the carrier comes up 2 s after the run starts
run --duration 3 --output "$T/bounce.json" 2>"$T/bounce.err" &
pid=$!
PIDS+=($pid)
sleep 2
ip -n $NS link set $B up
wait $pid
rc=$?
check "bounce: exit 0 (got $rc: $(cat "$T/bounce.err"))" [ $rc = 0 ]
check "bounce: link wait of about 2 s reported" json "$T/bounce.json" \
	"1.5 <= d['results'][0]['link_wait_s'] <= 3.5"
check "bounce: exactly --duration measured after the wait" json "$T/bounce.json" \
	"abs(d['results'][0]['duration_s'] - 3) < 0.25"
check "bounce: every frame counted as sent left the device (its tx_packets)" json "$T/bounce.json" \
	"d['results'][0]['frames_sent'] == d['results'][0]['tx_packets'] > 0"
check "bounce: no receiver with --iface: delivered is null, not 0" json "$T/bounce.json" \
	"d['results'][0]['frames_delivered'] is None"

# the carrier goes down for 1 s inside the window: measured, flagged, in the table too
run --duration 4 --output "$T/flap.json" 2>"$T/flap.err" &
pid=$!
PIDS+=($pid)
sleep 1.5
ip -n $NS link set $B down
sleep 1
ip -n $NS link set $B up
wait $pid
rc=$?
check "flap: exit 0 (got $rc: $(cat "$T/flap.err"))" [ $rc = 0 ]
check "flap: one outage of about 1 s in the row" json "$T/flap.json" \
	"d['results'][0]['link_downs'] == 1 and 0.7 <= d['results'][0]['link_down_s'] <= 1.6"
ip netns exec $NS "$PB" --iface $A --srcip 198.18.99.1 --dstip 198.18.99.2 --dstmac "$BMAC" \
	--method af_packet -q --duration 2 >"$T/flap.txt" 2>&1 &
pid=$!
PIDS+=($pid)
sleep 0.7
ip -n $NS link set $B down
sleep 0.5
ip -n $NS link set $B up
wait $pid
check "flap: the table flags the row and says why" \
	bash -c "grep -q 'af_packet~' '$T/flap.txt' && grep -q 'carrier went down' '$T/flap.txt'"

# the carrier never comes up: a clear error naming the interface and the wait; the XDP
# program the method attached for the run is taken off again
ip -n $NS link set $B down
run --duration 3 --link-timeout 1 --output "$T/timeout.json" 2>"$T/timeout.err" \
	--method af_xdp --xdp-mode native
rc=$?
check "timeout: exit 1 (got $rc)" [ $rc = 1 ]
check "timeout: the error names the interface and the wait" \
	grep -q "link of $A was not up after 1.0 s" "$T/timeout.err"
check "timeout: the result says error" json "$T/timeout.json" \
	"d['results'][0]['status'] == 'error'"
check "timeout: af_xdp had attached a program, and none is left on $A" \
	bash -c "grep -q 'not up after' '$T/timeout.err' && ! ip -n $NS link show $A | grep -q xdp"
finish
