# SPDX-License-Identifier: MIT
# scripts/include-graph.py: the checkout keeps its layout (no cycle, the engine includes
# nothing above it, no folder over a third of the lines), and on small made-up trees the
# script names each kind of break and exits 1.
command -v python3 >/dev/null || { echo "SKIP: no python3 (Debian package python3)"; exit 77; }
. "$(dirname "$0")/lib.sh"

python3 "$top/scripts/include-graph.py" "$top" >"$T/out" 2>&1
rc=$?
cat "$T/out"
check "this checkout: exit 0" [ $rc = 0 ]
check "this checkout: prints the folder graph" grep -q '^  cli *-> harness' "$T/out"
check "this checkout: the fleet is a room above the engine" grep -q '^  fleet *-> harness' "$T/out"
check "this checkout: the engine does not include the fleet" \
	sh -c "! grep -q '^  harness *-> fleet' '$T/out'"

# A tree of one line a file: harness/a.c includes lab/b.h, and so on (lines to pad).
tree() { # DIR then FILE:INCLUDE[:LINES] ...
	local d=$1 spec f inc n
	shift
	for spec in "$@"; do
		IFS=: read -r f inc n <<<"$spec"
		mkdir -p "$d/$(dirname "$f")"
		{ [ -n "$inc" ] && echo "#include \"$inc\""; yes '/* */' | head -n "${n:-1}"; } >"$d/$f"
	done
}
broken() { # NAME, DIR, what the FAIL line says
	python3 "$top/scripts/include-graph.py" "$2" >"$T/b.out" 2>&1
	local rc=$?
	check "$1: exit 1" [ $rc = 1 ]
	check "$1: says '$3'" grep -q "FAIL: .*$3" "$T/b.out"
}
tree "$T/up" harness/run.c:rx.h harness/run.h: receiver/rx.h: receiver/rx.c:rx.h:3 \
	methods/m.c:run.h:3 cli/main.c:run.h:3
broken "the engine includes receiver/" "$T/up" "the engine includes receiver/rx.h"
tree "$T/fl" harness/run.c:fleet.h harness/run.h: fleet/fleet.h: fleet/fleet.c:fleet.h:3 \
	methods/m.c:run.h:3 cli/main.c:run.h:3
broken "the engine includes fleet/" "$T/fl" "the engine includes fleet/fleet.h"
tree "$T/cyc" lab/lab.c:opt.h lab/lab.h: options/opt.c:lab.h options/opt.h: harness/e.c::4 \
	cli/c.c::4 methods/m.c::4
broken "a folder cycle" "$T/cyc" "the folders' includes form a cycle"
tree "$T/pair" results/w.c:r.h results/w.h: results/r.c:w.h results/r.h: harness/e.c::4 \
	cli/c.c::4 methods/m.c::4
broken "two files include each other" "$T/pair" "files include each other: results/r -> results/w"
tree "$T/big" methods/m.c::40 harness/e.c::10 cli/c.c::10 lab/l.c::10
broken "a folder over a third" "$T/big" "methods/ holds 40 of"

finish
