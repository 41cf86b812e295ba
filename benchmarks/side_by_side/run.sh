#!/bin/bash
# Side by side: the hot-kernel figures of two trees of this repository, by process CPU
# time (steady on a shared machine), the trees run alternately, N rounds; round 1 also
# counts the solver's nodes. Make the trees with `git worktree add --detach DIR COMMIT`.
#   benchmarks/side_by_side/run.sh OLD_TREE NEW_TREE [N]
OLD=$1 NEW=$2 N=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python}
for i in $(seq 1 "$N"); do
  for tree in "$OLD" "$NEW"; do
    extra=""; [ "$i" = 1 ] && extra="--solver"
    echo "$i $tree $(cd /tmp && PYTHONPATH=$tree $PY "$HERE/donuts_cpu.py" $extra) $(cd /tmp && PYTHONPATH=$tree $PY "$HERE/boxes_cpu.py")"
  done
done
