# SPDX-License-Identifier: MIT
# scripts/plot turns a result set into a PNG: a bar chart, and a line chart for a sweep.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/pbplot.XXXXXX)
trap 'rm -rf "$T"' EXIT
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || { echo "SKIP: python3-matplotlib is not installed"; exit 77; }
pass=0 fail=0
png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
run() { # run "what" json
	if "$top/scripts/plot" "$2" -o "$T/out.png" >/dev/null && png "$T/out.png"; then
		pass=$((pass + 1)); echo "ok: $1"
	else
		fail=$((fail + 1)); echo "FAIL: $1"
	fi
	rm -f "$T/out.png"
}
run "bar chart of a benchmark" "$top/tests/unit/data/base.json"
run "line chart of a sweep" "$top/tests/unit/data/base_points.json"
if "$top/scripts/plot" "$top/tests/unit/data/not_json.json" -o "$T/x.png" 2>/dev/null; then
	fail=$((fail + 1)); echo "FAIL: unreadable input is refused"
else
	pass=$((pass + 1)); echo "ok: unreadable input is refused"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
