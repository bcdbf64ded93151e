# SPDX-License-Identifier: MIT
# A flood of run ids nobody asked about (3000 per CPU, one signed frame each, more than the 1024
# the receiver's LRU holds) while a sender's run is counted (af_packet, 50 pps, 3 s, a lossless
# veth): its row is exact (delivered == sent, ok) whether the flood comes before the first
# sample or after it, as the run the sender reads is kept out of the LRU; /v1/info and
# /metrics show the table's size and evictions. With the kept table filled first (a reader
# asking for 256 unknown runs), a run may be pushed out: its row is then an error naming it
# (receiver_evicted, delivered null), never a short count nor "the receiver restarted", and
# /v1/tests/UUID says when a run of its test aged out. Own namespaces and veth pair (198.18.86.0/24).
# Old code: status ok, delivered 132 of 150, or a false "receiver restarted".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
agent_lab af 86
check "namespaces $NTX, $NRX with $A/$B" [ $? = 0 ]
PORT=9312
URL=http://$RX_IP:$PORT
# the flood's datagrams go out without waiting for ARP (a queue of 101 would drop the rest)
ip -n "$NTX" neigh replace $RX_IP lladdr "$(ip netns exec "$NRX" cat /sys/class/net/$B/address)" \
	dev "$A" nud permanent

get() { # get PATH: the body, from the senders' namespace
	ip netns exec "$NTX" python3 -c '
import sys, urllib.request
o = urllib.request.build_opener(urllib.request.ProxyHandler({}))
sys.stdout.write(o.open(sys.argv[1] + sys.argv[2], timeout=5).read().decode())' "$URL" "$1" 2>/dev/null
}
jget() { python3 -c "import json,sys; d=json.loads(sys.argv[1]); print($2)" "$1" 2>/dev/null; }
ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT >"$T/agent.out" \
	2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
agent_up() { [ -n "$(get /v1/info)" ]; }
wait_until 10 agent_up
check "agent up ($(cat "$T/agent.err"))" agent_up

# flood FIRST: 3000 run ids from FIRST on each CPU, one signed frame each ("pbN", stream 0,
# the run id), sent from each CPU in turn: the veth's receiving side runs the XDP program on
# the sending CPU, so every CPU's counting slot (pb_bpf.h) is taken by the flood too
NCPU=$(nproc)
FLOOD=$((3000 * NCPU))
flood() {
	local cpu
	for ((cpu = 0; cpu < NCPU; cpu++)); do
		ip netns exec "$NTX" taskset -c $cpu python3 - "$TX_IP" "$RX_IP" \
			$(($1 + cpu * 3000)) <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 0))
for i in range(3000):
    s.sendto(b"pbN\0" + struct.pack("!I", int(sys.argv[3]) + i) + bytes(10), (sys.argv[2], 9))
PY
	done
}
rx_packets() { if_counter "$NRX" "$B" rx_packets; }
row() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print({k: r.get(k) for k in ('run_id','status','reason','frames_sent','frames_delivered','receiver_restarted','receiver_evicted')})" "$1"; }
SEND=(ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL"
	--method af_packet --pps 50 --format json)

# run NAME WHEN [ARGS]: a sender's run, the flood (ids from FIRST, set by the caller) once 30
# frames arrived (its first ~20 and the HTTP requests': before the first sample) or once the
# sender showed its first sample ("sampled")
run() {
	local name=$1 when=$2 pid p0 t0=$SECONDS
	shift 2
	p0=$(rx_packets)
	# a window of 3 s (the named run below is --count's instead: the two end a run alike and
	# are refused together)
	"${SEND[@]}" --duration 3 -o "$T/$name.json" "$@" 2>"$T/$name.err" &
	pid=$!
	PIDS+=("$pid")
	if [ "$when" = sampled ]; then
		wait_until 10 grep -q delivered "$T/$name.err"
	else
		wait_until 10 counter_above "$NRX" "$B" rx_packets $((p0 + 30))
	fi
	p0=$(rx_packets)
	flood "$FIRST"
	wait "$pid"
	echo "  $name: rc $?, flood of $(($(rx_packets) - p0)) frames arrived, $((SECONDS - t0)) s; row $(row "$T/$name.json")"
}
exact() { # exact NAME: ok, nothing lost, nothing said of a restart or an eviction
	json "$T/$1.json" "(r := d['results'][0])['status'] == 'ok' and r['frames_sent'] == 150 and
		r['frames_delivered'] == r['frames_sent'] and not r['receiver_restarted'] and
		r['receiver_evicted'] is False"
}
# exact, or an error naming the eviction with delivered unknown: never a short count as ok
honest() {
	json "$T/$1.json" "(r := d['results'][0])['status'] == 'ok' and
		r['frames_delivered'] == r['frames_sent'] == 150 and r['receiver_evicted'] is False or
		(r['status'] == 'error' and r['receiver_evicted'] is True and
		 r['frames_delivered'] is None and 'evicted' in r['reason'] and
		 not r['receiver_restarted'])"
}

