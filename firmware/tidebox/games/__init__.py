# The games the box hosts: one package per game beside this file, each holding
#   rules.py    pure rules: data and functions, no I/O, no clock, no hardware, no global random
#               (the names every game offers are listed in the README, "Adding a game")
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


def load(game_id, part="rules"):
    """The game's `rules` (or `flow`) module, imported on first use."""
    title(game_id)  # only registered games
    name = "tidebox.games.%s.%s" % (game_id, part)
    __import__(name)
    return sys.modules[name]


def unload(game_id, keep_rules=False):
    """Forget a game's modules so their code and data can be collected; with `keep_rules`, all but
    its rules (the box's screens before a game need only them)."""
    prefix = "tidebox.games." + game_id
    forget(prefix, (prefix, prefix + ".rules") if keep_rules else ())
