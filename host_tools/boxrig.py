"""Runs the real firmware under the MicroPython unix port on boards/host.py, for end-to-end tests.

A BoxProcess is one box: its own port and state folder. Tests press its buttons through the
simulator's /sim/press route (real debouncing, real short/long presses), talk to its phone API,
and can kill it with SIGKILL at any moment and start it again on the same state folder.
"""

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

import build



def port_word_bits():
    """32 or 64: the word of the MicroPython port the boxes run on (build.micropython()); asked once,
    as WORD_BITS."""
    try:
        probe = "import sys; print(64 if sys.maxsize >> 32 else 32)"  # (no int.bit_length on 32 bits)
        out = subprocess.run([build.micropython(), "-c", probe],
                             capture_output=True, text=True, timeout=30, check=True).stdout
        return int(out.strip())
    except (OSError, ValueError, subprocess.SubprocessError):
        return 64  # no interpreter yet: the venv's port is 64-bit


def pico_heap():
    """The heap that leaves the firmware the room a Pico W's leaves it, on the port the boxes run on.
    On a 32-bit port, the Pico W's own pool (192,384 bytes of a 196,896-byte GC heap, firmware/MEMORY.md):
    192 KB. On the 64-bit port objects are bigger: each game's smallest heap is 1.39-1.43 times its
    32-bit figure (firmware/MEMORY.md), so the Pico W's pool is 267-275 KB here; 256 KB leaves the
    firmware a little less than the board does (its boot takes a few KB more). The memory proof
    (memory_proof.PROOF_HEAP_KB) runs at the same; the tightest budget is the 32-bit build's ROMFS
    proof at 104 KB (tests/test_memory.py)."""
    return "192K" if WORD_BITS == 32 else "256K"


WORD_BITS = port_word_bits()
# The heap of every box the tests start, the simulator's too.
BOX_HEAP = pico_heap()
SHORT_MS = 80
LONG_MS = 900  # past the firmware's 700 ms long-press threshold
# A Pico W's pace (boards/host.py, TIDEBOX_PACE_MS): a full answer ~40 ms, a poll ~5 ms, a frame
# ~20 ms. The browser tests run their boxes at it; TIDEBOX_PACE_MS in the environment overrides
# it for every box (0: a computer's pace).
BOARD_PACE_MS = 40
# What a box's firmware runs on: the MicroPython unix port (the Pico's interpreter), or CPython with
# the Raspberry Pi board's compatibility layer and transport (boards/cpython_main.py), on the same
# host board. Tests parametrised by INTERPRETERS make the same checks on both.
INTERPRETERS = ("micropython", "cpython")
CPYTHON_MAIN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "boards",
                            "cpython_main.py")
