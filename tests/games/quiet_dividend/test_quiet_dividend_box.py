"""The Quiet Dividend on the real firmware (MicroPython, host board): a whole game through POST /api/move,
turns out of turn and retried requests refused, a turn entered and undone on the box, power cuts."""

import random
import threading
import time

import pytest
from boxrig import INTERPRETERS, ApiError, BoxProcess, wait_until

from tidebox.games.quiet_dividend import rules

pytestmark = pytest.mark.slow  # a game played on the real firmware, a box started for every test

NAMES = ["Pat", "Mo", "Kit"]
SHOWN = ("values", "shares", "payouts", "turn", "laps", "log", "totals", "over", "winners", "standings")


@pytest.fixture
def table(sim_tree, tmp_path, request):
    """A box playing The Quiet Dividend (Steady, Pat first) with three phones; yields (box, tokens).
    A test parametrised with indirect=True chooses the interpreter."""
    interpreter = getattr(request, "param", "micropython")
    box = BoxProcess(sim_tree, tmp_path / "state", interpreter=interpreter).start()
    try:
        assert box.choose("quiet_dividend") == "join"
        tokens = [box.join(name)["token"] for name in NAMES]
        assert box.press("C") == "setup"
        box.press("A")  # the "first player" line
        box.press("B")  # random -> Pat
        assert box.press("C") == "qd_board"
        yield box, tokens
    finally:
        box.stop()


def model():
    return rules.new_game(NAMES, {"setup": "steady", "first": 0})


def public(view):
    return {k: view["game"][k] for k in SHOWN}


def expected(state):
    return {k: v for k, v in rules.public_view(state).items() if k in SHOWN}


def play_one(box, tokens, state, rng):
    """The player whose turn it is takes a random legal action from their phone."""
    view = box.state(tokens[0])
    seat = view["game"]["turn"]
    assert seat == rules.current(state)
    m = rng.choice(rules.legal_moves(state, seat))
    box.move(tokens[seat], m["move"], m["args"], seq=view["seq"])
    rules.move(state, seat, m["move"], m["args"])
    return seat


def test_a_whole_game_through_the_api(table):
    box, tokens = table
    rng = random.Random(5)
    state = model()
    view = box.state(tokens[1])
    assert view["kind"] == "quiet_dividend" and view["box"] == "play"
    assert view["game"]["your_turn"] is False and box.state(tokens[0])["game"]["your_turn"] is True
    turns = 0
    while not rules.is_over(state):
        play_one(box, tokens, state, rng)
        turns += 1
        assert public(box.state(tokens[turns % 3])) == expected(state)
        if state["laps"] in (2, 4) and state["pos"] == 0:
            # a payout lap just ended: the box shows every player's amount, C goes back to the board
            box.wait_screen("qd_payout")
            assert box.press("C") == "qd_board"
    assert turns == 18
    view = box.state(tokens[2])
    assert view["box"] == "over" and view["game"]["turn"] is None
    assert view["game"]["winners"] == rules.winners(state)
    assert len(view["game"]["payouts"]) == 3
    box.wait_screen("qd_payout")  # the last payout first, then the winners and standings
    assert box.press("C") == "qd_final"
    assert box.press("C") == "qd_final"
    assert box.press("C") == "qd_again"
    assert box.press("A") == "qd_again"  # "New game"
    assert box.press("C") == "confirm"
    assert box.press("C") == "choose"  # the game menu, same players
    assert [s["name"] for s in box.state(tokens[0])["seats"]] == NAMES


def test_a_turn_out_of_turn_is_refused_and_changes_nothing(table):
    box, tokens = table
    before = box.state(tokens[1])
    for seat in (1, 2):
        with pytest.raises(ApiError) as refused:
            box.move(tokens[seat], "join", {"club": "A"}, seq=before["seq"])
        assert refused.value.status == 409
        assert "Pat" in refused.value.body["error"]
    after = box.state(tokens[1])
    assert after["game"] == before["game"] and after["seq"] == before["seq"] and after["v"] == before["v"]


