# Pearl Reach (the five-bay tide game): the rules as plain data and pure functions.
#
# No I/O, no clock, no hardware, no global random: the same module runs under CPython (host tests)
# and MicroPython (the box). A game is a JSON-able dict; every move validates first and only then
# changes the dict, so a refused move leaves the state exactly as it was.
#
# The coast: five bays side by side, each a column of ROWS cells. Row 0 of a bay is the cell at the
# water's edge, row ROWS-1 the one highest up the shore. A cell is the int bay * ROWS + row.
# Neighbours ("up, down, or across to the next bay"): the cells above and below in the same bay, and
# the cell in the same row of the bay to the left and to the right. "The marker nearest the water"
# in a bay is the one in its lowest occupied row (one cell holds one marker, so it is never a tie).

from tidebox.games import base as _base  # the checks every game's rules make
from tidebox.games.base import GameError, NotNow, folded
from tidebox.games.base import ranked, shuffled

# What importing the package gives (the names every game offers, tidebox/games/README.md): a short
# list keeps the package's own namespace small on the box.
__all__ = (
    "GAME_ID", "TITLE", "SHORT", "MIN_PLAYERS", "MAX_PLAYERS", "MAX_NAME", "GameError",
    "NotNow", "OPTIONS", "new_game", "MOVES", "move", "to_act", "legal_moves", "public_view",
    "private_view", "is_over", "standings", "winners", "leave", "to_dict", "from_dict",
)

GAME_ID = "pearl_reach"
TITLE = "Pearl Reach"
SHORT = "Pearl Reach"
MIN_PLAYERS = 1  # people at the table (the box counts these): rivals fill the other seats
MIN_GATHERERS = 2  # people and rivals together
MAX_PLAYERS = 4
MAX_PEOPLE = 4
MAX_NAME = 12
VIEW_ROOM = 2048  # the phones' shared view at its largest: 1762 bytes on the worst-case walk

# ---------------------------------------------------------------- this edition's numbers

BAYS = 5
ROWS = 5  # cells per bay
CELLS = BAYS * ROWS
PEARLS = (3, 4, 4, 5, 5)  # dealt to the five bays in a random order at the start of each game
TIDE_VALUES = (1, 2, 4)  # what a pearl is worth at the first, second and third tide
TURNS = {2: 4, 3: 3, 4: 3}  # turns each gatherer takes before every tide, by number of gatherers
START_SHELLS = 3
TIDE_SHELLS = 2  # everybody, after each of the first two tides
BEHIND_SHELLS = 2  # on top, for whoever has gathered the fewest points then
MAX_SHIFTS = 2  # a game
SHIFT_COST = 1
LAND_COST = 1

RIVAL_NAMES = ("Gull", "Heron", "Crab", "Tern", "Otter", "Skua", "Plover")
STRENGTHS = ("sharp", "easy")
RECENT = 8  # the box's "what happened" shows this many entries of the log

PHASE_PLAY = "play"
PHASE_OVER = "over"

OPTIONS = (
    ("rivals", "Rivals", ((1, "1 rival"), (0, "no rivals"), (2, "2 rivals"), (3, "3 rivals"))),
    ("strength", "Rivals play", (("sharp", "sharp"), ("easy", "easy"))),
    ("speed", "Rival speed", ((2, "2 s a move"), (1, "1 s a move"), (4, "4 s a move"))),
    ("first", "First to set out", "seat_or_random"),
)

MOVES = ("shift", "place")
# What a phone may choose for a new game at the same table once this one is over (the box's
# "new_game" move, tidebox/box.py): how long the rivals visibly take, so people can follow them.
PHONE_OPTIONS = ("speed",)

