# SPDX-License-Identifier: MIT
# deploy/grafana/pktbench.json against a real Prometheus (Debian's) scraping a real agent
# each second during a run: an agent and a Prometheus in one namespace, two senders of one
# test (--shard 0/2 and 1/2, af_packet, 5 s, --latency) in another, over a veth pair of the test's own
# (198.18.91.0/24). Mid-run, every panel's query, as the dashboard has it (Grafana's
# variables put in: the test's label, every shard, the agents' job, a 4 s rate interval),
# returns a series, each "by shard" panel both shards, the delivered rates are above 0 and
# the probes' latency percentiles between 0 and 1 s (one host: the clocks are common);
# the template variables' label_values find the test, its shards and the job. After the run
# the "Delivered frames, test" panel says exactly what the agent's /v1/tests/UUID says.
. "$(dirname "$0")/lib.sh"
need prometheus prometheus
top=$(cd "$(dirname "$0")/../.." && pwd)
DASH=$top/deploy/grafana/pktbench.json
PORT=9317
PROM_PORT=9097
UUID=6f9619ff-8b86-4011-b42d-$(printf '%012x' $$)
LABEL=$(printf %s "$UUID" | sha256sum | cut -c1-16)
PROM_PID=
agent_lab db 91
rc=$? # before the trap below, whose own status $? would read
trap '[ -n "$PROM_PID" ] && kill -KILL "$PROM_PID" 2>/dev/null; agent_lab_del; cleanup' EXIT
check "namespaces $NTX, $NRX with $A/$B" [ $rc = 0 ]
URL=http://$RX_IP:$PORT
ip netns exec "$NRX" "$PB" receive --iface "$B" --listen "$RX_IP:$PORT" >"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")

cat >"$T/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: pktbench-agent
    static_configs:
      - targets: ['$RX_IP:$PORT']
EOF
# its own storage, listening only on the agent's namespace address
ip netns exec "$NRX" prometheus --config.file="$T/prom.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address=$RX_IP:$PROM_PORT --log.level=warn >"$T/prom.log" 2>&1 &
PROM_PID=$!
PIDS+=("$PROM_PID")
# q.py EXPR...: Prometheus' answer to each (instant, now), as JSON lines
cat >"$T/q.py" <<PY
import json, sys, urllib.parse, urllib.request
for e in sys.argv[1:]:
    u = "http://$RX_IP:$PROM_PORT/api/v1/query?" + urllib.parse.urlencode({"query": e})
    with urllib.request.urlopen(u, timeout=5) as r:
        print(json.dumps(json.load(r)["data"]["result"]))
PY
up() { ip netns exec "$NRX" python3 "$T/q.py" 'up{job="pktbench-agent"} == 1' 2>/dev/null | grep -q value; }
for _ in $(seq 100); do up && break; sleep 0.2; done
check "Prometheus scrapes the agent each second" up

START_NS=$(($(date +%s%N) + 2000000000))
for i in 0 1; do
	ip netns exec "$NTX" "$PB" --iface "$A" --receiver "$URL" --srcip "$TX_IP" --dstip "$RX_IP" \
		--method af_packet --pps 20000 --duration 5 --flows 8 --latency --shard $i/2 --test-id "$UUID" \
		--start-at "$START_NS" -q --format json -o "$T/s$i.json" 2>"$T/s$i.err" &
	SP[$i]=$!
	PIDS+=("${SP[$i]}")
done
# mid-run: 3.5 s into the 5 s window, three scrapes at least inside a 4 s rate interval
sleep $(((START_NS - $(date +%s%N)) / 1000000000 + 3)).5
# panels.py DASHBOARD PHASE: each panel's queries with Grafana's variables put in, run and checked
cat >"$T/panels.py" <<'PY'
import json, subprocess, sys
dash, phase, label, q = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
subst = {"$test": label, "$shard": ".*", "$job": ".+", "$__rate_interval": "4s", "$__range": "5m"}
def put(e):
    for k in sorted(subst, key=len, reverse=True):
        e = e.replace(k, subst[k])
    return e
def query(exprs):
    out = subprocess.run(q + exprs, capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines()]
d = json.load(open(dash))
fails = 0
if phase == "run":
    for p in d["panels"]:
        exprs = [put(t["expr"]) for t in p["targets"]]
        for t, e, res in zip(p["targets"], exprs, query(exprs)):
            shards = sorted(r["metric"].get("shard", "") for r in res)
            vals = [float(r["value"][1]) for r in res]
            bad = not res or not vals
            if "{{shard}}" in t.get("legendFormat", "") and shards != ["0/2", "1/2"]:
                bad = True
            if p["title"].startswith("Delivered") and not all(v > 0 for v in vals):
                bad = True
            if p["title"].startswith("Probe latency") and not all(0 < v < 1 for v in vals):
                bad = True
            if p["title"].startswith("Probes lost") and not all(0 <= v <= 100 for v in vals):
                bad = True
            fails += bad
            print("%s: %s: %d series %s" % ("FAIL" if bad else "ok", p["title"], len(res),
                  ", ".join("%s=%.4g" % (r["metric"].get("shard") or r["metric"].get("instance", ""), v)
                            for r, v in zip(res, vals))[:160]))
    for v in d["templating"]["list"]:
        if v["type"] != "query":
            continue
        sel = put(v["query"]["query"]).replace("label_values(", "", 1).rstrip(")")
        metric, name = sel.rsplit(",", 1)
        res = query(["group by (%s) (%s)" % (name.strip(), metric)])[0]
        got = sorted(r["metric"].get(name.strip(), "") for r in res)
        want = {"test": [label], "shard": ["0/2", "1/2"], "job": ["pktbench-agent"]}[v["name"]]
        bad = not set(want) <= set(got)
        fails += bad
        print("%s: variable $%s: %s" % ("FAIL" if bad else "ok", v["name"], got))
else:
    p = next(p for p in d["panels"] if p["title"] == "Delivered frames, test")
    print(query([put(p["targets"][0]["expr"])])[0][0]["value"][1])
sys.exit(1 if fails else 0)
PY
Q=(ip netns exec "$NRX" python3 "$T/q.py")
python3 "$T/panels.py" "$DASH" run "$LABEL" "${Q[@]}" >"$T/panels.out" 2>&1
rc=$?
cat "$T/panels.out"
check "every panel's query returns its series mid-run ($(grep -c '^ok' "$T/panels.out") ok)" [ $rc = 0 ]
rcs=""
for i in 0 1; do
	wait "${SP[$i]}"
	rcs="$rcs$?"
done
check "the senders exit 0 ($rcs; $(cat "$T"/s?.err | head -c 200))" [ "$rcs" = 00 ]
sleep 2 # a scrape after the last frame
http_get() { ip netns exec "$NTX" python3 -c "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())" "$1"; }
total=$(http_get "$URL/v1/tests/$UUID" | python3 -c 'import json,sys; print(json.load(sys.stdin)["frames"])')
panel=$(python3 "$T/panels.py" "$DASH" end "$LABEL" "${Q[@]}")
check "after the run, 'Delivered frames, test' ($panel) = the agent's /v1/tests frames ($total)" [ -n "$total" -a "$panel" = "$total" ]
kill -TERM "$PROM_PID"
wait "$PROM_PID" 2>/dev/null
PROM_PID=
agent_end
finish
