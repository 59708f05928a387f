# The Raspberry Pi box's side of the operating system (Raspberry Pi OS Bookworm): the hotspot as a
# NetworkManager connection, the drop-in that makes NetworkManager's dnsmasq ask the box's captive
# DNS, and systemd's watchdog and unit. boards/pi_bonnet.py's board uses them; boards/README.md ("A
# Raspberry Pi with the OLED Bonnet") says how they work together. CPython only, no dependency beyond
# the standard library: everything is a file written or a command run (nmcli), so the tests check
# the files and the commands.
import os
import socket
import subprocess
import time
import uuid

PROFILE_ID = "tidebox-hotspot"  # the NetworkManager connection's name
NM_CONNECTIONS = "/etc/NetworkManager/system-connections"
NM_DNSMASQ_SHARED = "/etc/NetworkManager/dnsmasq-shared.d"  # read by the dnsmasq of shared mode
UNIT_NAME = "tidebox.service"
INSTALL_DIR = "/opt/tidebox"  # the firmware, the boards and the venv (host_tools/pi_install.sh)
SETTINGS_FILE = "/etc/tidebox/settings.json"
_NOTIFY_EVERY_MS = 1000  # WATCHDOG=1 at most once a second (the panel loop feeds every 80 ms)
# The watchdog while the box boots or restarts itself (imports, the hotspot, the QR codes: seconds on
# a Pi Zero 2 W); once up, the box sets it to main.py's WATCHDOG_MS (8 s).
BOOT_WATCHDOG_S = 30
_AP_WAIT_S = 30  # nmcli's wait for the access point to come up


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


def write_if_changed(path, text, mode):
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
        changed = write_if_changed(self.profile_path(), profile, 0o600)  # NetworkManager refuses others
        changed = write_if_changed(self.dropin_path(), dnsmasq_dropin(self.settings), 0o644) or changed
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
    """systemd's watchdog: the box is killed and started again when the feeds stop. The unit's
    WatchdogSec (BOOT_WATCHDOG_S) is generous, for a boot or a restart of the box on a slow Pi;
    start() tells systemd the box is up (READY=1: the unit is Type=notify) and tightens the watchdog
    to main.py's timeout (WATCHDOG_USEC); feed() sends WATCHDOG=1, at most once a second; loosen(),
    before the box restarts itself, gives the restart the boot's time again."""

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
        self.notify("READY=1\nSTATUS=serving the phones\nWATCHDOG_USEC=%d\nWATCHDOG=1"
                    % (self.timeout * 1000))
        self.last = self._now()

    def loosen(self):
        self.notify("WATCHDOG_USEC=%d\nWATCHDOG=1" % (BOOT_WATCHDOG_S * 1_000_000))

    def feed(self):
        self.feeds += 1
        if self.last is None:
            return  # not started
        now = self._now()
        if now - self.last >= _NOTIFY_EVERY_MS:
            self.last = now
            self.notify("WATCHDOG=1")
            self.sent += 1


def systemd_unit(install_dir=INSTALL_DIR, settings_file=SETTINGS_FILE, watchdog_s=None):
    """The unit that starts the box at boot and restarts it when it dies or stops feeding its watchdog
    (watchdog_s: BOOT_WATCHDOG_S; the box tightens it once up, see Watchdog). Root: the box writes
    NetworkManager's profile and serves on port 80."""
    watchdog_s = watchdog_s or BOOT_WATCHDOG_S
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
