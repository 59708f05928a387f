"""ROMFS images of the firmware: the bundle's for a board with a ROMFS partition, the simulator's for
`make bench`.

    python host_tools/romfs.py [--bundle build/bundle] [--out build/bundle.romfs]

ROMFS (MicroPython 1.25 and newer) is a read-only filesystem in its own flash partition whose `.mpy`
files run in place: their bytecode and constants are never copied to the heap, as with frozen
modules. On a board that has one it is mounted at /rom at boot (before boot.py and main.py run) and
sys.path becomes ['', '.frozen', '/rom', '/rom/lib', '/lib']: the current folder, the littlefs root,
still comes first, so a module there shadows the image's (deploy.py deletes such copies).

`bundle_image()` packs every `.mpy` of the bundle (bundle.py) into an image laid out as on the
board's filesystem (tidebox/..., lib/microdot/..., board.mpy, pico_common.mpy): /rom and /rom/lib
are on sys.path as / and /lib are. main.py, settings.json and the phones' page (www/: the shared
page and each game's part) stay files on the littlefs, as do the saved games in /data and the
display driver mip installs into /lib. Run as a program it writes the image next to the bundle
(build/bundle.romfs), which `make deploy` writes to a board whose firmware has a ROMFS partition
(`mpremote romfs deploy`). LAYOUTS is the flash layout
of the project's ROMFS firmware (boards/PICO_W_ROMFS/, boards/PICO2_W_ROMFS/, firmware.py --romfs).

`build_romfs_tree()` lays out build/romfs/: every `.mpy` of the simulator's tree packed into
app.romfs with mpremote's own builder, the rest (main.py, the page, the /sim page) as files, and a
boot script that mounts the image as the board would and imports main.py. The unix port keeps the
image in its heap; the board keeps it in flash, so a heap figure here is the run's heap less the
image (see memory_proof.run_game).
"""

import argparse
import contextlib
import hashlib
import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

import build

ROMFS_DIR = build.ROOT / "build" / "romfs"
HEADER = b"\xd2\xcd\x31"  # a ROMFS image starts with these bytes
# Bundle files that stay on the littlefs: main.py (MicroPython runs main.py from the current folder,
# as a source file), the box's own settings and the phones' page and games' parts (read by path).
NOT_IN_IMAGE = ("main.py", "settings.json", "www/")
IMAGE = "app.romfs"
BOOT_SCRIPT = "boot_rom.py"
BOOT = '''# Mounts app.romfs at /rom, as MicroPython does at boot on a board with a ROMFS partition.
import sys
import vfs

with open("app.romfs", "rb") as f:
    vfs.mount(vfs.VfsRom(f.read()), "/rom")
sys.path[:0] = ["/rom", "/rom/lib"]
del f
import main  # noqa: E402,F401 - runs the box, as main.py does on the board
'''


def build_romfs_tree(sim_tree=None):
    """build/romfs/ from the simulator's tree; returns (tree, image size in bytes)."""
    from mpremote.romfs import make_romfs

    sim_tree = Path(sim_tree or build.build_sim())
    if ROMFS_DIR.exists():
        shutil.rmtree(ROMFS_DIR)
    ROMFS_DIR.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as staging:
        for path in sim_tree.rglob("*"):
            rel = path.relative_to(sim_tree)
            if path.is_dir() or rel.parts[0] == "sim_state":
                continue
            target = Path(staging if path.suffix == ".mpy" else ROMFS_DIR) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        with contextlib.redirect_stdout(io.StringIO()):  # it prints the tree it packs
            image = make_romfs(staging, mpy_cross=False)
    (ROMFS_DIR / IMAGE).write_bytes(image)
    (ROMFS_DIR / BOOT_SCRIPT).write_text(BOOT)
    return ROMFS_DIR, len(image)


# --- the bundle's image, for a board with a ROMFS partition -----------------------------------------


def image_files(bundle_dir):
    """{path on the board: bytes} of what goes into the image: every .mpy of the bundle."""
    bundle_dir = Path(bundle_dir)
    files = {}
    for path in sorted(bundle_dir.rglob("*")):
        rel = path.relative_to(bundle_dir).as_posix()
        if path.is_file() and not rel.startswith(NOT_IN_IMAGE):
            if path.suffix != ".mpy":
                raise ValueError("%s is in the bundle but is neither an .mpy file nor one of %s"
                                 % (rel, ", ".join(NOT_IN_IMAGE)))
            files[rel] = path.read_bytes()
    return files


def bundle_image(bundle_dir):
    """The ROMFS image (bytes) of the bundle's .mpy files, laid out as on the board."""
    from mpremote.romfs import make_romfs

    files = image_files(bundle_dir)
    if not files:
        raise ValueError("%s holds no .mpy files: run `make bundle` first" % bundle_dir)
    with tempfile.TemporaryDirectory() as staging:
        for rel, data in files.items():
            target = Path(staging) / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        with contextlib.redirect_stdout(io.StringIO()):  # it prints the tree it packs
            return make_romfs(staging, mpy_cross=False)


def image_path(bundle_dir):
    """Where the bundle's image is written: next to the bundle (build/bundle.romfs)."""
    bundle_dir = Path(bundle_dir)
    return bundle_dir.parent / (bundle_dir.name + ".romfs")


