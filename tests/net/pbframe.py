# SPDX-License-Identifier: MIT
"""Frames made by hand for the agent's tests that forge or flood (test_agent_forge, the soak):
Ethernet, IPv4 and UDP to port 9, sent on an AF_PACKET socket bound to the sending end."""
import socket
import struct


def csum(b):
    x = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while x >> 16:
        x = (x & 0xFFFF) + (x >> 16)
    return ~x & 0xFFFF


class Sender:
    def __init__(self, ifname, mac_b, src, dst):
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.s.bind((ifname, 0))
        self.head = bytes.fromhex(mac_b.replace(":", "")) + self.s.getsockname()[4] + b"\x08\x00"
        self.src, self.dst = socket.inet_aton(src), socket.inet_aton(dst)

    def frame(self, payload):
        udp = struct.pack("!HHHH", 40000, 9, 8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                         self.src, self.dst)
        return self.head + ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + udp

    def signed(self, run):
        """A frame's signature (pb_bpf.h), padded to a probe's 18 bytes: a 60-byte frame."""
        return self.frame(b"pbN\x00" + struct.pack("!I", run) + bytes(10))

    def announce(self, run, uuid, index, count):
        return self.frame(b"pbA\x00" + struct.pack("!I", run) +
                          bytes.fromhex(uuid.replace("-", "")) + struct.pack("!II", index, count))
