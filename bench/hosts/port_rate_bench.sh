#!/usr/bin/env bash
# What each kind of port forwards and what a frame costs it, with a generator faster than the forwarders: host 0 and
# host 1 in network namespaces, each wired by a veth to a third namespace with the two ports, and in it one of
#   direct          no forwarder: the sink counts on port 0's veth itself (what the generator and a veth give)
#   bridge          the Linux bridge over the two veths (the kernel forwards in the sender's softirq)
#   afpacket        bench/hosts/afpacket_forwarder.c: TPACKET_V2 rings, sendmmsg, poll() when idle
#   afxdp           bench/hosts/xdp_forwarder.c: AF_XDP on both veths over one UMEM, poll() when idle
#   trimswitch      `trimswitch run -i 0@... -i 1@...` on af_packet ports, the default idle mode (poll)
#   trimswitch-xdp  the same on af_xdp ports ("n/a" where the build has no such kind)
#   baseline, baseline-xdp   the same two of another build (BASELINE=/other/checkout/cli/trimswitch), alternating with
#                   this one's in the same run: a change's before and after side by side
# Per round, forwarders alternating: UDP frames of SIZE bytes (60: 64 on a wire) from bench/hosts/xdp_generator.c on
# host 0 for SECONDS, as fast as it can and then at each of RATES frames a second, counted by bench/hosts/xdp_sink.c
# on host 1; then iperf3 TCP (one stream) and 200 pings at 5 ms from host 0 to host 1, with the sink stopped, as the
# hosts send by default and again with their checksum offload off (`ethtool -K eth0 tx off`: they then fill their
# checksums themselves and send no 64 KB frames, which no AF_XDP port takes, so the kinds compare like with like). For each
# load: what the generator sent, what the veth handed to port 0 and refused, what left port 1 (forwarded), what the
# sink got, the forwarder's CPU (user + system of its process, /proc/PID/stat) per forwarded frame, and for trimswitch
# its own drops by reason (`stats --json`), so that every frame lost is either refused by the veth or counted.
# Needs root, gcc, libxdp-dev, libbpf-dev, iproute2, iputils-ping, iperf3, python3 and a built jar.
#
#   bench/hosts/port_rate_bench.sh [ROUNDS [SECONDS]]   (from the repository root; default 3 rounds of 5 s a load)
#   MODES="afxdp trimswitch" RATES="100000" SIZE=60 TRIMSWITCH=/other/checkout/cli/trimswitch bench/hosts/...
#   MODES="trimswitch trimswitch-xdp baseline baseline-xdp" BASELINE=/tmp/before/cli/trimswitch bench/hosts/...
#   SWITCH_ARGS="--idle busy-spin"   more options for every trimswitch mode
#   PERF=100000 PERF_OUT=DIR          where the time goes: `perf record -g` of each forwarder during that load, its
#                                     hottest symbols (the switch's compiled Java methods by name) in DIR/MODE-HHMMSS.txt
set -euo pipefail
. "$(dirname "$0")/common.sh" "$@"
MODES=${MODES:-"direct bridge afpacket afxdp trimswitch trimswitch-xdp"}
RATES=${RATES:-"50000 100000"}
SIZE=${SIZE:-60}
TRIMSWITCH=${TRIMSWITCH:-"$PWD/cli/trimswitch"}
SWITCH_ARGS=${SWITCH_ARGS:-}
BASELINE=${BASELINE:-}
PERF=${PERF:-}
PERF_OUT=${PERF_OUT:-}
# With PERF, the JVM writes where it compiled each method (/tmp/perf-PID.map) as it exits, for perf report.
JVM_PROFILE=()
[ -n "$PERF" ] && JVM_PROFILE=(JAVA_TOOL_OPTIONS="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit")
TAG="prb$$"
SW="${TAG}sw"
WORK=""
FORWARDER=""
SINK=""
HZ=$(getconf CLK_TCK)

[[ "$SIZE" =~ ^[0-9]+$ ]] && [ "$SIZE" -ge 60 ] && [ "$SIZE" -le 1514 ] \
    || { echo "port_rate_bench: SIZE must be 60 to 1514 bytes, got '$SIZE'" >&2; exit 2; }
for mode in $MODES; do
    case "$mode" in
        direct|bridge|afpacket|afxdp|trimswitch|trimswitch-xdp) ;;
        baseline|baseline-xdp)
            [ -f "$(dirname "$BASELINE")/target/trimswitch.jar" ] \
                || { echo "port_rate_bench: $mode needs BASELINE, another build's cli/trimswitch with its jar, got '$BASELINE'" >&2; exit 2; } ;;
        *) echo "port_rate_bench: MODES are direct bridge afpacket afxdp trimswitch trimswitch-xdp baseline baseline-xdp, got '$mode'" >&2
           exit 2 ;;
    esac
