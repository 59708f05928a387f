"""The Token Tide game as a state machine: setup, rounds, reader rotation, reveal, leaving, the end."""

import copy
import json

import pytest

from tidebox.games import token_tide as tt
from tidebox.games.seeded import Seeded

NAMES = ["Ada", "Bo", "Cy"]


def game(names=NAMES, deck=tt.DECK_NUMBERED, **kw):
    return tt.new_game(list(names), deck=deck, **kw)


def lock_all(state, allocations):
    for seat, a in enumerate(allocations):
        if state["seated"][seat]:
            tt.set_allocation(state, seat, a)


def refused(action, state, *args):
    """The action raises GameError and leaves the state exactly as it was."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(tt.GameError) as info:
        action(state, *args)
    assert json.dumps(state, sort_keys=True) == before
    return str(info.value)


# ---------------------------------------------------------------- setup


def test_new_game_seats_players_in_order_with_first_reader():
    state = game(first_reader=2)
    assert state["names"] == NAMES
    assert state["reader"] == 2
    assert state["totals"] == [0, 0, 0]
    assert tt.current_card(state) == ("T01", "Low Water", 2)


@pytest.mark.parametrize("count", [2, 8])
def test_two_to_eight_players(count):
    state = tt.new_game(["P%d" % i for i in range(count)], deck=tt.DECK_NUMBERED)
    assert len(state["names"]) == count


@pytest.mark.parametrize(
    "names, message",
    [
        (["Solo"], "at least 2"),
        (["P%d" % i for i in range(9)], "at most 8"),
        (["Ada", "ada"], "taken"),
        (["Ada", ""], "at least one character"),
        (["Ada", "ThirteenChars"], "at most 12"),
        (["Ada", 5], "text"),
        (["Ada", "B\x00b"], "control"),
    ],
)
def test_bad_player_lists_are_refused(names, message):
    with pytest.raises(tt.GameError, match=message):
        tt.new_game(names, deck=tt.DECK_NUMBERED)


def test_bad_first_reader_and_deck_refused():
    with pytest.raises(tt.GameError):
        tt.new_game(NAMES, deck=tt.DECK_NUMBERED, first_reader=3)
    with pytest.raises(tt.GameError):
        tt.new_game(NAMES, deck="backwards")
    with pytest.raises(tt.GameError, match="random source"):
        tt.new_game(NAMES, deck=tt.DECK_SHUFFLED)


def test_deck_modes():
    numbered = game(deck=tt.DECK_NUMBERED)
    assert [tt.TIDE_CARDS[i][0] for i in numbered["deck"]] == ["T01", "T02", "T03", "T04", "T05", "T06"]
    short = game(deck=tt.DECK_SHORT)
    assert [tt.TIDE_CARDS[i][0] for i in short["deck"]] == ["T01", "T02", "T03", "T04"]
    assert tt.rounds_total(short) == 4
    shuffled = tt.new_game(NAMES, deck=tt.DECK_SHUFFLED, below=Seeded(7).below)
    assert sorted(shuffled["deck"]) == [0, 1, 2, 3, 4, 5]


def test_shuffle_is_reproducible_and_varies_with_seed():
    decks = {
        tuple(tt.new_game(NAMES, deck=tt.DECK_SHUFFLED, below=Seeded(s).below)["deck"]) for s in range(40)
    }
    assert tuple(tt.new_game(NAMES, deck=tt.DECK_SHUFFLED, below=Seeded(3).below)["deck"]) == tuple(
        tt.new_game(NAMES, deck=tt.DECK_SHUFFLED, below=Seeded(3).below)["deck"]
    )
    assert len(decks) > 20  # 40 seeds give many different orders


def test_fisher_yates_is_uniform_enough():
    # 720 orders of six cards; 36,000 shuffles should hit every one.
    rng = Seeded(12345)
    seen = {}
    for _ in range(36000):
        order = tuple(tt.shuffled(range(6), rng.below))
        seen[order] = seen.get(order, 0) + 1
    assert len(seen) == 720
    assert min(seen.values()) > 20 and max(seen.values()) < 90  # expected 50 each


# ---------------------------------------------------------------- a round


def test_allocation_is_hidden_until_reveal_and_changeable():
    state = game()
    tt.set_allocation(state, 0, [4, 1, 2])
    tt.set_allocation(state, 0, [3, 2, 2])  # a mistake may be fixed while hidden
    view_bo = tt.view_for(state, 1)
    text = json.dumps(view_bo)
    assert "[3, 2, 2]" not in text and "[4, 1, 2]" not in text
    assert view_bo["players"][0]["ready"] is True
    assert tt.view_for(state, 0)["mine"] == [3, 2, 2]


def test_unlock_takes_back_ready():
    state = game()
    tt.set_allocation(state, 0, [4, 1, 2])
    tt.unlock(state, 0)
    assert 0 in tt.waiting_for(state)
    assert state["hidden"][0] == [4, 1, 2]


def test_reveal_needs_everyone_ready():
    state = game()
    tt.set_allocation(state, 0, [4, 1, 2])
    tt.set_allocation(state, 1, [3, 1, 3])
    tt.set_allocation(state, 2, [1, 3, 3], lock=False)
    assert "not everybody" in refused(tt.reveal, state)


def test_reveal_scores_the_round_and_keeps_totals():
    state = game(deck=tt.DECK_NUMBERED)
    lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
    tt.reveal(state)
    # T01 target 2: Ada 6 + 1 + 3 = 10, Bo 0 + 1 + 1 = 2, Cy 0 + 0 + 1 = 1
    assert state["history"][0]["scores"] == [[6, 1, 3], [0, 1, 1], [0, 0, 1]]
    assert state["totals"] == [10, 2, 1]
    assert tt.view_for(state, 1)["last"]["rows"][0]["allocation"] == [4, 1, 2]


@pytest.mark.parametrize(
    "bad, message",
    [
        ([3, 3, 0], "total 7"),
        ([8, -1, 0], "negative"),
        ([3.0, 2, 2], "whole number"),
        ([True, 3, 3], "whole number"),
        ([1, 2], "three numbers"),
        ("7,0,0", "three numbers"),
    ],
)
def test_illegal_allocation_refused_with_clear_error(bad, message):
    state = game()
    assert message in refused(tt.set_allocation, state, 0, bad)


def test_unknown_seat_refused():
    state = game()
    assert "unknown player" in refused(tt.set_allocation, state, 5, [7, 0, 0])
    assert "unknown player" in refused(tt.set_allocation, state, -1, [7, 0, 0])
    assert "unknown player" in refused(tt.set_allocation, state, "0", [7, 0, 0])


def test_no_change_after_reveal():
    state = game()
    lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
    tt.reveal(state)
    assert "closed" in refused(tt.set_allocation, state, 0, [7, 0, 0])
    assert "closed" in refused(tt.unlock, state, 0)
    assert "already" in refused(tt.reveal, state)


def test_next_round_only_after_reveal():
    state = game()
    assert "reveal" in refused(tt.next_round, state)


def test_reader_moves_one_seat_clockwise_and_supplies_reset():
    state = game(first_reader=1)
    readers = []
    for _ in range(6):
        readers.append(state["reader"])
        lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
        tt.reveal(state)
        tt.next_round(state)
        assert state["hidden"] == [None, None, None]  # nothing carries over
    assert readers == [1, 2, 0, 1, 2, 0]
    assert tt.is_over(state)


def test_full_game_ends_with_standings_and_shared_victory():
    state = game(["Ada", "Bo"])
    for _ in range(6):
        lock_all(state, [[4, 1, 2], [4, 1, 2]])  # identical every round: a tie
        tt.reveal(state)
        tt.next_round(state)
    assert tt.is_over(state)
    assert tt.winners(state) == [0, 1]
    # tied Beacon 2 and Grove 1 each round; Mooring 2 against targets 2,3,4,2,4,3 gives 3,1,0,3,0,1
    assert state["totals"][0] == state["totals"][1] == 6 * 2 + 6 * 1 + 8
    assert "game is over" in refused(tt.leave, state, 0)


def test_winners_only_when_over():
    state = game()
    assert tt.winners(state) == []


def test_short_crossing_is_four_rounds():
    state = game(deck=tt.DECK_SHORT)
    targets = []
    while not tt.is_over(state):
        targets.append(tt.current_card(state)[2])
        lock_all(state, [[7, 0, 0], [0, 7, 0], [0, 0, 7]])
        tt.reveal(state)
        tt.next_round(state)
    assert targets == [2, 3, 4, 2]
    assert len(state["history"]) == 4


def test_practice_round_is_unscored_and_draws_no_card():
    state = game(practice=True, first_reader=0)
    assert tt.current_card(state) == tt.PRACTICE_CARD
    lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
    tt.reveal(state)
    assert state["totals"] == [0, 0, 0]
    assert state["last"]["scores"] == [[6, 1, 1], [0, 1, 3], [0, 0, 3]]
    tt.next_round(state)
    assert tt.current_card(state)[0] == "T01"
    assert state["reader"] == 0  # the first scored round is the first reader's
    assert state["history"] == []


# ---------------------------------------------------------------- leaving


def test_leaving_keeps_past_scores_and_stops_counting_for_readiness():
    state = game(["Ada", "Bo", "Cy", "Di"], first_reader=3)
    lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3], [7, 0, 0]])
    tt.reveal(state)
    tt.next_round(state)
    cy_total = state["totals"][2]
    tt.set_allocation(state, 0, [4, 1, 2])
    tt.set_allocation(state, 2, [6, 1, 0])
    tt.leave(state, 2)
    assert state["totals"][2] == cy_total
    assert state["hidden"][2] is None
    tt.set_allocation(state, 1, [3, 1, 3])
    tt.set_allocation(state, 3, [0, 1, 6])
    tt.reveal(state)  # Cy's absence does not block the reveal
    last = state["last"]
    assert last["allocations"][2] is None
    assert last["scores"][2] == [0, 0, 0]
    assert "left" in refused(tt.set_allocation, state, 2, [7, 0, 0])


def test_leaving_reader_passes_the_job_on_and_rotation_skips_absent():
    state = game(["Ada", "Bo", "Cy", "Di"], first_reader=1)
    tt.leave(state, 1)
    assert state["reader"] == 2
    lock_all(state, [[7, 0, 0]] * 4)
    tt.reveal(state)
    tt.next_round(state)
    assert state["reader"] == 3
    lock_all(state, [[7, 0, 0]] * 4)
    tt.reveal(state)
    tt.next_round(state)
    assert state["reader"] == 0
    lock_all(state, [[7, 0, 0]] * 4)
    tt.reveal(state)
    tt.next_round(state)
    assert state["reader"] == 2  # Bo is skipped


def test_cannot_leave_below_two_players():
    state = game(["Ada", "Bo"])
    assert "at least 2" in refused(tt.leave, state, 0)


# ---------------------------------------------------------------- saving and views


def test_state_round_trips_through_json():
    state = tt.new_game(NAMES, deck=tt.DECK_SHUFFLED, below=Seeded(1).below, practice=True)
    lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
    tt.reveal(state)
    tt.next_round(state)
    tt.set_allocation(state, 1, [2, 2, 3])
    restored = tt.from_dict(json.loads(json.dumps(tt.to_dict(state))))
    assert restored == json.loads(json.dumps(state))


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("totals"),
        lambda d: d.__setitem__("game", "chess"),
        lambda d: d.__setitem__("phase", "dancing"),
        lambda d: d.__setitem__("deck", [0, 9]),
        lambda d: d.__setitem__("reader", 7),
        lambda d: d.__setitem__("hidden", [[9, 9, 9], None, None]),
        lambda d: d.__setitem__("locked", [True]),
        lambda d: d.__setitem__("names", ["A"]),
    ],
)
def test_damaged_saved_state_is_refused(damage):
    data = copy.deepcopy(tt.to_dict(game()))
    damage(data)
    with pytest.raises(tt.GameError):
        tt.from_dict(data)


def test_from_dict_refuses_non_dict():
    with pytest.raises(tt.GameError):
        tt.from_dict([1, 2, 3])


def test_view_hides_every_other_allocation_until_reveal():
    state = game(["Ada", "Bo", "Cy"])
    secrets = [[5, 2, 0], [0, 6, 1], [1, 1, 5]]
    lock_all(state, secrets)
    for seat in range(3):
        view = tt.view_for(state, seat)
        assert view["mine"] == secrets[seat]
        text = json.dumps({k: v for k, v in view.items() if k != "mine"})
        for other, secret in enumerate(secrets):
            assert json.dumps(secret) not in text, (seat, other)
    public = json.dumps(tt.view_for(state, None))
    assert all(json.dumps(s) not in public for s in secrets)
    tt.reveal(state)
    public = tt.view_for(state, None)
    assert [row["allocation"] for row in public["last"]["rows"]] == secrets


def test_reveal_reasons_name_the_award():
    state = game(["Ada", "Bo", "Cy"], deck=tt.DECK_NUMBERED)
    lock_all(state, [[4, 1, 2], [3, 1, 3], [1, 3, 3]])
    tt.reveal(state)
    rows = tt.view_for(state, None)["last"]["rows"]
    assert rows[0]["reasons"] == ["sole largest", "tied smallest positive", "exact target"]
    assert rows[1]["reasons"] == ["", "tied smallest positive", "one off"]
