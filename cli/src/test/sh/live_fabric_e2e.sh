#!/usr/bin/env bash
# A live leaf-spine fabric of three `trimswitch run` processes, each in its own network namespace: two leaves and
# one spine, linked by switch ports that carry the fabric's Ethernet frames to each other in VXLAN over UDP. Four
# Linux hosts, two behind each leaf, attach with vxlan interfaces. Every switch has two traffic classes: TCP in a
# deep queue that drops, DSCP 10 in the reproduced switch's 16-packet queue that trims. Ping between every pair and
# iperf3 TCP from one leaf to the other, across the spine; then a 3:1 incast of `trimswitch gen` senders (DSCP 10) into host 3: two
# senders behind leaf 1, whose packets cross the spine's downlink to leaf 2 (limited to 0.2 Gb/s), and one behind
# leaf 2, into host 3's own port (limited to 0.1 Gb/s). The senders are paced at 12 000 datagrams a second, 134 Mb/s
# each: enough to overflow both links, and smooth enough that six JVMs on two cores still read every datagram. The spine trims what overflows its downlink and leaf 2
# forwards those headers at high priority; leaf 2 trims what overflows host 3's port. Every packet must arrive
# whole or as a header, and the receiver's count of headers must be the spine's and leaf 2's trims together.
# Needs root, iproute2, iputils-ping, ethtool, iperf3. Exits 3, saying "host too slow", when the senders could
# not even fill the spine's downlink.
#
# TRIMSWITCH is the command that runs the tool (e.g. "java -jar cli/target/trimswitch.jar").
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
PACKETS=${E2E_PACKETS:-3000}
RATE=${E2E_RATE:-12000}
TAG="tf$$"
SWITCHES=(leaf1 leaf2 spine)
declare -A PORTS=([leaf1]=3 [leaf2]=3 [spine]=2) PID=()