def test_a_retried_turn_is_applied_once(table):
    box, tokens = table
    seq = box.state(tokens[0])["seq"]
    box.move(tokens[0], "join", {"club": "B"}, seq=seq)
    with pytest.raises(ApiError) as again:
        box.move(tokens[0], "join", {"club": "B"}, seq=seq)  # the same request sent twice
    assert again.value.status == 409
    view = box.state(tokens[0])
    assert view["seq"] == seq + 1
    assert view["game"]["shares"] == [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    assert view["game"]["turns"] == 1 and view["game"]["turn"] == 1
    # Mo's turn now; a stale seq is refused even for the player whose turn it is
    with pytest.raises(ApiError) as stale:
        box.move(tokens[1], "promote", {"club": "A"}, seq=seq)
    assert stale.value.status == 409
    assert box.state(tokens[1])["game"]["values"] == [1, 1, 1]


@pytest.mark.parametrize("table", INTERPRETERS, indirect=True)  # the Pico's and the Pi's
def test_the_reader_enters_a_turn_and_undoes_it(table):
    box, tokens = table
    before = box.state(tokens[0])
    assert box.press("C") == "qd_enter"  # Pat's legal actions, Join A first
    assert box.press("C") == "qd_board"
    view = box.state(tokens[0])
    assert view["game"]["shares"][0] == [1, 0, 0] and view["game"]["turn"] == 1
    assert view["game"]["log"] == [[1, 0, "Pat joined A"]]
    # the menu: Drop player, Rejoin code, Enter turn, Undo last turn, ...
    assert box.press("A") == "menu"
    for _ in range(3):
        box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "qd_board"
    undone = box.state(tokens[0])
    assert undone["game"] == before["game"]
    assert undone["seq"] == view["seq"] + 1  # a phone's move sent before the undo is stale
    with pytest.raises(ApiError) as stale:
        box.move(tokens[1], "join", {"club": "A"}, seq=view["seq"])
    assert stale.value.status == 409
    # nothing more to undo: the menu no longer offers it (Drop, Rejoin, Enter turn, End game, Back)
    assert box.press("A") == "menu"
    assert box.status()["menu"] == ["Drop player", "Rejoin code", "Enter turn", "End game", "Back"]
    for _ in range(4):
        box.press("A")
    assert box.press("C") == "qd_board"  # "Back"
    assert box.state(tokens[0])["game"] == before["game"]
    # a phone's turn can be undone too, while the next one is not taken
    box.move(tokens[0], "promote", {"club": "C"}, seq=undone["seq"])
    assert box.press("A") == "menu"
    for _ in range(3):
        box.press("A")
    box.press("C")
    assert box.press("C") == "qd_board"
    assert box.state(tokens[0])["game"] == before["game"]


def test_a_payout_can_be_undone_with_its_last_turn(table):
    box, tokens = table
    state = model()
    rng = random.Random(9)
    for _ in range(5):
        play_one(box, tokens, state, rng)
    before = box.state(tokens[0])
    play_one(box, tokens, state, rng)  # Kit ends lap 2: the first payout
    box.wait_screen("qd_payout")
    assert len(box.state(tokens[0])["game"]["payouts"]) == 1
    assert box.press("A") == "menu"  # from the payout, the menu
    for _ in range(3):
        box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "qd_board"
    assert box.state(tokens[0])["game"] == before["game"]


@pytest.mark.parametrize("seed", [1, 2])
def test_power_cuts_during_turns_lose_no_acknowledged_turn(table, seed):
    box, tokens = table
    rng = random.Random(seed)
    state = model()
    while not rules.is_over(state):
        for _ in range(rng.randrange(1, 5)):
            if rules.is_over(state):
                break
            play_one(box, tokens, state, rng)  # acknowledged: the box answered 200
        box.kill()
        box.start()
        assert public(box.state(tokens[0])) == expected(state)
        wait_until(lambda: box.screen() != "splash", "the splash is over")
        if box.screen() == "resume":  # a game under way is offered for resuming
            assert box.press("C") in ("qd_board", "qd_payout")
        if box.screen() == "qd_payout":
            box.press("C")
    assert box.state(tokens[1])["box"] == "over"


def test_a_power_cut_while_a_turn_is_sent(table):
    """The plug is pulled while a turn is on its way: once answered 200, it is there after the restart;
    unanswered, it is either wholly there or not at all."""
    box, tokens = table
    rng = random.Random(3)
    state = model()
    acknowledged = 0
    for delay in (0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15):
        view = box.state(tokens[0])
        seat = view["game"]["turn"]
        m = rng.choice(rules.legal_moves(state, seat))
        answer = []
        body = (tokens[seat], m["move"], m["args"], view["seq"])
        sender = threading.Thread(target=send, args=(box, body, answer))
        sender.start()
        time.sleep(delay)
        box.kill()
        sender.join(10)
        box.start()
        after = box.state(tokens[0])
        took = after["game"]["turns"] == state_turns(state) + 1
        if answer and isinstance(answer[0], dict):
            acknowledged += 1
            assert took, "an acknowledged turn was lost"
        if took:
            rules.move(state, seat, m["move"], m["args"])
        assert public(after) == expected(state)
        wait_until(lambda: box.screen() != "splash", "the splash is over")
        if box.screen() == "resume":
            box.press("C")
    assert rules.turns_taken(state) >= acknowledged


def send(box, body, answer):
    try:
        answer.append(box.move(body[0], body[1], body[2], seq=body[3]))
    except (ApiError, OSError) as e:
        answer.append(e)


def state_turns(state):
    return rules.turns_taken(state)


def test_a_rematch_reverses_the_seating_and_changes_the_first_player(table):
    box, tokens = table
    rng = random.Random(11)
    state = model()
    while not rules.is_over(state):
        play_one(box, tokens, state, rng)
    box.wait_screen("qd_payout")
    # The payouts the reader has not stepped past yet: how many depends on when the box's loop
    # noticed the payout laps (on a busy machine the phones may play on before it does).
    for _ in range(3):
        if box.press("C") == "qd_final":
            break
    else:
        raise AssertionError("C did not step through the payouts to the final standings")
    for screen in ("qd_final", "qd_again", "confirm", "qd_board"):
        assert box.press("C") == screen  # ... "Rematch", "Rematch now?" yes
    view = box.state(tokens[0])
    game = view["game"]
    assert view["box"] == "play" and game["turns"] == 0 and game["payouts"] == []
    assert game["first"] != 0 and game["order"][0] == game["first"]
    order = game["order"]
    assert order == [2, 1, 0][[2, 1, 0].index(game["first"]):] + [2, 1, 0][:[2, 1, 0].index(game["first"])]
    assert game["turn"] == game["first"]
    first = game["first"]
    box.move(tokens[first], "join", {"club": "C"}, seq=view["seq"])
    assert box.state(tokens[0])["game"]["shares"][first] == [0, 0, 1]
