# What every game's rules share: the refusal every move raises, names, shuffling and ranking.
#
# Pure like the rules themselves (no I/O, no clock, no hardware): runs under CPython and MicroPython.


class GameError(Exception):
    """A move or setup the rules refuse; the message is meant for a person. `status` says why, as
    the web API answers it: 400 the request itself is malformed or illegal, 409 not now (someone
    else's turn, the wrong phase, a stale copy of the game)."""

    status = 400

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NotNow(GameError):
    """Well formed, but not allowed at this moment (HTTP 409)."""

    status = 409


def check_name(name, taken=(), max_name=12):
    """A player's name: 1-max_name printable characters, unique at the table (case-insensitive)."""
    if not isinstance(name, str):
        raise GameError("a name must be text")
    name = name.strip()
    if not name:
        raise GameError("a name needs at least one character")
    if len(name) > max_name:
        raise GameError("a name has at most %d characters" % max_name)
    # Checked on the UTF-8 bytes: control characters are single bytes, and iterating a str's
    # characters would make MicroPython intern every new non-ASCII character for good.
    for byte in name.encode():
        if byte < 32 or byte == 127:
            raise GameError("a name cannot contain control characters")
    for other in taken:
        if other.lower() == name.lower():
            raise GameError("that name is taken at this table", 409)
    return name


def shuffled(items, below):
    """Fisher-Yates shuffle into a new list. `below(n)` returns a uniform int in [0, n)."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def ranked(scores, seats=None):
    """Standings as [[rank, seat, score], ...], best first; tied players share a rank and the next
    rank skips (1, 1, 3). `scores` is a list indexed by seat; `seats` limits who is ranked. Ties
    keep seat order. Each score may be a number or a tuple compared as a whole (e.g. points, then
    a tie-breaker)."""
    if seats is None:
        seats = range(len(scores))
    order = sorted(seats, key=lambda i: (_negated(scores[i]), i))
    rows = []
    for place, seat in enumerate(order):
        rank = place + 1
        if rows and scores[rows[-1][1]] == scores[seat]:
            rank = rows[-1][0]
        rows.append([rank, seat, scores[seat]])
    return rows


def _negated(score):
    if isinstance(score, (tuple, list)):
        return tuple(-s for s in score)
    return -score