SOFT_RESET_EXIT = 76  # boards/host.py: the box restarted itself (tidebox/restart.py); started again


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, what, timeout=5):
    """Polls condition() until it is true; fails with `what` if it never becomes true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting until " + what)


class Background:
    """Worker threads that run while a `with` block lasts. A subclass calls Background.__init__,
    then fills self.threads; each thread watches self.stop and ends soon after it is set, which the
    end of the block does (joining each for at most join_s seconds)."""

    join_s = 5

    def __init__(self):
        self.stop = threading.Event()
        self.threads = []

    def __enter__(self):
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join(self.join_s)


BUSY_PATIENCE_S = 30  # retry_busy: how long a 503 "try again" is asked again


class ApiError(Exception):
    def __init__(self, status, body, request=""):
        super().__init__("%s %s%s" % (status, body, " (%s)" % request if request else ""))
        self.status = status
        self.body = body


class BoxProcess:
    def __init__(self, tree, state_dir, port=None, heap=BOX_HEAP, env=None, script="main.py", pace_ms=0,
                 interpreter="micropython"):
        if interpreter not in INTERPRETERS:
            raise ValueError("no interpreter " + str(interpreter))
        self.interpreter = interpreter  # CPython has no heap size: `heap` is MicroPython's only
        self.tree = tree
        self.script = script  # what the interpreter runs (romfs.py's boot script mounts an image first)
        self.state_dir = str(state_dir)
        self.port = port or free_port()
        self.dns_port = free_port(socket.SOCK_DGRAM)  # each box its own captive DNS port
        self.heap = heap
        self.extra_env = dict(env or {})
        if pace_ms and "TIDEBOX_PACE_MS" not in os.environ:
            self.extra_env.setdefault("TIDEBOX_PACE_MS", str(pace_ms))
        self.proc = None
        self.log = None
        self.boots = 0  # interpreters started so far (each soft reset starts one more)
        self.soft_resets = []  # (monotonic time the box restarted itself, seconds until it listened)
        # A request answered 503 ("nothing changed, try again") is sent again, and a GET cut short
        # or reset asked again, as a page does (the evening's boxes); cut_short counts them (the box's
        # heap ran out after it had begun to answer, or it was restarting: it can only close the
        # connection).
        self.retry_busy = False
        self.cut_short = 0
        self.stopping = False  # killed or stopped: a soft reset is not followed by a new start
        self.restarting = False
        self.listening = True  # False from a soft reset until the new interpreter listens
        self.watcher = None

    # ------------------------------------------------------------ process

    def _spawn(self):
        env = build.micropython_env(self.tree, self.extra_env)
        env["TIDEBOX_PORT"] = str(self.port)
        env["TIDEBOX_DNS_PORT"] = str(self.dns_port)
        env["TIDEBOX_STATE_DIR"] = self.state_dir
        env["TIDEBOX_BOOT"] = str(self.boots)
        self.boots += 1
        if self.interpreter == "cpython":
            command = [sys.executable, CPYTHON_MAIN, "--board", "host", self.script]
        else:
            command = [build.micropython(), "-X", "heapsize=" + self.heap, self.script]
        return subprocess.Popen(
            command,
            cwd=str(self.tree), env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )

    def _watch(self, proc):
        """A box that restarts itself (exit SOFT_RESET_EXIT) is started again at once, as a Pico's
        soft reset runs main.py again; the time until it listens again is kept in soft_resets."""
        while proc.wait() == SOFT_RESET_EXIT and not self.stopping:
            self.listening = False
            self.restarting = True
            began = time.monotonic()
            proc = self.proc = self._spawn()
            self.restarting = False
            if self.stopping:  # killed meanwhile
                proc.send_signal(signal.SIGKILL)
                proc.wait(5)
                return
            while proc.poll() is None and not self.stopping:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.005)
            self.soft_resets.append((began, time.monotonic() - began))
            self.listening = True

    def start(self, timeout=15):
        os.makedirs(self.state_dir, exist_ok=True)
        self.log = open(os.path.join(self.state_dir, "..", "box-%d.log" % self.port), "ab")  # noqa: SIM115
        self.stopping = False
        self.proc = self._spawn()
        self.watcher = threading.Thread(target=self._watch, args=(self.proc,), daemon=True)
        self.watcher.start()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():  # (a box that restarts itself at once is started again: _watch)
                raise RuntimeError("the box exited with %s; see %s" % (self.proc.returncode, self.log.name))
            try:
                self.status()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the box did not start listening")

    def kill(self):
        """Pull the plug: SIGKILL, no chance to clean up."""
        self.stopping = True
        if self.watcher is not None:
            if self.proc and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
            self.watcher.join(10)  # a soft reset under way has started its interpreter by then
            self.watcher = None
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self):
        self.kill()
        if self.log:
            self.log.close()

    def alive(self):
        """Running, or restarting itself (a soft reset: it listens again in a moment)."""
        if self.proc is None or self.stopping:
            return False
        return self.restarting or self.proc.poll() is None or self.proc.returncode == SOFT_RESET_EXIT

    # ------------------------------------------------------------ HTTP

    def request(self, method, path, body=None, token=None, headers=None, raw_body=None, timeout=10):
        """One HTTP request. A GET that meets the box restarting itself (a soft reset: it listens
        again in a moment) is sent again once it listens, as a phone's page does."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._request(method, path, body, token, headers, raw_body, timeout)
            except (OSError, http.client.HTTPException) as exc:
                if method != "GET" or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)  # long enough for an interpreter on its way out to be gone
                if not self.alive():
                    raise
                if self.listening and self.proc.poll() is None:
                    # An answer cut short, or a connection the box reset unanswered (its heap ran out
                    # mid-answer, or it is on its way to restarting itself and not yet seen to be):
                    # asked again, as a page does, by the evening's boxes (retry_busy).
                    if not (self.retry_busy and isinstance(exc, (http.client.IncompleteRead,
                                                                   ConnectionResetError))):
                        raise  # the box is up: the failure is the request's own
                    self.cut_short += 1
                while not self.listening and self.alive() and time.monotonic() < deadline:
                    time.sleep(0.02)
                # A phone's page asks again at its next poll, up to a second later: phones do not all
                # come back at the same instant.
                time.sleep(random.uniform(0, 1))

    def _request(self, method, path, body, token, headers, raw_body, timeout):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        hdrs = dict(headers or {})
        data = raw_body
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        if token:
            hdrs["X-Seat-Token"] = token
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        payload = resp.read()
        conn.close()
        return resp.status, dict(resp.getheaders()), payload

    def api(self, method, path, body=None, token=None):
        # retry_busy: a request answered 503 ("nothing changed, try again") is sent again, as a page
        # polls again and a player taps again, for as long as a table would wait: long enough for the
        # box to restart itself when the 503s go on (tidebox/restart.py) and come back.
        deadline = time.monotonic() + (BUSY_PATIENCE_S if self.retry_busy else 0)
        while True:
            status, _, payload = self.request(method, path, body, token)
            data = json.loads(payload) if payload else None
            if status != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.25)
        if status >= 400:
            raise ApiError(status, data, "%s %s" % (method, path))
        return data

    def status(self, timeout=5, query=""):
        """The simulator's status. A 503 (the box had no heap to read the request just then: "try
        again", as a phone is told) is asked again, as a phone's poll would be, and so is a box that
        is restarting itself (it listens again in a moment)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.api("GET", "/sim/status" + query)
            except ApiError as e:
                if e.status != 503 or time.monotonic() > deadline:
                    raise
            except (OSError, http.client.HTTPException):
                if not self.alive() or time.monotonic() > deadline:
                    raise
            time.sleep(0.05)

    def state(self, token=None):
        return self.api("GET", "/api/state", token=token)

    def join(self, name):
        return self.api("POST", "/api/join", {"name": name})

    def move(self, token, name, args=None, seq=None):
        body = {"move": name, "args": args or {}}
        if seq is not None:
            body["seq"] = seq
        return self.api("POST", "/api/move", body, token)

    def allocate(self, token, allocation, ready=True):
        return self.move(token, "allocate", {"allocation": allocation, "ready": ready})

    def oled_png(self):
        status, _, payload = self.request("GET", "/sim/oled.png")
        assert status == 200
        return payload

    # ------------------------------------------------------------ buttons and time

    def press(self, button, long=False, timeout=15, squeeze=None, fault=None):
        """Press a button as a person would and wait until the box has handled it and the press is
        over (released and settled: the box acts on most presses as soon as they are down, and a
        held clock moves on with each read until the release has settled, tidebox/buttons.py and
        boards/host.py), so that what the test reads next is what the press left. A press that makes
        the box restart itself (tidebox/restart.py) returns the screen it comes back to. `squeeze`: the
        press finds only that many bytes of heap free (boards/host.py, Board.squeeze); `fault="draw"`:
        the first frame drawn after the press is handled finds no memory (host_sim.py). `timeout` is
        how long to wait for it: long enough for a box at a Pico W's pace on a busy machine."""
        status = self.status()
        deadline = time.monotonic() + timeout
        while status["buttons_down"] and time.monotonic() < deadline:
            time.sleep(0.02)
            status = self.status()
        before, boot = status["presses"], status["boot"]
        press = {"button": button, "ms": LONG_MS if long else SHORT_MS}
        if squeeze is not None:
            press["squeeze"] = squeeze
        if fault is not None:
            press["fault"] = fault
        self.api("POST", "/sim/press", press)
        if squeeze is not None or fault is not None:
            time.sleep(0.5)  # no request of ours meanwhile: the box's own step meets the fault first
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.status(timeout=15)
            if status["boot"] != boot:  # the press restarted the box: its screen once it is back up
                return self.settled_screen(status)
            if status["presses"] > before and not status["buttons_down"]:
                return status["screen"]  # the screen once the press had been handled and was over
            time.sleep(0.02)
        raise AssertionError("button %s was not handled (pressed at %d presses)\n%s" % (
            button, before, self.diagnosis(status)))

    def diagnosis(self, status):
        """What a failing test should show of the box: its status, its crash log, its output's end."""
        lines = ["status: %s" % json.dumps(status, sort_keys=True)]
        crash = os.path.join(self.state_dir, "crash.log")
        if os.path.exists(crash):
            with open(crash) as f:
                lines.append("crash.log:\n" + f.read()[-3000:])
        if self.log:
            self.log.flush()
            with open(self.log.name, "rb") as f:
                lines.append("output (end):\n" + f.read()[-3000:].decode("utf-8", "replace"))
        try:  # what else the machine was running (a busy machine is the usual suspect)
            ps = subprocess.run(["ps", "-eo", "pcpu,etime,args", "--sort=-pcpu"], capture_output=True,
                                text=True, timeout=5).stdout
            lines.append("busiest processes:\n" + "\n".join(line[:160] for line in ps.splitlines()[:12]))
        except (OSError, subprocess.SubprocessError):
            pass
        return "\n".join(lines)

    def settled_screen(self, status, timeout=5):
        """The screen of a box just started, once its splash (if any) has given way."""
        deadline = time.monotonic() + timeout
        while status["screen"] == "splash" and time.monotonic() < deadline:
            time.sleep(0.05)
            status = self.status()
        return status["screen"]

    def screen(self):
        return self.status()["screen"]

    def choose(self, game="token_tide", timeout=5):
        """After the splash: pick `game` on the box's game menu (A moves down, C picks)."""
        self.wait_screen("choose", timeout)
        if str(build.FIRMWARE) not in sys.path:
            sys.path.append(str(build.FIRMWARE))  # the firmware's own list of games
        from tidebox.games import GAMES

        for _ in range([g for g, _ in GAMES].index(game)):
            self.press("A")
        return self.press("C")

    def wait_screen(self, name, timeout=5):
        wait_until(lambda: self.screen() == name, "the screen is " + name, timeout)

    def advance(self, ms):
        self.api("POST", "/sim/advance", {"ms": ms})

    def hold_clock(self, hold=True):
        """Stop the box's clock (it then moves only by advance() and by presses, each press by a
        fixed board time ending when the box handles it) or let it run on."""
        self.api("POST", "/sim/clock", {"hold": hold})
