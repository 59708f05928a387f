"""The Raspberry Pi board (boards/pi_bonnet.py), on this computer: no Pi, no Blinka hardware. The
bus and the pins are injected: the real adafruit_ssd1306 driver on a recording I2C bus with a
modelled SSD1306 (tests/support/ssd1306_bus.py), pins that a test sets. The hotspot's NetworkManager
profile, the dnsmasq drop-in and the systemd unit are generated from the settings and the SSID and
passphrase the firmware makes, and checked."""

import configparser
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ssd1306_bus import Panel, RecordingI2C

from tidebox import hotspot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "boards"))
import pi_bonnet  # noqa: E402 - CPython only (the Pi board), from boards/
import pi_system  # noqa: E402
import pi_compat  # noqa: E402

SETTINGS = dict(pi_bonnet.DEFAULTS)


def box_wifi():
    """The SSID and passphrase as the firmware makes them (tidebox/hotspot.py) for a Pi's serial."""
    ssid = hotspot.ssid_for("00000000a1b2c3d4")
    return ssid, hotspot.new_password(os.urandom)


# ---------------------------------------------------------------- the display


def test_the_display_is_the_real_driver_drawing_as_micropython_on_the_bus():
    bus = RecordingI2C()
    display = pi_bonnet.make_display(bus)
    panel = bus.panels[0x3C]
    assert type(display).__mro__[1].__module__ in ("adafruit_ssd1306", "pi_compat")
    assert panel.on and panel.charge_pump and panel.mux == 63 and panel.seg_remap and panel.com_reversed
    display.fill(0)
    display.text("Tidebox", 0, 0, 1)
    display.rect(-3, 60, 10, 10, 1)  # MicroPython's outline: the top edge and the right one show
    display.show()
    glass = panel.glass()
    assert glass[:56] == bytes(display.buffer[1:57]) and any(glass[:56])  # the text, as sent
    assert glass[7 * 128 + 6] == 0xF0  # right edge x=6, rows 60-63
    assert all(glass[7 * 128 + x] == 0x10 for x in range(0, 6))  # top edge y=60 from x=0
    display.invert(True)
    display.contrast(20)
    assert panel.inverted and panel.contrast == 20


def test_a_flipped_panel_shows_the_picture_turned_round():
    straight, flipped = RecordingI2C(), RecordingI2C()
    for bus, flip in ((straight, False), (flipped, True)):
        display = pi_bonnet.make_display(bus, flip=flip)
        display.fill(0)
        display.text("A", 3, 2, 1)
        display.show()
    a, b = straight.panels[0x3C], flipped.panels[0x3C]
    assert not b.seg_remap and not b.com_reversed
    assert a.ram == b.ram  # the same picture drawn ...
    glass_a, glass_b = a.glass(), b.glass()
    lit = lambda g, x, y: g[(y >> 3) * 128 + x] >> (y & 7) & 1  # noqa: E731
    assert all(lit(glass_a, x, y) == lit(glass_b, 127 - x, 63 - y) for x in range(128) for y in range(64))


def test_a_panel_strapped_to_the_other_address_is_found():
    bus = RecordingI2C({0x3D: Panel()})
    display = pi_bonnet.make_display(bus, 0x3C)
    display.fill(1)
    display.show()
    assert display.addr == 0x3D and bus.panels[0x3D].glass() == b"\xff" * 1024


# ---------------------------------------------------------------- buttons


class Pin:
    """A GPIO input with its pull-up: reads True until the button pulls it to GND."""

    def __init__(self):
        self.value = True


def test_buttons_read_the_bonnets_pins_and_the_firmware_debounces_them(monkeypatch):
    from tidebox.buttons import Buttons as Debouncer

    monkeypatch.setattr(time, "ticks_diff", pi_compat.ticks_diff, raising=False)
    pins = [Pin(), Pin(), Pin()]
    buttons = pi_bonnet.Buttons(pins)
    assert buttons.read() == (False, False, False)
    debouncer = Debouncer(pi_bonnet.BUTTONS)
    debouncer.long_presses = "ABC"  # short and long told apart, as on a screen that holds them all
    events = []
    pins[2].value = False  # C: the joystick pressed in
    for now in range(0, 120, 10):
        events += debouncer.poll(buttons.read(), now)
    assert buttons.read() == (False, False, True)
    pins[2].value = True
    for now in range(120, 200, 10):
        events += debouncer.poll(buttons.read(), now)
    pins[0].value = False  # A held past a long press
    for now in range(200, 1000, 10):
        events += debouncer.poll(buttons.read(), now)
    assert events == [("C", "short"), ("A", "long")]
    assert SETTINGS["buttons"] == [5, 6, 4]  # A = the Bonnet's A (GPIO5), B = B (GPIO6), C = joystick (GPIO4)


