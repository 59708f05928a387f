"""A golden PNG for every OLED screen of the box and of every game in tidebox.games.GAMES, rendered
by the real MicroPython framebuf and compared pixel for pixel (tests/support/golden_walk.py finds
each walk's render script and golden folder: a game's in tests/games/<game id>/, the box's own
screens' in tests/mp_scripts/ and tests/golden/). The checks of the frames themselves are in
tests/test_screens.py (the box) and tests/games/<game id>/test_<game id>_screens.py.

To accept intended changes: `UPDATE_GOLDEN=1 pytest tests/test_golden_screens.py`, then look at the
new PNGs (in tests/golden/ and tests/games/<game id>/golden/) before committing them.
"""

import golden_walk
import pytest
from golden_png import golden_problems

WALKS = golden_walk.walks()


def test_every_game_has_a_render_script_and_goldens_in_its_tests_folder():
    game_ids = golden_walk.game_ids()
    assert len(game_ids) >= 4 and golden_walk.BOX not in game_ids
    for walk in WALKS:
        script, folder = golden_walk.script(walk), golden_walk.golden_folder(walk)
        assert script.is_file(), "%s has no render script: %s" % (walk, script)
        assert any(folder.glob("*.png")), "%s has no golden PNGs in %s" % (walk, folder)


@pytest.mark.parametrize("walk", WALKS)
def test_every_frame_matches_its_golden_png(game_walk, walk):
    frames = golden_walk.frames_of(game_walk(walk))
    assert frames
    assert golden_problems(frames, golden_walk.golden_folder(walk)) == []


@pytest.mark.parametrize("walk", WALKS)
def test_every_golden_png_is_drawn(game_walk, walk):
    """No golden is left behind by a screen that is no longer drawn (or drawn in another walk)."""
    frames = golden_walk.frames_of(game_walk(walk))
    goldens = {path.stem for path in golden_walk.golden_folder(walk).glob("*.png")}
    assert goldens == set(frames)


@pytest.mark.parametrize("walk", WALKS)
def test_no_frame_is_blank(game_walk, walk):
    for label, hex_frame in golden_walk.frames_of(game_walk(walk)).items():
        assert any(bytes.fromhex(hex_frame)), label
