# SPDX-License-Identifier: MIT
# Sweeps and scenarios in the lab: a two-point frame-size sweep writes one row per method and
# point, a rate sweep offers each point's rate, a --pps profile's steps through a tbf lose what
# its rate predicts above it and nothing below, a scenario file runs with the command line overriding it, and an interrupted sweep
# still leaves a valid result set holding the points that finished.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

"$PB" --method af_packet,udp_sendto --sweep frame-size=64,512 --count 2000 -q --format json \
	-o "$T/sweep.json" 2>"$T/err"
rc=$?
check "sweep: exit 0 ($(head -c 200 "$T/err"))" [ $rc = 0 ]
check "sweep: a row per method and point, in order" json "$T/sweep.json" \
	"[(r['method'], r['point']) for r in d['results']] == [('af_packet','frame-size=64'), ('udp_sendto','frame-size=64'), ('af_packet','frame-size=512'), ('udp_sendto','frame-size=512')]"
check "sweep: each row's frames are the point's size, all delivered" json "$T/sweep.json" \
	"len(d['results']) == 4 and all(r['frame_bytes'] == int(r['point'].split('=')[1]) and r['frames_delivered'] == 2000 for r in d['results'])"

# the methods' own knobs: a swept batch wins over an alias's (pkt_conn's 128), segments, rings
"$PB" --method pkt_conn,gso_mmsg --sweep batch=8,32 --count 2000 -q --format json \
	-o "$T/batch.json" 2>"$T/err"
rc=$?
check "sweep batch: exit 0 ($(head -c 200 "$T/err"))" [ $rc = 0 ]
check "sweep batch: each row at the point's batch, all delivered" json "$T/batch.json" \
	"[(r['point'], r['mode']) for r in d['results']] == [('batch=8','batch 8'), ('batch=8','x8 segments, batch 8'), ('batch=32','batch 32'), ('batch=32','x8 segments, batch 32')] and all(r['frames_delivered'] == 2000 for r in d['results'])"
"$PB" --method gso --sweep segments=4,64 --count 2000 -q --format json -o "$T/seg.json" 2>"$T/err"
check "sweep segments: up to the kernel's 64, all delivered ($(head -c 200 "$T/err"))" \
	json "$T/seg.json" \
	"[r['mode'] for r in d['results']] == ['x4 segments', 'x64 segments'] and all(r['frames_delivered'] == 2000 for r in d['results'])"
"$PB" --method af_xdp --sweep ring=64,1024 --count 2000 -q --format json -o "$T/ring.json" \
	2>"$T/err"
check "sweep ring: the Mode says each ring ($(head -c 200 "$T/err"))" json "$T/ring.json" \
	"[r['mode'].split(', ')[-1] for r in d['results']] == ['ring 64', 'ring 1024'] and all(r['frames_delivered'] + r['frames_dropped'] == 2000 for r in d['results'])"

"$PB" --method udp_sendto --sweep frame-size=64,512 --count 100 -q --format csv \
	-o "$T/sweep.csv" 2>/dev/null
check "sweep: CSV has the point column" bash -c "head -1 '$T/sweep.csv' | grep -q ',point,' && grep -c 'frame-size=' '$T/sweep.csv' | grep -qx 2"

# a scenario with a sweep; the command line shortens it
if "$PB" --help | grep -q -- '--config'; then
	"$PB" --config "$top/scenarios/queue-sweep.yaml" --duration 0.5 -q --format json \
		-o "$T/scen.json" 2>"$T/err"
	rc=$?
	if grep -q "scenario files need" "$T/err"; then
		echo "skip: scenario files not built (no libyaml)"
	else
		check "scenario: exit 0 ($(head -c 200 "$T/err"))" [ $rc = 0 ]
		check "scenario: rows for streams=1 and streams=2, each 0.5 s" json "$T/scen.json" \
			"sorted({r['point'] for r in d['results']}) == ['streams=1','streams=2'] and
			(lambda ok: len(ok) > 0 and all(abs(r['duration_s'] - 0.5) < 0.1 for r in ok))([r for r in d['results'] if r['status'] == 'ok'])"
	fi
fi

