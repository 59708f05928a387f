"""Every sentence of Pearl Reach's rules (the five-bay tide game) and every corner this edition decides."""

import json
from pathlib import Path

import pytest

from tidebox.games import pearl_reach as pr
from tidebox.games.pearl_reach import rules as R
from page_text import page_array_text
from refusals import refused_move
from tidebox.games.seeded import Seeded


def game(names=("Ada", "Bo"), rivals=0, first=0, pearls=(3, 4, 4, 5, 5), seed=1):
    state = R.new_game(list(names), {"rivals": rivals, "first": first}, Seeded(seed).below)
    state["pearls"] = list(pearls)
    return state


def cell(bay, row):  # bay and row counted from 1 as the text and the screens say
    return R.cell_of(bay - 1, row - 1)


def put(state, seat, *cells):
    for c in cells:
        state["cells"][c] = seat


def last_turn_before_tide(state):
    state["turn"] = state["per_round"] * len(state["order"]) - 1


def said(state):
    """The log in words, as the box's news screen and the phones show it."""
    return [R.entry_text(state, e) for e in state["log"]]


def refused(state, seat, name, args, status=400):
    return refused_move(R.move, state, seat, name, args, status).message


# ---------------------------------------------------------------- the interface


def test_names_and_constants():
    assert R.GAME_ID == "pearl_reach" and pr.GAME_ID == "pearl_reach"
    assert len(R.SHORT) <= 14 and R.TITLE == "Pearl Reach"
    assert (R.MIN_PLAYERS, R.MIN_GATHERERS, R.MAX_PLAYERS, R.MAX_NAME) == (1, 2, 4, 12)
    assert R.MOVES == ("shift", "place")
    assert not hasattr(pr, "choose")  # the package re-exports the rules only
    for key, label, choices in R.OPTIONS:
        assert isinstance(key, str) and isinstance(label, str)
        assert choices == "seat_or_random" or all(len(c) == 2 for c in choices)


def test_how_to_play_states_this_editions_numbers():
    text = page_array_text("pearl_reach")  # the phones' How to play
    assert (R.BAYS, R.ROWS, R.PEARLS, R.TIDE_VALUES) == (5, 5, (3, 4, 4, 5, 5), (1, 2, 4))
    assert R.TURNS == {2: 4, 3: 3, 4: 3}
    for words in ("column of 5 cells", "3, 4, 4, 5 and 5 pearls", "dealt at random", "1 at the first tide",
                  "2 at the second, 4 at the third", "4 turns (2 gatherers)", "3 turns (3 or 4 gatherers)",
                  "2-4 gatherers", "3 at the start", "fewest points", "rounding down", "nearest the water",
                  "most shells left", "once a turn, twice a game", "you wait"):
        assert words in text, words


def test_the_games_doc_states_this_editions_numbers():
    games = Path(__file__).resolve().parents[3] / "firmware" / "tidebox" / "games"
    doc = (games / "RULES.md").read_text(encoding="utf-8")
    section = doc.split("## Pearl Reach: how to play")[1].split("\n## ")[0]
    for words in ("column of 5 cells", "3, 4, 4, 5 and 5 pearls", "dealt to the bays at random",
                  "1 at the first tide, 2 at the second, 4 at the third", "4 turns (2 gatherers)",
                  "3 turns (3 or 4 gatherers)", "3 at the start", "once a turn, twice a game",
                  "rounding down", "nearest the water", "most shells left", "you wait",
                  "tidebox.games.pearl_reach.rules"):
        assert words in section, words


def test_new_game_seats_people_then_rivals():
    state = R.new_game(["Gull", "Bo"], {"rivals": 2, "strength": "easy"}, Seeded(3).below)
    assert len(state["names"]) == 4 and state["names"][:2] == ["Gull", "Bo"]
    assert "gull" not in [n.lower() for n in state["names"][2:]]  # a rival never takes a person's name
    assert state["rivals"] == [None, None, "easy", "easy"]
    assert state["shells"] == [3, 3, 3, 3] and state["points"] == [0, 0, 0, 0]
    assert sorted(state["pearls"]) == sorted(R.PEARLS)
    assert state["per_round"] == 3 and state["speed"] == 2
    json.dumps(state)


