"""The words a game's part of the phones' page says, read from its page.js without a browser: the
single-quoted string literals of one `var NAME = [...]` array, joined, with their escapes decoded
(the phones' How to play lives in the page, not in the box's heap)."""

import json
import re
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "firmware" / "tidebox" / "games"


def page_array_text(game, name="HOW"):
    source = (GAMES / game / "page.js").read_text(encoding="utf-8")
    block = re.search(r"var %s = \[(.*?)\n  \];" % name, source, re.S)
    assert block, "%s/page.js has no var %s = [...]" % (game, name)
    literals = re.findall(r"'((?:[^'\\]|\\.)*)'", block.group(1))
    return "".join(json.loads('"%s"' % lit.replace('"', '\\"').replace("\\'", "'")) for lit in literals)
