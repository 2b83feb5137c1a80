#!/usr/bin/env bash
# Host-level benchmark of the live switch: two Linux hosts in network namespaces, each behind a vxlan
# interface, reach each other through one of
#   kernel      the kernel forwarding the same vxlan traffic (ip_forward between the veths): the host's limit
#   relay       bench/hosts/relay.c, one thread relaying the datagrams with recvmmsg/sendmmsg: the userspace limit
#   trimswitch  `trimswitch run`, two 100 Gb/s ports with the default queues, 1 busy-polling pipeline thread
#   trimswitch2 the same with 2 pipeline threads, one port each
#   trimswitch-block, trimswitch2-block: the same with `idle: block` (a thread with nothing inside sleeps in epoll_wait)
#   trimswitch-nogso: one thread, busy-spin, each datagram sent on its own (realtime.udpGso false), as the relay does
# and measures, alternating the forwarders trial by trial: iperf3 TCP throughput and retransmissions,
# iperf3 64-byte UDP forwarding rate, ping RTT p50/p99, and what the forwarder dropped during the TCP
# transfer and during the 64-byte flood (the switch's count by reason; for the relay, its sockets'
# overflows as the kernel counts them). Prints medians and the ratios to the relay. Needs root, gcc, iproute2, iputils-ping, ethtool, iperf3, python3 and a built jar.
#
#   bench/hosts/host_bench.sh [TRIALS [SECONDS]]        (from the repository root; default 3 trials of 5 s)
# Namespaces and veths by hand, not Mininet: its own host and link setup would change what these figures measure.
set -euo pipefail
. "$(dirname "$0")/common.sh" "$@"
MODES=${MODES:-"kernel relay trimswitch trimswitch-nogso trimswitch-block trimswitch2-block"}
JAR=${JAR:-cli/target/trimswitch.jar}
JAVA_OPTS=${JAVA_OPTS:-"--add-exports java.base/jdk.internal.misc=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"}
TAG="hb$$"
SW="${TAG}sw"
WORK=$(mktemp -d)
FORWARDER=""

[ -f "$JAR" ] || { echo "host_bench: build first: mvn -B -q package -DskipTests" >&2; exit 2; }
gcc -O2 -o "$WORK/relay" bench/hosts/relay.c

cleanup() {
    set +e
    stop_process
    remove_namespaces "${TAG}h1" "${TAG}h2" "$SW"
}
trap cleanup EXIT

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

ip netns add "$SW"
in_sw ip link set lo up
for i in 1 2; do
    ip netns add "${TAG}h$i"
    in_host "$i" ip link set lo up
    ip link add "${TAG}v$i" type veth peer name eth0 netns "${TAG}h$i"
    ip link set "${TAG}v$i" netns "$SW"
    in_sw ip addr add "172.31.$i.1/24" dev "${TAG}v$i"
    in_sw ip link set "${TAG}v$i" up
    in_host "$i" ip addr add "172.31.$i.2/24" dev eth0
    in_host "$i" ip link set eth0 up
    in_host "$i" ip route add 172.31.0.0/16 via "172.31.$i.1"
done
in_sw sysctl -qw net.ipv4.ip_forward=1

# Each host's vxlan interface: to the other host itself (kernel), or to its port on the forwarder.
tunnel() {
    local mode=$1
    for i in 1 2; do
        local other=$((3 - i))
        in_host "$i" ip link del vx0 2>/dev/null || true
        if [ "$mode" = kernel ]; then
            in_host "$i" ip link add vx0 type vxlan id 42 remote "172.31.$other.2" local "172.31.$i.2" dstport 4789 nolearning
        else
            in_host "$i" ip link add vx0 type vxlan id 42 remote "172.31.$i.1" local "172.31.$i.2" dstport $((4790 + i)) nolearning
        fi
        # 1450: a 1500-byte underlay less the 50 bytes of VXLAN, UDP, IPv4 and Ethernet headers.
        in_host "$i" ip link set vx0 mtu 1450
        in_host "$i" ip addr add "10.9.0.$i/24" dev vx0
        in_host "$i" ip link set vx0 up
        in_host "$i" ethtool -K vx0 tx off >/dev/null
    done
}

