"""Whole games played on a running box (BoxProcess) by scripted phones and buttons: each game in
GAMES has its driver in its tests, tests/games/<game id>/driver.py, found by the game's id
(driver_for, registered), each with the phones polling as the page does (scripted_game.Pollers,
with_pollers) until every one has been told the game is over. memory_proof.run_game plays one at a
given heap; bench_memory.py bisects. There is no list of drivers: a game in GAMES without its
driver.py is an error, never a game left unplayed.

A game's driver.py defines two classes:

    Driver      game (the game's id), players (phones at the table) and
                    play(box, table=None) -> (final view, poller stats {"requests", "errors",
                                                                        "told_the_end"})
                    finished(view) -> whether that view is a game played to its end
                It starts at the box's game menu; `table` (table.Table) is who is already seated there
                from an earlier game of the evening (None: a fresh box, nobody yet).
    ChipPlay    the same game in small on the emulated Pico W (host_tools/rp2040/evening_pico.py):
                game, people (seated phones), setup (the reader's presses from the join screen to the
                game's first screen) and play(chip, tokens), which returns once the game is over and
                raises AssertionError when it cannot go on.

The lookups' `root` is the project folder whose firmware/ (GAMES) and tests/ (the drivers) are read:
this one by default (a test passes a folder of its own: a copy of the house with a game added).
"""

import importlib.util
import time
from pathlib import Path

import build
from boxrig import wait_until
from scripted_game import TOLD_WITHIN_S, Pollers


def with_pollers(box, tokens, play, every=1):
    """Runs play(settle) while every token's phone polls; play calls settle() after each change, and
    every `every`-th call waits until every phone has been told the box's current version, as at a
    real table, where people take seconds over a move (every phone after every change would make a
    run take a minute). Then waits until each phone has been told the last version (the game is
    over). Returns poller stats."""
    calls = [0]
    with Pollers(box, tokens) as pollers:

        def settle(force=False):
            calls[0] += 1
            if calls[0] % every and not force:
                return
            now = box.state(tokens[0])["v"]
            wait_until(lambda: all(pollers.seen.get(t, -1) >= now for t in tokens),
                       "every phone was told version %d" % now, timeout=TOLD_WITHIN_S)

        play(settle)
        settle(force=True)  # every phone told the end
        time.sleep(0.2)
    return {"requests": pollers.requests, "errors": pollers.errors, "told_the_end": len(tokens)}


# ---------------------------------------------------------------- each game's driver, by its id

DRIVER_FILE = "tests/games/%s/driver.py"  # under the project folder; the one place drivers are looked for
_loaded = {}  # driver.py path -> its module, imported once


def driver_file(game, root=None):
    """Where the game's driver.py is: tests/games/<game id>/driver.py in the project folder `root`."""
    return Path(root or build.ROOT) / (DRIVER_FILE % game)


def driver_module(game, root=None):
    """The game's driver.py, imported once (by its path: the games' folders are not packages)."""
    path = driver_file(game, root).resolve()
    if path not in _loaded:
        spec = importlib.util.spec_from_file_location("%s_driver" % game, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _loaded[path] = module
    return _loaded[path]


def _games(root):
    return build.game_ids(Path(root or build.ROOT) / "firmware")


def _class(game, root, name):
    """The class `name` (Driver or ChipPlay) of a game in GAMES, from its driver.py. A registered game
    without one is an error, never a skip: the bench, the heap test and the evenings would leave it
    unmeasured."""
    if game not in _games(root):
        raise LookupError("%s is not in GAMES (firmware/tidebox/games/__init__.py)" % game)
    where = DRIVER_FILE % game
    if not driver_file(game, root).is_file():
        raise LookupError("%s is in GAMES but has no driver: write %s with Driver (game, players, "
                          "play(box, table), finished(view)) and ChipPlay (game, people, setup, "
                          "play(chip, tokens))" % (game, where))
    found = getattr(driver_module(game, root), name, None)
    if found is None:
        raise LookupError("%s defines no %s class" % (where, name))
    if getattr(found, "game", None) != game:
        raise LookupError("%s's %s plays %r, not %s" % (where, name, getattr(found, "game", None), game))
    return found


def driver_for(game, root=None):
    """The Driver class of a game in GAMES (firmware/tidebox/games/__init__.py), from its driver.py."""
    return _class(game, root, "Driver")


def chip_play_for(game, root=None):
    """The ChipPlay class of a game in GAMES: its small player on the emulated Pico W."""
    return _class(game, root, "ChipPlay")


def registered(root=None):
    """(game, Driver class) for every game in GAMES, in the menu's order; a driver for a game GAMES
    does not list is an error too (a game removed from the box, or a misspelt id)."""
    games = _games(root)
    folder = driver_file("*", root).parent.parent
    stray = sorted(p.parent.name for p in folder.glob("*/driver.py") if p.parent.name not in games)
    if stray:
        raise LookupError("drivers for games not in GAMES: %s" % ", ".join(stray))
    return [(game, driver_for(game, root)) for game in games]