log() { echo "fabric: $*"; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

in_ns() { local ns=$1; shift; ip netns exec "$TAG$ns" "$@"; }

for ns in "${SWITCHES[@]}" h1 h2 h3 h4; do
    add_namespace "$TAG$ns"
done

# A point-to-point underlay link between two namespaces: $1 at $3, $2 at $4 (a /30); in each, the interface is
# named after the other end.
link() {
    local a=$1 b=$2 a_addr=$3 b_addr=$4
    ip link add "to$b" netns "$TAG$a" type veth peer name "to$a" netns "$TAG$b"
    in_ns "$a" ip addr add "$a_addr/30" dev "to$b"
    in_ns "$a" ip link set "to$b" up
    in_ns "$b" ip addr add "$b_addr/30" dev "to$a"
    in_ns "$b" ip link set "to$a" up
}
# Hosts 1 and 2 behind leaf 1, hosts 3 and 4 behind leaf 2; both leaves' uplinks to the spine.
link leaf1 h1 172.30.1.1 172.30.1.2
link leaf1 h2 172.30.2.1 172.30.2.2
link leaf2 h3 172.30.3.1 172.30.3.2
link leaf2 h4 172.30.4.1 172.30.4.2
link spine leaf1 172.30.11.1 172.30.11.2
link spine leaf2 172.30.12.1 172.30.12.2

for h in 1 2 3 4; do
    # Each host's VTEP sends to its leaf's UDP port 4790 + h.
    in_ns "h$h" ip link add vx0 type vxlan id 42 remote "172.30.$h.1" local "172.30.$h.2" dstport $((4789 + h)) nolearning
    in_ns "h$h" ip addr add "10.9.0.$h/24" dev vx0
    in_ns "h$h" ip link set vx0 up
    # Relayed by a userspace switch, frames keep whatever checksums the sender left to offload.
    in_ns "h$h" ethtool -K vx0 tx off >/dev/null
done

# One switch's settings, with $1 ports given as "bind remote [rateGbps]" lines. Header queues deep enough for the
# incast's every header: the senders trim faster than a slow port sends headers, and none may be lost here.
settings() {
    cat <<YAML
mechanism: tofino
fabric:
  pipelines: 1
  portsPerPipeline: $1
  headerQueuePackets: 16384
qos:
  queues:
    - {packets: 1024, discard: drop}
    - {packets: 16, discard: trim}
  dscpToTc: {10: 1}
realtime:
  idle: block
forwarding:
  mode: l2
metrics:
  address: 127.0.0.1:9464
ports:
YAML
    while read -r bind remote rate; do
        printf '  - bind: %s\n    remote: %s\n' "$bind" "$remote"
        if [ -n "$rate" ]; then printf '    rateGbps: %s\n' "$rate"; fi
    done
}
# Leaf 1: hosts 1 and 2, then the uplink to the spine's port 0.
settings 3 > "$WORK/leaf1.yaml" <<PORTS
0.0.0.0:4790 172.30.1.2:4790
0.0.0.0:4791 172.30.2.2:4791
172.30.11.2:4800 172.30.11.1:4800
PORTS
# Leaf 2: host 3 (the incast's receiver, 0.1 Gb/s), host 4, then the uplink to the spine's port 1.
settings 3 > "$WORK/leaf2.yaml" <<PORTS
0.0.0.0:4792 172.30.3.2:4792 0.1
0.0.0.0:4793 172.30.4.2:4793
172.30.12.2:4801 172.30.12.1:4801
PORTS
# The spine: leaf 1, then leaf 2 (its downlink limited to 0.2 Gb/s).
settings 2 > "$WORK/spine.yaml" <<PORTS
172.30.11.1:4800 172.30.11.2:4800
172.30.12.1:4801 172.30.12.2:4801 0.2
PORTS

for sw in "${SWITCHES[@]}"; do
    log "starting $sw"
    launch_switch "$TAG$sw" "$WORK/$sw.log" --config "$WORK/$sw.yaml"
    PID[$sw]=$SWITCH_PID
done
for sw in "${SWITCHES[@]}"; do
    await_switch "${PID[$sw]}" "$WORK/$sw.log" "${PORTS[$sw]}"
done

log "ping between every pair of hosts"
ping_every_pair $(for h in 1 2 3 4; do echo "${TAG}h$h=10.9.0.$h"; done)
log "every pair pings, across the spine too"

stats() { in_ns "$1" $TRIMSWITCH stats --json > "$WORK/$1-$2.json"; }

log "iperf3 TCP from host 1 (leaf 1) to host 4 (leaf 2) across the spine"
in_ns h4 iperf3 -s -D -p 5201 --logfile "$WORK/iperf3-server.log"
await 10 "iperf3's server to listen on host 4" tcp_listening "${TAG}h4" 5201
in_ns h1 iperf3 -c 10.9.0.4 -p 5201 -t 3 -J > "$WORK/iperf3.json"
python3 - "$WORK/iperf3.json" <<'PY'
import json, sys
end = json.load(open(sys.argv[1]))["end"]
moved = int(end["sum_received"]["bytes"])
assert moved > 100000, f"iperf3 moved only {moved} bytes"
print(f"fabric: iperf3 moved {moved} bytes across the spine at {end['sum_received']['bits_per_second'] / 1e9:.2f} Gb/s, "
      f"{end['sum_sent'].get('retransmits', 0)} retransmissions")
PY

log "3:1 incast of $PACKETS datagrams per sender into host 3: hosts 1 and 2 across the spine, host 4 from its own leaf"
for sw in "${SWITCHES[@]}"; do stats "$sw" before; done
in_ns h3 $TRIMSWITCH gen receive --bind 10.9.0.3:666 --expect $((3 * PACKETS)) --idle-s 5 --timeout-s 60 --json "$WORK/received.json" > "$WORK/receiver.log" 2>&1 &
RECEIVER=$!
receiver_ready() { still_running "$RECEIVER" "$WORK/receiver.log" "the receiver" && udp_bound "${TAG}h3" 666; }
await 30 "the receiver to bind 10.9.0.3:666" receiver_ready
SENDERS=()
for i in 1 2 4; do
    in_ns "h$i" $TRIMSWITCH gen send --to 10.9.0.3:666 --count "$PACKETS" --rate "$RATE" --flow "$i" > "$WORK/sender$i.log" 2>&1 &
    SENDERS+=($!)
done
wait "${SENDERS[@]}"
cat "$WORK"/sender*.log
wait "$RECEIVER"
cat "$WORK/receiver.log"
for sw in "${SWITCHES[@]}"; do stats "$sw" after; done
in_ns spine $TRIMSWITCH stats
in_ns leaf2 $TRIMSWITCH stats

python3 - "$WORK" "$PACKETS" <<'PY'
import json, sys
work, packets = sys.argv[1], int(sys.argv[2])
def ports(switch, when):
    return {p["port"]: p for p in json.load(open(f"{work}/{switch}-{when}.json"))}
def grew(switch, port, key):
    return ports(switch, "after")[port].get(key, 0) - ports(switch, "before")[port].get(key, 0)
def socket_overflows(switch):
    return sum(p.get("drops", {}).get("socketOverflow", 0) for p in ports(switch, "after").values())
received = json.load(open(f"{work}/received.json"))
flows = received["flows"]
missing = 3 * packets - sum(flow["whole"] + flow["trimmed"] for flow in flows.values())
overflowed = sum(socket_overflows(switch) for switch in ("leaf1", "leaf2", "spine"))
if missing > 0 and overflowed >= missing:
    print(f"fabric: host too slow: the kernel dropped {overflowed} datagrams at the switches' sockets; {missing} missing")
    sys.exit(3)
assert len(flows) == 3, f"expected 3 flows at the receiver, got {len(flows)}: {flows}"
for sender, flow in flows.items():
    arrived = flow["whole"] + flow["trimmed"]
    assert arrived == packets and flow["gaps"] == 0, f"{sender}: {flow['whole']} whole + {flow['trimmed']} trimmed of {packets}, {flow['gaps']} missing"
spine_trims = grew("spine", 1, "txTrimPackets")
leaf2_trims = grew("leaf2", 0, "txTrimPackets")
leaf1_trims = sum(grew("leaf1", port, "txTrimPackets") for port in range(3))
if spine_trims == 0:
    print("fabric: host too slow: two senders did not even fill the spine's 0.2 Gb/s downlink")
    sys.exit(3)
assert leaf1_trims == 0, f"leaf 1's ports are idle enough never to trim, yet it trimmed {leaf1_trims}"
# Headers the spine trimmed leave leaf 2 as headers, with leaf 2's own trims: together what the receiver saw.
assert received["trimmed"] == spine_trims + leaf2_trims, \
    f"the receiver saw {received['trimmed']} headers; the spine trimmed {spine_trims} and leaf 2 {leaf2_trims}"
for switch in ("leaf1", "leaf2", "spine"):
    for port, p in ports(switch, "after").items():
        assert p.get("droppedTrimPackets", 0) == 0, f"{switch} port {port} dropped trimmed packets: {p}"
print(f"fabric: incast: {received['whole']} whole + {received['trimmed']} trimmed of {3 * packets}, none lost; "
      f"the spine trimmed {spine_trims} on its downlink, leaf 2 {leaf2_trims} on host 3's port, leaf 1 none")
PY

for sw in "${SWITCHES[@]}"; do
    stop_switch "${PID[$sw]}" "$WORK/$sw.log"
done
log "passed"