@pytest.mark.parametrize("names, options", [
    ([], {"rivals": 2}),  # nobody
    (["A", "B", "C", "D", "E"], {"rivals": 0}),
    (["A"], {"rivals": 0}),  # one gatherer alone
    (["A", "B"], {"rivals": 3}),  # five gatherers
    (["A", "a"], {"rivals": 0}),
    (["A"], {"rivals": True}),
    (["A"], {"rivals": 1, "speed": 3}),
    (["A"], {"rivals": 1, "strength": "godlike"}),
    (["A"], {"rivals": 1, "first": 2}),
    (["A"], {"rivals": 1, "colour": "red"}),
])
def test_bad_setups_are_refused(names, options):
    with pytest.raises(R.GameError):
        R.new_game(names, options, Seeded(1).below)


def test_first_gatherer_chosen_or_random():
    assert R.current(game(first=1)) == 1
    seeds = [s * 7919 + 12345 for s in range(30)]
    firsts = {R.current(R.new_game(["A", "B"], {"rivals": 1}, Seeded(s).below)) for s in seeds}
    assert firsts == {0, 1, 2}


def test_pearls_are_dealt():
    deals = {tuple(R.new_game(["A"], {}, Seeded(s).below)["pearls"]) for s in range(1, 40)}
    assert len(deals) > 5


# ---------------------------------------------------------------- the coast


def test_neighbours_are_up_down_and_across_the_same_row():
    assert set(R.neighbours(cell(3, 3))) == {cell(3, 2), cell(3, 4), cell(2, 3), cell(4, 3)}
    assert set(R.neighbours(cell(1, 1))) == {cell(1, 2), cell(2, 1)}
    assert set(R.neighbours(cell(5, 5))) == {cell(5, 4), cell(4, 5)}
    assert set(R.neighbours(cell(1, 5))) == {cell(1, 4), cell(2, 5)}  # not round to the next bay's row 1
    assert cell(2, 4) not in R.neighbours(cell(3, 3))  # no diagonals


def test_nearest_the_water_is_the_lowest_row():
    state = game()
    put(state, 1, cell(2, 4))
    put(state, 0, cell(2, 2), cell(2, 5))
    assert R.nearest_water(state, 1) == cell(2, 2)
    assert R.nearest_water(state, 0) is None


# ---------------------------------------------------------------- a turn: place


def test_place_on_any_empty_cell_ends_the_turn():
    state = game()
    R.move(state, 0, "place", {"cell": cell(4, 5)})
    assert state["cells"][cell(4, 5)] == 0 and R.to_act(state) == [1]
    assert state["shells"] == [3, 3]
    assert "Ada landed in bay 4 row 5." in said(state)


@pytest.mark.parametrize("where", [(3, 4), (3, 2), (2, 3), (4, 3)])
def test_landing_next_to_a_rival_costs_a_shell(where):
    state = game()
    put(state, 1, cell(3, 3))
    R.move(state, 0, "place", {"cell": cell(*where)})
    assert state["shells"][0] == 2
    assert said(state)[-1].endswith("(1 shell).")


@pytest.mark.parametrize("where", [(2, 4), (3, 5), (1, 3), (3, 1)])
def test_landing_elsewhere_is_free_also_beside_your_own(where):
    state = game()
    put(state, 1, cell(3, 3))
    put(state, 0, cell(2, 5), cell(1, 4))
    R.move(state, 0, "place", {"cell": cell(*where)})
    assert state["shells"][0] == 3


def test_a_taken_cell_is_refused():
    state = game()
    put(state, 1, cell(1, 1))
    assert "taken" in refused(state, 0, "place", {"cell": cell(1, 1)})


def test_a_costly_landing_without_shells_is_refused():
    state = game()
    put(state, 1, cell(3, 3))
    state["shells"][0] = 0
    assert "shell" in refused(state, 0, "place", {"cell": cell(3, 4)})
    R.move(state, 0, "place", {"cell": cell(3, 5)})  # a free cell is still fine


@pytest.mark.parametrize("args", [{}, {"cell": -1}, {"cell": 25}, {"cell": True}, {"cell": 2.0},
                                  {"cell": "3"}, {"cell": None}])
def test_malformed_places_are_refused(args):
    refused(game(), 0, "place", args)


def test_out_of_turn_and_unknown_moves():
    state = game()
    refused(state, 1, "place", {"cell": 0}, 409)
    refused(state, None, "place", {"cell": 0}, 409)
    refused(state, 0, "dig", {"cell": 0}, 400)
    refused(state, 0, "place", [0], 400)
    refused(state, 7, "place", {"cell": 0}, 400)
    refused(state, True, "place", {"cell": 0}, 400)


