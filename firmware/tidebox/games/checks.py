# The checks a game's rules make only when a game is set up (new_game) or read back from its save
# (from_dict): imported inside those functions, and let go of by the box after the call
# (memory.LET_GO), so a game being played holds none of their code.
from tidebox.errors import GameError
from tidebox.games.base import check_name


def check_players(names, title, low, high, max_name=12, wrong=None):
    """A new game's players: a list of `low` to `high` names, each passing check_name at `max_name`
    (the game's MAX_NAME; unique at the table); returns them as check_name gives them back. `wrong`:
    the one refusal for too few or too many (by default "<title> needs at least <low> players" and
    "<title> seats at most <high> players")."""
    if not isinstance(names, (list, tuple)):
        raise GameError("players must be a list of names")
    if len(names) < low:
        raise GameError(wrong or "%s needs at least %d players" % (title, low))
    if len(names) > high:
        raise GameError(wrong or "%s seats at most %d players" % (title, high))
    clean = []
    for n in names:
        clean.append(check_name(n, clean, max_name))
    return clean


def check_save(data, game_id, short, keys, low, high, wrong="saved game has a wrong number of players"):
    """What every game's from_dict checks first: `data` is a dict saved by this game, holds every one
    of `keys`, and its "names" are a list of `low` to `high` (else the refusal `wrong`). Returns how
    many names."""
    if not isinstance(data, dict) or data.get("game") != game_id:
        raise GameError("not a %s game" % short)
    for k in keys:
        if k not in data:
            raise GameError("saved game is missing " + k)
    names = data["names"]
    if not isinstance(names, list) or not low <= len(names) <= high:
        raise GameError(wrong)
    return len(names)


def damaged(what):
    """The refusal for a save that does not read as this game's: raise damaged("course")."""
    return GameError("saved game has a damaged " + what)


def ints(value, count, low, high):
    """A list of `count` whole numbers, each from low to high."""
    return isinstance(value, list) and len(value) == count and all(
        type(v) is int and low <= v <= high for v in value)
