#!/bin/bash
# The evaluation as a Slurm job array: one task per shard, then one job that merges them once every task has ended.
# Submit from the project's root on a cluster whose nodes share it (the build done once: ./mvnw -B -q package -DskipTests).
# Everything it writes, logs included, goes under results/, which git ignores and no source shares:
#   mkdir -p results && sbatch docs/examples/evaluate-slurm.sh
# and results/evaluation/index.html is the merged evaluation; rm -rf results/ removes it all.
#SBATCH --job-name=trimswitch-evaluate
#SBATCH --array=1-8
#SBATCH --cpus-per-task=4
#SBATCH --time=00:30:00
#SBATCH --output=results/evaluate-%A-%a.log
set -euo pipefail
shards=${SLURM_ARRAY_TASK_COUNT:-8}
cli/trimswitch evaluate --quiet --jobs "$SLURM_CPUS_PER_TASK" \
  --shard "$SLURM_ARRAY_TASK_ID/$shards" --out "results/shard-$SLURM_ARRAY_TASK_ID"
# The last task to start queues the merge, to run after every task of the array has succeeded.
if [ "$SLURM_ARRAY_TASK_ID" = "$shards" ]; then
  sbatch --dependency="afterok:$SLURM_ARRAY_JOB_ID" --job-name=trimswitch-merge --output=results/merge-%j.log \
    --wrap "cli/trimswitch evaluate --merge $(for i in $(seq 1 "$shards"); do printf 'results/shard-%s ' "$i"; done) --out results/evaluation"
fi
