"""The OLED's text helpers (firmware/tidebox/draw.py) under MicroPython: the one wrap every screen
uses, a long word cut (marked '.') or carried on over the next lines."""

import pytest


@pytest.fixture(scope="module")
def wrap(mp):
    def run(*calls):
        results = mp.call_many("tidebox.draw", "wrap", [list(c) for c in calls])
        return [r["ok"] for r in results]
    return run


def test_words_fill_lines_up_to_the_width(wrap):
    (lines,) = wrap(("Bo took the high bay", 10))
    assert lines == ["Bo took", "the high", "bay"]
    assert all(len(line) <= 10 for line in lines)


def test_a_word_longer_than_a_line_is_cut_and_marked(wrap):
    (lines,) = wrap(("go Heronsgate now", 6))
    assert lines == ["go", "Heron.", "now"]


def test_split_carries_a_long_word_on_over_the_next_lines(wrap):
    (lines,) = wrap(("go Heronsgate now", 6, True))
    assert lines == ["go", "Herons", "gate", "now"]


def test_cut_and_split_agree_when_every_word_fits(wrap):
    text = "Gull landed in bay 3 and took 2 pearls"
    cut, split = wrap((text, 15), (text, 15, True))
    assert cut == split == ["Gull landed in", "bay 3 and took", "2 pearls"]
