# Paper Current: the rules as plain data and pure functions.
#
# Cooperative and physical: the table slides eight paper boats into a paper harbour, three rounds,
# one shared score. The box keeps the bookkeeping: which course cards, whose launch, what each boat
# scores, whether the card's bonus holds, the running total against the table's target.
#
# No I/O, no clock, no hardware, no global random: the same module runs under CPython (host tests)
# and MicroPython (the box). A game is a JSON-able dict; every move validates first and only then
# changes the dict, so a refused move leaves the state exactly as it was.

from tidebox.games import base as _base  # the checks every game's rules make
from tidebox.games.base import GameError, NotNow
from tidebox.games.base import ranked, shuffled

GAME_ID = "paper_current"
TITLE = "Paper Current"
SHORT = "Paper Current"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_NAME = 12
VIEW_ROOM = 2304  # the phones' shared view at its largest: 1931 bytes on the worst-case walk

ROUNDS = 3  # "Shuffle the 12 course cards and draw three. Play one card per round"
BOATS = 8  # "There are exactly eight launches per round"; boats are labelled 1-8
RESULTS = (0, 1, 2)  # out / OUTER / INNER
INNER_POINTS = 2
OUTER_POINTS = 1
BONUS_POINTS = 2  # "the card's 0-or-2-point bonus"
MAX_ROUND = BOATS * INNER_POINTS + BONUS_POINTS  # 18: "Maximum is 18 points per round."
MAX_TOTAL = ROUNDS * MAX_ROUND  # 54: "the shared total out of 54"
DEFAULT_TARGET = 24  # "agree on a target before playing, such as 24"

ZONES = ("left", "centre", "right")

# The 12 course cards in the rule sheet's printed order: (card_id, launch zone, name).
COURSE_CARDS = (
    ("P01", "centre", "Two Safe Arrivals"), ("P02", "left", "One at the Heart"),
    ("P03", "right", "Four in Harbour"), ("P04", "centre", "Gentle Edges"),
    ("P05", "left", "Paired Centre"), ("P06", "right", "Mixed Moorings"),
    ("P07", "centre", "Early Boat"), ("P08", "left", "Late Arrival"),
    ("P09", "right", "Neighbours Home"), ("P10", "centre", "Balanced Visit"),
    ("P11", "left", "Five Afloat"), ("P12", "right", "Last Pair"),
)

# Each card's bonus in the rule sheet's words, in the same order.
BONUS_WORDS = (
    "+2 points if at least two boats each score 1 or 2; otherwise +0.",
    "+2 points if at least one boat scores 2; otherwise +0.",
    "+2 points if at least four boats each score 1 or 2; otherwise +0.",
    "+2 points if at least three boats score exactly 1; otherwise +0.",
    "+2 points if at least two boats score 2; otherwise +0.",
    "+2 points if at least one boat scores 2 and at least two other boats score exactly 1; otherwise +0.",
    "+2 points if boat 1 scores 1 or 2; otherwise +0.",
    "+2 points if boat 8 scores 1 or 2; otherwise +0.",
    "+2 points if boats 4 and 5 both score 1 or 2; otherwise +0.",
    "+2 points if at least two boats score 2 and at least two other boats score exactly 1; otherwise +0.",
    "+2 points if at least five boats each score 1 or 2; otherwise +0.",
    "+2 points if boats 7 and 8 both score 1 or 2; otherwise +0.",
)

# Each card's bonus as data, in the same order: (twos, ones, scoring, boats) means the bonus holds
# when at least `twos` boats score exactly 2, at least `ones` boats score exactly 1, at least
# `scoring` boats score 1 or 2, and every boat numbered in `boats` scores 1 or 2. ("Two other boats
# score exactly 1" needs nothing more: a boat that scores 2 never also scores exactly 1.)
BONUS_NEEDS = (
    (0, 0, 2, ()),
    (1, 0, 0, ()),
    (0, 0, 4, ()),
    (0, 3, 0, ()),
    (2, 0, 0, ()),
    (1, 2, 0, ()),
    (0, 0, 0, (1,)),
    (0, 0, 0, (8,)),
    (0, 0, 0, (4, 5)),
    (2, 2, 0, ()),
    (0, 0, 5, ()),
    (0, 0, 0, (7, 8)),
)

