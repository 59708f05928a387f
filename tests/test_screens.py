"""A golden PNG for every OLED screen, rendered by the real MicroPython framebuf, compared pixel for pixel.

To accept intended changes: `UPDATE_GOLDEN=1 make test` (or pytest tests/test_screens.py), then look
at the new PNGs in tests/golden/ before committing them.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from micropython_runner import MP_SCRIPTS

GOLDEN = Path(__file__).parent / "golden"
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


@pytest.fixture(scope="module")
def frames(mp, tmp_path_factory):
    state = tmp_path_factory.mktemp("screens")
    # A larger heap than the box: this script is compiled from source and keeps every frame.
    proc = mp.run(MP_SCRIPTS / "render_screens.py", heap="2M", env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_screen_has_been_rendered(frames):
    # every screen class of the box (lobby.py, screens.py) and of Token Tide (flow.py) is rendered
    tidebox = Path(__file__).parent.parent / "firmware" / "tidebox"
    source = "".join((tidebox / name).read_text()
                     for name in ("lobby.py", "screens.py", "games/token_tide/flow.py"))
    screens = set(re.findall(r'^    name = "(\w+)"', source, re.M))  # each screen class's name
    screens |= set(re.findall(r'"(\w+)"\)\)$', source, re.M))  # ListMenu names ("join_menu")
    assert len(screens) > 15
    rendered = {label.rsplit("_", 1)[0] if label.rsplit("_", 1)[-1].isdigit() else label for label in frames}
    covered = {s for s in screens if any(label == s or label.startswith(s + "_") for label in rendered)}
    assert covered == screens


def test_screens_match_golden_pngs(frames):
    GOLDEN.mkdir(exist_ok=True)
    update = os.environ.get("UPDATE_GOLDEN") == "1"
    problems = []
    for label, hex_frame in sorted(frames.items()):
        image = frame_to_image(hex_frame)
        path = GOLDEN / (label + ".png")
        if update:
            image.save(path)
            continue
        if not path.exists():
            problems.append("%s: no golden PNG (run with UPDATE_GOLDEN=1 and review it)" % label)
            continue
        golden = Image.open(path).convert("L")
        diff = ImageChops.difference(golden, image.convert("L")).getbbox()
        if diff is not None:
            problems.append("%s differs from its golden PNG in %s" % (label, diff))
    assert problems == []


def test_no_screen_is_blank_and_no_text_leaves_the_panel(frames):
    for label, hex_frame in frames.items():
        data = bytes.fromhex(hex_frame)
        assert any(data), label


def zbar_texts(image, tmp_path, name):
    """Decode every QR code in an OLED image with zbar (scaled x4, as a camera would see it)."""
    path = tmp_path / (name + ".png")
    image.convert("L").resize((W * 4, H * 4), Image.NEAREST).save(path)
    proc = subprocess.run(["zbarimg", "--raw", "-q", str(path)], capture_output=True, text=True)
    return proc.stdout.splitlines()


def test_join_screen_qr_codes_decode(frames, tmp_path):
    wifi = zbar_texts(frame_to_image(frames["join_0"]), tmp_path, "wifi")
    assert wifi == ["WIFI:T:WPA;S:Tidebox-2D2F;P:txk2xdfnrqgt;;"]
    page = zbar_texts(frame_to_image(frames["join_1"]), tmp_path, "page")
    assert page == ["http://192.168.4.1/"]
