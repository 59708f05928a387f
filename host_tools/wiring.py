"""Render the wiring diagram: boards/wiring.yml (WireViz) -> build/wiring/wiring.svg, .png, .bom.tsv.

    python host_tools/wiring.py [--readme]

--readme also refreshes boards/wiring.png, a smaller copy of the PNG (scaled, 64 colours) that
boards/README.md shows. WireViz calls Graphviz's `dot` (Debian package graphviz).
"""

import argparse
import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "boards" / "wiring.yml"
WIRING_DIR = ROOT / "build" / "wiring"
README_PNG = ROOT / "boards" / "wiring.png"

# Raspberry Pi Pico / Pico W / Pico 2 W header: GP number -> physical pin (1-40). GP23, GP24, GP25
# and GP29 are not on the header (the CYW43 Wi-Fi chip uses them on the W boards).
PICO_HEADER = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
    14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_GND = (3, 8, 13, 18, 23, 28, 38)  # and 33, the ADC's ground
PICO_3V3_OUT = 36


def render(out_dir=WIRING_DIR, source=SOURCE):
    """Write wiring.svg, wiring.png and wiring.bom.tsv into out_dir; returns their paths."""
    from wireviz.wireviz import parse

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):
        parse(Path(source), output_formats=("png", "svg", "tsv"), output_dir=out_dir, output_name="wiring")
    return {kind: out_dir / name for kind, name in
            (("svg", "wiring.svg"), ("png", "wiring.png"), ("tsv", "wiring.bom.tsv"))}


def readme_png(png, dest=README_PNG, scale=2 / 3, colors=64):
    """A smaller copy of the rendered PNG for the README (about 50 KB instead of about 220 KB)."""
    from PIL import Image

    image = Image.open(png).convert("RGB")
    width, height = image.size
    image = image.resize((int(width * scale), int(height * scale)), Image.LANCZOS)
    image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE).save(dest, optimize=True)
    return Path(dest)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(WIRING_DIR))
    parser.add_argument("--readme", action="store_true", help="also refresh boards/wiring.png")
    args = parser.parse_args(argv)
    paths = render(args.out)
    for path in paths.values():
        print("%7d  %s" % (path.stat().st_size, path))
    if args.readme:
        path = readme_png(paths["png"])
        print("%7d  %s" % (path.stat().st_size, path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
