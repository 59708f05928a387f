# Every screen of every game on the box (games.GAMES, so a game added there is walked too), drawn
# with the worst content a table can give it: the most players the game seats (8 at most), each name
# 12 characters of the font's widest letters, and whatever scores, cards, setups and options the
# play reaches. Each game is played by a seeded walk: the reader presses A, B and C (short and long)
# at random while the phones make random legal moves, so the menus, confirmations, setup options,
# entry on the box, undo, the end and the next game are all reached as a table reaches them.
#
# Every frame is drawn on the real MicroPython framebuf through a recorder that checks each text:
#   "off panel"  a text() whose 8 px cells do not fit the 128x64 panel (16 characters a line), or a
#                big() text wider than the panel;
#   "cut"        draw.fit() cutting a text, unless all it drops is part of a player's name (a name
#                may be longer than a line; anything else cut is lost to the table);
#   "overlaps"   a text whose ink crosses another text's on the same frame;
#   "covered"    a text partly painted over by a filled box drawn after it (one painted over whole,
#                as by a message over the screen, is gone and no longer counts);
#   "touches"    a text whose ink touches or crosses a line drawn on the same frame (rect(),
#                hline(), vline()): beside a glyph a line reads as one more letter ("x4|" as "x4!").
#                A line right above or below a text is the layout's own (the hints' rule), so only
#                the ink itself, widened by a pixel sideways, is checked against the lines.
# Prints one JSON object: {"problems": {game: [[screen, kind, text, x, y], ...]},
# "screens": {game: [screen names drawn]}, "frames": {game: frames drawn},
# "views": {game: the largest shared part of the phones' view in a game, in bytes}}.
import json
import os

import board as board_module
import framebuf
from tidebox import draw, games, saving
from tidebox.box import PLAY, SETUP, Box
from tidebox.games.base import GameError
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage
from tidebox.views import public_view

W, H = 128, 64
STEPS = int(os.getenv("TIDEBOX_WALK_STEPS") or "2500")
SEEDS = (1, 2, 3, 4)  # four walks a game: every Paper Current card is scored at least once
# 12 characters of the widest letters (M and W reach the glyph's last column), unique at the table
NAMES = ["WMWMWMWMWMW" + c for c in "MWABDHNU"]

_ink = {}
_scratch = bytearray(8)
_glyph = framebuf.FrameBuffer(_scratch, 8, 8, framebuf.MONO_VLSB)


def ink(ch):
    """The lit columns and rows of a character of the 8x8 font: (left, right, top, bottom), or None."""
    got = _ink.get(ch)
    if got is None and ch not in _ink:
        _glyph.fill(0)
        _glyph.text(ch, 0, 0, 1)
        cols = [i for i in range(8) if _scratch[i]]
        rows = 0
        for v in _scratch:
            rows |= v
        if cols:
            got = (cols[0], cols[-1], [i for i in range(8) if rows >> i & 1][0],
                   [i for i in range(8) if rows >> i & 1][-1])
        _ink[ch] = got
    return got


def ink_box(s, x, y):
    """The lit pixels of a text of the 8x8 font at (x, y): [left, top, right, bottom], or None."""
    box = None
    for i, ch in enumerate(s):
        got = ink(ch)
        if got is None:
            continue
        left, right, top, bottom = x + 8 * i + got[0], x + 8 * i + got[1], y + got[2], y + got[3]
        if box is None:
            box = [left, top, right, bottom]
        else:
            box = [min(box[0], left), min(box[1], top), max(box[2], right), max(box[3], bottom)]
    return box


