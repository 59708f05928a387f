"""Every relative link in the project's Markdown files leads somewhere: the file (or folder) it names
exists, and a `#fragment` into a Markdown file names one of its headings, as GitHub makes their
anchors. Links to other sites (`https:`, `mailto:`, ...) are not followed."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Folders that are made, not written: what the tests, the benches and the tools leave behind
NOT_OURS = {"build", "sim_state", "node_modules", "__pycache__"}
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def markdown_files():
    found = []
    for path in sorted(ROOT.rglob("*.md")):
        parts = path.relative_to(ROOT).parts
        if any(part.startswith(".") or part in NOT_OURS for part in parts):
            continue
        found.append(path)
    return found


def prose(text):
    """(line number, line) of the text outside fenced code blocks, inline code taken out."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            yield number, re.sub(r"`[^`]*`", "", line)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    heading = re.sub(r"\s+#+\s*$", "", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def headings_of(path):
    """The anchors of a Markdown file's headings (inline code is part of a heading's text)."""
    text = path.read_text(encoding="utf-8")
    fenced, found, seen = False, set(), {}
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        match = None if fenced else re.match(r"#{1,6}\s+(.+)", line)
        if match:
            name = slug(match.group(1))
            found.add(name if name not in seen else "%s-%d" % (name, seen[name]))
            seen[name] = seen.get(name, 0) + 1
    return found


def links(path):
    for number, line in prose(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            target = match.group(1)
            if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
                yield number, target


def test_the_markdown_files_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in markdown_files()}
    assert {"README.md", "firmware/ARCHITECTURE.md", "tests/README.md"} <= names


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_a_heading(path):
    broken = []
    for number, target in links(path):
        file, _, fragment = target.partition("#")
        into = (path.parent / file).resolve() if file else path
        if not into.exists():
            broken.append("line %d: %s (no such file)" % (number, target))
        elif fragment and into.suffix == ".md" and fragment not in headings_of(into):
            broken.append("line %d: %s (no such heading)" % (number, target))
    assert not broken, "%s:\n%s" % (path.relative_to(ROOT), "\n".join(broken))


def test_a_heading_with_code_and_punctuation_gets_githubs_anchor():
    assert slug("The shipped firmware: `boards/firmware/`") == "the-shipped-firmware-boardsfirmware"
    assert slug("Pearl Reach: how to play, this edition's numbers") == \
        "pearl-reach-how-to-play-this-editions-numbers"
    assert slug("Deploying: what `make deploy` does") == "deploying-what-make-deploy-does"
