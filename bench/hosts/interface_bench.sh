#!/usr/bin/env bash
# Host-level benchmark of interface ports: four Linux hosts in network namespaces, each wired by one veth straight to
# a fifth namespace that holds the forwarder, which is one of
#   bridge           the Linux bridge (br0 over the four veths): the kernel's own forwarding
#   forwarder        bench/hosts/afpacket_forwarder.c between the first two veths: TPACKET_V2 rings, PACKET_VNET_HDR,
#                    sendmmsg with PACKET_QDISC_BYPASS, poll() when idle: the userspace limit (it parses and queues nothing)
#   trimswitch       `trimswitch run -i 0@... -i 3@...`: one pipeline thread, l2 forwarding, default queues, and the
#                    default idle mode (poll: it polls while frames come and sleeps in poll 10 ms after the last one)
#   trimswitch-spin  the same with `--idle busy-spin` (the thread polls all the time)
#   trimswitch-poll  the same with `--idle poll` named (what the default is; kept for the older runs' commands)
# Part 1 (hosts 0 and 1), forwarders alternating trial by trial: iperf3 TCP over one stream, iperf3 64-byte UDP
# (`-u -b 0 -l 22`, the rate received), ping RTT (200 at 5 ms), and what the forwarder dropped. Medians, and the ratios
# of each to the forwarder's and to the bridge's.
# Part 2: a 3:1 incast of DSCP 10 datagrams (`trimswitch gen send`, hosts 0-2 as fast as they can) into host 3's port
# at 0.1 Gb/s: trimswitch with that port's rate and a 16-packet trimming queue, against the bridge with a tbf of
# 100 Mbit/s and about 16 packets on that port. The receiver counts datagrams whole, trimmed to their header, and lost.
# For the flood it also reports what the forwarder handed to the receiving host (its veth's frames sent) and what the
# receiving host's UDP socket then dropped: received = forwarded - the receiver's drops.
# PIN=1 gives the forwarder CPU 1 and the hosts CPU 0 (taskset), as a DPDK-style switch has a core of its own; without
# it the forwarder, both iperf3 and the kernel's softirqs share both cores as the scheduler likes.
# Needs root, gcc, iproute2, iputils-ping, iperf3, python3 and a built jar (./mvnw -B -q package -DskipTests).
#
#   [PIN=1] bench/hosts/interface_bench.sh [TRIALS [SECONDS]]   (from the repository root; default 3 trials of 5 s)
# Namespaces and veths by hand, not Mininet: its own host and link setup would change what these figures measure.
set -euo pipefail
. "$(dirname "$0")/common.sh" "$@"
MODES=${MODES:-"bridge forwarder trimswitch trimswitch-spin"}
TRIMSWITCH=${TRIMSWITCH:-"$PWD/cli/trimswitch"}
INCAST_PACKETS=${INCAST_PACKETS:-5000}
FORWARDER_CPU=""
HOSTS_CPU=""
case "${PIN:-0}" in 0|1) ;; *) echo "interface_bench: PIN must be 0 or 1, got '$PIN'" >&2; exit 2 ;; esac
if [ "${PIN:-0}" = 1 ]; then
    [ "$(nproc)" -ge 2 ] || { echo "interface_bench: PIN=1 needs 2 CPUs, this machine has $(nproc)" >&2; exit 2; }
    FORWARDER_CPU="taskset -c 1"
    HOSTS_CPU="taskset -c 0"
fi
TAG="ib$$"
SW="${TAG}sw"
WORK=$(mktemp -d)
FORWARDER=""

[ -f cli/target/trimswitch.jar ] || { echo "interface_bench: build first: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "interface_bench: needs root (network namespaces)" >&2; exit 2; }
for tool in gcc ip ping iperf3 python3 tc nstat ${HOSTS_CPU:+taskset}; do
    command -v "$tool" > /dev/null || { echo "interface_bench: needs $tool" >&2; exit 2; }
done
gcc -O2 -o "$WORK/afpacket_forwarder" bench/hosts/afpacket_forwarder.c

stop_forwarder() {
    stop_process
    ip -n "$SW" link del br0 2>/dev/null || true
    for i in 0 1 2 3; do
        ip -n "$SW" link set "${TAG}p$i" nomaster 2>/dev/null || true
        tc -n "$SW" qdisc del dev "${TAG}p$i" root 2>/dev/null || true
    done
}

cleanup() {
    set +e
    stop_forwarder
    remove_namespaces "${TAG}h0" "${TAG}h1" "${TAG}h2" "${TAG}h3" "$SW"
}
trap cleanup EXIT

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; $HOSTS_CPU ip netns exec "${TAG}h$host" "$@"; }

