"""Each game's driver and chip player are found by its id: tests/games/<game id>/driver.py defines
Driver (a whole game on a box on the simulator) and ChipPlay (the same in small on the emulated Pico W),
and host_tools/game_drivers.py finds them from GAMES, with no list of its own. A game in GAMES without
its driver is an error for the benches, the heap test and the evenings, never a game they skip."""

import shutil

import build
import game_drivers
import pytest

GAMES_FILE = "firmware/tidebox/games/__init__.py"


def test_every_game_in_games_has_its_driver_and_its_chip_player():
    drivers = game_drivers.registered()
    assert [game for game, _ in drivers] == list(build.game_ids())
    for game, driver in drivers:
        assert driver is game_drivers.driver_for(game) and driver.game == game and driver.players >= 1
        assert game_drivers.driver_file(game) == build.ROOT / "tests" / "games" / game / "driver.py"
        play = game_drivers.chip_play_for(game)
        assert play.game == game and play.people >= 1 and play.setup


def project(root, drivers):
    """A project folder with this one's GAMES and `drivers`: {game: the text of its driver.py}."""
    (root / GAMES_FILE).parent.mkdir(parents=True)
    shutil.copy(build.ROOT / GAMES_FILE, root / GAMES_FILE)
    for game, text in drivers.items():
        game_drivers.driver_file(game, root).parent.mkdir(parents=True)
        game_drivers.driver_file(game, root).write_text(text)
    return root


def test_a_registered_game_without_its_driver_is_an_error_never_a_skip(tmp_path):
    ours = {game: game_drivers.driver_file(game).read_text() for game in build.game_ids()}
    assert [game for game, _ in game_drivers.registered(project(tmp_path / "same", ours))] == list(
        build.game_ids())

    less = project(tmp_path / "less", {game: text for game, text in ours.items() if game != "pearl_reach"})
    missing = "pearl_reach is in GAMES but has no driver: write tests/games/pearl_reach/driver.py"
    with pytest.raises(LookupError, match=missing):
        game_drivers.driver_for("pearl_reach", less)
    with pytest.raises(LookupError, match=missing):
        game_drivers.registered(less)
    with pytest.raises(LookupError, match=missing):
        game_drivers.chip_play_for("pearl_reach", less)
    with pytest.raises(LookupError, match="draft is not in GAMES"):
        game_drivers.driver_for("draft", less)

    misplaced = project(tmp_path / "misplaced", dict(ours, pearl_reach=ours["token_tide"]))
    with pytest.raises(LookupError, match="tests/games/pearl_reach/driver.py's Driver plays 'token_tide'"):
        game_drivers.driver_for("pearl_reach", misplaced)
    half = project(tmp_path / "half", dict(ours, pearl_reach="class Driver:\n    game = 'pearl_reach'\n"))
    assert game_drivers.driver_for("pearl_reach", half).game == "pearl_reach"
    with pytest.raises(LookupError, match="tests/games/pearl_reach/driver.py defines no ChipPlay class"):
        game_drivers.chip_play_for("pearl_reach", half)

    stray = project(tmp_path / "stray", dict(ours, draft=ours["token_tide"]))
    with pytest.raises(LookupError, match="drivers for games not in GAMES: draft"):
        game_drivers.registered(stray)
