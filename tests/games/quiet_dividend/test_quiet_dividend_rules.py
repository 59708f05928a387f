"""Every checkable sentence of The Quiet Dividend's rule sheet, and the game interface around it.

The outside checks' contract (`replay`) runs on CPython and in the real MicroPython unix port
(through tests/mp_scripts/driver.py): the `qd` fixture runs the same cases on both.
"""

import copy
import json

import pytest

from page_text import page_array_text
from refusals import refused_move
from tidebox import games
from tidebox.games import quiet_dividend as qd
from tidebox.games.seeded import Seeded

MODULE = "tidebox.games.quiet_dividend"


class CPythonReplay:
    def replay(self, *args):
        try:
            return json.loads(json.dumps(qd.replay(*args)))
        except ValueError as e:
            return {"error": type(e).__name__, "msg": str(e)}


class MicroPythonReplay:
    def __init__(self, mp):
        self.mp = mp

    def replay(self, *args):
        (result,) = self.mp.call_many(MODULE, "replay", [list(args)])
        return result.get("ok", result)


@pytest.fixture(params=["cpython", "micropython"])
def qdr(request):
    if request.param == "cpython":
        return CPythonReplay()
    return MicroPythonReplay(request.getfixturevalue("mp"))


def game(names=("Pat", "Mo"), setup="steady", first=0):
    return qd.new_game(list(names), {"setup": setup, "first": first})


def play(state, *labels):
    """Takes turns by their button labels, each by the seat whose turn it is."""
    for label in labels:
        seat = qd.to_act(state)[0]
        moves = {m["label"]: m for m in qd.legal_moves(state, seat)}
        assert label in moves, (label, sorted(moves))
        qd.move(state, seat, moves[label]["move"], moves[label]["args"])
    return state


def finish(state):
    """Plays the game out, each turn the last button offered (a promote or a switch)."""
    while not qd.is_over(state):
        seat = qd.to_act(state)[0]
        m = qd.legal_moves(state, seat)[-1]
        qd.move(state, seat, m["move"], m["args"])
    return state


def refused(state, seat, name, args, status=400):
    return refused_move(qd.move, state, seat, name, args, status).message


# ---------------------------------------------------------------- setups and the contract's data


def test_three_setups_exactly_as_the_rule_sheet():
    assert qd.SETUPS == (
        ("steady", "Steady", (1, 1, 1), (2, 4, 6), {}),
        ("early_opening", "Early Opening", (2, 1, 0), (1, 3, 6), {}),
        ("seasonal", "Seasonal", (1, 2, 3), (2, 4, 6), {2: (3, 1, 2), 4: (2, 3, 1)}),
    )


def test_identity_options_and_moves():
    assert qd.GAME_ID == "quiet_dividend" and qd.TITLE == "The Quiet Dividend"
    assert len(qd.SHORT) <= 14
    assert (qd.MIN_PLAYERS, qd.MAX_PLAYERS, qd.MAX_NAME) == (2, 8, 12)
    setup, first = qd.OPTIONS
    assert setup[0] == "setup" and setup[2][0] == ("steady", "Steady")  # "Start with Steady"
    assert [v for v, _ in setup[2]] == ["steady", "early_opening", "seasonal"]
    assert first == ("first", "First player", "seat_or_random")
    assert set(qd.MOVES) == {"join", "promote", "switch", "pass", "rename"}
    how = page_array_text("quiet_dividend")  # the phones' How to play
    assert "Join" in how and "at most 4" in how and "at most 2 shares in one club and 4 in all" in how


@pytest.mark.parametrize("setup_id, values", [("steady", [1, 1, 1]), ("early_opening", [2, 1, 0]),
                                              ("seasonal", [1, 2, 3])])
def test_initial_values_and_every_record_starts_at_zero(setup_id, values):
    state = game(("Pat", "Mo", "Ann"), setup_id)
    assert state["values"] == values
    assert state["shares"] == [[0, 0, 0]] * 3
    assert qd.public_view(state)["totals"] == [0, 0, 0]
    assert state["clubs"] == ["A", "B", "C"]


def test_default_setup_is_steady_and_first_player_random_by_default():
    state = qd.new_game(["Pat", "Mo", "Ann"], {}, Seeded(3).below)
    assert state["setup"] == "steady"
    rng = Seeded(2026)
    firsts = {qd.new_game(["Pat", "Mo", "Ann"], {}, rng.below)["first"] for _ in range(60)}
    assert firsts == {0, 1, 2}
    with pytest.raises(qd.GameError):
        qd.new_game(["Pat", "Mo"], {}, None)  # random needs a random source


