"""Each game's golden-image walk, keyed from tidebox.games.GAMES: a game's render script
(tests/mp_scripts/render_<game id>.py, run under MicroPython) draws every screen of its flow and
prints {label: frame} as its last line; each frame must equal <golden folder>/<label>.png, the
folder being tests/golden/<game id>/. A new game gets its golden test (tests/test_golden_screens.py)
and its Raspberry Pi panel test (tests/test_pi_screens.py) by adding that script and those PNGs.

The two first games came before the rule: Token Tide's walk is render_screens.py (the box's own
screens are drawn with it), and its goldens and The Quiet Dividend's (qd_*) lie in tests/golden/.
"""

import json

from golden_png import GOLDEN

from micropython_runner import MP_SCRIPTS
from tidebox.games import GAMES

SCRIPTS_BEFORE_THE_RULE = {"token_tide": "render_screens.py"}
GOLDENS_BEFORE_THE_RULE = frozenset(("token_tide", "quiet_dividend"))


def game_ids():
    return [game_id for game_id, _ in GAMES]


def script(game_id):
    """The game's render script (a path in tests/mp_scripts/)."""
    return MP_SCRIPTS / SCRIPTS_BEFORE_THE_RULE.get(game_id, "render_%s.py" % game_id)


def golden_folder(game_id):
    return GOLDEN if game_id in GOLDENS_BEFORE_THE_RULE else GOLDEN / game_id


def run(mp, game_id, state_dir):
    """The render script's stdout lines (the last: {label: frame hex} as JSON)."""
    # A larger heap than the box: the script is compiled from source and keeps every frame.
    proc = mp.run(script(game_id), heap="2M", env={"TIDEBOX_STATE_DIR": str(state_dir)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip().splitlines()


def frames_of(lines):
    return json.loads(lines[-1])
