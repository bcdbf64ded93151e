# SPDX-License-Identifier: MIT
# Shared by the net tests: root check, a scratch dir, and the promise that nothing of a lab
# outlives a test. Each test runs pktbench, which builds and removes its own lab; the trap
# below kills only the pktbench processes this test started and checks for leftovers.
set -u
PB=${1:?usage: $0 path/to/pktbench}
T=$(mktemp -d /tmp/pbtest.XXXXXX)
PIDS=()
FAILS=0
PASSES=0

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: net tests need root (namespaces, veth, XDP)"
	exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to read the JSON (Debian package python3)"; exit 77; }
# The first python3 on PATH may be a version manager's (pyenv's shim and interpreter: 0.7-0.9 s
# a start here, Debian's 0.1 s). A test starts hundreds to read its JSON (test_lab_dut: 140 s
# against 40), so Debian's goes first when it is there, for this test and what it starts.
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir -p "$T/bin" && ln -s /usr/bin/python3 "$T/bin/python3" && export PATH="$T/bin:$PATH"
fi

# need PROGRAM PACKAGE: the whole test is skipped, naming the Debian package, without PROGRAM
# (a capability's probe is skip_cap or skip_part: caps.sh)
need() { command -v "$1" >/dev/null || { echo "SKIP: $1 not found (Debian package $2)"; exit 77; }; }
. "$(dirname "${BASH_SOURCE[0]}")/caps.sh"

lab_namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep '^pktbench-' | sort; }
NS_BEFORE=$(lab_namespaces)

# A lab whose owner still runs holds its lock: it is somebody's live run, not a leftover.
lab_is_live() {
	local id=${1#pktbench-}
	id=${id%-tx}
	id=${id%-rx}
	id=${id%-dut}
	[ -e "/run/pktbench/$id.lock" ] && ! flock -n "/run/pktbench/$id.lock" true
}

cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	# anything this test left is removed here, so a failure cannot poison later tests
	for ns in $(new_namespaces); do
		echo "cleanup: removing leftover namespace $ns"
		ip netns del "$ns"
	done
	rm -rf "$T"
}
trap cleanup EXIT

ok() { PASSES=$((PASSES + 1)); echo "ok: $*"; }
fail() { FAILS=$((FAILS + 1)); echo "FAIL: $*"; }
check() { # check "what" command...
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# attempts N "what" command...: a timing known answer on the real path (a tbf's rate, a paced
# run's gaps, a start's lateness). The command measures afresh and checks; it is run up to N
# times, ok at the first pass, a failure only when every attempt missed. Load only ever makes
# a sender later or slower, so a fault in the code misses every attempt and a neighbour's
# burst rarely does. The command prints its own figure, so every attempt's is in the log.
# The number of attempts is fixed: whatever the machine is doing, a miss in all of them fails.
attempts() {
	local n=$1 what=$2 i
	shift 2
	for ((i = 1; i <= n; i++)); do
		if "$@"; then
			ok "$what (attempt $i of $n)"
			return 0
		fi
		echo "miss: $what: attempt $i of $n"
	done
	fail "$what: all $n attempts missed"
	return 1
}

# Labs that appeared during this test and whose owner is gone (there must be none).
new_namespaces() {
	local ns
	for ns in $(comm -13 <(echo "$NS_BEFORE") <(lab_namespaces)); do
		lab_is_live "$ns" || echo "$ns"
	done
}
no_leftovers() {
	local left
	left=$(new_namespaces)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
	[ -z "$(ip -o link show type veth 2>/dev/null | grep -E 'pb[tr]-')" ] || return 1
	return 0
}

# json FILE PYTHON-EXPR: evaluates the expression with d = the parsed JSON; exit 0 if truthy.
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

# mrow FILE METHOD PYTHON-EXPR-ON-r: json on FILE's row of METHOD (a run of several methods)
mrow() { json "$1" "(lambda r: $3)(next(x for x in d['results'] if x['method'] == '$2'))"; }

# The methods the kernel does not tell of a drop at a DUT's input (docs/accounting.md): a test
# that counts what crosses a DUT paces them far below what it forwards (untold M: M is one).
# 10 kpps, not 20: io_uring_gso's bursts at 20 kpps overflowed the DUT's 1000-frame backlog in
# 1 run of 2 here (1003-2004 frames), at 10 kpps in none of 2.
UNTOLD_METHODS="xdp_live gso_mmsg gso io_uring_gso gso_zerocopy pcap"
UNTOLD_PPS=10000
untold() { case " $UNTOLD_METHODS " in *" $1 "*) return 0 ;; esac; return 1; }

