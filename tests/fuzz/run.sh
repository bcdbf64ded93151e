#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs one fuzz target for a bounded time and prints a one-line summary.
#   tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET]
# TARGET is scenario (the scenario loader, the default), api (what the receive agent and
# its client parse) or merge (the result files and logs pktbench merge reads). BUILD_DIR is
# configured with: CC=clang cmake -S . -B BUILD_DIR -DPB_FUZZ=ON
# Seeds: scenarios/*.yaml, tests/fuzz/api_seeds/ or merge_seeds/; the corpus grows in
# BUILD_DIR/fuzz/corpus (api, merge: BUILD_DIR/fuzz-TARGET/corpus) across runs. Exits 1 on a
# crash, leak, timeout (a hang) or running out of memory, keeping the input that did it in the
# artifacts/ beside the corpus (replay: BUILD_DIR/fuzz_TARGET FILE); 2 on bad usage.
set -u

if [ $# -lt 2 ] || [ $# -gt 3 ] || ! [ "$2" -gt 0 ] 2>/dev/null; then
	echo "usage: $0 BUILD_DIR SECONDS [scenario|api|merge]" >&2
	exit 2
fi
build=$1
secs=$2
target=${3:-scenario}
src=$(cd "$(dirname "$0")/../.." && pwd)
name=fuzz_$target
bin=$build/$name
case $target in
scenario)
	work=$build/fuzz
	seeds=("$src"/scenarios/*.yaml)
	;;
api | merge)
	work=$build/fuzz-$target
	seeds=("$src"/tests/fuzz/${target}_seeds/*)
	;;
*)
	echo "$0: no fuzz target '$target' (scenario, api or merge)" >&2
	exit 2
	;;
esac
if [ ! -x "$bin" ]; then
	echo "$name: $bin is not built (configure with CC=clang -DPB_FUZZ=ON)" >&2
	exit 2
fi

mkdir -p "$work/corpus" "$work/artifacts"
cp "${seeds[@]}" "$work/corpus/"
log=$work/$name.log
dict=$work/$target.dict
if [ "$target" = scenario ]; then
	# the YAML tokens here, the keys and values from the option table (generated at build time)
	if [ ! -f "$build/scenario-keys.dict" ]; then
		echo "$name: $build/scenario-keys.dict is not built" >&2
		exit 2
	fi
	cat "$src/tests/fuzz/scenario.dict" "$build/scenario-keys.dict" >"$dict"
else
	cp "$src/tests/fuzz/$target.dict" "$dict"
fi

# -timeout: one input taking this long is a hang; -rss_limit_mb: so is growing without bound.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$bin" "$work/corpus" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-max_len=8192 -dict="$dict" -artifact_prefix="$work/artifacts/" \
	-print_final_stats=1 >"$log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | cut -d' ' -f2)
corpus=$(find "$work/corpus" -type f | wc -l)
if [ "$rc" -eq 0 ]; then
	echo "$name: ok, ${runs:-?} inputs in ${secs} s (coverage ${cov:-?}, corpus $corpus): no crash, leak or hang"
	exit 0
fi
what=$(grep -m1 -E '^SUMMARY: |^==[0-9]+== ?ERROR: ' "$log" | sed 's/^SUMMARY: //; s/^==[0-9]*== *//')
input=$(grep -o -m1 'Test unit written to .*' "$log" | sed 's/^Test unit written to //')
tail -n 40 "$log" >&2
echo "$name: FAILED after ${runs:-?} inputs: ${what:-exit status $rc}; input: ${input:-none}; log: $log"
exit 1
