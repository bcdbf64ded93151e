# SPDX-License-Identifier: MIT
# The receive agent as an HTTP server, played against from many addresses of a namespace of the
# test's own (198.18.89.0/24; clients .1 and .10-.29): every request gets a status (404 for what
# is not there, 405, 400 for a malformed target or Host, 414 for a long query, 431 for a long
# header, 406), /metrics follows Accept by RFC 9110, HTTP/1.1 keeps the connection and answers
# pipelined requests in order, a bad Content-Length (-1, huge) gets one 400 or 413 and a zero one
# ("00") keeps the connection and the request after it, a sender's run uses one TCP connection
# and an agent's 500 shows its reason; slowloris (64 connections from 8 addresses) is cut at the
# request deadline and 300 idle connections from 9 or 20 addresses lock nobody out. Every loop
# is bounded in count and time.
. "$(dirname "$0")/lib.sh"

agent_lab ah 89 &&
	for i in $(seq 10 29); do ip -n "$NTX" addr add 198.18.89.$i/24 dev "$A" || exit 1; done
check "namespaces $NTX, $NRX with $A/$B, 21 client addresses" [ $? = 0 ]
PORT=9310
URL=http://$RX_IP:$PORT

cat >"$T/h.py" <<'PY'
import http.client, json, os, select, socket, sys, time
HOST, PORT, ME = "198.18.89.2", int(sys.argv[2]), "198.18.89.1"
MANY = ["198.18.89.%d" % i for i in range(10, 30)]
def ok(what): print("ok: " + what)
def fail(what): print("FAIL: " + what)
def check(what, cond): ok(what) if cond else fail(what)

def conn(src=ME, timeout=5):
    return socket.create_connection((HOST, PORT), timeout=timeout, source_address=(src, 0))

def read_response(f, head=False):
    """(status, {header: value}, body) of one answer from a buffered reader; None: closed."""
    line = f.readline(65537)
    if not line:
        return None
    parts = line.split(None, 2)
    status, hdrs = int(parts[1]), {}
    while True:
        h = f.readline(65537)
        if h in (b"\r\n", b"\n", b""):
            break
        k, _, v = h.decode().partition(":")
        hdrs[k.strip().lower()] = v.strip()
    n = 0 if head else int(hdrs.get("content-length", 0))
    return status, hdrs, f.read(n)

def raw(req, src=ME, timeout=5):
    """The first answer to bytes sent on a new connection: (status, headers, body) or None."""
    s = conn(src, timeout)
    try:
        s.sendall(req)
        return read_response(s.makefile("rb"), req.startswith(b"HEAD"))
    except (socket.timeout, ConnectionError):
        return None
    finally:
        s.close()

def get(path, accept=None, method="GET", src=ME, timeout=5):
    c = http.client.HTTPConnection(HOST, PORT, timeout=timeout, source_address=(src, 0))
    c.request(method, path, headers={"Accept": accept} if accept else {})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, r.getheader("Content-Type") or "", body

def status_of(a):
    return a[0] if a else "no answer"