@pytest.mark.parametrize("names, options", [
    (["Pat"], {}), (["P%d" % i for i in range(9)], {}), (["Pat", "pat"], {}), ("Pat", {}),
    (["Pat", "Mo"], {"setup": "quick"}), (["Pat", "Mo"], {"first": 2}), (["Pat", "Mo"], {"first": True}),
    (["Pat", "Mo"], {"first": "0"}), (["Pat", "Mo"], {"colour": 1}), (["Pat", "Mo"], [1]),
    (["Pat", ""], {}), (["Pat", "A" * 13], {}),
])
def test_bad_tables_and_options_refused(names, options):
    with pytest.raises(qd.GameError):
        qd.new_game(names, options, Seeded(1).below)


def test_two_to_eight_players():
    for count in range(2, 9):
        state = qd.new_game(["P%d" % i for i in range(count)], {"first": 0})
        assert len(state["shares"]) == count
    assert games.load("quiet_dividend").check_name(" Pat ") == "Pat"  # base's name rule, filled in


# ---------------------------------------------------------------- the worked example


def test_worked_example_payout_arithmetic():
    # A is worth 2, B 3, C 1; Pat owns two A and one B: 2x2 + 1x3 = 7; Mo owns two B: 6.
    assert qd.payout_amounts([2, 3, 1], [[2, 1, 0], [0, 2, 0]]) == [7, 6]
    # had B been 2: Pat 6 and Mo 4; the promotion from 2 to 3 gave Pat 1 and Mo 2
    assert qd.payout_amounts([2, 2, 1], [[2, 1, 0], [0, 2, 0]]) == [6, 4]


# Pat is seat 0, Mo seat 1 and Mo starts: the second payout (after lap 4) is the worked example.
EXAMPLE = [("join", "B"), ("join", "A"), ("join", "B"), ("join", "A"),  # laps 1-2
           ("promote", "A"), ("join", "B"),  # lap 3
           ("promote", "B")]  # lap 4, Mo; Pat's last turn follows


def test_worked_example_in_a_whole_game(qdr):
    result = qdr.replay("steady", 2, 1, EXAMPLE + [("promote", "B")])
    assert result["values"] == [2, 3, 1]
    assert result["shares"] == [[2, 1, 0], [0, 2, 0]]
    assert result["payouts"] == [[2, 7, 0], [2, 6, 0]]  # Pat 7, Mo 6
    assert result["laps"] == 4


def test_a_promotion_can_help_a_rival_more(qdr):
    promoted = qdr.replay("steady", 2, 1, EXAMPLE + [("promote", "B")])  # B from 2 to 3
    elsewhere = qdr.replay("steady", 2, 1, EXAMPLE + [("promote", "C")])  # nobody holds C
    pat = promoted["payouts"][0][1] - elsewhere["payouts"][0][1]
    mo = promoted["payouts"][1][1] - elsewhere["payouts"][1][1]
    assert (pat, mo) == (1, 2)


def test_worked_example_on_the_box_with_its_public_record():
    state = game(("Pat", "Mo"), "steady", first=1)
    play(state, "Join B", "Join A", "Join B", "Join A", "Promote A to 2", "Join B", "Promote B to 2",
         "Promote B to 3")
    view = qd.public_view(state)
    assert view["payouts"][1] == {"lap": 4, "values": [2, 3, 1], "amounts": [7, 6], "reset": None}
    assert view["log"][0] == [1, 1, "Mo joined B"]
    assert view["log"][1] == [1, 0, "Pat joined A"]
    assert view["log"][-1] == [4, 0, "Pat promoted B to 3"]


# ---------------------------------------------------------------- actions and limits


def test_join_adds_one_share_and_costs_no_points():
    state = play(game(), "Join A")
    assert state["shares"][0] == [1, 0, 0]
    assert qd.public_view(state)["totals"] == [0, 0]  # never pay on a join
    assert state["payouts"] == []


def test_at_most_two_shares_in_one_club():
    state = play(game(), "Join A", "Join A", "Join A", "Join B")
    message = refused(state, 0, "join", {"club": "A"})
    assert message == "Pat already holds 2 shares in A"
    assert "Join A" not in [m["label"] for m in qd.legal_moves(state, 0)]


