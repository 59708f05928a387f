# The Quiet Dividend: importing the package gives the pure rules only (never the box's flow or
# screens), including the outside checks' contract: SETUPS and replay(setup_id, players, first, turns).
from tidebox.games.quiet_dividend.rules import *  # noqa: F401,F403
from tidebox.games.quiet_dividend.rules import (  # noqa: F401
    CLUBS, GAME_ID, LAPS, MAX_PLAYERS, MIN_PLAYERS, MOVES, OPTIONS, SETUPS, GameError, NotNow,
    ReplayError, from_dict, is_over, leave, legal_moves, move, new_game, private_view,
    public_view, rematch, replay, standings, to_act, to_dict, winners,
)