FIRST=100000000
run before 0.4s
check "flood before the first sample: ok, delivered == sent (150), not evicted" exact before
FIRST=200000000
run after sampled
check "flood after the first sample: ok, delivered == sent (150), no false restart" exact after

info=$(get /v1/info)
echo "  /v1/info: $(jget "$info" "{k: v for k, v in d.items() if k.startswith('runs')}")"
EV=$((2 * FLOOD - 1024)) # two floods' new ids, all but what the table holds pushed out
check "/v1/info: the table's size (1024), runs held, >= $EV evicted by $((2 * FLOOD)) new ids, the 2 runs kept" \
	[ "$(jget "$info" "d['runs_capacity'] == 1024 and 0 < d['runs_held'] <= 1024 and
		d['runs_evicted'] >= $EV and d['runs_kept_capacity'] == 256 and
		d['runs_kept'] >= 2")" = True ]
get /metrics >"$T/metrics"
check "/metrics: runs_capacity 1024, runs_evicted_total >= $EV, kept gauges" python3 - "$T/metrics" $EV <<'PY'
import re, sys
m = dict(re.findall(r"^(pktbench_receiver_runs\w*) (\S+)$", open(sys.argv[1]).read(), re.M))
print("  ", m)
sys.exit(0 if m and float(m["pktbench_receiver_runs_capacity"]) == 1024 and
         float(m["pktbench_receiver_runs_evicted_total"]) >= int(sys.argv[2]) and
         float(m["pktbench_receiver_runs_kept_capacity"]) == 256 and
         float(m["pktbench_receiver_runs_kept"]) >= 2 else 1)
PY

# the kept table filled by a reader asking for 256 runs nobody sends: a run may now be lost
ip netns exec "$NTX" python3 - "$RX_IP" $PORT <<'PY'
import http.client, sys
c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
for i in range(256):
    c.request("GET", "/v1/runs/%d" % (7000 + i))
    c.getresponse().read()
PY
check "premise: the kept table is full ($(jget "$(get /v1/info)" "d['runs_kept']"))" \
	[ "$(jget "$(get /v1/info)" "d['runs_kept'] == d['runs_kept_capacity']")" = True ]
# not announced, flooded before any read of a count: only the table's evictions can tell
FIRST=300000000
run unkept 0.4s
check "kept table full, flood before the first sample: exact, or an error naming the eviction (delivered null), never a short count or a restart" honest unkept
# a run of a named test, not kept either, and a flood after it: the test's answer names it
UUID=5e2f0c1a-7a4b-4c6d-9e8f-0123456789ab
"${SEND[@]}" -o "$T/named.json" --count 10 --test-id $UUID 2>"$T/named.err"
check "a named test's run of 10 frames: exact ($(row "$T/named.json"))" json "$T/named.json" \
	"(r := d['results'][0])['status'] == 'ok' and r['frames_delivered'] == r['frames_sent'] == 10"
FIRST=400000000
p0=$(rx_packets)
flood $FIRST
check "a flood after the run: all $FLOOD arrived" [ $(($(rx_packets) - p0)) -ge $FLOOD ]
ID=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['run_id'])" "$T/named.json")
t=$(get /v1/tests/$UUID)
echo "  /v1/tests/$UUID: $t"
check "/v1/tests/UUID says its run $ID aged out (evicted_runs 1, the id listed)" \
	[ "$(jget "$t" "d['evicted_runs'] == 1 and d['evicted_run_ids'] == [$ID]")" = True ]

kill -KILL "$AGENT_PID"
wait "$AGENT_PID" 2>/dev/null
AGENT_PID=
check "no lab left" no_leftovers
finish
