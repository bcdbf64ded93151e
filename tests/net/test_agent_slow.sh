# SPDX-License-Identifier: MIT
# Slow readers against the receive agent (issue 28, item 1), from addresses of the senders'
# namespace (198.18.90.10-189), with a 1 KB receive buffer, reading nothing:
#   - the deadline: 16 of them ask for /metrics (made large by run-id churn: an answer does not
#     fit the kernel's socket buffers), within the caps and the bytes the agent queues: each is
#     cut (a reset: what was queued is dropped, not left to the kernel) 5 s after asking, 4 to
#     6.5 s seen from here;
#   - room: a sender (af_packet, 1000 pps, 3 s, from 198.18.90.1) is running when 160 of them,
#     8 from each of 20 addresses (more than the agent's 128 in all), each pipelining 100
#     GET /v1/info so that it holds a small answer mid-way, press for 4 s, each one cut opened
#     again at once: a new client (198.18.90.9) every 0.25 s is answered within 2 s, and the
#     sender ends exit 0, status ok, every frame delivered (its keep-alive connection is
#     served, never cut);
#   - room, wide: 160 of them from 160 addresses (.30-.189), one each, pipelining as above,
#     for 3 s: no address holds the most, so the one cut for a newcomer is the oldest, mid-answer
#     or not; new clients (198.18.90.9) as above;
#   - memory: 160 of them ask for /metrics for 3 s: new clients as above, and the agent's RSS
#     grows by at most 16 MB (the 8 MB of answers it queues at once, the connections' own
#     memory, 128 x 32 KB, and 4 MB of allocator slack), where a copy of /metrics per
#     connection held is 128 times its size (40 MB and more).
# The times are timing answers: each is re-measured up to 3 times (attempts).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
PROBE=$(dirname "$PB")/rx_probe
[ -x "$PROBE" ] || { echo "SKIP: no $PROBE (the build makes it)"; exit 77; }

agent_lab sl 90 &&
	for i in 9 $(seq 10 189); do echo "addr add 198.18.90.$i/24 dev $A"; done | ip -n "$NTX" -batch -
check "namespaces $NTX, $NRX with $A/$B, 181 client addresses" [ $? = 0 ]
PORT=9310
URL=http://$RX_IP:$PORT
MAC_B=$(ip netns exec "$NRX" cat "/sys/class/net/$B/address")

http() { # http PATH [TIMEOUT]: "STATUS BYTES SECONDS" from the senders' address
	ip netns exec "$NTX" python3 -c '
import http.client, sys, time
t0 = time.time()
try:
    c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=float(sys.argv[4]),
                                   source_address=("198.18.90.1", 0))
    c.request("GET", sys.argv[3])
    r = c.getresponse()
    print(r.status, len(r.read()), "%.3f" % (time.time() - t0))
except OSError as e:
    print("%s %.3f" % (e, time.time() - t0))' $RX_IP $PORT "$1" "${2:-5}" 2>&1
}
rss() { awk '/^VmRSS/ {print $2}' "/proc/$AGENT_PID/status" 2>/dev/null || echo 0; }

ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT --duration 120 \
	>"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
info_up() { [ "$(http /v1/info 1 | cut -d' ' -f1)" = 200 ]; }
wait_until 5 info_up
rc=$?
check "the agent answers on $URL ($(cat "$T/agent.err"))" [ $rc = 0 ]

# /metrics large enough that an answer does not fit the kernel's socket buffers: the
# receiver's table full of run ids (3000 sent, one frame each)
ip netns exec "$NTX" "$PROBE" churn "$NTX" "$A" "$MAC_B" 5a000000 1 3000 >"$T/churn.out" 2>&1
read -r st mbytes _ <<<"$(http /metrics)"
check "premise: /metrics is $mbytes bytes (status $st; at least 200000)" \
	[ "$st" = 200 -a "${mbytes:-0}" -ge 200000 ]

cat >"$T/slow.py" <<'PY'
# slow.py HOST PORT deadline: 16 readers of /metrics (2 addresses), each until the agent cuts
#   it (at most 8 s); exit 0 if each was cut between 4 and 6.5 s after its request
# slow.py HOST PORT press KIND SECS [wide]: 160 slow readers (20 addresses, 8 each; wide: 160
#   addresses, one each), each one cut opened again at once, for SECS. KIND metrics: each asks
#   for /metrics; pipelined: for /v1/info 100 times in a row, so each holds a small answer
#   mid-way (the kernel's buffers full of those before it). Meanwhile a new client
#   (198.18.90.9) asks for /v1/info every 0.25 s; exit 0 if each was answered within 2 s
import socket, sys, threading, time
host, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ONE = b"GET %s HTTP/1.1\r\nHost: " + host.encode() + b"\r\n\r\n"
REQ = {"metrics": ONE % b"/metrics", "pipelined": (ONE % b"/v1/info") * 100}

def alive(s):  # tcpi_state 1, ESTABLISHED: a cut (a reset) ends it with bytes still unread
    try:
        return s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] == 1
    except OSError:
        return False

