# The box's own screens (any game): splash, resume, the game menu, joining, setup, menus,
# confirmations, picking a seat, rejoin codes and private entry. Each screen is a small object on the
# reader's stack: `draw(fb, now)` on a cleared frame, `press(button, kind)` for A, B and C.
# The convention on every screen: A moves or opens the menu, B changes or steps, C goes on.
from tidebox import VERSION, draw, games
from tidebox.buttons import LONG

NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
SETUP_ROWS = 4  # option lines visible at once under the title


class Screen:
    """A screen's common parts. `name` is what the simulator and the tests see."""

    name = ""

    def __init__(self, reader):
        self.reader = reader
        self.box = reader.box
        self.cursor = 0  # highlighted line on list screens
        self.page = 0  # page of a long list

    @property
    def message(self):
        return self.reader.message

    def draw(self, fb, now):
        pass

    def press(self, button, kind):
        pass

    def tick(self, now):
        """Time-driven changes; True when the screen must be drawn again."""
        return False


class Splash(Screen):
    name = "splash"

    def draw(self, fb, now):
        draw.big_center(fb, "TIDE", 4, 3)
        draw.center(fb, "BOX", 30)
        draw.center(fb, "v" + VERSION, 44)
        if self.box.notice:
            draw.center(fb, self.box.notice, 54)


class Resume(Screen):
    name = "resume"

    def draw(self, fb, now):
        box = self.box
        draw.title(fb, "Saved game")
        lines = [games.title(box.game_id) if box.game_id else "No game chosen"]
        if box.state:
            lines.append(self.reader.flow.progress(box.state))
        else:
            lines.append("Still joining")
        lines.append("%d players" % box.seats.count())
        lines.append("Resume it?")
        draw.rows(fb, lines, y=13, step=10)
        draw.hints(fb, "new", "", "go")

    def press(self, button, kind):
        if button == "C":
            self.reader.home()
        elif button == "A":
            self.reader.ask("Discard saved?", self.discard)

    def discard(self):
        self.box.discard()
        self.reader.home()


class Confirm(Screen):
    name = "confirm"

    def __init__(self, reader, question, on_yes):
        super().__init__(reader)
        self.question = question
        self.on_yes = on_yes

    def draw(self, fb, now):
        draw.title(fb, "Sure?")
        words = self.question.split(" ")
        draw.center(fb, words[0], 20)
        draw.center(fb, " ".join(words[1:]), 32)
        draw.hints_or_message(fb, self.message, "no", "", "yes")

    def press(self, button, kind):
        if button == "C":
            self.reader.pop()
            self.on_yes()
        elif button == "A":
            self.reader.pop()


