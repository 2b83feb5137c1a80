#!/usr/bin/env bash
# The live switch's counters add up: three Linux hosts in network namespaces, each on a veth straight to a port of
# `trimswitch run` (interface ports). Pings between every pair (ARP's broadcasts are flooded), an iperf3 TCP burst, a
# burst of 64-byte datagrams, and five frames to IEEE 802.1D reserved group addresses (LLDP, PAUSE) from host 0, which
# must reach no host. Once the switch has drained, over all ports (bench/soak/identity.py):
#   received + the extra copies flooding made = sent + dropped (by reason), the kernel's ring overflow apart;
# and port 0 counts the five reserved-group frames as reservedGroup. Needs root, iproute2, ping, iperf3, socat and
# Debian's python3 with scapy. TRIMSWITCH is the command that runs the tool. Everything it makes is removed on exit.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
TAG="tc$$"
SW="${TAG}sw"
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
IDENTITY="$here/../../../../bench/soak/identity.py"

log() { echo "e2e: $*"; }
# shellcheck source=common.sh
. "$here/common.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

add_namespace "$SW"
for i in 0 1 2; do
    add_namespace "${TAG}h$i"
    wire_host "$SW" "${TAG}h$i" "${TAG}p$i" "10.78.0.$((i + 1))"
done

start_switch "$SW" "$WORK/switch.log" 3 --idle poll --metrics off -i "0@${TAG}p0" -i "1@${TAG}p1" -i "2@${TAG}p2"
ping_every_pair "${TAG}h0=10.78.0.1" "${TAG}h1=10.78.0.2" "${TAG}h2=10.78.0.3"
log "every pair pings"

in_host 2 iperf3 -s -1 > "$WORK/iperf3-server.log" 2>&1 &
await 10 "iperf3 listening" tcp_listening "${TAG}h2" 5201
in_host 1 socat -u UDP-RECV:9,bind=10.78.0.2 /dev/null &
await 10 "the datagrams' sink bound" udp_bound "${TAG}h1" 9
in_host 0 iperf3 -c 10.78.0.3 -t 2 > "$WORK/iperf3.log" 2>&1
in_host 2 $TRIMSWITCH gen send --to 10.78.0.2:9 --size 64 --rate 20000 --count 20000 --dscp 0 > "$WORK/flood.log" 2>&1

# Captures on hosts 1 and 2 see whether any reserved-group frame got through.
sniffers=()
for i in 1 2; do
    in_host "$i" /usr/bin/python3 -c '
import sys
from scapy.all import sniff
frames = sniff(iface="eth0", timeout=4, lfilter=lambda f: f.dst.startswith("01:80:c2:00:00:0"))
print(len(frames))' > "$WORK/sniff$i.txt" 2>/dev/null &
    sniffers+=($!)
done
sleep 1
in_host 0 /usr/bin/python3 -c '
from scapy.all import Ether, Raw, sendp
for dst, kind in [("01:80:c2:00:00:0e", 0x88cc)] * 3 + [("01:80:c2:00:00:01", 0x8808), ("01:80:c2:00:00:00", 0x0026)]:
    sendp(Ether(dst=dst, type=kind) / Raw(b"\0" * 46), iface="eth0", verbose=False)'
wait "${sniffers[@]}"

stats() { in_sw $TRIMSWITCH stats --json; }
before=""
for _ in $(seq 1 50); do
    now=$(stats | python3 "$IDENTITY" -)
    [ "$now" = "$before" ] && break
    before=$now
    sleep 0.2
done
stats > "$WORK/stats.json"
python3 "$IDENTITY" "$WORK/stats.json" --exact || { cat "$WORK/stats.json"; log "the counters do not add up" >&2; exit 1; }
log "the counters add up"
reserved=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0].get("drops", {}).get("reservedGroup", 0))' "$WORK/stats.json")
[ "$reserved" = 5 ] || { cat "$WORK/stats.json"; log "port 0 counted $reserved reservedGroup frames, not 5" >&2; exit 1; }
for i in 1 2; do
    [ "$(cat "$WORK/sniff$i.txt")" = 0 ] || { log "host $i received $(cat "$WORK/sniff$i.txt") reserved-group frames" >&2; exit 1; }
done
log "5 reserved-group frames counted at port 0, none forwarded"
log "passed"
