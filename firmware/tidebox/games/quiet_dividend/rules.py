# The Quiet Dividend: the rules as plain data and pure functions.
#
# No I/O, no clock, no hardware, no global random: the same module runs under CPython (host tests)
# and MicroPython (the box). A game is a JSON-able dict of small ints and short lists; every move
# validates first and only then changes the dict, so a refused move leaves the state exactly as it
# was.
#
# Seats never move: seat i is always names[i] (the box ties phones to seats). The playing order is
# a separate list, `order`, which a rematch reverses.
#
# Nothing is hidden in this game: values, every player's shares, the payouts and the turn log are
# public.

from tidebox.games import base as _base  # the checks every game's rules make
from tidebox.games.base import GameError, NotNow, folded
from tidebox.games.base import check_name as _check_name
from tidebox.games.base import ranked

GAME_ID = "quiet_dividend"
TITLE = "The Quiet Dividend"
SHORT = "Quiet Dividend"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_NAME = 12
VIEW_ROOM = 3584  # the phones' shared view at its largest: 3300 bytes on the worst-case walk

LAPS = 6
MAX_VALUE = 4
MAX_IN_CLUB = 2
MAX_SHARES = 4
CLUBS = ("A", "B", "C")  # the clubs' fixed letters; moves always name clubs by these
MAX_CLUB_NAME = 8  # a renamed club's shown name (fits "Switch xxxxxxxx to yyyyyyyy" on two lines)

# (setup_id, name, initial values, payout laps, resets {lap: values after that lap's payout})
SETUPS = (
    ("steady", "Steady", (1, 1, 1), (2, 4, 6), {}),
    ("early_opening", "Early Opening", (2, 1, 0), (1, 3, 6), {}),
    ("seasonal", "Seasonal", (1, 2, 3), (2, 4, 6), {2: (3, 1, 2), 4: (2, 3, 1)}),
)

OPTIONS = (
    ("setup", "Values & payouts", tuple((s[0], s[1]) for s in SETUPS)),  # not "Setup" on the Setup screen
    ("first", "First player", "seat_or_random"),
)

MOVES = ("join", "promote", "switch", "pass", "rename")
UNDO = True  # the box keeps the game before the last move: the reader may take a turn back

# The public log holds one small int per entry, its decimal digits read LSCXY (a small int costs
# no heap on MicroPython, where a list per turn would): Lap 1-6, Seat 0-7, Code, then X and Y:
#   join    code 0, X the club (0-2 for A-C), Y the shares now held in it
#   promote code 1, X the club, Y its new value
#   switch  code 2, X the club left, Y the club joined
#   pass    code 3, X = Y = 0
#   leave   code 4, X = Y = 0   (the reader dropped the player; not a turn)
# e.g. 47113: lap 4, seat 7 promoted B to 3. log_entry() unpacks one.
JOIN = 0
PROMOTE = 1
SWITCH = 2
PASS = 3
LEFT = 4


# ---------------------------------------------------------------- setups


def setup_by_id(setup_id):
    for s in SETUPS:
        if s[0] == setup_id:
            return s
    raise GameError("unknown setup: choose Steady, Early Opening or Seasonal")


def payout_amounts(values, shares):
    """Each player's dividend: their shares in each club times its value, added across the clubs."""
    return [s[0] * values[0] + s[1] * values[1] + s[2] * values[2] for s in shares]


# ---------------------------------------------------------------- a new game


def new_game(names, options=None, below=None):
    """A new game for 2-8 named players, seated (and playing) in the list's order.

    options: {"setup": "steady" | "early_opening" | "seasonal", "first": seat or None (random)}.
    `below(n)` is the injected random source (only a random first player uses it).
    """
    from tidebox.games import checks  # let go of after the call (box.checked)

    clean = checks.check_players(names, TITLE, MIN_PLAYERS, MAX_PLAYERS, MAX_NAME)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("options must be an object")
    extra = _unexpected(options, ("setup", "first"))
    if extra is not None:
        raise GameError("unknown option: %s" % extra)
    setup = setup_by_id(options.get("setup", SETUPS[0][0]))
    count = len(clean)
    first = options.get("first")
    if first is None:
        if below is None:
            raise GameError("a random first player needs a random source")
        first = below(count)
    elif not _base.is_int(first, 0, count - 1):
        raise GameError("the first player must be one of the seats")
    return _fresh(clean, setup[0], list(range(count)), first, [True] * count, list(CLUBS))


