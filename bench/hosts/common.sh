# What the host-level benchmarks share: sourced as `. bench/hosts/common.sh "$@"` by host_bench.sh and
# interface_bench.sh, it moves to the repository root, finds the JDK (TRIMSWITCH_JAVA), reads [TRIALS [SECONDS]], and
# gives stopping the forwarder, waiting for it to start, deleting the namespaces, the switch's own drops, one trial's
# traffic and figures, and the trials alternating. The script sets WORK (its scratch folder) and FORWARDER (the PID of
# the forwarder it started in the background, or empty).

NAME=$(basename "$0" .sh)

# TRIALS and SECS from the script's arguments [TRIALS [SECONDS]], 3 trials of 5 s unless given.
read_trials() {
    TRIALS=${1:-3}
    SECS=${2:-5}
    [[ "$TRIALS" =~ ^[1-9][0-9]*$ ]] || { echo "$NAME: TRIALS must be a whole number of at least 1, got '$TRIALS'" >&2; exit 2; }
    [[ "$SECS" =~ ^[1-9][0-9]*$ ]] || { echo "$NAME: SECONDS must be a whole number of at least 1, got '$SECS'" >&2; exit 2; }
}

# Ends the forwarder started in the background, if any, and waits for it.
stop_process() {
    if [ -n "$FORWARDER" ]; then
        kill -TERM "$FORWARDER" 2>/dev/null || true
        wait "$FORWARDER" 2>/dev/null || true
        FORWARDER=""
    fi
}

# Waits until the forwarder's log says it is running; ends the script if it stopped or took 10 s.
await_running() {
    local mode=$1
    for _ in $(seq 1 100); do
        grep -q "running" "$WORK/forwarder.log" 2>/dev/null && return
        kill -0 "$FORWARDER" 2>/dev/null || break
        sleep 0.1
    done
    cat "$WORK/forwarder.log" >&2
    echo "$NAME: $mode did not start" >&2
    exit 1
}

# Deletes the namespaces named, and everything still running in them (by PID), and the scratch folder.
remove_namespaces() {
    for ns in "$@"; do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$WORK"
}

# What the switch dropped so far by its own count (every reason, every port): the command given runs `stats --json`.
switch_drops() {
    "$@" stats --json > "$WORK/stats.json"
    python3 - "$NAME" "$WORK/stats.json" <<'PY'
import json, sys
name, path = sys.argv[1:3]
ports = json.load(open(path))
for port in ports:
    if port.get("drops"):
        print(f"{name}: port {port['port']} dropped {port['drops']}", file=sys.stderr)
print(sum(sum(port.get("drops", {}).values()) for port in ports))
PY
}

# One trial's figures from its files in $WORK (tcp.json, udp.json, ping.txt) and the drop counts before, after the TCP
# transfer and after the flood: "tcp_gbps retransmits udp_kpps ping_avg_ms ping_p50_ms ping_p99_ms tcp_drops flood_drops".
trial_figures() {
    python3 - "$WORK" "$@" <<'PY'
import json, re, sys
work, before, after_tcp, after_flood = sys.argv[1:5]
tcp = json.load(open(f"{work}/tcp.json"))["end"]
udp = json.load(open(f"{work}/udp.json"))["end"]
udp_sum = udp.get("sum_received") if "packets" in udp.get("sum_received", {}) else udp["sum"]
received = udp_sum["packets"] - udp_sum.get("lost_packets", 0)
rtts = sorted(float(m) for m in re.findall(r"time=([0-9.]+) ms", open(f"{work}/ping.txt").read()))
avg = sum(rtts) / len(rtts) if rtts else float("nan")
pct = lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))] if rtts else float("nan")
drops = (lambda a, b: "-" if "-" in (a, b) else str(int(b) - int(a)))
print(f"{tcp['sum_received']['bits_per_second'] / 1e9:.3f}", tcp["sum_sent"].get("retransmits", 0),
      f"{received / udp_sum['seconds'] / 1e3:.1f}", f"{avg:.4f}", f"{pct(0.5):.4f}", f"{pct(0.99):.4f}",
      drops(before, after_tcp), drops(after_tcp, after_flood), f"{udp_sum['seconds']}")
PY
}

# A trial's traffic through the running forwarder, from host $2 to host $3 at address $4 (iperf3's server there):
# a warm-up, $5 pings, a TCP transfer and a flood of $6-byte UDP datagrams, with the forwarder's drops
# (forwarder_drops MODE) before, between and after; prints its trial_figures. Around the flood it calls flood_begins and
# flood_ends, which a script may define to take counts of its own.
traffic_trial() {
    local mode=$1 client=$2 server=$3 address=$4 pings=$5 datagram=$6
    in_host "$client" ping -q -c 3 -i 0.2 -W 2 "$address" > /dev/null || { echo "$NAME: $mode: no ping" >&2; exit 1; }
    in_host "$server" iperf3 -s -D -p 5201 --pidfile "$WORK/iperf3.pid"
    sleep 0.3
    # Warm-up: the JIT compiles the switch's paths before anything is measured.
    in_host "$client" iperf3 -c "$address" -p 5201 -t 2 > /dev/null
    in_host "$client" iperf3 -c "$address" -p 5201 -u -l "$datagram" -b 0 -t 1 > /dev/null
    local before after_tcp after_flood
    before=$(forwarder_drops "$mode")
    in_host "$client" ping -c "$pings" -i 0.005 -W 1 "$address" > "$WORK/ping.txt" || true
    in_host "$client" iperf3 -c "$address" -p 5201 -t "$SECS" -J > "$WORK/tcp.json"
    after_tcp=$(forwarder_drops "$mode")
    flood_begins
    in_host "$client" iperf3 -c "$address" -p 5201 -u -l "$datagram" -b 0 -t "$SECS" -J > "$WORK/udp.json"
    flood_ends
    after_flood=$(forwarder_drops "$mode")
    kill "$(cat "$WORK/iperf3.pid")" 2>/dev/null || true
    trial_figures "$before" "$after_tcp" "$after_flood"
}
flood_begins() { :; }
flood_ends() { :; }

# Every mode of $MODES measured $TRIALS times, alternating trial by trial (`measure MODE` prints one line each);
# the lines gathered in $WORK/results.txt (bench/hosts/trials.py reads them). $1: more to say of the trials.
run_trials() {
    echo "$NAME: $TRIALS trials of $SECS s, forwarders alternating: $MODES${1:-}"
    for trial in $(seq 1 "$TRIALS"); do
        for mode in $MODES; do
            measure "$mode" | tee -a "$WORK/results.txt"
        done
    done
}

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
. cli/jdk.sh
read_trials "$@"
