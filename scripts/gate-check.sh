#!/bin/bash
# SPDX-License-Identifier: MIT
# How good is the CI gate (scripts/ci-bench.sh)? Runs it on unchanged code and on builds with
# one method's send loop made slower on purpose (CMake's PB_GATE_SLOWDOWN, a busy-wait sized
# from that loop's own cost: methods/gate_slowdown.h), each N times beside scripts/noisy.sh,
# and prints the catch rate per slowdown and the false alarm rate. The base of every run is
# the unchanged build, run beside the case's build in the same interleaved rounds, as CI runs
# its base beside the change (unchanged: the unchanged build beside itself).
#
#   scripts/gate-check.sh [-n N] [--short] [--busy MS] [--only LIST]
#
#   -n N        gate runs per case (default 10); the cases take turns, one run each
#   --short     one run per case, a quick check that every case builds and runs
#   --busy MS   noisy.sh's hogs are busy MS of every 100 ms (default 30; 0: no hogs)
#   --only LIST the cases to run, comma-separated (default: every case below)
#
# Cases: "unchanged", and METHOD:FACTOR for each slowdown in SLOWDOWNS. A slowdown is caught
# when the gate fails on that method's row; the gate failing on any other row, in any case,
# is a false alarm. Each gate run takes /tmp/pb-net.lock for itself alone (with its hogs),
# so other work on the lock interleaves. Builds go in build-gate (unchanged) and
# build-gate-slow-METHOD-FACTOR; PB_GATE_BUILD changes the prefix. Every run's line is also
# appended to $PB_GATE_LOG (default build-gate/gate-check.log), so counts can be summed
# over several invocations.
set -u
cd "$(dirname "$0")/.."
SLOWDOWNS=(af_packet:2 udp_connected:2 sendmmsg:1.5 sendmmsg:1.3)
n=10 busy=30 only=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	--short) n=1; shift ;;
	--busy) busy=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	-h | --help) sed -n '3,23p' "$0" | cut -c3-; exit 0 ;;
	*) echo "gate-check: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
case "$n$busy" in *[!0-9]*) echo "gate-check: -n and --busy take whole numbers" >&2; exit 2 ;; esac
prefix=${PB_GATE_BUILD:-build-gate}
log=${PB_GATE_LOG:-$prefix/gate-check.log}
cases=(unchanged "${SLOWDOWNS[@]}")
if [ -n "$only" ]; then IFS=, read -ra cases <<<"$only"; fi

dir_of() { [ "$1" = unchanged ] && echo "$prefix" || echo "$prefix-slow-${1%%:*}-${1#*:}"; }
# the unchanged build is every case's base, so it is built whichever cases run
builds=(unchanged "${cases[@]}")
# shellcheck disable=SC2207
builds=($(printf '%s\n' "${builds[@]}" | awk '!seen[$0]++'))

# the builds: only pktbench, with the project's own warnings as errors
for c in "${builds[@]}"; do
	d=$(dir_of "$c")
	slow=
	[ "$c" = unchanged ] || slow=$c
	echo "gate-check: building $d${slow:+ (PB_GATE_SLOWDOWN=$slow)}"
	mkdir -p "$d" && cmake -S . -B "$d" -DPB_WERROR=ON -DPB_GATE_SLOWDOWN="$slow" >"$d/gate-cmake.log" 2>&1 &&
		cmake --build "$d" --target pktbench >>"$d/gate-cmake.log" 2>&1 ||
		{ echo "gate-check: the build of $d failed: $d/gate-cmake.log" >&2; exit 1; }
done
mkdir -p "$(dirname "$log")"
noisy=()
[ "$busy" -gt 0 ] && noisy=(scripts/noisy.sh --busy "$busy" --)

declare -A runs caught alarms errors
for i in $(seq "$n"); do
	for c in "${cases[@]}"; do
		d=$(dir_of "$c")
		m=${c%%:*}
		out=$d/gate-run.txt
		t0=$SECONDS
		flock -o /tmp/pb-net.lock "${noisy[@]}" scripts/ci-bench.sh --base-build "$prefix" "$d" >"$out" 2>&1
		rc=$?
		# rows the gate failed: the table's lines whose verdict says so
		bad=$(awk -F'|' '/\| (regressed|not comparable|missing in NEW|skipped in NEW|error in NEW)/ {gsub(/ /, "", $2); print $2}' "$out" |
			sort -u | paste -sd, -)
		# the gate must name the base it compared with
		grep -q '^gate: comparing ' "$out" || bad=${bad:+$bad,}no-base-named
		# the figures behind it: the gate's own comparison, kept in the build directory
		fig=$(python3 -c '
import json, sys
d, m = json.load(sys.stdin), sys.argv[1]
rows = [r for r in d["rows"] if r.get("cpu_ratio") is not None]
other = max((r for r in rows if r["method"] != m), key=lambda r: r["cpu_ratio"])
own = [r for r in rows if r["method"] == m]
s = "%s cpu x%.2f rate x%.2f; " % (m, own[0]["cpu_ratio"], own[0]["ratio"]) if own else ""
print(s + "highest other cpu x%.2f (%s)" % (other["cpu_ratio"], other["method"]))' "$m" \
			<"$d/ci-gate-compare.json" 2>/dev/null)
		runs[$c]=$((${runs[$c]:-0} + 1))
		if [ $rc -gt 1 ] || { [ $rc = 1 ] && [ -z "$bad" ]; }; then
			verdict=error
			errors[$c]=$((${errors[$c]:-0} + 1))
		else
			verdict=pass
			[ $rc = 1 ] && verdict="failed on $bad"
			if [ "$c" != unchanged ] && [[ ",$bad," == *",$m,"* ]]; then
				caught[$c]=$((${caught[$c]:-0} + 1))
				verdict="caught; $verdict"
			fi
			# a row that failed but was not slowed on purpose
			others=$(tr , '\n' <<<"$bad" | grep -vx -e "$m" -e '' | paste -sd, -)
			[ -n "$others" ] && alarms[$c]=$((${alarms[$c]:-0} + 1))
		fi
		line="$(date -u +%FT%TZ) busy=$busy case=$c rc=$rc verdict=[$verdict] $fig ($((SECONDS - t0)) s)"
		echo "gate-check: [$i/$n] $line"
		echo "$line" >>"$log"
		[ "$verdict" = error ] && sed 's/^/    /' "$out" | tail -5
	done
done

echo "gate-check: $n run(s) per case beside noisy.sh --busy $busy (0: none)"
for c in "${cases[@]}"; do
	r=${runs[$c]:-0} a=${alarms[$c]:-0} e=${errors[$c]:-0}
	if [ "$c" = unchanged ]; then
		printf '  %-18s passed %d of %d (false alarms %d, errors %d)\n' "$c" $((r - a - e)) "$r" "$a" "$e"
	else
		printf '  %-18s caught %d of %d (another row failed in %d, errors %d)\n' "$c" \
			"${caught[$c]:-0}" "$r" "$a" "$e"
	fi
done