# ---------------------------------------------------------------- a turn: shift


def test_shift_moves_one_marker_one_cell_for_one_shell_and_you_still_place():
    state = game()
    put(state, 0, cell(2, 3))
    R.move(state, 0, "shift", {"from": cell(2, 3), "to": cell(3, 3)})  # across into the next bay
    assert state["cells"][cell(2, 3)] is None and state["cells"][cell(3, 3)] == 0
    assert state["shells"][0] == 2 and state["shifts"][0] == 1 and state["shifted"]
    assert R.to_act(state) == [0]  # the turn goes on: now place
    assert [m["move"] for m in R.legal_moves(state, 0)] == ["place"] * 24
    R.move(state, 0, "place", {"cell": cell(5, 5)})
    assert R.to_act(state) == [1] and not state["shifted"]


def test_shift_up_and_down_within_a_bay():
    state = game()
    put(state, 0, cell(2, 3))
    R.move(state, 0, "shift", {"from": cell(2, 3), "to": cell(2, 4)})
    R.move(state, 0, "place", {"cell": cell(5, 5)})
    R.move(state, 1, "place", {"cell": cell(5, 1)})
    R.move(state, 0, "shift", {"from": cell(2, 4), "to": cell(2, 3)})
    assert state["shifts"][0] == 2


def test_only_once_a_turn():
    state = game()
    put(state, 0, cell(2, 3))
    R.move(state, 0, "shift", {"from": cell(2, 3), "to": cell(2, 4)})
    refused(state, 0, "shift", {"from": cell(2, 4), "to": cell(2, 5)}, 409)


def test_only_twice_a_game():
    state = game()
    put(state, 0, cell(2, 3))
    state["shifts"][0] = 2
    assert "both" in refused(state, 0, "shift", {"from": cell(2, 3), "to": cell(2, 4)})
    assert all(m["move"] == "place" for m in R.legal_moves(state, 0))


def test_a_shift_without_shells_is_refused():
    state = game()
    put(state, 0, cell(2, 3))
    state["shells"][0] = 0
    assert "shell" in refused(state, 0, "shift", {"from": cell(2, 3), "to": cell(2, 4)})


@pytest.mark.parametrize("frm, to", [
    ((2, 3), (2, 5)),  # two cells
    ((2, 3), (3, 4)),  # diagonal
    ((2, 3), (4, 3)),  # two bays
    ((1, 1), (1, 2)),  # not a marker of yours (empty)
    ((4, 4), (4, 5)),  # a rival's marker
])
def test_a_shift_is_one_cell_of_your_own(frm, to):
    state = game()
    put(state, 0, cell(2, 3))
    put(state, 1, cell(4, 4))
    refused(state, 0, "shift", {"from": cell(*frm), "to": cell(*to)})


def test_shifting_into_a_taken_cell_or_full_bay_is_refused():
    state = game()
    put(state, 0, cell(2, 3))
    put(state, 1, *[cell(3, r) for r in range(1, 6)])  # bay 3 is full
    assert "taken" in refused(state, 0, "shift", {"from": cell(2, 3), "to": cell(3, 3)})


def test_a_shift_beside_a_rival_costs_only_its_one_shell():
    state = game()
    put(state, 0, cell(2, 3))
    put(state, 1, cell(3, 4), cell(4, 3))
    R.move(state, 0, "shift", {"from": cell(2, 3), "to": cell(3, 3)})
    assert state["shells"][0] == 2


def test_a_shift_that_would_leave_no_affordable_cell_is_refused():
    # One shell left: after the shift none is left, and every empty cell costs a shell.
    state = game()
    state["cells"] = [1] * R.CELLS
    for c in (cell(1, 1), cell(1, 3), cell(5, 5)):
        state["cells"][c] = None
    state["cells"][cell(1, 2)] = 0
    state["shells"][0] = 1
    assert R.placements(state, 0)
    assert "could not afford" in refused(state, 0, "shift", {"from": cell(1, 2), "to": cell(1, 1)})
    assert [m["move"] for m in R.legal_moves(state, 0)] == ["place"] * 3


