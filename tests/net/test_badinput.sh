# SPDX-License-Identifier: MIT
# Bad input: one clear line on stderr, exit 2, no crash, nothing left behind.
. "$(dirname "$0")/lib.sh"

expect_bad() { # expect_bad "what" "expected text" args...
	local what=$1 want=$2 rc lines
	shift 2
	if [ "$1" = setpriv_run ]; then
		shift
		setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$PB" "$@" >"$T/out" 2>"$T/err"
	else
		"$PB" "$@" >"$T/out" 2>"$T/err"
	fi
	rc=$?
	lines=$(wc -l <"$T/err")
	if [ $rc = 2 ] && [ "$lines" = 1 ] && grep -q -- "$want" "$T/err"; then
		ok "$what: exit 2, '$(cat "$T/err")'"
	else
		fail "$what: exit $rc, $lines lines: $(cat "$T/err")"
	fi
	no_leftovers || fail "$what: left a lab behind"
}

expect_bad "unknown method" "unknown method 'warp': pktbench --help lists every method and alias" --method warp
# each mistake answered with the fix
expect_bad "a misspelled method" "unknown method 'af_packt': did you mean af_packet?" --method af_packt
# a go-pktgen name runs its method, and says which, once (the rows carry the method's name)
"$PB" --method udp_syscall,AF_PACKET --count 10 --format json -o "$T/alias.json" 2>"$T/alias.err"
check "go-pktgen's udp_syscall and AF_PACKET: each says what runs ($(head -2 "$T/alias.err" | tr '\n' ' '))" \
	sh -c "grep -qx 'pktbench: udp_syscall is udp_sendto here' '$T/alias.err' &&
		grep -qx 'pktbench: AF_PACKET is af_packet here' '$T/alias.err'"
expect_bad "a misspelled option" "unknown option '--durration': did you mean --duration?" --durration 2
expect_bad "tcpreplay's -x" "tcpreplay's -x X is --multiplier X" -x 2
expect_bad "a go-pktgen user's --dstip in the lab" \
	"--dstip 192.168.64.2: the lab uses only benchmarking addresses (198.18.0.0/15, 2001:2::/48); leave it out, or send on a real interface with --iface IF --dstip 192.168.64.2" \
	--dstip 192.168.64.2
expect_bad "the loopback interface" "--iface lo is the loopback interface: .* leave --iface out for the lab" \
	--method udp_sendto --iface lo --count 10
# an output that cannot be written is found before anything is sent, not after a benchmark
t0=$(date +%s%N)
expect_bad "output not writable" "--output /proc/version" --method benchmark --output /proc/version
check "output not writable: refused at once, nothing ran" \
	[ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 2000 ]
expect_bad "output in a missing directory" "the folder /nonexistent does not exist" --method null \
	--output /nonexistent/x.json
