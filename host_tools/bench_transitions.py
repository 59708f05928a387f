"""The evening's figures (`make bench`): every ordered pair of the games and all of them in a row twice
on one box (evening.py), at the evening's heap for the interpreter MICROPYTHON names (evening_heap:
208 KB on a 64-bit port, the Pico W's 192 KB on a 32-bit one). After each
game, back at the game menu: the live heap and the largest free block, beside a fresh box's with the
same players; the box's restarts of itself (between the lobby and each game) and how long the phones
went unanswered each time.

Run alone, `python host_tools/bench_transitions.py --runs 10` plays the evening that many times, a
fresh box each, and says how many runs had no failed start, no unanswered poll, nothing in crash.log
and the menu's heap within its goals (`MICROPYTHON=<a 32-bit build>` for the board's figures)."""

import argparse
import sys
import time

import build
from boxrig import WORD_BITS
from evening import evening_heap, every_pair_and_twice_in_a_row, run_evening
from table import firmware_games


def run():
    heap = evening_heap()
    yield "evening_heap", heap, "(%d-bit port)" % WORD_BITS
    order = every_pair_and_twice_in_a_row([game for game, _ in firmware_games().GAMES])
    result = run_evening(build.build_sim(), order, heap)
    records = result["records"]
    yield "evening_games_played", len(records), "of %d" % len(order)
    yield "evening_failed_starts", len(order) - len(records), ""
    yield "evening_stopped_by", result["error"] or "-", ""
    yield "evening_poll_errors", sum(len(r["poll_errors"]) for r in records), ""
    yield "evening_memory_errors", result["memory_errors"], ""
    yield "evening_answers_cut_short", result["cut_short"], "(asked again, as a page does)"
    for at, r in enumerate(records, 1):
        live, largest = result["fresh"][r["players"]]
        yield "menu_after_%02d_%s_live_kb" % (at, r["game"]), round(r["live"] / 1024, 1), \
            "KB (a fresh box with %d players: %.1f)" % (r["players"], live / 1024)
        yield "menu_after_%02d_%s_largest_free_kb" % (at, r["game"]), round(r["largest"] / 1024, 1), \
            "KB (fresh: %.1f)" % (largest / 1024)
    worst_live, worst_largest = worst_differences(result)
    yield "menu_live_kb_worst_difference", round(worst_live / 1024, 2), "KB (goal: within 1)"
    yield "menu_largest_free_kb_worst_difference", round(worst_largest / 1024, 2), "KB (goal: within 2)"
    gaps = sorted(ms for _, ms in result["soft_resets"])
    if gaps:
        yield "box_restarts", len(gaps), "(1 a game: back at the game menu)"
        yield "restart_unanswered_ms_median", round(gaps[len(gaps) // 2] * 1000), "ms"
        yield "restart_unanswered_ms_max", round(gaps[-1] * 1000), "ms"


def worst_differences(result):
    """The menu's live heap and largest free block after each game against a fresh box's: the worst."""
    worst_live = worst_largest = 0
    for r in result["records"]:
        live, largest = result["fresh"][r["players"]]
        worst_live = max(worst_live, abs(r["live"] - live))
        worst_largest = max(worst_largest, abs(r["largest"] - largest))
    return worst_live, worst_largest


def one_evening(order, heap):
    """One evening on a fresh box: what a table would see, and the menu's worst heap differences."""
    result = run_evening(build.build_sim(), order, heap)
    records = result["records"]
    worst_live, worst_largest = worst_differences(result)
    return {
        "played": len(records), "failed_starts": len(order) - len(records), "stopped_by": result["error"],
        "poll_errors": sum(len(r["poll_errors"]) for r in records), "crash": bool(result["crash"]),
        "memory_errors": result["memory_errors"], "worst_live": worst_live, "worst_largest": worst_largest,
    }


def runs(count):
    heap = evening_heap()
    order = every_pair_and_twice_in_a_row([game for game, _ in firmware_games().GAMES])
    print("%d evenings of %d games at %s of heap (%s-bit port)" % (count, len(order), heap, WORD_BITS))
    good = 0
    for n in range(1, count + 1):
        began = time.monotonic()
        r = one_evening(order, heap)
        ok = (r["failed_starts"] == 0 and r["poll_errors"] == 0 and not r["crash"] and r["worst_live"] <= 1024
              and r["worst_largest"] <= 2048)
        good += ok
        print("run %2d: %s  games %d/%d, failed starts %d, unanswered polls %d, crash.log %s, MemoryErrors "
              "in its output %d, menu heap worst +-%.2f KB live / +-%.2f KB largest free block (%.0f s)%s" % (
                  n, "pass" if ok else "FAIL", r["played"], len(order), r["failed_starts"], r["poll_errors"],
                  "written" if r["crash"] else "empty", r["memory_errors"], r["worst_live"] / 1024,
                  r["worst_largest"] / 1024, time.monotonic() - began,
                  "" if r["stopped_by"] is None else "  stopped by: %s" % r["stopped_by"]), flush=True)
    print("evenings passed: %d of %d" % (good, count))
    return good == count


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="how many evenings (default 10)")
    sys.exit(0 if runs(parser.parse_args().runs) else 1)
