# Token Tide: the rules as plain data and pure functions.
#
# No I/O, no clock, no hardware, no global random: the same module runs under CPython (host tests)
# and MicroPython (the box). A game is a JSON-able dict; every action validates first and only then
# changes the dict, so a refused action leaves the state exactly as it was.

from tidebox.games import base as _base  # the checks every game's rules make
from tidebox.games.base import GameError, NotNow
from tidebox.games.base import ranked, shuffled

GAME_ID = "token_tide"
TITLE = "Token Tide"
SHORT = "Token Tide"

# The six tide cards in the rule sheet's numbered order: (card_id, name, Mooring target).
TIDE_CARDS = (
    ("T01", "Low Water", 2),
    ("T02", "Middle Water", 3),
    ("T03", "High Water", 4),
    ("T04", "Shallow Channel", 2),
    ("T05", "Full Channel", 4),
    ("T06", "Turning Water", 3),
)
# The unscored practice round ("run one unscored example before the first card") uses a target
# of three, the middle of the cards' range; it draws no card from the deck.
PRACTICE_CARD = ("P00", "Practice", 3)

ISLANDS = ("Beacon", "Grove", "Mooring")
COUNTERS = 7
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_NAME = 12
VIEW_ROOM = 4352  # the phones' shared view at its largest: 4052 bytes on the worst-case walk

BEACON_SOLE = 6
BEACON_TIED = 2
GROVE_SOLE = 4
GROVE_TIED = 1
MOORING_EXACT = 3
MOORING_ONE_OFF = 1

DECK_SHUFFLED = "shuffled"  # all six cards in a random order
DECK_NUMBERED = "numbered"  # first game: T01-T06 in order
DECK_SHORT = "short"  # the shorter crossing: T01-T04 in order, four rounds
DECK_MODES = (DECK_SHUFFLED, DECK_NUMBERED, DECK_SHORT)

PHASE_ALLOCATE = "allocate"
PHASE_REVEALED = "revealed"
PHASE_OVER = "over"


# ---------------------------------------------------------------- scoring


def _is_count(value):
    # bool is a subclass of int in both interpreters, but True is not "one counter".
    return type(value) is int and value >= 0


def is_legal(allocation):
    """A legal allocation is exactly three non-negative integers that total seven."""
    if not isinstance(allocation, (list, tuple)) or len(allocation) != 3:
        return False
    for value in allocation:
        if not _is_count(value):
            return False
    return allocation[0] + allocation[1] + allocation[2] == COUNTERS


def _extreme_award(values, largest, sole, tied):
    # values: one int per player, or None for an excluded (illegal or absent) player.
    # Zero never scores; an island nobody supplied pays nobody.
    best = None
    for v in values:
        if v is not None and v > 0 and (best is None or (v > best if largest else v < best)):
            best = v
    awards = [0] * len(values)
    if best is None:
        return awards, 0
    holders = [i for i, v in enumerate(values) if v == best]
    points = sole if len(holders) == 1 else tied
    for i in holders:
        awards[i] = points
    return awards, best


def mooring_points(target, delivered):
    """Mooring compares each delivery with the tide target only, never with other players."""
    if type(target) is not int:
        return 0
    off = delivered - target
    if off == 0:
        return MOORING_EXACT
    if off in (-1, 1):
        return MOORING_ONE_OFF
    return 0


def score_details(target, allocations):
    """Scores one round and says why.

    Returns a dict: "scores" (one (beacon, grove, mooring) tuple per player), "legal" (one bool
    per player), "beacon_best" and "grove_best" (the winning quantities, 0 for an empty island).
    Never raises: anything that is not a legal allocation scores (0, 0, 0) and is excluded from
    the Beacon and Grove comparisons.
    """
    legal = [is_legal(a) for a in allocations]
    beacon, beacon_best = _extreme_award(
        [a[0] if ok else None for a, ok in zip(allocations, legal)], True, BEACON_SOLE, BEACON_TIED
    )
    grove, grove_best = _extreme_award(
        [a[1] if ok else None for a, ok in zip(allocations, legal)], False, GROVE_SOLE, GROVE_TIED
    )
    scores = []
    for i, a in enumerate(allocations):
        if legal[i]:
            scores.append((beacon[i], grove[i], mooring_points(target, a[2])))
        else:
            scores.append((0, 0, 0))
    return {"scores": scores, "legal": legal, "beacon_best": beacon_best, "grove_best": grove_best}


def score_round(target, allocations):
    """One (beacon, grove, mooring) tuple per allocation, in the same order. Never raises."""
    try:
        allocations = list(allocations)
    except Exception:
        return []
    return score_details(target, allocations)["scores"]


