#!/bin/bash
# same.sh: the work tree's defaults play classic and 33 exactly as base; the fast shakhi rollout alone (F1) plays shakhi as base
cd /tmp/s10/logs
run() { # SNAP GAME PLAYERS DEALS
  PYTHONPATH=/tmp/s10/$1 nice python3 /tmp/s10/$1/benchmarks/arena_cpu.py $2 --players $3 --bots search:normal,heuristic --deals $4 --seed 90001 -j 1 --log same-$1-$2-$3.jsonl > /dev/null
}
for g in "opendaum 4 4" "opendaum 3 4" "opendaum-33 3 3" "opendaum-shakhi 4 4" "opendaum-shakhi 2 4"; do
  set -- $g
  for s in base F F1; do run $s $1 $2 $3; done
  for s in F F1; do
    if cmp -s same-base-$1-$2.jsonl same-$s-$1-$2.jsonl; then echo "$1 ${2}p $3 deal-sets: $s identical to base ($(wc -l < same-base-$1-$2.jsonl) games)"; else echo "$1 ${2}p $3 deal-sets: $s DIFFERS from base"; fi
  done
done
