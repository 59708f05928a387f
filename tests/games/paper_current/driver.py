"""Paper Current played whole, for the benches and the tests: on a running box (Driver, see
host_tools/game_drivers.py) and on the emulated Pico W (ChipPlay, see host_tools/rp2040/evening_pico.py).
Found by the game's id: every game in GAMES has its tests/games/<game id>/driver.py."""

import random

from game_drivers import with_pollers
from table import Table


class Driver:
    """8 players: each round the card is paged on the box, the eight boats launched with C, every
    boat's result entered from the phones (set_result, in turn), the round confirmed on the box;
    three rounds to the final screen."""

    game = "paper_current"
    players = 8

    def __init__(self, seed=3):
        self.rng = random.Random(seed)

    def play(self, box, table=None):
        tokens = (table or Table()).sit(box, self.game, self.players)
        box.press("C")  # setup, with the default options
        if box.press("C") != "pc_card":
            raise AssertionError("the game did not start: " + box.screen())

        def rounds(settle):
            phone = 0
            while True:
                screen = box.screen()
                while screen == "pc_card":  # the card's picture, then its bonus
                    screen = box.press("C")
                for _ in range(8):  # one press per launch
                    screen = box.press("C")
                    settle()
                if screen != "pc_score":
                    raise AssertionError("after eight launches the box shows " + screen)
                seq = box.state(tokens[0])["seq"]
                for boat in range(1, 9):
                    box.move(tokens[phone % len(tokens)], "set_result",
                             {"boat": boat, "result": self.rng.choice((0, 1, 2, 2)), "was": None}, seq)
                    seq += 1
                    phone += 1
                    settle()
                screen = box.press("C")  # confirm the round
                if screen == "pc_final":
                    return
                if screen != "pc_round":
                    raise AssertionError("confirming a round shows " + screen)
                box.press("C")  # the next round's card

        stats = with_pollers(box, tokens, rounds, every=4)
        return box.state(tokens[0]), stats

    def finished(self, view):
        return view["box"] == "over" and view["game"]["over"] is True


class ChipPlay:
    """The reader pages each card and launches the eight boats (C), the phones enter every boat's
    result in turn, the reader confirms (C); three rounds."""

    game = "paper_current"
    people = 8
    setup = ("C", "C")

    def __init__(self, seed=3):
        self.rng = random.Random(seed)

    def play(self, chip, tokens):
        phone = 0
        for _ in range(400):
            view = chip.view(tokens[0])
            if view["box"] == "over":
                return
            game = view["game"]
            if game["phase"] != "score" or None not in game["results"]:
                chip.press("C")  # the card's pages, a launch, the round confirmed, the next card
                continue
            seq = view["seq"]
            for boat, result in enumerate(game["results"], 1):
                if result is None:
                    code, answer = chip.move(tokens[phone % len(tokens)], "set_result",
                                             {"boat": boat, "result": self.rng.choice((0, 1, 2, 2)),
                                              "was": None}, seq)
                    if code != 200:
                        raise AssertionError("boat %d's result: %s %s" % (boat, code, answer))
                    seq += 1
                    phone += 1
        raise AssertionError("Paper Current did not end")
