# Pearl Reach's computer rivals: pure, cheap, and legal by construction.
#
# choose(state, seat, below) -> (shift or None, place): `shift` is {"from": cell, "to": cell} and
# `place` is {"cell": cell}, the args of the two moves, to be applied in that order. Candidates come
# only from the rules' own lists (rules.shifts, rules.placements), and the placement is picked on the
# coast as it stands after the chosen shift, so both moves are legal when played in order.
#
# The work is bounded and small for a 133 MHz RP2040: no search tree, no recursion. Each candidate is
# scored by re-scoring only the bay or two it changes (a bay's score reads its ROWS cells), so a move
# costs at most 5 + P + S + P bay scores (P <= 25 placements, S <= 2 x markers shifts, and shifts only
# while the gatherer has one left), about 130 bay scores at most and under 60 in a typical turn.

from tidebox.games.pearl_reach import rules as R

SHELL_WORTH = 50  # what a shell in hand is worth to the sharp rival, in hundredths of a pearl at this tide
ROW_WORTH = 5  # hundredths of a point a row higher up the shore is worth
SLACK = 150  # hundredths: placements this close to the best are as good (variety)
CARRY = 3  # tenths: how much a marker that survives into the next round counts


def _share(d, k, threat):
    # The rival's guess of its share of a bay (in hundredths) from its lead `d` over the best other
    # gatherer, `k` the number of tied leaders when d == 0, and whether rivals still move before the
    # tide (`threat`). With nobody left to move it is exact.
    if not threat:
        if d > 0:
            return 100
        if d == 0:
            return 100 // k
        return 0
    if d >= 2:
        return 95
    if d == 1:
        return 70
    if d == 0:
        return 35
    if d == -1:
        return 12
    return 0


def _bay_score(state, seat, bay, value, next_value, threat):
    # seat's expected points from one bay minus the best other gatherer's, in hundredths of a point.
    cells = state["cells"]
    n = len(state["names"])
    tally = [0] * n
    lowest = None
    base = bay * R.ROWS
    for c in range(base, base + R.ROWS):
        owner = cells[c]
        if owner is not None:
            tally[owner] += 1
            if lowest is None:
                lowest = owner
    if lowest is None:
        return 0
    mine = tally[seat]
    best_other = 0
    for i in range(n):
        if i != seat and tally[i] > best_other:
            best_other = tally[i]
    d = mine - best_other
    k = 1
    if d == 0:
        k = 0
        for i in range(n):
            if tally[i] == mine:
                k += 1
    worth = state["pearls"][bay]
    score = worth * value * (_share(d, k, threat) - _share(-d, k, threat))
    if next_value:
        # What survives the tide (it carries the marker nearest the water away) counts next round.
        if lowest == seat:
            d -= 1
        elif tally[lowest] == best_other:
            d += 1
        score += worth * next_value * CARRY * (_share(d, k, True) - _share(-d, k, True)) // 10
    return score


def _context(state, seat):
    k = state["tide"]
    value = state["tides"][k]
    next_value = state["tides"][k + 1] if k + 1 < len(state["tides"]) else 0
    order = state["order"]
    n = len(order)
    left = state["per_round"] * n - state["turn"] - 1  # turns after this one before the tide
    threat = False
    for t in range(left):
        if order[(state["turn"] + 1 + t) % n] != seat:
            threat = True
            break
    return value, next_value, threat


def _pick(best, below):
    return best[below(len(best))] if len(best) > 1 else best[0]


def _best_place(state, seat, below, value, next_value, threat, shell_worth, rows=0):
    cells = state["cells"]
    before = [_bay_score(state, seat, b, value, next_value, threat) for b in range(R.BAYS)]
    scored = []
    top = None
    for cell, cost in R.placements(state, seat):
        bay = R.bay_of(cell)
        cells[cell] = seat
        gain = _bay_score(state, seat, bay, value, next_value, threat) - before[bay]
        cells[cell] = None
        gain -= cost * shell_worth
        if rows:
            gain += R.row_of(cell) * rows  # higher up the shore is further from the tide's reach
        if top is None or gain > top:
            top = gain
        scored.append((gain, cell))
    best = [cell for gain, cell in scored if gain >= top - SLACK]
    return top, best


def _sharp(state, seat, below):
    value, next_value, threat = _context(state, seat)
    shell_worth = SHELL_WORTH * value
    top, best = _best_place(state, seat, below, value, next_value, threat, shell_worth, ROW_WORTH)
    moves = R.shifts(state, seat)
    if moves:
        cells = state["cells"]
        before = [_bay_score(state, seat, b, value, next_value, threat) for b in range(R.BAYS)]
        total = sum(before)
        shift_top = None
        shift_best = []
        for frm, to in moves:
            cells[frm], cells[to] = None, seat
            after = total
            for bay in (R.bay_of(frm), R.bay_of(to)):
                after += _bay_score(state, seat, bay, value, next_value, threat) - before[bay]
                if R.bay_of(frm) == R.bay_of(to):
                    break
            cells[frm], cells[to] = seat, None
            gain = after - total - shell_worth
            if shift_top is None or gain > shift_top:
                shift_top = gain
                shift_best = [(frm, to)]
            elif gain == shift_top:
                shift_best.append((frm, to))
        if shift_top > 0:
            frm, to = _pick(shift_best, below)
            cells[frm], cells[to] = None, seat
            state["shells"][seat] -= R.SHIFT_COST
            then_top, then_best = _best_place(state, seat, below, value, next_value, threat, shell_worth,
                                                 ROW_WORTH)
            state["shells"][seat] += R.SHIFT_COST
            cells[frm], cells[to] = seat, None
            if then_best and shift_top + then_top > top:
                return {"from": frm, "to": to}, {"cell": _pick(then_best, below)}
    return None, {"cell": _pick(best, below)}


def _easy(state, seat, below):
    # Greedy: the best bay as if the tide came now, a shell counting as one point; never shifts.
    value = state["tides"][state["tide"]]
    top, best = _best_place(state, seat, below, value, 0, False, 100)
    return None, {"cell": _pick(best, below)}


def random_choice(state, seat, below):
    """Any legal placement, uniformly (a yardstick for the tests and the bench; never shifts)."""
    options = R.placements(state, seat)
    return None, {"cell": options[below(len(options))][0]}


def choose(state, seat, below, strength=None):
    """The rival's move for `seat` (whose turn it is): (shift args or None, place args). The state is
    left exactly as it was. `strength` defaults to the seat's own ("sharp" or "easy")."""
    if R.current(state) != seat:
        raise R.NotNow("it is not that rival's turn")
    if strength is None:
        strength = state["rivals"][seat] or R.STRENGTHS[0]
    if strength == "easy":
        return _easy(state, seat, below)
    if strength == "random":
        return random_choice(state, seat, below)
    if state["shifted"]:
        value, next_value, threat = _context(state, seat)
        shell_worth = SHELL_WORTH * value
        best = _best_place(state, seat, below, value, next_value, threat, shell_worth, ROW_WORTH)[1]
        return None, {"cell": _pick(best, below)}
    return _sharp(state, seat, below)
