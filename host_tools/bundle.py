"""Build what goes on the board, without a board: build/bundle/ laid out as the board's filesystem.

    python host_tools/bundle.py [--board pico_w|pico2_w] [--settings FILE] [--out DIR]

    main.py                      the only source file (MicroPython runs it at boot)
    board.mpy                    boards/<board>.py, the hardware behind the board API
    pico_common.mpy              the board's helper module(s)
    tidebox/**.mpy               the firmware, compiled with mpy-cross
    lib/microdot/*.mpy           the microdot modules the firmware imports
    www/index.html.gz            the phones' page (host_tools/pagebuild.py)
    www/<game>.js.gz             each game's part of the page, for every game in GAMES
    settings.json                this box's settings (pins, panel, buzzer, Wi-Fi country)

The bundle holds exactly what main.py imports: the import closure is computed from the sources
(ast), following `import`, `from ... import`, literal `__import__("...")`, into firmware/, boards/
and microdot. An import guarded by `try: ... except ImportError` is optional: bundled when its
module exists, skipped when not. The build fails when a required module is missing, when a host-only
module (host, host_sim) would be needed, or when the compiled tree holds a module nothing imports
(except those NOT_ON_BOARD names: test support that lives in firmware/). The games are those GAMES
lists (firmware/tidebox/games/__init__.py): a game package it leaves out is not on the board, in
neither its code nor its part of the page.

Environment (so that `make bundle` / `make deploy` take them too): TIDEBOX_BOARD, TIDEBOX_SETTINGS.
"""

import argparse
import ast
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import build

ROOT = build.ROOT
FIRMWARE = build.FIRMWARE
BOARDS = build.BOARDS
BUNDLE_DIR = ROOT / "build" / "bundle"
BOARD_NAMES = ("pico_w", "pico2_w")
DEFAULT_BOARD = "pico_w"
SETTINGS_NAME = "settings.json"
PAGE_NAME = "www/index.html.gz"
PAGE_DIR = "www/"  # the page and the games' parts (host_tools/pagebuild.py): files, not code
MPY_MAJOR = 6  # .mpy version of MicroPython 1.20 and later
# The oldest releases the firmware's core tests passed on (make compat; tests/README.md, "The MicroPython
# releases tried"): on 1.21 and 1.22 a whole game runs out of the test heap; RPI_PICO2_W builds
# exist since 1.25.
MIN_FIRMWARE = {"pico_w": (1, 23, 0), "pico2_w": (1, 25, 0)}

# Built into (or frozen in) MicroPython's RPI_PICO_W / RPI_PICO2_W firmware: never bundled.
FIRMWARE_MODULES = frozenset((
    "_asyncio", "_thread", "aioble", "array", "asyncio", "binascii", "bluetooth", "builtins", "cmath",
    "collections", "cryptolib", "deflate", "dht", "ds18x20", "errno", "framebuf", "gc", "hashlib", "heapq",
    "io", "json", "lwip", "machine", "math", "micropython", "mip", "neopixel", "network", "ntptime",
    "onewire", "os", "platform", "random", "re", "requests", "rp2", "select", "socket", "ssl", "struct",
    "sys", "time", "tls", "uasyncio", "uctypes", "urequests", "vfs", "websocket",
    # the u-names older releases also answer to
    "ubinascii", "ucollections", "uerrno", "uhashlib", "uheapq", "uio", "ujson", "uos", "urandom", "ure",
    "uselect", "usocket", "ustruct", "usys", "utime",
))
# Installed on the board by deploy with `mpremote mip install <package>` (not part of the bundle).
MIP_PACKAGES = {"ssd1306": "ssd1306", "sh1106": "github:robert-hh/SH1106"}
# Modules of the host board and the simulator: never on a Pico.
HOST_ONLY = frozenset(("host", "host_sim", "host_heap", "host_png", "host_pace"))
# Imports on code paths that only CPython takes (module -> names); the board never needs them.
CPYTHON_ONLY = {"microdot.microdot": {"types"}}  # `if not hasattr(writer, "awrite")`: CPython streams
# Firmware modules that are there for the tests, not for the board: left out of the bundle. Any
# other firmware module that main.py does not import fails the build (dead code, or a missed import).
NOT_ON_BOARD = {
    "tidebox/games/seeded.mpy": "the tests' reproducible random source; the box uses os.urandom",
}
_IMPORT_ERRORS = ("ImportError", "ModuleNotFoundError", "Exception", "BaseException")