done
for rate in $RATES; do
    [[ "$rate" =~ ^[1-9][0-9]*$ ]] || { echo "port_rate_bench: RATES must be whole frames a second, got '$rate'" >&2; exit 2; }
done
[ -f "$(dirname "$TRIMSWITCH")/target/trimswitch.jar" ] \
    || { echo "port_rate_bench: build first: ./mvnw -B -q package -DskipTests (no jar beside $TRIMSWITCH)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "port_rate_bench: needs root (network namespaces)" >&2; exit 2; }
if [ -n "$PERF" ]; then
    [[ "$PERF" =~ ^[1-9][0-9]*$|^max$ ]] && [[ " max $RATES " == *" $PERF "* ]] \
        || { echo "port_rate_bench: PERF must be one of the loads (max $RATES), got '$PERF'" >&2; exit 2; }
    [ -n "$PERF_OUT" ] && mkdir -p "$PERF_OUT" || { echo "port_rate_bench: PERF needs PERF_OUT, a folder for the profiles" >&2; exit 2; }
    command -v perf > /dev/null || { echo "port_rate_bench: PERF needs perf (Debian linux-perf)" >&2; exit 2; }
fi
for tool in gcc ip ping iperf3 python3 ethtool; do
    command -v "$tool" > /dev/null || { echo "port_rate_bench: needs $tool" >&2; exit 2; }
done

# The switch on its two ports, of kind $1 (af_packet or af_xdp): the one place that spells how a port kind is chosen.
trimswitch_ports() {
    case "$1" in
        af_packet) echo "-i 0@${TAG}p0 -i 1@${TAG}p1" ;;
        af_xdp) echo "-i 0@${TAG}p0:af_xdp -i 1@${TAG}p1:af_xdp" ;;
    esac
}
# The build a switch mode runs: this one, or BASELINE for the baseline modes.
switch_of() {
    if [[ "$1" == baseline* ]]; then echo "$BASELINE"; else echo "$TRIMSWITCH"; fi
}
# Whether this build has af_xdp ports: its `run --help` names the kind.
XDP_SWITCH=no
"$TRIMSWITCH" run --help 2>&1 | grep -q 'af_xdp' && XDP_SWITCH=yes

stop_sink() {
    if [ -n "$SINK" ]; then
        kill -TERM "$SINK" 2>/dev/null || true
        wait "$SINK" 2>/dev/null || true
        SINK=""
    fi
}
# AF_XDP carries no checksum-offload header: behind it the hosts must fill their TCP and UDP checksums themselves.
host_checksums() {
    for i in 0 1; do in_host "$i" ethtool -K eth0 tx "$1" > /dev/null; done
}
stop_forwarder() {
    stop_process
    host_checksums on
    ip -n "$SW" link del br0 2>/dev/null || true
    ip -n "$SW" addr flush dev "${TAG}p0" 2>/dev/null || true
}
cleanup() {
    set +e
    stop_sink
    stop_forwarder
    remove_namespaces "${TAG}h0" "${TAG}h1" "$SW"
}
trap cleanup EXIT
WORK=$(mktemp -d)
gcc -O2 -o "$WORK/afpacket_forwarder" bench/hosts/afpacket_forwarder.c
for program in xdp_generator xdp_sink xdp_forwarder; do
    gcc -O2 -o "$WORK/$program" "bench/hosts/$program.c" -lxdp -lbpf -lpthread
done

in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local host=$1; shift; ip netns exec "${TAG}h$host" "$@"; }

ip netns add "$SW"
in_sw ip link set lo up
in_sw sysctl -qw net.ipv6.conf.all.disable_ipv6=1
for i in 0 1; do
    ip netns add "${TAG}h$i"
    in_host "$i" ip link set lo up
    in_host "$i" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
    ip link add "${TAG}p$i" netns "$SW" type veth peer name eth0 netns "${TAG}h$i"
    in_sw ip link set "${TAG}p$i" up
    in_host "$i" ip addr add "10.9.0.$((i + 1))/24" dev eth0
    in_host "$i" ip link set eth0 up
done
MAC0=$(in_sw cat "/sys/class/net/${TAG}p0/address")
MAC1=$(in_host 1 cat /sys/class/net/eth0/address)

