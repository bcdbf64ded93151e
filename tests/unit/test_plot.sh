# SPDX-License-Identifier: MIT
# scripts/plot turns a result set into a PNG: packets/s as points (with latency probes, and a CDF of
# each method's one-way latency), a line chart for a sweep, an rfc2544 report's charts;
# without matplotlib it says in one line which package to install.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/pbplot.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

# Without matplotlib: one line naming the package, no traceback, no file. A package of that
# name that cannot be imported, first on PYTHONPATH, hides the real one.
mkdir -p "$T/hide/matplotlib"
echo 'raise ImportError("hidden by test_plot.sh")' >"$T/hide/matplotlib/__init__.py"
PYTHONPATH=$T/hide "$top/scripts/plot" "$top/tests/unit/data/base.json" -o "$T/none.png" \
	>"$T/out" 2>"$T/err"
rc=$?
if [ $rc != 0 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "install python3-matplotlib" "$T/err" &&
	! grep -q Traceback "$T/err" && [ ! -e "$T/none.png" ] && [ ! -s "$T/out" ]; then
	pass=$((pass + 1)); echo "ok: without matplotlib: $(cat "$T/err")"
else
	fail=$((fail + 1)); echo "FAIL: without matplotlib: exit $rc: $(head -c 600 "$T/err")"
fi
# ... and the line names the interpreter that lacks it, so a python3 other than Debian's is
# not told to install a package that is already there
if grep -q "python3 (/usr/bin/python3" "$T/err"; then
	pass=$((pass + 1)); echo "ok: the interpreter is named"
else
	fail=$((fail + 1)); echo "FAIL: the interpreter is not named: $(cat "$T/err")"
fi
if PYTHONPATH=$T/hide "$top/scripts/plot" --help >/dev/null 2>&1; then
	pass=$((pass + 1)); echo "ok: --help needs no matplotlib"
else
	fail=$((fail + 1)); echo "FAIL: --help needs matplotlib"
fi

if ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	echo "$pass passed, $fail failed; SKIP: the charts themselves (python3-matplotlib is not installed)"
	[ $fail = 0 ] && exit 77
	exit 1
fi
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
run "bar chart and latency CDF" "$top/tests/unit/data/latency.json"
run "time series of a --stream file" "$top/tests/unit/data/stream.ndjson"
if "$top/scripts/plot" "$top/tests/unit/data/stream.ndjson" -o "$T/st.png" |
	grep -q "a time series of 2 runs"; then
	pass=$((pass + 1)); echo "ok: a --stream file draws a line for each of its 2 runs"
else
	fail=$((fail + 1)); echo "FAIL: the --stream file's runs"
fi
if "$top/scripts/plot" "$top/tests/unit/data/latency.json" -o "$T/lat.png" |
	grep -q "with a latency CDF of 2 methods"; then
	pass=$((pass + 1)); echo "ok: the CDF draws the two methods whose probes were timed"
else
	fail=$((fail + 1)); echo "FAIL: the latency CDF"
fi
if "$top/scripts/plot" --cdf "$top/tests/unit/data/latency.json" -o "$T/cdf.png" |
	grep -q "a latency CDF of 2 methods" && png "$T/cdf.png" &&
	! "$top/scripts/plot" --cdf "$top/tests/unit/data/base.json" -o "$T/x.png" 2>/dev/null; then
	pass=$((pass + 1)); echo "ok: --cdf: the CDF alone; refused without probes"
else
	fail=$((fail + 1)); echo "FAIL: --cdf"
fi
if "$top/scripts/plot" "$top/tests/unit/data/base.json" -o "$T/b.png" | grep -q "latency"; then
	fail=$((fail + 1)); echo "FAIL: a CDF without probes"
else
	pass=$((pass + 1)); echo "ok: no probes, no CDF"
fi
run "line chart of a sweep" "$top/tests/unit/data/base_points.json"
run "rfc2544: throughput, loss-rate and back-to-back charts" "$top/tests/unit/data/rfc2544.json"
if "$top/scripts/plot" "$top/tests/unit/data/not_json.json" -o "$T/x.png" 2>/dev/null; then
	fail=$((fail + 1)); echo "FAIL: unreadable input is refused"
else
	pass=$((pass + 1)); echo "ok: unreadable input is refused"
fi
# Bad input and a bad place to write: one line on stderr, exit status not 0, no traceback.
one_line() { # one_line "what" expected-text args...
	local what=$1 want=$2
	shift 2
	"$top/scripts/plot" "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ $rc != 0 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -- "$want" "$T/err" &&
		! grep -q Traceback "$T/err"; then
		pass=$((pass + 1)); echo "ok: $what: $(cat "$T/err")"
	else
		fail=$((fail + 1)); echo "FAIL: $what: exit $rc: $(head -c 300 "$T/err")"
	fi
}
one_line "a row whose pps is a string" "results\[0\]" "$top/tests/unit/data/bad_row.json" -o "$T/x.png"
one_line "an output folder that does not exist" "$T/no/such" "$top/tests/unit/data/base.json" \
	-o "$T/no/such/x.png"
one_line "--docs into a folder that does not exist" "$T/nodocs" --docs "$T/nodocs"

# What the charts say (PB_PLOT_TEXTS: every text of the figure, and its count of bars): rates
# are points on the log axis, never bars whose length reads as a ratio, with the values
# printed; a replay says what it replayed and gives a paced sender's CPU as a share of a CPU,
# not ns a frame; an rfc2544 chart names its device under test.
says() { # says "what" json want-regex... : every regex matches a line of the chart's texts
	local what=$1 json=$2 re ok=1
	shift 2
	PB_PLOT_TEXTS=$T/texts "$top/scripts/plot" "$json" -o "$T/s.png" >/dev/null || ok=0
	for re in "$@"; do
		grep -qE -- "$re" "$T/texts" 2>/dev/null || { ok=0; echo "  no line matches: $re"; }
	done
	if [ $ok = 1 ]; then
		pass=$((pass + 1)); echo "ok: $what"
	else
		fail=$((fail + 1)); echo "FAIL: $what; its texts: $(tr '\n' '|' <"$T/texts" | head -c 800)"
	fi
}
says "benchmark: points, not bars, values printed, one run each said" \
	"$top/tests/unit/data/base.json" '^bars 0$' 'read the printed values; one run each' \
	'^[0-9]+\.[0-9]+$' '^CPU ns/frame$'
says "replay: what was replayed, and paced CPU as a share of a CPU" \
	"$top/tests/unit/data/replay.json" '--replay trace\.pcap x2, timing ' \
	'^CPU ns/frame \(paced: % of a CPU\)$' '^[0-9]+ % \(paced\)$' '^bars 0$'
says "rfc2544: the device under test is named" "$top/tests/unit/data/rfc2544.json" \
	'device under test: set up by --lab-dut-setup tbf\.sh'
says "rfc2544 --search mlr: a line a goal (its conditional throughput), its relevant bounds" \
	"$top/tests/unit/data/rfc2544_mlr.json" '^udp_sendto loss 0 %$' '^udp_sendto loss 0\.5 %$' \
	'^udp_sendto loss 0\.5 %: relevant bounds$' 'RFC 9971 MLRsearch\): conditional throughput, bounds'
says "docs' rfc2544 chart: the tbf and its rate, from the script's own # dut: line" \
	"$top/docs/data/rfc2544.json" 'device under test: a tbf of 20 Mbit/s .*scripts/dut-tbf\.sh'

# issue 45: a short run's stream drawn on an axis from 0 s, not 1.0085 to 1.0120 s; no text cut
# off at the figure's edge (the replay chart's "CPU ns/frame (paced: % o"); nothing in a legend
# that is not drawn (rfc2544's unpaced maximum at one frame size, a line of one point); the
# axes' limits, clipped texts and undrawn legend entries are in PB_PLOT_TEXTS' dump
/usr/bin/python3 - "$T/short.ndjson" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for k, (m, t) in enumerate((("af_xdp", 1.0085), ("af_packet", 1.0101), ("udp_sendto", 1.012))):
        for last, tt in ((False, t), (True, t + 0.004)):
            f.write(json.dumps({"type": "interval", "method": m, "point": None, "run_id": k + 1,
                                "t_s": tt, "dt_s": tt if not last else 0.004, "pps": 1e6 * (k + 1),
                                "delivered_pps": 1e6 * (k + 1), "last": last}) + "\n")
PY
axes() { # axes "what" json axis lo-test hi-test: the first axes' limits (python expressions on v)
	local what=$1 json=$2 axis=$3 lo=$4 hi=$5
	PB_PLOT_TEXTS=$T/texts "$top/scripts/plot" "$json" -o "$T/a.png" >/dev/null 2>&1
	if /usr/bin/python3 - "$T/texts" "$axis" "$lo" "$hi" <<'PY'; then
import sys
lines = [l.split() for l in open(sys.argv[1]) if l.startswith("axes 0 ")]
v = dict(zip(lines[0][2::3], zip(map(float, lines[0][3::3]), map(float, lines[0][4::3]))))
a, b = v[sys.argv[2]]
sys.exit(0 if eval(sys.argv[3], {"v": a}) and eval(sys.argv[4], {"v": b}) else 1)
PY
		pass=$((pass + 1)); echo "ok: $what"
	else
		fail=$((fail + 1)); echo "FAIL: $what: $(grep '^axes' "$T/texts" 2>/dev/null | head -2 | tr '\n' '|')"
	fi
}
axes "a stream of 1 s runs: its seconds from 0, at least 1 s wide" "$T/short.ndjson" xlim \
	"v == 0" "v >= 1"
none() { # none "what" json regex: no line of the chart's texts matches
	PB_PLOT_TEXTS=$T/texts "$top/scripts/plot" "$2" -o "$T/n.png" >/dev/null 2>&1
	if [ -s "$T/texts" ] && grep -q '^axes 0 ' "$T/texts" && ! grep -qE -- "$3" "$T/texts"; then
		pass=$((pass + 1)); echo "ok: $1"
	else
		fail=$((fail + 1)); echo "FAIL: $1: $(grep -E -- "$3" "$T/texts" 2>/dev/null | head -3 | tr '\n' '|')"
	fi
}
none "replay: no heading cut off at the edge" "$top/tests/unit/data/replay.json" '^clipped: '
none "benchmark: no text cut off" "$top/tests/unit/data/base.json" '^clipped: '
/usr/bin/python3 - "$top/tests/unit/data/rfc2544.json" "$T/rfc64.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"] = [r for r in d["results"] if r.get("frame_size") in (64, None)]
json.dump(d, open(sys.argv[2], "w"))
PY
none "rfc2544 at one frame size: every legend entry drawn" "$T/rfc64.json" '^undrawn: '
none "rfc2544: no text cut off" "$top/tests/unit/data/rfc2544.json" '^clipped: '
# without -o: the exit status the docstring gives for a command line it cannot use, one line
"$top/scripts/plot" "$top/tests/unit/data/base.json" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "exit status 2 for a command line" "$top/scripts/plot"; then
	pass=$((pass + 1)); echo "ok: without -o: exit 2, as the docstring says, one line: $(cat "$T/err")"
else
	fail=$((fail + 1)); echo "FAIL: without -o: exit $rc, $(wc -l <"$T/err") lines, against the docstring's: $(grep -o 'exit status [0-9][^.]*' "$top/scripts/plot" | head -2 | tr '\n' '|')"
fi

# --docs draws every chart of docs/ from the result sets stored beside them
mkdir -p "$T/docs"
cp -r "$top/docs/data" "$T/docs/"
if "$top/scripts/plot" --docs "$T/docs" >/dev/null && png "$T/docs/benchmark.png" &&
	png "$T/docs/rfc2544.png" && png "$T/docs/latency.png"; then
	pass=$((pass + 1)); echo "ok: --docs draws benchmark.png, rfc2544.png and latency.png"
else
	fail=$((fail + 1)); echo "FAIL: --docs"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
