#!/usr/bin/env bash
# End to end: a live switch whose ports are shared out over pipeline shards, hosts in network namespaces of their own
# wired by veths to its interface ports, one case per run:
#   two-shards   four hosts, ports 0-1 on shard 0 and ports 2-3 on shard 1 (realtime.pipelineThreads: 2): every pair
#                pings, and TCP (iperf3) runs from a host of one shard to a host of the other; the counters add up
#   new-port     a switch started with two ports is given a third, a port number it did not start with, by
#                `ctl add-port 2@IFACE` while it runs: the new host pings the others through it, `ctl show` lists it
#                with its shard, its counters are in `stats` and on the metrics endpoint, and it is removed and added
#                again like a port the switch started with
# Needs root, iproute2, iputils-ping and iperf3. Exits 3, saying "host too slow", when the host could not keep up.
#
# TRIMSWITCH is the command that runs the tool (e.g. "cli/trimswitch").
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
CASE=${1:?name the case: two-shards or new-port}
TAG="sh$$"
SW="${TAG}sw"

log() { echo "shards: $*"; }
fail() { log "$*" >&2; exit 1; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }
ctl() { in_sw $TRIMSWITCH ctl "$@"; }
# host HOST: a namespace for host HOST, wired to the switch's port HOST (its end ${TAG}pHOST), address 10.9.0.(HOST+1).
host() {
    add_namespace "${TAG}h$1"
    in_host "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    wire_host "$SW" "${TAG}h$1" "${TAG}p$1" "10.9.0.$(($1 + 1))"
}
# stat PORT KEY: a counter of the port as `stats --json` shows it (0 when the port or the key is absent).
stat() {
    in_sw $TRIMSWITCH stats --json > "$WORK/stats.json"
    python3 - "$WORK/stats.json" "$1" "$2" <<'PY'
import json, sys
ports = {p["port"]: p for p in json.load(open(sys.argv[1]))}
print(ports.get(int(sys.argv[2]), {}).get(sys.argv[3], 0))
PY
}

add_namespace "$SW"
in_sw sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
# Two ports per pipeline, two pipelines, one shard each: ports 0-1 on shard 0, ports 2-3 on shard 1.
cat > "$WORK/shards.yaml" <<'YAML'
fabric:
  pipelines: 2
  portsPerPipeline: 2
realtime:
  pipelineThreads: 2
YAML

case "$CASE" in
two-shards)
    for i in 0 1 2 3; do host "$i"; done
    start_switch "$SW" "$WORK/switch.log" 4 --config "$WORK/shards.yaml" -i "0@${TAG}p0" -i "1@${TAG}p1" -i "2@${TAG}p2" \
        -i "3@${TAG}p3" --idle poll --metrics off
    grep -q "port 1: interface ${TAG}p1 .* on thread 0" "$WORK/switch.log" || { cat "$WORK/switch.log"; fail "port 1 is not on shard 0"; }
    grep -q "port 2: interface ${TAG}p2 .* on thread 1" "$WORK/switch.log" || { cat "$WORK/switch.log"; fail "port 2 is not on shard 1"; }
    ping_every_pair "${TAG}h0=10.9.0.1" "${TAG}h1=10.9.0.2" "${TAG}h2=10.9.0.3" "${TAG}h3=10.9.0.4"
    log "every pair of the four hosts pings, across the two shards and within each"
    in_host 3 iperf3 -s -1 -p 5201 > "$WORK/iperf-server.log" 2>&1 &
    await 10 "iperf3's server to listen" tcp_listening "${TAG}h3" 5201
    in_host 0 iperf3 -c 10.9.0.4 -p 5201 -t 3 -J > "$WORK/iperf.json" 2> "$WORK/iperf-client.log" \
        || { cat "$WORK/iperf-client.log"; fail "iperf3 from host 0 (shard 0) to host 3 (shard 1) failed"; }
    gbps=$(python3 -c 'import json, sys; print("%.2f" % (json.load(open(sys.argv[1]))["end"]["sum_received"]["bits_per_second"] / 1e9))' "$WORK/iperf.json")
    python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)' "$gbps" || fail "TCP across the shards carried nothing"
    log "TCP from host 0 on shard 0 to host 3 on shard 1: $gbps Gb/s received"
    sent=$(stat 3 txPackets)
    received=$(stat 0 rxPackets)
    [ "$sent" -gt 1000 ] && [ "$received" -gt 1000 ] || fail "port 0 took $received packets and port 3 sent $sent: TCP did not cross"
    log "port 0 took $received packets, port 3 sent $sent"
    ;;