class BundleError(Exception):
    pass


class Module:
    """A module the bundle can carry: its source and its path on the board."""

    def __init__(self, name, path, dest, package=False):
        self.name = name
        self.path = Path(path)
        self.dest = dest
        self.package = package

    def __repr__(self):
        return "Module(%s -> %s)" % (self.name, self.dest)


class Import:
    def __init__(self, name, names, optional, line, fallback_for=None):
        self.name = name  # absolute dotted module name
        self.names = names  # the `from X import a, b` names (may be submodules)
        self.optional = optional  # inside `try:` with `except ImportError` (or broader)
        self.line = line
        # In such a try's except clause: the imports of the try body. The clause runs on the board
        # only if one of those fails, so this import is needed only then.
        self.fallback_for = fallback_for


# --- what can be bundled ---------------------------------------------------------------------


def _package_modules(folder, prefix, dest_root):
    """Every .py under folder as {dotted name: Module}, packages named by their __init__.py."""
    found = {}
    for path in sorted(Path(folder).rglob("*.py")):
        rel = path.relative_to(folder)
        if "__pycache__" in rel.parts:
            continue
        parts = list(rel.with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        name = ".".join(([prefix] if prefix else []) + parts)
        if not name:
            continue
        dest = "/".join(([dest_root] if dest_root else []) + list(rel.with_suffix(".mpy").parts))
        found[name] = Module(name, path, dest, package)
    return found


def available_modules(board=DEFAULT_BOARD, firmware=None, boards=None, microdot=None):
    """{module name: Module} for everything a Pico bundle may carry."""
    firmware = Path(firmware or FIRMWARE)
    boards = Path(boards or BOARDS)
    modules = _package_modules(firmware, "", "")
    modules.pop("main", None)  # the entry point, copied as source
    board_src = boards / (board + ".py")
    if not board_src.exists():
        raise BundleError("no board module %s" % board_src)
    modules["board"] = Module("board", board_src, "board.mpy")
    for path in sorted(boards.glob("*.py")):
        stem = path.stem
        if stem in HOST_ONLY or stem in BOARD_NAMES or stem in modules:
            continue
        modules[stem] = Module(stem, path, stem + ".mpy")  # a board helper, e.g. pico_common
    microdot = Path(microdot) if microdot else build.microdot_dir()
    modules.update(_package_modules(microdot, "microdot", "lib/microdot"))
    return modules


# --- the import scan ---------------------------------------------------------------------------


def _catches_import_error(handler):
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(k, ast.Name) and k.id in _IMPORT_ERRORS for k in kinds)


