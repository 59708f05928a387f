"""The evening's figures (`make bench`): every ordered pair of the games and all of them in a row twice
on one box (evening.py), at the evening's heap for the interpreter MICROPYTHON names (evening_heap:
208 KB on a 64-bit port, the Pico W's 192 KB on a 32-bit one). After each
game, back at the game menu: the live heap and the largest free block, beside a fresh box's with the
same players; the box's restarts of itself (between the lobby and each game) and how long the phones
went unanswered each time."""

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
