"""MicroPython's built-in 8x8 font (framebuf's text()) as a font file adafruit_framebuf reads.

`boards/font_petme128_8x8.bin` is what the Raspberry Pi board draws its text with, so that every
screen is pixel for pixel what a Pico shows. The format is adafruit_framebuf's BitmapFont's: one
byte for the width (8), one for the height (8), then 8 bytes for each of the 256 character codes in
order, each byte a column of 8 pixels with the top one in bit 0 (the same layout as MicroPython's
own table, extmod/font_petme128_8x8.h, which covers codes 32-127 only).

MicroPython draws every byte of the text below 32 or above 127 as code 127; the file gives those
codes the glyph of 127 too, so the file alone draws as framebuf would.

Where the glyphs come from:
  python host_tools/font_petme128.py                   asks the MicroPython interpreter itself
                                                       (framebuf.text of each code into 8x8)
  python host_tools/font_petme128.py --header FILE.h   reads MicroPython's C table
                                                       (extmod/font_petme128_8x8.h of its source)
Either writes boards/font_petme128_8x8.bin (--out to choose), and both give the same bytes.
"""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "boards" / "font_petme128_8x8.bin"
FIRST, LAST = 32, 127  # the codes MicroPython's table has; every other code is drawn as LAST
WIDTH = HEIGHT = 8

# Run in MicroPython: each code drawn by framebuf's text() into an 8x8 MONO_VLSB buffer, whose 8
# bytes are then exactly the glyph's columns.
_DUMP = """
import framebuf, json
buf = bytearray(8)
fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
out = []
for code in range(%d, %d):
    fb.fill(0)
    fb.text(chr(code), 0, 0, 1)
    out.append(list(buf))
print(json.dumps(out))
""" % (FIRST, LAST + 1)


def glyphs_from_micropython(executable=None):
    """{code: 8 column bytes} for codes 32..127, as MicroPython's framebuf draws them."""
    sys.path.insert(0, str(ROOT / "host_tools"))
    import build

    exe = executable or build.micropython()
    proc = subprocess.run([exe, "-c", _DUMP], capture_output=True, text=True, check=True, timeout=60)
    rows = json.loads(proc.stdout.strip().splitlines()[-1])
    return {FIRST + i: bytes(row) for i, row in enumerate(rows)}


def glyphs_from_header(text):
    """{code: 8 column bytes} from the C source of font_petme128_8x8.h."""
    table = text[text.index("font_petme128_8x8[]"):]
    table = table[table.index("{") + 1:table.index("};")]
    table = re.sub(r"//[^\n]*", "", table)  # the comments name the codes ("// 32= ")
    values = [int(v, 16) for v in re.findall(r"0x([0-9a-fA-F]{2})", table)]
    count = LAST - FIRST + 1
    if len(values) != count * WIDTH:
        raise ValueError("expected %d bytes in the table, found %d" % (count * WIDTH, len(values)))
    return {FIRST + i: bytes(values[i * WIDTH:(i + 1) * WIDTH]) for i in range(count)}


def font_file(glyphs):
    """The BitmapFont file: width, height, then 256 glyphs of WIDTH column bytes."""
    out = bytearray((WIDTH, HEIGHT))
    for code in range(256):
        out += glyphs[code if FIRST <= code <= LAST else LAST]
    return bytes(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--header", help="extmod/font_petme128_8x8.h (default: ask micropython)")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    if args.header:
        glyphs = glyphs_from_header(Path(args.header).read_text())
    else:
        glyphs = glyphs_from_micropython()
    data = font_file(glyphs)
    Path(args.out).write_bytes(data)
    print("%s: %d bytes" % (args.out, len(data)))


if __name__ == "__main__":
    main()
