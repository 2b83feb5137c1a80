#!/usr/bin/env bash
# Why htsim_uec's last flow ends late: runs uet-htsim's "Large permutation, oblivious, large queues (1024 nodes), 8 core
# links" (validate_load_balancing_failed_snd.txt) at one seed, names the flow that ends last with its finish and the
# run's retransmissions against its NACKs (one more: a retransmission timeout), then runs it again with that flow's own
# trace on (uet-htsim's _debug_flowid) and prints the trace around the flow's longest silence: what it sent (psn, window,
# flight, ack request), what its receiver got and whether it acknowledged it, and the timer that ended the wait.
#
#   bench/uet/stall_trace.sh SIM_DIR SEED    (SIM_DIR: uet-htsim's htsim/sim; from the repository root)
#
# _debug_flowid is a constant in uec.cpp, so the source is copied to a temporary folder, the constant is read from
# TRACE_FLOWID there, and htsim_uec is built in it (a few minutes on two cores); SIM_DIR itself is only read.
set -euo pipefail
if [ $# -ne 2 ] || [ ! -f "${1:-}/uec.cpp" ] || [ ! -f "$1/datacenter/connection_matrices/perm_1024n_1024c_0u_2000000b.cm" ]; then
    echo "stall_trace: give uet-htsim's htsim/sim directory (with uec.cpp and datacenter/connection_matrices) and a seed, got '${*:-nothing}'" >&2
    exit 2
fi
case $2 in [1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; *) echo "stall_trace: the seed is a number from 1 to 999, got '$2'" >&2; exit 2 ;; esac
SIM=$(cd "$1" && pwd)
SEED=$2
WORK=$(mktemp -d "${TMPDIR:-/tmp}/stall-trace.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cp -a "$SIM" "$WORK/sim"
sed -i 's/^flowid_t UecSrc::_debug_flowid = UINT32_MAX;/flowid_t UecSrc::_debug_flowid = getenv("TRACE_FLOWID") ? (flowid_t)atoi(getenv("TRACE_FLOWID")) : UINT32_MAX;/' "$WORK/sim/uec.cpp"
grep -q 'getenv("TRACE_FLOWID")' "$WORK/sim/uec.cpp" || { echo "stall_trace: uec.cpp has no '_debug_flowid = UINT32_MAX' line to trace by" >&2; exit 2; }
rm -rf "$WORK/sim/build"
{ cmake -S "$WORK/sim" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$WORK/build" --target htsim_uec --parallel 2; } \
    > "$WORK/build.log" 2>&1 || { echo "stall_trace: htsim_uec did not build:" >&2; tail -5 "$WORK/build.log" >&2; exit 1; }
run() {
    (cd "$WORK" && "$WORK/build/datacenter/htsim_uec" -tm "$SIM/datacenter/connection_matrices/perm_1024n_1024c_0u_2000000b.cm" \
        -seed "$SEED" -sender_cc_only -end 3000 -q 500 -load_balancing_algo oblivious -paths 128 -failed 8)
}
run > "$WORK/plain.out" 2>&1
LAST=$(grep ' finished at ' "$WORK/plain.out" | awk '{for (i = 1; i < NF; i++) if ($i == "at") print $(i + 1), $4}' | sort -g | tail -2)
FLOW=$(echo "$LAST" | tail -1 | cut -d' ' -f2)
echo "seed $SEED: last flow $FLOW at $(echo "$LAST" | tail -1 | cut -d' ' -f1) µs, the one before it at $(echo "$LAST" | head -1 | cut -d' ' -f1) µs"
grep ' finished at ' "$WORK/plain.out" | grep "flowId $FLOW " | cut -d' ' -f1-17
grep '^New:' "$WORK/plain.out"
TRACE_FLOWID=$FLOW run 2>&1 | grep "flowid $FLOW " \
    | grep -E 'sending (rtx )?pkt|checkSack|sendAckNow|rtx timer|Spurious|multiplicative_decrease|handle(Cumulative)?Ack|track_avg_rtt' \
    | awk '{ t = $1 + 0; line[NR] = $0; if (NR > 1 && t - prev > gap) { gap = t - prev; at = NR } prev = t }
           END { printf "longest silence: %.2f µs, after %s\n", gap, line[at - 1]; for (i = at - 14; i <= at + 8; i++) if (i > 0 && i <= NR) print line[i] }' \
    | cut -c1-200
