# SPDX-License-Identifier: MIT
# Each frame counted once (issue 44, item 1): every frame carries its stream's sequence
# number, and the receiver counts unique frames as delivered, the rest apart. A device under
# test of the test's own (mangle_nth.bpf.c, a tc classifier on clsact egress, no netem) does one
# counted thing to every 10th signed frame, so each answer is known exactly:
#   dup      frames_delivered == N, frames_duplicate == N/10, status error naming them
#   dupdrop  frames_delivered == N - N/10, frames_duplicate == N/10: as many duplicated as
#            lost, never ok
#   swap     frames_delivered == N, frames_reordered == N/10, nothing duplicated, ok
#   drop     frames_delivered == N - N/10, nothing duplicated or reordered, ok
# for af_packet, af_xdp, udp_sendto, sendmmsg and gso, in the lab (--lab router, the classifier on the DUT's
# way out) and through a `pktbench receive` agent (the same classifier on a router namespace of
# the test's own between the sender and the agent).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
N=20000
NTH=10
# paced: a duplicate doubles the frames that burst into the receiver's veth ring, which an
# unpaced frame method overflows (the lab's DUT counted 1091 of 20000 lost so, af_packet);
# at 50 kpps no ring fills, and the answers are the program's alone
PPS=50000
METHODS="af_packet af_xdp udp_sendto sendmmsg gso"
MODES="dup dupdrop swap drop"
MANGLE_TAG=sq
MANGLE_NET1=86
MANGLE_NET2=87
figs() { row "$1" "print('status %s, sent %s, delivered %s, duplicate %s, reordered %s, out of window %s, unchecked %s; %s' % (r['status'], r['frames_sent'], r['frames_delivered'], r.get('frames_duplicate'), r.get('frames_reordered'), r.get('frames_out_of_window'), r.get('frames_unchecked'), r.get('reason', ''))) or True" 2>&1 | tail -1; }

# answers WHERE MODE METHOD FILE: the known answer of MODE, exactly
answers() {
	local w=$1 mode=$2 m=$3 out=$4 k=$((N / NTH))
	echo "  $w $mode $m: $(figs "$out")"
	check "$w $mode $m: $N sent" row "$out" "r['frames_sent'] == $N"
	case $mode in
	dup)
		check "$w $mode $m: $N delivered, $k duplicate, none reordered or out of the window" \
			row "$out" "r['frames_delivered'] == $N and r['frames_duplicate'] == $k and r['frames_reordered'] == 0 and r['frames_out_of_window'] == 0"
		check "$w $mode $m: not ok, the reason names the duplicates" \
			row "$out" "r['status'] == 'error' and 'duplicate' in r['reason']" ;;
	dupdrop)
		check "$w $mode $m: $((N - k)) delivered, $k duplicate" \
			row "$out" "r['frames_delivered'] == $N - $k and r['frames_duplicate'] == $k and r['frames_reordered'] == 0"
		check "$w $mode $m: as many duplicated as lost is not ok" \
			row "$out" "r['status'] == 'error' and 'duplicate' in r['reason']" ;;
	swap)
		check "$w $mode $m: $N delivered, $k reordered, ok" \
			row "$out" "r['frames_delivered'] == $N and r['frames_reordered'] == $k and r['frames_duplicate'] == 0 and r['frames_out_of_window'] == 0 and r['status'] == 'ok'" ;;
	drop)
		check "$w $mode $m: $((N - k)) delivered, none duplicate or reordered, ok" \
			row "$out" "r['frames_delivered'] == $N - $k and r['frames_duplicate'] == 0 and r['frames_reordered'] == 0 and r['status'] == 'ok'" ;;
	esac
}

. "$(dirname "$0")/mangle.sh"
