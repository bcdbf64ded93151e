# SPDX-License-Identifier: MIT
# --replay sends every frame of a capture through a frame method, as captured: a realistic mix
# (pcapgen.py --kind real: TCP over IPv4 and IPv6, UDP, 802.1Q, ARP, ICMP and ICMPv6 echo, IPv4
# fragments, UDP with under 8 bytes of payload, EtherType 0x88b5; every checksum valid, every
# address in 198.18.0.0/15 or 2001:2::/48) through af_packet, af_xdp and pcap puts each frame on
# the wire byte for byte but its two MACs: the receiver's as destination, and as source the
# run's own (72:SS:RR:RR:RR:RR, SS = 0x80 | 0x40 when timed | the stream, RR the run id), which
# the receiver counts by. So each row delivers every frame of the file, and the wire holds
# exactly 3 x the file's frames of each kind, every checksum still good, in the file's order.
# A socket method sends only the UDP frames, rebuilt, and says on stderr how many frames it
# left out, and in replay.skipped.
# The receiver's XDP drops frames before a capture on its interface would see them, so the
# capture is taken on the bridge's port facing the sender (--lab bridge), and the lab is kept
# until the capture has written every frame (as test_replay_wire.sh).
. "$(dirname "$0")/lib.sh"
GEN="python3 $(dirname "$0")/pcapgen.py"
pb_methods | grep -qx pcap || { echo "SKIP: --replay needs libpcap (Debian package libpcap-dev)"; exit 77; }
command -v tshark >/dev/null && command -v dumpcap >/dev/null ||
	{ echo "SKIP: tshark not found (Debian package tshark)"; exit 77; }
command -v ethtool >/dev/null || { echo "SKIP: ethtool not found (Debian package ethtool)"; exit 77; }
for m in af_packet af_xdp udp_sendto; do
	pb_methods | grep -qx $m || { echo "SKIP: this pktbench has no $m"; exit 77; }
done

N=2000
CAP=$T/wire.pcap CAPN=$((3 * N)) # 3 methods x 1 pass x N frames
trap 'wire_cleanup; cleanup' EXIT

# kinds.py CAPTURE: tshark's reading of a capture, one line of JSON: the frames by kind
# (pcapgen.py's names; "unknown" for anything else), the IPv6 frames, and every checksum
# tshark verifies (IPv4 header, TCP, UDP, ICMP, ICMPv6) by status (1 = good), with the first
# frames whose checksum is not good. A fragmented datagram's UDP checksum is verified on its
# last fragment, over the datagram tshark reassembled.
cat >"$T/kinds.py" <<'PY'
import collections, json, subprocess, sys
F = ["frame.number", "frame.protocols", "eth.type", "ip.flags.mf", "ip.frag_offset", "udp.length",
     "ip.checksum.status", "tcp.checksum.status", "udp.checksum.status", "icmp.checksum.status",
     "icmpv6.checksum.status"]
cmd = ["tshark", "-r", sys.argv[1], "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE",
       "-o", "udp.check_checksum:TRUE", "-T", "fields", "-E", "occurrence=f"]
for f in F:
    cmd += ["-e", f]
out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
kinds, status, bad, v6 = collections.Counter(), collections.Counter(), [], 0
for line in out.split("\n"):
    if not line:
        continue
    v = dict(zip(F, line.split("\t")))
    p = v["frame.protocols"].split(":")
    ip4, ip6 = "ip" in p, "ipv6" in p
    frag = ip4 and (v["ip.flags.mf"] in ("1", "True") or v["ip.frag_offset"] not in ("", "0"))
    if "arp" in p:
        k = "arp"
    elif v["eth.type"] == "0x88b5":
        k = "other_ethertype"
    elif frag:
        k = "frag4"
    elif "icmp" in p:
        k = "icmp4"
    elif "icmpv6" in p:
        k = "icmp6"
    elif "tcp" in p:
        k = "tcp4" if ip4 else "tcp6"
    elif "udp" in p and ip6:
        k = "udp6"
    elif "udp" in p and "vlan" in p:
        k = "udp4_vlan"
    elif "udp" in p:
        k = "short_udp4" if int(v["udp.length"]) < 16 else "udp4"
    else:
        k = "unknown"
    kinds[k] += 1
    v6 += ip6
    for proto, field in (("ip", "ip"), ("tcp", "tcp"), ("udp", "udp"), ("icmp", "icmp"),
                         ("icmpv6", "icmpv6")):
        if proto in p:
            s = v[field + ".checksum.status"]
            status[proto + ":" + s] += 1
            if s != "1" and len(bad) < 5:
                bad.append("frame %s %s %s checksum status %r" % (
                    v["frame.number"], v["frame.protocols"], proto, s))
