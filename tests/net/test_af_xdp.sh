# SPDX-License-Identifier: MIT
# af_xdp: --count is exact and every frame is accounted for; the Mode column matches what the
# kernel shows; back-to-back runs cope with a queue still busy from the last socket; an XDP
# program already on the interface is refused without --force and put back with it; nothing
# (namespace, veth, XDP program) is left after a normal end, Ctrl-C or a failed open.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
N=20000
OBJ=$(dirname "$PB")/bpf/xdp_pass.bpf.o

# our own namespace + veth pair for the --iface cases (benchmarking addresses only)
TNS=pbtst-$$
TA=pbtstA$$
TB=pbtstB$$
test_ns_cleanup() { ip netns del "$TNS" 2>/dev/null; }
trap 'test_ns_cleanup; cleanup' EXIT

result() { # result FILE PYTHON-EXPR over r = the first result
	json "$1" "(lambda r: $2)(d['results'][0])"
}

if ! "$PB" --help | grep -qE '^  af_xdp +AF_XDP' || "$PB" --help | grep -q 'af_xdp.*not built'; then
	skip_cap af_xdp "af_xdp is not built into this binary (libxdp missing at build time)"
fi

# 1. --count N in the lab: exactly N sent, every one delivered or counted as dropped
"$PB" --method af_xdp --count $N --format json --output "$T/count.json" -q 2>"$T/count.err"
rc=$?
if [ $rc = 3 ] && result "$T/count.json" "r['status'] == 'skipped'"; then
	skip_cap af_xdp "af_xdp cannot run here: $(python3 -c "import json; print(json.load(open('$T/count.json'))['results'][0]['reason'])")"
fi
check "count: exit 0 (got $rc: $(cat "$T/count.err"))" [ $rc = 0 ]
check "count: status ok" result "$T/count.json" "r['status'] == 'ok'"
check "count: exactly $N sent" result "$T/count.json" "r['frames_sent'] == $N"
check "count: delivered + dropped = $N" result "$T/count.json" \
	"r['frames_delivered'] + r['frames_dropped'] == $N"
check "count: accounted 100 %" result "$T/count.json" "abs(r['accounted_pct'] - 100) < 1e-9"
check "count: mode none/copy on veth (no program, no zero-copy), batch and ring shown" result "$T/count.json" \
	"r['mode'] == 'none/copy, batch 64, ring 256'"
# the UMEM holds the pool once, not a ring of copies: --ring and --batch are what Mode says
"$PB" --method af_xdp --count $N --ring 100 --batch 512 --flows 7 --format json \
	--output "$T/ring.json" -q 2>"$T/ring.err"
check "ring: --ring 100 --batch 512 is a ring of 512, batch 512, all $N delivered" \
	result "$T/ring.json" "r['mode'] == 'none/copy, batch 512, ring 512' and r['frames_delivered'] + r['frames_dropped'] == $N and r['flows_seen'] == 7"
check "count: no lab left" no_leftovers

# paced below what the receiver takes, nothing is dropped: all N delivered
if "$PB" --help | grep -q -- '--pps'; then
	"$PB" --method af_xdp --count $N --pps 100k --format json --output "$T/paced.json" -q \
		2>"$T/paced.err"
	rc=$?
	check "paced: exit 0 (got $rc: $(cat "$T/paced.err"))" [ $rc = 0 ]
	check "paced: exactly $N sent and $N delivered" result "$T/paced.json" \
		"r['frames_sent'] == $N and r['frames_delivered'] == $N"
fi

# 2. the mode string matches the attachment the kernel shows during the run, and nothing is
# attached after it. ip -j: xdp.mode 1 = native (xdp), 2 = generic (xdpgeneric).
# ("no-ns" before the lab; "rx-ns" while pktbench is still in the receiver's namespace, which
# has no pbt- end: attaching the receiver there takes a while, and a look can fall in it)
lab_xdp() { # lab_xdp PID: "<mode> <prog name>" of the lab's sending veth, or "none"
	local ns
	ns=$(ip netns identify "$1" 2>/dev/null)
	[ -n "$ns" ] || { echo "no-ns"; return; }
	ip -n "$ns" -j link show 2>/dev/null | python3 -c '
import json, sys
seen = False
for l in json.load(sys.stdin):
    if l["ifname"].startswith("pbt-"):
        seen = True
        x = l.get("xdp")
        print("%s %s" % (x["mode"], x["prog"]["name"]) if x else "none")
if not seen:
    print("rx-ns")'
}
for m in "native 1 drv" "generic 2 skb" "auto none none"; do
	set -- $m
	"$PB" --method af_xdp --duration 3 --xdp-mode "$1" --format json --output "$T/mode.json" \
		-q 2>"$T/mode.err" &
	pid=$!
	PIDS+=($pid)
	for i in $(seq 20); do # up to 2 s for the lab and the open
		sleep 0.1
		seen=$(lab_xdp $pid)
		[ "$seen" = no-ns ] || [ "$seen" = rx-ns ] || [ "$seen" = none -a "$2" != none ] ||
			break
	done
	[ "$2" != none ] || { sleep 1; seen=$(lab_xdp $pid); }
	wait $pid
	rc=$?
	check "xdp-mode $1: exit 0 (got $rc: $(cat "$T/mode.err"))" [ $rc = 0 ]
	if [ "$2" = none ]; then
		check "xdp-mode $1: no program on the sending veth during the run (saw: $seen)" \
			[ "$seen" = none ]
	else
		check "xdp-mode $1: ip link shows mode $2 pb_xdp_pass during the run (saw: $seen)" \
			[ "$seen" = "$2 pb_xdp_pass" ]
	fi
	check "xdp-mode $1: Mode column says $3/copy" result "$T/mode.json" "r['mode'].split(',')[0] == '$3/copy'"
	check "xdp-mode $1: accounted 100 %" result "$T/mode.json" \
		"abs(r['accounted_pct'] - 100) < 1e-9"
	check "xdp-mode $1: no lab left" no_leftovers
