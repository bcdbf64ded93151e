# SPDX-License-Identifier: MIT
# `pktbench receive` and `--receiver`: an agent in one namespace, senders in another, over a
# veth pair of our own (198.18.88.0/24). Every frame and socket method delivers --count
# exactly through the agent; ping and an unsigned datagram pass and are not counted; two
# senders at once get their own exact counts; the API answers as documented (404, 405, 400,
# a run never seen) and /metrics parses as Prometheus and OpenMetrics text; garbage, an
# oversized header and many idle connections leave it serving others, and idle ones are
# closed; an agent SIGKILLed mid-run ends the sender with the reason, exit 1, in bounded
# time; an unreachable agent is exit 2 at once; a program already on the interface is
# refused without --force and is the same program (id) after a --force run; the lab and
# the agent give the same fields; latency probes and a paced run's gaps come through it (latency
# null without --synced-clocks, timed with it); a replayed capture of every kind (TCP, ARP,
# IPv6...) is counted by the run's source MAC, every frame.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
OBJ=$(dirname "$PB")/bpf/xdp_pass.bpf.o

TX_IP2=198.18.88.3 # a second client on the senders' side
PORT=9310
N=20000
# the senders' end $A (198.18.88.1) in $NTX, the agent's end $B (198.18.88.2) in $NRX
agent_lab ag 88 &&
	ip -n "$NTX" addr add $TX_IP2/24 dev "$A" &&
	# as the lab does: GSO leaves as wire-size frames, not one super-frame
	ip netns exec "$NTX" ethtool -K "$A" tx-udp-segmentation off >/dev/null
