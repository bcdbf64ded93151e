# SPDX-License-Identifier: MIT
"""Writes small test captures for --replay with known answers: our own writer, nothing
downloaded. Every address inside the benchmarking ranges only (198.18.0.0/15, 2001:2::/48), in
IP headers and in ARP bodies alike. Every kind but real is Ethernet + IPv4/IPv6 (+ an 802.1Q
tag) + UDP.

usage: pcapgen.py OUT --n N [--pps R]
                  [--kind const|burst|onoff|mixed|ipv6|vlan|nonudp|real]
                  [--format pcap|nsec|pcapng] [--flows F] [--big] [--payload B]
                  [--size-mib M]
Prints one line of JSON: frames, udp_frames, bytes (frames padded to 60), duration_s (first to
last stamp). --size-mib writes the N frames over and over, the stamps going on at the same
rate, until the file holds M MiB: a large file written without holding it in memory.

--kind real: a mix like a real capture, every frame as a sender captures it (never padded) and
every checksum valid, N frames at --pps (--flows, --big and --payload do not apply). Per 100
frames: 52 tcp4 (a bulk download and a request/response flow: handshakes with options, data
segments of many sizes, ACKs, FINs), 8 tcp6, 11 udp4 (payloads 8-1472 bytes), 3 udp4_vlan
(802.1Q, VID 42), 4 udp6, 3 short_udp4 (payload 0-7 bytes: frames of 42-49 bytes), 4 arp
(request and reply, 42 bytes), 4 icmp4 and 4 icmp6 (echo request and reply), 3 frag4 (one
UDP datagram of ~3000 bytes as first, middle and last fragment; the first carries the UDP
header, its checksum over the whole datagram) and 4 other_ethertype (0x88b5, local
experimental: a short tag and 4-199 bytes, some frames under 60 bytes); the flows
interleaved, each in its own order; the next 100 take other ports, addresses and sizes. Its
JSON adds kinds: {kind: frames}; udp_frames counts the whole UDP datagrams with 8 bytes of
payload or more (udp4, udp4_vlan, udp6), those a socket method can send. With --size-mib the
N frames repeat as for the other kinds (file_bytes: the file's size).
"""
import argparse
import json
import random
import socket
import struct


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def frame(i, size_payload, v6=False, vlan=None, flow=0, proto=17):
    src_mac = bytes.fromhex("020000000001")
    dst_mac = bytes.fromhex("020000000002")
    payload = bytes((i + k) & 0xFF for k in range(size_payload))
    sport, dport = 40000 + flow, 9
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    if v6:
        src = socket.inet_pton(socket.AF_INET6, "2001:2::%x" % (0x10 + flow))
        dst = socket.inet_pton(socket.AF_INET6, "2001:2::99")
        ph = src + dst + struct.pack("!IxxxB", len(udp), 17)
        c = 0xFFFF - csum(ph + udp) or 0xFFFF
        udp = udp[:6] + struct.pack("!H", c) + udp[8:]
        l3 = struct.pack("!IHBB", 6 << 28, len(udp), proto, 64) + src + dst + udp
        etype = 0x86DD
    else:
        src = socket.inet_aton("198.18.1.%d" % (1 + flow % 250))
        dst = socket.inet_aton("198.19.9.9")
        ph = src + dst + struct.pack("!xBH", 17, len(udp))
        c = 0xFFFF - csum(ph + udp) or 0xFFFF
        udp = udp[:6] + struct.pack("!H", c) + udp[8:]
        hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xFFFF, 0, 64,
                          proto, 0, src, dst)
        hdr = hdr[:10] + struct.pack("!H", 0xFFFF - csum(hdr)) + hdr[12:]
        l3 = hdr + udp
        etype = 0x0800
    eth = dst_mac + src_mac
    if vlan is not None:
        eth += struct.pack("!HH", 0x8100, vlan)
    return eth + struct.pack("!H", etype) + l3


# --kind real: a realistic mix, every frame as a sender captures it, every checksum valid.

REAL_KINDS = ("tcp4", "tcp6", "udp4", "udp4_vlan", "udp6", "arp", "icmp4", "icmp6", "frag4",
              "short_udp4", "other_ethertype")
