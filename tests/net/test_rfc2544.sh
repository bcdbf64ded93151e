# SPDX-License-Identifier: MIT
# pktbench rfc2544 against known answers: the router lab with a tbf on the DUT's egress.
# tbf counts a frame as skb->len at the DUT's egress, the Ethernet frame without FCS,
# preamble or gap: an RFC frame of S bytes costs it S - 4, so rate R bit/s lets through
# R / 8 / (S - 4) frames/s. Trials are kept short (1 s) so this stays within CI's budget.
. "$(dirname "$0")/lib.sh"
TBF_RATE=20000000 # bit/s
B2B_RATE=2000000
B2B_BURST=30000 # bytes in the bucket
B2B_LIMIT=60	# one 60-byte frame of queue

py() { # py FILE PYTHON-STATEMENTS: d = the JSON; exit with the statements' verdict
	python3 -c "import json,sys,math
d=json.load(open(sys.argv[1]))
rows=d['results']
def summ(test): return [r for r in rows if r['summary'] and r['test']==test]
def trials(test): return [r for r in rows if not r['summary'] and r['test']==test]
$2" "$1"
}

cat >"$T/tbf.sh" <<EOF
tc qdisc add dev "\$PB_DUT_OUT" root tbf rate $TBF_RATE burst 16kb limit 32kb
EOF
cat >"$T/b2b.sh" <<EOF
tc qdisc add dev "\$PB_DUT_OUT" root tbf rate $B2B_RATE burst $B2B_BURST limit $B2B_LIMIT
EOF
COMMON="--lab router --trial 1 --trial-gap 0.2 --precision 2 --retries 1 -q --format json"

# 26.1: NDR within 5 % of the tbf's rate, at two frame sizes; 26.2 at that rate. Above it is
# the tbf's answer on any machine; below it, also the machine's (a DUT without its CPU forwards
# less than the tbf lets through): check_unless_busy.
busy_mark
"$PB" rfc2544 $COMMON --lab-dut-setup "$T/tbf.sh" --method udp_sendto --tests throughput,latency \
	--frame-sizes 64,512 --output "$T/tput.json" 2>"$T/tput.err"
rc=$?
check "throughput: exit 0 (got $rc: $(tail -1 "$T/tput.err"))" [ $rc = 0 ]
for size in 64 512; do
	check "throughput $size B: NDR at most 5 % above $TBF_RATE bit/s / 8 / $((size - 4))" \
		py "$T/tput.json" "
s=[r for r in summ('throughput') if r['frame_size']==$size]
want=$TBF_RATE/8/($size-4)
print('  $size B: NDR', s and s[0]['throughput_pps'], 'tbf', round(want))
sys.exit(0 if len(s)==1 and s[0]['status']=='ok' and s[0]['throughput_pps']/want<=1.05 else 1)"
	check_unless_busy "throughput $size B: NDR at least 95 % of it" py "$T/tput.json" "
s=[r for r in summ('throughput') if r['frame_size']==$size]
sys.exit(0 if s and s[0]['throughput_pps']/($TBF_RATE/8/($size-4))>=0.95 else 1)"
	check "throughput $size B: the DUT is the limit, and the wire rate follows the frame" \
		py "$T/tput.json" "
s=[r for r in summ('throughput') if r['frame_size']==$size][0]
sys.exit(0 if not s['sender_limited'] and s['search']=='found' and
	abs(s['throughput_wire_gbps']-s['throughput_pps']*($size+20)*8/1e9)<1e-6 else 1)"
done
check "throughput: every trial is a full run row, accounted 100 % with the DUT's drops" \
	py "$T/tput.json" "
t=trials('throughput')
sys.exit(0 if len(t)>=8 and all(r['frames_sent']>0 and r['frames_delivered'] is not None and
	abs(r['accounted_pct']-100)<0.01 and r['passed']==(r['frames_delivered']==r['frames_sent'])
	for r in t) else 1)"
check "throughput: summary rows count nothing twice (run fields null)" py "$T/tput.json" "
sys.exit(0 if all(r['frames_sent'] is None and r['pps'] is None for r in summ('throughput'))
	else 1)"