def statuses():
    for path, want in (("/v1/runs/7/hist/nope", 404), ("/v1/runs/1/", 404), ("/v1/runs/abc", 400),
                       ("/v1/runs/%37", 200), ("/v1/info%00junk", 400)):
        st = get(path)[0]
        check("GET %s: %d (%s)" % (path, want, st), st == want)
    for method, path, want in (("POST", "/nope", 404), ("POST", "/v1/info", 405)):
        st = get(path, method=method)[0]
        check("%s %s: %d (%s)" % (method, path, want, st), st == want)
    a = raw(b"GET /v1/info HTTP/1.1\r\n\r\n")
    check("HTTP/1.1 without Host: 400 (%s)" % status_of(a), status_of(a) == 400)
    a = raw(b"GET /v1/info HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
    check("HTTP/1.1 with two Host headers: 400 (%s)" % status_of(a), status_of(a) == 400)
    a = raw(b"GET /v1/info HTTP/1.0\r\n\r\n")
    check("HTTP/1.0 without Host: 200 (%s)" % status_of(a), status_of(a) == 200)
    a = raw(b"GET /v1/info HTTP/1.1\r\nHost: a\r\n\r\n")
    check("HTTP/1.1 with one Host: 200 (%s)" % status_of(a), status_of(a) == 200)

def negotiate():
    for accept, want in (("application/openmetrics-text;q=0", "text/plain"),
                         ("APPLICATION/OPENMETRICS-TEXT", "application/openmetrics-text"),
                         ("text/plain;q=0.5, application/openmetrics-text;q=0.4", "text/plain"),
                         ("application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                          "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
                          "application/openmetrics-text"),
                         ("*/*", "text/plain"), ("application/json", "text/plain"),
                         ("text/plain;q=0", 406)):
        st, ct, _ = get("/metrics", accept=accept)
        got = ct.split(";")[0] if st == 200 else st
        check("/metrics with Accept '%s': %s (%s)" % (accept, want, got), got == want)

def oversized():
    q = "&".join("p%d=1" % i for i in range(300))
    a = raw(b"GET /metrics?" + q.encode() + b" HTTP/1.1\r\nHost: a\r\n\r\n")
    check("GET /metrics with 300 query parameters: 414 (%s)" % status_of(a), status_of(a) == 414)
    q = "&".join("a" for i in range(5000))
    a = raw(b"GET /metrics?" + q.encode() + b" HTTP/1.1\r\nHost: a\r\n\r\n")
    check("GET /metrics with 5000 query parameters: 414 (%s)" % status_of(a), status_of(a) == 414)
    a = raw(b"GET /v1/" + b"a" * 20000 + b" HTTP/1.1\r\nHost: a\r\n\r\n")
    check("a 20000-byte path: 414 (%s)" % status_of(a), status_of(a) == 414)
    for n in (16000, 30000, 65536):
        a = raw(b"GET /v1/info HTTP/1.1\r\nHost: a\r\nX-Big: " + b"a" * n + b"\r\n\r\n")
        check("one %d-byte header: 431 (%s)" % (n, status_of(a)), status_of(a) == 431)
    a = raw(b"GET /v1/info HTTP/1.1\r\nHost: a\r\n" + b"X-A: b\r\n" * 2000 + b"\r\n")
    check("2000 headers: 431 (%s)" % status_of(a), status_of(a) == 431)
    check("after them, /v1/info: 200", get("/v1/info")[0] == 200)

def keepalive():
    c = http.client.HTTPConnection(HOST, PORT, timeout=5, source_address=(ME, 0))
    ports, closes = set(), []
    for path in ("/v1/info", "/v1/runs/1", "/nope", "/metrics", "/v1/runs/2"):
        c.request("GET", path)
        ports.add(c.sock.getsockname()[1])
        r = c.getresponse()
        r.read()
        closes.append(r.getheader("Connection"))
    c.close()
    check("5 requests on one HTTP/1.1 connection: one connection (%d), no close (%s)"
          % (len(ports), closes), len(ports) == 1 and "close" not in closes)
    s = conn()
    reqs = [("GET", "/v1/runs/1"), ("HEAD", "/v1/info"), ("GET", "/nope"), ("GET", "/v1/runs/2")]
    s.sendall(b"".join(b"%s %s HTTP/1.1\r\nHost: a\r\n\r\n" % (m.encode(), p.encode())
                       for m, p in reqs))
    f, got = s.makefile("rb"), []
    try:
        for m, _ in reqs:
            a = read_response(f, m == "HEAD")
            if not a:
                break
            got.append(a)
    except (socket.timeout, ConnectionError):
        pass
    s.close()
    sts = [a[0] for a in got]
    ids = [json.loads(a[2]).get("run_id") for a in got if a[0] == 200 and a[2]]
    check("4 pipelined requests: 4 answers in order (%s, run ids %s)" % (sts, ids),
          sts == [200, 200, 404, 200] and ids == [1, 2])

def content_length():
    # a bad Content-Length: one answer (400 or 413), its status line and headers once
    for cl in (b"-1", b"99999999999999999999999", b"18446744073709551616", b"1x"):
        s = conn(timeout=2)
        s.sendall(b"GET /v1/info HTTP/1.1\r\nHost: a\r\nContent-Length: " + cl + b"\r\n\r\n")
        got = b""
        try:
            while True:
                d = s.recv(65536)
                if not d:
                    break
                got += d
        except (socket.timeout, ConnectionError):
            pass
        s.close()
        lines = got.split(b"\r\n")
        sts = [l.split()[1].decode() for l in lines if l.startswith(b"HTTP/1.")]
        check("Content-Length: %s: one answer, 400 or 413 (status lines %s, %d bytes)"
              % (cl.decode(), sts, len(got)), len(sts) == 1 and sts[0] in ("400", "413"))
    # a zero body however written: the connection kept, the pipelined next request answered
    for cl in (b"0", b"00", b"000"):
        s = conn()
        s.sendall(b"GET /v1/runs/1 HTTP/1.1\r\nHost: a\r\nContent-Length: " + cl + b"\r\n\r\n"
                  b"GET /v1/runs/2 HTTP/1.1\r\nHost: a\r\n\r\n")
        f, got = s.makefile("rb"), []
        try:
            for _ in range(2):
                a = read_response(f)
                if not a:
                    break
                got.append(a)
            s.sendall(b"GET /v1/runs/3 HTTP/1.1\r\nHost: a\r\n\r\n")
            a = read_response(f)
            if a:
                got.append(a)
        except (socket.timeout, ConnectionError):
            pass
        s.close()
        ids = [json.loads(a[2]).get("run_id") for a in got if a[0] == 200 and a[2]]
        closes = [a[1].get("connection") for a in got]
        check("Content-Length: %s and a pipelined request, then a third: run ids %s, "
              "Connection %s" % (cl.decode(), ids, closes), ids == [1, 2, 3])

def served(what, timeout=3):
    t0 = time.time()
    try:
        st = get("/v1/info", timeout=timeout)[0]
    except OSError as e:
        st = str(e)
    check("%s: a new client is served (%s after %.1f s)" % (what, st, time.time() - t0), st == 200)

def slowloris():
    # 64 connections from 8 addresses, each sending one byte of a request every 3 s, for 8 s
    req = b"GET /v1/info HTTP/1.1\r\nHost: a\r\nX-Slow: " + b"a" * 100
    socks = {}
    for src in MANY[:8]:
        for _ in range(8):
            s = socket.socket()
            s.setblocking(False)
            s.bind((src, 0))
            s.connect_ex((HOST, PORT))
            socks[s] = 0
    t0, closed, answered, next_byte, checks = time.time(), {}, 0, 0, [1.5, 4.5, 7.0]
    while time.time() - t0 < 8.5:
        now = time.time() - t0
        if now >= next_byte:
            for s, i in socks.items():
                if s in closed:
                    continue
                try:
                    s.send(req[i:i + 1])
                    socks[s] = i + 1
                except BlockingIOError:
                    pass
                except OSError:
                    closed[s] = now
            next_byte = now + 3
        if checks and now >= checks[0]:
            served("slowloris at %.1f s (%d of 64 closed)" % (checks.pop(0), len(closed)))
            continue
        r, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.1)
        for s in r:
            try:
                d = s.recv(4096)
            except OSError:
                d = b""
            if d.startswith(b"HTTP/1.1 200"):
                answered += 1
            if not d:
                closed[s] = time.time() - t0
    last = max(closed.values()) if closed else 0
    check("slowloris: all 64 cut by the agent within 8.5 s (%d, the last at %.1f s), none answered"
          % (len(closed), last), len(closed) == 64 and answered == 0)
    for s in socks:
        s.close()

