# SPDX-License-Identifier: MIT
# --count N is exact for every method: N frames sent, and (on the wire) N delivered with this
# run's signature; the JSON carries every field the issue lists.
. "$(dirname "$0")/lib.sh"
N=20000
FIELDS='method mode status reason duration_s frame_bytes frames_sent frames_delivered
frames_dropped accounted_pct pps app_mbps wire_gbps delivered_pct cpu_ns_per_pkt'

methods=$(pb_methods)
for m in $methods; do
	out=$T/$m.json
	"$PB" --method "$m" --count $N --format json --output "$out" -q 2>"$T/$m.err"
	rc=$?
	if [ $rc != 0 ]; then
		fail "$m: exit $rc: $(cat "$T/$m.err")"
		continue
	fi
	check "$m: JSON top-level fields" json "$out" \
		"all(k in d for k in ('schema','pktbench_version','command','kernel','interface','lab','results'))"
	# one python for all the fields: 15 per method, 20 methods, was 300 interpreters
	lacks=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]
print(' '.join(f for f in sys.argv[2:] if f not in r))" "$out" $FIELDS)
	check "$m: the result has every field of the list${lacks:+; lacks $lacks}" [ -z "$lacks" ]
	check "$m: status ok" json "$out" "d['results'][0]['status'] == 'ok'"
	check "$m: exactly $N sent" json "$out" "d['results'][0]['frames_sent'] == $N"
	if [ "$m" = null ]; then
		check "null: delivered is null (no wire), not 0" json "$out" \
			"d['results'][0]['frames_delivered'] is None"
	else
		check "$m: exactly $N delivered" json "$out" "d['results'][0]['frames_delivered'] == $N"
		check "$m: accounted 100 %" json "$out" "abs(d['results'][0]['accounted_pct'] - 100) < 1e-9"
		# a second point of view: the kernel's own count of what left the sending veth
		check "$m: the sending veth's tx_packets is $N too" json "$out" \
			"d['results'][0]['tx_packets'] == $N"
		# paced: still exact, and nothing lost at a rate every path sustains
		"$PB" --method "$m" --count 5000 --pps 50k --format json --output "$T/$m.paced.json" \
			-q 2>"$T/$m.paced.err"
		check "$m --pps 50k: exactly 5000 sent, delivered, accounted 100 % ($(head -c 200 "$T/$m.paced.err"))" \
			json "$T/$m.paced.json" "d['results'][0]['frames_sent'] == 5000 and d['results'][0]['frames_delivered'] == 5000 and abs(d['results'][0]['accounted_pct'] - 100) < 1e-9"
	fi
	check "$m: no lab left" no_leftovers
done
# go-pktgen's pkt_conn is its batch sender: sendmmsg, 128 datagrams a call
"$PB" --method pkt_conn --count $N --format json --output "$T/pkt_conn.json" -q 2>/dev/null
check "pkt_conn runs sendmmsg with a batch of 128, $N exact" json "$T/pkt_conn.json" \
	"d['results'][0]['method'] == 'sendmmsg' and d['results'][0]['mode'] == 'batch 128' and d['results'][0]['frames_delivered'] == $N"
# a GSO send larger than a datagram is gso's probe's to refuse: a skipped row in a list too
"$PB" --method udp_sendto,gso --payloadsize 1472 --segments 45 --count 100 --format json \
	--output "$T/gsobig.json" -q 2>/dev/null
check "gso: payload x segments over a datagram is a skipped row with the reason" \
	json "$T/gsobig.json" "[r['status'] for r in d['results']] == ['ok', 'skipped'] and 'segments' in d['results'][1]['reason']"
finish
