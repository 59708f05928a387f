# The host board: the simulator's and the tests' target, run under the MicroPython unix port.
#
# Same small API as boards/pico_w.py: display (FrameBuffer + show()), buttons, optional buzzer,
# radio, storage folder, clock, watchdog, TCP connection gate. Here the display keeps its frames,
# buttons are pressed by code (or the /sim page), the buzzer is recorded, storage is a folder,
# and at most 5 TCP connections are served at once (a 6th waits), as lwIP allows on a Pico W.
# Settings come from environment variables so that tests can run several boxes side by side.
#
# TIDEBOX_PACE_MS=N runs the box at a Pico W's pace instead of a computer's: each answer built by
# the web server costs N ms (what a request costs on the chip: make bench-pico and make bench-rp2040,
# host_tools/rp2040/README.md), each connection N/8 ms (an idle poll is ~5 ms) and each frame sent to the
# panel N/2 ms (1 KB over I2C at 400 kHz is ~23 ms). The time is spent blocking, as the board's
# one CPU is: the button loop and the other connections wait meanwhile. The simulator's own /sim
# routes (the tests' probes) are not paced. TIDEBOX_SAVE_MS=N (by default N/2 of the pace) makes
# each save to flash spend N ms between writing its temporary file and the rename that commits it,
# as erasing and programming the flash's sectors does on the board (a 4 KB sector erase is ~45 ms).
# TIDEBOX_NO_ROOM_TO_DRAW=1: no frame ever finds memory, after a reboot too (a shortage that a fresh
# heap does not mend, for the tests).
import os
import sys
import time

import framebuf
from micropython import const
from tidebox.buttons import DEBOUNCE_MS, HELD_READ_MS
from tidebox.gate import TCP_LIMIT, ConnectionGate, shipped_gate

NAME = "host"
WIDTH = const(128)
HEIGHT = const(64)
BUTTONS = ("A", "B", "C")  # left to right under the screen
RESET_EXIT = 75  # the exit code of a board reset (the watchdog, a crash of main)
SOFT_RESET_EXIT = 76  # ... of the box restarting itself (Board.restart)
_UP = (False, False, False)  # Buttons.read() when nothing is pressed: the same tuple, nothing allocated


def _env(name, default):
    value = os.getenv(name)
    return default if value is None or value == "" else value


class Display(framebuf.FrameBuffer):
    """A 128x64 1-bit frame buffer laid out like the SSD1306's (MONO_VLSB)."""

    def __init__(self):
        self.width = WIDTH
        self.height = HEIGHT
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.frame = bytearray(self.buffer)  # what the panel shows since the last show()
        self.frames = 0
        self.inverted = False
        self.inverts = 0
        self.level = 255
        self.on = True
        self.pace_ms = 0  # blocking ms per show() (TIDEBOX_PACE_MS)
        self.fail_when = None  # a test's fault (host_sim.py): show() fails the first time it is true
        self.never_room = False  # ... or every time, in every interpreter (TIDEBOX_NO_ROOM_TO_DRAW)

    def show(self):
        if self.never_room or self.fail_when is not None and self.fail_when():  # a test's fault
            self.fail_when = None
            raise MemoryError("injected: no room to draw this frame")
        if self.pace_ms:
            time.sleep_ms(self.pace_ms)  # the I2C transfer holds the CPU on the board
        self.frame[:] = self.buffer  # copied in place: a new 1 KB block per frame would fragment the heap
        self.frames += 1

    def invert(self, value):
        self.inverted = bool(value)
        self.inverts += 1  # each call is an I2C write on the board: tests count them

    def contrast(self, value):
        self.level = value

    def poweroff(self):
        self.on = False

    def poweron(self):
        self.on = True

    def lit(self, x, y):
        """Is pixel (x, y) lit on the panel as last shown (inversion applied)?"""
        on = (self.frame[(y >> 3) * WIDTH + x] >> (y & 7)) & 1
        return bool(on) != self.inverted


class Clock:
    """Milliseconds; tests may advance() it to skip a countdown without waiting, and hold() it: a
    held clock stands still (no wall-clock time passes on the board) and moves only by advance()
    and by the presses of the host's buttons (Buttons.read), so a figure read off it is exact."""

    def __init__(self):
        self.offset = 0
        self.held = None  # the tick the clock stands at while held

    def ticks_ms(self):
        if self.held is not None:
            return self.held
        return time.ticks_add(time.ticks_ms(), self.offset)

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def advance(self, ms):
        if self.held is not None:
            self.held = time.ticks_add(self.held, ms)
        else:
            self.offset += ms

    def hold(self, on):
        """Stop the clock where it is (on) or let it run on from there (off)."""
        if on and self.held is None:
            self.held = self.ticks_ms()
        elif not on and self.held is not None:
            self.offset = time.ticks_diff(self.held, time.ticks_ms())
            self.held = None

    def step(self, ms):
        """A held clock moves on by ms (a button read's share of a press); a running one is not touched."""
        if self.held is not None:
            self.held = time.ticks_add(self.held, ms)


