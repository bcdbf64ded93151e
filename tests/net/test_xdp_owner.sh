# SPDX-License-Identifier: MIT
# --force and SIGKILL: the user's XDP program is never lost and pktbench's own never stays.
# A "user" program (the build's xdp_pass object, attached over netlink as ip(8) does) sits on
# an interface of the test's own; pktbench replaces it with --force and is SIGKILLed. Then,
# for the agent (`pktbench receive`) and the af_xdp sender, native and generic:
#   - nothing of pktbench's is attached after the kill (only a BPF link held ours);
#   - `pktbench receive --restore IFACE` puts the user's program back, the same id and mode;
#   - after another kill, the next plain start puts it back itself, and refuses because of
#     the user's program (not pktbench's own leftover); with it removed, a plain start runs;
#   - a second --force start while the first runs is refused; after the first is killed it
#     runs, and on SIGTERM puts back the user's program, never the dead one's.
# xdp_live never attaches on the interface: a user's program there is untouched by a kill.
. "$(dirname "$0")/lib.sh"
OBJ=$(dirname "$PB")/bpf/xdp_pass.bpf.o

PORT=9311
test_ns_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	agent_lab_del
	# the owner records a failed case may have left for our interfaces (and their pins)
	local r
	for r in $(our_records); do
		sed -n 's/^pin=//p' "$r" | xargs -r rm -f
		rm -f "$r"
	done
}
our_records() { grep -lE "^ifname=($A|$B)\$" /run/pktbench/xdp-* 2>/dev/null; }

[ -f "$OBJ" ] || { echo "SKIP: no $OBJ (built without clang/bpftool?)"; exit 77; }
# the senders' end $A (198.18.86.1) in $NTX, the agent's end $B (198.18.86.2) in $NRX; the
# records and pins a failed case may leave go too
agent_lab xo 86
rc=$?
trap 'test_ns_cleanup; cleanup' EXIT
check "namespaces $NTX, $NRX with $A/$B" [ $rc = 0 ]
MAC_B=$(ip netns exec "$NRX" cat "/sys/class/net/$B/address")

