"""host_tools/pi_install.sh, run here as it runs on a fresh Raspberry Pi OS, into a folder of its own:
Raspberry Pi OS's commands (apt-get, raspi-config, systemctl, rfkill, nmcli) are stand-ins that
record what they are asked, and the venv's pip records what it would install (the package index is
not asked in a test); everything else is real: the venv, the copies, the page, the settings, the unit.
Then the installed tree is started the way the unit starts it, on this computer's interpreter."""

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "host_tools" / "pi_install.sh"
sys.path.insert(0, str(ROOT / "boards"))
import pi_system  # noqa: E402 - CPython only (the Pi board's), from boards/

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="the install runs as root (as on the Pi, and CI)"),
              pytest.mark.slow]  # each makes a venv
RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
{extra}
"""


@pytest.fixture
def pi(tmp_path):
    """A stand-in Pi: stub commands on PATH, the install's folders under tmp_path. run(*args) runs the
    script; .calls() the commands it ran."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    extras = {
        "raspi-config": 'case "$2" in get_wifi_country) echo "${PI_COUNTRY:-}";; esac',
        "nmcli": "", "apt-get": "", "systemctl": "", "rfkill": "", "pip": "",
    }
    for name, extra in extras.items():
        path = bin_dir / name
        path.write_text(RECORDER.format(log=log, extra=extra))
        path.chmod(0o755)
    (tmp_path / "boot").mkdir()
    config = tmp_path / "boot" / "config.txt"
    config.write_text("[all]\ndtparam=audio=on\n")

    class Pi:
        root = tmp_path
        prefix = tmp_path / "opt" / "tidebox"
        settings = tmp_path / "etc" / "tidebox" / "settings.json"
        unit = tmp_path / "etc" / "systemd" / "system" / "tidebox.service"
        boot_config = config

        def run(self, *args, country=""):
            env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]), PI_COUNTRY=country,
                       TIDEBOX_PREFIX=str(self.prefix), TIDEBOX_SETTINGS=str(self.settings),
                       TIDEBOX_STATE=str(tmp_path / "var" / "lib" / "tidebox"), TIDEBOX_UNIT=str(self.unit),
                       TIDEBOX_BOOT_CONFIG=str(config), TIDEBOX_PIP=str(bin_dir / "pip"))
            return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env,
                                  timeout=300)

        def calls(self):
            return log.read_text().splitlines() if log.exists() else []

    return Pi()


def test_a_fresh_pi_gets_the_packages_i2c_the_venv_the_firmware_the_settings_and_the_unit(pi):
    proc = pi.run("DE")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    calls = pi.calls()
    apt = [c for c in calls if c.startswith("apt-get install")]
    packages = ("python3-venv", "python3-libgpiod", "i2c-tools")
    assert len(apt) == 1 and all(p in apt[0].split() for p in packages)
    assert "raspi-config nonint do_i2c 0" in calls and "raspi-config nonint do_wifi_country DE" in calls
    assert pi.boot_config.read_text().splitlines().count("dtparam=i2c_arm_baudrate=400000") == 1
    assert "pip install -q --upgrade -r %s" % (ROOT / "boards" / "pi_requirements.txt") in calls
    assert "include-system-site-packages = true" in (pi.prefix / "venv" / "pyvenv.cfg").read_text()
    # the firmware as it is here, the Pi's board modules, the page built
    assert (pi.prefix / "firmware" / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    assert (pi.prefix / "firmware" / "tidebox" / "api.py").exists()
    assert sorted(p.name for p in (pi.prefix / "boards").iterdir()) == sorted(
        ["pi_bonnet.py", "pi_system.py", "pi_compat.py", "cpython_main.py", "cpython_transport.py",
         "font_petme128_8x8.bin"])
    page = gzip.decompress((pi.prefix / "firmware" / "www" / "index.html.gz").read_bytes()).decode()
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert json.loads(pi.settings.read_text()) == {"country": "DE"}
    assert pi.unit.read_text() == pi_system.systemd_unit(str(pi.prefix), str(pi.settings))
    assert "systemctl daemon-reload" in calls and "systemctl enable tidebox.service" in calls
    assert (pi.root / "var" / "lib" / "tidebox").is_dir()


def test_installing_again_keeps_the_settings_and_changes_only_the_country(pi):
    assert pi.run("DE").returncode == 0
    settings = json.loads(pi.settings.read_text())
    settings["flip"] = True  # the maker's own change
    pi.settings.write_text(json.dumps(settings))
    proc = pi.run(country="FR")  # no country given: the one the Pi has
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(pi.settings.read_text()) == {"country": "FR", "flip": True}
    assert pi.boot_config.read_text().count("i2c_arm_baudrate") == 1


def test_without_a_country_it_stops_and_says_how(pi):
    proc = pi.run()
    assert proc.returncode != 0 and "pi_install.sh GB" in proc.stderr
    assert not pi.unit.exists() and not any(c.startswith("apt-get install") for c in pi.calls())


def test_the_installed_tree_starts_as_the_unit_starts_it(pi, tmp_path):
    """ExecStart's launcher and main.py's modules, from the installed tree (on this computer's
    interpreter, which has the drivers): the firmware and the CPython transport load from there."""
    assert pi.run("GB").returncode == 0
    probe = tmp_path / "probe.py"
    probe.write_text("import json, os, pi_compat, tidebox\nfrom tidebox import transport\n"
                     "print(json.dumps([tidebox.__file__, transport.BoxServer.__module__,"
                     " os.path.exists(pi_compat.FONT_FILE), pi_compat.FONT_FILE]))\n")
    launcher = pi.prefix / "boards" / "cpython_main.py"
    proc = subprocess.run([sys.executable, str(launcher), "--board", "pi_bonnet", str(probe)],
                          capture_output=True, text=True, timeout=60, cwd=str(pi.prefix / "firmware"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tidebox_file, server_module, font_there, font_file = json.loads(proc.stdout.strip().splitlines()[-1])
    assert tidebox_file.startswith(str(pi.prefix / "firmware"))
    assert server_module == "cpython_transport" and font_there and font_file.startswith(str(pi.prefix))
