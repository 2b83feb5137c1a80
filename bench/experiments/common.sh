# Sourced by the experiment scripts, after they define log: the Python that draws the plots, ping's figures, the
# star of namespace hosts around a switch that the incast experiments build, and the helpers of the end-to-end tests
# (await, add_namespace, start_switch, stop_switch, cleanup).

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../../cli/src/test/sh/common.sh
. "$here/../../cli/src/test/sh/common.sh"
: "${TRIMSWITCH:=$here/../../cli/trimswitch}"

# PLOT_PYTHON: the first python3 that has matplotlib (Debian's python3-matplotlib installs it for /usr/bin/python3).
# Without one the script says what to install, before it builds anything.
need_matplotlib() {
    local py
    for py in ${PLOT_PYTHON:-} python3 /usr/bin/python3; do
        if "$py" -c 'import matplotlib' 2>/dev/null; then PLOT_PYTHON=$py; return 0; fi
    done
    echo "$(basename "$0"): needs matplotlib for its plot: apt-get install python3-matplotlib" >&2
    exit 2
}

# need_tools TOOL...: each must be on the PATH, or the script names the missing one's Debian package and exits 2.
need_tools() {
    local tool pkg
    for tool in "$@"; do
        command -v "$tool" > /dev/null && continue
        case "$tool" in
            ping) pkg=iputils-ping ;; ip) pkg=iproute2 ;; memcslap) pkg=libmemcached-tools ;; *) pkg=$tool ;;
        esac
        echo "$(basename "$0"): needs $tool: apt-get install $pkg" >&2
        exit 2
    done
}

# need_root: namespaces and veths need it.
need_root() { [ "$(id -u)" = 0 ] || { echo "$(basename "$0"): needs root (network namespaces, veths)" >&2; exit 2; }; }

# positive NAME VALUE: VALUE must be a positive number below 10^9, or exit 2 with one line.
positive() {
    [[ "$2" =~ ^[0-9]{1,9}([.][0-9]+)?$ ]] && [ "$(echo "$2" | tr -d '0.')" != "" ] || { echo "$(basename "$0"): $1 must be a positive number below 1000000000, not '$2'" >&2; exit 2; }
}

# whole NAME VALUE [MOST]: exits 2 with one line unless VALUE is a whole number from 1 to MOST (999999999).
whole() {
    local most=${3:-999999999}
    [[ "$2" =~ ^[1-9][0-9]{0,8}$ ]] && [ "$2" -le "$most" ] || { echo "$(basename "$0"): $1 must be a whole number from 1 to $most, not '$2'" >&2; exit 2; }
}

# exp1_settings: experiment 1's NDP settings, for ecmp_vs_spraying.sh and for live_vs_virtual.sh, which runs it: PACKETS
# (1000), SPRAY (64), WINDOW (30) and MTU (9000) from the environment, each refused in one line when out of range (at
# most what a host sprays over, and what virtual time's NDP flows hold: 16-bit sequence numbers). exp1_signature: what
# the runs depend on, which ecmp_vs_spraying.sh writes and live_vs_virtual.sh checks an earlier run's against.
exp1_settings() {
    PACKETS=${PACKETS:-1000}
    SPRAY=${SPRAY:-64}
    WINDOW=${WINDOW:-30}
    MTU=${MTU:-9000}
    whole WINDOW "$WINDOW"
    whole SPRAY "$SPRAY" 256
    whole PACKETS "$PACKETS" 65535
    whole MTU "$MTU" 9000
    [ "$MTU" -ge 1280 ] || { echo "$(basename "$0"): MTU must be 1280..9000, not $MTU" >&2; exit 2; }
}
exp1_signature() { echo "RATE=$RATE PACKETS=$PACKETS MTU=$MTU SPRAY=$SPRAY WINDOW=$WINDOW"; }