def test_legal_moves_list_shifts_and_placements_with_costs():
    state = game()
    put(state, 0, cell(1, 1))
    put(state, 1, cell(3, 3))
    moves = R.legal_moves(state, 0)
    shifts = [m["args"] for m in moves if m["move"] == "shift"]
    assert shifts == [{"from": cell(1, 1), "to": cell(1, 2)}, {"from": cell(1, 1), "to": cell(2, 1)}]
    places = {m["args"]["cell"]: m["cost"] for m in moves if m["move"] == "place"}
    assert len(places) == 23 and places[cell(3, 4)] == 1 and places[cell(1, 2)] == 0
    assert R.legal_moves(state, 1) == [] and R.legal_moves(state, None) == []
    for m in moves:
        assert m["label"]


# ---------------------------------------------------------------- the tides


@pytest.mark.parametrize("pearls, value, markers, awards", [
    (5, 2, [3, 1], [10, 0]),  # the sole leader takes pearls x value
    (5, 1, [2, 2], [2, 2]),  # a tie splits it, rounding down
    (5, 1, [2, 2, 2], [1, 1, 1]),
    (4, 4, [1, 3, 3, 0], [0, 8, 8, 0]),
    (3, 1, [0, 0], [0, 0]),  # an empty bay pays nothing
])
def test_bay_award(pearls, value, markers, awards):
    assert R.bay_award(pearls, value, markers) == awards


def test_a_split_rounded_down_to_nothing_still_counts_as_paid():
    # Four gatherers tied one each in a 3-pearl bay at the first tide: 3 // 4 = 0 each, yet the bay
    # had markers, so the tide still carries the one nearest the water away.
    state = game(names=("A", "B", "C", "D"), pearls=(3, 4, 4, 5, 5))
    put(state, 0, cell(1, 5))
    put(state, 1, cell(1, 3))
    put(state, 2, cell(1, 1))
    last_turn_before_tide(state)
    seat = R.current(state)
    assert seat == 3
    R.move(state, 3, "place", {"cell": cell(1, 2)})  # beside two rivals: a shell
    assert R.tide_awards(state, 0)[0] == [0, 0, 0, 0]
    assert "The tide carried C's marker out of bay 1 row 1." in said(state)
    assert any("bay 1 split 0 each between A and B and C and D" in line for line in said(state))


def test_the_tide_comes_after_every_gatherers_turns_and_pays_each_bay():
    state = game()
    assert R.turns_until_tide(state) == 8
    put(state, 0, cell(1, 5), cell(1, 4), cell(2, 3))
    put(state, 1, cell(1, 1), cell(2, 5), cell(4, 2))
    put(state, 1, cell(3, 1))
    last_turn_before_tide(state)
    state["order"] = [1, 0]  # Ada has the last word
    R.move(state, 0, "place", {"cell": cell(3, 5)})
    # bay 1 (3 pearls) Ada 2-1; bay 2 (4) tie 1-1: 2 each; bay 3 (4) tie 1-1; bay 4 (5) Bo; bay 5 empty.
    assert state["points"] == [3 + 2 + 2, 2 + 2 + 5]
    assert R.tide_awards(state, 0) == [[3, 0], [2, 2], [2, 2], [0, 5], [0, 0]]
    assert R.tide_awards(state, 1) is None
    assert R.public_view(state)["strip"]["tides"][0]["paid"] == state["points"]
    assert state["tide"] == 1 and state["turn"] == 0
    assert any(line.startswith("Tide 1 (a pearl is worth 1): bay 1 paid Ada 3; bay 2 split 2 each")
               for line in said(state))


def test_the_tide_carries_out_the_marker_nearest_the_water_from_every_bay_it_paid():
    state = game()
    put(state, 0, cell(1, 5), cell(1, 4), cell(2, 3))
    put(state, 1, cell(1, 2), cell(2, 5))
    last_turn_before_tide(state)
    state["order"] = [1, 0]
    R.move(state, 0, "place", {"cell": cell(5, 3)})
    cells = state["cells"]
    assert cells[cell(1, 2)] is None  # Bo's marker, though Ada won the bay
    assert cells[cell(1, 4)] == 0 and cells[cell(1, 5)] == 0
    assert cells[cell(2, 3)] is None and cells[cell(2, 5)] == 1
    assert cells[cell(5, 3)] is None  # a lone marker goes too
    carried = [e >> 9 & 31 for e in state["log"] if e & 15 == R.CARRIED]
    assert carried == [cell(1, 2), cell(2, 3), cell(5, 3)]
    assert "The tide carried Bo's marker out of bay 1 row 2." in said(state)


