#!/usr/bin/env bash
# Four Linux hosts in network namespaces, each wired by one veth straight to a trimswitch port in a fifth namespace:
# the switch's ports sit on the veths themselves (AF_PACKET), with no tunnel. `run --config switch.yaml -i 0@... -i 3@...`:
# the config gives the queues (DSCP 10 in a 16-packet queue that trims, the rest in a 1024-packet queue that drops)
# and port 3's rate of 0.1 Gb/s, -i puts the ports on the interfaces. Ping between every pair, and 9000-byte packets
# between hosts 0 and 1 (jumbo MTUs); iperf3 TCP from host 0 to host 1 (64 KB offload frames cross the switch whole)
# with no switch drop; then a 3:1 incast of DSCP 10 datagrams from `trimswitch gen send` into port 3: every datagram
# arrives whole or as a trimmed header, the switch trimmed, and its count of trimmed packets sent is the receiver's
# count of headers. Needs root, iproute2, iputils-ping and iperf3. Exits 3, saying "host too slow", when three senders
# could not even fill a 0.1 Gb/s port.
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

log() { echo "e2e: $*"; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

add_namespace "$SW"
for i in $(seq 0 $((HOSTS - 1))); do
    ns="${TAG}h$i"
    add_namespace "$ns"
    # The switch's side is named after its port; the host's side is its eth0.
    # Hosts 0 and 1 are wired for jumbo frames: a 9000-byte MTU at both ends.
    mtu=$([ "$i" -le 1 ] && echo 9000 || echo 1500)
    ip link add "${TAG}p$i" netns "$SW" mtu "$mtu" type veth peer name eth0 netns "$ns" mtu "$mtu"
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
start_switch "$SW" "$WORK/switch.log" "$HOSTS" --config "$WORK/switch.yaml" \
    $(for i in $(seq 0 $((HOSTS - 1))); do printf -- '-i %d@%sp%d ' "$i" "$TAG" "$i"; done)
cat "$WORK/switch.log"
grep -q "interface ${TAG}p3 (AF_PACKET" "$WORK/switch.log" || { echo "e2e: port 3 is not on its interface" >&2; exit 1; }

log "ping between every pair of hosts"
ping_every_pair $(for i in $(seq 0 $((HOSTS - 1))); do echo "${TAG}h$i=10.9.0.$((i + 1))"; done)
log "every pair pings"
in_host 0 ping -q -c 2 -i 0.2 -W 2 -M do -s 8972 10.9.0.2 > /dev/null || { log "no jumbo frame from host 0 to host 1" >&2; exit 1; }
log "a 9000-byte IP packet crosses the switch whole between the jumbo ports"

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
python3 "$(dirname "$0")/check_incast.py" "$WORK/received.json" "$WORK/stats.json" "$PACKETS" 3 0 1 2

stop_switch "$SWITCH_PID" "$WORK/switch.log"
log "passed"
