# SPDX-License-Identifier: MIT
# Syscalls/frame is counted where the calls are made: for a few methods, the JSON's syscalls of
# a --count run equal what strace saw the sending thread (it names itself pb-send0) call in
# the window (sends, kicks, submits, and the polls, yields and naps a method waits with). Its
# other calls (naming itself, opening, closing, the harness's own 50 us drain nap) are not the
# method's and are left out.
. "$(dirname "$0")/lib.sh"
N=20000
command -v strace >/dev/null || { echo "SKIP: strace is needed (Debian package strace)"; exit 77; }

CALLS=prctl,sendto,sendmsg,sendmmsg,recvmsg,poll,ppoll,sched_yield,nanosleep,clock_nanosleep,io_uring_enter,ioctl
# count TRACE: the method's calls made by the thread that named itself pb-send0 (the sender
# of stream 0), which may be none at all (io_uring_sqpoll's kernel thread can do all of its
# sending); "<... resumed>" lines finish a call already counted, and only SIOCOUTQ ioctls are
# a send path's; -1 when no thread of that name was seen
count_calls() {
	python3 - "$1" <<'PY'
import sys
lines = [l.split(None, 1) for l in open(sys.argv[1]) if l.strip()]
tids = [p for p, rest in lines if rest.startswith('prctl(PR_SET_NAME, "pb-send0")')]
if len(tids) != 1:
    print(-1); sys.exit()
tid = tids[0]
n = 0
for p, rest in lines:
    if p != tid or rest.startswith('<...') or rest.startswith('+++'):
        continue
    name = rest.split('(', 1)[0]
    if name == 'prctl':
        continue
    if name == 'ioctl' and 'OUTQ' not in rest:
        continue
    if name == 'clock_nanosleep' and 'tv_nsec=50000}' in rest:
        continue  # the harness's drain nap, not the method's
    n += 1
print(n)
PY
}

for m in udp_sendto sendmmsg gso gso_mmsg af_packet af_xdp io_uring io_uring_sqpoll io_uring_gso \
	udp_zerocopy; do
	out=$T/$m.json
	strace -f -qq --seccomp-bpf -e trace=$CALLS -o "$T/$m.trace" \
		"$PB" --method $m --count $N --format json --output "$out" -q 2>"$T/$m.err"
	rc=$?
	if [ $rc = 3 ] && json "$out" "d['results'][0]['status'] == 'skipped'"; then
		skip_part "$(method_caps $m)" "$m: $(python3 -c "import json; print(json.load(open('$out'))['results'][0]['reason'])")"
		continue
	fi
	check "$m: exit 0 under strace (got $rc: $(tail -2 "$T/$m.err"))" [ $rc = 0 ]
	[ $rc = 0 ] || continue
	seen=$(count_calls "$T/$m.trace")
	check "$m: strace saw the sending thread (pb-send0)" [ "$seen" != -1 ]
	counted=$(python3 -c "import json; print(json.load(open('$out'))['results'][0]['syscalls'])")
	check "$m: syscalls $counted in the JSON = $seen strace saw the sending thread make" \
		[ "$counted" = "$seen" ]
done
# the column is the same count over the frames
check "sendmmsg: syscalls_per_frame = syscalls / frames_sent" json "$T/sendmmsg.json" \
	"(lambda r: abs(r['syscalls_per_frame'] - r['syscalls'] / r['frames_sent']) < 1e-12)(d['results'][0])"
check "no lab left" no_leftovers
finish
