# SPDX-License-Identifier: MIT
# A stop at any moment stops: SIGINT, SIGTERM and SIGHUP in each phase of a run (before a
# --start-at instant, in the lab and on --iface; waiting for the link; sending; a second
# signal during the cleanup; settling with an agent that stopped answering) end pktbench
# within a second with a partial row, exit 130 (SIGHUP: 129), and nothing of a lab left; an
# agent hung up with --force puts the user's XDP program back.
. "$(dirname "$0")/lib.sh"
OBJ=$(dirname "$PB")/bpf/xdp_pass.bpf.o
PORT=9323

# stop_in SIG SECS WANT_RC NAME CMD...: CMD in the background, SIG after SECS; it must exit
# WANT_RC within 1 s of the signal (a stop that does not stop is killed after 5 s and fails).
# The stop's time is printed; the row must be written and say interrupted.
stop_in() {
	local sig=$1 secs=$2 want=$3 name=$4 pid t0 t1 rc i
	shift 4
	"$@" -q --format json -o "$T/$name.json" 2>"$T/$name.err" &
	pid=$!
	PIDS+=($pid)
	sleep "$secs"
	t0=$(date +%s.%N)
	kill "-$sig" $pid
	for i in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
	kill -0 $pid 2>/dev/null && { kill -KILL $pid; echo "  $name: still running 5 s after SIG$sig: killed"; }
	wait $pid
	rc=$?
	t1=$(date +%s.%N)
	STOP_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	echo "  $name: SIG$sig, exit $rc after $STOP_S s ($(tail -c 200 "$T/$name.err" | tr '\n' ' '))"
	check "$name: SIG$sig ends it within 1 s (${STOP_S} s)" awk -v s="$STOP_S" 'BEGIN { exit !(s <= 1.0) }'
	check "$name: exit $want ($rc)" [ "$rc" = "$want" ]
	check "$name: a row, interrupted" json "$T/$name.json" \
		"len(d['results']) == 1 and d['results'][0]['interrupted']"
	check "$name: no lab left" no_leftovers
}
ahead() { echo $(($(date +%s%N) + $1 * 1000000000)); }

# --- the built-in lab ------------------------------------------------------------------------
stop_in INT 2 130 lab-start-at "$PB" --method udp_sendto --start-at "$(ahead 6)" --pps 100 --duration 1
stop_in TERM 2 130 lab-start-at-term "$PB" --method af_packet --start-at "$(ahead 6)" --pps 100 --duration 1
stop_in HUP 2 129 lab-sending-hup "$PB" --method udp_sendto --duration 30
check "SIGHUP while sending: the partial row has frames" json "$T/lab-sending-hup.json" \
	"d['results'][0]['frames_sent'] > 0 and d['results'][0]['frames_delivered'] == d['results'][0]['frames_sent']"

# a second signal during the cleanup does not abandon it: INT, and INT again 20 ms later
"$PB" --method af_xdp --duration 30 -q --format json -o "$T/twice.json" 2>"$T/twice.err" &
pid=$!
PIDS+=($pid)
sleep 2
kill -INT $pid
sleep 0.02
kill -INT $pid
wait $pid
rc=$?
check "two SIGINTs: exit 130 ($rc)" [ $rc = 130 ]
check "two SIGINTs: the row written, interrupted" json "$T/twice.json" "d['results'][0]['interrupted']"
check "two SIGINTs: no lab left" no_leftovers
check "two SIGINTs: no XDP program left on a lab device" \
	bash -c "! ip -o link | grep -E 'pb[tr]-' | grep -q xdp"

# --- --iface: an interface of the test's own ---------------------------------------------------
agent_lab st 93
rc=$?
check "namespaces $NTX, $NRX with $A/$B" [ $rc = 0 ]
MAC_B=$(ip netns exec "$NRX" cat "/sys/class/net/$B/address")
# exec: run in the background (always, here), the job's pid is pktbench's own, which the
# signal must reach (a subshell waiting for it would take the signal instead)
send() { exec ip netns exec "$NTX" "$PB" --iface "$A" --srcip "$TX_IP" --dstip "$RX_IP" --dstmac "$MAC_B" "$@"; }