check "namespaces $NTX, $NRX with $A/$B" [ $? = 0 ]
URL=http://$RX_IP:$PORT
MAC_B=$(ip -n "$NRX" -j link show dev "$B" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')

xdp_of_b() { # "<mode> <id> <name>" of the program on $B, or "none"
	ip -n "$NRX" -j link show dev "$B" | python3 -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp")
print("%s %s %s" % (x["mode"], x["prog"]["id"], x["prog"]["name"]) if x else "none")'
}

# http [--src ADDR] [--accept TYPE] [--method M] PATH: "STATUS" on the first line, then the
# body, from the senders' namespace
cat >"$T/agent_http.py" <<'PY'
import http.client, sys
args, src, accept, method = sys.argv[1:], None, None, "GET"
while args[0].startswith("--"):
    opt, val, args = args[0], args[1], args[2:]
    src, accept, method = (val if opt == "--src" else src, val if opt == "--accept" else accept,
                           val if opt == "--method" else method)
c = http.client.HTTPConnection("198.18.88.2", 9310, timeout=5,
                               source_address=(src, 0) if src else None)
c.request(method, args[0], headers={"Accept": accept} if accept else {})
r = c.getresponse()
print(r.status)
print("content-type:", r.getheader("Content-Type"))
sys.stdout.write(r.read().decode())
PY
http() { ip netns exec "$NTX" python3 "$T/agent_http.py" "$@" 2>&1; }
status_of() { head -1 <<<"$1"; }
body_of() { tail -n +3 <<<"$1"; }
# jq-like: jget "BODY" EXPR (d = the parsed body)
jget() { python3 -c "import json,sys; d=json.loads(sys.argv[1]); print($2)" "$1" 2>/dev/null; }

agent_start() { # agent_start [options]: until /v1/info answers (at most 5 s)
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT "$@" \
		>"$T/agent.out" 2>"$T/agent.err" &
	AGENT_PID=$!
	PIDS+=("$AGENT_PID")
	for _ in $(seq 50); do
		[ "$(status_of "$(http /v1/info)")" = 200 ] && return 0
		kill -0 "$AGENT_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
agent_term() {
	kill -TERM "$AGENT_PID"
	wait "$AGENT_PID"
	AGENT_RC=$?
	AGENT_PID=
}
SEND=(ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL")
result() { # result FILE EXPR: r = results[0]
	python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; sys.exit(0 if ($2) else 1)" "$1"
}

# --- bad input: exit 2, one line, nothing attached ---------------------------------------------
bad_receive() { # bad_receive WHAT ARGS...: exit 2 with one line
	local what=$1 rc
	shift
	ip netns exec "$NRX" "$PB" receive "$@" >/dev/null 2>"$T/bad.err"
	rc=$?
	check "receive $what: exit 2, one line ($rc: $(cat "$T/bad.err"))" \
		[ $rc = 2 -a "$(wc -l <"$T/bad.err")" = 1 ]
}
bad_receive "without --listen" --iface "$B"
bad_receive "with --listen without a port" --iface "$B" --listen $RX_IP
bad_receive "with --listen 0.0.0.0:0" --iface "$B" --listen 0.0.0.0:0
bad_receive "--iface nope0" --iface nope0 --listen $RX_IP:$PORT
bad_receive "with an unknown option" --iface "$B" --listen $RX_IP:$PORT --bogus
"${SEND[@]}" --method udp_sendto --count 10 -q >/dev/null 2>"$T/unreach.err" &
pid=$!
PIDS+=("$pid")
t0=$(date +%s.%N)
wait "$pid"
rc=$?
dt=$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")
check "no agent yet: the sender exits 2 in $dt s ($(cat "$T/unreach.err"))" \
	[ $rc = 2 -a "${dt%.*}" -lt 4 ]
check "no agent yet: it says so" grep -q "cannot reach the agent at $URL" "$T/unreach.err"
# an agent that accepts and never answers: given up on within the request bound (2 s)
ip netns exec "$NRX" python3 -c '
import socket, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("'$RX_IP'", '$PORT')); s.listen(8)
c = s.accept()
time.sleep(30)' &
HUNG=$!
PIDS+=("$HUNG")
# the sender must meet it listening: "Connection refused" would be the test's race, not a timeout
check "the hung agent listens on $RX_IP:$PORT" wait_until 10 listening "$NRX" tcp $RX_IP:$PORT
t0=$(date +%s.%N)
"${SEND[@]}" --method udp_sendto --count 10 -q >/dev/null 2>"$T/hung.err"
rc=$?
dt=$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")
kill -KILL "$HUNG" 2>/dev/null
wait "$HUNG" 2>/dev/null
check "an agent that never answers: exit 2 after $dt s ($(cat "$T/hung.err"))" \
	[ $rc = 2 -a "${dt%.*}" -lt 4 ]
check "... and says it timed out" grep -qi "timed out" "$T/hung.err"
bad_send() { # bad_send WHAT ARGS...: exit 2 with one line
	local what=$1 rc
	shift
	"$PB" --method udp_sendto --count 10 -q "$@" >/dev/null 2>"$T/bad.err"
	rc=$?
	check "sender $what: exit 2, one line ($rc: $(cat "$T/bad.err"))" \
		[ $rc = 2 -a "$(wc -l <"$T/bad.err")" = 1 ]
}
bad_send "--receiver without --iface" --receiver "$URL"
bad_send "--receiver https://" --iface lo --receiver "https://$RX_IP:$PORT"
bad_send "--receiver with a path" --iface lo --receiver "$URL/v1/info"
check "nothing attached to $B ($(xdp_of_b))" [ "$(xdp_of_b)" = none ]

# --- the API -----------------------------------------------------------------------------------
agent_start
rc=$?
check "agent up ($(cat "$T/agent.err"))" [ $rc = 0 ]
check "agent: native XDP on $B ($(xdp_of_b))" bash -c "[[ '$(xdp_of_b)' == '1 '*' pb_receiver' ]]"
info=$(body_of "$(http /v1/info)")
echo "  /v1/info: $info"
check "/v1/info: interface, MAC, queues, mode, address" [ "$(jget "$info" \
	"d['api'] == 1 and d['interface'] == '$B' and d['mac'] == '$MAC_B' and d['rx_queues'] == 2 and d['xdp_mode'] == 'native' and '$RX_IP' in d['addresses'] and d['driver'] == 'veth' and d['clock'] == 'monotonic' and d['now_ns'] > 0 and d['uptime_s'] >= 0 and d['version'] != ''")" = True ]
r=$(http /v1/runs/123)
check "a run never seen: 200, seen false, zeros, the interface counters" [ "$(jget "$(body_of "$r")" \
	"d['run_id'] == 123 and d['seen'] is False and d['frames'] == 0 and d['first_ns'] is None and d['queue_frames'] == [0, 0] and d['interface']['rx_packets'] > 0")" = True -a "$(status_of "$r")" = 200 ]
check "HEAD /v1/info: 200" [ "$(status_of "$(http --method HEAD /v1/info)")" = 200 ]
check "POST /v1/info: 405" [ "$(status_of "$(http --method POST /v1/info)")" = 405 ]
check "DELETE /v1/runs/1: 405" [ "$(status_of "$(http --method DELETE /v1/runs/1)")" = 405 ]
check "GET /nope: 404" [ "$(status_of "$(http /nope)")" = 404 ]
check "GET /v1/runs/abc: 400" [ "$(status_of "$(http /v1/runs/abc)")" = 400 ]
check "GET /v1/runs/4294967296: 400" [ "$(status_of "$(http /v1/runs/4294967296)")" = 400 ]
check "errors are JSON with the reason" [ "$(jget "$(body_of "$(http /nope)")" "'error' in d")" = True ]

# --- what is not pktbench's passes, and is not counted -----------------------------------------
m0=$(body_of "$(http /metrics)")
ip netns exec "$NRX" python3 - >"$T/udp.out" 2>&1 <<PY &
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("$RX_IP", 9999))
s.settimeout(5)
print(s.recv(64))
PY
UDP_PID=$!
PIDS+=("$UDP_PID")
check "a UDP socket is bound to $RX_IP:9999" wait_until 10 listening "$NRX" udp $RX_IP:9999
check "3 pings through the agent's interface are answered" icmp_ping "$NTX" $RX_IP
ip netns exec "$NTX" python3 -c '
import socket
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"hello", ("'$RX_IP'", 9999))'
wait "$UDP_PID"
check "an unsigned datagram arrives ($(cat "$T/udp.out"))" grep -q "hello" "$T/udp.out"
runs_of() { sed -n 's/^pktbench_receiver_runs \([0-9]*\)$/\1/p' <<<"$1"; }
foreign_of() { sed -n 's/^pktbench_receiver_foreign_frames_total{[^}]*} \([0-9]*\)$/\1/p' <<<"$1"; }
# /metrics is read from the maps at most once a second: polled until the 4 frames show (10 s)
foreign_seen() {
	m1=$(body_of "$(http /metrics)")
	[ $(($(foreign_of "$m1") - $(foreign_of "$m0"))) -ge 4 ]
}
wait_until 10 foreign_seen
check "not counted as any run (runs $(runs_of "$m0") -> $(runs_of "$m1"))" \
	[ "$(runs_of "$m0")" = 0 -a "$(runs_of "$m1")" = 0 ]
