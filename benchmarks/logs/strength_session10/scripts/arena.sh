#!/bin/bash
# arena.sh SNAP SEED DEALS [GAME] : logs in /tmp/s10/logs/SNAP-SEED[-GAME].*
snap=$1 seed=$2 deals=$3 game=${4:-opendaum}
tag=$snap-$seed; [ "$game" != opendaum ] && tag=$tag-$game
cd /tmp/s10/logs
echo "\$ PYTHONPATH=/tmp/s10/$snap nice python3 benchmarks/arena_cpu.py $game --players 4 --bots search:normal,heuristic --deals $deals --seed $seed -j 1 --log $tag.jsonl --timings $tag.t.jsonl" > $tag.out
( time PYTHONPATH=/tmp/s10/$snap nice python3 /tmp/s10/$snap/benchmarks/arena_cpu.py $game --players 4 --bots search:normal,heuristic --deals $deals --seed $seed -j 1 --log $tag.jsonl --timings $tag.t.jsonl ) >> $tag.out 2>&1
