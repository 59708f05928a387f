"""Pearl Reach on the real firmware (MicroPython, host board): two people on phones and two computer rivals
who think and move on the box by themselves, a whole game through POST /api/move checked move by move
against the rules under CPython, refused moves that change nothing, the reader pausing the rivals and
ending the game, power cuts."""

import json
import random
import time
from pathlib import Path

import pytest
from boxrig import BOX_HEAP, INTERPRETERS, ApiError, BoxProcess, wait_until

from tidebox.games.pearl_reach import rules

pytestmark = pytest.mark.slow  # a game played on the real firmware, a box started for every test

PEOPLE = ["Ada", "Bo"]
PRIVATE = ("you", "costs", "can_shift")


@pytest.fixture
def table(sim_tree, tmp_path, request):
    """Pearl Reach with Ada and Bo on phones, two sharp rivals at the fastest speed (1 s a move), Ada
    first; yields (box, tokens) on the board, at the Pico's heap (boxrig.BOX_HEAP). A test parametrised
    with indirect=True chooses the interpreter."""
    box = BoxProcess(sim_tree, tmp_path / "state", heap=BOX_HEAP,
                     interpreter=getattr(request, "param", "micropython")).start()
    try:
        assert box.choose("pearl_reach") == "join"
        tokens = [box.join(name)["token"] for name in PEOPLE]
        assert box.press("C") == "setup"
        box.press("B")
        box.press("B")  # rivals: 1 -> none -> 2
        box.press("A")
        box.press("A")  # the rival speed line
        box.press("B")  # 2 s -> 1 s a move
        box.press("A")  # who sets out first
        box.press("B")  # random -> Ada
        assert box.press("C") == "pr_board"
        yield box, tokens
    finally:
        box.stop()


def saved(box):
    """The game as the box saved it (write-then-rename, so always whole)."""
    return json.loads((Path(box.state_dir) / "game.json").read_text())


def public(view):
    return {k: v for k, v in view["game"].items() if k not in PRIVATE}


def expected(model):
    """The model's public view as the phones get it (JSON: tuples become lists)."""
    return json.loads(json.dumps(rules.public_view(model)))


def follow(model, log):
    """Applies to the CPython model every move the box's log shows beyond the model's own log (the
    rivals' shifts and placements included), each through rules.move, so each must be legal; the
    entries a move makes by itself (tides, waits) must come out identical. Returns the moves applied."""
    applied = 0
    while len(model["log"]) < len(log):
        entry = log[len(model["log"])]
        kind, seat, a, b = entry & 15, entry >> 4 & 31, entry >> 9 & 31, entry >> 14 & 31
        assert kind in (rules.SHIFTED, rules.LANDED), (
            "the box logged what no move of the model made: " + rules.entry_text(model, entry))
        if kind == rules.SHIFTED:
            rules.move(model, seat, "shift", {"from": a, "to": b})
        else:
            rules.move(model, seat, "place", {"cell": a})
        applied += 1
        assert model["log"][:len(log)] == log[:len(model["log"])]
    return applied


def let_rivals_move(box, tokens, seq):
    """Moves the box's clock on until the rivals have made a move beyond `seq`; returns the view."""
    def moved():
        box.advance(1000)
        view = box.state(tokens[0])
        return view if view["seq"] > seq else None
    deadline = time.monotonic() + 10
    while True:
        view = moved()
        if view:
            return view
        assert time.monotonic() < deadline, "the rivals never moved"
        time.sleep(0.03)


def play(box, tokens, model, seq, rng, until=None):
    """Plays on: people's moves from their phones (random legal ones, shifts too), the rivals by
    themselves; every view checked against the model. Stops at the end or when until(model) is true.
    Returns the box's move count."""
    while not rules.is_over(model) and not (until and until(model)):
        seat = rules.current(model)
        if model["rivals"][seat] is None:
            m = rng.choice(rules.legal_moves(model, seat))
            box.move(tokens[seat], m["move"], m["args"], seq=seq)  # acknowledged: answered 200
            rules.move(model, seat, m["move"], m["args"])
            seq += 1
            view = box.state(tokens[seat])
        else:
            view = let_rivals_move(box, tokens, seq)
        seq += follow(model, view["game"]["log"])  # the rivals' moves (one may follow a person's at once)
        assert view["seq"] == seq
        assert public(view) == expected(model)
        assert view["game"]["costs"] == rules.private_view(model, view["you"]["seat"])["costs"]
    return seq