check "counted as foreign: the 3 pings and the datagram at least ($(foreign_of "$m0") -> $(foreign_of "$m1"))" \
	[ $(($(foreign_of "$m1") - $(foreign_of "$m0"))) -ge 4 ]

# --- every method, exactly, through the agent --------------------------------------------------
methods=$(pb_methods | grep -v '^null$')
for m in $methods; do
	out=$T/$m.json
	"${SEND[@]}" --method "$m" --count $N --format json --output "$out" -q 2>"$T/$m.err"
	rc=$?
	if [ $rc != 0 ]; then
		fail "$m: exit $rc: $(cat "$T/$m.err")"
		continue
	fi
	check "$m: ok, exactly $N sent and $N delivered through the agent, accounted 100 %" \
		result "$out" "r['status'] == 'ok' and r['frames_sent'] == $N and r['frames_delivered'] == $N and abs(r['accounted_pct'] - 100) < 1e-9"
	# three points: the sending interface (with the API's traffic: shared), the receiver, the
	# receiving interface's own counters
	check "$m: three-point counters: tx_packets >= $N (shared), rx_packets >= $N, no drops" \
		result "$out" "r['shared_iface'] and r['tx_packets'] >= $N and r['rx_packets'] >= $N and r['rx_dropped'] == 0 and r['rx_driver_drops'] == 0"
	id=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['run_id'])" "$out")
	check "$m: the agent's /v1/runs/$id says $N too" \
		[ "$(jget "$(body_of "$(http /v1/runs/"$id")")" "d['seen'] and d['frames']")" = $N ]
