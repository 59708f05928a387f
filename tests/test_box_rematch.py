"""Box.rematch, the core's hook for a fresh game at the same table (Paper Current's new course, the
Quiet Dividend's rematch), on the real firmware under MicroPython: the new game is played at once,
the old game's moves are stale, undo and what the screen showed are cleared, it is saved before
anyone hears of it, and a failed save puts back what flash holds."""

import json

import pytest

from micropython_runner import MP_SCRIPTS


@pytest.fixture(scope="module")
def seen(mp, tmp_path_factory):
    state = tmp_path_factory.mktemp("restart")
    proc = mp.run(MP_SCRIPTS / "box_rematch.py", env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_restart_needs_a_game_being_played(seen):
    assert seen["refused_before_play"] == 409


def test_restart_plays_the_new_game_at_once_and_saves_it(seen):
    assert seen["before"] == {"seq": 1, "can_undo": True, "shown": {"payout": 1}}
    assert seen["after"] == {
        "phase": "play", "seq": 2, "can_undo": False, "shown": {}, "is_fresh": True, "version_up": True,
        "notified": 1, "saved_seq": 2, "saved_phase": "play", "saved_is_fresh": True, "turn": 1,
    }


def test_moves_sent_on_the_old_game_are_stale(seen):
    assert seen["stale_move"] == 409  # sent on the view of seq 1: the old game's
    assert seen["stale_undo"] == 409  # nothing to undo across a restart
    assert seen["moved"] == 3


def test_a_failed_save_puts_back_what_flash_holds(seen):
    assert seen["over"] == "over"
    assert seen["failed_save"] == 503
    back = seen["after_failed_save"]
    assert back == {"phase": "over", "seq": True, "state_is_flash": True, "is_over": True}
    assert seen["rematch"] == {"phase": "play", "seq_up": True, "over": False, "saved": True}
