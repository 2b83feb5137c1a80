#!/usr/bin/env bash
# The faults a lab's links go through while `trimswitch run` forwards between two Linux hosts on veths (interface
# ports, --idle poll), one per run: link_faults_e2e.sh FAULT, with FAULT one of
#   flap-switch-side  the switch's end of a veth set down, then up again
#   flap-host-side    the host's end set down (the switch's end loses its carrier), then up again
#   recreate          the veth deleted, then made again under the same name
#   mtu               the MTU raised to 9000 on both ends, then lowered on the switch's end
#   second-switch     a second switch on the same interface, with its own counters file or the same one; then the
#                     first killed: stats and ctl say it died, and a new switch takes its interfaces, counters and socket
#   idle-cpu          a port's link set down and another's veth deleted under --idle poll: the idle switch must not spin
#   move-port         `ctl del-port` then `ctl add-port` onto a new veth while the switch runs, with a capture of the port
# Each checks the switch's log lines, its counters (`stats --json`) and what the hosts see (ping). Needs root, iproute2
# and iputils-ping. Exits 3, saying "host too slow", when the host could not even start the switch in time.
#
# TRIMSWITCH is the command that runs the tool (e.g. "cli/trimswitch").
# Everything it creates is removed on exit, whatever happens.
set -euo pipefail

: "${TRIMSWITCH:?set TRIMSWITCH to the command that runs trimswitch}"
FAULT=${1:?name the fault: flap-switch-side, flap-host-side, recreate, mtu, second-switch, idle-cpu or move-port}
TAG="tl$$"
SW="${TAG}sw"

log() { echo "faults: $*"; }
fail() { log "$*" >&2; exit 1; }
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
trap cleanup EXIT
WORK=$(mktemp -d)

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

# wire HOST: the veth between the switch's port HOST (its end named ${TAG}pHOST) and the host's eth0, both up.
wire() {
    wire_host "$SW" "${TAG}h$1" "${TAG}p$1" "10.9.0.$(($1 + 1))"
}

add_namespace "$SW"
for i in 0 1; do
    add_namespace "${TAG}h$i"
    # No IPv6 chatter (router and neighbour solicitations): the only frames are the test's own.
    in_host "$i" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
in_sw sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
# pin_neighbours: each host knows the other's MAC address for good: no ARP of their own crosses the switch between the
# test's counts (a stale entry's probe would be a frame the test did not send).
pin_neighbours() {
    local mac0 mac1
    mac0=$(in_host 0 cat /sys/class/net/eth0/address)
    mac1=$(in_host 1 cat /sys/class/net/eth0/address)
    in_host 0 ip neigh replace 10.9.0.2 lladdr "$mac1" nud permanent dev eth0
    in_host 1 ip neigh replace 10.9.0.1 lladdr "$mac0" nud permanent dev eth0
}
wire 0
wire 1
pin_neighbours

# expect_line SECONDS TEXT: the switch's log says TEXT within SECONDS, else the test fails (a line missing is a fault).
expect_line() {
    local seconds=$1 text=$2
    for _ in $(seq 1 $((seconds * 10))); do
        grep -qF -- "$text" "$WORK/switch.log" && return 0
        sleep 0.1
    done
    cat "$WORK/switch.log"
    fail "no line '$text' from the switch within $seconds s"
}

# stat PORT KEY: a counter of the port as `stats --json` shows it; a drop reason as drops.REASON (0 when absent).
stats() { in_sw $TRIMSWITCH stats --json > "$WORK/stats.json"; }
# port_up_metric PORT: the value Prometheus scrapes for trimswitch_port_up of PORT.
port_up_metric() {
    in_sw python3 -c 'import sys, urllib.request
for line in urllib.request.urlopen("http://127.0.0.1:9464/metrics", timeout=5).read().decode().splitlines():
    if line.startswith("trimswitch_port_up{") and "port=\"%s\"" % sys.argv[1] in line:
        print(int(float(line.split()[-1])))' "$1"
}
stat() {
    python3 - "$WORK/stats.json" "$1" "$2" <<'PY'
import json, sys
port = {p["port"]: p for p in json.load(open(sys.argv[1]))}[int(sys.argv[2])]
key = sys.argv[3]
value = port.get("drops", {}).get(key[6:], 0) if key.startswith("drops.") else port[key]
print(str(value).lower())
PY
}

pings() { in_host 0 ping -q -c "$1" -i 0.2 -W "${2:-2}" 10.9.0.2 > /dev/null 2>&1; }

