"""Every checkable sentence of the Paper Current rule sheet, on CPython and (where marked) MicroPython.

The contract functions (bonus, round_score, launcher) run through `pc_impl`, either in this CPython
process or in the real MicroPython unix port (tests/mp_scripts/driver.py), so the same cases prove
both. Each card's bonus is also checked over all 3^8 result vectors against a second formulation
written here straight from the card's words.
"""

import copy
import json
from pathlib import Path

import pytest

from tidebox.games import paper_current as pc
from tidebox.games.paper_current import rules
from page_text import page_array_text
from refusals import refused_move
from paper_current_sheet import HARBOUR, SAFETY
from tidebox.games.seeded import Seeded

HERE = Path(__file__).resolve().parent  # this game's tests, with its MicroPython modules

MODULE = "tidebox.games.paper_current"


class CPythonImpl:
    name = "cpython"

    def call(self, func, *args):
        return getattr(pc, func)(*args)


class MicroPythonImpl:
    name = "micropython"

    def __init__(self, mp):
        self.mp = mp

    def call(self, func, *args):
        from micropython_runner import MicroPythonError

        try:
            return self.mp.call(MODULE, func, *args)
        except MicroPythonError as e:
            if e.name == "ValueError":
                raise ValueError(e.msg) from None
            raise


@pytest.fixture(params=["cpython", "micropython"])
def pc_impl(request):
    if request.param == "cpython":
        return CPythonImpl()
    return MicroPythonImpl(request.getfixturevalue("mp"))


def game(players=3, below_seed=1, **options):
    return pc.new_game(["P%d" % i for i in range(players)], options, Seeded(below_seed).below)


def play_launches(state, n=8):
    for _ in range(n):
        pc.move(state, None, "launch", {})
    return state


def enter(state, results, seat=None):
    for boat, r in enumerate(results, 1):
        pc.move(state, seat, "set_result", {"boat": boat, "result": r})
    return state


def play_round(state, results):
    play_launches(state)
    enter(state, results)
    pc.move(state, None, "confirm", {})
    return state


def refused(state, seat, name, args, status):
    return refused_move(pc.move, state, seat, name, args, status)


# ---------------------------------------------------------------- the interface names


def test_interface_names():
    assert pc.GAME_ID == "paper_current"
    assert pc.TITLE == "Paper Current"
    assert len(pc.SHORT) <= 14
    assert (pc.MIN_PLAYERS, pc.MAX_PLAYERS, pc.MAX_NAME) == (2, 8, 12)
    assert pc.MOVES == ("launch", "back", "set_result", "confirm", "replay_round", "next_round")
    for name in ("new_game", "move", "to_act", "legal_moves", "public_view", "private_view",
                 "is_over", "standings", "winners", "to_dict", "from_dict", "leave", "new_course"):
        assert callable(getattr(pc, name)), name
    assert pc.NotNow.status == 409 and pc.GameError("x").status == 400
    assert "54" in page_array_text("paper_current")  # the phones' How to play


def test_options_shape():
    keys = [o[0] for o in pc.OPTIONS]
    assert keys == ["first", "target", "seated", "long_zone", "helper", "card_push"]
    opts = dict((o[0], o[2]) for o in pc.OPTIONS)
    assert opts["first"] == "seat"
    assert opts["target"][0] == (24, "24 of 54")  # "such as 24": the default comes first
    values = [v for v, _ in opts["target"]]
    assert len(set(values)) == len(values) and all(1 <= v <= 54 for v in values)
    assert 54 in values and min(values) <= 12
    for key in ("seated", "long_zone", "helper", "card_push"):
        assert opts[key] == ((False, "off"), (True, "on"))
    for key, label, _ in pc.OPTIONS:
        assert len(label) <= 20, key
    json.dumps(pc.OPTIONS)


def test_package_imports_only_the_rules():
    import subprocess
    import sys

    from conftest import ROOT

    code = ("import sys; sys.path.insert(0, 'firmware'); import tidebox.games.paper_current; "
            "print(sorted(m for m in sys.modules if m.startswith('tidebox')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = ["tidebox", "tidebox.errors", "tidebox.games", "tidebox.games.base",
              "tidebox.games.paper_current", "tidebox.games.paper_current.rules"]
    assert out.stdout.strip() == str(sorted(loaded))
    assert pc.COURSE_CARDS is rules.COURSE_CARDS


# ---------------------------------------------------------------- the cards


