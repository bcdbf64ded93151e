# SPDX-License-Identifier: MIT
# A bystander cannot inflate a run's count nor move it into another test (issue 28, item 3).
# An agent in one namespace, a sender of a named test (--test-id, --shard 0/2) in another
# (198.18.93.0/24). While the sender runs, a bystander on the senders' side reads /metrics and
# forges, from everything it shows, 500 signed frames for every run id it can make of a label
# and an announcement moving that run into a test of its own; and it announces a run of its
# own as shard 7/3. The sender's row is never `ok` with delivered above sent: delivered is
# exactly sent (the forged frames are not the run's) or the row is an error naming the extra
# frames; the run stays in its test (/v1/tests/UUID), the bystander's test holds nothing of
# it, and the impossible shard is not kept. A sender asked for --shard 7/3 is refused.
. "$(dirname "$0")/lib.sh"

agent_lab fg 93
check "namespaces $NTX, $NRX with $A/$B" [ $? = 0 ]
PORT=9310
URL=http://$RX_IP:$PORT
UUID=2f1c7a4e-5b3d-4e8a-9c61-0d7e4b2a9f$(printf '%02x' $(($$ % 256)))
FORGER_UUID=0badc0de-0000-4000-8000-00000000f00d # the test the bystander moves runs into
SHARD_UUID=0badc0de-0000-4000-8000-000000007f03	 # where it announces shard 7/3
MAC_B=$(ip netns exec "$NRX" cat "/sys/class/net/$B/address")

# GET PATH from the senders' namespace: the body, or nothing
get() {
	ip netns exec "$NTX" python3 -c '
import sys, urllib.request
with urllib.request.urlopen("http://%s:%s%s" % tuple(sys.argv[1:4]), timeout=5) as r:
    sys.stdout.write(r.read().decode())' $RX_IP $PORT "$1" 2>/dev/null
}

ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT >"$T/agent.out" \
	2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
answers() { get /v1/info | grep -q '"instance"'; }
for _ in $(seq 50); do
	answers && break
	sleep 0.1
done
check "the agent answers on $URL ($(cat "$T/agent.err"))" answers

# --- the sender, and the bystander that reads /metrics while it runs ---------------------------
ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL" \
	--method af_packet --pps 50 --duration 4 --test-id "$UUID" --shard 0/2 -q --format json \
	-o "$T/run.json" >"$T/run.out" 2>"$T/run.err" &
SENDER=$!
PIDS+=("$SENDER")
# The bystander: every label value of a run series is tried as a run id (a decimal one as it
# is, 16 hex digits as either half); a UUID seen is a test it can announce into.
ip netns exec "$NTX" env PBNET="$(cd "$(dirname "$0")" && pwd)" python3 - "$A" "$MAC_B" $TX_IP \
	$RX_IP $PORT "$FORGER_UUID" "$SHARD_UUID" >"$T/forge.out" 2>&1 <<'PY'
import os, random, re, sys, time, urllib.request
ifname, mac_b, src, dst, port, forger_uuid, shard_uuid = sys.argv[1:8]
def metrics():
    with urllib.request.urlopen("http://%s:%s/metrics" % (dst, port), timeout=5) as r:
        return r.read().decode()
end = time.time() + 3
series = []
while time.time() < end and not series:
    series = re.findall(r"^pktbench_run_frames_total\{([^}]*)\} (\d+)$", metrics(), re.M)
    time.sleep(0.05)
if not series:
    sys.exit("no run on /metrics within 3 s")
time.sleep(0.5)  # the run well under way: its announcement is in
ids = set()
for labels, _ in series:
    for name, val in re.findall(r'(\w+)="([^"]*)"', labels):
        if re.fullmatch(r"\d{1,10}", val) and int(val) < 2**32:
            ids.add(int(val))
        elif re.fullmatch(r"[0-9a-f]{16}", val):
            ids.update((int(val[:8], 16), int(val[8:], 16)))
print("saw: " + " ".join(l for l, _ in series))
sys.path.insert(0, os.environ["PBNET"])
from pbframe import Sender
f = Sender(ifname, mac_b, src, dst)
s, signed, announce = f.s, f.signed, f.announce
sent = 0
for run in sorted(ids):
    for _ in range(3):
        s.send(announce(run, forger_uuid, 1, 2))
    for i in range(500):
        s.send(signed(run))
        sent += 1
        if i % 50 == 49:
            time.sleep(0.002)  # the veth's queue is not the question here
