# The Raspberry Pi Pico W and Pico 2 W board: the hardware behind the board API of boards/host.py.
#
# boards/pico_w.py and boards/pico2_w.py name the board and call make_board() here; the bundle
# installs one of them as board.mpy and this module as pico_common.mpy. Wiring (boards/README.md):
#   OLED 128x64 on I2C0: SDA GP4 (header pin 6), SCL GP5 (pin 7), VCC 3V3 OUT (pin 36), GND (pin 8)
#   buttons A, B, C: GP10, GP11, GP12 (pins 14, 15, 16), each to GND (pin 13); internal pull-ups
#   buzzer (optional): GP15 (pin 20), driven with PWM; GND (pin 18)
# GP23, GP24, GP25 and GP29 belong to the CYW43 Wi-Fi chip and are not on the header.
#
# A settings.json next to main.py changes any of this per box (keys as in DEFAULTS below); without
# one, the defaults hold. Debouncing is the firmware's job: buttons.read() returns raw levels.
import binascii
import json
import os
import sys
import time

import asyncio
import machine
import network
from micropython import const
from tidebox.buttons import DEBOUNCE_MS
from tidebox.gate import pico_gate

WIDTH = const(128)  # SSD1306 0.96" and SH1106 1.3" panels are both 128 x 64
HEIGHT = const(64)
PAGES = const(8)  # the panel's RAM: 8 pages of 8 pixel rows

_SDA = const(4)  # GP4, header pin 6: I2C0 SDA
_SCL = const(5)  # GP5, header pin 7: I2C0 SCL
_OLED_ADDR = const(0x3C)  # 7-bit address of most 128x64 modules; 0x3D with the address jumper moved
_I2C_HZ = const(400_000)  # fast mode: a full 1 KB frame takes about 23 ms
_BUTTON_A = const(10)  # GP10, header pin 14
_BUTTON_B = const(11)  # GP11, header pin 15
_BUTTON_C = const(12)  # GP12, header pin 16
_BUZZER = const(15)  # GP15, header pin 20 (PWM slice 7, channel B)
# Missed presses (see Buttons): one the reads saw down for _SEEN_MS is the debouncer's (a little under
# its PRESS_MS, as the loop reads the clock just before the buttons: never a press twice). A replay,
# and the release after it, last at least _REPLAY_MIN_MS, so that the debouncer's reads see each for
# DEBOUNCE_MS.
_SEEN_MS = const(13)
_REPLAY_MIN_MS = const(40)
_BOUNCE_MS = const(10)  # a release and a press closer than this are a switch's contact bounce

_HALF_DUTY = const(32768)  # duty_u16 for a square wave: the loudest a piezo gets
_MIN_HZ = const(20)  # rp2 PWM reaches down to about 8 Hz; below 20 Hz a piezo only clicks
_MAX_HZ = const(20_000)  # beyond hearing
_WDT_MAX_MS = const(8388)  # rp2 limit: a 24-bit counter that counts down twice per microsecond
_AP_WAIT_MS = const(10_000)  # the AP is usually up in well under a second
_AP_POLL_MS = const(50)
_WPA2_AES_PSK = const(0x00400004)  # CYW43_AUTH_WPA2_AES_PSK: WPA2 flag 0x00400000 | AES 0x0004
_HTTP_PORT = const(80)
_DNS_PORT = const(53)

SETTINGS_FILE = "/settings.json"
STORAGE_DIR = "/data"
AP_IP = "192.168.4.1"  # the CYW43 AP's default address (and its DHCP server's DNS answer)
# CYW43 pins, not on the header; a setting that names one of them is refused.
_RESERVED_PINS = (23, 24, 25, 29)

# Per-box settings: settings.json holds any of these keys. Pins are GP numbers.
DEFAULTS = {
    "display": "ssd1306",  # "sh1106" for a 1.3" SH1106 panel (driver: mip install github:robert-hh/SH1106)
    "i2c_address": _OLED_ADDR,
    "sda": _SDA,  # an even GP; scl is the next one (GP4/GP5 is I2C0, GP2/GP3 or GP6/GP7 is I2C1)
    "scl": _SCL,
    "flip": False,  # True turns the picture 180 degrees (a panel mounted upside down)
    "buttons": [_BUTTON_A, _BUTTON_B, _BUTTON_C],  # A, B, C, left to right under the screen
    "buzzer": _BUZZER,  # null: no buzzer fitted
    "country": "XX",  # Wi-Fi regulatory domain: "XX" is worldwide-safe; "GB", "DE", "US", ... for yours
}


