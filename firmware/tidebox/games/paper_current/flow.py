# Paper Current on the box: the course card (name, launch zone picture, bonus), one press per launch,
# score entry for the eight boats, the round's score and the end of the course, as screen objects on
# the panel's stack (see tidebox/panel.py). Phones may enter results too (page.js).
from tidebox.box import OVER
from tidebox.buttons import LONG
from tidebox.games.paper_current import rules as game
from tidebox.games.paper_current import drawing as draws
from tidebox.screens import GameScreen

NEXT_RESULT = {None: 2, 2: 1, 1: 0, 0: 2}  # B on the score screen: inner, outer, out, inner...


def home(panel):
    """The screen for the game's phase (after a resume, a menu or an action)."""
    box = panel.box
    if box.phase == OVER:
        return final(panel)
    phase = box.state["phase"]
    if phase == game.PHASE_SCORED:
        return Scored(panel)
    if phase == game.PHASE_SCORE:
        return Score(panel)
    if box.state["launch"] == 0:
        return Card(panel)
    return Launch(panel)


progress = draws.round_label  # progress(state): one line for the resume screen


def menu_items(panel):
    """The game's items in the reader's in-game menu."""
    box = panel.box

    def replay():
        box.move(None, "replay_round")
        panel.home()

    return [("Replay round", lambda: panel.ask("Replay this round?", replay))]


class Card(GameScreen):
    """The round's card: the zone picture, then its bonus in words (C pages on, B back). `peek`: shown
    from the launches, C at the end goes back to them."""

    name = "pc_card"
    paint = staticmethod(draws.draw_card)

    def __init__(self, panel, peek=False):
        super().__init__(panel)
        self.peek = peek

    def act(self, button, kind):
        panel = self.panel
        if button == "B":
            if self.page > 0:
                self.page -= 1
        elif button == "C":
            if self.page < draws.bonus_pages(self.box.state):
                self.page += 1
            elif self.peek:
                panel.pop()
            else:
                panel.replace(Launch(panel))


class Launch(GameScreen):
    """"Boat 3: Bo": C when the boat has been launched, a long C goes back one."""

    name = "pc_launch"
    long_presses = "C"  # back one boat
    paint = staticmethod(draws.draw_launch)

    def act(self, button, kind):
        panel = self.panel
        box = self.box
        if button == "B":
            panel.push(Card(panel, peek=True))
        elif button == "C":
            if kind == LONG:
                if box.state["launch"] == 0:
                    panel.replace(Card(panel))
                    return
                box.move(None, "back")
            else:
                box.move(None, "launch")
            if box.state["phase"] == game.PHASE_LAUNCH:
                panel.replace(Launch(panel))  # back to boat 1 stays here; the card is one more long press
            else:
                panel.home()


class Score(GameScreen):
    """The eight results: A next boat, B changes its value (2, 1, 0), C confirms; a long C goes back to
    the last launch while nothing is entered yet."""

    name = "pc_score"
    long_presses = "AC"  # the in-game menu; back to the last launch
    paint = staticmethod(draws.draw_score)

    def press(self, button, kind):
        if button == "A" and kind != LONG:
            self.cursor = (self.cursor + 1) % game.BOATS
        else:
            super().press(button, kind)  # a long A: the in-game menu

    def act(self, button, kind):
        panel = self.panel
        box = self.box
        results = box.state["results"]
        if button == "B":
            now = results[self.cursor]
            box.move(None, "set_result", {"boat": self.cursor + 1, "result": NEXT_RESULT[now], "was": now})
        elif button == "C":
            if kind == LONG:
                box.move(None, "back")
                panel.home()
                return
            missing = [i for i in range(game.BOATS) if results[i] is None]
            if missing:
                self.cursor = missing[0]
                panel.message = "Boat %d not set" % (missing[0] + 1)
                return
            box.move(None, "confirm")
            panel.home()


class Scored(GameScreen):
    name = "pc_round"
    paint = staticmethod(draws.draw_round)

    def act(self, button, kind):
        if button == "C":
            self.box.move(None, "next_round")
            self.panel.home()


def final(panel):
    """The end screen (tidebox/end.py): the total against the target, then the three rounds; then a
    new course or a new game."""
    from tidebox import end

    name = "pc_final"  # the screen's name (the tests and the simulator read it)
    return end.End(panel, name, game, draws.draw_final, pages=draws.final_pages, choices=(
        ("New course", "New course?", new_course), end.NEW_GAME_CHOICE), menu=("What next?", "pc_end"))


def new_course(panel):
    """A fresh course at the same table, saved like any change (Box.rematch)."""
    box = panel.box
    course = game.new_course(box.state, box.random_below)  # a refusal keeps its status
    box.rematch(course)
    panel.home()