def test_at_most_four_shares_in_all():
    state = play(game(), "Join A", "Join A", "Join A", "Join A", "Join B", "Join B", "Join B", "Join B")
    # Pat holds 2 A and 2 B: a C share would be a fifth
    message = refused(state, 0, "join", {"club": "C"})
    assert message == "Pat already holds 4 shares, the most anyone may hold"
    labels = [m["label"] for m in qd.legal_moves(state, 0)]
    assert not [x for x in labels if x.startswith("Join")]
    assert "Switch A to C" in labels and "Switch B to C" in labels  # a switch stays within limits


def test_promote_raises_a_value_by_one_without_owning_a_share():
    state = play(game(), "Promote C to 2")
    assert state["values"] == [1, 1, 2] and state["shares"][0] == [0, 0, 0]
    assert state["payouts"] == []  # never pay on a promote


def test_values_never_exceed_four():
    state = play(game(), "Promote A to 2", "Promote A to 3", "Promote A to 4")
    message = refused(state, 1, "promote", {"club": "A"})
    assert message == "A is already worth 4, the most a club can be worth"
    assert [m for m in qd.legal_moves(state, 1) if m["move"] == "promote"] == [
        {"move": "promote", "args": {"club": "B"}, "label": "Promote B to 2"},
        {"move": "promote", "args": {"club": "C"}, "label": "Promote C to 2"},
    ]


def test_switch_moves_a_share_and_leaves_values_alone():
    state = play(game(), "Join A", "Promote A to 2")
    values = list(state["values"])
    play(state, "Switch A to C")
    assert state["shares"][0] == [0, 0, 1]
    assert state["values"] == values


def test_switch_needs_a_share_a_different_club_and_room():
    state = play(game(), "Join A", "Join C", "Join A", "Join C")
    assert refused(state, 0, "switch", {"from": "B", "to": "C"}) == "Pat holds no share in B to switch"
    message = refused(state, 0, "switch", {"from": "A", "to": "A"})
    assert message == "a switch moves a share to a different club"
    play(state, "Join C", "Promote B to 2")  # Pat: A 2, C 1
    assert refused(state, 0, "switch", {"from": "C", "to": "A"}) == "Pat already holds 2 shares in A"


def test_legal_moves_of_a_fresh_game_are_the_phone_buttons():
    labels = [m["label"] for m in qd.legal_moves(game(), 0)]
    assert labels == ["Join A", "Join B", "Join C",
                      "Promote A to 2", "Promote B to 2", "Promote C to 2"]
    state = play(game(), "Join A", "Join B")
    assert [m["label"] for m in qd.legal_moves(state, 0) if m["move"] == "switch"] == [
        "Switch A to B", "Switch A to C"]
    assert qd.legal_moves(state, 1) == []  # not Mo's turn
    assert qd.legal_moves(state, None) == []


def test_pass_only_when_no_action_is_legal():
    state = game()
    message = refused(state, 0, "pass", {})
    assert message == "Pat cannot pass while an action is legal (Join A is possible)"
    # once every value is 4 and Pat holds 4 shares, a switch is still legal, so pass stays refused
    state["values"] = [4, 4, 4]
    state["shares"][0] = [2, 2, 0]
    assert refused(state, 0, "pass", {}).endswith("(Switch A to C is possible)")


def test_turn_is_refused_out_of_turn_and_after_the_end():
    state = game()
    assert refused(state, 1, "join", {"club": "A"}, 409) == "it is Pat's turn"
    state = finish(game())
    assert qd.is_over(state)
    assert refused(state, 0, "join", {"club": "B"}, 409) == "the game is over"
    assert qd.to_act(state) == []


@pytest.mark.parametrize("seat, name, args", [
    (0, "buy", {"club": "A"}), (0, None, {}), (0, "join", None), (0, "join", ["A"]), (0, "join", {}),
    (0, "join", {"club": "D"}), (0, "join", {"club": "a"}), (0, "join", {"club": 0}),
    (0, "join", {"club": None}),
    (0, "join", {"club": "A", "seat": 1}), (0, "promote", {"club": ["A"]}), (0, "switch", {"from": "A"}),
    (0, "switch", {"from": "A", "to": 3}), (0, "pass", {"club": "A"}), (True, "join", {"club": "A"}),
    (5, "join", {"club": "A"}), (-1, "join", {"club": "A"}), ("0", "join", {"club": "A"}),
    (None, "join", {"club": "A"}), (0, "rename", {"club": "A", "name": "Oak"}),
])
def test_malformed_moves_are_400_and_change_nothing(seat, name, args):
    assert refused(game(), seat, name, args, 400)


# ---------------------------------------------------------------- turn order and laps


