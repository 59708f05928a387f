"""The box restarts itself on a fresh heap when a phone's move keeps failing for want of memory
(tidebox/memory.py's runs, as tidebox/box.py and the web server report to them), counted under
MicroPython with the real routes (tests/mp_scripts/shortage_count.py): each move refused with 503
"try again" counts though the other phones' polls are answered in between; a move made starts the
count over; full views that
find no room (a poll asks again a second later) do not count, unless the shared part of the view finds
none poll after poll for seconds (the heap in pieces too small for it: nobody can see the game)."""

import json

import pytest
from boxrig import pico_heap
from micropython_runner import MP_SCRIPTS


@pytest.fixture(scope="module")
def counted(mp, tmp_path_factory):
    state = tmp_path_factory.mktemp("shortage")
    # At the heap that leaves the box the Pico W's room on this port: the shortages counted are the
    # injected ones, and at 192 KB on the 64-bit port the script's own requests now and then found none.
    proc = mp.run(MP_SCRIPTS / "shortage_count.py", heap=pico_heap(), env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_move_short_of_memory_is_told_to_try_again_and_the_polls_are_answered(counted):
    assert set(counted["moves"]) == {503}
    assert set(counted["polls"]) == {200}


def test_moves_short_of_memory_in_a_row_restart_the_box_though_polls_are_answered(counted):
    assert counted["restart"] is True
    assert counted["one_less"] is False


def test_a_move_made_starts_the_count_over(counted):
    assert counted["made"] == 200
    assert counted["after_made"] is False


def test_views_short_of_memory_do_not_restart_the_box(counted):
    assert set(counted["views"]) == {503}
    assert counted["views_restart"] is False


def test_a_burst_of_views_without_room_for_the_shared_part_does_not_restart_the_box(counted):
    assert set(counted["burst"]) == {503}
    assert counted["burst_restart"] is False


def test_a_view_written_starts_the_count_of_shared_parts_over(counted):
    assert counted["written"] == [200]
    assert counted["after_written"] == [503]
    assert counted["after_written_restart"] is False


def test_the_shared_part_without_room_for_seconds_restarts_the_box(counted):
    assert set(counted["persisting"]) == {503}
    assert counted["persisting_restart"] is True