PORT1="port 1 (${TAG}p1)"
log "starting the switch on ${TAG}p0 and ${TAG}p1, --idle poll"
# Metrics on the switch namespace's own loopback: no other switch listens there.
start_switch "$SW" "$WORK/switch.log" 2 -i "0@${TAG}p0" -i "1@${TAG}p1" --idle poll --metrics 127.0.0.1:9464
pings 2 || fail "host 0 cannot ping host 1 through the switch"
log "host 0 pings host 1"

# flap SIDE: takes port 1's link down from SIDE, checks that what the switch should send meanwhile is counted as
# linkDown (and neither as sent nor as txBusy), then brings it up and checks that the very first ping gets through.
flap() {
    local side=$1
    stats
    local sent_before
    sent_before=$(stat 1 txPackets)
    [ "$(stat 1 up)" = true ] || fail "port 1 is not up in stats before the fault"
    if [ "$side" = switch ]; then in_sw ip link set "${TAG}p1" down; else in_host 1 ip link set eth0 down; fi
    expect_line 5 "$PORT1: down"
    log "the switch says: $PORT1: down"
    ! pings 3 1 || fail "host 0 pinged host 1 across a link that is down"
    stats
    local down sent busy
    down=$(stat 1 drops.linkDown); sent=$(stat 1 txPackets); busy=$(stat 1 drops.txBusy)
    [ "$(stat 1 up)" = false ] || fail "stats does not show port 1 down"
    [ "$(port_up_metric 1)" = 0 ] || fail "Prometheus does not show port 1 down: trimswitch_port_up is '$(port_up_metric 1)'"
    [ "$down" -ge 3 ] || fail "3 echo requests towards a down link, $down counted as linkDown"
    [ "$sent" = "$sent_before" ] || fail "port 1 counted frames as sent while its link was down: txPackets $sent_before -> $sent"
    [ "$busy" = 0 ] || fail "frames towards a down link counted as txBusy ($busy)"
    log "while down: $down frames counted as linkDown, none as sent or txBusy; stats and Prometheus show port 1 down"
    if [ "$side" = switch ]; then in_sw ip link set "${TAG}p1" up; else in_host 1 ip link set eth0 up; fi
    expect_line 5 "$PORT1: up"
    # One echo request, not retried: if the switch lost the first frame after the link came back, no reply comes.
    pings 1 3 || fail "the first ping after the link came up was lost"
    stats
    [ "$(stat 1 up)" = true ] || fail "stats does not show port 1 up again"
    [ "$(port_up_metric 1)" = 1 ] || fail "Prometheus does not show port 1 up again"
    log "up again: the first ping crossed; stats and Prometheus show port 1 up"
}

case "$FAULT" in
flap-switch-side)
    flap switch
    ;;
flap-host-side)
    flap host
    ;;
recreate)
    in_host 1 ip link del eth0
    expect_line 5 "$PORT1: gone"
    stats
    [ "$(stat 1 up)" = false ] || fail "stats does not show port 1 down while its veth is gone"
    log "the switch says: $PORT1: gone"
    made=$(date +%s%N)
    wire 1
    # The re-made veth has a new MAC address: the hosts learn it.
    pin_neighbours
    expect_line 5 "$PORT1: back, ifindex"
    back_ms=$(( ($(date +%s%N) - made) / 1000000 ))
    [ "$back_ms" -le 1000 ] || fail "port 1 re-attached ${back_ms} ms after its veth was made again (more than a second)"
    index=$(in_sw cat "/sys/class/net/${TAG}p1/ifindex")
    grep -qF "$PORT1: back, ifindex $index" "$WORK/switch.log" || fail "the switch's 'back' line does not name the new ifindex $index"
    expect_line 5 "$PORT1: up"
    ok=""
    for _ in $(seq 1 10); do pings 1 1 && { ok=yes; break; }; done
    [ -n "$ok" ] || fail "host 0 cannot ping host 1 over the re-made veth"
    log "re-made: $(grep -F "$PORT1: back" "$WORK/switch.log" | tail -1 | sed 's/^trimswitch: //') (about ${back_ms} ms after), ping works again"
    ;;
