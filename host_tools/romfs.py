"""The firmware as a ROMFS image, for `make bench`: what running from ROMFS would save.

ROMFS (MicroPython 1.25 and newer) is a read-only filesystem in its own flash partition whose `.mpy`
files run in place: their bytecode and constants are never copied to the heap, as with frozen
modules. On a board that has one it is mounted at /rom at boot, ahead of the other filesystems.

`build_romfs_tree()` lays out build/romfs/: every `.mpy` of the simulator's tree packed into
app.romfs with mpremote's own builder, the rest (main.py, the page, the /sim page) as files, and a
boot script that mounts the image as the board would and imports main.py. The unix port keeps the
image in its heap; the board keeps it in flash, so a heap figure here is the run's heap less the
image (see memory_proof.run_game).
"""

import contextlib
import io
import shutil
import tempfile
from pathlib import Path

import build

ROMFS_DIR = build.ROOT / "build" / "romfs"
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
