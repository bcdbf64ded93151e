# SPDX-License-Identifier: MIT
# The receiver (receiver/rx.c, bpf/receiver.bpf.c) with known answers, on a namespace pair of
# our own: two run ids sent at once are counted apart exactly (frames, bytes, ports, VLANs,
# queues); a ping and unsigned UDP datagrams pass through (the ping is answered, the
# datagrams arrive) and are counted as foreign, not as any run; the interface counters are
# read from another namespace; two runs interleaved on one CPU (slot switches) are still
# counted exactly; a program already on the interface is refused without force
# and is the same program (id) afterwards with it; SIGKILL leaves nothing attached.
. "$(dirname "$0")/lib.sh"
PROBE=$(dirname "$PB")/rx_probe
OBJ=$(dirname "$PB")/bpf/xdp_pass.bpf.o
[ -x "$PROBE" ] || { echo "SKIP: no $PROBE (the build makes it)"; exit 77; }

NTX=pbrx-tx-$$
NRX=pbrx-rx-$$
A=pbvA$$ # the sending end, in $NTX
B=pbvB$$ # the receiving end, in $NRX
RUN_A=a1a1a1a1
RUN_B=00b2b2b2
test_ns_cleanup() {
	[ -n "${RX_PID:-}" ] && kill -KILL "$RX_PID" 2>/dev/null
	ip netns del "$NTX" 2>/dev/null
	ip netns del "$NRX" 2>/dev/null
}
trap 'test_ns_cleanup; cleanup' EXIT

# no IPv6 (neighbour discovery, MLD) and, below, no ARP: the only foreign frames are ours
ns_pair "$NTX" "$NRX" "$A" "$B" &&
	ip -n "$NTX" addr add 198.18.77.1/24 dev "$A" &&
	ip -n "$NRX" addr add 198.18.77.2/24 dev "$B" &&
	ip -n "$NTX" link set "$A" up && ip -n "$NRX" link set "$B" up
check "namespaces $NTX, $NRX with $A/$B" [ $? = 0 ]
MAC_A=$(ip -n "$NTX" -j link show dev "$A" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
MAC_B=$(ip -n "$NRX" -j link show dev "$B" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
ip -n "$NTX" neigh add 198.18.77.2 lladdr "$MAC_B" nud permanent dev "$A"
ip -n "$NRX" neigh add 198.18.77.1 lladdr "$MAC_A" nud permanent dev "$B"

xdp_of_b() { # "<mode> <id> <name>" of the program on $B, or "none"
	ip -n "$NRX" -j link show dev "$B" | python3 -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp")
print("%s %s %s" % (x["mode"], x["prog"]["id"], x["prog"]["name"]) if x else "none")'
}
# field LINE NAME: the value of NAME=... in one of the probe's answers
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }

# the receiver, driven over a coprocess: ask CMD prints its one-line answer
rx_start() { # rx_start [mode] [force]
	coproc RX { exec "$PROBE" recv "$NRX" "$B" "$@" 2>"$T/rx.err"; }
	RX_PID=$RX_PID
	PIDS+=("$RX_PID")
	read -r -t 10 ATTACHED <&"${RX[0]}"
}
ask() {
	local line
	echo "$1" >&"${RX[1]}"
	read -r -t 10 line <&"${RX[0]}" && echo "$line"
}
rx_stop() {
	echo quit >&"${RX[1]}"
	wait "$RX_PID"
}

# --- counting ---------------------------------------------------------------------------------
rx_start auto
check "attach: auto on a veth is native ($ATTACHED; $(cat "$T/rx.err"))" \
	[ "$ATTACHED" = "attached native" ]
check "attach: ip link shows pb_receiver in native mode ($(xdp_of_b))" \
	bash -c "[[ '$(xdp_of_b)' == '1 '*' pb_receiver' ]]"
check "before any traffic: no run ids ($(ask runs))" [ "$(ask runs)" = "runs 0" ]
f0=$(field "$(ask foreign)" frames)

# pings are answered and unsigned datagrams arrive: the receiver passes what is not ours
ip netns exec "$NRX" python3 - >"$T/udp.out" 2>&1 <<'PY' &
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("198.18.77.2", 9999))
s.settimeout(5)
for _ in range(3):
    print(s.recv(64))
