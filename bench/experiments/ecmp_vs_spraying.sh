#!/usr/bin/env bash
# Three parallel flows between two racks over three spines: ECMP with TCP against NDP spraying.
#
# Six Linux hosts in network namespaces, three per rack, each on a veth to its leaf. The leaves are Linux routers
# (namespaces with ip_forward) that hash flows over three equal-cost routes, one per spine, on the 5-tuple
# (fib_multipath_hash_policy=1): that is ECMP. The spines are `trimswitch run` processes, each in its own namespace,
# whose two ports sit on veths to the leaves (interface ports, AF_PACKET; `idle: poll`, so that a spine with nothing
# to forward leaves the cores to the hosts). Every spine's port down to rack B is limited to RATE Gb/s (0.1), so the
# fabric carries 3 x RATE from rack A to rack B; each spine trims DSCP 10 in a 16-packet queue and drops anything else
# from a 64-packet one. The veths' offloads are off, so that every queued packet is one MTU frame. Every veth has an MTU
# of MTU bytes (9000, jumbo frames): at 0.1 Gb/s a flow of 1500-byte frames is 8300 packets a second, and six host JVMs
# and three switches on a small machine's cores then lose NDP's pull clock; 9000-byte frames carry the same bytes in a
# sixth of the packets (docs/hosts.md).
#
# 1. TCP: iperf3 from host A_i to host B_i, three flows at once. ECMP puts each flow on one spine; when two hash onto
#    the same spine they share its RATE while another spine idles.
# 2. NDP, sprayed: `trimswitch host` senders with --spray K (K source ports: the leaf's hash sends each elsewhere),
#    receivers pulling at RATE each. Every flow uses every spine; with many ports, about as much of each as of the others.
# 3. NDP, not sprayed (--spray 1): one path per flow, as ECMP gives TCP.
# For each, the flows' throughput (TCP) or goodput and FCT (NDP), each spine's packets towards rack B, and how busy
# the machine's cores were meanwhile (from /proc/stat: near 100 %, the hosts waited for a core). Writes
# OUT_DIR/ecmp_vs_spraying.png and OUT_DIR/summary.json.
#
# Usage: sudo bench/experiments/ecmp_vs_spraying.sh [OUT_DIR]   (needs iproute2, ethtool, iperf3 and
# python3-matplotlib; a built cli/target/trimswitch.jar or TRIMSWITCH set to the command that runs the tool).
# Environment: RATE (0.1), SECONDS_TCP (8), PACKETS (1000, per NDP flow), SPRAY (64), WINDOW (30, the NDP senders'
# initial window), MTU (9000; every veth's, and the NDP packets fill it). Everything it creates is removed on exit,
# whatever happens.
set -euo pipefail

log() { echo "ecmp-vs-spraying: $*"; }
. "$(cd "$(dirname "$0")" && pwd)/common.sh"

