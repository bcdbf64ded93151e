# SPDX-License-Identifier: MIT
# Only what the host would take (issue 44, item 2): a frame with the run's signature that the
# receiving host would refuse is not delivered but counted apart, and the row is an error that
# names it. The device under test of net/test_seq (mangle_nth.bpf.c, a tc classifier on clsact
# egress, no netem) spoils every 10th signed frame, so each answer is known exactly:
#   csum4  its IPv4 header checksum + 1: frames_delivered == N - N/10, frames_corrupt == N/10,
#          status error "corrupt: ..."
#   mac    its destination MAC's last bit flipped: frames_delivered == N - N/10,
#          frames_not_for_host == N/10, status error "not for this host: ..."
# for af_packet, af_xdp, udp_sendto, sendmmsg and gso, in the lab (--lab router) and through
# a `pktbench receive` agent (a router namespace of the test's own between them).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
N=20000
NTH=10
# paced, as net/test_seq: no ring fills, and the answers are the program's alone
PPS=50000
METHODS="af_packet af_xdp udp_sendto sendmmsg gso"
MODES="csum4 mac"
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
figs() { row "$1" "print('status %s, sent %s, delivered %s, corrupt %s, not for host %s, duplicate %s; %s' % (r['status'], r['frames_sent'], r['frames_delivered'], r.get('frames_corrupt'), r.get('frames_not_for_host'), r.get('frames_duplicate'), r.get('reason', ''))) or True" 2>&1 | tail -1; }

# answers WHERE MODE METHOD FILE: the known answer of MODE, exactly
answers() {
	local w=$1 mode=$2 m=$3 out=$4 k=$((N / NTH))
	echo "  $w $mode $m: $(figs "$out")"
	check "$w $mode $m: $N sent" row "$out" "r['frames_sent'] == $N"
	case $mode in
	csum4)
		check "$w $mode $m: $((N - k)) delivered, $k corrupt, none else apart" \
			row "$out" "r['frames_delivered'] == $N - $k and r['frames_corrupt'] == $k and r['frames_not_for_host'] == 0 and r['frames_duplicate'] == 0"
		check "$w $mode $m: not ok, the reason names the corrupt frames" \
			row "$out" "r['status'] == 'error' and r['reason'].startswith('corrupt: ')" ;;
	mac)
		check "$w $mode $m: $((N - k)) delivered, $k not for this host, none else apart" \
			row "$out" "r['frames_delivered'] == $N - $k and r['frames_not_for_host'] == $k and r['frames_corrupt'] == 0 and r['frames_duplicate'] == 0"
		check "$w $mode $m: not ok, the reason names them" \
			row "$out" "r['status'] == 'error' and r['reason'].startswith('not for this host: ')" ;;
	esac
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
		if [ -s "$out" ] && row "$out" "r['status'] == 'skipped'"; then
			skip_part "$(method_caps $m)" "$m: $(row "$out" "print(r['reason']) or True")"
			continue
		fi
		# a run with frames the host refuses is an error row: exit 1; the row is there
		check "lab $mode $m: a row ($rc: $(head -c 300 "$T/$m.err"))" [ -s "$out" ]
		[ -s "$out" ] && answers lab $mode $m "$out"
	done
done

# --- through an agent: sender | router (the classifier) | agent ---------------------------------
NTX=pbho-tx-$$
NR=pbho-r-$$
NRX=pbho-rx-$$
A=pbhoA$$
B=pbhoB$$
C=pbhoC$$
D=pbhoD$$
A=${A:0:15} B=${B:0:15} C=${C:0:15} D=${D:0:15}
AGENT_PID=
seq_lab_del() {
	[ -n "${AGENT_PID:-}" ] && kill -KILL "$AGENT_PID" 2>/dev/null
	ip netns del "$NTX" 2>/dev/null
	ip netns del "$NR" 2>/dev/null
	ip netns del "$NRX" 2>/dev/null
}
trap 'seq_lab_del; cleanup' EXIT
# 198.18.84.0/24 on the sender's side, 198.18.85.0/24 on the agent's
seq_lab_setup() {
	ns_pair "$NTX" "$NR" "$A" "$B" || return 1
	ip netns add "$NRX" || return 1
	# one queue to the agent: one NAPI, one CPU counts, in the order the router sent
	ip -n "$NR" link add "$C" type veth peer name "$D" netns "$NRX" || return 1
	ip netns exec "$NRX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
	ip -n "$NRX" link set lo up || return 1
	ip netns exec "$NR" sysctl -qw net.ipv4.ip_forward=1 || return 1
	ip -n "$NTX" addr add 198.18.84.1/24 dev "$A" || return 1
	ip -n "$NR" addr add 198.18.84.2/24 dev "$B" || return 1
	ip -n "$NR" addr add 198.18.85.1/24 dev "$C" || return 1
	ip -n "$NRX" addr add 198.18.85.2/24 dev "$D" || return 1
	ip -n "$NTX" link set "$A" up && ip -n "$NR" link set "$B" up || return 1
	ip -n "$NR" link set "$C" up && ip -n "$NRX" link set "$D" up || return 1
	ip -n "$NTX" route add 198.18.85.0/24 via 198.18.84.2 || return 1
	ip -n "$NRX" route add 198.18.84.0/24 via 198.18.85.1 || return 1
	# as the lab does: GSO leaves as wire-size frames, which the classifier counts one by one
	ip netns exec "$NTX" ethtool -K "$A" tx-udp-segmentation off >/dev/null || return 1
	# as the lab does (GRO at the DUT's input): a NAPI ring, frames forwarded in order
	ip netns exec "$NR" ethtool -K "$B" gro on >/dev/null
}
seq_lab_setup
rc=$?
check "namespaces $NTX | $NR | $NRX" [ $rc = 0 ]
BMAC=$(ip netns exec "$NR" cat "/sys/class/net/$B/address")
ip netns exec "$NRX" "$PB" receive --iface "$D" --listen 198.18.85.2:9310 \
	>"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
check "the agent answers" wait_until 5 agent_get "$NTX" http://198.18.85.2:9310 /v1/info
for mode in $MODES; do
	tc -n "$NR" qdisc del dev "$C" clsact 2>/dev/null
	tc -n "$NR" qdisc add dev "$C" clsact &&
		ip netns exec "$NR" tc filter add dev "$C" egress bpf da obj "$T/$mode.o" sec tc
	rc=$?
	check "agent $mode: the classifier on $C" [ $rc = 0 ]
	for m in $METHODS; do
		out=$T/agent-$mode-$m.json
		ip netns exec "$NTX" "$PB" --iface "$A" --srcip 198.18.84.1 --dstip 198.18.85.2 \
			--dstmac "$BMAC" --receiver http://198.18.85.2:9310 --method $m --count $N \
			--pps $PPS --cpus 0 \
			--format json --output "$out" -q 2>"$T/$m.err"
		rc=$?
		if [ -s "$out" ] && row "$out" "r['status'] == 'skipped'"; then
			skip_part "$(method_caps $m)" "$m: $(row "$out" "print(r['reason']) or True")"
			continue
		fi
		check "agent $mode $m: a row ($rc: $(head -c 300 "$T/$m.err"))" [ -s "$out" ]
		[ -s "$out" ] && answers agent $mode $m "$out"
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
