"""The box on the emulated Pico W as its reader and its phones use it (Chip): the reader's presses,
the words in the panel's title bar, a phone's view, join and move. Around a sim_pico.Emulator; used by
evening_pico.py and bench_pico.py.
"""

import base64
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402

MENU_TITLES = ("Play again?", "What next?")  # an end's what-next menu: its second line is New game
CONFIRM_TITLE = "Sure?"
PRESS_MS, LONG_PRESS_MS = 120, 800
VIEW_WAIT_S = 120  # wall seconds a phone asks again for its view (the box restarting itself, a busy machine)
PHONE_WAIT_S = 120  # wall seconds a phone waits for the answer to a join or a move (a busy machine)


class ChipError(AssertionError):
    """The box on the chip did not do what its reader or a phone asked."""


# ---------------------------------------------------------------- the panel's title bar

def _font():
    """MicroPython's 8x8 font as the board draws it: {column bytes: character} for codes 32-126."""
    data = (build.ROOT / "boards" / "font_petme128_8x8.bin").read_bytes()
    return {data[2 + 8 * c:10 + 8 * c]: chr(c) for c in range(32, 127)}


FONT = _font()


def title(pixels):
    """The words in the panel's inverted title bar (draw.title: a bar on rows 0-8, the words in dark
    pixels from row 1, centred), or None when the frame has no title bar."""
    def lit(x, y):
        return pixels[y * 16 + x // 8] >> (7 - x % 8) & 1

    if not all(lit(x, 0) for x in range(128)):
        return None
    for n in range(16, 0, -1):
        x0 = (128 - 8 * n) // 2
        words = ""
        for i in range(n):
            glyph = bytes(sum((1 - lit(x0 + 8 * i + col, 1 + row)) << row for row in range(8))
                          for col in range(8))
            if glyph not in FONT:
                break
            words += FONT[glyph]
        else:
            if all(lit(x, y) for y in range(1, 9) for x in list(range(x0)) + list(range(x0 + 8 * n, 128))):
                return words.strip()
    return None


# ---------------------------------------------------------------- a phone's view

def find_key(obj, key):
    """The first value under `key` anywhere in a view (dicts and lists), or None."""
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        obj = list(obj.values())
    if isinstance(obj, list):
        for v in obj:
            found = find_key(v, key)
            if found is not None:
                return found
    return None


# ---------------------------------------------------------------- the box and the reader

class Chip:
    """The emulated box as the reader and the phones use it."""

    def __init__(self, emu):
        self.emu = emu

    def press(self, button, long=False):
        """A press (long: 800 ms), returned from once the chip has run 600 ms past the release and
        drawn a frame since the press: the press as the emulator took it (its at_ms, release_ms)."""
        emu = self.emu
        before = emu.status()["panel"]["frames"]
        ms = LONG_PRESS_MS if long else PRESS_MS
        emu.press(button, ms)
        pressed = emu.status()["last_press"]
        release = pressed.get("release_ms") or pressed["at_ms"] + ms
        emu.wait_for(lambda s: s["panel"]["frames"] > before and s["uptime_ms"] >= release + 600,
                     "the box's answer to %s%s" % ("a long " if long else "", button), timeout=300)
        return pressed

    def title(self):
        return title(base64.b64decode(self.emu.status()["panel"]["pixels"]))

    def view(self, token=None):
        """A phone's whole view (asked again while the box is restarting itself)."""
        deadline = time.monotonic() + VIEW_WAIT_S
        while True:
            try:
                code, view, _ = self.emu.phone("GET", "/api/state", token=token, timeout=30)
            except OSError as e:
                code, view = None, repr(e)
            if code == 200:
                return view
            if time.monotonic() > deadline or not self.emu.alive():
                raise ChipError("no phone's view from the box: %s %s" % (code, view))
            time.sleep(1)

    def wait_view(self, token, condition, what, timeout=300):
        """The phone's view once condition(view) holds, asked every half second."""
        deadline = time.monotonic() + timeout
        while True:
            view = self.view(token)
            if condition(view):
                return view
            if time.monotonic() > deadline:
                raise ChipError("%s did not happen; the view: %s" % (what, view))
            time.sleep(0.5)

    def join(self, name):
        code, answer, _ = self.emu.phone("POST", "/api/join", {"name": name}, timeout=PHONE_WAIT_S)
        if code != 200:
            raise ChipError("%s could not join: %s %s" % (name, code, answer))
        return answer["token"]

    def move(self, token, move, args, seq=None):
        """A phone's move: (status, the box's answer)."""
        body = {"move": move, "args": args}
        if seq is not None:
            body["seq"] = seq
        code, answer, _ = self.emu.phone("POST", "/api/move", body, token=token, timeout=PHONE_WAIT_S)
        return code, answer

    def to_game_menu(self):
        """From a game's end to the game menu with the same table, as the reader does it (and the
        box's restart after a game)."""
        for _ in range(40):
            if self.view()["box"] == "choose":
                return
            shown = self.title()
            if shown == CONFIRM_TITLE:
                self.press("C")
            elif shown in MENU_TITLES:
                self.press("A")  # New game, the menu's second line
                self.press("C")
            else:
                self.press("C")
        raise ChipError("the box did not get back to the game menu; its title: %s" % self.title())