RULE_SHEET_CARDS = (
    ("P01", "centre", "Two Safe Arrivals",
     "+2 points if at least two boats each score 1 or 2; otherwise +0."),
    ("P02", "left", "One at the Heart", "+2 points if at least one boat scores 2; otherwise +0."),
    ("P03", "right", "Four in Harbour", "+2 points if at least four boats each score 1 or 2; otherwise +0."),
    ("P04", "centre", "Gentle Edges", "+2 points if at least three boats score exactly 1; otherwise +0."),
    ("P05", "left", "Paired Centre", "+2 points if at least two boats score 2; otherwise +0."),
    ("P06", "right", "Mixed Moorings",
     "+2 points if at least one boat scores 2 and at least two other boats score exactly 1; otherwise +0."),
    ("P07", "centre", "Early Boat", "+2 points if boat 1 scores 1 or 2; otherwise +0."),
    ("P08", "left", "Late Arrival", "+2 points if boat 8 scores 1 or 2; otherwise +0."),
    ("P09", "right", "Neighbours Home", "+2 points if boats 4 and 5 both score 1 or 2; otherwise +0."),
    ("P10", "centre", "Balanced Visit",
     "+2 points if at least two boats score 2 and at least two other boats score exactly 1; otherwise +0."),
    ("P11", "left", "Five Afloat", "+2 points if at least five boats each score 1 or 2; otherwise +0."),
    ("P12", "right", "Last Pair", "+2 points if boats 7 and 8 both score 1 or 2; otherwise +0."),
)


def test_twelve_course_cards_in_printed_order():
    assert tuple(c[:3] for c in RULE_SHEET_CARDS) == pc.COURSE_CARDS
    assert len({c[0] for c in pc.COURSE_CARDS}) == 12


def test_bonus_words_exactly_as_printed():
    assert tuple(c[3] for c in RULE_SHEET_CARDS) == pc.BONUS_WORDS
    for cid, zone, name, words in RULE_SHEET_CARDS:
        info = pc.card_info(cid)
        assert (info["id"], info["zone"], info["name"], info["bonus"]) == (cid, zone, name, words)
        assert info["zone_words"].lower().startswith(zone)


def test_each_zone_is_used_four_times():
    zones = [c[1] for c in pc.COURSE_CARDS]
    assert {z: zones.count(z) for z in pc.ZONES} == {"left": 4, "centre": 4, "right": 4}


# An independent formulation of each card, written from its words.
def scoring(boats):
    return sum(1 for r in boats if r in (1, 2))


def twos(boats):
    return boats.count(2)


def ones(boats):
    return boats.count(1)


def other_boats(boats, need_two, need_one):
    # "at least N boats score 2 and at least M OTHER boats score exactly 1": pick distinct boats.
    two_idx = [i for i, r in enumerate(boats) if r == 2]
    if len(two_idx) < need_two:
        return False
    chosen = set(two_idx[:need_two])
    rest = [i for i, r in enumerate(boats) if r == 1 and i not in chosen]
    return len(rest) >= need_one


INDEPENDENT = {
    "P01": lambda b: scoring(b) >= 2,
    "P02": lambda b: twos(b) >= 1,
    "P03": lambda b: scoring(b) >= 4,
    "P04": lambda b: ones(b) >= 3,
    "P05": lambda b: twos(b) >= 2,
    "P06": lambda b: other_boats(b, 1, 2),
    "P07": lambda b: b[0] in (1, 2),
    "P08": lambda b: b[7] in (1, 2),
    "P09": lambda b: b[3] in (1, 2) and b[4] in (1, 2),
    "P10": lambda b: other_boats(b, 2, 2),
    "P11": lambda b: scoring(b) >= 5,
    "P12": lambda b: b[6] in (1, 2) and b[7] in (1, 2),
}


def all_vectors():
    for n in range(3**8):
        boats = []
        for _ in range(8):
            boats.append(n % 3)
            n //= 3
        yield boats


def independent_string(cid):
    return "".join("2" if INDEPENDENT[cid](b) else "0" for b in all_vectors())


@pytest.mark.parametrize("cid", [c[0] for c in RULE_SHEET_CARDS])
def test_every_card_over_all_result_vectors(cid):
    for boats in all_vectors():
        expected = 2 if INDEPENDENT[cid](boats) else 0
        assert pc.bonus(cid, boats) == expected, boats
        assert pc.round_score(cid, boats) == sum(boats) + expected


def test_every_card_over_all_result_vectors_under_micropython(mp):
    results = mp.call_many(HERE / "play_paper_current.py", "all_bonuses", [[c[0]] for c in RULE_SHEET_CARDS],
                           heap="4M")
    for (cid, *_), result in zip(RULE_SHEET_CARDS, results):
        assert result.get("ok") == independent_string(cid), cid


