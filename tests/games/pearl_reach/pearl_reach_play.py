# Whole Pearl Reach games between computer rivals, driven from one seed; runs unchanged under CPython
# and MicroPython so the host tests can check that both interpreters end in the identical state, and
# so the bench can time a rival's move on the MicroPython unix port.
from tidebox.games.pearl_reach import rivals as V
from tidebox.games.pearl_reach import rules as R
from tidebox.games.seeded import Seeded


def play(seed, gatherers, strengths):
    """A seeded game: every seat a rival of the given strength; some refused moves tried on the way."""
    rng = Seeded(seed)
    names = ["P%d" % i for i in range(1 + rng.below(gatherers))]
    options = {"rivals": gatherers - len(names)}
    if rng.below(2):
        options["first"] = rng.below(gatherers)
    state = R.new_game(names, options, rng.below)
    refusals = 0
    played = []
    while not R.is_over(state):
        seat = R.current(state)
        if rng.below(6) == 0:  # something illegal, which must change nothing
            try:
                R.move(state, seat, "place", {"cell": rng.below(R.CELLS + 3)})
                played.append(["stray place"])
                continue
            except R.GameError:
                refusals += 1
        shift, place = V.choose(state, seat, rng.below, strengths[seat % len(strengths)])
        if shift is not None:
            R.move(state, seat, "shift", shift)
        R.move(state, seat, "place", place)
        played.append([seat, shift, place])
    return {"state": R.to_dict(state), "refusals": refusals, "played": played,
            "standings": R.standings(state), "winners": R.winners(state)}


def time_moves(games, gatherers, strength, repeats=3):
    """Microseconds per rival choice over `games` seeded games: [moves, total, worst]. Each choice is
    timed `repeats` times on the same coast (the rival leaves the state alone), the collector run
    before each, and the fastest counts: the rival's own work, without a collection or the machine's
    other load landing in one run."""
    import gc
    import time

    moves = 0
    total = 0
    worst = 0
    for seed in range(1, games + 1):
        rng = Seeded(seed)
        state = R.new_game(["P"], {"rivals": gatherers - 1, "first": 0}, rng.below)
        while not R.is_over(state):
            seat = R.current(state)
            fastest = None
            for _ in range(repeats):
                below = Seeded(seed * 1000 + moves).below
                gc.collect()
                start = time.ticks_us()
                V.choose(state, seat, below, strength)
                spent = time.ticks_diff(time.ticks_us(), start)
                if fastest is None or spent < fastest:
                    fastest = spent
            shift, place = V.choose(state, seat, rng.below, strength)
            moves += 1
            total += fastest
            worst = max(worst, fastest)
            if shift is not None:
                R.move(state, seat, "shift", shift)
            R.move(state, seat, "place", place)
    return [moves, total, worst]


def count_moves(games, gatherers, strength):
    """Plays `games` seeded games (for instruction counts); returns the number of rival choices."""
    moves = 0
    for seed in range(1, games + 1):
        rng = Seeded(seed)
        state = R.new_game(["P"], {"rivals": gatherers - 1, "first": 0}, rng.below)
        while not R.is_over(state):
            seat = R.current(state)
            shift, place = V.choose(state, seat, rng.below, strength)
            moves += 1
            if shift is not None:
                R.move(state, seat, "shift", shift)
            R.move(state, seat, "place", place)
    return moves
