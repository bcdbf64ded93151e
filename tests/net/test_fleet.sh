# SPDX-License-Identifier: MIT
# Many senders, one test: three senders in three namespaces of the test's own and one agent,
# joined by a bridge in a fourth (198.18.90.0/24), each `--shard i/3 --start-at` two seconds
# ahead, `--pps 3000` for the whole test; and one sender 3 s ahead (a wait longer than the
# stall detector's 2 s, which must not count it). Known answers: every shard planned the instant
# --start-at names, to the ns, and none opened its window before it; the shards' flows are
# disjoint (a capture on the agent's bridge port: tshark, or our own AF_PACKET reader without
# it); the merged delivered count equals the sum of the shards' and the agent's
# /v1/tests/UUID total exactly, and its shards are the three. On the real clock, retried
# (attempts, each a fresh fleet start): every sender woke within 1 ms of the instant, less
# its wait for a CPU, and the merged pps is within 1 % of 3000.
. "$(dirname "$0")/lib.sh"

NH=pbfl-hub-$$
NRX=pbfl-rx-$$
RX_IP=198.18.90.2
PORT=9313
URL=http://$RX_IP:$PORT
RATE=${PB_FLEET_RATE:-3000} # the whole test's; PB_FLEET_RATE=90000: issue 30's measurement
RUN=0
AGENT_PID=
CAP_PID=
fleet_cleanup() {
	[ -n "$CAP_PID" ] && kill -TERM "$CAP_PID" 2>/dev/null
	[ -n "$AGENT_PID" ] && kill -KILL "$AGENT_PID" 2>/dev/null
	wait 2>/dev/null
	for n in "$NH" "$NRX" pbfl-s0-$$ pbfl-s1-$$ pbfl-s2-$$; do ip netns del "$n" 2>/dev/null; done
}
trap 'fleet_cleanup; cleanup' EXIT

# every step's failure is the function's (|| return 1): its status was its last sysctl's, so
# the check below passed a lab with a port off the bridge or an address missing
setup() {
	local i
	ip netns add "$NH" && ip netns add "$NRX" || return 1
	ip -n "$NH" link add br0 type bridge && ip -n "$NH" link set br0 up || return 1
	ip -n "$NH" link set lo up || return 1
	# the agent's end
	ip -n "$NRX" link add flr$$ type veth peer name flrb netns "$NH" || return 1
	ip -n "$NH" link set flrb master br0 up || return 1
	ip netns exec "$NRX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
	ip -n "$NRX" addr add $RX_IP/24 dev flr$$ && ip -n "$NRX" link set flr$$ up &&
		ip -n "$NRX" link set lo up || return 1
	for i in 0 1 2; do
		ip netns add pbfl-s$i-$$ || return 1
		ip netns exec pbfl-s$i-$$ sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
		ip -n pbfl-s$i-$$ link add fls$i$$ type veth peer name fls${i}b netns "$NH" || return 1
		ip -n "$NH" link set fls${i}b master br0 up || return 1
		ip -n pbfl-s$i-$$ addr add 198.18.90.1$i/24 dev fls$i$$ || return 1
		ip -n pbfl-s$i-$$ link set fls$i$$ up && ip -n pbfl-s$i-$$ link set lo up || return 1
	done
	ip netns exec "$NH" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
}
setup
check "a bridge joining three sender namespaces and an agent's" [ $? = 0 ]

ip netns exec "$NRX" "$PB" receive --iface flr$$ --listen $RX_IP:$PORT >"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
get() { # get PATH: the agent's answer's body, from sender 0's namespace
	agent_get pbfl-s0-$$ "$URL" "$1"
}
for _ in $(seq 50); do get /v1/info >/dev/null 2>&1 && break; sleep 0.1; done
check "the agent answers" get /v1/info

# the witness of the flows: frames that reach the agent's bridge port
if command -v tshark >/dev/null; then
	WITNESS=tshark
	# the first 1500 frames (every shard's ten flows many times over): a capture of the whole
	# run would take the CPU the three paced senders need on a 2-core machine
	ip netns exec "$NH" tshark -q -i flrb -c 1500 -f "udp and dst host $RX_IP" -w "$T/cap.pcapng" \
		>/dev/null 2>"$T/cap.err" &
else
	WITNESS="our AF_PACKET reader (tshark: Debian package tshark)"
	ip netns exec "$NH" python3 - flrb "$T/flows.txt" 2>"$T/cap.err" <<'PY' &