class _Scanner(ast.NodeVisitor):
    def __init__(self, package):
        self.package = package  # for relative imports
        self.optional = 0
        self.fallback = None
        self.imports = []
        self.dynamic = []

    def visit_Try(self, node):
        guarded = any(_catches_import_error(h) for h in node.handlers)
        self.optional += guarded
        first = len(self.imports)
        for child in node.body:
            self.visit(child)
        self.optional -= guarded
        tried = self.imports[first:]
        outer = self.fallback
        for handler in node.handlers:
            self.fallback = tried if (tried and _catches_import_error(handler)) else outer
            self.visit(handler)
        self.fallback = outer
        for child in node.orelse + node.finalbody:
            self.visit(child)

    visit_TryStar = visit_Try

    def _add(self, name, names, node):
        self.imports.append(Import(name, names, self.optional > 0, node.lineno, self.fallback))

    def visit_Import(self, node):
        for alias in node.names:
            self._add(alias.name, [], node)

    def visit_ImportFrom(self, node):
        if node.level:
            parts = self.package.split(".") if self.package else []
            if node.level - 1 > len(parts):
                raise BundleError("relative import beyond the top package at line %d" % node.lineno)
            base = parts[: len(parts) - (node.level - 1)]
            name = ".".join(base + ([node.module] if node.module else []))
        else:
            name = node.module
        self._add(name, [a.name for a in node.names if a.name != "*"], node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "__import__" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                self._add(first.value, [], node)
            else:
                self.dynamic.append(node.lineno)
        self.generic_visit(node)


def scan_imports(module):
    """(imports, lines of dynamic __import__ calls) of one Module's source."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    if module.package:
        package = module.name
    else:
        package = module.name.rpartition(".")[0]
    scanner = _Scanner(package)
    scanner.visit(tree)
    return scanner.imports, scanner.dynamic


class Closure:
    def __init__(self):
        self.modules = {}  # name -> Module, everything main.py needs that the bundle carries
        self.firmware = set()  # built into the MicroPython firmware
        self.mip = set()  # installed with mip by deploy
        self.skipped = []  # (importer, name): optional imports of modules that do not exist
        self.missing = []  # (importer, line, name)
        self.host_only = []  # (importer, line, name)
        self.dynamic = []  # (importer, line): __import__ with a computed name (not followed)

    def files(self):
        """Paths on the board that the bundle must hold (besides its assets)."""
        return {"main.py"} | {m.dest for m in self.modules.values()}

    def errors(self):
        lines = []
        for importer, line, name in self.missing:
            lines.append("%s line %d imports %s, which is neither in the firmware sources, nor in "
                         "boards/, nor in microdot, nor built into MicroPython" % (importer, line, name))
        for importer, line, name in self.host_only:
            lines.append("%s line %d imports %s, which exists on the host board only"
                         % (importer, line, name))
        return lines


def import_closure(board=DEFAULT_BOARD, firmware=None, boards=None, microdot=None):
    """Everything firmware/main.py imports, transitively, sorted into bundled, built-in and mip."""
    firmware = Path(firmware or FIRMWARE)
    boards = Path(boards or BOARDS)
    entry = firmware / "main.py"
    if not entry.exists():
        raise BundleError("%s is missing: the board has nothing to run" % entry)
    available = available_modules(board, firmware, boards, microdot)
    closure = Closure()
    queue = [Module("main", entry, "main.py")]
    seen = set()
    # The reader imports a game by name when it is chosen (tidebox/games/__init__.py), which no import
    # statement shows: every package GAMES lists, and its modules, are roots as well.
    registered = build.game_ids(firmware)
    for name in sorted(available):
        parts = name.split(".")
        if parts[:2] == ["tidebox", "games"] and len(parts) > 2 and parts[2] in registered:
            seen.add(name)
            closure.modules[name] = available[name]
            queue.append(available[name])

    def resolves(name):
        top = name.split(".")[0]
        return name in available or top in FIRMWARE_MODULES or top in MIP_PACKAGES

    def need(name, importer, imp):
        top = name.split(".")[0]
        where = importer.path.relative_to(ROOT) if importer.path.is_relative_to(ROOT) else importer.path
        where = str(where)
        if imp.fallback_for and all(resolves(tried.name) for tried in imp.fallback_for):
            return  # the try body's imports all succeed on the board: this fallback never runs
        if name in available:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                sub = ".".join(parts[:i])
                if sub in available and sub not in seen:
                    seen.add(sub)
                    closure.modules[sub] = available[sub]
                    queue.append(available[sub])
            return
        if name in CPYTHON_ONLY.get(importer.name, ()):
            return
        if top in FIRMWARE_MODULES:
            closure.firmware.add(top)
        elif top in MIP_PACKAGES:
            closure.mip.add(top)
        elif imp.optional:
            closure.skipped.append((importer.name, name))
        elif top in HOST_ONLY:
            closure.host_only.append((where, imp.line, name))
        else:
            closure.missing.append((where, imp.line, name))

    while queue:
        module = queue.pop(0)
        imports, dynamic = scan_imports(module)
        closure.dynamic.extend((module.name, line) for line in dynamic)
        for imp in imports:
            need(imp.name, module, imp)
            package = available.get(imp.name)
            for sub in imp.names:
                full = imp.name + "." + sub
                if full in available:
                    need(full, module, imp)
                elif package is not None and package.package and not _defines(package, sub):
                    need(full, module, imp)  # neither a name in the package nor a module: missing
    return closure


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _defines(module, name):
    """Does the module's top level define `name` (True when it cannot tell: a star import)?"""
    tree = ast.parse(module.path.read_text(encoding="utf-8"))
    found = set()

    def walk(body):
        for node in body:
            if isinstance(node, _DEFS):
                found.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if alias.name == "*":
                        found.add(name)
                    found.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    found.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list) and not isinstance(node, _DEFS):
                    walk(inner)

    walk(tree.body)
    return name in found


# --- settings ----------------------------------------------------------------------------------


