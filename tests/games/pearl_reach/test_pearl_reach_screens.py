"""Pearl Reach's OLED screens as its render script draws them under the real MicroPython framebuf
(each frame against its golden PNG in tests/golden/pearl_reach/: tests/test_golden_screens.py).
"""

import re
from pathlib import Path

import pytest
import golden_walk
from golden_png import frame_to_image, lit_in

FLOW = Path(__file__).resolve().parents[3] / "firmware" / "tidebox" / "games" / "pearl_reach" / "flow.py"


@pytest.fixture(scope="module")
def frames(game_walk):
    return golden_walk.frames_of(game_walk("pearl_reach"))


def test_every_pearl_reach_screen_has_been_rendered(frames):
    names = set(re.findall(r'^    name = "(\w+)"', FLOW.read_text(), re.M))
    assert names == {"pr_board", "pr_scores", "pr_news", "pr_final"}
    assert {n for n in names if any(label == n or label.startswith(n + "_") for label in frames)} == names


def test_the_board_shows_whose_turn_and_that_a_rival_thinks(frames):
    start = frame_to_image(frames["pr_board_start"])
    thinking = frame_to_image(frames["pr_board_thinking"])
    paused = frame_to_image(frames["pr_board_paused"])
    # the panel's first line: "to play" for a person, "thinking" for a rival, "paused" when held
    status = (60, 10, 128, 18)
    assert len({image.crop(status).tobytes() for image in (start, thinking, paused)}) == 3
    # whose turn: that gatherer's line is inverted (Ada first; three turns later Heron, a rival)
    line = [(56, 18 + 9 * k, 128, 27 + 9 * k) for k in range(4)]
    assert lit_in(start, line[0]) > 0.6 * 72 * 9 and lit_in(start, line[3]) < 0.3 * 72 * 9
    assert lit_in(thinking, line[3]) > 0.6 * 72 * 9 and lit_in(thinking, line[0]) < 0.3 * 72 * 9


def test_every_marker_is_drawn_on_the_coast(frames):
    # three turns in, three markers in place of three empty cells' dots: Ada's filled square (25
    # pixels), Bo's hollow square (16) and Gull's cross (9), each told apart by its shape
    coast = (0, 18, 55, 53)
    start = lit_in(frame_to_image(frames["pr_board_start"]), coast)
    assert lit_in(frame_to_image(frames["pr_board_thinking"]), coast) - start == (25 - 1) + (16 - 1) + (9 - 1)


def test_the_menu_shows_four_lines_clear_of_the_hints(frames):
    # Drop player, Rejoin code, Pause rivals, End game, Back: four lines at most, then Back scrolls in
    for label in ("pr_menu", "pr_menu_end"):
        assert lit_in(frame_to_image(frames[label]), (0, 51, 128, 55)) == 0, label


def test_the_board_says_who_started_a_new_game_from_a_phone(frames):
    hints = (0, 55, 128, 64)
    started = frame_to_image(frames["pr_board_new_game"])
    # a message bar ("New game: Ada", dark letters on a lit bar) in place of the hints
    assert lit_in(started, hints) > 0.6 * 128 * 9
    assert lit_in(frame_to_image(frames["pr_board_start"]), hints) < 0.5 * 128 * 9


def test_the_scores_have_a_key_to_their_headings_and_the_rival_mark(frames):
    table = frame_to_image(frames["pr_scores"])
    key = frame_to_image(frames["pr_scores_key"])
    assert table.crop((0, 9, 128, 55)).tobytes() != key.crop((0, 9, 128, 55)).tobytes()