def idle300(naddrs=9):
    socks = []
    for i in range(300):
        s = socket.socket()
        s.setblocking(False)
        s.bind((MANY[i % naddrs], 0))
        s.connect_ex((HOST, PORT))
        socks.append(s)
    time.sleep(0.5)
    served("300 idle connections from %d addresses" % naddrs)
    for s in socks:
        s.close()

def idle300_20():
    # 20 addresses at their cap of 8 would be more than the 128 in all
    idle300(20)

globals()[sys.argv[1]]()
PY
py() { # py CHECKS: the script's ok/FAIL lines counted as ours
	local rc
	ip netns exec "$NTX" python3 "$T/h.py" "$1" $PORT >"$T/py.out" 2>&1
	rc=$?
	cat "$T/py.out"
	PASSES=$((PASSES + $(grep -c '^ok:' "$T/py.out")))
	FAILS=$((FAILS + $(grep -c '^FAIL:' "$T/py.out")))
	[ $rc = 0 ] || fail "$1: the script failed ($rc)"
}
info_ok() { ip netns exec "$NTX" python3 -c "
import http.client
c = http.client.HTTPConnection('$RX_IP', $1, timeout=2)
c.request('GET', '/v1/info')
r = c.getresponse()
print(r.read().decode()) if r.status == 200 else exit(1)" 2>/dev/null; }

ip netns exec "$NRX" "$PB" receive --iface "$B" --listen $RX_IP:$PORT --duration 120 \
	>"$T/agent.out" 2>"$T/agent.err" &
AGENT_PID=$!
PIDS+=("$AGENT_PID")
for _ in $(seq 50); do
	info_ok $PORT >"$T/info.json" && break
	sleep 0.1
done
check "agent up ($(cat "$T/agent.err"))" [ -s "$T/info.json" ]

py statuses
py negotiate
py oversized
py keepalive
py content_length

# a sender's run: one TCP connection (ActiveOpens of its namespace), and the agent's frames
# outside the row's window are only that connection's opening and closing (the counter is
# read from the agent's own namespace, over lo: those reads are not frames on the veth)
opens() { ip netns exec "$NTX" awk '/^Tcp:/ && $6 ~ /^[0-9]+$/ {print $6}' /proc/net/snmp; }
foreign() { ip netns exec "$NRX" python3 -c "
import http.client, json
c = http.client.HTTPConnection('$RX_IP', $PORT, timeout=2)
c.request('GET', '/v1/runs/0')
print(json.loads(c.getresponse().read())['interface']['foreign_frames'])"; }
f0=$(foreign)
o0=$(opens)
ip netns exec "$NTX" "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP --receiver "$URL" \
	--method udp_sendto --duration 3 --pps 1000 --format json --output "$T/run.json" -q \
	2>"$T/run.err"
rc=$?
o1=$(opens)
f1=$(foreign)
check "a 3 s sender run: exit 0 ($rc $(cat "$T/run.err"))" [ $rc = 0 ]
check "... over one TCP connection to the agent ($((o1 - o0)) opened)" [ $((o1 - o0)) = 1 ]
row=$(python3 -c "import json; print(json.load(open('$T/run.json'))['results'][0]['frames_foreign'])")
# before the window: SYN, ACK, GET /v1/info, its ACK, the first read; after: the last
# answer's ACK, FIN, ACK (7 connections would add 4 each)
check "... foreign frames beyond the row's $row: $((f1 - f0 - row)) (at most 10)" \
	[ $((f1 - f0 - row)) -le 10 ]

py slowloris
py idle300
py idle300_20
check "after all that, /v1/info still answers" info_ok $PORT >/dev/null

# an agent whose run reads fail with 500: the sender's row carries the agent's reason
ip netns exec "$NRX" python3 - "$RX_IP" 9311 "$T/info.json" >"$T/fake.out" 2>&1 <<'PY' &
import http.server, sys
info = open(sys.argv[3], "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path == "/v1/info"
        body = info if ok else b'{"error":"cannot read the receiver: No such device"}'
        self.send_response(200 if ok else 500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), H)
s.timeout = 1
for _ in range(30):
    s.handle_request()
PY
FAKE=$!
PIDS+=("$FAKE")
for _ in $(seq 30); do info_ok 9311 >/dev/null && break; sleep 0.1; done
ip netns exec "$NTX" timeout 20 "$PB" --iface "$A" --srcip $TX_IP --dstip $RX_IP \
	--receiver http://$RX_IP:9311 --method udp_sendto --count 100 --format json \
	--output "$T/500.json" -q 2>"$T/500.err"
reason=$(python3 -c "import json; print(json.load(open('$T/500.json'))['results'][0]['receiver_error'])" 2>&1)
check "an agent's 500 reaches the row with its reason ($reason)" \
	grep -q "500.*No such device" <<<"$reason"
kill -KILL "$FAKE" 2>/dev/null
wait "$FAKE" 2>/dev/null

agent_end
finish
