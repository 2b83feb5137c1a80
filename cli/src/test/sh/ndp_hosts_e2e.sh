#!/usr/bin/env bash
# Live NDP hosts through a live trimswitch: four Linux hosts in network namespaces with vxlan interfaces to the
# switch's UDP ports (as linux_hosts_e2e.sh builds them), a 3:1 incast of `trimswitch host` senders into a receiver
# whose port is limited to 0.1 Gb/s. The senders' initial windows overflow the port's 16-packet queue, so the switch
# trims; the receiver NACKs the headers and pulls at 0.1 Gb/s, the senders retransmit. Checks that every byte of every
# flow arrives, that the switch trimmed (its counters) and that the senders retransmitted on NACKs.
# Needs root, iproute2, iputils-ping, ethtool. Exits 3, saying "host too slow", when the senders could not even
# overflow the port (nothing trimmed).
#
# The senders retransmit after 50 ms without progress (E2E_RTO_MS): on a busy two-core host a shorter timeout fires
# while the hosts wait for a core, and the retransmissions it makes are not the ones this test is about.
#
# TRIMSWITCH is the command that runs the tool. Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
HOSTS=4
RECEIVER=4
BYTES=${E2E_BYTES:-400000}
TAG="nh$$"
SW="${TAG}sw"

log() { echo "ndp-hosts: $*"; }
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
  portsPerPipeline: 2
qos:
  queues:
    - {packets: 1024, discard: drop}
    - {packets: 16, discard: trim}
  dscpToTc: {10: 1}
realtime:
  idle: block
ports:
$(vxlan_ports_yaml "$RECEIVER" 0.1)
forwarding:
  mode: l2
metrics:
  address: 127.0.0.1:9464
YAML

log "starting the switch"
start_switch "$SW" "$WORK/switch.log" "$HOSTS" --config "$WORK/switch.yaml"
for i in $(seq 1 $HOSTS); do
    [ "$i" = "$RECEIVER" ] && continue
    in_host "$i" ping -q -c 2 -i 0.2 -W 2 "10.9.0.$RECEIVER" > /dev/null || { echo "ndp-hosts: host $i cannot ping the receiver" >&2; exit 1; }
done
log "every sender pings the receiver"

log "3:1 incast of $BYTES bytes per flow into host $RECEIVER's 0.1 Gb/s port, NDP pulling at 0.1 Gb/s"
ip netns exec "${TAG}h$RECEIVER" $TRIMSWITCH host --listen "10.9.0.$RECEIVER:666" --rate-gbps 0.1 --expect-flows 3 --timeout-s 30 \
    --json "$WORK/receiver.json" > "$WORK/receiver.log" 2>&1 &
RECEIVER_PID=$!
receiver_ready() { still_running "$RECEIVER_PID" "$WORK/receiver.log" "the receiver" && grep -q "receiving on" "$WORK/receiver.log"; }
await 30 "the receiver to bind 10.9.0.$RECEIVER:666" receiver_ready
SENDERS=()
for i in $(seq 1 $HOSTS); do
    [ "$i" = "$RECEIVER" ] && continue
    ip netns exec "${TAG}h$i" $TRIMSWITCH host --connect "10.9.0.$RECEIVER:666" --size "$BYTES" --rate-gbps 1 --window ${E2E_WINDOW:-30} --rto-ms ${E2E_RTO_MS:-50} --timeout-s 30 \
        --json "$WORK/sender$i.json" > "$WORK/sender$i.log" 2>&1 &
    SENDERS+=($!)
done
STATUS=0
for pid in "${SENDERS[@]}"; do
    wait "$pid" || STATUS=$?
done
wait "$RECEIVER_PID" || STATUS=$?
cat "$WORK"/sender*.log "$WORK/receiver.log"
[ "$STATUS" = 0 ] || { echo "ndp-hosts: a host exited with $STATUS" >&2; exit 1; }
in_sw $TRIMSWITCH stats --json > "$WORK/stats.json"
in_sw $TRIMSWITCH stats

python3 - "$WORK" "$BYTES" "$RECEIVER" <<'PY'
import glob, json, sys
work, size, receiver = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
received = json.load(open(f"{work}/receiver.json"))["flows"]
senders = [json.load(open(f)) for f in sorted(glob.glob(f"{work}/sender*.json"))]
port = {p["port"]: p for p in json.load(open(f"{work}/stats.json"))}[receiver - 1]
assert len(received) == 3, f"the receiver saw {len(received)} flows"
for flow in received:
    assert flow["complete"] and flow["bytes"] == size, f"receiver: {flow}"
for sender in senders:
    for flow in sender["flows"]:
        assert flow["complete"] and flow["bytes"] == size, f"sender: {flow}"
trims = port["txTrimPackets"]
headers = sum(flow["headers"] for flow in received)
retransmissions = sum(flow["retransmissions"] for s in senders for flow in s["flows"])
nacks = sum(flow["headers"] for s in senders for flow in s["flows"])
nacked = sum(flow["nackedRetransmissions"] for s in senders for flow in s["flows"])
fcts = sorted(flow["fctUs"] for s in senders for flow in s["flows"])
if trims == 0:
    print("ndp-hosts: host too slow: three senders did not even overflow a 0.1 Gb/s port")
    sys.exit(3)
assert headers > 0 and nacks > 0 and nacked > 0, f"{headers} headers at the receiver, {nacks} NACKs, {nacked} retransmissions on NACKs"
goodput = 3 * size * 8 / (fcts[-1] * 1e3)
print(f"ndp-hosts: incast: 3 x {size} bytes all delivered; FCT {fcts[0] / 1e3:.1f}..{fcts[-1] / 1e3:.1f} ms, "
      f"{goodput:.3f} Gb/s together into the 0.1 Gb/s port; the switch trimmed {trims} packets out of that port "
      f"({port.get('ingressTrimPackets', 0)} at the ingress meters, {port.get('dodTrimPackets', 0)} deflected on drop); the receiver saw "
      f"{headers} headers, the senders got {nacks} NACKs and retransmitted {retransmissions} packets, {nacked} of them on a NACK")
PY

log "a sender whose packets do not fit the path's MTU (vxlan's 1450 bytes) says so, and sends nothing"
STATUS=0
in_host 1 $TRIMSWITCH host --connect "10.9.0.$RECEIVER:666" --size 100000 --payload-bytes 8950 --timeout-s 5 > "$WORK/jumbo.out" 2> "$WORK/jumbo.err" || STATUS=$?
[ "$STATUS" = 2 ] && [ "$(wc -l < "$WORK/jumbo.err")" = 1 ] && grep -q "lower --payload-bytes" "$WORK/jumbo.err" \
    || { cat "$WORK/jumbo.out" "$WORK/jumbo.err"; log "expected exit 2 and one line naming --payload-bytes, got $STATUS" >&2; exit 1; }
cat "$WORK/jumbo.err"

stop_switch "$SWITCH_PID" "$WORK/switch.log"
log "passed"
