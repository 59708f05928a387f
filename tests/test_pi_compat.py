"""The Raspberry Pi's compatibility layer (boards/pi_compat.py) against MicroPython itself: the same
script (tests/mp_scripts/framebuf_ops.py) draws the same random operations with MicroPython's
framebuf and with the layer's framebuf on adafruit_framebuf, and every frame must be the same bytes;
the font file is MicroPython's font; the ticks wrap as MicroPython's do."""

import json
import random
import sys
from pathlib import Path

import pytest
from font_petme128 import OUT, font_file, glyphs_from_micropython

from cpython_runner import MP_SCRIPTS, CPython

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "boards"))
import pi_compat  # noqa: E402 - CPython only (the Pi board's), from boards/

TEXTS = ["Tidebox", "A", "", "Émile", "€5", "naïve ß", "tab\there", "nul\x00after", "\x7f\x1f~ ",
         "ÿ", "0123456789abcdef!", "日本"]


def random_ops(rng, count):
    def coord(low, high):
        return rng.randint(low, high)

    ops = []
    for _ in range(count):
        kind = rng.choice(["text", "text", "rect", "rect_fill", "fill_rect", "line", "hline", "vline",
                           "pixel", "blit", "scroll", "fill"])
        c = rng.choice([0, 1, 1])
        if kind == "text":
            ops.append(["text", rng.choice(TEXTS), coord(-20, 130), coord(-10, 66), c])
        elif kind == "rect":
            ops.append(["rect", coord(-30, 130), coord(-20, 66), coord(-2, 80), coord(-2, 50), c])
        elif kind == "rect_fill":
            ops.append(["rect", coord(-30, 130), coord(-20, 66), coord(-2, 80), coord(-2, 50), c, True])
        elif kind == "fill_rect":
            ops.append(["fill_rect", coord(-30, 130), coord(-20, 66), coord(-2, 80), coord(-2, 50), c])
        elif kind == "line":
            ops.append(["line", coord(-40, 170), coord(-30, 90), coord(-40, 170), coord(-30, 90), c])
        elif kind == "hline":
            ops.append(["hline", coord(-30, 130), coord(-5, 66), coord(-5, 150), c])
        elif kind == "vline":
            ops.append(["vline", coord(-5, 130), coord(-30, 66), coord(-5, 80), c])
        elif kind == "pixel":
            ops.append(["pixel", coord(-2, 129), coord(-2, 65), c])
        elif kind == "blit":
            ops.append(["blit", coord(-25, 130), coord(-15, 66), rng.choice([-1, 0, 1])])
        elif kind == "scroll":
            ops.append(["scroll", coord(-10, 10), coord(-10, 10)])
        elif kind == "fill" and rng.random() < 0.2:
            ops.append(["fill", c])
    return ops


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_framebuf_draws_what_micropython_draws_operation_by_operation(mp, sim_tree, seed):
    rng = random.Random(seed)
    source = [["fill", 0], ["text", "Q", 0, 0, 1], ["line", 0, 12, 20, 3, 1], ["rect", 9, 1, 12, 12, 1]]
    job = {"source": source, "ops": random_ops(rng, 300)}
    stdin = json.dumps(job)
    frames = {}
    for name, runner in (("micropython", mp), ("cpython", CPython(sim_tree))):
        proc = runner.run(MP_SCRIPTS / "framebuf_ops.py", stdin, heap="2M")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        frames[name] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(frames["cpython"]) == len(job["ops"])
    assert len(set(frames["micropython"])) > 50  # the operations draw, and differently
    pairs = enumerate(zip(frames["micropython"], frames["cpython"]))
    first = next((i for i, (a, b) in pairs if a != b), None)
    assert first is None, "operation %d differs: %r" % (first, job["ops"][first])


def test_the_font_file_is_micropythons_font():
    data = OUT.read_bytes()
    assert data[:2] == bytes((8, 8)) and len(data) == 2 + 256 * 8  # adafruit_framebuf's BitmapFont format
    assert data == font_file(glyphs_from_micropython())
    glyph = lambda code: data[2 + 8 * code:10 + 8 * code]  # noqa: E731
    assert glyph(0) == glyph(31) == glyph(128) == glyph(255) == glyph(127)  # framebuf draws those as 127
    assert glyph(32) == bytes(8) and any(glyph(ord("A")))


def test_ticks_are_micropythons_wrapping_at_the_picos_period(mp):
    # MicroPython's ticks wrap at its small ints' range: 2**30 on the Pico's 32-bit build, 2**62 on
    # this 64-bit unix port. The layer wraps as the Pico does; away from the wrap both agree.
    unix_period = mp.call("time", "ticks_add", 0, -1) + 1
    assert unix_period > 1 << 30
    cases = [[5, 3], [3, 5], [1000, 0], [0, 123456], [(1 << 29) - 1, 0], [0, (1 << 29) - 1]]
    assert [pi_compat.ticks_diff(a, b) for a, b in cases] == [
        r["ok"] for r in mp.call_many("time", "ticks_diff", cases)]
    adds = [[0, 25], [1000, -7], [12345, 54321]]
    assert [pi_compat.ticks_add(a, b) for a, b in adds] == [
        r["ok"] for r in mp.call_many("time", "ticks_add", adds)]
    period = 1 << 30
    assert pi_compat.ticks_add(period - 1, 1) == 0 and pi_compat.ticks_add(0, -1) == period - 1
    assert pi_compat.ticks_diff(0, period - 1) == 1 and pi_compat.ticks_diff(period - 1, 0) == -1
    assert pi_compat.ticks_diff(period // 2, 0) == -period // 2  # the far half counts as behind
    assert 0 <= pi_compat.ticks_ms() < period
