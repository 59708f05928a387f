# Whole Quiet Dividend games driven from one seed; runs unchanged under CPython and MicroPython so
# the host tests can check that both interpreters end in the identical state, with the identical
# refusals along the way.
from tidebox.games import quiet_dividend as qd
from tidebox.games.seeded import Seeded

CLUB_NAMES = ("Oak", "Pine", "oak", "B", "", "Riverbed", "Riverbank9", 7)
JUNK = (None, 1, "a", "D", ["A"], True, "")


def random_args(rng):
    kind = rng.below(6)
    if kind == 0:
        return {"club": qd.CLUBS[rng.below(3)]}
    if kind == 1:
        return {"from": qd.CLUBS[rng.below(3)], "to": qd.CLUBS[rng.below(3)]}
    if kind == 2:
        return {}
    if kind == 3:
        return {"club": JUNK[rng.below(len(JUNK))]}
    if kind == 4:
        return {"club": qd.CLUBS[rng.below(3)], "extra": 1}
    return JUNK[rng.below(len(JUNK))]


def attempt(state, rng, refusals):
    # Any move by any seat, often illegal or malformed; a refusal is recorded with its status.
    names = qd.MOVES + ("steal",)
    name = names[rng.below(len(names))]
    seat = rng.below(len(state["names"]) + 1)
    if seat == len(state["names"]):
        seat = None
    args = random_args(rng)
    if rng.below(4):  # mostly a well-formed turn by the right seat, to reach the limits
        seat = qd.to_act(state)[0] if not qd.is_over(state) else seat
        name = ("join", "promote", "switch", "pass")[rng.below(4)]
        if name == "switch":
            args = {"from": qd.CLUBS[rng.below(3)], "to": qd.CLUBS[rng.below(3)]}
        elif name == "pass":
            args = {}
        else:
            args = {"club": qd.CLUBS[rng.below(3)]}
    if name == "rename":
        args = {"club": qd.CLUBS[rng.below(3)], "name": CLUB_NAMES[rng.below(len(CLUB_NAMES))]}
        if rng.below(2):
            seat = None
    try:
        qd.move(state, seat, name, args)
    except qd.GameError as e:
        refusals.append([e.status, e.message])


def play(seed):
    rng = Seeded(seed)
    players = 2 + rng.below(7)
    setup = qd.SETUPS[rng.below(3)][0]
    first = None if rng.below(2) else rng.below(players)
    state = qd.new_game(["P%d" % i for i in range(players)], {"setup": setup, "first": first}, rng.below)
    refusals = []
    if rng.below(3) == 0:
        attempt(state, rng, refusals)
    while not qd.is_over(state):
        if rng.below(6) == 0:
            attempt(state, rng, refusals)
        if players > 2 and rng.below(60) == 0:
            try:
                qd.leave(state, rng.below(players))
            except qd.GameError as e:
                refusals.append([e.status, e.message])
        if qd.is_over(state):
            break
        seat = qd.to_act(state)[0]
        options = qd.legal_moves(state, seat)
        chosen = options[rng.below(len(options))]
        qd.move(state, seat, chosen["move"], chosen["args"])
    again = qd.rematch(state, rng.below)
    return {
        "state": qd.to_dict(state),
        "view": qd.public_view(state),
        "refusals": refusals,
        "rematch": [again["order"], again["first"]],
    }


def play_many(seeds):
    return [play(seed) for seed in seeds]
