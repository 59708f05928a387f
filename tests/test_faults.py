"""Faults on the real firmware (MicroPython unix port, Pico-sized heap, boards/host.py): power cuts in
the middle of requests, torn and damaged saves, and phones that reload, lose Wi-Fi, move to another
phone or open the same seat twice.

The power-cut run kills the box (SIGKILL) through a scripted 8-player game, with saves at the
board's pace (each spends its flash time between writing the temporary file and the rename): at a
random moment after firing a request or a button press, or aimed at a phone's request, once the
save's temporary file appears (mid-save) or once the save is in place and the answer not yet out
(mid-answer). What each cut hit is told from what it left (a temporary file, a
move applied without a whole answer), and the run requires cuts of both kinds. CI cuts
TIDEBOX_POWER_CUTS (default 8) times, more if needed to see both kinds; the full run is
`TIDEBOX_POWER_CUTS=200 .venv/bin/python -m pytest tests/test_faults.py -k power`.
"""

import io
import json
import os
import random
import socket
import threading
import time
from pathlib import Path

import pytest
from boxrig import BOARD_PACE_MS, ApiError, BoxProcess
from PIL import Image

import fuzzing
from power_cut import MID_ANSWER, MID_SAVE, PRESS_CUT_S, SAVE_ENV, Aim

pytestmark = pytest.mark.slow  # power cuts at random moments of whole scripted games

POWER_CUTS = int(os.environ.get("TIDEBOX_POWER_CUTS", "8"))
ACTIONS_PER_GAME = 110  # about: 6 rounds of a card, 8+ allocations, a reveal and its steps
API_CUT_S = (0.003, 0.03)  # a phone's request, when cut at random: within 3 ms (now and then) or 30 ms
AIMS = ("mid-save", "mid-answer", "random")  # a phone's request cut in turn at each


# ---------------------------------------------------------------- power cuts during requests


def fire(port, request, moment):
    """Send a request and return the socket once the moment aimed at has come (the caller then kills)."""
    sock = socket.create_connection((fuzzing.HOST, port), timeout=5)
    sock.sendall(request)
    Aim.wait(moment)
    return sock


def saved_holds(saved, action):
    """Whether the saved game already holds a phone's move (its seat's allocation and lock)."""
    try:
        game = json.loads(saved.read_text())["game"]
    except (OSError, ValueError, KeyError):
        return False
    seat = action[1]
    if action[0] == "unready":
        return game["locked"][seat] is False
    return game["hidden"][seat] == action[2] and game["locked"][seat] is action[3]


def answer_before_the_cut(sock):
    """The answer the box had sent before it died (None if not a whole one)."""
    chunks = []
    sock.settimeout(0.5)
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        pass
    sock.close()
    reply = fuzzing.Reply(b"".join(chunks))
    try:
        reply.json()
    except ValueError:
        return None
    return reply