# A namespace of the test's own with a veth pair A (198.18.N.1, neighbour .2 = B's MAC) and B,
# no IPv6 (so the only frames on it are the test's), lo up, A up; B up unless told "down".
# Sets NS, A, B, BMAC; the caller's EXIT trap must run test_pair_del. 0 when every step
# worked: the caller checks it (a lab short of a step would fail its checks for another reason)
#   test_pair NAME N [down]
test_pair() {
	NS=pbtst-$1-$$
	A=pbtst${1:0:2}a$$
	B=pbtst${1:0:2}b$$
	A=${A:0:15}
	B=${B:0:15}
	ip netns add "$NS" || skip_cap netns "cannot create a namespace"
	ip -n "$NS" link add "$A" type veth peer name "$B" || return 1
	ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
	ip -n "$NS" addr add "198.18.$2.1/24" dev "$A" || return 1
	ip -n "$NS" link set lo up || return 1
	if [ "${3:-}" != down ]; then
		ip -n "$NS" link set "$B" up || return 1
	fi
	ip -n "$NS" link set "$A" up || return 1
	BMAC=$(ip netns exec "$NS" cat "/sys/class/net/$B/address") || return 1
	ip -n "$NS" neigh add "198.18.$2.2" lladdr "$BMAC" dev "$A" nud permanent
}
test_pair_del() { [ -n "${NS:-}" ] && ip netns del "$NS" 2>/dev/null; }

# ns_pair NETNS_A NETNS_B A B: two namespaces of the test's own joined by a veth pair A/B
# with 2 queues each way, IPv6 off in both (no ND or MLD frames of their own), lo up.
ns_pair() {
	local ns
	ip netns add "$1" && ip netns add "$2" || return 1
	ip link add "$3" netns "$1" numtxqueues 2 numrxqueues 2 type veth \
		peer name "$4" netns "$2" numtxqueues 2 numrxqueues 2 || return 1
	for ns in "$1" "$2"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || return 1
		ip -n "$ns" link set lo up || return 1
	done
}

# agent_lab TAG NET: the agent tests' two namespaces, senders' pbTAG-tx-PID and the agent's
# pbTAG-rx-PID, joined by a veth pair A (198.18.NET.1, TX_IP) / B (198.18.NET.2, RX_IP), up;
# sets NTX NRX A B TX_IP RX_IP AGENT_PID, and an EXIT trap that kills the agent and removes
# both (a test with more to end sets its own trap, calling agent_lab_del). 0 when all is up.
agent_lab() {
	NTX=pb$1-tx-$$
	NRX=pb$1-rx-$$
	A=pb$1A$$
	B=pb$1B$$
	A=${A:0:15}
	B=${B:0:15}
	TX_IP=198.18.$2.1
	RX_IP=198.18.$2.2
	AGENT_PID=
	trap 'agent_lab_del; cleanup' EXIT
	ns_pair "$NTX" "$NRX" "$A" "$B" &&
		ip -n "$NTX" addr add "$TX_IP/24" dev "$A" &&
		ip -n "$NRX" addr add "$RX_IP/24" dev "$B" &&
		ip -n "$NTX" link set "$A" up && ip -n "$NRX" link set "$B" up
}
# agent_end: SIGTERM to the agent ($AGENT_PID, its stderr in $T/agent.err), which must exit
# 0; then the agent lab removed, and checked gone.
agent_end() {
	local rc
	kill -TERM "$AGENT_PID"
	wait "$AGENT_PID"
	rc=$?
	AGENT_PID=
	check "SIGTERM: the agent exits 0 ($rc; $(tail -1 "$T/agent.err"))" [ $rc = 0 ]
	agent_lab_del
	check "test namespaces removed" bash -c "! ip netns list | grep -q -e '$NTX' -e '$NRX'"
}
agent_lab_del() {
	[ -n "${AGENT_PID:-}" ] && kill -KILL "$AGENT_PID" 2>/dev/null
	ip netns del "$NTX" 2>/dev/null
	ip netns del "$NRX" 2>/dev/null
}

# agent_get NETNS URL PATH: the body of an agent's answer, asked from NETNS; 1 when it did not
# answer (the error on stdout, after ERROR).
agent_get() {
	ip netns exec "$1" python3 -c "
import sys, urllib.request
try:
    print(urllib.request.urlopen(sys.argv[1] + sys.argv[2], timeout=3).read().decode())
except Exception as e:
    print('ERROR', e); sys.exit(1)" "$2" "$3"
}

