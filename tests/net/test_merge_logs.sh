# SPDX-License-Identifier: MIT
# `pktbench merge` of what `kubectl logs` gives: three senders of one test (--shard i/3,
# af_packet, 1 s each) against an agent over a veth pair of the test's own (198.18.92.0/24),
# each asked a rate it cannot reach, so that each prints its "reached ... of the ...
# packets/s asked" warning on stderr beside its JSON on stdout (-q --format json). From their
# real output, four logs: stdout and stderr in one file (2>&1), the three concatenated; the
# same as `kubectl logs -f --prefix --timestamps` of three pods (lines interleaved pod by pod,
# each stderr line put inside its pod's document, where a container runtime may put it);
# that log on standard input (merge -). Each merges with exact counts: the shards' sums, and
# delivered = the agent's /v1/tests/UUID frames. A log cut inside a document is refused.
. "$(dirname "$0")/lib.sh"

PORT=9314
UUID=6f9619ff-8b86-4011-b42d-$(printf '%012x' $$)
agent_lab ml 92
check "namespaces $NTX, $NRX with $A/$B" [ $? = 0 ]
URL=http://$RX_IP:$PORT
ip netns exec "$NRX" "$PB" receive --iface "$B" --listen "$RX_IP:$PORT" >"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
get() { # get PATH: the agent's answer's body, from the senders' namespace
	agent_get "$NTX" "$URL" "$1"
}
for _ in $(seq 50); do get /v1/info >/dev/null 2>&1 && break; sleep 0.1; done
check "the agent answers" get /v1/info

# one after the other: a shard's count is the agent's by its run id, whenever it ran
for i in 0 1 2; do
	ip netns exec "$NTX" "$PB" --iface "$A" --receiver "$URL" --srcip "$TX_IP" --dstip "$RX_IP" \
		--method af_packet --pps 50M --duration 1 --shard $i/3 --test-id "$UUID" \
		-q --format json >"$T/s$i.log" 2>&1
	echo "shard $i: exit $?" >>"$T/rcs"
done
# the sender says it fell short (exit 0 or 1: a shard behind its pace is still a result)
check "three senders ran ($(tr '\n' ' ' <"$T/rcs"))" [ "$(grep -c 'exit [01]$' "$T/rcs")" = 3 ]
check "each log holds the sender's warning on stderr: $(grep -h -m1 'reached' "$T/s0.log" | cut -c1-90)..." \
	[ "$(grep -l 'reached [0-9]* of the 16666667 packets/s asked' "$T"/s?.log | wc -l)" = 3 ]
not_json() { ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
check "a sender's log is not a JSON document (else this test proves nothing)" not_json "$T/s0.log"

cat "$T"/s0.log "$T"/s1.log "$T"/s2.log >"$T/cat.log"
# `kubectl logs -f --prefix --timestamps` of three pods: their lines taken in turn; each
# stderr line goes into the middle of its pod's document (the runtime reads stdout and stderr
# apart, and mixes them line by line)
python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
pods = []
for i in range(3):
    lines = open("%s/s%d.log" % (d, i)).read().splitlines()
    doc = [l for l in lines if l == "{" or l.startswith((" ", "}"))]
    err = [l for l in lines if l not in doc]
    mid = len(doc) // 2
    pre = "[pod/pktbench-senders-%d-q7x%d/sender] " % (i, i)
    pods.append([pre + "2026-12-01T16:30:0%d.%09dZ " % (i, n) + l
                 for n, l in enumerate(doc[:mid] + err + doc[mid:])])
with open(d + "/prefix.log", "w") as o:
    for n in range(max(len(p) for p in pods)):
        for p in pods:
            if n < len(p):
                o.write(p[n] + "\n")
PY

get "/v1/tests/$UUID" >"$T/test.json"
echo "agent: $(cat "$T/test.json")"
# sums LOG MERGED: the merged row against the shards' rows and the agent's count
sums() {
	python3 - "$T" "$1" "$2" <<'PY'
import json, sys
d, log, merged = sys.argv[1:]
rows = []
for i in range(3):  # the document's lines: from "{" to "}", the stderr lines around them left
    lines = open("%s/s%d.log" % (d, i)).read().splitlines()
    a = lines.index("{")
    rows.append(json.loads("\n".join(lines[a:lines.index("}", a) + 1]))["results"][0])
m = json.load(open(merged))["results"][0]
t = json.load(open(d + "/test.json"))
print("%s: shards sent %s, delivered %s; merged %d sent, %d delivered, %d senders; agent %s" % (
    log, [r["frames_sent"] for r in rows], [r["frames_delivered"] for r in rows],
    m["frames_sent"], m["frames_delivered"], m["senders"], t.get("frames")))
sys.exit(0 if m["senders"] == 3 and m["shards_merged"] == 3 and
         m["frames_sent"] == sum(r["frames_sent"] for r in rows) and
         m["frames_delivered"] == sum(r["frames_delivered"] for r in rows) and
         m["frames_delivered"] == t["frames"] and t["runs"] == 3 and m["frames_sent"] > 0 and
         len(m["behind_pace"]) == 3 else 1)
PY
}
for log in cat prefix; do
	"$PB" merge "$T/$log.log" --format json >"$T/$log.json" 2>"$T/$log.err"
	rc=$?
	# exit 0: every row ok and every shard there (behind its pace is said, not an error)
	check "merge $log.log: exit $rc ($(head -c 200 "$T/$log.err"))" [ $rc = 0 ]
	check "merge $log.log: exact counts" sums $log "$T/$log.json"
done
"$PB" merge - --format json <"$T/prefix.log" >"$T/stdin.json" 2>"$T/stdin.err"
check "merge - (the prefixed log on stdin): exact counts" sums stdin "$T/stdin.json"
"$PB" merge "$T/prefix.log"
python3 -c 'import json,sys; print([b["file"] for b in json.load(open(sys.argv[1]))["results"][0]["behind_pace"]])' "$T/prefix.json"

head -c -200 "$T/cat.log" >"$T/cut.log"
"$PB" merge "$T/cut.log" >/dev/null 2>"$T/cut.err"
rc=$?
cut_refused() { [ $rc = 2 ] && [ "$(wc -l <"$T/cut.err")" = 1 ] && grep -q "cut.log:.*does not end" "$T/cut.err"; }
check "a log cut inside a document: exit $rc, one line ($(cat "$T/cut.err"))" cut_refused
agent_end
finish