# the defect that was: on --iface the sampler waited for a worker that left before the
# instant, for ever, deaf to INT and TERM
stop_in INT 2 130 iface-start-at send --method udp_sendto --start-at "$(ahead 6)" --pps 100 --duration 1

# waiting for the link: the far end down
ip -n "$NRX" link set "$B" down
stop_in INT 1 130 iface-link-wait send --method af_packet --duration 2 --link-timeout 30
check "link wait: the row says the run never started" json "$T/iface-link-wait.json" \
	"not d['results'][0]['frames_sent']"
ip -n "$NRX" link set "$B" up

# settling with an agent that stopped answering (SIGSTOP): each read would wait for its
# request's 2 s timeout; after the stop they get half a second in all
ip netns exec "$NRX" "$PB" receive --iface "$B" --listen "$RX_IP:$PORT" >"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
for _ in $(seq 50); do agent_get "$NTX" "http://$RX_IP:$PORT" /v1/info >/dev/null 2>&1 && break; sleep 0.1; done
check "the agent answers" agent_get "$NTX" "http://$RX_IP:$PORT" /v1/info
send --method udp_sendto --receiver "http://$RX_IP:$PORT" --pps 2000 --duration 30 -q \
	--format json -o "$T/agent-hung.json" 2>"$T/agent-hung.err" &
pid=$!
PIDS+=($pid)
sleep 2
kill -STOP "$AGENT_PID"
sleep 0.3
t0=$(date +%s.%N)
kill -INT $pid
for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
kill -CONT "$AGENT_PID"
echo "  agent-hung: exit $rc after $s s ($(tail -c 200 "$T/agent-hung.err" | tr '\n' ' '))"
check "agent hung: SIGINT ends the sender within 1 s ($s s)" awk -v s="$s" 'BEGIN { exit !(s <= 1.0) }'
check "agent hung: exit 130 ($rc)" [ $rc = 130 ]
check "agent hung: a row, interrupted" json "$T/agent-hung.json" "d['results'][0]['interrupted']"
agent_end

# --- the agent hung up, --force over a user's program -----------------------------------------
if [ -f "$OBJ" ]; then
	agent_lab st 93
	rc=$?
	check "namespaces $NTX, $NRX with $A/$B, again" [ $rc = 0 ]
	ip -n "$NRX" link set dev "$B" xdpgeneric obj "$OBJ" sec xdp
	user=$(ip -n "$NRX" -j link show dev "$B" | python3 -c 'import json,sys; x=json.load(sys.stdin)[0].get("xdp"); print(x["prog"]["id"] if x else "none")')
	check "the user's program on $B (id $user)" [ "$user" != none ]
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen "$RX_IP:$PORT" --force --xdp-mode generic \
		>"$T/agent.out" 2>"$T/agent.err" &
	AGENT_PID=$!
	PIDS+=("$AGENT_PID")
	for _ in $(seq 50); do agent_get "$NTX" "http://$RX_IP:$PORT" /v1/info >/dev/null 2>&1 && break; sleep 0.1; done
	kill -HUP "$AGENT_PID"
	wait "$AGENT_PID"
	rc=$?
	AGENT_PID=
	check "agent, SIGHUP: exit 0 ($rc; $(tail -1 "$T/agent.err"))" [ $rc = 0 ]
	now=$(ip -n "$NRX" -j link show dev "$B" | python3 -c 'import json,sys; x=json.load(sys.stdin)[0].get("xdp"); print(x["prog"]["id"] if x else "none")')
	check "agent, SIGHUP: the user's program is back ($now, was $user)" [ "$now" = "$user" ]
	check "agent, SIGHUP: says so" grep -q "stopped by SIGHUP" "$T/agent.err"
	agent_lab_del
else
	echo "skip: the agent's --force on SIGHUP: no $OBJ (built without clang/bpftool?)"
fi
finish
