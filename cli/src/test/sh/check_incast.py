"""Checks an incast of `trimswitch gen send` senders into one `gen receive` through a switch, from the receiver's
--json and the switch's `stats --json`: every datagram of every sender arrived whole or as a trimmed header; the switch
trimmed for the receiver's port and sent it as many headers as the receiver saw; and no port dropped anything, but
where the kernel's buffer in front of the switch overflowed. Exits 3, saying "host too slow", when such kernel drops
at the senders' ports account for what is missing, or when the senders did not even fill the receiver's port.

Usage: check_incast.py RECEIVED_JSON STATS_JSON PACKETS_PER_SENDER RECEIVER_PORT SENDER_PORT..."""
import json
import sys

# What the kernel dropped before the switch could take it: socket buffers (UDP ports) or AF_PACKET rings (interfaces).
KERNEL_DROPS = ("socketOverflow", "ringOverflow")

received = json.load(open(sys.argv[1]))
stats = {p["port"]: p for p in json.load(open(sys.argv[2]))}
packets, port = int(sys.argv[3]), int(sys.argv[4])
sender_ports = [int(p) for p in sys.argv[5:]]
senders = len(sender_ports)
flows = received["flows"]
assert len(flows) == senders, f"expected {senders} flows at the receiver, got {len(flows)}: {flows}"
missing = sum(packets - flow["whole"] - flow["trimmed"] for flow in flows.values())
overflowed = sum(stats[p].get("drops", {}).get(kind, 0) for p in sender_ports for kind in KERNEL_DROPS)
if missing > 0 and overflowed >= missing:
    print(f"e2e: host too slow: the kernel dropped {overflowed} of the senders' frames in front of the switch before it could take them; {missing} missing")
    sys.exit(3)
for sender, flow in flows.items():
    arrived = flow["whole"] + flow["trimmed"]
    assert arrived == packets and flow["gaps"] == 0, f"{sender}: {flow['whole']} whole + {flow['trimmed']} trimmed of {packets}, {flow['gaps']} missing"
trimmed = received["trimmed"]
if trimmed == 0:
    print(f"e2e: host too slow: {senders} senders did not even fill port {port}")
    sys.exit(3)
for number, p in stats.items():
    drops = {reason: count for reason, count in p.get("drops", {}).items() if reason not in KERNEL_DROPS}
    assert not drops, f"port {number} dropped {drops}"
out = stats[port]
assert out["trimPackets"] > 0, f"the switch trimmed nothing for port {port}: {out}"
assert out["txTrimPackets"] == trimmed, f"the switch sent {out['txTrimPackets']} trimmed packets out of port {port}, the receiver saw {trimmed}"
assert out["droppedTrimPackets"] == 0, f"trimmed packets dropped: {out}"
print(f"e2e: incast: {received['whole']} whole + {trimmed} trimmed of {senders * packets}, none lost; the switch counted "
      f"{out['txTrimPackets']} trimmed out of port {port}: {out['ingressTrimPackets']} at the ingress meters, {out['dodTrimPackets']} deflected on drop")
