"""Only what the box shows is in its heap: the splash and the resume offer (welcome.py) until the box
leaves them, the lobby's screens (lobby.py) only before a game, a game's rules from the moment it is
chosen, its screens (flow.py and what it imports) only while it is played, and nothing of any game
back at the game menu. Run under MicroPython as the reader drives the box (in one interpreter: the
box's restarts between the lobby and a game, tidebox/restart.py, are left out here)."""

import json

from micropython_runner import MP_SCRIPTS

PR = "tidebox.games.pearl_reach"
PC = "tidebox.games.paper_current"


def test_each_phase_holds_only_its_own_modules(mp, tmp_path):
    proc = mp.run(MP_SCRIPTS / "loaded_parts.py", env={"TIDEBOX_STATE_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = {k: set(v) for k, v in json.loads(proc.stdout.strip().splitlines()[-1]).items()}
    assert seen["splash"] == {"tidebox.welcome"}
    assert seen["choose"] == {"tidebox.lobby"}
    assert seen["pearl_reach join"] == {"tidebox.lobby", PR, PR + ".rules"}
    assert seen["pearl_reach setup"] == {"tidebox.lobby", PR, PR + ".rules"}
    assert seen["pearl_reach play"] == {PR, PR + ".flow", PR + ".rivals", PR + ".rules", PR + ".drawing"}
    assert seen["pearl_reach over, back to the menu"] == {"tidebox.lobby"}
    assert seen["paper_current join"] == {"tidebox.lobby", PC, PC + ".rules"}
    assert seen["paper_current play"] == {PC, PC + ".flow", PC + ".rules", PC + ".drawing"}
