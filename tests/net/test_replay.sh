# SPDX-License-Identifier: MIT
# --replay through the lab, with known answers: captures written here (pcapgen.py, addresses
# in 198.18.0.0/15 and 2001:2::/48 only, and rebuilt to the lab's anyway), --loop 3 delivers
# exactly 3 x the file's frames through a frame method and a socket method, and the file's own
# timing is kept: the run lasts the file's duration within 0.1 %.
. "$(dirname "$0")/lib.sh"
GEN="python3 $(dirname "$0")/pcapgen.py"
r0() { echo "d['results'][$1]"; }
# the pcap method is built exactly when libpcap is, which --replay reads captures with
pb_methods | grep -qx pcap || { echo "SKIP: --replay needs libpcap (Debian package libpcap-dev)"; exit 77; }

# --loop 3 of 2000 frames at 20 kpps: exactly 6000 sent and delivered, on both kinds of path
$GEN "$T/c.pcap" --n 2000 --pps 20000 >/dev/null
"$PB" --method af_packet,udp_sendto --replay "$T/c.pcap" --loop 3 -q --format json \
	-o "$T/loop.json" 2>"$T/err"
for i in 0 1; do
	r=$(r0 $i)
	check "loop 3, row $i: ok, 6000 sent, 6000 delivered ($(head -c 300 "$T/err"))" \
		json "$T/loop.json" "$r['status'] == 'ok' and $r['frames_sent'] == 6000 and $r['frames_delivered'] == 6000"
	check "loop 3, row $i: replay counts 6000 frames, 3 loops, 60-byte frames" \
		json "$T/loop.json" "$r['replay']['frames'] == 6000 and $r['replay']['loops'] == 3 and $r['replay']['pass_frames'] == 2000"
done
check "loop 3: both handed 6000 x 60-byte frames (18-byte payloads)" \
	json "$T/loop.json" "$(r0 0)['replay']['bytes'] == 360000 and $(r0 1)['replay']['bytes'] == 360000"

# mixed sizes, 1001 frames: a ring that does not hold whole passes still sends them in order,
# so 3 passes are exactly 3 x the file's bytes at the receiver
bytes=$($GEN "$T/m.pcap" --n 1001 --kind mixed --pps 100000 |
	python3 -c "import json,sys; print(json.load(sys.stdin)['bytes'])")
"$PB" --method af_packet --replay "$T/m.pcap" --loop 3 -q --format json -o "$T/m.json" \
	2>"$T/err"
check "mixed, loop 3: 3003 delivered, 3 x $bytes bytes in the file's order ($(head -c 300 "$T/err"))" \
	json "$T/m.json" "$(r0 0)['frames_delivered'] == 3003 and $(r0 0)['replay']['bytes_delivered'] == 3 * $bytes and $(r0 0)['replay']['bytes'] == 3 * $bytes"

