"""The phones at a table over an evening, on a running box (BoxProcess): who is seated, and the
reader's presses that bring the box from one game's end to the next game's join screen with the
number of players that game wants. Used by the games' drivers (tests/games/<game>/driver.py: every
driver seats its table here) and evening.py (one game after another on one box).

The box keeps its players from one game to the next (the game menu says how many are at the table),
so the next game's phones are those still seated, plus new ones that join; a game that seats fewer
people has the others removed on the box, as a reader would, in the players menu."""

import sys

import build
from scripted_game import NAMES

# Players who leave and others who join later get names never used yet at this table: these, then
# Guest20, Guest21, ...
EVENING_NAMES = NAMES + ["Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oz", "Pip", "Quin", "Rex", "Sam", "Tam"]


def firmware_games():
    """The firmware's own `tidebox.games` (its GAMES and each game's rules), imported under CPython."""
    if str(build.FIRMWARE) not in sys.path:
        sys.path.append(str(build.FIRMWARE))
    from tidebox import games

    return games


def max_players(game):
    return firmware_games().load(game).MAX_PLAYERS


class Table:
    """The names and seat tokens at the box, in seat order (the box's own order)."""

    def __init__(self):
        self.names = []
        self.tokens = []
        self.joined = 0  # every name ever used at this table (names are never reused)

    def sit(self, box, game, players):
        """From the game menu: choose `game` and seat exactly `players` phones (those already there
        stay, the first ones in seat order). Returns the tokens in seat order, on the join screen."""
        box.wait_screen("choose", timeout=15)
        if len(self.names) > max_players(game):
            # The game menu refuses a game that seats fewer than are at the table: the reader removes
            # players first, on the join screen of a game that seats them all.
            box.choose(_seating(len(self.names)))
            self.remove_down_to(box, players)
            self.change_game(box)
        box.choose(game)
        self.remove_down_to(box, players)
        while len(self.names) < players:
            name = EVENING_NAMES[self.joined] if self.joined < len(EVENING_NAMES) else "Guest%d" % self.joined
            self.joined += 1
            seat = box.join(name)
            self.names.append(seat["name"])
            self.tokens.append(seat["token"])
        return list(self.tokens)

    def remove_down_to(self, box, players):
        """On the join screen: the reader removes the last seated player until `players` are left
        (players menu -> Remove player -> the seat -> yes)."""
        while len(self.names) > players:
            box.press("A")  # the players menu, at Remove player
            if box.press("C") != "pick_seat":
                raise AssertionError("the players menu did not offer a seat to remove")
            for _ in range(len(self.names) - 1):
                box.press("A")  # the last seat
            if box.press("C") != "confirm":
                raise AssertionError("removing a player did not ask first")
            if box.press("C") != "join":
                raise AssertionError("after removing a player the box shows " + box.screen())
            self.names.pop()
            self.tokens.pop()

    def change_game(self, box):
        box.press("A")  # the players menu: Remove player, Add player here, New table, Change game
        for _ in range(3):
            box.press("A")  # Change game
        if box.press("C") != "choose":
            raise AssertionError("Change game did not go back to the game menu")

    def forget(self):
        """The box was started afresh (a new table): nobody is seated."""
        self.names = []
        self.tokens = []


def _seating(count):
    for game, _ in firmware_games().GAMES:
        if max_players(game) >= count:
            return game
    raise AssertionError("no game seats %d players" % count)


def back_to_menu(box, presses=40):
    """From a game's end (its winners or standings) to the game menu with the same table, as the
    reader does it: C through the end's pages, "New game" in a what-next menu, yes when asked."""
    for _ in range(presses):
        screen = box.screen()
        if screen == "choose":
            return
        if screen == "confirm":
            box.press("C")
        elif screen in ("pc_end", "qd_again"):  # what next: [a rematch or new course], New game, Back
            box.press("A")
            box.press("C")
        else:
            box.press("C")
    raise AssertionError("the box did not get back to the game menu: " + box.screen())