# Hand-worked examples: (card, results boat 1..8, bonus).
HAND_WORKED = [
    # Two Safe Arrivals: two boats scoring 1 or 2.
    ("P01", [2, 1, 0, 0, 0, 0, 0, 0], 2),
    ("P01", [1, 1, 0, 0, 0, 0, 0, 0], 2),
    ("P01", [2, 0, 0, 0, 0, 0, 0, 0], 0),
    ("P01", [0, 0, 0, 0, 0, 0, 0, 0], 0),
    # One at the Heart: a single 2 is enough, 1s never.
    ("P02", [0, 0, 0, 0, 0, 0, 0, 2], 2),
    ("P02", [1, 1, 1, 1, 1, 1, 1, 1], 0),
    # Four in Harbour.
    ("P03", [1, 0, 2, 0, 1, 0, 1, 0], 2),
    ("P03", [2, 2, 2, 0, 0, 0, 0, 0], 0),
    # Gentle Edges: exactly 1, so 2s do not count.
    ("P04", [1, 1, 1, 0, 0, 0, 0, 0], 2),
    ("P04", [1, 1, 2, 2, 2, 2, 2, 2], 0),
    ("P04", [2, 2, 2, 2, 2, 2, 2, 2], 0),
    # Paired Centre.
    ("P05", [2, 0, 0, 0, 0, 0, 0, 2], 2),
    ("P05", [2, 1, 1, 1, 1, 1, 1, 1], 0),
    # Mixed Moorings: one 2 and two other boats exactly 1.
    ("P06", [2, 1, 1, 0, 0, 0, 0, 0], 2),
    ("P06", [2, 2, 1, 0, 0, 0, 0, 0], 0),
    ("P06", [0, 1, 1, 1, 0, 0, 0, 0], 0),
    # Early Boat: boat 1 only.
    ("P07", [1, 0, 0, 0, 0, 0, 0, 0], 2),
    ("P07", [0, 2, 2, 2, 2, 2, 2, 2], 0),
    # Late Arrival: boat 8 only.
    ("P08", [0, 0, 0, 0, 0, 0, 0, 2], 2),
    ("P08", [2, 2, 2, 2, 2, 2, 2, 0], 0),
    # Neighbours Home: boats 4 and 5 both.
    ("P09", [0, 0, 0, 1, 2, 0, 0, 0], 2),
    ("P09", [0, 0, 0, 2, 0, 2, 0, 0], 0),
    # Balanced Visit: two 2s and two other boats exactly 1.
    ("P10", [2, 2, 1, 1, 0, 0, 0, 0], 2),
    ("P10", [2, 2, 2, 1, 0, 0, 0, 0], 0),
    ("P10", [2, 1, 1, 1, 1, 0, 0, 0], 0),
    # Five Afloat.
    ("P11", [1, 1, 1, 1, 1, 0, 0, 0], 2),
    ("P11", [2, 2, 2, 2, 0, 0, 0, 0], 0),
    # Last Pair: boats 7 and 8 both.
    ("P12", [0, 0, 0, 0, 0, 0, 1, 1], 2),
    ("P12", [2, 2, 2, 2, 2, 2, 2, 0], 0),
]


@pytest.mark.parametrize("cid, boats, expected", HAND_WORKED)
def test_hand_worked_bonuses(pc_impl, cid, boats, expected):
    assert pc_impl.call("bonus", cid, boats) == expected
    assert pc_impl.call("round_score", cid, boats) == sum(boats) + expected


def test_rule_sheet_example_landing(pc_impl):
    # Boat 1 in INNER scores 2, boat 2 touching the inner line but inside OUTER scores 1, boat 3
    # touching the outer line scores 0: on Two Safe Arrivals the bonus holds (at least two score).
    boats = [2, 1, 0, 0, 0, 0, 0, 0]
    assert pc_impl.call("bonus", "P01", boats) == 2
    assert pc_impl.call("round_score", "P01", boats) == 5
    # "provided at least two still score in their final positions": nudged out, the bonus is gone.
    assert pc_impl.call("bonus", "P01", [2, 0, 0, 0, 0, 0, 0, 0]) == 0


def test_maximum_is_eighteen_per_round():
    best = {cid: max(pc.round_score(cid, b) for b in all_vectors()) for cid, *_ in RULE_SHEET_CARDS}
    assert max(best.values()) == 18 == pc.MAX_ROUND
    # All eight in INNER earn the bonus on every card that asks for no boat exactly at 1.
    # Cards asking for boats exactly at 1 cannot reach 18: Gentle Edges 5x2 + 3x1 + 2 = 15 < 16 (all
    # INNER, no bonus); Mixed Moorings 6x2 + 2x1 + 2 = 16; Balanced Visit the same 16.
    assert (best["P04"], best["P06"], best["P10"]) == (16, 16, 16)
    for cid in best:
        if cid not in ("P04", "P06", "P10"):
            assert best[cid] == 18
            assert pc.round_score(cid, [2] * 8) == 18
    assert pc.MAX_TOTAL == 54


MALFORMED = [
    ("P13", [0] * 8), ("p01", [0] * 8), ("", [0] * 8), (None, [0] * 8), (1, [0] * 8), (["P01"], [0] * 8),
    ("P01", [0] * 7), ("P01", [0] * 9), ("P01", []), ("P01", [0] * 7 + [3]), ("P01", [0] * 7 + [-1]),
    ("P01", [0] * 7 + [True]), ("P01", [0] * 7 + [1.0]), ("P01", [0] * 7 + ["1"]), ("P01", [0] * 7 + [None]),
    ("P01", None), ("P01", "00000000"), ("P01", {"1": 0}), ("P01", 8), ("P01", [[0]] * 8),
]


@pytest.mark.parametrize("cid, boats", MALFORMED)
def test_malformed_raises_value_error_only(pc_impl, cid, boats):
    for func in ("bonus", "round_score"):
        with pytest.raises(ValueError):
            pc_impl.call(func, cid, boats)


# ---------------------------------------------------------------- launches and rotation