print(json.dumps({"kinds": kinds, "ipv6": v6, "checksums": status, "bad": bad}))
PY

# the DUT captures only frames from a run's MAC (72:SS:..., SS with 0x80 set)
wire_scripts 'ether[6] == 0x72 and ether[7] & 0x80 != 0'

# N frames of the real mix at 20 kpps, one pass, three frame methods
$GEN "$T/k.pcap" --n $N --kind real --pps 20000 >"$T/k.gen" || { echo "FAIL: pcapgen.py"; exit 1; }
echo "  the file: $(cat "$T/k.gen")"
python3 "$T/kinds.py" "$T/k.pcap" >"$T/k.kinds"
check "the file: tshark counts the kinds pcapgen.py wrote, every checksum good ($(cat "$T/k.kinds"))" \
	python3 - "$T/k.gen" "$T/k.kinds" <<'PY'
import json, sys
g, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {k: n for k, n in g["kinds"].items() if n}
sys.exit(0 if t["kinds"] == want and not t["bad"] and sum(want.values()) == g["frames"] else 1)
PY
"$PB" --lab bridge --lab-dut-setup "$T/dut.sh" --lab-tx-setup "$T/tx.sh" --keep-lab \
	--method af_packet,af_xdp,pcap --replay "$T/k.pcap" --loop 1 \
	-q --format json -o "$T/w.json" 2>"$T/err"
rc=$?
wire_kept "$T/err"
# the lab is still up: stop the capture, so it writes what it has, then remove the lab
wire_cleanup
check "frame methods: exit 0 ($rc; $(grep -v 'lab kept' "$T/err" | head -c 300))" [ $rc = 0 ]
for m in af_packet af_xdp pcap; do
	check "$m: ok, $N sent, $N delivered: every frame of the file" \
		mrow "$T/w.json" $m "r['status'] == 'ok' and r['frames_sent'] == $N and r['frames_delivered'] == $N"
	check "$m: nothing in replay.skipped" \
		mrow "$T/w.json" $m "sum(r['replay']['skipped'].values()) == 0"
done
python3 - "$T/w.json" <<'PY'
import json, sys
try:
    for r in json.load(open(sys.argv[1]))["results"]:
        print("  %s: %s, sent %s, delivered %s, skipped %s" % (
            r["method"], r["status"], r.get("frames_sent"), r.get("frames_delivered"),
            {k: n for k, n in (r.get("replay") or {}).get("skipped", {}).items() if n}))
except Exception as e:
    print("  no rows:", e)
PY

# the wire, as tshark reads it
[ -s "$CAP" ] && python3 "$T/kinds.py" "$CAP" >"$T/w.kinds" || echo '{}' >"$T/w.kinds"
echo "  the wire: $(cat "$T/w.kinds")"
check "the wire: by kind, exactly 3 x the file's frames" python3 - "$T/k.kinds" "$T/w.kinds" <<'PY'
import json, sys
f, w = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {k: 3 * n for k, n in f["kinds"].items()}
for k in sorted(set(want) | set(w.get("kinds", {}))):
    got = w.get("kinds", {}).get(k, 0)
    if got != want.get(k, 0):
        print("  %s: %d on the wire, want %d" % (k, got, want.get(k, 0)))
sys.exit(0 if w.get("kinds") == want else 1)
PY
check "the wire: every IPv4, TCP, UDP, ICMP and ICMPv6 checksum good" python3 - "$T/w.kinds" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
for b in w.get("bad", []):
    print("  " + b)
sys.exit(0 if w.get("checksums") and not w["bad"] else 1)
PY
check "the wire: the IPv6 frames are still IPv6 (3 x the file's)" \
	python3 -c "import json,sys; f, w = (json.load(open(p)) for p in sys.argv[1:]); sys.exit(0 if f['ipv6'] and w.get('ipv6') == 3 * f['ipv6'] else 1)" \
	"$T/k.kinds" "$T/w.kinds"

# byte for byte: the wire's frames, by their source MAC (one a row), each the file's frame but
# for its two MACs; the source a run's MAC, the destination the receiver's
cat >"$T/bytes.py" <<'PY'
import collections, struct, sys


