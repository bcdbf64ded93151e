# SPDX-License-Identifier: MIT
# The interface a user reaches this host through is not flooded by accident (issue 45): --iface
# on the interface of the namespace's default route, or on the one holding the local address
# of the SSH session that started pktbench ($SSH_CONNECTION), is refused in one line that says
# why and names --allow-mgmt-iface (exit 2); with it, the run goes. Everything here happens in
# a namespace of the test's own, on a veth pair it made: never on the host's interfaces.
. "$(dirname "$0")/lib.sh"

trap 'test_pair_del; cleanup' EXIT
test_pair guard 77 || { echo "FAIL: the test's namespace and veth pair"; exit 1; }
ip -n "$NS" route add default via 198.18.77.2 dev "$A"

# send [ENV...] -- [ARGS...]: pktbench in the namespace on A, 10 frames to B's side
send() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	ip netns exec "$NS" env -u SSH_CONNECTION "${envs[@]}" "$PB" --iface "$A" \
		--srcip 198.18.77.1 --dstip 198.18.77.2 --method udp_sendto --count 10 -q \
		--format json -o "$T/out.json" "$@" >"$T/out" 2>"$T/err"
}

# refused WHAT WANT: the last send was refused in one line holding WANT, exit 2, nothing sent
refused() {
	want=$2
	check "$1: exit 2 (was $rc), one line: $(head -c 300 "$T/err")" \
		eval '[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$want" "$T/err" &&
			grep -q -- "--allow-mgmt-iface" "$T/err" && [ ! -e "$T/out.json" ]'
}

# sent WHAT: the last send ran, 10 frames sent
sent() {
	check "$1: exit 0 (was $rc: $(head -c 300 "$T/err")), 10 frames sent" \
		eval '[ $rc = 0 ] && json "$T/out.json" "d[\"results\"][0][\"frames_sent\"] == 10"'
	rm -f "$T/out.json"
}

send --
rc=$?
refused "--iface on the default route's interface" \
	"--iface $A carries this host's default route: .*cut you off"
send -- --allow-mgmt-iface
rc=$?
sent "the same with --allow-mgmt-iface"

# the SSH session's own address on it, and no default route there
ip -n "$NS" route del default
send SSH_CONNECTION="198.18.77.9 50022 198.18.77.1 22" --
rc=$?
refused "--iface holding the SSH session's address" \
	"--iface $A holds 198.18.77.1, the address of the SSH session that started pktbench"
send SSH_CONNECTION="198.18.77.9 50022 198.18.77.1 22" -- --allow-mgmt-iface
rc=$?
sent "the same with --allow-mgmt-iface"
# a session that came in elsewhere, and no default route: nothing to guard
send SSH_CONNECTION="203.0.113.9 50022 203.0.113.1 22" --
rc=$?
sent "an SSH session on another address, no default route"
finish
