# Pearl Reach on the box: the coast, the tide strip, the scores and whose turn; what happened; the
# final standings and "New game?"; and the computer rivals, who think on the box (tick below). The
# people play on their phones (page.js); the box is the referee, the clock and the rivals.
import time

from tidebox.box import PLAY, GameError
from tidebox.games.pearl_reach import rivals
from tidebox.games.pearl_reach import rules as game
from tidebox.games.pearl_reach import drawing as draws
from tidebox.screens import GameScreen, Screen, turn_page


def kept():
    """The rivals' clock, which the panel keeps between screens. Compared by identity and value
    only, so a loop pass with nothing due allocates nothing: the game (state dict) and move count
    the due time was set for, and when the rival to act moves (None: no rival to act); `chosen`, the
    rival's move once chosen (made at the next pass); `paused`, the game the reader paused."""
    return {"state": None, "seq": -1, "due": None, "chosen": None, "paused": None}


def home(panel):
    """The screen for the game's state: the board while playing, the final standings at the end."""
    if panel.box.phase == PLAY:
        return Board(panel)
    return final(panel)


progress = draws.progress  # progress(state): one line for the resume screen


def paused(panel):
    held = panel.kept["paused"]
    return held is not None and held is panel.box.state


def rival_to_act(state):
    seat = game.current(state)
    return seat is not None and state["rivals"][seat] is not None


def menu_items(panel):
    """The game's items in the reader's in-game menu: pause or resume the rivals (End game is the
    box's own, screens.in_game_menu)."""
    box = panel.box

    def pause():
        panel.kept["paused"] = box.state
        panel.pop()

    def resume():
        panel.kept["paused"] = None
        panel.pop()

    items = []
    if box.phase != PLAY:
        pass
    elif paused(panel):
        items.append(("Resume rivals", resume))
    elif [r for r in box.state["rivals"] if r is not None]:
        items.append(("Pause rivals", pause))
    return items


def tick(panel, now):
    """Every loop pass while the box is in PLAY: when a rival is to act and the board is shown, it
    thinks for the game's rival speed (so people can follow), then makes its move (a shift, if it
    chooses one, then its placement) through box.move like any phone. True when it changed something.
    Rivals wait while the reader has paused them or has a menu, a question or the resume screen up;
    their thinking time starts again when the board is back.

    The choice and the move are two passes of the panel loop: choosing (up to ~80 ms on the RP2040)
    and then moving, saving (a sector erase stalls the core ~45 ms) and drawing in one pass held the
    buttons and the phones for up to ~300 ms. A choice is made for the state and move count it was
    made on: anything that changes them in between (a phone's new game) drops it."""
    clock = panel.kept
    box = panel.box
    state = box.state
    if state is not clock["state"] or box.seq != clock["seq"]:
        clock["state"] = state
        clock["seq"] = box.seq
        clock["due"] = time.ticks_add(now, state["speed"] * 1000) if rival_to_act(state) else None
        clock["chosen"] = None
        return False
    due = clock["due"]
    if due is None:
        return False
    if clock["paused"] is state or not getattr(panel.top(), "rivals_play", False):
        clock["due"] = time.ticks_add(now, state["speed"] * 1000)
        return False
    if time.ticks_diff(now, due) < 0:
        return False
    if clock["chosen"] is None:
        clock["chosen"] = _rival_chooses(box, state)  # this pass; the move at the next
        return False
    clock["due"] = None
    _rival_moves(panel, box, state, clock)
    return True


def acting(panel):
    """Whether a rival may act before the box changes: one is to act (thinking, or its choice made), or
    the box changed since tick last looked. Else the panel loop may rest until a phone's move."""
    clock = panel.kept
    box = panel.box
    return clock["due"] is not None or clock["state"] is not box.state or clock["seq"] != box.seq


def _rival_chooses(box, state):
    """The rival to act's (shift, place) (apart from tick: its call frame stays small)."""
    return rivals.choose(state, game.current(state), box.random_below)


def _rival_moves(panel, box, state, clock):
    """The rival to act makes its chosen move (apart from tick: its call frame stays small enough
    for the C stack)."""
    seat = game.current(state)
    shift, place = clock["chosen"]
    clock["chosen"] = None
    try:
        if shift is not None:
            box.move(seat, "shift", shift, save=False)  # saved with the placement: one save a turn
        box.move(seat, "place", place)
    except GameError as e:  # e.g. the save failed: the box went back to what flash holds; try again
        if shift is not None:
            box.put_back()  # the shift too, should the placement itself have been refused
        panel.message = e.message


class Board(GameScreen):
    """The coast, the tide strip, the points and whose turn (A menu, B scores, C what happened)."""

    name = "pr_board"
    rivals_play = True  # the rivals move while this screen is shown

    def draw(self, fb, now):
        draws.draw_board(fb, self, now, paused(self.panel))

    def tick(self, now):
        return self.home_if(self.box.phase != PLAY)  # the last turn ended the game: the final standings

    def act(self, button, kind):
        panel = self.panel
        panel.push(Scores(panel) if button == "B" else News(panel))


class Scores(Screen):
    """Everyone's points, shells and shifts left (rivals marked *); B the key to the headings and the
    mark, and back."""

    name = "pr_scores"
    paint = staticmethod(draws.draw_scores)
    rivals_play = True

    def tick(self, now):
        return self.home_if(self.box.phase != PLAY)

    def press(self, button, kind):
        if button in ("A", "C"):
            self.panel.pop()
        elif button == "B":
            self.page = 1 - self.page


class News(Screen):
    """What happened, newest first, in words: C pages on (then back), A back a page (or out)."""

    name = "pr_news"
    paint = staticmethod(draws.draw_news)
    rivals_play = True

    def press(self, button, kind):
        turn_page(self, button, draws.news_pages(self.box.state))


def final(panel):
    """The end screen (tidebox/end.py): the winners, then the final standings (points, then shells
    left); then "New game?" keeps the table and goes back to the game menu. A new game started from
    a phone brings the board back."""
    from tidebox.end import End

    name = "pr_final"  # the screen's name (the tests and the simulator read it)
    return End(panel, name, game, draws.draw_final, over=game.is_over)
