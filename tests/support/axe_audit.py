"""An axe-core accessibility audit of a page in a real browser (npm axe-core, pinned in
tests/support/axe/package.json and installed there on first use, as the emulated chip's rp2040js is).

`audit(phone, where)` runs axe on the page as it stands, in any engine the tests drive (anything with
`call(function_source)`: Chromium through Playwright, Firefox through WebDriver BiDi, WebKit through
WebDriver), and fails on a serious or critical violation, naming each with its rule and the first
elements it was found on. The browser tests call it at each state they reach.
"""

import json
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent / "axe"
SOURCE = HERE / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# WCAG 2.1 A and AA, and axe's best practices
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

_source = []


def axe_source():
    if not SOURCE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)
    if not _source:
        _source.append(SOURCE.read_text(encoding="utf-8"))
    return _source[0]


RUN = """() => {
  if (!window.axe) (0, eval)(%s);
  return window.axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})
    .then(function (r) {
      return r.violations.map(function (v) {
        return {id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })};
      });
    });
}"""


def violations(phone):
    """Every violation axe finds on the page as it stands: [{id, impact, help, nodes}]. `phone` has
    call(function_source), or is a Playwright page."""
    call = getattr(phone, "call", None) or phone.evaluate
    return call(RUN % (json.dumps(axe_source()), json.dumps(TAGS)))


def audit(phone, where):
    """Fails when the page has a serious or critical violation; `where` names the state in the message."""
    found = [v for v in violations(phone) if v["impact"] in BLOCKING]
    assert not found, "%s: accessibility violations: %s" % (where, json.dumps(found, indent=1))