# "A launch zone is always 10 cm wide, centred either on the harbour's centre line, 10 cm to its
# left, or 10 cm to its right. A "left" or "right" direction is from the seated player's view toward
# the harbour."
ZONE_WORDS = {
    "left": "Left: a 10 cm zone centred 10 cm left of the harbour's centre line (seated view)",
    "centre": "Centre: a 10 cm zone centred on the harbour's centre line",
    "right": "Right: a 10 cm zone centred 10 cm right of the harbour's centre line (seated view)",
}

# The harbour's dimensions and the safety notes are the phones' (page.js, the "Build the harbour"
# guide): the box never shows them, and kept here they would hold kilobytes of its heap. The tests check
# the page's copy against the rule sheet (tests/games/paper_current/paper_current_sheet.py).


PHASE_LAUNCH = "launch"  # launches under way (0-7 done)
PHASE_SCORE = "score"  # all eight launched: results being entered
PHASE_SCORED = "scored"  # round confirmed; next round waits
PHASE_OVER = "over"  # three rounds scored
PHASES = (PHASE_LAUNCH, PHASE_SCORE, PHASE_SCORED, PHASE_OVER)

# The access adjustments the rule sheet allows ("Choose any adjustments before the first round and
# keep them fixed"): recorded for the game, never changed by a move.
ACCESS = (
    ("seated", "Play seated"),
    ("long_zone", "Longer zone"),  # a longer release zone (the box has 16 characters a line)
    ("helper", "Helper slides"),
    ("card_push", "Card, not finger"),
)

_ONOFF = ((False, "off"), (True, "on"))
TARGET_CHOICES = tuple((t, "%d of 54" % t) for t in list(range(24, 55, 3)) + list(range(6, 24, 3)))
OPTIONS = (
    ("first", "Starts", "seat"),
    ("target", "Target", TARGET_CHOICES),
) + tuple((key, label, _ONOFF) for key, label in ACCESS)

MOVES = ("launch", "back", "set_result", "confirm", "replay_round", "next_round")


# ---------------------------------------------------------------- the contract: cards and scoring


def _card_index(card_id):
    if type(card_id) is str:
        for i in range(len(COURSE_CARDS)):
            if COURSE_CARDS[i][0] == card_id:
                return i
    raise ValueError("unknown course card")


def _check_boats(boats):
    if type(boats) is not list and type(boats) is not tuple:
        raise ValueError("boats must be a list of eight results")
    if len(boats) != BOATS:
        raise ValueError("boats must hold exactly eight results")
    for r in boats:
        if type(r) is not int or r < 0 or r > 2:  # bool is not int; floats and text refused
            raise ValueError("each boat's result is 0, 1 or 2")


def _holds(needs, boats):
    twos, ones, scoring, numbered = needs
    n2 = 0
    n1 = 0
    for r in boats:
        if r == 2:
            n2 += 1
        elif r == 1:
            n1 += 1
    if n2 < twos or n1 < ones or n1 + n2 < scoring:
        return False
    return all(boats[b - 1] >= 1 for b in numbered)


def bonus(card_id, boats):
    """The card's bonus for eight final results (boat 1 first, each 0, 1 or 2): 0 or 2.
    Anything malformed raises ValueError."""
    i = _card_index(card_id)
    _check_boats(boats)
    return BONUS_POINTS if _holds(BONUS_NEEDS[i], boats) else 0


def round_score(card_id, boats):
    """The eight results added, plus the card's bonus (0..18). ValueError if malformed."""
    b = bonus(card_id, boats)
    return sum(boats) + b


def launcher(players, first, launch):
    """The seat making overall launch number `launch` (0-based, counted across rounds without ever
    restarting) for `players` seats in seating order, the first launch made by seat `first`."""
    for v in (players, first, launch):
        if type(v) is not int:
            raise ValueError("players, first and launch are whole numbers")
    if players < 1 or not 0 <= first < players or launch < 0:
        raise ValueError("first must be a seat and launch not negative")
    return (first + launch) % players


def card_info(card_id):
    """A card for display: id, name, zone, zone words and bonus words. ValueError if unknown."""
    i = _card_index(card_id)
    cid, zone, name = COURSE_CARDS[i]
    return {"id": cid, "name": name, "zone": zone, "zone_words": ZONE_WORDS[zone], "bonus": BONUS_WORDS[i]}


# ---------------------------------------------------------------- setup