def test_launcher_contract(pc_impl):
    assert [pc_impl.call("launcher", 3, 1, k) for k in range(7)] == [1, 2, 0, 1, 2, 0, 1]
    assert pc_impl.call("launcher", 2, 0, 8) == 0  # round two starts where the rotation is
    assert pc_impl.call("launcher", 5, 4, 8) == 2  # not back at seat 4: it never restarts
    for bad in ([2, 0, -1], [2, 2, 0], [2, -1, 0], [0, 0, 0], [2, True, 0], [2, 0, 1.0], [2, 0, "1"],
                [None, 0, 0], [2.0, 0, 0]):
        with pytest.raises(ValueError):
            pc_impl.call("launcher", *bad)


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("first_offset", [0, 1])
def test_rotation_fairness_over_three_rounds(players, first_offset):
    first = (players - 1) * first_offset
    state = game(players, first=first)
    counts = [0] * players
    seen = []
    for rnd in range(3):
        order = pc.public_view(state)["order"]
        assert len(order) == 8  # "exactly eight launches per round"
        per_round = [order.count(s) for s in range(players)]
        if players == 2:
            assert per_round == [4, 4]  # "with two everyone launches four times"
        if players == 8:
            assert per_round == [1] * 8  # "With eight players everyone launches once per round"
        assert max(per_round) - min(per_round) <= 1
        for k in range(8):
            v = pc.public_view(state)
            assert v["boat"] == k + 1 and v["launch"] == k + 1
            counts[v["launcher"]] += 1
            seen.append(v["launcher"])
            assert v["launcher"] == pc.launcher(players, first, rnd * 8 + k)
            assert v["launcher_name"] == "P%d" % v["launcher"]
            pc.move(state, None, "launch", {})
        enter(state, [0] * 8)
        pc.move(state, None, "confirm", {})
        if rnd < 2:
            pc.move(state, None, "next_round", {})
    # "participation differs by at most one launch because the rotation never restarts"
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == 24
    assert seen == [(first + k) % players for k in range(24)]


def test_launch_and_back_bounds():
    state = game(3)
    refused(state, None, "back", {}, 409)  # nothing launched yet
    for k in range(8):
        assert pc.public_view(state)["launch"] == k + 1
        pc.move(state, None, "launch", {})
    v = pc.public_view(state)
    assert v["phase"] == "score" and v["launch"] == 8 and v["boat"] is None and v["launcher"] is None
    refused(state, None, "launch", {}, 409)  # never a ninth launch
    pc.move(state, None, "back", {})  # back to the eighth launch
    v = pc.public_view(state)
    assert v["phase"] == "launch" and v["boat"] == 8
    pc.move(state, None, "back", {})
    assert pc.public_view(state)["boat"] == 7
    pc.move(state, None, "launch", {})
    pc.move(state, None, "launch", {})
    pc.move(state, None, "set_result", {"boat": 3, "result": 1})
    refused(state, None, "back", {}, 409)  # results entered: back would silently lose them


def test_results_only_after_all_eight_launches():
    # "After all eight launches, score each boat"
    state = game(2)
    play_launches(state, 7)
    refused(state, None, "set_result", {"boat": 1, "result": 2}, 409)
    refused(state, 0, "set_result", {"boat": 1, "result": 2}, 409)
    refused(state, None, "confirm", {}, 409)


def test_results_from_box_and_any_phone():
    state = play_launches(game(3))
    pc.move(state, None, "set_result", {"boat": 1, "result": 2})
    pc.move(state, 1, "set_result", {"boat": 2, "result": 1})
    pc.move(state, 2, "set_result", {"boat": 3, "result": 0})
    pc.move(state, 0, "set_result", {"boat": 3, "result": 1})  # change of mind: allowed until confirm
    assert pc.public_view(state)["results"] == [2, 1, 1, None, None, None, None, None]
    refused(state, None, "confirm", {}, 409)  # every boat first
    enter(state, [2, 1, 1, 0, 0, 0, 0, 0], seat=2)
    pc.move(state, None, "confirm", {})
    expected = 4 + pc.bonus(state["course"][0], [2, 1, 1, 0, 0, 0, 0, 0])
    assert pc.public_view(state)["round_scores"] == [expected]


def test_two_phones_editing_at_once_the_later_is_refused():
    state = play_launches(game(3))
    # Both phones saw boat 4 empty; the first sets it, the second's change is refused.
    pc.move(state, 0, "set_result", {"boat": 4, "result": 2, "was": None})
    err = refused(state, 1, "set_result", {"boat": 4, "result": 1, "was": None}, 409)
    assert err.message == "someone else just set boat 4 to 2 inner"  # the phones' words for a result
    pc.move(state, 1, "set_result", {"boat": 4, "result": 1, "was": 2})  # with the current state: fine
    assert state["results"][3] == 1
    # legal moves carry what the phone saw, so echoing one is safe.
    m = [m for m in pc.legal_moves(state, 2) if m["args"]["boat"] == 4 and m["args"]["result"] == 0][0]
    assert m["args"]["was"] == 1
    pc.move(state, 2, m["move"], m["args"])