[ $# -le 1 ] || { echo "usage: $(basename "$0") [OUT_DIR]" >&2; exit 2; }
RATE=${RATE:-0.1}
SECONDS_TCP=${SECONDS_TCP:-8}
positive RATE "$RATE"
whole SECONDS_TCP "$SECONDS_TCP"
exp1_settings
# An NDP packet fills the MTU: the data behind IPv4, UDP and the hosts' 22-byte shim and tag.
PAYLOAD=$((MTU - 50))
BYTES=$((PACKETS * PAYLOAD))
need_root
need_tools ip ethtool ping iperf3
[ -x /usr/bin/time ] || { echo "$(basename "$0"): needs /usr/bin/time: apt-get install time" >&2; exit 2; }
need_matplotlib
OUT=${1:-$(mktemp -d)}
TAG="es$$"
SPINES=(1 2 3)
declare -A PID=()
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# What the NDP runs depend on, for live_vs_virtual.sh to check before it compares them with virtual time.
exp1_signature > "$OUT/settings.txt"

# proc_cpu PID...: CPU seconds (user + system) the processes have used so far.
proc_cpu() { local pid t=0; for pid in "$@"; do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done; awk -v t="$t" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f\n", t / hz }'; }
# cpu_busy FILE: appends the machine's busy and total jiffies (every core) from /proc/stat.
cpu_busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat >> "$1"; }

trap cleanup EXIT

in_ns() { local ns=$1; shift; ip netns exec "$TAG$ns" "$@"; }

for ns in leafA leafB sp1 sp2 sp3 a1 a2 a3 b1 b2 b3; do
    add_namespace "$TAG$ns"
done
for leaf in leafA leafB; do
    in_ns "$leaf" sysctl -qw net.ipv4.ip_forward=1
    in_ns "$leaf" sysctl -qw net.ipv4.fib_multipath_hash_policy=1
done

# Hosts: a_i is 10.1.i.2 behind leaf A (10.1.i.1), b_i is 10.2.i.2 behind leaf B.
for i in 1 2 3; do
    for rack in a b; do
        leaf=leaf${rack^^}
        net=$([ "$rack" = a ] && echo 1 || echo 2)
        ip link add "to$rack$i" netns "$TAG$leaf" mtu "$MTU" type veth peer name eth0 netns "$TAG$rack$i" mtu "$MTU"
        in_ns "$leaf" ethtool -K "to$rack$i" tso off gso off gro off > /dev/null 2>&1 || true
        in_ns "$rack$i" ethtool -K eth0 tso off gso off gro off > /dev/null 2>&1 || true
        in_ns "$leaf" ip addr add "10.$net.$i.1/24" dev "to$rack$i"
        in_ns "$leaf" ip link set "to$rack$i" up
        in_ns "$rack$i" ip addr add "10.$net.$i.2/24" dev eth0
        in_ns "$rack$i" ip link set eth0 up
        in_ns "$rack$i" ip route add default via "10.$net.$i.1"
    done
done

# Spine s: a veth to each leaf, its port 0 on the one to leaf A, its port 1 on the one to leaf B; the leaves' ends,
# vs<s>, are one Ethernet segment through the spine (10.100.s.1 on leaf A, 10.100.s.2 on leaf B).
for s in "${SPINES[@]}"; do
    for leaf in leafA leafB; do
        n=$([ "$leaf" = leafA ] && echo 1 || echo 2)
        ip link add "vs$s" netns "$TAG$leaf" mtu "$MTU" type veth peer name "to$leaf" netns "${TAG}sp$s" mtu "$MTU"
        in_ns "$leaf" ip addr add "10.100.$s.$n/24" dev "vs$s"
        in_ns "$leaf" ip link set "vs$s" up
        in_ns "sp$s" ip link set "to$leaf" up
        in_ns "$leaf" ethtool -K "vs$s" tso off gso off gro off > /dev/null 2>&1 || true
        in_ns "sp$s" ethtool -K "to$leaf" tso off gso off gro off > /dev/null 2>&1 || true
    done
    cat > "$OUT/spine$s.yaml" <<YAML
mechanism: tofino
fabric:
  pipelines: 1
  portsPerPipeline: 2
qos:
  queues:
    - {packets: 64, discard: drop}
    - {packets: 16, discard: trim}
  dscpToTc: {10: 1}
workload:
  packetBytes: $((MTU + 14))   # the frames' size: the ingress meters hold as many as the 16-packet queue
realtime:
  idle: poll
forwarding:
  mode: l2
metrics:
  address: 127.0.0.1:9464
ports:
  - {}                       # to leaf A (-i 0@toleafA)
  - {rateGbps: $RATE}        # down to leaf B (-i 1@toleafB)
YAML
done
in_ns leafA ip route add 10.2.0.0/16 nexthop via 10.100.1.2 dev vs1 nexthop via 10.100.2.2 dev vs2 nexthop via 10.100.3.2 dev vs3
in_ns leafB ip route add 10.1.0.0/16 nexthop via 10.100.1.1 dev vs1 nexthop via 10.100.2.1 dev vs2 nexthop via 10.100.3.1 dev vs3

for s in "${SPINES[@]}"; do
    launch_switch "${TAG}sp$s" "$OUT/spine$s.log" --config "$OUT/spine$s.yaml" -i 0@toleafA -i 1@toleafB
    PID[$s]=$SWITCH_PID
done
for s in "${SPINES[@]}"; do
    await_switch "${PID[$s]}" "$OUT/spine$s.log" 2
done
for i in 1 2 3; do
    for j in 1 2 3; do
        in_ns "a$i" ping -q -c 3 -i 0.2 -W 2 "10.2.$j.2" > /dev/null || { echo "host a$i cannot reach b$j" >&2; exit 1; }
    done
done
log "every host of rack A reaches every host of rack B over the spines"
log "warm-up: an unmeasured NDP flow from a1 to b1 sprayed over all three spines for 2 s"
warm_up b1 a1 10.2.1.2 "$(awk -v rate="$RATE" 'BEGIN { print 3 * rate }')" 8 "$PAYLOAD"

spine_stats() { for s in "${SPINES[@]}"; do in_ns "sp$s" $TRIMSWITCH stats --json > "$OUT/$1-spine$s.json"; done; }

log "1. TCP, ECMP: three iperf3 flows for $SECONDS_TCP s"
spine_stats tcp-before
cpu_busy "$OUT/tcp-cpu.txt"
for i in 1 2 3; do in_ns "b$i" iperf3 -s -D -1 -p 5201; done
sleep 0.5
CLIENTS=()
for i in 1 2 3; do
    ip netns exec "${TAG}a$i" iperf3 -c "10.2.$i.2" -p 5201 -t "$SECONDS_TCP" -J > "$OUT/tcp$i.json" &
    CLIENTS+=($!)
done
wait "${CLIENTS[@]}"
cpu_busy "$OUT/tcp-cpu.txt"
spine_stats tcp-after

ndp_run() {
    local name=$1 spray=$2
    log "$name: three NDP flows of $PACKETS packets ($BYTES bytes), --spray $spray"
    spine_stats "$name-before"
    cpu_busy "$OUT/$name-cpu.txt"
    local spines_before
    spines_before=$(proc_cpu "${PID[@]}")
    local receivers=() senders=()
    for i in 1 2 3; do
        ip netns exec "${TAG}b$i" /usr/bin/time -f '%U %S' -o "$OUT/$name-receiver$i.time" $TRIMSWITCH host --listen "10.2.$i.2:666" --rate-gbps "$RATE" --expect-flows 1 --timeout-s 30 \
            --payload-bytes "$PAYLOAD" --json "$OUT/$name-receiver$i.json" > "$OUT/$name-receiver$i.log" 2>&1 &
        receivers+=($!)
    done
    for i in 1 2 3; do
        for _ in $(seq 1 200); do grep -q "receiving on" "$OUT/$name-receiver$i.log" 2>/dev/null && break; sleep 0.1; done
    done
    local start
    start=$(start_in 2)
    for i in 1 2 3; do
        ip netns exec "${TAG}a$i" /usr/bin/time -f '%U %S' -o "$OUT/$name-sender$i.time" $TRIMSWITCH host --connect "10.2.$i.2:666" --size "$BYTES" --payload-bytes "$PAYLOAD" --rate-gbps 1 --spray "$spray" --window "$WINDOW" --rto-ms 50 \
            --start-at "$start" --timeout-s 30 --json "$OUT/$name-sender$i.json" > "$OUT/$name-sender$i.log" 2>&1 &
        senders+=($!)
    done
    local status=0
    for pid in "${senders[@]}" "${receivers[@]}"; do wait "$pid" || status=$?; done
    [ "$status" = 0 ] || { cat "$OUT/$name"-*.log; echo "$name: a host exited with $status" >&2; exit 1; }
    late_starters "$OUT/$name"-sender*.log
    cpu_busy "$OUT/$name-cpu.txt"
    echo "$spines_before $(proc_cpu "${PID[@]}")" > "$OUT/$name-spines.time"
    spine_stats "$name-after"
}
ndp_run ndp-sprayed "$SPRAY"
ndp_run ndp-single 1

uptime > "$OUT/uptime.txt"
"$PLOT_PYTHON" - "$OUT" "$RATE" "$MTU" <<'PY'
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
out, rate, mtu = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])

