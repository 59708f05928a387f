"""A MemoryError is never silent: at each step of choosing and starting a game, while a screen is
drawn during a game and while a phone's move is made, the box is left short of memory on purpose:
the host board fills its heap but for a few bytes as the box first reads a press, or while phones
send moves (boards/host.py, Board.squeeze), or fails the next frame drawn (host_sim.py, the "draw"
fault). The box says so on its panel, restarts itself (tidebox/restart.py) and takes the step again
on a fresh heap: the press is never lost, and no seat, locked allocation or score is.

Every test runs the real firmware under MicroPython at the test heap (real_box, tests/conftest.py)."""

import http.client
import json
import time
from pathlib import Path

import pytest
from boxrig import ApiError, BoxProcess, wait_until

pytestmark = pytest.mark.slow  # the real firmware, restarting itself

NAMES = ("Ada", "Bo", "Cy")
RESTARTED = "Memory tidied up"  # welcome.RESTARTED: the message line once the box is back


def seated(box):
    """Three phones joined at the game menu: their tokens."""
    box.wait_screen("choose", timeout=15)
    return [box.join(name)["token"] for name in NAMES]


def assert_back(box, boot_before, screen):
    """The box restarted itself for memory, came back on `screen`, and says on its panel that it did
    (its restart.log names why, where there was room to write it)."""
    status = box.status()
    assert status["boot"] > boot_before, "the box did not restart"
    assert status["screen"] == screen, status
    assert status["message"] == RESTARTED, status
    assert not (Path(box.state_dir) / "crash.log").exists(), "a recovered MemoryError is not a crash"
    assert not (Path(box.state_dir) / "next.json").exists(), "the step was taken, and forgotten"


def assert_seats_kept(box, tokens):
    for token, name in zip(tokens, NAMES):
        view = box.state(token)
        assert view["you"]["name"] == name
    assert [s["name"] for s in box.state(tokens[0])["seats"]] == list(NAMES)


def test_choosing_a_game_short_of_memory_still_chooses_it(real_box):
    tokens = seated(real_box)
    boot = real_box.status()["boot"]
    # Token Tide's rules need kilobytes to load: with 2 KB free the choice finds no room
    screen = real_box.press("C", squeeze=2048)
    assert screen == "join"
    assert_back(real_box, boot, "join")
    assert real_box.state(tokens[0])["kind"] == "token_tide"
    assert_seats_kept(real_box, tokens)


def test_the_setup_screen_short_of_memory_is_still_shown(real_box):
    tokens = seated(real_box)
    real_box.press("C")  # Token Tide's join screen
    boot = real_box.status()["boot"]
    assert real_box.press("C", fault="draw") == "setup"
    assert_back(real_box, boot, "setup")
    assert_seats_kept(real_box, tokens)


def test_starting_a_game_short_of_memory_still_starts_it(real_box):
    tokens = seated(real_box)
    real_box.press("C")
    real_box.press("C")  # setup
    boot = real_box.status()["boot"]
    # started (saved), and no room to draw its first screen: back in the game, the card shown
    assert real_box.press("C", fault="draw") == "card"
    assert_back(real_box, boot, "card")
    view = real_box.state(tokens[0])
    assert view["box"] == "play" and view["game"]["round"] == 0
    assert_seats_kept(real_box, tokens)


def test_a_screen_short_of_memory_mid_game_loses_no_locked_allocation(real_box):
    tokens = seated(real_box)
    real_box.press("C")
    real_box.press("C")
    real_box.press("C")  # the tide card
    real_box.allocate(tokens[0], [3, 2, 2])  # locked, and so saved
    saved = json.loads((Path(real_box.state_dir) / "game.json").read_text())["game"]
    boot = real_box.status()["boot"]
    # On to the allocation screen (its countdown is not saved), with no room to draw it: the box
    # comes back on the card, nothing saved since, and presses C again.
    assert real_box.press("C", fault="draw") == "allocate"
    assert_back(real_box, boot, "allocate")
    mine = real_box.state(tokens[0])["game"]
    assert mine["mine"] == [3, 2, 2] and mine["locked"] is True
    after = json.loads((Path(real_box.state_dir) / "game.json").read_text())["game"]
    assert after["hidden"] == saved["hidden"] and after["locked"] == saved["locked"]
    assert_seats_kept(real_box, tokens)


def test_a_phone_move_short_of_memory_changes_nothing_and_says_so(real_box):
    tokens = seated(real_box)
    real_box.press("C")
    real_box.press("C")
    real_box.press("C")
    real_box.allocate(tokens[0], [3, 2, 2])
    others = real_box.state(tokens[0])["game"]
    try:
        real_box.api("POST", "/sim/fault", {"kind": "squeeze", "leave": 1024})
    except (ApiError, OSError, http.client.HTTPException):
        pass  # squeezed before it could answer
    answers = []
    for _ in range(5):
        try:
            real_box.allocate(tokens[1], [7, 0, 0])
            answers.append(200)
            break
        except ApiError as exc:  # a clear "try again", never a move half made
            assert exc.status == 503, exc
            assert "try again" in exc.body["error"], exc
            answers.append(503)
        except (OSError, http.client.HTTPException):
            answers.append("dropped")  # no room to read it: closed at once, as lwIP does (the page retries)
    assert 503 in answers or "dropped" in answers, "the squeeze left room for everything: %s" % answers
    try:
        real_box.api("POST", "/sim/fault", {"kind": "release"})
    except (ApiError, OSError, http.client.HTTPException):
        real_box.status(timeout=15)  # the box restarted itself meanwhile (restart.py): nothing is held now
    if answers[-1] != 200:
        real_box.allocate(tokens[1], [7, 0, 0])  # with room again the same move is made, once
    mine = real_box.state(tokens[1])["game"]
    assert mine["mine"] == [7, 0, 0] and mine["locked"] is True
    theirs = real_box.state(tokens[0])["game"]
    assert theirs["mine"] == others["mine"] == [3, 2, 2] and theirs["locked"] is True
    saved = json.loads((Path(real_box.state_dir) / "game.json").read_text())["game"]
    assert saved["hidden"][:2] == [[3, 2, 2], [7, 0, 0]]
    assert_seats_kept(real_box, tokens)


def test_a_shortage_a_reboot_does_not_mend_ends_in_the_box_staying_up(sim_tree, tmp_path):
    """No frame ever finds memory, after any reboot: the box reboots for it memory.TRIES times, then
    stays up and says so, instead of rebooting into the same shortage for ever; the phones are
    answered meanwhile."""
    box = BoxProcess(sim_tree, tmp_path / "state", env={"TIDEBOX_NO_ROOM_TO_DRAW": "1"}).start()
    try:
        tries = 2  # tidebox/memory.py TRIES
        wait_until(lambda: box.status()["message"] == "Not enough memory", "the box to stay up", timeout=30)
        time.sleep(2)  # the panel keeps failing to draw meanwhile: no further reboot
        status = box.status()
        assert status["boot"] == tries, status
        assert status["message"] == "Not enough memory", status
        log = (Path(box.state_dir) / "restart.log").read_text().splitlines()
        assert log == ["short of memory: home"] * tries
        token = box.join("Ada")["token"]
        assert box.state(token)["you"]["name"] == "Ada"
    finally:
        box.stop()