@pytest.mark.parametrize("args", [
    {}, {"boat": 0, "result": 1}, {"boat": 9, "result": 1}, {"boat": "1", "result": 1},
    {"boat": True, "result": 1}, {"boat": 1.0, "result": 1}, {"boat": 1}, {"boat": 1, "result": 3},
    {"boat": 1, "result": -1}, {"boat": 1, "result": True}, {"boat": 1, "result": False},
    {"boat": 1, "result": 1.0}, {"boat": 1, "result": "2"},
    {"boat": 1, "result": None}, {"boat": 1, "result": 1, "was": 5}, {"boat": 1, "result": 1, "was": True},
])
def test_malformed_result_is_400_and_changes_nothing(args):
    state = play_launches(game(3))
    refused(state, None, "set_result", args, 400)
    refused(state, 1, "set_result", args, 400)


@pytest.mark.parametrize("args", [[], "x", 3, [1, 2]])
def test_args_must_be_an_object(args):
    state = game(3)
    refused(state, None, "launch", args, 400)


def test_unknown_move_and_seat():
    state = game(3)
    refused(state, None, "fly", {}, 400)
    refused(state, None, "new_course", {}, 400)  # a function, not a move: it needs a random source
    refused(state, 3, "set_result", {"boat": 1, "result": 1}, 400)
    refused(state, -1, "launch", {}, 400)
    refused(state, True, "launch", {}, 400)
    refused(state, "0", "launch", {}, 400)


@pytest.mark.parametrize("name", ["launch", "back", "confirm", "replay_round", "next_round"])
def test_phones_cannot_make_the_box_moves(name):
    state = play_launches(game(3), 3)
    refused(state, 1, name, {}, 409)


def test_confirm_scores_the_round_and_adds_to_the_shared_total():
    state = game(4, below_seed=7)
    card = state["course"][0]
    results = [2, 2, 1, 1, 0, 1, 2, 0]
    play_round(state, results)
    expected = sum(results) + pc.bonus(card, results)
    v = pc.public_view(state)
    assert v["phase"] == "scored" and v["round_scores"] == [expected] and v["total"] == expected
    assert v["played"][0]["bonus"] == pc.bonus(card, results) and v["played"][0]["boats"] == 9
    refused(state, None, "confirm", {}, 409)  # once only
    refused(state, None, "set_result", {"boat": 1, "result": 0}, 409)
    refused(state, None, "launch", {}, 409)
    refused(state, None, "replay_round", {}, 409)
    pc.move(state, None, "next_round", {})
    v = pc.public_view(state)
    assert v["round"] == 2 and v["card"]["id"] == state["course"][1] and v["results"] == [None] * 8
    assert v["total"] == expected


def test_hand_worked_whole_course():
    state = game(3, below_seed=3)
    course = list(state["course"])
    rounds = [[2, 1, 0, 0, 0, 0, 0, 0], [2] * 8, [1, 1, 1, 1, 1, 0, 0, 1]]
    scores = []
    for i, results in enumerate(rounds):
        play_round(state, results)
        scores.append(sum(results) + pc.bonus(course[i], results))
        if i < 2:
            assert not pc.is_over(state)
            pc.move(state, None, "next_round", {})
    assert pc.is_over(state)
    v = pc.public_view(state)
    assert v["over"] and v["round_scores"] == scores and v["total"] == sum(scores) <= 54
    assert [r["card"] for r in v["played"]] == course
    assert [r["n"] for r in v["played"]] == [1, 2, 3]
    for name in pc.MOVES:
        refused(state, None, name, {}, 409 if name != "set_result" else 400)
    assert pc.legal_moves(state, None) == [] and pc.to_act(state) == []


@pytest.mark.parametrize("target", [23, 24, 25])
def test_target_reached_or_not(target):
    # Eight boats in INNER on round one, nothing after: 16 (+2 unless the card asks for exact 1s),
    # then two rounds of all-zero results: 0 + 0 on every card. Total 16 or 18... so force 24 with
    # round two: four boats INNER and boat 1 OUTER.
    state = game(2, below_seed=11, target=target)
    rounds = ([2] * 8, [2, 2, 2, 1, 0, 0, 0, 0], [0] * 8)
    for i, results in enumerate(rounds):
        play_round(state, results)
        if i < 2:
            pc.move(state, None, "next_round", {})
    total = sum(pc.round_score(c, r) for c, r in zip(state["course"], rounds))
    assert state["total"] == total
    v = pc.public_view(state)
    assert v["reached"] == (total >= target) and v["target"] == target and v["over"]
    assert pc.winners(state) == ([0, 1] if total >= target else [])
    assert [row[2] for row in pc.standings(state)] == [total, total]


def test_standings_are_one_shared_score():
    state = game(4)
    play_round(state, [2, 2, 0, 0, 0, 0, 0, 0])
    total = state["total"]
    assert pc.standings(state) == [[1, s, total] for s in range(4)]
    assert pc.winners(state) == []  # only once over


