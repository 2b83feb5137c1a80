# Sourced by the end-to-end scripts (and bench/experiments/common.sh), after they define log: waiting for a condition,
# never for a fixed time, which is too long on a fast host and too short on a slow one; starting and stopping switches;
# and removing whatever a script made, whatever happened.

# await SECONDS WHAT CHECK...: runs CHECK every tenth of a second until it succeeds. When SECONDS pass first, the host
# was too slow for WHAT: says so and exits 3, which the Java test reports as skipped, not failed.
await() {
    local seconds=$1 what=$2
    shift 2
    for _ in $(seq 1 $((seconds * 10))); do
        "$@" && return 0
        sleep 0.1
    done
    log "host too slow: $what within $seconds s"
    exit 3
}

# Whether something in namespace NS listens on TCP PORT.
tcp_listening() { [ -n "$(ip netns exec "$1" ss -Hltn "sport = :$2")" ]; }
# Whether something in namespace NS has bound UDP PORT.
udp_bound() { [ -n "$(ip netns exec "$1" ss -Hlun "sport = :$2")" ]; }
# Whether namespace NS has at least COUNT established TCP connections to PORT.
tcp_connected() { [ "$(ip netns exec "$1" ss -Htn state established "dport = :$2" | wc -l)" -ge "$3" ]; }
# Whether background job PID still runs; when it has exited, shows its LOG and stops the script: a failure, not slowness.
still_running() { kill -0 "$1" 2>/dev/null || { cat "$2"; log "$3 exited" >&2; exit 1; }; }

# remove_namespaces NS...: ends every process in each namespace, then the namespace (with its veths); quiet about ones
# already gone, so that a cleanup trap can call it whatever happened.
remove_namespaces() {
    local ns inode
    for ns in "$@"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
        # What switches there left behind: their folder of interface locks and, if one was killed, its counters and socket.
        inode=$(ip netns exec "$ns" readlink /proc/self/ns/net 2>/dev/null | tr -dc 0-9)
        if [ -n "$inode" ]; then
            rm -rf "/run/trimswitch/$inode" "/dev/shm/trimswitch-$inode.counters" "/run/trimswitch/trimswitch-$inode.ctl" \
                "/run/trimswitch/trimswitch-$inode.ctl.lock"
        fi
        ip netns del "$ns" 2>/dev/null
    done
    return 0
}

# A script lists what it makes as it makes it, and `trap cleanup EXIT` removes that whatever happens: WORK, its scratch
# folder (on a failure, every *.log in it is shown first); SWITCH_PIDS, the switches it started in the background
# (stopped with SIGTERM, so that each removes its counters file); NAMESPACES, every namespace (full names).
WORK=""
SWITCH_PIDS=()
NAMESPACES=()
cleanup() {
    local status=$? pid file
    set +e
    if [ "$status" != 0 ] && [ -n "$WORK" ]; then
        for file in "$WORK"/*.log; do
            [ -f "$file" ] && { log "$(basename "$file"):"; cat "$file"; }
        done
    fi
    for pid in "${SWITCH_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    remove_namespaces "${NAMESPACES[@]}"
    [ -z "$WORK" ] || rm -rf "$WORK"
}

# add_namespace NS: a new network namespace, its loopback up, that cleanup removes.
add_namespace() {
    NAMESPACES+=("$1")
    ip netns add "$1"
    ip netns exec "$1" ip link set lo up
}

# wire_host SW HOST PORT ADDRESS: a veth from switch namespace SW, its end named PORT and up, to HOST's eth0, up, with
# ADDRESS/24: a host wired straight to a switch port.
wire_host() {
    ip link add "$3" netns "$1" type veth peer name eth0 netns "$2"
    ip -n "$1" link set "$3" up
    ip -n "$2" addr add "$4/24" dev eth0
    ip -n "$2" link set eth0 up
}

# ping_every_pair NS=ADDRESS...: every host pings every other one twice; stops the script at the first that cannot.
ping_every_pair() {
    local from to
    for from in "$@"; do
        for to in "$@"; do
            [ "$from" = "$to" ] && continue
            ip netns exec "${from%%=*}" ping -q -c 2 -i 0.2 -W 2 "${to#*=}" > /dev/null \
                || { log "${from%%=*} cannot ping ${to#*=}" >&2; exit 1; }
        done
    done
}

# await_switch PID LOG PORTS: waits up to 20 s for the switch PID to say in LOG that it runs PORTS ports; when it exits
# first or the time passes, shows LOG and stops the script: a switch that does not start is a failure.
await_switch() {
    local pid=$1 log=$2 ports=$3
    for _ in $(seq 1 200); do
        grep -q "running $ports ports" "$log" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$log"; log "the switch did not start" >&2; exit 1; }
        sleep 0.1
    done
    cat "$log"
    log "the switch did not start in 20 s" >&2
    exit 1
}

# launch_switch NS LOG ARGS...: `trimswitch run ARGS` in namespace NS, in the background, logging to LOG; its pid in
# SWITCH_PID (and in SWITCH_PIDS, for cleanup). start_switch NS LOG PORTS ARGS... also waits until it runs PORTS ports.
launch_switch() {
    local ns=$1 log=$2
    shift 2
    # A simple command in the background: its pid is the switch's own, so that SIGTERM reaches the switch.
    ip netns exec "$ns" $TRIMSWITCH run "$@" > "$log" 2>&1 &
    SWITCH_PID=$!
    SWITCH_PIDS+=("$SWITCH_PID")
}
start_switch() {
    local ns=$1 log=$2 ports=$3
    shift 3
    launch_switch "$ns" "$log" "$@"
    await_switch "$SWITCH_PID" "$log" "$ports"
}

# stop_switch PID LOG: stops the switch with SIGTERM and checks that it shut down cleanly: exit 0, or 128 + 15 from a JVM
# that ran its shutdown to the end, and its last word in LOG.
stop_switch() {
    local pid=$1 log=$2 status=0 other kept=()
    kill -TERM "$pid"
    wait "$pid" || status=$?
    for other in "${SWITCH_PIDS[@]}"; do [ "$other" = "$pid" ] || kept+=("$other"); done
    SWITCH_PIDS=("${kept[@]}")
    [ "$status" = 0 ] || [ "$status" = 143 ] || { log "the switch exited with $status on SIGTERM" >&2; cat "$log"; exit 1; }
    tail -1 "$log"
    grep -q "stopped;" "$log" || { log "no clean stop in the switch's log" >&2; exit 1; }
}
