#!/usr/bin/env bash
# What uet-htsim cannot show: uet-htsim's sender experiments on trimswitch's switch designs, NDP and UET hosts side by
# side. Each experiment of validate_uec_sender.txt that runs on 16 hosts (and, with `all`, the 128-host incast) runs
# with every switch `ideal` (uet-htsim's and htsim's trimming queue), `tofino` (meters, the three-state loop,
# deflect-on-drop) and `dod` (deflect-on-drop alone), once with NDP hosts and once with UET hosts (NSCC, REPS). Prints
# per run the last flow's finish, the packets trimmed to headers, the NACKs (NDP's receivers NACK every header) and the
# packets sent again.
#
#   bench/uet/mechanisms.sh [small|all]      (from the repository root, after ./mvnw package)
#
# It builds nothing and copies nothing: the matrices are uet-htsim's own, read from its checkout ($UET_HTSIM, as in
# bench/uet/agreement.sh; htsim_uec itself is not run).
set -euo pipefail
cd "$(dirname "$0")/../.."
SET=${1:-small}
case $SET in small|all) ;; *) echo "mechanisms: the set is small or all, got '$SET'" >&2; exit 2 ;; esac
UET_HTSIM=${UET_HTSIM:-uet-htsim/htsim/sim/datacenter}
if [ ! -d "$UET_HTSIM/connection_matrices" ]; then
    echo "mechanisms: no connection_matrices in $UET_HTSIM; clone uet-htsim and point UET_HTSIM at its datacenter directory:" >&2
    echo "  git clone https://github.com/ultraethernet/uet-htsim   (then UET_HTSIM=uet-htsim/htsim/sim/datacenter)" >&2
    exit 2
fi
[ -f cli/target/trimswitch.jar ] || { echo "mechanisms: needs cli/target/trimswitch.jar (./mvnw -B package -DskipTests)" >&2; exit 2; }
out=results/uet
mkdir -p "$out"
cms=$(cd "$UET_HTSIM/connection_matrices" && pwd)

experiments=(
    "16-node incast|incast.cm|"
    "outcast and incast|outcast_incast.cm|"
    "16-node permutation, 128 paths|perm_16n_16c_2MB.cm|--paths 128"
    "16-node permutation, a link at 25 %|perm_16n_16c_2MB.cm|--paths 128 --fail 1"
)
if [ "$SET" = all ]; then
    experiments+=("128-node incast|incast_128.cm|")
fi

printf '%-38s %-5s %-7s %12s %8s %8s %8s\n' experiment hosts switch "last finish" trims NACKs resent
i=0
for line in "${experiments[@]}"; do
    IFS='|' read -r name cm opts <<<"$line"
    for transport in ndp uet; do
        for mechanism in ideal tofino dod; do
            i=$((i + 1))
            # NDP's hosts spray over every path (--paths would limit them: it is UET's entropies only), with a first window
            # and data queues of one bandwidth-delay product (43 packets; 44 MTUs of queue), what UET's get by default.
            extra=$opts
            [ "$transport" = uet ] || extra="${opts//--paths 128/} --initial-window 43 --queue-packets 44"
            # shellcheck disable=SC2086
            cli/trimswitch fabric --matrix "$cms/$cm" --transport "$transport" --mechanism "$mechanism" --mtu 4086 $extra \
                --json "$out/mechanisms-$i.json" > /dev/null
            python3 - "$out/mechanisms-$i.json" "$name" "$transport" "$mechanism" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
flows = r["flows"]
finish = max((f["finishUs"] for f in flows if "finishUs" in f), default=float("nan"))
done = sum(1 for f in flows if "finishUs" in f)
nacks = r["uet"]["nacks"] if "uet" in r else r["deliveredHeader"]
resent = sum(f.get("retransmissions", 0) for f in flows)
late = "" if done == len(flows) else f"  ({done} of {len(flows)} done)"
print(f"{sys.argv[2]:<38} {sys.argv[3]:<5} {sys.argv[4]:<7} {finish:9.1f} µs {r['deliveredHeader']:8d} {nacks:8d} {resent:8d}{late}")
PY
        done
    done
done