done

# zero-copy is impossible on veth: --zerocopy on fails clearly, exit 1, nothing left
"$PB" --method af_xdp --count 1000 --zerocopy on -q >"$T/zc.out" 2>"$T/zc.err"
rc=$?
check "zerocopy on: exit 1 (got $rc)" [ $rc = 1 ]
check "zerocopy on: the error says zero-copy ($(head -1 "$T/zc.err"))" grep -q "zero-copy" "$T/zc.err"
check "zerocopy on: no lab left" no_leftovers

# 3. back to back in the lab
for i in 1 2; do
	"$PB" --method af_xdp --count 5000 -q >/dev/null 2>"$T/b2b$i.err"
	rc=$?
	check "back to back (lab) run $i: exit 0 (got $rc: $(cat "$T/b2b$i.err"))" [ $rc = 0 ]
done

# --- our own namespace and veth pair: --iface, and a program that was there before ----------
if [ ! -f "$OBJ" ]; then
	fail "no $OBJ (the build makes it)"
	finish
	exit
fi
test_ns_cleanup
ip netns add "$TNS" &&
	ip -n "$TNS" link add "$TA" type veth peer name "$TB" &&
	ip -n "$TNS" addr add 198.18.99.1/24 dev "$TA" &&
	ip -n "$TNS" addr add 198.18.99.2/24 dev "$TB" &&
	ip -n "$TNS" link set lo up &&
	ip -n "$TNS" link set "$TA" up &&
	ip -n "$TNS" link set "$TB" up
check "test namespace $TNS with $TA/$TB" [ $? = 0 ]
PBI=(ip netns exec "$TNS" "$PB" --method af_xdp --iface "$TA" --dstip 198.18.99.2
	--srcip 198.18.99.1)

iface_xdp() { # "<mode> <id>" of the program on $TA, or "none"
	ip -n "$TNS" -j link show dev "$TA" | python3 -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp")
print("%s %s" % (x["mode"], x["prog"]["id"]) if x else "none")'
}
# xdp_is STATE / xdp_not STATE: $TA's program is (is not) STATE: waited for with a bound
# (wait_until), not a fixed sleep that a slow attach on a loaded machine outlasts
xdp_is() { [ "$(iface_xdp)" = "$1" ]; }
xdp_not() { [ "$(iface_xdp)" != "$1" ]; }

# back to back on one interface: the second socket binds the queue the first just released
for i in 1 2 3; do
	"${PBI[@]}" --count 2000 -q >/dev/null 2>"$T/ib2b$i.err"
	rc=$?
	check "back to back ($TA) run $i: exit 0 (got $rc: $(cat "$T/ib2b$i.err"))" [ $rc = 0 ]
done
check "$TA: nothing attached after the runs" [ "$(iface_xdp)" = none ]

# a run that opens while the queue's socket still belongs to a run about to end: the bind
# gets EBUSY and is retried until the queue is free (up to 1 s)
"${PBI[@]}" --duration 0.6 -q >/dev/null 2>&1 &
pid=$!
PIDS+=($pid)
wait_until 10 xdp_not none
"${PBI[@]}" --count 2000 -q >/dev/null 2>"$T/busy.err"
rc=$?
wait $pid
check "busy queue: the second run waits for it and succeeds (exit $rc: $(cat "$T/busy.err"))" \
	[ $rc = 0 ]

# a failed open after the attach (zero-copy on veth) detaches what it attached
"${PBI[@]}" --xdp-mode native --zerocopy on --count 1000 -q >/dev/null 2>"$T/izc.err"
rc=$?
check "$TA native + zerocopy on: exit 1 (got $rc)" [ $rc = 1 ]
check "$TA: nothing attached after the failed open" [ "$(iface_xdp)" = none ]