# The methods this pktbench has (from --help), one a line; "benchmark" is not one.
# pb_methods: the methods this build has (less benchmark), less those this kernel refuses as
# a witness that is not pktbench says (refused_methods: each said as a skip, on stderr)
pb_methods() {
	local all
	all=$("$PB" --help | awk '/^Methods/{m=1; next} m && !NF {exit} m {print $1}' | grep -v '^benchmark$')
	grep -vxF -f <(refused_methods) <<<"$all"
}
# refused_methods: methods of this build the kernel itself refuses, one a line: xdp_live when
# the reference loop's live-frame run is refused too (live_frames_refused, below); said once
# a test as a skip with the kernel's word, on stderr
refused_methods() {
	local why
	"$PB" --help | grep -qE '^  xdp_live ' || return 0
	why=$(live_frames_refused) || return 0
	# once a test (a marker file: the callers are subshells)
	if [ ! -e "$T/.refused-said" ]; then
		echo "skip: xdp_live: this kernel refuses live frames ($why; the reference loop too)" >&2
		: >"$T/.refused-said"
	fi
	echo xdp_live
}
# refused METHOD: true when the kernel refuses METHOD (refused_methods)
refused() { refused_methods | grep -qx "$1"; }

# icmp_ping NETNS ADDR: 3 echo requests from NETNS, all answered (no ping(8) needed).
icmp_ping() {
	ip netns exec "$1" python3 - "$2" <<'PY'
import os, socket, struct, sys, time
def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
s.settimeout(2)
ident, answered = os.getpid() & 0xFFFF, 0
for seq in range(3):
    echo = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + b"pktbench"
    s.sendto(echo[:2] + struct.pack("!H", csum(echo)) + echo[4:], (sys.argv[1], 0))
    try:
        while True:
            ip = s.recv(128)
            icmp = ip[(ip[0] & 15) * 4:]
            if icmp[0] == 0 and struct.unpack("!HH", icmp[4:8]) == (ident, seq):
                answered += 1
                break
    except socket.timeout:
        pass
sys.exit(0 if answered == 3 else 1)
PY
}

# A capture on the wire inside a kept lab (--keep-lab): the tests that read each frame as sent.
# wire_scripts FILTER writes $T/dut.sh (dumpcap on the DUT's port facing the sender, FILTER,
# started before anything is sent, stopping by itself at $CAPN frames into $CAP) and $T/tx.sh
# (checksums computed in software, since an offloaded frame carries a partial one on veth; the
# ends' MACs into $CAP.TX and $CAP.RX). wire_kept ERRFILE names the lab pktbench kept;
# wire_cleanup stops the capture, so it writes what it has, and removes the kept lab.
KEPT=
wire_scripts() {
	CAP_FILTER=$1
	export CAP CAPN CAP_FILTER
	cat >"$T/dut.sh" <<'SH'
dumpcap -i "$PB_DUT_IN" -f "$CAP_FILTER" -B 32 -c "$CAPN" -P -w "$CAP" >"$CAP.log" 2>&1 &
echo $! >"$CAP.pid"
i=0
while ! grep -q 'Capturing on' "$CAP.log" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
grep -q 'Capturing on' "$CAP.log"
SH
	cat >"$T/tx.sh" <<'SH'
ethtool -K "$PB_LAB_TX_IF" tx off >/dev/null || exit 1
for end in TX RX; do
	eval "ns=\$PB_LAB_${end}_NS dev=\$PB_LAB_${end}_IF"
	ip -n "$ns" -o link show "$dev" | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p' \
		>"$CAP.$end"
done
SH
}
wire_kept() { KEPT=$(sed -n 's|.*rm /run/pktbench/\([0-9a-zA-Z_-]*\)\.kept.*|\1|p' "$1" | head -1); }
wire_cleanup() {
	local p
	if [ -s "$CAP.pid" ]; then
		p=$(cat "$CAP.pid")
		# it stops by itself at the count expected (-c): a stop signal would lose the
		# frames still in its ring's last block
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -INT "$p" 2>/dev/null
		for _ in $(seq 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
		rm -f "$CAP.pid"
	fi
	# the kept lab: its three namespaces and the marker that says it was kept
	if [ -n "$KEPT" ]; then
		for ns in tx dut rx; do ip netns del "pktbench-$KEPT-$ns" 2>/dev/null; done
		rm -f "/run/pktbench/$KEPT.kept"
		KEPT=
	fi
}

finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" = 0 ]
}

# live_frames_refused: the kernel itself refuses BPF_PROG_RUN with live frames, as a witness
# that is not pktbench says (the reference loop bench/ceiling/bench_live, run once on the
# loopback of a namespace of its own, where no frame can leave). Prints the kernel's word.
# A pktbench method that skips while this says nothing is a failure, not a skip: seen on
# 6.18.44-fc-v1300, where the kernel answers EPERM to root for every live run.
live_frames_refused() {
	local bin out
	bin=$(dirname "$PB")/bench/bench_live
	[ -x "$bin" ] || return 1
	out=$(unshare -n "$bin" lo 1 02:00:00:00:00:02 02:00:00:00:00:01 2>&1) && return 1
	case $out in
	*"BPF_PROG_RUN: Operation not permitted"* | *"BPF_PROG_RUN: Invalid argument"*) echo "${out#bench_live: }" ;;
	*) return 1 ;;
	esac
}