done

# --- a replayed capture of every kind, counted by the run's source MAC ---------------------------
# TCP, ARP, ICMP, IPv6, VLAN, fragments, another EtherType, all in 198.18.0.0/15 and 2001:2::/48
python3 "$(dirname "$0")/pcapgen.py" "$T/real.pcap" --n 500 --kind real >/dev/null
"${SEND[@]}" --method af_packet,af_xdp,pcap --replay "$T/real.pcap" --format json \
	--output "$T/real.json" -q 2>"$T/real.err"
check "--replay of a real mix through the agent: every frame delivered, whatever its kind ($(head -c 300 "$T/real.err"))" \
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['results']; sys.exit(0 if len(d) == 3 and all(r['status'] == 'ok' and r['frames_sent'] == 500 and r['frames_delivered'] == 500 for r in d) else 1)" "$T/real.json"

# --- latency probes and a paced run's gaps, through the agent ------------------------------------
"${SEND[@]}" --method af_packet --latency --count $N --format json --output "$T/lat.json" -q
check "--latency through the agent: every probe, none lost; jitter, no latency without --synced-clocks" \
	result "$T/lat.json" "(lambda l: l['probes_sent'] > 0 and l['probes_received'] == l['probes_sent'] and l['lost'] == 0 and l['jitter_us'] is not None and l['p50_us'] is None and '--synced-clocks' in l['null_reason'])(r['latency'])"
"${SEND[@]}" --method af_packet --synced-clocks --count $N --format json --output "$T/tai.json" -q
check "--synced-clocks through the agent: CLOCK_TAI probes, timed ($(python3 -c "import json; l=json.load(open('$T/tai.json'))['results'][0]['latency']; print(l['p50_us'], l['null_reason'])"))" \
	result "$T/tai.json" "(lambda l: l['clock'] == 'tai' and l['p50_us'] is not None and l['p99_us'] >= l['p50_us'] and len(l['histogram']) > 0)(r['latency'])"
id=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['run_id'])" "$T/tai.json")
h=$(http /v1/runs/"$id"/hist/lat)
check "GET /v1/runs/$id/hist/lat: 200, the probes' histogram" [ "$(status_of "$h")" = 200 -a \
	"$(jget "$(body_of "$h")" "d['run_id'] == $id and d['which'] == 'lat' and sum(c for _, c in d['histogram']) > 0")" = True ]
check "GET /v1/runs/$id/hist/nope: 404" [ "$(status_of "$(http /v1/runs/"$id"/hist/nope)")" = 404 ]
# a timing answer on the real path: re-measured on a miss, each attempt's figure printed. The
# gaps' exact mean, not the p50: a pacer 5 % slow gives >= 52.5 us however loaded, while a
# stall's catch-up (25 us gaps) can move the p50 either way (as in net/test_latency)
gaps_run() {
	"${SEND[@]}" --method af_packet --pps 20k --duration 1 --format json --output "$T/gaps.json" -q
	echo "  gaps: $(python3 -c "import json; g=json.load(open('$T/gaps.json'))['results'][0]['gaps']; print('mean', g['mean_us'], 'p50', g['p50_us'], g['gaps'], g['null_reason'])" 2>&1 | tail -1)"
	result "$T/gaps.json" "abs(r['gaps']['mean_us'] - 50) <= 1"
}
attempts 3 "--pps 20k through the agent: the gaps' mean within 2 % of 50 us" gaps_run

# --dstmac is the agent's unless given; a --dstip the agent does not have is warned about
"${SEND[@]}" --method af_packet --count 100 -v --dstip 198.18.88.9 --format json \
	--output "$T/dst.json" >/dev/null 2>"$T/dst.err"
