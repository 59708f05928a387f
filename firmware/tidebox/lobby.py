# The screens before a game: the game menu, joining (with the players menu and a name typed on the
# box) and the chosen game's setup. The panel imports this module for them and unloads it while a
# game is played (its code would otherwise hold heap all game).
from tidebox import draw, games, memory
from tidebox.buttons import LONG
from tidebox.screens import ListMenu, PickSeat, Screen

NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "
MENU_ROWS = 4  # the game menu's lines of 10 px between the title and the hints
SETUP_ROWS = 5  # the setup screen's rows of 9 px under the title (the selected option takes two)
SETUP_Y = 11
SETUP_STEP = 9
TONIGHT = "Tonight's scores"  # the game menu's line after the games


class ChooseGame(Screen):
    """After the splash (and after a game's end): which game the table plays."""

    name = "choose"

    def draw(self, fb, now):
        # How many are at the table goes in the title line: four titles fill the rows above the hints.
        count = self.box.seats.count()
        if count:
            plural = "" if count == 1 else "s"
            draw.title(fb, "Games: %d player%s" % (count, plural))
        else:
            draw.title(fb, "Choose a game")
        top = max(0, self.cursor - MENU_ROWS + 1)
        titles = [title for _, title in games.GAMES] + [TONIGHT]
        draw.rows(fb, titles[top:top + MENU_ROWS], y=12, step=10, cursor=self.cursor - top)
        draw.hints_or_message(fb, self.message, "next", "", "pick")

    def press(self, button, kind):
        if button == "A":
            self.cursor = (self.cursor + 1) % (len(games.GAMES) + 1)
        elif button == "C" and self.cursor == len(games.GAMES):
            self.panel.push(Tonight(self.panel))
        elif button == "C":
            game = games.GAMES[self.cursor][0]
            try:
                self.box.choose_game(game)
                self.panel.home()
            except MemoryError:  # its code found no room: chosen again on a fresh heap
                self.panel.short_of_memory("choose", game)


def _short(title):
    """A game's two-letter mark for the box's lines: its title's initials (Token Tide: TT)."""
    words = title.split()
    return (words[0][0] + words[1][0]) if len(words) > 1 else title[:2]


def tonight_line(game):
    """One game on the box's Tonight page, 16 characters at most: "TT Ann 34", "QD 2 tied 30",
    "PC all won 41", "PC lost 38", "TT ended"."""
    mark = _short(game.get("title") or "?")
    if game.get("ended"):
        return mark + " ended"
    won = [w for w in game.get("winners", []) if 0 <= w < len(game["points"])]
    if not won:
        return "%s lost %d" % (mark, max(game["points"] or [0]))
    best = game["points"][won[0]]
    if len(won) == 1:
        return "%s %s %d" % (mark, draw.fit(game["names"][won[0]], 9), best)
    if len(won) == len(game["names"]) and len(set(game["points"])) == 1:
        return "%s all won %d" % (mark, best)
    return "%s %d tied %d" % (mark, len(won), best)


class Tonight(ListMenu):
    """The night's scores (tidebox/tonight.py), a line a game in the order played; C on one shows
    everybody's points in it. Read from flash when opened, let go when closed."""

    def __init__(self, panel):
        from tidebox import tonight

        played = tonight.read(panel.box.storage)
        items = [(tonight_line(g), self._detail(panel, g)) for g in played]
        memory.let_go("tonight_done")
        items.append(("Back", panel.pop))
        # "30 games tonight" is 16 characters: the file keeps about 30
        super().__init__(panel, "%d game%s tonight" % (len(played), "" if len(played) == 1 else "s"),
                         items, "tonight")

    @staticmethod
    def _detail(panel, game):
        return lambda: panel.push(TonightGame(panel, game.get("title") or "?", game))


