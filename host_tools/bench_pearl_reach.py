"""Pearl Reach figures for `make bench`: the balance of this edition's numbers over 2,000 seeded
rival-against-rival games, and what a rival's move costs on the MicroPython unix port (time, and
x86-64 instructions under callgrind when valgrind is installed) with the estimated RP2040 time. A
move's time is the fastest of three runs of the same choice, the collector run before each
(tests/games/pearl_reach/pearl_reach_play.py, time_moves): the rival's own work; the board's collections
come on top (firmware/MEMORY.md)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "firmware"))

import build  # noqa: E402
import pearl_reach_balance  # noqa: E402

# The rough RP2040 time (firmware/MEMORY.md): instructions x 1.3 (Thumb density) / (133 MHz x 0.8 IPC).
RP2040_INSTRUCTIONS_PER_S = 133e6 * 0.8 / 1.3
# A desktop core runs MicroPython some 30-50 times faster than the RP2040: the slow end.
RP2040_SLOWDOWN = 50


def _micropython(code, valgrind=None):
    env = dict(os.environ)
    env["MICROPYPATH"] = "%s:%s:.frozen" % (ROOT / "firmware", ROOT / "tests" / "games" / "pearl_reach")
    command = [build.micropython(), "-X", "heapsize=192K", "-c", code]
    if valgrind:
        command = valgrind + command
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, check=True)


def _timing(gatherers, strength, games=40):
    code = "import json, pearl_reach_play as p; print(json.dumps(p.time_moves(%d, %d, %r)))" % (
        games, gatherers, strength)
    moves, total, worst = json.loads(_micropython(code).stdout)
    return total / moves, worst


def _instructions(gatherers, strength, small=2, large=8):
    """x86-64 instructions per rival choice: two runs, the difference divided by the extra moves."""
    counts = []
    with tempfile.TemporaryDirectory() as tmp:
        for games in (small, large):
            out = Path(tmp) / ("cg.%d" % games)
            code = "import pearl_reach_play as p; print(p.count_moves(%d, %d, %r))" % (
                games, gatherers, strength)
            proc = _micropython(code, ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s" % out])
            moves = int(proc.stdout.split()[-1])
            total = None
            for line in out.read_text().splitlines():
                if line.startswith("summary:") or line.startswith("totals:"):
                    total = int(line.split()[1])
            counts.append((moves, total))
    (m1, i1), (m2, i2) = counts
    return (i2 - i1) / (m2 - m1)


def run():
    figures = pearl_reach_balance.balance(pearl_reach_balance.GAMES)
    yield "pearl_reach balance games (2 gatherers, sharp rivals)", figures["games"], "games"
    yield "pearl_reach first seat wins (rivals' own openings)", round(100 * figures["first_seat"], 1), "%"
    yield "pearl_reach first seat wins (opening drawn anywhere)", round(
        100 * figures["first_seat_any_opening"], 1), "%"
    name, (rate, n) = pearl_reach_balance.best_opening(figures)
    yield "pearl_reach best opening placement (%s, %d games) wins" % (name, n), round(100 * rate, 1), "%"
    for gatherers in (2, 4):
        for strength in ("sharp", "easy"):
            average, worst = _timing(gatherers, strength)
            label = "pearl_reach %s rival move, %d gatherers" % (strength, gatherers)
            yield label + ", unix port mean", round(average), "us"
            yield label + ", unix port worst", worst, "us"
            estimate = round(average * RP2040_SLOWDOWN / 1000, 1)
            yield label + ", RP2040 estimate (x%d)" % RP2040_SLOWDOWN, estimate, "ms"
            yield label + ", RP2040 estimate worst (x%d; the aim: under 200 ms)" % RP2040_SLOWDOWN, round(
                worst * RP2040_SLOWDOWN / 1000, 1), "ms"
    if shutil.which("valgrind"):
        for strength in ("sharp", "easy"):
            per_move = _instructions(2, strength)
            yield "pearl_reach %s rival move x86-64 instructions" % strength, round(per_move), "instructions"
            yield "pearl_reach %s rival move RP2040 estimate (instructions)" % strength, round(
                1000 * per_move / RP2040_INSTRUCTIONS_PER_S, 1), "ms"


if __name__ == "__main__":
    for figure, value, unit in run():
        print("%s: %s %s" % (figure, value, unit), flush=True)
