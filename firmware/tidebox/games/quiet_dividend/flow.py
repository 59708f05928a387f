# The Quiet Dividend on the box: the public board, everyone's shares, each payout as it happens, the
# final standings and the rematch, and the reader's items (a turn entered on the box, undo) as screen
# objects on the panel's stack (see tidebox/panel.py). Nothing is secret in this game, so a turn
# entered on the box needs no hand-off.
from tidebox.box import PLAY
from tidebox.games.quiet_dividend import rules as game
from tidebox.games.quiet_dividend import drawing as draws
from tidebox.screens import GameScreen, ListMenu, Screen, in_game_menu, turn_page


def kept():
    """What the panel keeps for the game: the payouts it has stepped past (None: not known yet,
    e.g. after a restart)."""
    return {"seen": None}


def _unseen(panel, state):
    """Index of the first payout the reader has not stepped past, or None."""
    paid = len(state["payouts"])
    kept = panel.kept
    if kept["seen"] is None:
        # After a restart: a payout is still news while no turn of the next lap has been taken.
        log = state["log"]
        last = log[-1] if log else None
        news = paid and last is not None and last // 10000 == state["payouts"][-1]["lap"]
        kept["seen"] = paid - 1 if news else paid
    if kept["seen"] > paid:  # an undone turn took a payout back, or a new game began
        kept["seen"] = paid
    return kept["seen"] if kept["seen"] < paid else None


def home(panel):
    """The screen for the game's state: a payout not yet shown, the end, or the board."""
    box = panel.box
    state = box.state
    index = _unseen(panel, state)
    if index is not None:
        return Payout(panel, index, len(state["payouts"]), news=True)
    if game.is_over(state):
        return final(panel)
    return Board(panel)


progress = draws.lap_label  # progress(state): one line for the resume screen


def short_label(state, m):
    """A legal move's label on the box's list (15 characters: the list scrolls, its last column marks
    more lines), with clubs' letters when the table's names make it too long."""
    if len(m["label"]) <= 15:
        return m["label"]
    a = m["args"]
    if m["move"] == "switch":
        return "Switch %s to %s" % (a["from"], a["to"])
    if m["move"] == "promote":
        return "Promote %s to %d" % (a["club"], state["values"][game.CLUBS.index(a["club"])] + 1)
    return "Join " + a["club"]


def enter_turn(panel):
    """The turn of the player whose turn it is, picked from the legal actions (A next, C take)."""
    box = panel.box
    waiting = box.to_act()
    if not waiting:
        panel.message = "No turn to enter"
        return
    seat = waiting[0]
    state = box.state
    items = []
    for m in game.legal_moves(state, seat):
        items.append((short_label(state, m), _taker(panel, seat, m)))
    title = draws.draw.fit(state["names"][seat], 9) + "'s turn"
    panel.push(ListMenu(panel, title, items, "qd_enter"))


def _taker(panel, seat, m):
    def take():
        panel.box.move(seat, m["move"], m["args"])
        panel.home()
    return take


def undo(panel):
    box = panel.box
    if not box.can_undo():
        panel.message = "Nothing to undo"
        return

    def undone():
        box.undo()
        panel.home()
        panel.message = "Turn undone"

    panel.ask("Undo last turn?", undone)


def payouts(panel):
    state = panel.box.state
    if not state["payouts"]:
        panel.message = "No payout yet"
        return
    panel.push(Payout(panel, 0, len(state["payouts"])))


def menu_items(panel):
    """The game's items in the reader's in-game menu."""
    box = panel.box
    items = []
    if box.to_act():
        items.append(("Enter turn", lambda: enter_turn(panel)))
    if box.can_undo():
        items.append(("Undo last turn", lambda: undo(panel)))
    if box.state["payouts"]:
        items.append(("Payouts", lambda: payouts(panel)))
    return items


class Board(GameScreen):
    """The public board: the clubs' values, the laps (payout laps marked), whose turn it is."""

    name = "qd_board"

    def __init__(self, panel):
        super().__init__(panel)
        self.paid = len(self.box.state["payouts"])
        self.seq = self.box.seq

    paint = staticmethod(draws.draw_board)

    def tick(self, now):
        # A phone's turn may have ended a payout lap or the game: show it at once.
        box = self.box
        if self.home_if(box.phase != PLAY or len(box.state["payouts"]) != self.paid):
            return True
        if box.seq != self.seq:  # the game moved on: a note about the last turn ("Turn undone") goes
            self.seq = box.seq
            if self.panel.message:
                self.panel.message = ""
                return True
        return False

    def act(self, button, kind):
        if button == "B":
            self.panel.push(Shares(self.panel))
        else:
            enter_turn(self.panel)


class Shares(Screen):
    """Every player's shares in A, B and C and points so far, paged."""

    name = "qd_shares"
    paint = staticmethod(draws.draw_shares)

    def press(self, button, kind):
        turn_page(self, button, draws.share_pages(self.box.state))


class Payout(Screen):
    """Payouts `index` to `upto` - 1, each with every player's amount, stepped with C. `news`: shown
    because a payout lap just ended (stepping past it marks it seen)."""

    name = "qd_payout"
    paint = staticmethod(draws.draw_payout)

    def __init__(self, panel, index, upto, news=False):
        super().__init__(panel)
        self.index = index
        self.upto = upto
        self.news = news

    def tick(self, now):
        return self.home_if(self.index >= len(self.box.state["payouts"]))  # the turn that paid was undone

    def press(self, button, kind):
        panel = self.panel
        state = self.box.state
        if self.index >= len(state["payouts"]):  # undone meanwhile
            panel.home()
            return
        pages = draws.payout_pages(state, self.index)
        if button == "A":
            if self.page > 0:
                self.page -= 1
            elif self.index > 0 and not self.news:
                self.index -= 1
                self.page = draws.payout_pages(state, self.index) - 1
            elif self.news:
                panel.push(in_game_menu(panel))
            else:
                panel.pop()
        elif button == "C":
            if self.page + 1 < pages:
                self.page += 1
            elif self.index + 1 < self.upto:
                self.index += 1
                self.page = 0
            elif self.news:
                panel.kept["seen"] = len(state["payouts"])
                panel.home()
            else:
                panel.pop()


def final(panel):
    """The end screen (tidebox/end.py): the winners (tied leaders share the win), the final
    standings (shared ranks, paged), then what next: a rematch (seating reversed, another first
    player) or a new game with the same players. An undo from the menu brings the board back."""
    from tidebox import end

    name = "qd_final"  # the screen's name (the tests and the simulator read it)
    return end.End(panel, name, game, choices=(
        ("Rematch", "Rematch now?", rematch), end.NEW_GAME_CHOICE), menu=("Play again?", "qd_again"),
        over=game.is_over)


def rematch(panel):
    """The same table again: the rules reverse the seating order and pick a different first player;
    Box.rematch plays it at once (a failed save puts back the finished game and is refused)."""
    box = panel.box
    state = game.rematch(box.state, box.random_below)  # refused (409) before the game is over
    box.rematch(state)
    panel.kept["seen"] = 0
    panel.home()
