#!/usr/bin/env bash
# Runs one of uet-htsim's validation files (validate_*.txt, read beside its connection_matrices/ and topologies/) in
# trimswitch, and in htsim_uec when HTSIM_UEC names its binary, and prints a table: per experiment, the tail and p50
# finish time, flows finished, wall time and peak memory of each simulator, and the target the file states. Each
# htsim_uec flag without an equivalent here is named on a line of its own before the table.
#   bench/uet/validate.sh [--seeds N] FILE   (from the repository root, after ./mvnw package; ONLY=REGEX keeps the
#   experiments it names; with --seeds N, or SEEDS=N, each experiment runs with seeds 1 to N in each simulator and the
#   table gives the mean tails, their standard errors and whether they agree)
set -euo pipefail
seeds=()
if [ $# -eq 3 ] && [ "$1" = --seeds ]; then
    seeds=(--seeds "$2")
    shift 2
fi
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "validate: give one of uet-htsim's validate_*.txt files, got '${*:-nothing}'" >&2
    exit 2
fi
FILE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 bench/uet/validate.py "${seeds[@]}" "$FILE"
