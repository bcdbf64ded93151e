# SPDX-License-Identifier: MIT
# --stream FILE: the results as they happen, one JSON object a line. A 5 s run writes 5
# intervals (4 whole seconds and the rest: the window's last part and the drain) while it
# goes, then its row; the intervals' frames add up to the row's exactly, sent and delivered,
# and each line is complete JSON when it appears.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"

"$PB" --method af_packet,udp_sendto --pps 20k --duration 5 --stream "$T/s.ndjson" -q \
	--format json -o "$T/s.json" 2>"$T/err" &
pid=$!
PIDS+=($pid)
# written as it happens: two intervals of the first run are in the file while it still runs
two() { [ -f "$T/s.ndjson" ] && [ "$(grep -c '"type":"interval"' "$T/s.ndjson")" -ge 2 ]; }
wait_until 15 two
alive=$(kill -0 $pid 2>/dev/null && echo yes || echo no)
seen=$(grep -c . "$T/s.ndjson" 2>/dev/null)
wait $pid
rc=$?
check "exit 0 ($(tail -1 "$T/err"))" [ $rc = 0 ]
check "two intervals were in the file while the run went (running: $alive, lines: $seen)" \
	[ "$alive" = yes ]
check "every line is one JSON object, intervals then a row for each run, then the set's own fields" python3 -c "
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
kinds = [(l['type'], l['row']['method'] if l['type'] == 'row' else
	'set' if l['type'] == 'set' else l['method']) for l in L]
print('  ', [k[0][0] + ':' + k[1] for k in kinds])
want = [('interval', 'af_packet')] * 5 + [('row', 'af_packet')] + \
	[('interval', 'udp_sendto')] * 5 + [('row', 'udp_sendto')] + [('set', 'set')]
s = L[-1].get('set', {})
sys.exit(0 if kinds == want and s.get('lab') is True and s.get('kernel') and
	'results' not in s else 1)" "$T/s.ndjson"
check "each run's intervals add up to its row: frames sent and delivered, exactly" python3 -c "
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
ok = True
for row in [l['row'] for l in L if l['type'] == 'row']:
	iv = [l for l in L if l['type'] == 'interval' and l['run_id'] == row['run_id']]
	s, d = sum(i['frames_sent'] for i in iv), sum(i['frames_delivered'] for i in iv)
	print('  %s: %d intervals, sent %d of %d, delivered %d of %d, last %s' % (row['method'],
		len(iv), s, row['frames_sent'], d, row['frames_delivered'], [i['last'] for i in iv]))
	ok &= len(iv) == 5 and s == row['frames_sent'] and d == row['frames_delivered'] and \
		row['frames_delivered'] == row['frames_sent'] and [i['last'] for i in iv] == [False] * 4 + [True]
sys.exit(0 if ok else 1)" "$T/s.ndjson"
check "the stream's rows are --format json's rows" python3 -c "
import json, sys
L = [json.loads(l)['row'] for l in open(sys.argv[1]) if json.loads(l)['type'] == 'row']
R = json.load(open(sys.argv[2]))['results']
sys.exit(0 if [(r['method'], r['run_id'], r['frames_sent']) for r in L] ==
	[(r['method'], r['run_id'], r['frames_sent']) for r in R] else 1)" "$T/s.ndjson" "$T/s.json"

# --latency: each whole second's interval has the probes that arrived in it and their latency;
# the seconds' probes add up to no more than the row's (the last part's are in no second)
"$PB" --method af_packet --pps 20k --duration 3 --latency --stream "$T/l.ndjson" -q \
	--format json -o "$T/l.json" 2>"$T/err"
check "--latency: every whole second's interval has its probes and their latency p50 <= p99 ($(head -c 300 "$T/err"))" python3 -c "
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
iv = [o for o in L if o['type'] == 'interval' and not o['last']]
row = json.load(open(sys.argv[2]))['results'][0]
ok = len(iv) == 2 and all(o['probes'] > 0 and 0 < o['latency_p50_us'] <= o['latency_p99_us'] for o in iv)
ok &= sum(o['probes'] for o in iv) <= row['latency']['probes_received']
print('  intervals:', [(o['probes'], o['latency_p50_us'], o['latency_p99_us']) for o in iv], 'row:', row['latency']['probes_received'])
sys.exit(0 if ok else 1)" "$T/l.ndjson" "$T/l.json"

# a file that cannot be opened: one line, exit 2, nothing run
"$PB" --method null --duration 0.1 --stream "$T/nope/s.ndjson" -q >/dev/null 2>"$T/bad.err"
rc=$?
check "--stream into a missing folder: exit 2, one line ($(cat "$T/bad.err"))" \
	sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/bad.err') = 1 ] && grep -q -- '--stream' '$T/bad.err'"
finish