import socket, struct, signal, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0800))
s.bind((sys.argv[1], 0))
s.settimeout(0.5)
print("Capturing on", sys.argv[1], file=sys.stderr, flush=True)
seen, stop = {}, False
def done(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, done)
while not stop and sum(seen.values()) < 1500:
    try:
        f = s.recv(128)
    except socket.timeout:
        continue
    ip = f[14:]
    if len(ip) < 28 or ip[9] != 17:
        continue
    ihl = (ip[0] & 15) * 4
    src = socket.inet_ntoa(ip[12:16])
    sport = struct.unpack("!H", ip[ihl:ihl + 2])[0]
    seen[(src, sport)] = seen.get((src, sport), 0) + 1
with open(sys.argv[2], "w") as o:
    for (src, sport), n in seen.items():
        o.write("%s %d %d\n" % (src, sport, n))
PY
fi
CAP_PID=$!
# the witness is ready once it says it captures (tshark's own line, and our reader's)
for _ in $(seq 200); do grep -q "Capturing on" "$T/cap.err" 2>/dev/null && break; sleep 0.05; done
check "the witness captures ($WITNESS)" grep -q "Capturing on" "$T/cap.err"

# fleet_run [PPS SECS]: a fleet start, the next run R (a directory of its own, a test UUID of
# its own): the three senders, --shard i/3, at one instant two seconds ahead, --pps PPS for the
# test (RATE) for SECS (2), ended; 0 when all three exit 0, else it says how they failed.
fleet_run() {
	local i rcs="" start pps=${1:-$RATE} secs=${2:-2}
	RUN=$((RUN + 1))
	R=$T/r$RUN
	mkdir -p "$R"
	UUID=6f9619ff-8b86-4011-b42d-00c04f$(printf '%02x%04x' "$RUN" $(($$ % 65536)))
	START_NS=$(($(date +%s%N) + 2000000000))
	start=$(date -u -d "@$((START_NS / 1000000000))" +%Y-%m-%dT%H:%M:%S)
	start=$start.$(printf '%09d' $((START_NS % 1000000000)))Z
	for i in 0 1 2; do
		ip netns exec pbfl-s$i-$$ "$PB" --iface fls$i$$ --receiver "$URL" --srcip 198.18.90.1$i \
			--dstip $RX_IP --method af_packet --pps $pps --duration $secs --flows 30 \
			--shard $i/3 --test-id "$UUID" --start-at "$start" -q --format json -o "$R/s$i.json" \
			>"$R/s$i.out" 2>"$R/s$i.err" &
		SP[$i]=$!
		PIDS+=("${SP[$i]}")
	done
	for i in 0 1 2; do
		wait "${SP[$i]}"
		rcs="$rcs$?"
	done
	[ "$rcs" = 000 ] && return 0
	echo "run $RUN: senders exit $rcs: $(cat "$R"/s?.err | head -c 300)"
	return 1
}
py() { python3 - "$R" "$@"; } # python on run R's files (argv[1])

fleet_run
check "three senders ran at $RATE pps between them (run $RUN)" [ $? = 0 ]
R1=$R
sleep 0.5
kill -TERM "$CAP_PID" 2>/dev/null
wait "$CAP_PID" 2>/dev/null
CAP_PID=
UUID1=$UUID

check "every shard planned the instant --start-at names ($START_NS ns), none woke before it" \
	py "$START_NS" <<'PY'
import json, sys
rows = [json.load(open("%s/s%d.json" % (sys.argv[1], i)))["results"][0] for i in range(3)]
for r in rows:
    print("planned %+d ns, woke %+.1f us, cpu wait %s us" % (
        r["start_planned_ns"] - int(sys.argv[2]), r["start_skew_us"], r["start_cpu_wait_us"]))
sys.exit(0 if len(rows) == 3 and all(r["start_planned_ns"] == int(sys.argv[2]) and
                  r["start_actual_ns"] >= r["start_planned_ns"] and
                  r["start_cpu_wait_us"] is not None and
                  0 <= r["start_cpu_wait_us"] <= r["start_skew_us"] for r in rows) else 1)
PY
check "each row names the test, its shard and its node" py <<'PY'
import json, socket, sys
rows = [json.load(open("%s/s%d.json" % (sys.argv[1], i)))["results"][0] for i in range(3)]
sys.exit(0 if [r["shard"] for r in rows] == ["0/3", "1/3", "2/3"] and
         all(r["test_id"] == rows[0]["test_id"] and r["node"] == socket.gethostname() and
             r["status"] == "ok" for r in rows) else 1)
