# SPDX-License-Identifier: MIT
# One accounting rule for every method, checked against the kernel's own counters on a path
# that drops and says so: a tbf qdisc too small for the offered load on the sending end of
# the test's own veth pair (--iface). The qdisc's peak rate and mtu make it segment GSO
# datagrams, so it counts (and drops) wire frames, not datagrams.
#   frames_sent == what left the device (tx_packets) + the drops the path kept (gso only)
#   frames_retried == the qdisc's drop count, for every method that is told of each drop
# A --count on a path that stalls ends at --count-timeout with a clear error, exit 1.
. "$(dirname "$0")/lib.sh"
N=20000
trap 'test_pair_del; cleanup' EXIT
test_pair acct 98
# real wire frames, as in the lab; and a queue far too small for an unpaced sender
ip netns exec $NS ethtool -K $A tx-udp-segmentation off >/dev/null 2>&1
tc -n $NS qdisc add dev $A root tbf rate 10mbit burst 1600 limit 1600 peakrate 20mbit mtu 100 ||
	{ echo "SKIP: no tbf qdisc"; exit 77; }

run() { ip netns exec $NS "$PB" --iface $A --srcip 198.18.98.1 --dstip 198.18.98.2 \
	--dstmac "$BMAC" -q --format json "$@"; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0][sys.argv[2]])" "$1" "$2"; }

for m in udp_sendto udp_connected sendmmsg raw_socket io_uring gso gso_mmsg af_packet_qdisc \
	udp_zerocopy gso_zerocopy io_uring_gso; do
	out=$T/$m.json
	run --method $m --count $N --output "$out" 2>"$T/$m.err"
	rc=$?
	if [ $rc != 0 ] && json "$out" "d['results'][0]['status'] == 'skipped'"; then
		echo "skip: $m: $(field "$out" reason)"
		continue
	fi
	check "$m: exit 0 (got $rc: $(head -c 300 "$T/$m.err"))" [ $rc = 0 ]
	check "$m: exactly $N sent" json "$out" "d['results'][0]['frames_sent'] == $N"
	check "$m: the qdisc dropped some (the test exercises drops)" json "$out" \
		"d['results'][0]['qdisc_drops'] > 100"
	check "$m: netting ok" json "$out" "d['results'][0]['netting'] == 'ok'"
	if [ "${m#gso}" != $m ] || [ $m = io_uring_gso ]; then
		# which segments of a datagram a drop hit is unknown: they count as sent, and
		# the qdisc's counter says how many were lost
		check "$m: sent = left the device + dropped by the qdisc, none retried" \
			json "$out" "d['results'][0]['frames_sent'] == d['results'][0]['tx_packets'] + d['results'][0]['qdisc_drops'] and d['results'][0]['frames_retried'] == 0 and d['results'][0]['frames_dropped'] == d['results'][0]['qdisc_drops']"
	else
		check "$m: sent = what left the device (tx_packets)" json "$out" \
			"d['results'][0]['frames_sent'] == d['results'][0]['tx_packets']"
		check "$m: every qdisc drop was reported and retried, once" json "$out" \
			"d['results'][0]['frames_retried'] == d['results'][0]['qdisc_drops'] and d['results'][0]['frames_dropped'] == 0"
	fi
done

# af_packet: a slot the kernel cannot send (longer than the MTU, which shrinks mid-run) is an
# error that ends the run, never a frame counted as sent (PACKET_LOSS would skip it silently);
# 2500 bytes: above 2 KiB the ring does not use a virtio_net_hdr, which skips the MTU check
tc -n $NS qdisc del dev $A root
ip -n $NS link set $A mtu 3000
ip -n $NS link set $B mtu 3000
run --method af_packet --frame-size 2500 --duration 4 --output "$T/mtu.json" 2>"$T/mtu.err" &
pid=$!
PIDS+=($pid)
sleep 1
ip -n $NS link set $A mtu 1500
wait $pid
rc=$?
check "af_packet, slot longer than the MTU: exit 1 (got $rc: $(head -c 200 "$T/mtu.err"))" [ $rc = 1 ]
check "af_packet, slot longer than the MTU: an error row, and every frame counted as sent left" \
	json "$T/mtu.json" "d['results'][0]['status'] == 'error' and d['results'][0]['frames_sent'] == d['results'][0]['tx_packets']"
ip -n $NS link set $B mtu 1500

# a path that stalls: --count ends at its bound, with the reason and the partial figures
tc -n $NS qdisc add dev $A root tbf rate 8kbit burst 1600 limit 1600
t0=$(date +%s.%N)
run --method udp_sendto --count $N --count-timeout 2 --output "$T/stall.json" 2>"$T/stall.err"
rc=$?
t1=$(date +%s.%N)
check "stall: exit 1 (got $rc)" [ $rc = 1 ]
check "stall: ended near the bound ($(echo "$t1 - $t0" | bc) s)" \
	python3 -c "import sys; sys.exit(0 if $t1 - $t0 < 6 else 1)"
check "stall: the error names --count-timeout" grep -q "count-timeout" "$T/stall.err"
check "stall: partial figures in the row" json "$T/stall.json" \
	"d['results'][0]['status'] == 'error' and d['results'][0]['timed_out'] and 0 < d['results'][0]['frames_sent'] < $N and d['results'][0]['pps'] > 0"
finish