mtu)
    ! in_host 0 ping -q -c 1 -W 1 -M do -s 8972 10.9.0.2 > /dev/null 2>&1 || fail "a 9000-byte packet crossed 1500-byte links"
    for i in 0 1; do
        in_sw ip link set "${TAG}p$i" mtu 9000
        in_host "$i" ip link set eth0 mtu 9000
    done
    expect_line 5 "port 0 (${TAG}p0): mtu 9000"
    expect_line 5 "$PORT1: mtu 9000"
    in_host 0 ping -q -c 3 -i 0.2 -W 2 -M do -s 8972 10.9.0.2 > /dev/null || fail "9000-byte packets did not cross after the MTU was raised"
    stats
    [ "$(stat 1 drops.mtuExceeded)" = 0 ] || fail "port 1 dropped frames as mtuExceeded after its MTU was raised"
    log "MTU raised to 9000: the switch said so, and 9000-byte packets cross both ways"
    in_sw ip link set "${TAG}p1" mtu 1500
    expect_line 5 "$PORT1: mtu 1500"
    sent_before=$(stat 1 txPackets)
    ! in_host 0 ping -q -c 3 -i 0.2 -W 1 -M do -s 8972 10.9.0.2 > /dev/null 2>&1 || fail "9000-byte packets crossed a port whose MTU was lowered to 1500"
    stats
    [ "$(stat 1 drops.mtuExceeded)" -ge 3 ] || fail "3 9000-byte packets towards a 1500-byte port, $(stat 1 drops.mtuExceeded) counted as mtuExceeded"
    [ "$(stat 1 txPackets)" = "$sent_before" ] || { cat "$WORK/stats.json"; fail "frames refused for the MTU were counted as sent: txPackets $sent_before -> $(stat 1 txPackets)"; }
    pings 2 || fail "small packets no longer cross after the MTU was lowered"
    log "MTU lowered to 1500 on the switch's end: 9000-byte frames counted as mtuExceeded, not as sent; small ones cross"
    ;;
second-switch)
    first=$SWITCH_PID
    for counters in "--counters $WORK/second.counters" ""; do
        status=0
        # shellcheck disable=SC2086
        in_sw $TRIMSWITCH run -i "0@${TAG}p0" --idle poll --metrics off $counters > "$WORK/second.out" 2>&1 || status=$?
        [ "$status" = 2 ] || { cat "$WORK/second.out"; fail "a second switch on ${TAG}p0 exited $status, not 2"; }
        [ "$(wc -l < "$WORK/second.out")" = 1 ] || { cat "$WORK/second.out"; fail "the second switch's refusal is not one line"; }
        grep -qF "process $first" "$WORK/second.out" || { cat "$WORK/second.out"; fail "the refusal does not name process $first"; }
        log "refused (${counters:-the same counters file}): $(cat "$WORK/second.out")"
    done
    # Killed outright, the first switch leaves its lock file behind: the next switch takes it over.
    kill -KILL "$first"
    wait "$first" 2>/dev/null || true
    SWITCH_PIDS=()
    # Its counters file stays too: stats must not show a dead switch's frozen counters as if it ran.
    status=0
    in_sw $TRIMSWITCH stats > "$WORK/stats.out" 2>&1 || status=$?
    [ "$status" = 2 ] && [ "$(wc -l < "$WORK/stats.out")" = 1 ] && grep -qF "dead switch's (process $first" "$WORK/stats.out" \
        || { cat "$WORK/stats.out"; fail "stats after SIGKILL exited $status, not 2 with one line naming dead process $first"; }
    log "stats after SIGKILL: $(cat "$WORK/stats.out")"
    status=0
    in_sw $TRIMSWITCH ctl show > "$WORK/ctl.out" 2>&1 || status=$?
    [ "$status" = 2 ] && [ "$(wc -l < "$WORK/ctl.out")" = 1 ] && grep -qF "a switch that died leaves it" "$WORK/ctl.out" \
        || { cat "$WORK/ctl.out"; fail "ctl after SIGKILL exited $status, not 2 with one line saying the switch died"; }
    log "ctl after SIGKILL: $(cat "$WORK/ctl.out")"
    start_switch "$SW" "$WORK/third.log" 2 -i "0@${TAG}p0" -i "1@${TAG}p1" --idle poll --metrics off
    pings 2 || fail "host 0 cannot ping host 1 through the switch that took over"
    grep -qF "replaced the counters a dead switch (process $first) left" "$WORK/third.log" || { cat "$WORK/third.log"; fail "the new switch did not say it replaced the dead one's counters"; }
    grep -qF "(replaced one a stopped switch left)" "$WORK/third.log" || { cat "$WORK/third.log"; fail "the new switch did not replace the dead one's control socket"; }
    in_sw $TRIMSWITCH ctl show > /dev/null || fail "ctl cannot reach the new switch"
    in_sw $TRIMSWITCH stats > /dev/null || fail "stats cannot read the new switch's counters"
    log "after SIGKILL of the first, a new switch takes the interfaces over and forwards"
    stop_switch "$SWITCH_PID" "$WORK/third.log"
    namespace=$(in_sw readlink /proc/self/ns/net | tr -dc 0-9)
    [ ! -e "/run/trimswitch/$namespace/${TAG}p0.lock" ] || fail "the stopped switch left its lock file behind"
    log "passed"
    exit 0
    ;;