PY

if [ "$WITNESS" = tshark ]; then
	tshark -r "$T/cap.pcapng" -T fields -e ip.src -e udp.srcport 2>/dev/null | sort | uniq -c |
		awk '{print $2, $3, $1}' >"$T/flows.txt"
fi
check "the shards' flows are disjoint, ten source ports each ($WITNESS)" python3 - "$T" <<'PY'
import sys
by = {}
for line in open(sys.argv[1] + "/flows.txt"):
    src, port, n = line.split()
    by.setdefault(src, set()).add(int(port))
ports = [by.get("198.18.90.1%d" % i, set()) for i in range(3)]
print("ports per shard:", [sorted(p)[:1] + ["..."] + sorted(p)[-1:] if p else [] for p in ports])
sys.exit(0 if len(ports) == 3 and all(len(p) == 10 for p in ports) and not (ports[0] & ports[1] or ports[0] & ports[2]
         or ports[1] & ports[2]) else 1)
PY

# merged R: run R's three rows merged into R/merged.json
merged() {
	"$PB" merge "$R"/s0.json "$R"/s1.json "$R"/s2.json --format json >"$R/merged.json" 2>"$R/merge.err"
}
merged
rc=$?
check "pktbench merge of the three ($(cat "$R/merge.err"))" [ $rc = 0 ]
"$PB" merge "$R"/s0.json "$R"/s1.json "$R"/s2.json
get "/v1/tests/$UUID" >"$R/test.json"
echo "agent: $(cat "$R/test.json")"
check "merged sent and delivered = the shards' sums; delivered = sent = the agent's /v1/tests total exactly; three runs, three shards; the merged row's worst start skew is the latest shard's" \
	py <<'PY'
import json, sys
d = sys.argv[1]
rows = [json.load(open("%s/s%d.json" % (d, i)))["results"][0] for i in range(3)]
m = json.load(open(d + "/merged.json"))["results"][0]
t = json.load(open(d + "/test.json"))
print("shards: sent %s, delivered %s; merged: %d sent, %d delivered; "
      "agent: %s frames in %s runs, shards %s" % (
    [r["frames_sent"] for r in rows], [r["frames_delivered"] for r in rows], m["frames_sent"],
    m["frames_delivered"], t.get("frames"), t.get("runs"), sorted(t.get("shards", {}))))
sys.exit(0 if m["senders"] == 3 and m["frames_sent"] == sum(r["frames_sent"] for r in rows) and
         m["frames_delivered"] == sum(r["frames_delivered"] for r in rows) and
         m["frames_delivered"] == m["frames_sent"] and
         t["frames"] == m["frames_delivered"] and t["runs"] == 3 and
         sorted(t["shards"]) == ["0/3", "1/3", "2/3"] and
         m["start_skew_us_worst"] == max(r["start_skew_us"] for r in rows) else 1)
PY

# The timing answers, on the real clock: each attempt a fresh fleet start at 100 pps a shard,
# which says its figures. A start is late by the timer's wake and by the wait for a CPU once
# woken (three senders on two CPUs: one waited 2.8 ms beside noisy.sh); the wait is the load's
# and is taken off, the rest is checked. What no guest sees is not taken off: here the host
# takes both CPUs away for 0.1-0.9 ms about the instant (ftrace: no event on either, a timer
# interrupt the first after it), between the wake and the first frame, a step that otherwise
# takes 10 us; three fresh CI runs met it on every attempt against the 200 us once allowed.
# So the wire's bound is 2 ms, which the code's own ways of being late still cross: a first
# frame a gap late is 10 ms late at this rate (the answer to the us is unit/test_runner's, on
# a simulated clock: the first frame at the wake, the counters read before the wait).
TIMING_PPS=300
wake_ok() {
	fleet_run $TIMING_PPS 0.5 || return 1
	get "/v1/tests/$UUID" >"$R/test.json" || return 1
	py "$START_NS" <<'PY'
import json, sys
rows = [json.load(open("%s/s%d.json" % (sys.argv[1], i)))["results"][0] for i in range(3)]
late = [r["start_skew_us"] - (r["start_cpu_wait_us"] or 0) for r in rows]
acts = [r["start_actual_ns"] - 1e3 * (r["start_cpu_wait_us"] or 0) for r in rows]
worst, spread = max(late), (max(acts) - min(acts)) / 1e3
print("start: worst %.1f us late less its CPU wait, spread %.1f us "
      "(skews %s us, CPU waits %s us)" % (
    worst, spread, [r["start_skew_us"] for r in rows], [r["start_cpu_wait_us"] for r in rows]))
ok = worst < 1000 and spread < 1000
# and at the receiving end: each shard's first frame, timed by the agent (a paced run's), on
# its one clock, turned to wall time by its realtime_ns; late by the sender's wake, its CPU
# wait and the path
t = json.load(open("%s/test.json" % sys.argv[1]))
sh = [t["shards"]["%d/3" % i] for i in range(3)]
arr = [(s["first_arrival_ns"] - t["now_ns"] + t["realtime_ns"] - int(sys.argv[2])) / 1e3
       for s in sh]
waits = [r["start_cpu_wait_us"] or 0 for r in rows]
print("at the agent: first frames %s us after the instant, spread %s us (timed %s)" % (
    [round(a, 1) for a in arr], t["arrival_spread_us"], t["arrival_timed"]))
ok = ok and t["arrival_timed"] and len(arr) == len(waits) == 3 and \
    all(0 < a - w < 2000 for a, w in zip(arr, waits)) and \
    t["arrival_spread_us"] < 2000 + max(waits)
sys.exit(0 if ok else 1)
PY
}
attempts 3 "each sender woke within 1 ms of --start-at, less its wait for a CPU; its first frame reached the agent within 2 ms of it, less that wait" wake_ok

