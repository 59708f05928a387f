"""Pearl Reach's rivals on the panel loop, under MicroPython (pearl_reach_tick.py, beside this file): a
rival moves only after the rival speed, only with the board up and never while paused, and a loop pass
with nothing due allocates nothing (the heap locked)."""

import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent  # this game's tests, with its MicroPython modules


@pytest.fixture(scope="module")
def run(mp, tmp_path_factory):
    state = tmp_path_factory.mktemp("pr_tick")
    proc = mp.run(HERE / "pearl_reach_tick.py", heap="512K", env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_loop_pass_with_nothing_due_allocates_nothing(run):
    assert run["person_to_act_idle_pass"] is True
    assert run["rival_thinking_idle_pass"] is True
    assert run["held_while_menu_pass"] is True
    assert run["paused_pass"] is True


def test_the_panel_loop_rests_while_people_are_to_act_and_looks_while_a_rival_is(run):
    # (the flow's acting(): the loop waits for a phone's move rather than looking every 10 ms)
    assert run["person_to_act_at_rest"] is True
    assert run["rival_thinking_at_rest"] is False


def test_a_rival_thinks_for_the_rival_speed_then_moves_by_itself(run):
    assert run["moved_before_speed"] is False
    assert run["moved_while_menu"] is False and run["moved_while_paused"] is False
    # back on the board, the thinking time starts again: 2 s of 10 ms passes; the rival chooses at the
    # first pass due and moves at the next (two passes: a shorter stretch of the loop each)
    assert run["chosen_after_ms"] in (2000, 2010)
    assert run["chosen_pass_moved"] is False
    assert run["moved_after_ms"] == run["chosen_after_ms"] + 10
    assert run["rival_log"].startswith("Gull landed in bay ") and run["next"] == 3  # Heron's turn
