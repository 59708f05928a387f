# Renders every OLED screen of The Quiet Dividend with the real MicroPython framebuf, for the golden
# PNG tests. Prints one JSON object: screen label -> the 1024-byte frame as hex (MONO_VLSB layout).
import binascii
import json
import os

import board as board_module
from tidebox import lobby, screens
from tidebox.box import Box
from tidebox.games.seeded import Seeded
from tidebox.panel import Panel
from tidebox.storage import Storage

board = board_module.make_board()
rng = Seeded(1)
board.urandom = lambda n: bytes(rng.below(256) for _ in range(n))  # deterministic tokens and codes
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
    frames["qd_" + label] = binascii.hexlify(board.display.buffer).decode()


box.choose_game("quiet_dividend")
reader.load_flow()
flow = reader.flow
for name in ("Pat", "Mo", "Alexandrina", "Di", "Eve"):
    box.join(name)
box.to_setup()
box.options["setup"] = "early_opening"
snap("setup", lobby.Setup(reader))
box.options["first"] = 2
snap("setup_first", lobby.Setup(reader), cursor=1)
box.options["first"] = None
snap("setup_random", lobby.Setup(reader), cursor=1)
box.options["setup"] = "seasonal"
box.options["first"] = 0
box.start_game()
snap("board_start", flow.Board(reader))


def turn(name, **args):
    box.move(box.to_act()[0], name, args)


turn("join", club="A")
turn("join", club="B")
turn("promote", club="C")
turn("join", club="C")
turn("join", club="A")
turn("join", club="A")
snap("board", flow.Board(reader))
reader.message = "Nothing to undo"
snap("board_message", flow.Board(reader))
reader.message = ""
# the reader undoes the last turn: "Turn undone" in place of the hints until the game moves on
reader.stack = [flow.Board(reader)]
flow.undo(reader)
reader.top().on_yes()
snap("board_undone")
turn("join", club="A")  # the same turn taken again, from a phone
reader.tick(0)
snap("board_moved_on")
snap("shares", flow.Shares(reader))
snap("shares_page", flow.Shares(reader), page=1)
reader.home()
reader.press("C", "short")  # enter the turn on the box: the legal actions as a list
snap("enter", cursor=2)
snap("enter_page", reader.top(), cursor=5)
reader.home()
snap("menu", screens.in_game_menu(reader), cursor=1)
menu = screens.in_game_menu(reader)
snap("menu_back", menu, cursor=len(menu.items) - 1)  # Back, the fifth item: the list scrolls
for club in ("B", "C", "B", "C"):
    turn("join", club=club)
reader.home()
snap("payout")  # lap 2 ended: Seasonal pays and resets
snap("payout_reset", flow.Payout(reader, 0, 1, news=True), page=1)
snap("confirm_undo", screens.Confirm(reader, "Undo last turn?", None))
# play the game out: each seat takes its first legal action
while not box.state["laps"] >= 6:
    seat = box.to_act()[0]
    m = flow.game.legal_moves(box.state, seat)[seat % 3 % len(flow.game.legal_moves(box.state, seat))]
    box.move(seat, m["move"], m["args"])
snap("final_winner", flow.final(reader), step=0)
snap("final_standings", flow.final(reader), step=1)
reader.stack = [flow.final(reader)]
reader.press("C", "short")
reader.press("C", "short")
snap("again")
reader.press("A", "short")
snap("again_rematch")
# a tie: two leaders share the win
state = box.state
best = max(flow.game.totals(state))
last = state["payouts"][-1]["amounts"]
for i in range(len(last)):
    if flow.game.totals(state)[i] != best and i in (1, 3):
        last[i] += best - flow.game.totals(state)[i]
snap("final_tie", flow.final(reader), step=0)
snap("final_tie_standings", flow.final(reader), step=1)
print(json.dumps(frames))
