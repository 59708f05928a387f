# The box's own screens used all through a game (any game): the Screen bases (a game's: GameScreen;
# one player's: SeatScreen), list menus, paged reading, confirmations, picking a seat, rejoin codes and the
# reader's in-game menu. The screens only needed before a game are apart: the splash and the resume
# offer in welcome.py, the game menu, joining and setup in lobby.py, which the panel unloads while a
# game is played; the end of a game (winners, standings, what next) is in end.py, imported when a
# game ends. Each screen is a small object on the panel's stack: `draw(fb, now)` on a cleared
# frame, `press(button, kind)` for A, B and C.
# The convention on every screen: A moves or opens the menu, B changes or steps, C goes on.
from tidebox import draw

LIST_ROWS = 4  # a list's lines of 10 px between the title and the hints


class Screen:
    """A screen's common parts. `name` is what the simulator and the tests see. A screen draws
    itself in `draw`, or names its drawing as `paint = staticmethod(fn)`: fn(fb, screen, now)."""

    name = ""
    paint = None
    # The buttons a long press does something else with on this screen (say "C"): a press of one
    # of these is told short or long once it ends or has been held long enough; the others act as
    # soon as they are down (tidebox/buttons.py).
    long_presses = ""
    # True where tick() changes the screen with time alone, not only after the box changed (which
    # wakes the reader, Panel.touch): while such a screen is shown the panel loop never rests.
    keeps_time = False

    def __init__(self, panel):
        self.panel = panel
        self.box = panel.box
        self.cursor = 0  # highlighted line on list screens
        self.page = 0  # page of a long list

    @property
    def message(self):
        return self.panel.message

    def draw(self, fb, now):
        if self.paint is not None:
            self.paint(fb, self, now)

    def press(self, button, kind):
        pass

    def tick(self, now):
        """Time-driven changes; True when the screen must be drawn again."""
        return False

    def home_if(self, moved_on):
        """For tick(): when the game has moved on under this screen (a phone's turn, an undo), the
        screen for the game's state takes its place. Returns `moved_on`."""
        if moved_on:
            self.panel.home()
        return moved_on


class GameScreen(Screen):
    """A game's screen: A opens the reader's in-game menu, B and C go to `act(button, kind)`."""

    def press(self, button, kind):
        if button == "A":
            self.panel.push(in_game_menu(self.panel))
        else:
            self.act(button, kind)

    def act(self, button, kind):
        pass


class SeatScreen(Screen):
    """A screen about one player: `seat`."""

    def __init__(self, panel, seat):
        super().__init__(panel)
        self.seat = seat


class Confirm(Screen):
    name = "confirm"

    def __init__(self, panel, question, on_yes):
        super().__init__(panel)
        self.question = question
        self.on_yes = on_yes

    def draw(self, fb, now):
        draw.title(fb, "Sure?")
        # two lines: split where the question says (a newline), else after its first word
        lines = self.question.split("\n" if "\n" in self.question else " ", 1)
        draw.center(fb, lines[0], 20)
        draw.center(fb, lines[1] if len(lines) > 1 else "", 32)
        draw.hints_or_message(fb, self.message, "no", "", "yes")

    def press(self, button, kind):
        if button == "C":
            self.panel.pop()
            self.on_yes()
        elif button == "A":
            self.panel.pop()


class ListMenu(Screen):
    """A titled list: A moves down, B goes back, C picks. `items` are (label, action) pairs."""

    name = "menu"

    def __init__(self, panel, title, items, name=None):
        super().__init__(panel)
        self.title = title
        self.items = items
        if name:
            self.name = name

    def draw(self, fb, now):
        # At most four lines: past the fourth, the list scrolls with the cursor (its line the lowest),
        # its lines one character shorter and a mark at their right: up, more above; down, more below.
        draw.title(fb, self.title)
        if not self.message or len(self.message) <= draw.COLS:  # a longer one covers the list
            self.draw_lines(fb)
        draw.hints_or_message(fb, self.message, "next", "back", "pick")

    def draw_lines(self, fb):
        top = max(0, self.cursor - LIST_ROWS + 1)
        scrolls = len(self.items) > LIST_ROWS
        width = draw.COLS - 1 if scrolls else draw.COLS
        labels = [draw.fit(label, width) for label, _ in self.items[top:top + LIST_ROWS]]
        draw.rows(fb, labels, y=12, step=10, cursor=self.cursor - top)
        if scrolls:
            last = top + LIST_ROWS - 1
            if top > 0:
                _more_mark(fb, 12, True, 0 if self.cursor == top else 1)
            if last + 1 < len(self.items):
                _more_mark(fb, 12 + (LIST_ROWS - 1) * 10, False, 0 if self.cursor == last else 1)

    def press(self, button, kind):
        if button == "A":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif button == "B":
            self.panel.pop()
        elif button == "C":
            self.items[self.cursor][1]()