_FIN, _SYN, _RST, _PSH, _ACK = 1, 2, 4, 8, 16


def _v4(third, fourth, net=18):
    return socket.inet_aton("198.%d.%d.%d" % (net, third, fourth))


def _v6(sub, host):
    return socket.inet_pton(socket.AF_INET6, "2001:2:0:%x::%x" % (sub, host))


def _mac(ip):
    """A host's MAC (locally administered) from its address."""
    return (b"\x02\x00" if len(ip) == 4 else b"\x02\x06") + ip[-4:]


def _eth(dst, src, etype, body, vlan=None):
    h = dst + src
    if vlan is not None:
        h += struct.pack("!HH", 0x8100, vlan)
    return h + struct.pack("!H", etype) + body


def _ip4(src, dst, proto, payload, ident, frag=0x4000, ttl=64):
    """IPv4 header (DF unless frag says otherwise) with its checksum, then payload."""
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, frag, ttl, proto, 0,
                      src, dst)
    return hdr[:10] + struct.pack("!H", 0xFFFF - csum(hdr)) + hdr[12:] + payload


def _ip6(src, dst, nxt, payload, hlim=64):
    return struct.pack("!IHBB", 6 << 28, len(payload), nxt, hlim) + src + dst + payload


def _l3(src, dst, proto, l4, ident):
    if len(src) == 16:
        return 0x86DD, _ip6(src, dst, proto, l4)
    return 0x0800, _ip4(src, dst, proto, l4, ident)


def _l4sum(src, dst, proto, seg, at):
    """seg with its checksum (at byte `at`) over the pseudo-header: TCP, UDP, ICMPv6."""
    if len(src) == 16:
        ph = src + dst + struct.pack("!IxxxB", len(seg), proto)
    else:
        ph = src + dst + struct.pack("!xBH", proto, len(seg))
    c = 0xFFFF - csum(ph + seg)
    if proto == 17 and c == 0:
        c = 0xFFFF  # UDP: 0 means "no checksum"
    return seg[:at] + struct.pack("!H", c) + seg[at + 2:]


def _udp(src, dst, sport, dport, data):
    return _l4sum(src, dst, 17, struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data, 6)


class _Ctx:
    """One block of 100 frames: its number (ports, hosts, sizes), its random numbers and IP
    ids."""

    def __init__(self, c):
        self.c = c
        self.rng = random.Random(0x9E3779B9 + c)
        self.ident = (c * 211) & 0xFFFF

    def id(self):
        self.ident = (self.ident + 1) & 0xFFFF
        return self.ident

    def data(self, n):
        return self.rng.randbytes(n)