# The log keeps one small int per entry (on MicroPython a small int costs no heap; a sentence would):
# its kind in the low 4 bits, then up to five 5-bit fields, field i = entry >> (4 + 5 * i) & 31.
#   kind                fields
FIRST = 0  # seat               sets out first
LANDED = 1  # seat, cell, cost  (cost 0 or 1 shell)
SHIFTED = 2  # seat, from, to
BROKE = 3  # seat               has no shell, every empty cell costs one: waits
FULL = 4  # seat                the coast is full: waits
CARRIED = 5  # seat, cell       the tide carried a marker out of a bay
SHELLS = 6  # seats             shells after a tide: a bit per seat behind (1 << seat)
HAUL = 7  # seat, seats         the biggest haul sets out first; seats: those tied on it (0: no tie)
END = 8  # seats                the winners (a bit per seat)
LEFT = 9  # seat                left; a rival gathers for the seat
TIDE = 10  # 10, 11, 12: the first, second, third tide; a field per bay: its leaders (a bit per seat)
# entry_text(state, entry) says an entry in words with these templates (each %s filled in order);
# page.js holds the same table and says every entry the same way
# (tests/games/pearl_reach/test_browser_pearl_reach.py).
SAYS = (
    "%s sets out first.",
    "%s landed in %s%s.",
    "%s shifted a marker from %s to %s (1 shell).",
    "%s has no shell and every empty cell costs one: %s waits.",
    "The coast is full: %s waits.",
    "The tide carried %s's marker out of %s.",
    "Everybody gets 2 shells; %s, with the fewest points, %s 2 more.",
    "%s has the biggest haul and sets out first.",
    "The third tide ends the game: %s %s.",
    "%s left; a rival gathers for that seat now.",
    "Tide %s (a pearl is worth %s): %s.",  # TIDE: the bays' words below, joined by "; "
    "bay %s was empty",
    "bay %s paid %s %s",
    "bay %s split %s each between %s",
    "bay %s row %s",  # a cell
    " (1 shell)",
    " and ",
    "gets", "get", "wins", "share the win",
    "%s tie for the biggest haul; %s, the latest of them in the last round, sets out first.",  # HAUL, tied
)



# ---------------------------------------------------------------- the coast


def cell_of(bay, row):
    return bay * ROWS + row


def bay_of(cell):
    return cell // ROWS


def row_of(cell):
    return cell % ROWS


def neighbours(cell):
    """The cells next to `cell`: down, up, and across to the same row of the bay left and right."""
    row = cell % ROWS
    out = []
    if row > 0:
        out.append(cell - 1)
    if row < ROWS - 1:
        out.append(cell + 1)
    if cell >= ROWS:
        out.append(cell - ROWS)
    if cell < CELLS - ROWS:
        out.append(cell + ROWS)
    return out


