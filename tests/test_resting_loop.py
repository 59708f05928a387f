"""The panel loop at rest, under MicroPython (tests/mp_scripts/resting_loop.py, tidebox/running.py).

On a board whose buttons have a wake flag (the Pico's pin interrupts set it), the loop stops its 100
passes a second while nothing on the panel changes with time alone, and runs a pass only when the
flag is set: by an edge, by a change of the box (a phone's join), or by its own look every second.
Counted, not timed: each resting pass must come from one setting of the flag.
"""

import json

import pytest
from boxrig import BOX_HEAP
from micropython_runner import MP_SCRIPTS


@pytest.fixture(scope="module")
def rest(mp):
    proc = mp.run(MP_SCRIPTS / "resting_loop.py", heap=BOX_HEAP)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_game_menu_rests_between_wakes(rest):
    assert rest["menu_at_rest"]
    # each pass at rest follows a setting of the flag (one more: the pass that was under way)
    assert rest["menu_passes"] <= rest["menu_sets"] + 1, rest


def test_a_wake_from_the_buttons_handles_the_press(rest):
    assert rest["press_moved_cursor"]


def test_a_phones_change_wakes_the_loop_and_is_drawn(rest):
    assert rest["join_woke"], "the join's touch did not set the wake flag"
    assert rest["lobby_passes"] <= rest["lobby_sets"] + 1, rest


def test_a_running_countdown_keeps_the_loop_looking(rest):
    assert not rest["countdown_at_rest"]
    # 10 ms passes against a look every second: many more passes than sets
    assert rest["countdown_passes"] >= 3 * rest["countdown_sets"], rest


def test_the_loop_lets_go_of_the_flag_when_it_ends(rest):
    assert rest["wake_let_go"]
