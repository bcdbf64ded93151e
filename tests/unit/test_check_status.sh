# SPDX-License-Identifier: MIT
# The test scripts' checks of a status can fail: in `check "what ($(cat err))" [ $? = 0 ]`
# bash expands $? after the $(...) before it, so the check reads cat's status, always 0, and
# passes whatever the command under test did (17 such checks were found so). The status is
# taken first (`rc=$?`), then checked. This scans every script under tests/, and on a
# made-up script it names each kind of line it refuses.
command -v python3 >/dev/null || { echo "SKIP: no python3 (Debian package python3)"; exit 77; }
. "$(dirname "$0")/lib.sh"

# scan FILE...: each line (continuations joined) whose check or attempts call reads $? after a
# command substitution in the same call; exit 1 if any
cat >"$T/scan.py" <<'PY'
import re, sys
bad = 0
for f in sys.argv[1:]:
    lines = open(f, errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        start, line = i, lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + lines[i]
        m = re.search(r"(^|[;&|{(]\s*|\s)(check|attempts)\s", line)
        if m:
            rest = line[m.end():]
            q = rest.find("$?")
            if q >= 0 and ("$(" in rest[:q] or "`" in rest[:q]):
                print("%s:%d: $? read after a command substitution: %s" % (f, start + 1, line.strip()[:100]))
                bad += 1
        i += 1
sys.exit(1 if bad else 0)
PY

find "$top/tests" -name '*.sh' ! -name "$(basename "$0")" -print0 | xargs -0 python3 "$T/scan.py" >"$T/out" 2>&1
rc=$?
cat "$T/out"
check "every check under tests/ reads the status it means (exit 0)" [ $rc = 0 ]

cat >"$T/made.sh" <<'SH'
false
check "ran ($(cat err))" [ $? = 0 ]
	check "long ($(tail -1 err))" \
		[ $? = 0 ]
attempts 3 "timed `date`" test $? = 0
rc=$?
check "fine ($(cat err))" [ $rc = 0 ]
check "fine too" [ $? = 0 ]
SH
python3 "$T/scan.py" "$T/made.sh" >"$T/made.out" 2>&1
rc=$?
cat "$T/made.out"
check "a made-up script: exit 1" [ $rc = 1 ]
check "... names the three lines that read \$? too late (2, 3, 5), and no other" \
	[ "$(cut -d: -f2 "$T/made.out" | tr '\n' ' ')" = "2 3 5 " ]

# and bash itself: the status a check sees is the substitution's
false
got=$(f() { echo "$2"; }; f "x $(true)" $?)
check "bash expands \$? after a preceding \$(...) (got $got, the substitution's 0)" [ "$got" = 0 ]

finish