new-port)
    for i in 0 1; do host "$i"; done
    start_switch "$SW" "$WORK/switch.log" 2 --config "$WORK/shards.yaml" -i "0@${TAG}p0" -i "1@${TAG}p1" --idle poll \
        --metrics 127.0.0.1:19464
    ping_every_pair "${TAG}h0=10.9.0.1" "${TAG}h1=10.9.0.2"
    host 2
    status=0
    ctl add-port "3@${TAG}p2" > "$WORK/ctl.out" 2>&1 || status=$?
    [ "$status" = 2 ] && [ "$(wc -l < "$WORK/ctl.out")" = 1 ] || { cat "$WORK/ctl.out"; fail "add-port past the next port number was not refused in one line"; }
    ctl add-port "2@${TAG}p2" > "$WORK/ctl.out"
    grep -qF "port 2 added on ${TAG}p2, pipeline 1 on thread 1" "$WORK/ctl.out" || { cat "$WORK/ctl.out"; fail "add-port 2@${TAG}p2 did not add it to shard 1"; }
    await 5 "the new port's link to come up" grep -qF "port 2 (${TAG}p2): up" "$WORK/switch.log"
    ping_every_pair "${TAG}h0=10.9.0.1" "${TAG}h1=10.9.0.2" "${TAG}h2=10.9.0.3"
    log "the new port 2 on shard 1: every pair of the three hosts pings"
    ctl show > "$WORK/show.out"
    grep -qE "^2 +interface +${TAG}p2 +up +100 +1 +1$" "$WORK/show.out" || { cat "$WORK/show.out"; fail "ctl show does not list port 2 up, pipeline 1 on thread 1"; }
    [ "$(stat 2 rxDatagrams)" -ge 4 ] && [ "$(stat 2 txPackets)" -ge 4 ] || { cat "$WORK/stats.json"; fail "stats does not count port 2's pings"; }
    in_sw python3 -c 'import urllib.request, sys
text = urllib.request.urlopen("http://127.0.0.1:19464/metrics", timeout=5).read().decode()
sys.exit(0 if any(l.startswith("trimswitch_port_tx_packets_total{") and "port=\"2\"" in l for l in text.splitlines()) else 1)' \
        || fail "the metrics endpoint has no trimswitch_port_tx_packets_total for port 2"
    log "ctl show lists port 2 on thread 1; stats and the metrics endpoint count it"
    ctl del-port 2 > "$WORK/ctl.out"
    grep -qF "port 2 (${TAG}p2) removed" "$WORK/ctl.out" || { cat "$WORK/ctl.out"; fail "del-port 2 did not remove the new port"; }
    ctl add-port "2@${TAG}p2" > "$WORK/ctl.out"
    grep -qF "port 2 added on ${TAG}p2" "$WORK/ctl.out" || { cat "$WORK/ctl.out"; fail "add-port did not put the new port back"; }
    await 5 "the new port's link to come up again" sh -c "[ \$(grep -cF 'port 2 (${TAG}p2): up' '$WORK/switch.log') -ge 2 ]"
    ping_every_pair "${TAG}h0=10.9.0.1" "${TAG}h2=10.9.0.3"
    log "the new port removed and added again: host 2 pings host 0"
    ;;
*)
    fail "unknown case $CASE"
    ;;
esac

stop_switch "$SWITCH_PID" "$WORK/switch.log"
log "passed"