def load_settings(path=SETTINGS_FILE):
    """DEFAULTS overlaid with the settings file; a missing or broken file leaves the defaults."""
    settings = dict(DEFAULTS)
    try:
        with open(path) as f:
            given = json.load(f)
    except OSError:
        return settings  # no settings file: this box uses the defaults
    except ValueError as e:
        print("settings: %s is not valid JSON (%s); using the defaults" % (path, e))
        return settings
    if not isinstance(given, dict):
        print("settings: %s must hold a JSON object; using the defaults" % path)
        return settings
    for key in given:
        if key in settings:
            settings[key] = given[key]
        else:
            print("settings: unknown key %r ignored" % key)
    problem = _check(settings)
    if problem:
        print("settings: %s; using the defaults" % problem)
        return dict(DEFAULTS)
    return settings


def _check(settings):
    """What is wrong with the settings, or None."""
    if settings["display"] not in ("ssd1306", "sh1106"):
        return "display must be \"ssd1306\" or \"sh1106\""
    buttons = settings["buttons"]
    if not isinstance(buttons, list) or len(buttons) != 3:
        return "buttons must list three GP numbers (A, B, C)"
    pins = [settings["sda"], settings["scl"]] + buttons
    if settings["buzzer"] is not None:
        pins.append(settings["buzzer"])
    for pin in pins:
        if type(pin) is not int or not 0 <= pin <= 29 or pin in _RESERVED_PINS:
            return "%r is not a free GP pin" % (pin,)
    if len(set(pins)) != len(pins):
        return "a pin is used twice"
    if settings["sda"] & 1 or settings["scl"] != settings["sda"] + 1:
        return "sda must be an even GP and scl the next one"
    return None


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)


def _i2c(sda, scl):
    # GP0/1, GP4/5, GP8/9, ... are I2C0; GP2/3, GP6/7, GP10/11, ... are I2C1.
    return machine.I2C((sda >> 1) & 1, sda=machine.Pin(sda), scl=machine.Pin(scl), freq=_I2C_HZ)


def _find_address(i2c, address):
    """The configured address if a panel answers there, else the other usual one if that answers."""
    try:
        found = i2c.scan()
    except OSError:
        return address
    if address not in found:
        for other in (0x3C, 0x3D):  # the two addresses SSD1306/SH1106 modules are strapped to
            if other in found:
                print("display: nothing at 0x%02X, using the panel at 0x%02X" % (address, other))
                return other
        print("display: no panel answers on I2C (found %s); check SDA/SCL/VCC/GND" % found)
    return address


def make_display(settings):
    """The OLED as a framebuf.FrameBuffer with show(), invert(), contrast(), poweroff(), poweron()."""
    i2c = _i2c(settings["sda"], settings["scl"])
    address = _find_address(i2c, settings["i2c_address"])
    if settings["display"] == "sh1106":
        import sh1106

        class SH1106(sh1106.SH1106_I2C):
            # The driver sends only the pages its own drawing calls marked; the firmware may draw
            # in ways it does not track (blit of a QR code, direct buffer writes), so send all.
            def show(self, full_update=True):
                super().show(True)

        panel = SH1106(WIDTH, HEIGHT, i2c, addr=address, rotate=180 if settings["flip"] else 0)
        panel.buffer = panel.renderbuf  # the same name as the SSD1306 driver's frame buffer
        return panel
    import ssd1306

    class SSD1306_I2C(ssd1306.SSD1306_I2C):
        # A frame sends only the pages (rows of 8 pixels) from the first that changed since the
        # last frame to the last that did: at 400 kHz a page takes 2.9 ms, a whole frame 23 ms, and
        # a cursor moving down a list changes 2-4 of the 8. `sent` is a copy of what the panel's RAM
        # holds (1 KB); a frame with nothing changed sends nothing.
        sent = None

        def show(self):
            if self.sent is None:
                super().show()
                self.sent = bytearray(self.buffer)
                return
            new = memoryview(self.buffer)
            old = memoryview(self.sent)
            first = _first_change(new, old, 0, 1)
            if first < 0:
                return
            last = _first_change(new, old, PAGES - 1, -1)
            for cmd in (0x21, 0, WIDTH - 1, 0x22, first, last):  # columns, then pages, to write
                self.write_cmd(cmd)
            self.write_data(new[first * WIDTH:(last + 1) * WIDTH])
            old[first * WIDTH:(last + 1) * WIDTH] = new[first * WIDTH:(last + 1) * WIDTH]

    panel = SSD1306_I2C(WIDTH, HEIGHT, i2c, addr=address)
    if settings["flip"]:
        if hasattr(panel, "rotate"):
            panel.rotate(0)  # the driver's start-up orientation is rotate(1)
        else:
            print("display: this ssd1306 driver cannot flip; `mpremote mip install ssd1306` updates it")
    return panel


