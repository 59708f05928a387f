"""The phone page's build: one self-contained gzipped index.html within the size budget."""

import gzip
import os
import re
import subprocess
import sys
import time

import pagebuild


def test_page_fits_the_budget(tmp_path):
    size = pagebuild.build_page(tmp_path)
    assert size == (tmp_path / "index.html.gz").stat().st_size
    assert size <= pagebuild.BUDGET, "the page is %d bytes gzipped" % size


def test_gz_is_reproducible_and_holds_the_whole_page(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    pagebuild.build_page(a)
    pagebuild.build_page(b)
    data = (a / "index.html.gz").read_bytes()
    assert data == (b / "index.html.gz").read_bytes()
    assert data[4:8] == b"\0\0\0\0", "gzip mtime must be 0"
    html = gzip.decompress(data).decode("utf-8")
    assert html == pagebuild.build_html()
    assert html.startswith("<!doctype html>")
    assert "<style>" in html and "<script>" in html
    # nothing is fetched from anywhere: no linked files, no other hosts
    for link in re.findall(r"""(?:src|href|action)=["']?([^"' >]*)""", html):
        assert link.startswith("data:"), link
    assert "http://" not in html and "https://" not in html
    assert "@import" not in html and "url(" not in html


def test_rebuilds_only_when_a_source_changed(tmp_path):
    pagebuild.build_page(tmp_path)
    out = tmp_path / "index.html.gz"
    old = min(p.stat().st_mtime for p in pagebuild.sources()) - 3600  # older than every source
    os.utime(out, (old, old))
    # the output is older than the sources: rebuilt (same bytes, so only its time moves)
    pagebuild.build_page(tmp_path)
    first = out.stat().st_mtime
    assert first > old
    time.sleep(0.01)
    pagebuild.build_page(tmp_path)
    assert out.stat().st_mtime == first


def test_minifiers_are_conservative():
    css = pagebuild.minify_css(
        '/* c "q" */ a > b , c { color: red ; content: "x /* y */ z" }\n'
        '@media (min-width: 1px) { p { x: 1 } }')
    assert css == 'a>b,c{color:red;content:"x /* y */ z"}@media (min-width:1px){p{x:1}}'
    js = pagebuild.minify_js("  // note\n  var a = 1; // kept\n\n  var s = 'http://x';\n")
    assert js == "var a = 1; // kept\nvar s = 'http://x';"


def test_command_line_prints_the_size(tmp_path):
    out = subprocess.run([sys.executable, pagebuild.__file__, str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    size = (tmp_path / "index.html.gz").stat().st_size
    assert "%d bytes gzipped" % size in out.stdout
