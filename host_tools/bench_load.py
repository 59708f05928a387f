"""Load figures: eight phones polling once a second and twenty idle open sockets (a slow-client
attack) against the real firmware (MicroPython unix port, 192K heap), while a scripted 8-player game
goes on, game after game. `make bench` runs it for TIDEBOX_LOAD_SECONDS (default 600: ten minutes)
and prints the poll latency, the heap trend and the counts; tests/test_load.py runs it shorter.

The idle sockets connect and never send a byte; when the box cuts one off, it connects again at
once, so twenty are always open or waiting. Only 127.0.0.1 is contacted.
"""

import os
import random
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

import build
import fuzzing
from boxrig import Background, BoxProcess

LOAD_SECONDS = int(os.environ.get("TIDEBOX_LOAD_SECONDS", "600"))
IDLE_SOCKETS = 20
POLL_PERIOD_S = 1.0
POLL_TIMEOUT_S = 10.0  # the page gives up after 6 s; a slower answer is counted, then reported
HEAP_EVERY_S = 5.0
REVEAL_STANDINGS = 5  # Token Tide's last reveal step (games/token_tide/drawing.py): the standings
BASELINE_SECONDS = 20  # the same polls first without the idle sockets, for comparison


class IdleSockets(Background):
    """Sockets that connect and say nothing; each reconnects as soon as the box cuts it off."""

    def __init__(self, port, count=IDLE_SOCKETS):
        super().__init__()
        self.port = port
        self.connections = 0
        self.cut_by_box = 0
        self.threads += [threading.Thread(target=self.run, daemon=True) for _ in range(count)]

    def run(self):
        while not self.stop.is_set():
            try:
                sock = socket.create_connection((fuzzing.HOST, self.port), timeout=5)
            except OSError:
                self.stop.wait(0.1)
                continue
            self.connections += 1
            sock.settimeout(0.5)
            with sock:
                while not self.stop.is_set():
                    try:
                        if sock.recv(1024) == b"":
                            self.cut_by_box += 1
                            break
                    except TimeoutError:
                        continue
                    except OSError:
                        self.cut_by_box += 1
                        break


class Phones(Background):
    """Eight phones polling /api/state?v=N once a second, as the page does; every poll timed."""

    join_s = POLL_TIMEOUT_S + 2

    def __init__(self, port, tokens, box=None):
        super().__init__()
        self.port = port
        self.box = box  # the BoxProcess: a poll that meets it restarting itself is asked again
        self.restart_waits = 0  # polls that met the box restarting itself (after a game) and waited
        self.tokens = tokens
        self.lock = threading.Lock()
        self.latencies = []  # seconds, one per answered poll
        self.errors = []
        self.counts = {seat: 0 for seat in tokens}  # polls made, per phone (answered or not)
        self.started = self.ended = None  # when the phones began and stopped polling
        self.threads += [threading.Thread(target=self.run, args=item, daemon=True) for item in tokens.items()]

    def __enter__(self):
        self.started = time.monotonic()
        return super().__enter__()

    def __exit__(self, *exc):
        self.ended = time.monotonic()
        return super().__exit__(*exc)

    def run(self, seat, token):
        version = 0
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                reply = fuzzing.call(self.port, "GET", "/api/state?v=%d" % version, token=token,
                                     timeout=POLL_TIMEOUT_S)
            except OSError as exc:
                reply = fuzzing.Reply(b"", "connect: %s" % exc.__class__.__name__)
            took = time.monotonic() - started
            if reply.status != 200 and self.box is not None:
                time.sleep(0.3)  # long enough for a box on its way out to be seen restarting
            if reply.status != 200 and self.restarted_since(started):
                # The box restarted itself meanwhile (after a game, tidebox/restart.py): the page asks
                # again at its next poll; the restart's own gap is measured by bench_transitions.
                with self.lock:
                    self.restart_waits += 1
                self.stop.wait(0.2)
                continue
            with self.lock:
                self.counts[seat] += 1
                if reply.status == 200:
                    self.latencies.append(took)
                    version = reply.json()["v"]
                else:
                    self.errors.append(repr(reply)[:200])
            self.stop.wait(max(0.0, POLL_PERIOD_S - took))



    def restarted_since(self, started):
        box = self.box
        if box is None:
            return False
        if not box.listening or box.restarting:
            return True
        return any(began >= started - 0.5 for began, _ in box.soft_resets)


