# SPDX-License-Identifier: MIT
# A capability's probe that fails is a skip on a machine without it, and a failure where it is
# expected (tests/expected-caps, in CI or with PB_EXPECT_CAPS=1): tests/net/caps.sh's
# skip_cap (a whole test) and skip_part (a method of several), run here in subshells with
# every combination; every capability the net tests name is in tests/expected-caps (a name
# not in it would never be enforced); and scripts/ci-skips.sh lists both outcomes.
. "$(dirname "$0")/lib.sh"
CAPS=$top/tests/net/caps.sh

# outcome ENV... -- COMMAND: runs COMMAND with caps.sh sourced and ENV set; prints its exit
# status and output on one line
outcome() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	env -u CI -u PB_EXPECT_CAPS "${env[@]}" bash -c '
		fails=0
		fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
		. "$0"
		'"$*"'
		echo "fails=$fails"' "$CAPS" 2>&1 | tr '\n' ' ' >"$T/out"
	echo "rc=${PIPESTATUS[0]} $(cat "$T/out")"
}

# what a check saw, in its name: "SKIP:" there would read as this test's own skip to
# scripts/ci-skips.sh, which lists every log line that has it
shown() { sed 's/SKIP:/SKIP -/g' <<<"$1"; }

got=$(outcome -- skip_cap io_uring "'io_uring: disabled'")
check "skip_cap, no CI: exit 77, SKIP and the reason ($(shown "$got"))" [ "$got" = "rc=77 SKIP: io_uring: disabled " ]
got=$(outcome CI=true -- skip_cap io_uring "'io_uring: disabled'")
check "skip_cap, CI=true, listed: exit 1, FAIL naming it ($(shown "$got"))" \
	eval '[[ "$got" == "rc=1 FAIL: io_uring is expected here ("*"), but: io_uring: disabled " ]]'
got=$(outcome PB_EXPECT_CAPS=1 -- skip_cap xdp_live "'no live frames'")
check "skip_cap, PB_EXPECT_CAPS=1, listed: exit 1 ($(shown "$got"))" eval '[[ "$got" == "rc=1 FAIL: xdp_live "* ]]'
got=$(outcome CI=false -- skip_cap xdp_live "'no live frames'")
check "skip_cap, CI=false: a skip ($(shown "$got"))" [ "$got" = "rc=77 SKIP: no live frames " ]
got=$(outcome CI=true -- skip_cap not_a_cap "'nothing'")
check "skip_cap, CI=true, not listed: a skip ($(shown "$got"))" [ "$got" = "rc=77 SKIP: nothing " ]
got=$(outcome -- 'skip_part "io_uring udp_gso" "io_uring_gso: no ring"')
check "skip_part, no CI: skip:, no failure, on ($(shown "$got"))" [ "$got" = "rc=0 skip: io_uring_gso: no ring fails=0 " ]
got=$(outcome CI=true -- 'skip_part "io_uring udp_gso" "io_uring_gso: no ring"')
check "skip_part, CI=true: a failed check, on ($(shown "$got"))" \
	eval '[[ "$got" == "rc=0 FAIL: io_uring is expected here ("*"), but: io_uring_gso: no ring fails=1 " ]]'
got=$(outcome CI=true -- 'skip_part "" "pcap: not built"')
check "skip_part, CI=true, no capability named: a skip ($(shown "$got"))" [ "$got" = "rc=0 skip: pcap: not built fails=0 " ]
got=$(outcome CI=true PB_CAPS_FILE=/nonexistent -- skip_cap io_uring "'x'")
check "skip_cap, CI=true, no list: a skip ($(shown "$got"))" [ "$got" = "rc=77 SKIP: x " ]

# every name the net tests give skip_cap, and every one method_caps gives, is listed
listed=$(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$top/tests/expected-caps" | sort)
named=$({
	grep -rhoE 'skip_cap [a-z_]+ "' "$top/tests/net" | awk '{print $2}'
	for m in $("$1" --help | awk '/^Methods/{m=1; next} m && !NF {exit} m {print $1}'); do
		bash -c '. "$0"; method_caps "$1"' "$CAPS" "$m"
	done | tr ' ' '\n'
} | sed '/^$/d' | sort -u)
missing=$(comm -13 <(echo "$listed") <(echo "$named") | tr '\n' ' ')
check "every capability the net tests name is in tests/expected-caps (missing: '$missing')" [ -z "$missing" ]
check "... and they name some: af_xdp, io_uring, xdp_live, netns among them ($(echo $named))" \
	eval '(for c in af_xdp io_uring xdp_live netns; do grep -qx $c <<<"$named" || exit 1; done)'

# scripts/ci-skips.sh reads a CTest log: a skip is listed as one, a capability's failure as a
# failed check
mkdir -p "$T/b/Testing/Temporary"
{
	echo "1/2 Testing: net/test_io_uring"
	outcome -- skip_cap io_uring "'io_uring: disabled'" | sed 's/^rc=[0-9]* //; s/ $//'
	echo "2/2 Testing: net/test_syscalls"
	outcome CI=true -- 'skip_part "io_uring" "io_uring: no ring"' | sed 's/^rc=[0-9]* //; s/ fails=.*//'
} >"$T/b/Testing/Temporary/LastTest.log"
bash "$top/scripts/ci-skips.sh" "$T/b" >"$T/skips" 2>&1
shown "$(cat "$T/skips")"
check "ci-skips: the skip listed under its test" \
	grep -qx "  $T/b: net/test_io_uring: SKIP: io_uring: disabled" "$T/skips"
check "ci-skips: the expected capability's failure listed as a failed check" \
	grep -q "^  $T/b: net/test_syscalls: FAIL: io_uring is expected here" "$T/skips"
check "ci-skips: 1 skipped, 1 failed" \
	eval 'grep -qx "ci-skips: 1 skipped (tests or checks)" "$T/skips" && grep -qx "ci-skips: 1 checks failed (above)" "$T/skips"'

finish
