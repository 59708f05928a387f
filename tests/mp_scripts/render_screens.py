# Renders every OLED screen of the box with the real MicroPython framebuf, for the golden PNG tests.
# Prints one JSON object: screen label -> the 1024-byte frame as hex (SSD1306 MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox.box import Box
from tidebox.games import token_tide
from tidebox.games.seeded import Seeded
from tidebox.reader import QrImages, Reader
from tidebox.games.token_tide.flow import TideFlow
from tidebox.storage import Storage

folder = os.getenv("TIDEBOX_STATE_DIR")
board = board_module.make_board()
rng = Seeded(1)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # deterministic tokens and codes
box = Box(board, Storage(folder), token_tide)
box.password = "txk2xdfnrqgt"
reader = Reader(box, board.display, None, TideFlow)
try:
    from tidebox import join_qr

    reader.qr_drawer = QrImages(join_qr.render(box.ssid(), box.password, "http://192.168.4.1/")).draw
except ImportError:
    pass
frames = {}


def snap(label, screen=None, now=0):
    if screen:
        reader.screen = screen
    reader.draw(now)
    frames[label] = binascii.hexlify(board.display.buffer).decode()


snap("splash", "splash")
for i in range(4):
    reader.page = i
    snap("join_%d" % i, "join")
reader.page = 0
for name in ("Ada", "Bo", "Cy", "Di", "Eve"):
    box.join(name)
for i in range(4):
    reader.page = i
    snap("join_players_%d" % i, "join")
reader.page = 0
reader.cursor = 0
snap("join_menu", "join_menu")
reader.name = "ZOE"
reader.char = 3
snap("name_entry", "name_entry")
box.to_setup()
reader.cursor = 1
snap("setup", "setup")
box.options["deck"] = 1
box.start_game()
snap("card", "card")
snap("resume", "resume")
box.options["timer"] = 0
box.start_timer()
now = board.ticks_ms()
snap("allocate_start", "allocate", now)
box.allocate(0, [4, 1, 2])
box.allocate(2, [1, 3, 3])
snap("allocate_waiting", "allocate", now + 14500)
snap("allocate_time", "allocate", now + 50000)
reader.message = "Waiting for 3"
snap("allocate_message", "allocate", now + 50000)
reader.message = ""
box.allocate(1, [3, 1, 3])
box.allocate(3, [0, 6, 1])
box.allocate(4, [7, 0, 0])
snap("allocate_ready", "allocate", now + 20000)
box.countdown.stop()
snap("allocate_no_timer", "allocate", now)
reader.cursor = 1
snap("menu", "menu")
reader.pick = 2
reader.action = "drop"
snap("pick_seat", "pick_seat")
reader.confirm = ("Drop Cy?", None, "menu")
snap("confirm", "confirm")
reader.code = "482913"
snap("show_code", "show_code")
snap("handoff", "handoff")
reader.entry = [2, 1, 3]
reader.cursor = 2
snap("entry", "entry")
reader.entry = [4, 1, 2]
snap("entry_full", "entry")
snap("entered", "entered")
box.reveal()
for step in range(6):
    reader.step = step
    reader.page = 0
    snap("reveal_%d" % step, "reveal")
for _ in range(5):
    box.next_round()
    for seat in range(5):
        box.allocate(seat, [seat % 3 + 1, 3, 3 - seat % 3])
    box.reveal()
box.next_round()
reader.step = 0
snap("final_winner", "final")
reader.step = 1
snap("final_standings", "final")
print(json.dumps(frames))
