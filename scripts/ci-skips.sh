#!/bin/bash
# SPDX-License-Identifier: MIT
# What the last CTest run of each build directory skipped, and why: whole tests (exit 77,
# "SKIP: reason") and the checks inside a test that could not run here ("skip: reason"); then
# every check that failed ("FAIL: what"), so that the end of a long CI log says why.
# A fresh machine's CI run should differ from a used one's only in the skips.
#   scripts/ci-skips.sh BUILD_DIR...
set -u
n=0
for b in "$@"; do
	log=$b/Testing/Temporary/LastTest.log
	[ -f "$log" ] || { echo "ci-skips: no $log"; continue; }
	while IFS= read -r line; do
		echo "  $b: $line"
		n=$((n + 1))
	done < <(awk '
		/^[0-9]+\/[0-9]+ Testing: / { t = $3 }
		/^(SKIP|skip)[:]/ { print t ": " $0 }
		/SKIP: / && !/^(SKIP|skip)[:]/ { sub(/.*SKIP: /, "SKIP: "); print t ": " $0 }' "$log")
done
echo "ci-skips: $n skipped (tests or checks)"
f=0
for b in "$@"; do
	log=$b/Testing/Temporary/LastTest.log
	[ -f "$log" ] || continue
	while IFS= read -r line; do
		echo "  $b: $line"
		f=$((f + 1))
	done < <(awk '/^[0-9]+\/[0-9]+ Testing: / { t = $3 } /^FAIL: / { print t ": " substr($0, 1, 300) }' "$log")
done
[ "$f" = 0 ] || echo "ci-skips: $f checks failed (above)"
