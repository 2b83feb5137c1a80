#!/usr/bin/env bash
# Four Linux hosts in network namespaces, each wired by one veth straight to a trimswitch port in a fifth namespace:
# the switch's ports sit on the veths themselves (AF_PACKET), with no tunnel. `run --config switch.yaml -i 0@... -i 3@...`:
# the config gives the queues (DSCP 10 in a 16-packet queue that trims, the rest in a 1024-packet queue that drops)
# and port 3's rate of 0.1 Gb/s, -i puts the ports on the interfaces. Ping between every pair; iperf3 TCP from host 0
# to host 1 (64 KB offload frames cross the switch whole) with no switch drop; then a 3:1 incast of DSCP 10 datagrams
# from `trimswitch gen send` into port 3: every datagram arrives whole or as a trimmed header, the switch trimmed, and
# its count of trimmed packets sent is the receiver's count of headers. Needs root, iproute2, iputils-ping and iperf3.
# Exits 3, saying "host too slow", when three senders could not even fill a 0.1 Gb/s port.
#
# TRIMSWITCH is the command that runs the tool (e.g. "cli/trimswitch").
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
HOSTS=4
PACKETS=${E2E_PACKETS:-3000}
RATE=${E2E_RATE:-10000000}
TAG="ti$$"
SW="${TAG}sw"
WORK=$(mktemp -d)
SWITCH_PID=""

log() { echo "e2e: $*"; }
# shellcheck source=await.sh
. "$(dirname "$0")/await.sh"

cleanup() {
    local status=$?
    set +e
    if [ "$status" != 0 ] && [ -f "$WORK/switch.log" ]; then
        echo "e2e: the switch's log:"
        cat "$WORK/switch.log"
    fi
    if [ -n "$SWITCH_PID" ]; then
        kill -TERM "$SWITCH_PID" 2>/dev/null
        wait "$SWITCH_PID" 2>/dev/null
    fi
    remove_namespaces $(for i in $(seq 0 $((HOSTS - 1))); do echo "${TAG}h$i"; done) "$SW"
    rm -rf "$WORK"
}
trap cleanup EXIT

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

ip netns add "$SW"
in_sw ip link set lo up
for i in $(seq 0 $((HOSTS - 1))); do
    ns="${TAG}h$i"
    ip netns add "$ns"
    ip netns exec "$ns" ip link set lo up
    # The switch's side is named after its port; the host's side is its eth0.
    ip link add "${TAG}p$i" netns "$SW" type veth peer name eth0 netns "$ns"
    in_sw ip link set "${TAG}p$i" up
    ip netns exec "$ns" ip addr add "10.9.0.$((i + 1))/24" dev eth0
    ip netns exec "$ns" ip link set eth0 up
done

# Header queues deep enough for the whole burst's headers: at 0.1 Gb/s the port sends them slower than three senders trim.
cat > "$WORK/switch.yaml" <<YAML
mechanism: tofino
fabric:
  headerQueuePackets: 16384
qos:
  queues:
    - {packets: 1024, discard: drop}
    - {packets: 16, discard: trim}
  dscpToTc: {10: 1}
realtime:
  idle: poll
ports:
  - {}
  - {}
  - {}
  - {rateGbps: 0.1}    # the incast receiver's port; -i says which interface each port sits on
metrics:
  address: 127.0.0.1:9464
YAML

log "starting the switch"
# Not through a shell function: the background job must be the switch itself, for the signal to reach it.
ip netns exec "$SW" $TRIMSWITCH run --config "$WORK/switch.yaml" $(for i in $(seq 0 $((HOSTS - 1))); do printf -- '-i %d@%sp%d ' "$i" "$TAG" "$i"; done) \
    > "$WORK/switch.log" 2>&1 &
SWITCH_PID=$!
await_switch "$SWITCH_PID" "$WORK/switch.log" "$HOSTS"
cat "$WORK/switch.log"
grep -q "interface ${TAG}p3 (AF_PACKET" "$WORK/switch.log" || { echo "e2e: port 3 is not on its interface" >&2; exit 1; }

log "ping between every pair of hosts"
for i in $(seq 0 $((HOSTS - 1))); do
    for j in $(seq 0 $((HOSTS - 1))); do
        [ "$i" = "$j" ] && continue
        in_host "$i" ping -q -c 2 -i 0.2 -W 2 "10.9.0.$((j + 1))" > /dev/null || { echo "e2e: host $i cannot ping 10.9.0.$((j + 1))" >&2; exit 1; }
    done
done
log "every pair pings"

stats() { in_sw $TRIMSWITCH stats --json > "$1"; }