def test_two_people_and_two_rivals_play_a_whole_game(table):
    box, tokens = table
    view = box.state(tokens[1])
    assert view["kind"] == "pearl_reach" and view["box"] == "play" and view["seq"] == 0
    game = view["game"]
    assert game["names"] == ["Ada", "Bo", "Gull", "Heron"]
    assert game["rivals"] == [None, None, "sharp", "sharp"] and game["speed"] == 1
    assert game["to_act"] == [0] and game["strip"]["turns_left"] == 12
    model = rules.from_dict(saved(box)["game"])
    assert public(view) == expected(model)
    seq = play(box, tokens, model, 0, random.Random(7))
    view = box.state(tokens[0])
    assert view["box"] == "over" and view["game"]["winners"] == rules.winners(model)
    assert len(view["game"]["strip"]["tides"]) == 3 and all(t["done"] for t in view["game"]["strip"]["tides"])
    # Gull and Heron (seats 2 and 3) landed
    rivals_landed = [e for e in model["log"] if e & 15 == rules.LANDED and e >> 4 & 31 in (2, 3)]
    assert len(rivals_landed) >= 12
    assert seq == view["seq"]
    # the final screen: the winners, the standings, then "New game?" (declined here)
    box.wait_screen("pr_final")
    assert box.press("C") == "pr_final"
    assert box.press("C") == "confirm"
    assert box.press("A") == "pr_final"
    # Any phone may start the next game at the table with the rivals' speed; refused ones change nothing
    over = box.state(tokens[1])
    for args, at, status, words in (({"speed": 3}, seq, 400, "unknown choice"),
                                    ({"rivals": 0}, seq, 400, "cannot change rivals"),
                                    ({"speed": 4}, seq - 1, 409, "moved on")):
        with pytest.raises(ApiError) as e:
            box.move(tokens[1], "new_game", args, seq=at)
        assert e.value.status == status and words in e.value.body["error"]
        assert box.state(tokens[1]) == over
    box.move(tokens[1], "new_game", {"speed": 4}, seq=seq)
    view = box.state(tokens[0])
    again = rules.from_dict(saved(box)["game"])
    assert view["box"] == "play" and view["seq"] == seq + 1 and not rules.is_over(again)
    assert view["game"]["speed"] == 4 and view["game"]["names"] == game["names"]
    assert view["game"]["rivals"] == game["rivals"] and public(view) == expected(again)
    box.wait_screen("pr_board")  # the box follows: the new coast
    with pytest.raises(ApiError) as e:  # a second phone at once: it sees the new game instead
        box.move(tokens[0], "new_game", {"speed": 1}, seq=seq)
    assert e.value.status == 409
    # the reader ends it from the menu: back to the game menu with the same people
    assert box.press("A") == "menu"
    for _ in range(3):
        box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "choose"
    assert [s["name"] for s in box.state(tokens[0])["seats"]] == PEOPLE


@pytest.mark.parametrize("table", INTERPRETERS, indirect=True)  # the Pico's and the Pi's
def test_a_refused_move_changes_nothing(table):
    box, tokens = table
    model = rules.from_dict(saved(box)["game"])
    before = box.state(tokens[0])

    def refused(token, name, args, seq, status, words):
        with pytest.raises(ApiError) as e:
            box.move(token, name, args, seq=seq)
        assert e.value.status == status and words in e.value.body["error"]
        after = box.state(tokens[0])
        assert after["game"] == before["game"] and after["seq"] == before["seq"] and after["v"] == before["v"]

    refused(tokens[1], "place", {"cell": 0}, 0, 409, "Ada's turn")  # Bo, out of turn
    refused(tokens[0], "place", {"cell": 25}, 0, 400, "no such cell")
    refused(tokens[0], "shift", {"from": 0, "to": 1}, 0, 400, "your own markers")
    refused(tokens[0], "dive", {}, 0, 400, "unknown move")
    refused(tokens[0], "place", {"cell": 3}, 5, 409, "moved on")  # a stale copy of the game
    box.move(tokens[0], "place", {"cell": 3}, seq=0)
    before = box.state(tokens[0])
    refused(tokens[0], "place", {"cell": 3}, 0, 409, "moved on")  # the same request retried
    refused(tokens[1], "place", {"cell": 3}, 1, 400, "taken")
    rules.move(model, 0, "place", {"cell": 3})
    assert public(box.state(tokens[0])) == expected(model)


def test_the_rivals_wait_while_paused_or_a_menu_is_up_and_the_reader_ends_the_game(table):
    box, tokens = table
    model = rules.from_dict(saved(box)["game"])
    seq = play(box, tokens, model, 0, random.Random(2), until=lambda m: m["rivals"][rules.current(m)])
    # Gull is to act. The menu is up: Gull waits, however long
    assert box.press("A") == "menu"
    for _ in range(3):
        box.advance(5000)
        time.sleep(0.1)
    assert box.state(tokens[0])["seq"] == seq
    box.press("A")
    box.press("A")  # Drop player, Rejoin code, Pause rivals
    assert box.press("C") == "pr_board"
    for _ in range(3):
        box.advance(5000)
        time.sleep(0.1)
    assert box.state(tokens[0])["seq"] == seq  # paused
    assert box.press("A") == "menu"
    box.press("A")
    box.press("A")  # "Resume rivals" in its place
    assert box.press("C") == "pr_board"
    view = let_rivals_move(box, tokens, seq)
    seq += follow(model, view["game"]["log"])
    assert public(view) == expected(model)
    # End game: the menu, "End game", are you sure, and the game menu with the same people
    assert box.press("A") == "menu"
    for _ in range(3):
        box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "choose"
    view = box.state(tokens[1])
    assert view["box"] == "choose" and view["game"] is None
    assert [s["name"] for s in view["seats"]] == PEOPLE


def test_one_person_alone_plays_against_the_rivals(sim_tree, tmp_path):
    """The box joins 1 to 4 people; one person plays against rivals."""
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    try:
        assert box.choose("pearl_reach") == "join"
        token = box.join("Ada")["token"]
        assert box.press("C") == "setup"  # with the default one rival
        assert box.press("C") == "pr_board"
        assert box.state(token)["game"]["names"] == ["Ada", "Gull"]
    finally:
        box.stop()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_power_cut_mid_game_loses_no_acknowledged_move(table, seed):
    box, tokens = table
    rng = random.Random(seed)
    model = rules.from_dict(saved(box)["game"])
    seq = 0
    while not rules.is_over(model):
        goal = model["moves"] + rng.randrange(2, 9)
        seq = play(box, tokens, model, seq, rng, until=lambda m, goal=goal: m["moves"] >= goal)
        box.kill()
        box.start()
        view = box.state(tokens[0])
        assert public(view) == expected(model) and view["seq"] == seq
        wait_until(lambda: box.screen() != "splash", "the splash is over")
        if box.screen() == "resume":  # a game under way is offered for resuming; the rivals wait
            assert box.press("C") in ("pr_board", "pr_final")
    assert box.state(tokens[1])["box"] == "over"
