"""Paper Current's OLED screens as its render script draws them under the real MicroPython framebuf
(each frame against its golden PNG in tests/golden/paper_current/: tests/test_golden_screens.py).
"""

import re
from pathlib import Path

import pytest
import golden_walk
from golden_png import frame_to_image, lit_in

FLOW = Path(__file__).resolve().parents[3] / "firmware" / "tidebox" / "games" / "paper_current" / "flow.py"


@pytest.fixture(scope="module")
def frames(game_walk):
    return golden_walk.frames_of(game_walk("paper_current"))


def test_every_paper_current_screen_has_been_rendered(frames):
    source = FLOW.read_text()
    names = set(re.findall(r'^    name = "(\w+)"', source, re.M)) | set(re.findall(r'"(pc_\w+)"\)\)', source))
    assert len(names) == 6
    assert {n for n in names if any(label == n or label.startswith(n + "_") for label in frames)} == names


def test_the_zone_picture_fills_the_cards_zone_only(frames):
    # the three zones sit side by side under the launch line: left, centre, right as seen seated
    thirds = {"left": (2, 36, 19, 42), "centre": (22, 36, 39, 42), "right": (42, 36, 59, 42)}
    for zone in thirds:
        image = frame_to_image(frames["pc_card_" + zone])
        filled = [z for z, b in thirds.items() if lit_in(image, b) > 0.8 * (b[2] - b[0]) * (b[3] - b[1])]
        assert filled == [zone]


def test_the_round_is_on_the_card_also_under_a_two_line_name(frames):
    # "Two Safe Arrivals" (the centre card) takes two lines: "R1 of 3" goes under the zone's word,
    # drawn as on a one-line card (One at the Heart), where it heads the column
    two = frame_to_image(frames["pc_card_centre"])
    one = frame_to_image(frames["pc_card_left"])
    assert lit_in(one, (66, 11, 128, 18)) > 40
    assert two.crop((66, 41, 128, 49)).tobytes() == one.crop((66, 11, 128, 19)).tobytes()


def test_the_boats_and_bonus_line_reads_as_the_phones_and_fits_at_its_longest(mp):
    # every sum the eight boats make (0 to 16) with the bonus held or not: one line of 16 at most,
    # "bonus +2" as the phones write it
    calls = [[boats, bonus] for boats in range(17) for bonus in (0, 2)]
    lines = [r["ok"] for r in mp.call_many("tidebox.games.paper_current.drawing", "boats_line", calls)]
    assert max(len(line) for line in lines) == 16
    assert lines[-1] == "16 pts, bonus +2"
    assert lines[calls.index([1, 0])] == "1 pt, bonus +0"
