# Coin Call: importing the package gives the rules only (the box's flow and screens are imported by
# the reader, when this game is chosen).
from tidebox.games.coin_call.rules import *  # noqa: F403
