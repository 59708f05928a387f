"""A whole Token Tide game on the real firmware (MicroPython unix port, Pico-sized heap), driven by
the box's buttons and the phones' HTTP API, checked against the rules module."""

import json
import random

import pytest
from boxrig import INTERPRETERS, SHORT_MS, ApiError, BoxProcess

from tidebox.games import token_tide as tt

pytestmark = pytest.mark.slow  # a whole 8-player game and its rounds on the real firmware

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def box(sim_tree, tmp_path, request):
    """A box on the host board; a test parametrised with indirect=True chooses the interpreter."""
    b = BoxProcess(sim_tree, tmp_path / "state", interpreter=getattr(request, "param", "micropython")).start()
    yield b
    b.stop()


def random_allocation(rng):
    beacon = rng.randrange(8)
    grove = rng.randrange(8 - beacon)
    return [beacon, grove, 7 - beacon - grove]


def play_round(box, tokens, rng):
    """Allocate for every seated player, reveal with C, step through the reveal; returns allocations."""
    assert box.press("C") == "allocate"
    allocations = {}
    for seat, token in tokens.items():
        allocations[seat] = random_allocation(rng)
        box.allocate(token, allocations[seat])
    assert box.press("C") == "reveal"
    for _ in range(40):
        screen = box.press("C")
        if screen != "reveal":
            return allocations, screen
    raise AssertionError("the reveal never ended")


@pytest.mark.parametrize("box", INTERPRETERS, indirect=True)  # the Pico's and the Pi's
def test_eight_players_play_a_whole_game(box):
    box.choose()
    tokens = {}
    for name in NAMES:
        joined = box.join(name)
        tokens[joined["seat"]] = joined["token"]
    with pytest.raises(ApiError) as full:
        box.join("Ivy")
    assert full.value.status == 409 and "full" in full.value.body["error"]
    assert box.press("C") == "setup"
    box.press("B")  # deck: shuffled -> numbered
    assert box.press("C") == "card"
    rng = random.Random(8)
    expected_totals = [0] * 8
    readers = []
    screen = "card"
    for round_index in range(6):
        view = box.state(tokens[0])["game"]
        readers.append(view["reader"])
        assert view["card"] == list(tt.TIDE_CARDS[round_index])
        allocations, screen = play_round(box, tokens, rng)
        scores = tt.score_round(tt.TIDE_CARDS[round_index][2], [allocations[s] for s in range(8)])
        for seat, s in enumerate(scores):
            expected_totals[seat] += sum(s)
        last = box.state(tokens[3])["game"]["history"][round_index]
        assert last["scores"] == [list(s) for s in scores]
    assert screen == "final"
    final = box.state(tokens[0])
    assert final["box"] == "over"
    game = final["game"]
    assert [p["total"] for p in game["players"]] == expected_totals
    best = max(expected_totals)
    assert game["winners"] == [i for i, t in enumerate(expected_totals) if t == best]
    assert readers == [0, 1, 2, 3, 4, 5]
    # The end's buttons, as on every game's end: A the menu (B there comes back), B the winners.
    assert box.press("A") == "menu"
    assert box.press("B") == "final"
    assert box.press("C") == "final"  # the standings: eight players, two pages
    assert box.press("C") == "final"  # the last page
    assert box.press("B") == "final"  # the winners again, so C shows the standings, not "New game?"
    # After the final standings the reader starts a new game with the same table.
    assert box.press("C") == "final"  # the standings
    while box.screen() == "final":
        box.press("C")
    assert box.screen() == "confirm"
    assert box.press("C") == "choose"  # the same game or another, with the same players
    assert box.state()["box"] == "choose"
    assert box.choose("token_tide") == "join"
    assert [s["name"] for s in box.state()["seats"]] == NAMES