def test_clockwise_from_the_first_player_six_laps_six_turns_each():
    state = game(("Pat", "Mo", "Ann", "Bo"), first=2)
    seen = []
    while not qd.is_over(state):
        seat = qd.to_act(state)[0]
        seen.append(seat)
        lap = state["laps"]
        m = qd.legal_moves(state, seat)[-1]
        qd.move(state, seat, m["move"], m["args"])
        if len(seen) % 4 == 0:
            assert state["laps"] == lap + 1  # completed laps are marked
    assert seen == [2, 3, 0, 1] * 6
    assert state["laps"] == 6 and len(state["payouts"]) == 3


def test_dividends_only_after_every_player_in_a_payout_lap():
    state = game(("Pat", "Mo", "Ann"))
    play(state, "Join A", "Join A", "Join A", "Join A", "Join A")  # lap 2, Ann still to play
    assert state["payouts"] == [] and state["laps"] == 1
    play(state, "Join B")
    assert len(state["payouts"]) == 1
    payout = state["payouts"][0]
    assert payout == {"lap": 2, "values": [1, 1, 1], "amounts": [2, 2, 2], "reset": None}
    assert state["shares"] == [[2, 0, 0], [2, 0, 0], [1, 1, 0]]  # shares remain in place


def test_steady_pays_after_laps_2_4_6(qdr):
    # each holds one share worth 1 and keeps moving it: every payout is 1
    filler = [("switch", "A", "B"), ("switch", "B", "C"), ("switch", "B", "A"), ("switch", "C", "B")] * 3
    turns = [("join", "A"), ("join", "B")] + filler[:10]
    paid = [qdr.replay("steady", 2, 0, turns[: 2 * laps])["payouts"] for laps in range(1, 7)]
    assert paid == [[[0, 0, 0]] * 2, [[1, 0, 0]] * 2, [[1, 0, 0]] * 2, [[1, 1, 0]] * 2, [[1, 1, 0]] * 2,
                    [[1, 1, 1]] * 2]


def test_early_opening_pays_after_laps_1_3_6(qdr):
    turns = [("join", "A"), ("join", "B"),  # lap 1 pays at A 2, B 1, C 0
             ("promote", "C"), ("promote", "C"),
             ("join", "C"), ("promote", "C"),  # lap 3 pays at A 2, B 1, C 3
             ("promote", "A"), ("promote", "B"),
             ("promote", "A"), ("promote", "B"),
             ("join", "B"), ("promote", "B")]  # lap 6 pays at A 4, B 4, C 3
    paid = [qdr.replay("early_opening", 2, 0, turns[: 2 * laps])["payouts"] for laps in range(1, 7)]
    assert paid[0] == paid[1] == [[2, 0, 0], [1, 0, 0]]
    assert paid[2] == paid[3] == paid[4] == [[2, 2 + 3, 0], [1, 1, 0]]
    assert paid[5] == [[2, 5, 4 + 4 + 3], [1, 1, 4]]


def test_seasonal_resets_right_after_its_payouts(qdr):
    lap2 = qdr.replay("seasonal", 2, 0, [("join", "C"), ("join", "A"), ("promote", "C"), ("join", "A")])
    # the lap-2 payout uses the values before the reset (C 4, A 1)
    assert lap2["payouts"] == [[4, 0, 0], [2, 0, 0]]
    assert lap2["values"] == [3, 1, 2]  # reset A 3, B 1, C 2
    assert lap2["shares"] == [[0, 0, 1], [2, 0, 0]]  # shares unchanged
    lap4 = qdr.replay("seasonal", 2, 0, [
        ("join", "C"), ("join", "A"), ("promote", "C"), ("join", "A"),
        ("promote", "B"), ("promote", "B"), ("promote", "A"), ("promote", "C"),
    ])
    assert lap4["payouts"] == [[4, 3, 0], [2, 8, 0]]  # lap 4 pays at A 4, B 3, C 3, then the reset
    assert lap4["values"] == [2, 3, 1]


def test_seasonal_payout_records_the_reset():
    state = play(game(setup="seasonal"), "Join A", "Join B", "Join C", "Promote A to 2")
    assert state["payouts"][0]["values"] == [2, 2, 3]
    assert state["payouts"][0]["amounts"] == [1 * 2 + 1 * 3, 1 * 2]
    assert state["payouts"][0]["reset"] == [3, 1, 2]
    assert state["values"] == [3, 1, 2]