class Recorder:
    """Wraps the display's drawing calls: each frame's texts and lines, checked when it is shown."""

    def __init__(self, fb):
        self.fb = fb
        self.texts = []
        self.lines = []  # (x0, y0, x1, y1), inclusive, horizontal or vertical
        self.cuts = []
        self.wide = []
        self.covered = []
        self.names = []
        real = {}
        for name in ("text", "rect", "hline", "vline", "line", "fill", "fill_rect"):
            real[name] = getattr(fb, name)
        self.real = real
        fb.text = self.text
        fb.rect = self.rect
        fb.hline = self.hline
        fb.vline = self.vline
        fb.line = self.line
        fb.fill = self.fill
        fb.fill_rect = self.fill_rect
        self.fit = draw.fit
        draw.fit = self.checked_fit
        self.big = draw.big
        draw.big = self.checked_big

    def fill(self, c):
        if c == 0:  # the reader clears the frame before each screen draws
            self.texts = []
            self.lines = []
            self.cuts = []
            self.wide = []
            self.covered = []
        self.real["fill"](c)

    def text(self, s, x, y, c=1):
        self.texts.append((s, x, y))
        self.real["text"](s, x, y, c)

    def fill_rect(self, x, y, w, h, c):
        # what it covers is gone (a message band over the screen); a text it covers in part is cut
        if self.texts and w > 1 and h > 1:
            kept = []
            for s, tx, ty in self.texts:
                box = ink_box(s, tx, ty)
                if box is None or box[0] > x + w - 1 or box[2] < x or box[1] > y + h - 1 or box[3] < y:
                    kept.append((s, tx, ty))
                elif not (box[0] >= x and box[2] <= x + w - 1 and box[1] >= y and box[3] <= y + h - 1):
                    self.covered.append((s, tx, ty))
                    kept.append((s, tx, ty))
            self.texts = kept
        self.real["fill_rect"](x, y, w, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if not f and w > 0 and h > 0:
            self.lines.append((x, y, x + w - 1, y))
            self.lines.append((x, y + h - 1, x + w - 1, y + h - 1))
            self.lines.append((x, y, x, y + h - 1))
            self.lines.append((x + w - 1, y, x + w - 1, y + h - 1))
        if f:
            self.fb.fill_rect(x, y, w, h, c)
        else:
            self.real["rect"](x, y, w, h, c)

    def hline(self, x, y, w, c):
        if w > 0:
            self.lines.append((x, y, x + w - 1, y))
        self.real["hline"](x, y, w, c)

    def vline(self, x, y, h, c):
        if h > 0:
            self.lines.append((x, y, x, y + h - 1))
        self.real["vline"](x, y, h, c)

    def line(self, x0, y0, x1, y1, c):
        if x0 == x1 or y0 == y1:
            self.lines.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
        self.real["line"](x0, y0, x1, y1, c)

    def checked_fit(self, s, width_chars):
        out = self.fit(s, width_chars)
        if out != s and not self.name_only(s, width_chars - 1):
            self.cuts.append(s)
        return out

    def name_only(self, s, kept):
        """True when all a cut at `kept` drops is players' names: the end of one name in `s`, or
        whole words each a name or a name already cut short ("Ada Bo WMWM.")."""
        for name in self.names:
            at = s.find(name)
            while at >= 0:
                if at < kept and at + len(name) >= len(s):
                    return True
                at = s.find(name, at + 1)
        start = s.rfind(" ", 0, kept) + 1
        for word in s[start:].split(" "):
            word = word.rstrip(".,")
            if not word or not [n for n in self.names if n.startswith(word)]:
                return False
        return start > 0

    def checked_big(self, fb, s, x, y, scale, c=1):
        if x < 0 or x + len(s) * 8 * scale > W or y < 0 or y + 8 * scale > H:
            self.wide.append((s, x, y))
        self.big(fb, s, x, y, scale, c)

    def problems(self):
        out = []
        for s in self.cuts:
            out.append(["cut", s, 0, 0])
        for s, x, y in self.wide:
            out.append(["off panel", s, x, y])
        for s, x, y in self.covered:
            out.append(["covered", s, x, y])
        inks = []
        for s, x, y in self.texts:
            if x < 0 or y < 0 or x + 8 * len(s) > W or y + 8 > H:
                out.append(["off panel", s, x, y])
            box = ink_box(s, x, y)
            if box is None:
                continue
            for other in inks:
                if box[0] <= other[2] and box[2] >= other[0] and box[1] <= other[3] and box[3] >= other[1]:
                    out.append(["overlaps", s, x, y])
                    break
            inks.append(box)
            for x0, y0, x1, y1 in self.lines:
                if x0 <= box[2] + 1 and x1 >= box[0] - 1 and y0 <= box[3] and y1 >= box[1]:
                    out.append(["touches", s, x, y])
                    break
        return out


class Restarted(Exception):
    pass


def walk(game_id, seed, report, seen, counts, views):
    folder = os.getenv("TIDEBOX_STATE_DIR") + "/%s_%d" % (game_id, seed)
    try:
        os.mkdir(folder)
    except OSError:
        pass
    board = board_module.make_board()
    rng = Seeded(seed)
    board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))
    board.clock.hold(True)
    recorder = Recorder(board.display)
    recorder.names = NAMES

    def restart():  # the box restarting itself (tidebox/restart.py): here, a new Box and Panel
        raise Restarted()

    board.restart = restart

    def boot():
        """A box (again) on what its flash holds, as main.py starts one."""
        box = Box(board, Storage(folder))
        box.password = "txk2xdfnrqgt"
        reader = Panel(box, board.display, None)
        resumable = saving.load(box)
        reader.boot(board.ticks_ms(), resumable, reader.welcome().take(box.storage))
        reader.tick(board.ticks_ms())
        return box, reader

    box = Box(board, Storage(folder))
    box.password = "txk2xdfnrqgt"
    reader = Panel(box, board.display, None)

    def seat_table():
        if box.game_id != game_id or box.rules is None:  # none loaded at the game menu
            if box.phase not in ("choose", "join", "setup"):
                return
            while box.seats.count() > games.load(game_id).MAX_PLAYERS:
                box.remove_player(box.seats.count() - 1)
            box.choose_game(game_id)
        if box.phase in ("choose", "join"):
            for name in NAMES:
                if box.seats.count() >= box.rules.MAX_PLAYERS:
                    break
                if name not in box.seats.names:
                    try:
                        box.join(name)
                    except GameError:
                        break
            if box.phase == "choose":
                box.choose_game(game_id)
        reader.home()

    def look(what):
        reader.dirty = True
        typed = getattr(reader.top(), "text", None)  # a name being typed on the box is a name too
        recorder.names = NAMES + list(box.seats.names) + ([typed] if type(typed) is str and typed else [])
        try:
            reader.tick(board.ticks_ms())
        except Restarted:
            raise
        except Exception as e:  # a screen that cannot draw this state is a problem too
            report.append([reader.screen, "error", "%s %s after %s" % (type(e).__name__, e, what), 0, 0])
            reader.home()
            return
        counts[0] += 1
        name = reader.screen
        seen[name] = 1
        if box.state is not None:  # the shared part of the phones' view, against the game's VIEW_ROOM
            views[0] = max(views[0], public_view(box).length)
        for problem in recorder.problems():
            entry = [name] + problem
            if entry not in report:
                report.append(entry)

    def aside(name, paint):
        """A screen the walk does not open by itself, drawn as it would be now and checked like the
        rest (the saved-game offer at this point of the game, each setup line)."""
        reader.fb.fill(0)
        paint(reader.fb)
        counts[0] += 1
        seen[name] = 1
        for problem in recorder.problems():
            entry = [name] + problem
            if entry not in report:
                report.append(entry)
        reader.dirty = True

    def saved_game_offer():
        # the offer after a power cut at this point: the game's progress line at its longest
        resume = reader.welcome().Resume(reader)
        aside("resume", lambda fb: resume.draw(fb, board.ticks_ms()))

    def every_setup_line():
        # every value of every option, each with every line highlighted: a line fits whole or not
        setup = reader.top()
        kept, cursor = dict(box.options), setup.cursor
        for key, _, choices in rules.OPTIONS:
            values = len(choices) if type(choices) is not str else box.seats.count() + 1
            for _ in range(values):
                box.next_option(key)
                for cursor in range(len(rules.OPTIONS)):
                    setup.cursor = cursor
                    aside("setup", lambda fb: setup.draw(fb, board.ticks_ms()))
        box.options.update(kept)
        setup.cursor = cursor  # the walk goes on as it would have

    seat_table()
    rules = box.rules
    look("joining")
    swept = False
    for _ in range(STEPS):
        short = box.phase in ("choose", "join") and box.seats.count() < rules.MAX_PLAYERS
        if box.game_id != game_id or short:
            seat_table()
        roll = rng.below(100)
        acting = [s for s in box.to_act() if s is not None] if box.phase == PLAY else []
        if acting and roll < 35:
            seat = acting[rng.below(len(acting))]
            moves = rules.legal_moves(box.state, seat)
            if moves:
                m = moves[rng.below(len(moves))]
                try:
                    box.move(seat, m["move"], m["args"])
                except GameError:
                    pass
                look("a phone's " + m["move"])
                continue
        if box.phase == SETUP and reader.screen == "setup" and not swept:
            every_setup_line()
            swept = True
        if box.phase == SETUP and reader.screen == "setup" and roll < 50:
            reader.top().cursor = rng.below(len(rules.OPTIONS))
        if box.state is not None and reader.flow is not None and roll % 10 == 0:
            saved_game_offer()
        button = "ABCCB"[rng.below(5)]
        kind = "long" if rng.below(8) == 0 else "short"
        entry = getattr(reader.top(), "entry", None)
        if reader.screen == "entry" and type(entry) is list and roll < 40:
            # a player at the box types a whole allocation and locks it in (random presses rarely do)
            b = rng.below(8)
            g = rng.below(8 - b)
            reader.top().entry = [b, g, 7 - b - g]
            button, kind = "C", "short"
        try:
            reader.press(button, kind)
            board.clock.advance(300 + rng.below(3000))
            look("%s %s" % (kind, button))
        except Restarted:  # after a game, back at the game menu: the box restarts on its flash
            box, reader = boot()
            look("the box restarted itself")


report = {}
seen = {}
counts = {}
views = {}
for game_id, _ in games.GAMES:
    report[game_id] = []
    seen[game_id] = {}
    counts[game_id] = [0]
    views[game_id] = [0]
    for seed in SEEDS:
        walk(game_id, seed, report[game_id], seen[game_id], counts[game_id], views[game_id])
    games.unload(game_id)
print(json.dumps({"problems": report, "screens": {g: sorted(seen[g]) for g in seen},
                  "frames": {g: counts[g][0] for g in counts}, "views": {g: views[g][0] for g in views}}))
