#!/usr/bin/env bash
# Ultra Ethernet hosts, uet-htsim and trimswitch side by side: the experiments of uet-htsim's validate_uec_sender.txt
# that use what trimswitch models (sender-based NSCC, ideal trimming switches, REPS or another load balancer), each
# run by htsim_uec and by `trimswitch fabric --transport uet` on the same matrix and htsim's default fat tree. Prints
# each experiment's tail, the last flow's finish in µs from time zero (htsim's "finished at"), in both, how far apart
# they are, and how many flows completed in each.
#
#   bench/uet/agreement.sh [small|all] [reps|oblivious]     (from the repository root, after ./mvnw package;
#                                                             small: the 16-node experiments; all: also 128 and 1024 nodes)
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
case $LB in reps|oblivious) ;; *) echo "agreement: the load balancer is reps or oblivious, got '$LB'" >&2; exit 2 ;; esac
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

printf '%-52s %10s %12s %8s %8s\n' "experiment ($LB)" "htsim_uec" "trimswitch" "diff" "flows"
i=0
for line in "${experiments[@]}"; do
    IFS='|' read -r name cm hopts topts <<<"$line"
    i=$((i + 1))
    # shellcheck disable=SC2086
    (cd "$UET_HTSIM" && ./htsim_uec -tm "$cms/$cm" -sender_cc_only -load_balancing_algo "$LB" $hopts) > "$out/$i.htsim.out" 2>&1
    # shellcheck disable=SC2086
    cli/trimswitch fabric --matrix "$cms/$cm" --transport uet --load-balancer "$LB" --mechanism ideal --mtu 4086 $topts \
        --json "$out/$i.json" > /dev/null
    python3 - "$out/$i.htsim.out" "$out/$i.json" "$name" "$cms/$cm" <<'PY'
import json, sys
htsim = [float(line.split(" finished at ")[1].split()[0]) for line in open(sys.argv[1]) if " finished at " in line]
flows = json.load(open(sys.argv[2]))["flows"]
ours = [f["finishUs"] for f in flows if "finishUs" in f]
connections = next(int(line.split()[1]) for line in open(sys.argv[4]) if line.startswith("Connections"))
a, b = max(htsim, default=float("nan")), max(ours, default=float("nan"))
done = f"{len(htsim)}/{len(ours)} of {connections}"
print(f"{sys.argv[3]:<52} {a:8.1f} µs {b:8.1f} µs {100 * (b - a) / a:+7.2f} % {done}")
PY
done
