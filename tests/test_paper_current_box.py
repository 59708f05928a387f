"""Paper Current on the real firmware (MicroPython): the box's buttons, phones entering results, two
phones editing one boat at once, replaying a round, the end and a new course at the same table."""

import time

import pytest
from boxrig import ApiError, BoxProcess

from tidebox.games.paper_current import rules


@pytest.fixture
def pc_box(sim_tree, tmp_path):
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    assert box.choose("paper_current") == "join"
    yield box
    box.stop()


def start(box, names):
    tokens = [box.join(n)["token"] for n in names]
    assert box.press("C") == "setup"
    assert box.press("C") == "pc_card"
    return tokens


def hold(box, button):
    """A long press; the held button is released (200 ms after the long event) before the next one."""
    screen = box.press(button, long=True)
    time.sleep(0.4)
    return box.screen() if screen else screen


def game(box, token):
    return box.state(token)["game"]


def to_launches(box):
    """Page through the card (picture, then the bonus) to the launches."""
    screen = box.screen()
    while screen == "pc_card":
        screen = box.press("C")
    assert screen == "pc_launch"


def launch_all(box, token):
    to_launches(box)
    for k in range(8):
        g = game(box, token)
        assert g["boat"] == k + 1
        screen = box.press("C")
    assert screen == "pc_score"


def test_a_course_on_the_box_and_phones(pc_box):
    box = pc_box
    tokens = start(box, ["Ada", "Bo", "Cy"])
    g = game(box, tokens[0])
    assert g["phase"] == "launch" and g["round"] == 1 and g["card"]["zone"] in rules.ZONES
    to_launches(box)
    # one press per launch, a long press goes back one
    assert box.press("C") == "pc_launch"
    assert box.press("C") == "pc_launch"
    assert game(box, tokens[0])["boat"] == 3
    assert hold(box, "C") == "pc_launch"
    g = game(box, tokens[1])
    assert g["boat"] == 2 and g["launcher"] == 1 and g["now"] is True  # "your boat: 2" for Bo
    assert game(box, tokens[0])["next"] == 4
    assert hold(box, "C") == "pc_launch"
    assert game(box, tokens[0])["boat"] == 1
    assert hold(box, "C") == "pc_card"  # back before boat 1: the card again
    launch_all(box, tokens[0])
    # results from the phones (any seat) and from the box
    seq = box.state(tokens[0])["seq"]
    for boat, result in ((1, 2), (2, 1), (3, 0)):
        box.move(tokens[boat % 3], "set_result", {"boat": boat, "result": result, "was": None}, seq)
        seq += 1
    assert game(box, tokens[0])["results"][:3] == [2, 1, 0]
    assert box.press("C") == "pc_score"  # not every boat entered: refused on the box
    assert game(box, tokens[0])["phase"] == "score"
    # the refusal put the cursor on the first boat without a result (boat 4)
    for _boat in range(4, 9):
        assert box.press("B") == "pc_score"  # - -> 2 (inner)
        assert box.press("B") == "pc_score"  # 2 -> 1 (outer)
        box.press("A")
    g = game(box, tokens[0])
    assert g["results"] == [2, 1, 0, 1, 1, 1, 1, 1]
    card = g["card"]["id"]
    assert box.press("C") == "pc_round"
    g = game(box, tokens[0])
    expected = rules.round_score(card, [2, 1, 0, 1, 1, 1, 1, 1])
    assert g["round_scores"] == [expected] and g["total"] == expected and expected <= 18
    # round 2: the rotation carries on (boat 1 is the seat after boat 8's)
    assert box.press("C") == "pc_card"
    g = game(box, tokens[0])
    assert g["round"] == 2 and g["order"][0] == (0 + 8) % 3
    launch_all(box, tokens[0])
    box.move(tokens[2], "set_result", {"boat": 1, "result": 2, "was": None})
    # replay this round: from the in-game menu (long A on the score screen), confirmed
    assert hold(box, "A") == "menu"
    box.press("A")
    box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "pc_card"
    g = game(box, tokens[0])
    assert g["phase"] == "launch" and g["launch"] == 1 and g["replays"] == 1 and g["results"] == [None] * 8
    assert g["order"][0] == 2  # the same starting player
    for after in ("pc_round", "pc_final"):
        launch_all(box, tokens[0])
        for boat in range(1, 9):
            box.move(tokens[0], "set_result", {"boat": boat, "result": 2})
        assert box.press("C") == after
        if after == "pc_round":
            assert box.press("C") == "pc_card"
    # the end: the three rounds' scores (every boat inner in rounds 2 and 3) out of 54
    assert box.screen() == "pc_final"
    g = game(box, tokens[0])
    scores = [expected] + [rules.round_score(r["card"], [2] * 8) for r in g["played"][1:]]
    assert [r["score"] for r in g["played"]] == scores
    assert g["over"] and g["total"] == sum(scores) and g["reached"] is (sum(scores) >= 24)
    assert box.press("C") == "pc_final"  # the three rounds
    assert box.press("C") == "pc_end"
    assert box.press("C") == "confirm"  # new course?
    assert box.press("C") == "pc_card"
    g = game(box, tokens[0])
    assert g["phase"] == "launch" and g["round"] == 1 and g["total"] == 0 and g["past"] == [sum(scores)]
    assert box.state(tokens[0])["box"] == "play"


def test_new_game_goes_back_to_the_game_menu(pc_box):
    box = pc_box
    tokens = start(box, ["Ada", "Bo"])
    for after in ("pc_round", "pc_round", "pc_final"):
        launch_all(box, tokens[0])
        for boat in range(1, 9):
            box.move(tokens[1], "set_result", {"boat": boat, "result": 0})
        assert box.press("C") == after
        if after == "pc_round":
            box.press("C")
    g = game(box, tokens[0])
    assert g["total"] == 0 and g["reached"] is False
    box.press("C")
    assert box.press("C") == "pc_end"
    box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "choose"


def test_two_phones_editing_one_boat_the_later_is_refused(pc_box):
    box = pc_box
    tokens = start(box, ["Ada", "Bo", "Cy"])
    launch_all(box, tokens[0])
    seen = box.state(tokens[0])
    seen_b = box.state(tokens[1])
    box.move(tokens[0], "set_result", {"boat": 5, "result": 2, "was": seen["game"]["results"][4]})
    before = box.state(tokens[2])
    # Bo saw boat 5 empty (and the older seq): refused with 409, nothing changed
    with pytest.raises(ApiError) as refused:
        box.move(tokens[1], "set_result", {"boat": 5, "result": 0, "was": seen_b["game"]["results"][4]},
                 seen_b["seq"])
    assert refused.value.status == 409
    with pytest.raises(ApiError) as refused:
        box.move(tokens[1], "set_result", {"boat": 5, "result": 0, "was": None})  # no seq: "was" alone
    assert refused.value.status == 409
    after = box.state(tokens[2])
    assert after["game"] == before["game"] and after["seq"] == before["seq"]
    assert after["game"]["results"][4] == 2
