# SPDX-License-Identifier: MIT
# `pktbench merge` of what `kubectl logs` gives: three senders of one test (--shard i/3,
# af_packet, 1 s each) against an agent over a veth pair of the test's own (198.18.92.0/24),
# each asked a rate it cannot reach, so that each prints its "reached ... of the ...
# packets/s asked" warning on stderr beside its JSON on stdout (-q --format json). From their
# real output, six logs: stdout and stderr in one file (2>&1), the three concatenated; the
# same as `kubectl logs -f --prefix --timestamps` of three pods (lines interleaved pod by pod,
# each stderr line put inside its pod's document, where a container runtime may put it);
# that log on standard input (merge -); and time-stamped as podman logs -t and kubectl logs
# --timestamps --prefix give them, where a line the runtime read in two parts carries a
# second stamp in its middle. Each merges with exact counts: the shards' sums, and
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

# The same logs time-stamped as a runtime keeps them: the container's output read a chunk at
# a time (conmon reads up to 8 KiB, whatever the pipe holds), each read's lines stamped, and a
# line across two reads stamped again where the second read begins, on the same line:
# `podman logs -t` of the three one after the other (reads of 509 bytes), and `kubectl logs
# --timestamps --prefix` of three pods by line (the kubelet stamps each part; reads of 211)
python3 - "$T" <<'PY'
import sys
d = sys.argv[1]
def parted(text, read, pre, i):
    out, bol, t = [], True, 0
    for k, ch in enumerate(text):
        if bol or k % read == 0:
            out.append((pre if bol else "") + "2026-12-01T16:30:0%d.%09dZ " % (i, t))
            t += 1
        out.append(ch)
        bol = ch == "\n"
    return "".join(out).splitlines(True)
pods = [parted(open("%s/s%d.log" % (d, i)).read(), 509, "", i) for i in range(3)]
open(d + "/podman-t.log", "w").write("".join(l for p in pods for l in p))
pods = [parted(open("%s/s%d.log" % (d, i)).read(), 211,
               "[pod/pktbench-senders-%d-q7x%d/sender] " % (i, i), i) for i in range(3)]
with open(d + "/kubectl-t.log", "w") as o:
    for n in range(max(len(p) for p in pods)):
        o.write("".join(p[n] for p in pods if n < len(p)))
PY
check "stamped logs hold lines in two parts ($(grep -c '[0-9]Z .*[0-9]Z ' "$T/podman-t.log"), $(grep -c '[0-9]Z .*[0-9]Z ' "$T/kubectl-t.log"))" \
	[ "$(grep -c '[0-9]Z .*[0-9]Z ' "$T/podman-t.log")" -ge 3 -a "$(grep -c '[0-9]Z .*[0-9]Z ' "$T/kubectl-t.log")" -ge 3 ]

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
for log in cat prefix podman-t kubectl-t; do
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
