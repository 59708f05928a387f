"""A new game at the same table started from a phone (the box's "new_game" move), on the firmware's Box
under CPython: once the game is over or during it (the sheet's "New game" in the phone's menu), only
for a game whose rules offer it (Pearl Reach: the rivals' speed), only the options the rules name,
never from the reader's own seat and never when someone has left; anything refused changes nothing;
the phones and the box are told who started it."""

import json

import pytest
from page_fakebox import FakeBoard

from tidebox.box import OVER, PLAY, Box
from tidebox.games.base import GameError
from tidebox.games.pearl_reach import rivals, rules
from tidebox.storage import Storage


def table(tmp_path, game="pearl_reach", people=("Ada", "Bo")):
    box = Box(FakeBoard(str(tmp_path)), Storage(str(tmp_path)))
    box.choose_game(game)
    for name in people:
        box.join(name)
    box.to_setup()
    return box


def play_out(box):
    """Every turn played by the sharp rival's choice, through box.move as a phone's would be."""
    while box.phase == PLAY:
        seat = rules.current(box.state)
        shift, place = rivals.choose(box.state, seat, box.random_below)
        if shift is not None:
            box.move(seat, "shift", shift, seq=box.seq)
        box.move(seat, "place", place, seq=box.seq)


def snapshot(box):
    return json.dumps([box.phase, box.seq, box.options, rules.to_dict(box.state)])


def refused(box, seat, args, seq, status, words):
    before = snapshot(box)
    with pytest.raises(GameError) as e:
        box.move(seat, "new_game", args, seq=seq)
    assert e.value.status == status and words in e.value.message
    assert snapshot(box) == before


def test_a_phone_starts_the_next_game_with_the_rivals_speed(tmp_path):
    box = table(tmp_path)
    box.options["rivals"] = 2
    box.start_game()
    play_out(box)
    assert box.phase == OVER
    old, seq = box.state, box.seq
    refused(box, None, {"speed": 4}, seq, 409, "the reader starts")
    refused(box, 1, {"speed": 3}, seq, 400, "unknown choice")
    refused(box, 1, {"rivals": 0}, seq, 400, "cannot change rivals")
    refused(box, 1, {"speed": 4}, seq - 1, 409, "moved on")
    assert box.move(1, "new_game", {"speed": 4}, seq=seq) == box.version
    assert box.phase == PLAY and box.seq == seq + 1 and box.state is not old
    assert box.state["speed"] == 4 and box.options["speed"] == 4
    assert box.state["names"] == old["names"] and box.state["rivals"] == old["rivals"]
    assert [e & 15 for e in box.state["log"]] == [rules.FIRST] and not rules.is_over(box.state)
    assert json.loads((tmp_path / "game.json").read_text())["game"] == rules.to_dict(box.state)  # saved
    assert box.shown == {"new_game": 1}  # who started it, in every phone's view


def test_during_a_game_a_phone_may_start_a_new_one(tmp_path):
    box = table(tmp_path)
    box.options["rivals"] = 1
    box.start_game()
    for _ in range(2):
        seat = rules.current(box.state)
        shift, place = rivals.choose(box.state, seat, box.random_below)
        box.move(seat, "place", place, seq=box.seq)
    seq = box.seq
    refused(box, 0, {"speed": 4}, seq - 1, 409, "moved on")  # sent on a stale view
    box.move(0, "new_game", {"speed": 4}, seq=seq)
    assert box.phase == PLAY and box.seq == seq + 1 and box.state["speed"] == 4
    assert [e & 15 for e in box.state["log"]] == [rules.FIRST] and box.shown == {"new_game": 0}


def test_not_when_someone_has_left_the_table(tmp_path):
    box = table(tmp_path, people=("Ada", "Bo", "Cy"))
    box.start_game()
    box.drop(2)  # Cy leaves; a rival plays the seat out
    play_out(box)
    refused(box, 0, {}, box.seq, 409, "someone has left")


def test_a_game_without_it_stays_over(tmp_path):
    box = table(tmp_path, game="token_tide", people=("Ada", "Bo"))
    box.start_game()
    box.phase = OVER  # as at the end of its last round: its rules offer no new game from a phone
    before = box.seq
    with pytest.raises(GameError) as e:
        box.move(0, "new_game", {}, seq=before)
    assert e.value.status == 409 and "over" in e.value.message and box.phase == OVER