# a run of the bystander's own, announced as shard 7 of 3
own = random.randrange(1, 2**32)
for _ in range(3):
    s.send(announce(own, shard_uuid, 7, 3))
for _ in range(10):
    s.send(signed(own))
    sent += 1
print("forged %d frames for %d run ids (%s), and run %d as shard 7/3" %
      (sent, len(ids), " ".join(map(str, sorted(ids))), own))
print("FORGED %d" % sent)
print("IDS %d" % len(ids))
PY
rc=$?
check "the bystander read /metrics and forged ($(tr '\n' ' ' <"$T/forge.out" | head -c 400))" \
	[ $rc = 0 ]
FORGED=$(sed -n 's/^FORGED //p' "$T/forge.out")
IDS=$(sed -n 's/^IDS //p' "$T/forge.out")
wait "$SENDER"
rc=$?
check "the sender ends (exit $rc; $(head -c 300 "$T/run.err"))" [ $rc = 0 -o $rc = 1 ]
# the premise: every forged frame reached the agent (counted under some run id)
check "every frame reached the agent: its runs hold the sender's and the ${FORGED:-?} forged" \
	python3 - "$T/run.json" "${FORGED:-0}" "$(get /metrics)" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))["results"][0]
total = sum(int(v) for v in re.findall(r"^pktbench_run_frames_total\{[^}]*\} (\d+)$", sys.argv[3], re.M))
print("runs hold %d frames; sent %d + forged %s" % (total, r["frames_sent"], sys.argv[2]))
sys.exit(0 if int(sys.argv[2]) >= 500 and total == r["frames_sent"] + int(sys.argv[2]) else 1)
PY
summary=$(python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
print('%s, sent %d, delivered %s, %.0f %%: %s' % (r['status'], r['frames_sent'],
      r['frames_delivered'], r['delivered_pct'] or 0, r['reason'] or ''))" "$T/run.json" 2>&1)
check "the row is never ok with delivered above sent ($summary)" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
sys.exit(0 if r['frames_sent'] > 0 and not (r['status'] == 'ok' and
         r['frames_delivered'] > r['frames_sent']) else 1)" "$T/run.json"
check "delivered is exactly sent, or the row is an error naming the extra frames ($summary)" \
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
extra = (r['frames_delivered'] or 0) - r['frames_sent']
sys.exit(0 if (r['status'] == 'ok' and extra == 0) or
         (r['status'] == 'error' and extra > 0 and str(extra) in (r['reason'] or '')) else 1)" \
	"$T/run.json"
get "/v1/tests/$UUID" >"$T/test.json"
check "the run stays in its test: /v1/tests/UUID has shard 0/2, one run, every frame sent ($(head -c 300 "$T/test.json"))" \
	python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
t = json.load(open(sys.argv[2]))
sys.exit(0 if t['runs'] == 1 and list(t['shards']) == ['0/2'] and
         t['shards']['0/2']['frames'] >= r['frames_sent'] else 1)" "$T/run.json" "$T/test.json"
get "/v1/tests/$FORGER_UUID" >"$T/forger.json"
check "... and the bystander's test holds its ${IDS:-?} forged runs' frames, none of the sender's ($(head -c 300 "$T/forger.json"))" \
	python3 -c "
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))['frames'] == 500 * int(sys.argv[2]) else 1)" \
	"$T/forger.json" "${IDS:-0}"
get "/v1/tests/$SHARD_UUID" >"$T/shard.json"
check "an announced shard 7/3 is not kept: its test shows no run ($(head -c 300 "$T/shard.json"))" \
	python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if t['runs'] == 0 and not t['shards'] else 1)" "$T/shard.json"
ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL" \
	--method af_packet --count 10 --test-id "$UUID" --shard 7/3 -q >/dev/null 2>"$T/bad.err"
rc=$?
check "a sender asked for --shard 7/3: exit 2, one line ($rc: $(cat "$T/bad.err"))" \
	[ $rc = 2 -a "$(wc -l <"$T/bad.err")" = 1 ]
finish