class _Tcp:
    """A TCP connection as a capture at the client sees it: side 0 the client, 1 the server;
    sequence and acknowledgement numbers, timestamps and windows kept as the segments go."""

    def __init__(self, ctx, cip, cport, sip, sport):
        self.ctx, self.v6 = ctx, len(cip) == 16
        rng = ctx.rng
        self.ip, self.port = (cip, sip), (cport, sport)
        self.nxt = [rng.getrandbits(32), rng.getrandbits(32)]
        self.ts = [rng.getrandbits(32), rng.getrandbits(32)]
        self.mss = 1440 if self.v6 else 1460

    def seg(self, side, flags, data=b""):
        me, peer, rng = side, 1 - side, self.ctx.rng
        self.ts[me] = (self.ts[me] + rng.randrange(0, 4)) & 0xFFFFFFFF
        tsecr = self.ts[peer] if flags & _ACK else 0
        if flags & _SYN:  # MSS, SACK permitted, timestamps, NOP, window scale 7
            opts = struct.pack("!BBHBBBBII", 2, 4, self.mss, 4, 2, 8, 10, self.ts[me], tsecr) + \
                b"\x01\x03\x03\x07"
            win = 64800 if self.v6 else 64240
        else:
            opts = struct.pack("!BBBBII", 1, 1, 8, 10, self.ts[me], tsecr)
            win = 502 + 7 * me
        seq, ack = self.nxt[me], self.nxt[peer] if flags & _ACK else 0
        self.nxt[me] = (seq + len(data) + (1 if flags & (_SYN | _FIN) else 0)) & 0xFFFFFFFF
        src, dst = self.ip[me], self.ip[peer]
        tcp = struct.pack("!HHIIBBHHH", self.port[me], self.port[peer], seq, ack,
                          (20 + len(opts)) // 4 << 4, flags, win, 0, 0) + opts + data
        etype, l3 = _l3(src, dst, 6, _l4sum(src, dst, 6, tcp, 16), self.ctx.id())
        return ("tcp6" if self.v6 else "tcp4", _eth(_mac(dst), _mac(src), etype, l3))

    def handshake(self):
        return [self.seg(0, _SYN), self.seg(1, _SYN | _ACK), self.seg(0, _ACK)]


def _udp_frame(ctx, kind, src, dst, sport, dport, data, vlan=None):
    etype, l3 = _l3(src, dst, 17, _udp(src, dst, sport, dport, data), ctx.id())
    return (kind, _eth(_mac(dst), _mac(src), etype, l3, vlan))


def _icmp_echo(ctx, a, b, ident, seq, data, kind):
    """An echo request from a and b's reply (ICMP or ICMPv6 as the addresses are)."""
    out = []
    for src, dst, typ in ((a, b, 0), (b, a, 1)):
        if len(a) == 16:
            msg = struct.pack("!BBHHH", (128, 129)[typ], 0, 0, ident, seq) + data
            etype, l3 = _l3(src, dst, 58, _l4sum(src, dst, 58, msg, 2), 0)
        else:
            msg = struct.pack("!BBHHH", (8, 0)[typ], 0, 0, ident, seq) + data
            msg = msg[:2] + struct.pack("!H", 0xFFFF - csum(msg)) + msg[4:]
            etype, l3 = _l3(src, dst, 1, msg, ctx.id())
        out.append((kind, _eth(_mac(dst), _mac(src), etype, l3)))
    return out


def _arp(a, b):
    """a asks who has b (broadcast), b answers: 42 bytes each, unpadded."""
    req = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, _mac(a), a, b"\0" * 6, b)
    rep = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 2, _mac(b), b, _mac(a), a)
    return [("arp", _eth(b"\xff" * 6, _mac(a), 0x0806, req)),
            ("arp", _eth(_mac(a), _mac(b), 0x0806, rep))]