class ListMenu(Screen):
    """A titled list: A moves down, B goes back, C picks. `items` are (label, action) pairs."""

    name = "menu"

    def __init__(self, reader, title, items, name=None):
        super().__init__(reader)
        self.title = title
        self.items = items
        if name:
            self.name = name

    def draw(self, fb, now):
        draw.title(fb, self.title)
        labels = [label for label, _ in self.items]
        lines, _ = draw.page(labels, self.cursor // 5, 5)
        draw.rows(fb, lines, y=12, step=10, cursor=self.cursor % 5)
        draw.hints_or_message(fb, self.message, "next", "back", "pick")

    def press(self, button, kind):
        if button == "A":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif button == "B":
            self.reader.pop()
        elif button == "C":
            self.items[self.cursor][1]()


class ChooseGame(Screen):
    """After the splash (and after a game's end): which game the table plays."""

    name = "choose"

    def draw(self, fb, now):
        draw.title(fb, "Choose a game")
        draw.rows(fb, [title for _, title in games.GAMES], y=13, step=10, cursor=self.cursor)
        count = self.box.seats.count()
        if not self.message and count:
            fb.text("%d at the table" % count, 0, 44)
        draw.hints_or_message(fb, self.message, "next", "", "pick")

    def press(self, button, kind):
        if button == "A":
            self.cursor = (self.cursor + 1) % len(games.GAMES)
        elif button == "C":
            self.box.choose_game(games.GAMES[self.cursor][0])
            self.reader.home()


def join_views(reader):
    """The join screen's pages, cycled with B: QR codes (when the board can draw them), text, players."""
    views = ["wifi_qr", "page_qr"] if reader.qr_drawer else []
    return views + ["wifi_text", "players"]


def _key_hint(fb, key, word, x, y):
    """One button hint, [X]word, at (x, y)."""
    fb.fill_rect(x, y, 8, 8, 1)
    fb.text(key, x, y, 0)
    fb.text(word, x + 8, y, 1)


class Join(Screen):
    """Every page names what A (the players menu), B (the next page) and C (setup) do."""

    name = "join"

    def draw(self, fb, now):
        box = self.box
        names = [box.seats.names[i] for i in range(len(box.seats.names)) if box.seats.present[i]]
        views = join_views(self.reader)
        view = views[self.page % len(views)]
        if view in ("wifi_qr", "page_qr"):
            self.reader.qr_drawer(fb, view)  # a QR code on the left 64x64
            x = 68
            fb.text("Wi-Fi" if view == "wifi_qr" else "Page", x, 0)
            fb.text("scan" if view == "wifi_qr" else "then", x, 8)
            fb.text("to join" if view == "wifi_qr" else "scan", x, 16)
            fb.text("%d in" % len(names), x, 25)
            # the QR takes the left half: what A, B and C do, one per line in the right half
            for y, key, word in ((36, "A", "menu"), (46, "B", "more"), (56, "C", "setup")):
                _key_hint(fb, key, word, x, y)
            if self.message:
                draw.hints_or_message(fb, self.message)
            return
        elif view == "wifi_text":
            draw.title(fb, "Join: %d of %d" % (len(names), box.rules.MAX_PLAYERS))
            draw.rows(fb, ["Wi-Fi:", " " + box.ssid(), "Password:", " " + box.password, "then open page"])
        else:
            draw.title(fb, "%d joined" % len(names))
            lines = []
            for i in range(0, len(names), 2):
                lines.append(" ".join(draw.fit(n, 7) for n in names[i : i + 2]))
            draw.rows(fb, lines[:5] or ["nobody yet"])
        if self.message:
            draw.hints_or_message(fb, self.message)
        else:
            # C says "setup" (five letters: the three hints fill the line edge to edge)
            fb.fill_rect(0, draw.HINT_Y - 1, draw.W, 9, 0)
            fb.hline(0, draw.HINT_Y - 1, draw.W, 1)
            for x, key, word in ((0, "A", "menu"), (40, "B", "more"), (80, "C", "setup")):
                _key_hint(fb, key, word, x, draw.HINT_Y)

    def press(self, button, kind):
        r = self.reader
        if button == "A":
            r.push(ListMenu(r, "Players", (
                ("Add player here", self.add_here),
                ("Remove player", self.remove),
                ("Change game", self.change_game),
                ("Back", r.pop),
            ), "join_menu"))
        elif button == "B":
            self.page += 1
        elif button == "C":
            self.box.to_setup()
            r.home()

    def add_here(self):
        self.reader.push(NameEntry(self.reader))

    def remove(self):
        r = self.reader
        if not self.box.seats.names:
            r.message = "Nobody joined yet"
            return
        r.push(PickSeat(r, "Remove who?", self.remove_seat, every=True))

    def remove_seat(self, seat):
        self.reader.ask("Remove " + self.box.seats.names[seat] + "?", lambda: self.removed(seat))

    def removed(self, seat):
        self.box.remove_player(seat)
        self.reader.home()

    def change_game(self):
        self.box.to_choose()
        self.reader.home()


class NameEntry(Screen):
    """A name for a player without a phone, letter by letter."""

    name = "name_entry"

    def __init__(self, reader):
        super().__init__(reader)
        self.text = ""
        self.char = 0

    def draw(self, fb, now):
        draw.title(fb, "Name on box")
        draw.big(fb, draw.fit(self.text, 7) + "_", 0, 14, 2)
        ch = NAME_CHARS[self.char]
        fb.text("letter:", 0, 38)
        draw.big(fb, "[" + ("_" if ch == " " else ch) + "]", 64, 32, 2)
        draw.hints_or_message(fb, self.message, "abc", "add", "done")

    def press(self, button, kind):
        if button == "A":
            step = -1 if kind == LONG else 1
            self.char = (self.char + step) % len(NAME_CHARS)
        elif button == "B":
            if kind == LONG:
                self.text = self.text[:-1]
            elif len(self.text) < 12:
                self.text += NAME_CHARS[self.char]
        elif button == "C":
            if kind != LONG:
                self.box.join(self.text)  # a Refused keeps the screen and shows why
            self.reader.home()


class PickSeat(Screen):
    """Whose seat a menu item is for: A next player, B back, C pick. `seats` limits the choice
    (default: every present player; `every` includes dropped ones too)."""

    name = "pick_seat"

    def __init__(self, reader, title, on_pick, seats=None, every=False):
        super().__init__(reader)
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
            self.reader.pop()
        elif button == "C":
            self.reader.pop()
            self.on_pick(self.pick)


class ShowCode(Screen):
    name = "show_code"

    def __init__(self, reader, seat, code):
        super().__init__(reader)
        self.seat = seat
        self.code = code

    def draw(self, fb, now):
        draw.title(fb, "Rejoin: " + draw.fit(self.box.seats.names[self.seat], 8))
        draw.big_center(fb, self.code, 16, 2)
        draw.center(fb, "type on phone", 38)
        draw.hints(fb, "", "", "done")

    def press(self, button, kind):
        if button in ("B", "C"):
            self.code = ""
            self.reader.home()


class Handoff(Screen):
    """Before a private entry on the box: the box is passed to one player."""

    name = "handoff"

    def __init__(self, reader, seat, entry):
        super().__init__(reader)
        self.seat = seat
        self.entry = entry  # makes the entry screen

    def draw(self, fb, now):
        name = self.box.seats.names[self.seat]
        draw.title(fb, "Private entry")
        draw.center(fb, "Pass the box to", 14)
        draw.big_center(fb, draw.fit(name, 8), 26, 2)
        draw.center(fb, "only they look", 44)
        draw.hints(fb, "", "back", "I am")

    def press(self, button, kind):
        if button == "C":
            self.reader.replace(self.entry())
        elif button in ("A", "B"):
            self.reader.pop()


class Entered(Screen):
    name = "entered"

    def __init__(self, reader, seat):
        super().__init__(reader)
        self.seat = seat

    def draw(self, fb, now):
        draw.title(fb, "Locked in")
        draw.center(fb, self.box.seats.names[self.seat], 18)
        draw.center(fb, "numbers hidden", 30)
        draw.center(fb, "hand it back", 40)
        draw.hints(fb, "", "", "ok")

    def press(self, button, kind):
        if button == "C":
            self.reader.home()


class Setup(Screen):
    """The chosen game's options (its rules' OPTIONS): A next line (long: back to joining),
    B changes the value, C starts the game."""

    name = "setup"

    def draw(self, fb, now):
        box = self.box
        lines = [label + " " + box.option_label(key) for key, label, _ in box.rules.OPTIONS]
        top = max(0, self.cursor - SETUP_ROWS + 1)
        draw.title(fb, "Setup")
        draw.rows(fb, lines[top:top + SETUP_ROWS], y=12, step=10, cursor=self.cursor - top)
        draw.hints_or_message(fb, self.message, "next", "edit", "go")

    def press(self, button, kind):
        box = self.box
        if button == "A":
            if kind == LONG:
                box.back_to_join()
                self.reader.home()
                return
            self.cursor = (self.cursor + 1) % len(box.rules.OPTIONS)
        elif button == "B":
            box.next_option(box.rules.OPTIONS[self.cursor][0])
        elif button == "C":
            box.start_game()
            self.reader.home()


def in_game_menu(reader):
    """The reader's menu during a game: the box's own items and the game's (flow.menu_items)."""
    box = reader.box

    def drop():
        reader.push(PickSeat(reader, "Drop who?", lambda seat: reader.ask(
            "Drop " + box.seats.names[seat] + "?", lambda: dropped(seat))))

    def dropped(seat):
        box.drop(seat)
        reader.home()

    def code():
        reader.push(PickSeat(reader, "Code for?", lambda seat: reader.push(
            ShowCode(reader, seat, box.rejoin_code(seat)))))

    items = [("Drop player", drop), ("Rejoin code", code)]
    items.extend(reader.flow.menu_items(reader))
    items.append(("Back", reader.pop))
    return ListMenu(reader, "Menu", items)
