# SPDX-License-Identifier: MIT
# The command line across its combinations, with the method that needs no privileges: IPv4
# and IPv6 (addresses ending in :: too) x --imix x --flows / --flows-src-ip x --count below
# --streams. Every run must end as a clean run (exact count) or a one-line error with exit 2,
# never a signal, a hang or a sanitizer report (this test runs in the sanitizer build in CI).
set -u
PB=${1:?usage: $0 path/to/pktbench}
T=$(mktemp -d /tmp/pbcli.XXXXXX)
trap 'rm -rf "$T"' EXIT
PASSES=0
FAILS=0
ok() { PASSES=$((PASSES + 1)); }
fail() { FAILS=$((FAILS + 1)); echo "FAIL: $*"; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-}:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-}:halt_on_error=1:exitcode=98:print_stacktrace=1

# IPv6's share is test_cli_matrix6.sh, which sources this file with CLI_FAMILY=6: two tests
# that ctest runs side by side (the sanitizer build takes a minute for the whole matrix)
if [ "${CLI_FAMILY:-4}" = 6 ]; then
	addrs=("--srcip 2001:2::1 --dstip 2001:2::2" "--srcip 2001:2:: --dstip 2001:2::2"
		"--srcip 2001:2::ffff:fff0 --dstip 2001:2::2")
else
	addrs=("--srcip 198.18.0.1 --dstip 198.18.0.2" "--srcip 198.19.255.250 --dstip 198.18.0.2")
fi
sizes=("" "--imix" "--payloadsize 8" "--frame-size 1514")
flows=("" "--flows 50" "--flows 50 --flows-src-ip" "--flows 65000")
counts=("--count 1 --streams 2:1" "--count 5 --streams 8:5" "--count 1000 --streams 3:1000"
	"--count 1:1")

for a in "${addrs[@]}"; do
	for s in "${sizes[@]}"; do
		for f in "${flows[@]}"; do
			for c in "${counts[@]}"; do
				want=${c##*:}
				args="--method null $a $s $f ${c%:*} -q --format json"
				# shellcheck disable=SC2086
				timeout 30 "$PB" $args >"$T/out" 2>"$T/err"
				rc=$?
				if grep -q -e "Sanitizer" -e "runtime error" "$T/err"; then
					fail "$args: sanitizer report: $(head -c 300 "$T/err")"
				elif [ $rc = 0 ]; then
					# one result row: its status and count, without a JSON parser per run
					if grep -q "\"status\":\"ok\"" "$T/out" &&
						grep -q "\"frames_sent\":$want," "$T/out"; then
						ok
					else
						fail "$args: exit 0 but not $want frames sent"
					fi
				elif [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
					grep -q '^pktbench: ' "$T/err"; then
					ok
				else
					fail "$args: exit $rc: $(head -c 300 "$T/err")"
				fi
			done
		done
	done
done
if [ "${CLI_FAMILY:-4}" = 6 ]; then
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" = 0 ]
	exit
fi
# the live line of a method that puts nothing on a wire says nothing about delivery
timeout 30 "$PB" --method null --duration 1.3 >/dev/null 2>"$T/live"
if grep -q 'sent' "$T/live" && ! grep -qi 'deliver' "$T/live"; then ok; else
	fail "null's live line mentions delivery: $(head -c 300 "$T/live")"
fi

# the live line fits an 80-column terminal (off a terminal each second is its own line)
timeout 30 "$PB" --method null --duration 1.3 >/dev/null 2>"$T/live"
long=$(awk 'length > 79' "$T/live")
if grep -q 'sent' "$T/live" && [ -z "$long" ]; then ok; else
	fail "live lines wider than 79 columns: $long"
fi
# tables fit COLUMNS; a pipe without it keeps the full table for scripts; --wide shows all
for w in 80 100; do
	COLUMNS=$w timeout 30 "$PB" --method null --duration 0.2 -q >"$T/t$w" 2>/dev/null
	long=$(awk -v w=$w 'length > w' "$T/t$w")
	if grep -q '^| null' "$T/t$w" && [ -z "$long" ]; then ok; else
		fail "COLUMNS=$w: lines wider than $w: $long"
	fi
done
timeout 30 "$PB" --method null --duration 0.2 -q >"$T/tpipe" 2>/dev/null
COLUMNS=80 timeout 30 "$PB" --method null --duration 0.2 -q --wide >"$T/twide" 2>/dev/null
for f in tpipe twide; do
	if grep -q 'Syscalls/frame' "$T/$f" && grep -q 'Mb/s (app)' "$T/$f"; then ok; else
		fail "$f: not the full table: $(head -c 400 "$T/$f")"
	fi
done
# --help: no row ends in a space, and a label too long for its column has its line to itself,
# its help under it: beside it the two read as one ("--xdp-mode auto|native|generic XDP attach")
"$PB" --help >"$T/help"
if ! grep -q ' $' "$T/help" && grep -qx -- '      --xdp-mode auto|native|generic' "$T/help" &&
	grep -A1 -- '--xdp-mode auto|native|generic' "$T/help" | grep -q '^ \{28\}XDP attach'; then ok; else
	fail "--help: trailing blanks or --xdp-mode's help beside it: $(grep -n -A1 -- '--xdp-mode' "$T/help")"
fi
# -o into a folder that is not there: the folder is named, in one line, exit 2
timeout 30 "$PB" --method null --duration 0.1 -q -o "$T/nope/out.json" >/dev/null 2>"$T/err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "folder $T/nope does not exist" "$T/err"; then
	ok
else
	fail "-o into a missing folder: exit $rc: $(cat "$T/err")"
fi

echo "$PASSES passed, $FAILS failed"
[ "$FAILS" = 0 ]
