"""A golden PNG for every OLED screen of every game in tidebox.games.GAMES, rendered by the real
MicroPython framebuf and compared pixel for pixel (tests/support/golden_walk.py finds each game's render
script and golden folder). Each game's own checks of its frames are in tests/test_screens.py
(Token Tide and the box) and tests/games/<game id>/test_<game id>_screens.py.

To accept intended changes: `UPDATE_GOLDEN=1 pytest tests/test_golden_screens.py`, then look at the
new PNGs in tests/golden/ before committing them.
"""

import golden_walk
import pytest
from golden_png import golden_problems

GAME_IDS = golden_walk.game_ids()


def test_every_game_has_a_render_script_and_goldens():
    assert len(GAME_IDS) >= 4
    for game_id in GAME_IDS:
        assert golden_walk.script(game_id).is_file(), game_id
        assert any(golden_walk.golden_folder(game_id).glob("*.png")), game_id


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_frame_matches_its_golden_png(game_walk, game_id):
    frames = golden_walk.frames_of(game_walk(game_id))
    assert frames
    assert golden_problems(frames, golden_walk.golden_folder(game_id)) == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_frame_is_blank(game_walk, game_id):
    for label, hex_frame in golden_walk.frames_of(game_walk(game_id)).items():
        assert any(bytes.fromhex(hex_frame)), label
