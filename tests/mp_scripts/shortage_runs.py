# tidebox/memory.py's Shortages on its own, under MicroPython, with a clock the script moves: for each
# kind in LIMITS, whether a reboot is due after each miss of a run, and what ends a run. stdout: one
# JSON object.
import json

from tidebox import memory

clock = [1000]


def runs_of(kind, apart_ms):
    """A fresh Shortages; misses of `kind` `apart_ms` apart until one past its limit's count: after
    each, whether a reboot is due."""
    shortages = memory.Shortages(lambda: clock[0])
    due = []
    for _ in range(memory.LIMITS[kind][0] + 1):
        shortages.miss(kind)
        due.append(shortages.reboot_due)
        clock[0] += apart_ms
    return due


out = {"limits": memory.LIMITS}
for kind, name in enumerate(memory.KINDS):
    most, over_ms = memory.LIMITS[kind]
    spread = over_ms // (most - 1) + 1 if most > 1 else 0
    out[name] = {"quick": runs_of(kind, 0), "spread": runs_of(kind, spread)}
    # a success of the same kind ends the run; another kind's does not
    shortages = memory.Shortages(lambda: clock[0])
    for _ in range(most - 1):
        shortages.miss(kind)
        clock[0] += spread
    shortages.fine((kind + 1) % len(memory.KINDS))
    shortages.miss(kind)
    other = shortages.reboot_due
    shortages = memory.Shortages(lambda: clock[0])
    for _ in range(most - 1):
        shortages.miss(kind)
        clock[0] += spread
    shortages.fine(kind)
    shortages.miss(kind)
    out[name]["after_other_fine"] = other
    out[name]["after_fine"] = shortages.reboot_due
shortages = memory.Shortages(lambda: clock[0])
shortages.lost()
out["lost"] = shortages.reboot_due
print(json.dumps(out))
