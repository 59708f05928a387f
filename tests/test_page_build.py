"""The phone page's build: one self-contained gzipped shared page, and one part per game in GAMES
(its script with its style inside), each within its size budget; built by the sources' fingerprint.
The browser check at the end: every registered game's part, fetched as a phone fetches it,
registers that game on the shared page."""

import gzip
import json
import os
import re
import shutil
import subprocess
import sys

import build
import pagebuild
import pytest

pytest_plugins = ("page_fakebox",)

GAMES = build.game_ids()


def test_the_shared_page_and_every_part_fit_their_budgets(tmp_path):
    sizes = pagebuild.build_all(tmp_path)
    assert set(sizes) == {pagebuild.OUT_NAME, pagebuild.TABLE_NAME} | {pagebuild.PART_NAME % g for g in GAMES}
    for name, size in sizes.items():
        assert size == (tmp_path / name).stat().st_size
    assert sizes[pagebuild.OUT_NAME] <= pagebuild.PAGE_BUDGET, "the shared page is %d bytes gzipped" % sizes[
        pagebuild.OUT_NAME]
    for game in GAMES:
        size = sizes[pagebuild.PART_NAME % game]
        assert size <= pagebuild.PART_BUDGET, "%s's part is %d bytes gzipped" % (game, size)
    table = sizes[pagebuild.TABLE_NAME]
    assert table <= pagebuild.PAGE_BUDGET, "the table screen is %d bytes gzipped" % table
    assert pagebuild.over_budget(sizes) == []
    assert pagebuild.over_budget({"x.js.gz": pagebuild.PART_BUDGET + 1}) != []
    assert pagebuild.build_page(tmp_path) == sizes[pagebuild.OUT_NAME]