class TonightGame(Screen):
    """One game of the night: everybody's points, best first (ended early: so far), 5 a page; A the
    next page, B or C back."""

    name = "tonight_game"

    def __init__(self, panel, title, game):
        super().__init__(panel)
        self.title = title
        points = game["points"]
        order = sorted(range(len(points)), key=lambda i: (-points[i], i))
        lines = ["ended early"] if game.get("ended") else []
        rank = 0
        for place, seat in enumerate(order):
            if not place or points[seat] != points[order[place - 1]]:
                rank = place + 1
            name = game["names"][seat] if seat < len(game["names"]) else "?"
            lines.append("%d %s %d" % (rank, draw.fit(name, 10), points[seat]))
        self.lines = lines

    def draw(self, fb, now):
        lines, count = draw.page(self.lines, self.page, 5)
        draw.title(fb, self.title if count == 1 else "%s %d/%d" % (
            draw.fit(self.title, 11), self.page % count + 1, count))
        draw.rows(fb, lines)
        draw.hints_or_message(fb, self.message, "more" if count > 1 else "", "back", "back")

    def press(self, button, kind):
        if button == "A":
            self.page += 1
        elif button in ("B", "C"):
            self.panel.pop()


def join_views(panel):
    """The join screen's pages, cycled with B: QR codes (when the board can draw them), text, players,
    the table screen."""
    views = ["wifi_qr", "page_qr"] if panel.qr_drawer else []
    return views + ["wifi_text", "players", "table"]


def page_address(box):
    """The phones' page's address without its scheme or last slash: "192.168.4.1"."""
    url = box.board.page_url()
    if url.startswith("http://"):
        url = url[7:]
    return url.rstrip("/")


def page_line(box):
    """Where the phones' page is, for the text page: "open 192.168.4.1" (the address alone when the
    words do not fit beside it)."""
    url = page_address(box)
    return "open " + url if len(url) <= draw.COLS - 5 else url


def table_lines(box):
    """Where the table screen is: ["192.168.4.1/table"], or the address and "/table" on lines of their
    own when the two do not fit on one."""
    host = page_address(box)
    return [host + "/table"] if len(host) + 6 <= draw.COLS else [host, "/table"]


class Join(Screen):
    """Every page names what A (the players menu), B (the next page) and C (setup) do."""

    name = "join"

    def draw(self, fb, now):
        box = self.box
        names = [box.seats.names[i] for i in range(len(box.seats.names)) if box.seats.present[i]]
        views = join_views(self.panel)
        view = views[self.page % len(views)]
        if view in ("wifi_qr", "page_qr"):
            self.panel.qr_drawer.draw(fb, view)  # a QR code on the left 64x64
            x = 68
            fb.text("Wi-Fi" if view == "wifi_qr" else "Page", x, 0)
            fb.text("scan" if view == "wifi_qr" else "then", x, 8)
            fb.text("to join" if view == "wifi_qr" else "scan", x, 16)
            fb.text("%d in" % len(names), x, 25)
            # the QR takes the left half: what A, B and C do, one per line in the right half
            for y, key, word in ((36, "A", "menu"), (46, "B", "more"), (56, "C", "setup")):
                draw.key(fb, key, word, x, y)
            if self.message:
                draw.hints_or_message(fb, self.message)
            return
        elif view == "wifi_text":
            draw.title(fb, "Join: %d of %d" % (len(names), box.rules.MAX_PLAYERS))
            draw.rows(fb, ["Wi-Fi:", " " + box.ssid(), "Password:", " " + box.password, page_line(box)])
        elif view == "table":
            draw.title(fb, "Big screen")
            draw.rows(fb, ["Tablet or TV on", "the Wi-Fi shows", "the game: open"] + table_lines(box))
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
                draw.key(fb, key, word, x)

    def press(self, button, kind):
        panel = self.panel
        if button == "A":
            # Remove player first: a player who left is gone in three presses (C, C on the seat, yes)
            panel.push(ListMenu(panel, "Players", (
                ("Remove player", self.remove),
                ("Add player here", self.add_here),
                ("New table", self.new_table),
                ("Change game", self.change_game),
                ("Back", panel.pop),
            ), "join_menu"))
        elif button == "B":
            self.page += 1
        elif button == "C":
            try:
                self.box.to_setup()
                panel.home()
            except MemoryError:  # on to the setup again on a fresh heap
                panel.short_of_memory("setup")

    def add_here(self):
        self.panel.push(NameEntry(self.panel))

    def remove(self):
        panel = self.panel
        if not self.box.seats.names:
            panel.message = "Nobody joined yet"
            return
        panel.push(PickSeat(panel, "Remove who?", self.remove_seat, every=True))

    def remove_seat(self, seat):
        self.panel.ask("Remove " + self.box.seats.names[seat] + "?", lambda: self.removed(seat))

    def removed(self, seat):
        self.box.remove_player(seat)
        self.panel.home()

    def new_table(self):
        """Everyone leaves (the players of an earlier game) and the night's scores start again, after
        a confirmation: one press each would take three per player."""
        panel = self.panel

        def cleared():
            from tidebox import tonight

            tonight.clear(self.box.storage)
            memory.let_go("tonight_done")
            for seat in range(len(self.box.seats.names) - 1, -1, -1):
                self.box.remove_player(seat)
            panel.home()

        panel.ask("Everyone leaves,\nscores cleared?", cleared)

    def change_game(self):
        self.box.to_choose()
        self.panel.home()


