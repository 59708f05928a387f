"""Coin Call played whole, for the benches and the tests: on a running box (Driver, see
host_tools/game_drivers.py) and on the emulated Pico W (ChipPlay, see host_tools/rp2040/evening_pico.py).
Found by the game's id: every game in GAMES has its tests/games/<game id>/driver.py."""

import random

from game_drivers import with_pollers
from table import Table


class Driver:
    """8 players, three flips: before each, every phone calls one of the sides its view offers, then
    the reader flips (C)."""

    game = "coin_call"
    players = 8

    def __init__(self, seed=2):
        self.rng = random.Random(seed)

    def play(self, box, table=None):
        tokens = (table or Table()).sit(box, self.game, self.players)
        box.press("C")  # setup, with the default options
        if box.press("C") != "cc_calls":
            raise AssertionError("the game did not start: " + box.screen())

        def flips(settle):
            screen = "cc_calls"
            while screen == "cc_calls":
                for token in tokens:
                    view = box.state(token)
                    m = self.rng.choice(view["game"]["legal"])
                    box.move(token, m["move"], m["args"], seq=view["seq"])
                    settle()
                screen = box.press("C")  # the flip
            if screen != "cc_end":
                raise AssertionError("flipping the coin shows " + screen)

        stats = with_pollers(box, tokens, flips)
        return box.state(tokens[0]), stats

    def finished(self, view):
        return view["box"] == "over" and view["game"]["over"] and view["game"]["winners"] != []


class ChipPlay:
    """Before each flip every phone calls, then the reader flips the coin (C)."""

    game = "coin_call"
    people = 8
    setup = ("C", "C")

    def __init__(self, seed=2):
        self.rng = random.Random(seed)

    def play(self, chip, tokens):
        for _ in range(10):
            if chip.view(tokens[0])["box"] == "over":
                return
            for token in tokens:
                mine = chip.view(token)
                m = self.rng.choice(mine["game"]["legal"])
                code, answer = chip.move(token, m["move"], m["args"], mine["seq"])
                if code != 200:
                    raise AssertionError("a call: %s %s" % (code, answer))
            chip.press("C")  # the flip
        raise AssertionError("Coin Call did not end")