def cpu(name):
    (b0, t0), (b1, t1) = [map(int, line.split()) for line in open(f"{out}/{name}-cpu.txt")]
    return 100 * (b1 - b0) / (t1 - t0)

def spine_share(name):
    shares = []
    for s in (1, 2, 3):
        before = {p["port"]: p for p in json.load(open(f"{out}/{name}-before-spine{s}.json"))}[1]
        after = {p["port"]: p for p in json.load(open(f"{out}/{name}-after-spine{s}.json"))}[1]
        shares.append((after["txPackets"] - before["txPackets"], after.get("txTrimPackets", 0) - before.get("txTrimPackets", 0)))
    return shares

rows, cpu_split = [], {}
tcp = [json.load(open(f"{out}/tcp{i}.json"))["end"]["sum_received"]["bits_per_second"] / 1e9 for i in (1, 2, 3)]
tcp_retx = sum(json.load(open(f"{out}/tcp{i}.json"))["end"]["sum_sent"].get("retransmits", 0) for i in (1, 2, 3))
rows.append(("TCP, ECMP", tcp, None, spine_share("tcp"), tcp_retx, cpu("tcp")))
for name, label in (("ndp-sprayed", "NDP, sprayed"), ("ndp-single", "NDP, one path")):
    flows = [json.load(open(f"{out}/{name}-sender{i}.json"))["flows"][0] for i in (1, 2, 3)]
    rows.append((label, [f["goodputGbps"] for f in flows], [f["fctUs"] / 1e3 for f in flows], spine_share(name),
                 sum(f["retransmissions"] for f in flows), cpu(name)))
    hosts = sum(sum(map(float, open(f"{out}/{name}-{role}{i}.time").read().split()[-2:])) for role in ("sender", "receiver") for i in (1, 2, 3))
    before, after = map(float, open(f"{out}/{name}-spines.time").read().split())
    cpu_split[label] = (hosts, after - before)
