"""The Raspberry Pi box booting as tidebox.service starts it (boards/cpython_main.py --board
pi_bonnet firmware/main.py), on a stand-in Pi: Blinka's board, busio and digitalio are the tests'
(tests/fake_blinka/: the recording I2C bus with its SSD1306 model, pins read from a file), nmcli
records what it is asked, NetworkManager's folders and the saves are in a folder of the test's, and
systemd's notification socket is the test's. Everything else is the real board and firmware: the
hotspot's profile written from the passphrase the box made, READY and the watchdog's feeds, the
OLED's frames, a button press, the phones' API."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from boxrig import free_port, wait_until
from golden_png import GOLDEN, png_frame

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
sys.path.insert(0, str(ROOT / "boards"))
import pi_system  # noqa: E402 - CPython only (the Pi board's), from boards/

READY = "READY=1\nSTATUS=serving the phones\nWATCHDOG_USEC=8000000\nWATCHDOG=1"  # main.py's 8 s


@pytest.fixture
def pi_box(sim_tree, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    nmcli_log = tmp_path / "nmcli.log"
    nmcli = bin_dir / "nmcli"
    nmcli.write_text('#!/bin/sh\necho "$*" >> "%s"\n' % nmcli_log)
    nmcli.chmod(0o755)
    http_port, dns_port = free_port(), free_port(socket.SOCK_DGRAM)
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"http_port": http_port, "dns_port": dns_port, "country": "DE"}))
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(60)
    pins = tmp_path / "pins.json"

    def write_pins(levels):  # whole or not at all: a read of a half-written file is no level at all
        (tmp_path / "pins.new").write_text(json.dumps(levels))
        os.replace(tmp_path / "pins.new", pins)
    env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]), TIDEBOX_SETTINGS=str(settings),
               TIDEBOX_STATE_DIR=str(tmp_path / "state"), TIDEBOX_SYSTEM_ROOT=str(tmp_path / "root"),
               NOTIFY_SOCKET=str(tmp_path / "notify"), FAKE_PANEL=str(tmp_path / "panel"),
               FAKE_PINS=str(pins))
    log = open(tmp_path / "box.log", "wb")  # noqa: SIM115
    command = [sys.executable, str(ROOT / "boards" / "cpython_main.py"), "--board", "pi_bonnet",
               "--path", str(TESTS / "fake_blinka"), "--path", str(TESTS / "support"),
               str(ROOT / "firmware" / "main.py")]
    proc = subprocess.Popen(command, cwd=str(sim_tree), env=env, stdout=log, stderr=subprocess.STDOUT)

    class Box:
        root = tmp_path

        def notifications(self, timeout=None):
            notify.settimeout(timeout)
            return notify.recv(200).decode()

        def alive(self):
            return proc.poll() is None

        def api(self, path, body=None):
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request("http://127.0.0.1:%d%s" % (http_port, path), data=data,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read())

        def state(self):
            """The box's phase, or None while it is not listening (restarting)."""
            try:
                return self.api("/api/state")["box"]
            except OSError:
                return None

        def listening(self):
            try:
                self.api("/api/state")
                return True
            except OSError:
                return False

        def panel(self):
            try:
                return (tmp_path / "panel").read_bytes()
            except OSError:
                return None

        def hold(self, gpio, ms):
            """Holds the button `ms`, then lets it rest as a finger would (the box acts on many presses
            as soon as they are down: a press at once after would be a bounce of this one)."""
            write_pins({str(gpio): False})
            time.sleep(ms / 1000)
            write_pins({})
            time.sleep(0.08)

        def nmcli(self):
            return nmcli_log.read_text().splitlines() if nmcli_log.exists() else []

        def log(self):
            return (tmp_path / "box.log").read_text()

    yield Box()
    proc.kill()
    proc.wait(5)
    log.close()
    notify.close()


def test_the_pi_box_boots_brings_its_hotspot_up_and_serves_phones(pi_box):
    box = pi_box
    assert box.notifications(60) == READY, box.log()
    # the hotspot: the profile from the SSID and the passphrase the box made and keeps
    password = json.loads((box.root / "state" / "wifi.json").read_text())["password"]
    wait_until(box.listening, "the box serves phones", 20)  # READY comes just before the server starts
    view = box.api("/api/state")
    etc = str(box.root / "root")
    profile = Path(etc + pi_system.NM_CONNECTIONS) / (pi_system.PROFILE_ID + ".nmconnection")
    text = profile.read_text()
    assert "ssid=%s\n" % view["ssid"] in text and "psk=%s\n" % password in text and "method=shared" in text
    assert box.nmcli()[-1] == "--wait 30 connection up " + pi_system.PROFILE_ID
    dropin = Path(etc + pi_system.NM_DNSMASQ_SHARED) / "tidebox.conf"
    assert "no-resolv" in dropin.read_text()
    # the watchdog is fed, about once a second
    assert box.notifications(5) == "WATCHDOG=1"
    # the OLED shows the game menu after the splash; the joystick pressed in (C) picks Token Tide
    wait_until(lambda: any(box.panel() or b""), "the splash on the OLED", 20)
    splash = box.panel()
    wait_until(lambda: box.panel() != splash, "the splash gives way to the game menu", 20)
    assert box.api("/api/state")["box"] == "choose"
    menu = box.panel()
    assert menu == png_frame(GOLDEN / "choose.png")  # the Pico's game menu, pixel for pixel
    box.hold(4, 150)
    wait_until(lambda: box.api("/api/state")["box"] == "join", "the join screen after C", 10)
    wait_until(lambda: box.panel() != menu, "the join screen on the OLED", 10)
    for name in ("Ada", "Bo"):
        box.api("/api/join", {"name": name})
    box.hold(4, 150)
    wait_until(lambda: box.state() == "setup", "the setup after C", 10)
    box.hold(4, 150)  # start the game (the box may restart itself on the way: tidebox/restart.py)
    wait_until(lambda: box.state() == "play", "the game under way", 30)
    assert box.alive()  # the process the test started is still the box (a restart is an exec)
    assert "Traceback" not in box.log()
