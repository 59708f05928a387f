"""Property tests of Paper Current (hypothesis, CPython) and whole seeded games on both interpreters."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from play_paper_current import play
from tidebox.games import paper_current as pc
from tidebox.games.seeded import Seeded

HERE = Path(__file__).resolve().parent  # this game's tests, with its MicroPython modules

card_ids = st.sampled_from([c[0] for c in pc.COURSE_CARDS])
results = st.lists(st.integers(0, 2), min_size=8, max_size=8)
anything = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=True), st.text(max_size=4),
    st.lists(st.one_of(st.integers(-2, 4), st.floats(-1, 3), st.booleans(), st.none(), st.text(max_size=1)),
             max_size=10),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)


@given(card_ids, results)
def test_round_score_is_0_to_18_and_bonus_0_or_2(cid, boats):
    b = pc.bonus(cid, boats)
    assert b in (0, 2)
    assert 0 <= pc.round_score(cid, boats) == sum(boats) + b <= 18


@given(card_ids, results, st.integers(0, 7))
def test_a_better_boat_never_loses_a_count_only_bonus(cid, boats, i):
    # Cards that count boats scoring "1 or 2", or named boats: raising a 0 to 1 never loses the bonus.
    if cid in ("P01", "P03", "P07", "P08", "P09", "P11", "P12") and boats[i] == 0:
        raised = boats[:i] + [1] + boats[i + 1:]
        assert pc.bonus(cid, raised) >= pc.bonus(cid, boats)


@given(st.one_of(card_ids, anything), st.one_of(results, anything))
def test_contract_raises_only_value_error(cid, boats):
    for func in (pc.bonus, pc.round_score):
        try:
            value = func(cid, boats)
        except ValueError:
            continue
        assert type(value) is int


@given(anything, anything, anything)
def test_launcher_raises_only_value_error(players, first, launch):
    try:
        seat = pc.launcher(players, first, launch)
    except ValueError:
        return
    assert 0 <= seat < players


@st.composite
def course_plays(draw):
    players = draw(st.integers(2, 8))
    seed = draw(st.integers(1, 2**32 - 1))
    first = draw(st.integers(0, players - 1))
    rounds = [draw(results) for _ in range(3)]
    replays = [draw(st.integers(0, 8)) for _ in range(3)]
    return players, seed, first, rounds, replays


@given(course_plays())
@settings(max_examples=150)
def test_total_is_the_sum_of_rounds_and_at_most_54(plan):
    players, seed, first, rounds, replays = plan
    state = pc.new_game(["P%d" % i for i in range(players)], {"first": first}, Seeded(seed).below)
    counts = [0] * players
    for n, boats in enumerate(rounds):
        if replays[n]:  # an uncertain restoration part-way through: replay, same starting player
            for _ in range(replays[n]):
                pc.move(state, None, "launch", {})
            pc.move(state, None, "replay_round", {})
        for _ in range(8):
            counts[pc.public_view(state)["launcher"]] += 1
            pc.move(state, None, "launch", {})
        for boat, r in enumerate(boats, 1):
            pc.move(state, boat % players, "set_result", {"boat": boat, "result": r})
        pc.move(state, None, "confirm", {})
        view = pc.public_view(state)
        assert 0 <= view["round_scores"][-1] <= 18
        assert view["total"] == sum(view["round_scores"]) <= 54
        if n < 2:
            pc.move(state, None, "next_round", {})
    expected = [pc.round_score(c, b) for c, b in zip(state["course"], rounds)]
    assert pc.public_view(state)["round_scores"] == expected
    assert state["total"] == sum(expected) <= 54
    assert max(counts) - min(counts) <= 1  # replays do not disturb the rotation's fairness
    assert pc.is_over(state)
    assert pc.from_dict(json.loads(json.dumps(pc.to_dict(state)))) == state


def forward(state):
    """The box's move that takes the game forward (an empty boat's result counts as forward)."""
    for m in pc.legal_moves(state, None):
        if m["move"] in ("launch", "confirm", "next_round"):
            return m
        if m["move"] == "set_result" and m["args"]["was"] is None:
            return m
    return None


@pytest.mark.slow
@given(st.integers(1, 2**32 - 1), st.integers(2, 8), st.lists(st.tuples(
    st.one_of(st.none(), st.integers(-1, 9), st.booleans()),
    st.one_of(st.just("launch"), st.sampled_from(pc.MOVES + ("fly", "new_course"))),
    st.one_of(st.none(), st.dictionaries(st.sampled_from(["boat", "result", "was"]), anything, max_size=3),
              st.fixed_dictionaries({"boat": st.integers(0, 9), "result": st.integers(-1, 3)})),
), min_size=60, max_size=200))
@settings(max_examples=150)
def test_random_moves_keep_the_state_sound(seed, players, moves):
    state = pc.new_game(["P%d" % i for i in range(players)], {}, Seeded(seed).below)
    phases = set()
    for seat, name, args in moves:
        if seat is True or seat is None:  # often the box simply moves on, so games get somewhere
            legal = forward(state)
            if legal and (seat or name == "launch"):
                seat, name, args = None, legal["move"], legal["args"]
        phases.add(state["phase"])
        before = copy.deepcopy(state)
        try:
            pc.move(state, seat, name, args)
        except pc.GameError as e:
            assert e.status in (400, 409)
            assert state == before
        # Whatever happened, the state is still a sound saved game and its views are JSON.
        assert pc.from_dict(json.loads(json.dumps(state))) == state
        json.dumps(pc.public_view(state))
        assert state["total"] == sum(r["score"] for r in state["rounds"]) <= 54
    event("phases seen: %s" % sorted(phases))


# ---------------------------------------------------------------- both interpreters


def test_whole_seeded_games_end_identically(mp):
    calls = [[seed, 2 + seed % 7] for seed in range(1, 36)]
    results = []
    for start in range(0, len(calls), 5):  # batches keep each interpreter's JSON answer small
        results += mp.call_many(HERE / "play_paper_current.py", "play", calls[start:start + 5], heap="4M")
    for (seed, players), result in zip(calls, results):
        assert "ok" in result, result
        expected = json.loads(json.dumps(play(seed, players)))
        assert result["ok"] == expected, seed
        assert [c["phase"] for c in expected["courses"]] == ["over", "over"]
        assert expected["refusals"] > 0 and expected["moves"] > 50


def test_seeded_games_really_vary():
    games = [play(seed, 4) for seed in range(1, 9)]
    assert len({json.dumps(g["courses"]) for g in games}) == 8
    for g in games:
        totals = [c["total"] for c in g["courses"]]
        assert g["next"]["past"] == totals  # each new course remembers the table's earlier totals
        for course, (winners, standings) in zip(g["courses"], g["winners"]):
            reached = course["total"] >= course["target"]
            assert winners == (list(range(4)) if reached else [])
            assert standings == [[1, s, course["total"]] for s in range(4)]
