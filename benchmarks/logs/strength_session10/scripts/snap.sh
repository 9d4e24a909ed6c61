#!/bin/bash
# snap.sh NAME [python-assignments...]: /tmp/s10/NAME = HEAD + my opendaum search files, class defaults changed
set -e
name=$1; shift
d=/tmp/s10/$name
rm -rf $d; mkdir -p $d
cd /work/main && git archive HEAD | tar -x -C $d
cp /work/main/koloda/bots/search/games/opendaum*.py $d/koloda/bots/search/games/
for kv in "$@"; do
  k=${kv%%=*}; v=${kv#*=}
  python3 - "$d/koloda/bots/search/games/opendaum.py" "$k" "$v" <<'PY'
import re, sys
p, k, v = sys.argv[1:]
s = open(p).read()
s2, n = re.subn(rf"^(    {k}: ClassVar\[[^\]]*\]) = .*$", rf"\1 = {v}", s, count=1, flags=re.M)
assert n == 1, k
open(p, "w").write(s2)
PY
done
grep -n "ClassVar" $d/koloda/bots/search/games/opendaum.py | grep -E "$(printf '%s|' "$@" | sed 's/=[^|]*//g; s/|$//')" || true
