"""The README's setup table names every option of every game in GAMES in full, as the box's setup
screen does: the game, the option's label and every one of its choices (a seat option: any player)."""

import importlib
import re

from build import ROOT
from table import firmware_games


def readme_rows():
    text = (ROOT / "README.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and line.startswith("| "):
            rows[(cells[0], cells[1])] = cells[2]
    return rows


def test_the_readme_names_every_setup_option_and_choice_of_every_game():
    rows = readme_rows()
    checked = 0
    for game_id, title in firmware_games().GAMES:
        rules = importlib.import_module("tidebox.games.%s.rules" % game_id)
        for _, label, choices in rules.OPTIONS:
            assert (title, label) in rows, "README's setup table lacks %s: %s" % (title, label)
            said = rows[(title, label)]
            if isinstance(choices, str):
                assert "any player" in said and (("random" in said) == (choices == "seat_or_random")), said
            else:
                names = [name for _, name in choices]
                ranged = re.findall(r"(\d+) of (\d+) to (\d+) of \2", said)
                for name in names:
                    number = re.match(r"(\d+) of (\d+)$", name)
                    if number and ranged:  # a run of numbers said as a range
                        assert any(int(a) <= int(number[1]) <= int(b) for a, _, b in ranged), (name, said)
                    else:
                        assert name in said, (title, label, name, said)
            checked += 1
    assert checked >= 10
