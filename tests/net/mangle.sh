# SPDX-License-Identifier: MIT
# The runs of net/test_seq and net/test_host, sourced by each (not a test of its own): for each
# of MODES, mangle_nth.bpf.c built with PB_MODE_<MODE> spoils every NTH-th signed frame on a
# clsact egress, in the lab (--lab router, on the DUT's way out) and through a `pktbench
# receive` agent (on a router namespace between the sender and it); every METHODS run of N
# frames at PPS is judged by the test's answers WHERE MODE METHOD FILE.
# The test sets N, NTH, PPS, METHODS, MODES, MANGLE_TAG (its namespaces' and veths' mark),
# MANGLE_NET1 and MANGLE_NET2 (the third octets of its two 198.18.x.0/24), and defines
# answers and figs.
need clang clang
for mode in $MODES; do
	M=$(tr a-z A-Z <<<"$mode")
	clang -O2 -g -Wall -target bpf -DPB_NTH=$NTH -DPB_MODE_$M \
		-I/usr/include/"$(uname -m)"-linux-gnu -c "$(dirname "$0")/mangle_nth.bpf.c" \
		-o "$T/$mode.o" 2>"$T/clang.err" ||
		{ echo "SKIP: cannot build a BPF classifier ($(head -1 "$T/clang.err"); Debian package libbpf-dev)"; exit 77; }
	# the setup runs in a mount namespace of its own, whose /sys has no BPF file system for
	# tc's loader: one of its own
	cat >"$T/$mode.sh" <<EOS
mount -t bpf bpf /sys/fs/bpf &&
	tc qdisc add dev "\$PB_DUT_OUT" clsact &&
	tc filter add dev "\$PB_DUT_OUT" egress bpf da obj "$T/$mode.o" sec tc
EOS
done

row() { json "$1" "(lambda r: $2)(d['results'][0])"; }
# judge WHERE MODE METHOD FILE RC: a method this machine cannot run is skipped with its reason;
# any other run left a row (an error row when frames were spoilt: RC 1), judged by answers
judge() {
	if [ -s "$4" ] && row "$4" "r['status'] == 'skipped'"; then
		skip_part "$(method_caps "$3")" "$3: $(row "$4" "print(r['reason']) or True")"
		return
	fi
	check "$1 $2 $3: a row ($5: $(head -c 300 "$T/$3.err"))" [ -s "$4" ]
	[ -s "$4" ] && answers "$1" "$2" "$3" "$4"
}


# --- the lab: the classifier on the DUT's way out ------------------------------------------------
for mode in $MODES; do
	for m in $METHODS; do
		out=$T/lab-$mode-$m.json
		# the DUT's input dropping frames (a stall of its CPU) is the machine's, not the
		# code's, and its counters say so: such a run is made again, at most 3 times
		for i in 1 2 3; do
			"$PB" --lab router --lab-dut-setup "$T/$mode.sh" --method $m --count $N \
				--pps $PPS --format json --output "$out" -q 2>"$T/$m.err"
			rc=$?
			[ -s "$out" ] && row "$out" "(r.get('dut_rx_dropped') or 0) + (r.get('dut_tx_dropped') or 0) + (r.get('rx_dropped') or 0) > r['frames_retried']" 2>/dev/null || break
			echo "  miss: lab $mode $m attempt $i of 3: the DUT or the receiving veth dropped frames"
		done
		judge lab $mode $m "$out" $rc
	done
done

