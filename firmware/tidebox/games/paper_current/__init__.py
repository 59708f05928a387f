# Paper Current: importing the package gives the rules only (the box's flow and screens are imported
# by the reader, when this game is chosen). Outside checks rely on COURSE_CARDS, bonus, round_score
# and launcher here (all come with the `*`).
from tidebox.games.paper_current.rules import *  # noqa: F403