check "--dstmac defaults to the agent's ($MAC_B)" grep -q -- "--dstmac $MAC_B: the agent's" "$T/dst.err"
check "a --dstip that is not the agent's is warned about" \
	grep -q -- "--dstip 198.18.88.9 is not an address of the agent's $B" "$T/dst.err"
check "... and the agent counts its frames as not for this host: 100 of them, none delivered, an error row" \
	result "$T/dst.json" \
	"r['frames_not_for_host'] == 100 and r['frames_delivered'] == 0 and r['status'] == 'error'"

# the live line shows the agent's delivered rate each second
"${SEND[@]}" --method af_packet --duration 2.5 --pps 50k >/dev/null 2>"$T/live.err"
check "the live line shows delivered from the agent ($(grep -m1 delivered "$T/live.err"))" \
	grep -Eq "delivered +[1-9][0-9.]* [kM]?pps" "$T/live.err"

# --- two senders at once, each with its own run id -----------------------------------------------
"${SEND[@]}" --method af_packet --count $N --pps 40k --format json --output "$T/two1.json" -q \
	2>"$T/two1.err" &
p1=$!
"${SEND[@]}" --method udp_sendto --count $N --pps 40k --format json --output "$T/two2.json" -q \
	2>"$T/two2.err" &
p2=$!
PIDS+=("$p1" "$p2")
wait "$p1"
r1=$?
wait "$p2"
r2=$?
check "two senders at once: both exit 0 ($r1 $(cat "$T/two1.err"); $r2 $(cat "$T/two2.err"))" \
	[ $r1 = 0 -a $r2 = 0 ]
check "two senders at once: af_packet delivered exactly $N" result "$T/two1.json" \
	"r['frames_delivered'] == $N"
check "two senders at once: udp_sendto delivered exactly $N" result "$T/two2.json" \
	"r['frames_delivered'] == $N"
check "two senders at once: their run ids differ" python3 -c "
import json
a, b = (json.load(open('$T/two%d.json' % i))['results'][0]['run_id'] for i in (1, 2))
raise SystemExit(a == b)"

# --- /metrics as Prometheus and OpenMetrics text ------------------------------------------------
cat >"$T/prom.py" <<'PY'
# A small parser of the text exposition formats: every line a comment, a sample or (OpenMetrics)
# the closing # EOF; every sample in a family declared before it, families contiguous, no
# series twice, a histogram's buckets cumulative up to +Inf = _count. Prints "name{labels} value" for the samples, or fails with the line.
import re, sys
om = sys.argv[1] == "om"
text = sys.stdin.read()
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"'
SAMPLE = re.compile(r"^(%s)(\{(%s(,%s)*)?\})? (\S+)$" % (NAME, LABEL, LABEL))
types, done, series, fam = {}, set(), set(), None
lines = text.split("\n")
if lines[-1] != "":
    sys.exit("no newline at the end")
lines = lines[:-1]
if om:
    if lines[-1] != "# EOF":
        sys.exit("OpenMetrics text must end with # EOF")
    lines = lines[:-1]
# the sample names of each type's family (a counter's _total is its family's name in 0.0.4)
SFX = {"histogram": ["_bucket", "_count", "_sum"], "summary": ["", "_count", "_sum"]}
SFX_OM = {"counter": ["_total", "_created"], "info": ["_info"],
          "histogram": ["_bucket", "_count", "_sum", "_created"],
          "summary": ["", "_count", "_sum", "_created"]}
def family_of(name):
    for f, t in types.items():
        sfx = (SFX_OM if om else SFX).get(t, [""])
        if any(name == f + s for s in sfx):
            return f
    return None
