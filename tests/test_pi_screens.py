"""Every golden screen, on the Raspberry Pi board's display: the scripts that render the goldens
under MicroPython (the box's tests/mp_scripts/render_box_screens.py and each game's
tests/games/<game id>/render_screens.py, as tests/support/golden_walk.py finds them) run unchanged
under CPython, on the host board with its display replaced by the real adafruit_ssd1306.SSD1306_I2C
(tests/support/pi_panel_board.py), drawing through adafruit_framebuf with MicroPython's 8x8 font
(boards/pi_compat.py). What each screen is, is read back from the I2C traffic
(tests/support/ssd1306_bus.py decodes the commands and the GDDRAM data), and must be the golden
PNG's frame byte for byte.
"""

import json

import golden_walk
import pytest
from golden_png import png_frame

from cpython_runner import CPython

# the walk (the box's, and every game's in GAMES) -> the folder of its goldens (tests/support/golden_walk.py)
WALKS = {walk: golden_walk.golden_folder(walk) for walk in golden_walk.walks()}


@pytest.fixture(scope="module")
def panel_frames(sim_tree, tmp_path_factory):
    """{walk: {label: frame bytes}} as the modelled panel showed them."""
    cpython = CPython(sim_tree, board="pi_panel_board")
    out = {}
    for walk in WALKS:
        state = tmp_path_factory.mktemp("pi_" + walk)
        proc = cpython.run(golden_walk.script(walk), env={"TIDEBOX_STATE_DIR": str(state)})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        frames = json.loads(proc.stdout.strip().splitlines()[-1])
        out[walk] = {label: bytes.fromhex(hex_frame) for label, hex_frame in frames.items()}
    return out


@pytest.mark.parametrize("walk", sorted(WALKS))
def test_every_screen_through_the_ssd1306_driver_is_the_golden_byte_for_byte(panel_frames, walk):
    frames = panel_frames[walk]
    assert frames
    differing = [label for label, frame in sorted(frames.items())
                 if frame != png_frame(WALKS[walk] / (label + ".png"))]
    assert differing == []


def test_no_golden_screen_is_left_out(panel_frames):
    goldens = {p for folder in set(WALKS.values()) for p in folder.glob("*.png")}
    rendered = {WALKS[walk] / (label + ".png") for walk, frames in panel_frames.items() for label in frames}
    assert len(goldens) > 100
    assert rendered == goldens