check "throughput: the parameters are in the set" py "$T/tput.json" "
p=d['rfc2544']
sys.exit(0 if p['tests']==['throughput','latency'] and p['frame_sizes']==[64,512] and
	p['rate']=='NDR' and p['trial_s']==1 and d['lab_kind']=='router' else 1)"
# the tbf's queue (32 KB at 20 Mbit/s: 13 ms) is the most a frame can wait in this DUT, and
# p99 must stay within it (with slack); the max is one probe, which a descheduled DUT can hold
# longer (27 ms in a fresh CI run, p99 14 ms), so it is printed and ordered, not bounded
check "latency: at the throughput rate, p50 <= p99 <= max, p99 within the tbf's queue" \
	py "$T/tput.json" "
ok=len(summ('latency'))==2
for s in summ('latency'):
	t=[r for r in summ('throughput') if r['frame_size']==s['frame_size']][0]
	print('  %d B: %.0f pps, p50 %.1f p99 %.1f max %.1f us'%(s['frame_size'],
		s['latency_rate_pps'], s['p50_us'], s['p99_us'], s['max_us']))
	ok&=s['status']=='ok' and 0<s['p50_us']<=s['p99_us']<=s['max_us'] and s['p99_us']<=20000
	ok&=abs(s['latency_rate_pps']/t['throughput_pps']-1)<=0.05
sys.exit(0 if ok else 1)"
# The trial runs at the rate the search passed, within 1.5 % of what the tbf's rate, bucket and
# queue let through in 1 s: a DUT descheduled there overflows the queue (5 of 491 probes lost
# in a fresh CI run), so a few may go
check "latency: its trial carried probes, and (at the edge of loss) lost at most 3 %" py "$T/tput.json" "
t=trials('latency')
print('  probes', [(r['latency']['probes_sent'], r['latency']['probes_received']) for r in t])
sys.exit(0 if len(t)==2 and all(r['latency']['probes_sent']>0 and
	r['latency']['probes_received']>=0.97*r['latency']['probes_sent'] for r in t) else 1)"

# 26.3: the loss follows 1 - R/offered above R and is 0 below: the curve crosses zero at R.
# The walk starts from af_packet's unpaced maximum through the shaped DUT, which is the
# machine's speed at that moment (the DUT forwards on the same CPUs): it was seen from 133k
# to 545k pps from one run to the next, so R cannot be set from a run of its own before the
# walk. At 20 Mbit/s (41.7k pps of 64-byte frames) the tbf drops what it cannot send (at 48
# Mbit/s and more, af_packet was held back to the tbf's rate here, and lost nothing, so
# those rates test no loss); walking down in steps of 5 % (--loss-step 5) to 5 % crosses it for any
# maximum from 44k to 833k pps. Trials of 0.5 s keep the 20 steps within CI's budget.
LOSS_RATE=$TBF_RATE
busy_mark
"$PB" rfc2544 $COMMON --lab-dut-setup "$T/tbf.sh" --method af_packet --tests loss \
	--frame-sizes 64 --loss-step 5 --trial 0.5 --trial-gap 0.1 --output "$T/loss.json" \
	2>"$T/loss.err"
check "loss: exit 0 ($(tail -1 "$T/loss.err"))" [ $? = 0 ]
check "loss: 100 %, 95 %, ... until two steps lose nothing (or 5 %), one summary each" \
	py "$T/loss.json" "
s=summ('loss')
loads=[r['load_pct'] for r in s]
z=[r['loss_pct']==0 for r in s]
print('  loads', loads, 'loss', [round(r['loss_pct'],3) for r in s])
sys.exit(0 if loads==[100-5*i for i in range(len(loads))] and len(s)>=3 and s[0]['loss_pct']>0
	and (z[-2:]==[True,True] and not any(z[:-2]) or loads[-1]==5 and z[-1] and not any(z[:-1]))
	else 1)"