def test_values_fall_only_by_a_reset():
    state = game(setup="seasonal")
    low = list(state["values"])
    while not qd.is_over(state):
        laps = state["laps"]
        promotes = [m for m in qd.legal_moves(state, qd.to_act(state)[0]) if m["move"] == "promote"]
        play(state, (promotes or qd.legal_moves(state, qd.to_act(state)[0]))[0]["label"])
        if state["laps"] != laps and state["laps"] in (2, 4):
            assert state["values"] == {2: [3, 1, 2], 4: [2, 3, 1]}[state["laps"]]
        else:
            assert all(n >= o for n, o in zip(state["values"], low))
        low = list(state["values"])


# ---------------------------------------------------------------- the finish


def finished(turns, setup="steady", players=("Pat", "Mo")):
    state = game(players, setup)
    for turn in turns:
        args = {"from": turn[1], "to": turn[2]} if turn[0] == "switch" else {"club": turn[1]}
        qd.move(state, qd.to_act(state)[0], turn[0], args)
    return state


def test_final_totals_are_the_three_payouts_and_shares_have_no_resale_value():
    state = finished([("join", "A"), ("join", "B"), ("promote", "A"), ("promote", "C"),  # pays A 2, B 1
                      ("promote", "A"), ("promote", "C"), ("promote", "A"), ("promote", "C"),  # A 4, B 1
                      ("join", "A"), ("promote", "B"), ("join", "C"), ("promote", "B")])  # A 4, B 3, C 4
    assert qd.is_over(state)
    view = qd.public_view(state)
    assert [p["lap"] for p in view["payouts"]] == [2, 4, 6]
    assert [p["amounts"] for p in view["payouts"]] == [[2, 1], [4, 1], [2 * 4 + 4, 3]]
    assert view["totals"] == [18, 5]
    assert qd.standings(state) == [[1, 0, 18], [2, 1, 5]]
    assert qd.winners(state) == [0]


TIED = [("join", "A"), ("join", "A"), ("promote", "A"), ("promote", "B"), ("promote", "A"), ("promote", "B"),
        ("promote", "A"), ("promote", "B"), ("promote", "C"), ("promote", "C"), ("switch", "A", "B"),
        ("switch", "A", "B")]


def test_tied_players_share_the_win():
    state = finished(TIED)
    assert qd.public_view(state)["totals"] == [2 + 4 + 4, 2 + 4 + 4]
    assert qd.winners(state) == [0, 1]
    assert qd.standings(state) == [[1, 0, 10], [1, 1, 10]]


def test_no_winners_before_the_end():
    state = play(game(), "Join A")
    assert qd.winners(state) == [] and not qd.is_over(state)


def test_rematch_reverses_the_seating_order_and_picks_another_first_player():
    state = finish(game(("Pat", "Mo", "Ann", "Bo"), first=1))
    firsts = set()
    rng = Seeded(2026)
    for _ in range(40):
        again = qd.rematch(state, rng.below)
        assert again["order"] == [3, 2, 1, 0]
        assert again["first"] != 1
        firsts.add(again["first"])
        assert again["names"] == state["names"] and again["setup"] == state["setup"]
        assert again["laps"] == 0 and again["payouts"] == [] and again["shares"] == [[0, 0, 0]] * 4
        assert again["values"] == [1, 1, 1]
    assert firsts == {0, 2, 3}
    again = qd.rematch(state, Seeded(5).below)
    turn_order = []
    while len(turn_order) < 8:
        turn_order.append(qd.to_act(again)[0])
        play(again, qd.legal_moves(again, qd.to_act(again)[0])[0]["label"])
    start = again["first"]
    expected = [3, 2, 1, 0][[3, 2, 1, 0].index(start):] + [3, 2, 1, 0][: [3, 2, 1, 0].index(start)]
    assert turn_order == expected * 2  # anticlockwise now


def test_rematch_only_after_the_game():
    with pytest.raises(qd.NotNow):
        qd.rematch(game(), Seeded(1).below)


# ---------------------------------------------------------------- renaming the clubs


def test_clubs_may_be_renamed_before_the_first_turn_and_numbers_stay():
    state = game()
    qd.move(state, None, "rename", {"club": "A", "name": " Oak "})
    assert state["clubs"] == ["Oak", "B", "C"]
    assert state["values"] == [1, 1, 1]
    assert [m["label"] for m in qd.legal_moves(state, 0)][:1] == ["Join Oak"]
    assert qd.legal_moves(state, 0)[0]["args"] == {"club": "A"}  # moves keep naming the letter
    play(state, "Join Oak")
    assert qd.public_view(state)["log"] == [[1, 0, "Pat joined Oak"]]
    assert refused(state, 0, "join", {"club": "Oak"}) == '"club" must be a club: "A", "B" or "C"'
    message = refused(state, None, "rename", {"club": "B", "name": "Pine"}, 409)
    assert message == "clubs are renamed before the first turn"


