"""The box restarts itself on a fresh heap when phones' requests keep failing for want of memory
(tidebox/transport.py short_of_memory, restart.py), counted under MicroPython with the real routes
(tests/mp_scripts/shortage_count.py): a move whose route runs out of memory counts, the other
phones' idle polls answered in between do not reset the count (their answer is made once and needs
no room), a move made does, and shortages further apart than SHORT_GAP_MS never add up."""

import json

import pytest
from micropython_runner import MP_SCRIPTS


@pytest.fixture(scope="module")
def counted(mp, tmp_path_factory):
    state = tmp_path_factory.mktemp("shortage")
    proc = mp.run(MP_SCRIPTS / "shortage_count.py", env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_move_short_of_memory_is_told_to_try_again_and_the_polls_are_answered(counted):
    assert set(counted["moves"]) == {503}
    assert set(counted["polls"]) == {200}


def test_moves_short_of_memory_in_a_row_restart_the_box_though_polls_are_answered(counted):
    assert counted["restart"] is True


def test_a_move_made_starts_the_count_over(counted):
    assert counted["made"] == 200
    assert counted["after_made"] is False


def test_shortages_far_apart_never_add_up(counted):
    assert counted["sporadic"] is False
