# A whole Paper Current table driven from one seed: three rounds, a new course, another three;
# runs unchanged under CPython and MicroPython so the host tests can check that both interpreters
# end in the identical state.
from tidebox.games import paper_current as pc
from tidebox.games.seeded import Seeded

BAD_MOVES = (
    ("launch", {}), ("back", {}), ("confirm", {}), ("replay_round", {}), ("next_round", {}),
    ("set_result", {"boat": 9, "result": 1}), ("set_result", {"boat": 1, "result": True}),
    ("set_result", {"boat": 1, "result": 3}), ("fly", {}), ("set_result", {"boat": 2, "result": 1, "was": 2}),
)


def play(seed, players):
    rng = Seeded(seed)
    names = ["P%d" % i for i in range(players)]
    options = {"first": rng.below(players), "target": pc.TARGET_CHOICES[rng.below(len(pc.TARGET_CHOICES))][0]}
    for key, _ in pc.ACCESS:
        options[key] = rng.below(2) == 1
    state = pc.new_game(names, options, rng.below)
    refusals = 0
    moves = 0
    courses = []
    views = []
    winners = []
    for _course in range(2):
        while not pc.is_over(state):
            # Sometimes try something out of turn (a refusal must change nothing).
            if rng.below(5) == 0:
                name, args = BAD_MOVES[rng.below(len(BAD_MOVES))]
                seat = None if rng.below(2) else rng.below(players)
                try:
                    pc.move(state, seat, name, args)
                except pc.GameError:
                    refusals += 1
            if players > 2 and rng.below(60) == 0:
                try:
                    pc.leave(state, rng.below(players))
                except pc.GameError:
                    refusals += 1
            if pc.is_over(state):  # one of those tries was a legal confirm
                break
            seat = None if rng.below(3) else rng.below(players)
            options = pc.legal_moves(state, seat)
            if not options:
                options = pc.legal_moves(state, None)
                seat = None
            # Prefer going forward so games end: launches, entering results, confirming.
            pick = options[rng.below(len(options))]
            for m in options:
                if m["move"] in ("launch", "confirm", "next_round") and rng.below(4):
                    pick = m
            if pick["move"] == "replay_round" and rng.below(3):
                pick = options[0]
            try:
                pc.move(state, seat, pick["move"], pick["args"])
            except pc.GameError:
                refusals += 1  # a phone seat that has left
            moves += 1
        views.append(pc.public_view(state))
        courses.append(pc.to_dict(state))
        winners.append([pc.winners(state), pc.standings(state)])
        state = pc.new_course(state, rng.below)
    return {"courses": courses, "views": views, "refusals": refusals, "moves": moves,
            "winners": winners, "next": pc.to_dict(state)}


def all_bonuses(card_id):
    """The card's bonus for every one of the 3^8 result vectors, as one string of digits."""
    out = bytearray(3 ** 8)
    boats = [0] * 8
    for n in range(3 ** 8):
        v = n
        for i in range(8):
            boats[i] = v % 3
            v //= 3
        out[n] = 48 + pc.bonus(card_id, boats)  # ASCII "0" or "2"
    return out.decode()
