# The game contract on the real MicroPython, for every game in games.GAMES (tests/test_game_contract.py):
# its rules and flow loaded as the box loads them (games.load: the names the box reads, the optional
# ones filled in), and seeded games played with random legal moves, every save on the way read back.
# `play` is imported by the CPython side too, which plays the same seeds and compares.
# Prints one JSON object: {"names": {game: {...}}, "plays": {game: [[seed, moves made, final save,
# saves that did not read back], ...]}}.
import json

from tidebox import games
from tidebox.games.base import GameError
from tidebox.games.seeded import Seeded

# What every game offers: the required names of games.CONTRACT, the one statement of the contract.
REQUIRED = {part: required for part, (required, _optional) in games.CONTRACT.items()}
NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
SEEDS = (1, 2, 3, 4, 5, 6)


def table(rules, rng):
    """A new game at a random table: MIN_PLAYERS to MAX_PLAYERS names and each option one of its
    choices at random (a mix the rules refuse, such as too many rivals, is drawn again)."""
    while True:
        count = rules.MIN_PLAYERS + rng.below(rules.MAX_PLAYERS - rules.MIN_PLAYERS + 1)
        options = {}
        for key, _label, choices in rules.OPTIONS:
            if choices == "seat":
                options[key] = rng.below(count)
            elif choices == "seat_or_random":
                options[key] = None if rng.below(2) else rng.below(count)
            else:
                options[key] = choices[rng.below(len(choices))][0]
        try:
            return rules.new_game(NAMES[:count], options, rng.below)
        except GameError:
            pass


def choose(rules, state, rng, ahead=False):
    """A random legal move as (seat, move): a random one of the seats (or the box, None) that have
    one, then a random one of its legal moves (`ahead`: three times in four its first, which is how
    a game that lists going back beside going on, as Paper Current's launches, reaches its end);
    None when nobody has any."""
    acting = []
    for seat in [None] + list(range(len(state["names"]))):
        legal = rules.legal_moves(state, seat)
        if legal:
            acting.append((seat, legal))
    if not acting:
        return None
    seat, legal = acting[rng.below(len(acting))]
    if ahead:  # a move of the first name listed three times in four, else of any: then any such
        named = []
        for m in legal:
            if m["move"] not in named:
                named.append(m["move"])
        name = named[rng.below(len(named))] if rng.below(4) == 0 else named[0]
        legal = [m for m in legal if m["move"] == name]
    return seat, legal[rng.below(len(legal))]


def play(game_id, seed, moves, each=None):
    """A seeded game of `game_id` played up to `moves` random legal moves in (fewer once nobody has
    one), each move's args as a phone sends them (through JSON); an even seed plays ahead (see
    choose). each(rules, state) is called on the new game and after every move. Returns (rules,
    state, moves made)."""
    rules = games.load(game_id)
    rng = Seeded(seed)
    state = table(rules, rng)
    if each:
        each(rules, state)
    made = 0
    while made < moves:
        picked = choose(rules, state, rng, seed % 2 == 0)
        if picked is None:
            break
        seat, m = picked
        rules.move(state, seat, m["move"], json.loads(json.dumps(m["args"])))
        made += 1
        if each:
            each(rules, state)
    return rules, state, made


def reads_back(rules, state):
    """Whether the state's save, through JSON, reads back (from_dict) as the same game."""
    saved = json.loads(json.dumps(rules.to_dict(state)))
    try:
        loaded = rules.from_dict(json.loads(json.dumps(saved)))
    except GameError:
        return False
    return json.loads(json.dumps(rules.to_dict(loaded))) == saved


def names(game_id):
    rules = games.load(game_id)
    flow = games.load(game_id, "flow")
    return {
        "missing": [n for n in REQUIRED["rules"] if not hasattr(rules, n)]
        + ["flow." + n for n in REQUIRED["flow"] if not hasattr(flow, n)],
        "undo": rules.UNDO, "phone_options": list(rules.PHONE_OPTIONS), "max_name": rules.MAX_NAME,
        "name": rules.check_name("  Ada "), "tick": None if flow.tick is None else callable(flow.tick),
        "acting": None if flow.acting is None else callable(flow.acting),
    }


if __name__ == "__main__":
    out = {"names": {}, "plays": {}}
    for game_id, _title in games.GAMES:
        out["names"][game_id] = names(game_id)
        runs = []
        for seed in SEEDS:
            bad = []

            def check(rules, state, bad=bad):
                if not reads_back(rules, state):
                    bad.append(json.dumps(rules.to_dict(state)))

            rules, state, made = play(game_id, seed, 40 * seed, check)
            runs.append([seed, made, json.dumps(rules.to_dict(state)), bad])
        out["plays"][game_id] = runs
        games.unload(game_id)
    print(json.dumps(out))