# The star the incast experiments build: the switch's namespace $SW, with port p a veth to host ${HOSTS[p]} (namespace
# $TAG<host>, address `addr <host>`, which the script defines). Offloads off on both ends: one MTU frame per packet, as
# on a NIC without them, so the queues count packets.
in_sw() { ip netns exec "$SW" "$@"; }
in_host() { local h=$1; shift; ip netns exec "$TAG$h" "$@"; }
build_star() {
    local port h
    add_namespace "$SW"
    for port in "${!HOSTS[@]}"; do
        h=${HOSTS[$port]}
        add_namespace "$TAG$h"
        ip link add "${TAG}p$port" netns "$SW" type veth peer name eth0 netns "$TAG$h"
        in_sw ip link set "${TAG}p$port" up
        in_host "$h" ip addr add "$(addr "$h")/24" dev eth0
        in_host "$h" ip link set eth0 up
        in_host "$h" ethtool -K eth0 tso off gso off gro off > /dev/null 2>&1 || true
        in_sw ethtool -K "${TAG}p$port" tso off gso off gro off > /dev/null 2>&1 || true
    done
}

# remove_star: the load's processes (LOAD, if set), then the switch and every namespace of the star (cleanup).
remove_star() {
    set +e
    local pid
    for pid in ${LOAD[@]+"${LOAD[@]}"}; do kill -TERM "$pid" 2>/dev/null; done
    cleanup
}