# ---------------------------------------------------------------- settings


def test_settings_overlay_the_defaults_and_a_bad_file_keeps_them(tmp_path):
    path = tmp_path / "settings.json"
    assert pi_bonnet.load_settings(str(path)) == pi_bonnet.DEFAULTS
    path.write_text(json.dumps({"country": "DE", "flip": True, "channel": 11}))
    got = pi_bonnet.load_settings(str(path))
    assert got["country"] == "DE" and got["flip"] and got["channel"] == 11 and got["ip"] == "192.168.4.1"
    for bad in ({"buttons": [5, 5, 4]}, {"country": "xx"}, {"ip": "192.168.4"}, {"i2c_address": 12},
                {"buttons": [2, 6, 4]}, {"channel": 14}):
        path.write_text(json.dumps(bad))
        assert pi_bonnet.load_settings(str(path)) == pi_bonnet.DEFAULTS, bad
    path.write_text("{not json")
    assert pi_bonnet.load_settings(str(path)) == pi_bonnet.DEFAULTS


def test_the_box_is_named_after_the_pis_serial(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nRevision\t: 902120\nSerial\t\t: 00000000a1b2c3d4\nModel\t: Pi\n")
    uid = pi_bonnet.unique_id(str(cpuinfo), str(tmp_path / "none"))
    assert uid == "00000000a1b2c3d4" and hotspot.ssid_for(uid) == "Tidebox-C3D4"
    (tmp_path / "machine-id").write_text("0123456789abcdef0123456789abcdef\n")
    assert pi_bonnet.unique_id(str(tmp_path / "none"), str(tmp_path / "machine-id")) == "0123456789abcdef"


# ---------------------------------------------------------------- the hotspot


def parse_ini(text):
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys keep their case
    parser.read_string(text)
    return parser


def test_the_networkmanager_profile_is_the_boxs_access_point():
    ssid, password = box_wifi()
    profile = parse_ini(pi_system.nm_profile(ssid, password, SETTINGS))
    assert profile["connection"]["type"] == "wifi" and profile["connection"]["id"] == pi_system.PROFILE_ID
    assert profile["connection"]["interface-name"] == "wlan0"
    assert profile["connection"]["autoconnect"] == "true"
    assert profile["wifi"]["mode"] == "ap" and profile["wifi"]["ssid"] == ssid
    assert profile["wifi"]["band"] == "bg" and profile["wifi"]["channel"] == "6"
    security = profile["wifi-security"]
    assert security["key-mgmt"] == "wpa-psk" and security["psk"] == password and security["proto"] == "rsn"
    assert profile["ipv4"]["method"] == "shared" and profile["ipv4"]["address1"] == "192.168.4.1/24"
    # the uuid is stable for a box, so rewriting the profile at each boot keeps the same connection
    other_key = pi_system.nm_profile(ssid, "x" * 12, SETTINGS)
    same_box = other_key.replace("psk=" + "x" * 12, "psk=" + password)
    assert pi_system.nm_profile(ssid, password, SETTINGS) == same_box
    other = dict(SETTINGS, interface="wlan1", channel=11, ip="10.7.0.1")
    moved = parse_ini(pi_system.nm_profile(ssid, password, other))
    assert moved["connection"]["interface-name"] == "wlan1" and moved["wifi"]["channel"] == "11"
    assert moved["ipv4"]["address1"] == "10.7.0.1/24"
    for bad in ("short", "p" * 64, "has space1", "caf\u00e9caf\u00e9"):
        with pytest.raises(ValueError):
            pi_system.nm_profile(ssid, bad, SETTINGS)


def test_the_dnsmasq_dropin_sends_every_name_to_the_boxs_captive_dns():
    text = pi_system.dnsmasq_dropin(SETTINGS)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines == ["no-resolv", "server=127.0.0.1#5300"]


class Nmcli:
    """Records nmcli commands; `active` is what `connection show --active` lists."""

    def __init__(self):
        self.commands = []
        self.active = []

    def __call__(self, command):
        self.commands.append(command)
        if command[-1] == "--active":
            return "\n".join(self.active) + "\n"
        if command[-2:] == ["up", pi_system.PROFILE_ID]:
            self.active.append(pi_system.PROFILE_ID)
        return ""


def test_the_hotspot_is_written_and_brought_up_once_and_left_up_across_restarts(tmp_path):
    ssid, password = box_wifi()
    nmcli = Nmcli()
    radio = pi_system.Radio(SETTINGS, run=nmcli, root=str(tmp_path))
    assert radio.start_hotspot(ssid, password) == "192.168.4.1"
    profile = Path(radio.profile_path())
    assert profile.read_text() == pi_system.nm_profile(ssid, password, SETTINGS)
    assert profile.stat().st_mode & 0o777 == 0o600  # NetworkManager ignores a keyfile others can read
    assert Path(radio.dropin_path()).read_text() == pi_system.dnsmasq_dropin(SETTINGS)
    assert [c[1:] for c in nmcli.commands if c[-1] != "--active"] == [
        ["connection", "reload"], ["--wait", "30", "connection", "up", pi_system.PROFILE_ID]]
    # systemd restarts the box: the same profile, already up: the phones are not thrown off
    nmcli.commands.clear()
    pi_system.Radio(SETTINGS, run=nmcli, root=str(tmp_path)).start_hotspot(ssid, password)
    assert [c for c in nmcli.commands if c[-1] != "--active"] == []
    # after a reboot (nothing active yet) it is brought up; a new passphrase rewrites and reloads it
    nmcli.active.clear()
    pi_system.Radio(SETTINGS, run=nmcli, root=str(tmp_path)).start_hotspot(ssid, password)
    assert nmcli.commands[-1][-2:] == ["up", pi_system.PROFILE_ID]
    nmcli.commands.clear()
    pi_system.Radio(SETTINGS, run=nmcli, root=str(tmp_path)).start_hotspot(ssid, "newpass2345xy")
    assert ["nmcli", "connection", "reload"] in nmcli.commands and "psk=newpass2345xy" in profile.read_text()


# ---------------------------------------------------------------- the watchdog and the unit


def test_the_watchdog_tells_systemd_ready_then_feeds_at_most_once_a_second(tmp_path):
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(2)
    now = [1000]
    try:
        dog = pi_system.Watchdog(lambda m: pi_system.sd_notify(m, {"NOTIFY_SOCKET": path}), lambda: now[0])
        dog.feed()  # before start(): nothing sent
        dog.start(8000)
        assert server.recv(100) == b"READY=1\nSTATUS=serving the phones\nWATCHDOG_USEC=8000000\nWATCHDOG=1"
        for _ in range(30):  # the panel loop feeds every 80 ms
            now[0] += 80
            dog.feed()
        got = []
        server.settimeout(0.2)
        try:
            while True:
                got.append(server.recv(100))
        except TimeoutError:
            pass
        assert got == [b"WATCHDOG=1", b"WATCHDOG=1"]  # 2.4 s of feeds
        assert dog.feeds == 31
        dog.loosen()  # the box restarts itself: the boot's time again
        server.settimeout(2)
        assert server.recv(100) == b"WATCHDOG_USEC=30000000\nWATCHDOG=1"
    finally:
        server.close()
    assert pi_system.sd_notify("READY=1", {}) is False  # not under systemd: nothing to tell


def unit_entries(text):
    """[section] -> {key: [values]} (systemd allows a key several times)."""
    entries = {}
    section = None
    for line in text.splitlines():
        if line.startswith("["):
            section = entries.setdefault(line.strip("[]"), {})
        elif "=" in line:
            key, value = line.split("=", 1)
            section.setdefault(key, []).append(value)
    return entries


def test_the_systemd_unit_starts_at_boot_restarts_and_watches_the_box():
    watchdog_ms = int(re.search(r"^WATCHDOG_MS = const\((\d+)\)", (ROOT / "firmware" / "main.py").read_text(),
                                re.M).group(1))
    unit = unit_entries(pi_system.systemd_unit())
    service = unit["Service"]
    assert service["Type"] == ["notify"] and service["Restart"] == ["always"]
    # generous for a boot or a restart; the box tightens it to main.py's once it is up
    assert service["WatchdogSec"] == [str(pi_system.BOOT_WATCHDOG_S)] and pi_system.BOOT_WATCHDOG_S > 8
    dog_said = []
    pi_system.Watchdog(dog_said.append, lambda: 0).start(watchdog_ms)
    assert "WATCHDOG_USEC=%d" % (watchdog_ms * 1000) in dog_said[0].split("\n")
    assert service["ExecStart"] == ["/opt/tidebox/venv/bin/python /opt/tidebox/boards/cpython_main.py "
                                    "--board pi_bonnet /opt/tidebox/firmware/main.py"]
    assert service["WorkingDirectory"] == ["/opt/tidebox/firmware"]
    assert "TIDEBOX_SETTINGS=/etc/tidebox/settings.json" in service["Environment"]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    assert unit["Unit"]["After"] == ["NetworkManager.service"]
    assert unit["Unit"]["StartLimitIntervalSec"] == ["0"]  # never gives up restarting


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit(tmp_path):
    install = tmp_path / "opt"
    (install / "venv" / "bin").mkdir(parents=True)
    python = install / "venv" / "bin" / "python"
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    (install / "firmware").mkdir()
    unit = tmp_path / pi_system.UNIT_NAME
    unit.write_text(pi_system.systemd_unit(str(install)))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                          timeout=60)
    problems = [line for line in (proc.stdout + proc.stderr).splitlines() if str(unit) in line]
    assert proc.returncode == 0 and problems == [], proc.stdout + proc.stderr