xdp_of() { # xdp_of NS DEV: "<mode> <id> <name>" of its program, or "none"
	ip -n "$1" -j link show dev "$2" | python3 -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp")
print("%s %s %s" % (x["mode"], x["prog"]["id"], x["prog"]["name"]) if x else "none")'
}
ipmode() { [ "$1" = native ] && echo xdpdrv || echo xdpgeneric; }
# gone ID: no program with that id is loaded (no pin of ours holds it); true without bpftool
gone() { ! command -v bpftool >/dev/null || ! bpftool prog show id "$1" >/dev/null 2>&1; }
uid() { cut -d' ' -f2 <<<"$1"; }
user_prog() { # user_prog NS DEV MODE: attaches the user's program; prints what is there
	ip -n "$1" link set dev "$2" "$(ipmode "$3")" obj "$OBJ" sec xdp && xdp_of "$1" "$2"
}
# wait_ours NS DEV USER: until the program on DEV is one other than USER (at most 5 s)
wait_ours() {
	local i
	for i in $(seq 50); do
		local x
		x=$(xdp_of "$1" "$2")
		[ "$x" != none ] && [ "$x" != "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
kill_wait() { kill "-$1" "$2" 2>/dev/null; wait "$2" 2>/dev/null; }

agent() { # agent [options]: an agent on $B in the background; AG is its pid
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT "$@" \
		>/dev/null 2>"$T/agent.err" &
	AG=$!
	PIDS+=("$AG")
}
restore() { ip netns exec "$1" "$PB" receive --restore "$2" 2>"$T/restore.err"; }

# --- the agent ----------------------------------------------------------------------------
for mode in native generic; do
	m="agent $mode"
	user=$(user_prog "$NRX" "$B" $mode)
	check "$m: the user's program on $B ($user)" [ "${user:-none}" != none ]

	agent --force --xdp-mode $mode
	wait_ours "$NRX" "$B" "$user"
	check "$m --force: pb_receiver replaces it ($(xdp_of "$NRX" "$B"))" \
		bash -c "[[ '$(xdp_of "$NRX" "$B")' == *' pb_receiver' ]]"
	kill_wait KILL $AG
	after=$(xdp_of "$NRX" "$B")
	check "$m SIGKILL: nothing of pktbench's stays ($after)" bash -c "[[ '$after' != *pb_receiver ]]"
	restore "$NRX" "$B"
	rc=$?
	check "$m: --restore $B exits 0 ($rc: $(head -c 300 "$T/restore.err"))" [ $rc = 0 ]
	check "$m: --restore puts the user's program back ($(xdp_of "$NRX" "$B"), was $user)" \
		[ "$(xdp_of "$NRX" "$B")" = "$user" ]
	restore "$NRX" "$B"
	check "$m: a second --restore has nothing to do, exit 0" [ $? = 0 ]

	# killed again; the next plain start puts it back and refuses because of it
	agent --force --xdp-mode $mode
	wait_ours "$NRX" "$B" "$user"
	kill_wait KILL $AG
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT --xdp-mode $mode \
		--duration 1 >/dev/null 2>"$T/plain.err"
	rc=$?
	check "$m: a plain agent after the kill refuses, exit 1 ($rc)" [ $rc = 1 ]
	check "$m: ... after putting the user's program back ($(xdp_of "$NRX" "$B"), was $user)" \
		[ "$(xdp_of "$NRX" "$B")" = "$user" ]
	check "$m: ... and refuses because of the user's program, id ${user#* } ($(head -c 400 "$T/plain.err"))" \
		grep -q "already has an XDP program (id $(uid "$user")," "$T/plain.err"

	# a second --force agent: refused while the first runs, and never restores the first's
	agent --force --xdp-mode $mode
	first=$AG
	wait_ours "$NRX" "$B" "$user"
	ours=$(xdp_of "$NRX" "$B")
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$((PORT + 1)) --force \
		--xdp-mode $mode --duration 1 >/dev/null 2>"$T/second.err"
	rc=$?
	check "$m: a second --force agent while the first runs: exit 1 ($rc: $(head -c 300 "$T/second.err"))" \
		[ $rc = 1 ]
	check "$m: ... the first's program stays ($(xdp_of "$NRX" "$B"))" [ "$(xdp_of "$NRX" "$B")" = "$ours" ]
	kill_wait KILL $first
	agent --force --xdp-mode $mode
	wait_ours "$NRX" "$B" "$user"
	second=$(xdp_of "$NRX" "$B")
	check "$m: a second --force agent after the kill runs ($second)" \
		bash -c "[[ '$second' == *' pb_receiver' && '$second' != '$ours' ]]"
	kill_wait TERM $AG
	check "$m: ... and SIGTERM puts back the user's program, not the dead one's ($(xdp_of "$NRX" "$B"), user $user, dead $ours)" \
		[ "$(xdp_of "$NRX" "$B")" = "$user" ]

	ip -n "$NRX" link set dev "$B" "$(ipmode $mode)" off
	check "$m: once removed, nothing holds the user's program (no pin left)" gone "$(uid "$user")"
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT --xdp-mode $mode \
		--duration 0.5 >/dev/null 2>"$T/plain.err"
	rc=$?
	check "$m: with the user's program removed, a plain agent runs, exit 0 ($rc: $(head -c 300 "$T/plain.err"))" \
		[ $rc = 0 ]
	check "$m: nothing attached after it ($(xdp_of "$NRX" "$B"))" [ "$(xdp_of "$NRX" "$B")" = none ]
done

# --- the senders --------------------------------------------------------------------------
have_af_xdp=1
if ! "$PB" --help | grep -qE '^  af_xdp +AF_XDP' || "$PB" --help | grep -q 'af_xdp.*not built'; then
	echo "note: af_xdp is not built into this binary: its cases are not run"
	have_af_xdp=0
fi
SEND=(ip netns exec "$NTX" "$PB" --iface "$A" --dstip $RX_IP --srcip $TX_IP --dstmac "$MAC_B" -q)
sender() { # sender [options]: a sender on $A in the background; SD is its pid
	"${SEND[@]}" "$@" >/dev/null 2>"$T/sender.err" &
	SD=$!
	PIDS+=("$SD")
}
for mode in native generic; do
	[ $have_af_xdp = 1 ] || break
	m="af_xdp $mode"
	user=$(user_prog "$NTX" "$A" $mode)
	check "$m: the user's program on $A ($user)" [ "${user:-none}" != none ]

	sender --method af_xdp --xdp-mode $mode --force --duration 20 --pps 1000
	wait_ours "$NTX" "$A" "$user"
	ours=$(xdp_of "$NTX" "$A")
	check "$m --force: pb_xdp_pass of its own replaces it ($ours)" \
		bash -c "[[ '$ours' == *' pb_xdp_pass' && '$ours' != '$user' ]]"
	kill_wait KILL $SD
	after=$(xdp_of "$NTX" "$A")
	check "$m SIGKILL: nothing of pktbench's stays ($after, ours was $ours)" \
		[ "$after" != "$ours" ]
	restore "$NTX" "$A"
	rc=$?
	check "$m: --restore $A exits 0 ($rc: $(head -c 300 "$T/restore.err"))" [ $rc = 0 ]
	check "$m: --restore puts the user's program back ($(xdp_of "$NTX" "$A"), was $user)" \
		[ "$(xdp_of "$NTX" "$A")" = "$user" ]

	# killed again: the next plain start puts it back and is refused because of it
	sender --method af_xdp --xdp-mode $mode --force --duration 20 --pps 1000
	wait_ours "$NTX" "$A" "$user"
	kill_wait KILL $SD
	"${SEND[@]}" --method af_xdp --xdp-mode $mode --count 100 >/dev/null 2>"$T/plain.err"
	rc=$?
	check "$m: a plain sender after the kill is refused ($rc)" [ $rc != 0 ]
	check "$m: ... after putting the user's program back ($(xdp_of "$NTX" "$A"), was $user)" \
		[ "$(xdp_of "$NTX" "$A")" = "$user" ]
	check "$m: ... and refused because of the user's program ($(head -c 400 "$T/plain.err"))" \
		grep -q "already has an XDP program (id $(uid "$user")," "$T/plain.err"

	# a second --force sender after a kill puts back the user's program, not the dead one's
	sender --method af_xdp --xdp-mode $mode --force --duration 20 --pps 1000
	wait_ours "$NTX" "$A" "$user"
	dead=$(xdp_of "$NTX" "$A")
	kill_wait KILL $SD
	"${SEND[@]}" --method af_xdp --xdp-mode $mode --force --count 1000 >/dev/null \
		2>"$T/second.err"
	rc=$?
	check "$m: a second --force sender after the kill runs, exit 0 ($rc: $(head -c 300 "$T/second.err"))" \
		[ $rc = 0 ]
	check "$m: ... and puts back the user's program, not the dead one's ($(xdp_of "$NTX" "$A"), user $user, dead $dead)" \
		[ "$(xdp_of "$NTX" "$A")" = "$user" ]
	ip -n "$NTX" link set dev "$A" "$(ipmode $mode)" off
	check "$m: once removed, nothing holds the user's program (no pin left)" gone "$(uid "$user")"
done

# xdp_live transmits through the XDP of its own private namespace, never attaching on $A: the
# user's program there is untouched however it ends (its peer needs a program for XDP_TX)
ip -n "$NRX" link set dev "$B" xdpdrv obj "$OBJ" sec xdp
for mode in native generic; do
	m="xdp_live $mode"
	"$PB" --help | grep -qE '^  xdp_live ' || break
	refused xdp_live && break # this kernel refuses live frames: said as a skip
	user=$(user_prog "$NTX" "$A" $mode)
	sender --method xdp_live --xdp-mode $mode --force --duration 20 --pps 1000
	sleep 1.5
	during=$(xdp_of "$NTX" "$A")
	kill_wait KILL $SD
	check "$m: the user's program stays during the run ($during, was $user)" [ "$during" = "$user" ]
	check "$m SIGKILL: and after it ($(xdp_of "$NTX" "$A"))" [ "$(xdp_of "$NTX" "$A")" = "$user" ]
	ip -n "$NTX" link set dev "$A" "$(ipmode $mode)" off
done
ip -n "$NRX" link set dev "$B" xdpdrv off

check "no owner records left for $A, $B ($(our_records))" [ -z "$(our_records)" ]
finish
