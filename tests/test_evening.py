"""An evening at the table: every ordered pair of the box's games and all of them in a row twice,
one after another on one box that is never restarted from outside (evening.py: 16 games for four),
each played whole by its driver with its phones polling, at the evening's heap. The box restarts itself
after each game (tidebox/restart.py); what is checked is what a table sees: every game starts and
is played to its end, every poll is answered (a 503 "try again" asked again, as a phone's page
does), nothing written to crash.log, and back at the game menu
after each game the box is a fresh box: its live heap within 1 KB and its largest free block within
2 KB of a freshly switched-on box's with the same players."""

import pytest
from evening import evening_heap, every_pair_and_twice_in_a_row, run_evening
from table import firmware_games

pytestmark = pytest.mark.slow  # the real firmware, game after game

LIVE_SLACK = 1024
LARGEST_SLACK = 2048


def test_every_ordered_pair_of_games_and_all_in_a_row_twice_on_one_box(sim_tree):
    games = [game for game, _ in firmware_games().GAMES]
    order = every_pair_and_twice_in_a_row(games)
    pairs = set(zip(order, order[1:]))
    assert all((a, b) in pairs for a in games for b in games if a != b)
    assert order[:2 * len(games)] == games * 2

    # At the evening's heap (276 KB on the 64-bit port, the Pico W's 192 KB pool on a 32-bit one) and a
    # computer's pace; the long evening at the board's pace is make bench-evening's.
    result = run_evening(sim_tree, order, evening_heap())
    assert result["error"] is None, result
    records = result["records"]
    assert [r["game"] for r in records] == order  # 0 failed starts: each game began and ended
    for r in records:
        assert r["ok"], r
        assert r["poll_errors"] == [], r
    assert result["crash"] == ""  # nothing failed unsaid: a 503 "try again" was the box saying so
    for at, r in enumerate(records):
        live, largest = result["fresh"][r["players"]]
        assert abs(r["live"] - live) <= LIVE_SLACK, (at, r, live)
        assert abs(r["largest"] - largest) <= LARGEST_SLACK, (at, r, largest)