start_forwarder() {
    local mode=$1
    case "$mode" in
        direct)
            in_sw ip addr add 10.9.0.3/24 dev "${TAG}p0"
            return ;;
        bridge)
            in_sw ip link add br0 type bridge
            for i in 0 1; do in_sw ip link set "${TAG}p$i" master br0; done
            in_sw ip link set br0 up
            return ;;
        afpacket)
            # Not through a function: the background job must be the forwarder itself, for its PID and its signal.
            ip netns exec "$SW" "$WORK/afpacket_forwarder" "${TAG}p0" "${TAG}p1" > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$!
            for _ in $(seq 1 100); do
                [ "$(in_sw sh -c 'tail -n +2 /proc/net/packet | wc -l')" -ge 2 ] && echo running >> "$WORK/forwarder.log" && break
                sleep 0.1
            done ;;
        afxdp)
            host_checksums off
            ip netns exec "$SW" "$WORK/xdp_forwarder" "${TAG}p0" "${TAG}p1" > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$! ;;
        trimswitch|trimswitch-xdp|baseline|baseline-xdp)
            local kind=af_packet
            [[ "$mode" == *-xdp ]] && kind=af_xdp && host_checksums off
            ip netns exec "$SW" env "${JVM_PROFILE[@]}" \
                "$(switch_of "$mode")" run --metrics off $SWITCH_ARGS $(trimswitch_ports "$kind") > "$WORK/forwarder.log" 2>&1 &
            FORWARDER=$!
            # A port kind the kernel refuses here says why in one line: the run goes on without it.
            if [ "$kind" = af_xdp ]; then
                for _ in $(seq 1 100); do
                    grep -q "running" "$WORK/forwarder.log" 2>/dev/null && return
                    kill -0 "$FORWARDER" 2>/dev/null || break
                    sleep 0.1
                done
                echo "port_rate_bench: trimswitch on af_xdp did not start, left out: $(tail -1 "$WORK/forwarder.log")" >&2
                stop_forwarder
                return 1
            fi ;;
    esac
    await_running "$mode"
}

# The sink on host 1 (on port 0's veth itself for direct); waits until it runs.
start_sink() {
    if [ "$1" = direct ]; then
        ip netns exec "$SW" "$WORK/xdp_sink" "${TAG}p0" > "$WORK/sink.out" 2> "$WORK/sink.log" &
    else
        ip netns exec "${TAG}h1" "$WORK/xdp_sink" eth0 > "$WORK/sink.out" 2> "$WORK/sink.log" &
    fi
    SINK=$!
    for _ in $(seq 1 100); do
        grep -q running "$WORK/sink.log" && return
        kill -0 "$SINK" 2>/dev/null || break
        sleep 0.1
    done
    cat "$WORK/sink.log" >&2
    echo "port_rate_bench: the sink did not start" >&2
    exit 1
}
# What the sink received so far, and what its socket dropped (ring full or no frame to fill).
sink_counts() {
    local lines
    lines=$(grep -c '^received' "$WORK/sink.out" || true)
    kill -USR1 "$SINK"
    for _ in $(seq 1 50); do
        [ "$(grep -c '^received' "$WORK/sink.out" || true)" -gt "$lines" ] && break
        sleep 0.02
    done
    grep '^received' "$WORK/sink.out" | tail -1 | awk '{print $2, $5 + $7}'
}

