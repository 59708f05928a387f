"""The Quiet Dividend: property tests (hypothesis, CPython) against a small independent model, the
replay contract on arbitrary input, and 2,000 seeded games run identically under CPython and
MicroPython."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from play_quiet_dividend import play_many
from tidebox.games import quiet_dividend as qd
from tidebox.games.seeded import Seeded

HERE = Path(__file__).resolve().parent  # this game's tests, with its MicroPython modules

SETUP_IDS = [s[0] for s in qd.SETUPS]


def all_turns():
    turns = [("pass", {})]
    for c in qd.CLUBS:
        turns.append(("join", {"club": c}))
        turns.append(("promote", {"club": c}))
        for t in qd.CLUBS:
            turns.append(("switch", {"from": c, "to": t}))
    return turns


def accepted(state, seat):
    """Every turn the rules accept from `seat` now, found by trying each one on a copy."""
    ok = []
    for name, args in all_turns():
        trial = copy.deepcopy(state)
        try:
            qd.move(trial, seat, name, args)
        except qd.GameError:
            continue
        ok.append((name, args))
    return ok


def check_limits(state):
    for held in state["shares"]:
        assert all(0 <= h <= 2 for h in held) and sum(held) <= 4
    assert all(0 <= v <= 4 for v in state["values"])


def expected_after(state, seat, name, args):
    """The model: values and shares after the turn, before any payout or reset."""
    values = list(state["values"])
    shares = [list(s) for s in state["shares"]]
    i = qd.CLUBS.index
    if name == "join":
        shares[seat][i(args["club"])] += 1
    elif name == "promote":
        values[i(args["club"])] += 1
    elif name == "switch":
        shares[seat][i(args["from"])] -= 1
        shares[seat][i(args["to"])] += 1
    return values, shares


games = st.tuples(
    st.sampled_from(SETUP_IDS),
    st.integers(2, 8),
    st.integers(0, 7),
    st.lists(st.integers(0, 10**6), min_size=0, max_size=60),
)


def start(setup, players, first):
    return qd.new_game(["P%d" % i for i in range(players)], {"setup": setup, "first": first % players})


@given(games)
@settings(max_examples=150, deadline=None)
def test_every_turn_follows_the_model_payouts_limits_and_values(game):
    setup_id, players, first, choices = game
    setup = qd.setup_by_id(setup_id)
    state = start(setup_id, players, first)
    for choice in choices:
        if qd.is_over(state):
            break
        seat = qd.to_act(state)[0]
        moves = qd.legal_moves(state, seat)
        m = moves[choice % len(moves)]
        values, shares = expected_after(state, seat, m["move"], m["args"])
        paid_before = len(state["payouts"])
        laps_before = state["laps"]
        old_values = list(state["values"])
        qd.move(state, seat, m["move"], m["args"])
        check_limits(state)
        assert state["shares"] == shares  # a payout or reset never touches the shares
        if state["laps"] > laps_before and state["laps"] in setup[3]:
            assert len(state["payouts"]) == paid_before + 1
            payout = state["payouts"][-1]
            assert payout["values"] == values
            # a payout is the sum of shares x values, club by club
            for s in range(players):
                assert payout["amounts"][s] == sum(shares[s][c] * values[c] for c in range(3))
            reset = setup[4].get(state["laps"])
            assert state["values"] == (list(reset) if reset else values)
        else:
            assert len(state["payouts"]) == paid_before  # never paid on a join or promote
            assert state["values"] == values
            # values never fall except by a reset
            assert all(new >= old for new, old in zip(state["values"], old_values))


@given(games)
@settings(max_examples=40, deadline=None)
def test_legal_moves_are_exactly_the_accepted_turns_and_pass_only_when_nothing_is_legal(game):
    setup_id, players, first, choices = game
    state = start(setup_id, players, first)
    for choice in choices[:30]:
        if qd.is_over(state):
            break
        seat = qd.to_act(state)[0]
        moves = qd.legal_moves(state, seat)
        listed = sorted((m["move"], sorted(m["args"].items())) for m in moves)
        ok = sorted((name, sorted(args.items())) for name, args in accepted(state, seat))
        assert listed == ok
        assert ("pass" in [m["move"] for m in moves]) == (len(moves) == 1 and moves[0]["move"] == "pass")
        for other in range(players):
            if other != seat:
                assert qd.legal_moves(state, other) == []
        m = moves[choice % len(moves)]
        qd.move(state, seat, m["move"], m["args"])


def test_pass_is_never_legal_with_these_limits():
    """With values capped at 4, 2 shares a club and 4 in all, some action is always legal: a club
    below 4 can be promoted; with all at 4, fewer than 4 shares can join and 4 shares can switch.
    Checked for every holding."""
    state = start("steady", 2, 0)
    for a in range(3):
        for b in range(3):
            for c in range(3):
                if a + b + c > 4:
                    continue
                state["shares"][0] = [a, b, c]
                state["values"] = [4, 4, 4]
                moves = qd.legal_moves(state, 0)
                assert moves and "pass" not in [m["move"] for m in moves]


junk = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10), st.floats(allow_nan=False), st.text(max_size=4),
    st.sampled_from(["A", "B", "C", "a", "D", ""]), st.lists(st.sampled_from(["A", 1, None]), max_size=2),
)
junk_args = st.one_of(
    junk,
    st.dictionaries(st.sampled_from(["club", "from", "to", "name", "x"]), junk, max_size=3),
    st.fixed_dictionaries({"club": st.sampled_from(qd.CLUBS)}),
    st.fixed_dictionaries({"from": st.sampled_from(qd.CLUBS), "to": st.sampled_from(qd.CLUBS)}),
)


@given(games, st.lists(st.tuples(st.one_of(st.sampled_from(qd.MOVES), junk), junk, junk_args), max_size=25))
@settings(max_examples=120, deadline=None)
def test_a_refused_move_leaves_the_state_identical(game, attempts):
    setup_id, players, first, choices = game
    state = start(setup_id, players, first)
    for k, (name, seat, args) in enumerate(attempts):
        before = copy.deepcopy(state)
        try:
            qd.move(state, seat, name, args)
        except qd.GameError as e:
            assert e.status in (400, 409) and e.message
            assert state == before
        check_limits(state)
        if not qd.is_over(state) and k < len(choices):
            seat = qd.to_act(state)[0]
            moves = qd.legal_moves(state, seat)
            m = moves[choices[k] % len(moves)]
            qd.move(state, seat, m["move"], m["args"])
    assert qd.from_dict(json.loads(json.dumps(qd.to_dict(state)))) == state


@given(games, st.sampled_from(sorted(qd.to_dict(start("steady", 2, 0)))), st.integers(0, 8),
       st.one_of(junk, st.dictionaries(st.text(max_size=3), junk, max_size=3)))
@settings(max_examples=200, deadline=None)
def test_a_damaged_save_is_refused_with_game_error_only(game, key, where, value):
    setup_id, players, first, choices = game
    state = start(setup_id, players, first)
    for choice in choices[:20]:
        if qd.is_over(state):
            break
        moves = qd.legal_moves(state, qd.to_act(state)[0])
        m = moves[choice % len(moves)]
        qd.move(state, qd.to_act(state)[0], m["move"], m["args"])
    data = json.loads(json.dumps(qd.to_dict(state)))
    target = data[key]
    if isinstance(target, list) and target and where < len(target):
        target[where] = value  # damage one element
    else:
        data[key] = value
    try:
        loaded = qd.from_dict(data)
    except qd.GameError:
        return
    # accepted: it must be a state the rules can keep playing
    check_limits(loaded)
    qd.public_view(loaded)
    if not qd.is_over(loaded):
        seat = qd.to_act(loaded)[0]
        m = qd.legal_moves(loaded, seat)[0]
        qd.move(loaded, seat, m["move"], m["args"])


# ---------------------------------------------------------------- the replay contract


def as_turn(m):
    if m["move"] == "switch":
        return ("switch", m["args"]["from"], m["args"]["to"])
    if m["move"] == "pass":
        return ("pass",)
    return (m["move"], m["args"]["club"])


@given(games)
@settings(max_examples=100, deadline=None)
def test_replay_agrees_with_the_game_and_every_prefix_is_the_state_so_far(game):
    setup_id, players, first, choices = game
    first %= players
    state = start(setup_id, players, first)
    turns = []
    snapshots = [copy.deepcopy(state)]
    for choice in choices:
        if qd.is_over(state):
            break
        moves = qd.legal_moves(state, qd.to_act(state)[0])
        m = moves[choice % len(moves)]
        turns.append(as_turn(m))
        qd.move(state, qd.to_act(state)[0], m["move"], m["args"])
        snapshots.append(copy.deepcopy(state))
    for cut in {0, len(turns) // 2, len(turns)}:
        result = qd.replay(setup_id, players, first, turns[:cut])
        snap = snapshots[cut]
        assert result["values"] == tuple(snap["values"])
        assert result["shares"] == [tuple(s) for s in snap["shares"]]
        assert result["laps"] == snap["laps"]
        for seat in range(players):
            paid = [p["amounts"][seat] for p in snap["payouts"]]
            assert result["payouts"][seat] == paid + [0] * (3 - len(paid))


@given(st.one_of(junk, st.sampled_from(SETUP_IDS)), junk, junk,
       st.one_of(junk, st.lists(st.one_of(junk, st.tuples(junk), st.tuples(junk, junk),
                                          st.tuples(st.sampled_from(["join", "promote", "switch", "pass"]),
                                                    st.sampled_from(["A", "B", "C", "D"]))),
                                max_size=10)))
@settings(max_examples=300, deadline=None)
def test_replay_raises_nothing_but_value_error(setup_id, players, first, turns):
    try:
        qd.replay(setup_id, players, first, turns)
    except ValueError as e:
        message = str(e)
        assert message.startswith(("setup:", "turns:", "turn "))


def test_replay_raises_value_error_on_an_iterator_that_fails():
    def broken():
        yield ("join", "A")
        raise RuntimeError("boom")

    try:
        qd.replay("steady", 2, 0, broken())
    except ValueError as e:
        assert str(e).startswith("turn 2:")
    else:
        raise AssertionError("no error")


# ---------------------------------------------------------------- differential: CPython vs MicroPython


@pytest.mark.slow
def test_two_thousand_seeded_games_end_identically_under_micropython(mp):
    seeds = list(range(1, 2001))
    expected = json.loads(json.dumps(play_many(seeds)))
    # the sample really plays every setup, every table size, refusals of both kinds and leaves
    assert {g["state"]["setup"] for g in expected} == set(SETUP_IDS)
    assert {len(g["state"]["names"]) for g in expected} == set(range(2, 9))
    statuses = {r[0] for g in expected for r in g["refusals"]}
    assert statuses == {400, 409}
    assert sum(1 for g in expected if not all(g["state"]["seated"])) > 20
    assert all(g["view"]["over"] and len(g["state"]["payouts"]) == 3 for g in expected)
    got = []
    for start_at in range(0, len(seeds), 50):  # batches keep each interpreter's heap small
        batch = seeds[start_at : start_at + 50]
        results = mp.call_many(HERE / "play_quiet_dividend.py", "play_many", [[batch]], heap="16M")
        assert "ok" in results[0], results[0]
        got += results[0]["ok"]
    mismatches = [seeds[i] for i in range(len(seeds)) if got[i] != expected[i]]
    assert mismatches == []


def test_seeded_games_are_reproducible_and_vary():
    a = play_many([7, 8])
    b = play_many([7, 8])
    assert a == b
    assert a[0]["state"] != a[1]["state"]
    assert Seeded(7).below(8) == Seeded(7).below(8)