def _first_change(new, old, page, step):
    """The first page from `page` on, in steps of `step`, where the frames `new` and `old` differ; -1."""
    while 0 <= page < PAGES:
        if new[page * WIDTH:(page + 1) * WIDTH] != old[page * WIDTH:(page + 1) * WIDTH]:
            return page
        page += step
    return -1


class Buttons:
    """A, B, C to GND with the internal pull-ups: a pressed button reads 0. The RP2350's erratum E9
    (a pin with the internal pull-down can latch at about 2 V) concerns pull-downs only.

    The main loop reads the levels every 10 ms for the debouncer (tidebox/buttons.py), but a web
    answer can hold it up for longer than a quick tap lasts, and such a tap would be lost. So each
    pin also has an interrupt on both edges that notes when a press began and ended (a hard IRQ:
    exact times, nothing allocated). A press of at least DEBOUNCE_MS that the reads did not see
    down long enough for the debouncer is played back to it afterwards, for as long as it was held.

    Nearly every read finds nothing pressed and no edge since the last one: the interrupts count
    the edges, and such a read returns the same all-released levels without touching a pin (a full
    read costs ~0.3 ms on the RP2040). The methods keep their locals and stack within 11 words:
    a larger call frame is taken from the heap (objfun.c, VM_MAX_STATE_ON_STACK), a search of a
    fragmented heap on every call.
    """

    def __init__(self, pins, ticks_ms=None):
        self.ticks_ms = ticks_ms or time.ticks_ms  # tests pass a clock of their own
        self.pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in pins]
        count = len(self.pins)
        self.down_at = [None] * count  # press edge not yet dealt with by read() (set by the IRQ)
        self.up_at = [None] * count  # the release edge that ended it (set by the IRQ)
        self.seen_at = [None] * count  # the first read that saw the pin down
        self.seen = [False] * count  # the reads saw it down long enough: the debouncer has it
        self.replay_ms = [None] * count  # a missed press being played back: for how long ...
        self.replay_from = [None] * count  # ... and since which read
        self.gap = [False] * count  # a replay is followed by a release as long as the shortest replay
        self.gap_from = [None] * count
        self.levels = [False] * count  # what read() returns: the same list, refilled each time
        self.edges = [0]  # edges seen by the interrupts, all pins (a small int: never heap)
        self.edge_at = [0] * count  # when each pin last changed (ms, set by the IRQ): the debouncer
        # times a press from it (tidebox/buttons.py), not from the read that found it up to 10 ms later
        self.read_edges = -1  # self.edges[0] when the last full read began
        # Set by every edge: a panel loop resting between changes (tidebox/running.py) wakes at once
        self.wake = asyncio.ThreadSafeFlag()
        self.quiet = False  # that read found nothing held, pending or being played back
        both = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        for i, pin in enumerate(self.pins):
            pin.irq(handler=self._edge_handler(i), trigger=both, hard=True)

    def _edge_handler(self, i):
        # Made once per pin, here: a hard IRQ handler must not allocate, and the heap is locked
        # while it runs. Calling a closure copies its cells and its argument into one array, on the
        # C stack only while they are at most five (py/objclosure.c), else on the heap: a closure
        # over six names raised MemoryError on the first edge, and MicroPython then turned the
        # pin's interrupt off. So this one closes over `self` and `i` alone.
        def edge(_):
            self.edges[0] += 1
            self.wake.set()  # (sets a flag: allocates nothing)
            now = self.ticks_ms()
            self.edge_at[i] = now
            down_at = self.down_at
            up_at = self.up_at
            if self.pins[i].value() != 0:
                if down_at[i] is not None:
                    up_at[i] = now
            elif down_at[i] is None:
                down_at[i] = now
            elif up_at[i] is not None:  # pressed again before read() dealt with the last press
                if time.ticks_diff(now, up_at[i]) < _BOUNCE_MS:
                    up_at[i] = None  # contact bounce while being released: still the same press
                elif time.ticks_diff(up_at[i], down_at[i]) < DEBOUNCE_MS:
                    down_at[i] = now  # the last one was a graze: this is a new press
                    up_at[i] = None
                # else: a whole press is waiting to be played back; a second one in the same stall is lost

        return edge

    def read(self):
        """[A, B, C] levels, True while held down (or while a missed press is played back). The same
        list each time, refilled: read every 10 ms, it allocates nothing."""
        edges = self.edges[0]
        if edges == self.read_edges and self.quiet:
            return self.levels  # no edge since a read that found everything released and settled
        now = self.ticks_ms()
        levels = self.levels
        i = 0
        while i < len(levels):
            levels[i] = self._level(i, now)
            i += 1
        self.read_edges = edges
        self.quiet = (True not in levels and True not in self.gap and self.down_at.count(None) == i
                      and self.seen_at.count(None) == i and self.replay_ms.count(None) == i)
        return levels

    def _level(self, i, now):
        if self.replay_ms[i] is not None or self.gap[i]:
            return self._playback(i, now)
        state = machine.disable_irq()
        down = self.pins[i].value() == 0
        held = None  # how long the press the interrupts saw lasted, once it has ended
        if not down and self.up_at[i] is not None:
            held = time.ticks_diff(self.up_at[i], self.down_at[i])
            self.down_at[i] = None
            self.up_at[i] = None
        machine.enable_irq(state)
        if down:
            return self._down(i, now)
        return self._up(i, now, held)

    def _playback(self, i, now):
        """A missed press being played back (True), then the release after it (False)."""
        if self.replay_ms[i] is not None:
            start = self.replay_from[i]
            if start is None:
                self.replay_from[i] = now
            elif time.ticks_diff(now, start) >= self.replay_ms[i]:
                self.replay_ms[i] = None  # this read is the last one that plays it ...
                self.replay_from[i] = None
                self.gap[i] = True  # ... and a release follows, so that the next press is one of its own
                self.gap_from[i] = None
            return True
        start = self.gap_from[i]
        if start is None:
            self.gap_from[i] = now
        elif time.ticks_diff(now, start) >= _REPLAY_MIN_MS:
            self.gap[i] = False  # this read is the last one of the release
        return False

    def _down(self, i, now):
        if self.seen_at[i] is None:
            self.seen_at[i] = now
        elif time.ticks_diff(now, self.seen_at[i]) >= _SEEN_MS:
            self.seen[i] = True
        return True

    def _up(self, i, now, held):
        """The pin reads released; `held`: how long a press the interrupts saw lasted, or None."""
        partly_seen = self.seen_at[i] is not None
        seen = self.seen[i]
        self.seen_at[i] = None
        self.seen[i] = False
        if held is None or seen:
            return False
        if held < DEBOUNCE_MS:
            return False  # contact bounce or a graze: the debouncer would not take it either
        self.replay_ms[i] = max(held, _REPLAY_MIN_MS)
        if partly_seen:
            return False  # the debouncer saw it begin: it sees it end now, and the replay next read
        self.replay_from[i] = now
        return True


