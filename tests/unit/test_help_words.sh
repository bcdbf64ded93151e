# SPDX-License-Identifier: MIT
# No two words of a help text run together: where a wrap lost a space, every command's help
# printed "0every row ran" and "1arunfailed". Every word of every command's --help and of the
# man page must be one of the words its text is made of: the string literals of the sources
# (option tables, methods, commands, the man page's generator), each literal split into words
# on its own, so a word glued to its neighbour, which no literal holds, is named with its line.
# A word is a run of letters and digits (af_packet is af and packet, --frame-size frame and
# size); numbers alone pass (defaults, addresses), and so do absolute paths (the install's).
# A made-up text checks that the scan names what it must and passes what it must.
PB=${1:?usage: $0 path/to/pktbench}
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/python3 ] || { echo "SKIP: no /usr/bin/python3 (Debian package python3)"; exit 77; }
BUILD=$(cd "$(dirname "$PB")" && pwd)

cat >"$T/scan.py" <<'PY'
import os, re, sys

WORD = re.compile(r"[A-Za-z0-9]+")

def literals(text):
    """The C string literals of text, comments and character constants left out."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 2
        elif c == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == '"':
            j, buf = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    buf.append({"n": " ", "t": " "}.get(text[j + 1], text[j + 1]))
                    j += 2
                else:
                    buf.append(text[j])
                    j += 1
            # roff's font changes and minus signs (the man page's generator writes them)
            out.append(re.sub(r"\\f[BIRP]", " ", "".join(buf)).replace("\\-", "-"))
            i = j + 1
        else:
            i += 1
    return out

def dictionary(top):
    words = set()
    for d in ("options", "cli", "suites", "results", "receiver", "methods", "dist", "harness",
              "lab", "fleet"):
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                if f.endswith((".c", ".h")):
                    for lit in literals(open(os.path.join(root, f), errors="replace").read()):
                        words.update(w.lower() for w in WORD.findall(lit))
    return words

def glued(words, path):
    """(line number, word, line) of each word no literal holds."""
    bad = []
    for no, line in enumerate(open(path, errors="replace"), 1):
        # an absolute path is the install's (GNUInstallDirs' lib, etc), not the text's words
        for w in WORD.findall(re.sub(r"(^|\s)/\S*", " ", line)):
            if not w.isdigit() and w.lower() not in words:
                bad.append((no, w, line.strip()))
    return bad

top, *files = sys.argv[1:]
words = dictionary(top)
if files[0] == "--selftest":
    found = {w for _, w, _ in glued(words, files[1])}
    want, fine = set(files[2].split()), set(files[3].split())
    miss, wrong = want - found, found & fine
    print("named: %s" % " ".join(sorted(found)))
    sys.exit(1 if miss or wrong else 0)
status = 0
for path in files:
    for no, w, line in glued(words, path)[:5]:
        print("%s:%d: '%s' in: %s" % (os.path.basename(path), no, w, line[:100]))
        status = 1
sys.exit(status)
PY

# the scan itself: glued words named, legitimate ones passed
cat >"$T/made_up" <<'EOF'
Exit status:
  0every row ran or was skipped with its reason
  1    arunfailed, or the results could not be written
  -m, --method NAME         methodto run: af_packet, pktbench's 198.18.0.2 64:7,594:4
EOF
check "the scan names glued words and passes real ones" /usr/bin/python3 "$T/scan.py" "$top" \
	--selftest "$T/made_up" "0every arunfailed methodto" "af packet pktbench s 198 18 0 2 64"

"$PB" --help >"$T/pktbench--help" 2>&1
files=("$T/pktbench--help")
for c in $(awk '/^Commands/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && !NF { exit }' \
	"$T/pktbench--help"); do
	"$PB" "$c" --help >"$T/$c--help" 2>&1
	files+=("$T/$c--help")
done
check "commands' help read: ${#files[@]}" [ ${#files[@]} -ge 5 ]
if command -v man >/dev/null && [ -s "$BUILD/pktbench.8" ]; then
	# its header and footer carry the version (a commit's hash): not words of a text
	MANWIDTH=80 man -l "$BUILD/pktbench.8" 2>/dev/null | col -bx | sed '1d;$d' >"$T/man"
	files+=("$T/man")
else
	echo "skip: the man page (man, Debian package man-db, or $BUILD/pktbench.8 missing)"
fi
for f in "${files[@]}"; do
	out=$(/usr/bin/python3 "$T/scan.py" "$top" "$f")
	rc=$?
	check "$(basename "$f"): no words run together${out:+: $out}" [ $rc = 0 ]
done
finish
