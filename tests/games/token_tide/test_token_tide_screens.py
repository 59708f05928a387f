"""Token Tide's OLED screens as its render script (render_screens.py, beside this file) draws them
under the real MicroPython framebuf: every screen of its flow drawn, no text off the panel (each
frame against its golden PNG: tests/test_golden_screens.py)."""

import json
import re
from pathlib import Path

import pytest
import golden_walk

FLOW = Path(__file__).resolve().parents[3] / "firmware" / "tidebox" / "games" / "token_tide" / "flow.py"


@pytest.fixture(scope="module")
def rendered(game_walk):
    """(texts drawn off the panel by label, frames by label) from render_screens.py."""
    lines = game_walk("token_tide")
    return json.loads(lines[-2]), golden_walk.frames_of(lines)


def test_every_screen_of_the_game_has_been_rendered(rendered):
    _, frames = rendered
    names = set(re.findall(r'^    name = "(\w+)"', FLOW.read_text(), re.M))
    assert {"card", "allocate", "reveal", "final", "handoff", "entry", "entered"} <= names
    labels = {label.rsplit("_", 1)[0] if label.rsplit("_", 1)[-1].isdigit() else label for label in frames}
    for name in names:
        assert any(label == name or label.startswith(name + "_") for label in labels), name


def test_no_text_leaves_the_panel(rendered):
    outside, frames = rendered
    assert frames
    # every 8x8 text the screens draw fits on the panel whole (framebuf would clip it silently)
    assert outside == {}