def _real_block(c):
    """Block c: 100 frames (52 tcp4, 8 tcp6, 11 udp4, 3 udp4_vlan, 4 udp6, 3 short_udp4, 4 arp,
    4 icmp4, 4 icmp6, 3 frag4, 4 other_ethertype), its flows interleaved at random (seeded by
    c), each flow's frames in their own order."""
    ctx = _Ctx(c)
    rng = ctx.rng
    host = 1 + c % 200
    cport = 49152 + (c * 7) % 16000
    client, server = _v4(10, host), _v4(20, 10, 19)
    seqs = []

    # tcp4, a bulk download (43): handshake, a request, 24 segments of data (most full, some
    # not) acknowledged every second one, the server closes
    t = _Tcp(ctx, client, cport, server, 18088)
    s = t.handshake() + [t.seg(0, _PSH | _ACK, ctx.data(rng.randrange(180, 401)))]
    for k in range(24):
        n = 1448 if rng.random() < 0.7 else rng.randrange(1, 1449)
        s.append(t.seg(1, (_PSH if k == 23 else 0) | _ACK, ctx.data(n)))
        if k % 2:
            s.append(t.seg(0, _ACK))
    s += [t.seg(1, _FIN | _ACK), t.seg(0, _FIN | _ACK), t.seg(1, _ACK)]
    seqs.append(s)
    # tcp4, request and response (9): handshake, two exchanges
    t = _Tcp(ctx, client, cport + 1, _v4(20, 11, 19), 19000)
    s = t.handshake()
    for _ in range(2):
        s += [t.seg(0, _PSH | _ACK, ctx.data(rng.randrange(20, 121))),
              t.seg(1, _PSH | _ACK, ctx.data(rng.randrange(60, 901))), t.seg(0, _ACK)]
    seqs.append(s)
    # tcp6 (8): handshake, a request, a full segment and a short one, an ACK, the client's FIN
    t = _Tcp(ctx, _v6(0x10, host), cport + 2, _v6(0x20, 0x10), 18088)
    seqs.append(t.handshake() + [t.seg(0, _PSH | _ACK, ctx.data(rng.randrange(30, 201))),
                                 t.seg(1, _ACK, ctx.data(1428)),
                                 t.seg(1, _PSH | _ACK, ctx.data(rng.randrange(1, 1429))),
                                 t.seg(0, _ACK), t.seg(0, _FIN | _ACK)])
    # udp4 (11): five queries and their answers, one message one way
    srv = _v4(20, 53, 19)
    for k in range(5):
        p = cport + 3 + k
        q, r = ctx.data(rng.randrange(8, 101)), ctx.data(rng.randrange(100, 1473))
        seqs.append([_udp_frame(ctx, "udp4", client, srv, p, 10053, q),
                     _udp_frame(ctx, "udp4", srv, client, 10053, p, r)])
    seqs.append([_udp_frame(ctx, "udp4", client, _v4(20, 14, 19), cport + 8, 10514,
                            ctx.data(rng.randrange(8, 601)))])
    # udp4_vlan (3): 802.1Q, priority 3, VID 42
    a, b = _v4(42, host), _v4(42, 254)
    for k in range(3):
        seqs.append([_udp_frame(ctx, "udp4_vlan", a, b, cport + 9, 10042,
                                ctx.data(rng.randrange(8, 1401)), vlan=3 << 13 | 42)])
    # udp6 (4): two queries and their answers
    a, b = _v6(0x10, host), _v6(0x20, 0x53)
    for k in range(2):
        p = cport + 10 + k
        q, r = ctx.data(rng.randrange(8, 101)), ctx.data(rng.randrange(100, 1401))
        seqs.append([_udp_frame(ctx, "udp6", a, b, p, 10053, q),
                     _udp_frame(ctx, "udp6", b, a, 10053, p, r)])
    # short_udp4 (3): payloads of 0 to 7 bytes, frames of 42 to 49 bytes
    for k in range(3):
        seqs.append([_udp_frame(ctx, "short_udp4", client, _v4(20, 7, 19), cport + 12, 10007,
                                ctx.data((c * 3 + k) % 8))])
    # arp (4): the client asks for its gateway and the gateway for the client
    gw = _v4(10, 254)
    seqs += [_arp(client, gw), _arp(gw, client)]
    # icmp4, icmp6 (4 each): two pings each, one of ping's 56 bytes and one of any size
    for a, b, kind in ((client, _v4(20, 1, 19), "icmp4"), (_v6(0x10, host), _v6(0x20, 1), "icmp6")):
        ident = rng.getrandbits(16)
        d56 = struct.pack("!II", 1_700_000_000 + c, rng.getrandbits(20)) + bytes(range(0x10, 0x40))
        seqs.append(_icmp_echo(ctx, a, b, ident, (2 * c + 1) & 0xFFFF, d56, kind))
        seqs.append(_icmp_echo(ctx, a, b, ident, (2 * c + 2) & 0xFFFF,
                               ctx.data(rng.randrange(0, 1001)), kind))
    # frag4 (3): one UDP datagram of ~3000 bytes in three fragments (1480 + 1480 + the rest
    # bytes of IP payload); the first carries the UDP header, its checksum over it all
    b = _v4(20, 30, 19)
    dgram = _udp(client, b, cport + 13, 10111, ctx.data(2990 + c % 21 - 8))
    ident, s = ctx.id(), []
    for off in (0, 1480, 2960):
        more = 0x2000 if off + 1480 < len(dgram) else 0
        s.append(("frag4", _eth(_mac(b), _mac(client), 0x0800, _ip4(
            client, b, 17, dgram[off:off + 1480], ident, frag=more | off // 8))))
    seqs.append(s)
    # other_ethertype (4): 0x88b5, local experimental, some bytes
    for k in range(4):
        body = b"pktbench %d.%d " % (c, k) + ctx.data(rng.randrange(4, 200))
        seqs.append([("other_ethertype",
                      _eth(b"\x02\x88\xb5\x00\x00\x02", _mac(client), 0x88B5, body))])

    out = []
    left = sum(len(s) for s in seqs)
    while left:
        r = rng.randrange(left)
        for s in seqs:
            if r < len(s):
                out.append(s.pop(0))
                break
            r -= len(s)
        left -= 1
    return out


def _in_ranges(f):
    """Every address in the frame (IPv4, IPv6, ARP's) is 198.18.0.0/15 or 2001:2::/48."""
    et, off = struct.unpack("!H", f[12:14])[0], 14
    if et == 0x8100:
        et, off = struct.unpack("!H", f[16:18])[0], 18
    addrs = {0x0800: (f[off + 12:off + 16], f[off + 16:off + 20]),
             0x86DD: (f[off + 8:off + 24], f[off + 24:off + 40]),
             0x0806: (f[off + 14:off + 18], f[off + 24:off + 28])}.get(et, ())
    return all(a[:2] in (b"\xc6\x12", b"\xc6\x13") if len(a) == 4 else
               a[:6] == b"\x20\x01\x00\x02\x00\x00" for a in addrs)


def real_frames(n):
    """The first n frames of the real mix, as (kind, frame), block by block."""
    c = 0
    while n > 0:
        block = _real_block(c)[:n]
        for kf in block:
            assert _in_ranges(kf[1]), "an address outside the benchmarking ranges"
            yield kf
        n -= len(block)
        c += 1


class _Writer:
    """pcap (--format pcap: microsecond stamps; nsec), or pcapng with nanosecond stamps, record
    by record."""

    def __init__(self, out, fmt):
        self.out, self.fmt = out, fmt
        if fmt == "pcapng":
            shb_body = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)
            h = struct.pack("<II", 0x0A0D0D0A, 12 + len(shb_body)) + shb_body + \
                struct.pack("<I", 12 + len(shb_body))
            opts = struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<HH", 0, 0)  # if_tsresol 9
            idb = struct.pack("<HHI", 1, 0, 65535) + opts
            h += struct.pack("<II", 1, 12 + len(idb)) + idb + struct.pack("<I", 12 + len(idb))
        else:
            h = struct.pack("<IHHiIII", 0xA1B23C4D if fmt == "nsec" else 0xA1B2C3D4, 2, 4, 0, 0,
                            65535, 1)
        out.write(h)
        self.size = len(h)

    def rec(self, t, f):
        if self.fmt == "pcapng":
            body = struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(f), len(f)) + f + \
                b"\0" * (-len(f) % 4)
            r = struct.pack("<II", 6, 12 + len(body)) + body + struct.pack("<I", 12 + len(body))
        else:
            sub = t % 10**9 if self.fmt == "nsec" else (t % 10**9) // 1000
            r = struct.pack("<IIII", t // 10**9, sub, len(f), len(f)) + f
        self.out.write(r)
        self.size += len(r)


def real(a):
    """--kind real: written as it is made, block by block; with --size-mib, the N frames over
    and over (held once) until the file holds M MiB."""
    kinds = dict.fromkeys(REAL_KINDS, 0)
    gap, t0, want = 1e9 / a.pps, 1_700_000_000 * 10**9, a.size_mib << 20
    k = nbytes = 0
    with open(a.out, "wb", buffering=1 << 20) as out:
        w = _Writer(out, a.format)
        base = list(real_frames(a.n)) if want else None
        while True:
            for kind, f in base if want else real_frames(a.n):
                w.rec(t0 + int(round(k * gap)), f)
                kinds[kind] += 1
                nbytes += max(len(f), 60)
                k += 1
            if not want or w.size >= want or not base:
                break
    r = {"frames": k, "udp_frames": kinds["udp4"] + kinds["udp4_vlan"] + kinds["udp6"],
         "bytes": nbytes, "duration_s": int(round((k - 1) * gap)) / 1e9 if k else 0.0,
         "kinds": kinds}
    if want:
        r["file_bytes"] = w.size
    print(json.dumps(r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--pps", type=float, default=20000)
    ap.add_argument("--kind", default="const")
    ap.add_argument("--format", default="pcap")
    ap.add_argument("--flows", type=int, default=1)
    ap.add_argument("--big", action="store_true", help="with mixed: 1 in 4 payloads 2000 bytes")
    ap.add_argument("--payload", type=int, default=18, help="const: the UDP payload's bytes")
    ap.add_argument("--size-mib", type=int, default=0)
    a = ap.parse_args()
    if a.kind == "real":
        return real(a)
    if a.size_mib:
        return big(a)

    t_ns, frames, udp = 1_700_000_000 * 10**9, [], 0
    gap = 1e9 / a.pps
    for i in range(a.n):
        if a.kind == "burst":  # bursts of 10 back to back (1 us apart), then a pause
            t = t_ns + int((i // 10) * 10 * gap + (i % 10) * 1000)
        elif a.kind == "onoff":  # bursts of 10 at the rate, then 1 ms of silence
            t = t_ns + int(round((i // 10) * (9 * gap + 1e6) + (i % 10) * gap))
        else:
            t = t_ns + int(round(i * gap))
        size = a.payload
        if a.kind == "mixed":
            size = (18, 2000 if a.big else 554, 1472, 100)[i % 4]
        proto = 17
        if a.kind == "nonudp" and i % 5 == 4:
            proto = 6  # TCP: skipped by --replay, counted
        f = frame(i, size, v6=a.kind == "ipv6", vlan=(3 << 13 | 42) if a.kind == "vlan" else None,
                  flow=i % a.flows, proto=proto)
        udp += proto == 17
        frames.append((t, f))

    with open(a.out, "wb") as out:
        if a.format == "pcapng":
            shb_body = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)
            out.write(struct.pack("<II", 0x0A0D0D0A, 12 + len(shb_body)) + shb_body +
                      struct.pack("<I", 12 + len(shb_body)))
            # if_tsresol = 9: nanosecond stamps
            opts = struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<HH", 0, 0)
            idb = struct.pack("<HHI", 1, 0, 65535) + opts
            out.write(struct.pack("<II", 1, 12 + len(idb)) + idb + struct.pack("<I", 12 + len(idb)))
            for t, f in frames:
                pad = b"\0" * (-len(f) % 4)
                body = struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(f), len(f)) + f + pad
                out.write(struct.pack("<II", 6, 12 + len(body)) + body +
                          struct.pack("<I", 12 + len(body)))
        else:
            nsec = a.format == "nsec"
            out.write(struct.pack("<IHHiIII", 0xA1B23C4D if nsec else 0xA1B2C3D4, 2, 4, 0, 0,
                                  65535, 1))
            for t, f in frames:
                sub = t % 10**9 if nsec else (t % 10**9) // 1000
                out.write(struct.pack("<IIII", t // 10**9, sub, len(f), len(f)) + f)
    print(json.dumps({"frames": a.n, "udp_frames": udp,
                      "bytes": sum(max(len(f), 60) for _, f in frames),
                      "duration_s": (frames[-1][0] - frames[0][0]) / 1e9}))


def big(a):
    """The N frames (const or mixed, pcap or nsec) repeated until the file holds --size-mib
    MiB."""
    nsec = a.format == "nsec"
    sizes = (18, 554, 1472, 100) if a.kind == "mixed" else (a.payload,)
    base = [frame(i, sizes[i % len(sizes)], flow=i % a.flows) for i in range(a.n)]
    gap, t0, want = 1e9 / a.pps, 1_700_000_000 * 10**9, a.size_mib << 20
    k = size = nbytes = 0
    with open(a.out, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B23C4D if nsec else 0xA1B2C3D4, 2, 4, 0, 0,
                              65535, 1))
        size = 24
        while size < want:
            block = bytearray()
            for f in base:
                t = t0 + int(round(k * gap))
                sub = t % 10**9 if nsec else (t % 10**9) // 1000
                block += struct.pack("<IIII", t // 10**9, sub, len(f), len(f)) + f
                nbytes += max(len(f), 60)
                k += 1
            out.write(block)
            size += len(block)
    print(json.dumps({"frames": k, "udp_frames": k, "bytes": nbytes, "file_bytes": size,
                      "duration_s": (int(round((k - 1) * gap))) / 1e9}))


if __name__ == "__main__":
    main()
