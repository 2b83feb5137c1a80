#!/usr/bin/env bash
# The worst case (16 parallel 4:1 incasts, open loop, tofino) in real time under each placement and dilation, beside
# virtual time: drops, trims, the largest DoD queue of each pipeline, the worst lag behind the host clock, and whether
# the run equals virtual time (drops, trims, DoD queues, packets per flow) and kept up (lag at most LAG_NS, default
# 1500 ns of switch time). RUNS runs each (default 3).
#
#   bench/headroom/placements.sh [PLACEMENT:DILATION ...]   (from the repository root, after the build)
#   default: single:400 split:2000 split:1000 split:400 per-pipeline:2000
set -euo pipefail
cd "$(dirname "$0")/../.."
. cli/jdk.sh
[ -f cli/target/trimswitch.jar ] || { echo "placements: build first: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
RUNS=${RUNS:-3}
LAG_NS=${LAG_NS:-1500}
[[ "$RUNS" =~ ^[1-9][0-9]?$ ]] || { echo "placements: RUNS must be a whole number from 1 to 99, got '$RUNS'" >&2; exit 2; }
[[ "$LAG_NS" =~ ^[0-9]+$ ]] || { echo "placements: LAG_NS must be a whole number of nanoseconds, got '$LAG_NS'" >&2; exit 2; }
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=(single:400 split:2000 split:1000 split:400 per-pipeline:2000)
for case in "${CASES[@]}"; do
    [[ "$case" =~ ^(single|split|per-pipeline):[1-9][0-9]*$ ]] || { echo "placements: '$case' is not PLACEMENT:DILATION (single, split or per-pipeline; a whole number)" >&2; exit 2; }
done
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

printf '%-13s %8s %6s %7s %22s %10s %6s %8s\n' placement dilation drops trims "largest DoD queues" "lag (ns)" equal "on time"
first=1
for case in "${CASES[@]}"; do
    placement=${case%%:*} dilation=${case#*:}
    for _ in $(seq "$RUNS"); do
        cli/trimswitch scenario --clock real --dilation "$dilation" --placement "$placement" --compare-virtual --mechanism tofino \
            --transport open-loop --no-ideal --json "$WORK/run.json" > /dev/null 2> "$WORK/err" || { cat "$WORK/err" >&2; exit 1; }
        python3 - "$WORK/run.json" "$placement" "$dilation" "$LAG_NS" "$first" <<'PY'
import json, sys
real, virtual = json.load(open(sys.argv[1]))
placement, dilation, lag_limit, first = sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5] == "1"
def key(r):
    return (r["dropped"], r["trims"]["total"], r["trims"]["ingress"], r["trims"]["dod"],
            [p["maxDodQueue"] for p in r["pipelines"]], [(f["whole"], f["headers"]) for f in r["flows"]])
def row(name, dil, r, lag, equal, on_time):
    dod = ", ".join(str(p["maxDodQueue"]) for p in r["pipelines"])
    print(f"{name:<13} {dil:>8} {r['dropped']:>6} {r['trims']['total']:>7} {dod:>22} {lag:>10} {equal:>6} {on_time:>8}")
if first:
    row("virtual time", "-", virtual, "-", "-", "-")
lag = real["run"]["realTime"]["maxIngressLagNs"]
row(placement, dilation, real, f"{lag:.0f}", "yes" if key(real) == key(virtual) else "no", "yes" if lag <= lag_limit else "no")
PY
        first=0
    done
done
