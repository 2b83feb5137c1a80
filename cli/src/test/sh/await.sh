# Sourced by the end-to-end scripts, after they define log: waiting for a condition, never for a fixed time, which is
# too long on a fast host and too short on a slow one.

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
