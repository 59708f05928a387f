# A Raspberry Pi (Zero 2 W, 3, 4, 5) with Adafruit's 128x64 OLED Bonnet, Raspberry Pi OS Bookworm:
# the board API of boards/host.py under CPython 3.11+, through Adafruit's Blinka and
# adafruit-circuitpython-ssd1306. CPython only: boards/cpython_main.py installs pi_compat (what
# MicroPython has and CPython lacks) and runs the unchanged firmware/main.py on this module.
#
# The Bonnet sits on the 40-pin header; nothing to wire (GPIO numbers are BCM, as Blinka's board.D<n>):
#   OLED   SSD1306 128x64 on I2C1 (SDA GPIO2, pin 3; SCL GPIO3, pin 5) at 0x3C
#   A      the Bonnet's button A (#5)          GPIO5,  pin 29   (to GND; internal pull-up)
#   B      the Bonnet's button B (#6)          GPIO6,  pin 31
#   C      the joystick pressed in (centre)    GPIO4,  pin 7
#   (the joystick's up 17, down 22, left 27, right 23 are not used: the box has three buttons)
#
# Behind the API (boards/README.md, "A Raspberry Pi with the OLED Bonnet"):
#   display   adafruit_ssd1306.SSD1306_I2C(128, 64, i2c) over Blinka's I2C, drawing as MicroPython's
#             framebuf does (pi_compat.Drawing); flip turns it by 180 degrees
#   buttons   Blinka's digitalio with pull-ups; a pressed button reads False
#   radio     the hotspot as a NetworkManager connection profile (Wi-Fi access point, WPA2, shared
#             mode: NetworkManager's own dnsmasq gives the phones their addresses and answers DNS on
#             port 53; a drop-in makes it ask the box's captive DNS for every name): pi_system.py
#   watchdog  systemd's: WatchdogSec= in the unit, fed with sd_notify WATCHDOG=1: pi_system.py
#   storage   a folder (/var/lib/tidebox); each save's temporary file is flushed to the card before
#             the rename that commits it, and the folder after it
# Blinka's board and digitalio are imported only when a real board is made (make_board): the tests
# pass their own I2C bus and pins, on a computer that is not a Pi. The drivers are imported only when
# a display is made, so the install's helpers (main() below) run in a bare venv.
import binascii
import json
import os
import sys
import time

import pi_system
from pi_system import Radio, Watchdog, systemd_unit

NAME = "pi_bonnet"
WIDTH = 128
HEIGHT = 64
BUTTONS = ("A", "B", "C")

SETTINGS_FILE = os.environ.get("TIDEBOX_SETTINGS", pi_system.SETTINGS_FILE)
STORAGE_DIR = os.environ.get("TIDEBOX_STATE_DIR", "/var/lib/tidebox")
_I2C_HZ = 400_000  # asked of Blinka; on Linux the bus speed is config.txt's i2c_arm_baudrate
_PANEL_ADDRESSES = (0x3C, 0x3D)  # the two addresses SSD1306 panels are strapped to

# Per-box settings: /etc/tidebox/settings.json holds any of these keys (pins are BCM GPIO numbers).
DEFAULTS = {
    "i2c_address": 0x3C,
    "flip": False,  # True turns the picture 180 degrees
    "buttons": [5, 6, 4],  # A, B, C: the Bonnet's A and B, and the joystick pressed in
    "country": "GB",  # Wi-Fi regulatory domain: the install sets it for the Pi (raspi-config)
    "interface": "wlan0",
    "ip": "192.168.4.1",  # the box's address on its hotspot, as on a Pico W
    "channel": 6,  # 2.4 GHz channel of the access point (1-11 are allowed everywhere)
    "http_port": 80,
    "dns_port": 5300,  # the box's captive DNS, asked by NetworkManager's dnsmasq (which has port 53)
    "connections": 16,  # TCP connections read at once; the rest wait in the kernel's queue (see README)
}


def load_settings(path=SETTINGS_FILE):
    """DEFAULTS overlaid with the settings file; a missing file leaves the defaults; a broken one or
    a bad value is reported and the defaults are used (as on the Pico)."""
    settings = dict(DEFAULTS)
    try:
        with open(path) as f:
            given = json.load(f)
    except OSError:
        return settings
    except ValueError as e:
        print("settings: %s is not valid JSON (%s); using the defaults" % (path, e))
        return settings
    if not isinstance(given, dict):
        print("settings: %s must hold a JSON object; using the defaults" % path)
        return settings
    for key, value in given.items():
        if key in settings:
            settings[key] = value
        else:
            print("settings: unknown key %r ignored" % key)
    problem = check_settings(settings)
    if problem:
        print("settings: %s; using the defaults" % problem)
        return dict(DEFAULTS)
    return settings