PY
UDP_PID=$!
PIDS+=("$UDP_PID")
sleep 0.3
check "3 pings through the receiver are answered" icmp_ping "$NTX" 198.18.77.2
# not ours: no signature, a signature cut short (3 bytes), a kind that is neither N nor P
ip netns exec "$NTX" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for p in (b"hello", b"pbN", b"pbX\x00\xa1\xa1\xa1\xa1"):
    s.sendto(p, ("198.18.77.2", 9999))'
wait "$UDP_PID"
check "three unsigned datagrams arrived ($(tr '\n' ' ' <"$T/udp.out"))" \
	[ "$(grep -c "^b'" "$T/udp.out")" = 3 ]
f1=$(field "$(ask foreign)" frames)
check "foreign: exactly 3 pings + 3 datagrams counted ($f0 -> $f1)" [ $((f1 - f0)) = 6 ]
check "foreign frames are no run ($(ask runs))" [ "$(ask runs)" = "runs 0" ]
check "a run never seen: seen=0, zero counts ($(ask "run $RUN_A"))" \
	bash -c "[[ '$(ask "run $RUN_A")' == *'seen=0 frames=0 bytes=0 flows=0 vlans= '* ]]"

# two run ids at once: A untagged frames from 7 ports, B probes tagged VLAN 5 from 3 ports
"$PROBE" send "$NTX" "$A" "$MAC_B" $RUN_A 30000 7 0 N &
S1=$!
"$PROBE" send "$NTX" "$A" "$MAC_B" $RUN_B 20000 3 5 P &
S2=$!
PIDS+=("$S1" "$S2")
wait "$S1"
r1=$?
wait "$S2"
r2=$?
check "both senders ran (exit $r1, $r2)" [ $r1 = 0 -a $r2 = 0 ]
sleep 0.2
ra=$(ask "run $RUN_A")
rb=$(ask "run $RUN_B")
echo "  $ra"
echo "  $rb"
check "run A: exactly 30000 frames of 60 bytes" \
	[ "$(field "$ra" frames)" = 30000 -a "$(field "$ra" bytes)" = $((30000 * 60)) ]
check "run A: 7 source ports, untagged (VLAN 0)" \
	[ "$(field "$ra" flows)" = 7 -a "$(field "$ra" vlans)" = 0 ]
check "run B (kind P): exactly 20000 frames of 64 bytes" \
	[ "$(field "$rb" frames)" = 20000 -a "$(field "$rb" bytes)" = $((20000 * 64)) ]
check "run B: 3 source ports, VLAN 5" [ "$(field "$rb" flows)" = 3 -a "$(field "$rb" vlans)" = 5 ]
check "per-queue frames add up, 2 queues reported" \
	[ "$(field "$ra" qsum)" = 30000 -a "$(field "$rb" qsum)" = 20000 -a \
		"$(field "$ra" nqueues)" = 2 ]
check "first arrival <= last arrival" [ "$(field "$ra" ordered)" = 1 -a "$(field "$rb" ordered)" = 1 ]
sa=$(ask "source $RUN_A")
check "the source reads the same counts ($sa)" \
	[ "$(sed 's/^source //; s/ age_ms=.*//' <<<"$sa")" = "$(sed 's/^run //; s/ age_ms=.*//' <<<"$ra")" ]
runs=$(ask runs)
check "exactly the two run ids are held ($runs)" \
	bash -c "[[ '$runs' == 'runs 2 '* && '$runs' == *$RUN_A* && '$runs' == *$RUN_B* ]]"
check "foreign unchanged by the runs" [ "$(field "$(ask foreign)" frames)" = "$f1" ]

# a sender whose own random MAC looks like a replay run's (72:8x:...: 1 in 128 do) still has its
# built frames counted for the run in their signature, not for the MAC's
mac_a=$(ip -n "$NTX" -o link show dev "$A" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
ip -n "$NTX" link set dev "$A" address 72:80:de:ad:be:ef &&
	"$PROBE" send "$NTX" "$A" "$MAC_B" e5e5e5e5 1000 1 0 N >/dev/null 2>&1
sleep 0.2
re=$(ask "run e5e5e5e5")
# ... and its own traffic (no announced run: 0xdeadbeef never announced) passes: pings answered
ip -n "$NRX" neigh replace 198.18.77.1 lladdr 72:80:de:ad:be:ef nud permanent dev "$B"
icmp_ping "$NTX" 198.18.77.2 >/dev/null 2>&1
pings=$?
ip -n "$NRX" neigh replace 198.18.77.1 lladdr "$MAC_A" nud permanent dev "$B"
ip -n "$NTX" link set dev "$A" address "$mac_a"
check "a sender at 72:80:de:ad:be:ef: its 1000 frames counted for their signature's run ($re)" \
	[ "$(field "$re" frames)" = 1000 ]
check "... and its 3 pings, which no announced run sent, pass and are answered (exit $pings)" \
	[ "$pings" = 0 ]

# the interface's own counters, read from the namespace the probe went back to
st=$(ask ifstats)
want_rx=$(ip -n "$NRX" -j -s link show dev "$B" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["packets"])')
# XDP verdict counters (veth's rx_queue_N_xdp_drops: our own XDP_DROPs) are no NIC loss
want_dd=$(ip netns exec "$NRX" ethtool -S "$B" 2>/dev/null |
	awk -F: 'tolower($1) ~ /drop|discard|miss/ && tolower($1) !~ /xdp/ {s += $2}
		END {print s + 0}')
xdp_dd=$(ip netns exec "$NRX" ethtool -S "$B" 2>/dev/null |
	awk -F: 'tolower($1) ~ /xdp_drops/ {s += $2} END {print s + 0}')
echo "  $st (ip: rx $want_rx, ethtool drop/discard/miss $want_dd, xdp_drops $xdp_dd)"
check "ifstats: rx_packets is the interface's ($want_rx)" [ "$(field "$st" rx_packets)" = "$want_rx" ]
check "ifstats: rx_packets covers every frame sent" [ "$(field "$st" rx_packets)" -ge 50006 ]
check "ifstats: driver drops are ethtool's drop/discard/miss sum without xdp ($want_dd)" \
	[ "$(field "$st" driver_drops)" = "$want_dd" ]
check "ifstats: our own XDP_DROPs are not among them ($xdp_dd >= 50000)" [ "$xdp_dd" -ge 50000 ]

# two senders interleaved on one CPU, in bursts 40 ms apart, out of phase: each burst finds the other run
# idle for more than PB_BPF_SLOT_IDLE_NS and takes the CPU's slot (a flush); reads in between
# must never go down or past the total, and the totals must be exact
RUN_C=0c0c0c0c
RUN_D=0d0d0d0d
sw0=$(ask switches)
sw0=${sw0#switches }
# half a period out of phase on the clock's 40 ms grid, however late either process starts
# (a sleep between their starts once left them in phase: 5 switches)
taskset -c 0 "$PROBE" send "$NTX" "$A" "$MAC_B" $RUN_C 20000 1 0 N 400 40 0 &
S1=$!
taskset -c 0 "$PROBE" send "$NTX" "$A" "$MAC_B" $RUN_D 20000 2 0 N 400 40 20 &
S2=$!
PIDS+=("$S1" "$S2")
prev_c=0
prev_d=0
reads=0
backwards=""
while kill -0 "$S1" 2>/dev/null || kill -0 "$S2" 2>/dev/null; do
	c=$(field "$(ask "run $RUN_C")" frames)
	d=$(field "$(ask "run $RUN_D")" frames)
	reads=$((reads + 1))
	if [ "$c" -lt "$prev_c" ] || [ "$d" -lt "$prev_d" ] || [ "$c" -gt 20000 ] || [ "$d" -gt 20000 ]; then
		backwards="$backwards $prev_c->$c/$prev_d->$d"
	fi
	prev_c=$c
	prev_d=$d
done
wait "$S1"
r1=$?
wait "$S2"
r2=$?
check "interleaved: both senders ran (exit $r1, $r2)" [ $r1 = 0 -a $r2 = 0 ]
sleep 0.2
sw1=$(ask switches)
sw1=${sw1#switches }
rc_=$(ask "run $RUN_C")
rd_=$(ask "run $RUN_D")
echo "  $rc_"
echo "  $rd_"
echo "  $reads reads while sending, $((sw1 - sw0)) slot switches"
check "interleaved: every read between the last one and the total ($reads reads)" \
	[ -z "$backwards" ]
check "interleaved: the slot switched runs at most of the 100 bursts ($((sw1 - sw0)) >= 60)" \
	[ $((sw1 - sw0)) -ge 60 ]
check "interleaved: run C exactly 20000 frames, 1 port" \
	[ "$(field "$rc_" frames)" = 20000 -a "$(field "$rc_" flows)" = 1 ]
check "interleaved: run D exactly 20000 frames, 2 ports" \
	[ "$(field "$rd_" frames)" = 20000 -a "$(field "$rd_" flows)" = 2 ]
# 50 bursts 40 ms apart: about 2 s from the first frame to the last, a moment ago
check "interleaved: arrival times span the run ($(field "$rc_" span_ms) ms), just now ($(field "$rc_" age_ms) ms ago)" \
	[ "$(field "$rc_" span_ms)" -ge 1500 -a "$(field "$rc_" span_ms)" -le 4000 -a \
		"$(field "$rc_" age_ms)" -ge 0 -a "$(field "$rc_" age_ms)" -le 3000 ]
check "interleaved: runs A and B untouched" \
	[ "$(field "$(ask "run $RUN_A")" frames)" = 30000 -a \
		"$(field "$(ask "run $RUN_B")" frames)" = 20000 ]
rx_stop
check "detach: exit 0" [ $? = 0 ]
check "detach: nothing attached to $B ($(xdp_of_b))" [ "$(xdp_of_b)" = none ]

# generic mode on request
rx_start generic
check "generic: attached generic ($ATTACHED)" [ "$ATTACHED" = "attached generic" ]
check "generic: ip link shows mode 2 ($(xdp_of_b))" bash -c "[[ '$(xdp_of_b)' == '2 '* ]]"
rx_stop

# SIGKILL: the BPF link goes with the process
rx_start
kill -KILL "$RX_PID"
wait "$RX_PID" 2>/dev/null
sleep 0.2
check "SIGKILL: nothing attached after ($(xdp_of_b))" [ "$(xdp_of_b)" = none ]

# --- a program that was there before -----------------------------------------------------------
if [ ! -f "$OBJ" ]; then
	echo "note: no $OBJ (built with libxdp only): the force cases are not run"
else
	for old in xdpgeneric xdpdrv; do
		ip -n "$NRX" link set dev "$B" "$old" obj "$OBJ" sec xdp
		before=$(xdp_of_b)
		check "$old: a program is attached ($before)" [ "$before" != none ]
		"$PROBE" recv "$NRX" "$B" </dev/null >"$T/refuse.out" 2>"$T/refuse.err"
		rc=$?
		check "$old: without force: refused (exit $rc)" [ $rc = 1 ]
		check "$old: the refusal says so and mentions --force ($(head -1 "$T/refuse.err"))" \
			grep -q -- "already has an XDP program.*--force" "$T/refuse.err"
		check "$old: the same program is still attached" [ "$(xdp_of_b)" = "$before" ]

		rx_start native force
		during=$(xdp_of_b)
		check "$old force: attached native ($ATTACHED)" [ "$ATTACHED" = "attached native" ]
		check "$old force: ours during ($during)" bash -c "[[ '$during' == '1 '*' pb_receiver' ]]"
		"$PROBE" send "$NTX" "$A" "$MAC_B" $RUN_A 1000 1 0 N
		check "$old force: counts while it replaces ($(ask "run $RUN_A"))" \
			[ "$(field "$(ask "run $RUN_A")" frames)" = 1000 ]
		rx_stop
		check "$old force: the same program is back ($(xdp_of_b), was $before)" \
			[ "$(xdp_of_b)" = "$before" ]
		ip -n "$NRX" link set dev "$B" "$old" off
	done
fi

test_ns_cleanup
check "test namespaces removed" bash -c "! ip netns list | grep -q -e '$NTX' -e '$NRX'"
check "no veth left" bash -c "! ip -br link | grep -q -e '$A' -e '$B'"
finish