def test_winners_all_seats_when_reached_none_otherwise():
    for target, expect in ((1, [0, 1, 2]), (54, [])):
        state = game(3, target=target)
        for i in range(3):
            play_round(state, [2, 2, 2, 0, 0, 0, 0, 0])
            if i < 2:
                pc.move(state, None, "next_round", {})
        assert pc.winners(state) == expect
        assert [r[0] for r in pc.standings(state)] == [1, 1, 1]


# ---------------------------------------------------------------- repairs


def test_replay_round_same_starting_player_and_results_cleared():
    # "If restoration is uncertain, replay the whole current round with the same starting player."
    state = game(3, first=2)
    play_round(state, [0] * 8)
    pc.move(state, None, "next_round", {})
    order = list(state["launchers"])
    assert order[0] == (2 + 8) % 3  # the rotation carried on
    play_launches(state, 5)
    pc.move(state, None, "replay_round", {})
    v = pc.public_view(state)
    assert v["order"] == order and v["launch"] == 1 and v["launcher"] == order[0] and v["replays"] == 1
    assert v["round"] == 2 and v["total"] == state["rounds"][0]["score"]
    play_launches(state)
    enter(state, [1, 1, 1, 0, 0, 0, 0, 0])
    pc.move(state, None, "replay_round", {})  # also while entering results
    v = pc.public_view(state)
    assert v["phase"] == "launch" and v["results"] == [None] * 8 and v["order"] == order
    refused(state, None, "replay_round", {}, 409)  # nothing launched: nothing to replay


def test_replay_round_keeps_the_rotation_for_the_next_round():
    state = game(3)
    play_launches(state, 4)
    pc.move(state, None, "replay_round", {})
    play_round(state, [0] * 8)
    pc.move(state, None, "next_round", {})
    assert state["launchers"][0] == 8 % 3


def test_refused_moves_change_nothing_in_every_phase():
    state = game(3)
    bad = [(None, "next_round", {}), (None, "confirm", {}), (1, "launch", {}),
           (None, "set_result", {"boat": 1}), (None, "fly", {}), (7, "set_result", {"boat": 1, "result": 1})]
    phases = []
    for _step in range(80):
        for seat, name, args in bad:
            before = copy.deepcopy(state)
            try:
                pc.move(state, seat, name, args)
            except pc.GameError:
                assert state == before
            else:
                state = before  # the move was legal here: undo and go on
        phases.append(state["phase"])
        moves = pc.legal_moves(state, None)
        if not moves:
            break
        forward = [m for m in moves if m["move"] in ("launch", "confirm", "next_round")]
        empty = [m for m in moves if m["move"] == "set_result" and m["args"]["was"] is None]
        m = forward[0] if forward else empty[0]
        pc.move(state, None, m["move"], m["args"])
    assert {"launch", "score", "scored", "over"} <= set(phases)


# ---------------------------------------------------------------- setup and course


def test_new_game_defaults_and_options():
    state = game(3)
    assert state["game"] == "paper_current" and state["names"] == ["P0", "P1", "P2"]
    assert state["target"] == 24 and state["first"] == 0
    assert state["access"] == {"seated": False, "long_zone": False, "helper": False, "card_push": False}
    state = game(3, first=2, target=30, long_zone=True, card_push=True)
    assert state["first"] == 2 and state["launchers"][0] == 2 and state["target"] == 30
    assert state["access"] == {"seated": False, "long_zone": True, "helper": False, "card_push": True}
    v = pc.public_view(state)
    assert v["access"]["long_zone"] is True and v["target"] == 30


@pytest.mark.parametrize("names, options", [
    (["A"], {}), (["A"] * 2, {}), (["P%d" % i for i in range(9)], {}), ("AB", {}), (["A", ""], {}),
    (["A", "B"], {"first": 2}), (["A", "B"], {"first": -1}), (["A", "B"], {"first": True}),
    (["A", "B"], {"target": 0}), (["A", "B"], {"target": 55}), (["A", "B"], {"target": "24"}),
    (["A", "B"], {"target": 24.0}), (["A", "B"], {"helper": 1}), (["A", "B"], {"seated": "yes"}),
    (["A", "B"], []),
])
def test_bad_setup_refused(names, options):
    with pytest.raises(pc.GameError):
        pc.new_game(names, options, Seeded(1).below)


def test_setup_needs_a_random_source():
    with pytest.raises(pc.GameError):
        pc.new_game(["A", "B"], {}, None)


def test_seeded_draw_is_three_distinct_cards_and_reproducible():
    draws = set()
    for seed in range(1, 200):
        a = game(2, below_seed=seed)["course"]
        assert a == game(2, below_seed=seed)["course"]
        assert len(set(a)) == 3 and all(c in [x[0] for x in pc.COURSE_CARDS] for c in a)
        draws.update(a)
    assert len(draws) == 12  # every card can be drawn


def test_only_the_current_card_is_shown():
    state = game(3)
    v = pc.public_view(state)
    assert v["card"]["id"] == state["course"][0]
    text = json.dumps(v)
    for later in state["course"][1:]:
        assert later not in text  # the next courses stay face down until revealed


