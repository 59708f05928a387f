"""Compile the firmware for the MicroPython unix port (simulator and tests).

Lays out `build/sim/` as the board's filesystem would be: every firmware module compiled to
`.mpy` with mpy-cross, the microdot modules the firmware uses, and `boards/host.py` compiled as
the board. `main.py` stays source, as on the board. Only files whose source changed are recompiled.
"""

import ast
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "boards"
BUILD = ROOT / "build"
SIM_DIR = BUILD / "sim"
STAMPS = BUILD / ".stamps"  # what each .mpy under build/ was compiled from (compile_file)
# -O3 drops the line-number tables (about 8% of the bytecode, which an .mpy import copies into the
# heap); a crash log still names every function on the way, without its line.
MPY_OPTIONS = ("-O3",)
# The microdot modules the firmware imports (the package's others, e.g. sse or websocket, are unused).
MICRODOT_MODULES = ("__init__.py", "microdot.py", "helpers.py")


def venv_bin(name):
    candidate = Path(sys.executable).parent / name
    return str(candidate) if candidate.exists() else name


def mpy_cross():
    return os.environ.get("MPY_CROSS") or venv_bin("mpy-cross")


def micropython():
    return os.environ.get("MICROPYTHON") or venv_bin("micropython")


def microdot_dir():
    import microdot

    return Path(microdot.__file__).parent


def _stamp_of(dst):
    """Where the fingerprint of what a build-tree .mpy was compiled from is kept (None: not in the
    project's build folder, e.g. a test's own folder, which is always compiled afresh)."""
    try:
        rel = Path(dst).resolve().relative_to(BUILD)
    except ValueError:
        return None
    return STAMPS / rel.with_name(rel.name + ".sha1")


def compile_file(src, dst, source_name=None):
    """mpy-cross src -> dst (.mpy), skipped when dst was compiled from the same source text with the
    same options (a fingerprint, not timestamps: a checkout or a copy can leave an older source
    with a newer time, or an older .mpy looking newer)."""
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    stamp = _stamp_of(dst)
    fingerprint = hashlib.sha1(Path(src).read_bytes() + repr((MPY_OPTIONS, source_name)).encode()).hexdigest()
    if stamp is not None and dst.exists() and stamp.exists() and stamp.read_text() == fingerprint:
        return False
    cmd = [mpy_cross(), *MPY_OPTIONS, "-o", str(dst)]
    if source_name:
        cmd += ["-s", source_name]
    cmd.append(str(src))
    subprocess.run(cmd, check=True)
    if stamp is not None:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        part = stamp.with_name(stamp.name + ".%d" % os.getpid())
        part.write_text(fingerprint)
        part.replace(stamp)  # whole or absent, even with two builds at once
    return True


def game_ids(firmware=None):
    """The games the box hosts, in its menu's order: the ids in GAMES (firmware/tidebox/games/
    __init__.py), the one list the box, the page, the bundle and the bench read. Read from the source
    (GAMES must be a literal), so no tool imports the firmware for it; () for a firmware without it."""
    path = Path(firmware or FIRMWARE) / "tidebox" / "games" / "__init__.py"
    if not path.exists():
        return ()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "GAMES" for t in node.targets):
            return tuple(game for game, _title in ast.literal_eval(node.value))
    return ()


def left_out_games(firmware=None):
    """Game packages beside the registered ones that GAMES does not list: built into nothing."""
    folder = Path(firmware or FIRMWARE) / "tidebox" / "games"
    known = set(game_ids(firmware))
    return sorted(p.name for p in folder.glob("*/__init__.py") for p in [p.parent] if p.name not in known)


def firmware_sources():
    """(source path, path on the board) for every firmware module, main.py excluded, and the game
    packages GAMES leaves out (a game is on the box only once it is registered there)."""
    left_out = set(left_out_games())
    for src in sorted(FIRMWARE.rglob("*.py")):
        rel = src.relative_to(FIRMWARE)
        if rel.name == "main.py" and len(rel.parts) == 1:
            continue
        if rel.parts[:2] == ("tidebox", "games") and len(rel.parts) > 3 and rel.parts[2] in left_out:
            continue
        yield src, rel


def copy_if_changed(src, dst):
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not dst.exists() or dst.read_bytes() != src.read_bytes():
        shutil.copyfile(src, dst)


def build_tree(out_dir, board_module, board_extras=(), microdot_modules=MICRODOT_MODULES):
    """Compile firmware + microdot + the chosen board module (as board.mpy) and its helper modules
    into out_dir, laid out as on the board. microdot_modules: which of the package's files to
    include (the board bundle passes exactly those the firmware imports)."""
    out_dir = Path(out_dir)
    wanted = set()
    for src, rel in firmware_sources():
        dst = out_dir / rel.with_suffix(".mpy")
        compile_file(src, dst, str(rel))
        wanted.add(dst)
    for name in microdot_modules:
        dst = out_dir / "lib" / "microdot" / (name[:-3] + ".mpy")
        compile_file(microdot_dir() / name, dst, "microdot/" + name)
        wanted.add(dst)
    board_src = BOARDS / board_module
    dst = out_dir / "board.mpy"
    compile_file(board_src, dst, "board.py")
    wanted.add(dst)
    for extra in board_extras:
        dst = out_dir / (extra[:-3] + ".mpy")
        compile_file(BOARDS / extra, dst, extra)
        wanted.add(dst)
    if (FIRMWARE / "main.py").exists():
        copy_if_changed(FIRMWARE / "main.py", out_dir / "main.py")
    # Remove compiled leftovers of modules that no longer exist.
    for path in out_dir.rglob("*.mpy"):
        if path not in wanted:
            path.unlink()
    return out_dir


def build_page(out_dir):
    """The phones' page, pre-gzipped, into out_dir/www/ (host_tools/pagebuild.py builds it)."""
    import pagebuild

    return pagebuild.build_page(Path(out_dir) / "www")


def build_sim():
    tree = build_tree(SIM_DIR, "host.py", ("host_sim.py", "host_heap.py", "host_png.py", "host_pace.py"))
    copy_if_changed(BOARDS / "host_sim.html", tree / "host_sim.html")  # the simulator's /sim page
    build_page(tree)
    return tree


def micropython_env(tree, extra=None):
    """Environment for running the built tree under the unix port."""
    env = dict(os.environ)
    env["MICROPYPATH"] = "%s:%s:.frozen" % (tree, Path(tree) / "lib")
    if extra:
        env.update(extra)
    return env


if __name__ == "__main__":
    print(build_sim())
