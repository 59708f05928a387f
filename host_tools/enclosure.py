#!/usr/bin/env python3
"""Render the Tidebox enclosure with the OpenSCAD command line.

    make enclosure        (= python host_tools/enclosure.py)

writes into build/enclosure/:
    base.stl, lid.stl, button_caps.stl   the printed parts, in print orientation
    <part>.log                           OpenSCAD's log for each part (echoed CHECK values, warnings)
    fit_check.log                        collisions between parts and bought parts (must be none)
    assembly.png, assembly_open.png      colour previews of the box, closed and opened
    <part>.png                           a preview of each part as printed

`--update-readme-preview` also refreshes enclosure/preview.png and preview_open.png (committed).

Any `WARNING:` or `ERROR:` in a log fails the build: OpenSCAD exits 0 even when it
produces a mesh that is not a valid 2-manifold, so the log is the only signal.

The tests import this module: build_parts() renders once and keeps the result (in the
process and, keyed by a digest of the sources, on disk), so calling it twice is free.
"""

import argparse
import ast
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "enclosure"
OUT = ROOT / "build" / "enclosure"
PARTS = ("base", "lid", "button_caps")
# committed images for enclosure/README.md: build/enclosure/<name>.png -> enclosure/<file>
README_PREVIEWS = {"assembly": "preview.png", "assembly_open": "preview_open.png"}

# name -> (scad file, extra -D definitions, camera, image size, full render)
PREVIEWS = {
    "assembly": ("assembly.scad", [], "0,0,0,55,0,25,0", (900, 680), False),
    "assembly_open": ("assembly.scad", ['view="open"'], "0,0,0,50,0,20,0", (1000, 640), False),
    "base": ("base.scad", [], "0,0,0,55,0,25,0", (640, 480), True),
    "lid": ("lid.scad", [], "0,0,0,55,0,25,0", (640, 480), True),
    "button_caps": ("button_caps.scad", [], "0,0,0,50,0,20,0", (640, 360), True),
}

_LOG_PROBLEM = re.compile(r"^(WARNING|ERROR|DEPRECATED):.*$", re.MULTILINE)
_EMPTY = "Current top level object is empty."


class EnclosureError(RuntimeError):
    """A render failed or OpenSCAD complained."""


class Part:
    """One rendered part: where its files are and what its model echoed."""

    def __init__(self, name, stl, log_path, log, seconds, cached):
        self.name = name
        self.stl = stl
        self.log_path = log_path
        self.log = log
        self.seconds = seconds
        self.cached = cached
        self.checks = parse_checks(log)

    def check(self, key):
        """Every CHECK line with this key, as lists of values (without "CHECK" and the key)."""
        return [c[1:] for c in self.checks if c[0] == key]

    def one(self, key):
        rows = self.check(key)
        if len(rows) != 1:
            raise EnclosureError(f"{self.name}: expected one CHECK {key!r}, found {len(rows)}")
        return rows[0]


def openscad():
    """Path of the openscad command, or a clear error."""
    exe = shutil.which(os.environ.get("OPENSCAD", "openscad"))
    if not exe:
        raise EnclosureError("openscad not found: install it (Debian: apt-get install openscad, "
                             "or run bash host_tools/debian_deps.sh)")
    return exe


_version = []


def openscad_version():
    if not _version:
        out = subprocess.run([openscad(), "--version"], capture_output=True, text=True)
        _version.append((out.stdout + out.stderr).strip())
    return _version[0]


