"""Whole games played on a running box (BoxProcess) by scripted phones and buttons, one driver per
game, each with the phones polling as the page does (scripted_game.Pollers) until every one has been
told the game is over. memory_proof.run_game plays one at a given heap; bench_memory.py bisects.

A driver has `game` (the game's id), `players` (phones at the table) and
    play(box, table=None) -> (final view, poller stats {"requests", "errors", "told_the_end"})
    finished(view) -> whether that view is a game played to its end
It starts at the box's game menu; `table` (table.Table) is who is already seated there from an
earlier game of the evening (None: a fresh box, nobody yet).
"""

import json
import random
import time
from pathlib import Path

from boxrig import ApiError, wait_until
from scripted_game import Pollers, play_full_game
from table import Table


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
                       "every phone was told version %d" % now, timeout=15)

        play(settle)
        settle(force=True)  # every phone told the end
        time.sleep(0.2)
    return {"requests": pollers.requests, "errors": pollers.errors, "told_the_end": len(tokens)}


class TokenTide:
    """8 players, the numbered deck, every round to the final standings (scripted_game.py)."""

    game = "token_tide"
    players = 8

    def play(self, box, table=None):
        return play_full_game(box, table=table)

    def finished(self, view):
        return view["box"] == "over" and view["game"]["winners"] != []


class QuietDividend:
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


class PaperCurrent:
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


class PearlReach:
    """Its largest table: 2 people on phones and 2 sharp rivals at the fastest speed (1 s a move).
    A person's move is a legal one computed by the rules under CPython from the box's saved game
    (game.json); the rivals move by themselves, the box's clock moved on a second at a time."""

    game = "pearl_reach"
    players = 2

    def __init__(self, seed=7):
        self.rng = random.Random(seed)

    def play(self, box, table=None):
        from tidebox.games.pearl_reach import rules

        tokens = (table or Table()).sit(box, self.game, self.players)
        # setup: rivals 1 -> none -> 2; the speed line: 2 s -> 1 s; who sets out first: the first person
        for button in ("C", "B", "B", "A", "A", "B", "A", "B"):
            box.press(button)
        if box.press("C") != "pr_board":
            raise AssertionError("the game did not start: " + box.screen())
        saved = Path(box.state_dir) / "game.json"

        def moves(settle):
            seen, deadline = None, 0
            while True:
                data = json.loads(saved.read_text())  # written then renamed: always whole
                if data["seq"] != seen:  # a move was made: the next one comes within seconds
                    seen, deadline = data["seq"], time.monotonic() + 20
                elif time.monotonic() > deadline:
                    raise AssertionError("the game stopped at move %d" % seen)
                model = rules.from_dict(data["game"])
                seat = rules.current(model)
                if seat is None:
                    return
                if model["rivals"][seat] is None:
                    m = self.rng.choice(rules.legal_moves(model, seat))
                    try:
                        box.move(tokens[seat], m["move"], m["args"], seq=data["seq"])
                    except ApiError as exc:
                        if exc.status != 409:  # 409: the save read was older than the box's game
                            raise
                    settle()
                else:  # a rival thinks: move the box's clock on
                    box.advance(1000)
                    time.sleep(0.03)

        stats = with_pollers(box, tokens, moves, every=2)
        return box.state(tokens[0]), stats

    def finished(self, view):
        return view["box"] == "over" and view["game"]["winners"] != []


DRIVERS = {d.game: d for d in (TokenTide, QuietDividend, PaperCurrent, PearlReach)}
