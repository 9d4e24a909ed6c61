"""Re-join the arena table's wrapped cells: one line a bot, as previous sessions copied them."""
import sys
for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    rows, cur = [], None
    for l in lines:
        if l.startswith("│"):
            cells = [c.strip() for c in l.strip().strip("│").split("│")]
            if cells[0] == "" and cur is not None:
                cur = [(a + " " + b).strip() if b else a for a, b in zip(cur, cells)]
            else:
                if cur is not None:
                    rows.append(cur)
                cur = cells
    if cur is not None:
        rows.append(cur)
    i = next((i for i, l in enumerate(lines) if "paired by" in l or l.startswith("search:normal −")), None)
    tail = " ".join(x.strip() for x in lines[i:i + 2]) if i is not None else ""
    if lines and lines[0].startswith("$ "):
        print(lines[0])
    for l in lines:
        if "deal-sets × rotations" in l:
            print(" " + l.strip())
    for c in rows:
        print("│ " + " │ ".join(c) + " │")
    print(tail)
    print()
