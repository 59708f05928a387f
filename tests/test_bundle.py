"""host_tools/bundle.py: the real bundle (built into a temp folder, as on the board's filesystem),
and the import-closure rules on small made-up firmware trees."""

import gzip
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import build
import bundle
from boxrig import BOX_HEAP
import pytest
from micropython_runner import MP_SCRIPTS

FAKES = MP_SCRIPTS / "fakes_pico"
# the settings, the page and every registered game's part of it
ASSETS = ({bundle.SETTINGS_NAME, bundle.PAGE_NAME, "www/table.html.gz"}
          | {"www/%s.js.gz" % g for g in build.game_ids()})


def compiled_board(name):
    cmd = [build.mpy_cross(), *build.MPY_OPTIONS, "-s", "board.py", "-o", "-",
           str(build.BOARDS / (name + ".py"))]
    return subprocess.run(cmd, capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "bundle"
    info = bundle.build_bundle(out)
    return out, info


# --- the real bundle -----------------------------------------------------------------------------


def test_bundle_holds_exactly_the_import_closure(built):
    out, info = built
    closure = bundle.import_closure("pico_w")
    files = set(bundle.tree_files(out))
    assert files - ASSETS == closure.files()
    assert files >= ASSETS
    assert [f for f in files if f.endswith(".py")] == ["main.py"]  # only main.py stays source
    assert all(f.endswith(".mpy") for f in files - ASSETS - {"main.py"})
    assert {"board.mpy", "pico_common.mpy", "tidebox/__init__.mpy", "lib/microdot/microdot.mpy"} <= files
    assert (out / "main.py").read_bytes() == (build.FIRMWARE / "main.py").read_bytes()
    assert not closure.missing and not closure.host_only


def test_every_module_main_imports_is_in_the_closure():
    closure = bundle.import_closure("pico_w")
    main_imports, _ = bundle.scan_imports(bundle.Module("main", build.FIRMWARE / "main.py", "main.py"))
    for imp in main_imports:
        top = imp.name.split(".")[0]
        assert (imp.name in closure.modules or top in closure.firmware or top in closure.mip
                or imp.optional), imp.name
    assert "board" in closure.modules and "microdot" in closure.modules
    assert {"asyncio", "gc", "machine", "network"} <= closure.firmware
    assert closure.mip == {"ssd1306", "sh1106"}  # pico_common imports the configured one


def test_mpy_headers_are_version_6_bytecode(built):
    out, info = built
    mpys = [f for f in bundle.tree_files(out) if f.endswith(".mpy")]
    assert len(mpys) >= 10
    for rel in mpys:
        head = (out / rel).read_bytes()[:4]
        assert head[0:1] == b"M", rel
        assert head[1] == 6, rel  # MicroPython 1.20 and later
        assert head[2] == 0, rel  # no native code, so no arch and no sub-version constraint
        assert head[3] <= 31, rel  # small ints fit the rp2's 31 bits
    assert info["mpy_cross"].startswith("6.")


def test_host_only_modules_are_absent(built):
    out, _ = built
    names = {Path(f).stem for f in bundle.tree_files(out)}
    assert not names & {"host", "host_sim", "pico_w", "pico2_w", "seeded"}
    assert not (out / "lib" / "microdot" / "helpers.mpy").exists()  # the firmware does not import it
    assert (out / "board.mpy").read_bytes() == compiled_board("pico_w")


def test_settings_file_parses_and_holds_the_board_defaults(built):
    out, info = built
    settings = json.loads((out / "settings.json").read_text())
    assert settings == bundle.make_settings()[0] == info["settings"]
    assert settings["display"] == "ssd1306" and settings["buttons"] == [10, 11, 12]
    assert info["settings_explicit"] is False and info["mip"] == ["ssd1306"]


def test_page_is_gzipped_html(built):
    out, info = built
    html = gzip.decompress((out / "www" / "index.html.gz").read_bytes()).decode()
    assert "<html" in html.lower() and info["page"] is True


def test_every_registered_game_has_its_part_of_the_page(built):
    out, info = built
    assert info["games"] == list(build.game_ids()) and info["left_out_games"] == []
    for game in build.game_ids():
        script = gzip.decompress((out / "www" / (game + ".js.gz")).read_bytes()).decode()
        assert script.startswith('Tidebox.style("%s", ' % game), game
    assert sorted(f for f in bundle.tree_files(out) if f.startswith("www/")) == sorted(
        ["www/index.html.gz", "www/table.html.gz"] + ["www/%s.js.gz" % g for g in build.game_ids()])


def test_sizes_are_reported(built):
    out, info = built
    sizes = {rel: (out / rel).stat().st_size for rel in bundle.tree_files(out)}
    assert {rel: v[0] for rel, v in info["files"].items()} == sizes
    assert info["total_bytes"] == sum(sizes.values())
    text = bundle.report(info, out)
    for rel, size in sizes.items():
        assert "%7d  %s" % (size, rel) in text
    assert "total %.1f KB in %d files" % (sum(sizes.values()) / 1024, len(sizes)) in text
    assert "(mip): ssd1306" in text
    assert json.loads(bundle.info_path(out).read_text()) == info


def test_bundle_imports_under_micropython_on_fake_hardware(built, tmp_path):
    out, _ = built
    closure = bundle.import_closure("pico_w")
    (tmp_path / "settings.json").write_text((out / "settings.json").read_text())
    env = build.micropython_env(out)
    env["MICROPYPATH"] = "%s:%s:%s:.frozen" % (FAKES, out, out / "lib")
    # The box's own heap size (boxrig.BOX_HEAP, as every firmware test): every module of the bundle at
    # once, then the games one after another with what the box unloads before a game unloaded.
    cmd = [build.micropython(), "-X", "heapsize=" + BOX_HEAP, str(FAKES / "import_bundle.py"), str(tmp_path)]
    proc = subprocess.run(cmd, input=json.dumps(sorted(closure.modules)), capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["main"] == "stopped at make_board"  # every top-level import of main.py ran
    assert result["failed"] == {}
    assert set(closure.modules) <= set(result["loaded"])
    assert result["board"] == "pico_w"
    # On the 64-bit unix port (objects about 1.5x a Pico's) inside the tests' Pico-sized heap; the board
    # with its display (and the fakes standing in for machine and network) is a small part of it: about
    # 34 KB, of which 2 KB are the display's frame and the copy of what the panel shows, and 1.4 KB the
    # buttons' wake flag (asyncio's event module, loaded for it) (pico_common).
    assert 0 < result["board_heap_used"] < 36 * 1024 < result["heap_used"], result


def test_pico2_w_bundle_and_board_switch(tmp_path):
    out = tmp_path / "bundle"
    bundle.build_bundle(out, board="pico_w")
    first = (out / "board.mpy").read_bytes()
    info = bundle.build_bundle(out, board="pico2_w")
    assert (out / "board.mpy").read_bytes() != first  # rebuilt although newer than pico2_w.py
    assert (out / "board.mpy").read_bytes() == compiled_board("pico2_w")
    assert info["board"] == "pico2_w" and info["min_firmware"] == [1, 25, 0]


def test_explicit_settings(tmp_path):
    box = tmp_path / "box2.json"
    box.write_text(json.dumps({"display": "sh1106", "buzzer": None, "country": "DE"}))
    out = tmp_path / "bundle"
    info = bundle.build_bundle(out, settings_file=box)
    settings = json.loads((out / "settings.json").read_text())
    assert settings["display"] == "sh1106" and settings["buzzer"] is None and settings["country"] == "DE"
    assert settings["sda"] == 4  # the rest are the defaults
    assert info["settings_explicit"] is True and info["mip"] == ["github:robert-hh/SH1106"]


@pytest.mark.parametrize("content, message", [
    ({"buzer": None}, "unknown setting(s) buzer"),
    ({"buttons": [10, 11, 25]}, "is not a free GP pin"),
    ({"sda": 6, "scl": 5}, "scl the next one"),
    ("[1, 2]", "must hold a JSON object"),
    ("{oops", "is not valid JSON"),
])
def test_bad_settings_fail_the_build(tmp_path, content, message):
    box = tmp_path / "box.json"
    box.write_text(content if isinstance(content, str) else json.dumps(content))
    with pytest.raises(bundle.BundleError) as caught:
        bundle.build_bundle(tmp_path / "bundle", settings_file=box)
    assert message in str(caught.value)


def test_command_line_prints_the_file_list_and_total(tmp_path):
    out = tmp_path / "cli"
    proc = subprocess.run([sys.executable, str(build.ROOT / "host_tools" / "bundle.py"), "--out", str(out),
                           "--board", "pico_w"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "board.mpy" in proc.stdout and "main.py" in proc.stdout and " KB in " in proc.stdout
    proc = subprocess.run([sys.executable, str(build.ROOT / "host_tools" / "bundle.py"), "--out", str(out),
                           "--settings", str(tmp_path / "absent.json")], capture_output=True, text=True)
    assert proc.returncode == 1 and "cannot read the settings file" in proc.stderr


# --- the closure rules on made-up firmware ----------------------------------------------------


def firmware(tmp_path, files):
    root = tmp_path / "fw"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def closure_of(tmp_path, files):
    return bundle.import_closure("pico_w", firmware=firmware(tmp_path, files))


# The smallest firmware: the package, one module, and the gate and buttons the board modules import.
BASE = {"tidebox/__init__.py": "VERSION = '1'\n", "tidebox/box.py": "import json\n",
        "tidebox/gate.py": (build.FIRMWARE / "tidebox" / "gate.py").read_text(),
        "tidebox/buttons.py": (build.FIRMWARE / "tidebox" / "buttons.py").read_text()}


def test_a_missing_module_is_reported_with_its_line(tmp_path):
    main = "import board\nimport tidebox.box\nimport tidebox.nothing\n"
    c = closure_of(tmp_path, dict(BASE, **{"main.py": main}))
    assert [(line, name) for _, line, name in c.missing] == [(3, "tidebox.nothing")]
    assert "main.py line 3 imports tidebox.nothing" in c.errors()[0]


def test_a_name_the_package_does_not_define_is_missing(tmp_path):
    c = closure_of(tmp_path, dict(BASE, **{"main.py": "from tidebox import box, VERSION, nothing\n"}))
    assert [name for _, _, name in c.missing] == ["tidebox.nothing"]
    assert "tidebox.box" in c.modules


def test_optional_imports_are_bundled_when_present_and_skipped_when_not(tmp_path):
    main = """
        try:
            from tidebox import extra
        except ImportError:
            extra = None
        try:
            from tidebox import absent
        except ImportError:
            absent = None
        """
    c = closure_of(tmp_path, dict(BASE, **{"main.py": main, "tidebox/extra.py": "X = 1\n"}))
    assert "tidebox.extra" in c.modules
    assert ("main", "tidebox.absent") in c.skipped and not c.missing


def test_fallback_imports_count_only_when_the_first_choice_is_not_on_the_board(tmp_path):
    main = """
        try:
            import orjson as json
        except ImportError:
            import json
        try:
            from sys import print_exception
        except ImportError:
            import traceback
        """
    c = closure_of(tmp_path, {"main.py": main})
    assert "json" in c.firmware and not c.missing  # traceback: never imported on the board
    assert ("main", "orjson") in c.skipped


def test_host_only_modules_are_refused(tmp_path):
    c = closure_of(tmp_path, {"main.py": "import host_sim\n"})
    assert [name for _, _, name in c.host_only] == ["host_sim"]
    assert "exists on the host board only" in c.errors()[0]
    c = closure_of(tmp_path, {"main.py": "try:\n    import host_sim\nexcept ImportError:\n    pass\n"})
    assert not c.host_only and not c.modules.get("host_sim")


def test_relative_and_literal_dynamic_imports(tmp_path):
    files = dict(BASE, **{
        "main.py": "import tidebox.games.a\n",
        "tidebox/games/__init__.py": "",
        "tidebox/games/a.py": "from . import b\nfrom ..box import json\nm = __import__('tidebox.games.c')\n",
        "tidebox/games/b.py": "",
        "tidebox/games/c.py": "",
    })
    c = closure_of(tmp_path, files)
    assert {"tidebox", "tidebox.games", "tidebox.games.a", "tidebox.games.b", "tidebox.games.c",
            "tidebox.box"} <= set(c.modules)


def test_board_helpers_follow_the_board_module(tmp_path):
    c = closure_of(tmp_path, {"main.py": "import board\n"})
    assert {"board", "pico_common"} <= set(c.modules)
    assert c.modules["board"].path == build.BOARDS / "pico_w.py"
    assert c.files() == {"main.py", "board.mpy", "pico_common.mpy"}


def test_check_tree_finds_missing_and_extra_files(tmp_path):
    c = closure_of(tmp_path, dict(BASE, **{"main.py": "import tidebox.box\n"}))
    tree = tmp_path / "tree"
    for rel in ("main.py", "tidebox/__init__.mpy", "tidebox/unused.mpy", "host_sim.mpy", "settings.json"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_bytes(b"M\x06\x00\x1f")
    missing, extra = bundle.check_tree(tree, c)
    assert missing == ["tidebox/box.mpy"]
    assert extra == ["host_sim.mpy", "tidebox/unused.mpy"]


def test_a_firmware_module_nothing_imports_fails_the_build(tmp_path, monkeypatch):
    fw = firmware(tmp_path, dict(BASE, **{"main.py": "import board\nimport tidebox.box\n",
                                          "tidebox/unused.py": "X = 1\n"}))
    monkeypatch.setattr(build, "FIRMWARE", fw)
    monkeypatch.setattr(bundle, "FIRMWARE", fw)
    with pytest.raises(bundle.BundleError) as caught:
        bundle.build_bundle(tmp_path / "bundle")
    assert "tidebox/unused.mpy" in str(caught.value) and "imported by nothing" in str(caught.value)
    (fw / "tidebox" / "unused.py").unlink()
    info = bundle.build_bundle(tmp_path / "bundle")
    assert sorted(info["files"]) == ["board.mpy", "main.py", "pico_common.mpy", "settings.json",
                                     "tidebox/__init__.mpy", "tidebox/box.mpy", "tidebox/buttons.mpy",
                                     "tidebox/gate.mpy", "www/index.html.gz", "www/table.html.gz"]


def test_a_game_package_left_out_of_games_is_not_on_the_board(tmp_path, monkeypatch):
    qd = build.FIRMWARE / "tidebox" / "games" / "quiet_dividend"
    fw = firmware(tmp_path, dict(BASE, **{
        "main.py": "import board\nimport tidebox.box\nimport tidebox.games\n",
        "tidebox/games/__init__.py": "GAMES = (\n    (\"quiet_dividend\", \"Quiet Dividend\"),\n)\n",
        "tidebox/games/quiet_dividend/__init__.py": "",
        "tidebox/games/quiet_dividend/rules.py": "SHORT = 'QD'\n",
        "tidebox/games/quiet_dividend/page.js": (qd / "page.js").read_text(),
        "tidebox/games/quiet_dividend/page.css": (qd / "page.css").read_text(),
        # a game being written, not in GAMES yet: the folder scan this replaced shipped it
        "tidebox/games/draft/__init__.py": "",
        "tidebox/games/draft/rules.py": "SHORT = 'D'\n",
        "tidebox/games/draft/page.js": "(function () { window.Tidebox.games.draft = {}; })();\n",
    }))
    monkeypatch.setattr(build, "FIRMWARE", fw)
    monkeypatch.setattr(bundle, "FIRMWARE", fw)
    info = bundle.build_bundle(tmp_path / "bundle")
    games = sorted(f for f in info["files"] if "games" in f or f.startswith("www/"))
    assert games == ["tidebox/games/__init__.mpy", "tidebox/games/quiet_dividend/__init__.mpy",
                     "tidebox/games/quiet_dividend/rules.mpy", "www/index.html.gz",
                     "www/quiet_dividend.js.gz", "www/table.html.gz"]
    assert info["games"] == ["quiet_dividend"] and info["left_out_games"] == ["draft"]
    assert "not on the board, as GAMES does not list them: draft" in bundle.report(info, tmp_path / "bundle")


def test_a_missing_entry_point(tmp_path):
    with pytest.raises(bundle.BundleError, match="main.py is missing"):
        bundle.import_closure("pico_w", firmware=tmp_path)
