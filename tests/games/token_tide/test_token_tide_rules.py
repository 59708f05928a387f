"""Every checkable sentence of the Token Tide rule sheet, on CPython and on MicroPython.

Each test gets `tide`, an object whose score_round/is_legal run either in this CPython process or in
the real MicroPython unix port (through tests/mp_scripts/driver.py), so the same cases prove both.
"""

import pytest

from tidebox.games import token_tide as tt

MODULE = "tidebox.games.token_tide"


class CPythonTide:
    name = "cpython"

    def score_round(self, target, allocations):
        return [list(s) for s in tt.score_round(target, allocations)]

    def is_legal(self, allocation):
        return tt.is_legal(allocation)


class MicroPythonTide:
    name = "micropython"

    def __init__(self, mp):
        self.mp = mp

    def score_round(self, target, allocations):
        return self.mp.call(MODULE, "score_round", target, allocations)

    def is_legal(self, allocation):
        return self.mp.call(MODULE, "is_legal", allocation)


@pytest.fixture(params=["cpython", "micropython"])
def tide(request):
    if request.param == "cpython":
        return CPythonTide()
    return MicroPythonTide(request.getfixturevalue("mp"))


# ---------------------------------------------------------------- the cards


def test_six_tide_cards_in_numbered_order():
    assert tt.TIDE_CARDS == (
        ("T01", "Low Water", 2),
        ("T02", "Middle Water", 3),
        ("T03", "High Water", 4),
        ("T04", "Shallow Channel", 2),
        ("T05", "Full Channel", 4),
        ("T06", "Turning Water", 3),
    )


def test_every_target_is_two_three_or_four():
    # "Its only changing rule is Mooring's target: two, three, or four counters."
    assert {card[2] for card in tt.TIDE_CARDS} == {2, 3, 4}


def test_tide_cards_same_under_micropython(mp):
    assert mp.call(MODULE, "rounds_total", {"deck": [0, 1, 2, 3, 4, 5]}) == 6
    cards = mp.call("tidebox.games.token_tide", "build_deck", "numbered", None)
    assert [tt.TIDE_CARDS[i][0] for i in cards] == ["T01", "T02", "T03", "T04", "T05", "T06"]


# ---------------------------------------------------------------- the worked example


