"""Build the phones' page: the shared page and one part per game, each one gzipped file.

    index.html.gz     firmware/www/ (index.html with style.css, kit.js and app.js inlined): what
                      every game shares, served at `/`
    table.html.gz     firmware/www/ (table.html with style.css, table.css, kit.js and table.js
                      inlined): the table screen, served at `/table`
    <game>.js.gz      a registered game's part (games/<game>/page.js, with its page.css inside it),
                      served at `/part/<game>.js` when the reader has chosen that game

The games are those in GAMES (firmware/tidebox/games/__init__.py, read by build.game_ids); a game
package GAMES leaves out is in no file here. The sources stay readable (index.html links style.css
and app.js, so the shared page also works opened straight from the folder); the build strips
comments and indentation conservatively (no renaming, no rewriting of code: newlines in a script
stay, so semicolon insertion is never at risk), and gzips with level 9 and mtime 0 so the same
sources always give the same bytes. A part is a script: `Tidebox.style(game, css)` gives the shared
page the game's style, then the game's page.js registers it in Tidebox.games.

Whether to build is decided by a fingerprint of the sources (as build.py does for .mpy files), not by
file times: a checkout or a copy can leave an older source with a newer time.

    python host_tools/pagebuild.py [out_dir]    prints the gzipped sizes (default out_dir: build/www)
"""

import gzip
import hashlib
import json
import os
import re
import sys
from pathlib import Path

import build

ROOT = build.ROOT
WWW = ROOT / "firmware" / "www"  # the shared page (the games come from the firmware being built)
DEFAULT_OUT = ROOT / "build" / "www"
OUT_NAME = "index.html.gz"
TABLE_NAME = "table.html.gz"
PART_NAME = "%s.js.gz"  # a game's part in out_dir (the box's www/ folder)
# What every phone downloads, whichever game is played. Everything is served from flash in 1 KB
# pieces, so no size here costs heap: the budgets keep a phone's first load quick on a hotspot eight
# phones share.
PAGE_BUDGET = 12 * 1024
# One game's part (script and style), gzipped: the largest (Token Tide's, 7.7 KB) with room to grow;
# the shared page and any one part stay within the 24 KB that the single page of every game had.
PART_BUDGET = 10 * 1024

_LINK = re.compile(r'<link rel="stylesheet" href="([\w.-]+)">')
_SCRIPT = re.compile(r'<script src="([\w.-]+)"></script>')


def game_dir(game, firmware=None):
    return Path(firmware or build.FIRMWARE) / "tidebox" / "games" / game


def part_sources(game, firmware=None):
    """A game's part: its page.js (required) and its page.css (if it has a style of its own)."""
    js = game_dir(game, firmware) / "page.js"
    if not js.exists():
        raise ValueError("games/%s is registered in GAMES but has no page.js" % game)
    css = js.with_name("page.css")
    return [js, css] if css.exists() else [js]


def sources(firmware=None):
    """Every file the page and the parts are built from (a change to any of them, or to this tool,
    or to the list of games, rebuilds)."""
    files = sorted(p for p in WWW.iterdir() if p.is_file() and p.suffix != ".md")  # its README is no source
    for game in build.game_ids(firmware):
        files += part_sources(game, firmware)
    return files + [Path(__file__).resolve()]


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


def _no_elsewhere(text, what):
    if re.search(r"""(?:src|href)=["']?(?:https?:)?//""", text):
        raise ValueError("%s must not fetch anything from elsewhere" % what)


