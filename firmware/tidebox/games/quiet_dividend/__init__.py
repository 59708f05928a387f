# The Quiet Dividend: importing the package gives the pure rules only (never the box's flow or
# screens), including the outside checks' contract: SETUPS and replay(setup_id, players, first, turns),
# with CLUBS, LAPS, ReplayError and the names every game offers (all come with the `*`).
from tidebox.games.quiet_dividend.rules import *  # noqa: F401,F403
