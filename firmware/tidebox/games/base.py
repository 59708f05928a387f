# The game contract's shared part: the refusals (tidebox/errors.py, here for the rules), the checks
# every game's rules make while a game is played (seats), names, shuffling and ranking; those made
# only when a game is set up or read back from its save are checks.py's, loaded for the call. What a
# game may leave out is in games.CONTRACT (tidebox/games/__init__.py), which `load` fills in.
#
# Pure like the rules themselves (no I/O, no clock, no hardware): runs under CPython and MicroPython.


from tidebox.errors import GameError, NotNow  # noqa: F401 - the rules' refusals, as _base.GameError


def is_int(value, low, high):
    """A whole number from low to high (True and False are not: bool is an int subclass, not a count)."""
    return type(value) is int and low <= value <= high


def check_name(name, taken=(), max_name=12):
    """A player's name: 1-max_name printable characters, unique at the table (case-insensitive)."""
    if not isinstance(name, str):
        raise GameError("a name must be text")
    name = name.strip()
    if not name:
        raise GameError("a name needs at least one character")
    if len(name) > max_name:
        raise GameError("a name has at most %d characters" % max_name)
    # Checked on the UTF-8 bytes (iterating a str's characters would make MicroPython intern every
    # new non-ASCII character for good): C0 controls and DEL are single bytes; the C1 controls
    # U+0080-U+009F are the two bytes C2 80 to C2 9F.
    raw = name.encode()
    for i in range(len(raw)):
        byte = raw[i]
        if byte < 32 or byte == 127 or (byte == 0xC2 and i + 1 < len(raw) and 0x80 <= raw[i + 1] <= 0x9F):
            raise GameError("a name cannot contain control characters")
    key = folded(name)
    for other in taken:
        if folded(other) == key:
            raise GameError("that name is taken at this table", 409)
    return name


def check_seat(state, seat, seated=True):
    """Refuses a seat that is not one of the game's (400); with `seated`, one whose player has left
    (state["seated"], 409)."""
    if type(seat) is not int or not 0 <= seat < len(state["names"]):
        raise GameError("unknown player")
    if seated and not state["seated"][seat]:
        raise NotNow("that player has left the game")


def check_leaving(state, seat, at_least):
    """Refuses dropping a seat that is not one of the game's, whose player has already left, or
    whose leaving would seat fewer than `at_least` players: the table ends the game instead."""
    check_seat(state, seat, False)
    if not state["seated"][seat]:
        raise NotNow("%s has already left" % state["names"][seat])
    if sum(1 for s in state["seated"] if s) <= at_least:
        raise NotNow("a game needs at least %d seated players: end the game instead" % at_least)


def next_seated(state, seat):
    """The next seat clockwise after `seat` whose player is still seated (`seat` itself if none)."""
    count = len(state["names"])
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if state["seated"][candidate]:
            return candidate
    return seat


# ---------------------------------------------------------------- names compared ignoring case


def _lower(cp):
    """The lower case of a two-byte UTF-8 code point (U+0080-U+07FF) where it has one: Latin-1
    Supplement, Latin Extended-A, Greek and Cyrillic; else the code point itself."""
    if 0xC0 <= cp <= 0xDE:
        return cp if cp == 0xD7 else cp + 32  # not the multiplication sign
    if 0x100 <= cp <= 0x17F:
        if cp == 0x178:
            return 0xFF  # Y with diaeresis
        if cp in (0x130, 0x131, 0x138, 0x149, 0x17F):
            return cp  # dotted capital I, dotless i, kra, n preceded by apostrophe, long s
        if 0x139 <= cp <= 0x148 or 0x179 <= cp <= 0x17E:
            return cp + 1 if cp & 1 else cp  # capital odd, small even
        return cp if cp & 1 else cp + 1  # capital even, small odd
    if 0x391 <= cp <= 0x3AB:
        return cp if cp == 0x3A2 else cp + 32  # Alpha-Omega, Iota and Upsilon with dialytika
    if cp == 0x386:
        return 0x3AC
    if 0x388 <= cp <= 0x38A:
        return cp + 37
    if cp == 0x38C:
        return 0x3CC
    if cp in (0x38E, 0x38F):
        return cp + 63
    if cp == 0x3C2:
        return 0x3C3  # final sigma compares as sigma
    if 0x410 <= cp <= 0x42F:
        return cp + 32
    if 0x400 <= cp <= 0x40F:
        return cp + 80
    return cp


def folded(name):
    """A name's UTF-8 bytes with upper case folded to lower case, to compare names ignoring case:
    ASCII, Latin-1 Supplement, Latin Extended-A, Greek and Cyrillic. MicroPython's str.lower()
    changes ASCII letters only, so this works on the bytes by code point arithmetic (every letter
    folded here stays the same length in UTF-8)."""
    raw = name.encode()
    out = bytearray(raw)
    i = 0
    count = len(raw)
    while i < count:
        byte = raw[i]
        if byte < 0x80:
            if 65 <= byte <= 90:
                out[i] = byte + 32
            i += 1
        elif 0xC2 <= byte < 0xE0 and i + 1 < count:
            cp = ((byte & 0x1F) << 6) | (raw[i + 1] & 0x3F)
            low = _lower(cp)
            if low != cp:
                out[i] = 0xC0 | (low >> 6)
                out[i + 1] = 0x80 | (low & 0x3F)
            i += 2
        else:
            i += 1
    return bytes(out)


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
