#!/bin/bash
# SPDX-License-Identifier: MIT
# The gate against an ordinary commit: a scratch clone of HEAD, one commit on top that makes a
# method's send call slower by a busy loop (the loop of methods/gate_slowdown.h, switched on
# in that method's source, as a change would be written: no build option), then the gate
# step as .ci/run runs it. It must fail on that row alone and name the base it compared with.
#
#   scripts/gate-scratch.sh [--lock FILE] [METHOD FACTOR]    (default: sendmmsg 1.5)
#
# Exit 0 when the gate did just that, 1 otherwise; the scratch clone is removed.
set -u
cd "$(dirname "$0")/.."
lock=
[ "${1:-}" = --lock ] && { lock=$2; shift 2; }
m=${1:-sendmmsg} f=${2:-1.5}
src=methods/$m.c
grep -q "^#ifdef PB_GATE_SLOW_$m " "$src" 2>/dev/null ||
	{ echo "gate-scratch: $src has no gate slowdown hook" >&2; exit 2; }
top=$(pwd)
S=$(mktemp -d /tmp/pb-scratch.XXXXXX)
trap 'rm -rf "$S"' EXIT
git clone -q "$top" "$S/repo" || exit 1
cd "$S/repo" || exit 1
sed -i "s/^#ifdef PB_GATE_SLOW_$m .*/#define PB_GATE_SLOW_FACTOR $f \/* $m's send call, $f x slower *\/\n#if 1/" "$src"
git -c user.name=scratch -c user.email=scratch@example.invalid commit -q -am "$m: a slower send call ($f x)" ||
	exit 1
echo "gate-scratch: $(git log -1 --format='%h %s') on top of $(git log -1 --format=%h HEAD~1)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPB_WERROR=ON >/dev/null &&
	cmake --build build -j"$(nproc)" --target pktbench >build.log 2>&1 ||
	{ tail -20 build.log; echo "gate-scratch: the scratch commit does not build"; exit 1; }
if [ -n "$lock" ]; then
	flock "$lock" ./scripts/ci-bench.sh build >gate.log 2>&1
else
	./scripts/ci-bench.sh build >gate.log 2>&1
fi
rc=$?
grep '^gate:' gate.log
bad=$(awk -F'|' '/\| regressed/ { gsub(/ /, "", $2); print $2 }' gate.log | paste -sd, -)
echo "gate-scratch: the gate exited $rc; rows failed: ${bad:-none}"
if [ $rc = 1 ] && [ "$bad" = "$m" ] && grep -q '^gate: comparing .* with base ' gate.log &&
	grep -q "^gate: FAIL: regressed against the base: $m " gate.log; then
	echo "gate-scratch: ok: the gate failed on $m alone, naming its base"
	exit 0
fi
echo "gate-scratch: FAILED: the gate did not fail on $m alone"
exit 1
