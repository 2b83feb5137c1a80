#!/usr/bin/env bash
# The seed's third experiment: a memcached benchmark's time, idle and while several hosts send a long-lived incast to
# memcached's host, through a tail-drop switch with kernel TCP senders and through a trimming switch with NDP senders.
#
# Linux hosts in network namespaces, each on a veth whose other end is a port of one `trimswitch run` (interface ports,
# AF_PACKET, `idle: poll`): host m (port 0) runs memcached, hosts s1..sN (ports 1..N, N = SENDERS, 8) send to m, host
# c (port N+1) runs memslap (Debian's `memcslap`) against m. m's port runs at RATE Gb/s (0.1), the senders' at
# SENDER_RATE (1); offloads are off, so that every queued packet is one MTU frame. memcached's traffic is kernel TCP in
# both setups (DSCP 0: never trimmed, dropped when the data queue is full), in the same data queue as the incast.
#
# 1. baseline: one data queue of BIG (200) packets that drops; N iperf3 TCP flows into m.
# 2. trimming: one data queue of SMALL (12) packets that trims DSCP 10; N `trimswitch host` NDP senders (long-lived
#    flows of LOAD_S seconds, 1450-byte payloads: 1514-byte frames, as TCP's) into a `trimswitch host` receiver on m
#    that pulls at RATE.
# For each: memcslap (CONCURRENCY threads, EXECUTE requests each, get test: it first sets EXECUTE keys) idle, then once
# the incast has moved LOAD_WARMUP packets through m's port. Prints the benchmark's time idle and loaded and the
# slowdown, and baseline / trimming; writes OUT_DIR/memcached_under_incast.png and OUT_DIR/summary.json.
#
# Usage: sudo bench/experiments/memcached_under_incast.sh [OUT_DIR]   (needs iproute2, ethtool, iperf3, memcached,
# libmemcached-tools and python3-matplotlib; a built cli/target/trimswitch.jar, or TRIMSWITCH set to the command that
# runs the tool). Environment: RATE, SENDER_RATE, SENDERS, BIG, SMALL, CONCURRENCY (4), EXECUTE (250), LOAD_WARMUP
# (1000), LOAD_S (60: longer than the warm-up and the benchmark). Everything it creates is removed on exit, whatever
# happens.
set -euo pipefail

log() { echo "memcached-under-incast: $*"; }
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

[ $# -le 1 ] || { echo "usage: $(basename "$0") [OUT_DIR]" >&2; exit 2; }
RATE=${RATE:-0.1}
SENDER_RATE=${SENDER_RATE:-1}
SENDERS=${SENDERS:-8}
BIG=${BIG:-200}
SMALL=${SMALL:-12}
CONCURRENCY=${CONCURRENCY:-4}
EXECUTE=${EXECUTE:-250}
LOAD_WARMUP=${LOAD_WARMUP:-1000}
LOAD_S=${LOAD_S:-60}
for v in RATE SENDER_RATE SENDERS BIG SMALL CONCURRENCY EXECUTE LOAD_WARMUP LOAD_S; do positive "$v" "${!v}"; done
[ "$SENDERS" -le 60 ] || { echo "$(basename "$0"): SENDERS must be at most 60, not $SENDERS" >&2; exit 2; }
need_root
need_tools ip ethtool iperf3 memcached memcslap
need_matplotlib
OUT=${1:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

TAG="mc$$"
SW="${TAG}sw"
HOSTS=(m $(seq -f 's%g' 1 "$SENDERS") c)
LOAD=()

trap remove_star EXIT

addr() { case $1 in m) echo 10.9.0.1 ;; c) echo 10.9.0.100 ;; s*) echo "10.9.0.$((${1#s} + 1))" ;; esac; }

build_star

# memcached on m, for both setups.
in_host m memcached -u nobody -l 10.9.0.1 -p 11211 -t 1 -m 64 > "$OUT/memcached.log" 2>&1 &
await 10 "memcached to listen" tcp_listening "${TAG}m" 11211