# --sweep pps=: a row per rate, each run offered its point's rate: a timing answer on the real
# path (a sender without its CPU offers less), re-measured on a miss, each attempt printed
pps_sweep() {
	"$PB" --method af_packet --sweep pps=10k,20k,40k --duration 1 -q --format json \
		-o "$T/pps.json" 2>"$T/err" || { echo "  exit $?: $(tail -1 "$T/err")"; return 1; }
	json "$T/pps.json" "print('  (point, offered, sent, delivered):', [(r['point'],
		round(r['offered_pps']), r['frames_sent'], r['frames_delivered']) for r in d['results']]) or True"
	json "$T/pps.json" "len(d['results']) == 3 and all(abs(r['offered_pps'] / int(r['point'].split('=')[1]) - 1) <= 0.01
		for r in d['results'])"
}
attempts 3 "sweep pps: each row offered within 1 % of its point's rate" pps_sweep
check "sweep pps: a row per rate, in order, each paced at it and every frame delivered" \
	json "$T/pps.json" "[r['point'] for r in d['results']] == ['pps=10000', 'pps=20000',
	'pps=40000'] and all(r['status'] == 'ok' and r['target_pps'] == int(r['point'][4:]) and
	r['frames_delivered'] == r['frames_sent'] for r in d['results'])"

# --pps as a profile, through a router whose egress is a tbf of 9.6 Mb/s: 20,000 frames/s of
# 60 bytes (tbf counts the frame without FCS). Two steps, each a row: 10 kpps for 2 s, below the
# tbf, loses nothing; 40 kpps for 2 s, above it, delivers what the tbf lets through: its rate
# for the step, plus at most its bucket and queue (16 + 32 kB: 819 frames), so 40,000 to 40,819
# of the step's 80,000. A timing answer (a DUT without its CPU forwards less): re-measured.
cat >"$T/tbf.sh" <<'EOF2'
tc qdisc add dev "$PB_DUT_OUT" root tbf rate 9600kbit burst 16kb limit 32kb
EOF2
profile_tbf() {
	"$PB" --lab router --lab-dut-setup "$T/tbf.sh" --method udp_sendto \
		--pps 10k:2s,40k:2s -q --format json -o "$T/prof.json" 2>"$T/err" ||
		{ echo "  exit $?: $(tail -1 "$T/err")"; return 1; }
	json "$T/prof.json" "print('  (point, sent, delivered, duration):', [(r['point'],
		r['frames_sent'], r['frames_delivered'], round(r['duration_s'], 3)) for r in d['results']]) or True"
	# what the sender offered is the pacer's to keep (a sender without its CPU offers less);
	# the tbf's answer needs only that the step above it offered well over its rate
	json "$T/prof.json" "(lambda a, b: a['frames_delivered'] == a['frames_sent'] > 0 and
		b['frames_sent'] >= 1.5 * 20000 * b['duration_s'] and
		0.98 * 20000 * b['duration_s'] <= b['frames_delivered'] <= 20000 * b['duration_s'] + 819 + 200)(*d['results'])"
}
attempts 3 "--pps 10k:2s,40k:2s through a 20 kpps tbf: the step below it lossless, the step above it delivering the tbf's rate" profile_tbf
check "--pps profile: a row a step, in order, each offered its rate for its seconds" \
	json "$T/prof.json" "[r['point'] for r in d['results']] == ['step 1: pps=10000 2s', 'step 2: pps=40000 2s'] and
	[r['target_pps'] for r in d['results']] == [10000, 40000] and all(r['status'] == 'ok' and abs(r['duration_s'] - 2) < 0.05 for r in d['results'])"

# an interrupted sweep: the file is valid JSON with the finished points
"$PB" --method udp_sendto --sweep frame-size=64,128,256,512 --duration 2 -q --format json \
	-o "$T/int.json" 2>/dev/null &
pid=$!
PIDS+=($pid)
sleep 3.5
kill -INT $pid
wait $pid
rc=$?
check "interrupted sweep: exit 130 (got $rc)" [ $rc = 130 ]
check "interrupted sweep: valid JSON holding the finished point(s)" json "$T/int.json" \
	"len([r for r in d['results'] if r['status'] == 'ok' and not r['interrupted']]) >= 1 and len(d['results']) < 4"
check "interrupted sweep: no temp file left" bash -c "! ls '$T'/int.json.tmp.* 2>/dev/null"
check "no lab left" no_leftovers
finish
