# SPDX-License-Identifier: MIT
# rfc2544 talks to the person running it: one warning when there is no device under test (the
# direct lab), none with one; on a terminal one progress line with the time left instead of a
# line per trial (script(1) gives it a terminal); off a terminal the trial lines stay.
. "$(dirname "$0")/lib.sh"
SHORT="--method udp_sendto --tests throughput --trial 0.2 --trial-gap 0.05 --max-trials 4"

"$PB" rfc2544 $SHORT --frame-sizes 64 --lab direct -q >"$T/direct.out" 2>"$T/direct.err"
rc=$?
check "direct lab: exit 0 (got $rc: $(head -c 300 "$T/direct.err"))" [ $rc = 0 ]
check "direct lab: one warning that no device is under test" \
	[ "$(grep -c 'no device under test' "$T/direct.err")" = 1 ]
"$PB" rfc2544 $SHORT --frame-sizes 64 --lab router -q >/dev/null 2>"$T/router.err"
rc=$?
check "router lab: exit 0 (got $rc), no such warning" \
	sh -c "[ $rc = 0 ] && ! grep -q 'no device under test' '$T/router.err'"

# off a terminal: a line per trial, no progress line
"$PB" rfc2544 $SHORT --frame-sizes 64,128 --lab router >/dev/null 2>"$T/pipe.err"
check "off a terminal: the trial lines, no progress line" \
	sh -c "grep -q 'throughput #1: unpaced' '$T/pipe.err' && ! grep -q 'left' '$T/pipe.err'"

if command -v script >/dev/null; then
	# the terminal's output: progress rewritten in place (\r), the unit and the time left
	COLUMNS=80 script -qec "stty cols 80 2>/dev/null; $PB rfc2544 $SHORT --frame-sizes 64,128 --lab router --format json -o $T/tty.json" \
		/dev/null >"$T/tty.raw" 2>&1 </dev/null
	# each rewrite on its own line, without the erase-line escape that starts it
	tr '\r' '\n' <"$T/tty.raw" | sed 's/\x1b\[K//g' >"$T/tty.txt"
	check "on a terminal: a progress line for 1 of 2, its time left once the first is done" \
		sh -c "grep -q '^.*rfc2544 \[1/2\] udp_sendto 64 B throughput #1' '$T/tty.txt' &&
			grep -q 'rfc2544 \[2/2\] udp_sendto 128 B throughput #1 .* | [0-9]*:[0-9][0-9], ~[0-9]*:[0-9][0-9] left' '$T/tty.txt'"
	check "on a terminal: no line per trial" sh -c "! grep -q 'unpaced' '$T/tty.txt'"
	check "on a terminal: every progress line fits 80 columns" \
		sh -c "! awk 'length > 80' '$T/tty.txt' | grep -q ."
else
	echo "SKIP: the terminal part needs script (Debian package bsdutils)"
fi
check "no lab left" no_leftovers
finish
