# SPDX-License-Identifier: MIT
# The README's recipes, as a newcomer would type them: every ```sh block of README.md runs
# verbatim, from the top of the repository, with this build's pktbench first on PATH. A block
# whose first line is `# needs: WHAT` is not run (a second host, a real NIC, or the set-up
# commands, which CI runs itself); each one left out is named. A block passes when it exits 0
# and leaves no lab behind.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$(cd "$(dirname "$PB")" && pwd)
README=$top/README.md

# block N of the README goes to $T/block.N; prints how many there are
awk -v dir="$T" '
	/^```sh[[:space:]]*$/ { n++; f = dir "/block." n; inb = 1; printf "" > f; next }
	inb && /^```/ { inb = 0; close(f); next }
	inb { print > f }
	END { print n + 0 }' "$README" >"$T/count"
count=$(cat "$T/count")
check "the README has sh blocks to run" [ "$count" -gt 0 ]

ran=0
for i in $(seq "$count"); do
	b=$T/block.$i
	first=$(head -1 "$b")
	what=$(grep -m1 -v '^#' "$b" | cut -c1-80)
	case $first in
	"# needs: "*)
		echo "left out: block $i (${first#\# }): $what"
		continue
		;;
	esac
	ran=$((ran + 1))
	start=$(date +%s)
	(cd "$top" && PATH=$BIN:$PATH timeout 300 bash -e -o pipefail "$b") >"$T/out.$i" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	if [ $rc = 0 ]; then
		ok "block $i ran as written in ${took} s: $what"
	else
		fail "block $i exit $rc after ${took} s: $what"
		tail -15 "$T/out.$i"
	fi
	check "block $i left no lab" no_leftovers
done
check "some blocks ran ($ran)" [ "$ran" -gt 0 ]
# the repository stands alone: no recipe reaches outside it
check "no block refers to a path outside the repository" \
	bash -c "! grep -n '\.\./' $T/block.* >/dev/null"
finish
