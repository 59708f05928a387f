# Paper Current on the box: the course card (name, launch zone picture, bonus), one press per launch,
# score entry for the eight boats, the round's score and the end of the course, as screen objects on
# the reader's stack (see tidebox/reader.py). Phones may enter results too (page.js).
from tidebox.box import OVER
from tidebox.buttons import LONG
from tidebox.games.paper_current import rules as game
from tidebox.games.paper_current import screens as draws
from tidebox.screens import Screen, in_game_menu

NEXT_RESULT = {None: 2, 2: 1, 1: 0, 0: 2}  # B on the score screen: inner, outer, out, inner...


def home(reader):
    """The screen for the game's phase (after a resume, a menu or an action)."""
    box = reader.box
    if box.phase == OVER:
        return Final(reader)
    phase = box.state["phase"]
    if phase == game.PHASE_SCORED:
        return Scored(reader)
    if phase == game.PHASE_SCORE:
        return Score(reader)
    if box.state["launch"] == 0:
        return Card(reader)
    return Launch(reader)


progress = draws.round_label  # progress(state): one line for the resume screen


def menu_items(reader):
    """The game's items in the reader's in-game menu."""
    box = reader.box

    def replay():
        box.move(None, "replay_round")
        reader.home()

    return [("Replay round", lambda: reader.ask("Replay this round?", replay))]


class Card(Screen):
    """The round's card: the zone picture, then its bonus in words (C pages on, B back). `peek`: shown
    from the launches, C at the end goes back to them."""

    name = "pc_card"

    def __init__(self, reader, peek=False):
        super().__init__(reader)
        self.peek = peek

    def draw(self, fb, now):
        draws.draw_card(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        if button == "A":
            r.push(in_game_menu(r))
        elif button == "B":
            if self.page > 0:
                self.page -= 1
        elif button == "C":
            if self.page < draws.bonus_pages(self.box.state):
                self.page += 1
            elif self.peek:
                r.pop()
            else:
                r.replace(Launch(r))


class Launch(Screen):
    """"Boat 3: Bo": C when the boat has been launched, a long C goes back one."""

    name = "pc_launch"

    def draw(self, fb, now):
        draws.draw_launch(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        box = self.box
        if button == "A":
            r.push(in_game_menu(r))
        elif button == "B":
            r.push(Card(r, peek=True))
        elif button == "C":
            if kind == LONG:
                if box.state["launch"] == 0:
                    r.replace(Card(r))
                    return
                box.move(None, "back")
            else:
                box.move(None, "launch")
            if box.state["phase"] == game.PHASE_LAUNCH:
                r.replace(Launch(r))  # back to boat 1 stays here; the card is one more long press
            else:
                r.home()


class Score(Screen):
    """The eight results: A next boat, B changes its value (2, 1, 0), C confirms; a long C goes back to
    the last launch while nothing is entered yet."""

    name = "pc_score"

    def draw(self, fb, now):
        draws.draw_score(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        box = self.box
        results = box.state["results"]
        if button == "A":
            if kind == LONG:
                r.push(in_game_menu(r))
                return
            self.cursor = (self.cursor + 1) % game.BOATS
        elif button == "B":
            now = results[self.cursor]
            box.move(None, "set_result", {"boat": self.cursor + 1, "result": NEXT_RESULT[now], "was": now})
        elif button == "C":
            if kind == LONG:
                box.move(None, "back")
                r.home()
                return
            missing = [i for i in range(game.BOATS) if results[i] is None]
            if missing:
                self.cursor = missing[0]
                r.message = "Boat %d not set" % (missing[0] + 1)
                return
            box.move(None, "confirm")
            r.home()


class Scored(Screen):
    name = "pc_round"

    def draw(self, fb, now):
        draws.draw_round(fb, self, now)

    def press(self, button, kind):
        r = self.reader
        if button == "A":
            r.push(in_game_menu(r))
        elif button == "C":
            self.box.move(None, "next_round")
            r.home()


def Final(reader):
    """The total against the target, then the three rounds (A back); then a new course or a new game
    (tidebox/end.py)."""
    from tidebox import end

    name = "pc_final"  # the screen's name (the tests and the simulator read it)
    return end.End(reader, name, draws.draw_final, pages=draws.final_pages, choices=(
        ("New course", "New course?", new_course), end.NEW_GAME), menu=("What next?", "pc_end"))


def new_course(reader):
    """A fresh course at the same table, saved like any change (Box.restart)."""
    box = reader.box
    course = game.new_course(box.state, box.random_below)  # a refusal keeps its status
    box.restart(course)
    reader.home()
