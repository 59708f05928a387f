"""The evening's figures (`make bench`): every ordered pair of the games and all of them in a row twice
on one box (evening.py), at the test heap of the interpreter MICROPYTHON names: 208 KB on a 64-bit
port, the Pico W's 192 KB pool (-X heapsize=196896, micropython32.md) on a 32-bit one. After each
game, back at the game menu: the live heap and the largest free block, beside a fresh box's with the
same players; the box's restarts of itself (between the lobby and each game) and how long the phones
went unanswered each time."""

import subprocess

import build
from evening import every_pair_and_twice_in_a_row, run_evening
from memory_proof import PROOF_HEAP_KB
from table import firmware_games

PICO_W_HEAP_32 = 196896  # bytes: on a 32-bit port, the GC heap that gives the Pico W's 192,384-byte pool


def word_bits():
    out = subprocess.run([build.micropython(), "-c", "import sys; print(sys.maxsize.bit_length() + 1)"],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return int(out.strip())


def test_heap():
    return "%d" % PICO_W_HEAP_32 if word_bits() == 32 else "%dK" % PROOF_HEAP_KB


def run():
    heap = test_heap()
    yield "evening_heap", heap, "(%d-bit port)" % word_bits()
    order = every_pair_and_twice_in_a_row([game for game, _ in firmware_games().GAMES])
    result = run_evening(build.build_sim(), order, heap)
    records = result["records"]
    yield "evening_games_played", len(records), "of %d" % len(order)
    yield "evening_failed_starts", len(order) - len(records), ""
    yield "evening_stopped_by", result["error"] or "-", ""
    yield "evening_poll_errors", sum(len(r["poll_errors"]) for r in records), ""
    yield "evening_memory_errors", result["memory_errors"], ""
    yield "evening_answers_cut_short", result["cut_short"], "(asked again, as a page does)"
    worst_live = worst_largest = 0
    for at, r in enumerate(records, 1):
        live, largest = result["fresh"][r["players"]]
        worst_live = max(worst_live, abs(r["live"] - live))
        worst_largest = max(worst_largest, abs(r["largest"] - largest))
        yield "menu_after_%02d_%s_live_kb" % (at, r["game"]), round(r["live"] / 1024, 1), \
            "KB (a fresh box with %d players: %.1f)" % (r["players"], live / 1024)
        yield "menu_after_%02d_%s_largest_free_kb" % (at, r["game"]), round(r["largest"] / 1024, 1), \
            "KB (fresh: %.1f)" % (largest / 1024)
    yield "menu_live_kb_worst_difference", round(worst_live / 1024, 2), "KB (goal: within 1)"
    yield "menu_largest_free_kb_worst_difference", round(worst_largest / 1024, 2), "KB (goal: within 2)"
    gaps = sorted(ms for _, ms in result["soft_resets"])
    if gaps:
        yield "box_restarts", len(gaps), "(1 a game: back at the game menu)"
        yield "restart_unanswered_ms_median", round(gaps[len(gaps) // 2] * 1000), "ms"
        yield "restart_unanswered_ms_max", round(gaps[-1] * 1000), "ms"