start_forwarder() {
    local mode=$1
    case "$mode" in
        kernel) return ;;
        relay)
            ip netns exec "$SW" "$WORK/relay" 172.31.1.1 4791 172.31.1.2 172.31.2.1 4792 172.31.2.2 > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$! ;;
        trimswitch*)
            local threads=1 idle=busy-spin
            case "$mode" in trimswitch2*) threads=2 ;; esac
            case "$mode" in *-block*) idle=block ;; esac
            local gso=true
            case "$mode" in *-nogso*) gso=false ;; esac
            cat > "$WORK/switch.yaml" <<YAML
fabric:
  pipelines: 2
  portsPerPipeline: 1
realtime:
  pipelineThreads: $threads
  idle: $idle
  udpGso: $gso
ports:
  - bind: 172.31.1.1:4791
    remote: 172.31.1.2:4791
  - bind: 172.31.2.1:4792
    remote: 172.31.2.2:4792
metrics:
  address: 127.0.0.1:9465
YAML
            # Not through a function: the background job must be the JVM itself, for the signal to reach it.
            ip netns exec "$SW" "$TRIMSWITCH_JAVA" $JAVA_OPTS -jar "$JAR" run --config "$WORK/switch.yaml" > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$! ;;
    esac
    await_running "$mode"
}

# What a userspace forwarder dropped so far: the switch's own count by reason (which includes its sockets'
# overflows), or for the relay its sockets' overflows as the kernel counts them; "-" for the kernel.
forwarder_drops() {
    local mode=$1
    case "$mode" in
        kernel) echo - ;;
        relay) in_sw python3 - <<'PY'
total = 0
for table in ("/proc/self/net/udp", "/proc/self/net/udp6"):
    for line in open(table).read().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) in (4791, 4792):
            total += int(fields[-1])
print(total)
PY
            ;;
        *) switch_drops in_sw "$TRIMSWITCH_JAVA" $JAVA_OPTS -jar "$JAR" ;;
    esac
}

# One trial of one forwarder: "mode" and its trial_figures
measure() {
    local mode=$1 figures
    tunnel "$mode"
    start_forwarder "$mode"
    figures=$(traffic_trial "$mode" 1 2 10.9.0.2 300 64)
    stop_process
    echo "$mode $figures"
}

run_trials

python3 - "$WORK/results.txt" <<'PY'
import sys
sys.path.insert(0, "bench/hosts")
import trials
rows = trials.load(sys.argv[1])
med = lambda mode, column: trials.median(rows, mode, column)
print()
print(f"{'forwarder':<18} {'TCP Gb/s':>9} {'retransmits':>12} {'64 B UDP kpps':>14} {'ping p50 ms':>12} {'ping p99 ms':>12} {'drops in TCP':>13} {'drops in flood':>15}")
for mode in rows:
    tcp_drops = "-" if rows[mode][0][6] == "-" else str(int(med(mode, 6)))
    flood_drops = "-" if rows[mode][0][7] == "-" else str(int(med(mode, 7)))
    print(f"{mode:<18} {med(mode, 0):>9.3f} {int(med(mode, 1)):>12} {med(mode, 2):>14.1f} {med(mode, 4):>12.3f} {med(mode, 5):>12.3f} {tcp_drops:>13} {flood_drops:>15}")
if "relay" in rows:
    print()
    for mode in rows:
        if mode.startswith("trimswitch"):
            print(f"{mode} / relay: TCP {med(mode, 0) / med('relay', 0):.2f}, 64 B UDP {med(mode, 2) / med('relay', 2):.2f}, "
                  f"ping p50 {med(mode, 4) / med('relay', 4):.2f} (goals: >= 0.9, >= 0.8, <= 1.5)")
    if "kernel" in rows:
        print(f"relay / kernel: TCP {med('relay', 0) / med('kernel', 0):.2f}, 64 B UDP {med('relay', 2) / med('kernel', 2):.2f}")
PY