class Table:
    """The reader and the players: the game goes on, one step per call, game after game."""

    def __init__(self, box, tokens, seed=600, quick_reveal=False):
        self.box = box
        self.tokens = tokens
        self.quick_reveal = quick_reveal  # a long press on C: straight to the standings
        self.rng = random.Random(seed)
        self.rounds = 0  # rounds revealed
        self.games = 0  # games finished
        self.lobby_heaps = []  # (seconds, live heap) back in the lobby after each game
        self.started = time.monotonic()

    def step(self):
        box = self.box
        view = box.state()
        if view["box"] == "choose":
            box.choose()  # the game menu: Token Tide again
        elif view["box"] in ("join", "setup"):
            box.press("C")  # join -> setup -> tide card
        elif view["box"] == "over":
            if box.press("C") == "choose":  # the standings, then "New game?" and yes: same players
                self.games += 1
                self.lobby_heaps.append((time.monotonic() - self.started, lobby_heap(box)))
        elif view["game"]["phase"] == "allocate":
            if box.screen() == "card":
                box.press("C")
                return
            for seat, player in enumerate(view["game"]["players"]):
                if not player["ready"]:
                    box.allocate(self.tokens[seat], fuzzing.random_allocation(self.rng))
            if box.press("C") == "reveal":
                self.rounds += 1
        else:  # stepping through the reveal; quick: a long press goes to the standings at once
            at_standings = view["shown"].get("reveal", {}).get("step") == REVEAL_STANDINGS
            box.press("C", long=self.quick_reveal and not at_standings)

    def back_to_the_lobby(self, limit=400):
        """Finish the game under way and answer "New game?": the same players, back at the game menu."""
        for _ in range(limit):
            if self.box.state()["box"] == "choose":
                return
            self.step()
        raise AssertionError("the game did not come back to the lobby")


def live_heap(box):
    return box.api("GET", "/sim/status?gc=1")["mem_alloc"]


def lobby_heap(box):
    """The live heap in the lobby, once the phones' view of it has been built (until then the box
    still holds its cached view of the game just ended)."""
    box.state()
    return live_heap(box)


def heap_trend_kb_per_hour(samples):
    """Least-squares slope of the live heap over time, in KB per hour (None with under 3 samples)."""
    if len(samples) < 3:
        return None
    times = [t for t, _ in samples]
    heaps = [h for _, h in samples]
    mean_t = statistics.fmean(times)
    mean_h = statistics.fmean(heaps)
    spread = sum((t - mean_t) ** 2 for t in times)
    if spread == 0:
        return None
    slope = sum((t - mean_t) * (h - mean_h) for t, h in samples) / spread  # bytes per second
    return slope * 3600 / 1024


