"""host_tools/compat.py (make compat) on small git repositories made here: which tags it takes, the
submodule it adds at the commit a tag pins, and how it reports a failed test. No MicroPython source
tree is needed; make compat itself builds real releases."""

import subprocess
import xml.etree.ElementTree as ET

import compat
import firmware
import pytest

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]


def git(repo, *args):
    return subprocess.run(GIT + ["-C", str(repo), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def commit_file(repo, name, text):
    (repo / name).write_text(text)
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", name)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repos(tmp_path):
    """A 'micropython-lib' with two commits, and a 'micropython' whose tag v1.24.0 pins the first."""
    lib = tmp_path / "lib-repo"
    lib.mkdir()
    git(lib, "init", "-q")
    pinned = commit_file(lib, "manifest.py", "pinned\n")
    commit_file(lib, "manifest.py", "newer\n")
    src = tmp_path / "mp"
    src.mkdir()
    git(src, "init", "-q")
    (src / "py").mkdir()
    commit_file(src, "py/mpconfig.h", "/* 1 */\n")
    git(src, "update-index", "--add", "--cacheinfo", "160000,%s,lib/micropython-lib" % pinned)
    git(src, "commit", "-q", "-m", "pin the submodule")
    for tag in ("v1.23.0", "v1.24.0-preview", "v1.24.0", "v1.9.9", "v1.100.0", "v1.25.0", "nightly"):
        git(src, "tag", tag)
    return src, lib, pinned


def test_release_tags_from_the_first_on_in_numeric_order_without_previews(repos):
    src, _, _ = repos
    assert compat.release_tags(src) == ["v1.24.0", "v1.25.0", "v1.100.0"]
    assert compat.release_tags(src, "v1.9.0") == ["v1.9.9", "v1.23.0", "v1.24.0", "v1.25.0", "v1.100.0"]


def test_the_submodule_comes_at_the_commit_the_tag_pins(repos, tmp_path):
    src, lib, pinned = repos
    tree = tmp_path / "tree"
    compat.unpack(src, "v1.24.0", tree)
    assert (tree / "py" / "mpconfig.h").read_text() == "/* 1 */\n"
    note = compat.add_submodule(src, "v1.24.0", "lib/micropython-lib", tree, {"lib/micropython-lib": lib})
    assert note == ""
    assert (tree / "lib" / "micropython-lib" / "manifest.py").read_text() == "pinned\n"


def test_a_plain_folder_is_copied_and_the_note_says_it_is_not_the_pinned_commit(repos, tmp_path):
    src, _, pinned = repos
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "manifest.py").write_text("some other\n")
    tree = tmp_path / "tree"
    compat.unpack(src, "v1.24.0", tree)
    note = compat.add_submodule(src, "v1.24.0", "lib/micropython-lib", tree, {"lib/micropython-lib": folder})
    assert (tree / "lib" / "micropython-lib" / "manifest.py").read_text() == "some other\n"
    assert "not at the pinned " + pinned[:10] in note


def test_no_source_for_the_submodule_is_an_error_naming_it(repos, tmp_path):
    src, _, _ = repos
    with pytest.raises(firmware.FirmwareError, match="lib/micropython-lib"):
        compat.add_submodule(src, "v1.24.0", "lib/micropython-lib", tmp_path / "tree",
                             {"lib/micropython-lib": tmp_path / "nowhere"})


def test_a_failure_is_reported_by_its_assert_line():
    failure = ET.fromstring(
        '<failure message="AssertionError: {&apos;ok&apos;: False}">def test():\n'
        '&gt;       assert result["error"] is None, result\n'
        "E       AssertionError: {'ok': False}\n"
        "E       assert 'ApiError(503)' is None\n</failure>")
    assert compat.why(failure) == "assert 'ApiError(503)' is None"
    crash = ET.fromstring('<error message="failed on setup">E   OSError: [Errno 98] in use\n</error>')
    assert compat.why(crash) == "OSError: [Errno 98] in use"


def test_the_table_has_a_row_per_tag():
    text = compat.table([("v1.24.0", True, 33, 1, ["a | b"]), ("v1.25.0", False, "-", "-", ["build failed"])])
    assert text.splitlines()[2:] == ["| v1.24.0 | yes | 33 | 1 | a / b |",
                                     "| v1.25.0 | no | - | - | build failed |"]
