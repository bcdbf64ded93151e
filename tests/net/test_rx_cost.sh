# SPDX-License-Identifier: MIT
# bench/rx-cost.sh's receiving-CPU modes and bench/ceiling.sh -n: each runs, its receiver
# counts what it was sent, the labs are gone and kernel.bpf_stats_enabled is as it was. -x's
# known answer: the loop's frames (each numbered up a turn, its UDP checksum updated by
# RFC 1624) are all counted by the agent, none corrupt, duplicate, reordered or out of window.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$(dirname "$PB")" && pwd)
need bpftool bpftool
[ -e "$BUILD/bench/ref_loop.bpf.o" ] || { echo "SKIP: no $BUILD/bench/ref_loop.bpf.o"; exit 77; }
[ -e /sys/class/net/lo/threaded ] || { echo "SKIP: this kernel has no threaded NAPI (5.12+)"; exit 77; }
gone() { ! ip netns list | grep -q '^pbrc-\|^pbref-'; }
stats=$(sysctl -n kernel.bpf_stats_enabled)

# -x: the xdp_frame path, the same build on both sides
"$top/bench/rx-cost.sh" -x -r 1 -s 3 "$BUILD" "$BUILD" >"$T/x" 2>&1
rc=$?
cat "$T/x"
check "rx-cost.sh -x ran both sides (exit $rc)" test "$rc" = 0
for side in base new; do
	check "-x $side: the loop's numbered frames arrived" \
		awk -v s=$side '$2 == s && /of .S./ && /arrived +[1-9][0-9]* pps/ { f = 1 } END { exit !f }' "$T/x"
	check "-x $side: the agent counted them all, none refused, duplicate or out of order" \
		awk -v s=$side '$2 == s && /\(counted [1-9][0-9]*\)/ { f = 1 } END { exit !f }' "$T/x"
done
check "-x: the labs are gone" gone

# -t: the skb path, each build's agent answering its sender
"$top/bench/rx-cost.sh" -t -r 1 -s 3 "$BUILD" "$BUILD" >"$T/t" 2>&1
rc=$?
cat "$T/t"
check "rx-cost.sh -t ran both sides (exit $rc)" test "$rc" = 0
check "-t: both agents counted what their sender sent" \
	test "$(grep -cE 'delivered +[1-9][0-9]* pps' "$T/t")" = 2
check "-t: the lab is gone" gone
check "kernel.bpf_stats_enabled is as it was ($stats)" \
	test "$(sysctl -n kernel.bpf_stats_enabled)" = "$stats"

# ceiling.sh -n: the receiver's NAPI in a thread of its own, on CPU 0
gen=pb_udp_sendto
[ -x "$BUILD/bench/bench_xsk" ] && gen=xsk
"$top/bench/ceiling.sh" -s 1 -r 1 -n 0 -b "$BUILD" $gen >"$T/n" 2>&1
rc=$?
cat "$T/n"
check "ceiling.sh -n 0 ran (exit $rc)" test "$rc" = 0
check "ceiling.sh -n 0: $gen counted at the receiving end" \
	awk -v g=$gen '$1 == g && $2 ~ /^[0-9]+$/ && $2 > 0 { f = 1 } END { exit !f }' "$T/n"
"$top/bench/ceiling.sh" -s 1 -r 1 -n x -b "$BUILD" $gen >"$T/bad" 2>&1
rc=$?
check "ceiling.sh -n x: exit 2, one line ($rc: $(cat "$T/bad"))" \
	test "$rc" = 2 -a "$(wc -l <"$T/bad")" = 1
check "the labs are gone" gone
finish