# what gets through a trial of d seconds is R d, and what the bucket (16 KB) and the queue
# (32 KB) held at its start and its end: B = 48 KB / 60 bytes (4 % of a 0.5 s trial's R d).
# Above R it loses at least 1 - (R d + B)/(offered d), less 3 points, on any machine; a DUT
# without its CPU (beside a busy neighbour) forwards less than that, so losing at most 3
# points more, and nothing below R, is the answer only on a machine that had its CPUs. One
# reading of the trials, printed, gives both verdicts.
loss=$(py "$T/loss.json" "
R=$LOSS_RATE/8/60
B=(16384+32768)/60
low=high=True
for r in trials('loss'):
	off=r['pps']; d=r['duration_s']; want=max(0,100*(1-(R*d+B)/(off*d)))
	if off>1.05*R: low&=r['loss_pct']>=want-3; high&=r['loss_pct']<=want+3
	if off<0.95*R: high&=r['loss_pct']==0
	print('  load %.0f %%: offered %.0f, loss %.3f %%, want %.3f %%'%(r['load_pct'],off,r['loss_pct'],want))
print(low, high)")
echo "$loss" | sed '$d'
read -r loss_low loss_high <<<"$(echo "$loss" | tail -n 1)"
check "loss: above R it loses at least 1 - (R d + B)/(offered d) (-3 points)" [ "$loss_low" = True ]
check_unless_busy "loss: ... and at most 3 points more, below R nothing" [ "$loss_high" = True ]
check "loss: the first step that loses nothing is at most 5 % above R" py "$T/loss.json" "
R=$LOSS_RATE/8/60
z=[r for r in trials('loss') if r['loss_pct']==0]
sys.exit(0 if z and z[0]['pps']<=1.05*R else 1)"
check_unless_busy "loss: ... and the step before it at least 95 % of R (it crosses zero there)" \
	py "$T/loss.json" "
R=$LOSS_RATE/8/60
t=trials('loss')
z=[i for i,r in enumerate(t) if r['loss_pct']==0][0]
sys.exit(0 if z>0 and t[z-1]['pps']>=0.95*R else 1)"

# one maximum: the loss table's 100 % is the throughput table's Max pps; its 100 % step is
# unpaced, as the search's maximum is, and its other steps are paced at their share of it
# (those at or below half of it, which any sender here reaches, offered that share)
"$PB" rfc2544 $COMMON --lab-dut-setup "$T/tbf.sh" --method udp_sendto --tests throughput,loss \
	--frame-sizes 64 --trial 0.5 --trial-gap 0.1 --output "$T/max.json" 2>"$T/max.err"
check "one maximum: exit 0 ($(tail -1 "$T/max.err"))" [ $? = 0 ]
check "one maximum: the loss summaries' max_pps is the throughput's, 100 % unpaced, <= 50 % at their share" \
	py "$T/max.json" "
tp=summ('throughput')[0]; ls=summ('loss'); t=trials('loss')
full=[r for r in t if r['load_pct']==100]; low=[r for r in t if r['load_pct']<=50]
print('  max', tp['max_pps'], 'loss max', [r['max_pps'] for r in ls][:1], '100 %% target',
	full and full[0].get('target_pps'), 'low', [(r['load_pct'], round(r['offered_pps'])) for r in low])
sys.exit(0 if ls and all(r['max_pps']==tp['max_pps'] for r in ls) and full and
	not full[0].get('target_pps') and low and
	all(abs(r['offered_pps']/(tp['max_pps']*r['load_pct']/100)-1)<=0.05 for r in low) else 1)"

# 26.4: the longest lossless burst is what the bucket and the one-frame queue hold, plus
# what the rate refills while the burst arrives
busy_mark
"$PB" rfc2544 $COMMON --lab-dut-setup "$T/b2b.sh" --method udp_sendto --tests back-to-back \
	--frame-sizes 64 --b2b-repeat 3 --trial 0.5 --trial-gap 0.3 --output "$T/b2b.json" \
	2>"$T/b2b.err"
check "back-to-back: exit 0 ($(tail -1 "$T/b2b.err"))" [ $? = 0 ]
B2B_PY="
s=summ('back-to-back')[0]
r_fps=$B2B_RATE/8/60
want=($B2B_BURST+$B2B_LIMIT)/60/(1-r_fps/s['max_pps'])"
# a DUT without its CPU loses some of a burst the bucket would hold: the floor is the machine's
check "back-to-back: at most 10 % above what the burst allows" py "$T/b2b.json" "$B2B_PY
print('  burst', s['burst_frames'], 'min', s['burst_frames_min'], 'max', s['burst_frames_max'],
	'want %.0f at %.0f pps'%(want, s['max_pps']))
sys.exit(0 if s['repetitions']==3 and s['burst_frames']/want<=1.10 and
	s['burst_frames_min']<=s['burst_frames']<=s['burst_frames_max'] else 1)"
check_unless_busy "back-to-back: ... and at least 90 % of it" py "$T/b2b.json" "$B2B_PY
sys.exit(0 if s['burst_frames']/want>=0.90 else 1)"
check "back-to-back: every burst trial sent exactly its burst, unpaced" py "$T/b2b.json" "
t=[r for r in trials('back-to-back') if r['burst_frames']]
sys.exit(0 if t and all(r['frames_sent']==r['burst_frames'] and r['target_pps'] is None and
	1<=r['repetition']<=3 for r in t) else 1)"
check "rfc2544 runs: no lab left" no_leftovers

# the bridge forwards, and a path faster than the DUT is reported as the send path's limit;
# the table format has a box per test and says why latency has no answer
"$PB" rfc2544 --lab bridge --method af_packet --tests throughput,latency --frame-sizes 64,1518 \
	--trial 0.5 --trial-gap 0.1 -q >"$T/table.txt" 2>"$T/table.err"
check "bridge table: exit 0 ($(tail -1 "$T/table.err"))" [ $? = 0 ]
check "bridge table: the throughput box with both sizes, limited by the send path" \
	sh -c "grep -q 'RFC 2544 26.1 throughput' '$T/table.txt' &&
		[ \$(grep -cE '^\| af_packet +\| +(64|1518) .*send path \|\$' '$T/table.txt') = 2 ]"
check "bridge table: a latency box with a row for each size" \
	[ "$(awk '/RFC 2544 26.2 latency/ {f = 1} f && /^$/ {exit} f' "$T/table.txt" |
		grep -cE '^\| af_packet +\| +(64|1518) +\|')" = 2 ]

# IPv6: a 64-byte frame cannot hold IPv6's headers and the signature: said, not sent
"$PB" rfc2544 --lab router --srcip 2001:2::1 --method udp_sendto --tests throughput \
	--frame-sizes 64,128 --trial 0.5 --trial-gap 0.1 -q --format json \
	--output "$T/v6.json" 2>"$T/v6.err"
check "IPv6: exit 0 ($(tail -1 "$T/v6.err"))" [ $? = 0 ]
check "IPv6: 64 B skipped with the reason, 128 B through the router" py "$T/v6.json" "
s={r['frame_size']: r for r in summ('throughput')}
sys.exit(0 if s[64]['status']=='skipped' and 'cannot hold' in s[64]['reason'] and
	s[128]['status']=='ok' and s[128]['throughput_pps']>0 else 1)"

# bad input: one line, exit 2, nothing built
bad() { # bad "what" args...
	local what=$1
	shift
	"$PB" rfc2544 "$@" -q >/dev/null 2>"$T/bad.err"
	local rc=$?
	check "$what: exit 2 (got $rc)" [ $rc = 2 ]
	check "$what: one line ($(head -1 "$T/bad.err"))" [ "$(wc -l <"$T/bad.err")" = 1 ]
}
bad "--tests bogus" --tests throughput,bogus
bad "--frame-sizes below 64" --frame-sizes 63
bad "--loss-step above the RFC's 10" --loss-step 20
bad "--precision 0" --precision 0
bad "--duration (a trial sets it)" --duration 5
bad "--tune (its search would move what a trial fixes)" --tune
bad "the null method (no wire)" --method null
bad "--iface without a receiver" --iface lo --method udp_sendto
check "bad input: no lab left" no_leftovers

# Ctrl-C mid-test: exit 130, the trials that finished are written, the lab is gone
"$PB" rfc2544 --lab router --lab-dut-setup "$T/tbf.sh" --method udp_sendto --tests loss \
	--frame-sizes 64 --trial 2 -q --format json --output "$T/int.json" 2>"$T/int.err" &
pid=$!
PIDS+=($pid)
sleep 6
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130 (got $rc)" [ $rc = 130 ]
check "SIGINT: the finished trials are written" py "$T/int.json" "
sys.exit(0 if len(trials('loss'))>=1 and any(r['interrupted'] for r in rows) else 1)"
check "SIGINT: no lab left" no_leftovers
finish
