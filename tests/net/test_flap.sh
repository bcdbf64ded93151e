# SPDX-License-Identifier: MIT
# A flap of the far side: every frame method sends again once the link is back, and a row
# whose sender stalled is an error naming the stall, never ok (issue 28, item 4). Each method
# runs on its own veth pair of one namespace, all at once (--pps 1000, --duration 6); 1 s
# into the windows every far end goes down for 1 s. The figure read is what each sent in
# the window's last 2 s (per_second): about 2000 asked, none from a sender that stalled
# (af_packet used to: sent 2972, then flat to the end, row ok). The outage's retries are
# attempts on the schedule (af_packet's used to run it ahead by 10^6), and what the sender
# could not send while the link was down does not leave in a burst once it is back.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
DUR=6
PPS=1000
NS=pbtst-flap-$$
trap 'ip netns del "$NS" 2>/dev/null; cleanup' EXIT

want="af_packet af_packet_v2 af_packet_qdisc af_xdp pcap raw_socket xdp_live"
have=$(pb_methods)
methods=()
for m in $want; do
	if grep -qx "$m" <<<"$have"; then methods+=("$m"); else echo "not built in: $m"; fi
done

ip netns add "$NS" || { echo "SKIP: cannot create a namespace"; exit 77; }
ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip -n "$NS" link set lo up
declare -A A B MAC PID
for i in "${!methods[@]}"; do
	m=${methods[$i]}
	a=pbtstf${i}a$$
	b=pbtstf${i}b$$
	A[$m]=${a:0:15}
	B[$m]=${b:0:15}
	ip -n "$NS" link add "${A[$m]}" type veth peer name "${B[$m]}"
	ip -n "$NS" addr add "198.18.$((70 + i)).1/24" dev "${A[$m]}"
	# GRO on the far end: a veth takes XDP frames (xdp_live's XDP_TX) only with its NAPI on
	ip netns exec "$NS" ethtool -K "${B[$m]}" gro on >/dev/null 2>&1
	ip -n "$NS" link set "${B[$m]}" up
	ip -n "$NS" link set "${A[$m]}" up
	MAC[$m]=$(ip netns exec "$NS" cat "/sys/class/net/${B[$m]}/address")
	ip -n "$NS" neigh add "198.18.$((70 + i)).2" lladdr "${MAC[$m]}" dev "${A[$m]}" nud permanent
done

for i in "${!methods[@]}"; do
	m=${methods[$i]}
	ip netns exec "$NS" "$PB" --iface "${A[$m]}" --srcip "198.18.$((70 + i)).1" \
		--dstip "198.18.$((70 + i)).2" --dstmac "${MAC[$m]}" --method "$m" -q \
		--format json --pps $PPS --duration $DUR --output "$T/$m.json" 2>"$T/$m.err" &
	PID[$m]=$!
	PIDS+=($!)
done
# every window has opened once its interface has sent a frame
for m in "${methods[@]}"; do
	wait_until 10 counter_above "$NS" "${A[$m]}" tx_packets 0 ||
		echo "${A[$m]} ($m) sent nothing in 10 s"
done
# every far end at once: one ip(8) for all, not one each
flap() { for m in "${methods[@]}"; do echo "link set ${B[$m]} $1"; done | ip -n "$NS" -batch -; }
sleep 1
flap down
sleep 1
flap up

# r FILE EXPR: EXPR over r = the row, late = what was sent in the window's last 2 s
r() {
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
ps = [s for s in r.get('per_second') or [] if s['t'] <= $DUR - 1.5]
late = r['frames_sent'] - (ps[-1]['sent'] if ps else 0)
sys.exit(0 if ($2) else 1)" "$1"
}
for m in "${methods[@]}"; do
	wait "${PID[$m]}"
	rc=$?
	f=$T/$m.json
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
print('%s: status %s, sent %s, per second %s, retried %s, tx_dropped %s, link down %s s; %s'
      % (sys.argv[2], r['status'], r['frames_sent'], [s['sent'] for s in r.get('per_second') or []],
         r.get('frames_retried'), r.get('tx_dropped'), r.get('link_down_s'), r.get('reason') or ''))
" "$f" "$m" 2>/dev/null || echo "$m: no row: $(head -c 300 "$T/$m.err")"
	if r "$f" "r['status'] == 'skipped'"; then
		echo "not run: $m cannot run here (its row says why, above)"
		continue
	fi
	check "$m: premise: the far end went down once inside the window, for about 1 s (up to 3 s on a busy machine)" \
		r "$f" "r['link_downs'] == 1 and 0.5 <= r['link_down_s'] <= 3"
	check "$m: sends again once the link is back: 100 or more frames in the window's last 2 s ($PPS pps asked)" \
		r "$f" "late >= 100"
	# upper bounds, which a busy machine cannot break: it only makes a sender later
	check "$m: the outage's retries are on the schedule: sent + retried <= $PPS pps x the window + 50" \
		r "$f" "r['frames_sent'] + r['frames_retried'] <= $PPS * r['duration_s'] + 50"
	check "$m: the outage's retries came at the pace: retried <= $PPS pps x link_down_s + 0.3 s of frames + 50" \
		r "$f" "r['frames_retried'] <= $PPS * (r['link_down_s'] + 0.3) + 50"
	check "$m: no burst once the link is back: no second sent more than $PPS x its length + 50" \
		r "$f" "all(b['sent'] - a['sent'] <= $PPS * (b['t'] - a['t']) + 50 for a, b in zip([{'t': 0, 'sent': 0}] + r['per_second'], r['per_second'] + [{'t': r['duration_s'], 'sent': r['frames_sent']}]))"
	check "$m: a sender that did not send again is an error naming the stall, never ok" \
		r "$f" "late >= 100 or (r['status'] == 'error' and 'stall' in r['reason'])"
	check "$m: exit 0 and status ok across the flap (exit $rc: $(head -c 300 "$T/$m.err"))" \
		bash -c "[ $rc = 0 ] && python3 -c \"import json,sys; sys.exit(json.load(open(sys.argv[1]))['results'][0]['status'] != 'ok')\" '$f'"
done
ip netns del "$NS"
check "nothing left: no namespace or veth of the test" \
	bash -c "! ip netns list | grep -q '^$NS' && ! ip -o link show | grep -q pbtstf"
finish