summary = []
print(f"three flows from rack A to rack B over three spines of {rate} Gb/s each ({3 * rate:.1f} Gb/s in all), MTU {mtu}")
print(f"{'run':<14} {'per flow Gb/s':<19} {'sum Gb/s':>8} {'FCT ms':<15} {'retx':>5} {'CPU busy':>8}  {'spine packets down (trimmed)'}")
for label, rates, fcts, shares, retx, busy in rows:
    fct = " ".join(f"{f:.0f}" for f in fcts) if fcts else "-"
    spines = " ".join(f"{tx} ({trim})" for tx, trim in shares)
    print(f"{label:<14} {' '.join(f'{r:.3f}' for r in rates):<19} {sum(rates):>8.3f} {fct:<15} {retx:>5} {busy:>7.0f}%  {spines}")
    summary.append({"run": label, "gbpsPerFlow": rates, "fctMs": fcts, "spinePacketsDown": [tx for tx, _ in shares],
                    "spineTrims": [trim for _, trim in shares], "retransmissions": retx, "cpuBusyPercent": busy})
for label, (hosts, spines) in cpu_split.items():
    print(f"{label}: the six NDP host processes used {hosts:.1f} CPU s (JVM start and JIT included), the three spines {spines:.1f} CPU s")
    next(s for s in summary if s["run"] == label).update({"hostCpuS": hosts, "spineCpuS": spines})
# The seed's effect as a ratio within this run: the slowest flow sprayed against the slowest on one path each.
slowest = {row[0]: min(row[1]) for row in rows}
sprayed = next(s for s in summary if s["run"] == "NDP, sprayed")
for baseline, key in (("TCP, ECMP", "slowestFlowAgainstTcpEcmp"), ("NDP, one path", "slowestFlowAgainstNdpOnePath")):
    ratio = slowest["NDP, sprayed"] / slowest[baseline] if slowest[baseline] > 0 else float("inf")
    print(f"slowest flow, NDP sprayed against {baseline}: {slowest['NDP, sprayed']:.3f} / {slowest[baseline]:.3f} Gb/s = {ratio:.2f}x")
    sprayed[key] = ratio if ratio != float("inf") else None
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
width = 0.27
for k in range(3):
    xs = [r + (k - 1) * width for r in range(len(rows))]
    left.bar(xs, [row[1][k] for row in rows], width, label=f"flow {k + 1} (a{k + 1} to b{k + 1})")
    right.bar(xs, [100 * row[3][k][0] / max(1, sum(tx for tx, _ in row[3])) for row in rows], width, label=f"spine {k + 1}")
left.axhline(rate, color="black", linestyle="--", linewidth=1, label=f"one spine's rate ({rate} Gb/s)")
left.set_ylabel("throughput (TCP) or goodput (NDP) per flow (Gb/s)")
right.set_ylabel("share of the packets down to rack B (%)")
for ax in (left, right):
    ax.set_xticks(range(len(rows)), [f"{row[0]}\n(CPU {row[5]:.0f}% busy)" for row in rows], fontsize=8)
    ax.legend(fontsize=8)
left.set_title("per-flow rate")
right.set_title("each spine's share (ECMP can leave a spine idle)")
fig.suptitle(f"Three flows between two racks over three {rate} Gb/s spines ({mtu}-byte MTU): TCP with ECMP vs NDP sprayed vs NDP on one path")
fig.tight_layout()
fig.savefig(f"{out}/ecmp_vs_spraying.png", dpi=110)
PY
log "results in $OUT ($(cat "$OUT/uptime.txt"))"
