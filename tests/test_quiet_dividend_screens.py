"""A golden PNG for every OLED screen of The Quiet Dividend, rendered by the real MicroPython framebuf
and compared pixel for pixel (UPDATE_GOLDEN=1 regenerates them: look at them before committing)."""

import json
import re
from pathlib import Path

import pytest
from golden_png import frame_to_image, golden_problems, lit_in

from micropython_runner import MP_SCRIPTS

FLOW = Path(__file__).parent.parent / "firmware" / "tidebox" / "games" / "quiet_dividend" / "flow.py"


@pytest.fixture(scope="module")
def frames(mp, tmp_path_factory):
    state = tmp_path_factory.mktemp("qd_screens")
    proc = mp.run(MP_SCRIPTS / "render_quiet_dividend.py", heap="2M", env={"TIDEBOX_STATE_DIR": str(state)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_screen_of_the_game_has_been_rendered(frames):
    source = FLOW.read_text()
    names = set(re.findall(r'^    name = "(\w+)"', source, re.M))
    names |= set(re.findall(r'"(qd_\w+)"\)', source))  # its list menus ("qd_enter", "qd_again")
    assert {"qd_board", "qd_shares", "qd_payout", "qd_final", "qd_enter", "qd_again"} <= names
    for name in names:
        assert any(label == name or label.startswith(name + "_") for label in frames), name


def test_screens_match_golden_pngs(frames):
    assert golden_problems(frames) == []


def test_no_screen_is_blank(frames):
    for label, hex_frame in frames.items():
        assert any(bytes.fromhex(hex_frame)), label


def test_lists_show_four_lines_clear_of_the_hints(frames):
    # the in-game menu (five items: Back is the fifth), the turn's actions and Play again: four
    # lines of 10 px at most, scrolled with the cursor, a blank band above the hint bar (y=55)
    for label in ("qd_menu", "qd_menu_back", "qd_enter", "qd_enter_page", "qd_again"):
        image = frame_to_image(frames[label])
        assert lit_in(image, (0, 51, 128, 55)) == 0, label
    # Back, the cursor's line, is the fourth line shown: lit across its whole width
    image = frame_to_image(frames["qd_menu_back"]).convert("L")
    assert all(image.getpixel((x, 41)) for x in range(128))