# Ctrl-C in the middle of a run with a program attached
"${PBI[@]}" --xdp-mode native --duration 30 --format json --output "$T/iint.json" -q \
	2>"$T/iint.err" &
pid=$!
PIDS+=($pid)
wait_until 10 xdp_not none
during=$(iface_xdp)
kill -INT $pid
wait $pid
rc=$?
check "$TA SIGINT: native program attached during the run (saw: $during)" \
	[ "${during%% *}" = 1 ]
check "$TA SIGINT: exit 130 (got $rc)" [ $rc = 130 ]
check "$TA SIGINT: partial result written" result "$T/iint.json" \
	"r['interrupted'] and r['frames_sent'] > 0 and r['duration_s'] < 20"
check "$TA SIGINT: nothing attached after" [ "$(iface_xdp)" = none ]

# a program that was there before, in generic mode (pktbench wants native: a mode change) and
# in native mode (the same mode: an atomic replace)
for old in xdpgeneric xdpdrv; do
	ip -n "$TNS" link set dev "$TA" "$old" obj "$OBJ" sec xdp
	before=$(iface_xdp)
	check "$old: a program is attached ($before)" [ "$before" != none ]

	"${PBI[@]}" --xdp-mode native --count 1000 -q >/dev/null 2>"$T/refuse.err"
	rc=$?
	check "$old: without --force: refused (exit $rc)" [ $rc != 0 ]
	check "$old: the refusal mentions --force ($(head -1 "$T/refuse.err"))" \
		grep -q -- "--force" "$T/refuse.err"
	check "$old: the same program is still attached" [ "$(iface_xdp)" = "$before" ]

	# no program needed (--xdp-mode auto): runs and leaves it alone
	"${PBI[@]}" --count 1000 --format json --output "$T/auto.json" -q 2>"$T/auto.err"
	rc=$?
	check "$old: --xdp-mode auto runs beside it (exit $rc: $(cat "$T/auto.err"))" [ $rc = 0 ]
	check "$old: auto reports none/copy" result "$T/auto.json" "r['mode'].split(',')[0] == 'none/copy'"
	check "$old: the same program is still attached after auto" [ "$(iface_xdp)" = "$before" ]

	"${PBI[@]}" --xdp-mode native --force --duration 3 --format json \
		--output "$T/force.json" -q 2>"$T/force.err" &
	pid=$!
	PIDS+=($pid)
	wait_until 10 xdp_not "$before"
	during=$(iface_xdp)
	wait $pid
	rc=$?
	check "$old --force: exit 0 (got $rc: $(cat "$T/force.err"))" [ $rc = 0 ]
	check "$old --force: ours (native) during the run (saw: $during)" \
		[ "${during%% *}" = 1 -a "$during" != "$before" ]
	check "$old --force: reports drv/copy" result "$T/force.json" "r['mode'].split(',')[0] == 'drv/copy'"
	check "$old --force: the same program is back ($(iface_xdp), was $before)" \
		[ "$(iface_xdp)" = "$before" ]

	# Ctrl-C during a --force run puts it back too
	"${PBI[@]}" --xdp-mode native --force --duration 30 -q >/dev/null 2>&1 &
	pid=$!
	PIDS+=($pid)
	wait_until 10 xdp_not "$before"
	kill -INT $pid
	wait $pid
	rc=$?
	check "$old --force SIGINT: exit 130 (got $rc)" [ $rc = 130 ]
	check "$old --force SIGINT: the same program is back ($(iface_xdp), was $before)" \
		[ "$(iface_xdp)" = "$before" ]

	ip -n "$TNS" link set dev "$TA" "$old" off
done

test_ns_cleanup
check "test namespace removed" [ -z "$(ip netns list | grep -w "$TNS")" ]
# consecutive runs on one interface reuse the attachment instead of attaching (bouncing) again
"$PB" --method af_xdp --xdp-mode native --repeat 3 --duration 0.5 -q -v >/dev/null 2>"$T/reuse.err"
check "reuse: runs 2 and 3 reuse run 1's XDP program" \
	bash -c "[ \$(grep -c 'reusing the XDP program' '$T/reuse.err') = 2 ]"
# ...but not across methods: af_xdp's program is off the interface before the next method
# runs, so the order of a benchmark does not change another method's result
"$PB" --method af_xdp,udp_sendto --xdp-mode native --duration 2 2>"$T/order.err" >/dev/null &
pid=$!
PIDS+=($pid)
seen=none
for i in $(seq 60); do # until udp_sendto is the running method
	sleep 0.1
	grep -q '\[2/2\] udp_sendto' "$T/order.err" && break
done
sleep 0.5
seen=$(lab_xdp $pid)
wait $pid
check "method order: no XDP program while udp_sendto runs after af_xdp (saw: $seen)" \
	[ "$seen" = none ]
check "no lab left at the end" no_leftovers
finish
