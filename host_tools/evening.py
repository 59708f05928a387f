"""An evening at the table: the games one after another on one box (one BoxProcess, never restarted),
each played whole by its driver (tests/games/<game>/driver.py, found by game_drivers.driver_for) with
its phones polling, and the heap measured at the game menu after each one against a fresh box's with
the same players.

Used by tests/test_evening.py (every ordered pair of games and all of them in a row twice, at the
test heap), `make bench` (the same on the 32-bit build, when MICROPYTHON points at one) and
`make bench-evening` (the long soak, soak_evening.py)."""

import shutil
import tempfile
import time

from boxrig import WORD_BITS, BoxProcess
from game_drivers import driver_for
from table import Table, back_to_menu

# The Pico W's heap on a 32-bit port: -X heapsize=196896 leaves the firmware the chip's own pool,
# gc.mem_free() + gc.mem_alloc() = 192,384 bytes (firmware/MEMORY.md, read from the RPI_PICO_W build).
CHIP_HEAP_32 = "196896"
# On the 64-bit port the same state takes 1.45 times the heap: in use once the box is up 164,245 B
# against 113,557 B on the 32-bit port (1.446), peak in use during the 8-player Token Tide proof
# 205,248 B against 141,152 B (1.454), means of 3 runs each of memory_proof.run_game's game, measured
# after a collection (2026-12-06: the venv's 64-bit port, and the 32-bit unix port of 3fff03367a, whose
# 64-bit build gives the venv's figures). The chip's pool times 1.45 is 278,957 B; -X heapsize=276K
# gives a pool of 279,296 B on the 64-bit port (1.452 times the chip's).
EVENING_HEAP_KB = 276  # on the 64-bit port (evening_heap)


def evening_heap():
    """The heap an evening is proved at: the Pico W's own pool, on either port. On a 32-bit port the
    chip's pool itself (CHIP_HEAP_32); on the 64-bit port that pool times the measured ratio of 64-bit
    to 32-bit heap in use (EVENING_HEAP_KB), so that the evening stands for the chip (the 208 KB it
    had before stood for a pool of about 145,000 bytes on the chip, against its 192,384). `make
    bench-evening` defaults to it too."""
    return CHIP_HEAP_32 if WORD_BITS == 32 else "%dK" % EVENING_HEAP_KB


def every_pair_and_twice_in_a_row(games):
    """One evening holding every ordered pair of `games` as two games in a row, and all of them in a
    row twice: the games twice in order, then an Eulerian circuit over the pairs not played yet
    (every game has as many pairs left into it as out of it, so one exists). For four games: 16
    games, where the pairs alone would need 12 boxes of two games each."""
    order = list(games) * 2
    left = {(a, b) for a in games for b in games if a != b} - set(zip(order, order[1:]))
    # Hierholzer's algorithm from the last game played
    path, stack = [], [order[-1]]
    while stack:
        here = stack[-1]
        nxt = sorted(b for a, b in left if a == here)
        if nxt:
            left.discard((here, nxt[0]))
            stack.append(nxt[0])
        else:
            path.append(stack.pop())
    return order + path[::-1][1:]


def heap_at_menu(box, looks=3, apart_s=0.5):
    """(live heap, largest free block) in bytes, right after a collection: the least live heap and the
    largest block of `looks` looks `apart_s` apart. What a game left resident is there at every look;
    what a moment holds (a request still being answered, a task the restart just began, a stale
    pointer the collector could not tell from a live one) is not, and a busy machine moves such moments."""
    lives, largests = [], []
    for look in range(looks):
        if look:
            time.sleep(apart_s)
        status = box.api("GET", "/sim/status?gc=1&largest=1")
        lives.append(status["mem_alloc"])
        largests.append(status["max_free"])
    return min(lives), max(largests)


def fresh_heap(tree, heap, players, pace_ms=0):
    """A fresh box's heap at its game menu with each number of phones in `players` at the table:
    {count: (live heap, largest free block)}. Fresh: just switched on with that table saved at its
    game menu (as after a game the box restarts with its table), the saved table taken up (C)."""
    folder = tempfile.mkdtemp(prefix="tidebox-fresh-")
    box = BoxProcess(tree, folder + "/state", heap=heap, pace_ms=pace_ms)
    figures = {}
    try:
        box.start()
        box.wait_screen("choose", timeout=15)
        if 0 in players:
            figures[0] = heap_at_menu(box)
        joined = 0
        for count in sorted(c for c in players if c):
            while joined < count:
                joined += 1
                box.join("Fresh%d" % joined)
            box.kill()  # switched off, and on again
            box.start()
            box.wait_screen("resume", timeout=15)
            box.press("C")  # the table taken up, at the game menu
            box.wait_screen("choose", timeout=15)
            figures[count] = heap_at_menu(box)
    finally:
        box.stop()
    return figures


def play_evening(box, order, table=None, on_game=None):
    """Plays `order` (game ids) on one running box, from its game menu and back to it after each game.
    Returns one record a game: game, ok (played to its end), poll_errors, players, live, largest (at
    the game menu afterwards). A game that cannot start or stops raises, with the game named."""
    table = table or Table()
    records = []
    for at, game in enumerate(order):
        driver = driver_for(game)()
        try:
            final, stats = driver.play(box, table)
            ok = driver.finished(final)
            back_to_menu(box)
        except Exception as exc:
            raise AssertionError("game %d of the evening (%s): %s" % (at + 1, game, exc)) from exc
        live, largest = heap_at_menu(box)
        record = {"game": game, "ok": ok, "poll_errors": stats["errors"], "polls": stats["requests"],
                  "players": len(table.names), "live": live, "largest": largest}
        records.append(record)
        if on_game:
            on_game(record)
    return records


def run_evening(tree, order, heap, pace_ms=0):
    """A fresh box at `heap` (at a Pico W's pace with pace_ms: boxrig.BOARD_PACE_MS) plays `order`.
    Returns a dict: records (play_evening's, as far as the evening got), error (why it stopped, or
    None), crash (the box's crash.log), memory_errors (in its output and crash log), fresh
    (fresh_heap's figures for the table sizes the evening had), soft_resets (the box's restarts of
    itself: when, and how long until it listened again), cut_short (answers the box began and could
    not finish: asked again)."""
    folder = tempfile.mkdtemp(prefix="tidebox-evening-")
    # The firmware as built now, copied: the box restarts itself after every game, and a build made
    # meanwhile (another test, a developer) must not change what an evening runs.
    tree = shutil.copytree(tree, folder + "/tree")
    box = BoxProcess(tree, folder + "/state", heap=heap, pace_ms=pace_ms)
    # A phone asks again when the box says "try again" (503: no room just then, nothing changed);
    # the evening is about games after games, a single game's margin is the memory proof's.
    box.retry_busy = True
    records, error = [], None
    try:
        box.start()
        play_evening(box, order, on_game=records.append)
    except Exception as exc:  # noqa: BLE001 - an evening that stops is a failed evening, with its reason
        error = str(exc)
    finally:
        box.stop()
        with open(box.log.name) as f:
            log = f.read()
    try:
        with open(folder + "/state/crash.log") as f:
            crash = f.read()
    except OSError:
        crash = ""
    players = sorted({r["players"] for r in records})
    fresh = fresh_heap(tree, heap, players, pace_ms) if records else {}
    return {"records": records, "error": error, "crash": crash, "fresh": fresh,
            "memory_errors": log.count("MemoryError") + crash.count("MemoryError"),
            "soft_resets": box.soft_resets, "cut_short": box.cut_short}