# The counters a load is measured by, in one line: host 0's veth sent and refused, port 1 sent, the forwarder's CPU
# ticks, the switch's drops by reason, the sink's received and dropped.
counters() {
    local mode=$1 ticks=- drops=-
    [ -n "$FORWARDER" ] && ticks=$(awk '{print $14 + $15}' "/proc/$FORWARDER/stat")
    if [[ "$mode" == trimswitch* || "$mode" == baseline* ]]; then
        in_sw "$(switch_of "$mode")" stats --json > "$WORK/stats.json"
        drops=$(python3 -c '
import collections, json, sys
drops = collections.Counter()
for port in json.load(open(sys.argv[1])):
    drops.update(port.get("drops", {}))
print(",".join(f"{reason}={count}" for reason, count in sorted(drops.items())) or "none")' "$WORK/stats.json")
    fi
    echo "$(in_host 0 cat /sys/class/net/eth0/statistics/tx_packets) $(in_host 0 cat /sys/class/net/eth0/statistics/tx_dropped)" \
        "$(in_sw cat "/sys/class/net/${TAG}p1/statistics/tx_packets") $ticks $drops $(sink_counts)"
}

# One load through the running forwarder: the generator at $2 frames a second (max: as fast as it can). Prints
# "MODE@LOAD sent seconds handed refused forwarded received sink_drops cpu_us_per_frame switch_drops_before after".
load() {
    local mode=$1 rate=$2 before after generated
    before=$(counters "$mode")
    if [ "$rate" = "$PERF" ] && [ "$mode" != direct ] && [ "$mode" != bridge ]; then
        perf record -q -F 499 -g -p "$FORWARDER" -o "$WORK/$mode.perf" -- sleep "$SECS" > /dev/null 2>&1 &
    fi
    generated=$(in_host 0 "$WORK/xdp_generator" eth0 "$MAC1" --size "$SIZE" --seconds "$SECS" \
        $([ "$rate" = max ] || echo "--rate $rate") 2> "$WORK/generator.log")
    sleep 0.3
    after=$(counters "$mode")
    python3 - "$mode@$rate" "$HZ" "$generated" "$before" "$after" <<'PY'
import sys
name, hz, generated, before, after = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split(), sys.argv[5].split()
sent, seconds = int(generated[1]), float(generated[4])
delta = lambda i: int(after[i]) - int(before[i])
handed, refused, received, sink_drops = delta(0), delta(1), delta(5), delta(6)
direct = name.startswith("direct")
forwarded = received if direct else delta(2)
cpu = "-" if before[3] == "-" or forwarded == 0 else f"{delta(3) / hz * 1e6 / forwarded:.2f}"
print(name, sent, seconds, handed, refused, forwarded, received, sink_drops, cpu, before[4], after[4])
PY
}

# TCP and ping from host 0 to host 1 (to port 0's own address for direct, which host 0 must not mistake for host 1's):
# "MODE@$2 gbps retransmits ping_p50_ms".
tcp_ping() {
    local mode=$1 label=$2 address=10.9.0.2
    [ "$mode" = direct ] && address=10.9.0.3
    in_host 0 ping -q -c 3 -i 0.2 -W 2 "$address" > /dev/null || { echo "port_rate_bench: $mode: no ping" >&2; exit 1; }
    rm -f "$WORK/iperf3.pid"
    if [ "$mode" = direct ]; then
        in_sw iperf3 -s -D -1 -p 5201 --pidfile "$WORK/iperf3.pid"
    else
        in_host 1 iperf3 -s -D -1 -p 5201 --pidfile "$WORK/iperf3.pid"
    fi
    sleep 0.3
    in_host 0 iperf3 -c "$address" -p 5201 -t "$SECS" -J > "$WORK/tcp.json" || true
    kill "$(cat "$WORK/iperf3.pid" 2>/dev/null)" 2>/dev/null || true
    in_host 0 ping -c 200 -i 0.005 -W 1 "$address" > "$WORK/ping.txt" || true
    python3 - "$mode@$label" "$WORK/tcp.json" "$WORK/ping.txt" <<'PY'
import json, re, sys
name, tcp_path, ping_path = sys.argv[1:4]
try:
    tcp = json.load(open(tcp_path))["end"]
    gbps, retransmits = f"{tcp['sum_received']['bits_per_second'] / 1e9:.3f}", tcp["sum_sent"].get("retransmits", 0)
except (ValueError, KeyError):
    gbps, retransmits = "0", "-"
rtts = sorted(float(m) for m in re.findall(r"time=([0-9.]+) ms", open(ping_path).read()))
print(name, gbps, retransmits, f"{rtts[len(rtts) // 2]:.4f}" if rtts else "nan")
PY
}

measure() {
    local mode=$1
    if [ "$mode" = trimswitch-xdp ] && [ "$XDP_SWITCH" = no ]; then
        return
    fi
    start_forwarder "$mode" || return 0
    start_sink "$mode"
    # Warm-up: the sink's and forwarder's paths (the switch's JIT) run before anything is measured.
    in_host 0 "$WORK/xdp_generator" eth0 "$MAC1" --size "$SIZE" --rate 50000 --seconds 2 > /dev/null 2>&1
    for rate in max $RATES; do
        load "$mode" "$rate"
    done
    stop_sink
    # TCP as the hosts send it (64 KB offload frames where the ports take them; the C AF_XDP forwarder completes no
    # checksum a host left to offload, nor did af_xdp ports before they marked them), then with their checksum offload
    # off, which every forwarder takes: the kinds compare like with like on the second.
    [ "$mode" = afxdp ] || [ "$mode" = baseline-xdp ] || tcp_ping "$mode" tcp
    host_checksums off
    tcp_ping "$mode" tcpoff
    local profiled=$FORWARDER
    stop_forwarder
    if [ -f "$WORK/$mode.perf" ]; then
        wait
        perf report -i "$WORK/$mode.perf" --no-children --sort sym --stdio 2> /dev/null | grep -v '^#' | grep '%' \
            | grep -v -- '--' | head -40 > "$PERF_OUT/$mode-$(date +%H%M%S).txt" || true   # head ends the pipe early
        rm -f "$WORK/$mode.perf" "/tmp/perf-$profiled.map"
    fi
}

echo "port_rate_bench: load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
run_trials " (generator: $SIZE-byte frames; loads: max $RATES frames/s; switch af_xdp: $XDP_SWITCH)"
grep -h "mode" "$WORK/generator.log" >&2 || true
echo "port_rate_bench: load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/hosts/port_rate_table.py "$WORK/results.txt" "$MODES" "$RATES" "$XDP_SWITCH"