hist = {}  # (family, labels but le): {le: count}, and the _count
for n, line in enumerate(lines, 1):
    if line.startswith("#"):
        m = re.match(r"^# (HELP|TYPE) (%s) (.*)$" % NAME, line)
        if not m:
            sys.exit("line %d: bad comment: %s" % (n, line))
        if m.group(1) == "TYPE":
            allowed = ("counter", "gauge", "histogram", "summary", "untyped") + (("info", "unknown", "stateset", "gaugehistogram") if om else ())
            if m.group(3) not in allowed or m.group(2) in types:
                sys.exit("line %d: bad or repeated TYPE: %s" % (n, line))
            if om and m.group(3) == "counter" and m.group(2).endswith("_total"):
                sys.exit("line %d: an OpenMetrics counter family is named without _total" % n)
            types[m.group(2)] = m.group(3)
        continue
    m = SAMPLE.match(line)
    if not m:
        sys.exit("line %d: not a sample: %s" % (n, line))
    try:
        float(m.group(m.lastindex))
    except ValueError:
        sys.exit("line %d: bad value: %s" % (n, line))
    f = family_of(m.group(1))
    if f is None:
        sys.exit("line %d: sample of an undeclared family: %s" % (n, line))
    if f != fam:
        if f in done:
            sys.exit("line %d: family %s is not contiguous" % (n, f))
        if fam:
            done.add(fam)
        fam = f
    key = line.rsplit(" ", 1)[0]
    if key in series:
        sys.exit("line %d: series twice: %s" % (n, key))
    series.add(key)
    if types[f] == "histogram" and m.group(1) in (f + "_bucket", f + "_count"):
        labels = dict(re.findall(LABEL, m.group(3) or ""))
        le = labels.pop("le", None)
        h = hist.setdefault((f, tuple(sorted(labels.items()))), {})
        if m.group(1) == f + "_count":
            h["count"] = float(m.group(m.lastindex))
        elif le is None:
            sys.exit("line %d: a bucket without le: %s" % (n, line))
        else:
            h[float(le)] = float(m.group(m.lastindex))
    print(line)
# a histogram's buckets: cumulative, a +Inf bucket, and that bucket equal to _count
for (f, labels), h in hist.items():
    count = h.pop("count", None)
    les = sorted(h)
    if not les or les[-1] != float("inf"):
        sys.exit("histogram %s%s: no +Inf bucket" % (f, labels))
    if any(h[a] > h[b] for a, b in zip(les, les[1:])):
        sys.exit("histogram %s%s: buckets not cumulative" % (f, labels))
    if count != h[les[-1]]:
        sys.exit("histogram %s%s: _count %s, +Inf bucket %s" % (f, labels, count, h[les[-1]]))
PY
prom=$(http /metrics)
check "/metrics: 200 as text/plain 0.0.4" bash -c "[[ '$(head -2 <<<"$prom" | tr '\n' ' ')' == '200 content-type: text/plain; version=0.0.4'* ]]"
body_of "$prom" >"$T/metrics.txt"
python3 "$T/prom.py" prom <"$T/metrics.txt" >"$T/metrics.samples" 2>"$T/metrics.err"
rc=$?
check "/metrics parses as Prometheus text ($(cat "$T/metrics.err"))" [ $rc = 0 ]
om=$(http --accept "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5" /metrics)
check "/metrics with Prometheus' Accept: OpenMetrics" bash -c "[[ '$(head -2 <<<"$om" | tr '\n' ' ')' == '200 content-type: application/openmetrics-text; version=1.0.0'* ]]"
body_of "$om" >"$T/metrics.om"
python3 "$T/prom.py" om <"$T/metrics.om" >/dev/null 2>"$T/metrics.om.err"
rc=$?
check "... and parses as OpenMetrics text ($(cat "$T/metrics.om.err"))" [ $rc = 0 ]
id=$(python3 -c "import json; print(json.load(open('$T/two1.json'))['results'][0]['run_id'])")
# the run by its label, which /v1/runs/RUN_ID gives: /metrics never shows a run id
label=$(jget "$(body_of "$(http /v1/runs/$id)")" "d['label']")
check "/metrics: the run's frames, $N, by its label ${label:-(none)} from /v1/runs/$id" \
	grep -qx "pktbench_run_frames_total{run=\"$label\"} $N" "$T/metrics.samples"