def _draw_course(below):
    if below is None:
        raise GameError("a new course needs a random source")
    order = shuffled(range(len(COURSE_CARDS)), below)
    return [COURSE_CARDS[i][0] for i in order[:ROUNDS]]


def _option_bool(options, key):
    value = options.get(key, False)
    if value is not True and value is not False:
        raise GameError("an access adjustment is on or off")
    return value


def new_game(names, options=None, below=None):
    """A new course for 2-8 named players in seating order. `options`: first (the starting seat,
    default 0), target (1-54, default 24) and the access adjustments (True/False). `below(n)` is
    the injected random source that shuffles the course cards."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise GameError("options must be an object")
    from tidebox.games import checks  # let go of after the call (box.checked)

    clean = checks.check_players(names, TITLE, MIN_PLAYERS, MAX_PLAYERS, MAX_NAME)
    first = options.get("first", 0)
    if type(first) is not int or not 0 <= first < len(clean):
        raise GameError("the starting player must be one of the seats")
    target = options.get("target", DEFAULT_TARGET)
    if type(target) is not int or not 1 <= target <= MAX_TOTAL:
        raise GameError("the target is a whole number from 1 to 54")
    access = {}
    for key, _ in ACCESS:
        access[key] = _option_bool(options, key)
    course = _draw_course(below)
    return _fresh(clean, [True] * len(clean), first, target, access, course, [])


def _fresh(names, seated, first, target, access, course, past):
    state = {
        "game": GAME_ID,
        "names": list(names),
        "seated": list(seated),
        "first": first,  # who made the course's first launch
        "target": target,
        "access": dict(access),
        "course": course,  # the three drawn card ids, one per round
        "round": 0,  # 0-based index into course
        "phase": PHASE_LAUNCH,
        "launch": 0,  # launches made this round (0-8)
        "launchers": [],  # the seat launching each boat this round (index = boat - 1)
        "results": [None] * BOATS,  # each boat's final result once entered
        "replays": 0,  # how often the current round was replayed
        "rounds": [],  # one record per confirmed round
        "total": 0,
        "past": past,  # earlier courses' totals at this table, oldest first (at most 10)
    }
    state["launchers"] = _schedule(state, first, BOATS)
    return state


def new_course(state, below, first=None):
    """A new course at the same table once this one is over: a fresh shuffled draw, the same
    players, target and access adjustments. The seating rotation carries on from the last launch
    unless `first` names the starting seat."""
    if state["phase"] != PHASE_OVER:
        raise NotNow("finish this course first")
    if first is None:
        first = _base.next_seated(state, state["launchers"][BOATS - 1])
    elif type(first) is not int or not 0 <= first < len(state["names"]) or not state["seated"][first]:
        raise GameError("the starting player must be one of the seated players")
    course = _draw_course(below)
    past = (state["past"] + [state["total"]])[-10:]
    return _fresh(state["names"], state["seated"], first, state["target"], state["access"], course, past)


# ---------------------------------------------------------------- launches


def _schedule(state, start, count):
    """`count` launches in seating order over the seated players, starting with `start` (or the
    next seated player after it, if it has left)."""
    if not state["seated"][start]:
        start = _base.next_seated(state, start)
    out = [start]
    while len(out) < count:
        out.append(_base.next_seated(state, out[-1]))
    return out


def current_card(state):
    return card_info(state["course"][min(state["round"], ROUNDS - 1)])


def boats_of(state, seat):
    """The boat numbers `seat` launches this round."""
    return [i + 1 for i in range(BOATS) if state["launchers"][i] == seat]


def _check_args(args):
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise GameError("a move's arguments must be an object")
    return args


def _result_value(value, what):
    if type(value) is not int or not 0 <= value <= 2:
        raise GameError(what + " is 0 (out), 1 (outer) or 2 (inner)")
    return value


def _launch(state):
    if state["phase"] != PHASE_LAUNCH:
        raise NotNow("all eight boats are launched" if state["phase"] == PHASE_SCORE else "no launch now")
    state["launch"] += 1
    if state["launch"] == BOATS:
        state["phase"] = PHASE_SCORE


def _back(state):
    if state["phase"] == PHASE_SCORE:
        for r in state["results"]:
            if r is not None:
                raise NotNow("results are being entered: replay the round to launch again")
        state["phase"] = PHASE_LAUNCH
        state["launch"] = BOATS - 1
        return
    if state["phase"] != PHASE_LAUNCH or state["launch"] == 0:
        raise NotNow("no launch to go back to")
    state["launch"] -= 1


def _set_result(state, args):
    boat = args.get("boat")
    if type(boat) is not int or not 1 <= boat <= BOATS:
        raise GameError("a boat is numbered 1 to 8")
    result = _result_value(args.get("result"), "a result")
    checked = "was" in args
    if checked and args["was"] is not None:
        _result_value(args["was"], "a previous result")
    if state["phase"] != PHASE_SCORE:
        raise NotNow("results are entered after all eight launches")
    now = state["results"][boat - 1]
    if checked and args["was"] != now:
        # Two phones editing at once: the later one is refused, not silently overwritten, and told
        # what the boat holds now, in the phones' words for it.
        if now is None:
            raise NotNow("boat %d's result was just cleared" % boat)
        raise NotNow("someone else just set boat %d to %d %s" % (boat, now, ("out", "outer", "inner")[now]))
    state["results"][boat - 1] = result


def _confirm(state):
    if state["phase"] != PHASE_SCORE:
        raise NotNow("a round is confirmed after all eight launches")
    for r in state["results"]:
        if r is None:
            raise NotNow("enter every boat's result first")
    card = state["course"][state["round"]]
    results = list(state["results"])
    extra = bonus(card, results)
    score = sum(results) + extra
    state["rounds"].append({
        "card": card,
        "first": state["launchers"][0],
        "results": results,
        "boats": sum(results),
        "bonus": extra,
        "score": score,
    })
    state["total"] += score
    state["phase"] = PHASE_OVER if state["round"] == ROUNDS - 1 else PHASE_SCORED


def _replay_round(state):
    if state["phase"] not in (PHASE_LAUNCH, PHASE_SCORE) or (
        state["phase"] == PHASE_LAUNCH and state["launch"] == 0
    ):
        raise NotNow("nothing to replay: no boat of this round has been launched")
    # "replay the whole current round with the same starting player"
    state["launchers"] = _schedule(state, state["launchers"][0], BOATS)
    state["launch"] = 0
    state["results"] = [None] * BOATS
    state["replays"] += 1
    state["phase"] = PHASE_LAUNCH


def _next_round(state):
    if state["phase"] != PHASE_SCORED:
        if state["phase"] == PHASE_OVER:
            raise NotNow("the course is over")
        raise NotNow("confirm this round's score first")
    # "Continue the seating rotation across rounds rather than restarting it."
    start = _base.next_seated(state, state["launchers"][BOATS - 1])
    state["round"] += 1
    state["launch"] = 0
    state["launchers"] = _schedule(state, start, BOATS)
    state["results"] = [None] * BOATS
    state["replays"] = 0
    state["phase"] = PHASE_LAUNCH


def move(state, seat, name, args):
    """Apply one move. The box (seat None) launches, goes back, enters results, confirms, replays
    and turns to the next round; any seated phone may enter results (the game is cooperative and
    nothing is hidden). Refusals raise GameError (400) or NotNow (409) and change nothing."""
    if name not in MOVES:
        raise GameError("Paper Current has no move called that")
    if seat is not None:
        _base.check_seat(state, seat)
    args = _check_args(args)
    if name == "set_result":
        _set_result(state, args)
        return state
    if seat is not None:
        raise NotNow("only the box does that; phones enter results")
    if name == "launch":
        _launch(state)
    elif name == "back":
        _back(state)
    elif name == "confirm":
        _confirm(state)
    elif name == "replay_round":
        _replay_round(state)
    else:
        _next_round(state)
    return state


def leave(state, seat):
    """A player leaves: the launches still to come this round, and every later round, skip them."""
    if state["phase"] == PHASE_OVER:
        raise NotNow("the course is over")
    _base.check_leaving(state, seat, MIN_PLAYERS)
    state["seated"][seat] = False
    if state["phase"] == PHASE_LAUNCH:
        done = state["launch"]
        if done == 0:
            state["launchers"] = _schedule(state, state["launchers"][0], BOATS)
        else:
            rest = _schedule(state, _base.next_seated(state, state["launchers"][done - 1]), BOATS - done)
            state["launchers"] = state["launchers"][:done] + rest
    return state


# ---------------------------------------------------------------- the box's game interface


def to_act(state):
    """Everyone seated may enter results once all eight boats are launched; otherwise only the box
    acts (launches are physical)."""
    if state["phase"] != PHASE_SCORE:
        return []
    return [i for i in range(len(state["names"])) if state["seated"][i]]


def _result_moves(state):
    out = []
    for i in range(BOATS):
        now = state["results"][i]
        for r in RESULTS:
            if r != now:
                out.append({"move": "set_result", "args": {"boat": i + 1, "result": r, "was": now},
                            "label": "Boat %d: %d" % (i + 1, r)})
    return out


def legal_moves(state, seat):
    """The moves `seat` (None = the box) may make now, each with its exact args."""
    phase = state["phase"]
    if seat is not None:
        if type(seat) is not int or not 0 <= seat < len(state["names"]) or not state["seated"][seat]:
            return []
        return _result_moves(state) if phase == PHASE_SCORE else []
    if phase == PHASE_LAUNCH:
        k = state["launch"]
        who = state["names"][state["launchers"][k]]
        out = [{"move": "launch", "args": {}, "label": "Boat %d: %s launched" % (k + 1, who)}]
        if k > 0:
            out.append({"move": "back", "args": {}, "label": "Back to boat %d" % k})
            out.append({"move": "replay_round", "args": {}, "label": "Replay this round"})
        return out
    if phase == PHASE_SCORE:
        out = _result_moves(state)
        if None not in state["results"]:
            out.append({"move": "confirm", "args": {}, "label": "Confirm round"})
        else:
            if state["results"].count(None) == BOATS:
                out.append({"move": "back", "args": {}, "label": "Back to boat %d" % BOATS})
        out.append({"move": "replay_round", "args": {}, "label": "Replay this round"})
        return out
    if phase == PHASE_SCORED:
        return [{"move": "next_round", "args": {}, "label": "Next round"}]
    return []


def is_over(state):
    return state["phase"] == PHASE_OVER


def reached(state):
    """Whether the shared total has reached the table's target."""
    return state["total"] >= state["target"]


