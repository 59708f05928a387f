# Token Tide: importing the package gives the rules only (the box's flow and screens are imported by
# the reader, when this game is chosen). Outside checks rely on TIDE_CARDS and score_round here (both
# come with the `*`).
from tidebox.games.token_tide.rules import *  # noqa: F403
