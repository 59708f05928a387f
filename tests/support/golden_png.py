"""Golden PNGs of OLED frames: a frame (the SSD1306's MONO_VLSB bytes, as hex) as an image, and
every frame of a run compared pixel for pixel with its PNG in a folder of tests/golden/.

UPDATE_GOLDEN=1 in the environment writes the PNGs instead of comparing (look at them before
committing them).
"""

import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
W, H = 128, 64


def frame_to_image(hex_frame):
    """SSD1306 MONO_VLSB bytes -> a 1-bit 128x64 image (lit pixels white)."""
    data = bytes.fromhex(hex_frame)
    img = Image.new("1", (W, H), 0)
    px = img.load()
    for y in range(H):
        for x in range(W):
            if data[(y >> 3) * W + x] >> (y & 7) & 1:
                px[x, y] = 1
    return img


def png_frame(path):
    """A golden PNG back as the SSD1306's 1024 MONO_VLSB bytes (the inverse of frame_to_image)."""
    px = Image.open(path).convert("1").load()
    out = bytearray(W * H // 8)
    for y in range(H):
        for x in range(W):
            if px[x, y]:
                out[(y >> 3) * W + x] |= 1 << (y & 7)
    return bytes(out)


def lit_in(image, box):
    """How many pixels are lit in `box` (left, top, right, bottom) of an OLED image."""
    return sum(1 for v in image.crop(box).convert("L").tobytes() if v)


def updating():
    return os.environ.get("UPDATE_GOLDEN") == "1"


def golden_problems(frames, folder=GOLDEN):
    """Each frame ({label: hex}) against folder/<label>.png: a list of what differs or is missing
    (empty when all match). With UPDATE_GOLDEN=1 the PNGs are written and the list is empty."""
    folder.mkdir(parents=True, exist_ok=True)
    update = updating()
    problems = []
    for label, hex_frame in sorted(frames.items()):
        image = frame_to_image(hex_frame)
        path = folder / (label + ".png")
        if update:
            image.save(path)
            continue
        if not path.exists():
            problems.append("%s: no golden PNG (run with UPDATE_GOLDEN=1 and review it)" % label)
            continue
        diff = ImageChops.difference(Image.open(path).convert("L"), image.convert("L")).getbbox()
        if diff is not None:
            problems.append("%s differs from its golden PNG in %s" % (label, diff))
    return problems
