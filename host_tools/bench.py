"""`make bench`: speed, size and memory figures, each printed as `name: value unit` on its own line.

Every host_tools/bench_*.py module contributes: its `run()` yields (name, value, unit) tuples.
Nothing here asserts; budgets are read by people (and by the tests where a count is deterministic).
"""

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "firmware"))


def main(only=None):
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    failed = 0
    for name in modules:
        if only and name not in only:
            continue
        module = importlib.import_module(name)
        started = time.monotonic()
        print("# %s" % name, flush=True)
        try:
            for figure, value, unit in module.run():
                print("%s: %s %s" % (figure, value, unit), flush=True)
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            failed += 1
            print("# %s failed: %r" % (name, exc), flush=True)
        print("# %s took %.1f s" % (name, time.monotonic() - started), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