def _more_mark(fb, y, up, c):
    """A small triangle in the last character cell of the list line at `y`: more lines that way."""
    for k in range(3):
        fb.hline(122 + k, y + (4 - k if up else 2 + k), 5 - 2 * k, c)


class PickSeat(Screen):
    """Whose seat a menu item is for: A next player, B back, C pick. `seats` limits the choice
    (default: every present player; `every` includes dropped ones too)."""

    name = "pick_seat"

    def __init__(self, panel, title, on_pick, seats=None, every=False):
        super().__init__(panel)
        self.title = title
        self.on_pick = on_pick
        names = self.box.seats.names
        if seats is None:
            seats = [i for i in range(len(names)) if every or self.box.seats.present[i]]
        self.seats = seats or [0]
        self.pick = self.seats[0]

    def draw(self, fb, now):
        draw.title(fb, self.title)
        names = self.box.seats.names
        name = names[self.pick] if self.pick < len(names) else "-"
        draw.big_center(fb, draw.fit(name, 8), 22, 2)
        fb.text("seat %d" % (self.pick + 1), 0, 44)
        draw.hints_or_message(fb, self.message, "next", "back", "pick")

    def press(self, button, kind):
        if button == "A":
            at = self.seats.index(self.pick) if self.pick in self.seats else -1
            self.pick = self.seats[(at + 1) % len(self.seats)]
        elif button == "B":
            self.panel.pop()
        elif button == "C":
            self.panel.pop()
            self.on_pick(self.pick)


class ShowCode(SeatScreen):
    name = "show_code"

    def __init__(self, panel, seat, code):
        super().__init__(panel, seat)
        self.code = code

    def draw(self, fb, now):
        draw.title(fb, "Rejoin: " + draw.fit(self.box.seats.names[self.seat], 8))
        draw.big_center(fb, self.code, 16, 2)
        draw.center(fb, "type on phone", 38)
        draw.hints(fb, "", "", "done")

    def press(self, button, kind):
        if button in ("B", "C"):
            self.code = ""
            self.panel.home()


def turn_page(screen, button, pages):
    """Paged reading, `pages` pages: C pages on, then back; A back a page, or out."""
    if button == "A" and screen.page > 0:
        screen.page -= 1
    elif button == "C" and screen.page + 1 < pages:
        screen.page += 1
    elif button in ("A", "C"):
        screen.panel.pop()


def in_game_menu(panel):
    """The reader's menu during a game: the box's own items and the game's (flow.menu_items), then
    End game and Back."""
    box = panel.box

    def drop():
        panel.push(PickSeat(panel, "Drop who?", lambda seat: panel.ask(
            "Drop " + box.seats.names[seat] + "?", lambda: dropped(seat))))

    def dropped(seat):
        box.drop(seat)
        panel.home()

    def code():
        panel.push(PickSeat(panel, "Code for?", lambda seat: panel.push(
            ShowCode(panel, seat, box.rejoin_code(seat)))))

    items = [("Drop player", drop), ("Rejoin code", code)]
    items.extend(panel.flow.menu_items(panel))
    # Any game ends here, asked first: the table stays (every seat and name) and goes to the game menu.
    items.append(("End game", lambda: panel.ask("End game?", panel.to_game_menu)))
    items.append(("Back", panel.pop))
    return ListMenu(panel, "Menu", items)
