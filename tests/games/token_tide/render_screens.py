# Renders Token Tide's OLED screens (the tide card, the allocation, entering on the box, the reveal,
# the end) with the real MicroPython framebuf, for the golden PNG tests (tests/games/token_tide/golden/).
# The box's own screens, with Token Tide at the table, are tests/mp_scripts/render_box_screens.py's.
# Prints two JSON lines: the texts drawn (partly) off the panel by label, then screen label -> the
# 1024-byte frame as hex (SSD1306 MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox.box import Box
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage

folder = os.getenv("TIDEBOX_STATE_DIR")
board = board_module.make_board()
rng = Seeded(1)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # deterministic tokens and codes
box = Box(board, Storage(folder))
reader = Panel(box, board.display, None)
frames = {}
outside = {}  # label -> every text drawn (partly) off the 128x64 panel: [text, x, y]
drawn_outside = []
_text = board.display.text


def text_on_panel(s, x, y, c=1):
    """framebuf's text(), noting any 8x8 text that does not fit on the panel (framebuf clips it)."""
    if x < 0 or y < 0 or x + 8 * len(s) > 128 or y + 8 > 64:
        drawn_outside.append([s, x, y])
    _text(s, x, y, c)


board.display.text = text_on_panel


def snap(label, screen=None, now=0, **fields):
    """Draw `screen` (a screen object, or the reader's current top) and keep the frame."""
    if screen is not None:
        for key, value in fields.items():
            setattr(screen, key, value)
        reader.stack = [screen]
    drawn_outside.clear()
    reader.draw(now)
    frames[label] = binascii.hexlify(board.display.buffer).decode()
    if drawn_outside:
        outside[label] = list(drawn_outside)


box.choose_game("token_tide")
reader.load_flow()
flow = reader.flow
for name in ("Ada", "Bo", "Cy", "Di", "Eve"):
    box.join(name)
box.to_setup()
box.options["reader"] = 0
box.options["deck"] = "numbered"
box.start_game()
snap("card", flow.Card(reader))
now = board.ticks_ms()
box.now = lambda: now  # the countdown starts at `now` exactly, however long this line takes to come
box.start_timer(45)
snap("allocate_start", flow.Allocate(reader), now)


def allocate(seat, allocation):
    box.move(seat, "allocate", {"allocation": allocation, "ready": True})


allocate(0, [4, 1, 2])
allocate(2, [1, 3, 3])
snap("allocate_waiting", flow.Allocate(reader), now + 14500)
snap("allocate_time", flow.Allocate(reader), now + 50000)
reader.message = "Waiting for 3"
snap("allocate_message", flow.Allocate(reader), now + 50000)
reader.message = ""
allocate(1, [3, 1, 3])
allocate(3, [0, 6, 1])
allocate(4, [7, 0, 0])
snap("allocate_ready", flow.Allocate(reader), now + 20000)
box.countdown.stop()
snap("allocate_no_timer", flow.Allocate(reader), now)
snap("handoff", flow.Handoff(reader, 2))
snap("entry", flow.Entry(reader, 2), entry=[2, 1, 3], cursor=2)
snap("entry_full", flow.Entry(reader, 2), entry=[4, 1, 2], cursor=2)
snap("entered", flow.Entered(reader, 2))
box.move(None, "reveal")
for step in range(6):
    snap("reveal_%d" % step, flow.Reveal(reader), step=step)
for _ in range(5):
    box.move(None, "next_round")
    for seat in range(5):
        allocate(seat, [seat % 3 + 1, 3, 3 - seat % 3])
    box.move(None, "reveal")
box.move(None, "next_round")
snap("final_winner", flow.final(reader), step=0)
snap("final_standings", flow.final(reader), step=1)
print(json.dumps(outside))
print(json.dumps(frames))