def build_html(page="index.html"):
    """A page of the box's (the phones' shared page, or the table screen) as one HTML string with
    its styles and scripts inlined (no game's part)."""
    html = minify_html((WWW / page).read_text(encoding="utf-8"))

    def style(match):
        css = minify_css((WWW / match.group(1)).read_text(encoding="utf-8"))
        if "</style" in css.lower():
            raise ValueError("the stylesheet must not contain </style")
        return "<style>" + css + "</style>"

    def script(match):
        js = minify_js((WWW / match.group(1)).read_text(encoding="utf-8"))
        if "</script" in js.lower() or "<!--" in js:
            raise ValueError("the script must not contain </script or <!--")
        return "<script>" + js + "</script>"

    html, styles = _LINK.subn(style, html)
    html, scripts = _SCRIPT.subn(script, html)
    if not styles or not scripts:
        raise ValueError("%s must link its stylesheets and scripts" % page)
    _no_elsewhere(html, "the page")
    return html


def build_part(game, firmware=None):
    """A game's part as one script: its style handed to the shared page, then its page.js."""
    files = part_sources(game, firmware)
    css = minify_css(files[1].read_text(encoding="utf-8")) if len(files) > 1 else ""
    js = minify_js(files[0].read_text(encoding="utf-8"))
    _no_elsewhere(js, "games/%s/page.js" % game)
    return "Tidebox.style(%s, %s);\n%s\n" % (json.dumps(game), json.dumps(css), js)


def gz(text):
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def fingerprint(firmware=None):
    """What the files are built from: every source's bytes, and which games there are."""
    h = hashlib.sha1(repr(build.game_ids(firmware)).encode())
    for path in sources(firmware):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def outputs(firmware=None):
    """{file name in out_dir: function building its text} for the page and every registered part."""
    out = {OUT_NAME: build_html, TABLE_NAME: lambda: build_html("table.html")}
    for game in build.game_ids(firmware):
        out[PART_NAME % game] = lambda game=game: build_part(game, firmware)
    return out


def build_all(out_dir=DEFAULT_OUT, firmware=None):
    """Write the page and the parts into out_dir when a source changed (by fingerprint, kept under
    build/.stamps for a folder in the project's build/; elsewhere, e.g. a test's folder, it is always
    built, and a file whose bytes are the same is not written again). A part of a game no longer in
    GAMES is deleted. Returns {file name: gzipped bytes}."""
    out_dir = Path(out_dir)
    wanted = outputs(firmware)
    stamp = build._stamp_of(out_dir / OUT_NAME)
    mark = fingerprint(firmware)
    fresh = (stamp is not None and stamp.exists() and stamp.read_text() == mark
             and all((out_dir / name).exists() for name in wanted))
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob(PART_NAME % "*"):
        if old.name not in wanted:
            old.unlink()
    if not fresh:
        for name, make in wanted.items():
            data = gz(make())
            out = out_dir / name
            if not (out.exists() and out.read_bytes() == data):
                tmp = out.with_name(out.name + ".%d.tmp" % os.getpid())
                tmp.write_bytes(data)
                tmp.replace(out)
        if stamp is not None:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            part = stamp.with_name(stamp.name + ".%d" % os.getpid())
            part.write_text(mark)
            part.replace(stamp)  # whole or absent, even with two builds at once
    return {name: (out_dir / name).stat().st_size for name in wanted}


def build_page(out_dir=DEFAULT_OUT, firmware=None):
    """Build the page and the parts into out_dir; returns the shared page's gzipped size."""
    return build_all(out_dir, firmware)[OUT_NAME]


def over_budget(sizes):
    """The files of build_all's sizes that exceed their budget, as lines to print."""
    lines = []
    for name, size in sorted(sizes.items()):
        budget = PAGE_BUDGET if name in (OUT_NAME, TABLE_NAME) else PART_BUDGET
        if size > budget:
            lines.append("%s is %d bytes gzipped, over its budget of %d" % (name, size, budget))
    return lines


def main(argv):
    out_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_OUT
    sizes = build_all(out_dir)
    for name, size in sizes.items():
        budget = PAGE_BUDGET if name in (OUT_NAME, TABLE_NAME) else PART_BUDGET
        print("%s: %d bytes gzipped, budget %d" % (out_dir / name, size, budget))
    problems = over_budget(sizes)
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
