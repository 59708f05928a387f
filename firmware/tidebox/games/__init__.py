# The games the box hosts: one package per game beside this file, each holding
#   rules.py    pure rules: data and functions, no I/O, no clock, no hardware, no global random
#               (the names it must offer: REQUIRED; those it may: OPTIONAL, filled in by `load`)
#   flow.py     the game's screens on the box as screen objects (what A, B and C do)
#   screens.py  drawing those screens on the OLED
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


# The game contract: the names the box reads from a game's rules and flow modules. Every game offers
# REQUIRED (README "Adding a game" says what each is; tests/test_game_contract.py checks every game in
# GAMES); a name of OPTIONAL it leaves out is filled in with the default here when `load` imports the
# module, so the box reads each name directly and never asks whether a game has it.
REQUIRED = {
    "rules": ("GAME_ID", "TITLE", "SHORT", "MIN_PLAYERS", "MAX_PLAYERS", "OPTIONS", "MOVES", "new_game",
              "move", "to_act", "legal_moves", "public_view", "private_view", "is_over", "standings",
              "winners", "leave", "to_dict", "from_dict"),
    "flow": ("home", "progress", "menu_items"),
}
OPTIONAL = {
    # MAX_NAME: a name's most characters; UNDO: the reader may take back the last move; PHONE_OPTIONS:
    # what a phone may choose for a new game at the same table once one is over (none: it may not)
    "rules": (("MAX_NAME", 12), ("UNDO", False), ("PHONE_OPTIONS", ())),
    "flow": (("tick", None),),  # tick(reader, now) -> changed: a game that acts by itself (rivals)
}


def load(game_id, part="rules"):
    """The game's `rules` (or `flow`) module, imported on first use, its optional names filled in."""
    title(game_id)  # only registered games
    name = "tidebox.games.%s.%s" % (game_id, part)
    __import__(name)
    module = sys.modules[name]
    for key, default in OPTIONAL[part]:
        if not hasattr(module, key):
            setattr(module, key, default)
    if part == "rules" and not hasattr(module, "check_name"):  # the name rule: base's, at MAX_NAME
        module.check_name = lambda name, taken=(): base.check_name(name, taken, module.MAX_NAME)
    return module


def unload(game_id, keep_rules=False):
    """Forget a game's modules so their code and data can be collected; with `keep_rules`, all but
    its rules (the box's screens before a game need only them)."""
    prefix = "tidebox.games." + game_id
    forget(prefix, (prefix, prefix + ".rules") if keep_rules else ())
