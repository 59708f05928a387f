# Renders the box's own OLED screens (the splash, the game menu, joining, the night's scores, the
# players menu, a name typed on the box, setup, the resume offer, the reader's in-game menu and its
# pages) with the real MicroPython framebuf, for the golden PNG tests (tests/golden/). Token Tide is
# the game at the table, as on a box: its own screens are tests/games/token_tide/render_screens.py's.
# Prints two JSON lines: the texts drawn (partly) off the panel by label, then screen label -> the
# 1024-byte frame as hex (SSD1306 MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox import lobby, screens, welcome
from tidebox.box import Box
from tidebox.games.seeded import Seeded
from tidebox.panel import QrImages, Panel
from tidebox.storage import Storage

folder = os.getenv("TIDEBOX_STATE_DIR")
board = board_module.make_board()
rng = Seeded(1)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # deterministic tokens and codes
box = Box(board, Storage(folder))
box.password = "txk2xdfnrqgt"
reader = Panel(box, board.display, None)
try:
    from tidebox import join_qr

    reader.qr_drawer = QrImages(join_qr.render(box.ssid(), box.password, "http://192.168.4.1/"))
except ImportError:
    pass
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


board.page_url = lambda: "http://192.168.4.1/"  # as on the Pico W (the host serves localhost)
snap("splash", welcome.Splash(reader))
snap("choose", lobby.ChooseGame(reader))
box.choose_game("token_tide")
reader.load_flow()
flow = reader.flow
for i in range(4):
    snap("join_%d" % i, lobby.Join(reader), page=i)
for name in ("Ada", "Bo", "Cy", "Di", "Eve"):
    box.join(name)
snap("choose_players", lobby.ChooseGame(reader), cursor=2)
snap("choose_last", lobby.ChooseGame(reader), cursor=3)
reader.message = "at most 4 people"
snap("choose_message", lobby.ChooseGame(reader), cursor=3)
reader.message = ""
night = [  # the night's scores as tonight.py keeps them: a game won, one ended early, a cooperative win
    {"game": "quiet_dividend", "title": "Quiet Dividend", "tag": 1, "names": ["Alexandrina", "Bo", "Cy"],
     "points": [34, 30, 12], "winners": [0], "ended": False},
    {"game": "token_tide", "title": "Token Tide", "tag": 2, "names": ["Ada", "Bo"], "points": [3, 5],
     "winners": [], "ended": True},
    {"game": "paper_current", "title": "Paper Current", "tag": 3, "names": ["Ada", "Bo", "Cy"],
     "points": [41, 41, 41], "winners": [0, 1, 2], "ended": False},
]
with open(folder + "/tonight.txt", "w") as f:
    for game in night:
        f.write(json.dumps(game) + "\n")
snap("tonight", lobby.Tonight(reader))
snap("tonight_game", lobby.TonightGame(reader, "Quiet Dividend", night[0]))
snap("tonight_game_ended", lobby.TonightGame(reader, "Token Tide", night[1]))
for i in range(4):
    snap("join_players_%d" % i, lobby.Join(reader), page=i)
reader.stack = [lobby.Join(reader)]
reader.press("A", "short")  # the players menu
snap("join_menu")
entry = lobby.NameEntry(reader)
snap("name_entry", entry, text="ZOE", char=3)
box.to_setup()
snap("setup", lobby.Setup(reader), cursor=1)
box.options["reader"] = 4
snap("setup_reader", lobby.Setup(reader), cursor=2)
snap("setup_last", lobby.Setup(reader), cursor=3)
box.options["reader"] = 0
box.options["deck"] = "numbered"
box.start_game()
snap("resume", welcome.Resume(reader))
now = board.ticks_ms()
box.now = lambda: now  # the countdown starts at `now` exactly, however long this line takes to come
box.start_timer(45)


def allocate(seat, allocation):
    box.move(seat, "allocate", {"allocation": allocation, "ready": True})


allocate(0, [4, 1, 2])
allocate(2, [1, 3, 3])
allocate(1, [3, 1, 3])
allocate(3, [0, 6, 1])
allocate(4, [7, 0, 0])
box.countdown.stop()
snap("menu", screens.in_game_menu(reader), cursor=1)
snap("pick_seat", screens.PickSeat(reader, "Drop who?", None), pick=2)
snap("confirm", screens.Confirm(reader, "Drop Cy?", None))
snap("show_code", screens.ShowCode(reader, 2, "482913"))
print(json.dumps(outside))
print(json.dumps(frames))
