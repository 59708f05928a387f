"""Every screen that does something else with a long press says which buttons (`long_presses`):
the others act as soon as they are down (tidebox/buttons.py), so a screen that reads a long press
without naming its button would never see one."""

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


def screens_reading_long_presses():
    for path in sorted(FIRMWARE.rglob("*.py")):
        if path.name == "buttons.py":
            continue  # the debouncer itself
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(n, ast.Name) and n.id == "LONG" for n in ast.walk(node)):
                yield path.relative_to(FIRMWARE), node


def declared(cls):
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and any(getattr(t, "id", "") == "long_presses" for t in stmt.targets):
            return ast.literal_eval(stmt.value)
    return ""


def test_a_screen_that_reads_long_presses_names_their_buttons():
    found = list(screens_reading_long_presses())
    assert len(found) >= 6  # the name entry, setup, two of Paper Current's, two of Token Tide's
    for path, cls in found:
        names = declared(cls)
        assert names and set(names) <= set("ABC"), "%s: %s reads LONG, no long_presses" % (path, cls.name)
