#!/bin/bash
# SPDX-License-Identifier: MIT
# The CI gate on veth pairs: the change against its base, both built here and run side by
# side in one run, no stored numbers. docs/ci.md says what it catches, measured.
#
#   scripts/ci-bench.sh [--base REV | --base-build DIR] [BUILD_DIR]
#
# The base: --base-build DIR (a tree already built: DIR/pktbench), else the commit --base
# REV, $PB_GATE_BASE or .ci/gate-base names (the landed main the change was made on). That
# commit is built here from git history alone (git archive; target pktbench; in
# BUILD_DIR-gate-base, reused while it is the same commit). A base that does not build, or
# that is not an ancestor of HEAD, fails the gate in one line that says what to do.
#
# Rounds: base and change in turns (base, change, change, base, ...), every method in each,
# round r sending from CPU (r - 1) mod the CPUs, both sides of a round on the same CPU: a
# sender's CPU/frame depends on which CPU it is on at the time (here 1.5x between the two,
# and which one is cheap changes over minutes), so the pair sees the same machine. Three
# signals per row, through `pktbench compare`:
# - CPU per frame of the sending threads: the median over rounds of change/base in the same
#   round, over the median of that ratio across the rows of its class; CPU_TOL % more fails.
# - syscalls per frame, counted not timed: SYS_TOL % more fails (a batch that broke).
# - the rate, normalised by udp_sendto of the same round, with compare's own allowance
#   (max(TOL, the rows' noise)): the slowdown that costs no CPU (a sleep, a wait).
# Every way it judges less than everything (a method left out or in one build only, a row
# not ok in a base round, a signal without figures) is a line starting "gate:", also in
# BUILD_DIR/ci-gate-summary.txt, which .ci/run prints at its end; a gate that judged no row
# fails. Exit 0 pass, 1 fail.
set -u
cd "$(dirname "$0")/.."
base_build= base_rev=${PB_GATE_BASE:-}
while [ $# -gt 0 ]; do
	case $1 in
	--base) base_rev=$2; shift 2 ;;
	--base-build) base_build=$2; shift 2 ;;
	-h | --help) sed -n '3,29p' "$0" | cut -c3-; exit 0 ;;
	-*) echo "ci-bench: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
BUILD=${1:-build}
PB=$BUILD/pktbench
TOL=${PB_CI_TOLERANCE:-45}
CPU_TOL=${PB_CI_CPU_TOLERANCE:-15}
SYS_TOL=${PB_CI_SYSCALLS_TOLERANCE:-10}
DUR=${PB_CI_DURATION:-0.4}
ROUNDS=${PB_CI_ROUNDS:-6}
SUMMARY=$BUILD/ci-gate-summary.txt
work=$(mktemp -d /tmp/pb-gate.XXXXXX)
trap 'rm -rf "$work"' EXIT
: >"$SUMMARY"
# a line for the log and for the summary at the end of .ci/run
say() { echo "gate: $*" | tee -a "$SUMMARY"; }
fail() { say "FAIL: $*"; exit 1; }
[ -x "$PB" ] || fail "no $PB: build it first (scripts/setup.sh)"

if [ -n "$base_build" ]; then
	BPB=$base_build/pktbench
	[ -x "$BPB" ] || fail "no $BPB"
	desc="the build in $base_build"
else
	why="named by \$PB_GATE_BASE"
	if [ -z "$base_rev" ]; then
		[ -f .ci/gate-base ] || fail "no base: .ci/gate-base names none (see docs/ci.md)"
		base_rev=$(grep -v '^#' .ci/gate-base | awk 'NF { print $1; exit }')
		why="named in .ci/gate-base: the landed main this work began on"
	fi
	rev=$(git rev-parse -q --verify "${base_rev}^{commit}" 2>/dev/null) ||
		fail "the base $base_rev ($why) is not a commit of this clone's history"
	git merge-base --is-ancestor "$rev" HEAD ||
		fail "the base $base_rev ($why) is not an ancestor of HEAD: name the main this work began on"
	desc="base ${rev:0:12} ($(git log -1 --format='%cs %s' "$rev" | cut -c1-60)), $why"
	[ "$rev" = "$(git rev-parse HEAD)" ] && desc="$desc; it is HEAD itself: unchanged code against itself"
	bdir=${BUILD}-gate-base
	if [ "$(cat "$bdir/commit" 2>/dev/null)" != "$rev" ] || [ ! -x "$bdir/build/pktbench" ]; then
		echo "gate: building the base ${rev:0:12} in $bdir (target pktbench)"
		rm -rf "$bdir" && mkdir -p "$bdir/src" || fail "cannot make $bdir"
		t0=$SECONDS
		# git archive: the commit's tree alone, so its build sees no file of this checkout's;
		# the ceiling keeps its version script from describing this checkout instead
		ceiling=$(cd "$bdir" && pwd)
		if ! { git archive "$rev" | tar -x -C "$bdir/src" &&
			GIT_CEILING_DIRECTORIES=$ceiling cmake -S "$bdir/src" -B "$bdir/build" \
				-DCMAKE_BUILD_TYPE=RelWithDebInfo &&
			GIT_CEILING_DIRECTORIES=$ceiling cmake --build "$bdir/build" \
				-j"$(nproc)" --target pktbench; } >"$bdir/build.log" 2>&1; then
			tail -5 "$bdir/build.log" | sed 's/^/    /'
			fail "the base ${rev:0:12} does not build on this machine ($bdir/build.log): name a newer base in .ci/gate-base"
		fi
		echo "$rev" >"$bdir/commit"
		echo "gate: the base built in $((SECONDS - t0)) s"
	fi
	BPB=$bdir/build/pktbench
