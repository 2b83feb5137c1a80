#!/usr/bin/env bash
# Real-time headroom: for each placement, the smallest dilation at which the real-time switch still reproduces the
# worst case (16 parallel 4:1 incasts, open loop, tofino) exactly as virtual time does, and on time: the same drops,
# trims (ingress and DoD), largest DoD queue of each pipeline and packets per flow, with no shard behind the host clock
# by more than LAG_NS of switch time (default 1500, a quarter of T0), in at least 2 of 3 runs. A run that fell behind
# does not count, however exact. Bisects between LOW and HIGH (dilations, whole numbers) and prints
# that dilation with what it stands for: each 100 Gb/s port at 100/D Gb/s, 64 of them in all, and the packets per
# second of the run's packets in its switch time, taken in wall time.
#
#   bench/headroom/headroom.sh [LOW [HIGH]]      (from the repository root, after the build; default 50 and 1000)
set -euo pipefail
cd "$(dirname "$0")/../.."
. cli/jdk.sh

LOW=${1:-50}
HIGH=${2:-1000}
[[ "$LOW" =~ ^[1-9][0-9]*$ ]] || { echo "headroom: LOW must be a whole number of at least 1, got '$LOW'" >&2; exit 2; }
[[ "$HIGH" =~ ^[1-9][0-9]*$ ]] || { echo "headroom: HIGH must be a whole number of at least 1, got '$HIGH'" >&2; exit 2; }
[ "$LOW" -lt "$HIGH" ] || { echo "headroom: LOW ($LOW) must be below HIGH ($HIGH)" >&2; exit 2; }
[ "$HIGH" -le 1000000 ] || { echo "headroom: HIGH must be at most 1000000, got $HIGH" >&2; exit 2; }
[ -f cli/target/trimswitch.jar ] || { echo "headroom: build first: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
PLACEMENTS=${PLACEMENTS:-"single split per-pipeline"}
LAG_NS=${LAG_NS:-1500}
[[ "$LAG_NS" =~ ^[0-9]+$ ]] || { echo "headroom: LAG_NS must be a whole number of nanoseconds, got '$LAG_NS'" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# One run at dilation $2 under placement $1: prints "match sent_packets switch_ns" (match is 1 when real equals virtual).
run() {
    cli/trimswitch scenario --clock real --dilation "$2" --placement "$1" --compare-virtual --mechanism tofino \
        --transport open-loop --no-ideal --json "$WORK/run.json" > /dev/null
    python3 - "$WORK/run.json" "$LAG_NS" <<'PY'
import json, sys
real, virtual = json.load(open(sys.argv[1]))
def key(r):
    return (r["dropped"], r["trims"]["total"], r["trims"]["ingress"], r["trims"]["dod"],
            [p["maxDodQueue"] for p in r["pipelines"]], [(f["whole"], f["headers"]) for f in r["flows"]])
on_time = real["run"]["realTime"]["maxIngressLagNs"] <= float(sys.argv[2])
print(int(key(real) == key(virtual) and on_time), real["sent"], virtual["run"]["lastPacketNs"])
PY
}

# Whether dilation $2 reproduces virtual time under placement $1 in 2 of 3 runs; the last run's figures in $WORK/last.
holds() {
    local matches=0
    for _ in 1 2 3; do
        run "$1" "$2" > "$WORK/last"
        matches=$((matches + $(cut -d' ' -f1 "$WORK/last")))
        [ "$matches" -ge 2 ] && return 0
    done
    return 1
}

printf '%-10s %10s %14s %16s %14s\n' placement dilation "per port Gb/s" "64 ports Gb/s" "packets/s"
for placement in $PLACEMENTS; do
    low=$LOW high=$HIGH
    if ! holds "$placement" "$high"; then
        printf '%-10s %10s\n' "$placement" "> $high"
        continue
    fi
    cp "$WORK/last" "$WORK/best"
    if holds "$placement" "$low"; then
        high=$low
        cp "$WORK/last" "$WORK/best"
    fi
    # Invariant: high holds, low does not (unless they met).
    while [ $((high - low)) -gt $((low / 10 > 1 ? low / 10 : 1)) ]; do
        mid=$(((low + high) / 2))
        if holds "$placement" "$mid"; then
            high=$mid
            cp "$WORK/last" "$WORK/best"
        else
            low=$mid
        fi
    done
    read -r _ sent switch_ns < "$WORK/best"
    python3 - "$placement" "$high" "$sent" "$switch_ns" <<'PY'
import sys
placement, dilation, sent, switch_ns = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
print(f"{placement:<10} {dilation:>10.0f} {100 / dilation:>14.3f} {64 * 100 / dilation:>16.2f} {sent / (switch_ns * 1e-9 * dilation):>14,.0f}")
PY
done
