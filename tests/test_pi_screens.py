"""Every golden screen, on the Raspberry Pi board's display: the scripts that render the goldens
under MicroPython (tests/mp_scripts/render_*.py) run unchanged under CPython, on the host board with
its display replaced by the real adafruit_ssd1306.SSD1306_I2C (tests/support/pi_panel_board.py), drawing
through adafruit_framebuf with MicroPython's 8x8 font (boards/pi_compat.py). What each screen is,
is read back from the I2C traffic (tests/support/ssd1306_bus.py decodes the commands and the GDDRAM data),
and must be the golden PNG's frame byte for byte.
"""

import json

import golden_walk
import pytest
from golden_png import png_frame

from cpython_runner import MP_SCRIPTS, CPython

# the script -> the folder of its goldens, for every game in GAMES (tests/support/golden_walk.py's rule)
SCRIPTS = {golden_walk.script(game_id).name: golden_walk.golden_folder(game_id)
           for game_id in golden_walk.game_ids()}


@pytest.fixture(scope="module")
def panel_frames(sim_tree, tmp_path_factory):
    """{script: {label: frame bytes}} as the modelled panel showed them."""
    cpython = CPython(sim_tree, board="pi_panel_board")
    out = {}
    for script in SCRIPTS:
        state = tmp_path_factory.mktemp("pi_" + script[:-3])
        proc = cpython.run(MP_SCRIPTS / script, env={"TIDEBOX_STATE_DIR": str(state)})
        assert proc.returncode == 0, proc.stdout + proc.stderr
        frames = json.loads(proc.stdout.strip().splitlines()[-1])
        out[script] = {label: bytes.fromhex(hex_frame) for label, hex_frame in frames.items()}
    return out


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_screen_through_the_ssd1306_driver_is_the_golden_byte_for_byte(panel_frames, script):
    frames = panel_frames[script]
    assert frames
    differing = [label for label, frame in sorted(frames.items())
                 if frame != png_frame(SCRIPTS[script] / (label + ".png"))]
    assert differing == []


def test_no_golden_screen_is_left_out(panel_frames):
    goldens = {p for folder in set(SCRIPTS.values()) for p in folder.glob("*.png")}
    rendered = {SCRIPTS[script] / (label + ".png")
                for script, frames in panel_frames.items() for label in frames}
    assert len(goldens) > 100
    assert rendered == goldens
