#!/usr/bin/env bash
# How large a burst a port's receive ring absorbs while the switch takes none of it: a host on a veth (MTU 1500) wired
# to port 0 of `trimswitch run`; the switch is stopped (SIGSTOP), the host sends a burst of FRAMES frames of one size as
# fast as it can, the switch is let go (SIGCONT), and its counters say how many frames the kernel dropped because the
# ring was full (ringOverflow). Prints one line per burst: "burst: N frames of B bytes: D ring drops". Bursts of 64-byte
# and of 1514-byte frames (a full frame of the MTU), of FRAMES (default 4096) and of FRAMES + 1000. Needs root, iproute2
# and python3.
#
# TRIMSWITCH is the command that runs the tool (e.g. "cli/trimswitch").
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
FRAMES=${BURST_FRAMES:-4096}
TAG="rb$$"
SW="${TAG}sw"
HOST="${TAG}h0"

log() { echo "burst: $*"; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
trap 'kill -CONT "${SWITCH_PID:-0}" 2>/dev/null; cleanup' EXIT
WORK=$(mktemp -d)

add_namespace "$SW"
add_namespace "$HOST"
wire_host "$SW" "$HOST" "${TAG}p0" 10.9.1.1
ip link add "${TAG}p1" netns "$SW" type veth peer name "${TAG}x1" netns "$SW"
ip -n "$SW" link set "${TAG}p1" up
ip -n "$SW" link set "${TAG}x1" up
start_switch "$SW" "$WORK/switch.log" 2 -i "0@${TAG}p0" -i "1@${TAG}p1" --metrics off --control off \
    --counters "$WORK/switch.counters"

# ring_drops: port 0's ringOverflow as `stats --json` shows it (the gauges' thread samples the kernel's count).
ring_drops() {
    $TRIMSWITCH stats --counters "$WORK/switch.counters" --json > "$WORK/stats.json"
    python3 - "$WORK/stats.json" <<'PY'
import json, sys
port = {p["port"]: p for p in json.load(open(sys.argv[1]))}[0]
print(port.get("drops", {}).get("ringOverflow", 0))
PY
}

# burst COUNT BYTES: COUNT frames of BYTES from the host while the switch is stopped; prints the ring drops they made.
burst() {
    local count=$1 bytes=$2 before after
    before=$(ring_drops)
    kill -STOP "$SWITCH_PID"
    ip netns exec "$HOST" python3 - "$count" "$bytes" <<'PY'
import socket, sys
count, size = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("eth0", 0))
# To a unicast address no one has, from the host's own: the switch floods it to port 1, where nobody listens.
frame = bytes.fromhex("02000000ee01") + s.getsockname()[4] + b"\x88\xb5" + bytes(size - 14)
for _ in range(count):
    s.send(frame)
PY
    kill -CONT "$SWITCH_PID"
    # The switch drains its ring, then its gauges sample the kernel's count ten times a second.
    sleep 1
    after=$(ring_drops)
    log "$count frames of $bytes bytes: $((after - before)) ring drops"
}

for bytes in 64 1514; do
    burst "$FRAMES" "$bytes"
    burst $((FRAMES + 1000)) "$bytes"
done
