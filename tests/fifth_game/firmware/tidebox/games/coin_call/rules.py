# Coin Call: the rules as plain data and pure functions (no I/O, no clock, no hardware, no global
# random). Three flips of a coin (or five): before each, every player calls heads or tails from their
# phone, unseen by the others; once all have called, the reader flips the coin on the box (every
# flip landed when the game was set up, from the box's random source) and each right call scores a
# point. The most points win; tied players share the win.

from tidebox.games import base as _base
from tidebox.games.base import GameError, NotNow, ranked

GAME_ID = "coin_call"
TITLE = "Coin Call"
SHORT = "Coin Call"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
SIDES = ("heads", "tails")
OPTIONS = (("flips", "Flips", ((3, "3 flips"), (5, "5 flips"))),)
MOVES = ("call", "flip")
VIEW_ROOM = 1024  # the phones' shared view at its largest: 803 bytes on the worst-case walk


def new_game(names, options=None, below=None):
    """A new game for 2-8 named players; options: {"flips": 3 | 5}; below(n): the random source."""
    from tidebox.games import checks  # let go of after the call (box.checked)

    clean = checks.check_players(names, TITLE, MIN_PLAYERS, MAX_PLAYERS)
    if options is None:
        options = {}
    if not isinstance(options, dict) or [k for k in options if k != "flips"]:
        raise GameError("the only option is flips")
    flips = options.get("flips", 3)
    if type(flips) is not int or flips not in (3, 5):
        raise GameError("flips must be 3 or 5")
    if below is None:
        raise GameError("the coin needs a random source")
    count = len(clean)
    coins = [SIDES[below(2)] for _ in range(flips)]
    return {"game": GAME_ID, "names": clean, "seated": [True] * count, "coins": coins, "flipped": 0,
            "calls": [None] * count, "right": [0] * count}


def is_over(state):
    return state["flipped"] == len(state["coins"])


def waiting(state):
    """The seated players who have not called this flip yet."""
    return [i for i in range(len(state["names"])) if state["seated"][i] and state["calls"][i] is None]


def to_act(state):
    return [] if is_over(state) else waiting(state)


def legal_moves(state, seat):
    if is_over(state):
        return []
    if seat is None:
        return [] if waiting(state) else [{"move": "flip", "args": {}}]
    if seat in waiting(state):
        return [{"move": "call", "args": {"side": side}} for side in SIDES]
    return []


def move(state, seat, name, args):
    """A phone's call ({"side": "heads" | "tails"}), or the box's flip (seat None, no args)."""
    if name not in MOVES:
        raise GameError("unknown move")
    if not isinstance(args, dict):
        raise GameError("args must be an object")
    if name == "call":
        _base.check_seat(state, seat)
        if list(args) != ["side"] or args["side"] not in SIDES:
            raise GameError("call heads or tails")
        if is_over(state):
            raise NotNow("the game is over")
        if state["calls"][seat] is not None:
            raise NotNow("you have called this flip already")
        state["calls"][seat] = args["side"]
        return state
    if seat is not None:
        raise GameError("only the box flips the coin")
    if args:
        raise GameError("a flip takes no args")
    if is_over(state):
        raise NotNow("the game is over")
    if waiting(state):
        raise NotNow("not everyone has called")
    coin = state["coins"][state["flipped"]]
    for i, call in enumerate(state["calls"]):
        if call == coin:
            state["right"][i] += 1
    state["calls"] = [None] * len(state["names"])
    state["flipped"] += 1
    return state


def leave(state, seat):
    """The reader drops a player: they call no more, and keep the points they have."""
    if is_over(state):
        raise NotNow("the game is over")
    _base.check_leaving(state, seat, MIN_PLAYERS)
    state["seated"][seat] = False
    state["calls"][seat] = None
    return state


def standings(state):
    return ranked(state["right"])


def winners(state):
    """The most right calls win; tied players share the win. Only once the game is over."""
    if not is_over(state):
        return []
    best = max(state["right"])
    return [i for i in range(len(state["right"])) if state["right"][i] == best]


def public_view(state):
    return {"game": GAME_ID, "sides": list(SIDES), "flips": len(state["coins"]), "flipped": state["flipped"],
            "coins": state["coins"][:state["flipped"]], "seated": list(state["seated"]),
            "called": [c is not None for c in state["calls"]], "right": list(state["right"]),
            "over": is_over(state), "winners": winners(state)}


def private_view(state, seat):
    """This seat's own call on this flip, and its legal calls."""
    return {"call": state["calls"][seat], "legal": legal_moves(state, seat)}


_KEYS = ("game", "names", "seated", "coins", "flipped", "calls", "right")


def to_dict(state):
    return {"game": state["game"], "names": list(state["names"]), "seated": list(state["seated"]),
            "coins": list(state["coins"]), "flipped": state["flipped"], "calls": list(state["calls"]),
            "right": list(state["right"])}


def _ints(value, count, high):
    return (isinstance(value, list) and len(value) == count
            and not [v for v in value if type(v) is not int or not 0 <= v <= high])


def from_dict(data):
    from tidebox.games import checks  # let go of after the call (box.checked)

    count = checks.check_save(data, GAME_ID, SHORT, _KEYS, MIN_PLAYERS, MAX_PLAYERS)
    seated, coins, flipped, calls = data["seated"], data["coins"], data["flipped"], data["calls"]
    if [n for n in data["names"] if type(n) is not str or not n]:
        raise GameError("saved game has damaged names")
    if not isinstance(seated, list) or len(seated) != count or [s for s in seated if type(s) is not bool]:
        raise GameError("saved game has damaged seats")
    if not isinstance(coins, list) or len(coins) not in (3, 5) or [c for c in coins if c not in SIDES]:
        raise GameError("saved game has damaged coins")
    if type(flipped) is not int or not 0 <= flipped <= len(coins) or not _ints(data["right"], count, flipped):
        raise GameError("saved game has damaged points")
    if not isinstance(calls, list) or len(calls) != count or [c for c in calls if c not in (None,) + SIDES]:
        raise GameError("saved game has damaged calls")
    if [i for i in range(count) if calls[i] is not None and (not seated[i] or flipped == len(coins))]:
        raise GameError("saved game has a call it cannot have")
    return to_dict(data)