def _fresh(names, setup_id, order, first, seated, clubs):
    setup = setup_by_id(setup_id)
    count = len(names)
    state = {
        "game": GAME_ID,
        "names": list(names),
        "seated": list(seated),
        "setup": setup_id,
        "clubs": list(clubs),  # shown names of A, B, C (the table may rename them)
        "values": list(setup[2]),
        "shares": [[0, 0, 0] for _ in range(count)],
        "order": list(order),  # seats in playing (clockwise) order
        "first": first,  # the seat that opens every lap
        "laps": 0,  # laps completed
        "pos": 0,  # position in this lap's rotation (see rotation())
        "payouts": [],  # {"lap", "values", "amounts", "reset"} per payout, in order
        "log": [],  # the public record of turns, see the codes above
    }
    _skip_absent(state)
    return state


def rematch(state, below):
    """The same table again: seating order reversed and a different first player, chosen at random
    among the others still seated. Club names, setup and who has left stay as they were."""
    if not is_over(state):
        raise NotNow("a rematch starts once this game is over")
    others = [s for s in state["order"][::-1] if state["seated"][s] and s != state["first"]]
    first = others[below(len(others))]
    return _fresh(state["names"], state["setup"], state["order"][::-1], first, state["seated"],
                  state["clubs"])


# ---------------------------------------------------------------- turn order


def rotation(state):
    """This game's seats in the order of one lap, starting with the first player."""
    order = state["order"]
    start = order.index(state["first"])
    return order[start:] + order[:start]


def is_over(state):
    return state["laps"] >= LAPS


def current(state):
    """The seat whose turn it is, or None once the game is over."""
    if is_over(state):
        return None
    return rotation(state)[state["pos"]]


def to_act(state):
    seat = current(state)
    return [] if seat is None else [seat]


def lap(state):
    """The lap being played, 1-6 (6 once over)."""
    return min(state["laps"] + 1, LAPS)


def _skip_absent(state):
    # Moves pos past seats that have left; ends the lap (paying if scheduled) when none is left.
    turn_order = rotation(state)
    while state["pos"] < len(turn_order) and not state["seated"][turn_order[state["pos"]]]:
        state["pos"] += 1
    if state["pos"] < len(turn_order):
        return
    state["laps"] += 1
    state["pos"] = 0
    setup = setup_by_id(state["setup"])
    if state["laps"] in setup[3]:
        reset = setup[4].get(state["laps"])
        state["payouts"].append({
            "lap": state["laps"],
            "values": list(state["values"]),
            "amounts": payout_amounts(state["values"], state["shares"]),
            "reset": list(reset) if reset else None,
        })
        # A reset only after everyone has received this payout; shares remain.
        if reset:
            state["values"] = list(reset)
    if not is_over(state):
        _skip_absent(state)


def _next_turn(state):
    state["pos"] += 1
    _skip_absent(state)


# ---------------------------------------------------------------- moves


def _club(args, key):
    club = args.get(key)
    if type(club) is not str or club not in CLUBS:
        raise GameError('"%s" must be a club: "A", "B" or "C"' % key)
    return CLUBS.index(club)


def _unexpected(given, keys):
    # The first key not in `keys`, in sorted order (dict order differs between interpreters).
    extra = sorted([str(k) for k in given if k not in keys])
    return extra[0] if extra else None


def _only_keys(args, keys):
    extra = _unexpected(args, keys)
    if extra is not None:
        raise GameError("unexpected detail in the move: %s" % extra)


def _parse(name, args):
    # The clubs a turn names, as indexes; GameError 400 for anything malformed.
    if name == "pass":
        _only_keys(args, ())
        return ()
    if name == "switch":
        _only_keys(args, ("from", "to"))
        return (_club(args, "from"), _club(args, "to"))
    _only_keys(args, ("club",))
    return (_club(args, "club"),)


