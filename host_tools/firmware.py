"""Build MicroPython from a source tree: Tidebox's shipped rp2 firmware, the other rp2 builds the benches
compare, and a 32-bit unix port for heap figures.

    python host_tools/firmware.py ship --src MICROPYTHON_SRC
    python host_tools/firmware.py firmware --src MICROPYTHON_SRC [--board pico_w|pico2_w|all]
                                  [--stock] [--romfs] [--no-frozen] [--out DIR]
    python host_tools/firmware.py micropython32 --src MICROPYTHON_SRC

`ship` (make firmware) builds what Tidebox ships: the ROMFS firmware for the Pico W and the Pico 2 W
(MicroPython's RPI_PICO_W / RPI_PICO2_W with the project's board settings, boards/PICO_W_ROMFS/ and
boards/PICO2_W_ROMFS/: a ROMFS partition for the bundle and a larger mark stack), and
writes the images to boards/firmware/ with firmware.json (each file's SHA-256, the MicroPython
commit and version, the build command, a fingerprint of the board settings). The box's own code is
not in these images: it travels in the ROMFS image that `make bundle` writes and `make deploy` puts
in the partition. SOURCE_DATE_EPOCH is the pinned commit's date, so a rebuild from the same tree
gives the same bytes.

`firmware` builds RPI_PICO_W and/or RPI_PICO2_W into build/firmware/ for the benches: with Tidebox
frozen in (boards/manifest.py; it stages the bundle's import closure of firmware/main.py as
sources), `--stock` the board's unmodified firmware, `--romfs` the shipped one, `--no-frozen` without
the frozen build. Results, per board: OUT/<BOARD>/firmware.{elf,bin,uf2} (OUT/stock-<BOARD>/ and
OUT/romfs-<BOARD>/ for the others); cmake's build folders are OUT/cmake-<tag>/. The rp2 port is
configured with -DPICO_NO_PICOTOOL=1 (pico-sdk 2.x would otherwise fetch and build picotool at
configure time) and the .uf2 is written here (uf2.py).

`micropython32` (make micropython32) builds mpy-cross and the unix port as a 32-bit program
(MICROPY_FORCE_32BIT=1; Debian gcc-multilib): the same gc.c, block size and object layout as the
Pico, so its heap figures are the board's. It prints the binary's path, for
`MICROPYTHON=<path> make bench`.

Each build installs the Debian packages it needs (debian_deps.sh), and a failed build removes its
build folder, so the next try starts clean. The source tree is MicroPython at PINNED (a clone:
`git checkout` it, then `git submodule update --init` the SUBMODULES this needs); `ship` refuses
another commit, the others build with a warning.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import build
import bundle
import romfs
import shipped
import uf2

ROOT = build.ROOT
OUT_DIR = ROOT / "build" / "firmware"
MANIFEST = build.BOARDS / "manifest.py"
# MicroPython master of 2026-07-04, the closest to the venv's unix-port wheel (1.29.0-preview) that the
# tests run, so the chip runs the interpreter the tests prove; and the last on which the unix port
# honours MICROPY_FORCE_32BIT=1. v1.28.0 would give the Pico W 13 KB more heap (205,184 against
# 192,384 bytes: 1.29 runs vm, gc and parse from SRAM) but a different interpreter from the tests'.
PINNED = "3fff03367a"
PINNED_FULL = "3fff03367a6b32ff860ab1eb4d084da49583739f"
PINNED_DATE = 1783182141  # its commit date: SOURCE_DATE_EPOCH of a tree that is not a git checkout
BOARDS = {"pico_w": "RPI_PICO_W", "pico2_w": "RPI_PICO2_W"}
# Submodules each build needs (`git submodule update --init <these>`), with a file that shows them.
SUBMODULES = {
    "micropython32": ("lib/micropython-lib", "lib/mbedtls"),
    "firmware": ("lib/micropython-lib", "lib/mbedtls", "lib/pico-sdk", "lib/tinyusb", "lib/cyw43-driver",
                 "lib/lwip", "lib/btstack"),
}
# The collector's mark stack in Tidebox's own (frozen) firmware, in entries (2 bytes each on rp2).
# MicroPython's rp2 boards keep gc.c's default of 64 (1024 only with PSRAM); with the box's modules
# loaded the depth-first mark of sys.modules and a module's class dict (microdot's) needs more, and
# each overflow makes gc.c scan every marked block again (gc_deal_with_stack_overflow): a
# collection took twice as long. 256 entries cost 384 bytes of heap (the stack is static RAM).
GC_STACK_ENTRIES = 256
UNIX32_ARGS = ("MICROPY_FORCE_32BIT=1", "MICROPY_PY_FFI=0", "MICROPY_PY_BTREE=0", "BUILD=build-standard-32")
JOBS = str(os.cpu_count() or 2)
# The Debian packages each build needs (debian_deps.sh installs the missing ones).
TOOLCHAINS = {
    "micropython32": ("gcc-multilib", "make"),
    # libstdc++: the pico-sdk compiles its C++ new and delete (pico_cxx_options) into every firmware
    "firmware": ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "libstdc++-arm-none-eabi-newlib", "cmake",
                 "make", "python3"),
}


class FirmwareError(Exception):
    pass


def run(cmd, **kwargs):
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def install_toolchain(what):
    """The Debian packages `what` builds with: debian_deps.sh installs the missing ones (as root or
    with sudo) or says which to install."""
    deps = build.ROOT / "host_tools" / "debian_deps.sh"
    if subprocess.run(["bash", str(deps), *TOOLCHAINS[what]]).returncode:
        raise FirmwareError("the %s build needs the Debian packages %s" % (what, " ".join(TOOLCHAINS[what])))


def clean_on_failure(folder, step):
    """Runs step(); if it fails, removes `folder` (a half-made build: generated headers left empty
    by a failed try make the next one fail at once), then raises."""
    try:
        return step()
    except BaseException:
        if Path(folder).exists():
            print("firmware: the build failed; removing %s so the next try starts clean" % folder,
                  file=sys.stderr)
            shutil.rmtree(folder, ignore_errors=True)
        raise


def check_source(src, what):
    """The source tree, checked: a MicroPython tree with the submodules `what` needs."""
    if not src:
        raise FirmwareError(
            "Give a MicroPython source tree: MICROPYTHON_SRC=/path/to/micropython\n"
            "  git clone https://github.com/micropython/micropython && cd micropython\n"
            "  git checkout %s\n  git submodule update --init %s"
            % (PINNED, " ".join(SUBMODULES[what])))
    src = Path(src).resolve()
    if not (src / "py" / "mpconfig.h").exists():
        raise FirmwareError("%s is not a MicroPython source tree (no py/mpconfig.h)" % src)
    missing = [s for s in SUBMODULES[what] if not (src / s).is_dir() or not any((src / s).iterdir())]
    if missing:
        raise FirmwareError("%s lacks the submodules %s: `git -C %s submodule update --init %s`"
                            % (src, ", ".join(missing), src, " ".join(missing)))
    commit = source_commit(src)
    if commit is None:
        print("note: %s is not a git checkout; cannot check that it is commit %s" % (src, PINNED))
    elif not commit.startswith(PINNED):
        print("warning: %s is at %s, not the pinned %s: figures may differ" % (src, commit[:10], PINNED))
    return src


def source_commit(src):
    if not (Path(src) / ".git").exists():
        return None
    proc = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


# --- the 32-bit unix port ------------------------------------------------------------------------


def micropython32(src):
    """The 32-bit unix port from `src`, copied to host_tools/micropython32/ with its record (shipped.py):
    the interpreter make test judges the chip's heap on."""
    install_toolchain("micropython32")
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(source_date(src)))  # the commit's date, not today's
    clean_on_failure(src / "mpy-cross" / "build", lambda: run(["make", "-C", src / "mpy-cross", "-j" + JOBS],
                                                              env=env))
    out = src / "ports" / "unix" / "build-standard-32"
    clean_on_failure(out, lambda: run(["make", "-C", src / "ports" / "unix", "-j" + JOBS, *UNIX32_ARGS],
                                      env=env))
    binary = out / "micropython"
    out = subprocess.run([str(binary), "-c", "import sys; print(sys.maxsize == 2**31 - 1)"],
                         capture_output=True, text=True)
    if out.stdout.strip() != "True":
        raise FirmwareError("%s is not a 32-bit build (is gcc-multilib installed?)" % binary)
    command = "make micropython32 MICROPYTHON_SRC=<MicroPython at %s> (make -C ports/unix %s)" % (
        PINNED, " ".join(UNIX32_ARGS))
    return shipped.write_micropython32(binary, PINNED_FULL, command)


