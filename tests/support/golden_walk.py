"""The golden-image walks: the box's own screens, and each game's, keyed from tidebox.games.GAMES.

A walk is a render script, run under MicroPython, that draws screens and prints {label: frame} as
its last line; each frame must equal <its golden folder>/<label>.png.

- Each game's walk lives with the game's tests: tests/games/<game id>/render_screens.py draws every
  screen of its flow, and its goldens are tests/games/<game id>/golden/*.png. A new game gets its
  golden test (tests/test_golden_screens.py) and its Raspberry Pi panel test (tests/test_pi_screens.py)
  by adding that script and those PNGs to its tests folder; a game in GAMES without them fails.
- The box's own screens (the splash, the game menu, joining, the night's scores, the players menu,
  setup, the resume offer, the reader's menu and its pages) are no game's: their walk is
  tests/mp_scripts/render_box_screens.py and their goldens lie in tests/golden/.
"""

import json

from golden_png import GOLDEN

from micropython_runner import MP_SCRIPTS, ROOT
from tidebox.games import GAMES

BOX = "box"  # the walk of the box's own screens; every other walk is a game's, named by its id
GAME_TESTS = ROOT / "tests" / "games"


def game_ids():
    return [game_id for game_id, _ in GAMES]


def walks():
    """The box's walk, then every game's in GAMES."""
    return [BOX] + game_ids()


def script(walk):
    """The walk's render script: the box's in tests/mp_scripts/, a game's in its tests folder."""
    if walk == BOX:
        return MP_SCRIPTS / "render_box_screens.py"
    return GAME_TESTS / walk / "render_screens.py"


def golden_folder(walk):
    return GOLDEN if walk == BOX else GAME_TESTS / walk / "golden"


def run(mp, walk, state_dir):
    """The render script's stdout lines (the last: {label: frame hex} as JSON)."""
    # A larger heap than the box: the script is compiled from source and keeps every frame.
    proc = mp.run(script(walk), heap="2M", env={"TIDEBOX_STATE_DIR": str(state_dir)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip().splitlines()


def frames_of(lines):
    return json.loads(lines[-1])
