"""The build recompiles a module whenever its source text differs from what its .mpy was compiled
from, whatever the files' times say (a checkout, a copy or a second build can leave an older source
looking newer, or a stale .mpy looking up to date)."""

import os
import shutil

import build


def test_a_changed_source_is_recompiled_even_when_it_looks_older(tmp_path):
    src = tmp_path / "m.py"
    out = build.BUILD / ("cache-test-%d" % os.getpid())
    dst = out / "m.mpy"
    try:
        src.write_text("x = 1\n")
        assert build.compile_file(src, dst, "m.py")
        first = dst.read_bytes()
        assert not build.compile_file(src, dst, "m.py")  # the same text: left as it is
        src.write_text("x = 2\n")
        old = dst.stat().st_mtime - 3600
        os.utime(src, (old, old))  # the new text carries an older time than the .mpy
        assert build.compile_file(src, dst, "m.py")
        assert dst.read_bytes() != first
        assert not build.compile_file(src, dst, "m.py")
    finally:
        shutil.rmtree(out, ignore_errors=True)
        stamps = build.STAMPS / out.name
        shutil.rmtree(stamps, ignore_errors=True)


def test_outside_the_build_folder_everything_is_compiled(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    dst = tmp_path / "out" / "m.mpy"
    assert build.compile_file(src, dst, "m.py")
    assert build.compile_file(src, dst, "m.py")