@pytest.mark.parametrize("args, message", [
    ({"club": "B", "name": "oak"}, "another club is already called Oak"),
    ({"club": "B", "name": "a"}, "club B cannot take another club's letter"),
    ({"club": "B", "name": ""}, "a club's name needs at least one character"),
    ({"club": "B", "name": "Pinewoods"}, "a club's name has at most 8 characters"),
    ({"club": "B", "name": 3}, "a club's name must be text"),
    ({"club": "B", "name": "a\nb"}, "a club's name cannot contain control characters"),
    ({"club": "D", "name": "Elm"}, '"club" must be a club: "A", "B" or "C"'),
    ({"club": "B"}, "a club's name must be text"),
    ({"club": "B", "name": "Elm", "x": 1}, "unexpected detail in the move: x"),
])
def test_bad_club_names_refused(args, message):
    state = game()
    qd.move(state, None, "rename", {"club": "A", "name": "Oak"})
    assert refused(state, None, "rename", args) == message
    assert refused(state, 0, "rename", {"club": "B", "name": "Elm"}) == "the clubs are renamed on the box"


def test_a_club_may_take_its_own_letter_back():
    state = game()
    qd.move(state, None, "rename", {"club": "A", "name": "Oak"})
    qd.move(state, None, "rename", {"club": "A", "name": "a"})
    assert state["clubs"] == ["a", "B", "C"]


# ---------------------------------------------------------------- a player dropped by the reader


def test_a_dropped_player_is_skipped_keeps_shares_and_is_paid():
    state = game(("Pat", "Mo", "Ann"))
    play(state, "Join A", "Join B", "Join C")
    qd.leave(state, 1)
    play(state, "Join A")
    assert qd.to_act(state) == [2]  # Mo is skipped
    assert refused(state, 1, "join", {"club": "B"}, 409) == "Mo has left the game"
    play(state, "Join C")
    assert state["laps"] == 2
    assert state["payouts"][0]["amounts"] == [2, 1, 2]  # Mo's share still pays
    assert state["shares"][1] == [0, 1, 0]
    view = qd.public_view(state)
    assert view["seated"] == [True, False, True]
    assert view["log"][3] == [2, 1, "Mo left the game"]
    assert [row[1] for row in qd.standings(state)] == [0, 2, 1]


def test_dropping_the_player_whose_turn_it_is_passes_the_turn_and_may_end_the_lap():
    state = game(("Pat", "Mo", "Ann"))
    play(state, "Join A", "Join B", "Join C", "Join A", "Join B")
    assert qd.to_act(state) == [2]
    qd.leave(state, 2)  # Ann was the last to play lap 2: the lap ends and pays
    assert state["laps"] == 2 and len(state["payouts"]) == 1
    assert qd.to_act(state) == [0]
    assert state["payouts"][0]["amounts"] == [2, 2, 1]


def test_leaving_refused_below_two_players_twice_and_after_the_end():
    state = game(("Pat", "Mo", "Ann"))
    qd.leave(state, 0)
    assert qd.to_act(state) == [1]
    with pytest.raises(qd.NotNow):
        qd.leave(state, 0)
    with pytest.raises(qd.NotNow):
        qd.leave(state, 1)
    with pytest.raises(qd.GameError):
        qd.leave(state, 7)
    state = finished(TIED)
    with pytest.raises(qd.NotNow):
        qd.leave(state, 0)


def test_first_player_dropped_the_next_lap_starts_with_the_next_seat():
    state = game(("Pat", "Mo", "Ann"), first=0)
    qd.leave(state, 0)
    play(state, "Join A", "Join A")
    assert state["laps"] == 1 and qd.to_act(state) == [1]


# ---------------------------------------------------------------- views and saving