class Buzzer:
    """A passive piezo on a PWM pin. tone() starts the note and returns at once; a one-shot
    machine.Timer silences it after `ms` (its callback only writes the duty, so it is IRQ-safe)."""

    def __init__(self, pin):
        self.pwm = machine.PWM(machine.Pin(pin))
        self.pwm.duty_u16(0)
        self.timer = machine.Timer()
        self._silence = self.silence  # bound once here, not inside the timer interrupt

    def tone(self, freq, ms):
        self.timer.deinit()
        if freq <= 0 or ms <= 0:
            self.silence()
            return
        self.pwm.freq(min(max(int(freq), _MIN_HZ), _MAX_HZ))
        self.pwm.duty_u16(_HALF_DUTY)
        self.timer.init(mode=machine.Timer.ONE_SHOT, period=int(ms), callback=self._silence)

    def silence(self, timer=None):
        self.pwm.duty_u16(0)


class Radio:
    """The Wi-Fi hotspot: WPA2, the regulatory domain set before the chip starts, no power saving."""

    def __init__(self, country):
        self.country = country
        self.ssid = None
        self.password = None
        self.ip = AP_IP
        self.ap = None

    def start_hotspot(self, ssid, password):
        if not 8 <= len(password) <= 63:
            raise ValueError("a WPA2 passphrase has 8 to 63 characters")
        network.country(self.country)  # read when the chip starts, so before active(True)
        ap = network.WLAN(network.AP_IF)
        if not (ap.active() and ap.config("ssid") == ssid):
            # Up already after the box restarted itself (a soft reset keeps the radio): left as it is,
            # the phones stay joined. Otherwise started here.
            # No max_clients: it raises on rp2; the AP's DHCP server has 8 leases anyway.
            ap.config(ssid=ssid, key=password, security=getattr(network.WLAN, "SEC_WPA2", _WPA2_AES_PSK))
            ap.active(True)
            ap.config(pm=network.WLAN.PM_NONE)  # after active(): starting the chip sets the default PM
        start = time.ticks_ms()
        while not ap.active():
            if time.ticks_diff(time.ticks_ms(), start) > _AP_WAIT_MS:
                raise OSError("the Wi-Fi hotspot did not start")
            time.sleep_ms(_AP_POLL_MS)
        self.ap = ap
        self.ssid = ssid
        self.password = password
        self.ip = ap.ifconfig()[0]
        return self.ip