def test_reveal_refused_until_everyone_ready_and_timer_never_forces(box):
    box.choose()
    a = box.join("Ada")["token"]
    b = box.join("Bo")["token"]
    box.press("C")
    box.press("C")  # setup -> card
    assert box.press("C") == "allocate"
    box.allocate(a, [4, 1, 2])
    box.advance(60_000)  # far past the 45 s timer
    assert box.press("C") == "allocate"  # not everybody is ready: no reveal
    status = box.status()
    assert status["tones"], "the box beeps at zero"
    assert box.state(a)["timer"]["expired"] is True
    assert box.state(a)["game"]["phase"] == "allocate"
    # +15 s after zero: the countdown runs again from the press. The box's clock is held, so the
    # figures are exact: no time passes on the box but what the press itself takes and advance().
    # The press acts once down, so its hold and the release's settling (10 ms a read) come off.
    box.hold_clock()
    box.press("B")  # +15 s
    timer = box.state(a)["timer"]
    rest = 15_000 - timer["left_ms"]
    assert 0 <= rest <= SHORT_MS + 40 and rest % 10 == 0, timer
    assert (timer["total_ms"], timer["expired"]) == (60_000, False)
    box.advance(timer["left_ms"] - 1)
    assert box.state(a)["timer"]["left_ms"] == 1
    box.advance(1)
    timer = box.state(a)["timer"]
    assert (timer["left_ms"], timer["expired"]) == (0, True)
    box.hold_clock(False)
    box.allocate(b, [3, 1, 3])
    assert box.press("C") == "reveal"
    assert box.state(b)["game"]["phase"] == "revealed"


def test_no_response_carries_another_allocation_before_the_reveal(box):
    box.choose()
    tokens = [box.join(n)["token"] for n in NAMES[:4]]
    box.press("C")
    box.press("C")
    box.press("C")
    secrets = [[5, 2, 0], [0, 6, 1], [1, 1, 5], [2, 4, 1]]
    for i, t in enumerate(tokens[:3]):
        box.allocate(t, secrets[i], ready=True)
    for viewer in [None] + tokens:
        body = json.dumps(box.state(viewer))
        for owner, secret in enumerate(secrets[:3]):
            if viewer is not None and tokens.index(viewer) == owner:
                continue
            assert json.dumps(secret) not in body.replace(" ", "").replace(",", ", ") and (
                "%d, %d, %d" % tuple(secret) not in body
            )


def test_the_box_publishes_its_reveal_step_for_the_phones(box):
    """box.shown["reveal"] says how far the reader has stepped the reveal: C steps it on, A goes back
    on the box only (the phones keep what was shown), a long press on C goes to the standings."""
    box.choose()
    a = box.join("Ada")["token"]
    b = box.join("Bo")["token"]
    box.press("C")
    box.press("C")  # setup -> card
    assert box.state(a)["shown"] == {}
    # phones may lock in on the tide card, before the reader starts the countdown (README)
    assert box.screen() == "card"
    box.allocate(a, [4, 1, 2])
    assert box.state(a)["game"]["locked"] is True and box.state(a)["timer"]["on"] is False
    assert box.press("C") == "allocate"
    box.allocate(b, [3, 1, 3])
    assert box.press("C") == "reveal"
    assert box.state(a)["shown"] == {"reveal": {"round": 0, "step": 0}}
    assert box.press("C") == "reveal"
    assert box.press("C") == "reveal"
    assert box.state(b)["shown"] == {"reveal": {"round": 0, "step": 2}}
    assert box.press("A") == "reveal"  # back on the box; what the phones saw stays shown
    assert box.state(b)["shown"] == {"reveal": {"round": 0, "step": 2}}
    assert box.press("C", long=True) == "reveal"  # everything at once
    assert box.state(a)["shown"] == {"reveal": {"round": 0, "step": 5}}
    # the long press counts while C is still held: the rig's next press waits until it is let go
    assert box.press("A") == "reveal"  # back to the round's points on the box
    assert box.state(a)["shown"] == {"reveal": {"round": 0, "step": 5}}
    assert box.press("C") == "reveal"
    assert box.press("C") == "card"  # the standings were the last step
    assert box.press("C") == "allocate"
    box.allocate(a, [7, 0, 0])
    box.allocate(b, [0, 0, 7])
    assert box.press("C") == "reveal"
    assert box.state(a)["shown"] == {"reveal": {"round": 1, "step": 0}}
