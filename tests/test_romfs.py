"""The ROMFS option without a board, a MicroPython source tree or the emulator: the bundle's ROMFS
image (host_tools/romfs.py) holds every .mpy of the bundle byte for byte and nothing else, mounts
under the MicroPython unix port and the bundle imports from /rom; the project's ROMFS board
definitions (boards/PICO_W_ROMFS/, boards/PICO2_W_ROMFS/) hold the image with room to spare; and
deploy.py writes the image to a board whose firmware has a ROMFS partition (a fake one)."""

import hashlib
import json
import os
import subprocess
from pathlib import Path

import build
import bundle
import deploy
import pytest
import romfs
from boxrig import BOX_HEAP
from test_deploy import FakeTransport, compile_to, flash_files, run, write_info

FAKES = build.ROOT / "tests" / "mp_scripts" / "fakes_pico"
# Room the partition keeps for the bundle to grow: it must hold half as much again as today's image.
GROWTH = 1.5


def read_romfs(image):
    """{path: bytes} of a ROMFS image, read with the format's own rules (MicroPython's
    extmod/vfs_rom.c): a header, then records of (kind, length, payload) with lengths as big-endian
    base-128 numbers; directories (4) and files (5) hold a name and further records, a file's data is
    a verbatim record (2); padding (1) is skipped. Independent of mpremote's writer."""
    def uint(buf, i):
        value = 0
        while True:
            byte = buf[i]
            i += 1
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                return value, i

    def records(buf, prefix, out):
        i = 0
        while i < len(buf):
            kind, i = uint(buf, i)
            size, i = uint(buf, i)
            payload = buf[i:i + size]
            assert len(payload) == size, "a record runs past its directory"
            i += size
            if kind == 1:
                continue
            assert kind in (4, 5), "unexpected record kind %d" % kind
            name_len, j = uint(payload, 0)
            name = payload[j:j + name_len].decode()
            rest = payload[j + name_len:]
            if kind == 4:
                records(rest, prefix + name + "/", out)
            else:
                data_kind, k = uint(rest, 0)
                data_len, k = uint(rest, k)
                assert data_kind == 2, "file data as a pointer record"
                out[prefix + name] = bytes(rest[k:k + data_len])

    assert image[:3] == b"\xd2\xcd\x31", "not a ROMFS image"
    size, i = uint(image, 3)
    assert len(image) == i + size, "the header's length is not the image's"
    found = {}
    records(image[i:], "", found)
    return found


@pytest.fixture(scope="module")
def real_bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("romfs") / "bundle"
    bundle.build_bundle(out, "pico_w")
    return out


def bundle_mpy(bundle_dir):
    return {p.relative_to(bundle_dir).as_posix(): p.read_bytes() for p in sorted(bundle_dir.rglob("*.mpy"))}


def test_image_holds_every_mpy_of_the_bundle_and_nothing_else(real_bundle):
    image = romfs.bundle_image(real_bundle)
    files = read_romfs(image)
    mpy = bundle_mpy(real_bundle)
    assert len(mpy) > 30 and "lib/microdot/microdot.mpy" in mpy
    assert {"tidebox/transport.mpy", "tidebox/api.mpy", "tidebox/running.mpy"} <= set(mpy)
    assert sorted(files) == sorted(mpy)
    for rel, data in mpy.items():
        assert files[rel] == data, rel
    # the pages and the games' parts
    page = {"www/index.html.gz", "www/table.html.gz"} | {"www/%s.js.gz" % g for g in build.game_ids()}
    assert not {"main.py", "settings.json"} & set(files) and not page & set(files)
    # Every file the bundle has is either in the image or one of those that stay on the littlefs.
    on_lfs = set(bundle.tree_files(real_bundle)) - set(files)
    assert on_lfs == {"main.py", "settings.json"} | page
    # romfs.py's own file written next to the bundle is the same image.
    path, written = romfs.write_bundle_image(real_bundle)
    assert path == real_bundle.parent / "bundle.romfs" and path.read_bytes() == image == written


def test_image_refuses_a_stray_file(real_bundle, tmp_path):
    stray = tmp_path / "bundle"
    stray.mkdir()
    (stray / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="notes.txt"):
        romfs.bundle_image(stray)


