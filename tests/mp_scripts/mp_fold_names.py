# Names compared ignoring case by the games' rules (base.folded), run under MicroPython by the host
# tests: MicroPython's str.lower() changes ASCII letters only.
from tidebox.games.base import GameError
from tidebox.games.pearl_reach import rules as pr
from tidebox.games.quiet_dividend import rules as qd


def qd_rename(first, second):
    """Club A renamed `first`, then club B `second`: "ok" or why the second was refused."""
    state = qd.new_game(["Pat", "Mo"], {"setup": "steady", "first": 0})
    qd.move(state, None, "rename", {"club": "A", "name": first})
    try:
        qd.move(state, None, "rename", {"club": "B", "name": second})
    except GameError as e:
        return e.message
    return "ok"


def pr_names(names, rivals):
    """The gatherers' names of a new Pearl Reach game: the people's, then the rivals'."""
    return pr.new_game(names, {"rivals": rivals, "first": 0}, lambda n: 0)["names"]
