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
	(cd "$top" && PATH=$BIN:$PATH timeout 300 bash -e -o pipefail "$b") >"$T/out.$i" 2>"$T/err.$i"
	rc=$?
	took=$(($(date +%s) - start))
	if [ $rc = 0 ]; then
		ok "block $i ran as written in ${took} s: $what"
	else
		fail "block $i exit $rc after ${took} s: $what"
		tail -15 "$T/err.$i"
	fi
	check "block $i left no lab" no_leftovers
done
check "some blocks ran ($ran)" [ "$ran" -gt 0 ]
# The outputs the README shows (a block after `<!-- recorded: NAME -->`, which
# scripts/readme-record writes from one run of each recipe) are the program's as it is now:
# for each one whose command ran above, the tables' headings are the same, in order, every
# other line it shows (the footnotes, the agent's lines), figures aside, is one the program
# printed, and every footnote the program wrote on stdout is shown. The figures themselves
# are a run's, and are not compared.
check "the README's recorded outputs have the program's format (scripts/readme-record redoes them)" \
	python3 - "$README" "$T" <<'PY'
import os, re, sys
readme, tmp = sys.argv[1], sys.argv[2]
def shape(text):
    heads, lines, box = [], [], 0  # box: 0 outside, 1 before the heading, 2 after it
    for ln in text.rstrip("\n").split("\n"):
        if re.fullmatch(r"\+[-+]+\+", ln):
            box = 2 if box == 1 else (1 if box == 0 else 2)
            continue
        if ln.startswith("|"):
            if box == 1:
                heads.append([c.strip() for c in ln.strip().strip("|").split("|")])
            continue
        box = 0
        if ln.strip():
            lines.append(re.sub(r"[0-9]+(\.[0-9]+)?", "#", ln.strip()))
    return heads, lines
text = open(readme).read()
sh, ok, n = 0, True, 0
for m in re.finditer(r"^```sh\n|^<!-- recorded: ([a-z0-9-]+) -->\n```\n(.*?)^```", text, re.M | re.S):
    if m.group(0).startswith("```sh"):
        sh += 1
        continue
    out = os.path.join(tmp, "out.%d" % sh)
    if not os.path.exists(out):
        continue  # a block not run here (a second host, a real NIC)
    n += 1
    want_h, want_l = shape(m.group(2))
    got_h, got_l = shape(open(out).read() + open(os.path.join(tmp, "err.%d" % sh)).read())
    if want_h != got_h:
        ok = False
        print("  %s: the README's headings %s, the program's %s" % (m.group(1), want_h, got_h))
    for ln in want_l:
        if ln not in got_l:
            ok = False
            print("  %s: the README shows a line the program no longer prints: %s" % (m.group(1), ln))
    # and every footnote the program writes under its tables is shown (a skipped or failed
    # method's line is the machine's, not the format's)
    for ln in shape(open(out).read())[1]:
        if ln not in want_l and not re.match(r"(skipped|error|failed) ", ln):
            ok = False
            print("  %s: the program prints a line the README does not show: %s" % (m.group(1), ln))
print("  %d recorded outputs compared with their blocks' runs" % n)
sys.exit(0 if ok and n >= 3 else 1)
PY
# the repository stands alone: no recipe reaches outside it
check "no block refers to a path outside the repository" \
	bash -c "! grep -n '\.\./' $T/block.* >/dev/null"
finish
