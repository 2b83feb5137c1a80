#!/usr/bin/env bash
# What the live switch's idle mode costs and gives: two hosts in network namespaces, each wired by a veth to a third
# namespace that holds the forwarder, one of
#   default    `trimswitch run -i 0@... -i 1@...` with no --idle: poll, on interface ports only (sleeps once a turn finds
#              nothing, polling 100 µs for the answer to a frame after 1 ms without one)
#   poll-10ms  the same with `--poll-after-traffic-us 10000`: polls 10 ms after the last frame (what a thread with a
#              UDP port does by default)
#   poll-0     the same with `--poll-after-traffic-us 0`: sleeps as soon as a turn finds nothing, even for an answer
#   busy-spin  the same with `--idle busy-spin`
#   af_xdp     the default on af_xdp ports (`-i 0@...:af_xdp`)
#   bridge     the Linux bridge over the two veths (the kernel's own forwarding, the host's floor)
# Per round, forwarders in turn: ping RTT from host 0 to host 1 (after 200 pings of warm-up) at three paces, one every
# 0.5 s (20), every 5 ms (200) and every 0.2 ms (500), as p50 and mean, and the CPU the switch's process used during
# the pings every 5 ms. Then, for the switches, the CPU the whole process used while idle for SECONDS, and again once
# both veths are deleted (a switch whose interfaces are gone).
# Needs root, iproute2, iputils-ping and a built jar (./mvnw -B -q package -DskipTests).
#
#   bench/hosts/idle_bench.sh [ROUNDS [SECONDS]]   (from the repository root; default 2 rounds, 10 s of idle)
#   MODES="default af_xdp" bench/hosts/idle_bench.sh 1 10
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
SECS=${2:-10}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "idle_bench: ROUNDS must be a whole number of at least 1, got '$ROUNDS'" >&2; exit 2; }
[[ "$SECS" =~ ^[1-9][0-9]*$ ]] || { echo "idle_bench: SECONDS must be a whole number of at least 1, got '$SECS'" >&2; exit 2; }
[ -f cli/target/trimswitch.jar ] || { echo "idle_bench: build first: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "idle_bench: needs root (network namespaces)" >&2; exit 2; }
TRIMSWITCH=${TRIMSWITCH:-"$PWD/cli/trimswitch"}
MODES=${MODES:-"default af_xdp busy-spin bridge"}
for mode in $MODES; do
    case "$mode" in
        default|poll-10ms|poll-0|af_xdp|busy-spin|bridge) ;;
        *) echo "idle_bench: MODES are default poll-10ms poll-0 af_xdp busy-spin bridge, got '$mode'" >&2; exit 2 ;;
    esac
done
TAG="idb$$"
WORK=$(mktemp -d)
SWITCH=""

cleanup() {
    set +e
    [ -n "$SWITCH" ] && kill "$SWITCH" 2>/dev/null && wait "$SWITCH" 2>/dev/null
    for ns in "${TAG}sw" "${TAG}h0" "${TAG}h1"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

wire() {
    for i in 0 1; do
        ip link add "${TAG}p$i" netns "${TAG}sw" type veth peer name eth0 netns "${TAG}h$i"
        ip -n "${TAG}sw" link set "${TAG}p$i" up
        ip -n "${TAG}h$i" addr add "10.8.0.$((i + 1))/24" dev eth0
        ip -n "${TAG}h$i" link set eth0 up
    done
}
ip netns add "${TAG}sw"
ip -n "${TAG}sw" link set lo up
for i in 0 1; do ip netns add "${TAG}h$i"; ip -n "${TAG}h$i" link set lo up; done
wire

# p50 and mean of ping's RTTs, in µs.
rtts() {
    grep -o 'time=[0-9.]*' | cut -d= -f2 | sort -n |
        awk '{v[NR] = $1; s += $1} END {printf "%.0f / %.0f", v[int((NR + 1) / 2)] * 1000, s / NR * 1000}'
}
# CPU ticks of the whole switch process (user + system), in hundredths of a second.
ticks() { awk '{print $14 + $15}' "/proc/$SWITCH/stat"; }
idle_cpu() {
    local before after
    before=$(ticks)
    sleep "$SECS"
    after=$(ticks)
    awk -v t=$((after - before)) -v s="$SECS" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f %%", t / hz / s * 100}'
}

printf '%-6s %-10s %22s %22s %22s %14s %12s %12s\n' round forwarder "ping 0.5 s p50/mean µs" "ping 5 ms p50/mean µs" \
    "ping 0.2 ms p50/mean µs" "CPU, 5 ms pings" "idle CPU" "gone CPU"
for round in $(seq 1 "$ROUNDS"); do
    for mode in $MODES; do
        if [ "$mode" = bridge ]; then
            ip -n "${TAG}sw" link add br0 type bridge
            for i in 0 1; do ip -n "${TAG}sw" link set "${TAG}p$i" master br0; done
            ip -n "${TAG}sw" link set br0 up
        else
            idle="" kind=""
            [ "$mode" = busy-spin ] && idle="--idle busy-spin"
            [ "$mode" = poll-10ms ] && idle="--poll-after-traffic-us 10000"
            [ "$mode" = poll-0 ] && idle="--poll-after-traffic-us 0"
            [ "$mode" = af_xdp ] && kind=":af_xdp"
            ip netns exec "${TAG}sw" $TRIMSWITCH run $idle --metrics off --counters "$WORK/s.counters" --control "$WORK/s.ctl" \
                -i "0@${TAG}p0$kind" -i "1@${TAG}p1$kind" > "$WORK/switch.log" 2>&1 &
            SWITCH=$!
            for _ in $(seq 1 100); do grep -q running "$WORK/switch.log" 2>/dev/null && break; sleep 0.1; done
        fi
        ip netns exec "${TAG}h0" ping -c 200 -i 0.002 -q 10.8.0.2 > /dev/null
        slow=$(ip netns exec "${TAG}h0" ping -c 20 -i 0.5 10.8.0.2 | rtts)
        pingsFrom=$(date +%s%N)
        [ "$mode" = bridge ] || pingTicks=$(ticks)
        paced=$(ip netns exec "${TAG}h0" ping -c 200 -i 0.005 10.8.0.2 | rtts)
        pingCpu=-
        [ "$mode" = bridge ] || pingCpu=$(awk -v t=$(($(ticks) - pingTicks)) -v ns=$(($(date +%s%N) - pingsFrom)) \
            -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f %%", t / hz / (ns / 1e9) * 100}')
        fast=$(ip netns exec "${TAG}h0" ping -c 500 -i 0.0002 10.8.0.2 | rtts)
        cpu=- gone=-
        if [ "$mode" = bridge ]; then
            ip -n "${TAG}sw" link del br0
        else
            cpu=$(idle_cpu)
            for i in 0 1; do ip -n "${TAG}sw" link del "${TAG}p$i"; done
            gone=$(idle_cpu)
            kill "$SWITCH"
            wait "$SWITCH" 2>/dev/null || true
            SWITCH=""
            wire
        fi
        printf '%-6s %-10s %22s %22s %22s %14s %12s %12s\n' "$round" "$mode" "$slow" "$paced" "$fast" "$pingCpu" "$cpu" "$gone"
    done
done