def test_new_course_same_table_new_draw():
    state = game(5, below_seed=4, target=21, helper=True)
    refused_state = copy.deepcopy(state)
    with pytest.raises(pc.NotNow):
        pc.new_course(state, Seeded(9).below)
    assert state == refused_state
    for i in range(3):
        play_round(state, [1] * 8)
        if i < 2:
            pc.move(state, None, "next_round", {})
    total = state["total"]
    fresh = pc.new_course(state, Seeded(9).below)
    assert fresh["names"] == state["names"] and fresh["target"] == 21 and fresh["access"]["helper"] is True
    assert (fresh["total"], fresh["rounds"], fresh["round"], fresh["phase"]) == (0, [], 0, "launch")
    assert fresh["past"] == [total]
    assert fresh["launchers"][0] == pc.launcher(5, 0, 24)  # the rotation carries on
    assert pc.new_course(state, Seeded(9).below, first=3)["launchers"][0] == 3
    with pytest.raises(pc.GameError):
        pc.new_course(state, Seeded(9).below, first=5)
    draws = {tuple(pc.new_course(state, Seeded(s).below)["course"]) for s in range(1, 30)}
    assert len(draws) > 20


# ---------------------------------------------------------------- views


def test_public_view_keys_and_json():
    state = game(3)
    v = pc.public_view(state)
    for key in ("game", "phase", "names", "card", "round", "rounds", "launch", "launches", "boat", "launcher",
                "launcher_name", "order", "results", "round_scores", "played", "total", "target", "max_total",
                "reached", "over", "access", "winners", "bonus_holds", "so_far", "entered"):
        assert key in v, key
    assert set(v["card"]) == {"id", "name", "zone", "zone_words", "bonus"}
    assert (v["round"], v["rounds"], v["launch"], v["launches"], v["boat"]) == (1, 3, 1, 8, 1)
    assert json.loads(json.dumps(v)) == v


def test_public_view_live_bonus_and_sum():
    state = game(3)
    state["course"][0] = "P07"  # Early Boat: boat 1 decides
    play_launches(state)
    v = pc.public_view(state)
    assert v["so_far"] == 0 and not v["bonus_holds"] and v["entered"] == 0
    pc.move(state, None, "set_result", {"boat": 1, "result": 1})
    v = pc.public_view(state)
    assert v["so_far"] == 1 and v["bonus_holds"] and v["entered"] == 1


def test_private_view_your_boats():
    state = game(3, first=1)
    assert pc.private_view(state, 1) == {"you": 1, "boats": [1, 4, 7], "now": True, "next": 1}
    assert pc.private_view(state, 0)["boats"] == [3, 6]
    play_launches(state, 4)
    assert pc.private_view(state, 1) == {"you": 1, "boats": [1, 4, 7], "now": False, "next": 7}
    assert pc.private_view(state, 2)["now"] is True  # boat 5
    two = game(2)
    assert pc.private_view(two, 0)["boats"] == [1, 3, 5, 7]
    assert pc.private_view(two, 1)["boats"] == [2, 4, 6, 8]


def test_legal_moves_box_and_phones():
    state = game(3)
    box = pc.legal_moves(state, None)
    assert [m["move"] for m in box] == ["launch"] and box[0]["label"] == "Boat 1: P0 launched"
    assert pc.legal_moves(state, 0) == [] and pc.to_act(state) == []
    play_launches(state, 2)
    assert [m["move"] for m in pc.legal_moves(state, None)] == ["launch", "back", "replay_round"]
    play_launches(state, 6)
    box = pc.legal_moves(state, None)
    names = [m["move"] for m in box]
    assert names.count("set_result") == 24 and "back" in names and "confirm" not in names
    assert len(pc.legal_moves(state, 1)) == 24 and pc.to_act(state) == [0, 1, 2]
    enter(state, [1] * 8)
    names = [m["move"] for m in pc.legal_moves(state, None)]
    assert names.count("set_result") == 16 and "confirm" in names and "back" not in names
    for m in pc.legal_moves(state, None) + pc.legal_moves(state, 2):
        pc.move(copy.deepcopy(state), None if m["move"] != "set_result" else 2, m["move"], m["args"])
    pc.move(state, None, "confirm", {})
    assert pc.legal_moves(state, None) == [{"move": "next_round", "args": {}, "label": "Next round"}]
    assert pc.legal_moves(state, 0) == []


# ---------------------------------------------------------------- players leaving


def test_leave_skips_the_player_from_the_next_launch_on():
    state = game(3)
    play_launches(state, 2)  # P0 boat 1, P1 boat 2
    pc.leave(state, 2)
    assert state["launchers"] == [0, 1, 0, 1, 0, 1, 0, 1]
    assert pc.private_view(state, 2)["boats"] == []
    refused(state, 2, "set_result", {"boat": 1, "result": 1}, 409)
    with pytest.raises(pc.NotNow):
        pc.leave(state, 0)  # two must stay
    before = copy.deepcopy(state)
    with pytest.raises(pc.GameError):
        pc.leave(state, 9)
    assert state == before


