#!/usr/bin/env bash
# One port of one receive queue against the same port of two queues read by two pipeline shards: host 0 sends 60-byte
# UDP frames (64 on a wire) with bench/hosts/xdp_generator.c on two send queues (two flows, one a queue) into a veth of
# two queues; the switch, `realtime.pipelineThreads: 2`, reads port 0 on af_xdp with `queues: 1` or `queues: 2` and
# forwards to port 1, where bench/hosts/xdp_sink.c counts on host 1. With one queue, queue 1's frames go to the kernel
# (not the switch), so host 0 sends on queue 0 alone there. Rounds alternate the two; per round, frames a second: what
# host 0 sent, what port 0 received and what its rings overflowed with (the switch's stats), what left port 1 and what
# port 1 dropped (a full data queue, say), and the switch's CPU (user + system, /proc/PID/stat) per forwarded frame.
# Needs root, gcc, libxdp-dev, libbpf-dev and a built jar.
#
# Each load is as fast as the generator can (max) or a fixed rate in frames a second, split over its queues.
#
#   bench/hosts/queues_bench.sh [ROUNDS [SECONDS]]   (from the repository root; default 3 rounds of 5 s a load)
#   LOADS="max 100000" IDLE=poll bench/hosts/queues_bench.sh 3 5      (IDLE: the switch's realtime.idle, poll or busy-spin)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-3}
SECS=${2:-5}
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "queues_bench: ROUNDS must be a whole number of at least 1, got '$ROUNDS'" >&2; exit 2; }
[[ "$SECS" =~ ^[1-9][0-9]*$ ]] || { echo "queues_bench: SECONDS must be a whole number of at least 1, got '$SECS'" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "queues_bench: needs root (network namespaces)" >&2; exit 2; }
[ -f cli/target/trimswitch.jar ] || { echo "queues_bench: build first: ./mvnw -B -q -pl cli -am package -DskipTests" >&2; exit 2; }
TAG="qb$$"
WORK=$(mktemp -d "/tmp/$TAG.XXXXXX")
SWITCH=""
LOADS=${LOADS:-"max 100000"}
IDLE=${IDLE:-poll}
case "$IDLE" in poll|busy-spin) ;; *) echo "queues_bench: IDLE is poll or busy-spin, got '$IDLE'" >&2; exit 2 ;; esac
for load in $LOADS; do
    [ "$load" = max ] || [[ "$load" =~ ^[1-9][0-9]*$ ]] || { echo "queues_bench: LOADS are max or frames a second, got '$load'" >&2; exit 2; }
done
cleanup() {
    [ -n "$SWITCH" ] && kill -TERM "$SWITCH" 2>/dev/null && wait "$SWITCH" 2>/dev/null
    for ns in "${TAG}h0" "${TAG}h1" "${TAG}sw"; do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null || true; done
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
for program in xdp_generator xdp_sink; do
    gcc -O2 -o "$WORK/$program" "bench/hosts/$program.c" -lxdp -lbpf -lpthread
done
ip netns add "${TAG}sw"
for i in 0 1; do
    ip netns add "${TAG}h$i"
    ip link add "${TAG}p$i" netns "${TAG}sw" numtxqueues 2 numrxqueues 2 type veth peer name eth0 netns "${TAG}h$i" numtxqueues 2 numrxqueues 2
    ip -n "${TAG}sw" link set "${TAG}p$i" up
    ip -n "${TAG}h$i" link set eth0 up
done
ip -n "${TAG}sw" link set lo up
sink_mac=$(ip netns exec "${TAG}h1" cat /sys/class/net/eth0/address)
# A sink on host 1, so that what port 1 sends is taken off its veth before any skb exists.
ip netns exec "${TAG}h1" "$WORK/xdp_sink" eth0 2 > "$WORK/sink.out" 2> "$WORK/sink.err" &
sleep 1
# The switch's counts so far, as its stats say: port 0's received frames, its ringOverflow, port 1's sent and dropped frames.
counts() {
    ip netns exec "${TAG}sw" cli/trimswitch stats --counters "$WORK/counters" --json | python3 -c '
import json, sys
ports = {p["port"]: p for p in json.load(sys.stdin)}
print(ports[0]["rxDatagrams"], ports[0].get("drops", {}).get("ringOverflow", 0), ports[1]["txPackets"], sum(ports[1].get("drops", {}).values()))'
}
HZ=$(getconf CLK_TCK)
echo "queues_bench: load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
printf '| round | load | queues | sent k/s | received k/s | ringOverflow k/s | forwarded k/s | port 1 drops k/s | delivered | switch CPU µs a forwarded frame |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for round in $(seq 1 "$ROUNDS"); do
    for queues in 1 2; do
        cat > "$WORK/switch.yaml" <<YAML
fabric: {pipelines: 2, portsPerPipeline: 4}
realtime: {pipelineThreads: 2, idle: $IDLE}
ports:
  - {interface: ${TAG}p0, kind: af_xdp, queues: $queues}
  - {interface: ${TAG}p1, kind: af_xdp}
YAML
        ip netns exec "${TAG}sw" cli/trimswitch run --config "$WORK/switch.yaml" --counters "$WORK/counters" --metrics off > "$WORK/switch.log" 2>&1 &
        SWITCH=$!
        for _ in $(seq 1 100); do grep -q "port 1:" "$WORK/switch.log" && break; sleep 0.1; done
        [ "$round" = 1 ] && grep "port 0:" "$WORK/switch.log" | sed 's/^/queues_bench: /'
        sleep 1
        for load in $LOADS; do
            read -r rx0 lost0 tx0 drop0 <<< "$(counts)"
            ticks0=$(awk '{print $14 + $15}' "/proc/$SWITCH/stat")
            sent=$(ip netns exec "${TAG}h0" "$WORK/xdp_generator" eth0 "$sink_mac" --seconds "$SECS" --queues "$queues" \
                $([ "$load" = max ] || echo "--rate $load") 2>/dev/null | sed -n 's/.*: \([0-9]*\) frames\/s/\1/p')
            sleep 0.5
            ticks1=$(awk '{print $14 + $15}' "/proc/$SWITCH/stat")
            read -r rx1 lost1 tx1 drop1 <<< "$(counts)"
            python3 -c "
s, rx, lost, tx, cpu = $sent, ($rx1 - $rx0) / $SECS, ($lost1 - $lost0) / $SECS, ($tx1 - $tx0) / $SECS, ($ticks1 - $ticks0) / $HZ
dropped = ($drop1 - $drop0) / $SECS
print('| $round | $load | $queues | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f %% | %.2f |' % (s / 1e3, rx / 1e3, lost / 1e3, tx / 1e3, dropped / 1e3,
      100 * tx / max(1, s), cpu * 1e6 / max(1, tx * $SECS)))"
        done
        kill -TERM "$SWITCH"; wait "$SWITCH" 2>/dev/null || true; SWITCH=""
    done
done