# original timing through af_packet, af_xdp and udp_sendto: 10000 frames at a constant
# 20 kpps (the file lasts 0.49995 s), and in bursts of 10 frames 50 us apart with 1 ms between
# bursts (1.449 s); each run within 0.1 % of the file's duration, the receiver's gap p50
# within 1 % of the file's 50 us. Early is wrong on any machine: a plain check. Late, and a
# gap off, is a timing answer on the wire (a sender without its CPU is late), re-measured: a
# schedule stretched 0.2 % or more is late in every attempt, however loaded.
$GEN "$T/t.pcap" --n 10000 --pps 20000 --format nsec >/dev/null
$GEN "$T/o.pcap" --n 10000 --kind onoff --pps 20000 --format nsec >/dev/null
# replay_run CAPTURE METHOD: the capture replayed through METHOD into $T/CAPTURE-METHOD.json,
# its figures printed; 0 when the run lasted no more than the file (+0.1 %) and the
# receiver's gap p50 is the file's within 0.5 us
replay_run() {
	"$PB" --method "$2" --replay "$T/$1.pcap" -q --format json -o "$T/$1-$2.json" 2>"$T/err"
	python3 - "$T/$1-$2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
p = r['replay']
g = p['arrival_gap_error_us']
err = (p['run_duration_s'] - p['file_duration_s']) / p['file_duration_s']
print("  %s: file %.6f s, run %.6f s (%+.0f ppm), departures late p50 %s p99 %s max %s us" % (
    r['method'], p['file_duration_s'], p['run_duration_s'], err * 1e6, *(
        p['departure_error_us'][k] for k in ('p50', 'p99', 'max'))))
print("  file gap p50 %s us p99 %s us; arrival p50 - file %s us, p99 - file %s us, max %s us" % (
    g['file_p50'], g['file_p99'], g['p50'], g['p99'], g.get('max')))
sys.exit(0 if err < 1e-3 and abs(g['p50']) <= 0.5 else 1)
PY
}
for f in t:0.49995 o:1.449; do
	cap=${f%%:*} dur=${f#*:}
	for m in af_packet af_xdp udp_sendto; do
		attempts 3 "timing $cap, $m: the run no longer than the file (+0.1 %), the receiver's gap p50 within 1 % of the file's" \
			replay_run "$cap" "$m"
		out=$T/$cap-$m.json
		check "timing $cap, $m: all 10000 delivered ($(head -c 300 "$T/err"))" \
			json "$out" "$(r0 0)['status'] == 'ok' and $(r0 0)['frames_delivered'] == 10000"
		check "timing $cap, $m: the file lasts $dur s, its gaps' p50 50 us, the run no less (-0.1 %)" \
			json "$out" "(lambda p: abs(p['file_duration_s'] - $dur) < 1e-9 and abs(p['arrival_gap_error_us']['file_p50'] - 50) < 1e-6 and p['run_duration_s'] / p['file_duration_s'] - 1 > -1e-3)($(r0 0)['replay'])"
	done
done

# --loop 0: passes until --duration, whole or not; every frame handed over is delivered
"$PB" --method udp_sendto --replay "$T/c.pcap" --loop 0 --duration 1 -q --format json \
	-o "$T/l0.json" 2>"$T/err"
check "loop 0 --duration 1: several passes, all delivered ($(head -c 300 "$T/err"))" \
	json "$T/l0.json" "$(r0 0)['status'] == 'ok' and $(r0 0)['replay']['loops'] >= 2 and $(r0 0)['replay']['loops'] == $(r0 0)['frames_sent'] // 2000 and $(r0 0)['frames_delivered'] == $(r0 0)['frames_sent']"

# bursts of 10 frames 1 us apart, then a pause: the same duration, every frame. 0.5 s of
# them, as the timing checks above: 0.1 % of a 0.1 s file was less than the lateness of one
# descheduled last frame on a fresh CI machine. No longer is the timing answer, re-measured.
$GEN "$T/b.pcap" --n 10000 --kind burst --format nsec >/dev/null
burst_run() {
	"$PB" --method af_packet --replay "$T/b.pcap" -q --format json -o "$T/b.json" 2>"$T/err"
	echo "  bursts: run $(json "$T/b.json" "print($(r0 0)['replay']['run_duration_s']) or True") s, file $(json "$T/b.json" "print($(r0 0)['replay']['file_duration_s']) or True") s"
	json "$T/b.json" "$(r0 0)['replay']['run_duration_s'] / $(r0 0)['replay']['file_duration_s'] - 1 < 1e-3"
}
attempts 3 "bursts: the run no longer than the file's (+0.1 %)" burst_run
check "bursts: 10000 delivered, run no shorter than the file's 0.499509 s (-0.1 %) ($(json "$T/b.json" "print($(r0 0)['replay']['run_duration_s']) or True") s; $(head -c 300 "$T/err"))" \
	json "$T/b.json" "$(r0 0)['frames_delivered'] == 10000 and abs($(r0 0)['replay']['file_duration_s'] - 0.499509) < 1e-9 and $(r0 0)['replay']['run_duration_s'] / $(r0 0)['replay']['file_duration_s'] - 1 > -1e-3"

# 1 in 5 frames is TCP: a frame method sends them all (counted by the run's MAC); a socket
# method only the UDP ones, the others counted, not sent, and said
$GEN "$T/n.pcap" --n 100 --kind nonudp >/dev/null
"$PB" --method af_packet,udp_sendto --replay "$T/n.pcap" --topspeed -q --format json \
	-o "$T/n.json" 2>"$T/err"
check "skips: af_packet delivers all 100 frames, TCP too ($(head -c 300 "$T/err"))" \
	mrow "$T/n.json" af_packet "r['frames_delivered'] == 100 and not any(r['replay']['skipped'].values())"
check "skips: udp_sendto delivers the 80 UDP frames, 20 TCP counted as not_udp" \
	mrow "$T/n.json" udp_sendto "r['frames_delivered'] == 80 and r['replay']['skipped']['not_udp'] == 20"
"$PB" --method udp_sendto --replay "$T/n.pcap" --topspeed >"$T/n.txt" 2>&1
check "skips: said under the table, not only in JSON" \
	grep -q "20 of the file's 100 frames left out: not UDP (TCP, ICMP...) 20" "$T/n.txt"
$GEN "$T/big.pcap" --n 8 --kind mixed --big >/dev/null
"$PB" --method af_packet,udp_sendto --replay "$T/big.pcap" -q --format json \
	-o "$T/big.json" 2>"$T/err"
rc=$?
check "too big: exit 0 ($rc: $(head -c 300 "$T/err"))" [ $rc = 0 ]
check "too big: both rows report the 2000-byte payloads, the other 6 delivered" \
	json "$T/big.json" "len(d['results']) == 2 and all(r['replay']['skipped']['too_big'] == 2 and r['frames_delivered'] == 6 for r in d['results'])"

# pcapng, mixed sizes, VLAN-tagged frames keep their tag on a frame method
$GEN "$T/v.pcapng" --n 400 --kind vlan --format pcapng >/dev/null
"$PB" --method af_packet --replay "$T/v.pcapng" --multiplier 4 -q --format json \
	-o "$T/v.json" 2>"$T/err"
check "pcapng + VLAN: 400 delivered, tagged 42 ($(head -c 300 "$T/err"))" json "$T/v.json" \
	"$(r0 0)['frames_delivered'] == 400 and $(r0 0)['rx_vlans'] == [42]"
check "--multiplier 4: a quarter of the file's duration" json "$T/v.json" \
	"abs($(r0 0)['replay']['scheduled_duration_s'] - $(r0 0)['replay']['file_duration_s'] / 4) < 1e-9"

# IPv6, 4 flows over 2 streams, mixed sizes: exact counts, and the receiver sees all 4 flows
$GEN "$T/6.pcap" --n 400 --kind ipv6 --flows 4 >/dev/null
"$PB" --method af_packet,udp_sendto --replay "$T/6.pcap" --streams 2 --srcip 2001:2::1 \
	--dstip 2001:2::2 --pps 20k -q --format json -o "$T/6.json" 2>"$T/err"
rc=$?
check "IPv6, 2 streams: exit 0 ($rc: $(head -c 300 "$T/err"))" [ $rc = 0 ]
check "IPv6, 2 streams: both rows 400 delivered, 4 flows seen" \
	json "$T/6.json" "len(d['results']) == 2 and all(r['frames_delivered'] == 400 and r['flows_seen'] == 4 and r['replay']['timing'] == 'pps' for r in d['results'])"

# --flows 50: one flow in the file, 50 on the wire, frame i on flow i % 50, as built frames are
# (a socket method, which rebuilds; a frame method sends the capture's own flows, and says so)
"$PB" --method udp_sendto --replay "$T/c.pcap" --flows 50 --streams 2 --loop 2 -q \
	--format json -o "$T/f.json" 2>"$T/err"
rc=$?
check "--flows 50: exit 0 ($rc: $(head -c 300 "$T/err"))" [ $rc = 0 ]
check "--flows 50: one row, 4000 delivered, the receiver sees 50 flows" \
	json "$T/f.json" "len(d['results']) == 1 and all(r['frames_delivered'] == 4000 and r['flows_seen'] == 50 for r in d['results'])"
check "--flows 50 on af_packet: refused, saying why" \
	sh -c '! "$1" --method af_packet --replay "$2" --flows 50 -q >/dev/null 2>"$3" && grep -q "replays the capture.s own frames and flows" "$3"' _ "$PB" "$T/c.pcap" "$T/ferr"

# every other method: 3 x the file exactly, or (GSO's equal segments) a skipped row that
# says why
all=$(pb_methods | grep -vx -e null -e af_packet -e udp_sendto | paste -sd, -)
"$PB" --method "$all" --replay "$T/c.pcap" --loop 3 -q --format json -o "$T/all.json" \
	2>"$T/err"
rc=$?
check "every method: exit 0 ($rc: $(head -c 300 "$T/err"))" [ $rc = 0 ]
# a row for each of them: a loop over no rows would find nothing wrong
check "every method: a row each, 6000 delivered, or skipped for replay" \
	python3 - "$T/all.json" "$all" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))['results']
want = sys.argv[2].split(',')
bad = sorted(r['method'] for r in rows) != sorted(want)
if bad:
    print("  rows %s, methods asked %s" % ([r['method'] for r in rows], want))
for r in rows:
    if r['status'] == 'skipped' and 'replay' in r['reason']:
        print("  %s: skipped: %s" % (r['method'], r['reason']))
        continue
    good = r['status'] == 'ok' and r['frames_sent'] == 6000 and r['frames_delivered'] == 6000
    print("  %s: %s %s sent, %s delivered%s" % (r['method'], r['status'], r['frames_sent'],
          r['frames_delivered'], "" if good else " <- wrong: " + r['reason']))
    bad += not good
sys.exit(1 if bad else 0)
PY
check "no lab left" no_leftovers
finish
