"""The Quiet Dividend's OLED screens as its render script draws them under the real MicroPython
framebuf (each frame against its golden PNG: tests/test_golden_screens.py)."""

import re
from pathlib import Path

import pytest
import golden_walk
from golden_png import frame_to_image, lit_in

FLOW = Path(__file__).resolve().parents[3] / "firmware" / "tidebox" / "games" / "quiet_dividend" / "flow.py"


@pytest.fixture(scope="module")
def frames(game_walk):
    return golden_walk.frames_of(game_walk("quiet_dividend"))


def test_every_screen_of_the_game_has_been_rendered(frames):
    source = FLOW.read_text()
    names = set(re.findall(r'^    name = "(\w+)"', source, re.M))
    names |= set(re.findall(r'"(qd_\w+)"\)', source))  # its list menus ("qd_enter", "qd_again")
    assert {"qd_board", "qd_shares", "qd_payout", "qd_final", "qd_enter", "qd_again"} <= names
    for name in names:
        assert any(label == name or label.startswith(name + "_") for label in frames), name


def test_lists_show_four_lines_clear_of_the_hints(frames):
    # the in-game menu (five items: Back is the fifth), the turn's actions and Play again: four
    # lines of 10 px at most, scrolled with the cursor, a blank band above the hint bar (y=55)
    for label in ("qd_menu", "qd_menu_back", "qd_enter", "qd_enter_page", "qd_again"):
        image = frame_to_image(frames[label])
        assert lit_in(image, (0, 51, 128, 55)) == 0, label
    # Back, the cursor's line, is the fourth line shown: lit across its whole width
    image = frame_to_image(frames["qd_menu_back"]).convert("L")
    assert all(image.getpixel((x, 41)) for x in range(128))


def test_turn_undone_shows_until_the_game_moves_on(frames):
    hints = (0, 55, 128, 64)
    undone = frame_to_image(frames["qd_board_undone"]).crop(hints).tobytes()
    assert undone != frame_to_image(frames["qd_board"]).crop(hints).tobytes()  # the note, not the hints
    assert frames["qd_board_moved_on"] == frames["qd_board"]  # the next turn: the hints are back


def test_a_list_longer_than_four_lines_marks_that_more_follow(frames):
    # the last character cell of a line: a mark down on the fourth line while more follow, a mark
    # up on the first once lines above are out of sight; none on a list of four lines or fewer
    def mark(image, y):  # pixels unlike the line's own background (the cursor's line is lit)
        lit = lit_in(image, (121, y, 128, y + 8))
        return min(lit, 7 * 8 - lit)

    enter = frame_to_image(frames["qd_enter"])  # Mo's turn: nine actions, the cursor on the first
    assert mark(enter, 42) > 0 and mark(enter, 12) == 0
    paged = frame_to_image(frames["qd_enter_page"])  # the cursor on the sixth: lines above and below
    assert mark(paged, 12) > 0 and mark(paged, 42) > 0
    again = frame_to_image(frames["qd_again"])
    assert mark(again, 12) == 0 and mark(again, 42) == 0
