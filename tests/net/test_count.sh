# SPDX-License-Identifier: MIT
# --count N is exact for every method: N frames sent, and (on the wire) N delivered with this
# run's signature; the JSON carries every field the issue lists.
. "$(dirname "$0")/lib.sh"
N=20000
FIELDS='method mode status reason duration_s frame_bytes frames_sent frames_delivered
frames_dropped accounted_pct pps app_mbps wire_gbps delivered_pct cpu_ns_per_pkt'

methods=$(pb_methods)
wire=$(grep -vx null <<<"$methods")
# One run for every method, and one paced: a list runs each method in turn in one lab, a row
# each (not 40 labs of one method each, which took longer for nothing the test checks).
"$PB" --method "$(paste -sd, <<<"$methods")" --count $N --format json --output "$T/all.json" \
	-q 2>"$T/all.err"
rc=$?
check "every method --count $N: exit 0 ($(tail -1 "$T/all.err"))" [ $rc = 0 ]
"$PB" --method "$(paste -sd, <<<"$wire")" --count 5000 --pps 50k --format json \
	--output "$T/paced.json" -q 2>"$T/paced.err"
rc=$?
check "every wire method --count 5000 --pps 50k: exit 0 ($(tail -1 "$T/paced.err"))" [ $rc = 0 ]
check "no lab left" no_leftovers
check "JSON top-level fields" json "$T/all.json" \
	"all(k in d for k in ('schema','pktbench_version','command','kernel','interface','lab','results'))"

for m in $methods; do
	# one python for all the fields: 15 per method, 20 methods, was 300 interpreters
	lacks=$(python3 -c "import json,sys; r=[x for x in json.load(open(sys.argv[1]))['results'] if x['method'] == sys.argv[2]]
print(' '.join(f for f in sys.argv[3:] if f not in r[0]) if r else 'its row')" "$T/all.json" "$m" $FIELDS)
	check "$m: the result has every field of the list${lacks:+; lacks $lacks}" [ -z "$lacks" ]
	check "$m: status ok" mrow "$T/all.json" "$m" "r['status'] == 'ok'"
	check "$m: exactly $N sent" mrow "$T/all.json" "$m" "r['frames_sent'] == $N"
	if [ "$m" = null ]; then
		check "null: delivered is null (no wire), not 0" mrow "$T/all.json" "$m" \
			"r['frames_delivered'] is None"
		continue
	fi
	check "$m: exactly $N delivered" mrow "$T/all.json" "$m" "r['frames_delivered'] == $N"
	check "$m: accounted 100 %" mrow "$T/all.json" "$m" "abs(r['accounted_pct'] - 100) < 1e-9"
	# a second point of view: the kernel's own count of what left the sending veth
	check "$m: the sending veth's tx_packets is $N too" mrow "$T/all.json" "$m" "r['tx_packets'] == $N"
	# paced: still exact, and nothing lost at a rate every path sustains
	check "$m --pps 50k: exactly 5000 sent, delivered, accounted 100 %" mrow "$T/paced.json" "$m" \
		"r['frames_sent'] == 5000 and r['frames_delivered'] == 5000 and abs(r['accounted_pct'] - 100) < 1e-9"
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