def award_reason(island, points):
    """Why an island paid what it paid, in the rule sheet's words (for the reveal screens)."""
    # Comparisons, not a dict per call: every phone's view after a change asks for 24 of these.
    if island == 0:
        return "sole largest" if points == BEACON_SOLE else "tied largest" if points == BEACON_TIED else ""
    if island == 1:
        return ("sole smallest positive" if points == GROVE_SOLE
                else "tied smallest positive" if points == GROVE_TIED else "")
    return "exact target" if points == MOORING_EXACT else "one off" if points == MOORING_ONE_OFF else ""


# ---------------------------------------------------------------- deck and randomness


def build_deck(mode, below):
    """Card indexes (into TIDE_CARDS) in the order they will be turned over."""
    if mode == DECK_NUMBERED:
        return list(range(len(TIDE_CARDS)))
    if mode == DECK_SHORT:
        return [0, 1, 2, 3]
    if mode == DECK_SHUFFLED:
        return shuffled(range(len(TIDE_CARDS)), below)
    raise GameError("unknown deck: choose shuffled, numbered or short")


# ---------------------------------------------------------------- the game


def new_game(names, options=None, below=None, deck=DECK_SHUFFLED, first_reader=0, practice=False):
    """A new game for 2-8 named players in clockwise seat order.

    `options` are the box's setup choices (see OPTIONS; they override the keywords, which are for
    direct use). `below(n)` is the injected random source (only the shuffled deck uses it).
    With `practice`, an unscored practice round comes before the first card.
    """
    if options:
        deck = options.get("deck", deck)
        first_reader = options.get("reader", first_reader)
        practice = options.get("practice", practice)
    from tidebox.games import checks  # let go of after the call (box.checked)

    clean = checks.check_players(names, TITLE, MIN_PLAYERS, MAX_PLAYERS, MAX_NAME)
    if type(first_reader) is not int or not 0 <= first_reader < len(clean):
        raise GameError("the first reader must be one of the seats")
    if deck == DECK_SHUFFLED and below is None:
        raise GameError("a shuffled deck needs a random source")
    order = build_deck(deck, below)
    count = len(clean)
    return {
        "game": GAME_ID,
        "names": clean,
        "seated": [True] * count,
        "deck_mode": deck,
        "deck": order,
        "practice": bool(practice),
        "round": -1 if practice else 0,  # -1 is the practice round; 0.. index the deck
        "reader": first_reader,
        "phase": PHASE_ALLOCATE,
        "hidden": [None] * count,  # each player's current allocation, secret until the reveal
        "locked": [False] * count,
        "history": [],  # one entry per revealed scored round
        "last": None,  # the latest revealed round (scored or practice), public
        "totals": [0] * count,
    }


def rounds_total(state):
    return len(state["deck"])


def current_card(state):
    if state["round"] < 0:
        return PRACTICE_CARD
    if state["round"] >= len(state["deck"]):
        return None
    return TIDE_CARDS[state["deck"][state["round"]]]


def set_allocation(state, seat, allocation, lock=True):
    """Set (and by default lock) a player's hidden allocation; allowed until the reveal."""
    _base.check_seat(state, seat)
    if state["phase"] != PHASE_ALLOCATE:
        raise NotNow("allocations are closed: the round has been revealed")
    if not isinstance(allocation, (list, tuple)) or len(allocation) != 3:
        raise GameError("an allocation is three numbers: Beacon, Grove, Mooring")
    for v in allocation:
        if type(v) is not int:
            raise GameError("each island takes a whole number of counters")
        if v < 0:
            raise GameError("an island cannot take a negative number of counters")
    if allocation[0] + allocation[1] + allocation[2] != COUNTERS:
        raise GameError("place all seven counters: the three islands must total 7")
    state["hidden"][seat] = [allocation[0], allocation[1], allocation[2]]
    state["locked"][seat] = bool(lock)
    return state


def unlock(state, seat):
    """Take back 'ready' while allocations are still hidden."""
    _base.check_seat(state, seat)
    if state["phase"] != PHASE_ALLOCATE:
        raise NotNow("allocations are closed: the round has been revealed")
    state["locked"][seat] = False
    return state


def waiting_for(state):
    """Seats still to lock an allocation this round (empty once the reveal may happen)."""
    return [i for i in range(len(state["names"])) if state["seated"][i] and not state["locked"][i]]