def test_public_view_shape():
    state = play(game(("Pat", "Mo", "Ann"), "seasonal", first=1), "Join A", "Promote B to 3")
    view = qd.public_view(state)
    assert set(view) == {
        "game", "setup", "setup_name", "clubs", "values", "start", "payout_laps", "resets", "laps", "lap",
        "laps_total", "names", "seated", "shares", "totals", "order", "first", "turn", "turns",
        "payouts", "log", "over", "standings", "winners",
    }
    assert view["setup_name"] == "Seasonal" and view["payout_laps"] == [2, 4, 6]
    assert view["start"] == [1, 2, 3]  # the setup's starting values, beside the board (the sheet)
    assert view["resets"] == [[2, [3, 1, 2]], [4, [2, 3, 1]]]
    assert view["order"] == [1, 2, 0] and view["turn"] == 0 and view["turns"] == 2
    assert view["lap"] == 1 and view["laps"] == 0 and view["laps_total"] == 6
    assert view["log"] == [[1, 1, "Mo joined A"], [1, 2, "Ann promoted B to 3"]]
    assert json.loads(json.dumps(view)) == view
    assert qd.private_view(state, 0) == {"your_turn": True, "legal": qd.legal_moves(state, 0)}
    assert [m["label"] for m in qd.private_view(state, 0)["legal"]][:3] == ["Join A", "Join B", "Join C"]
    assert qd.private_view(state, 1) == {"your_turn": False, "legal": []}
    assert qd.private_view(state, None) == {"your_turn": False, "legal": []}
    while not qd.is_over(state):
        seat = qd.to_act(state)[0]
        m = qd.private_view(state, seat)["legal"][0]  # the phone's first button
        qd.move(state, seat, m["move"], m["args"])
    assert all(qd.private_view(state, seat) == {"your_turn": False, "legal": []} for seat in range(3))


def test_the_log_is_one_small_int_per_entry():
    state = play(game(("Pat", "Mo", "Ann"), first=1), "Join B", "Promote B to 2", "Join C", "Switch B to C")
    qd.leave(state, 2)
    assert state["log"] == [11011, 12112, 10021, 21212, 22400]
    assert qd.log_entry(12112) == [1, 2, 1, 1, 2]
    assert qd.public_view(state)["log"] == [
        [1, 1, "Mo joined B"], [1, 2, "Ann promoted B to 2"], [1, 0, "Pat joined C"],
        [2, 1, "Mo switched B to C"], [2, 2, "Ann left the game"]]


def test_state_round_trips_exactly_and_copies_share_nothing():
    state = game(("Pat", "Mo", "Ann"), "seasonal")
    qd.move(state, None, "rename", {"club": "C", "name": "Pine"})
    play(state, "Join A", "Join B", "Promote Pine to 4", "Switch A to B", "Join A", "Join Pine")
    qd.leave(state, 2)
    saved = qd.to_dict(state)
    assert json.loads(json.dumps(saved)) == saved == state
    loaded = qd.from_dict(json.loads(json.dumps(saved)))
    assert loaded == state and qd.to_dict(loaded) == saved
    play(loaded, "Join B")
    assert saved == qd.to_dict(state) != qd.to_dict(loaded)  # no shared lists


@pytest.mark.parametrize("damage", [
    lambda d: d.pop("values"),
    lambda d: d.__setitem__("game", "token_tide"),
    lambda d: d["values"].__setitem__(0, 5),
    lambda d: d["shares"][0].__setitem__(0, 3),
    lambda d: d["shares"].__setitem__(0, [2, 2, 1]),
    lambda d: d.__setitem__("order", [0, 0, 1]),
    lambda d: d.__setitem__("first", 3),
    lambda d: d.__setitem__("laps", 7),
    lambda d: d.__setitem__("pos", True),
    lambda d: d.__setitem__("setup", "quick"),
    lambda d: d["payouts"].pop(),
    lambda d: d["payouts"][0].__setitem__("reset", None),
    lambda d: d["payouts"][0]["amounts"].append(1),
    lambda d: d["log"].append(19001),  # seat 9
    lambda d: d["log"].append(10211),  # a switch from B to B
    lambda d: d["log"].append(10700),  # code 7
    lambda d: d["log"].append(70001),  # lap 7
    lambda d: d["log"].append(10003),  # a third share
    lambda d: d["log"].append([1, 0, 3]),
    lambda d: d["seated"].__setitem__(0, 1),
    lambda d: d["clubs"].__setitem__(0, ""),
    lambda d: d.__setitem__("names", ["Pat"]),
])
def test_damaged_saved_state_is_refused(damage):
    state = play(game(("Pat", "Mo", "Ann"), "seasonal"), *["Join A", "Join B", "Join C"] * 2)
    data = json.loads(json.dumps(qd.to_dict(state)))
    qd.from_dict(copy.deepcopy(data))
    damage(data)
    with pytest.raises(qd.GameError):
        qd.from_dict(data)


def test_a_turn_sent_twice_is_refused_the_second_time():
    state = play(game(), "Join A")
    assert refused(state, 0, "join", {"club": "A"}, 409) == "it is Mo's turn"


# ---------------------------------------------------------------- the replay contract