ip netns add "$SW"
in_sw ip link set lo up
for i in 0 1 2 3; do
    ip netns add "${TAG}h$i"
    in_host "$i" ip link set lo up
    ip link add "${TAG}p$i" netns "$SW" type veth peer name eth0 netns "${TAG}h$i"
    in_sw ip link set "${TAG}p$i" up
    in_host "$i" ip addr add "10.9.0.$((i + 1))/24" dev eth0
    in_host "$i" ip link set eth0 up
done

# Starts a forwarder in the switch's namespace; $2 is trimswitch's extra options (a config for the incast).
start_forwarder() {
    local mode=$1 extra=${2:-}
    case "$mode" in
        bridge)
            in_sw ip link add br0 type bridge
            for i in 0 1 2 3; do in_sw ip link set "${TAG}p$i" master br0; done
            in_sw ip link set br0 up
            return ;;
        forwarder)
            # Not through a function: the background job must be the forwarder itself, for the signal to reach it.
            $FORWARDER_CPU ip netns exec "$SW" "$WORK/afpacket_forwarder" "${TAG}p0" "${TAG}p1" > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$!
            # It says nothing once its sockets are open: it is up when its rings are in the kernel's table.
            for _ in $(seq 1 100); do
                [ "$(in_sw sh -c 'tail -n +2 /proc/net/packet | wc -l')" -ge 2 ] && return
                kill -0 "$FORWARDER" 2>/dev/null || break
                sleep 0.1
            done ;;
        trimswitch|trimswitch-poll|trimswitch-spin)
            local idle=""
            [ "$mode" = trimswitch-poll ] && idle="--idle poll"
            [ "$mode" = trimswitch-spin ] && idle="--idle busy-spin"
            $FORWARDER_CPU ip netns exec "$SW" $TRIMSWITCH run $idle --metrics 127.0.0.1:9465 $extra \
                -i "0@${TAG}p0" -i "1@${TAG}p1" -i "2@${TAG}p2" -i "3@${TAG}p3" > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$! ;;
    esac
    await_running "$mode"
}

# What the forwarder dropped so far: the switch's own count by reason; "-" for the others.
forwarder_drops() {
    case "$1" in
        trimswitch*) switch_drops in_sw $TRIMSWITCH ;;
        *) echo - ;;
    esac
}

# Frames the forwarder has handed to host 1 so far, and the datagrams host 1's UDP sockets dropped for want of room.
handed_to_host1() { in_sw cat "/sys/class/net/${TAG}p1/statistics/tx_packets"; }
host1_socket_drops() { ip netns exec "${TAG}h1" nstat -az UdpRcvbufErrors | awk '$1 == "UdpRcvbufErrors" { print $2 }'; }

# Around the flood: the frames handed to host 1 and the datagrams its sockets dropped, into $WORK/flood.txt.
flood_begins() { echo "$(handed_to_host1) $(host1_socket_drops)" > "$WORK/flood.txt"; }
flood_ends() {
    local handed socket_drops
    read -r handed socket_drops < "$WORK/flood.txt"
    echo "$(( $(handed_to_host1) - handed )) $(( $(host1_socket_drops) - socket_drops ))" > "$WORK/flood.txt"
}

# One trial of one forwarder: "mode", its trial_figures, then the frames handed to host 1 and its sockets' drops in the flood.
measure() {
    local mode=$1 figures
    start_forwarder "$mode"
    figures=$(traffic_trial "$mode" 0 1 10.9.0.2 200 22)
    stop_forwarder
    echo "$mode $figures $(cat "$WORK/flood.txt")"
}

