# SPDX-License-Identifier: MIT
# Only what the host would take (issue 44, item 2): a frame with the run's signature that the
# receiving host would refuse is not delivered but counted apart, and the row is an error that
# names it. The device under test of net/test_seq (mangle_nth.bpf.c, a tc classifier on clsact
# egress, no netem) spoils every 10th signed frame, so each answer is known exactly:
#   csum4  its IPv4 header checksum + 1: frames_delivered == N - N/10, frames_corrupt == N/10,
#          status error "corrupt: ..."
#   mac    its destination MAC's last bit flipped: frames_delivered == N - N/10,
#          frames_not_for_host == N/10, status error "not for this host: ..."
#   udpcsum  a UDP checksum neither right nor a socket's unfinished one (CHECKSUM_PARTIAL, all
#          a veth delivers): frames_delivered == N - N/10, frames_corrupt == N/10, "corrupt: ..."
#   ip     its destination IPv4 address's last bit flipped, both checksums right:
#          frames_delivered == N - N/10, frames_not_for_host == N/10, "not for this host: ..."
# for af_packet, af_xdp, udp_sendto, sendmmsg and gso, in the lab (--lab router) and through
# a `pktbench receive` agent (a router namespace of the test's own between them).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/wait.sh"
N=20000
NTH=10
# paced, as net/test_seq: no ring fills, and the answers are the program's alone
PPS=50000
METHODS="af_packet af_xdp udp_sendto sendmmsg gso"
MODES="csum4 mac udpcsum ip"
MANGLE_TAG=ho
MANGLE_NET1=84
MANGLE_NET2=85
figs() { row "$1" "print('status %s, sent %s, delivered %s, corrupt %s, not for host %s, duplicate %s; %s' % (r['status'], r['frames_sent'], r['frames_delivered'], r.get('frames_corrupt'), r.get('frames_not_for_host'), r.get('frames_duplicate'), r.get('reason', ''))) or True" 2>&1 | tail -1; }

# answers WHERE MODE METHOD FILE: the known answer of MODE, exactly
answers() {
	local w=$1 mode=$2 m=$3 out=$4 k=$((N / NTH))
	echo "  $w $mode $m: $(figs "$out")"
	check "$w $mode $m: $N sent" row "$out" "r['frames_sent'] == $N"
	case $mode in
	csum4 | udpcsum)
		check "$w $mode $m: $((N - k)) delivered, $k corrupt, none else apart" \
			row "$out" "r['frames_delivered'] == $N - $k and r['frames_corrupt'] == $k and r['frames_not_for_host'] == 0 and r['frames_duplicate'] == 0"
		check "$w $mode $m: not ok, the reason names the corrupt frames" \
			row "$out" "r['status'] == 'error' and r['reason'].startswith('corrupt: ')" ;;
	mac | ip)
		check "$w $mode $m: $((N - k)) delivered, $k not for this host, none else apart" \
			row "$out" "r['frames_delivered'] == $N - $k and r['frames_not_for_host'] == $k and r['frames_corrupt'] == 0 and r['frames_duplicate'] == 0"
		check "$w $mode $m: not ok, the reason names them" \
			row "$out" "r['status'] == 'error' and r['reason'].startswith('not for this host: ')" ;;
	esac
}

. "$(dirname "$0")/mangle.sh"