fi
say "comparing $PB with $desc"

# every wire method both builds have. null measures only the harness; io_uring_sqpoll's rate
# is whether its kernel thread finds the other CPU free (0.1 to 0.44 Mpps run to run on a
# shared 2-core VM), beyond any useful tolerance: both said, not silently dropped
list() { "$1" --help | awk '/^Methods/{m=1; next} m && !NF {exit} m {print $1}' | grep -vx benchmark | sort; }
list "$BPB" >"$work/base.m"
list "$PB" >"$work/new.m"
[ -s "$work/base.m" ] && [ -s "$work/new.m" ] || fail "cannot read the methods of $BPB or $PB"
for m in $(comm -23 "$work/base.m" "$work/new.m"); do
	say "FAIL-ROW $m: in the base, not in this build (a method gone)"
	gone=1
done
for m in $(comm -13 "$work/base.m" "$work/new.m"); do say "NOT JUDGED $m: new, not in the base"; done
methods=
for m in $(comm -12 "$work/base.m" "$work/new.m"); do
	case $m in
	null) say "NOT JUDGED null: it sends nothing (the harness's own cost)" ;;
	io_uring_sqpoll) say "NOT JUDGED io_uring_sqpoll: its rate is its kernel thread's luck on a shared CPU" ;;
	*) methods=${methods:+$methods,}$m ;;
	esac
done
[ -n "$methods" ] || fail "no method in common with the base"
echo "gate: $methods; $DUR s each, $ROUNDS rounds of each side, interleaved"

ncpu=$(nproc)
bases=() news=()
for r in $(seq "$ROUNDS"); do
	cpu=$(((r - 1) % ncpu))
	# the order turns each round, so neither side is always the one after a pause
	if [ $((r % 2)) = 1 ]; then order="base new"; else order="new base"; fi
	for side in $order; do
		f=$work/$side-$r.json
		bin=$PB
		[ $side = base ] && bin=$BPB
		# exit 1 is a row that failed: its row says so and compare judges it
		"$bin" --method "$methods" --duration "$DUR" --cpus $cpu -q --format json -o "$f" \
			2>"$work/err"
		rc=$?
		if [ $rc -gt 1 ] || [ ! -s "$f" ]; then
			sed 's/^/    /' "$work/err" | tail -5
			fail "round $r of the $side exited $rc without results"
		fi
		if [ $side = base ]; then bases+=("$f"); else news+=("$f"); fi
	done
done
python3 scripts/ci_rounds.py merge "$BUILD/ci-bench-base.json" "$BUILD/ci-bench.json" \
	--base "${bases[@]}" --new "${news[@]}" || fail "the rounds could not be merged"

args=("$BUILD/ci-bench-base.json" "$BUILD/ci-bench.json" --normalize udp_sendto --tolerance "$TOL"
	--cpu-tolerance "$CPU_TOL" --syscalls-tolerance "$SYS_TOL")
"$PB" compare "${args[@]}"
rc=$?
# kept beside the result sets: scripts/gate-check.sh reads its figures from it
CMP=$BUILD/ci-gate-compare.json
"$PB" compare "${args[@]}" -f json >"$CMP" 2>/dev/null
python3 scripts/ci_rounds.py judged "$CMP" "$desc" | tee -a "$SUMMARY"
[ "${PIPESTATUS[0]}" = 0 ] || exit 1
[ -z "${gone:-}" ] || fail "a method the base has is gone"
case $rc in
0) say "PASS: no row regressed against the base" ;;
1) fail "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("regressed against the base: " + ", ".join("%s (%s)" % (r["method"], r["detail"]) for r in d["rows"] if r["fails"]))' "$CMP")" ;;
*) fail "pktbench compare could not compare (exit $rc)" ;;
esac
