"""Tidebox's own MicroPython firmware, shipped in the repository: boards/firmware/.

MicroPython at a pinned commit with a 256 KB ROMFS partition (boards/PICO_W_ROMFS/,
boards/PICO2_W_ROMFS/), one .uf2 a board, and firmware.json saying what they are:

    {"micropython": {"commit": "...", "version": "..."}, "build": "<command>",
     "images": {"pico_w": {"file": "tidebox-pico_w.uf2", "sha256": "...", "board": "RPI_PICO_W",
                           "family": "rp2040"}, "pico2_w": {...}}}

A maker flashes one of them once (BOOTSEL, copy it to the drive); `make deploy` then writes the
bundle's ROMFS image and files (deploy.py). Code finds the images through `uf2_path(board)`.
"""

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import build

ROOT = build.ROOT
FIRMWARE_DIR = ROOT / "boards" / "firmware"
MANIFEST = "firmware.json"
DEFAULT_FILES = {"pico_w": "tidebox-pico_w.uf2", "pico2_w": "tidebox-pico2_w.uf2"}  # without firmware.json
BOOTSEL_DRIVE = {"pico_w": "RPI-RP2", "pico2_w": "RP2350"}  # the USB drive a Pico shows while BOOTSEL is held
BOARD_NAME = {"pico_w": "Pico W", "pico2_w": "Pico 2 W"}


def manifest():
    """firmware.json as a dict ({} while there is none)."""
    path = FIRMWARE_DIR / MANIFEST
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def uf2_path(board):
    """The shipped firmware image for `board` ("pico_w" or "pico2_w"); it may not exist."""
    if board not in DEFAULT_FILES:
        raise ValueError("no shipped firmware for board %r (%s)" % (board, ", ".join(DEFAULT_FILES)))
    entry = manifest().get("images", {}).get(board) or {}
    return FIRMWARE_DIR / entry.get("file", DEFAULT_FILES[board])


def shown(path):
    """The path as a maker types it: relative to the repository when it is in it."""
    try:
        return Path(path).resolve().relative_to(ROOT.resolve()).as_posix()
    except ValueError:
        return str(path)


def check(board):
    """The shipped image for `board`, after checking it is there and matches firmware.json's SHA-256;
    raises ValueError saying what is wrong."""
    path = uf2_path(board)
    if not path.is_file():
        raise ValueError("%s is not in this checkout (`git pull` brings it; boards/README.md says how "
                         "to build it: `make firmware`)" % shown(path))
    want = (manifest().get("images", {}).get(board) or {}).get("sha256")
    if want and hashlib.sha256(path.read_bytes()).hexdigest() != want.lower():
        raise ValueError("%s does not match the SHA-256 in %s (a Git LFS pointer, or damaged): "
                         "`git checkout -- %s`" % (shown(path), MANIFEST, shown(FIRMWARE_DIR)))
    return path


# --- the 32-bit unix port the heap tests run on (make micropython32) ------------------------------
# MicroPython 3fff03367a as a 32-bit unix program: the Pico's 4-byte words and 16-byte GC blocks, so
# its heap figures are the chip's. Committed as the firmware images are, so that every make test
# judges the shipped heap without a MicroPython tree (it needs Debian's libc6-i386 to run).
MICROPYTHON32_DIR = ROOT / "host_tools" / "micropython32"
MICROPYTHON32 = MICROPYTHON32_DIR / "micropython"
MICROPYTHON32_RECORD = MICROPYTHON32_DIR / "micropython32.json"


def micropython32():
    """The committed 32-bit MicroPython, after checking it against its record; ValueError otherwise."""
    if not MICROPYTHON32.is_file() or not MICROPYTHON32_RECORD.is_file():
        raise ValueError("%s is not in this checkout: `make micropython32 MICROPYTHON_SRC=...` builds it"
                         % shown(MICROPYTHON32))
    record = json.loads(MICROPYTHON32_RECORD.read_text(encoding="utf-8"))
    if sha256(MICROPYTHON32.read_bytes()) != record["sha256"]:
        raise ValueError("%s does not match the SHA-256 in %s" % (shown(MICROPYTHON32),
                                                                 shown(MICROPYTHON32_RECORD)))
    return MICROPYTHON32


def write_micropython32(binary, commit, command):
    """Copy a fresh 32-bit build beside its record (firmware.py micropython32)."""
    MICROPYTHON32_DIR.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(binary, MICROPYTHON32)
    MICROPYTHON32.chmod(0o755)
    version = subprocess.run([str(MICROPYTHON32), "-c", "import sys; print(sys.version)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    record = {"file": MICROPYTHON32.name, "sha256": sha256(MICROPYTHON32.read_bytes()),
              "bytes": MICROPYTHON32.stat().st_size,
              "micropython": {"commit": commit, "version": version}, "build": command,
              "runs_with": "Debian libc6-i386",
              "licence": "MIT: boards/firmware/licences/micropython-license.txt"}
    MICROPYTHON32_RECORD.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return MICROPYTHON32


# --- writing them (firmware.py ship, make firmware) -----------------------------------------------


# Functions the emulated chip watches by their entry (pico_sim.mjs): the bench times the first three
# (--uart-read, --gc-collect), and the stand-in link's input is kept out of lwIP's timers' way
# (--ppp-input). Found in the build's ELF file, which is not shipped: their addresses are kept in
# firmware.json instead.
BENCH_SYMBOLS = ("mp_machine_uart_read", "mp_call_function_1_protected", "gc_collect", "pppos_input")


def elf_symbols(elf, names):
    """{name: address} of the functions `names` in an ARM ELF file's symbol table (what the firmware
    build leaves beside firmware.uf2), read here so no ARM binutils are needed."""
    import struct

    data = Path(elf).read_bytes()
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    found = {}
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, value, _, info, _, _ = struct.unpack_from("<IIIBBH", data, at)
            end = data.index(b"\0", strings + name_at)
            name = data[strings + name_at:end].decode()
            if name in names and info & 0xF == 2:  # STT_FUNC
                found[name] = value
    return found


def symbols(board):
    """{name: address} of BENCH_SYMBOLS in the shipped image for `board` (firmware.json)."""
    entry = manifest().get("images", {}).get(board) or {}
    return {k: int(v, 16) for k, v in (entry.get("symbols") or {}).items()}


def file_name(board):
    return DEFAULT_FILES[board]


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def board_settings_sha256():
    """A fingerprint of the project's board definitions the images are built from: a change there
    without a rebuild shows as a mismatch with firmware.json (tests/test_shipped_firmware.py)."""
    digest = hashlib.sha256()
    for folder in sorted(build.BOARDS.glob("*_ROMFS")):
        for path in sorted(folder.iterdir()):
            digest.update(path.relative_to(build.BOARDS).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def write_manifest(data):
    FIRMWARE_DIR.mkdir(parents=True, exist_ok=True)
    (FIRMWARE_DIR / MANIFEST).write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