def test_replay_fewer_turns_give_the_state_so_far(qdr):
    assert qdr.replay("steady", 3, 2, []) == {
        "payouts": [[0, 0, 0]] * 3, "values": [1, 1, 1], "shares": [[0, 0, 0]] * 3, "laps": 0}
    result = qdr.replay("early_opening", 3, 2, [("join", "A"), ["promote", "A"], ("switch", "A", "B")])
    # seat 2 joined A, seat 0 promoted A, seat 1 has no share to switch
    assert result["error"] == "ReplayError"
    assert result["msg"] == "turn 3: P2 holds no share in A to switch"
    result = qdr.replay("early_opening", 3, 2, [("join", "A"), ["promote", "A"], ("join", "C")])
    assert result == {"payouts": [[0, 0, 0], [0, 0, 0], [3, 0, 0]], "values": [3, 1, 0],
                      "shares": [[0, 0, 0], [0, 0, 1], [1, 0, 0]], "laps": 1}


def test_replay_surplus_turn_names_it(qdr):
    turns = [("promote", "A")] * 3 + [("promote", "B")] * 3 + [("promote", "C")] * 3 + [("join", "A")] * 3
    result = qdr.replay("steady", 2, 0, turns)
    assert result["laps"] == 6 and result["payouts"] == [[0, 0, 4], [0, 0, 8]]
    result = qdr.replay("steady", 2, 0, turns + [("join", "B")])
    assert result["error"] == "ReplayError"
    assert result["msg"] == "turn 13: surplus turn: the game is over after six laps"


@pytest.mark.parametrize("setup_id, players, first, turns, message", [
    ("steady", 2, 0, [("pass",)], "turn 1: P1 cannot pass while an action is legal (Join A is possible)"),
    ("steady", 2, 0, [("join", "A")] * 5, "turn 5: P1 already holds 2 shares in A"),
    ("steady", 2, 0, [("join", "D")], 'turn 1: "club" must be a club: "A", "B" or "C"'),
    ("steady", 2, 0, [("join",)], "turn 1: join takes 1 club(s)"),
    ("steady", 2, 0, [("join", "A"), ("switch", "A")], "turn 2: switch takes 2 club(s)"),
    ("steady", 2, 0, [("join", "A"), "pass"], 'turn 2: a turn is a tuple such as ("join", "A")'),
    ("steady", 2, 0, [("sell", "A")], "turn 1: unknown action: choose join, promote, switch or pass"),
    ("steady", 2, 0, [()], 'turn 1: a turn is a tuple such as ("join", "A")'),
    ("steady", 2, 0, 5, "turns: TypeError"),
    ("quick", 2, 0, [], "setup: unknown setup: choose Steady, Early Opening or Seasonal"),
    ("steady", 9, 0, [], "setup: players must be a whole number from 2 to 8"),
    ("steady", True, 0, [], "setup: players must be a whole number from 2 to 8"),
    ("steady", 2, 2, [], "setup: first must be a seat from 0 to 1"),
])
def test_replay_refusals_name_the_turn_and_the_reason(qdr, setup_id, players, first, turns, message):
    result = qdr.replay(setup_id, players, first, turns)
    assert result["error"] == "ReplayError"
    assert result["msg"].startswith(message)


def test_replay_error_is_a_value_error():
    assert issubclass(qd.ReplayError, ValueError)
    with pytest.raises(ValueError, match="turn 1"):
        qd.replay("steady", 2, 0, [None])


def test_club_names_compare_case_beyond_ascii_under_both_interpreters(mp):
    """Two clubs may not share a name in any case, as players' names (base.folded), on the box too
    (MicroPython's str.lower() changes ASCII letters only)."""
    def rename(first, second):  # as mp_fold_names.qd_rename does on the box
        state = game()
        qd.move(state, None, "rename", {"club": "A", "name": first})
        try:
            qd.move(state, None, "rename", {"club": "B", "name": second})
        except qd.GameError as e:
            return e.message
        return "ok"

    calls = [["étoile", "ÉTOILE"], ["Ёлка", "ёлка"], ["Łąka", "ŁĄKA"], ["Oak", "OAK"], ["Étoile", "Etoile"],
             ["Bö", "Bo"]]
    expected = ["another club is already called étoile", "another club is already called Ёлка",
                "another club is already called Łąka", "another club is already called Oak", "ok", "ok"]
    assert [rename(*c) for c in calls] == expected
    assert [r["ok"] for r in mp.call_many("mp_fold_names", "qd_rename", calls)] == expected
