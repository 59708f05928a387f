"""What may import what in the firmware, by the rooms firmware/ARCHITECTURE.md gives each module of
firmware/tidebox/ (its tables under "The rooms"): every module is in exactly one room; the state
imports neither the panel nor the web; the web and the panel never import each other; the refusals
(errors.py) import nothing; and a game's rules import only the games' shared rule code and the
refusals, never the box."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIDEBOX = ROOT / "firmware" / "tidebox"
ROOMS = {"State.": "state", "The panel and its screens.": "panel", "The web.": "web",
         "Lifecycle and memory.": "lifecycle"}
# A room may not import from these rooms
NEVER = {"state": {"panel", "web"}, "web": {"panel"}, "panel": {"web"}}
# What a game's rules may import from the firmware, besides the game's own package
RULES_MAY = {"tidebox.errors", "tidebox.games", "tidebox.games.base", "tidebox.games.checks",
             "tidebox.games.seeded"}


def rooms():
    """module name -> room, from firmware/ARCHITECTURE.md's tables."""
    text = (ROOT / "firmware" / "ARCHITECTURE.md").read_text()
    found = {}
    for heading, room in ROOMS.items():
        at = text.index("**%s**" % heading)
        table = text[at:text.index("\n\n", text.index("| --- |", at))]
        for cell in re.findall(r"^\| ([^|]+) \|", table, re.M):
            for name in re.findall(r"`(\w+)\.py`", cell):
                if name == "__init__":
                    continue  # the package's own forget(): below every room
                assert name not in found or found[name] == room, "%s is in two rooms" % name
                found[name] = room
    return found


def imports(path):
    """The tidebox modules a file imports (at its top or inside a function)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "tidebox":
            for alias in node.names:
                whole = node.module + "." + alias.name
                # `from tidebox import box` names a module; `from tidebox.box import Box`, a name in one
                names.add(whole if (TIDEBOX.parent / (whole.replace(".", "/") + ".py")).is_file()
                          or (TIDEBOX.parent / whole.replace(".", "/")).is_dir() else node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.split(".")[0] == "tidebox")
    return names


def core_modules():
    return sorted(p.stem for p in TIDEBOX.glob("*.py") if p.stem != "__init__")


def test_every_module_of_the_box_is_in_exactly_one_room():
    placed = rooms()
    assert sorted(placed) == core_modules()


@pytest.mark.parametrize("module", core_modules())
def test_a_room_imports_only_what_its_room_may(module):
    placed = rooms()
    room = placed[module]
    for name in sorted(imports(TIDEBOX / (module + ".py"))):
        parts = name.split(".")
        if len(parts) < 2 or parts[1] == "games" or parts[1] not in placed:
            continue  # the package itself (forget, VERSION) or the games wing
        assert placed[parts[1]] not in NEVER.get(room, ()), "%s (%s) imports %s (%s)" % (
            module, room, parts[1], placed[parts[1]])


def test_the_refusals_import_nothing_of_the_box():
    assert imports(TIDEBOX / "errors.py") == set()


RULES_FILES = (sorted(TIDEBOX.glob("games/*/rules.py")) + sorted(TIDEBOX.glob("games/*/rivals.py"))
               + [TIDEBOX / "games" / "base.py", TIDEBOX / "games" / "checks.py"])


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(TIDEBOX)))
def test_a_games_rules_import_nothing_from_the_box(path):
    own = "tidebox.games." + path.parent.name
    stray = {name for name in imports(path) if name not in RULES_MAY and not name.startswith(own)}
    assert not stray, "%s imports %s" % (path.relative_to(TIDEBOX), sorted(stray))


@pytest.mark.parametrize("path", sorted(TIDEBOX.glob("games/*/*.py")),
                         ids=lambda p: str(p.relative_to(TIDEBOX)))
def test_no_game_talks_to_the_web_side(path):
    placed = rooms()
    web = {name for name in imports(path)
           if len(name.split(".")) > 1 and placed.get(name.split(".")[1]) == "web"}
    assert not web, "%s imports %s" % (path.relative_to(TIDEBOX), sorted(web))
