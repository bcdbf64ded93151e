# SPDX-License-Identifier: MIT
"""Writes small test captures for --replay with known answers: our own writer, nothing
downloaded. Every frame is Ethernet + IPv4/IPv6 (+ an 802.1Q tag) + UDP, addressed inside the
benchmarking ranges only (198.18.0.0/15, 2001:2::/48).

usage: pcapgen.py OUT --n N [--pps R] [--kind const|burst|onoff|mixed|ipv6|vlan|nonudp]
                  [--format pcap|nsec|pcapng] [--flows F] [--big] [--payload B]
                  [--size-mib M]
Prints one line of JSON: frames, udp_frames, bytes (frames padded to 60), duration_s (first to
last stamp). --size-mib writes the N frames over and over, the stamps going on at the same
rate, until the file holds M MiB: a large file written without holding it in memory.
"""
import argparse
import json
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
