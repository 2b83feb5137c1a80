#!/usr/bin/env bash
# The seed's second experiment: a ping to a host, idle and then while nine other hosts send to it, through a tail-drop
# switch with kernel TCP senders and through a trimming switch with NDP senders.
#
# Eleven Linux hosts in network namespaces, each on a veth whose other end is a port of one `trimswitch run` (interface
# ports, AF_PACKET, `idle: poll` so that the switch leaves the cores to the hosts when it has nothing to do): host r
# (port 0) receives, hosts s1..s9 (ports 1..9) send to it, host p (port 10) pings it. r's port runs at RATE Gb/s (0.1),
# the senders' at SENDER_RATE (1); the hosts' offloads are off, so that every queued packet is one MTU frame.
#
# 1. baseline: one data queue of BIG (200) packets that drops what does not fit; nine iperf3 TCP flows into r.
# 2. trimming: one data queue of SMALL (12) packets that trims DSCP 10; nine `trimswitch host` NDP senders (long-lived
#    flows of LOAD_S seconds, 1450-byte payloads: 1514-byte frames, as TCP's) into one `trimswitch host` receiver on r
#    that pulls at RATE. The ping (DSCP 0) shares the data queue in both setups.
# For each: PINGS pings every INTERVAL s idle, then the same once the load has moved LOAD_WARMUP packets through r's
# port. Prints idle and loaded RTT (avg, p50, p99), the latency the load adds, and baseline / trimming; writes
# OUT_DIR/ping_under_incast.png (RTT distributions) and OUT_DIR/summary.json.
#
# Usage: sudo bench/experiments/ping_under_incast.sh [OUT_DIR]   (needs iproute2, ethtool, iputils-ping, iperf3 and
# python3-matplotlib; a built cli/target/trimswitch.jar, or TRIMSWITCH set to the command that runs the tool).
# Environment: RATE, SENDER_RATE, BIG, SMALL, PINGS (200), INTERVAL (0.02), LOAD_WARMUP (1000), LOAD_S (30: longer than
# the warm-up and the pings). Everything it creates is removed on exit, whatever happens.
set -euo pipefail

log() { echo "ping-under-incast: $*"; }
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

[ $# -le 1 ] || { echo "usage: $(basename "$0") [OUT_DIR]" >&2; exit 2; }
RATE=${RATE:-0.1}
SENDER_RATE=${SENDER_RATE:-1}
BIG=${BIG:-200}
SMALL=${SMALL:-12}
PINGS=${PINGS:-200}
INTERVAL=${INTERVAL:-0.02}
LOAD_WARMUP=${LOAD_WARMUP:-1000}
LOAD_S=${LOAD_S:-30}
for v in RATE SENDER_RATE BIG SMALL PINGS INTERVAL LOAD_WARMUP LOAD_S; do positive "$v" "${!v}"; done
need_root
need_tools ip ethtool ping iperf3
need_matplotlib
OUT=${1:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

TAG="pi$$"
SW="${TAG}sw"
SENDERS=9
HOSTS=(r $(seq -f 's%g' 1 $SENDERS) p)
LOAD=()

trap remove_star EXIT

addr() { case $1 in r) echo 10.9.0.1 ;; p) echo 10.9.0.11 ;; s*) echo "10.9.0.$((${1#s} + 1))" ;; esac; }

build_star

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
  - {rateGbps: $RATE}          # r, the incast's receiver
$(for _ in $(seq 1 $SENDERS); do echo "  - {rateGbps: $SENDER_RATE}"; done)
  - {}                         # p, the pinging host
YAML
}

start_setup_switch() {
    switch_yaml "$2" > "$OUT/$1-switch.yaml"
    start_star_switch "$1" "$OUT/$1-switch.yaml"
}

pings() { in_host p ping -n -c "$PINGS" -i "$INTERVAL" -W 1 10.9.0.1 > "$1" || true; }

run_setup() {
    local name=$1 queue=$2
    log "$name: data queue of $queue packets; $PINGS pings idle"
    start_setup_switch "$name" "$queue"
    pings "$OUT/$name-idle.ping"
    start_incast "$name" 120
    log "$name: $PINGS pings under the 9:1 incast"
    under_load "$name" pings "$OUT/$name-loaded.ping"
    if [ "$name" = baseline ]; then
        for pid in "${LOAD[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    else
        # The NDP hosts end by themselves: the senders at LOAD_S, the receiver once their flows are complete.
        for pid in "${LOAD[@]:1}"; do kill -0 "$pid" 2>/dev/null || log "$name: a sender ended before the pings did (raise LOAD_S)"; done
        log "$name: waiting for the NDP senders' $LOAD_S s to end"
    fi
    for pid in "${LOAD[@]}"; do wait "$pid" 2>/dev/null || true; done
    LOAD=()
    ip netns pids "${TAG}r" | xargs -r kill 2>/dev/null || true
    stop_switch "$SWITCH_PID" "$OUT/$name-switch.log" > /dev/null
}

