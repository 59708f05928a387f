# Pearl Reach on the box: the coast, the tide strip, the scores and whose turn; what happened; the
# final standings and "New game?"; and the computer rivals, who think on the box (tick below). The
# people play on their phones (page.js); the box is the referee, the clock and the rivals.
import time

from tidebox.box import PLAY, GameError
from tidebox.games.pearl_reach import rivals
from tidebox.games.pearl_reach import rules as game
from tidebox.games.pearl_reach import screens as draws
from tidebox.screens import Screen, in_game_menu, turn_page

# The rivals' clock, kept between screens. Compared by identity and value only, so a loop pass with
# nothing due allocates nothing: the game (state dict) and move count the due time was set for, and
# when the rival to act moves (None: no rival to act). `_paused` is the game the reader paused.
_state = None
_seq = -1
_due = None
_paused = None


def home(reader):
    """The screen for the game's state: the board while playing, the final standings at the end."""
    if reader.box.phase == PLAY:
        return Board(reader)
    return Final(reader)


progress = draws.progress  # progress(state): one line for the resume screen


def paused(box):
    return _paused is not None and _paused is box.state


def rival_to_act(state):
    seat = game.current(state)
    return seat is not None and state["rivals"][seat] is not None


def menu_items(reader):
    """The game's items in the reader's in-game menu: pause or resume the rivals, end the game."""
    box = reader.box

    def pause():
        global _paused
        _paused = box.state
        reader.pop()

    def resume():
        global _paused
        _paused = None
        reader.pop()

    def end():
        reader.to_game_menu()

    items = []
    if box.phase != PLAY:
        pass
    elif paused(box):
        items.append(("Resume rivals", resume))
    elif [r for r in box.state["rivals"] if r is not None]:
        items.append(("Pause rivals", pause))
    items.append(("End game", lambda: reader.ask("End game?", end)))
    return items


def tick(reader, now):
    """Every loop pass while the box is in PLAY: when a rival is to act and the board is shown, it
    thinks for the game's rival speed (so people can follow), then makes its move (a shift, if it
    chooses one, then its placement) through box.move like any phone. True when it changed something.
    Rivals wait while the reader has paused them or has a menu, a question or the resume screen up;
    their thinking time starts again when the board is back."""
    global _state, _seq, _due
    box = reader.box
    state = box.state
    if state is not _state or box.seq != _seq:
        _state = state
        _seq = box.seq
        _due = time.ticks_add(now, state["speed"] * 1000) if rival_to_act(state) else None
        return False
    if _due is None:
        return False
    if _paused is state or not getattr(reader.top(), "rivals_play", False):
        _due = time.ticks_add(now, state["speed"] * 1000)
        return False
    if time.ticks_diff(now, _due) < 0:
        return False
    _due = None
    seat = game.current(state)
    shift, place = rivals.choose(state, seat, box.random_below)
    try:
        if shift is not None:
            box.move(seat, "shift", shift)
        box.move(seat, "place", place)
    except GameError as e:  # e.g. the save failed: the box went back to what flash holds; try again
        reader.message = e.message
    return True


class Board(Screen):
    """The coast, the tide strip, the points and whose turn (A menu, B scores, C what happened)."""

    name = "pr_board"
    rivals_play = True  # the rivals move while this screen is shown

    def draw(self, fb, now):
        draws.draw_board(fb, self, now, paused(self.box))

    def tick(self, now):
        return self.home_if(self.box.phase != PLAY)  # the last turn ended the game: the final standings

    def press(self, button, kind):
        r = self.reader
        if button == "A":
            r.push(in_game_menu(r))
        elif button == "B":
            r.push(Scores(r))
        elif button == "C":
            r.push(News(r))


class Scores(Screen):
    """Everyone's points, shells and shifts left (rivals marked *); B the key to the headings and the
    mark, and back."""

    name = "pr_scores"
    rivals_play = True

    def draw(self, fb, now):
        draws.draw_scores(fb, self, now)

    def tick(self, now):
        return self.home_if(self.box.phase != PLAY)

    def press(self, button, kind):
        if button in ("A", "C"):
            self.reader.pop()
        elif button == "B":
            self.page = 1 - self.page


class News(Screen):
    """What happened, newest first, in words: C pages on (then back), A back a page (or out)."""

    name = "pr_news"
    rivals_play = True

    def draw(self, fb, now):
        draws.draw_news(fb, self, now)

    def press(self, button, kind):
        turn_page(self, button, draws.news_pages(self.box.state))


def Final(reader):
    """The winners, then the final standings (points, then shells left); then "New game?" keeps the
    table and goes back to the game menu. A opens the menu, B goes back to the winners
    (tidebox/end.py). A new game started from a phone brings the board back."""
    from tidebox.end import End

    name = "pr_final"  # the screen's name (the tests and the simulator read it)
    return End(reader, name, draws.draw_final, top="B", over=game.is_over)