def test_shells_after_the_first_two_tides_and_two_more_for_the_fewest_points():
    state = game()
    put(state, 0, cell(1, 5))
    last_turn_before_tide(state)
    state["order"] = [1, 0]
    state["shells"] = [1, 0]
    R.move(state, 0, "place", {"cell": cell(1, 4)})
    assert state["points"] == [3, 0]
    assert state["shells"] == [1 + 2, 0 + 2 + 2]


def test_everybody_tied_for_fewest_gets_the_two_on_top():
    state = game(names=("A", "B", "C"))
    put(state, 0, cell(1, 5))
    put(state, 2, cell(3, 5))
    last_turn_before_tide(state)
    seat = R.current(state)
    R.move(state, seat, "place", {"cell": cell(5, 5) if seat == 1 else cell(2, 5 if seat == 0 else 1)})
    low = min(state["points"])
    for i in range(3):
        assert state["shells"][i] == 3 + 2 + (2 if state["points"][i] == low else 0)


def test_no_shells_after_the_third_tide_and_the_game_ends():
    state = game()
    state["tide"] = 2
    state["log"] += [R.TIDE, R.TIDE + 1]  # two tides that paid nobody
    put(state, 0, cell(1, 5))
    last_turn_before_tide(state)
    state["order"] = [1, 0]
    R.move(state, 0, "place", {"cell": cell(2, 5)})
    assert R.is_over(state) and state["tide"] == 3
    assert state["points"] == [3 * 4 + 4 * 4, 0] and state["shells"] == [3, 3]
    assert R.to_act(state) == [] and R.winners(state) == [0]
    refused(state, 0, "place", {"cell": 0}, 409)
    assert "The third tide ends the game: Ada wins." in said(state)


def test_most_points_wins_then_most_shells_then_shared():
    state = game(names=("A", "B", "C"))
    state["phase"] = R.PHASE_OVER
    state["points"], state["shells"] = [20, 20, 5], [1, 4, 9]
    assert R.winners(state) == [1]
    assert R.standings(state) == [[1, 1, (20, 4)], [2, 0, (20, 1)], [3, 2, (5, 9)]]
    state["shells"] = [4, 4, 9]
    assert R.winners(state) == [0, 1]


def test_after_a_tide_the_biggest_haul_sets_out_first_and_the_fewest_go_last():
    state = game(names=("A", "B", "C"))
    state["pearls"] = [5, 4, 3, 4, 5]
    put(state, 1, cell(1, 5))  # B: 5
    put(state, 2, cell(3, 5))  # C: 3
    last_turn_before_tide(state)
    seat = R.current(state)
    assert seat == 2  # order 0, 1, 2
    R.move(state, 2, "place", {"cell": cell(2, 3)})  # C: 3 + 4 = 7
    assert state["points"] == [0, 5, 7]
    assert state["order"] == [2, 1, 0] and R.current(state) == 2
    assert "C has the biggest haul and sets out first." in said(state)


def test_tied_hauls_whoever_went_later_goes_earlier():
    # A true tie: both 4.
    state4 = game()
    put(state4, 0, cell(1, 5))
    state4["pearls"] = [4, 4, 3, 5, 5]
    last_turn_before_tide(state4)
    R.move(state4, 1, "place", {"cell": cell(2, 5)})
    assert state4["points"] == [4, 4]
    assert state4["order"] == [1, 0]  # Bo went later, so Bo sets out first
    # the log says it was a tie and how it was broken, not that Bo has the biggest haul
    assert said(state4)[-1] == ("Ada and Bo tie for the biggest haul; Bo, the latest of them in the last"
                                " round, sets out first.")


# ---------------------------------------------------------------- waiting


def test_no_shell_and_every_empty_cell_costs_one_you_wait():
    state = game()
    state["cells"] = [1] * R.CELLS
    state["cells"][cell(3, 3)] = None
    state["shells"][0] = 0
    R._settle(state)
    assert R.current(state) == 1 and state["turn"] == 1
    assert "Ada has no shell and every empty cell costs one: Ada waits." in said(state)


def test_a_full_coast_you_wait_and_the_tide_still_comes():
    state = game()
    state["cells"] = [i % 2 for i in range(R.CELLS)]
    R._settle(state)
    assert state["tide"] == 1  # everybody waited, the tide came and carried markers away
    assert "The coast is full: Ada waits." in said(state)
    assert state["cells"].count(None) == 5 and R.to_act(state)