def test_complete_scoring_example(tide):
    # Ada 4/1/2, Bo 3/1/3, Cy 1/3/3, target 3: Ada 6+1+1=8, Bo 0+1+3=4, Cy 0+0+3=3.
    scores = tide.score_round(3, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
    assert scores == [[6, 1, 1], [0, 1, 3], [0, 0, 3]]
    assert [sum(s) for s in scores] == [8, 4, 3]


def test_host_notes_grove_example(tide):
    # "placing deliveries of zero, one, and three at Grove: the one scores, not the zero."
    scores = tide.score_round(2, [[7, 0, 0], [4, 1, 2], [2, 3, 2]])
    assert [s[1] for s in scores] == [0, 4, 0]


# ---------------------------------------------------------------- Beacon


def test_beacon_sole_largest_earns_six(tide):
    scores = tide.score_round(2, [[5, 1, 1], [3, 2, 2], [1, 3, 3]])
    assert [s[0] for s in scores] == [6, 0, 0]


def test_beacon_tied_largest_earn_two_each_not_a_pool(tide):
    scores = tide.score_round(2, [[4, 1, 2], [4, 2, 1], [4, 0, 3], [1, 3, 3]])
    assert [s[0] for s in scores] == [2, 2, 2, 0]


def test_beacon_zero_never_scores_and_empty_beacon_pays_nobody(tide):
    scores = tide.score_round(2, [[0, 4, 3], [0, 5, 2], [0, 1, 6]])
    assert [s[0] for s in scores] == [0, 0, 0]


def test_beacon_single_positive_among_zeros_is_sole_largest(tide):
    scores = tide.score_round(2, [[0, 4, 3], [1, 4, 2], [0, 1, 6]])
    assert [s[0] for s in scores] == [0, 6, 0]


# ---------------------------------------------------------------- Grove


def test_grove_sole_smallest_positive_earns_four(tide):
    scores = tide.score_round(2, [[3, 2, 2], [2, 3, 2], [1, 4, 2]])
    assert [s[1] for s in scores] == [4, 0, 0]


def test_grove_tied_smallest_earn_one_each(tide):
    scores = tide.score_round(2, [[4, 1, 2], [5, 1, 1], [1, 3, 3]])
    assert [s[1] for s in scores] == [1, 1, 0]


def test_grove_tie_never_passes_the_award_to_a_larger_unique_amount(tide):
    # Two players tie at 1; the unique 3 does not get the award.
    scores = tide.score_round(3, [[5, 1, 1], [3, 1, 3], [2, 3, 2]])
    assert [s[1] for s in scores] == [1, 1, 0]


def test_grove_ignores_zeros(tide):
    scores = tide.score_round(3, [[7, 0, 0], [3, 0, 4], [2, 2, 3]])
    assert [s[1] for s in scores] == [0, 0, 4]


def test_grove_empty_pays_nobody(tide):
    scores = tide.score_round(3, [[7, 0, 0], [4, 0, 3]])
    assert [s[1] for s in scores] == [0, 0]


# ---------------------------------------------------------------- Mooring


@pytest.mark.parametrize(
    "target, delivered, points",
    [
        (2, 2, 3), (2, 1, 1), (2, 3, 1), (2, 0, 0), (2, 4, 0), (2, 7, 0),
        (3, 3, 3), (3, 2, 1), (3, 4, 1), (3, 1, 0), (3, 5, 0),
        (4, 4, 3), (4, 3, 1), (4, 5, 1), (4, 2, 0), (4, 6, 0), (4, 0, 0),
    ],
)
def test_mooring_against_the_tide_target(tide, target, delivered, points):
    rest = 7 - delivered
    scores = tide.score_round(target, [[rest, 0, delivered], [0, rest, delivered]])
    assert scores[0][2] == points
    assert scores[1][2] == points  # everybody can score at Mooring on the same round


def test_mooring_is_per_player(tide):
    scores = tide.score_round(4, [[1, 2, 4], [2, 1, 4], [0, 3, 4]])
    assert [s[2] for s in scores] == [3, 3, 3]


def test_maximum_round_is_thirteen(tide):
    scores = tide.score_round(2, [[4, 1, 2], [3, 2, 2]])
    assert sum(scores[0]) == 13


# ---------------------------------------------------------------- illegal allocations


ILLEGAL = [
    [8, 0, 0],  # totals eight
    [3, 3, 0],  # totals six: unassigned counters
    [-1, 4, 4],  # negative
    [3.5, 1.5, 2],  # fractional
    [3.0, 2, 2],  # a float is not a whole count even when it is whole
    [True, 3, 3],  # a bool is not an integer here
    ["3", 2, 2],  # nonnumeric
    [3, 2],  # two islands
    [3, 2, 1, 1],  # four islands
    None,
    "412",
    7,
    {"beacon": 7},
    [[3], 2, 2],
    [None, None, None],
    [10**30, -(10**30) + 7, 0],
]


@pytest.mark.parametrize("bad", ILLEGAL, ids=[repr(b)[:20] for b in ILLEGAL])
def test_illegal_allocation_scores_zero_and_is_excluded(tide, bad):
    # Without the illegal player: Ada sole Beacon 4, Bo sole Grove 1.
    legal = [[4, 2, 1], [3, 1, 3]]
    base = tide.score_round(3, legal)
    with_bad = tide.score_round(3, [bad] + legal)
    assert with_bad[0] == [0, 0, 0]
    assert with_bad[1:] == base


def test_illegal_allocation_cannot_steal_beacon_or_grove(tide):
    # 7/1/... is illegal (9 in all): it would otherwise take Beacon and tie Grove.
    scores = tide.score_round(2, [[7, 1, 1], [4, 1, 2], [3, 2, 2]])
    assert scores == [[0, 0, 0], [6, 4, 3], [0, 0, 3]]


@pytest.mark.parametrize(
    "allocation, legal",
    [([4, 1, 2], True), ([7, 0, 0], True), ([0, 0, 7], True), ((2, 2, 3), True),
     ([0, 0, 0], False), ([2.0, 2, 3], False), ([False, 4, 3], False), ([1, 1, 5, 0], False)],
)
def test_is_legal(tide, allocation, legal):
    assert tide.is_legal(allocation) is legal


def test_score_round_never_raises_on_odd_containers(tide):
    assert tide.score_round(3, []) == []
    assert tide.score_round(3, [[], {}, "abc"]) == [[0, 0, 0]] * 3


def test_score_round_handles_none_allocations_list():
    assert tt.score_round(3, None) == []