def check_settings(settings):
    """What is wrong with the settings, or None."""
    buttons = settings["buttons"]
    if not isinstance(buttons, list) or len(buttons) != 3:
        return "buttons must list three GPIO numbers (A, B, C)"
    for pin in buttons:
        if type(pin) is not int or not 4 <= pin <= 27:
            return "%r is not a free GPIO of the header (4-27)" % (pin,)
    if len(set(buttons)) != 3:
        return "a pin is used twice"
    if settings["i2c_address"] not in _PANEL_ADDRESSES:
        return "i2c_address must be 60 (0x3C) or 61 (0x3D)"
    country = settings["country"]
    if not isinstance(country, str) or len(country) != 2 or not country.isalpha() or not country.isupper():
        return "country must be two capital letters"
    ip = settings["ip"]
    parts = ip.split(".") if isinstance(ip, str) else []
    if len(parts) != 4 or not all(p.isdigit() and 0 <= int(p) <= 255 for p in parts):
        return "ip must be an IPv4 address"
    if type(settings["channel"]) is not int or not 1 <= settings["channel"] <= 13:
        return "channel must be 1-13"
    for key in ("http_port", "dns_port"):
        if type(settings[key]) is not int or not 1 <= settings[key] <= 65535:
            return "%s must be a port number" % key
    if type(settings["connections"]) is not int or not 1 <= settings["connections"] <= 256:
        return "connections must be 1-256"
    if not isinstance(settings["interface"], str) or not settings["interface"].isalnum():
        return "interface must be a network interface's name"
    return None


# ---------------------------------------------------------------- the display


def make_display(i2c, address=0x3C, flip=False):
    """The OLED: adafruit_ssd1306.SSD1306_I2C on `i2c` (Blinka's busio.I2C, or a test's bus), with
    MicroPython's drawing. If nothing answers at `address` but a panel answers at the other usual
    one, that one is used and a line printed."""
    import adafruit_ssd1306
    import pi_compat

    driver = adafruit_ssd1306.SSD1306_I2C
    if issubclass(driver, pi_compat.Drawing):
        Display = driver  # imported after pi_compat.install(): it subclasses framebuf.FrameBuffer, ours
    else:

        class Display(pi_compat.Drawing, driver):  # imported before: on adafruit_framebuf's own
            pass

    address = _find_address(i2c, address)
    panel = Display(WIDTH, HEIGHT, i2c, addr=address)
    if flip:
        panel.rotate(False)  # the driver starts in rotate(True): column 127 at SEG0, COM scan reversed
    return panel


def _find_address(i2c, address):
    try:
        while not i2c.try_lock():
            pass
        try:
            found = i2c.scan()
        finally:
            i2c.unlock()
    except (OSError, AttributeError):
        return address
    if address not in found:
        for other in _PANEL_ADDRESSES:
            if other in found:
                print("display: nothing at 0x%02X, using the panel at 0x%02X" % (address, other))
                return other
        print("display: no panel answers on I2C (found %s): is the Bonnet on, is I2C enabled?" % found)
    return address


# ---------------------------------------------------------------- buttons, clock


class Buttons:
    """A, B, C from three input pins with pull-ups (digitalio.DigitalInOut, or a test's): pressed
    reads False. Debouncing and long presses are the firmware's (tidebox/buttons.py)."""

    def __init__(self, pins):
        self.pins = list(pins)

    def read(self):
        return tuple(not pin.value for pin in self.pins)


def input_pins(numbers):
    """Blinka's pins for BCM GPIO numbers, inputs with the internal pull-ups (on a Pi only)."""
    blinka = _blinka_board()
    import digitalio

    pins = []
    for number in numbers:
        pin = digitalio.DigitalInOut(getattr(blinka, "D%d" % number))
        pin.switch_to_input(pull=digitalio.Pull.UP)
        pins.append(pin)
    return pins


def _blinka_board():
    """Blinka's `board` module. The firmware's `import board` gives this module instead (see
    cpython_main.py), so Blinka's is imported with ours out of the way for a moment."""
    ours = sys.modules.pop("board", None)
    try:
        import board as blinka
    finally:
        if ours is not None:
            sys.modules["board"] = ours
    return blinka


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)


# ---------------------------------------------------------------- storage


def _durable_saves():
    """Each save's temporary file reaches the card before the rename commits it, and the rename
    reaches it after: a power cut then leaves the old save or the new one (tidebox/storage.py)."""
    from tidebox import storage

    real = os

    class DurableOs:
        stat = staticmethod(real.stat)
        remove = staticmethod(real.remove)

        @staticmethod
        def rename(old, new):
            fd = real.open(old, real.O_RDONLY)
            try:
                real.fsync(fd)
            finally:
                real.close(fd)
            real.rename(old, new)
            folder = real.open(real.path.dirname(new) or ".", real.O_RDONLY)
            try:
                real.fsync(folder)
            finally:
                real.close(folder)

    storage.os = DurableOs