# Each shard paces its 1 kpps by sleeping (--pace auto). A pacer that spun the end of its gaps
# held a CPU whatever the rate: three on two CPUs beside other work lost each stall longer
# than their catch-up window (28.6k of 30k beside noisy.sh --busy 30, 27.2k at --busy 60; 85k
# of 90k at 30 kpps a shard). A sleeper gets a CPU when it wakes, so 3k is a rate the machine
# keeps, loaded or not (PB_FLEET_RATE=90000 measures 30 kpps a shard: docs/performance.md).
FRESH=1
next_run() { # run 1 for the first attempt, a new fleet start for each later one
	if [ "$FRESH" = 1 ]; then
		FRESH=0
		R=$R1
		return 0
	fi
	fleet_run
}
rate_ok() {
	next_run && merged || return 1
	py "$RATE" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/merged.json"))["results"][0]
rows = [json.load(open("%s/s%d.json" % (sys.argv[1], i)))["results"][0] for i in range(3)]
print("merged pps %.0f of %s (shards %s, behind %s)" % (m["pps"], sys.argv[2],
      ["%.0f" % r["pps"] for r in rows], [r.get("paced_behind") for r in rows]))
sys.exit(0 if abs(m["pps"] - float(sys.argv[2])) <= float(sys.argv[2]) / 100 else 1)
PY
}
attempts 3 "merged pps within 1 % of the test's $RATE" rate_ok

# the wait for an instant 3 s off is no stall (the detector's bound is 2 s: it once counted
# the wait, and every sender of a cluster's render, 30 s ahead, ended 'stalled', exit 111)
late=$(($(date +%s%N) + 3000000000))
ip netns exec pbfl-s0-$$ "$PB" --iface fls0$$ --receiver "$URL" --srcip 198.18.90.10 \
	--dstip $RX_IP --method af_packet --pps 1000 --duration 0.5 --start-at "$late" -q \
	--format json -o "$T/late.json" 2>"$T/late.err"
rc=$?
check "a sender 3 s before its instant is not stalled: exit $rc, 500 frames delivered (1 kpps for 0.5 s from the instant; 501 before) ($(head -c 200 "$T/late.err"))" \
	json "$T/late.json" "$rc == 0 and d['results'][0]['status'] == 'ok' and d['results'][0]['frames_delivered'] == d['results'][0]['frames_sent'] == 500"

get /metrics >"$T/metrics.txt"
# by the test's label, never its UUID (which a forged announcement would need)
label=$(printf %s "$UUID1" | sha256sum | cut -c1-16)
n=$(grep '^pktbench_run_frames_total{' "$T/metrics.txt" | grep -c "test=\"$label\",shard=")
check "/metrics labels the test's runs with its label $label and shard ($n series), no flow labels, no UUID" \
	[ "$n" = 3 -a -z "$(grep -E 'port=|flow=' "$T/metrics.txt")" -a -z "$(grep -i "$UUID1" "$T/metrics.txt")" ]
kill -TERM "$AGENT_PID"
wait "$AGENT_PID"
arc=$?
check "the agent ends cleanly (exit $arc)" [ $arc = 0 ]
AGENT_PID=
finish