def _problem(state, seat, name, clubs):
    """Why this turn is illegal for `seat` now (a sentence for a person), or None when legal."""
    who = state["names"][seat]
    held = state["shares"][seat]
    shown = state["clubs"]
    if name == "join":
        c = clubs[0]
        if held[c] >= MAX_IN_CLUB:
            return "%s already holds %d shares in %s" % (who, MAX_IN_CLUB, shown[c])
        if held[0] + held[1] + held[2] >= MAX_SHARES:
            return "%s already holds %d shares, the most anyone may hold" % (who, MAX_SHARES)
        return None
    if name == "promote":
        c = clubs[0]
        if state["values"][c] >= MAX_VALUE:
            return "%s is already worth %d, the most a club can be worth" % (shown[c], MAX_VALUE)
        return None
    if name == "switch":
        f, t = clubs
        if f == t:
            return "a switch moves a share to a different club"
        if held[f] <= 0:
            return "%s holds no share in %s to switch" % (who, shown[f])
        if held[t] >= MAX_IN_CLUB:
            return "%s already holds %d shares in %s" % (who, MAX_IN_CLUB, shown[t])
        return None
    # pass: only when no action is legal
    for option in _actions(state, seat):
        return "%s cannot pass while an action is legal (%s is possible)" % (who, _label(state, option))
    return None


def _candidates():
    for c in range(3):
        yield ("join", (c,))
    for c in range(3):
        yield ("promote", (c,))
    for f in range(3):
        for t in range(3):
            if f != t:
                yield ("switch", (f, t))


def _actions(state, seat):
    for name, clubs in _candidates():
        if _problem(state, seat, name, clubs) is None:
            yield (name, clubs)


def _label(state, action):
    name, clubs = action
    shown = state["clubs"]
    if name == "join":
        return "Join " + shown[clubs[0]]
    if name == "promote":
        c = clubs[0]
        return "Promote %s to %d" % (shown[c], state["values"][c] + 1)
    if name == "switch":
        return "Switch %s to %s" % (shown[clubs[0]], shown[clubs[1]])
    return "Pass"


def _args(name, clubs):
    if name == "switch":
        return {"from": CLUBS[clubs[0]], "to": CLUBS[clubs[1]]}
    if name == "pass":
        return {}
    return {"club": CLUBS[clubs[0]]}


def legal_moves(state, seat):
    """Exactly the turns `seat` may take now, as phone buttons. [] when it is not their turn.
    The box's own move (rename) takes typed text, so it is not listed here: see can_rename()."""
    if seat is None or current(state) != seat:
        return []
    moves = []
    for action in _actions(state, seat):
        moves.append({"move": action[0], "args": _args(action[0], action[1]), "label": _label(state, action)})
    if not moves:
        moves.append({"move": "pass", "args": {}, "label": "Pass"})
    return moves


def move(state, seat, name, args):
    """Applies one move and returns the state. `seat` is the acting seat (int); None for the box's
    own move (rename). Refused moves raise GameError (400) or NotNow (409) and change nothing."""
    if type(name) is not str or name not in MOVES:
        raise GameError("unknown move")
    if not isinstance(args, dict):
        raise GameError("a move's details must be an object")
    if name == "rename":
        return _rename(state, seat, args)
    clubs = _parse(name, args)
    if seat is None:
        raise GameError("a turn is taken by the player whose turn it is: say which seat")
    _base.check_seat(state, seat, False)
    if is_over(state):
        raise NotNow("the game is over")
    turn = current(state)
    if seat != turn:
        if not state["seated"][seat]:
            raise NotNow("%s has left the game" % state["names"][seat])
        raise NotNow("it is %s's turn" % state["names"][turn])
    problem = _problem(state, seat, name, clubs)
    if problem is not None:
        raise GameError(problem)
    # ---- legal: now change the state
    held = state["shares"][seat]
    if name == "join":
        held[clubs[0]] += 1
        entry = _pack(state, seat, JOIN, clubs[0], held[clubs[0]])
    elif name == "promote":
        state["values"][clubs[0]] += 1
        entry = _pack(state, seat, PROMOTE, clubs[0], state["values"][clubs[0]])
    elif name == "switch":
        held[clubs[0]] -= 1
        held[clubs[1]] += 1
        entry = _pack(state, seat, SWITCH, clubs[0], clubs[1])
    else:
        entry = _pack(state, seat, PASS)
    state["log"].append(entry)
    _next_turn(state)
    return state


