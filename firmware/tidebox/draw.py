# Drawing helpers for the 128x64 monochrome OLED, using only the FrameBuffer API.
# The built-in font is 8x8; big() scales it up for what must be read from across a table.
import framebuf
from micropython import const

W = const(128)
H = const(64)
CHAR = const(8)
COLS = const(16)  # 8x8 characters per line
HINT_Y = const(56)  # the bottom line is always the button hints
MESSAGE_LINES = const(5)  # a message longer than a line takes up to this many, over the screen

_scratch = bytearray(8)
_glyph = framebuf.FrameBuffer(_scratch, 8, 8, framebuf.MONO_VLSB)


def fit(s, width_chars):
    """Cut a string to a number of 8 px characters, marking the cut with '.'."""
    if len(s) <= width_chars:
        return s
    return s[: width_chars - 1] + "."


def center(fb, s, y, c=1):
    s = fit(s, COLS)
    fb.text(s, (W - len(s) * CHAR) // 2, y, c)


def right(fb, s, y, c=1):
    fb.text(s, W - len(s) * CHAR, y, c)


def big(fb, s, x, y, scale, c=1):
    """Text at `scale` times the 8x8 font (2: 16 px tall, 8 per line; 3: 24 px, 5 per line)."""
    for ch in s:
        _glyph.fill(0)
        _glyph.text(ch, 0, 0, 1)
        for gx in range(8):
            column = _scratch[gx]
            if column:
                for gy in range(8):
                    if column & (1 << gy):
                        fb.fill_rect(x + gx * scale, y + gy * scale, scale, scale, c)
        x += 8 * scale


def big_center(fb, s, y, scale, c=1):
    big(fb, s, (W - len(s) * 8 * scale) // 2, y, scale, c)


def title(fb, s):
    """An inverted title bar on the top line."""
    fb.fill_rect(0, 0, W, 9, 1)
    center(fb, s, 1, 0)


def hints(fb, a="", b="", c=""):
    """The bottom line: what each button does here, as [A]word [B]word [C]word."""
    fb.fill_rect(0, HINT_Y - 1, W, 9, 0)
    fb.hline(0, HINT_Y - 1, W, 1)
    # Three slots of 40 px ([X] plus four letters): A at the left, B in the middle, C at the right.
    if a:
        key(fb, "A", fit(a, 4), 0)
    if b:
        key(fb, "B", fit(b, 4), 44)
    if c:
        label = fit(c, 4)
        key(fb, "C", label, W - 8 - len(label) * CHAR)


def wrap(s, width=COLS, split=False):
    """Words into lines of at most `width` characters. A longer word is cut, marked with '.' (see
    fit), or with `split` carried on over the next lines."""
    lines = []
    line = ""
    for word in s.split(" "):
        if line and len(line) + 1 + len(word) <= width:
            line += " " + word
            continue
        if line:
            lines.append(line)
        if split:
            while len(word) > width:
                lines.append(word[:width])
                word = word[width:]
            line = word
        else:
            line = fit(word, width)
    if line:
        lines.append(line)
    return lines


def hints_or_message(fb, message, a="", b="", c=""):
    """The hints, or in their place a message (why the last press did nothing): on the bottom line
    when it fits, else over everything under the title, up to MESSAGE_LINES lines, until the next
    press (a band of fewer lines would cut the screen's own lines in half)."""
    if not message:
        hints(fb, a, b, c)
    elif len(message) <= COLS:
        fb.fill_rect(0, HINT_Y - 1, W, 9, 1)
        center(fb, message, HINT_Y, 0)
    else:
        lines = wrap(message)[:MESSAGE_LINES]
        fb.fill_rect(0, 9, W, H - 9, 1)
        y = 9 + (H - 9 - 9 * len(lines)) // 2 + 1
        for i, line in enumerate(lines):
            center(fb, line, y + 9 * i, 0)


def key(fb, letter, word, x, y=HINT_Y):
    """One button's hint, [X]word, at (x, y): the letter inverted, the word after it."""
    fb.fill_rect(x, y, 8, 8, 1)
    fb.text(letter, x, y, 0)
    fb.text(word, x + 8, y, 1)


def bar(fb, x, y, w, h, fraction):
    """A progress bar: outline and a filled part (fraction from 0 to 1)."""
    fb.rect(x, y, w, h, 1)
    inner = int((w - 2) * max(0.0, min(1.0, fraction)))
    if inner:
        fb.fill_rect(x + 1, y + 1, inner, h - 2, 1)


def rows(fb, lines, y=11, step=9, cursor=None):
    """Up to five lines of text between the title and the hints; `cursor` inverts one line."""
    for i, line in enumerate(lines):
        ly = y + i * step
        if i == cursor:
            fb.fill_rect(0, ly - 1, W, step, 1)
            fb.text(fit(line, COLS), 0, ly, 0)
        else:
            fb.text(fit(line, COLS), 0, ly, 1)


def page(items, index, size):
    """The slice of items on page `index` (wrapping), and the number of pages."""
    pages = max(1, (len(items) + size - 1) // size)
    index %= pages
    return items[index * size : (index + 1) * size], pages