class PoweredGame:
    """One 8-player numbered-deck game, with what every phone has been told so far: the revealed
    rounds (allocations and scores) and this round's acknowledged allocations."""

    def __init__(self, box, rng):
        self.box = box
        self.rng = rng
        self.tokens = fuzzing.seat_table(box)
        fuzzing.start_game(box)
        self.ledger = []  # the history every phone has seen
        self.round = None
        self.mine = {}  # seat -> (allocation, locked) as acknowledged
        self.cuts = 0
        self.api_cuts = 0
        self.outcomes = {MID_SAVE: 0, MID_ANSWER: 0}
        self.aim = Aim(Path(box.state_dir))
        self.press_cut_at = None  # where the game was when a press was last cut
        self.screen = None
        self.learn(self.views())

    def views(self):
        return {seat: self.box.state(token) for seat, token in self.tokens.items()}

    def learn(self, views):
        game = views[0]["game"]
        self.ledger = game["history"]
        self.round = (game["round"], game["phase"])
        self.mine = {seat: (v["game"]["mine"], v["game"]["locked"]) for seat, v in views.items()}

    def over(self):
        return self.round[1] == "over"

    def may_cut(self, action):
        """Any request may be cut; a press once per screen until the game moves on (a restart shows
        the reveal from its first step again, so cutting every step would never get past it)."""
        if action[0] != "press":
            return True
        where = (self.round, len(self.ledger), self.screen)
        if self.press_cut_at == where:
            return False
        self.press_cut_at = where
        return True

    def next_action(self):
        """What the table does next: ("press",), ("alloc", seat, allocation, ready) or ("unready", seat)."""
        screen = self.screen = self.box.screen()
        if self.round[1] != "allocate" or screen == "card":
            return ("press",)
        waiting = [s for s, (_, locked) in self.mine.items() if not locked]
        ready = [s for s, (_, locked) in self.mine.items() if locked]
        if ready and self.rng.random() < 0.1:
            return ("unready", self.rng.choice(ready))
        if waiting or self.rng.random() < 0.1:
            seat = self.rng.choice(waiting or ready)
            return ("alloc", seat, fuzzing.random_allocation(self.rng), self.rng.random() < 0.85)
        return ("press",)

    def request_for(self, action):
        if action[0] == "press":
            return fuzzing.build_request("POST", "/sim/press", {"button": "C", "ms": 80})
        if action[0] == "unready":
            return fuzzing.build_request("POST", "/api/move",
                                         {"move": "unready", "args": {}}, self.tokens[action[1]])
        return fuzzing.build_request("POST", "/api/move",
                                     {"move": "allocate",
                                      "args": {"allocation": action[2], "ready": action[3]}},
                                     self.tokens[action[1]])

    def act(self, action):
        """Do it and wait for it, as a phone or the reader would."""
        if action[0] == "press":
            self.box.press("C")
        elif action[0] == "unready":
            self.box.api("POST", "/api/move", {"move": "unready", "args": {}}, self.tokens[action[1]])
        else:
            self.box.allocate(self.tokens[action[1]], action[2], action[3])
        self.learn(self.views())

    def cut(self, action):
        """Fire the action, pull the plug (a random moment later, or aimed at the save or the answer),
        start again and check."""
        state = Path(self.box.state_dir)
        aim = "random"
        if action[0] == "press":
            delay = self.rng.uniform(0, PRESS_CUT_S)
        else:
            aim = AIMS[self.api_cuts % len(AIMS)]
            self.api_cuts += 1
            delay = self.rng.uniform(0, API_CUT_S[0] if self.rng.random() < 0.3 else API_CUT_S[1])
        moment = self.aim.moment(aim, delay, lambda: saved_holds(self.aim.saved, action))
        sock = fire(self.box.port, self.request_for(action), moment)
        self.box.kill()
        self.cuts += 1
        reply = answer_before_the_cut(sock)
        if self.aim.saw_a_save_under_way():
            self.outcomes[MID_SAVE] += 1
        self.box.start()
        assert not (state / "game.json.bad").exists(), "a power cut damaged the save"
        json.loads((state / "game.json").read_text())  # whole, never half-written
        views = self.views()
        self.check(views, action, reply)
        self.learn(views)
        if not self.over():
            self.box.wait_screen("resume")
            self.box.press("C")

    def check(self, views, action, reply):
        """Old or new, never anything else; whatever a phone was told survives."""
        acked = reply is not None and reply.status == 200
        publics = [{k: v for k, v in view["game"].items() if k not in ("you", "mine", "locked")}
                   for view in views.values()]
        assert all(p == publics[0] for p in publics)  # every phone sees the same table
        game = publics[0]
        history = game["history"]
        assert history[:len(self.ledger)] == self.ledger, "a revealed round changed or vanished"
        new_rounds = history[len(self.ledger):]
        assert len(new_rounds) <= (1 if action[0] == "press" else 0)
        for record in new_rounds:  # a reveal just before the cut scored exactly the acknowledged allocations
            assert record["allocations"] == [self.mine[s][0] for s in sorted(self.mine)]
        for seat, player in enumerate(game["players"]):
            assert player["total"] == sum(sum(record["scores"][seat]) for record in history)
        moved = (game["round"], game["phase"]) != self.round
        changed = moved or any((v["game"]["mine"], v["game"]["locked"]) != self.mine[s]
                               for s, v in views.items())
        if action[0] == "press":
            outcome = "press moved the game on" if changed else "press lost, or nothing saved to move"
        else:
            outcome = "acknowledged" if acked else MID_ANSWER if changed else "not applied"
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        if moved:
            assert action[0] == "press", "only the reader's press moves the game on"
            return
        for seat, view in views.items():
            now = (view["game"]["mine"], view["game"]["locked"])
            old = self.mine[seat]
            if action[0] == "alloc" and seat == action[1]:
                new = (action[2], action[3])
                assert now == new if acked else now in (old, new), (seat, now, old, new)
            elif action[0] == "unready" and seat == action[1]:
                new = (old[0], False)
                assert now == new if acked else now in (old, new), (seat, now, old, new)
            else:
                assert now == old, (seat, now, old)