def standings(state):
    """Cooperative: one shared score. Every seat gets the shared total, so everyone ranks 1."""
    return ranked([state["total"]] * len(state["names"]))


def winners(state):
    """There are no individual winners: the whole table wins (every seat) when the course is over
    and the shared total reached the target; otherwise nobody ([])."""
    if state["phase"] != PHASE_OVER or not reached(state):
        return []
    return list(range(len(state["names"])))


def _round_view(record, number):
    card = card_info(record["card"])
    return {"n": number, "card": record["card"], "name": card["name"], "zone": card["zone"],
            "first": record["first"], "results": record["results"], "boats": record["boats"],
            "bonus": record["bonus"], "score": record["score"]}


def public_view(state):
    """Everything public (nothing in Paper Current is secret; the cards still to come stay face down)."""
    phase = state["phase"]
    k = state["launch"]
    launching = phase == PHASE_LAUNCH
    seat = state["launchers"][k] if launching else None
    entered = [r if r is not None else 0 for r in state["results"]]
    card = state["course"][state["round"]]
    return {
        "game": GAME_ID,
        "phase": phase,
        "names": state["names"],
        "seated": state["seated"],
        "card": current_card(state),
        "round": state["round"] + 1,
        "rounds": ROUNDS,
        "launch": k + 1 if launching else k,  # launch k of 8 (8 once all are made)
        "launches": BOATS,
        "boat": k + 1 if launching else None,  # the boat to launch now
        "launcher": seat,  # whose launch it is
        "launcher_name": state["names"][seat] if seat is not None else None,
        "order": state["launchers"],  # the seat launching each boat this round
        "results": state["results"],
        "entered": BOATS - state["results"].count(None),
        "so_far": sum(entered),  # the entered results added
        "bonus_holds": bonus(card, entered) > 0,  # with the results entered so far
        "replays": state["replays"],
        "round_scores": [r["score"] for r in state["rounds"]],
        "played": [_round_view(r, i + 1) for i, r in enumerate(state["rounds"])],
        "total": state["total"],
        "max_total": MAX_TOTAL,
        "target": state["target"],
        "reached": reached(state),
        "over": phase == PHASE_OVER,
        "access": state["access"],
        "first": state["first"],
        "past": state["past"],
        "winners": winners(state),
    }


