#!/bin/bash
# Side by side: the hot-kernel figures of two trees of this repository, by process CPU
# time (steady on a shared machine), the trees run alternately, N rounds; round 1 also
# counts the solver's nodes. Make the trees with `git worktree add --detach DIR COMMIT`.
# A script that fails stops the run (its error on stderr, a non-zero exit).
#   benchmarks/side_by_side/run.sh OLD_TREE NEW_TREE [N]
set -euo pipefail
OLD=$1 NEW=$2 N=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python}
for i in $(seq 1 "$N"); do
  for tree in "$OLD" "$NEW"; do
    extra=""; [ "$i" = 1 ] && extra="--solver"
    donuts=$(cd /tmp && PYTHONPATH=$tree $PY "$HERE/donuts_cpu.py" $extra) || { echo "run.sh: donuts_cpu.py failed on $tree" >&2; exit 1; }
    boxes=$(cd /tmp && PYTHONPATH=$tree $PY "$HERE/boxes_cpu.py") || { echo "run.sh: boxes_cpu.py failed on $tree" >&2; exit 1; }
    echo "$i $tree $donuts $boxes"
  done
done
