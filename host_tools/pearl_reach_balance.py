"""Pearl Reach balance: seeded rival-against-rival games justify this edition's numbers.

    python host_tools/pearl_reach_balance.py [games] [strength]

Two runs over the same seeds, two gatherers each, both seats played by the same rival:
- "own openings": the rivals play every move, so the first gatherer opens where a rival would;
  this gives the first seat's win rate (the aim: 40-60%).
- "every opening": the first gatherer's first marker goes on a cell drawn at random from the whole
  coast, the rivals play the rest; this gives the first seat's win rate by opening placement (the aim:
  none above 60%). Pearls are dealt, so an opening is named by its bay's pearls and its row
  ("5 pearls, row 1" is the water's edge of a 5-pearl bay).
A shared win counts half to each seat. Everything comes from the seed: the figures are identical
on every run and machine.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))

from tidebox.games.pearl_reach import rivals as V  # noqa: E402
from tidebox.games.pearl_reach import rules as R  # noqa: E402
from tidebox.games.seeded import Seeded  # noqa: E402

GAMES = 2000


def rival_game(seed, gatherers=2, strengths=None, random_opening=False):
    """One whole game between rivals, seat 0 setting out first. Returns (state, opening cell)."""
    rng = Seeded(seed)
    strengths = strengths or ("sharp",) * gatherers
    state = R.new_game(["Seat 0"], {"rivals": gatherers - 1, "first": 0}, rng.below)
    opening = None
    while not R.is_over(state):
        seat = R.current(state)
        if opening is None and random_opening:
            options = R.placements(state, seat)
            opening = options[rng.below(len(options))][0]
            R.move(state, seat, "place", {"cell": opening})
            continue
        shift, place = V.choose(state, seat, rng.below, strengths[seat])
        if opening is None:
            opening = place["cell"]
        if shift is not None:
            R.move(state, seat, "shift", shift)
        R.move(state, seat, "place", place)
    return state, opening


def _first_share(state):
    won = R.winners(state)
    return (1.0 / len(won)) if 0 in won else 0.0


def opening_name(state, cell):
    return "%d pearls, row %d" % (state["pearls"][R.bay_of(cell)], R.row_of(cell) + 1)


def balance(games=GAMES, strength="sharp", first_seed=1):
    """The figures as a dict: first-seat win rates and the win rate by opening placement."""
    seeds = range(first_seed, first_seed + games)
    own = 0.0
    for seed in seeds:
        state, _ = rival_game(seed, 2, (strength, strength))
        own += _first_share(state)
    by_opening = {}
    by_row = {}
    anywhere = 0.0
    for seed in seeds:
        state, cell = rival_game(seed, 2, (strength, strength), random_opening=True)
        share = _first_share(state)
        anywhere += share
        for table, key in ((by_opening, opening_name(state, cell)), (by_row, R.row_of(cell) + 1)):
            tally = table.setdefault(key, [0.0, 0])
            tally[0] += share
            tally[1] += 1
    return {
        "games": games,
        "first_seat": own / games,
        "first_seat_any_opening": anywhere / games,
        "by_opening": {k: (v[0] / v[1], v[1]) for k, v in by_opening.items()},
        "by_row": {k: (v[0] / v[1], v[1]) for k, v in by_row.items()},
    }


def best_opening(figures):
    name = max(figures["by_opening"], key=lambda k: figures["by_opening"][k][0])
    return name, figures["by_opening"][name]


def main(argv):
    games = int(argv[1]) if len(argv) > 1 else GAMES
    strength = argv[2] if len(argv) > 2 else "sharp"
    f = balance(games, strength)
    print("Pearl Reach balance: %d two-gatherer games, %s rival against %s" % (games, strength, strength))
    print("numbers: %d bays x %d cells, pearls %s dealt, tides %s, turns each before a tide %s" % (
        R.BAYS, R.ROWS, R.PEARLS, R.TIDE_VALUES, R.TURNS))
    print("first seat wins (rivals' own openings): %.1f%%" % (100 * f["first_seat"]))
    print("first seat wins (opening anywhere):     %.1f%%" % (100 * f["first_seat_any_opening"]))
    print("win rate by opening placement (first seat's first marker), games:")
    for name in sorted(f["by_opening"], key=lambda k: -f["by_opening"][k][0]):
        rate, n = f["by_opening"][name]
        print("  %-18s %5.1f%%  %4d" % (name, 100 * rate, n))
    print("by opening row: " + ", ".join(
        "row %d %.1f%% (%d)" % (k, 100 * v[0], v[1]) for k, v in sorted(f["by_row"].items())))
    name, (rate, n) = best_opening(f)
    print("best opening: %s at %.1f%% of %d games" % (name, 100 * rate, n))
    ok = 0.40 <= f["first_seat"] <= 0.60 and rate <= 0.60
    print("within the aims (first seat 40-60%%, no opening above 60%%): %s" % ("yes" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