check "/metrics: no run id in its labels" bash -c "! grep -q 'run_id=\|=\"$id\"' '$T/metrics.txt'"
check "/metrics: the interface counters" grep -q "^pktbench_interface_rx_dropped_total{interface=\"$B\"} 0$" "$T/metrics.samples"
check "/metrics: one run per sender run ($(grep -c '^pktbench_run_frames_total' "$T/metrics.samples") >= $(($(wc -w <<<"$methods") + 3)))" \
	[ "$(grep -c '^pktbench_run_frames_total' "$T/metrics.samples")" -ge $(($(wc -w <<<"$methods") + 3)) ]

# --- malformed and hostile requests --------------------------------------------------------------
ip netns exec "$NTX" python3 - "$RX_IP" $PORT >"$T/hostile.out" 2>&1 <<'PY'
import os, socket, sys
host, port = sys.argv[1], int(sys.argv[2])
def conn(src="198.18.88.1"):
    s = socket.create_connection((host, port), timeout=5, source_address=(src, 0))
    return s
def answer(s):
    data = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
    except (socket.timeout, ConnectionResetError):
        pass
    return data
# garbage bytes
s = conn(); s.sendall(os.urandom(4096) + b"\r\n\r\n"); g = answer(s); s.close()
print("garbage:", g.split(b"\r\n")[0].decode(errors="replace") or "(closed)")
# a request line that is not HTTP
s = conn(); s.sendall(b"HELLO\r\n\r\n"); g = answer(s); s.close()
print("not-http:", g.split(b"\r\n")[0].decode(errors="replace") or "(closed)")
# an oversized header: 64 KiB in one field
s = conn(); s.sendall(b"GET /v1/info HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n")
g = answer(s); s.close()
print("oversized:", g.split(b"\r\n")[0].decode(errors="replace") or "(closed)")
PY
echo "  $(tr '\n' ';' <"$T/hostile.out")"
check "garbage bytes: refused (400 or closed)" grep -qE "^garbage: (HTTP/1.1 400|\(closed\))" "$T/hostile.out"
check "an oversized header: refused (4xx or closed)" grep -qE "^oversized: (HTTP/1.1 4[0-9][0-9]|\(closed\))" "$T/hostile.out"
check "after them, /v1/info still answers" [ "$(status_of "$(http /v1/info)")" = 200 ]

# many idle connections from one address: the others are still served, the idle ones closed
ip netns exec "$NTX" python3 - "$RX_IP" $PORT $TX_IP $TX_IP2 >"$T/idle.out" 2>&1 <<'PY'
import http.client, socket, sys, time
host, port, src, other = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
idle = []
for i in range(40):
    try:
        idle.append(socket.create_connection((host, port), timeout=5, source_address=(src, 0)))
    except OSError as e:
        print("connect %d: %s" % (i, e))
time.sleep(0.5)
c = http.client.HTTPConnection(host, port, timeout=5, source_address=(other, 0))
c.request("GET", "/v1/info")
print("other client while 40 sit idle:", c.getresponse().status)
c.close()
# the agent closes what it refused at once, and the rest after its idle time (10 s)
t0, open_ = time.time(), list(idle)
while open_ and time.time() - t0 < 15:
    for s in list(open_):
        s.settimeout(0.05)
        try:
            if s.recv(1) == b"":
                open_.remove(s)
        except socket.timeout:
            pass
        except OSError:
            open_.remove(s)
print("still open after %.0f s: %d" % (time.time() - t0, len(open_)))
PY
echo "  $(tr '\n' ';' <"$T/idle.out")"
check "40 idle connections from one address: another client is served" \
	grep -q "while 40 sit idle: 200" "$T/idle.out"
check "... and the idle connections are closed within 15 s" grep -q "still open after .* s: 0$" "$T/idle.out"
check "... and /v1/info answers the first address again" [ "$(status_of "$(http /v1/info)")" = 200 ]