def cell_name(cell):
    """A cell in words: bay 1-5 from the left, row 1 at the water's edge."""
    return SAYS[14] % (cell // ROWS + 1, cell % ROWS + 1)


def bay_award(pearls, tide_value, markers):
    """One bay at one tide: `markers` lists each gatherer's marker count there. The sole leader takes
    pearls x value; tied leaders each take that divided by their number, rounded down; an empty bay
    pays nobody. Returns each gatherer's points from the bay."""
    best = 0
    for m in markers:
        if m > best:
            best = m
    awards = [0] * len(markers)
    if best == 0:
        return awards
    leaders = [i for i, m in enumerate(markers) if m == best]
    share = pearls * tide_value // len(leaders)
    for i in leaders:
        awards[i] = share
    return awards


def counts(state, bay):
    """Each gatherer's markers in one bay."""
    tally = [0] * len(state["names"])
    cells = state["cells"]
    for c in range(bay * ROWS, bay * ROWS + ROWS):
        owner = cells[c]
        if owner is not None:
            tally[owner] += 1
    return tally


def nearest_water(state, bay):
    """The cell of the marker nearest the water in a bay, or None when the bay is empty."""
    cells = state["cells"]
    for c in range(bay * ROWS, bay * ROWS + ROWS):
        if cells[c] is not None:
            return c
    return None


def _other(cells, seat, c):
    return cells[c] is not None and cells[c] != seat


def land_cost(state, seat, cell):
    """What landing on `cell` costs `seat`: a shell when a rival's marker is a neighbour."""
    cells = state["cells"]
    row = cell % ROWS
    if ((row and _other(cells, seat, cell - 1)) or (row < ROWS - 1 and _other(cells, seat, cell + 1))
            or (cell >= ROWS and _other(cells, seat, cell - ROWS))
            or (cell < CELLS - ROWS and _other(cells, seat, cell + ROWS))):
        return LAND_COST
    return 0


def _can_place(state, seat, shells):
    cells = state["cells"]
    for c in range(CELLS):
        if cells[c] is None and (shells >= LAND_COST or land_cost(state, seat, c) == 0):
            return True
    return False


def _shift_refusal(state, seat, frm, to):
    """Why a shift is not allowed (None when it is). Assumes it is seat's turn, before placing."""
    if state["shifted"]:
        return NotNow("you have already shifted this turn: now place a marker")
    if state["shifts"][seat] >= MAX_SHIFTS:
        return GameError("you have used both of your shifts this game")
    if state["shells"][seat] < SHIFT_COST:
        return GameError("a shift costs a shell and you have none")
    cells = state["cells"]
    if cells[frm] != seat:
        return GameError("you can only shift one of your own markers")
    if to not in neighbours(frm):
        return GameError("a shift moves a marker one cell: up, down or across to the next bay")
    if cells[to] is not None:
        return GameError(_TAKEN)
    # After the shift the turn must still end with a placement the gatherer can afford.
    cells[to], cells[frm] = seat, None
    ok = _can_place(state, seat, state["shells"][seat] - SHIFT_COST)
    cells[frm], cells[to] = seat, None
    if not ok:
        return GameError("after that shift you could not afford any empty cell")
    return None


_TAKEN = "that cell is taken"

# ---------------------------------------------------------------- setting out



def _option(options, key):
    for k, _label, choices in OPTIONS:
        if k != key:
            continue
        if choices == "seat_or_random":
            return options.get(key, None)
        if key not in options:
            return choices[0][0]
        value = options[key]
        for v, _ in choices:
            if v == value and type(v) is type(value):
                return value
        raise GameError("unknown choice for " + key)
    raise GameError("unknown option " + key)


def new_game(names, options, below):
    """A new game for 1-4 people (named, in seat order) and the chosen number of computer rivals in
    the seats after them. `below(n)` deals the pearls (and picks the first gatherer when random)."""
    if not isinstance(names, (list, tuple)):
        raise GameError("players must be a list of names")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("options must be a dict")
    for key in options:
        if key not in [o[0] for o in OPTIONS]:
            raise GameError("unknown option " + str(key))
    from tidebox.games import checks  # let go of after the call (box.checked)

    clean = checks.check_players(names, TITLE, 1, MAX_PEOPLE, MAX_NAME, "Pearl Reach needs 1 to 4 people")
    rivals = _option(options, "rivals")
    strength = _option(options, "strength")
    speed = _option(options, "speed")
    total = len(clean) + rivals
    if total < MIN_GATHERERS:
        raise GameError("Pearl Reach needs at least 2 gatherers: add a rival")
    if total > MAX_PLAYERS:
        raise GameError("Pearl Reach has room for 4 gatherers: fewer rivals")
    for name in RIVAL_NAMES:
        if len(clean) == total:
            break
        taken = False
        for other in clean:
            if folded(other) == folded(name):
                taken = True
        if not taken:
            clean.append(name)
    first = _option(options, "first")
    if first is None:
        first = below(total)
    elif type(first) is not int or not 0 <= first < total:
        raise GameError("the first gatherer must be one of the seats")
    pearls = shuffled(PEARLS, below)
    order = [(first + i) % total for i in range(total)]
    state = {
        "game": GAME_ID,
        "names": clean,
        "rivals": [None] * (total - rivals) + [strength] * rivals,
        "speed": speed,
        "pearls": pearls,
        "tides": list(TIDE_VALUES),
        "per_round": TURNS[total],  # turns each gatherer takes before every tide
        "tide": 0,  # the next tide (0, 1, 2); 3 once the game is over
        "cells": [None] * CELLS,  # the seat whose marker is there, or None
        "shells": [START_SHELLS] * total,
        "points": [0] * total,
        "shifts": [0] * total,  # shifts used this game
        "order": order,  # this round's turn order
        "turn": 0,  # turns taken since the last tide
        "shifted": False,  # whether the gatherer to act has shifted this turn
        "moves": 0,  # turns taken in the whole game
        "phase": PHASE_PLAY,
        "log": [],  # what happened, also the record of the tides (see tide_awards)
    }
    _log(state, FIRST, first)
    _settle(state)
    return state


def _log(state, kind, *fields):
    entry = kind
    shift = 4
    for f in fields:
        entry |= f << shift
        shift += 5
    state["log"].append(entry)


# ---------------------------------------------------------------- turns and tides


def current(state):
    """The seat whose turn it is, or None once the game is over."""
    if state["phase"] != PHASE_PLAY:
        return None
    return state["order"][state["turn"] % len(state["order"])]


def turns_until_tide(state):
    if state["phase"] != PHASE_PLAY:
        return 0
    return state["per_round"] * len(state["order"]) - state["turn"]


def _settle(state, ended=False):
    # After a turn (`ended`) the next; whoever cannot afford any empty cell (or finds the coast full)
    # waits, and the turn still counts. The tide comes after everybody's turns.
    while True:
        if ended:
            state["turn"] += 1
            state["moves"] += 1
            state["shifted"] = False
            if state["turn"] >= state["per_round"] * len(state["order"]):
                _tide(state)
        seat = current(state)
        if seat is None or _can_place(state, seat, state["shells"][seat]):
            return
        _log(state, BROKE if None in state["cells"] else FULL, seat)
        ended = True


def _tide(state):
    k = state["tide"]
    n = len(state["names"])
    lead = []
    for bay in range(BAYS):
        tally = counts(state, bay)
        award = bay_award(state["pearls"][bay], state["tides"][k], tally)
        lead.append(_bits(i for i in range(n) if tally[i] and tally[i] == max(tally)))
        for i in range(n):
            state["points"][i] += award[i]
    _log(state, TIDE + k, *lead)  # the tide's record: tide_awards reads it back
    for bay in range(BAYS):
        cell = nearest_water(state, bay)
        if cell is not None:
            _log(state, CARRIED, state["cells"][cell], cell)
            state["cells"][cell] = None
    if k < len(state["tides"]) - 1:
        fewest = min(state["points"])
        for i in range(n):
            state["shells"][i] += TIDE_SHELLS + (BEHIND_SHELLS if state["points"][i] == fewest else 0)
        _log(state, SHELLS, _bits(i for i in range(n) if state["points"][i] == fewest))
    old = state["order"]
    # Most points first; tied gatherers: whoever went later in the last round goes earlier now.
    order = sorted(old, key=lambda s: (-state["points"][s], -old.index(s)))
    state["tide"] = k + 1
    state["turn"] = 0
    state["shifted"] = False
    state["order"] = order
    if state["tide"] >= len(state["tides"]):
        state["phase"] = PHASE_OVER
        _log(state, END, _bits(winners(state)))
    else:
        top = state["points"][order[0]]
        tied = _bits(i for i in range(n) if state["points"][i] == top)
        _log(state, HAUL, order[0], tied if tied & (tied - 1) else 0)


def _bits(seats):
    mask = 0
    for i in seats:
        mask |= 1 << i
    return mask


# ---------------------------------------------------------------- moves


def _check_cell(args, key):
    if key not in args:
        raise GameError("say which cell: " + key)
    cell = args[key]
    if type(cell) is not int or not 0 <= cell < CELLS:
        raise GameError("there is no such cell")
    return cell


def move(state, seat, name, args):
    """Applies one move by `seat`: "shift" {"from": cell, "to": cell} or "place" {"cell": cell}."""
    if name not in MOVES:
        raise GameError("unknown move")
    if not isinstance(args, dict):
        raise GameError("a move's details must be a dict")
    if state["phase"] != PHASE_PLAY:
        raise NotNow("the game is over")
    if seat is None:
        raise NotNow("the box makes no moves in Pearl Reach")
    _base.check_seat(state, seat, False)
    if seat != current(state):
        raise NotNow("it is %s's turn" % state["names"][current(state)])
    if name == "shift":
        frm = _check_cell(args, "from")
        to = _check_cell(args, "to")
        refusal = _shift_refusal(state, seat, frm, to)
        if refusal is not None:
            raise refusal
        state["cells"][frm] = None
        state["cells"][to] = seat
        state["shells"][seat] -= SHIFT_COST
        state["shifts"][seat] += 1
        state["shifted"] = True
        _log(state, SHIFTED, seat, frm, to)
        return state
    cell = _check_cell(args, "cell")
    if state["cells"][cell] is not None:
        raise GameError(_TAKEN)
    cost = land_cost(state, seat, cell)
    if cost > state["shells"][seat]:
        raise GameError("landing next to a rival costs a shell and you have none")
    state["cells"][cell] = seat
    state["shells"][seat] -= cost
    _log(state, LANDED, seat, cell, cost)
    _settle(state, True)
    return state


def to_act(state):
    seat = current(state)
    return [] if seat is None else [seat]


def placements(state, seat):
    """[(cell, cost), ...] every empty cell `seat` can afford now."""
    shells = state["shells"][seat]
    cells = state["cells"]
    out = []
    for c in range(CELLS):
        if cells[c] is None:
            cost = land_cost(state, seat, c)
            if cost <= shells:
                out.append((c, cost))
    return out


def shifts(state, seat):
    """[(from, to), ...] every shift `seat` may make now."""
    if current(state) != seat or state["shifted"] or state["shifts"][seat] >= MAX_SHIFTS:
        return []
    if state["shells"][seat] < SHIFT_COST:
        return []
    cells = state["cells"]
    out = []
    for c in range(CELLS):
        if cells[c] == seat:
            for n in neighbours(c):
                if cells[n] is None and _shift_refusal(state, seat, c, n) is None:
                    out.append((c, n))
    return out


def legal_moves(state, seat):
    if seat is None or current(state) != seat:
        return []
    out = []
    for frm, to in shifts(state, seat):
        out.append({"move": "shift", "args": {"from": frm, "to": to},
                    "label": "Shift %s to %s%s" % (cell_name(frm), cell_name(to), SAYS[15])})
    for cell, cost in placements(state, seat):
        out.append({"move": "place", "args": {"cell": cell}, "cost": cost,
                    "label": "Place in %s%s" % (cell_name(cell), SAYS[15] if cost else "")})
    return out


def leave(state, seat):
    """A person dropped by the reader: a sharp rival takes over their seat, markers and shells."""
    _base.check_seat(state, seat, False)
    if state["phase"] != PHASE_PLAY:
        raise NotNow("the game is over")
    if state["rivals"][seat] is not None:
        raise GameError("that seat is already a computer rival")
    state["rivals"][seat] = STRENGTHS[0]
    _log(state, LEFT, seat)
    return state


# ---------------------------------------------------------------- the end


def is_over(state):
    return state["phase"] == PHASE_OVER


def standings(state):
    scores = [(state["points"][i], state["shells"][i]) for i in range(len(state["names"]))]
    return ranked(scores)


def winners(state):
    if state["phase"] != PHASE_OVER:
        return []
    return [row[1] for row in standings(state) if row[0] == 1]


# ---------------------------------------------------------------- views and saving


def _share(state, k, bay, mask):
    """What each leader of a bay (a bit per seat in `mask`) took at tide k (0-2)."""
    count = 0
    for i in range(len(state["names"])):
        count += mask >> i & 1
    return state["pearls"][bay] * state["tides"][k] // count if count else 0


def tide_awards(state, k):
    """What every bay paid each gatherer at tide k (0-2), read from the log; None before that tide."""
    n = len(state["names"])
    for e in state["log"]:
        if e & 15 == TIDE + k:
            out = []
            for bay in range(BAYS):
                mask = e >> 4 + 5 * bay & 31
                share = _share(state, k, bay, mask)
                out.append([share if mask >> i & 1 else 0 for i in range(n)])
            return out
    return None


def _who(names, mask):
    return SAYS[16].join([names[i] for i in range(len(names)) if mask >> i & 1])


def entry_text(state, entry):
    """One log entry in words, e.g. "Ada landed in bay 4 row 5 (1 shell).": the box's news screen
    (page.js says the same from the same templates)."""
    kind = entry & 15
    f = [entry >> s & 31 for s in (4, 9, 14, 19, 24)]
    names = state["names"]
    who = names[f[0]] if f[0] < len(names) else ""
    if kind >= TIDE:
        k = kind - TIDE
        words = []
        for bay in range(BAYS):
            mask = f[bay]
            share = _share(state, k, bay, mask)
            if not mask:
                words.append(SAYS[11] % (bay + 1))
            elif mask & (mask - 1) == 0:  # one leader
                words.append(SAYS[12] % (bay + 1, _who(names, mask), share))
            else:
                words.append(SAYS[13] % (bay + 1, share, _who(names, mask)))
        return SAYS[TIDE] % (k + 1, state["tides"][k], "; ".join(words))
    if kind == LANDED:
        args = (who, cell_name(f[1]), SAYS[15] if f[2] else "")
    elif kind == SHIFTED:
        args = (who, cell_name(f[1]), cell_name(f[2]))
    elif kind == BROKE:
        args = (who, who)
    elif kind == CARRIED:
        args = (who, cell_name(f[1]))
    elif kind == SHELLS:
        args = (_who(names, f[0]), SAYS[17] if f[0] & (f[0] - 1) == 0 else SAYS[18])
    elif kind == END:
        args = (_who(names, f[0]), SAYS[19] if f[0] & (f[0] - 1) == 0 else SAYS[20])
    elif kind == HAUL and f[1]:
        return SAYS[21] % (_who(names, f[1]), who)
    else:
        args = (who,)
    return SAYS[kind] % args


def public_view(state):
    names = state["names"]
    n = len(names)
    bays = []
    for bay in range(BAYS):
        tally = counts(state, bay)
        best = max(tally)
        bays.append({
            "pearls": state["pearls"][bay],
            "cells": state["cells"][bay * ROWS:bay * ROWS + ROWS],  # row 1 (the water's edge) first
            "count": tally,
            "lead": [i for i in range(n) if best and tally[i] == best],
        })
    tides = []
    for k in range(len(state["tides"])):
        paid = tide_awards(state, k) if k < state["tide"] else None
        tides.append({"value": state["tides"][k], "done": k < state["tide"],  # paid: each gatherer's total
                      "paid": [sum(a[i] for a in paid) for i in range(n)] if paid else None})
    return {
        "game": GAME_ID,
        "phase": state["phase"],
        "names": names,
        "rivals": state["rivals"],
        "speed": state["speed"],
        "rows": ROWS,
        "strip": {"tides": tides, "next": state["tide"], "turns_left": turns_until_tide(state)},
        "bays": bays,
        "shells": state["shells"],
        "points": state["points"],
        "shifts_left": [MAX_SHIFTS - state["shifts"][i] for i in range(n)],
        "order": state["order"],
        "to_act": to_act(state),
        "shifted": state["shifted"],
        "log": state["log"],  # the codes above: the page says them in words
        "standings": standings(state),
        "winners": winners(state),
    }


def private_view(state, seat):
    """Nothing is secret in Pearl Reach; a seat's extra is what each empty cell would cost it."""
    if type(seat) is not int or not 0 <= seat < len(state["names"]):
        return {}
    costs = [None if state["cells"][c] is not None else land_cost(state, seat, c) for c in range(CELLS)]
    return {"you": seat, "costs": costs, "can_shift": bool(shifts(state, seat))}


_KEYS = (
    "game", "names", "rivals", "speed", "pearls", "tides", "per_round", "tide", "cells", "shells",
    "points", "shifts", "order", "turn", "shifted", "moves", "phase", "log",
)
# The fields each kind of log entry uses (FIRST ... LEFT, then the three tides).
_FIELDS = b"\x01\x03\x03\x01\x01\x02\x01\x02\x01\x01\x05\x05\x05"


def to_dict(state):
    return {k: state[k] for k in _KEYS}


def _entry_ok(entry, n):
    if type(entry) is not int or not 0 <= entry < 1 << 29 or entry & 15 >= len(_FIELDS):
        return False
    kind = entry & 15
    if entry >> 4 + 5 * _FIELDS[kind]:
        return False  # a field the kind does not use
    f = [entry >> s & 31 for s in (4, 9, 14, 19, 24)]
    if kind >= TIDE:
        return max(f) < 1 << n
    if kind in (SHELLS, END):
        return 0 < f[0] < 1 << n
    if kind == HAUL:
        return f[0] < n and f[1] < 1 << n
    return f[0] < n and f[1] < CELLS and f[2] < (2 if kind == LANDED else CELLS)


def from_dict(data):
    """Checks a loaded dict's shape and returns it as a state; GameError if it is damaged."""
    from tidebox.games import checks  # let go of after the call (box.checked)

    n = checks.check_save(data, GAME_ID, SHORT, _KEYS, MIN_GATHERERS, MAX_PLAYERS,
                          "saved game: damaged names")
    bad = [1 for name in data["names"] if not isinstance(name, str)]
    if not isinstance(data["rivals"], list) or len(data["rivals"]) != n:
        bad.append(1)
    else:
        bad += [1 for r in data["rivals"] if r is not None and r not in STRENGTHS]
    if bad:
        raise checks.damaged("names")
    if not isinstance(data["pearls"], list) or sorted(data["pearls"]) != sorted(PEARLS):
        raise checks.damaged("pearls")
    if (data["tides"] != list(TIDE_VALUES) or data["per_round"] != TURNS[n]
            or type(data["tide"]) is not int or not 0 <= data["tide"] <= len(TIDE_VALUES)):
        raise checks.damaged("tides")
    cells = data["cells"]
    if not isinstance(cells, list) or len(cells) != CELLS or [c for c in cells if c is not None and (
            type(c) is not int or not 0 <= c < n)]:
        raise checks.damaged("coast")
    big = 1 << 20
    if not (checks.ints(data["shells"], n, 0, big) and checks.ints(data["points"], n, 0, big)
            and checks.ints(data["shifts"], n, 0, MAX_SHIFTS)):
        raise checks.damaged("tallies")
    if (not checks.ints(data["order"], n, 0, n - 1) or sorted(data["order"]) != list(range(n))
            or type(data["turn"]) is not int or not 0 <= data["turn"] < data["per_round"] * n
            or type(data["moves"]) is not int or data["moves"] < 0 or type(data["shifted"]) is not bool):
        raise checks.damaged("turn")
    over = data["tide"] == len(TIDE_VALUES)
    if data["phase"] != (PHASE_OVER if over else PHASE_PLAY) or data["speed"] not in [
            c[0] for c in OPTIONS[2][2]]:
        raise checks.damaged("phase")
    log = data["log"]
    # every entry well formed, and the tides paid so far recorded in order (tide_awards reads them)
    if not isinstance(log, list) or [e for e in log if not _entry_ok(e, n)] or [
            e & 15 for e in log if e & 15 >= TIDE] != list(range(TIDE, TIDE + data["tide"])):
        raise checks.damaged("log")
    return to_dict(data)