# ---------------------------------------------------------------- the board and its saves


def test_saves_reach_the_card_before_and_after_the_rename(tmp_path, monkeypatch):
    from tidebox import storage

    monkeypatch.setattr(storage, "os", storage.os)  # the board replaces it: put it back afterwards
    synced = []
    real_fsync = os.fsync
    def fsync(fd):
        synced.append(os.readlink("/proc/self/fd/%d" % fd))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    radio = pi_system.Radio(SETTINGS, run=Nmcli())
    board = pi_bonnet.Board(SETTINGS, display=None, buttons=None, radio=radio,
                            watchdog=pi_system.Watchdog(lambda m: False), storage_dir=str(tmp_path / "state"))
    store = storage.Storage(board.storage_dir)
    store.save("game.json", {"round": 3})
    assert store.load("game.json") == {"round": 3}
    assert sorted(p.name for p in Path(board.storage_dir).iterdir()) == ["game.json"]
    assert synced == [str(tmp_path / "state" / "game.json.tmp"), str(tmp_path / "state")]
    assert board.tcp_gate.limit == 16 and board.tcp_gate.wait  # no lwIP ceiling: a setting
    assert board.buzzer is None and board.http_port == 80 and board.page_url() == "http://192.168.4.1/"



RESTARTING = """
import json, os, sys
sys.path[:0] = [{boards!r}, {firmware!r}]
import pi_bonnet, pi_system

def notify(message):
    print(json.dumps(["notify", message]), flush=True)

board = pi_bonnet.Board(dict(pi_bonnet.DEFAULTS), None, None, radio=object(),
                        watchdog=pi_system.Watchdog(notify, lambda: 0), storage_dir={state!r})
runs = int(os.environ.get("RUNS", "0")) + 1
os.environ["RUNS"] = str(runs)  # the environment goes through exec
print(json.dumps(["run", runs, os.getpid(), sys.argv[1:]]), flush=True)
if runs == 1:
    board.restart()
"""


def test_the_box_restarting_itself_runs_the_same_process_again(tmp_path):
    """Board.restart (a Pico's soft reset): the process execs its own command line: the same pid,
    so systemd sees no restart of the unit; the watchdog is given the boot's time first."""
    script = tmp_path / "restarting.py"
    script.write_text(RESTARTING.format(boards=str(ROOT / "boards"), firmware=str(ROOT / "firmware"),
                                        state=str(tmp_path / "state")))
    proc = subprocess.run([sys.executable, str(script), "--an", "argument"], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, RUNS="0"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    pid = lines[0][2]
    assert lines == [["run", 1, pid, ["--an", "argument"]],
                     ["notify", "WATCHDOG_USEC=30000000\nWATCHDOG=1"],  # the restart gets the boot's time
                     ["run", 2, pid, ["--an", "argument"]]]  # run again, in the same process
