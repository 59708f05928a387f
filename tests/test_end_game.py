"""End game, on the box, for every game in GAMES: the reader's in-game menu (A) has it, asks first,
and takes the table to the game menu: every player keeps their seat, name and token, no saved game is
left to resume, and the same people can start another game at once. Run right after each game has
started, and in the later phases of the games that have them (Token Tide's reveal, Paper Current's
scoring).

Every test runs the real firmware under MicroPython (the real_box fixture, tests/conftest.py)."""

import pytest
from table import firmware_games

pytestmark = pytest.mark.slow  # the real firmware, restarting itself

NAMES = ("Ada", "Bo", "Cy")


def games():
    return [game for game, _ in firmware_games().GAMES]


def started(box, game):
    """Three phones at `game`, set up with its default options and started: their tokens."""
    assert box.choose(game) == "join"
    tokens = [box.join(name)["token"] for name in NAMES]
    assert box.press("C") == "setup"
    box.press("C")  # the game's first screen
    assert box.state(tokens[0])["box"] == "play"
    return tokens


def end_game(box, long=False):
    """The reader: A (the menu; a long A where a short one has a job of its own there), A down to
    End game, C, and C again at "End game?"."""
    assert box.press("A", long=long) == "menu"
    lines = box.status()["menu"]
    assert lines[-2:] == ["End game", "Back"], lines
    for _ in range(lines.index("End game")):
        box.press("A")
    assert box.press("C") == "confirm"
    return box.press("C")


def assert_table_kept(box, tokens):
    box.wait_screen("choose", timeout=15)
    for seat, token in enumerate(tokens):
        view = box.state(token)
        assert view["box"] == "choose" and view["game"] is None, view
        assert view["you"] == {"seat": seat, "name": NAMES[seat]}, view
        assert [s["name"] for s in view["seats"]] == list(NAMES), view
    assert box.status()["screen"] == "choose"


@pytest.mark.parametrize("game", games())
def test_end_game_right_after_the_start_keeps_the_table(real_box, game):
    tokens = started(real_box, game)
    end_game(real_box)
    assert_table_kept(real_box, tokens)
    # Switched off and on: the table at the game menu, no game to resume.
    real_box.kill()
    real_box.start()
    real_box.wait_screen("resume", timeout=15)
    assert real_box.press("C") == "choose"
    assert_table_kept(real_box, tokens)
    # and the same people start the next game
    assert real_box.choose(games()[0]) == "join"
    assert [s["name"] for s in real_box.state(tokens[0])["seats"]] == list(NAMES)


def test_end_game_at_token_tides_reveal(real_box):
    tokens = started(real_box, "token_tide")
    real_box.press("C")  # the card's C: the allocation and its timer
    for token in tokens:
        real_box.move(token, "allocate", {"allocation": [3, 2, 2], "ready": True})
    real_box.press("C")  # the reveal's first step
    assert real_box.state(tokens[0])["game"]["phase"] == "revealed"
    end_game(real_box)
    assert_table_kept(real_box, tokens)


def test_end_game_while_paper_current_is_scored(real_box):
    tokens = started(real_box, "paper_current")
    for _ in range(20):
        if real_box.state(tokens[0])["game"]["phase"] == "score":
            break
        real_box.press("C")  # the card's pages, then a launch a press
    assert real_box.state(tokens[0])["game"]["phase"] == "score"
    view = real_box.state(tokens[0])
    real_box.move(tokens[0], "set_result", {"boat": 1, "result": 2, "was": None}, seq=view["seq"])
    end_game(real_box, long=True)  # on the results, a short A picks the next boat
    assert_table_kept(real_box, tokens)