class Buttons:
    """Three buttons, pressed by code: press("A", 80) holds A down for 80 ms of board time.

    The hold starts when the firmware first reads the button, not when press() is called, and
    lasts at least MIN_READS reads, so a busy host (a slow CI machine) never loses a press that a
    person's finger would have made.

    While the clock is held (Clock.hold), each read during a press moves it on by READ_MS, and so do
    the reads after the release until the firmware's debouncer has seen it settle (SETTLE_READS,
    the release read included): the press is handled at a known board time and the clock then
    stands still again, so what the press changed (a countdown's +15 s) reads exactly.

    A press of a button just released waits until the debouncer has seen that release settle
    (QUIET_READS reads): pressed again sooner, the two would be one hold to the firmware, as a
    release shorter than the debounce time is contact bounce. (A long press is handled while
    held, so the next press is often sent the moment it is released.)
    """

    MIN_READS = 4
    READ_MS = 10  # a held clock's step per read during a press: the firmware's loop period
    SETTLE_READS = (DEBOUNCE_MS + READ_MS - 1) // READ_MS
    # The release settles within these reads even at the loop's fastest (HELD_READ_MS) on a running
    # clock; the next press may begin after them.
    QUIET_READS = (DEBOUNCE_MS + HELD_READ_MS - 1) // HELD_READ_MS + 2

    def __init__(self, clock):
        self.clock = clock
        self.queued = {}  # name -> hold ms, waiting to be seen
        self.held = {}  # name -> tick when it is released
        self.reads = {}  # name -> reads while held
        self.fault = None  # tests inject "raise" (a crashing task) or "hang" (a stuck main loop)
        self.faults = 0  # faults raised so far: each crash log entry names its number
        self.squeeze = None  # press(squeeze=...): called at each read while the press lasts (Board.squeeze)
        self.squeeze_reads = 0
        self.arm = None  # press(arm=...): called when the press begins
        self.settling = 0  # reads left after a release that still move a held clock
        self.quiet = {}  # name -> reads left until a new press of it may begin (QUIET_READS)

    def press(self, name, hold_ms=80, squeeze=None, arm=None):
        """Hold `name` down for hold_ms; `squeeze()`, when given, runs at every read of the buttons
        from the first read of the press until it is over (the tests' way to leave the press short
        of memory: whatever the box frees meanwhile is taken again before the press is handled);
        `arm()` runs once, when the press begins (e.g. the next frame drawn fails: host_sim.py)."""
        if name not in BUTTONS:
            raise ValueError("no button " + str(name))
        self.queued[name] = hold_ms
        self.squeeze = squeeze
        self.squeeze_reads = 8
        self.arm = arm

    def read(self):
        """(A, B, C) levels, True while held down."""
        if self.fault == "raise":
            self.fault = None
            self.faults += 1
            raise RuntimeError("injected fault %d: the button task crashed" % self.faults)
        while self.fault == "hang":
            pass  # a stuck main loop: only the watchdog gets the box going again
        quiet = self.quiet
        if quiet:  # (nearly always empty: the common read allocates nothing)
            for name in BUTTONS:
                if name in quiet:
                    quiet[name] -= 1
                    if quiet[name] <= 0:
                        del quiet[name]
        if not self.held and not self.may_begin():
            if self.settling:
                self.settling -= 1
                self.clock.step(self.READ_MS)
            self.squeezing()
            return _UP
        now = self.clock.ticks_ms()
        self.clock.step(self.READ_MS)
        levels = []
        for name in BUTTONS:
            until = self.held.get(name)
            if until is None and name in self.queued and name not in quiet:
                until = time.ticks_add(now, self.queued.pop(name))
                self.held[name] = until
                self.reads[name] = 0
                if self.arm is not None:  # the press is handled in a moment (most act once down)
                    arm, self.arm = self.arm, None
                    arm()
            down = until is not None and (
                time.ticks_diff(until, now) > 0 or self.reads[name] < self.MIN_READS
            )
            if down:
                self.reads[name] += 1
            elif until is not None:
                del self.held[name]
                quiet[name] = self.QUIET_READS
                self.settling = self.SETTLE_READS - 1  # this read was the first of them
            levels.append(down)
        levels = tuple(levels)
        self.squeezing()  # after the read's own allocations: the firmware's are what meet the squeeze
        return levels

    def may_begin(self):
        """Is a queued press free to begin (its button not just released)?"""
        if self.queued:
            for name in BUTTONS:
                if name in self.queued and name not in self.quiet:
                    return True
        return False

    def squeezing(self):
        if self.squeeze is not None:
            if self.queued or self.held:
                self.squeeze_reads = 8  # ... and on past the release, until the press is handled
            self.squeeze_reads -= 1
            squeeze = self.squeeze
            if self.squeeze_reads <= 0:
                self.squeeze = None
            squeeze()


class Buzzer:
    """Records every tone: (tick, frequency Hz, duration ms)."""

    def __init__(self, clock):
        self.clock = clock
        self.tones = []

    def tone(self, freq, ms):
        self.tones.append((self.clock.ticks_ms(), freq, ms))
        if len(self.tones) > 50:
            self.tones.pop(0)