def test_power_cuts_during_requests_lose_nothing_acknowledged(sim_tree, tmp_path):
    rng = random.Random(20261130)
    chance = min(0.5, POWER_CUTS / ACTIONS_PER_GAME)  # at most every other step: the games go on
    cuts = games = 0
    outcomes = {MID_SAVE: 0, MID_ANSWER: 0}
    most = POWER_CUTS + 12  # cuts beyond POWER_CUTS while one kind has not been seen yet

    def enough(game):
        seen = [outcomes[kind] + game.outcomes[kind] for kind in (MID_SAVE, MID_ANSWER)]
        total = cuts + game.cuts
        return total >= most or (total >= POWER_CUTS and all(seen))

    while cuts < POWER_CUTS or not all(outcomes[kind] for kind in (MID_SAVE, MID_ANSWER)):
        if cuts >= most:
            break
        # At a Pico W's pace: an answer is built for BOARD_PACE_MS after its move is saved, the window
        # a cut aimed mid-answer must land in, however busy this machine is.
        box = BoxProcess(sim_tree, tmp_path / ("game%d" % games) / "state", pace_ms=BOARD_PACE_MS,
                         env=SAVE_ENV).start()
        try:
            box.choose()
            game = PoweredGame(box, rng)
            for _ in range(20 * ACTIONS_PER_GAME):
                if game.over() or enough(game):
                    break
                action = game.next_action()
                if rng.random() < chance and game.may_cut(action):
                    game.cut(action)
                else:
                    game.act(action)
            for _ in range(20 * ACTIONS_PER_GAME):
                if game.over() or games > 0:  # the first game is always played to its end
                    break
                game.act(game.next_action())
            assert game.over() or enough(game), "the game got stuck"
            cuts += game.cuts
            for outcome, count in game.outcomes.items():
                outcomes[outcome] = outcomes.get(outcome, 0) + count
            games += 1
        finally:
            box.stop()
    print("power cuts: %d in %d game(s): %s" % (cuts, games, json.dumps(outcomes)))
    assert cuts >= POWER_CUTS
    # the cuts hit what they are meant to: a save under way (its temporary file left behind, the
    # saved game still the old one or the new one) and a move saved whose answer never got out
    assert outcomes[MID_SAVE] > 0, "no cut landed mid-save in %d cuts: %r" % (cuts, outcomes)
    assert outcomes[MID_ANSWER] > 0, "no cut landed mid-answer in %d cuts: %r" % (cuts, outcomes)


# ---------------------------------------------------------------- torn and damaged saves


@pytest.fixture
def saved_game(sim_tree, tmp_path):
    """A box killed in round 1 with two allocations locked; returns (box, tokens, views, save bytes)."""
    box = BoxProcess(sim_tree, tmp_path / "state")
    box.start()
    box.choose()
    tokens = fuzzing.seat_table(box, ["Ada", "Bo", "Cy"])
    fuzzing.start_game(box)
    box.allocate(tokens[0], [4, 1, 2])
    box.allocate(tokens[2], [0, 0, 7])
    views = fuzzing.view_bytes(box, tokens)
    box.kill()
    yield box, tokens, views, (tmp_path / "state" / "game.json").read_bytes()
    box.stop()


def without_versions(views):
    views = [json.loads(v) for v in views]
    for view in views:
        view.pop("v")
    return views