# switch_yaml QUEUE: one data queue of QUEUE packets (DSCP 10 trims, the rest is dropped when it does not fit).
switch_yaml() {
    cat <<YAML
mechanism: tofino
fabric:
  dataQueuePackets: $1
trim:
  trimmableDscp: [10]
realtime:
  idle: poll
forwarding:
  mode: l2
metrics:
  address: 127.0.0.1:9464
ports:
  - {rateGbps: $RATE}          # m, memcached and the incast's receiver
$(for _ in $(seq 1 "$SENDERS"); do echo "  - {rateGbps: $SENDER_RATE}"; done)
  - {}                         # c, the memcslap client
YAML
}

start_setup_switch() {
    switch_yaml "$2" > "$OUT/$1-switch.yaml"
    start_star_switch "$1" "$OUT/$1-switch.yaml"
}

# tcp_counters FILE: memcached's and memslap's TCP counters (their namespaces' /proc/net/snmp and netstat).
tcp_counters() { { in_host m cat /proc/net/snmp /proc/net/netstat; in_host c cat /proc/net/snmp /proc/net/netstat; } > "$1"; }

# The benchmark: its own report of its time, and the wall time around it.
bench() {
    local t0 t1
    tcp_counters "$1.tcp-before"
    t0=$(date +%s.%N)
    in_host c memcslap --servers=10.9.0.1:11211 --concurrency="$CONCURRENCY" --execute-number="$EXECUTE" --test=get --tcp-nodelay \
        > "$1" 2>&1 || { cat "$1"; log "memcslap failed" >&2; exit 1; }
    t1=$(date +%s.%N)
    tcp_counters "$1.tcp-after"
    echo "wall $t0 $t1" >> "$1"
}

run_setup() {
    local name=$1 queue=$2
    log "$name: data queue of $queue packets; memcslap idle"
    start_setup_switch "$name" "$queue"
    bench "$OUT/$name-idle.memcslap"
    start_incast "$name" 200
    log "$name: memcslap under the $SENDERS:1 incast"
    under_load "$name" bench "$OUT/$name-loaded.memcslap"
    if [ "$name" = baseline ]; then
        for pid in "${LOAD[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    else
        # A long-lived incast: the senders stop sending at LOAD_S and finish, and the receiver ends with their flows.
        # SIGTERM ends them as cleanly, with their reports: no need to sit out the rest of LOAD_S.
        for pid in "${LOAD[@]:1}"; do kill -0 "$pid" 2>/dev/null || log "$name: a sender ended before the benchmark did (raise LOAD_S)"; done
        for pid in "${LOAD[@]:1}"; do kill -TERM "$pid" 2>/dev/null || true; done
    fi
    for pid in "${LOAD[@]}"; do wait "$pid" 2>/dev/null || true; done
    LOAD=()
    # The iperf3 servers; memcached stays.
    for pid in $(ip netns pids "${TAG}m"); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = memcached ] || kill "$pid" 2>/dev/null || true
    done
    stop_switch "$SWITCH_PID" "$OUT/$name-switch.log" > /dev/null
}

run_setup baseline "$BIG"
run_setup trimming "$SMALL"
uptime > "$OUT/uptime.txt"

"$PLOT_PYTHON" - "$OUT" "$RATE" "$BIG" "$SMALL" "$SENDERS" <<'PY'
import json, re, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out, rate, big, small, senders = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])

def bench(path):
    text = open(path).read()
    total = float(re.search(r"Time total:\s+([0-9.]+) seconds", text).group(1))
    get = re.search(r"Time to get\s+(\d+) keys by\s+(\d+) threads:\s+([0-9.]+) seconds", text)
    return {"totalS": total, "getS": float(get.group(3)), "gets": int(get.group(1))}

def tcp(path):
    """RetransSegs and TCPTimeouts, summed over the files' namespaces (memcached's host, then memslap's)."""
    lines, total = open(path).read().splitlines(), {"RetransSegs": 0, "TCPTimeouts": 0}
    for names, values in zip(lines, lines[1:]):
        n, v = names.split(), values.split()
        if n[0] == v[0] and n[0] in ("Tcp:", "TcpExt:") and not n[1].lstrip("-").isdigit() and v[1].lstrip("-").isdigit():
            for key, value in zip(n[1:], v[1:]):
                if key in total:
                    total[key] += int(value)
    return total