def reveal(state):
    """Lift all screens together: score the round. Only when every seated player is ready."""
    if state["phase"] != PHASE_ALLOCATE:
        raise NotNow("this round has already been revealed")
    if waiting_for(state):
        raise NotNow("not everybody is ready yet")
    card = current_card(state)
    allocations = [state["hidden"][i] if state["seated"][i] else None for i in range(len(state["names"]))]
    details = score_details(card[2], allocations)
    scores = [list(s) for s in details["scores"]]
    record = {
        "round": state["round"],
        "card": card[0],
        "target": card[2],
        "reader": state["reader"],
        "allocations": allocations,
        "scores": scores,
        "beacon_best": details["beacon_best"],
        "grove_best": details["grove_best"],
    }
    if state["round"] >= 0:
        for i, s in enumerate(scores):
            state["totals"][i] += s[0] + s[1] + s[2]
        state["history"].append(record)
    state["last"] = record
    state["phase"] = PHASE_REVEALED
    return state


def next_round(state):
    """Discard the used card, pass the reader job clockwise, reset every supply to seven."""
    if state["phase"] != PHASE_REVEALED:
        raise NotNow("reveal this round before turning the next card")
    practice = state["round"] < 0
    state["round"] += 1
    count = len(state["names"])
    state["hidden"] = [None] * count
    state["locked"] = [False] * count
    if state["round"] >= len(state["deck"]):
        state["phase"] = PHASE_OVER
        return state
    # After the practice round the first reader keeps the job (it was nobody's turn).
    if not practice or not state["seated"][state["reader"]]:
        state["reader"] = _base.next_seated(state, state["reader"])
    state["phase"] = PHASE_ALLOCATE
    return state


def leave(state, seat):
    """A player leaves: past scores stay; they no longer count for readiness or reveals."""
    if state["phase"] == PHASE_OVER:
        raise NotNow("the game is over")
    _base.check_leaving(state, seat, MIN_PLAYERS)
    state["seated"][seat] = False
    state["hidden"][seat] = None
    state["locked"][seat] = False
    if state["reader"] == seat:
        state["reader"] = _base.next_seated(state, seat)
    return state


def standings(state):
    """[[rank, seat, total], ...], highest first; tied players share a rank (1, 1, 3), ties keep
    seat order. The one ranking the box, the phones and the final screen all show."""
    return ranked(state["totals"])


def winners(state):
    """The highest total wins; tied leaders share the victory. Only once the game is over."""
    if state["phase"] != PHASE_OVER:
        return []
    best = max(state["totals"])
    return [i for i in range(len(state["names"])) if state["totals"][i] == best]


def is_over(state):
    return state["phase"] == PHASE_OVER


# ---------------------------------------------------------------- saving and views

_KEYS = (
    "game", "names", "seated", "deck_mode", "deck", "practice", "round", "reader",
    "phase", "hidden", "locked", "history", "last", "totals",
)


def to_dict(state):
    """The state as a JSON-able dict (it already is one; this copies the top level)."""
    return {k: state[k] for k in _KEYS}


def from_dict(data):
    """Checks a loaded dict's shape and returns it as a state; GameError if it is not one."""
    from tidebox.games import checks  # let go of after the call (box.checked)

    count = checks.check_save(data, GAME_ID, SHORT, _KEYS, MIN_PLAYERS, MAX_PLAYERS)
    for k in ("seated", "hidden", "locked", "totals"):
        if not isinstance(data[k], list) or len(data[k]) != count:
            raise GameError("saved game has a damaged " + k)
    if data["phase"] not in (PHASE_ALLOCATE, PHASE_REVEALED, PHASE_OVER):
        raise GameError("saved game has an unknown phase")
    if data["deck_mode"] not in DECK_MODES or not isinstance(data["deck"], list):
        raise GameError("saved game has a damaged deck")
    for c in data["deck"]:
        if type(c) is not int or not 0 <= c < len(TIDE_CARDS):
            raise GameError("saved game has a damaged deck")
    if type(data["round"]) is not int or not -1 <= data["round"] <= len(data["deck"]):
        raise GameError("saved game has a damaged round")
    if type(data["reader"]) is not int or not 0 <= data["reader"] < count:
        raise GameError("saved game has a damaged reader")
    for a in data["hidden"]:
        if a is not None and not is_legal(a):
            raise GameError("saved game has a damaged allocation")
    return to_dict(data)