# start_star_switch NAME CONFIG: starts `trimswitch run` in the star's switch namespace with CONFIG and port p on the
# veth of host ${HOSTS[p]}, logging to $OUT/NAME-switch.log; sets SWITCH_PID, waits until the switch runs, and checks
# that every other host reaches the first one, ${HOSTS[0]}, at 10.9.0.1.
start_star_switch() {
    local name=$1 config=$2 h
    start_switch "$SW" "$OUT/$name-switch.log" "${#HOSTS[@]}" --config "$config" \
        $(for port in "${!HOSTS[@]}"; do printf -- '-i %d@%sp%d ' "$port" "$TAG" "$port"; done)
    for h in "${HOSTS[@]:1}"; do
        in_host "$h" ping -q -c 2 -i 0.2 -W 2 10.9.0.1 > /dev/null || { log "host $h cannot reach ${HOSTS[0]}" >&2; exit 1; }
    done
}
# first_port_tx: packets the star's switch has sent out of port 0, to ${HOSTS[0]}, so far.
first_port_tx() {
    in_sw $TRIMSWITCH stats --json | python3 -c 'import json,sys; print({p["port"]: p for p in json.load(sys.stdin)}[0]["txPackets"])'
}
# start_incast NAME TCP_SECONDS: the incast from hosts s1..s$SENDERS into ${HOSTS[0]} at 10.9.0.1, its processes in LOAD:
# for the baseline, iperf3 TCP for TCP_SECONDS; otherwise an NDP receiver (first in LOAD) pulling at RATE and senders on
# SENDER_RATE links sending for LOAD_S, 1514-byte frames. Returns once LOAD_WARMUP packets have left port 0 since.
start_incast() {
    local name=$1 tcp_seconds=$2 receiver="${TAG}${HOSTS[0]}" i from
    LOAD=()
    if [ "$name" = baseline ]; then
        for i in $(seq 1 "$SENDERS"); do ip netns exec "$receiver" iperf3 -s -D -1 -p $((5200 + i)); done
        for i in $(seq 1 "$SENDERS"); do await 10 "iperf3's server $i" tcp_listening "$receiver" $((5200 + i)); done
        for i in $(seq 1 "$SENDERS"); do
            ip netns exec "${TAG}s$i" iperf3 -c 10.9.0.1 -p $((5200 + i)) -t "$tcp_seconds" -J > "$OUT/$name-iperf$i.json" 2>&1 &
            LOAD+=($!)
        done
    else
        ip netns exec "$receiver" $TRIMSWITCH host --listen 10.9.0.1:666 --rate-gbps "$RATE" --payload-bytes 1450 \
            --expect-flows "$SENDERS" --timeout-s 60 --json "$OUT/$name-receiver.json" > "$OUT/$name-receiver.log" 2>&1 &
        LOAD+=($!)
        await 60 "the NDP receiver to bind" udp_bound "$receiver" 666
        for i in $(seq 1 "$SENDERS"); do
            ip netns exec "${TAG}s$i" $TRIMSWITCH host --connect 10.9.0.1:666 --duration-s "$LOAD_S" --rate-gbps "$SENDER_RATE" \
                --payload-bytes 1450 --rto-ms 50 --timeout-s 60 --json "$OUT/$name-sender$i.json" > "$OUT/$name-sender$i.log" 2>&1 &
            LOAD+=($!)
        done
    fi
    from=$(first_port_tx)
    await 120 "the incast to move $LOAD_WARMUP packets through ${HOSTS[0]}'s port" incast_flowing "$from"
}
incast_flowing() { [ "$(first_port_tx)" -ge $(($1 + LOAD_WARMUP)) ]; }
# under_load NAME COMMAND...: runs COMMAND between two reads of the switch's counters ($OUT/NAME-before.json and
# $OUT/NAME-after.json), and writes the instants around each read to $OUT/NAME-window.txt: the load's rate over COMMAND.
under_load() {
    local name=$1 window=()
    shift
    window+=("$(date +%s.%N)"); in_sw $TRIMSWITCH stats --json > "$OUT/$name-before.json"; window+=("$(date +%s.%N)")
    "$@"
    window+=("$(date +%s.%N)"); in_sw $TRIMSWITCH stats --json > "$OUT/$name-after.json"; window+=("$(date +%s.%N)")
    echo "${window[*]}" > "$OUT/$name-window.txt"
}
# start_in SECONDS: the wall-clock instant SECONDS from now, for the senders' --start-at: senders started one after
# another, each in a JVM of its own, then begin their flows together, as the simulator's do.
start_in() { date -d "+$1 seconds" +%s.%N; }
# late_starters LOG...: says which senders reached their --start-at too late (their JVMs took longer to start).
late_starters() {
    local file
    for file in "$@"; do
        if grep -q -- "--start-at was" "$file"; then log "$(basename "$file" .log) started late: $(grep -o -- "--start-at was [0-9.]* s ago" "$file")"; fi
    done
}
# warm_up RECEIVER SENDER ADDRESS PULL_GBPS [SPRAY [PAYLOAD]]: a 2-second NDP flow from host SENDER to host RECEIVER
# (at ADDRESS), unmeasured, in packets of PAYLOAD data bytes (1398; give the measured runs' size, so that the switches
# take the same paths), so that every live switch on its paths has compiled its dataplane before the measured runs, as
# the benchmarks warm theirs up: a switch just started runs its first packets interpreted, and a single NDP flow
# through it then takes 1.3 to 1.5 times as long (191 to 225 ms against 140 to 149 ms for 1000 packets at 0.1 Gb/s).
warm_up() {
    local receiver=$1 sender=$2 address=$3 rate=$4 spray=${5:-1} payload=${6:-1398} pid
    in_host "$receiver" $TRIMSWITCH host --listen "$address:666" --rate-gbps "$rate" --payload-bytes "$payload" --expect-flows 1 --timeout-s 20 \
        > /dev/null 2>&1 &
    pid=$!
    await 60 "the warm-up receiver to bind" udp_bound "$TAG$receiver" 666
    in_host "$sender" $TRIMSWITCH host --connect "$address:666" --duration-s 2 --rate-gbps 1 --spray "$spray" --payload-bytes "$payload" \
        --timeout-s 20 > /dev/null 2>&1 \
        || { log "the warm-up flow from $sender to $receiver failed" >&2; exit 1; }
    wait "$pid" || { log "the warm-up receiver on $receiver failed" >&2; exit 1; }
}