# ---------------------------------------------------------------- the board


def unique_id(cpuinfo="/proc/cpuinfo", machine_id="/etc/machine-id"):
    """The Pi's serial number (16 hex digits) from /proc/cpuinfo; else the machine id's first 16."""
    try:
        with open(cpuinfo) as f:
            for line in f:
                if line.startswith("Serial"):
                    serial = line.split(":", 1)[1].strip().lower()
                    if serial.strip("0"):
                        return serial[-16:]
    except OSError:
        pass
    try:
        with open(machine_id) as f:
            return f.read().strip()[:16]
    except OSError:
        return binascii.hexlify(os.urandom(8)).decode()


class Board:
    name = NAME

    def __init__(self, settings, display, buttons, radio=None, watchdog=None, storage_dir=STORAGE_DIR):
        from tidebox.gate import shipped_gate

        self.settings = settings
        self.clock = Clock()
        self.display = display
        self.buttons = buttons
        self.buzzer = None  # the Bonnet has none
        # TIDEBOX_SYSTEM_ROOT puts NetworkManager's files under a folder (the tests' stand-in Pi)
        self.radio = radio or Radio(settings, root=os.environ.get("TIDEBOX_SYSTEM_ROOT", ""))
        self.watchdog = watchdog or Watchdog()
        self.crashed_tasks = 0
        # No lwIP here: the gate bounds the connections read at once, the rest wait in the kernel's
        # listen queue in order, costing the box nothing (boards/README.md, the Pi's tcp_gate).
        # Besides them, phones waiting for a change, as on Tidebox's firmware.
        self.tcp_gate = shipped_gate(settings["connections"])
        self.storage_dir = storage_dir
        self.http_port = settings["http_port"]
        self.http_host = "0.0.0.0"
        self.dns_port = settings["dns_port"]
        self.uid = unique_id()
        os.makedirs(storage_dir, exist_ok=True)
        _durable_saves()

    def unique_id(self):
        return self.uid

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def urandom(self, n):
        return os.urandom(n)

    def page_url(self):
        if self.http_port == 80:
            return "http://%s/" % self.radio.ip
        return "http://%s:%d/" % (self.radio.ip, self.http_port)

    def reset(self):
        """The box's last resort: end the process; systemd starts it again (Restart=always)."""
        sys.exit(1)

    def restart(self):
        """The box restarts its interpreter (tidebox/restart.py), as a Pico's soft reset does: the
        process runs itself again (exec: the same process for systemd, so no restart of the unit and
        no RestartSec wait; its watchdog goes on being fed), main.py starts afresh, and the hotspot,
        left up by NetworkManager, keeps the phones on it."""
        self.watchdog.loosen()  # the boot's time for the restart
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, [sys.executable] + sys.orig_argv[1:])

    def add_routes(self, app, box):
        """No pages of its own (the simulator's are the host board's). The phones are served through
        CPython's asyncio streams: cpython_main.py installs cpython_transport for every board."""
        return None


def make_board(settings_path=SETTINGS_FILE, storage_dir=STORAGE_DIR):
    """The real board, on a Pi: Blinka's I2C bus and pins."""
    settings = load_settings(settings_path)
    blinka = _blinka_board()
    import busio

    i2c = busio.I2C(blinka.SCL, blinka.SDA, frequency=_I2C_HZ)
    display = make_display(i2c, settings["i2c_address"], settings["flip"])
    buttons = Buttons(input_pins(settings["buttons"]))
    return Board(settings, display, buttons, storage_dir=storage_dir)


# ---------------------------------------------------------------- the install's helpers


def write_settings(path, **changes):
    """Create or update the settings file: the keys given replace those in it, the others stay."""
    try:
        with open(path) as f:
            settings = json.load(f)
        if not isinstance(settings, dict):
            settings = {}
    except (OSError, ValueError):
        settings = {}
    settings.update(changes)
    problem = check_settings(dict(DEFAULTS, **settings))
    if problem:
        raise ValueError(problem)
    pi_system.write_if_changed(path, json.dumps(settings, indent=1, sort_keys=True) + "\n", 0o644)
    return settings


def main(argv=None):
    """host_tools/pi_install.sh's helpers: `unit PREFIX SETTINGS` prints the systemd unit;
    `settings FILE COUNTRY` writes the settings file with that Wi-Fi country (other keys kept)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 3 and args[0] == "unit":
        sys.stdout.write(systemd_unit(args[1], args[2]))
    elif len(args) == 3 and args[0] == "settings":
        print(json.dumps(write_settings(args[1], country=args[2]), sort_keys=True))
    else:
        raise SystemExit("usage: pi_bonnet.py unit PREFIX SETTINGS | settings FILE COUNTRY")


if __name__ == "__main__":
    main()
