"""The box's own OLED screens, as tests/mp_scripts/render_box_screens.py draws them under the real
MicroPython framebuf: every screen drawn, no text off the panel, the lists, the setup options, the QR
codes. Each frame against its golden PNG: tests/test_golden_screens.py. Token Tide's own screens:
tests/games/token_tide/test_token_tide_screens.py.
"""

import json
import re
import subprocess
from pathlib import Path

import pytest
import golden_walk
from golden_png import H, W, frame_to_image, lit_in
from PIL import Image, ImageChops


@pytest.fixture(scope="module")
def rendered(game_walk):
    """(texts drawn off the panel by label, frames by label) from render_box_screens.py."""
    lines = game_walk(golden_walk.BOX)
    return json.loads(lines[-2]), golden_walk.frames_of(lines)


@pytest.fixture(scope="module")
def frames(rendered):
    return rendered[1]


def test_every_screen_has_been_rendered(frames):
    # every screen class of the box (welcome.py, lobby.py, screens.py) is rendered
    tidebox = Path(__file__).parent.parent / "firmware" / "tidebox"
    source = "".join((tidebox / name).read_text() for name in ("welcome.py", "lobby.py", "screens.py"))
    screens = set(re.findall(r'^    name = "(\w+)"', source, re.M))  # each screen class's name
    screens |= set(re.findall(r'"(\w+)"\)\)$', source, re.M))  # ListMenu names ("join_menu")
    assert len(screens) > 10
    rendered = {label.rsplit("_", 1)[0] if label.rsplit("_", 1)[-1].isdigit() else label for label in frames}
    covered = {s for s in screens if any(label == s or label.startswith(s + "_") for label in rendered)}
    assert covered == screens


def test_no_text_leaves_the_panel(rendered):
    outside, frames = rendered
    assert frames
    # every 8x8 text the screens draw fits on the 128x64 panel whole (framebuf would clip it silently)
    assert outside == {}


def test_lists_stay_clear_of_the_hints(frames):
    # the game menu with four games and the box's list menus: at most four lines of 10 px (the last
    # ends at y=50), then a blank band above the hint bar's line (y=55)
    for label in ("choose", "choose_players", "choose_last", "choose_message", "join_menu", "menu"):
        image = frame_to_image(frames[label])
        assert lit_in(image, (0, 51, W, 55)) == 0, label
        assert lit_in(image, (0, 41, W, 51)) > 0, label  # the fourth line is there
    # the fourth title reads the same with players at the table: nothing is drawn over it
    alone, seated = (frame_to_image(frames[k]).crop((0, 41, W, 51)) for k in ("choose", "choose_players"))
    assert ImageChops.difference(alone.convert("L"), seated.convert("L")).getbbox() is None


def test_every_setup_option_is_shown_whole_highlighted_or_not(mp):
    """Each game's options in rows of 16: the label whole, and the value whole at the right, beside
    the label when both fit and the option is not highlighted, else on the row under it."""
    import importlib

    from tidebox.games import GAMES

    calls = []
    for game_id, _ in GAMES:
        rules = importlib.import_module("tidebox.games.%s.rules" % game_id)
        for _, label, choices in rules.OPTIONS:
            values = ["random", "Bo", "Maximilian12"] if isinstance(choices, str) else [c[1] for c in choices]
            calls.extend([label, value, whole] for value in values for whole in (False, True))
    assert len(calls) > 80
    results = mp.call_many("tidebox.lobby", "option_rows", calls)
    one_line = 0
    for (label, value, whole), result in zip(calls, results):
        rows = result["ok"]
        assert all(len(row) <= 16 for row in rows), rows
        assert rows[-1].endswith(value) and rows[-1].rstrip() == rows[-1], rows
        if len(rows) == 1:
            one_line += 1
            assert not whole and rows[0][:-len(value)].rstrip() == label, rows
        else:
            assert rows == [label, " " * (16 - len(value)) + value], rows
            assert whole or len(label) + 1 + len(value) > 16, rows
    assert one_line > 10  # most options fit on one row


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
