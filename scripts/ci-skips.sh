#!/bin/bash
# SPDX-License-Identifier: MIT
# What the last CTest run of each build directory skipped, and why: whole tests (exit 77,
# "SKIP: reason") and the checks inside a test that could not run here ("skip: reason"); then
# every check that failed ("FAIL: what"), so that the end of a long CI log says why.
# A fresh machine's CI run should differ from a used one's only in the skips.
#   scripts/ci-skips.sh BUILD_DIR...
set -u
skips=() fails=()
for b in "$@"; do
	log=$b/Testing/Temporary/LastTest.log
	[ -f "$log" ] || { echo "ci-skips: no $log"; continue; }
	# one pass over the log: S lines are skips, F lines failed checks
	while IFS= read -r line; do
		case $line in
		S*) skips+=("  $b: ${line#S}") ;;
		F*) fails+=("  $b: ${line#F}") ;;
		esac
	done < <(awk '
		/^[0-9]+\/[0-9]+ Testing: / { t = $3 }
		/^(SKIP|skip)[:]/ { print "S" t ": " $0 }
		/SKIP: / && !/^(SKIP|skip)[:]/ { sub(/.*SKIP: /, "SKIP: "); print "S" t ": " $0 }
		/^FAIL: / { print "F" t ": " substr($0, 1, 300) }' "$log")
done
[ ${#skips[@]} = 0 ] || printf '%s\n' "${skips[@]}"
echo "ci-skips: ${#skips[@]} skipped (tests or checks)"
[ ${#fails[@]} = 0 ] || { printf '%s\n' "${fails[@]}"; echo "ci-skips: ${#fails[@]} checks failed (above)"; }