# --- lab and agent: the same fields --------------------------------------------------------------
"$PB" --method udp_sendto --count 1000 --format json --output "$T/lab.json" -q 2>"$T/lab.err"
check "the lab run and the agent run have the same fields" python3 -c "
import json
a, b = (json.load(open(f))['results'][0] for f in ('$T/lab.json', '$T/udp_sendto.json'))
raise SystemExit(sorted(a) != sorted(b))"

# --- SIGTERM: exit 0, detached -----------------------------------------------------------------
agent_term
check "SIGTERM: exit 0 ($AGENT_RC; $(tail -1 "$T/agent.err"))" [ "$AGENT_RC" = 0 ]
check "SIGTERM: nothing attached to $B ($(xdp_of_b))" [ "$(xdp_of_b)" = none ]

# --- the agent SIGKILLed mid-run -----------------------------------------------------------------
agent_start
check "agent up again" [ $? = 0 ]
t0=$(date +%s.%N)
"${SEND[@]}" --method af_packet --duration 4 --pps 100k --format json --output "$T/kill.json" \
	-q 2>"$T/kill.err" &
pid=$!
PIDS+=("$pid")
# mid-run: once the agent's interface has taken 20000 of the run's frames (0.2 s at 100k)
rx0=$(if_counter "$NRX" "$B" rx_packets)
check "the run reaches the agent before it is killed" \
	wait_until 10 counter_above "$NRX" "$B" rx_packets $((rx0 + 20000))
kill -KILL "$AGENT_PID"
wait "$AGENT_PID" 2>/dev/null
AGENT_PID=
wait "$pid"
rc=$?
dt=$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")
echo "  $(head -c 300 "$T/kill.err")"
check "SIGKILLed agent: the sender exits 1 ($rc) after $dt s (4 s run + at most 6 s)" \
	[ $rc = 1 -a "${dt%.*}" -lt 10 ]
check "SIGKILLed agent: the row says delivered unknown, and why" result "$T/kill.json" \
	"r['status'] == 'error' and 'delivered unknown' in r['reason'] and 'agent $URL' in r['receiver_error'] and r['frames_delivered'] is None"
check "SIGKILLed agent: nothing attached after ($(xdp_of_b))" [ "$(xdp_of_b)" = none ]

# --- a program already on the interface ---------------------------------------------------------
if [ ! -f "$OBJ" ]; then
	echo "note: no $OBJ (built without libxdp): the --force cases are not run"
else
	ip -n "$NRX" link set dev "$B" xdpdrv obj "$OBJ" sec xdp
	before=$(xdp_of_b)
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT >/dev/null \
		2>"$T/refuse.err"
	rc=$?
	check "a program there ($before): refused without --force, exit 1 ($rc)" [ $rc = 1 ]
	check "the refusal says so and names --force ($(head -1 "$T/refuse.err"))" \
		grep -q -- "already has an XDP program.*--force" "$T/refuse.err"
	check "the same program is still there" [ "$(xdp_of_b)" = "$before" ]
	agent_start --force --duration 8
	rc=$?
	check "--force: the agent runs ($(cat "$T/agent.err"))" [ $rc = 0 ]
	check "--force: ours during ($(xdp_of_b))" bash -c "[[ '$(xdp_of_b)' == *' pb_receiver' ]]"
	"${SEND[@]}" --method udp_sendto --count 1000 --format json --output "$T/force.json" -q \
		2>"$T/force.err"
	check "--force: counts while it replaces" result "$T/force.json" "r['frames_delivered'] == 1000"
	wait "$AGENT_PID"
	rc=$?
	AGENT_PID=
	check "--duration: the agent ends by itself, exit 0 ($rc; $(tail -1 "$T/agent.err"))" [ $rc = 0 ]
	check "--force: the same program is back ($(xdp_of_b), was $before)" [ "$(xdp_of_b)" = "$before" ]
	ip -n "$NRX" link set dev "$B" xdpdrv off
fi

agent_lab_del
check "test namespaces removed" bash -c "! ip netns list | grep -q -e '$NTX' -e '$NRX'"
check "no veth left" bash -c "! ip -br link | grep -q -e '$A' -e '$B'"
finish
