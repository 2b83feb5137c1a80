#!/usr/bin/env bash
# NDP on three-tier fat trees, htsim and trimswitch side by side on the same files: a permutation and a 127:1 incast
# of 2 MB flows, per tree size. Writes its own topology and matrices under results/htsim/, runs csg-htsim's htsim_ndp
# and `trimswitch fabric --topology --matrix` on them, and prints each flow set's p50, p99 and largest completion time
# in both and how far apart they are. With HYPERFINE=1 (and hyperfine installed) it times both whole processes too.
#
#   bench/htsim/fat_tree_agreement.sh [128|1024] [perm|incast]     (from the repository root, after ./mvnw package;
#                                                                 both workloads unless one is named)
#
# It builds nothing. htsim_ndp is taken from $HTSIM (default: csg-htsim/sim/datacenter/htsim_ndp); to build it:
#   git clone https://github.com/Broadcom/csg-htsim && cd csg-htsim/sim && make -j2 && cd datacenter && make htsim_ndp
set -euo pipefail
cd "$(dirname "$0")/../.."
NODES=${1:-128}
case $NODES in 128|1024) ;; *) echo "fat_tree_agreement: the tree is 128 or 1024 nodes, got '$NODES'" >&2; exit 2 ;; esac
ONLY=${2:-}
case $ONLY in ''|perm|incast) ;; *) echo "fat_tree_agreement: the workload is perm or incast, got '$ONLY'" >&2; exit 2 ;; esac
HTSIM=${HTSIM:-csg-htsim/sim/datacenter/htsim_ndp}
if [ ! -x "$HTSIM" ]; then
    echo "fat_tree_agreement: no htsim_ndp at $HTSIM; build csg-htsim and point HTSIM at it:" >&2
    echo "  git clone https://github.com/Broadcom/csg-htsim && cd csg-htsim/sim && make -j2 && cd datacenter && make htsim_ndp" >&2
    exit 2
fi
[ -f cli/target/trimswitch.jar ] || { echo "fat_tree_agreement: needs cli/target/trimswitch.jar (./mvnw -B package -DskipTests)" >&2; exit 2; }
# Paths from the root, so that both run in the results folder: htsim writes an idmap.txt where it runs.
out=$PWD/results/htsim
mkdir -p "$out"
case $HTSIM in /*) ;; *) HTSIM=$PWD/$HTSIM ;; esac

# htsim's three-tier fat trees of 128 hosts (k = 8) and 1024 hosts (k = 16), 100 Gb/s and 1 µs everywhere.
if [ "$NODES" = 128 ]; then pod=16 tor=4 agg=4 core=8; else pod=64 tor=8 agg=8 core=16; fi
topo=$out/fat_tree_$NODES.topo
cat > "$topo" <<TOPO
Nodes $NODES
Tiers 3
Podsize $pod

Tier 0
Downlink_speed_Gbps 100
Radix_Down $tor
Radix_Up $tor
Oversubscribed 1
Downlink_Latency_ns 1000
Switch_Latency_ns 0

Tier 1
Downlink_speed_Gbps 100
Radix_Down $agg
Radix_Up $agg
Oversubscribed 1
Downlink_Latency_ns 1000
Switch_Latency_ns 0
Bundle 1

Tier 2
Downlink_speed_Gbps 100
Radix_Down $core
Downlink_Latency_ns 1000
Switch_Latency_ns 0
Bundle 1
TOPO
# A seeded permutation without fixed points, and a 127:1 incast into host 0 from hosts spread over the racks.
python3 - "$NODES" "$out" <<'PY'
import random, sys
n, out = int(sys.argv[1]), sys.argv[2]
r = random.Random(7)
while True:
    to = list(range(n)); r.shuffle(to)
    if all(to[i] != i for i in range(n)):
        break
with open(f"{out}/perm_{n}.cm", "w") as f:
    f.write(f"Nodes {n}\nConnections {n}\n")
    f.writelines(f"{i}->{to[i]} id {i + 1} start 0 size 2000000\n" for i in range(n))
step = n // 128
with open(f"{out}/incast_{n}.cm", "w") as f:
    f.write(f"Nodes {n}\nConnections 127\n")
    f.writelines(f"{i * step}->0 id {i} start 0 size 2000000\n" for i in range(1, 128))
PY

# The permutation with htsim's window of 12 packets; the incast with 5, so that its first round of headers fits the
# header queues (htsim_ndp never sends again what a full header queue dropped: such a flow would never finish there).
for run in "perm 12" "incast 5"; do
    set -- $run
    kind=$1 cwnd=$2
    [ -z "$ONLY" ] || [ "$ONLY" = "$kind" ] || continue
    cm=$out/${kind}_$NODES.cm
    h=(env "$HTSIM" -tm "$cm" -topo "$topo" -nodes "$NODES" -mtu 1500 -q 16 -cwnd "$cwnd" -strat perm -end 100000 -o "$out/${kind}_$NODES.htsim.log")
    t=("$PWD/cli/trimswitch" fabric --topology "$topo" --matrix "$cm" --mechanism ideal --mtu 1500 --queue-packets 16 --initial-window "$cwnd")
    (cd "$out" && "${h[@]}" > "${kind}_$NODES.htsim.out" && "${t[@]}" --json "${kind}_$NODES.json" > /dev/null)
    python3 - "$out/${kind}_$NODES.htsim.out" "$out/${kind}_$NODES.json" "$kind $NODES" <<'PY'
import json, math, sys
htsim = sorted(float(line.split(" finished at ")[1].split()[0]) for line in open(sys.argv[1]) if " finished at " in line)
flows = json.load(open(sys.argv[2]))["flows"]
ours = sorted(f["fctUs"] for f in flows if "fctUs" in f)
def rank(values, p):
    return values[max(0, math.ceil(p / 100 * len(values)) - 1)]
print(f"{sys.argv[3]}: htsim {len(htsim)} flows done, trimswitch {len(ours)} of {len(flows)}")
for name, p in (("p50", 50), ("p99", 99), ("max", 100)):
    a, b = rank(htsim, p), rank(ours, p)
    print(f"  {name}  htsim {a:9.1f} µs  trimswitch {b:9.1f} µs  {100 * (b - a) / a:+.2f} %")
PY
    if [ "${HYPERFINE:-0}" = 1 ]; then
        (cd "$out" && hyperfine -N -w 0 -r 1 "${h[*]}" "${t[*]}")
    fi
done
