# SPDX-License-Identifier: MIT
# What a newcomer reads first fits an 80-column terminal: pktbench --help, every command's
# --help and the man page rendered at 80 columns have no line over 80, and no option's label
# runs into its help or into the next entry (a label and its help one space apart read as one:
# "--xdp-mode auto|native|generic XDP attach", "--preload auto|always|never--replay: ...").
# The man page's scenario folder is the one its FILES section names.
set -u
PB=${1:?usage: $0 PKTBENCH}
BUILD=$(cd "$(dirname "$PB")" && pwd)
T=$(mktemp -d /tmp/pbhelp.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

# fits FILE WHAT: no line over 80 columns, no label run into its help
fits() {
	local long run
	long=$(awk 'length > 80 { printf "%d: %s\n", NR, $0 }' "$1" | head -3)
	[ -z "$long" ] && ok "$2: every line within 80 columns" ||
		bad "$2: lines over 80 columns: $long"
	# an option row: its label, then two spaces or the end of the line; and nothing of a
	# label glued to the text before it
	run=$(/usr/bin/python3 - "$1" <<'PY'
import re, sys
for n, ln in enumerate(open(sys.argv[1]), 1):
    ln = ln.rstrip("\n")
    m = re.match(r"^  (-\w, |    )(--[\w-]+)( [^ ]+)?(.*)$", ln)
    if m and m.group(4) and not m.group(4).startswith("  "):
        print("%d: %s" % (n, ln))
    if re.search(r"[a-z|\]]--[a-z][\w-]+", ln) and not re.search(r"https?://", ln):
        print("%d: %s" % (n, ln))
PY
)
	[ -z "$run" ] && ok "$2: no entries run together" ||
		bad "$2: entries run together: $(echo "$run" | head -3)"
	# the exit statuses: a code, then its meaning after a space ("0every row ran",
	# "1arunfailed" were written where the wrap began left of its indent)
	run=$(awk '/^Exit status/ { e = 1; next } e && !NF { exit }
		e && /^  [0-9]/ && !/^  [0-9]+ +[a-z(]/ { printf "%d: %s\n", NR, $0 }' "$1")
	[ -z "$run" ] && ok "$2: each exit status apart from its meaning" ||
		bad "$2: an exit status run into its meaning: $(echo "$run" | head -3)"
}

"$PB" --help >"$T/main" 2>&1
fits "$T/main" "pktbench --help"
cmds=$(awk '/^Commands/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && !NF { exit }' "$T/main")
[ -n "$cmds" ] && ok "commands listed: $(echo $cmds)" || bad "no commands in pktbench --help"
for c in $cmds; do
	"$PB" "$c" --help >"$T/$c" 2>&1
	fits "$T/$c" "pktbench $c --help"
done

MAN=$BUILD/pktbench.8
if [ ! -s "$MAN" ]; then
	bad "no man page at $MAN (the build makes it: pb_docs)"
elif ! command -v man >/dev/null; then
	echo "SKIP: the man page's width needs man (Debian package man-db)"
else
	MANWIDTH=80 man -l "$MAN" 2>/dev/null | col -bx >"$T/man"
	[ -s "$T/man" ] && ok "man -l renders it" || bad "man -l $MAN renders nothing"
	fits "$T/man" "the man page at MANWIDTH=80"
	files=$(awk '/^FILES/ { f = 1; next } f && /scenarios$/ { print $1; exit }' "$T/man")
	if [ -n "$files" ] && grep -q "$files/[a-z-]*\.yaml" "$T/man" &&
		{ [ "$files" = /usr/share/pktbench/scenarios ] ||
			! grep -q "/usr/share/pktbench/scenarios" "$T/man"; }; then
		ok "EXAMPLES name FILES' scenario folder ($files)"
	else
		bad "EXAMPLES and FILES disagree on the scenario folder (FILES: $files): $(grep -n 'scenarios' "$T/man" | head -3)"
	fi
	# a scenario an example names is where a reader finds it: installed, or in the source
	# tree (a source build's man -l names an install folder it never filled), and then the
	# example says the tree's path too
	top=$(cd "$(dirname "$0")/../.." && pwd)
	for y in $(sed -n '/^EXAMPLES/,/^FILES/p' "$T/man" | grep -o '/[^ ]*/scenarios/[a-z-]*\.yaml'); do
		name=scenarios/$(basename "$y")
		if [ -e "$y" ] || { [ -e "$top/$name" ] &&
			sed -n '/^EXAMPLES/,/^FILES/p' "$T/man" | grep -q "[ (]$name"; }; then
			ok "the example's $y is there, or named in the source tree ($name)"
		else
			bad "the example's $y: not installed, and the example names no $name of the source tree"
		fi
	done
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
