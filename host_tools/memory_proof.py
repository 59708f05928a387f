"""The memory proof: a scripted whole game (8-player Token Tide unless another game's driver is given:
tests/games/<game>/driver.py, game_drivers.driver_for) with every phone polling once a second, run on
the compiled firmware (.mpy, as on the board) under the MicroPython unix port with a given heap.
Shared by tests/test_memory.py (one heap, must pass) and bench_memory.py (bisection).

    python host_tools/memory_proof.py [game ...]

plays each game (every game in GAMES by default) whole at PROOF_HEAP_KB on a fresh box, from its game
menu, and prints how it went; the exit status is 1 when one did not pass."""

import http.client
import json
import re
import sys
import tempfile
import threading
import time

import build
from boxrig import Background, BoxProcess
from game_drivers import driver_for

# The heap the proof runs at in `make test`: the heap of every other test on this port
# (boxrig.pico_heap: a little less room than the Pico W's pool leaves the firmware, which is 267-275 KB
# here). Memory is judged on the chip's pool and on the 32-bit build, not by an edge of this 64-bit
# port: the margin is proved there, by each game played whole from ROMFS in 104 KB on the 32-bit build
# (tests/test_memory.py) and by the emulated chip's evening (at least 64 KB free throughout).
PROOF_HEAP_KB = 256


class AllocSampler(Background):
    """Samples gc.mem_alloc() right after a collection (what is really in use; without one, the
    figure just climbs to the heap size before MicroPython collects) during a run."""

    def __init__(self, box, period=0.05):
        super().__init__()
        self.box = box
        self.period = period
        self.peak = 0
        self.samples = 0
        self.threads.append(threading.Thread(target=self.run, daemon=True))

    def run(self):
        while not self.stop.is_set():
            try:
                _, _, payload = self.box.request("GET", "/sim/status?gc=1")
                self.peak = max(self.peak, json.loads(payload)["mem_alloc"])
                self.samples += 1
            except (OSError, ValueError, http.client.HTTPException):
                pass  # a sample missed (the box answers the phones first)
            self.stop.wait(self.period)


def run_game(heap_kb, tree=None, sample=False, romfs=None, driver=None):
    """Plays the whole game (driver: a game's Driver, Token Tide's by default) at heap_kb.
    Returns a dict: ok, memory_errors, poll_errors, peak_alloc.

    romfs: (tree, image bytes) from romfs.build_romfs_tree(): the code runs from a ROMFS image, which
    the unix port holds in its heap and a board in flash, so the heap given is heap_kb plus the image."""
    tree = tree or build.build_sim()
    driver = driver or driver_for("token_tide")()
    folder = tempfile.mkdtemp(prefix="tidebox-mem-")
    if romfs:
        tree, image_bytes = romfs
        box = BoxProcess(tree, folder + "/state", heap="%dK" % (heap_kb + -(-image_bytes // 1024)),
                         script="boot_rom.py")
    else:
        box = BoxProcess(tree, folder + "/state", heap="%dK" % heap_kb)
    result = {"game": driver.game, "heap_kb": heap_kb, "ok": False, "memory_errors": 0, "poll_errors": [],
              "peak_alloc": 0, "error": None}
    started = time.monotonic()
    try:
        box.start()
        if sample:
            with AllocSampler(box) as sampler:
                final, stats = driver.play(box)
            result["peak_alloc"] = sampler.peak
        else:
            final, stats = driver.play(box)
        result["ok"] = driver.finished(final)
        result["poll_errors"] = stats["errors"]
        result["poll_requests"] = stats["requests"]
        result["phones_told_the_end"] = stats.get("told_the_end", 0)
    except Exception as exc:  # noqa: BLE001 - a run that dies is a failed run, with its reason
        result["error"] = repr(exc)
    finally:
        box.stop()
        try:
            with open(box.log.name) as f:
                log = f.read()
        except (OSError, AttributeError):
            log = ""
        result["memory_errors"] = log.count("MemoryError")
        # main.py prints the free heap once everything is set up, before any phone connects.
        free = re.search(r"(\d+) bytes free", log)
        result["boot_alloc"] = heap_kb * 1024 - int(free.group(1)) if free else None
        crash = folder + "/state/crash.log"
        try:
            with open(crash) as f:
                result["memory_errors"] += f.read().count("MemoryError")
        except OSError:
            pass
        result["seconds"] = time.monotonic() - started
    result["passed"] = result["ok"] and not result["memory_errors"] and not result["poll_errors"]
    return result


def said(r, players):
    """One line on a run_game result `r` (a driver seating `players` phones)."""
    return ("%s: %s at %d KB, %.0f s: %s; %d of %d phones told the end, %s polls, %d poll errors, "
            "%d MemoryErrors%s" % (
                r["game"], "passed" if r["passed"] else "FAILED", r["heap_kb"], r["seconds"],
                "played to its end" if r["ok"] else "not played to its end", r.get("phones_told_the_end", 0),
                players, r.get("poll_requests", "no"), len(r["poll_errors"]), r["memory_errors"],
                "; " + r["error"] if r["error"] else ""))


def main(argv):
    games = argv[1:] or list(build.game_ids())
    drivers = [driver_for(game)() for game in games]  # a game without its driver fails before any is played
    tree = build.build_sim()
    failed = 0
    for driver in drivers:
        result = run_game(PROOF_HEAP_KB, tree, driver=driver)
        failed += not result["passed"]
        print(said(result, driver.players), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
