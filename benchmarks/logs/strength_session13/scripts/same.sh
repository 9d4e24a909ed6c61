#!/bin/bash
# same.sh SNAP_A SNAP_B GAME PLAYERS DEALS SEED: the two snapshots' arena logs compared
a=$1; b=$2; g=$3; p=$4; d=$5; s=$6
for snap in $a $b; do
  PYTHONPATH=/tmp/s13/$snap nice python3 /tmp/s13/$snap/benchmarks/arena_cpu.py $g --players $p --bots search:normal,heuristic --deals $d --seed $s -j 1 --log /tmp/s13/same-$snap-$g-$p.jsonl >/dev/null 2>&1
done
if cmp -s /tmp/s13/same-$a-$g-$p.jsonl /tmp/s13/same-$b-$g-$p.jsonl; then echo "$g ${p}p $d deal-sets: $b identical to $a ($(wc -l < /tmp/s13/same-$a-$g-$p.jsonl) games)"; else echo "$g ${p}p $d deal-sets: $b DIFFERS from $a"; fi
