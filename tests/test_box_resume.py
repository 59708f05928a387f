"""Pull the plug at random moments of a game: after each restart the box resumes with every locked
allocation and every score intact (the firmware under MicroPython, killed with SIGKILL)."""

import os
import random

import pytest
from boxrig import INTERPRETERS, ApiError, BoxProcess

# CI kills the box this many times; `TIDEBOX_KILLS=200 pytest tests/test_box_resume.py` for the full run.
KILLS = int(os.environ.get("TIDEBOX_KILLS", "12"))
NAMES = ["Ada", "Bo", "Cy", "Di"]


def snapshot(box, tokens):
    """What each seat has been told: the game and its own hidden allocation."""
    views = {}
    for seat, token in tokens.items():
        view = box.state(token)
        views[seat] = {"box": view["box"], "seats": view["seats"], "game": view["game"]}
    return views


def random_allocation(rng):
    beacon = rng.randrange(8)
    grove = rng.randrange(8 - beacon)
    return [beacon, grove, 7 - beacon - grove]


def one_action(box, tokens, rng):
    """Do one thing a table would do next; returns False once the game is over."""
    view = box.state(tokens[0])
    if view["box"] == "over":
        return False
    screen = box.screen()
    if screen in ("resume", "splash"):
        box.wait_screen("resume")
        box.press("C")
        return True
    game = view["game"]
    if game["phase"] == "allocate":
        if screen == "card":
            box.press("C")
            return True
        waiting = [i for i, p in enumerate(game["players"]) if not p["ready"]]
        if waiting:
            seat = rng.choice(waiting)
            box.allocate(tokens[seat], random_allocation(rng), ready=rng.random() < 0.8)
        else:
            box.press("C")
        return True
    box.press("C")  # stepping through the reveal
    return True


@pytest.mark.slow
@pytest.mark.parametrize("interpreter", INTERPRETERS)  # the Pico's and the Pi's
@pytest.mark.parametrize("seed", [1, 2])
def test_resumes_after_power_cuts(sim_tree, tmp_path, seed, interpreter):
    rng = random.Random(seed)
    box = BoxProcess(sim_tree, tmp_path / "state", interpreter=interpreter).start()
    try:
        box.choose()
        tokens = {}
        for name in NAMES:
            joined = box.join(name)
            tokens[joined["seat"]] = joined["token"]
        box.press("C")
        box.press("B")  # numbered deck
        box.press("C")
        kills = 0
        over = False
        while kills < KILLS // 2 and not over:
            for _ in range(rng.randrange(1, 8)):
                if not one_action(box, tokens, rng):
                    over = True
                    break
            before = snapshot(box, tokens)
            box.kill()
            kills += 1
            box.start()
            after = snapshot(box, tokens)  # the same tokens still hold their seats
            assert after == before
            box.wait_screen("resume")
            box.press("C")
        assert kills >= 1
    finally:
        box.stop()


def test_resume_screen_offers_the_saved_game_and_discard_starts_fresh(new_box):
    box = new_box()
    token = box.join("Ada")["token"]
    box.join("Bo")
    box.kill()
    box.start()
    box.wait_screen("resume")
    assert box.state(token)["you"]["name"] == "Ada"
    box.press("A")  # new
    assert box.screen() == "confirm"
    box.press("C")  # yes, discard
    assert box.screen() == "choose"
    assert box.state(token)["you"] is None
    assert box.state()["seats"] == []
    with pytest.raises(ApiError):
        box.allocate(token, [7, 0, 0])