def tcp_delta(prefix):
    before, after = tcp(prefix + ".tcp-before"), tcp(prefix + ".tcp-after")
    return {k: after[k] - before[k] for k in before}

def port(path, number):
    return {p["port"]: p for p in json.load(open(path))}[number]

summary, labels = {}, {}
for name, label in (("baseline", f"tail drop, {big} packets, TCP incast"), ("trimming", f"trimming, {small} packets, NDP incast")):
    idle, loaded = bench(f"{out}/{name}-idle.memcslap"), bench(f"{out}/{name}-loaded.memcslap")
    before, after = port(f"{out}/{name}-before.json", 0), port(f"{out}/{name}-after.json", 0)
    a, b, c, d = map(float, open(f"{out}/{name}-window.txt").read().split())
    gbps = (after["txBytes"] - before["txBytes"]) * 8 / ((c + d) / 2 - (a + b) / 2) / 1e9
    idle["tcp"], loaded["tcp"] = tcp_delta(f"{out}/{name}-idle.memcslap"), tcp_delta(f"{out}/{name}-loaded.memcslap")
    summary[name] = {"idle": idle, "loaded": loaded, "slowdown": loaded["totalS"] / idle["totalS"], "loadGbps": gbps,
                     "trims": after.get("txTrimPackets", 0) - before.get("txTrimPackets", 0),
                     "drops": sum(after.get("drops", {}).values()) - sum(before.get("drops", {}).values())}
    labels[name] = label
summary["ratio"] = summary["baseline"]["slowdown"] / summary["trimming"]["slowdown"]
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)

print(f"memcslap against memcached on the receiver of a {senders}:1 incast through its {rate} Gb/s port "
      f"({summary['baseline']['idle']['gets']} gets after as many sets)")
print(f"{'setup':<36} {'idle s':>7} {'loaded s':>9} {'slowdown':>9} {'load Gb/s':>9} {'trims':>7} {'drops':>7} {'memcached retx/RTOs':>20}")
for name, label in labels.items():
    s = summary[name]
    print(f"{label:<36} {s['idle']['totalS']:>7.3f} {s['loaded']['totalS']:>9.3f} {s['slowdown']:>8.1f}x {s['loadGbps']:>9.3f} "
          f"{s['trims']:>7} {s['drops']:>7} {s['loaded']['tcp']['RetransSegs']:>13}/{s['loaded']['tcp']['TCPTimeouts']:<6}")
print(f"slowdown, baseline / trimming: {summary['ratio']:.1f}x")

fig, ax = plt.subplots(figsize=(8.5, 4.5))
names = list(labels)
width = 0.38
for k, (phase, color) in enumerate((("idle", "tab:gray"), ("loaded", "tab:orange"))):
    xs = [i + (k - 0.5) * width for i in range(len(names))]
    ys = [summary[n][phase]["totalS"] for n in names]
    bars = ax.bar(xs, ys, width, color=color, label="idle" if phase == "idle" else f"under a {senders}:1 incast to memcached's host")
    ax.bar_label(bars, fmt="%.2f s", fontsize=8)
ax.set_xticks(range(len(names)), [labels[n] + f"\n(slowdown {summary[n]['slowdown']:.1f}x)" for n in names], fontsize=8)
ax.set_yscale("log")
ax.set_ylabel("memcslap benchmark time (s, log scale)")
ax.set_title(f"memcslap time, idle and under an incast into memcached's {rate} Gb/s port:\ntail drop + TCP incast vs trimming + NDP incast")
ax.legend(fontsize=8, loc="upper right")
fig.tight_layout()
fig.savefig(f"{out}/memcached_under_incast.png", dpi=110)
PY
log "results in $OUT ($(cat "$OUT/uptime.txt"))"