def sources_digest(extra=""):
    """Digest of every .scad file, the OpenSCAD version and `extra`: decides whether a render is stale."""
    h = hashlib.sha256()
    for path in sorted(SRC.glob("*.scad")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(openscad_version().encode())
    h.update(extra.encode())
    return h.hexdigest()


def parse_checks(log):
    """The values of every `echo("CHECK", ...)` line in an OpenSCAD log."""
    checks = []
    for line in log.splitlines():
        if not line.startswith('ECHO: "CHECK", '):
            continue
        body = line[len('ECHO: "CHECK", '):]
        body = body.replace("true", "True").replace("false", "False").replace("undef", "None")
        checks.append(list(ast.literal_eval("[" + body + "]")))
    return checks


def log_problems(log):
    """Every warning or error line in an OpenSCAD log."""
    return [m.group(0) for m in _LOG_PROBLEM.finditer(log)]


def run_openscad(args, log_path, display=False):
    """Run openscad with `args`, write its combined output to log_path, return (exit code, log)."""
    cmd = [openscad(), *args]
    if display and not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            raise EnclosureError("PNG previews need a display: install xvfb and xauth (xvfb-run)")
        cmd = [xvfb, "-a", *cmd]
    proc = subprocess.run(cmd, cwd=SRC, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    log_path.write_text(log)
    return proc.returncode, log


def _fresh(paths, stamp, digest):
    return all(p.exists() for p in paths) and stamp.exists() and stamp.read_text() == digest


_memo = {}


def render_part(name, out=OUT, force=False):
    """Render enclosure/<name>.scad to <out>/<name>.stl; raise EnclosureError on any warning."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stl, log_path, stamp = out / f"{name}.stl", out / f"{name}.log", out / f".{name}.digest"
    digest = sources_digest(name)
    key = (name, str(out.resolve()), digest)
    if not force and key in _memo and _fresh([stl, log_path], stamp, digest):
        return _memo[key]
    cached = not force and _fresh([stl, log_path], stamp, digest)
    t0 = time.monotonic()
    if cached:
        log = log_path.read_text()
    else:
        stamp.unlink(missing_ok=True)
        rc, log = run_openscad(["--export-format", "binstl", "-o", str(stl), f"{name}.scad"], log_path)
        problems = log_problems(log)
        if rc != 0 or problems or not stl.exists():
            detail = "\n".join(problems or log.splitlines()[-5:])
            raise EnclosureError(f"{name}.scad: openscad exit {rc}; see {log_path}\n{detail}")
        stamp.write_text(digest)
    part = Part(name, stl, log_path, log, time.monotonic() - t0, cached)
    _memo[key] = part
    return part


def build_parts(out=OUT, force=False):
    """Render every printed part (or reuse up-to-date renders); returns {name: Part}."""
    return {name: render_part(name, out, force) for name in PARTS}


def fit_check(out=OUT, force=False):
    """Render fit_check.scad: intersections of every part with every other part and bought part.

    Returns None when nothing collides, otherwise the STL of the collisions (and raises nothing:
    the caller decides). Warnings in the log raise EnclosureError like for the parts.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stl, log_path, stamp = out / "fit_check.stl", out / "fit_check.log", out / ".fit_check.digest"
    digest = sources_digest("fit_check")
    if force or not _fresh([log_path], stamp, digest):
        stamp.unlink(missing_ok=True)
        stl.unlink(missing_ok=True)
        rc, log = run_openscad(["--export-format", "binstl", "-o", str(stl), "fit_check.scad"], log_path)
        problems = log_problems(log)
        if problems or (rc != 0 and _EMPTY not in log):
            detail = "\n".join(problems or log.splitlines()[-5:])
            raise EnclosureError(f"fit_check.scad: openscad exit {rc}; see {log_path}\n{detail}")
        stamp.write_text(digest)
    log = log_path.read_text()
    return None if _EMPTY in log else stl


def render_preview(name, out=OUT):
    """Render one PNG preview under a virtual display when there is none."""
    scad, defines, camera, size, full = PREVIEWS[name]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    png, log_path = out / f"{name}.png", out / f"{name}.png.log"
    # `--render` takes an optional value: keep it in front of another option, never before the file
    args = ["--render"] if full else []
    args += ["-o", str(png), f"--imgsize={size[0]},{size[1]}", f"--camera={camera}", "--viewall",
             "--autocenter", "--colorscheme=Tomorrow", "--projection=p"]
    for d in defines:
        args += ["-D", d]
    rc, log = run_openscad([*args, scad], log_path, display=True)
    problems = log_problems(log)
    if rc != 0 or problems or not png.exists():
        raise EnclosureError(f"{name} preview: openscad exit {rc}; see {log_path}\n" + "\n".join(problems))
    return png


def stl_stats(path):
    """(triangle count, (min xyz), (max xyz)) of a binary STL, without extra libraries."""
    data = Path(path).read_bytes()
    (count,) = struct.unpack_from("<I", data, 80)
    lo, hi = [float("inf")] * 3, [float("-inf")] * 3
    for i in range(count):
        vals = struct.unpack_from("<12f", data, 84 + 50 * i)
        for v in range(3):
            for axis in range(3):
                c = vals[3 + 3 * v + axis]
                lo[axis] = min(lo[axis], c)
                hi[axis] = max(hi[axis], c)
    return count, tuple(lo), tuple(hi)


def save_readme_preview(png, dest):
    """Copy a preview into enclosure/ for the README, reduced to a palette to stay small."""
    try:
        from PIL import Image
    except ImportError:
        shutil.copyfile(png, dest)
        return dest
    with Image.open(png) as im:
        im.convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(dest, optimize=True)
    return dest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="output directory (default build/enclosure)")
    ap.add_argument("--force", action="store_true", help="render even when the sources did not change")
    ap.add_argument("--no-png", action="store_true", help="skip the PNG previews")
    ap.add_argument("--update-readme-preview", action="store_true",
                    help="also write enclosure/preview.png and preview_open.png for the README")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    try:
        parts = build_parts(args.out, args.force)
        collisions = fit_check(args.out, args.force)
        if collisions is not None:
            raise EnclosureError(f"parts collide in the assembled box: see {collisions}")
        pngs = [] if args.no_png else [render_preview(name, args.out) for name in PREVIEWS]
        if args.update_readme_preview:
            if args.no_png:
                raise EnclosureError("--update-readme-preview needs the PNG previews")
            for name, file in README_PREVIEWS.items():
                pngs.append(save_readme_preview(args.out / f"{name}.png", SRC / file))
    except EnclosureError as e:
        print(f"enclosure: {e}", file=sys.stderr)
        return 1
    print(f"{'part':<12} {'size x y z (mm)':<24} {'triangles':>9} {'render s':>9}")
    for part in parts.values():
        count, lo, hi = stl_stats(part.stl)
        size = " x ".join(f"{h - lo_:.1f}" for lo_, h in zip(lo, hi, strict=True))
        secs = "cached" if part.cached else f"{part.seconds:.1f}"
        print(f"{part.name:<12} {size:<24} {count:>9} {secs:>9}")
    print("fit check: no collisions")
    for png in pngs:
        print(f"preview: {png}")
    print(f"done in {time.monotonic() - t0:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
