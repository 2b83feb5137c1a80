#!/usr/bin/env python3
"""Crafts the replay test's captures with scapy, the way a switch engineer would.

  make_fixtures.py OUTDIR

writes OUTDIR/portN.pcap (one classic pcap per ingress port, nanosecond timestamps, by scapy) and
OUTDIR/incast.pcapng (interface i = switch port i, merged from those by Wireshark's mergecap): four senders on ports 0..3 blast 40 trimmable NDP data
packets of 1500 B each at port 4 (a 4:1 incast at line rate), port 4 sends 3 plain UDP packets to
port 7, and port 5 sends 10 plain UDP packets of 200 B with DSCP 0 to port 6.

It also writes OUTDIR/incast6.pcapng, the same incast in IPv6: ports 0..3 each send 40 NDP data packets of
1500 B over IPv6/UDP with DSCP 10 to port 4, those of port 3 behind a hop-by-hop options header.
"""
import subprocess
import sys
from decimal import Decimal

from scapy.all import Ether, IP, IPv6, IPv6ExtHdrHopByHop, UDP, Raw, wrpcap

INCAST_SENDERS = 4
INCAST_PACKETS = 40
PLAIN_PACKETS = 10
BASE = Decimal(1_700_000_000)


def mac(port):
    return "02:00:00:00:00:%02x" % port


def addr(port):
    return "10.0.%d.1" % port


def ndp_data(src, dst, seq):
    # NDP-style shim: flags (DATA), next protocol, sequence, pull target, reserved
    shim = bytes([0x01, 0x00]) + seq.to_bytes(2, "big") + bytes(4)
    frame = (Ether(src=mac(src), dst=mac(dst)) / IP(src=addr(src), dst=addr(dst), tos=10 << 2, id=seq, flags="DF")
             / UDP(sport=49152 + src, dport=666) / Raw(shim))
    return frame / Raw(bytes((i * 7 + src) & 0xFF for i in range(1500 - len(frame))))


def addr6(port):
    return "fd00::%d:1" % port


def ndp_data6(src, dst, seq):
    shim = bytes([0x01, 0x00]) + seq.to_bytes(2, "big") + bytes(4)
    ip = IPv6(src=addr6(src), dst=addr6(dst), tc=10 << 2)
    if src == 3:
        ip = ip / IPv6ExtHdrHopByHop()
    frame = Ether(src=mac(src), dst=mac(dst)) / ip / UDP(sport=49152 + src, dport=666) / Raw(shim)
    return frame / Raw(bytes((i * 7 + src) & 0xFF for i in range(1500 - len(frame))))


def plain(src, dst, seq):
    frame = Ether(src=mac(src), dst=mac(dst)) / IP(src=addr(src), dst=addr(dst), tos=0, id=seq) / UDP(sport=5000, dport=6000)
    return frame / Raw(bytes(200 - len(frame)))


def main(outdir):
    per_port = {port: [] for port in range(6)}
    for seq in range(INCAST_PACKETS):
        for src in range(INCAST_SENDERS):
            packet = ndp_data(src, 4, seq)
            packet.time = BASE + Decimal(seq) * Decimal("0.000000120")
            per_port[src].append(packet)
    for seq in range(PLAIN_PACKETS):
        packet = plain(5, 6, seq)
        packet.time = BASE + Decimal(seq) * Decimal("0.000001")
        per_port[5].append(packet)
    for seq in range(3):
        packet = plain(4, 7, seq)
        packet.time = BASE + Decimal(seq) * Decimal("0.000002")
        per_port[4].append(packet)

    files = []
    for port in range(6):
        files.append("%s/port%d.pcap" % (outdir, port))
        wrpcap(files[-1], per_port[port], nano=True)
    # One interface per input file (-I none keeps identical IDBs apart): interface i is port i.
    subprocess.run(["mergecap", "-I", "none", "-F", "pcapng", "-w", outdir + "/incast.pcapng"] + files, check=True)

    files6 = []
    for src in range(INCAST_SENDERS):
        packets = []
        for seq in range(INCAST_PACKETS):
            packet = ndp_data6(src, 4, seq)
            packet.time = BASE + Decimal(seq) * Decimal("0.000000120")
            packets.append(packet)
        files6.append("%s/port%d-v6.pcap" % (outdir, src))
        wrpcap(files6[-1], packets, nano=True)
    subprocess.run(["mergecap", "-I", "none", "-F", "pcapng", "-w", outdir + "/incast6.pcapng"] + files6, check=True)


if __name__ == "__main__":
    main(sys.argv[1])
