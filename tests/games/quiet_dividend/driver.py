"""The Quiet Dividend played whole, for the benches and the tests: on a running box (Driver, see
host_tools/game_drivers.py) and on the emulated Pico W (ChipPlay, see host_tools/rp2040/evening_pico.py).
Found by the game's id: every game in GAMES has its tests/games/<game id>/driver.py."""

import random

from game_drivers import with_pollers
from table import Table


class Driver:
    """8 players; each turn the seat whose turn it is takes one of the legal turns its own view
    offers (view["game"]["legal"]), sent from its phone with the view's seq."""

    game = "quiet_dividend"
    players = 8

    def __init__(self, seed=5):
        self.rng = random.Random(seed)

    def play(self, box, table=None):
        tokens = (table or Table()).sit(box, self.game, self.players)
        box.press("C")  # setup, with the default options
        if box.press("C") != "qd_board":
            raise AssertionError("the game did not start: " + box.screen())

        def turns(settle):
            seat = box.state(tokens[0])["game"]["turn"]
            while seat is not None:
                view = box.state(tokens[seat])
                legal = view["game"]["legal"]
                if not legal:
                    raise AssertionError("seat %d's turn offers no move" % seat)
                m = self.rng.choice(legal)
                box.move(tokens[seat], m["move"], m["args"], seq=view["seq"])
                settle()
                seat = box.state(tokens[0])["game"]["turn"]

        stats = with_pollers(box, tokens, turns, every=4)
        return box.state(tokens[0]), stats

    def finished(self, view):
        return view["box"] == "over" and view["game"]["over"] and view["game"]["winners"] != []


class ChipPlay:
    """Each turn the seat whose turn it is takes one of the legal turns its view offers."""

    game = "quiet_dividend"
    people = 8
    setup = ("C", "C")

    def __init__(self, seed=5):
        self.rng = random.Random(seed)

    def play(self, chip, tokens):
        for _ in range(2000):
            view = chip.view(tokens[0])
            if view["box"] == "over":
                return
            seat = view["game"]["turn"]
            mine = chip.view(tokens[seat])
            m = self.rng.choice(mine["game"]["legal"])
            code, answer = chip.move(tokens[seat], m["move"], m["args"], mine["seq"])
            if code != 200:
                raise AssertionError("the turn %s: %s %s" % (m, code, answer))
        raise AssertionError("The Quiet Dividend did not end")