# ---------------------------------------------------------------- saving


def test_to_dict_from_dict_round_trip_every_phase():
    state = game(4)
    snapshots = []
    for results in ([2] * 8, [0] * 8, [1, 2] * 4):
        snapshots.append(copy.deepcopy(state))
        play_launches(state, 3)
        snapshots.append(copy.deepcopy(state))
        play_launches(state, 5)
        pc.move(state, None, "set_result", {"boat": 2, "result": 1})
        snapshots.append(copy.deepcopy(state))
        enter(state, results)
        pc.move(state, None, "confirm", {})
        snapshots.append(copy.deepcopy(state))
        if not pc.is_over(state):
            pc.move(state, None, "next_round", {})
    for snap in snapshots:
        loaded = pc.from_dict(json.loads(json.dumps(pc.to_dict(snap))))
        assert loaded == snap


@pytest.mark.parametrize("damage", [
    lambda d: d.pop("course"),
    lambda d: d.update(game="token_tide"),
    lambda d: d.update(total=d["total"] + 1),
    lambda d: d.update(course=["P01", "P01", "P02"]),
    lambda d: d.update(course=["P01", "P02", "P99"]),
    lambda d: d.update(results=[3] + [None] * 7),
    lambda d: d.update(results=[True] + [None] * 7),
    lambda d: d.update(launch=9),
    lambda d: d.update(launchers=[0] * 7),
    lambda d: d.update(launchers=[5] * 8),
    lambda d: d.update(target=0),
    lambda d: d.update(phase="sailing"),
    lambda d: d.update(round=3),
    lambda d: d["rounds"][0].update(score=19),
    lambda d: d["rounds"][0].update(results=[2] * 7),
    lambda d: d.update(rounds=[]),
    lambda d: d.update(access={}),
    lambda d: d.update(seated=[True]),
    lambda d: d.update(names=["A"]),
    lambda d: d.update(past=[60]),
])
def test_from_dict_refuses_damage(damage):
    state = game(3)
    play_round(state, [2, 1, 0, 0, 0, 0, 0, 0])
    pc.move(state, None, "next_round", {})
    play_launches(state, 2)
    data = json.loads(json.dumps(pc.to_dict(state)))
    damage(data)
    with pytest.raises(pc.GameError):
        pc.from_dict(data)
    with pytest.raises(pc.GameError):
        pc.from_dict("nonsense")


# ---------------------------------------------------------------- the harbour guide


def test_harbour_dimensions_from_the_rule_sheet():
    h = HARBOUR
    assert h["unit"] == "cm" and "ruler" in h["ruler"].lower()
    assert h["area"] == {"length": 80, "width": 30}  # "a clear 80 cm by 30 cm playing area"
    assert (h["outer"]["width"], h["outer"]["height"]) == (18, 24)
    assert (h["inner"]["width"], h["inner"]["height"]) == (10, 12)
    assert h["inner"]["label"] == "INNER / 2" and h["outer"]["label"] == "OUTER / 1"
    assert (h["inner"]["points"], h["outer"]["points"]) == (2, 1)
    assert h["launch_line"] == 10  # "10 cm from the near end of the 80 cm lane"
    assert h["outer"]["beyond_line"] == 30  # "30 cm beyond that line"
    # "...so its far edge is 64 cm from the near end of the lane": the numbers agree.
    assert h["outer"]["near_edge"] == h["launch_line"] + h["outer"]["beyond_line"] == 40
    assert h["outer"]["far_edge"] == h["outer"]["near_edge"] + h["outer"]["height"] == 64
    assert h["clear_behind"] == 10
    assert h["zone"]["width"] == 10 and h["zone"]["x"] == {"left": -10, "centre": 0, "right": 10}
    assert h["sheet"]["orientation"] == "portrait" and set(h["sheet"]["paper"]) == {"A4", "Letter"}
    assert h["boat"]["count"] == 8 and h["boat"]["width"] == 3
    # The inner rectangle fits in the outer one, the outer on either sheet (A4 21 x 29.7, Letter
    # 21.6 x 27.9), and the sheet with its 10 cm clearance inside the 80 cm lane.
    assert h["inner"]["width"] < h["outer"]["width"] <= 21
    assert h["inner"]["height"] < h["outer"]["height"] <= 27.9
    sheet_far_edge = h["outer"]["near_edge"] + (29.7 + h["outer"]["height"]) / 2
    assert sheet_far_edge + h["clear_behind"] <= h["area"]["length"]
    # The outer launch zones stay within the 30 cm wide area.
    for x in h["zone"]["x"].values():
        assert abs(x) + h["zone"]["width"] / 2 <= h["area"]["width"] / 2
    json.dumps(h)


def test_safety_notes():
    text = " ".join(SAFETY).lower()
    for phrase in ("metal clips", "gentle slide", "removable tape", "table owner", "delicate surface",
                   "elevated edge", "blow", "toward people", "cups and fragile", "hands stay out",
                   "flicking"):
        assert phrase in text, phrase
    assert all(isinstance(s, str) and s for s in SAFETY)