run_setup baseline "$BIG"
run_setup trimming "$SMALL"
uptime > "$OUT/uptime.txt"

"$PLOT_PYTHON" - "$OUT" "$RATE" "$BIG" "$SMALL" <<'PY'
import json, re, statistics, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out, rate, big, small = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def rtts(path):
    return sorted(float(m.group(1)) for m in re.finditer(r"time=([0-9.]+) ms", open(path).read()))

def lost(path):
    m = re.search(r"(\d+) packets transmitted, (\d+) received", open(path).read())
    return int(m.group(1)) - int(m.group(2)) if m else -1

def pct(xs, q):
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")

def port(path, number):
    return {p["port"]: p for p in json.load(open(path))}[number]

rows, summary, series = [], {}, {}
for name, label in (("baseline", f"tail drop, {big} packets, TCP"), ("trimming", f"trimming, {small} packets, NDP")):
    idle, loaded = rtts(f"{out}/{name}-idle.ping"), rtts(f"{out}/{name}-loaded.ping")
    before, after = port(f"{out}/{name}-before.json", 0), port(f"{out}/{name}-after.json", 0)
    a, b, c, d = map(float, open(f"{out}/{name}-window.txt").read().split())
    gbps = (after["txBytes"] - before["txBytes"]) * 8 / ((c + d) / 2 - (a + b) / 2) / 1e9
    trims = after.get("txTrimPackets", 0) - before.get("txTrimPackets", 0)
    drops = sum(after.get("drops", {}).values()) - sum(before.get("drops", {}).values())
    s = {"idleMs": {"avg": statistics.mean(idle), "p50": pct(idle, .5), "p99": pct(idle, .99), "n": len(idle)},
         "loadedMs": {"avg": statistics.mean(loaded), "p50": pct(loaded, .5), "p99": pct(loaded, .99), "n": len(loaded)},
         "loadGbps": gbps, "trims": trims, "drops": drops, "lost": lost(f"{out}/{name}-loaded.ping")}
    s["addedMs"] = s["loadedMs"]["avg"] - s["idleMs"]["avg"]
    s["addedP50Ms"] = s["loadedMs"]["p50"] - s["idleMs"]["p50"]
    summary[name] = s
    series[name] = (label, idle, loaded)
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)

print(f"ping RTT to the receiver of a 9:1 incast through its {rate} Gb/s port (ms)")
print(f"{'setup':<32} {'idle avg/p50/p99':<22} {'loaded avg/p50/p99':<24} {'added avg/p50':>14} {'lost':>5} {'load Gb/s':>9} {'trims':>6} {'drops':>6}")
for name, (label, _, _) in series.items():
    s = summary[name]
    i, l = s["idleMs"], s["loadedMs"]
    print(f"{label:<32} {i['avg']:.3f}/{i['p50']:.3f}/{i['p99']:.3f}{'':<4} {l['avg']:.3f}/{l['p50']:.3f}/{l['p99']:.3f}{'':<4} "
          f"{s['addedMs']:>7.3f}/{s['addedP50Ms']:.3f} {s['lost']:>5} {s['loadGbps']:>9.3f} {s['trims']:>6} {s['drops']:>6}")
def ratio(key):
    # None when the load added nothing measurable to the trimming setup (the idle phase was the noisier one).
    return summary["baseline"][key] / summary["trimming"][key] if summary["trimming"][key] > 0 else None
def shown(r):
    return f"{r:.1f}x" if r is not None else "- (trimming added nothing measurable)"
summary["ratio"] = {"avg": ratio("addedMs"), "p50": ratio("addedP50Ms")}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
print(f"latency the load adds, baseline / trimming: {shown(ratio('addedMs'))} on the average, {shown(ratio('addedP50Ms'))} on the median"
      " (the seed: 0.5 ms / 36 us = 14x)")
ratio = ratio("addedP50Ms")

fig, ax = plt.subplots(figsize=(8, 4.5))
for name, color in (("baseline", "tab:red"), ("trimming", "tab:blue")):
    label, idle, loaded = series[name]
    for xs, style, phase in ((idle, ":", "idle"), (loaded, "-", "under 9:1 incast")):
        ax.plot(xs, [(k + 1) / len(xs) for k in range(len(xs))], style, color=color, label=f"{label}, {phase}")
ax.set_xscale("log")
ax.set_xlabel("ping round-trip time (ms, log scale)")
ax.set_ylabel("fraction of pings")
ax.set_title(f"Ping to an incast receiver ({rate} Gb/s port): tail drop + TCP vs trimming + NDP\n"
             f"load adds {summary['baseline']['addedP50Ms']:.2f} ms vs {summary['trimming']['addedP50Ms']:.2f} ms to the median"
             + (f" ({ratio:.0f}x)" if ratio is not None else ""))
ax.grid(True, which="both", alpha=.3)
ax.legend(fontsize=8, loc="lower right")
fig.tight_layout()
fig.savefig(f"{out}/ping_under_incast.png", dpi=110)
PY
log "results in $OUT ($(cat "$OUT/uptime.txt"))"
