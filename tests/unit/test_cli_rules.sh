# SPDX-License-Identifier: MIT
# What a user types is what they get (issue 45), for what the method that needs no wire shows
# without root or a network: --stream - leaves stdout to the NDJSON alone (`| jq` reads every
# line), and the report that would share stdout with it goes elsewhere or is refused.
PB=${1:?usage: $0 path/to/pktbench}
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:abort_on_error=0:exitcode=99

# every line of FILE parses as one JSON object, and there is at least one
ndjson() {
	/usr/bin/python3 - "$1" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines, "no lines"
for n, ln in enumerate(lines, 1):
    try:
        assert isinstance(json.loads(ln), dict)
    except Exception as e:
        sys.exit("line %d is not a JSON object: %r (%s)" % (n, ln[:80], e))
PY
}

# refused WHAT WANT ARGS...: exit 2, one line on stderr holding WANT, nothing on stdout
refused() {
	local what=$1 want=$2 rc
	shift 2
	"$PB" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	check "$what: exit 2 (was $rc), one line with '$want': $(head -c 300 "$T/err")" \
		eval '[ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -qF -- "$want" "$T/err" && [ ! -s "$T/out" ]'
}

# 1. --stream -: stdout holds only NDJSON; the table goes to stderr
"$PB" --method null --duration 0.2 --stream - >"$T/s.out" 2>"$T/s.err"
rc=$?
check "--stream -: exit 0 (was $rc)" [ $rc = 0 ]
check "--stream -: every stdout line is a JSON object ($(ndjson "$T/s.out" 2>&1 | tail -1))" \
	ndjson "$T/s.out"
check "--stream -: the table on stderr" grep -q '^| null ' "$T/s.err"
"$PB" --method null --duration 0.2 --repeat 2 --sweep streams=1,2 --stream - -q >"$T/s2.out" 2>"$T/s2.err"
check "--stream - with --repeat and --sweep: every stdout line is a JSON object" ndjson "$T/s2.out"
refused "--stream - and --format json on stdout" "--stream - and --format json both write to stdout" \
	--method null --duration 0.2 --stream - --format json
refused "--stream - and -o -" "--stream - and --output - both write to stdout" \
	--method null --duration 0.2 --stream - -o - --format csv
"$PB" --method null --duration 0.2 --stream - --format json -o "$T/set.json" >"$T/s3.out" 2>"$T/s3.err"
rc=$?
check "--stream - with --format json -o FILE: exit 0 (was $rc), NDJSON on stdout, the set in FILE" \
	eval '[ $rc = 0 ] && ndjson "$T/s3.out" && /usr/bin/python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/set.json"'

# 2. two options that set the same thing: refused, never one ignored; a scenario's gives way
refused "--count and --duration" "--duration and --count both set when each run ends: give one" \
	--method null --count 1000 --duration 5
refused "a frame-size sweep and --frame-size" \
	"--frame-size and --sweep frame-size= both set the frame size: give one" \
	--method null --sweep frame-size=64,128 --frame-size 100
refused "receive --restore and --iface" "--restore and --iface cannot go together" \
	receive --restore pbnosuch0 --iface pbnosuch0
/usr/bin/python3 "$top/tests/net/pcapgen.py" "$T/t.pcap" --n 10 --pps 1000 >/dev/null
refused "--replay (one pass) and --duration" "--duration goes with --loop 0" \
	--method null --replay "$T/t.pcap" --duration 5
printf 'duration: 3\ncount: 10\n' >"$T/c.yaml"
refused "a scenario with duration and count" "$T/c.yaml: duration and count both set when each run ends" \
	--method null --config "$T/c.yaml"
printf 'method: "null"\nduration: 3\nsweep: frame-size=64,128\n' >"$T/c.yaml"
"$PB" --config "$T/c.yaml" --count 5 --frame-size 100 -q --format json >"$T/c.json" 2>"$T/c.err"
rc=$?
check "the command line's --count and --frame-size over a scenario's duration and sweep: one row of 5 frames of 100 bytes (exit $rc)" \
	/usr/bin/python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["results"]
assert len(rows) == 1 and rows[0]["frames_sent"] == 5 and rows[0]["frame_bytes"] == 100, rows' "$T/c.json"

# 3. exit 0 only when something was measured: every row skipped is exit 3, its reasons said;
# a bad file is bad input (exit 2), found before anything runs
"$PB" --method null --srcip 2001:2::1 --dstip 2001:2::2 --sweep frame-size=60,64 --count 5 \
	>"$T/k.out" 2>"$T/k.err"
rc=$?
check "every row skipped: exit 3 (was $rc), each with its reason" \
	eval '[ $rc = 3 ] && [ "$(grep -c "skipped  null frame-size=6[04]: --frame-size 6[04] is below 70" "$T/k.out")" = 2 ]'
check "every row skipped: said on stderr" grep -q "nothing was measured: every row was skipped" "$T/k.err"
refused "a --replay file that does not exist" "--replay $T/none.pcap: No such file or directory" \
	--method null --replay "$T/none.pcap"
echo "not a capture" >"$T/text.pcap"
refused "a --replay file that is no capture" "--replay $T/text.pcap: not a capture" \
	--method null --replay "$T/text.pcap"
refused "a --lab-tx-setup script that does not exist" "--lab-tx-setup $T/none.sh: No such file or directory" \
	--method null --lab-tx-setup "$T/none.sh"
check "--help says what exit 3 is" eval '"$PB" --help | grep -q "^  3 *nothing was measured"'

# 4. a misspelled command is answered with the command, as a method or an option is
refused "comapre" "unknown command 'comapre': did you mean compare? (see --help)" comapre a.json b.json
refused "recieve" "unknown command 'recieve': did you mean receive? (see --help)" recieve --iface x \
	--listen 198.18.0.2:9310
refused "comapre after an option" "unknown command 'comapre': did you mean compare?" -q comapre
refused "a stray word that is no command" "unexpected argument 'zzzzzz' (see --help)" zzzzzz

# 5. how long it will take, before it starts, counting only the runs that go; time left as it goes
"$PB" --method null --srcip 2001:2::1 --dstip 2001:2::2 --sweep frame-size=60,100,120 \
	--duration 0.2 >"$T/e.out" 2>"$T/e.err"
rc=$?
check "an estimate first: 2 runs (60 bytes cannot hold IPv6's headers), 0.2 s each (exit $rc: $(head -2 "$T/e.err" | tr '\n' ' '))" \
	eval 'head -1 "$T/e.err" | grep -qx "pktbench: 2 runs of 0.2 s, about 0:0[0-9] in all (null x 2 frame-size points)"'
check "the one that cannot run said before it starts" \
	eval 'sed -n 2p "$T/e.err" | grep -qx "  not run, each row says why: null frame-size=60"'
check "progress counts the runs that go, with the time left" \
	eval 'grep -q "^pktbench: \[1/2\] null frame-size=100, ~0:0[0-9] left$" "$T/e.err" &&
		grep -q "^pktbench: \[2/2\] null frame-size=120, ~0:0[0-9] left$" "$T/e.err"'
"$PB" --method null --duration 0.2 >"$T/e1.out" 2>"$T/e1.err"
check "one run: no estimate, no count" eval '! grep -q "runs of\|\[1/1\]" "$T/e1.err"'

finish
