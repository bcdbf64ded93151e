# SPDX-License-Identifier: MIT
# --replay on the wire, byte for byte: --loop 3 of a capture through two frame methods
# (af_packet, and xdp_live, whose BPF program writes each frame over its live one) and a socket
# method (udp_sendto) puts exactly 3 x the file's frames on the wire: a frame method's the
# file's frame whole but for its MACs (the receiver's, and the run's as the source), the
# socket method's rebuilt (this run's addresses, ports and signature; the capture's own
# payload after it), with IPv4 and UDP checksums that tshark finds valid.
# The receiver's XDP drops frames before a capture on its interface would see them, so the
# capture is taken on the bridge's port facing the sender (--lab bridge), and the lab is kept
# until the capture has written every frame.
. "$(dirname "$0")/lib.sh"
GEN="python3 $(dirname "$0")/pcapgen.py"
pb_methods | grep -qx pcap || { echo "SKIP: --replay needs libpcap (Debian package libpcap-dev)"; exit 77; }
command -v tshark >/dev/null && command -v dumpcap >/dev/null ||
	{ echo "SKIP: tshark not found (Debian package tshark)"; exit 77; }
command -v ethtool >/dev/null || { echo "SKIP: ethtool not found (Debian package ethtool)"; exit 77; }

# xdp_live only where the kernel runs live frames (lib.sh's refused)
METHODS=af_packet,udp_sendto,xdp_live ROWS=3
refused xdp_live && METHODS=af_packet,udp_sendto ROWS=2
CAP=$T/wire.pcap CAPN=$((ROWS * 900)) # ROWS methods x 3 passes x 300 frames
trap 'wire_cleanup; cleanup' EXIT

# the DUT captures UDP (not the runs' announcements, "pbA": a replay announces its run, whose
# MAC the receiver then counts by)
wire_scripts 'udp and not (udp[8:2] = 0x7062 and udp[10] = 0x41)'

# 300 frames of mixed sizes (60 to 1514 bytes) at 20 kpps, three passes, three methods
$GEN "$T/m.pcap" --n 300 --kind mixed --pps 20000 >/dev/null
"$PB" --lab bridge --lab-dut-setup "$T/dut.sh" --lab-tx-setup "$T/tx.sh" --keep-lab \
	--method $METHODS --replay "$T/m.pcap" --loop 3 --srcport 40000 --dstport 9 \
	-q --format json -o "$T/w.json" 2>"$T/err"
wire_kept "$T/err"
# the lab is still up: stop the capture, so it writes what it has, then remove the lab
wire_cleanup
for i in $(seq 0 $((ROWS - 1))); do
	check "row $i: ok, 900 sent, 900 delivered ($(grep -v 'lab kept' "$T/err" | head -c 300))" \
		json "$T/w.json" "d['results'][$i]['status'] == 'ok' and d['results'][$i]['frames_sent'] == 900 and d['results'][$i]['frames_delivered'] == 900"
done
check "tshark: every IPv4 and UDP checksum on the wire is good" python3 - "$CAP" "$CAPN" <<'PY'
import subprocess, sys, collections
out = subprocess.run(["tshark", "-r", sys.argv[1], "-o", "ip.check_checksum:TRUE",
                      "-o", "udp.check_checksum:TRUE", "-T", "fields",
                      "-e", "ip.checksum.status", "-e", "udp.checksum.status"],
                     capture_output=True, text=True, check=True).stdout.split("\n")
c = collections.Counter(l for l in out if l)
print("  (ip, udp) checksum status (1 = good):", dict(c))
sys.exit(0 if set(c) == {"1\t1"} and sum(c.values()) == int(sys.argv[2]) else 1)
PY
check "the wire: $ROWS x 3 passes of the file's 300 frames, in order, each the file's frame rewritten" \
	python3 - "$T/m.pcap" "$CAP" "$(cat "$CAP.TX" 2>/dev/null)" "$(cat "$CAP.RX" 2>/dev/null)" "$ROWS" <<'PY'
import socket, struct, sys


def frames(path):
    b = open(path, "rb").read()
    assert struct.unpack("<I", b[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D), "not a pcap"
    off, out = 24, []
    while off < len(b):
        incl = struct.unpack("<I", b[off + 8:off + 12])[0]
        out.append(b[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def csum(d):
    d += b"\0" * (len(d) % 2)
    s = sum(struct.unpack("!%dH" % (len(d) // 2), d))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


src, dst = socket.inet_aton("198.18.0.1"), socket.inet_aton("198.18.0.2")
txmac, rxmac = bytes.fromhex(sys.argv[3].replace(":", "")), bytes.fromhex(sys.argv[4].replace(":", ""))


def rewritten(f, sig):
    """The file's frame as this run must send it (IP id and header checksum left out: the
    kernel picks the id of a socket method's frames; tshark checks the checksum)."""
    payload = sig + f[42 + 8:]
    udp = struct.pack("!HHHH", 40000, 9, 8 + len(payload), 0) + payload
    c = 0xFFFF - csum(src + dst + struct.pack("!xBH", 17, len(udp)) + udp) or 0xFFFF
    udp = udp[:6] + struct.pack("!H", c) + udp[8:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0, src, dst)
    return rxmac + txmac + b"\x08\x00" + ip + udp


def masked(w):
    return w[:18] + b"\0\0" + w[20:24] + b"\0\0" + w[26:]


want, got = frames(sys.argv[1]), frames(sys.argv[2])
n, bad = len(want), 0
print("  file: %d frames; wire: %d frames" % (n, len(got)))
rows = int(sys.argv[5])
if len(got) != 3 * rows * n:
    sys.exit(1)
for row in range(rows):
    sig, row_bad = got[row * 3 * n][42:50], 0
    # frame methods (af_packet, xdp_live) send the file's frame whole, from the run's MAC
    whole = row != 1
    runmac = got[row * 3 * n][6:12]
    if whole and (runmac[0] != 0x72 or not runmac[1] & 0x80):
        print("  row %d: source MAC %s is not a run's" % (row, runmac.hex()))
        bad += 1
    if not whole and sig == want[0][42:50]:
        print("  row %d: the payload does not start with a signature" % row)
        bad += 1
    for k in range(3 * n):
        w, i = got[row * 3 * n + k], k % n
        exp = rxmac + runmac + want[i][12:] if whole else rewritten(want[i], sig)
        if (w != exp) if whole else (masked(w) != masked(exp)):
            if bad + row_bad < 5:
                print("  row %d frame %d (file frame %d) differs:\n   got  %s\n   want %s" % (
                    row, k, i, masked(w)[:64].hex(), masked(exp)[:64].hex()))
            row_bad += 1
    bad += row_bad
    ids = {struct.unpack("!H", got[row * 3 * n + k][18:20])[0] for k in range(3 * n)}
    print("  row %d: %d frames as expected; %s; IP ids: %s" % (
        row, 3 * n - row_bad, "whole, from " + runmac.hex() if whole else "signature " + sig.hex(),
        "all 0" if ids == {0} else "%d distinct" % len(ids)))
sys.exit(1 if bad else 0)
PY
check "no lab left" no_leftovers
finish