log "iperf3 TCP from host 0 to host 1 through two idle 100 Gb/s ports"
in_host 1 iperf3 -s -D -p 5201 --logfile "$WORK/iperf3-server.log"
await 10 "iperf3's server to listen on host 1" tcp_listening "${TAG}h1" 5201
in_host 0 iperf3 -c 10.9.0.2 -p 5201 -t 3 -J > "$WORK/iperf3.json"
stats "$WORK/stats-tcp.json"
python3 - "$WORK/iperf3.json" "$WORK/stats-tcp.json" <<'PY'
import json, sys
end = json.load(open(sys.argv[1]))["end"]
moved = int(end["sum_received"]["bytes"])
assert moved > 1000000, f"iperf3 moved only {moved} bytes"
stats = {p["port"]: p for p in json.load(open(sys.argv[2]))}
for port in (0, 1):
    assert not stats[port].get("drops"), f"port {port} dropped {stats[port].get('drops')}"
frames = stats[0]["rxDatagrams"]
segments = stats[0]["rxSegments"]
# veths pass TCP's offload frames: the switch must have taken them whole, each counted as the segments it carries.
assert moved / max(frames, 1) > 3000, f"{frames} frames for {moved} bytes: offload frames did not cross whole"
assert segments > 2 * frames, f"{frames} frames counted as {segments} segments"
print(f"e2e: iperf3 moved {moved} bytes at {end['sum_received']['bits_per_second'] / 1e9:.2f} Gb/s in {frames} frames "
      f"({moved / max(frames, 1):.0f} B each), {end['sum_sent'].get('retransmits', 0)} retransmissions, no switch drop")
PY
log "no switch drop on the TCP flow's ports"

log "3:1 incast of $PACKETS DSCP 10 datagrams per sender, as fast as they can, into host 3's 0.1 Gb/s port"
in_host 3 $TRIMSWITCH gen receive --bind 10.9.0.4:666 --expect $((3 * PACKETS)) --idle-s 5 --timeout-s 60 --json "$WORK/received.json" > "$WORK/receiver.log" 2>&1 &
RECEIVER=$!
for i in 0 1 2; do
    in_host "$i" ping -q -c 1 -W 2 10.9.0.4 > /dev/null
done
receiver_ready() { still_running "$RECEIVER" "$WORK/receiver.log" "the receiver" && udp_bound "${TAG}h3" 666; }
await 30 "the receiver to bind 10.9.0.4:666" receiver_ready
SENDERS=()
for i in 0 1 2; do
    in_host "$i" $TRIMSWITCH gen send --to 10.9.0.4:666 --count "$PACKETS" --rate "$RATE" --flow "$i" > "$WORK/sender$i.log" 2>&1 &
    SENDERS+=($!)
done
wait "${SENDERS[@]}"
cat "$WORK"/sender*.log
wait "$RECEIVER"
cat "$WORK/receiver.log"
stats "$WORK/stats.json"
in_sw $TRIMSWITCH stats
python3 - "$WORK/received.json" "$WORK/stats.json" "$PACKETS" <<'PY'
import json, sys
received = json.load(open(sys.argv[1]))
stats = {p["port"]: p for p in json.load(open(sys.argv[2]))}
packets = int(sys.argv[3])
flows = received["flows"]
assert len(flows) == 3, f"expected 3 flows at the receiver, got {len(flows)}: {flows}"
missing = sum(packets - flow["whole"] - flow["trimmed"] for flow in flows.values())
overflowed = sum(stats[port].get("drops", {}).get("ringOverflow", 0) for port in range(3))
if missing > 0 and overflowed >= missing:
    print(f"e2e: host too slow: the kernel dropped {overflowed} frames at the switch's full receive rings before it could take them; {missing} missing")
    sys.exit(3)
for sender, flow in flows.items():
    arrived = flow["whole"] + flow["trimmed"]
    assert arrived == packets and flow["gaps"] == 0, f"{sender}: {flow['whole']} whole + {flow['trimmed']} trimmed of {packets}, {flow['gaps']} missing"
trimmed = received["trimmed"]
if trimmed == 0:
    print("e2e: host too slow: three senders did not even fill a 0.1 Gb/s port")
    sys.exit(3)
port = stats[3]
for number in range(4):
    assert not stats[number].get("drops"), f"port {number} dropped {stats[number].get('drops')}"
assert port["trimPackets"] > 0, f"the switch trimmed nothing for port 3: {port}"
assert port["txTrimPackets"] == trimmed, f"the switch sent {port['txTrimPackets']} trimmed packets out of port 3, the receiver saw {trimmed}"
print(f"e2e: incast: {received['whole']} whole + {trimmed} trimmed of {3 * packets}, none lost; the switch counted "
      f"{port['txTrimPackets']} trimmed out of port 3: {port['ingressTrimPackets']} at the ingress meters, {port['dodTrimPackets']} deflected on drop")
PY

stop_switch "$SWITCH_PID" "$WORK/switch.log"
SWITCH_PID=""
log "passed"