expect_bad "malformed IP" "--dstip" --dstip 198.18.0.999
expect_bad "malformed MAC" "--dstmac" --dstmac 00:11:22:33:44
expect_bad "malformed port" "--dstport" --dstport 70000
expect_bad "zero duration" "positive" --duration 0
expect_bad "negative duration" "positive" --duration -3
expect_bad "payload over the MTU" "does not fit the MTU" --method udp_sendto --payloadsize 1500
expect_bad "payload over the MTU (frame method)" "does not fit the MTU" --method af_packet --payloadsize 9000
expect_bad "no such interface, and the ones there are" "no such interface; here: .*lo" --method udp_sendto --iface pbnosuch0
expect_bad "lab outside the benchmarking range" "benchmarking addresses" --dstip 10.0.0.2 --srcip 10.0.0.1
# shaping the traffic
expect_bad "zero rate" "positive rate" --pps 0
expect_bad "negative rate" "positive rate" --pps -5k
expect_bad "zero flows" "--flows" --flows 0
expect_bad "more flows than ports" "flows fit" --flows 65535 --srcport 60000
expect_bad "VLAN 0" "--vlan" --vlan 0
expect_bad "VLAN 4095" "--vlan" --vlan 4095
expect_bad "IPv4 source, IPv6 destination" "both be IPv4 or both IPv6" --srcip 198.18.0.1 --dstip 2001:2::2
expect_bad "frame below the minimum" "--frame-size" --frame-size 59
expect_bad "frame above the MTU" "does not fit the MTU" --method udp_sendto --mtu 1500 --frame-size 9000
expect_bad "CPU not online" "not online" --cpus 4095
# more streams than the interface has TX queues, on a veth pair of our own
NS=pbtst-bad-$$
if ip netns add $NS 2>/dev/null; then
	trap 'ip netns del $NS 2>/dev/null; cleanup' EXIT
	ip -n $NS link add pbtstq0 type veth peer name pbtstq1
	ip -n $NS addr add 198.18.99.1/24 dev pbtstq0
	ip -n $NS link set pbtstq0 up
	ip -n $NS link set pbtstq1 up
	"$PB" --help >/dev/null # the binary works at all
	ip netns exec $NS "$PB" --iface pbtstq0 --srcip 198.18.99.1 --dstip 198.18.99.2 \
		--method udp_sendto --streams 64 --count 10 >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		grep -q "is more than the .* TX queues of pbtstq0: .*(ethtool -L pbtstq0 combined 64, or tx 64)" "$T/err"; then
		ok "streams above the TX queues: exit 2, '$(cat "$T/err")'"
	else
		fail "streams above the TX queues: exit $rc: $(cat "$T/err")"
	fi
	ip netns del $NS
else
	echo "skip: cannot create a namespace for the TX-queue check"
fi
# issue 45, what a user types is what they get: each command of the issue, its line and status
expect_bad "--count and --duration" "--duration and --count both set when each run ends: give one" \
	--count 1000 --duration 5
expect_bad "a frame-size sweep and --frame-size" \
	"--frame-size and --sweep frame-size= both set the frame size: give one" \
	--sweep frame-size=64,128 --frame-size 100
expect_bad "a missing --replay file: bad input, before the lab" \
	"--replay $T/none.pcap: No such file or directory" --method af_packet --replay "$T/none.pcap"
expect_bad "benchmark in a list" "--method benchmark runs every method: it cannot be combined" \
	--method benchmark,af_xdp
expect_bad "a part of a method's name" "unknown method 'sendto': did you mean udp_sendto?" \
	--method sendto
expect_bad "a misspelled compare" "unknown command 'comapre': did you mean compare?" \
	comapre a.json b.json
expect_bad "a misspelled receive" "unknown command 'recieve': did you mean receive?" \
	recieve --iface eth0 --listen 198.18.0.2:9310
# issue 45's one rule for units: a value in another kind of unit is refused naming only what
# means the same (on main --rate 1.5M ran as 1.5 million Gb/s, exit 0, and --rate 1Gbit was
# refused with "e.g. 50k, 1.5M"); each command the issue names
expect_bad "--rate 1.5M: a count, not a bit rate" \
	"--rate: '1.5M' is a count (M); .*; 1.5 Mb/s is --rate 1.5Mbit; for packets a second, --pps 1.5M" \
	--method udp_sendto --rate 1.5M --count 100
expect_bad "--pps 1Gbit: a bit rate, not packets a second" \
	"--pps: '1Gbit' is a bit rate (Gbit); .*; for a bit rate, --rate 1Gbit" --method udp_sendto --pps 1Gbit
expect_bad "--duration 1M: a count, not a time" "--duration: '1M' is a count (M); .*; for a count, --count 1M" \
	--method udp_sendto --duration 1M
expect_bad "--count 30s: a time, not a count" "--count: '30s' is a time (s); .*; for a duration, --duration 30s" \
	--method udp_sendto --count 30s
expect_bad "rfc2544 --trial 1M" "--trial: '1M' is a count (M); --trial takes a decimal number of seconds" \
	rfc2544 --lab router --trial 1M