class Watchdog:
    """machine.WDT: once started it cannot be stopped (only a reset ends it)."""

    def __init__(self):
        self.wdt = None
        self.feeds = 0
        self.timeout = 0

    def start(self, timeout_ms):
        self.timeout = min(max(int(timeout_ms), 1), _WDT_MAX_MS)
        self.wdt = machine.WDT(timeout=self.timeout)

    def feed(self):
        if self.wdt is not None:
            self.wdt.feed()
        self.feeds += 1


class Board:
    def __init__(self, name, settings_path=SETTINGS_FILE, storage_dir=STORAGE_DIR):
        self.name = name
        self.settings = load_settings(settings_path)
        self.clock = Clock()
        self.display = make_display(self.settings)
        self.buttons = Buttons(self.settings["buttons"])
        pin = self.settings["buzzer"]
        self.buzzer = None if pin is None else Buzzer(pin)
        self.radio = Radio(self.settings["country"])
        self.watchdog = Watchdog()
        self.crashed_tasks = 0  # tasks restarted after a crash (tidebox/running.py, keep_running)
        self.tcp_gate = pico_gate(sys.implementation._machine)  # counts only: lwIP refuses the rest
        self.storage_dir = storage_dir
        self.http_port = _HTTP_PORT
        self.http_host = "0.0.0.0"
        self.dns_port = _DNS_PORT
        try:
            os.mkdir(storage_dir)
        except OSError:
            pass  # already there

    def unique_id(self):
        """The flash chip's 64-bit unique id as hex; names the hotspot."""
        return binascii.hexlify(machine.unique_id()).decode()

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def urandom(self, n):
        return os.urandom(n)  # the rp2 hardware RNG (ring oscillator) seeds it

    def page_url(self):
        if self.http_port == _HTTP_PORT:
            return "http://%s/" % self.radio.ip
        return "http://%s:%d/" % (self.radio.ip, self.http_port)

    def reset(self):
        machine.reset()

    def restart(self):
        """The box restarts its interpreter (tidebox/restart.py): a soft reset. The Wi-Fi chip and
        lwIP are started once at power-up and a soft reset leaves them running (ports/rp2/main.c),
        so the hotspot and the phones on it stay; main.py runs again on a fresh heap."""
        machine.soft_reset()

    def add_routes(self, app, box):
        """The simulator's pages exist on the host board only."""
        return None
