#!/usr/bin/env bash
# Seven Linux hosts, each in its own network namespace with a vxlan interface, attached to a trimswitch
# running in an eighth namespace with two traffic classes on every port: DSCP 10 in the reproduced switch's
# 16-packet queue that trims, everything else (TCP) in a 1024-packet queue that drops. Ping between every
# pair; iperf3 TCP through two 100 Gb/s ports with no switch drop at all; then a 4:1 incast, four `trimswitch
# gen` senders (DSCP 10) as fast as they can into a port limited to 0.2 Gb/s, while TCP goes out of the same
# port. Every incast packet must arrive whole or as a trimmed header, the switch's trim counts must agree
# with the receiver's, and the TCP flow must see no switch drop. Needs root, iproute2, iputils-ping, ethtool, iperf3.
# Exits 3, saying "host too slow", when the senders could not even fill the 0.2 Gb/s port.
#
# TRIMSWITCH is the command that runs the tool (e.g. "java -jar cli/target/trimswitch.jar").
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
HOSTS=7
PACKETS=${E2E_PACKETS:-3000}
# As fast as a sender can: the pacing gap is shorter than one datagram's send.
RATE=${E2E_RATE:-10000000}
TAG="ts$$"
SW="${TAG}sw"

log() { echo "e2e: $*"; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=vxlan_hosts.sh
. "$(dirname "$0")/vxlan_hosts.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

build_vxlan_hosts

cat > "$WORK/switch.yaml" <<YAML
mechanism: tofino
fabric:
  pipelines: 2
  portsPerPipeline: 4
qos:
  queues:
    - {packets: 1024, discard: drop}
    - {packets: 16, discard: trim}
  dscpToTc: {10: 1}
realtime:
  idle: block
ports:
$(vxlan_ports_yaml 5 0.2)
forwarding:
  mode: l2
metrics:
  address: 127.0.0.1:9464
YAML

log "starting the switch"
start_switch "$SW" "$WORK/switch.log" "$HOSTS" --config "$WORK/switch.yaml"
cat "$WORK/switch.log"

log "ping between every pair of hosts"
ping_every_pair $(for i in $(seq 1 $HOSTS); do echo "${TAG}h$i=10.9.0.$i"; done)
log "every pair pings"

stats() { in_sw $TRIMSWITCH stats --json > "$1"; }
# The drops the switch counted on some ports, by reason: none is the only right answer for TCP below line rate.
no_drops() {
    python3 - "$@" <<'PY'
import json, sys
stats = {p["port"]: p for p in json.load(open(sys.argv[1]))}
for port in map(int, sys.argv[2:]):
    drops = dict(stats[port].get("drops", {}))
    # The kernel dropping at the switch's socket means this host could not run the switch fast enough:
    # TCP retransmits, and the switch counted it; the switch itself must drop nothing.
    overflowed = drops.pop("socketOverflow", 0)
    if overflowed:
        print(f"e2e: port {port}: the kernel dropped {overflowed} datagrams at the switch's socket (host too slow to keep up)")
    assert not drops, f"port {port} dropped {drops}"
PY
}

log "iperf3 TCP from host 1 to host 2 through two idle 100 Gb/s ports"
in_host 2 iperf3 -s -D -p 5201 --logfile "$WORK/iperf3-server.log"
in_host 7 iperf3 -s -D -p 5201 --logfile "$WORK/iperf3-server7.log"
await 10 "iperf3's server to listen on host 2" tcp_listening "${TAG}h2" 5201
in_host 1 iperf3 -c 10.9.0.2 -p 5201 -t 3 -J > "$WORK/iperf3.json"
python3 - "$WORK/iperf3.json" <<'PY'
import json, sys
end = json.load(open(sys.argv[1]))["end"]
moved = int(end["sum_received"]["bytes"])
assert moved > 100000, f"iperf3 moved only {moved} bytes"
print(f"e2e: iperf3 moved {moved} bytes at {end['sum_received']['bits_per_second'] / 1e9:.2f} Gb/s, {end['sum_sent'].get('retransmits', 0)} retransmissions")
PY
stats "$WORK/stats-tcp.json"
no_drops "$WORK/stats-tcp.json" 0 1
log "no switch drop on the TCP flow's ports"

log "4:1 incast of $PACKETS datagrams per sender, as fast as they can, into host 5's 0.2 Gb/s port, with TCP from host 6 to host 5"
in_host 5 iperf3 -s -D -p 5201 --logfile "$WORK/iperf3-server5.log"
in_host 5 $TRIMSWITCH gen receive --bind 10.9.0.5:666 --expect $((4 * PACKETS)) --idle-s 5 --timeout-s 60 --json "$WORK/received.json" > "$WORK/receiver.log" 2>&1 &
RECEIVER=$!
for i in 1 2 3 4; do
    in_host "$i" ping -q -c 1 -W 2 10.9.0.5 > /dev/null
done
receiver_ready() { still_running "$RECEIVER" "$WORK/receiver.log" "the receiver" && udp_bound "${TAG}h5" 666; }
await 30 "the receiver to bind 10.9.0.5:666" receiver_ready
await 10 "iperf3's server to listen on host 5" tcp_listening "${TAG}h5" 5201
# A window well inside the TCP queue's 1024 packets: what TCP alone would lose there is not the switch's doing.
in_host 6 iperf3 -c 10.9.0.5 -p 5201 -t 4 -w 256K -J > "$WORK/iperf3-incast.json" &
TCP=$!
# Its control connection, then its data: the TCP flow is under way when the incast starts.
tcp_flowing() { still_running "$TCP" "$WORK/iperf3-incast.json" "iperf3's client on host 6" && tcp_connected "${TAG}h6" 5201 2; }
await 10 "the TCP flow from host 6 to start" tcp_flowing
SENDERS=()
for i in 1 2 3 4; do
    in_host "$i" $TRIMSWITCH gen send --to 10.9.0.5:666 --count "$PACKETS" --rate "$RATE" --flow "$i" > "$WORK/sender$i.log" 2>&1 &
    SENDERS+=($!)
done
wait "${SENDERS[@]}"
cat "$WORK"/sender*.log
wait "$RECEIVER"
wait "$TCP"
cat "$WORK/receiver.log"
stats "$WORK/stats.json"
in_sw $TRIMSWITCH stats
no_drops "$WORK/stats.json" 4 5
python3 - "$WORK/stats.json" "$WORK/iperf3-incast.json" <<'PY'
import json, sys
port = {p["port"]: p for p in json.load(open(sys.argv[1]))}[4]
tcp, incast = port["queues"]
assert tcp["discard"] == "drop" and tcp["overflowed"] == 0, f"the TCP queue of port 4 overflowed: {tcp}"
assert incast["discard"] == "trim" and incast["queued"] > 0, f"the incast never reached its queue: {incast}"
end = json.load(open(sys.argv[2]))["end"]
print(f"e2e: TCP out of the incast's port: {end['sum_received']['bits_per_second'] / 1e6:.0f} Mb/s in its own queue "
      f"(deepest {tcp['maxDepth']} packets, none lost); the incast's queue: {incast['queued']} queued, {incast['overflowed']} met it full")
PY
log "no switch drop on the TCP flow's ports during the incast, which shares its egress port"

python3 "$(dirname "$0")/check_incast.py" "$WORK/received.json" "$WORK/stats.json" "$PACKETS" 4 0 1 2 3

stop_switch "$SWITCH_PID" "$WORK/switch.log"
log "passed"