class Radio:
    """No real radio here: remembers the hotspot settings the firmware asked for."""

    def __init__(self):
        self.ssid = None
        self.password = None
        self.ip = _env("TIDEBOX_IP", "127.0.0.1")

    def start_hotspot(self, ssid, password):
        self.ssid = ssid
        self.password = password
        return self.ip


class Watchdog:
    """Counts feeds. With TIDEBOX_WATCHDOG_MS set, a thread watches the feeds (in real time, not
    the board clock that tests may advance) and, like the RP2040's watchdog, ends the process at
    once when the main loop stops feeding it: kill -9 from a child shell, no clean-up."""

    def __init__(self, clock):
        self.clock = clock
        self.feeds = 0
        self.timeout = int(_env("TIDEBOX_WATCHDOG_MS", "0"))
        self.last = time.ticks_ms()

    def start(self, timeout_ms):
        self.last = time.ticks_ms()
        if self.timeout:
            import _thread

            _thread.start_new_thread(self._watch, ())

    def feed(self):
        self.feeds += 1
        self.last = time.ticks_ms()

    def _watch(self):
        while True:
            time.sleep_ms(100)
            if time.ticks_diff(time.ticks_ms(), self.last) > self.timeout:
                os.system("kill -9 $PPID")  # $PPID of the shell is this interpreter


class Board:
    name = NAME

    def __init__(self):
        self.clock = Clock()
        self.display = Display()
        self.buttons = Buttons(self.clock)
        self.buzzer = None if _env("TIDEBOX_BUZZER", "1") == "0" else Buzzer(self.clock)
        self.radio = Radio()
        self.watchdog = Watchdog(self.clock)
        self.crashed_tasks = 0  # tasks restarted after a crash (tidebox/running.py, keep_running)
        self.panel = None  # the box's Panel, set by main.py: the simulator's pages show and press it
        self.ballast = None  # squeeze(): what holds the heap full (host_heap.py)
        self.boot = int(_env("TIDEBOX_BOOT", "0"))  # interpreters run before this one
        # As lwIP serves them on Tidebox's firmware: phones wait for a change, and a connection past
        # the limit waits; TIDEBOX_LWIP=stock: as on stock MicroPython (5, and phones poll).
        if _env("TIDEBOX_LWIP", "tidebox") == "stock":
            self.tcp_gate = ConnectionGate(TCP_LIMIT, wait=True)
        else:
            self.tcp_gate = shipped_gate()
            self.tcp_gate.hold_ms = int(_env("TIDEBOX_HOLD_MS", str(self.tcp_gate.hold_ms)))
        self.storage_dir = _env("TIDEBOX_STATE_DIR", "sim_state")
        self.http_port = int(_env("TIDEBOX_PORT", "8080"))
        self.http_host = _env("TIDEBOX_HOST", "127.0.0.1")
        self.dns_port = int(_env("TIDEBOX_DNS_PORT", "5353"))  # 53 needs root on a computer
        self.uid = _env("TIDEBOX_UID", "e6614103e7452d2f")
        self.pace_ms = int(_env("TIDEBOX_PACE_MS", "0"))
        self.display.pace_ms = self.pace_ms // 2
        self.display.never_room = _env("TIDEBOX_NO_ROOM_TO_DRAW", "0") == "1"
        self.save_ms = int(_env("TIDEBOX_SAVE_MS", str(self.pace_ms // 2)))
        if self.save_ms:
            import host_pace  # only a paced board holds its code

            host_pace.pace_saves(self.save_ms)
        try:
            os.mkdir(self.storage_dir)
        except OSError:
            pass  # already there

    def unique_id(self):
        """The board's unique id as hex (the Pico's flash id); names the hotspot."""
        return self.uid

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def ticks_diff(self, a, b):
        return self.clock.ticks_diff(a, b)

    def urandom(self, n):
        return os.urandom(n)

    def page_url(self):
        return "http://localhost:%d/" % self.http_port

    def reset(self):
        """A board reset: on the host the process ends; the test or `make sim` starts it again."""
        sys.exit(RESET_EXIT)

    def squeeze(self, leave):
        """The heap held full but for about `leave` bytes (host_heap.py, imported only now)."""
        import host_heap

        host_heap.squeeze(self, leave)

    def restart(self):
        """The box restarts its own interpreter (tidebox/restart.py), as a Pico's soft reset does: on
        the host the process ends with SOFT_RESET_EXIT and whoever runs it (`make sim`, the tests'
        BoxProcess) starts it again at once, on the same port and state folder."""
        sys.exit(SOFT_RESET_EXIT)

    def add_routes(self, app, box):
        """The simulator's own pages (/sim, /sim/oled.png, /sim/press): only on the host board."""
        import host_sim

        host_sim.add_routes(app, box, self)
        if self.pace_ms:
            import host_pace

            host_pace.pace(app, self.pace_ms)


def make_board():
    return Board()
