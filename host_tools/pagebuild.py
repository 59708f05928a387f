"""Build the phones' page: firmware/www/ -> one gzipped index.html (the box serves it at `/`).

The sources stay readable (index.html links style.css and app.js, so the page also works opened
straight from the folder); the build inlines both, strips comments and indentation conservatively
(no renaming, no rewriting of code: newlines in the script stay, so semicolon insertion is never at
risk), and gzips with level 9 and mtime 0 so the same sources always give the same bytes.

    python host_tools/pagebuild.py [out_dir]    prints the gzipped size (default out_dir: build/www)
"""

import gzip
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WWW = ROOT / "firmware" / "www"
GAMES = ROOT / "firmware" / "tidebox" / "games"  # each game's part of the page: games/<game>/page.js
DEFAULT_OUT = ROOT / "build" / "www"
OUT_NAME = "index.html.gz"
# Everything a phone downloads, in one request, every game's part included. It is served from flash
# in 1 KB pieces, so its size costs no heap.
BUDGET = 24 * 1024

_LINK = re.compile(r'<link rel="stylesheet" href="([\w.-]+)">')
_SCRIPT = re.compile(r'<script src="([\w.-]+)"></script>')


def sources():
    """Every file the page is built from (a change to any of them, or to this tool, rebuilds)."""
    files = sorted(p for p in WWW.iterdir() if p.is_file())
    return files + game_parts() + [Path(__file__).resolve()]


def game_parts():
    """The games' parts of the page, appended to app.js (each registers itself in Tidebox.games)."""
    return sorted(GAMES.glob("*/page.js"))


def minify_css(css):
    """Drops comments and the whitespace that never matters; text inside quotes is kept as it is."""
    out = []
    for i, part in enumerate(re.split(r'("(?:[^"\\]|\\.)*"|/\*.*?\*/)', css, flags=re.S)):
        if i % 2:  # a string (kept) or a comment (dropped)
            out.append("" if part.startswith("/*") else part)
            continue
        part = re.sub(r"\s+", " ", part)
        part = re.sub(r"\s*([{};,>])\s*", r"\1", part)
        out.append(re.sub(r":\s+", ":", part))
    return "".join(out).replace(";}", "}").strip()


def minify_js(js):
    """Drops whole-line comments, indentation and blank lines; keeps every other line as it is."""
    out = []
    for line in js.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            continue
        out.append(stripped)
    return "\n".join(out)


def minify_html(html):
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    lines = [line.strip() for line in html.splitlines()]
    return "\n".join(line for line in lines if line)


def build_html():
    """The whole page as one HTML string with the CSS and the script inlined."""
    html = minify_html((WWW / "index.html").read_text(encoding="utf-8"))

    def style(match):
        css = minify_css((WWW / match.group(1)).read_text(encoding="utf-8"))
        if "</style" in css.lower():
            raise ValueError("the stylesheet must not contain </style")
        return "<style>" + css + "</style>"

    def script(match):
        parts = [WWW / match.group(1)] + (game_parts() if match.group(1) == "app.js" else [])
        js = "\n".join(minify_js(p.read_text(encoding="utf-8")) for p in parts)
        if "</script" in js.lower() or "<!--" in js:
            raise ValueError("the script must not contain </script or <!--")
        return "<script>" + js + "</script>"

    html, styles = _LINK.subn(lambda m: style(m), html)
    html, scripts = _SCRIPT.subn(lambda m: script(m), html)
    if styles != 1 or scripts != 1:
        raise ValueError("index.html must link exactly one stylesheet and one script")
    if re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html):
        raise ValueError("the page must not fetch anything from elsewhere")
    return html


def build_page(out_dir=DEFAULT_OUT):
    """Write out_dir/index.html.gz when a source changed; returns its size in bytes."""
    out = Path(out_dir) / OUT_NAME
    newest = max(p.stat().st_mtime for p in sources())
    if out.exists() and out.stat().st_mtime >= newest:
        return out.stat().st_size
    data = gzip.compress(build_html().encode("utf-8"), compresslevel=9, mtime=0)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists() and out.read_bytes() == data:
        os.utime(out)  # same bytes: only mark it as up to date
    else:
        tmp = out.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(out)
    return len(data)


def main(argv):
    out_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    size = build_page(out_dir)
    raw = len(build_html().encode("utf-8"))
    print("%s: %d bytes gzipped (%d raw), budget %d" % (Path(out_dir) / OUT_NAME, size, raw, BUDGET))
    return 0 if size <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