def write_bundle_image(bundle_dir, out=None):
    """Write the bundle's image; returns (path, image bytes)."""
    image = bundle_image(bundle_dir)
    out = Path(out) if out else image_path(bundle_dir)
    out.write_bytes(image)
    return out, image


def sha256(data):
    return hashlib.sha256(data).hexdigest()


# --- the ROMFS firmware's flash layout ----------------------------------------------------------------


def header_romfs_bytes(text):
    """MICROPY_HW_ROMFS_BYTES from an mpconfigboard.h: "(256 * 1024)" -> 262144."""
    match = re.search(r"^#define\s+MICROPY_HW_ROMFS_BYTES\s+([0-9*+ ()]+?)\s*(//.*)?$", text, re.M)
    if not match:
        raise ValueError("no MICROPY_HW_ROMFS_BYTES in the board's mpconfigboard.h")
    return int(eval(match.group(1), {"__builtins__": {}}))  # digits, *, + and parentheses only


def cmake_storage_bytes(text):
    """MICROPY_HW_FLASH_STORAGE_BYTES from an upstream mpconfigboard.cmake."""
    match = re.search(r"set\(MICROPY_HW_FLASH_STORAGE_BYTES\s+(\d+)\)", text)
    return int(match.group(1)) if match else None


def tagged_partition(firmware, name=b"ROMFS", base=0x10000000):
    """(address, size) of the block device the rp2 firmware image `firmware` (bytes from `base`)
    declares under `name` in its binary info (pico-sdk bi_block_device, which rp2_flash.c makes for
    the ROMFS partition: type 7, tag "MP", then pointers to the name, the address and the size), or
    None. The name may be the tail of a longer string (the linker merges them)."""
    import struct

    start = 0
    while True:
        at = firmware.find(name + b"\0", start)
        if at < 0:
            return None
        pointer = struct.pack("<I", base + at)
        ref = firmware.find(pointer)
        while ref >= 4:
            if struct.unpack_from("<HH", firmware, ref - 4) == (7, 0x504D):
                return struct.unpack_from("<II", firmware, ref + 4)
            ref = firmware.find(pointer, ref + 1)
        start = at + 1


def program_version(firmware, base=0x10000000):
    """The version string the rp2 firmware image `firmware` declares in its binary info (pico-sdk's
    bi_program_version_string, which MicroPython's main.c sets to its git tag), or None: an entry of
    type 6 (id and string), tag "RP", id 0x11a9bc3a, then a pointer to the string."""
    import struct

    at = firmware.find(struct.pack("<HHI", 6, 0x5052, 0x11A9BC3A))
    if at < 0:
        return None
    pointer, = struct.unpack_from("<I", firmware, at + 8)
    start = pointer - base
    if not 0 <= start < len(firmware):
        return None
    return firmware[start:firmware.index(b"\0", start)].decode()


class Layout:
    """Flash of one ROMFS firmware: the firmware from 0, the ROMFS partition, the littlefs storage.
    The rp2 port puts the partition right below the storage (rp2_flash.c, MICROPY_HW_ROMFS_BASE)."""

    def __init__(self, board, upstream, flash_bytes, storage_bytes):
        self.board = board
        self.upstream = upstream  # MicroPython's board, which the project's board definition includes
        self.board_dir = build.BOARDS / (upstream.replace("RPI_", "") + "_ROMFS")
        self.flash_bytes = flash_bytes
        self.storage_bytes = storage_bytes  # the upstream board's, unchanged: saves survive reflashing
        self.storage_offset = flash_bytes - storage_bytes

    @property
    def romfs_bytes(self):
        return header_romfs_bytes((self.board_dir / "mpconfigboard.h").read_text())

    @property
    def romfs_offset(self):
        return self.storage_offset - self.romfs_bytes


# MicroPython's RPI_PICO_W: 2 MB flash, 848 KB littlefs; RPI_PICO2_W: 4 MB flash, 2.5 MB littlefs
# (their mpconfigboard.cmake; firmware.py checks these against the source tree it builds from).
LAYOUTS = {
    "pico_w": Layout("pico_w", "RPI_PICO_W", 2 * 1024 * 1024, 848 * 1024),
    "pico2_w": Layout("pico2_w", "RPI_PICO2_W", 4 * 1024 * 1024, 2560 * 1024),
}


def main(argv=None):
    import bundle

    parser = argparse.ArgumentParser(description="Write the bundle's ROMFS image (next to the bundle)")
    parser.add_argument("--bundle", default=str(bundle.BUNDLE_DIR), help="the bundle (make bundle)")
    parser.add_argument("--out", default=None, help="the image file (default: <bundle>.romfs)")
    args = parser.parse_args(argv)
    try:
        out, image = write_bundle_image(args.bundle, args.out)
    except ValueError as e:
        print("romfs: %s" % e, file=sys.stderr)
        return 1
    files = image_files(args.bundle)
    print("ROMFS image of %s: %s, %d bytes (%.1f KB), %d .mpy files (%d bytes)" % (
        args.bundle, out, len(image), len(image) / 1024, len(files), sum(len(d) for d in files.values())))
    for board, layout in LAYOUTS.items():
        print("  %s (%s): partition %d KB at 0x%x, %d KB spare" % (
            board, layout.board_dir.name, layout.romfs_bytes // 1024, 0x10000000 + layout.romfs_offset,
            (layout.romfs_bytes - len(image)) // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