def open_one(src, req):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before connect: the window
    s.bind((src, 0))
    s.settimeout(2)
    try:
        s.connect((host, port))
        s.sendall(req)
    except OSError:
        pass
    return [s, src, time.time()]

if mode == "deadline":
    conns = [open_one("198.18.90.%d" % (10 + i % 2), REQ["metrics"]) for i in range(16)]
    lives = {}
    while len(lives) < len(conns) and time.time() - conns[0][2] < 8:
        for i, c in enumerate(conns):
            if i not in lives and not alive(c[0]):
                lives[i] = time.time() - c[2]
        time.sleep(0.05)
    t = sorted(lives.values())
    print("deadline: %d of %d slow readers cut, after %s s" % (
        len(t), len(conns), " ".join("%.1f" % x for x in t) or "-"))
    sys.exit(0 if len(t) == len(conns) and 4.0 <= t[0] and t[-1] <= 6.5 else 1)

req, hold = REQ[sys.argv[4]], float(sys.argv[5])
probes, stop = [], threading.Event()

def prober():  # a new client every 0.25 s: the seconds its answer took (3: none)
    while not stop.wait(0.25):
        t0 = time.time()
        try:
            s = socket.create_connection((host, port), timeout=3, source_address=("198.18.90.9", 0))
            s.sendall(ONE % b"/v1/info")
            ok = s.recv(12).startswith(b"HTTP/1.1 200")
            s.close()
        except OSError:
            ok = False
        probes.append(time.time() - t0 if ok else 3.0)

wide = sys.argv[6:] == ["wide"]
conns = [open_one("198.18.90.%d" % (30 + i if wide else 10 + i % 20), req) for i in range(160)]
th = threading.Thread(target=prober)
th.start()
end, opened, cut = time.time() + hold, len(conns), 0
while time.time() < end:
    for c in conns:
        if time.time() >= end:
            break
        if not alive(c[0]):
            c[0].close()
            c[:] = open_one(c[1], req)
            opened += 1
            cut += 1
    time.sleep(0.1)
stop.set()
th.join()
late = [p for p in probes if p > 2.0]
print("press: %d slow readers (%s%s) opened in %.0f s, %d cut by the agent, %d open at the end; "
      "%d new clients, %d not answered within 2 s, the slowest %.3f s"
      % (opened, sys.argv[4], ", wide" if wide else "", hold, cut, sum(alive(c[0]) for c in conns), len(probes), len(late),
         max(probes or [0])))
sys.exit(1 if late or not probes else 0)
PY
slow() { ip netns exec "$NTX" python3 "$T/slow.py" $RX_IP $PORT "$@"; }

# --- the deadline: 16 slow readers, within the caps and the bytes queued, each cut at 5 s
attempts 3 "16 slow readers of /metrics each cut 5 s after asking (4 to 6.5 s)" slow deadline

# --- room: a sender runs, then 160 slow readers of small answers (pipelined), more than the
# 128 in all, each holding its connection mid-answer: room is made among them for new clients
# and the sender's keep-alive connection
ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL" \
	--method af_packet --pps 1000 --duration 3 --format json --output "$T/run.json" -q \
	2>"$T/run.err" &
SENDER=$!
PIDS+=("$SENDER")
sender_up() { ip netns exec "$NTX" ss -tnH state established "dst $RX_IP:$PORT" | grep -q .; }
wait_until 5 sender_up
check "the sender's connection to the agent is up" sender_up
attempts 3 "with 160 slow readers (pipelined) pressing, every new client answered within 2 s" \
	slow press pipelined 4
wait "$SENDER"
rc=$?
row=$(python3 -c "
import json; r = json.load(open('$T/run.json'))['results'][0]
print(r['status'], r['frames_sent'], r['frames_delivered'], r['reason'] or '')" 2>&1)
read -r rst rsent rdeliv _ <<<"$row"
check "the sender, running as they pressed: exit 0, status ok, delivered = sent (exit $rc; $row; $(head -c 300 "$T/run.err"))" \
	[ $rc = 0 -a "$rst" = ok -a "$rsent" = "$rdeliv" ]

# --- room, from 160 addresses (one connection each: no address holds the most): the one cut
# for a newcomer is the oldest, whether it waits for a request or is mid-answer
attempts 3 "with 160 slow readers (pipelined) from 160 addresses pressing, every new client answered within 2 s" \
	slow press pipelined 3 wide

# --- memory: 160 slow readers of /metrics: what the agent holds for them is bounded
rss0=$(rss)
( # the agent's RSS every 100 ms while they press
	while [ ! -e "$T/pressed" ]; do
		rss
		sleep 0.1
	done >"$T/rss"
) &
PIDS+=($!)
attempts 3 "with 160 slow readers of /metrics pressing, every new client answered within 2 s" \
	slow press metrics 3
touch "$T/pressed"
peak=$(sort -n "$T/rss" | tail -1)
check "the agent's RSS: $rss0 kB before them, at most ${peak:-?} kB while they pressed (16384 kB more at most)" \
	[ $((${peak:-999999999} - rss0)) -le 16384 ]
got=$(http /v1/info)
check "after them, GET /v1/info: 200 ($got)" [ "${got%% *}" = 200 ]

agent_end
finish