# --- through an agent: sender | router (the classifier) | agent ---------------------------------
NTX=pb${MANGLE_TAG}-tx-$$
NR=pb${MANGLE_TAG}-r-$$
NRX=pb${MANGLE_TAG}-rx-$$
A=pb${MANGLE_TAG}A$$
B=pb${MANGLE_TAG}B$$
C=pb${MANGLE_TAG}C$$
D=pb${MANGLE_TAG}D$$
A=${A:0:15} B=${B:0:15} C=${C:0:15} D=${D:0:15}
AGENT_PID=
seq_lab_del() {
	[ -n "${AGENT_PID:-}" ] && kill -KILL "$AGENT_PID" 2>/dev/null
	ip netns del "$NTX" 2>/dev/null
	ip netns del "$NR" 2>/dev/null
	ip netns del "$NRX" 2>/dev/null
}
trap 'seq_lab_del; cleanup' EXIT
# 198.18.$MANGLE_NET1.0/24 on the sender's side, 198.18.$MANGLE_NET2.0/24 on the agent's
seq_lab_setup() {
	ns_pair "$NTX" "$NR" "$A" "$B" || return 1
	ip netns add "$NRX" || return 1
	# one queue to the agent: one NAPI, one CPU counts, in the order the router sent
	ip -n "$NR" link add "$C" type veth peer name "$D" netns "$NRX" || return 1
	ip netns exec "$NRX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
	ip -n "$NRX" link set lo up || return 1
	ip netns exec "$NR" sysctl -qw net.ipv4.ip_forward=1 || return 1
	ip -n "$NTX" addr add 198.18.$MANGLE_NET1.1/24 dev "$A" || return 1
	ip -n "$NR" addr add 198.18.$MANGLE_NET1.2/24 dev "$B" || return 1
	ip -n "$NR" addr add 198.18.$MANGLE_NET2.1/24 dev "$C" || return 1
	ip -n "$NRX" addr add 198.18.$MANGLE_NET2.2/24 dev "$D" || return 1
	ip -n "$NTX" link set "$A" up && ip -n "$NR" link set "$B" up || return 1
	ip -n "$NR" link set "$C" up && ip -n "$NRX" link set "$D" up || return 1
	ip -n "$NTX" route add 198.18.$MANGLE_NET2.0/24 via 198.18.$MANGLE_NET1.2 || return 1
	ip -n "$NRX" route add 198.18.$MANGLE_NET1.0/24 via 198.18.$MANGLE_NET2.1 || return 1
	# as the lab does: GSO leaves as wire-size frames, which the classifier counts one by one
	ip netns exec "$NTX" ethtool -K "$A" tx-udp-segmentation off >/dev/null || return 1
	# as the lab does (GRO at the DUT's input): a NAPI ring, so frames are forwarded in the
	# order they came, not from whichever CPU's backlog the sender was on (the swap's premise:
	# without it, 1996 and 1999 of 2000 swaps were seen)
	ip netns exec "$NR" ethtool -K "$B" gro on >/dev/null || return 1
	# The agent counts with a window per CPU, so the stream must reach it on one CPU: the
	# router forwards all it gets on CPU 0 (RPS on every queue of its input), and never probes
	# the agent's address on a timer (a permanent neighbour). Else the sender's own reads of
	# the agent (its main thread, on any CPU) and the router's probes, forwarded from CPU 1,
	# had the agent's NAPI run there for a moment: the frames it took then were judged in CPU
	# 1's window, and a swapped pair split across the two looked in order (1999 of 2000,
	# nothing unchecked or out of the window; udp_sendto, sendmmsg, gso, once in a few runs)
	ip netns exec "$NR" sh -c 'for q in /sys/class/net/'"$B"'/queues/rx-*/rps_cpus; do
		echo 1 >"$q" || exit 1; done' || return 1
	ip -n "$NR" neigh replace 198.18.$MANGLE_NET2.2 dev "$C" nud permanent \
		lladdr "$(ip netns exec "$NRX" cat "/sys/class/net/$D/address")" || return 1
}
seq_lab_setup
rc=$?
check "namespaces $NTX | $NR | $NRX" [ $rc = 0 ]
BMAC=$(ip netns exec "$NR" cat "/sys/class/net/$B/address")
ip netns exec "$NRX" "$PB" receive --iface "$D" --listen 198.18.$MANGLE_NET2.2:9310 \
	>"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
check "the agent answers" wait_until 5 agent_get "$NTX" http://198.18.$MANGLE_NET2.2:9310 /v1/info
for mode in $MODES; do
	tc -n "$NR" qdisc del dev "$C" clsact 2>/dev/null
	tc -n "$NR" qdisc add dev "$C" clsact &&
		ip netns exec "$NR" tc filter add dev "$C" egress bpf da obj "$T/$mode.o" sec tc
	rc=$?
	check "agent $mode: the classifier on $C" [ $rc = 0 ]
	for m in $METHODS; do
		out=$T/agent-$mode-$m.json
		ip netns exec "$NTX" "$PB" --iface "$A" --srcip 198.18.$MANGLE_NET1.1 --dstip 198.18.$MANGLE_NET2.2 \
			--dstmac "$BMAC" --receiver http://198.18.$MANGLE_NET2.2:9310 --method $m --count $N \
			--pps $PPS --cpus 0 \
			--format json --output "$out" -q 2>"$T/$m.err"
		judge agent $mode $m "$out" $?
	done
done
kill -TERM "$AGENT_PID"
wait "$AGENT_PID"
rc=$?
AGENT_PID=
check "the agent exits 0 on SIGTERM ($rc)" [ $rc = 0 ]
seq_lab_del
check "nothing left behind" no_leftovers
finish
