# SPDX-License-Identifier: MIT
# bench/ceiling.sh: each reference loop and a pktbench method
# in its own lab, every one counted at the receiving end (a rate above 0, no speed asked),
# the lab gone afterwards; bad arguments are one line and exit 2.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$(dirname "$PB")" && pwd)
[ -x "$BUILD/bench/bench_live" ] || { echo "SKIP: no $BUILD/bench/bench_live"; exit 77; }
gens="live pb_udp_sendto"
[ -x "$BUILD/bench/bench_xsk" ] && gens="live xsk pb_udp_sendto"
# the live loop only where the kernel runs live frames at all (lib.sh's witness)
if why=$(live_frames_refused); then
	echo "skip: the live-frame loop: this kernel refuses live frames ($why)"
	gens=${gens#live }
fi
gone() { ! ip netns list | grep -q '^pbref-'; }

"$top/bench/ceiling.sh" -s 1 -r 1 -b "$BUILD" $gens >"$T/out" 2>&1
rc=$?
cat "$T/out"
check "ceiling.sh ran every generator (exit $rc)" [ $rc = 0 ]
for g in $gens; do
	check "$g: counted at the receiving end" \
		awk -v g="$g" '$1 == g && $2 ~ /^[0-9]+$/ && $2 > 0 { f = 1 } END { exit !f }' "$T/out"
done
check "the ceiling lab is gone" gone
check "no XDP program left on a pbref interface" \
	bash -c "! ip -o link 2>/dev/null | grep -q pbref"

# jumbo frames: the lab's MTU follows -f, and the AF_XDP loop chains chunks (multi-buffer,
# Linux 6.6+)
if [ -x "$BUILD/bench/bench_xsk" ] && printf '%s\n' 6.6 "$(uname -r)" | sort -VC; then
	"$top/bench/ceiling.sh" -s 1 -r 1 -f 9000 -b "$BUILD" xsk >"$T/jumbo" 2>&1
	rc=$?
	cat "$T/jumbo"
	check "-f 9000: exit 0 ($rc), the lab at MTU 8986" \
		sh -c "[ $rc = 0 ] && grep -q '9000-byte frames (MTU 8986)' '$T/jumbo'"
	check "-f 9000: xsk's chained frames counted at the receiving end" \
		awk '$1 == "xsk" && $2 ~ /^[0-9]+$/ && $2 > 0 { f = 1 } END { exit !f }' "$T/jumbo"
	check "-f 9000: the lab is gone" gone
fi
"$top/bench/ceiling.sh" -s 1 -r 1 -b "$BUILD" -f 59 >"$T/bad" 2>&1
rc=$?
check "-f below 60: exit 2, one line ($(cat "$T/bad"))" test "$rc" = 2 -a "$(wc -l <"$T/bad")" = 1

"$top/bench/ceiling.sh" -s 1 -r 1 -b "$BUILD" nosuch >"$T/bad" 2>&1
rc=$?
check "an unknown generator: exit 2, one line ($(cat "$T/bad"))" \
	test "$rc" = 2 -a "$(wc -l <"$T/bad")" = 1
"$top/bench/ceiling.sh" -s x -b "$BUILD" >"$T/bad" 2>&1
rc=$?
check "a bad -s: exit 2, one line ($(cat "$T/bad"))" test "$rc" = 2 -a "$(wc -l <"$T/bad")" = 1
check "bad arguments leave no lab" gone
finish
