#!/usr/bin/env bash
# Ultra Ethernet hosts, uet-htsim and trimswitch side by side: the experiments of uet-htsim's validate_uec_sender.txt
# that use what trimswitch models (sender-based NSCC, ideal trimming switches, REPS or another load balancer), each
# run by htsim_uec and by `trimswitch fabric --transport uet` on the same matrix and htsim's default fat tree. Prints
# each experiment's tail, the last flow's finish in µs from time zero (htsim's "finished at"), in both, how far apart
# they are, and how many flows completed in each.
#
#   bench/uet/agreement.sh [small|all] [reps|oblivious|bitmap|mixed] [SEEDS]   (from the repository root, after ./mvnw package;
#                                                             small: the 16-node experiments; all: also 128 and 1024 nodes)
#
# Without SEEDS each simulator runs once with its own default seed. With SEEDS, each runs every experiment with seeds 1 to
# SEEDS (htsim_uec's -seed, trimswitch's --seed) and the script prints the mean tail and its standard deviation in each:
# where spraying and the switches' coins decide which packets meet, one run's tail is one draw of a spread.
#
# It builds nothing and copies nothing: the matrices are uet-htsim's own, read from its checkout. $UET_HTSIM names the
# checkout's htsim/sim/datacenter directory (default: uet-htsim/htsim/sim/datacenter), which must hold htsim_uec; to
# build it (a few minutes on two cores):
#   git clone https://github.com/ultraethernet/uet-htsim && cd uet-htsim/htsim/sim
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target htsim_uec --parallel 2
set -euo pipefail
cd "$(dirname "$0")/../.."
SET=${1:-small}
case $SET in small|all) ;; *) echo "agreement: the set is small or all, got '$SET'" >&2; exit 2 ;; esac
LB=${2:-reps}
case $LB in reps|oblivious|bitmap|mixed) ;; *) echo "agreement: the load balancer is reps, oblivious, bitmap or mixed, got '$LB'" >&2; exit 2 ;; esac
SEEDS=${3:-}
case $SEEDS in ''|[1-9]|[1-9][0-9]) ;; *) echo "agreement: SEEDS is a number from 1 to 99, got '$SEEDS'" >&2; exit 2 ;; esac
UET_HTSIM=${UET_HTSIM:-uet-htsim/htsim/sim/datacenter}
if [ ! -x "$UET_HTSIM/htsim_uec" ] || [ ! -d "$UET_HTSIM/connection_matrices" ]; then
    echo "agreement: no htsim_uec and connection_matrices in $UET_HTSIM; build uet-htsim and point UET_HTSIM at its datacenter directory:" >&2
    echo "  git clone https://github.com/ultraethernet/uet-htsim && cd uet-htsim/htsim/sim" >&2
    echo "  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target htsim_uec --parallel 2" >&2
    exit 2
fi
[ -f cli/target/trimswitch.jar ] || { echo "agreement: needs cli/target/trimswitch.jar (./mvnw -B package -DskipTests)" >&2; exit 2; }
out=results/uet
mkdir -p "$out"
cms=$(cd "$UET_HTSIM/connection_matrices" && pwd)

# name | matrix | htsim_uec's options beyond the matrix | trimswitch's. htsim_uec sends 4150-byte packets of 4086 bytes of
# payload by default: --mtu 4086. Its -paths is the number of entropies (64 by default), as trimswitch's --paths for UET.
experiments=(
    "one flow|one.cm|-end 1000|"
    "bidirectional|bidir.cm|-end 1000|"
    "16-node incast|incast.cm|-end 3000|"
    "outcast and incast|outcast_incast.cm|-end 3000|"
    "16-node permutation, 128 entropies|perm_16n_16c_2MB.cm|-end 1000 -paths 128|--paths 128"
    "16-node permutation, 128 entropies, a link at 25 %|perm_16n_16c_2MB.cm|-end 2000 -paths 128 -failed 1|--paths 128 --fail 1"
    "16-node permutation, one path|perm_16n_16c_2MB.cm|-end 2000 -paths 1|--paths 1"
)
if [ "$SET" = all ]; then
    experiments+=(
        "128-node incast|incast_128.cm|-end 30000|"
        "1024-node permutation, 128 entropies|perm_1024n_1024c_0u_2000000b.cm|-end 400 -paths 128|--paths 128"
        "1024-node permutation, 128 entropies, a link at 25 %|perm_1024n_1024c_0u_2000000b.cm|-end 400 -paths 128 -failed 1|--paths 128 --fail 1"
        "1024-node permutation, one path|perm_1024n_1024c_0u_2000000b.cm|-end 3000 -paths 1|--paths 1"
    )
fi

if [ -n "$SEEDS" ]; then
    printf '%-52s %18s %18s %8s %8s\n' "experiment ($LB, seeds 1-$SEEDS)" "htsim_uec" "trimswitch" "diff" "flows"
else
    printf '%-52s %10s %12s %8s %8s\n' "experiment ($LB)" "htsim_uec" "trimswitch" "diff" "flows"
fi
i=0
for line in "${experiments[@]}"; do
    IFS='|' read -r name cm hopts topts <<<"$line"
    i=$((i + 1))
    runs=()
    for seed in $(seq 1 "${SEEDS:-1}"); do
        run=$i${SEEDS:+.$seed}
        hseed=${SEEDS:+-seed $seed}
        tseed=${SEEDS:+--seed $seed}
        # shellcheck disable=SC2086
        (cd "$UET_HTSIM" && ./htsim_uec -tm "$cms/$cm" -sender_cc_only -load_balancing_algo "$LB" $hopts $hseed) > "$out/$run.htsim.out" 2>&1
        # shellcheck disable=SC2086
        cli/trimswitch fabric --matrix "$cms/$cm" --transport uet --load-balancer "$LB" --mechanism ideal --mtu 4086 $topts $tseed \
            --json "$out/$run.json" > /dev/null
        runs+=("$out/$run")
    done
    python3 - "$name" "$cms/$cm" "$SEEDS" "${runs[@]}" <<'PY'
import json, statistics, sys
name, matrix, seeds, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
connections = next(int(line.split()[1]) for line in open(matrix) if line.startswith("Connections"))
tails, done = ([], []), [0, 0]
for run in runs:
    htsim = [float(line.split(" finished at ")[1].split()[0]) for line in open(run + ".htsim.out") if " finished at " in line]
    ours = [f["finishUs"] for f in json.load(open(run + ".json"))["flows"] if "finishUs" in f]
    for k, finishes in enumerate((htsim, ours)):
        tails[k].append(max(finishes, default=float("nan")))
        done[k] += len(finishes)
a, b = (statistics.mean(t) for t in tails)
flows = f"{done[0]}/{done[1]} of {connections * len(runs)}"
if seeds:
    sa, sb = (statistics.stdev(t) if len(t) > 1 else 0.0 for t in tails)
    print(f"{name:<52} {a:7.1f} ± {sa:4.1f} µs {b:7.1f} ± {sb:4.1f} µs {100 * (b - a) / a:+7.2f} % {flows}")
else:
    print(f"{name:<52} {a:8.1f} µs {b:8.1f} µs {100 * (b - a) / a:+7.2f} % {flows}")
PY
done
