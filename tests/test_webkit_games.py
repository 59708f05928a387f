"""The other games' phone views on Safari's engine (WebKitGTK), against the real firmware at the
board's pace: The Quiet Dividend, Pearl Reach and Paper Current. One WebKit phone (its own
MiniBrowser, 375x667) joins each game beside a player on the API; the reader starts the game on the
box; each of the phone's views is checked as tests/support/short_crossing.py checks Token Tide's (no
sideways scroll, no control under 44 px, every visible control named as WebKit computes it, a
screenshot in build/test-artifacts/webkit/), and the phone makes a move by tapping controls found by
their computed names, which the box then holds. The whole games are played in Chromium
(tests/test_browser_*.py); what WebKit adds here is its layout, its names and its taps.
"""

import pytest
from boxrig import BOARD_PACE_MS, BoxProcess
from phone_flow import join, norm, wait_until
from short_crossing import step

pytest_plugins = ("webkit_driver",)

pytestmark = pytest.mark.browser  # phones in a real browser


@pytest.fixture
def game_box(sim_tree, tmp_path):
    """game_box(game) -> the real firmware with `game` chosen, on its join screen."""
    boxes = []

    def start(game):
        box = BoxProcess(sim_tree, tmp_path / game / "state", pace_ms=BOARD_PACE_MS).start()
        boxes.append(box)
        assert box.choose(game) == "join"
        return box

    yield start
    for box in boxes:
        box.stop()


def url_of(box):
    return "http://127.0.0.1:%d/" % box.port


def ada_joins(box, open_webkit_phone, prefix):
    """Ada on a WebKit phone, Bo on the API; returns (phone, Ada's token)."""
    ada = open_webkit_phone(url_of(box))
    join(ada, "Ada")
    box.join("Bo")
    ada.expect_text("#seatsHead", "At the table: 2 players")
    step(ada, prefix + "-lobby")
    return ada, ada.token()


def shown_named(phone, css):
    """The visible elements under `css` with WebKit's (role, name) for each."""
    return [(e, phone.role_and_name(e)) for e in phone.shown_elements(css)]


def first_text(phone, css, text):
    """The first element under `css` starts with `text` (whitespace normalised)."""
    wait_until(lambda: [norm(t)[:len(text)] for t in phone.texts(css)[:1]] == [text],
               lambda: "%s: %r, expected %r first" % (css, phone.texts(css), text))


def seq_after(box, token, seq):
    return wait_until(lambda: box.state(token)["seq"] > seq and box.state(token)["seq"],
                      "the box holds the phone's move")


def test_the_quiet_dividend_in_webkit(game_box, open_webkit_phone):
    box = game_box("quiet_dividend")
    ada, token = ada_joins(box, open_webkit_phone, "qd")
    assert box.press("C") == "setup"
    assert box.press("A") == "setup"  # the first player's line
    assert box.press("B") == "setup"  # random -> Ada
    assert box.press("C") == "qd_board"
    first_text(ada, "#other .qdturn .status", "Your turn, Ada")
    actions = wait_until(lambda: shown_named(ada, "#other .qdacts button"), "Ada's actions are shown")
    step(ada, "qd-turn")
    seq = box.state(token)["seq"]
    role, name = actions[0][1]
    assert role == "button" and name
    ada.click(role, name)
    ada.click("button", "Confirm: " + name)  # a tap only chooses: the action is taken once confirmed
    seq_after(box, token, seq)
    wait_until(lambda: shown_named(ada, "#other .qdacts button") == [], "Ada's turn is over on her phone")
    step(ada, "qd-waiting")


def test_pearl_reach_in_webkit(game_box, open_webkit_phone):
    box = game_box("pearl_reach")  # Ada, Bo and one rival (the setup's default)
    ada, token = ada_joins(box, open_webkit_phone, "pr")
    assert box.press("C") == "setup"
    for _ in range(3):
        assert box.press("A") == "setup"  # to the line "First to set out"
    box.press("B")  # random -> Ada
    assert box.press("C") == "pr_board"
    first_text(ada, "#other .status", "Your turn, Ada")
    step(ada, "pr-turn")
    places = wait_until(lambda: [rn for _, rn in shown_named(ada, "#other button[data-cell]")
                                 if rn[1].endswith(", you can place here")], "cells to place on")
    seq = box.state(token)["seq"]
    ada.click(*places[0])
    ada.click("button", "\u2713 Place")
    seq_after(box, token, seq)
    step(ada, "pr-placed")


def test_paper_current_in_webkit(game_box, open_webkit_phone):
    box = game_box("paper_current")
    ada, token = ada_joins(box, open_webkit_phone, "pc")
    assert box.press("C") == "setup"
    assert box.press("C") == "pc_card"
    ada.expect_text(".pc-you", "Your boat: 1, slide it now.")
    step(ada, "pc-card")
    while box.screen() == "pc_card":
        box.press("C")
    for _ in range(8):  # the eight launches, on the box
        box.press("C")
    assert box.screen() == "pc_score"
    wait_until(lambda: len(ada.shown_elements(".pc-boat")) == 8, "the eight boats to score")
    step(ada, "pc-score")
    # every boat's three results are buttons named by the result (each boat a group of its own)
    inner = [e for e, rn in shown_named(ada, ".pc-boat button") if rn == ("button", "2 inner")]
    assert len(inner) == 8
    inner[2].click()
    wait_until(lambda: box.state(token)["game"]["results"][2] == 2, "the box holds boat 3's result")
    assert box.state(token)["game"]["results"] == [None, None, 2, None, None, None, None, None]