run_trials "${PIN:+ (forwarder on CPU 1, hosts on CPU 0)}"

python3 - "$WORK/results.txt" <<'PY'
import sys
sys.path.insert(0, "bench/hosts")
import trials
rows = trials.load(sys.argv[1])
median = lambda mode, column: trials.median(rows, mode, column)
# Frames handed to the receiving host over the flood's seconds, in thousands a second.
for mode in rows:
    for row in rows[mode]:
        row.append(str(float(row[9]) / float(row[8]) / 1e3))
FORWARDED = 11
print()
print(f"{'forwarder':<17}{'TCP Gb/s':>10}{'retrans':>9}{'64 B kpps':>11}{'forwarded':>11}{'ping avg ms':>13}{'p99 ms':>9}"
      f"{'drops TCP/flood':>17}{'receiver drops':>16}")
for mode in rows:
    drops = "/".join(rows[mode][-1][6:8])
    print(f"{mode:<17}{median(mode, 0):>10.2f}{median(mode, 1):>9.0f}{median(mode, 2):>11.1f}{median(mode, FORWARDED):>11.1f}"
          f"{median(mode, 3):>13.4f}{median(mode, 5):>9.4f}{drops:>17}{median(mode, 10):>16.0f}")
for baseline in ("forwarder", "bridge"):
    if baseline not in rows:
        continue
    print(f"\nratios to the {baseline} (TCP and 64 B: higher is better; ping: the {baseline}'s RTT over this one's, higher is better)")
    for mode in rows:
        if mode == baseline:
            continue
        print(f"{mode:<17} TCP {median(mode, 0) / median(baseline, 0):.2f}x   64 B {median(mode, 2) / median(baseline, 2):.2f}x"
              f" (forwarded {median(mode, FORWARDED) / median(baseline, FORWARDED):.2f}x)   ping {median(baseline, 3) / median(mode, 3):.2f}x")
PY

echo
echo "interface_bench: 3:1 incast of $INCAST_PACKETS DSCP 10 datagrams per sender into host 3's 0.1 Gb/s port"
cat > "$WORK/incast.yaml" <<YAML
qos:
  queues:
    - {packets: 1024, discard: drop}
    - {packets: 16, discard: trim}
  dscpToTc: {10: 1}
ports:
  - {}
  - {}
  - {}
  - {rateGbps: 0.1}
YAML
incast() {
    local mode=$1
    if [ "$mode" = bridge ]; then
        start_forwarder bridge
        # About 16 full-size packets of queue behind a 100 Mbit/s link: what the trimming port has for data.
        in_sw tc qdisc add dev "${TAG}p3" root tbf rate 100mbit burst 16kb limit 24kb
    else
        start_forwarder trimswitch "--config $WORK/incast.yaml"
    fi
    for i in 0 1 2; do in_host "$i" ping -q -c 1 -W 2 10.9.0.4 > /dev/null; done
    in_host 3 $TRIMSWITCH gen receive --bind 10.9.0.4:666 --expect $((3 * INCAST_PACKETS)) --idle-s 3 --timeout-s 60 \
        --json "$WORK/received-$mode.json" > /dev/null 2>&1 &
    local receiver=$!
    sleep 0.5
    local senders=()
    for i in 0 1 2; do
        in_host "$i" $TRIMSWITCH gen send --to 10.9.0.4:666 --count "$INCAST_PACKETS" --rate 10000000 --flow "$i" > /dev/null 2>&1 &
        senders+=($!)
    done
    wait "${senders[@]}"
    wait "$receiver" || true
    local drops
    drops=$(forwarder_drops "$mode")
    stop_forwarder
    python3 - "$mode" "$WORK/received-$mode.json" "$INCAST_PACKETS" "$drops" <<'PY'
import json, sys
mode, path, packets, drops = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
received = json.load(open(path))
whole, trimmed = received["whole"], received["trimmed"]
lost = 3 * packets - whole - trimmed
print(f"{mode:<12} whole {whole:>6}   trimmed to a header {trimmed:>6}   lost {lost:>6} ({100 * lost / (3 * packets):.1f} %)"
      f"   forwarder's own drops: {drops}")
PY
}
incast bridge
incast trimswitch