def frames(path):
    b = open(path, "rb").read()
    assert struct.unpack("<I", b[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D), "not a pcap"
    off, out = 24, []
    while off + 16 <= len(b):
        incl = struct.unpack("<I", b[off + 8:off + 12])[0]
        out.append(b[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


what, want, rxmac = sys.argv[1], frames(sys.argv[2]), bytes.fromhex(sys.argv[4].replace(":", ""))
try:
    got = frames(sys.argv[3])
except (OSError, AssertionError) as e:
    print("  no capture:", e)
    sys.exit(1)
rows = collections.OrderedDict()
for f in got:
    rows.setdefault(f[6:12], []).append(f)
n = len(want)
if what == "macs":
    print("  %d frames from %d source MAC(s): %s; destination MACs: %s (the receiver: %s)" % (
        len(got), len(rows), ", ".join("%s (%d)" % (m.hex(":"), len(r)) for m, r in rows.items()),
        ", ".join(sorted({f[:6].hex(":") for f in got})), rxmac.hex(":")))
    ok = len(rows) == 3 and all(len(r) == n for r in rows.values()) and \
        all(m[0] == 0x72 and m[1] & 0x80 for m in rows) and all(f[:6] == rxmac for f in got)
    sys.exit(0 if ok else 1)
bad = len(rows) != 3
if bad:
    print("  %d source MAC(s) on the wire, want 3 (one a row)" % len(rows))
for i, (m, r) in enumerate(rows.items()):
    body = [f[12:] for f in r]
    file_body = [f[12:] for f in want]
    if what == "multiset":
        miss = collections.Counter(file_body) - collections.Counter(body)
        extra = collections.Counter(body) - collections.Counter(file_body)
        print("  row %d (%s): %d frames; %d of the file's missing, %d not the file's" % (
            i, m.hex(":"), len(r), sum(miss.values()), sum(extra.values())))
        bad |= bool(miss or extra)
    else:
        k = next((k for k in range(min(len(body), n)) if body[k] != file_body[k]), None)
        if k is None and len(body) == n:
            print("  row %d (%s): the file's %d frames in order" % (i, m.hex(":"), n))
        else:
            bad = True
            k = min(len(body), n) if k is None else k
            print("  row %d (%s): %d frames; the first that differs is frame %d%s" % (
                i, m.hex(":"), len(body), k, "" if k >= min(len(body), n) else
                ":\n   got  %s\n   want %s" % (body[k][:48].hex(), file_body[k][:48].hex())))
sys.exit(1 if bad else 0)
PY
rxmac=$(cat "$CAP.RX" 2>/dev/null)
check "the wire: each row's frames are the file's but for the MACs (as a multiset)" \
	python3 "$T/bytes.py" multiset "$T/k.pcap" "$CAP" "$rxmac"
check "the wire: each row's frames in the file's order" \
	python3 "$T/bytes.py" order "$T/k.pcap" "$CAP" "$rxmac"
check "the wire: 3 run MACs (one a row, 72:..., $N frames each), to the receiver's MAC" \
	python3 "$T/bytes.py" macs "$T/k.pcap" "$CAP" "$rxmac"

# a socket method sends the UDP frames of its run's family only (rebuilt: IPv6 stays IPv6, so an
# IPv4 run leaves the IPv6 ones out) and says how many it left out
udp=$(python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['kinds']; print(k['udp4'] + k['udp4_vlan'])" "$T/k.gen")
udp6=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['kinds']['udp6'])" "$T/k.gen")
left=$((N - udp))
"$PB" --method udp_sendto --replay "$T/k.pcap" --loop 1 -q --format json -o "$T/s.json" \
	2>"$T/s.err"
rc=$?
check "udp_sendto: exit 0 ($rc; $(head -c 300 "$T/s.err"))" [ $rc = 0 ]
check "udp_sendto: ok, the $udp UDP frames sent and delivered" \
	mrow "$T/s.json" udp_sendto "r['status'] == 'ok' and r['frames_sent'] == $udp and r['frames_delivered'] == $udp"
check "udp_sendto: a line on stderr says $left frames were left out" \
	grep -Eqi "(^|[^0-9])$left([^0-9]|$).*frame|frame.*(^|[^0-9])$left([^0-9]|$)" "$T/s.err"
check "udp_sendto: replay.skipped counts them ($(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print({k: n for k, n in r['replay']['skipped'].items() if n})" "$T/s.json" 2>&1))" \
	mrow "$T/s.json" udp_sendto "sum(r['replay']['skipped'].values()) == $left and r['replay']['skipped']['other_family'] == $udp6"
check "no lab left" no_leftovers
finish
