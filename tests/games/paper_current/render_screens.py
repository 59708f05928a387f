# Renders Paper Current's OLED screens with the real MicroPython framebuf, for the golden PNG tests.
# Prints one JSON object: screen label -> the 1024-byte frame as hex (SSD1306 MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox import lobby, screens
from tidebox.box import Box
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage

folder = os.getenv("TIDEBOX_STATE_DIR")
board = board_module.make_board()
rng = Seeded(3)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # a reproducible course
box = Box(board, Storage(folder))
box.password = "txk2xdfnrqgt"
reader = Panel(box, board.display, None)
frames = {}


def snap(label, screen, **fields):
    for key, value in fields.items():
        setattr(screen, key, value)
    reader.stack = [screen]
    reader.draw(0)
    frames[label] = binascii.hexlify(board.display.buffer).decode()


box.choose_game("paper_current")
reader.load_flow()
flow = reader.flow
for name in ("Ada", "Bo", "Cy"):
    box.join(name)
box.to_setup()
# the setup screen: each option's value whole at the right, the selected one on two rows
defaults = dict(box.options)
snap("pc_setup", lobby.Setup(reader))
box.options["first"] = 2
box.options["target"] = 9
snap("pc_setup_target", lobby.Setup(reader), cursor=1)
box.options["seated"] = True
box.options["long_zone"] = True
snap("pc_setup_access", lobby.Setup(reader), cursor=3)
snap("pc_setup_last", lobby.Setup(reader), cursor=5)
box.options = defaults
box.start_game()
# one card per zone, and the card with the longest name
for zone, card in (("left", "P02"), ("centre", "P01"), ("right", "P09")):
    box.state["course"][0] = card
    snap("pc_card_" + zone, flow.Card(reader))
snap("pc_card_bonus", flow.Card(reader), page=1)
snap("pc_card_peek", flow.Card(reader, peek=True), page=1)
box.state["course"][0] = "P10"  # the longest bonus: two pages
snap("pc_card_longbonus_1", flow.Card(reader), page=1)
snap("pc_card_longbonus_2", flow.Card(reader), page=2)
box.state["course"][0] = "P01"
for _ in range(2):
    box.move(None, "launch")
snap("pc_launch", flow.Launch(reader))
for _ in range(5):
    box.move(None, "launch")
snap("pc_launch_last", flow.Launch(reader))
box.move(None, "launch")
snap("pc_score_empty", flow.Score(reader))
for boat, result in ((1, 2), (2, 1), (3, 0), (4, 2), (5, 1)):
    box.move(None, "set_result", {"boat": boat, "result": result})
snap("pc_score_partial", flow.Score(reader), cursor=5)
reader.message = "Boat 6 not set"
snap("pc_score_message", flow.Score(reader), cursor=5)
reader.message = ""
for boat in (6, 7, 8):
    box.move(None, "set_result", {"boat": boat, "result": 1})
snap("pc_score_full", flow.Score(reader), cursor=7)
box.move(None, "confirm")
snap("pc_round", flow.Scored(reader))
snap("menu", screens.in_game_menu(reader), cursor=2)
snap("confirm_replay", screens.Confirm(reader, "Replay this round?", None))
for _ in range(2):
    box.move(None, "next_round")
    for _ in range(8):
        box.move(None, "launch")
    for boat in range(1, 9):
        box.move(None, "set_result", {"boat": boat, "result": 2 if boat < 4 else 0})
    box.move(None, "confirm")
snap("pc_final_total", flow.final(reader))
snap("pc_final_rounds", flow.final(reader), step=1)
snap("pc_final_rounds_2", flow.final(reader), step=1, page=1)
final = flow.final(reader)
final.step = 1
reader.stack = [final]
while reader.screen == "pc_final":  # the rounds' pages, then what next
    reader.press("C", "short")
snap("pc_end", reader.top())
box.state["total"] = 12  # below the target
snap("pc_final_missed", flow.final(reader))
print(json.dumps(frames))