def board_settings_api(boards=BOARDS):
    """boards/pico_common.py's DEFAULTS and _check, loaded on CPython with stand-ins for the
    hardware modules (only the settings part of the module is used)."""
    stubs = {name: types.ModuleType(name) for name in ("machine", "network", "micropython")}
    stubs["micropython"].const = lambda value: value
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    firmware = str(build.FIRMWARE)  # the board imports tidebox.gate
    added = firmware not in sys.path
    if added:
        sys.path.insert(0, firmware)
    try:
        source = Path(boards) / "pico_common.py"
        spec = importlib.util.spec_from_file_location("_pico_common_settings", source)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        if added:
            sys.path.remove(firmware)
        for name, old in saved.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
    return module.DEFAULTS, module._check


def make_settings(settings_file=None, boards=BOARDS):
    """(settings dict, explicit): the board's defaults, overlaid with settings_file if given."""
    defaults, check = board_settings_api(boards)
    settings = json.loads(json.dumps(defaults))  # a deep copy
    if not settings_file:
        return settings, False
    try:
        given = json.loads(Path(settings_file).read_text(encoding="utf-8"))
    except OSError as e:
        raise BundleError("cannot read the settings file %s: %s" % (settings_file, e.strerror)) from e
    except ValueError as e:
        raise BundleError("%s is not valid JSON: %s" % (settings_file, e)) from e
    if not isinstance(given, dict):
        raise BundleError("%s must hold a JSON object" % settings_file)
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise BundleError("%s: unknown setting(s) %s; known: %s"
                          % (settings_file, ", ".join(unknown), ", ".join(defaults)))
    settings.update(given)
    problem = check(settings)
    if problem:
        raise BundleError("%s: %s" % (settings_file, problem))
    return settings, True


def mip_needed(settings):
    """The mip packages this box needs on the board (its display driver)."""
    return [MIP_PACKAGES[settings["display"]]]


# --- the bundle --------------------------------------------------------------------------------


def mpy_header(path):
    """(major, sub-version, arch, small-int bits) of an .mpy file; raises BundleError if not one."""
    head = Path(path).read_bytes()[:4]
    if len(head) < 4 or head[0:1] != b"M":
        raise BundleError("%s is not an .mpy file" % path)
    return head[1], head[2] & 3, head[2] >> 2, head[3]


def mpy_cross_version():
    """The .mpy version mpy-cross emits, as "6.3" (from `mpy-cross --version`)."""
    out = subprocess.run([build.mpy_cross(), "--version"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"mpy v(\d+)\.(\d+)", out)
    if not match:
        raise BundleError("cannot tell which .mpy version mpy-cross emits: %r" % out.strip())
    return "%s.%s" % match.groups()


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def tree_files(out_dir):
    """Every file under out_dir as a path on the board ("tidebox/box.mpy")."""
    out_dir = Path(out_dir)
    return sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file())


def is_asset(rel):
    """A file of the bundle that is not code: the settings, the page and the games' parts."""
    return rel == SETTINGS_NAME or rel.startswith(PAGE_DIR)


def check_tree(out_dir, closure):
    """(missing, extra): code files the closure needs but the tree lacks, and the other way round."""
    present = {rel for rel in tree_files(out_dir) if not is_asset(rel)}
    wanted = closure.files()
    return sorted(wanted - present), sorted(present - wanted)


def _page(out_dir):
    """Build the phones' page into out_dir/www/ (host_tools/pagebuild.py), if that tool exists."""
    if not (Path(__file__).resolve().parent / "pagebuild.py").exists():
        return False
    build.build_page(out_dir)
    return True


def info_path(out_dir):
    out_dir = Path(out_dir)
    return out_dir.parent / (out_dir.name + ".json")


