# Pearl Reach's rivals on the box's panel loop (tests/games/pearl_reach/test_pearl_reach_flow.py):
# what a loop pass allocates while nothing is due, when a rival moves (after the rival speed, only with
# the board up, never while paused), and how long its move takes here. stdout: one JSON object.
import gc
import json
import os
import time

import board as board_module
import micropython
from tidebox import resting, screens
from tidebox.box import Box
from tidebox.games.pearl_reach import rules
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage

board = board_module.make_board()
rng = Seeded(8)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))
box = Box(board, Storage(os.getenv("TIDEBOX_STATE_DIR")))
reader = Panel(box, board.display, None)
box.choose_game("pearl_reach")
for name in ("Ada", "Bo"):
    box.join(name)
box.to_setup()
box.options["rivals"] = 2
box.options["speed"] = 2
box.options["first"] = 0
box.start_game()
reader.home()
out = {}


def locked(f):
    """f() with the heap locked: True when it allocated nothing (an allocation raises MemoryError)."""
    gc.collect()
    micropython.heap_lock()
    try:
        f()
        return True
    except MemoryError:
        return False
    finally:
        micropython.heap_unlock()


def person_moves():
    seat = rules.current(box.state)
    box.move(seat, "place", {"cell": rules.placements(box.state, seat)[0][0]})


now = 1000
reader.tick(now)  # drawn; the flow notes the game
now += 10
reader.tick(now)
out["person_to_act_idle_pass"] = locked(lambda: reader.tick(now + 10))
out["person_to_act_at_rest"] = resting.at_rest(reader)  # the panel loop may rest: no rival to act
person_moves()
person_moves()  # Ada, Bo: Gull, a rival, is to act
seq = box.seq
reader.tick(now)  # the redraw after the moves; the rival's thinking starts now
start = now
now += 10
reader.tick(now)
out["rival_thinking_idle_pass"] = locked(lambda: reader.tick(now + 10))
out["rival_thinking_at_rest"] = resting.at_rest(reader)
out["moved_before_speed"] = False
while now - start < 1990:  # the rival speed is 2 s
    now += 10
    reader.tick(now)
    out["moved_before_speed"] = out["moved_before_speed"] or box.seq != seq
# the menu is up: the rival waits however long
reader.push(screens.in_game_menu(reader))
for _ in range(300):
    now += 10
    reader.tick(now)
out["held_while_menu_pass"] = locked(lambda: reader.tick(now + 10))
out["moved_while_menu"] = box.seq != seq
reader.pop()
# paused from the menu: still waits
reader.kept["paused"] = box.state
for _ in range(300):
    now += 10
    reader.tick(now)
out["paused_pass"] = locked(lambda: reader.tick(now + 10))
out["moved_while_paused"] = box.seq != seq
reader.kept["paused"] = None
# back on the board: the full thinking time again, then the move
back = now
chosen_at = None
while box.seq == seq:
    now += 10
    t0 = time.ticks_us()
    reader.tick(now)
    spent = time.ticks_diff(time.ticks_us(), t0)
    if chosen_at is None and reader.kept["chosen"] is not None:
        chosen_at = now - back
        out["chosen_pass_moved"] = box.seq != seq
out["chosen_after_ms"] = chosen_at
out["moved_after_ms"] = now - back
out["move_pass_us"] = spent
out["rival"] = box.state["names"][2]
out["rival_log"] = rules.entry_text(box.state, box.state["log"][-1])
out["next"] = rules.current(box.state)
print(json.dumps(out))
