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
# Behind the API (boards/README.md, "Raspberry Pi"):
#   display   adafruit_ssd1306.SSD1306_I2C(128, 64, i2c) over Blinka's I2C, drawing as MicroPython's
#             framebuf does (pi_compat.Drawing); flip turns it by 180 degrees
#   buttons   Blinka's digitalio with pull-ups; a pressed button reads False
#   radio     the hotspot as a NetworkManager connection profile (Wi-Fi access point, WPA2, shared
#             mode: NetworkManager's own dnsmasq gives the phones their addresses and answers DNS on
#             port 53; a drop-in makes it ask the box's captive DNS for every name) - nm_profile()
#             and dnsmasq_dropin() make the files from the SSID and passphrase the box makes
#   watchdog  systemd's: WatchdogSec= in the unit (systemd_unit()), fed with sd_notify WATCHDOG=1
#   storage   a folder (/var/lib/tidebox); each save's temporary file is flushed to the card before
#             the rename that commits it, and the folder after it
# Blinka's board and digitalio are imported only when a real board is made (make_board): the tests
# pass their own I2C bus and pins, on a computer that is not a Pi. The drivers are imported only when
# a display is made, so the install's helpers (main() below) run in a bare venv.
import binascii
import json
import os
import socket
import subprocess
import sys
import time
import uuid

NAME = "pi_bonnet"
WIDTH = 128
HEIGHT = 64
BUTTONS = ("A", "B", "C")

SETTINGS_FILE = os.environ.get("TIDEBOX_SETTINGS", "/etc/tidebox/settings.json")
STORAGE_DIR = "/var/lib/tidebox"
INSTALL_DIR = "/opt/tidebox"  # the firmware, these boards and the venv (host_tools/pi_install.sh)
PROFILE_ID = "tidebox-hotspot"  # the NetworkManager connection's name
NM_CONNECTIONS = "/etc/NetworkManager/system-connections"
NM_DNSMASQ_SHARED = "/etc/NetworkManager/dnsmasq-shared.d"  # read by the dnsmasq of shared mode
UNIT_NAME = "tidebox.service"
_I2C_HZ = 400_000  # asked of Blinka; on Linux the bus speed is config.txt's i2c_arm_baudrate
_PANEL_ADDRESSES = (0x3C, 0x3D)  # the two addresses SSD1306 panels are strapped to
_NOTIFY_EVERY_MS = 1000  # WATCHDOG=1 at most once a second (the reader loop feeds every 80 ms)
_AP_WAIT_S = 30  # nmcli's wait for the access point to come up

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


# ---------------------------------------------------------------- the hotspot (NetworkManager)


def _check_wifi_text(text, what, low, high):
    if not low <= len(text) <= high:
        raise ValueError("a %s has %d to %d characters" % (what, low, high))
    if not all(32 < ord(ch) < 127 for ch in text):
        raise ValueError("a %s here is printable ASCII without spaces" % what)


def nm_profile(ssid, password, settings):
    """The NetworkManager keyfile (INI) of the hotspot: an access point with the box's SSID and WPA2
    passphrase (CCMP only, no PMF, which some older phones refuse), IPv4 shared mode at the box's
    address (NetworkManager runs dnsmasq for DHCP and DNS on it), no IPv6, started at boot."""
    _check_wifi_text(ssid, "network name", 1, 32)
    _check_wifi_text(password, "WPA2 passphrase", 8, 63)
    lines = [
        "[connection]",
        "id=%s" % PROFILE_ID,
        "uuid=%s" % uuid.uuid5(uuid.NAMESPACE_DNS, PROFILE_ID + "." + ssid),
        "type=wifi",
        "interface-name=%s" % settings["interface"],
        "autoconnect=true",
        "autoconnect-priority=100",
        "",
        "[wifi]",
        "mode=ap",
        "ssid=%s" % ssid,
        "band=bg",
        "channel=%d" % settings["channel"],
        "powersave=2",  # off: a sleeping radio stalls the phones' polls
        "",
        "[wifi-security]",
        "key-mgmt=wpa-psk",
        "proto=rsn",
        "pairwise=ccmp",
        "group=ccmp",
        "pmf=1",  # disabled
        "psk=%s" % password,
        "",
        "[ipv4]",
        "method=shared",
        "address1=%s/24" % settings["ip"],
        "",
        "[ipv6]",
        "method=disabled",
        "",
    ]
    return "\n".join(lines)


def dnsmasq_dropin(settings):
    """The drop-in for the dnsmasq NetworkManager runs in shared mode: it keeps port 53 and DHCP, and
    asks the box's captive DNS (tidebox/dns.py on 127.0.0.1) for every name instead of the Pi's own
    resolvers, so phones get on a Pi exactly the answers a Pico gives (every A query: the box)."""
    return "\n".join([
        "# Tidebox: every name is answered by the box's captive DNS (boards/pi_bonnet.py).",
        "no-resolv",
        "server=127.0.0.1#%d" % settings["dns_port"],
        "",
    ])


def _write_if_changed(path, text, mode):
    """Write atomically (temporary file, rename) unless the file already holds `text`; True if written."""
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temp = path + ".tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(temp, mode)
    os.rename(temp, path)
    return True