def splash_notice(box):
    """Pixels of the OLED's bottom text line while the splash is up (the notice line)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if box.screen() == "splash":
            png = box.oled_png()
            if box.screen() == "splash":
                image = Image.open(io.BytesIO(png)).convert("1")
                return bytes(image.crop((0, 54, 128, 62)).tobytes())
        else:
            break
    raise AssertionError("the splash was over before its picture could be taken")


def test_an_unfinished_save_is_ignored_and_the_last_good_one_loads(saved_game):
    """A crash between writing the temporary file and renaming it: the last good state loads."""
    box, tokens, views, good = saved_game
    state = Path(box.state_dir)
    for unfinished in [good[: len(good) // 2], b"", b"\x00" * 100, good.replace(b"[4, 1, 2]", b"[9, 9")]:
        (state / "game.json.tmp").write_bytes(unfinished)
        box.start()
        assert without_versions(fuzzing.view_bytes(box, tokens)) == without_versions(views)
        box.wait_screen("resume")
        assert (state / "game.json").read_bytes() == good
        assert not (state / "game.json.bad").exists()
        box.kill()


DAMAGED = {
    "truncated": lambda good: good[: len(good) // 2],
    "empty": lambda good: b"",
    "one byte": lambda good: good[:1],
    "binary junk": lambda good: bytes(range(256)) * 4,
    "not an object": lambda good: b"[1, 2, 3]",
    "wrong shape": lambda good: b'{"phase": "play", "seats": {}, "game": null}',
    "illegal allocation": lambda good: good.replace(b"[4, 1, 2]", b"[4, 1, 9]"),
    "seats and game disagree": lambda good: good.replace(b'"Cy", ', b"").replace(b', "Cy"', b""),
}


def test_a_damaged_save_is_kept_aside_and_the_box_starts_fresh(saved_game):
    """Whatever the damage, the box boots, says so on the OLED, keeps the file aside and starts fresh."""
    box, tokens, views, good = saved_game
    state = Path(box.state_dir)
    for kind, damage in sorted(DAMAGED.items()):
        damaged = damage(good)
        assert damaged != good, kind
        (state / "game.json").write_bytes(damaged)
        box.start()
        assert any(splash_notice(box)), "%s: the splash does not say the save was damaged" % kind
        box.choose()  # a fresh box, not a resume offer
        assert (state / "game.json.bad").read_bytes() == damaged, kind  # kept for inspection
        fresh = box.state()
        assert fresh["seats"] == [] and fresh["game"] is None, kind
        assert box.state(tokens[0])["you"] is None, kind  # old tokens mean nothing now
        assert box.join("Ada")["seat"] == 0, kind  # and the fresh box works and saves
        assert json.loads((state / "game.json").read_text())["seats"]["names"] == ["Ada"], kind
        box.kill()
        (state / "game.json.bad").unlink()
        (state / "game.json").write_bytes(good)  # the next damage starts from the same good save


def test_the_splash_is_blank_where_the_notice_goes_after_a_good_save(saved_game):
    """The check above reads a real notice: after an intact save that line of the splash is dark."""
    box, tokens, views, good = saved_game
    box.start()
    assert not any(splash_notice(box))
    box.wait_screen("resume")


def test_a_damaged_wifi_file_does_not_stop_the_box(saved_game):
    box, tokens, views, good = saved_game
    (Path(box.state_dir) / "wifi.json").write_bytes(b'{"password": "abc')
    box.start()
    box.wait_screen("resume")
    assert without_versions(fuzzing.view_bytes(box, tokens)) == without_versions(views)


# ---------------------------------------------------------------- phones


@pytest.fixture
def table(sim_tree, tmp_path):
    box = BoxProcess(sim_tree, tmp_path / "state").start()
    box.choose()
    yield box, fuzzing.seat_table(box, ["Ada", "Bo", "Cy"])
    box.stop()


def seats_of(box):
    return [s["name"] for s in box.state()["seats"]]


def test_a_reload_or_thirty_seconds_without_wifi_keeps_the_seat_and_the_allocation(table):
    box, tokens = table
    again = fuzzing.call(box.port, "POST", "/api/join", {"name": "Ada"})  # a reload that lost its token
    assert again.status == 409 and seats_of(box) == ["Ada", "Bo", "Cy"]
    fuzzing.start_game(box)
    box.allocate(tokens[0], [4, 1, 2])
    # The phone sends a change and loses Wi-Fi before the answer arrives.
    request = fuzzing.build_request("POST", "/api/move",
                                    {"move": "allocate", "args": {"allocation": [3, 1, 3]}}, tokens[0])
    with socket.create_connection((fuzzing.HOST, box.port), timeout=5) as sock:
        sock.sendall(request)
    box.advance(30000)  # 30 s of the box's time without a word from this phone
    reloaded = box.state(tokens[0])  # the page reloads: no version, the whole state
    assert reloaded["you"] == {"seat": 0, "name": "Ada"}
    assert reloaded["game"]["mine"] in ([4, 1, 2], [3, 1, 3]) and reloaded["game"]["locked"] is True
    box.allocate(tokens[0], [3, 1, 3])  # it sends the change again, once back
    assert box.state(tokens[0])["game"]["mine"] == [3, 1, 3]
    assert seats_of(box) == ["Ada", "Bo", "Cy"]
    assert [p["ready"] for p in box.state()["game"]["players"]] == [True, False, False]


def test_the_same_seat_in_two_tabs_stays_one_seat(table):
    box, tokens = table
    fuzzing.start_game(box)
    tab_a = tab_b = tokens[1]
    box.allocate(tab_a, [1, 1, 5], ready=False)
    assert box.state(tab_b)["game"]["mine"] == [1, 1, 5]
    box.allocate(tab_b, [2, 2, 3])
    assert box.state(tab_a)["game"]["mine"] == [2, 2, 3] and box.state(tab_a)["game"]["locked"] is True
    # Both tabs send at once, over and over: the seat ends with one of them, nobody else moves.
    sent = {"a": [5, 1, 1], "b": [1, 5, 1]}
    failures = []

    def tab(allocation):
        for _ in range(15):
            try:
                box.allocate(tokens[1], allocation)
            except (ApiError, OSError) as exc:
                failures.append(exc)

    threads = [threading.Thread(target=tab, args=(a,)) for a in sent.values()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert failures == []
    mine = box.state(tab_a)["game"]["mine"]
    assert mine in sent.values() and box.state(tab_b)["game"]["mine"] == mine
    assert seats_of(box) == ["Ada", "Bo", "Cy"]
    assert box.state(tokens[0])["game"]["mine"] is None and box.state(tokens[2])["game"]["mine"] is None


def test_a_phone_asleep_across_a_power_cut_is_never_told_unchanged_about_another_state(table):
    """A phone that last heard version N and went to sleep (its page keeps what it has while the
    answer is just {"v": N}). The plug is pulled; the box resumes, and Bo locks, takes it back and
    locks again, over and over: as many changes as before the cut and more. Had versions restarted
    from the same number at every boot, one of these states would carry an N Ada was told before
    the cut, and her ?v=N would answer "unchanged" while Bo is now ready. The state's version starts
    afresh at every boot, so each of her old versions gets the whole view, as it is now."""
    box, tokens = table
    ada, bo, cy = tokens[0], tokens[1], tokens[2]
    fuzzing.start_game(box)

    def poll(token, version):
        status, _, payload = box.request("GET", "/api/state?v=%d" % version, token=token)
        assert status == 200, payload
        return json.loads(payload)

    def bo_ready():
        return box.state(ada)["game"]["players"][1]["ready"]

    # Before the cut: Ada's phone hears of every change (its own and Cy's); Bo never gets ready.
    told = [box.state(ada)["v"]]
    for token, move, args in ((ada, "allocate", {"allocation": [4, 1, 2]}), (ada, "unready", {}),
                              (cy, "allocate", {"allocation": [0, 0, 7]}),
                              (ada, "allocate", {"allocation": [3, 2, 2]})):
        box.move(token, move, args)
        told.append(box.state(ada)["v"])
    assert poll(ada, told[-1]) == {"v": told[-1]}  # the phone's last poll: nothing new, then sleep
    assert bo_ready() is False
    box.kill()
    box.start()
    box.wait_screen("resume")
    box.press("C")
    seen = set()
    for n in range(2 * len(told) + 4):
        if n % 2 == 0:
            box.allocate(bo, [1, 3, 3])
        else:
            box.move(bo, "unready")
        now = box.state(ada)
        seen.add(now["v"])
        for old in told:  # the sleeping phone wakes with any version it was told before the cut
            view = poll(ada, old)
            assert view != {"v": old}, "told 'unchanged' since v=%d across a power cut" % old
            assert view["v"] == now["v"] and view["game"]["players"][1]["ready"] == (n % 2 == 0)
            assert view["game"]["mine"] == [3, 2, 2] and view["game"]["locked"] is True
    assert not seen & set(told), "versions repeated across the boot"
    assert bo_ready() is False  # the last change took Bo's lock back


def test_a_rejoin_code_survives_a_power_cut_and_moves_the_seat_once(table):
    """Another phone takes the seat with the box's code, even across a restart; the code is
    one-time (also after another restart) and the old phone is signed out for good."""
    box, tokens = table
    fuzzing.start_game(box)
    box.allocate(tokens[0], [5, 1, 1])
    assert box.press("A") == "menu"
    box.press("A")  # "Rejoin code"
    assert box.press("C") == "pick_seat"  # Ada
    assert box.press("C") == "show_code"
    code = next(iter(json.loads((Path(box.state_dir) / "game.json").read_text())["seats"]["codes"]))
    box.kill()
    box.start()
    moved = box.api("POST", "/api/rejoin", {"code": code})
    assert moved["seat"] == 0 and moved["token"] != tokens[0]
    assert box.state(moved["token"])["game"]["mine"] == [5, 1, 1]
    assert box.state(tokens[0])["you"] is None
    stale = fuzzing.call(box.port, "POST", "/api/move",
                         {"move": "allocate", "args": {"allocation": [7, 0, 0]}}, token=tokens[0])
    assert stale.status == 401
    box.kill()
    box.start()
    assert fuzzing.call(box.port, "POST", "/api/rejoin", {"code": code}).status == 403
    assert box.state(moved["token"])["you"] == {"seat": 0, "name": "Ada"}
    assert box.state(tokens[0])["you"] is None
    assert seats_of(box) == ["Ada", "Bo", "Cy"]
