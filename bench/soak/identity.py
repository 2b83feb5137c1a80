#!/usr/bin/env python3
"""The counters' identity over every port of a live switch, from `trimswitch stats --json` (a file, or - for stdin):

    frames received + the copies flooding made = frames sent + frames dropped (by reason)

The kernel's ring or socket overflow (and an AF_XDP port's empty fill ring) is counted apart: those frames never reached the switch, so they are on neither
side. Prints one line; exits 1 when the sides differ and --exact was given, else 0. mininet/lab.py checks its labs'
switches with the same function (identity)."""
import json
import sys

KERNEL = {"ringOverflow", "fillRingEmpty", "socketOverflow"}


def sides(ports):
    received = sum(p["rxDatagrams"] for p in ports)
    # Every copy flooding made, less the frames flooded (each already counted as received once).
    flooded = sum(p["floodedPackets"] - p.get("floodedFrames", 0) for p in ports)
    sent = sum(p["txPackets"] for p in ports)
    drops, kernel = {}, 0
    for port in ports:
        for reason, count in port.get("drops", {}).items():
            if reason in KERNEL:
                kernel += count
            else:
                drops[reason] = drops.get(reason, 0) + count
    return received, flooded, sent, drops, kernel


def identity(ports):
    """The identity over PORTS (`stats --json`, a list): its line, and received + copies - sent - dropped (0 when it holds)."""
    received, flooded, sent, drops, kernel = sides(ports)
    dropped = sum(drops.values())
    inside = received + flooded - sent - dropped
    reasons = ",".join(f"{r}={c}" for r, c in sorted(drops.items())) or "-"
    return (f"received {received} + extra flood copies {flooded} = sent {sent} + dropped {dropped} ({reasons});"
            f" difference {inside}; kernel overflow apart {kernel}"), inside


def main():
    args = sys.argv[1:]
    source = sys.stdin if args[0] == "-" else open(args[0])
    line, inside = identity(json.load(source))
    print(line)
    return 1 if "--exact" in args and inside != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