def build_bundle(out_dir=BUNDLE_DIR, board=DEFAULT_BOARD, settings_file=None):
    """Build the bundle; returns its info dict (also written next to it as <out_dir>.json)."""
    if board not in BOARD_NAMES:
        raise BundleError("unknown board %r: choose one of %s" % (board, ", ".join(BOARD_NAMES)))
    out_dir = Path(out_dir)
    settings, explicit = make_settings(settings_file)
    closure = import_closure(board)
    errors = closure.errors()
    if errors:
        raise BundleError("the firmware's imports cannot all be met on the board:\n  " + "\n  ".join(errors))
    for package in mip_needed(settings):
        name = [k for k, v in MIP_PACKAGES.items() if v == package][0]
        if name not in closure.mip:
            raise BundleError("settings ask for the %s display, but nothing imports %s" % (name, name))

    out_dir.mkdir(parents=True, exist_ok=True)
    # board.mpy is rebuilt every time: build_tree skips a file newer than its source, and the
    # previous bundle may have been made for the other board.
    (out_dir / "board.mpy").unlink(missing_ok=True)
    helpers = sorted(m.path.name for m in closure.modules.values()
                     if m.path.parent == BOARDS and m.name != "board")
    microdot_files = sorted(m.path.name for m in closure.modules.values()
                            if m.name.split(".")[0] == "microdot")
    build.build_tree(out_dir, board + ".py", helpers, microdot_modules=microdot_files)
    for rel in NOT_ON_BOARD:
        (out_dir / rel).unlink(missing_ok=True)
    # Leftovers of earlier builds that build_tree does not own (it cleans .mpy files only).
    for rel in tree_files(out_dir):
        if not rel.endswith(".mpy") and rel != "main.py" and not is_asset(rel):
            (out_dir / rel).unlink()

    missing, extra = check_tree(out_dir, closure)
    if missing or extra:
        lines = ["missing from the bundle: " + m for m in missing]
        lines += ["in the bundle but imported by nothing from main.py: %s (delete its source, or import "
                  "it)" % e for e in extra]
        raise BundleError("the bundle does not match main.py's imports:\n  " + "\n  ".join(lines))
    for rel in tree_files(out_dir):
        if rel.endswith(".mpy"):
            major, sub, arch, bits = mpy_header(out_dir / rel)
            if major != MPY_MAJOR or arch != 0:
                raise BundleError("%s is .mpy v%d (arch %d); the board needs bytecode-only v%d"
                                  % (rel, major, arch, MPY_MAJOR))

    (out_dir / SETTINGS_NAME).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")
    page = _page(out_dir)
    if not page:
        for rel in tree_files(out_dir):
            if rel.startswith(PAGE_DIR):
                (out_dir / rel).unlink()

    files = {rel: [(out_dir / rel).stat().st_size, sha256(out_dir / rel)] for rel in tree_files(out_dir)}
    info = {
        "board": board,
        "min_firmware": list(MIN_FIRMWARE[board]),
        "mpy_major": MPY_MAJOR,
        "mpy_cross": mpy_cross_version(),
        "settings_explicit": explicit,
        "settings": settings,
        "mip": mip_needed(settings),
        "firmware_modules": sorted(closure.firmware),
        "skipped_optional": sorted(name for importer, name in closure.skipped
                                   if not importer.startswith("microdot")),
        "page": page,
        "games": list(build.game_ids()),
        "left_out_games": build.left_out_games(),
        "files": files,
        "total_bytes": sum(size for size, _ in files.values()),
    }
    info_path(out_dir).write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return info


def report(info, out_dir):
    lines = ["Tidebox bundle for %s in %s:" % (info["board"], out_dir)]
    for rel, (size, _) in sorted(info["files"].items()):
        lines.append("  %7d  %s" % (size, rel))
    lines.append("  total %.1f KB in %d files" % (info["total_bytes"] / 1024, len(info["files"])))
    lines.append("  installed on the board by deploy (mip): %s" % ", ".join(info["mip"]))
    if info["skipped_optional"]:
        lines.append("  optional modules that do not exist yet (the firmware does without): %s"
                     % ", ".join(info["skipped_optional"]))
    lines.append("  games (GAMES): %s" % (", ".join(info["games"]) or "none"))
    if info["left_out_games"]:
        lines.append("  not on the board, as GAMES does not list them: %s"
                     % ", ".join(info["left_out_games"]))
    if not info["page"]:
        lines.append("  warning: host_tools/pagebuild.py is missing, so the bundle has no phone page")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default=os.environ.get("TIDEBOX_BOARD") or DEFAULT_BOARD,
                        choices=BOARD_NAMES)
    parser.add_argument("--settings", default=os.environ.get("TIDEBOX_SETTINGS") or None,
                        help="JSON file with this box's settings (keys as in boards/pico-w.md)")
    parser.add_argument("--out", default=str(BUNDLE_DIR))
    args = parser.parse_args(argv)
    try:
        info = build_bundle(Path(args.out), args.board, args.settings)
    except BundleError as e:
        print("bundle: " + str(e), file=sys.stderr)
        return 1
    print(report(info, args.out))
    try:  # the wiring diagram for boards/README.md, rendered with the build (needs Graphviz)
        import wiring

        print("  wiring diagram: %s" % wiring.render()["svg"])
    except Exception as e:  # noqa: BLE001 - the bundle is done; the diagram is a by-product
        print("  warning: the wiring diagram was not rendered (%s: %s)" % (type(e).__name__, e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