def _pack(state, seat, code, x=0, y=0):
    return lap(state) * 10000 + seat * 1000 + code * 100 + x * 10 + y


def log_entry(entry):
    """One packed log entry as [lap, seat, code, x, y]."""
    return [entry // 10000, entry // 1000 % 10, entry // 100 % 10, entry // 10 % 10, entry % 10]


def turns_taken(state):
    """How many turns have been taken (leaves are logged but are not turns)."""
    return sum(1 for e in state["log"] if e // 100 % 10 != LEFT)


def can_rename(state):
    """Clubs may be renamed while setting up, before the first turn (the numbers never change)."""
    return turns_taken(state) == 0


def _rename(state, seat, args):
    if seat is not None:
        raise GameError("the clubs are renamed on the box")
    _only_keys(args, ("club", "name"))
    c = _club(args, "club")
    text = args.get("name")
    if not isinstance(text, str):
        raise GameError("a club's name must be text")
    others = [state["clubs"][i] for i in range(3) if i != c]
    try:
        text = _check_name(text, (), MAX_CLUB_NAME)
    except GameError as e:
        raise GameError(e.message.replace("a name", "a club's name"))
    for other in others:
        if folded(other) == folded(text):
            raise GameError("another club is already called %s" % other)
    if text.upper() in CLUBS and text.upper() != CLUBS[c]:
        raise GameError("club %s cannot take another club's letter" % CLUBS[c])
    if not can_rename(state):
        raise NotNow("clubs are renamed before the first turn")
    state["clubs"][c] = text
    return state


def leave(state, seat):
    """The reader drops a player: they are skipped in turn order from now on.

    Their shares stay on the board and keep being paid, and they stay in the standings. The rule
    sheet says shares remain in place and nobody may remove another player's shares; taking them
    away would also change, mid-game, what every other player's promotions are worth to whom. Their
    points already earned are public and never spent.
    """
    if is_over(state):
        raise NotNow("the game is over")
    _base.check_leaving(state, seat, MIN_PLAYERS)
    was_turn = current(state) == seat
    state["seated"][seat] = False
    state["log"].append(_pack(state, seat, LEFT))
    if was_turn:
        _skip_absent(state)
    return state


# ---------------------------------------------------------------- results


def totals(state):
    count = len(state["names"])
    result = [0] * count
    for p in state["payouts"]:
        for i in range(count):
            result[i] += p["amounts"][i]
    return result


def standings(state):
    """[[rank, seat, total], ...], best first; tied players share a rank."""
    return ranked(totals(state))


def winners(state):
    """The highest total wins; tied leaders share the win. Only once the game is over."""
    if not is_over(state):
        return []
    scores = totals(state)
    best = max(scores)
    return [i for i in range(len(scores)) if scores[i] == best]


# ---------------------------------------------------------------- views


def entry_text(state, entry):
    """One public log entry in words: "Pat joined A", "Mo promoted B to 3"."""
    entry = log_entry(entry)
    who = state["names"][entry[1]]
    code = entry[2]
    shown = state["clubs"]
    if code == JOIN:
        return "%s joined %s" % (who, shown[entry[3]])
    if code == PROMOTE:
        return "%s promoted %s to %d" % (who, shown[entry[3]], entry[4])
    if code == SWITCH:
        return "%s switched %s to %s" % (who, shown[entry[3]], shown[entry[4]])
    if code == PASS:
        return "%s passed" % who
    return "%s left the game" % who


def public_view(state):
    """Everything public: the board, every player's shares, the payouts and the turn log."""
    setup = setup_by_id(state["setup"])
    over = is_over(state)
    return {
        "game": GAME_ID,
        "setup": setup[0],
        "setup_name": setup[1],
        "clubs": list(state["clubs"]),
        "values": list(state["values"]),
        "start": list(setup[2]),
        "payout_laps": list(setup[3]),
        "resets": [[k, list(setup[4][k])] for k in sorted(setup[4])],
        "laps": state["laps"],
        "lap": lap(state),
        "laps_total": LAPS,
        "names": list(state["names"]),
        "seated": list(state["seated"]),
        "shares": [list(s) for s in state["shares"]],
        "totals": totals(state),
        "order": rotation(state),
        "first": state["first"],
        "turn": current(state),
        "turns": turns_taken(state),
        "payouts": [
            {"lap": p["lap"], "values": list(p["values"]), "amounts": list(p["amounts"]),
             "reset": list(p["reset"]) if p["reset"] else None}
            for p in state["payouts"]
        ],
        "log": [[e // 10000, e // 1000 % 10, entry_text(state, e)] for e in state["log"]],
        "over": over,
        "standings": standings(state),
        "winners": winners(state),
    }


def private_view(state, seat):
    """Nothing is secret in this game: whether it is this seat's turn, and then its legal turns
    (legal_moves: the phone's buttons, as the box offers them; empty on another seat's turn)."""
    return {"your_turn": seat is not None and current(state) == seat, "legal": legal_moves(state, seat)}


# ---------------------------------------------------------------- saving

_KEYS = ("game", "names", "seated", "setup", "clubs", "values", "shares", "order", "first", "laps",
         "pos", "payouts", "log")


def to_dict(state):
    """A JSON-able copy of the state, sharing nothing with it (cheap: a few short lists)."""
    return {
        "game": state["game"],
        "names": list(state["names"]),
        "seated": list(state["seated"]),
        "setup": state["setup"],
        "clubs": list(state["clubs"]),
        "values": list(state["values"]),
        "shares": [list(s) for s in state["shares"]],
        "order": list(state["order"]),
        "first": state["first"],
        "laps": state["laps"],
        "pos": state["pos"],
        "payouts": [
            {"lap": p["lap"], "values": list(p["values"]), "amounts": list(p["amounts"]),
             "reset": list(p["reset"]) if p["reset"] is not None else None}
            for p in state["payouts"]
        ],
        "log": list(state["log"]),
    }


def _log_entry_ok(entry, count):
    if not _base.is_int(entry, 10000, (LAPS + 1) * 10000 - 1):
        return False
    e = log_entry(entry)
    if e[1] >= count:
        return False
    code = e[2]
    if code in (PASS, LEFT):
        return e[3] == e[4] == 0
    if e[3] > 2:
        return False
    if code == JOIN:
        return 1 <= e[4] <= MAX_IN_CLUB
    if code == PROMOTE:
        return 1 <= e[4] <= MAX_VALUE
    return code == SWITCH and e[4] <= 2 and e[3] != e[4]


def from_dict(data):
    """Checks a loaded dict's shape and returns it as a state (a copy); GameError if damaged."""
    from tidebox.games import checks  # let go of after the call (box.checked)

    count = checks.check_save(data, GAME_ID, SHORT, _KEYS, MIN_PLAYERS, MAX_PLAYERS)
    for n in data["names"]:
        if not isinstance(n, str) or not n:
            raise checks.damaged("name")
    seated = data["seated"]
    if not isinstance(seated, list) or len(seated) != count or [s for s in seated if type(s) is not bool]:
        raise checks.damaged("seated list")
    if sum(1 for s in seated if s) < 1:
        raise checks.damaged("seated list")
    try:
        setup = setup_by_id(data["setup"])
    except GameError:
        raise checks.damaged("setup")
    clubs = data["clubs"]
    if not isinstance(clubs, list) or len(clubs) != 3:
        raise checks.damaged("club list")
    for c in clubs:
        if not isinstance(c, str) or not 0 < len(c) <= MAX_CLUB_NAME:
            raise checks.damaged("club name")
    if not checks.ints(data["values"], 3, 0, MAX_VALUE):
        raise checks.damaged("values")
    shares = data["shares"]
    if not isinstance(shares, list) or len(shares) != count:
        raise checks.damaged("shares")
    for s in shares:
        if not checks.ints(s, 3, 0, MAX_IN_CLUB) or s[0] + s[1] + s[2] > MAX_SHARES:
            raise checks.damaged("shares")
    if not checks.ints(data["order"], count, 0, count - 1) or sorted(data["order"]) != list(range(count)):
        raise checks.damaged("playing order")
    if not _base.is_int(data["first"], 0, count - 1):
        raise checks.damaged("first player")
    if not _base.is_int(data["laps"], 0, LAPS):
        raise checks.damaged("lap count")
    if not _base.is_int(data["pos"], 0, count - 1):
        raise checks.damaged("turn")
    if data["laps"] < LAPS and not seated[rotation(data)[data["pos"]]]:
        raise checks.damaged("turn")
    payouts = data["payouts"]
    due = [n for n in setup[3] if n <= data["laps"]]
    if not isinstance(payouts, list) or len(payouts) != len(due):
        raise checks.damaged("payout list")
    for p, n in zip(payouts, due):
        if not isinstance(p, dict) or p.get("lap") != n or not checks.ints(p.get("values"), 3, 0, MAX_VALUE):
            raise checks.damaged("payout")
        if not checks.ints(p.get("amounts"), count, 0, MAX_SHARES * MAX_VALUE):
            raise checks.damaged("payout")
        reset = setup[4].get(n)
        expected = list(reset) if reset else None
        if "reset" not in p or p["reset"] != expected or len(p) != 4:
            raise checks.damaged("payout")
    log = data["log"]
    if not isinstance(log, list):
        raise checks.damaged("log")
    for e in log:
        if not _log_entry_ok(e, count):
            raise checks.damaged("log entry")
    return to_dict(data)


# ---------------------------------------------------------------- the outside checks' contract


class ReplayError(ValueError):
    """A replayed game's turn list was refused; the message names the turn and the reason."""


def _replay_turn(turn):
    # One ("join", club) / ("promote", club) / ("switch", from, to) / ("pass",) as (name, args).
    if not isinstance(turn, (tuple, list)) or not turn:
        raise GameError("a turn is a tuple such as (\"join\", \"A\")")
    name = turn[0]
    sizes = {"join": 2, "promote": 2, "switch": 3, "pass": 1}
    if type(name) is not str or name not in sizes:
        raise GameError("unknown action: choose join, promote, switch or pass")
    if len(turn) != sizes[name]:
        raise GameError("%s takes %d club(s)" % (name, sizes[name] - 1))
    if name == "switch":
        return name, {"from": turn[1], "to": turn[2]}
    if name == "pass":
        return name, {}
    return name, {"club": turn[1]}


def replay(setup_id, players, first, turns):
    """Plays `turns` (in play order) from the start and reports the result so far.

    Returns {"payouts": per seat [p1, p2, p3] (0 until paid), "values": (a, b, c),
    "shares": per seat (a, b, c), "laps": laps completed}. Anything refused raises ReplayError
    (a ValueError) naming the turn (counted from 1) and the reason; nothing else is raised.
    """
    try:
        if not _base.is_int(players, MIN_PLAYERS, MAX_PLAYERS):
            raise GameError("players must be a whole number from 2 to 8")
        if not _base.is_int(first, 0, players - 1):
            raise GameError("first must be a seat from 0 to %d" % (players - 1))
        state = new_game(["P%d" % (i + 1) for i in range(players)], {"setup": setup_id, "first": first})
    except Exception as e:
        raise ReplayError("setup: %s" % _reason(e))
    try:
        pending = iter(turns)
    except Exception as e:
        raise ReplayError("turns: %s" % _reason(e))
    number = 0
    while True:
        number += 1
        try:
            try:
                turn = next(pending)
            except StopIteration:
                break
            if is_over(state):
                raise GameError("surplus turn: the game is over after six laps")
            name, args = _replay_turn(turn)
            move(state, current(state), name, args)
        except Exception as e:
            raise ReplayError("turn %d: %s" % (number, _reason(e)))
    paid = [[0, 0, 0] for _ in range(players)]
    for k, p in enumerate(state["payouts"]):
        for i in range(players):
            paid[i][k] = p["amounts"][i]
    return {
        "payouts": paid,
        "values": tuple(state["values"]),
        "shares": [tuple(s) for s in state["shares"]],
        "laps": state["laps"],
    }


def _reason(e):
    if isinstance(e, GameError):
        return e.message
    return "%s %s" % (type(e).__name__, e)