def test_gz_is_reproducible_and_holds_the_whole_page(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    pagebuild.build_all(a)
    pagebuild.build_all(b)
    for name in [pagebuild.OUT_NAME, pagebuild.TABLE_NAME] + [pagebuild.PART_NAME % g for g in GAMES]:
        data = (a / name).read_bytes()
        assert data == (b / name).read_bytes(), name
        assert data[4:8] == b"\0\0\0\0", "gzip mtime must be 0"
    for name, page in ((pagebuild.OUT_NAME, "index.html"), (pagebuild.TABLE_NAME, "table.html")):
        html = gzip.decompress((a / name).read_bytes()).decode("utf-8")
        assert html == pagebuild.build_html(page)
        assert html.startswith("<!doctype html>")
        assert "<style>" in html and "<script>" in html
        # nothing is fetched from anywhere: no linked files, no other hosts; the one link is the
        # phones' page's to the table screen, on the same box
        for link in re.findall(r"""(?:src|href|action)=["']?([^"' >]*)""", html):
            assert link.startswith("data:") or link == "/table", link
        assert "http://" not in html and "https://" not in html
        assert "@import" not in html and "url(" not in html


def test_the_shared_page_holds_no_game(tmp_path):
    """No game's script or style is in the shared page: each comes in its own part."""
    html = pagebuild.build_html()
    for game in GAMES:
        assert "Tidebox.games." + game not in html, game
        css = (build.FIRMWARE / "tidebox" / "games" / game / "page.css").read_text(encoding="utf-8")
        first = re.search(r"^([.#][\w-]+)", css, re.M).group(1)  # the game's first rule's selector
        assert first + "{" not in html and first + " " not in html, (game, first)
    # Token Tide's element ids left the shared print rule with its style
    assert "#alloc" not in html and "#timerBox" not in html


def test_each_part_is_its_style_then_its_script(tmp_path):
    pagebuild.build_all(tmp_path)
    for game in GAMES:
        text = gzip.decompress((tmp_path / (pagebuild.PART_NAME % game)).read_bytes()).decode("utf-8")
        assert text == pagebuild.build_part(game)
        first, script = text.split("\n", 1)
        head = re.fullmatch(r"Tidebox\.style\((\"\w+\"), (\".*\")\);", first)
        assert head and json.loads(head.group(1)) == game, first
        css = pagebuild.minify_css(
            (build.FIRMWARE / "tidebox" / "games" / game / "page.css").read_text(encoding="utf-8"))
        assert json.loads(head.group(2)) == css and css
        assert ("Tidebox.games." + game + " = ") in script or ("T.games." + game + " = ") in script
        assert "http://" not in text and "https://" not in text


def fake_firmware(tmp_path, registered, folders):
    """A firmware tree with the project's game folders `folders`, of which GAMES lists `registered`."""
    fw = tmp_path / "firmware"
    games = fw / "tidebox" / "games"
    games.mkdir(parents=True)
    lines = "".join("    (%r, %r),\n" % (g, g.title()) for g in registered)
    (games / "__init__.py").write_text("GAMES = (\n%s)\n" % lines)
    for game in folders:
        shutil.copytree(build.FIRMWARE / "tidebox" / "games" / game, games / game)
    return fw


def test_a_game_left_out_of_games_is_in_no_file_and_its_old_part_goes(tmp_path):
    fw = fake_firmware(tmp_path, ["quiet_dividend"], ["quiet_dividend", "paper_current"])
    out = tmp_path / "www"
    out.mkdir()
    (out / "paper_current.js.gz").write_bytes(b"an earlier build's part")
    sizes = pagebuild.build_all(out, firmware=fw)
    files = [pagebuild.OUT_NAME, "quiet_dividend.js.gz", pagebuild.TABLE_NAME]
    assert sorted(sizes) == files
    assert sorted(p.name for p in out.iterdir()) == files
    assert build.left_out_games(fw) == ["paper_current"]
    every = b"".join(gzip.decompress(p.read_bytes()) for p in out.iterdir())
    assert b"paper_current" not in every and b"pc-boat" not in every


def test_a_registered_game_without_its_page_part_fails_the_build(tmp_path):
    fw = fake_firmware(tmp_path, ["quiet_dividend", "paper_current"], ["quiet_dividend", "paper_current"])
    (fw / "tidebox" / "games" / "paper_current" / "page.js").unlink()
    with pytest.raises(ValueError, match="paper_current is registered in GAMES but has no page.js"):
        pagebuild.build_all(tmp_path / "www", firmware=fw)


def test_rebuilds_by_the_sources_fingerprint_not_their_time(tmp_path, monkeypatch):
    # a folder in the project's build/ keeps its fingerprint under build/.stamps (here in tmp_path)
    monkeypatch.setattr(build, "BUILD", tmp_path)
    monkeypatch.setattr(build, "STAMPS", tmp_path / ".stamps")
    fw = fake_firmware(tmp_path, ["quiet_dividend"], ["quiet_dividend"])
    out = tmp_path / "www"
    pagebuild.build_all(out, firmware=fw)
    part = out / "quiet_dividend.js.gz"
    before = part.read_bytes()
    # an output that looks older than every source is not rebuilt: the sources are the same
    old = min(p.stat().st_mtime for p in pagebuild.sources(fw)) - 3600
    part.write_bytes(b"stale")
    os.utime(part, (old, old))
    pagebuild.build_all(out, firmware=fw)
    assert part.read_bytes() == b"stale"
    # a source whose text changed is rebuilt, even when it looks older than the output
    css = fw / "tidebox" / "games" / "quiet_dividend" / "page.css"
    css.write_text(css.read_text() + ".qdacts { color: #111; }\n")
    os.utime(css, (old - 60, old - 60))
    pagebuild.build_all(out, firmware=fw)
    assert part.read_bytes() not in (before, b"stale")
    assert ".qdacts{color:#111}" in gzip.decompress(part.read_bytes()).decode()
    # so is a game added to GAMES
    both = ["quiet_dividend", "paper_current"]
    fw2 = fake_firmware(tmp_path / "more", both, both)
    assert "paper_current.js.gz" in pagebuild.build_all(out, firmware=fw2)
    assert (out / "paper_current.js.gz").exists()


def test_minifiers_are_conservative():
    css = pagebuild.minify_css(
        '/* c "q" */ a > b , c { color: red ; content: "x /* y */ z" }\n'
        '@media (min-width: 1px) { p { x: 1 } }')
    assert css == 'a>b,c{color:red;content:"x /* y */ z"}@media (min-width:1px){p{x:1}}'
    js = pagebuild.minify_js("  // note\n  var a = 1; // kept\n\n  var s = 'http://x';\n")
    assert js == "var a = 1; // kept\nvar s = 'http://x';"


def test_command_line_prints_the_sizes(tmp_path):
    out = subprocess.run([sys.executable, pagebuild.__file__, str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    for name in [pagebuild.OUT_NAME] + [pagebuild.PART_NAME % g for g in GAMES]:
        size = (tmp_path / name).stat().st_size
        assert "%s: %d bytes gzipped" % (tmp_path / name, size) in out.stdout


@pytest.mark.browser
def test_every_registered_game_part_registers_on_the_shared_page(phone):
    """The page contract, for every game in GAMES: its part, asked for from the box as the page asks for
    it, registers exactly that game with a title, a render function and its How to play."""
    phone.wait_for_function("window.Tidebox && Tidebox.games.token_tide")  # the fake box's chosen game
    found = phone.evaluate("""async (games) => {
      const out = {};
      for (const game of games) {
        const before = Object.keys(Tidebox.games);
        const part = await Tidebox.need(game);
        const added = Object.keys(Tidebox.games).filter((k) => before.indexOf(k) < 0);
        out[game] = {
          same: part === Tidebox.games[game], added: added,
          title: typeof part.title === 'string' ? part.title : null,
          render: typeof part.render, how: Array.isArray(part.how) ? 'list' : typeof part.how
        };
      }
      return out;
    }""", list(GAMES))
    for game in GAMES:
        got = found[game]
        assert got["same"] and got["title"] and got["render"] == "function", (game, got)
        assert got["how"] in ("list", "function"), (game, got)
        # Token Tide is chosen on the fake box, so the page had fetched it already
        assert got["added"] == ([] if game == "token_tide" else [game]), (game, got)
