"""Each game in GAMES has its own page, firmware/tidebox/games/<game id>/README.md, whose setup table
names every option of the game in full, as the box's setup screen does: the option's label and
every one of its choices (a seat option: any player), and no option the game lacks. A game brings
its page with its package; the top-level README only says where the pages are."""

import importlib
import re

from build import ROOT
from table import firmware_games

HEADER = ("option", "choices", "what it does")


def game_readme(game_id):
    return ROOT / "firmware" / "tidebox" / "games" / game_id / "README.md"


def setup_rows(path):
    """{option label: its choices as said}, from the page's table | option | choices | what it does |."""
    rows = {}
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and line.startswith("| ") and tuple(cells) != HEADER and set(cells[0]) != {"-"}:
            rows[cells[0]] = cells[1]
    return rows


def test_every_game_has_its_own_readme():
    for game_id, title in firmware_games().GAMES:
        path = game_readme(game_id)
        assert path.is_file(), "%s (%s) is in GAMES but has no %s with its setup options" % (
            title, game_id, path.relative_to(ROOT))


def test_each_games_readme_names_every_setup_option_and_choice():
    checked = 0
    for game_id, title in firmware_games().GAMES:
        path = game_readme(game_id)
        assert path.is_file(), "%s has no %s" % (game_id, path.relative_to(ROOT))
        rows = setup_rows(path)
        rules = importlib.import_module("tidebox.games.%s.rules" % game_id)
        labels = [label for _, label, _ in rules.OPTIONS]
        assert sorted(rows) == sorted(labels), "%s's setup table: %s, the game's options: %s" % (
            path.relative_to(ROOT), sorted(rows), sorted(labels))
        for _, label, choices in rules.OPTIONS:
            said = rows[label]
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