def public_round(record, names):
    """A revealed round for display: every allocation, score and the reason for each award."""
    if record is None:
        return None
    rows = []
    for i, scores in enumerate(record["scores"]):
        rows.append({
            "seat": i,
            "name": names[i],
            "allocation": record["allocations"][i],
            "scores": scores,
            "points": scores[0] + scores[1] + scores[2],
            "reasons": [award_reason(k, scores[k]) for k in range(3)],
        })
    return {
        "round": record["round"],
        "card": record["card"],
        "target": record["target"],
        "beacon_best": record["beacon_best"],
        "grove_best": record["grove_best"],
        "rows": rows,
    }


def view_for(state, seat):
    """What one player may see. Other players' hidden allocations never appear before the reveal;
    `seat` None gives the public view (the box's own screens use the full state instead)."""
    card = current_card(state)
    count = len(state["names"])
    view = {
        "game": GAME_ID,
        "phase": state["phase"],
        "round": state["round"],
        "rounds": rounds_total(state),
        "card": list(card) if card else None,
        "reader": state["reader"],
        "players": [
            {"name": state["names"][i], "seated": state["seated"][i], "ready": state["locked"][i],
             "total": state["totals"][i]}
            for i in range(count)
        ],
        "last": public_round(state["last"], state["names"]),
        "history": [
            {"round": r["round"], "card": r["card"], "allocations": r["allocations"], "scores": r["scores"]}
            for r in state["history"]
        ],
        # objects, not [rank, seat, total] rows: three small numbers in a row read like an allocation
        "standings": [{"rank": r, "seat": s, "total": t} for r, s, t in standings(state)],
        "winners": winners(state),
    }
    if seat is not None and 0 <= seat < count:
        view["you"] = seat
        view["mine"] = state["hidden"][seat]
        view["locked"] = state["locked"][seat]
    return view


# ---------------------------------------------------------------- the box's game interface
# (see tidebox/games/__init__.py: every game offers these names)

TIMER_CHOICES = ((45, "45 s"), (30, "30 s"), (60, "60 s"), (90, "90 s"), (0, "off"))
OPTIONS = (
    ("deck", "Deck", ((DECK_SHUFFLED, "Shuffled"), (DECK_NUMBERED, "Numbered"), (DECK_SHORT, "Short (4)"))),
    ("timer", "Timer", TIMER_CHOICES),  # the box's countdown paces; it never reveals by itself
    ("reader", "Reader", "seat"),
    ("practice", "Practice", ((False, "no"), (True, "yes"))),
)
MOVES = ("allocate", "unready", "reveal", "next_round")


def move(state, seat, name, args):
    """Apply one move. Phones (a seat) allocate and unready; the box (seat None) reveals and turns
    the next card. Refused moves raise GameError (400) or NotNow (409) and change nothing."""
    if not isinstance(args, dict):
        raise GameError("a move's arguments must be an object")
    if name == "allocate" and seat is not None:
        ready = args.get("ready", True)
        if ready is not True and ready is not False:
            raise GameError("ready must be true or false")
        return set_allocation(state, seat, args.get("allocation"), ready)
    if name == "unready" and seat is not None:
        return unlock(state, seat)
    if name == "reveal" and seat is None:
        return reveal(state)
    if name == "next_round" and seat is None:
        return next_round(state)
    if name in MOVES:
        raise NotNow("only the reader's box can do that" if seat is not None else "that is a player's move")
    raise GameError("Token Tide has no move called that")


def to_act(state):
    """Seats whose allocation is still open (nobody while the round is revealed)."""
    if state["phase"] != PHASE_ALLOCATE:
        return []
    return waiting_for(state)


def legal_moves(state, seat):
    """The moves `seat` (None: the box) may make now, each with its exact args: a phone's every
    allocation of the seven counters (its form picks one), and its "unready" once locked."""
    if state["phase"] == PHASE_OVER:
        return []
    if seat is None:
        if state["phase"] == PHASE_REVEALED:
            return [{"move": "next_round", "args": {}, "label": "Next card"}]
        return [] if waiting_for(state) else [{"move": "reveal", "args": {}, "label": "Reveal"}]
    if state["phase"] != PHASE_ALLOCATE or not 0 <= seat < len(state["names"]) or not state["seated"][seat]:
        return []
    moves = []
    for b in range(COUNTERS + 1):
        for g in range(COUNTERS + 1 - b):
            allocation = [b, g, COUNTERS - b - g]
            moves.append({"move": "allocate", "args": {"allocation": allocation}, "label": "Lock in"})
    if state["locked"][seat]:
        moves.append({"move": "unready", "args": {}, "label": "Change"})
    return moves


def public_view(state):
    return view_for(state, None)


def private_view(state, seat):
    """Only this seat's own hidden allocation and whether it is locked."""
    return {"mine": state["hidden"][seat], "locked": state["locked"][seat]}