# ---------------------------------------------------------------- views, saving, leaving


def test_public_view_shape():
    state = game()
    put(state, 1, cell(1, 2))
    view = R.public_view(state)
    assert sorted(view) == sorted((
        "game", "phase", "names", "rivals", "speed", "rows", "strip", "bays", "shells", "points",
        "shifts_left", "order", "to_act", "shifted", "log", "standings", "winners"))
    assert view["strip"]["tides"][0] == {"value": 1, "done": False, "paid": None}
    assert view["strip"]["turns_left"] == 8 and view["strip"]["next"] == 0
    assert view["bays"][0] == {"pearls": 3, "cells": [None, 1, None, None, None], "count": [0, 1],
                               "lead": [1]}
    assert view["bays"][1]["lead"] == []
    json.dumps(view)
    mine = R.private_view(state, 0)
    assert mine["costs"][cell(1, 3)] == 1 and mine["costs"][cell(1, 2)] is None and mine["costs"][0] == 1


def test_the_view_sends_the_log_once_as_small_ints():
    state = game()
    for c in range(12):
        R.move(state, R.current(state), "place", {"cell": c * 2})
    view = R.public_view(state)
    assert view["log"] == state["log"] and len(view["log"]) > R.RECENT
    assert all(type(e) is int and 0 <= e < 1 << 29 for e in view["log"])  # a small int on a 32-bit box
    assert "happened" not in view  # the page takes the last few itself


def pack(kind, *fields):
    """A log entry: the kind in the low 4 bits, then 5-bit fields."""
    return kind | sum(f << 4 + 5 * i for i, f in enumerate(fields))


# Every kind of log entry and its words. Ada 0, Bo 1, Cy 2, Di 3; pearls (3, 4, 4, 5, 5).
SENTENCES = [
    (pack(R.FIRST, 1), "Bo sets out first."),
    (pack(R.LANDED, 2, 19), "Cy landed in bay 4 row 5."),
    (pack(R.LANDED, 0, 5, 1), "Ada landed in bay 2 row 1 (1 shell)."),
    (pack(R.SHIFTED, 3, 7, 12), "Di shifted a marker from bay 2 row 3 to bay 3 row 3 (1 shell)."),
    (pack(R.BROKE, 1), "Bo has no shell and every empty cell costs one: Bo waits."),
    (pack(R.FULL, 2), "The coast is full: Cy waits."),
    (pack(R.CARRIED, 1, 24), "The tide carried Bo's marker out of bay 5 row 5."),
    (pack(R.SHELLS, 0b0100), "Everybody gets 2 shells; Cy, with the fewest points, gets 2 more."),
    (pack(R.SHELLS, 0b1011),
     "Everybody gets 2 shells; Ada and Bo and Di, with the fewest points, get 2 more."),
    (pack(R.HAUL, 3), "Di has the biggest haul and sets out first."),
    (pack(R.HAUL, 3, 0b1101),
     "Ada and Cy and Di tie for the biggest haul; Di, the latest of them in the last round, sets out first."),
    (pack(R.END, 0b0010), "The third tide ends the game: Bo wins."),
    (pack(R.END, 0b1001), "The third tide ends the game: Ada and Di share the win."),
    (pack(R.LEFT, 2), "Cy left; a rival gathers for that seat now."),
    (pack(R.TIDE, 0b0001, 0b0110, 0, 0, 0b1111),
     "Tide 1 (a pearl is worth 1): bay 1 paid Ada 3; bay 2 split 2 each between Bo and Cy; bay 3 was empty;"
     " bay 4 was empty; bay 5 split 1 each between Ada and Bo and Cy and Di."),
    (pack(R.TIDE + 1, 0, 0, 0b0010), "Tide 2 (a pearl is worth 2): bay 1 was empty; bay 2 was empty;"
     " bay 3 paid Bo 8; bay 4 was empty; bay 5 was empty."),
    (pack(R.TIDE + 2, 0, 0, 0, 0b1000, 0b0101), "Tide 3 (a pearl is worth 4): bay 1 was empty;"
     " bay 2 was empty; bay 3 was empty; bay 4 paid Di 20; bay 5 split 10 each between Ada and Cy."),
]


def test_every_kind_of_log_entry_in_words():
    state = game(names=("Ada", "Bo", "Cy", "Di"))
    assert {e & 15 for e, _ in SENTENCES} == set(range(R.TIDE + 3))
    for entry, words in SENTENCES:
        assert R.entry_text(state, entry) == words