expect_bad "receive --duration 1Gbit" "--duration: '1Gbit' is a bit rate (Gbit)" \
	receive --iface lo --listen 198.18.0.2:9310 --duration 1Gbit
# an option that does nothing without another: refused, naming it (on main each ran, exit 0)
expect_bad "--count-timeout without --count" "--count-timeout goes with --count or --replay" \
	--method udp_sendto --count-timeout 5 --duration 1
expect_bad "--loop without --replay" "--loop goes with --replay" --method udp_sendto --loop 2 --duration 1
# what the rule takes runs as asked: durations with their unit, counts with k, a bit rate with its
"$PB" --method null --duration 500ms -q --format json -o "$T/ms.json" 2>"$T/ms.err"
rc=$?
check "--duration 500ms: exit 0 (was $rc: $(head -c 200 "$T/ms.err")), a 0.5 s window" \
	eval '[ $rc = 0 ] && json "$T/ms.json" "0.5 <= d[\"results\"][0][\"duration_s\"] < 0.6"'
"$PB" --method udp_sendto --count 1k --rate 100Mbit -q --format json -o "$T/k.json" 2>"$T/k.err"
rc=$?
check "--count 1k --rate 100Mbit: exit 0 (was $rc: $(head -c 200 "$T/k.err")), 1000 frames sent" \
	eval '[ $rc = 0 ] && json "$T/k.json" "d[\"results\"][0][\"frames_sent\"] == 1000"'
no_leftovers || fail "the units' runs left a lab behind"
# the only method skipped: nothing was measured, which is not success (exit 3), the reason said
"$PB" --method udp_sendto --vlan 10 --count 100 >"$T/out" 2>"$T/err"
rc=$?
check "--method udp_sendto --vlan 10: exit 3 (was $rc), the skip's reason and that nothing was measured ($(tr '\n' ' ' <"$T/err"))" \
	eval '[ $rc = 3 ] && grep -q "udp_sendto skipped: .*vlan" "$T/err" &&
		tail -1 "$T/err" | grep -qx "pktbench: nothing was measured: every row was skipped (each says why)"'
no_leftovers || fail "--vlan 10 on udp_sendto: left a lab behind"
# --stream -: stdout is NDJSON alone, so a pipe to jq (here python's json) reads every line
"$PB" --method udp_sendto --count 100 --stream - >"$T/out" 2>"$T/err"
rc=$?
check "--stream -: exit 0 (was $rc), every stdout line a JSON object, the table on stderr" \
	eval '[ $rc = 0 ] && python3 -c "import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) and all(isinstance(json.loads(l), dict) for l in lines)" "$T/out" && grep -q "^| udp_sendto " "$T/err"'

if command -v setpriv >/dev/null; then
	# uid 0 but no capabilities at all: what a user without root sees
	expect_bad "no capabilities" "CAP_SYS_ADMIN" setpriv_run
else
	echo "skip: no capabilities check: setpriv not found (Debian package util-linux)"
fi
# what a message quotes from a file or a flag reaches the terminal escaped, never as a control
# sequence: ESC and 0x01 (YAML's own escapes make them), a C1 CSI and a right-to-left override
no_raw_controls() { ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]\|\xe2\x80\xae' "$T/err"; }
printf 'method: "\\e[31mred\\x01"\n' >"$T/esc.yaml"
expect_bad "YAML value with ESC" "unknown method '\\\\x1b\\[31mred\\\\x01'" --config "$T/esc.yaml"
check "YAML value with ESC: no raw control byte on stderr" no_raw_controls
printf 'methods: ["\\x9b2J\\u202ex"]\n' >"$T/c1.yaml"
expect_bad "YAML value with C1 CSI and RLO" "unknown method '\\\\u009b2J\\\\u202ex'" --config "$T/c1.yaml"
check "YAML value with C1 CSI and RLO: no raw control byte on stderr" no_raw_controls
expect_bad "flag with ESC" "unknown method '\\\\x1b\\[2Jx'" --method $'\e[2Jx'
check "flag with ESC: no raw control byte on stderr" no_raw_controls
finish