IMPORT_FROM_ROM = r"""
import json
import sys
import vfs

image, lfs, fakes = sys.argv[2], sys.argv[3], sys.argv[4]
with open(image, "rb") as f:
    vfs.mount(vfs.VfsRom(f.read()), "/rom")
# As the board has it once the ROMFS is mounted: the filesystem, then /rom and /rom/lib (the fakes
# of the rp2 hardware first, as test_bundle.py has them; the littlefs holds main.py only).
sys.path[:] = [fakes, lfs, ".frozen", "/rom", "/rom/lib"]
import import_bundle  # noqa: E402 - imports board, main.py up to make_board, then every module

where = {}
for name, module in sys.modules.items():
    if name.split(".")[0] in ("tidebox", "microdot", "board", "pico_common"):
        where[name] = getattr(module, "__file__", "?")
print(json.dumps(where))
"""


def test_the_bundle_imports_from_the_mounted_image(real_bundle, tmp_path):
    """The image mounted at /rom under the unix port (VfsRom, as the board mounts its partition), a
    folder standing in for the littlefs with what deploy copies there: main.py's imports and every
    module of the bundle load, from /rom."""
    image = tmp_path / "bundle.romfs"
    image.write_bytes(romfs.bundle_image(real_bundle))
    lfs = tmp_path / "lfs"
    lfs.mkdir()
    for rel in ("main.py", "settings.json"):
        (lfs / rel).write_bytes((real_bundle / rel).read_bytes())
    script = tmp_path / "import_from_rom.py"
    script.write_text(IMPORT_FROM_ROM)
    work = tmp_path / "work"
    work.mkdir()
    names = sorted(bundle.import_closure("pico_w").modules)
    env = dict(os.environ, MICROPYPATH="")
    # The unix port keeps the image in its heap (the board keeps it in flash): the box's heap plus it.
    heap = "%dK" % (int(BOX_HEAP.rstrip("K")) + image.stat().st_size // 1024 + 1)
    cmd = [build.micropython(), "-X", "heapsize=" + heap, str(script), str(work), str(image), str(lfs),
           str(FAKES)]
    proc = subprocess.run(cmd, input=json.dumps(names), capture_output=True, text=True, timeout=120, env=env,
                          cwd=str(lfs))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    result, where = json.loads(lines[-2]), json.loads(lines[-1])
    assert result["main"] == "stopped at make_board" and result["failed"] == {}
    assert set(names) <= set(result["loaded"])
    assert where["tidebox"] == "/rom/tidebox/__init__.mpy"
    assert where["tidebox.transport"] == "/rom/tidebox/transport.mpy"
    assert where["tidebox.api"] == "/rom/tidebox/api.mpy"
    assert where["microdot.microdot"] == "/rom/lib/microdot/microdot.mpy"
    assert where["board"] == "/rom/board.mpy" and where["pico_common"] == "/rom/pico_common.mpy"
    assert all(f.startswith("/rom/") for f in where.values()), where


# --- the board definitions ------------------------------------------------------------------------


@pytest.mark.parametrize("board", sorted(romfs.LAYOUTS))
def test_board_definition_holds_the_image_with_room(real_bundle, board):
    layout = romfs.LAYOUTS[board]
    assert layout.board_dir.name == {"pico_w": "PICO_W_ROMFS", "pico2_w": "PICO2_W_ROMFS"}[board]
    header = (layout.board_dir / "mpconfigboard.h").read_text()
    cmake = (layout.board_dir / "mpconfigboard.cmake").read_text()
    # MicroPython's own board, of the same name, and nothing else changed but the partition.
    assert '#include "boards/%s/mpconfigboard.h"' % layout.upstream in header
    assert "include(${MICROPY_PORT_DIR}/boards/%s/mpconfigboard.cmake)" % layout.upstream in cmake
    assert "boards/%s/manifest.py" % layout.upstream in cmake
    assert "MICROPY_HW_FLASH_STORAGE_BYTES" not in header + cmake  # the littlefs keeps its place
    size = layout.romfs_bytes
    assert size % 4096 == 0  # rp2_flash.c: a multiple of the 4 KB erase block
    image = romfs.bundle_image(real_bundle)  # the pico2_w bundle differs only in board.mpy's bytes
    assert len(image) * GROWTH <= size, "the ROMFS partition (%d) leaves too little room for %d bytes" % (
        size, len(image))
    # The partition sits right below the littlefs, inside the flash, with the firmware's space below it.
    assert layout.romfs_offset + size == layout.storage_offset == layout.flash_bytes - layout.storage_bytes
    assert layout.romfs_offset >= 900 * 1024  # MicroPython's RPI_PICO_W firmware is about 890 KB


def test_romfs_size_is_read_from_the_header():
    assert romfs.header_romfs_bytes("#define MICROPY_HW_ROMFS_BYTES (256 * 1024)\n") == 262144
    assert romfs.header_romfs_bytes("#define MICROPY_HW_ROMFS_BYTES    (64 + 64) // c\n") == 128
    with pytest.raises(ValueError):
        romfs.header_romfs_bytes("// MICROPY_HW_ROMFS_BYTES (256 * 1024)\n")
    assert romfs.cmake_storage_bytes("    set(MICROPY_HW_FLASH_STORAGE_BYTES 868352)  # 848 * 1024") == 868352


def test_partition_declared_in_the_firmware_is_found():
    """romfs.tagged_partition reads pico-sdk's binary info the way firmware.py and bench-rp2040 check
    a build's partition: a block device entry (type 7, tag "MP") whose name is "ROMFS", also when the
    linker made that name the tail of a longer string."""
    import struct

    base = 0x10000000
    blob = bytearray(b"\x00" * 64) + b"PICO_W_ROMFS\x00MicroPython\x00" + b"\x00" * 3
    name = base + blob.index(b"ROMFS\x00")
    other = base + blob.index(b"MicroPython\x00")
    blob += struct.pack("<HHIIIIH", 7, 0x504D, other, base + 0x12C000, 868352, 0, 3)  # the littlefs
    blob += struct.pack("<HHIII", 6, 0x504D, name, 1, 2)  # not a block device: skipped
    blob += struct.pack("<HHIIIIH", 7, 0x504D, name, base + 0xEC000, 262144, 0, 1)
    assert romfs.tagged_partition(bytes(blob)) == (base + 0xEC000, 262144)
    assert romfs.tagged_partition(bytes(blob), b"MicroPython") == (base + 0x12C000, 868352)
    assert romfs.tagged_partition(bytes(blob[:-26])) is None
    assert romfs.tagged_partition(b"no such thing") is None


@pytest.mark.upstream
def test_layout_matches_the_upstream_boards():
    src = Path(os.environ["MICROPYTHON_SRC"]) / "ports" / "rp2"
    for layout in romfs.LAYOUTS.values():
        text = (src / "boards" / layout.upstream / "mpconfigboard.cmake").read_text()
        assert romfs.cmake_storage_bytes(text) == layout.storage_bytes, layout.upstream
    flash = (src / "rp2_flash.c").read_text()
    assert "MICROPY_HW_ROMFS_BASE (MICROPY_HW_FLASH_STORAGE_BASE - MICROPY_HW_ROMFS_BYTES)" in flash


# --- deploying to a board with a ROMFS partition --------------------------------------------------

# Runs before the deploy's probe on the fake board: a `vfs` whose rom_ioctl answers for one partition,
# a bytearray read from PARTITION (as some ports hand out a buffer, not a block device).
FAKE_VFS = r"""
import sys


class _FakeVfs:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.part = bytearray(f.read())

    def rom_ioctl(self, op, *args):
        if op == 1:
            return 1
        if op == 2 and args == (0,):
            return self.part
        return -22


sys.modules["vfs"] = _FakeVfs(%r)
"""


class RomfsTransport(FakeTransport):
    """The fake board with a ROMFS partition of `size` bytes (a file beside its flash folder)."""

    def __init__(self, flash, size=256 * 1024, fail_romfs=False, **kw):
        super().__init__(flash, **kw)
        self.partition = self.flash.parent / (self.flash.name + ".romfs-partition")
        if not self.partition.exists():
            self.partition.write_bytes(b"\xff" * size)
        self.fail_romfs = fail_romfs

    def exec(self, code):
        if code.startswith("# tidebox-deploy: probe"):
            code = code.split("\n", 1)[0] + "\n" + FAKE_VFS % str(self.partition) + code
        return super().exec(code)

    def romfs_deploy(self, image):
        self.steps.append(("romfs_deploy", Path(image).name))
        if self.fail_romfs:
            raise deploy.TransportError("ROMFS image is too big for the target partition")
        data = Path(image).read_bytes()
        part = bytearray(self.partition.read_bytes())
        assert len(data) <= len(part)
        part[:len(data)] = data
        self.partition.write_bytes(bytes(part))


def sha(data):
    return hashlib.sha256(data).hexdigest()


def test_romfs_board_gets_the_image_and_main_settings_page_as_files(small_bundle, tmp_path):
    flash = tmp_path / "flash"
    run(FakeTransport(flash), small_bundle)  # the board had the .mpy bundle on its littlefs
    board = RomfsTransport(flash)
    summary, log = run(board, small_bundle)
    image = romfs.bundle_image(small_bundle)
    assert board.partition.read_bytes()[:len(image)] == image
    assert read_romfs(image).keys() == {"board.mpy", "pico_common.mpy", "tidebox/__init__.mpy",
                                        "tidebox/box.mpy", "lib/microdot/__init__.mpy"}
    assert summary["romfs"] == len(image) and summary["copy"] == []
    # The .mpy copies on the littlefs would shadow the image's ('' comes before /rom in sys.path).
    assert summary["remove"] == ["board.mpy", "lib/microdot/__init__.mpy", "pico_common.mpy",
                                 "tidebox/__init__.mpy", "tidebox/box.mpy"]
    assert flash_files(flash) == ["lib/ssd1306.mpy", "main.py", "settings.json", "www/index.html.gz",
                                 "www/token_tide.js.gz"]
    kinds = [s[0] if s[0] != "exec" else s[1] for s in board.steps]
    assert kinds == ["devices", "connect", "probe", "romfs_deploy", "probe", "prepare", "reset"]
    assert "ROMFS partition (256 KB)" in log and "the ROMFS image is on the board" in log
    assert (small_bundle.parent / "bundle.romfs").read_bytes() == image

    again = RomfsTransport(flash)
    summary, log = run(again, small_bundle)
    assert [s for s in again.steps if s[0] in ("romfs_deploy", "put")] == []
    assert summary["romfs"] is None and "already holds this bundle" in log

    compile_to(small_bundle / "tidebox" / "box.mpy", "def box():\n    return 2\n")
    write_info(small_bundle)
    changed = RomfsTransport(flash)
    summary, _ = run(changed, small_bundle)
    assert ("romfs_deploy", "bundle.romfs") in changed.steps and changed.puts() == []
    assert read_romfs(changed.partition.read_bytes()[:summary["romfs"]])["tidebox/box.mpy"] == (
        small_bundle / "tidebox" / "box.mpy").read_bytes()


def test_fresh_romfs_board(small_bundle, tmp_path):
    board = RomfsTransport(tmp_path / "flash")
    summary, _ = run(board, small_bundle)
    assert sorted(board.puts()) == ["main.py", "settings.json", "www/index.html.gz", "www/token_tide.js.gz"]
    assert board.puts()[-1] == "main.py"
    assert summary["mip"] == ["ssd1306"] and summary["mkdirs"] == ["www"]


def test_romfs_dry_run_and_errors(small_bundle, tmp_path):
    board = RomfsTransport(tmp_path / "flash")
    summary, log = run(board, small_bundle, dry_run=True)
    assert "would write the ROMFS image" in log and ("romfs_deploy", "bundle.romfs") not in board.steps
    assert board.partition.read_bytes() == b"\xff" * 256 * 1024

    tiny = RomfsTransport(tmp_path / "tiny", size=256)
    with pytest.raises(deploy.DeployError, match="ROMFS partition holds 256"):
        run(tiny, small_bundle)
    assert tiny.puts() == []

    failing = RomfsTransport(tmp_path / "failing", fail_romfs=True)
    with pytest.raises(deploy.DeployError, match="Writing the ROMFS image failed"):
        run(failing, small_bundle)
    assert ("reset",) not in failing.steps

    class Lost(RomfsTransport):  # the write returns, but the partition does not hold the image
        def romfs_deploy(self, image):
            self.steps.append(("romfs_deploy", Path(image).name))

    lost = Lost(tmp_path / "lost")
    with pytest.raises(deploy.DeployError, match="does not hold the image"):
        run(lost, small_bundle)


def test_frozen_firmware_wins_over_a_partition(small_bundle, tmp_path):
    board = RomfsTransport(tmp_path / "flash", frozen=True)
    summary, log = run(board, small_bundle)
    assert summary["romfs"] is None and "frozen in" in log
    assert ("romfs_deploy", "bundle.romfs") not in board.steps


def test_mpremote_romfs_deploy_command(monkeypatch):
    calls = []

    def fake_run(cmd, capture_output, text, timeout):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "ROMFS image deployed\n", "")

    monkeypatch.setattr(deploy.subprocess, "run", fake_run)
    t = deploy.MpremoteTransport(mpremote="mpremote")
    t.connect("/dev/ttyACM0")
    t.romfs_deploy(Path("/b/bundle.romfs"))
    assert calls == [["mpremote", "connect", "/dev/ttyACM0", "romfs", "deploy", "/b/bundle.romfs"]]


def test_installed_mpremote_has_romfs_deploy():
    proc = subprocess.run([build.venv_bin("mpremote"), "romfs", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and "deploy" in proc.stdout
