#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a small nanosecond pcap of the odd kinds tcpreplay users meet, every answer known:
  oddcap.py OUT --n N --span S [--back K --back-s B]  N UDP/IPv4 frames evenly over S s, the
      K frames at evenly spread places (never the first or the last) stamped B s early
  oddcap.py OUT --n N --span S --sums good|bad|zero  N frames in turn UDP/IPv4, TCP/IPv4, ICMPv6
      echo, UDP/IPv6, each checksum (IPv4 header's too) right, wrong (bad) or 0 (zero)
  oddcap.py OUT --n N --span S --mld  N frames in turn UDP/IPv4 and an MLDv2 report (IPv6 with
      a hop-by-hop router alert, as every host sends one)
  oddcap.py OUT --n N --span S --size B  N UDP/IPv4 frames of B bytes each
Addresses are 198.18.0.0/15 and 2001:2::/48, MACs locally administered. Prints one JSON line:
frames, span_s (first stamp to latest), back (stamps earlier than the one before)."""
import argparse
import json
import struct


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


SRC4, DST4 = bytes([198, 18, 96, 1]), bytes([198, 18, 96, 2])
SRC6 = bytes.fromhex("20010002000000960000000000000001")
DST6 = bytes.fromhex("20010002000000960000000000000002")
MLD6 = bytes.fromhex("ff020000000000000000000000000016")


def eth(etype, body, dst=b"\x02\x00\x00\x00\x96\x02"):
    return dst + b"\x02\x00\x00\x00\x96\x01" + struct.pack("!H", etype) + body


def ip4(proto, l4, ident, sums):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), ident, 0x4000, 64, proto, 0,
                    SRC4, DST4)
    c = csum(h) if sums == "good" else (0 if sums == "zero" else csum(h) ^ 0x5A5A)
    return h[:10] + struct.pack("!H", c) + h[12:] + l4


def l4sum(pseudo, seg, at, sums, udp):
    c = csum(pseudo + seg)
    if udp and c == 0:
        c = 0xFFFF
    c = c if sums == "good" else (0 if sums == "zero" else c ^ 0x5A5A)
    return seg[:at] + struct.pack("!H", c) + seg[at + 2:]


def pseudo4(proto, n):
    return SRC4 + DST4 + struct.pack("!BBH", 0, proto, n)


def pseudo6(src, dst, proto, n):
    return src + dst + struct.pack("!I3xB", n, proto)


def udp4(i, size, sums="good"):
    data = bytes((i + k) & 0xFF for k in range(max(size - 42, 8)))
    seg = struct.pack("!HHHH", 40000 + i % 7, 9, 8 + len(data), 0) + data
    seg = l4sum(pseudo4(17, len(seg)), seg, 6, sums, True)
    return eth(0x0800, ip4(17, seg, i & 0xFFFF, sums))


def tcp4(i, sums):
    seg = struct.pack("!HHIIBBHHH", 40000, 80, i, 0, 5 << 4, 0x18, 65535, 0, 0) + b"GET /"
    seg = l4sum(pseudo4(6, len(seg)), seg, 16, sums, False)
    return eth(0x0800, ip4(6, seg, i & 0xFFFF, sums))


def ip6(nxt, payload, src=SRC6, dst=DST6, dmac=b"\x02\x00\x00\x00\x96\x02"):
    h = struct.pack("!IHBB16s16s", 6 << 28, len(payload), nxt, 64, src, dst)
    return eth(0x86DD, h + payload, dmac)


def icmp6(i, sums):
    seg = struct.pack("!BBHHH", 128, 0, 0, 0x4242, i & 0xFFFF) + b"pktbench"
    return ip6(58, l4sum(pseudo6(SRC6, DST6, 58, len(seg)), seg, 2, sums, False))


def udp6(i, sums):
    data = bytes((i + k) & 0xFF for k in range(32))
    seg = struct.pack("!HHHH", 40000, 9, 8 + len(data), 0) + data
    return ip6(17, l4sum(pseudo6(SRC6, DST6, 17, len(seg)), seg, 6, sums, True))


def mld(i):
    # hop-by-hop: next ICMPv6, router alert (MLD), PadN; then an MLDv2 report of one record
    hbh = struct.pack("!BB", 58, 0) + bytes([5, 2, 0, 0, 1, 0])
    rec = struct.pack("!BBH16s", 4, 0, 0, bytes.fromhex("ff0200000000000000000001ff000001"))
    seg = struct.pack("!BBHHH", 143, 0, 0, 0, 1) + rec
    seg = l4sum(pseudo6(SRC6, MLD6, 58, len(seg)), seg, 2, "good", False)
    return ip6(0, hbh + seg, SRC6, MLD6, b"\x33\x33\x00\x00\x00\x16")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--span", type=float, required=True)
    ap.add_argument("--back", type=int, default=0)
    ap.add_argument("--back-s", type=float, default=0)
    ap.add_argument("--sums", choices=["good", "bad", "zero"])
    ap.add_argument("--mld", action="store_true")
    ap.add_argument("--size", type=int, default=60)
    a = ap.parse_args()
    base = 1_700_000_000 * 10**9
    step = a.span * 1e9 / (a.n - 1)
    # the K frames stamped early: evenly spread, never the first or the last
    back = {round((k + 1) * (a.n - 1) / (a.back + 1)) for k in range(a.back)}
    stamps, frames = [], []
    for i in range(a.n):
        t = base + round(i * step) - (round(a.back_s * 1e9) if i in back else 0)
        if a.sums:
            f = (lambda: udp4(i, 60, a.sums), lambda: tcp4(i, a.sums),
                 lambda: icmp6(i, a.sums), lambda: udp6(i, a.sums))[i % 4]()
        elif a.mld:
            f = udp4(i, 60) if i % 2 == 0 else mld(i)
        else:
            f = udp4(i, a.size)
        stamps.append(t)
        frames.append(f)
    with open(a.out, "wb") as o:
        o.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
        for t, f in zip(stamps, frames):
            o.write(struct.pack("<IIII", t // 10**9, t % 10**9, len(f), len(f)) + f)
    latest = max(stamps)
    print(json.dumps({"frames": a.n, "span_s": (latest - stamps[0]) / 1e9,
                      "back": sum(1 for i in range(1, a.n) if stamps[i] < stamps[i - 1])}))


if __name__ == "__main__":
    main()
