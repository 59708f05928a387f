"""Every screen of every game, drawn with the worst content a table gives it, fits the 128x64 panel.

tests/mp_scripts/render_worst_case.py walks each game in firmware/tidebox/games/__init__.py's GAMES
(a game added there is walked too) under the real MicroPython: the most players the game seats,
12-character names of the widest letters, the reader pressing A, B and C at random and the phones
making random legal moves, seeded. Every frame goes through a recorder on the framebuffer that fails
a text not fitting the panel (16 characters of the 8x8 font a line), a text cut short (other than a
long player name) and a text touching a line drawn on the frame. The golden PNGs hold the cases
someone thought of; this holds the rest. The walk is run once a session (tests/conftest.py, `walked`),
for these tests and the game contract's (tests/test_game_contract.py).
"""

import re
from pathlib import Path

import pytest

GAMES_DIR = Path(__file__).parent.parent / "firmware" / "tidebox" / "games"


def registered_games():
    source = (GAMES_DIR / "__init__.py").read_text()
    block = source[source.index("GAMES = (") : source.index("\n)\n")]
    return re.findall(r'\("(\w+)", "', block)


def test_every_registered_game_is_walked(walked):
    games = registered_games()
    assert len(games) >= 4
    assert sorted(walked["screens"]) == sorted(games)
    for game in games:
        assert walked["frames"][game] > 1000, game


@pytest.mark.parametrize("game", registered_games())
def test_every_screen_of_the_game_is_reached(walked, game):
    # each screen class in the game's flow.py (its `name`), and the setup screen, was drawn
    names = set(re.findall(r'^    name = "(\w+)"', (GAMES_DIR / game / "flow.py").read_text(), re.M))
    assert names
    reached = set(walked["screens"][game])
    assert names | {"setup", "join", "menu", "confirm"} <= reached, sorted(names - reached)


@pytest.mark.parametrize("game", registered_games())
def test_no_text_is_cut_off_or_touches_a_line(walked, game):
    problems = ["%s: %s %r at (%d, %d)" % tuple(p) for p in walked["problems"][game]]
    assert problems == []
