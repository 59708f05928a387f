"""`make bench`'s record (host_tools/bench.py): a full run writes BENCHMARKS.md, with the date, the commit
and the interpreter it ran on, a table per bench module and which ones failed; a run of some modules
only prints. With stand-in bench modules: no box is started."""

import subprocess
import textwrap

import bench
import pytest

FACTS = {"date": "2025-05-04", "commit": "abc1234 + uncommitted changes",
         "interpreter": "`.venv/bin/micropython` (the default): MicroPython v1.25.0", "word_bits": 32}


def test_the_record_has_the_runs_facts_a_table_per_module_and_the_failures():
    figures = {"bench_cpu": [("idle_poll_heap_bytes", 312, "B"), ("idle_poll_instructions",
                                                                  "skipped: no valgrind | apt-get", "")],
               "bench_load": [("poll_p95_ms", 41.5, "ms")],
               "bench_page": []}
    failed = {"bench_load": "TimeoutError('the box did not answer')", "bench_page": "ImportError('x')"}
    text = bench.markdown(FACTS, figures, failed, {"bench_cpu": 12.04, "bench_load": 3.0})
    lines = text.splitlines()
    assert lines[0] == "# Benchmarks"
    assert "| date | 2025-05-04 |" in lines
    assert "| commit | abc1234 + uncommitted changes |" in lines
    assert "| interpreter | `.venv/bin/micropython` (the default): MicroPython v1.25.0 |" in lines
    assert "| its word | 32-bit |" in lines
    assert "| failed | bench_load, bench_page |" in lines
    cpu = text.split("## bench_cpu\n")[1].split("## ")[0]
    assert "took 12.0 s" in cpu
    assert ("| figure | value | unit |\n| --- | --- | --- |\n| idle_poll_heap_bytes | 312 | B |\n"
            "| idle_poll_instructions | skipped: no valgrind \\| apt-get |  |\n") in cpu
    load = text.split("## bench_load\n")[1].split("## ")[0]
    assert "| poll_p95_ms | 41.5 | ms |" in load
    assert "**failed after these figures:** TimeoutError('the box did not answer')" in load
    page = text.split("## bench_page\n")[1]
    assert "| figure |" not in page and "**failed:** ImportError('x')" in page
    assert text.index("## bench_cpu") < text.index("## bench_load") < text.index("## bench_page")


@pytest.fixture
def benches(tmp_path, monkeypatch):
    """A folder of two stand-in bench modules, one of which fails after its first figure."""
    folder = tmp_path / "benches"
    folder.mkdir()
    (folder / "bench_zz_one.py").write_text(textwrap.dedent("""
        def run():
            yield "speed", 7, "ms"
    """))
    (folder / "bench_zz_two.py").write_text(textwrap.dedent("""
        def run():
            yield "size", 9, "B"
            raise RuntimeError("out of time")
    """))
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(bench, "about_this_run", lambda: FACTS)
    return folder


def test_a_full_run_writes_the_record_and_a_partial_run_only_prints(benches, tmp_path, capsys):
    out = tmp_path / "BENCHMARKS.md"
    assert bench.main(["bench_zz_one"], folder=benches, out=out) == 0
    assert not out.exists()
    assert "speed: 7 ms" in capsys.readouterr().out

    assert bench.main([], folder=benches, out=out) == 1  # a module failed
    printed = capsys.readouterr().out
    assert "speed: 7 ms" in printed and "size: 9 B" in printed and "bench_zz_two failed" in printed
    text = out.read_text()
    assert "| commit | abc1234 + uncommitted changes |" in text and "| failed | bench_zz_two |" in text
    assert "| speed | 7 | ms |" in text and "| size | 9 | B |" in text
    assert "| the machine's load (1-minute average, " in text and " at the end |" in text
    assert "**failed after these figures:** RuntimeError('out of time')" in text


def test_the_commit_says_when_the_tree_differs_from_it_but_for_the_record_itself(tmp_path):
    def git(*args):
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path,
                              capture_output=True, text=True, check=True).stdout.strip()

    git("init", "-q")
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "BENCHMARKS.md").write_text("# Benchmarks\n")
    git("add", "a.py", "BENCHMARKS.md")
    git("commit", "-q", "-m", "one")
    head = git("rev-parse", "--short", "HEAD")
    record = tmp_path / "BENCHMARKS.md"
    assert bench.commit(tmp_path, record) == head
    record.write_text("# Benchmarks\n\nthe last run's\n")  # the previous full run's, not committed yet
    assert bench.commit(tmp_path, record) == head
    (tmp_path / "a.py").write_text("A = 2\n")
    assert bench.commit(tmp_path, record) == head + " + uncommitted changes"


def test_the_interpreter_is_named_by_its_place_in_the_repository_or_by_its_name_alone(tmp_path, monkeypatch):
    fake = tmp_path / "elsewhere" / "micropython"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'MicroPython v1.25.0 on 2025-04-15'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MICROPYTHON", str(fake))
    said = bench.interpreter(str(fake), bench.HERE.parent)
    assert said == "`micropython` outside the repository (MICROPYTHON): MicroPython v1.25.0 on 2025-04-15"
    monkeypatch.delenv("MICROPYTHON")
    said = bench.interpreter(str(bench.HERE / "no-such-micropython"), bench.HERE.parent)
    assert said == "`host_tools/no-such-micropython` (the default): its version unknown"


def test_the_record_is_kept_in_git():
    assert bench.OUT.name == "BENCHMARKS.md" and bench.OUT.parent == bench.HERE
    ignored = subprocess.run(["git", "check-ignore", "-q", str(bench.OUT)], cwd=bench.HERE)
    assert ignored.returncode == 1, "BENCHMARKS.md is ignored by .gitignore"