class NameEntry(Screen):
    """A name for a player without a phone, letter by letter."""

    name = "name_entry"
    long_presses = "ABC"  # a long A steps back a letter, a long B deletes one, a long C leaves

    def __init__(self, panel):
        super().__init__(panel)
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
                self.box.join(self.text)  # a refusal keeps the screen and shows why
            self.panel.home()


def option_rows(label, value, whole):
    """A setup option's rows of 16: label and value on one ("Timer        45 s") when both fit whole
    and it is not highlighted; else the label, then the value at the right. Nothing is ever cut but
    a name, which is fitted as names are everywhere on the box."""
    if not whole and len(label) + 1 + len(value) <= draw.COLS:
        return [label + " " * (draw.COLS - len(label) - len(value)) + value]
    return [label, " " * (draw.COLS - len(value)) + value]


class Setup(Screen):
    """The chosen game's options (its rules' OPTIONS): A next line (long: back to joining),
    B changes the value, C starts the game."""

    name = "setup"
    long_presses = "A"  # back to joining

    def draw(self, fb, now):
        # An option a row, or two where label and value do not both fit whole (option_rows); the
        # selected option always takes two: its label, then its value at the right.
        box = self.box
        rows = []
        starts = []  # each option's first row
        for i, (key, label, _) in enumerate(box.rules.OPTIONS):
            value = draw.fit(box.option_label(key), draw.COLS)
            starts.append(len(rows))
            rows += option_rows(label, value, i == self.cursor)
        # The list starts at an option's first row (a value is never shown without its label): the one
        # above the selected, if both fit; near the end, earlier ones fill the screen.
        at = starts[self.cursor]
        top = starts[max(0, self.cursor - 1)]
        if at + 2 - top > SETUP_ROWS:
            top = at
        for start in reversed(starts[:starts.index(top)]):
            if len(rows) - top >= SETUP_ROWS or at + 2 - start > SETUP_ROWS:
                break
            top = start
        draw.title(fb, "Setup")
        for i in range(top, min(len(rows), top + SETUP_ROWS)):
            y = SETUP_Y + (i - top) * SETUP_STEP
            colour = 1
            if at <= i <= at + 1:
                fb.fill_rect(0, y - 1, draw.W, SETUP_STEP, 1)
                colour = 0
            fb.text(rows[i], 0, y, colour)
        draw.hints_or_message(fb, self.message, "next", "edit", "go")

    def press(self, button, kind):
        box = self.box
        if button == "A":
            if kind == LONG:
                box.back_to_join()
                self.panel.home()
                return
            self.cursor = (self.cursor + 1) % len(box.rules.OPTIONS)
        elif button == "B":
            box.next_option(box.rules.OPTIONS[self.cursor][0])
        elif button == "C":
            self.panel.play()
