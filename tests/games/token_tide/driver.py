"""Token Tide played whole, for the benches and the tests: on a running box (Driver, see
host_tools/game_drivers.py) and on the emulated Pico W (ChipPlay, see host_tools/rp2040/evening_pico.py).
Found by the game's id: every game in GAMES has its tests/games/<game id>/driver.py."""

import random

from scripted_game import play_full_game


class Driver:
    """8 players, the numbered deck, every round to the final standings (scripted_game.py)."""

    game = "token_tide"
    players = 8

    def play(self, box, table=None):
        return play_full_game(box, table=table)

    def finished(self, view):
        return view["box"] == "over" and view["game"]["winners"] != []


class ChipPlay:
    """The short crossing (four tide cards): each round the reader turns the card, every phone locks
    in an allocation of the seven counters, the reader reveals (C, then a long C) and steps on."""

    game = "token_tide"
    people = 8
    setup = ("C", "B", "B", "C")  # setup, the deck line to the short crossing, the first card

    def __init__(self, seed=11):
        self.rng = random.Random(seed)

    def play(self, chip, tokens):
        while True:
            view = chip.view(tokens[0])["game"]
            if view["phase"] == "over":
                return
            r = view["round"]
            chip.press("C")  # the card's C: the allocation and its timer
            for token in tokens:
                b = self.rng.randint(0, 7)
                g = self.rng.randint(0, 7 - b)
                code, answer = chip.move(token, "allocate", {"allocation": [b, g, 7 - b - g], "ready": True})
                if code != 200:
                    raise AssertionError("an allocation: %s %s" % (code, answer))
            chip.press("C")  # the reveal's first step
            chip.press("C", long=True)  # straight to the standings
            for _ in range(10):
                view = chip.view(tokens[0])["game"]
                if view["round"] > r or view["phase"] == "over":
                    break
                chip.press("C")
            else:
                raise AssertionError("round %d's reveal never ended on the box" % (r + 1))