def test_a_played_game_logs_packed_entries_that_a_save_keeps():
    state = game(names=("Ada", "Bo", "Cy"))
    R.leave(state, 2)
    while not R.is_over(state):
        R.move(state, R.current(state), "place", {"cell": R.placements(state, R.current(state))[-1][0]})
    kinds = {e & 15 for e in state["log"]}
    assert kinds >= {R.FIRST, R.LANDED, R.CARRIED, R.SHELLS, R.HAUL, R.END, R.LEFT, R.TIDE, R.TIDE + 1,
                     R.TIDE + 2}
    assert R.from_dict(json.loads(json.dumps(R.to_dict(state)))) == state
    assert len(json.dumps(state["log"])) < 10 * len(state["log"])


@pytest.mark.parametrize("entry", [
    "Ada landed in bay 1 row 1.",  # the old sentences
    [1, 0, 3], -1, 1.0, True, 1 << 29,
    13, 15,  # no such kind
    pack(R.FIRST, 2),  # a third seat in a game of two
    pack(R.LANDED, 0, 25),  # no such cell
    pack(R.LANDED, 0, 3, 2),  # a landing costs 0 or 1 shell
    pack(R.SHIFTED, 1, 3, 31),
    pack(R.FULL, 1, 1),  # a field the kind does not use
    R.SHELLS, R.END,  # nobody
    pack(R.END, 0b100),  # a winner beyond the seats
    pack(R.TIDE, 0, 0, 0b100),
])
def test_a_damaged_log_entry_is_refused_on_load(entry):
    state = game()
    R.move(state, 0, "place", {"cell": 3})
    saved = json.loads(json.dumps(R.to_dict(state)))
    saved["log"] = saved["log"] + [entry]
    with pytest.raises(R.GameError):
        R.from_dict(saved)
    saved["log"] = {"0": 1}
    with pytest.raises(R.GameError):
        R.from_dict(saved)


def test_save_and_load_round_trip_and_damage():
    state = game()
    R.move(state, 0, "place", {"cell": 3})
    saved = json.loads(json.dumps(R.to_dict(state)))
    assert R.from_dict(saved) == state
    for key, bad in (("cells", [0] * 3), ("shells", [-1, 3]), ("order", [0, 0]), ("turn", 99),
                     ("pearls", [9, 9, 9, 9, 9]), ("phase", "over"), ("rivals", ["wizard", None])):
        damaged = dict(saved)
        damaged[key] = bad
        with pytest.raises(R.GameError):
            R.from_dict(damaged)
    with pytest.raises(R.GameError):
        R.from_dict({"game": "token_tide"})


@pytest.mark.parametrize("bad", [[], [R.TIDE + 1], [R.TIDE, R.TIDE], [R.TIDE, R.TIDE + 1]])
def test_the_log_must_record_the_tides_paid_so_far(bad):
    state = game()
    put(state, 0, cell(1, 5))
    last_turn_before_tide(state)
    R.move(state, R.current(state), "place", {"cell": cell(3, 3)})
    saved = json.loads(json.dumps(R.to_dict(state)))
    assert saved["tide"] == 1 and R.from_dict(saved) == state
    saved["log"] = [e for e in saved["log"] if e & 15 < R.TIDE] + bad
    with pytest.raises(R.GameError):
        R.from_dict(saved)


def test_leaving_hands_the_seat_to_a_rival():
    state = game()
    R.leave(state, 1)
    assert state["rivals"] == [None, "sharp"]
    with pytest.raises(R.GameError):
        R.leave(state, 1)
    state["phase"] = R.PHASE_OVER
    with pytest.raises(R.NotNow):
        R.leave(state, 0)


def test_rivals_skip_a_persons_name_in_any_case_under_both_interpreters(mp):
    """A rival never takes a person's name, whatever its case (base.folded, as players' names)."""
    calls = [[["GULL", "heron"], 2], [["gUlL"], 1], [["Crab", "Ógull"], 2]]
    expected = [["GULL", "heron", "Crab", "Tern"], ["gUlL", "Heron"], ["Crab", "Ógull", "Gull", "Heron"]]
    names = [R.new_game(people, {"rivals": n, "first": 0}, Seeded(1).below)["names"] for people, n in calls]
    assert names == expected
    assert [r["ok"] for r in mp.call_many("mp_fold_names", "pr_names", calls)] == expected
