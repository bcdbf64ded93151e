# SPDX-License-Identifier: MIT
# The agent's /metrics as Prometheus reads it, and the agent's interface as it changes. An agent
# in one namespace of the test's own, senders in another (198.18.86.0/24):
# 1. a steady --pps run: two scrapes 100 ms apart differ (each scrape reads the counters), and
#    a real Prometheus scraping every 1 s in the agent's namespace gives
#    rate(pktbench_run_frames_total[5s]) within 2 % of the sender's delivered pps at every
#    steady point (what was delivered when, by a witness polling /metrics: a busy machine's
#    sender is not exactly steady);
# 2. run-id churn (a new run id every frame, far more than the receiver's LRU holds): every
#    scrape parses as OpenMetrics (prometheus_client), one series per run (by its label), and
#    pktbench_receiver_runs is the number of distinct runs shown;
# 3. the interface renamed: the API follows it (name, addresses, counts, /metrics);
#    deleted: the agent ends with one line that says so and a non-zero exit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
PROBE=$(dirname "$PB")/rx_probe

# the senders' end A in $NTX, the agent's end B in $NRX
agent_lab am 86
check "namespaces $NTX, $NRX with $A/$B" [ $? = 0 ]
PROM_PID=
trap '[ -n "$PROM_PID" ] && kill -KILL "$PROM_PID" 2>/dev/null; agent_lab_del; cleanup' EXIT
B2=pbamR$$ # $B renamed
B2=${B2:0:15}
PORT=9310
PROM_PORT=9090
URL=http://$RX_IP:$PORT
MAC_B=$(ip netns exec "$NRX" cat "/sys/class/net/$B/address")

# GET PATH from the senders' namespace: "STATUS" on the first line, then the body
http() {
	ip netns exec "$NTX" python3 -c '
import http.client, sys
c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
c.request("GET", sys.argv[3])
r = c.getresponse()
print(r.status)
sys.stdout.write(r.read().decode())' $RX_IP $PORT "$1" 2>&1
}
result() { # result FILE EXPR: r = results[0]
	python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; sys.exit(0 if ($2) else 1)" "$1"
}
jget() { python3 -c "import json,sys; d=json.loads(sys.argv[1]); print($2)" "$1" 2>/dev/null; }

