# The games the box hosts: one package per game beside this file, each holding
#   rules.py    pure rules: data and functions, no I/O, no clock, no hardware, no global random
#               (the names it must offer and those it may: CONTRACT below)
#   flow.py     the game's screens on the box as screen objects (what A, B and C do)
#   drawing.py  drawing those screens on the OLED (functions; flow.py holds the screen classes)
#   page.js     its part of the phones' page
# Importing a game's package imports its rules only; the reader imports the flow when the game
# starts (and forgets it again before the next), and choosing another game unloads the previous
# one's modules (heap is the product).
#
# Adding a game: write its package, then add one line here.
import sys

from tidebox import forget
from tidebox.games import base

GAMES = (
    ("token_tide", "Token Tide"),
    ("quiet_dividend", "Quiet Dividend"),
    ("paper_current", "Paper Current"),
    ("pearl_reach", "Pearl Reach"),
)


def title(game_id):
    for known, name in GAMES:
        if known == game_id:
            return name
    raise ValueError("unknown game")


# The game contract, stated once: the names the box reads from a game's `rules` and `flow` modules,
# each part as (required, optional). Every game offers the required ones (README.md beside this says
# what each is; tests/test_game_contract.py checks every game in GAMES). A game may leave out the
# optional ones: `load` fills in the default, so the box reads each name directly and never asks
# whether a game has it:
#   MAX_NAME       a name's most characters
#   check_name     check_name(name, taken, max_name): the name rule, which the box calls with MAX_NAME
#   UNDO           whether the reader may take back the last move
#   PHONE_OPTIONS  what a phone may choose for a new game at the same table once one is over (none:
#                  a phone may not start one)
#   VIEW_ROOM      bytes: the shared part of the phones' view at its largest (its largest table, the
#                  longest names), which the box makes room for when the game starts
#                  (viewjson.JsonOut.reserve; tests/test_game_contract.py checks it against the
#                  views of the worst-case walk); 512 is viewjson.ROOM, the room made at boot
#   tick           the flow's tick(reader, now) -> changed, for a game that acts by itself (rivals)
#   acting         the flow's acting(reader) -> whether the game may act by itself before the box
#                  changes (a rival to act): without it, a game with a tick always may, and the
#                  panel loop never rests while it is played (running.py, resting.at_rest)
#   kept           the flow's screens' shared state that the panel keeps between screens (None: none)
# and what a game's part of the page (page.js) registers in Tidebox.games, for the phones and the
# table screen (the box only serves the part; tests/test_game_contract.py reads this):
#   lobby          lobby(): forget what the part kept for a game that is over
#   table          table(view, root): the game on the table screen (/table), from the view of a phone
#                  that has not joined; without it the table screen shows the names and the panel
CONTRACT = {
    "rules": (("GAME_ID", "TITLE", "SHORT", "MIN_PLAYERS", "MAX_PLAYERS", "OPTIONS", "MOVES", "new_game",
               "move", "to_act", "legal_moves", "public_view", "private_view", "is_over", "standings",
               "winners", "leave", "to_dict", "from_dict"),
              (("MAX_NAME", 12), ("check_name", base.check_name), ("UNDO", False), ("PHONE_OPTIONS", ()),
               ("VIEW_ROOM", 512))),
    "flow": (("home", "progress", "menu_items"),
             (("tick", None), ("acting", None), ("kept", None))),
    "page": (("title", "render", "how"), (("lobby", None), ("table", None))),
}


def load(game_id, part="rules"):
    """The game's `rules` (or `flow`) module, imported on first use, its optional names filled in."""
    title(game_id)  # only registered games
    name = "tidebox.games.%s.%s" % (game_id, part)
    __import__(name)
    module = sys.modules[name]
    for key, default in CONTRACT[part][1]:
        if not hasattr(module, key):
            setattr(module, key, default)
    return module


def unload(game_id, keep_rules=False):
    """Forget a game's modules so their code and data can be collected; with `keep_rules`, all but
    its rules (the box's screens before a game need only them)."""
    prefix = "tidebox.games." + game_id
    forget(prefix, (prefix, prefix + ".rules") if keep_rules else ())