def run_load(box, tokens, seconds, idle=IDLE_SOCKETS, min_games=0, limit_s=None, quick_reveal=False):
    """Eight pollers, `idle` idle sockets and the game, for `seconds`, and on until `min_games`
    games have been finished under that load (for `limit_s` seconds at most, by default three times
    `seconds` and five minutes more). The box starts in the lobby with its players and ends there
    again; returns the figures."""
    if limit_s is None:
        limit_s = 3 * seconds + 300
    table = Table(box, tokens, quick_reveal=quick_reveal)
    lobby_before = lobby_heap(box)
    samples = []
    started = table.started = time.monotonic()
    table.lobby_heaps.append((0.0, lobby_before))
    with IdleSockets(box.port, idle) as idlers, Phones(box.port, tokens, box) as phones:
        next_sample = started
        while True:
            took = time.monotonic() - started
            if took >= limit_s or (took >= seconds and table.games >= min_games):
                break
            if time.monotonic() >= next_sample:
                samples.append((time.monotonic() - started, live_heap(box)))
                next_sample += HEAP_EVERY_S
            table.step()
        samples.append((time.monotonic() - started, live_heap(box)))
        games_under_load = table.games
    table.back_to_the_lobby()
    # Measured now that the phones and the idle sockets have stopped, as lobby_before was: a game
    # that ended under the load was measured with their connections still held.
    lobby_after = lobby_heap(box)
    elapsed = time.monotonic() - started
    latencies = sorted(phones.latencies)
    return {
        "seconds": round(elapsed),
        "polls": len(latencies) + len(phones.errors),
        "polls_per_phone": sorted(phones.counts.values()),
        "polling_seconds": round(phones.ended - phones.started, 1),
        "poll_errors": phones.errors,
        "latency_median_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "latency_p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))] * 1000, 1) if latencies else None,
        "latency_max_ms": round(latencies[-1] * 1000, 1) if latencies else None,
        "idle_connections": idlers.connections,
        "idle_cut_by_box": idlers.cut_by_box,
        "rounds": table.rounds,
        "games": table.games,
        "games_under_load": games_under_load,  # finished while the phones and idle sockets were on
        "seats_after": [(seat["name"], seat["present"]) for seat in box.state()["seats"]],
        "heap_samples": samples,
        "lobby_heaps": table.lobby_heaps,
        # The live heap at the same point before and after (the lobby with the same players, no
        # attack under way), per hour of load; the game's own state, which grows round by round and
        # is let go at the end of each game, is then not counted. Every sample's trend as well.
        "heap_growth_kb_per_hour": (lobby_after - lobby_before) / 1024 * 3600 / elapsed,
        "heap_trend_all_samples_kb_per_hour": heap_trend_kb_per_hour(samples),
        "lobby_heap_before": lobby_before,
        "lobby_heap_after": lobby_after,
        "tcp": box.status(),
    }


def start_box(tree, state_dir, short=False):
    """A box in the lobby with eight players; its games use the numbered deck (six rounds), or with
    `short` the short crossing (four)."""
    box = BoxProcess(tree, Path(state_dir) / "state", env={"TIDEBOX_BUZZER": "0"}).start()
    box.choose()
    tokens = fuzzing.seat_table(box)
    box.press("C")  # setup
    box.press("B")  # the numbered deck, kept for every game after
    if short:
        box.press("B")  # the short crossing
    box.press("A", long=True)  # back to the lobby with the players, as after "New game?"
    return box, tokens


def run():
    tree = build.build_sim()
    with tempfile.TemporaryDirectory() as tmp:
        box, tokens = start_box(tree, tmp)
        try:
            baseline = run_load(box, tokens, BASELINE_SECONDS, idle=0)
            result = run_load(box, tokens, LOAD_SECONDS)
        finally:
            box.stop()
    yield "poll_latency_ms_median_without_idle_sockets", baseline["latency_median_ms"], "ms"
    yield "load_seconds", result["seconds"], "s"
    yield "poll_latency_ms_median", result["latency_median_ms"], "ms"
    yield "poll_latency_ms_p95", result["latency_p95_ms"], "ms"
    yield "poll_latency_ms_max", result["latency_max_ms"], "ms"
    yield "polls_answered", result["polls"] - len(result["poll_errors"]), "requests"
    yield "polls_unanswered", len(result["poll_errors"]), "requests"
    for error in sorted(set(e[:100] for e in result["poll_errors"]))[:5]:
        print("#   unanswered: %s" % error)
    yield "idle_sockets_cut_off", result["idle_cut_by_box"], "connections"
    yield "rounds_played", result["rounds"], "rounds"
    yield "games_played", result["games"], "games"
    for name in ("heap_growth_kb_per_hour", "heap_trend_all_samples_kb_per_hour"):
        trend = result[name]
        yield name, None if trend is None else round(trend, 1), "KB/h"
    growth = result["lobby_heap_after"] - result["lobby_heap_before"]
    yield "lobby_heap_growth_kb", round(growth / 1024, 2), "KB"
