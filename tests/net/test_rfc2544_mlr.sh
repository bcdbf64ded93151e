# SPDX-License-Identifier: MIT
# pktbench rfc2544 --search mlr (RFC 9971's MLRsearch) against known answers: the router lab
# with scripts/dut-tbf.sh's 20 Mbit/s tbf. A trial of d seconds of S-byte frames gets through
# R d = 20e6 / 8 / (S - 4) d frames plus what the bucket and queue hold (B = 48 KB / (S - 4)),
# so NDR is R + B / d; at 64 bytes and again at 1518. MLRsearch's NDR goal must land within --precision of the binary search's
# NDR on the same lab, and at most 5 % above R + B / d; its bounds must be what RFC 9971 reads
# in its own trials (recomputed here from the JSON), and its paced trials spun. Trials of
# 0.5 s keep it short.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
PREC=2
COMMON="--lab router --lab-dut-setup $TOP/scripts/dut-tbf.sh --method udp_sendto --tests throughput
	--trial 0.5 --trial-gap 0.1 --precision $PREC -q --format json"

py() { # py FILE PYTHON-STATEMENTS: d = the JSON; exit with the statements' verdict
	python3 -c "import json,sys,math
d=json.load(open(sys.argv[1]))
rows=d['results']
summ=[r for r in rows if r['summary'] and r['test']=='throughput']
trials=[r for r in rows if not r['summary'] and r['test']=='throughput']
$2" "$1"
}

# one attempt: the binary search's NDR, then MLRsearch's NDR and PDR, on the same lab; each
# a timing answer (the DUT forwards on the machine's CPUs), so measured afresh each attempt
RUN=0
SIZE=64
both() {
	RUN=$((RUN + 1))
	"$PB" rfc2544 $COMMON --frame-sizes $SIZE --output "$T/bin.$RUN.json" 2>"$T/bin.$RUN.err" ||
		{ echo "  binary: exit $? ($(tail -1 "$T/bin.$RUN.err"))"; return 1; }
	"$PB" rfc2544 $COMMON --frame-sizes $SIZE --search mlr --output "$T/mlr.$RUN.json" \
		2>"$T/mlr.$RUN.err" || { echo "  mlr: exit $? ($(tail -1 "$T/mlr.$RUN.err"))"; return 1; }
	python3 - "$T/bin.$RUN.json" "$T/mlr.$RUN.json" $PREC $SIZE <<'PY'
import json, sys
b = [r for r in json.load(open(sys.argv[1]))['results'] if r['summary']][0]
d = json.load(open(sys.argv[2]))
m = [r for r in d['results'] if r['summary'] and r['goal_loss_ratio'] == 0][0]
t = [r for r in d['results'] if not r['summary']]
prec, S = float(sys.argv[3]) / 100, int(sys.argv[4])
R, B = 20e6 / 8 / (S - 4), (16384 + 32768) / (S - 4)
ndr = R + B / 0.5
lo, tp = m['relevant_lower_bound_pps'], b['throughput_pps']
print('  binary NDR %.0f in %d trials, %.1f s; mlr NDR %.0f (upper %s) in %d trials, %.1f s;'
      ' R + B/d %.0f' % (tp, b['trials'], sum(r['duration_s'] for r in
      json.load(open(sys.argv[1]))['results'] if not r['summary']), lo,
      m['relevant_upper_bound_pps'], m['trials'], m['search_trial_s'], ndr))
sys.exit(0 if abs(lo - tp) <= prec * max(lo, tp) and 0.95 * R <= lo <= 1.05 * ndr else 1)
PY
}
attempts 3 "mlr: NDR within --precision $PREC % of the binary search's, and of the tbf's R + B/d" both

check "mlr: the estimate printed first" \
	sh -c "head -1 '$T/mlr.$RUN.err' | grep -q '^pktbench rfc2544: 1 method x 1 frame size, '"
check "mlr: the search and its two goals (NDR, PDR 0.5 %) in the parameters" py "$T/mlr.$RUN.json" "
p=d['rfc2544']
sys.exit(0 if p['search']=='mlr' and [g['loss_ratio'] for g in p['goals']]==[0,0.005] and
	all(g['final_trial_s']==0.5 and g['duration_sum_s']==0.5 and g['exceed_ratio']==0 and
	    g['width']==$PREC/100 for g in p['goals']) else 1)"
check "mlr: a regular result a goal, within its width, the conditional throughput at or below the lower bound" \
	py "$T/mlr.$RUN.json" "
ok=len(summ)==2
for s in summ:
	lo,hi=s['relevant_lower_bound_pps'],s['relevant_upper_bound_pps']
	print('  goal', s['goal'], 'lower', lo, 'upper', hi, 'conditional', s['conditional_throughput_pps'])
	ok&=s['status']=='ok' and s['goal_result']=='regular' and s['search']=='found'
	ok&=lo<hi and hi-lo<=s['goal_width']*hi*(1+1e-9)
	ok&=s['throughput_pps']==s['conditional_throughput_pps']<=lo
sys.exit(0 if ok else 1)"
# RFC 9971's reading of the trials: every trial is full-length (0.5 s) and each goal's
# duration sum is one trial, so a load is an upper bound when a trial there lost more than
# the goal's loss ratio, a lower bound otherwise; the loss ratio counts what a paced trial
# did not offer of its load when it fell short by more than the width (suites/rfc2544.c)
check "mlr: the bounds are RFC 9971's reading of the trials in the JSON" py "$T/mlr.$RUN.json" "
mx=trials[0]['offered_pps']
def load(r): return r['target_pps'] if r['target_pps'] else mx
def loss(r):
	l=r['loss_pct']/100
	if r['target_pps'] and r['offered_pps']<r['target_pps']*(1-$PREC/100):
		l=max(l,1-r['offered_pps']*(1-l)/r['target_pps'])
	return l
ok=True
for s in summ:
	g=s['goal_loss_ratio']
	high={load(r) for r in trials if loss(r)>g}
	low={load(r) for r in trials if loss(r)<=g}-high
	up=min(high)
	lo=max(x for x in low if x<up)
	print('  goal', g, 'read', lo, up, 'reported', s['relevant_lower_bound_pps'], s['relevant_upper_bound_pps'])
	ok&=lo==s['relevant_lower_bound_pps'] and up==s['relevant_upper_bound_pps']
sys.exit(0 if ok and s['trials']==len(trials) else 1)"
check "mlr: every paced trial spun (--pace spin, rfc2544's default), and is a full run row" \
	py "$T/mlr.$RUN.json" "
p=[r for r in trials if r['target_pps']]
sys.exit(0 if len(trials) and p and all(r['pacing']=='spin' for r in p) and trials[0]['pacing'] is None and
	all(r['frames_sent']>0 and abs(r['accounted_pct']-100)<0.01 for r in trials) else 1)"
# the same known answer with the largest frame: 1651 frames/s, 32 of them in bucket and queue
SIZE=1518
attempts 3 "mlr at 1518 bytes: NDR within --precision $PREC % of the binary search's, and of R + B/d" both
check "mlr runs: no lab left" no_leftovers
finish