class Radio:
    """The hotspot through NetworkManager (nmcli). `run` runs a command (tests record them); `root`
    prefixes the /etc paths (tests write into a folder)."""

    def __init__(self, settings, run=None, root=""):
        self.settings = settings
        self.run = run or _run
        self.root = root
        self.ssid = None
        self.password = None
        self.ip = settings["ip"]

    def profile_path(self):
        return self.root + NM_CONNECTIONS + "/" + PROFILE_ID + ".nmconnection"

    def dropin_path(self):
        return self.root + NM_DNSMASQ_SHARED + "/tidebox.conf"

    def start_hotspot(self, ssid, password):
        profile = nm_profile(ssid, password, self.settings)
        changed = _write_if_changed(self.profile_path(), profile, 0o600)  # NetworkManager refuses others
        changed = _write_if_changed(self.dropin_path(), dnsmasq_dropin(self.settings), 0o644) or changed
        if changed:
            self.run(["nmcli", "connection", "reload"])
        # A box restarted by systemd finds its hotspot up: left alone, the phones stay on it.
        active = self.run(["nmcli", "-t", "-f", "NAME", "connection", "show", "--active"])
        if changed or PROFILE_ID not in active.split("\n"):
            self.run(["nmcli", "--wait", str(_AP_WAIT_S), "connection", "up", PROFILE_ID])
        self.ssid = ssid
        self.password = password
        return self.ip


def _run(command):
    proc = subprocess.run(command, capture_output=True, text=True, timeout=_AP_WAIT_S + 10)
    if proc.returncode != 0:
        raise OSError("%s failed: %s" % (" ".join(command), (proc.stderr or proc.stdout).strip()))
    return proc.stdout


# ---------------------------------------------------------------- the watchdog (systemd)


def sd_notify(message, environ=None):
    """Send `message` to systemd's notification socket ($NOTIFY_SOCKET); False when not under systemd."""
    address = (environ if environ is not None else os.environ).get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


class Watchdog:
    """systemd's watchdog: the unit's WatchdogSec restarts the box when the feeds stop. start() tells
    systemd the box is up (READY=1: the unit is Type=notify, its watchdog runs from then on); feed()
    sends WATCHDOG=1, at most once a second."""

    def __init__(self, notify=sd_notify, ticks_ms=None):
        self.notify = notify
        self.ticks_ms = ticks_ms  # tests pass a clock of their own; else the monotonic clock
        self.feeds = 0
        self.sent = 0
        self.timeout = 0
        self.last = None

    def _now(self):
        return self.ticks_ms() if self.ticks_ms else time.monotonic_ns() // 1_000_000

    def start(self, timeout_ms):
        self.timeout = int(timeout_ms)
        self.notify("READY=1\nSTATUS=serving the phones")
        self.last = self._now()

    def feed(self):
        self.feeds += 1
        if self.last is None:
            return  # not started
        now = self._now()
        if now - self.last >= _NOTIFY_EVERY_MS:
            self.last = now
            self.notify("WATCHDOG=1")
            self.sent += 1


def systemd_unit(install_dir=INSTALL_DIR, settings_file=SETTINGS_FILE, watchdog_s=8):
    """The unit that starts the box at boot and restarts it when it dies or stops feeding its watchdog
    (watchdog_s: main.py's WATCHDOG_MS). Root: the box writes NetworkManager's profile and serves on 80."""
    python = install_dir + "/venv/bin/python"
    return "\n".join([
        "[Unit]",
        "Description=Tidebox game box (OLED Bonnet, hotspot, phones' page)",
        "Wants=NetworkManager.service",
        "After=NetworkManager.service",
        "StartLimitIntervalSec=0",  # never give up restarting
        "",
        "[Service]",
        "Type=notify",
        "NotifyAccess=main",
        "ExecStart=%s %s/boards/cpython_main.py --board pi_bonnet %s/firmware/main.py"
        % (python, install_dir, install_dir),
        "WorkingDirectory=%s/firmware" % install_dir,  # main.py serves www/index.html.gz from here
        "Environment=TIDEBOX_SETTINGS=%s" % settings_file,
        "Environment=PYTHONUNBUFFERED=1",
        "WatchdogSec=%d" % watchdog_s,
        "TimeoutStartSec=120",  # a Pi Zero 2 W takes a while to import and to bring the hotspot up
        "Restart=always",
        "RestartSec=2",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ])


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
        from tidebox.gate import ConnectionGate

        self.settings = settings
        self.clock = Clock()
        self.display = display
        self.buttons = buttons
        self.buzzer = None  # the Bonnet has none
        self.radio = radio or Radio(settings)
        self.watchdog = watchdog or Watchdog()
        self.restarts = 0
        # No lwIP here: the gate bounds the connections read at once, the rest wait in the kernel's
        # listen queue in order, costing the box nothing (boards/README.md, "Raspberry Pi").
        self.tcp_gate = ConnectionGate(settings["connections"], wait=True)
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
    _write_if_changed(path, json.dumps(settings, indent=1, sort_keys=True) + "\n", 0o644)
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
