# Which of the box's and the games' modules are imported in each phase, as the reader drives the box
# (the host board, a real Box and Panel). Prints one JSON object: phase label -> sorted module names
# under tidebox. that a phase may or may not hold (the box's always-loaded core is left out).
import json
import os
import sys

import board as board_module
from tidebox.box import Box
from tidebox.panel import Panel
from tidebox.storage import Storage

board = board_module.make_board()
box = Box(board, Storage(os.getenv("TIDEBOX_STATE_DIR")))
reader = Panel(box, board.display, None)
CORE = ("tidebox.box", "tidebox.panel", "tidebox.storage", "tidebox.screens", "tidebox.draw",
        "tidebox.games", "tidebox.games.base", "tidebox.seats", "tidebox.timer", "tidebox.viewjson",
        "tidebox.hotspot", "tidebox.memory", "tidebox.errors", "tidebox.buttons", "tidebox.jsoncheck",
        "tidebox.gate", "tidebox.saving", "tidebox.views",
        "tidebox")
seen = {}


def note(label):
    seen[label] = sorted(n for n in sys.modules if n.startswith("tidebox") and n not in CORE)


reader.boot(board.ticks_ms(), False)
note("splash")
reader.home()
note("choose")
for game in ("pearl_reach", "paper_current"):
    box.choose_game(game)
    reader.home()
    note(game + " join")
    if not box.seats.names:  # the second game keeps the table
        for name in ("Ada", "Bo"):
            box.join(name)
    box.to_setup()
    reader.home()
    note(game + " setup")
    box.start_game()
    reader.home()
    note(game + " play")
    box.to_game_menu()
    reader.home()
    note(game + " over, back to the menu")
print(json.dumps(seen))