def private_view(state, seat):
    """This seat's own boats this round (nothing is secret; it saves each phone searching)."""
    if type(seat) is not int or not 0 <= seat < len(state["names"]):
        return {}
    mine = boats_of(state, seat)
    now = state["phase"] == PHASE_LAUNCH and state["launchers"][state["launch"]] == seat
    later = [b for b in mine if state["phase"] == PHASE_LAUNCH and b > state["launch"]]
    return {"you": seat, "boats": mine, "now": now, "next": later[0] if later else None}


# ---------------------------------------------------------------- saving

_KEYS = (
    "game", "names", "seated", "first", "target", "access", "course", "round", "phase", "launch",
    "launchers", "results", "replays", "rounds", "total", "past",
)


def to_dict(state):
    """The state as a JSON-able dict (it already is one; this copies the top level)."""
    return {k: state[k] for k in _KEYS}


def from_dict(data):
    """Checks a loaded dict's shape and returns it as a state; GameError if it is not one."""
    from tidebox.games import checks  # let go of after the call (box.checked)

    count = checks.check_save(data, GAME_ID, SHORT, _KEYS, MIN_PLAYERS, MAX_PLAYERS,
                       "saved game has a damaged player list")
    for n in data["names"]:
        if type(n) is not str:
            raise checks.damaged("player list")
    seated = data["seated"]
    if not isinstance(seated, list) or len(seated) != count:
        raise checks.damaged("seat list")
    for s in seated:
        if s is not True and s is not False:
            raise checks.damaged("seat list")
    if not _base.is_int(data["first"], 0, count - 1):
        raise checks.damaged("starting player")
    if not _base.is_int(data["target"], 1, MAX_TOTAL):
        raise checks.damaged("target")
    access = data["access"]
    if not isinstance(access, dict) or len(access) != len(ACCESS):
        raise checks.damaged("access list")
    for key, _ in ACCESS:
        if access.get(key) is not True and access.get(key) is not False:
            raise checks.damaged("access list")
    course = data["course"]
    if not isinstance(course, list) or len(course) != ROUNDS:
        raise checks.damaged("course")
    for c in course:
        try:
            _card_index(c)
        except ValueError:
            raise checks.damaged("course")
        if course.count(c) != 1:
            raise checks.damaged("course")
    phase = data["phase"]
    if phase not in PHASES:
        raise checks.damaged("phase")
    if not _base.is_int(data["round"], 0, ROUNDS - 1):
        raise checks.damaged("round")
    if not _base.is_int(data["launch"], 0, BOATS):
        raise checks.damaged("launch")
    if (phase == PHASE_LAUNCH) != (data["launch"] < BOATS):
        raise checks.damaged("launch")
    launchers = data["launchers"]
    if not isinstance(launchers, list) or len(launchers) != BOATS:
        raise checks.damaged("launch order")
    for s in launchers:
        if not _base.is_int(s, 0, count - 1):
            raise checks.damaged("launch order")
    results = data["results"]
    if not isinstance(results, list) or len(results) != BOATS:
        raise checks.damaged("results")
    for r in results:
        if r is not None and not _base.is_int(r, 0, 2):
            raise checks.damaged("results")
    if not _base.is_int(data["replays"], 0, 1 << 30):
        raise checks.damaged("replay count")
    rounds = data["rounds"]
    done = data["round"] + (1 if phase in (PHASE_SCORED, PHASE_OVER) else 0)
    if not isinstance(rounds, list) or len(rounds) != done or (phase == PHASE_OVER) != (done == ROUNDS):
        raise checks.damaged("round list")
    total = 0
    for i, r in enumerate(rounds):
        if (not isinstance(r, dict) or r.get("card") != course[i]
                or not _base.is_int(r.get("first"), 0, count - 1)):
            raise checks.damaged("round list")
        try:
            score = round_score(r["card"], r.get("results"))
            extra = bonus(r["card"], r.get("results"))
        except ValueError:
            raise checks.damaged("round list")
        if r.get("score") != score or r.get("bonus") != extra or r.get("boats") != score - extra:
            raise checks.damaged("round list")
        total += score
    if data["total"] != total or type(data["total"]) is not int:
        raise checks.damaged("total")
    past = data["past"]
    if not isinstance(past, list) or len(past) > 10:
        raise checks.damaged("list of earlier courses")
    for t in past:
        if not _base.is_int(t, 0, MAX_TOTAL):
            raise checks.damaged("list of earlier courses")
    return to_dict(data)