# --- the rp2 firmware ----------------------------------------------------------------------------


def stage_modules(board, stage):
    """The bundle's modules and every game, as sources laid out as on the board, into `stage`
    (for freeze())."""
    closure = bundle.import_closure(board)
    errors = closure.errors()
    if errors:
        raise FirmwareError("\n".join(errors))
    if stage.exists():
        shutil.rmtree(stage)
    # The games are loaded by name when the reader picks one (tidebox.games.load), which the import
    # scan cannot follow: every firmware module is frozen, but for the tests' own (NOT_ON_BOARD).
    sources = {m.dest: m.path for m in closure.modules.values()}
    for src, rel in build.firmware_sources():
        dest = rel.with_suffix(".mpy").as_posix()
        if dest not in bundle.NOT_ON_BOARD:
            sources.setdefault(dest, src)
    staged = []
    for dest, path in sources.items():
        rel = dest[:-len(".mpy")] + ".py"
        if rel.startswith("lib/"):
            rel = rel[len("lib/"):]  # lib/microdot/ on the filesystem; frozen, microdot/ at the root
        target = stage / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        staged.append(rel)
    return sorted(staged)


def build_rp2(src, board, out_dir, stock=False, rom=False):
    """Configure and build one board (Tidebox frozen in; `stock`: unmodified; `rom`: unmodified but
    for a ROMFS partition); returns the folder with firmware.elf, .bin and .uf2."""
    name = BOARDS[board]
    tag = ("stock-" if stock else "romfs-" if rom else "") + name
    cmake_dir = out_dir / ("cmake-" + tag)
    env = dict(os.environ)
    args = ["cmake", "-S", src / "ports" / "rp2", "-B", cmake_dir, "-DPICO_NO_PICOTOOL=1"]
    if rom:
        layout = romfs.LAYOUTS[board]
        args += ["-DMICROPY_BOARD=" + layout.board_dir.name, "-DMICROPY_BOARD_DIR=" + str(layout.board_dir)]
    else:
        args.append("-DMICROPY_BOARD=" + name)
    if not stock and not rom:
        stage = out_dir / ("freeze-" + name)
        staged = stage_modules(board, stage)
        print("%s: freezing %d modules from %s" % (name, len(staged), stage))
        env["TIDEBOX_FREEZE_DIR"] = str(stage)
        args.append("-DMICROPY_FROZEN_MANIFEST=" + str(MANIFEST))
        # The board's own compile definitions (RPI_PICO_W and RPI_PICO2_W set none).
        args.append("-DMICROPY_DEF_BOARD=MICROPY_ALLOC_GC_STACK_SIZE=%d" % GC_STACK_ENTRIES)
    env.setdefault("SOURCE_DATE_EPOCH", str(source_date(src)))  # the same bytes from the same tree
    clean_on_failure(cmake_dir, lambda: (run(args, env=env), run(["cmake", "--build", cmake_dir, "-j", JOBS],
                                                                   env=env)))
    if rom:
        check_romfs_layout(src, board, cmake_dir / "firmware.bin")
    result = out_dir / tag
    result.mkdir(parents=True, exist_ok=True)
    for suffix in (".elf", ".bin"):
        shutil.copyfile(cmake_dir / ("firmware" + suffix), result / ("firmware" + suffix))
    blocks = uf2.convert(result / "firmware.bin", result / "firmware.uf2", uf2.BOARD_FAMILY[name])
    print("%s: %s (%d KB, %d UF2 blocks)" % (tag, result / "firmware.uf2",
                                            (result / "firmware.bin").stat().st_size // 1024, blocks))
    return result


def source_date(src):
    """The tree's commit date (seconds): what the build stamps as its date, instead of today's."""
    proc = subprocess.run(["git", "-C", str(src), "log", "-1", "--format=%ct"], capture_output=True,
                          text=True)
    return int(proc.stdout) if proc.returncode == 0 and proc.stdout.strip() else PINNED_DATE


# What is inside the shipped images, and the licence texts each comes with (copied from the tree
# into boards/firmware/licences/ with the images): (name, what it is, licence, files in the tree).
PARTS = (
    ("MicroPython", "the interpreter and the rp2 port", "MIT", ("LICENSE",)),
    ("micropython-lib", "frozen modules: asyncio's helpers, mip, requests, aioble", "MIT",
     ("lib/micropython-lib/LICENSE",)),
    ("pico-sdk", "the RP2040/RP2350 SDK", "BSD-3-Clause", ("lib/pico-sdk/LICENSE.TXT",)),
    ("TinyUSB", "the USB stack (the REPL over USB)", "MIT", ("lib/tinyusb/LICENSE",)),
    ("cyw43-driver", "the Wi-Fi chip's driver and its firmware", "its own: only with Raspberry Pi's chips",
     ("lib/cyw43-driver/LICENSE", "lib/cyw43-driver/LICENSE.RP")),
    ("lwIP", "the TCP/IP stack", "BSD-3-Clause", ("lib/lwip/COPYING",)),
    ("BTstack", "Bluetooth (MicroPython's RPI_PICO_W keeps it; the box does not use it)",
     "its own, with Raspberry Pi's licence for use with its chips",
     ("lib/btstack/LICENSE", "lib/pico-sdk/src/rp2_common/pico_btstack/LICENSE.RP")),
    ("Mbed TLS", "TLS and crypto (the box serves plain HTTP)", "Apache-2.0 OR GPL-2.0-or-later",
     ("lib/mbedtls/LICENSE",)),
)


def write_licences(src):
    """boards/firmware/licences/: each part's licence texts, and LICENCES.md listing them."""
    folder = shipped.FIRMWARE_DIR / "licences"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    rows = []
    for name, what, licence, files in PARTS:
        copies = []
        for rel in files:
            dest = "%s-%s.txt" % (name.lower().replace(" ", "-"), Path(rel).name.lower().replace(".txt", ""))
            shutil.copyfile(src / rel, folder / dest)
            copies.append("[%s](licences/%s)" % (rel, dest))
        rows.append("| %s | %s | %s | %s |" % (name, what, licence, ", ".join(copies)))
    (shipped.FIRMWARE_DIR / "LICENCES.md").write_text(
        "# What the shipped firmware contains, and its licences\n\n"
        "The images in this folder are MicroPython %s built for the Pico W and the Pico 2 W (firmware.json,\n"
        "`make firmware`). They contain these parts, each under its own licence; the texts are in\n"
        "`licences/`, copied from the MicroPython tree and its submodules at that commit.\n\n"
        "| part | what it is | licence | texts |\n| --- | --- | --- | --- |\n%s\n"
        % (PINNED, "\n".join(rows)),
        encoding="utf-8")


def ship(src, out_dir):
    """Builds the shipped firmware of every board and writes it to boards/firmware/ (shipped.py)."""
    commit = source_commit(src)
    if commit is not None and commit != PINNED_FULL:
        raise FirmwareError("the shipped firmware is built from the pinned MicroPython %s; %s is at %s"
                            % (PINNED, src, commit[:10]))
    images = {}
    for board, name in BOARDS.items():
        result = build_rp2(src, board, out_dir, rom=True)
        data = (result / "firmware.uf2").read_bytes()
        version = romfs.program_version((result / "firmware.bin").read_bytes())
        target = shipped.FIRMWARE_DIR / shipped.file_name(board)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        images[board] = {"file": target.name, "board": name, "family": uf2.BOARD_FAMILY[name],
                         "sha256": shipped.sha256(data), "bytes": len(data), "version": version,
                         "symbols": {k: "0x%x" % v for k, v in sorted(shipped.elf_symbols(
                             result / "firmware.elf", shipped.BENCH_SYMBOLS).items())}}
        print("%s: %s, %d KB, sha256 %s, %s" % (board, target.relative_to(build.ROOT), len(data) // 1024,
                                                images[board]["sha256"], version))
    versions = {image["version"] for image in images.values()}
    if len(versions) != 1:
        raise FirmwareError("the boards' images declare different versions: %s" % ", ".join(sorted(versions)))
    shipped.write_manifest({
        "micropython": {"commit": commit or PINNED_FULL, "version": versions.pop()},
        "build": "make firmware MICROPYTHON_SRC=<MicroPython at %s, submodules %s>"
                 % (PINNED, " ".join(SUBMODULES["firmware"])),
        "source_date_epoch": source_date(src),
        "board_settings_sha256": shipped.board_settings_sha256(),
        "images": images,
    })
    write_licences(src)
    print("wrote %s and the licences" % (shipped.FIRMWARE_DIR / shipped.MANIFEST).relative_to(build.ROOT))


def check_romfs_layout(src, board, firmware_bin):
    """The ROMFS build's flash layout, checked against the source tree and the build: the storage
    where romfs.py expects it (RPI_PICO_W's, unchanged), the partition the firmware declares in its
    binary info where romfs.py puts the image, and the firmware ending below the partition (the
    linker only knows the storage, so it would let the firmware run into the partition)."""
    layout = romfs.LAYOUTS[board]
    upstream = (src / "ports" / "rp2" / "boards" / BOARDS[board] / "mpconfigboard.cmake").read_text()
    storage = romfs.cmake_storage_bytes(upstream)
    if storage != layout.storage_bytes:
        raise FirmwareError("%s keeps %s bytes of littlefs storage; romfs.py expects %d: update LAYOUTS"
                            % (BOARDS[board], storage, layout.storage_bytes))
    tagged = romfs.tagged_partition(firmware_bin.read_bytes())
    expected = (0x10000000 + layout.romfs_offset, layout.romfs_bytes)
    if tagged != expected:
        raise FirmwareError("the %s firmware declares its ROMFS partition at %s; romfs.py expects 0x%x, %d "
                            "bytes" % ((board, tagged and "0x%x, %d bytes" % tagged) + expected))
    size = firmware_bin.stat().st_size
    if size > layout.romfs_offset:
        raise FirmwareError("the %s firmware is %d bytes: it runs into the ROMFS partition at 0x%x; make "
                            "MICROPY_HW_ROMFS_BYTES in %s smaller" % (board, size, layout.romfs_offset,
                                                                      layout.board_dir / "mpconfigboard.h"))
    print("%s: firmware 0x0-0x%x, %d KB spare; ROMFS 0x%x-0x%x (%d KB); littlefs from 0x%x (%d KB)"
          % (layout.board_dir.name, size, (layout.romfs_offset - size) // 1024, layout.romfs_offset,
             layout.storage_offset, layout.romfs_bytes // 1024, layout.storage_offset,
             layout.storage_bytes // 1024))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("ship", "firmware", "micropython32"))
    parser.add_argument("--src", default=os.environ.get("MICROPYTHON_SRC") or None,
                        help="MicroPython source tree (default: $MICROPYTHON_SRC)")
    parser.add_argument("--board", default="all", choices=("all",) + tuple(BOARDS))
    parser.add_argument("--stock", action="store_true", help="also build the board's stock firmware")
    parser.add_argument("--romfs", action="store_true",
                        help="also build the firmware with a ROMFS partition (boards/PICO_W_ROMFS/, ...)")
    parser.add_argument("--no-frozen", action="store_true", help="leave out the build with Tidebox frozen in")
    parser.add_argument("--out", default=str(OUT_DIR))
    args = parser.parse_args(argv)
    try:
        src = check_source(args.src, "micropython32" if args.what == "micropython32" else "firmware")
        if args.what == "micropython32":
            print("32-bit MicroPython: %s\n(make test runs the heap tests on it; the whole project: "
                  "MICROPYTHON=%s make bench)" % ((shipped.shown(micropython32(src)),) * 2))
            return 0
        out_dir = Path(args.out).resolve()
        install_toolchain("firmware")
        if args.what == "ship":
            ship(src, out_dir)
            return 0
        if args.no_frozen and not (args.stock or args.romfs):
            raise FirmwareError("--no-frozen leaves nothing to build: add --stock or --romfs")
        for board in BOARDS if args.board == "all" else (args.board,):
            if not args.no_frozen:
                build_rp2(src, board, out_dir)
            if args.stock:
                build_rp2(src, board, out_dir, stock=True)
            if args.romfs:
                build_rp2(src, board, out_dir, rom=True)
    except FirmwareError as e:
        print("firmware: %s" % e, file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print("firmware: %s failed (exit %d)" % (e.cmd[0], e.returncode), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