idle-cpu)
    # Port 0's link down on the switch's side (the kernel flags the fall on its socket), port 1's veth gone.
    in_sw ip link set "${TAG}p0" down
    expect_line 5 "port 0 (${TAG}p0): down"
    in_host 1 ip link del eth0
    expect_line 5 "$PORT1: gone"
    sleep 1
    ticks() { awk '{print $14 + $15}' "/proc/$SWITCH_PID/stat"; }
    hz=$(getconf CLK_TCK)
    before=$(ticks)
    sleep 3
    used=$(( $(ticks) - before ))
    # A core spinning would use 3 s; an idle switch a few hundredths.
    [ "$used" -le $((3 * hz / 4)) ] || fail "the idle switch used $used ticks of $((3 * hz)) in 3 s (more than a quarter of a core) with a port down and one gone"
    log "port 0 down and port 1 gone, the idle switch used $((used * 1000 / hz)) ms of CPU in 3 s"
    ;;
move-port)
    ctl() { in_sw $TRIMSWITCH ctl "$@"; }
    ctl capture 1 start "$WORK/port1.pcapng" > /dev/null
    ctl del-port 1 > "$WORK/ctl.out"
    grep -qxF "port 1 (${TAG}p1) removed" "$WORK/ctl.out" || { cat "$WORK/ctl.out"; fail "del-port 1 did not say it removed port 1"; }
    expect_line 5 "$PORT1: removed"
    [ ! -e "/run/trimswitch/$(in_sw readlink /proc/self/ns/net | tr -dc 0-9)/${TAG}p1.lock" ] || fail "the removed port's interface is still locked"
    ! pings 3 1 || fail "host 0 pinged host 1 through a removed port"
    stats
    removed=$(stat 1 drops.portRemoved)
    [ "$removed" -ge 3 ] || fail "3 echo requests towards a removed port, $removed counted as portRemoved"
    ctl show | grep -qE "^1 +interface +${TAG}p1 +removed " || { ctl show; fail "ctl show does not list port 1 as removed"; }
    log "removed: $removed frames counted as portRemoved; its interface is free"
    # Host 1 comes back on a new veth: the switch's end is named ${TAG}q1, with a new MAC on the host's side.
    in_sw ip link del "${TAG}p1"
    wire_host "$SW" "${TAG}h1" "${TAG}q1" 10.9.0.2
    pin_neighbours
    status=0
    ctl add-port "1@${TAG}p0" > "$WORK/ctl.out" 2>&1 || status=$?
    [ "$status" = 2 ] && [ "$(wc -l < "$WORK/ctl.out")" = 1 ] || { cat "$WORK/ctl.out"; fail "add-port onto port 0's interface was not refused in one line"; }
    ctl add-port "1@${TAG}q1" --rate-gbps 10 > "$WORK/ctl.out"
    grep -qF "port 1 added on ${TAG}q1" "$WORK/ctl.out" || { cat "$WORK/ctl.out"; fail "add-port 1@${TAG}q1 did not add it"; }
    expect_line 5 "port 1 (${TAG}q1): added, ifindex"
    expect_line 5 "port 1 (${TAG}q1): up"
    pings 3 || fail "host 0 cannot ping host 1 on port 1's new interface"
    ctl show | grep -qE "^1 +interface +${TAG}q1 +up +10 " || { ctl show; fail "ctl show does not list port 1 up on ${TAG}q1 at 10 Gb/s"; }
    ctl capture 1 stop > "$WORK/ctl.out"
    frames=$(sed -n 's/^port 1: \([0-9]*\) frames written.*/\1/p' "$WORK/ctl.out")
    [ -n "$frames" ] && [ "$frames" -ge 6 ] || { cat "$WORK/ctl.out"; fail "the capture of port 1 holds fewer than the 3 requests and 3 replies"; }
    log "added on ${TAG}q1 at 10 Gb/s: ping works again; the capture kept $frames frames across the move"
    stop_switch "$SWITCH_PID" "$WORK/switch.log"
    log "passed"
    exit 0
    ;;
*)
    fail "unknown fault $FAULT"
    ;;
esac

stop_switch "$SWITCH_PID" "$WORK/switch.log"
log "passed"
