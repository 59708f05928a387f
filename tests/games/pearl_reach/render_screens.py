# Renders Pearl Reach's OLED screens with the real MicroPython framebuf, for the golden PNG tests.
# Prints one JSON object: screen label -> the 1024-byte frame as hex (SSD1306 MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox import lobby, screens
from tidebox.box import Box
from tidebox.games.pearl_reach import rivals
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage

folder = os.getenv("TIDEBOX_STATE_DIR")
board = board_module.make_board()
rng = Seeded(5)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # a reproducible game
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


def play(turns):
    """Every gatherer's turn played by the sharp rival's choice, people's seats too."""
    for _ in range(turns):
        state = box.state
        seat = state["order"][state["turn"] % len(state["order"])]
        shift, place = rivals.choose(state, seat, box.random_below, "sharp")
        if shift is not None:
            box.move(seat, "shift", shift)
        box.move(seat, "place", place)


box.choose_game("pearl_reach")
reader.load_flow()
flow = reader.flow
for name in ("Ada", "Bo"):
    box.join(name)
box.to_setup()
box.options["rivals"] = 2
snap("pr_setup", lobby.Setup(reader))
snap("pr_setup_speed", lobby.Setup(reader), cursor=2)
snap("pr_setup_random", lobby.Setup(reader), cursor=3)
box.options["first"] = 1
snap("pr_setup_first", lobby.Setup(reader), cursor=3)
box.options["first"] = 0
box.start_game()
snap("pr_board_start", flow.Board(reader))
play(3)  # Ada, Bo, then Gull is to act: the rival is thinking
snap("pr_board_thinking", flow.Board(reader))
reader.kept["paused"] = box.state
snap("pr_board_paused", flow.Board(reader))
reader.kept["paused"] = None
snap("pr_menu", screens.in_game_menu(reader))
snap("pr_menu_end", screens.in_game_menu(reader), cursor=3)
snap("pr_confirm_end", screens.Confirm(reader, "End game?", None))
play(9)  # the first tide has come and gone
snap("pr_board_tide", flow.Board(reader))
snap("pr_scores", flow.Scores(reader))
snap("pr_scores_key", flow.Scores(reader), page=1)  # B: what pts, sh, sf and * mean
snap("pr_news", flow.News(reader))
snap("pr_news_2", flow.News(reader), page=1)
play(14)
reader.message = "the box could not save: try again"
snap("pr_board_message", flow.Board(reader))
reader.message = ""
while box.phase == "play":
    play(1)
snap("pr_final_winner", flow.final(reader))
snap("pr_final_standings", flow.final(reader), step=1)
snap("pr_final_new_game", screens.Confirm(reader, "New game?", None))
# a tie for the win: two names, points each
box.state["points"] = [40, 40, 12, 30]
box.state["shells"] = [2, 2, 0, 1]
snap("pr_final_tie", flow.final(reader))
# Ada starts the next game from her phone: until a turn is taken the box's board says who
box.move(0, "new_game", {"speed": 1}, seq=box.seq)
snap("pr_board_new_game", flow.Board(reader))
print(json.dumps(frames))