agent_start() { # until /v1/info answers (at most 5 s)
	ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT "$@" \
		>"$T/agent.out" 2>"$T/agent.err" &
	AGENT_PID=$!
	PIDS+=("$AGENT_PID")
	for _ in $(seq 50); do
		[ "$(http /v1/info | head -1)" = 200 ] && return 0
		kill -0 "$AGENT_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
SEND=(ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL")

agent_start
rc=$?
check "the agent answers on $URL ($(cat "$T/agent.err"))" [ $rc = 0 ]

# --- 1. a steady run, scraped every second by Prometheus ----------------------------------------
HAVE_PROM=1
command -v prometheus >/dev/null || HAVE_PROM=
if [ -n "$HAVE_PROM" ]; then
	cat >"$T/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: pktbench
    static_configs:
      - targets: ['$RX_IP:$PORT']
EOF
	# its own storage, listening only on the agent's namespace address
	ip netns exec "$NRX" prometheus --config.file="$T/prom.yml" \
		--storage.tsdb.path="$T/tsdb" --web.listen-address=$RX_IP:$PROM_PORT \
		--log.level=warn >"$T/prom.log" 2>&1 &
	PROM_PID=$!
	PIDS+=("$PROM_PID")
	# until it has scraped the agent once (at most 20 s), so it sees the run from its start
	ip netns exec "$NRX" python3 - $RX_IP $PROM_PORT <<'PY'
import json, sys, time, urllib.request
end = time.time() + 20
while time.time() < end:
    try:
        u = "http://%s:%s/api/v1/query?query=up" % (sys.argv[1], sys.argv[2])
        with urllib.request.urlopen(u, timeout=1) as r:
            if any(x["value"][1] == "1" for x in json.load(r)["data"]["result"]):
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit(1)
PY
	check "Prometheus in $NRX scrapes the agent" [ $? = 0 ]
fi
PPS=10000
# A witness of what arrived when, on the same clock as Prometheus' (wall time): the run's
# frames from /metrics every 50 ms, each at the middle of its request. The sender's
# pace is not steady on a busy machine; this is what it was. The sender starts once the
# witness polls (its "ready"), and the witness finds the run in /metrics itself: started
# after the sender (a CI machine's python took seconds to start), it had nothing at the first
# steady point. /metrics shows runs by label, never by run id (which a forger would need), so
# the witness reads the run's count there, by its label.
ip netns exec "$NTX" python3 - $RX_IP $PORT >"$T/witness.out" 2>&1 <<'PY' &
import http.client, json, re, sys, time
def get(path):
    c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
    c.request("GET", path)
    return c.getresponse().read().decode()
def run_label():
    m = re.search(r'^pktbench_run_frames_total\{run="([0-9a-f]{16})"', get("/metrics"), re.M)
    return m and m.group(1)
run = run_label()
print("ready", flush=True)
while not run:
    time.sleep(0.02)
    run = run_label()
print("run=" + run, flush=True)
while True:
    t0 = time.time()
    frames = int(re.search(r'^pktbench_run_frames_total\{run="%s"\} (\d+)$' % run,
                           get("/metrics"), re.M).group(1))
    print("%.4f %d" % ((t0 + time.time()) / 2, frames), flush=True)
    time.sleep(0.05)
PY
WITNESS=$!
PIDS+=("$WITNESS")
for _ in $(seq 200); do grep -q '^ready$' "$T/witness.out" && break; sleep 0.05; done
"${SEND[@]}" --method udp_sendto --pps $PPS --duration 11 --format json \
	--output "$T/steady.json" -q 2>"$T/steady.err" &
SENDER=$!
PIDS+=("$SENDER")
# the run's id, as soon as the agent shows it (bounded, not a fixed sleep)
run_id() { RUN=$(http /metrics | sed -n 's/^pktbench_run_frames_total{run="\([0-9a-f]*\)"}.*/\1/p' | head -1); [ -n "$RUN" ]; }
wait_until 10 run_id
sleep 1.5
# two scrapes 100 ms apart, three times: the run's frames went up by ~1000 each time
ip netns exec "$NTX" python3 - $RX_IP $PORT >"$T/pairs.out" 2>&1 <<'PY'
import http.client, re, sys, time
def frames():
    c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
    c.request("GET", "/metrics")
    body = c.getresponse().read().decode()
    return sum(int(v) for v in re.findall(r"^pktbench_run_frames_total\{[^}]*\} (\d+)$", body, re.M))
same = 0
for _ in range(3):
    a = frames()
    time.sleep(0.1)
    b = frames()
    print("%d -> %d" % (a, b))
    same += a == b
    time.sleep(0.25)
sys.exit(1 if same else 0)
PY
rc=$?
check "two scrapes 100 ms apart differ ($(tr '\n' ' ' <"$T/pairs.out"))" [ $rc = 0 ]
wait "$SENDER"
rc=$?
check "the steady sender exits 0 (run $RUN; $(cat "$T/steady.err"))" [ $rc = 0 -a -n "$RUN" ]
sleep 1.5 # a scrape after the last frame
kill -KILL "$WITNESS" 2>/dev/null
wait "$WITNESS" 2>/dev/null
check "the witness followed that run ($(grep -m1 -v '^ready$' "$T/witness.out" | head -c 200))" \
	grep -qx "run=$RUN" "$T/witness.out"
# the sender's pps in steady state, for the record: the median of its per-second counts
SENDER_PPS=$(python3 -c "
import json, statistics, sys
s = json.load(open(sys.argv[1]))['results'][0]['per_second']
d = [(b['sent'] - a['sent']) / (b['t'] - a['t']) for a, b in zip(s, s[1:])][1:-1]
print('%.0f' % statistics.median(d))" "$T/steady.json" 2>/dev/null)
if [ -z "$HAVE_PROM" ]; then
	echo "SKIP: prometheus is not installed: rate() at a 1 s scrape not checked (Debian package prometheus)"
else
	# Every point whose 5 s window lies inside the sending window (the first non-zero sample
	# to the last increase) is steady state. Its rate() is the increase between the first and
	# the last sample in the window over their distance in time; what the sender delivered
	# between those two times, by the witness, must be that within 2 %.
	ip netns exec "$NRX" python3 - $RX_IP $PROM_PORT "${SENDER_PPS:-0}" "$T/witness.out" \
		>"$T/rate.out" 2>&1 <<'PY'
import bisect, json, sys, urllib.parse, urllib.request
base = "http://%s:%s/api/v1/" % (sys.argv[1], sys.argv[2])
wit = [tuple(map(float, l.split())) for l in open(sys.argv[4]) if len(l.split()) == 2]
def q(kind, **args):
    with urllib.request.urlopen(base + kind + "?" + urllib.parse.urlencode(args), timeout=5) as r:
        return json.load(r)["data"]["result"]
def at(t): # frames delivered at wall time t, by the witness
    i = bisect.bisect(wit, (t, float("inf")))
    if i == 0 or i == len(wit):
        raise SystemExit("the witness has nothing at %.2f (it saw %.2f to %.2f)" %
                         (t, wit[0][0], wit[-1][0]) if wit else "the witness saw nothing")
    (t0, f0), (t1, f1) = wit[i - 1], wit[i]
    return f0 + (f1 - f0) * (t - t0) / (t1 - t0)
series = q("query", query="pktbench_run_frames_total[60s]")
if len(series) != 1:
    sys.exit("want one run's series, got %d" % len(series))
vals = [(float(t), float(v)) for t, v in series[0]["values"]]
first = next(t for t, v in vals if v > 0)
last = max(t for (t, v), (_, w) in zip(vals[1:], vals) if v > w)
start, end = first + 6, last - 1
pts = q("query_range", query="rate(pktbench_run_frames_total[5s])", start=start, end=end,
        step=1) if end - start >= 2 else []
rates, truths, worst = [], [], 0.0
for t, v in (pts[0]["values"] if pts else []):
    t = float(t)
    win = [(s, w) for s, w in vals if t - 5 < s <= t]
    (s1, _), (s2, _) = win[0], win[-1]
    truth = (at(s2) - at(s1)) / (s2 - s1)
    rates.append(float(v))
    truths.append(truth)
    worst = max(worst, abs(float(v) - truth) / truth)
print("rate[5s] %s; delivered %s pps; worst %.1f %%; sender %s pps" %
      (" ".join("%.0f" % r for r in rates), " ".join("%.0f" % r for r in truths), 100 * worst,
       sys.argv[3]))
# how far each sample's count lies from what the witness had at its timestamp, in ms of sending
lag = ["%.0f" % ((at(s) - v) / truths[0] * 1000) for s, v in vals if start - 5 < s <= end] if truths else []
print("raw samples:", " ".join("%.0f" % v for _, v in vals), "; behind the witness (ms):", " ".join(lag))
sys.exit(0 if len(rates) >= 3 and worst <= 0.02 else 1)
PY
	rc=$?
	check "Prometheus at 1 s: every steady rate(pktbench_run_frames_total[5s]) within 2 % of what the sender delivered ($(head -1 "$T/rate.out"))" [ $rc = 0 ]
	tail -n +2 "$T/rate.out"
	[ $rc = 0 ] || cat "$T/prom.log"
	kill -TERM "$PROM_PID" 2>/dev/null
	wait "$PROM_PID" 2>/dev/null
	PROM_PID=
fi

# --- 2. run-id churn while scraping ------------------------------------------------------------
# Debian's python3-prometheus-client is for the system's python3, which may not be the first
PYOM=
for py in python3 /usr/bin/python3; do
	$py -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && PYOM=$py && break
done
if [ -z "$PYOM" ]; then
	echo "SKIP: python3 prometheus_client missing: churn scrapes not parsed (Debian package python3-prometheus-client)"
else
	# 200k new run ids a second, whatever the machine's speed (unpaced, a quiet machine's
	# churn took a whole CPU and left the agent two scrapes in 3 s)
	ip netns exec "$NTX" "$PROBE" churn "$NTX" "$A" "$MAC_B" 10000000 4 200000 >"$T/churn.out" 2>&1 &
	CHURN=$!
	PIDS+=("$CHURN")
	sleep 0.3
	ip netns exec "$NTX" $PYOM - $RX_IP $PORT >"$T/scrapes.out" 2>&1 <<'PY'
import collections, http.client, sys, time
from prometheus_client.openmetrics.parser import text_string_to_metric_families
scrapes, bad, most = 0, 0, 0
end = time.time() + 3.2
while time.time() < end:
    c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=5)
    c.request("GET", "/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"})
    body = c.getresponse().read().decode()
    scrapes += 1
    why = None
    try:
        fams = {f.name: f for f in text_string_to_metric_families(body)}
        series = collections.Counter((s.name, tuple(sorted(s.labels.items())))
                                     for f in fams.values() for s in f.samples)
        dups = sum(n - 1 for n in series.values() if n > 1)
        ids = {s.labels["run"] for s in fams["pktbench_run_frames"].samples}
        runs = fams["pktbench_receiver_runs"].samples[0].value
        most = max(most, len(ids))
        if dups:
            why = "%d duplicate series" % dups
        elif runs != len(ids):
            why = "pktbench_receiver_runs %d, %d distinct runs shown" % (runs, len(ids))
    except Exception as e:
        why = "does not parse: %s" % str(e)[:200]
    if why:
        bad += 1
        print("scrape %d: %s" % (scrapes, why))
print("%d of %d scrapes bad; up to %d runs shown" % (bad, scrapes, most))
sys.exit(1 if bad or scrapes < 5 else 0)
PY
	rc=$?
	wait "$CHURN"
	check "run-id churn ($(cat "$T/churn.out") frames, one run id each): every scrape parses as OpenMetrics, one series per run ($(tail -1 "$T/scrapes.out"))" [ $rc = 0 ]
	[ $rc = 0 ] || head -5 "$T/scrapes.out"
fi

# --- 3. the interface renamed, then deleted -----------------------------------------------------
ip -n "$NRX" link set "$B" down && ip -n "$NRX" link set "$B" name "$B2" &&
	ip -n "$NRX" link set "$B2" up
check "$B renamed $B2" [ $? = 0 ]
info=$(http /v1/info)
check "after the rename /v1/info: 200, the new name ($(head -c 200 <<<"$info"))" \
	[ "$(head -1 <<<"$info")" = 200 -a "$(jget "$(tail -n +2 <<<"$info")" "d['interface']")" = "$B2" ]
check "... and the interface's address" \
	[ "$(jget "$(tail -n +2 <<<"$info")" "'$RX_IP' in str(d['addresses'])")" = True ]
run=$(http /v1/runs/1)
check "after the rename /v1/runs/1: 200 ($(head -c 200 <<<"$run"))" [ "$(head -1 <<<"$run")" = 200 ]
met=$(http /metrics)
labelled() { [ "$(head -1 <<<"$met")" = 200 ] && grep -q "interface=\"$B2\"" <<<"$met"; }
check "after the rename /metrics: 200, labelled $B2 ($(head -c 200 <<<"$met"))" labelled
"${SEND[@]}" --method udp_sendto --count 1000 --format json --output "$T/renamed.json" -q \
	2>"$T/renamed.err"
rc=$?
check "a sender through the renamed interface: exit 0, 1000 delivered ($(cat "$T/renamed.err"))" \
	result "$T/renamed.json" "$rc == 0 and r['frames_delivered'] == 1000"
ip -n "$NRX" link del "$B2"
t0=$(date +%s.%N)
for _ in $(seq 30); do
	kill -0 "$AGENT_PID" 2>/dev/null || break
	sleep 0.1
done
kill -KILL "$AGENT_PID" 2>/dev/null # still running: it did not notice
wait "$AGENT_PID" 2>/dev/null
rc=$?
dt=$(python3 -c "import time; print('%.1f' % (time.time() - $t0))")
AGENT_PID=
check "the interface deleted: the agent ends within 3 s with a non-zero exit (exit $rc after $dt s)" \
	[ $rc != 0 -a $rc != 137 ]
check "... with a line that says so ($(tail -1 "$T/agent.err"))" grep -qi "deleted" "$T/agent.err"
finish
