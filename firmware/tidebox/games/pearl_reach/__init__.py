# Pearl Reach, the five-bay tide game: importing the package gives the rules only (never the box's
# screens or flow, nor the computer rivals).
from tidebox.games.pearl_reach.rules import *  # noqa: F401,F403
from tidebox.games.pearl_reach.rules import GameError, NotNow  # noqa: F401
