# Renders Coin Call's OLED screens with the real MicroPython framebuf, for the golden PNG tests
# (golden/ beside this script). Prints one JSON object: screen label -> the 1024-byte frame as hex
# (MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox import lobby
from tidebox.box import Box
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage

board = board_module.make_board()
rng = Seeded(1)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # deterministic tokens and coins
box = Box(board, Storage(os.getenv("TIDEBOX_STATE_DIR")))
reader = Panel(box, board.display, None)
frames = {}


def snap(label, screen=None, **fields):
    """Draw `screen` (a screen object, or the reader's current top) and keep the frame."""
    if screen is not None:
        for key, value in fields.items():
            setattr(screen, key, value)
        reader.stack = [screen]
    reader.draw(0)
    frames["cc_" + label] = binascii.hexlify(board.display.buffer).decode()


box.choose_game("coin_call")
reader.load_flow()
flow = reader.flow
for name in ("Ada", "Bo", "Cy"):
    box.join(name)
box.to_setup()
snap("setup", lobby.Setup(reader))
box.options["flips"] = 5
snap("setup_five", lobby.Setup(reader))
box.options["flips"] = 3
box.start_game()
snap("calls_start", flow.Calls(reader))
box.move(0, "call", {"side": "heads"})
reader.message = "Calls missing"
snap("calls_message", flow.Calls(reader))
reader.message = ""
box.move(1, "call", {"side": "tails"})
box.move(2, "call", {"side": "heads"})
snap("calls_all", flow.Calls(reader))
box.move(None, "flip", {})
snap("calls_flipped", flow.Calls(reader))
for _ in range(2):
    for seat in range(3):
        box.move(seat, "call", {"side": ("heads", "tails")[seat % 2]})
    box.move(None, "flip", {})
snap("end_winners", flow.home(reader), step=0)
snap("end_standings", flow.home(reader), step=1)
print(json.dumps(frames))
