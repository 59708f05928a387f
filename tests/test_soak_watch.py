"""The evening bench's watch on the box's memory rules (host_tools/soak_evening.py): the box runs with
it as it does without (the same screens, the same phones' API), and a restart for memory shows in its
log as a `tidebox-watch:` line that the bench's report counts."""

import shutil

import pytest
from boxrig import BoxProcess
from soak_evening import add_watch, count_watch, report

pytestmark = pytest.mark.slow  # the real firmware, restarting itself


def test_count_watch_reads_only_the_watch_lines():
    log = ("tidebox: host on port 1, 100 bytes free\n"
           "tidebox-watch: miss moves \n"
           "tidebox-watch: miss moves \n"
           "tidebox-watch: rule moves \n"
           "tidebox-watch: restart home flag\n"
           "a tidebox-watch: line quoted elsewhere\n")
    assert count_watch(log) == {"miss moves": 2, "rule moves": 1, "restart home flag": 1}


def test_the_report_has_a_row_for_each_rule_and_each_restart(capsys):
    figures = {"games_played": 4, "failed_starts": 0, "cuts_during_games": 1, "cuts_between_games": 1,
               "polls": 10, "polls_unanswered": 0, "acked_lost": 0, "crash_log_entries": 0,
               "soft_resets": 5, "box_log": "box.log",
               "watch": {"rule views": 1, "miss views": 9, "restart menu after_game": 4}}
    report(figures, [(50 * 1024, 40 * 1024)], 30)
    out = capsys.readouterr().out
    for rule, times in (("moves", 0), ("views", 1), ("requests", 0), ("lost", 0)):
        assert "| memory rule fired: %s | %d | 0 |" % (rule, times) in out
    assert "| misses: views | 9 | - |" in out
    assert "| Panel.restart(menu after_game) | 4 | - |" in out


def test_a_restart_for_memory_is_a_watch_line(sim_tree, tmp_path):
    tree = shutil.copytree(sim_tree, tmp_path / "tree")
    box = BoxProcess(tree, tmp_path / "state", script=add_watch(tree)).start()
    try:
        box.wait_screen("choose", timeout=15)
        tokens = [box.join(name)["token"] for name in ("Ada", "Bo", "Cy")]
        # Token Tide's rules need kilobytes to load: with 2 KB free the choice finds no room, and the
        # lobby restarts the box itself (not through the panel loop's flag)
        assert box.press("C", squeeze=2048) == "join"
        assert box.state(tokens[0])["kind"] == "token_tide"
    finally:
        box.stop()
    counts = count_watch((tmp_path / ("box-%d.log" % box.port)).read_text(errors="replace"))
    assert counts.get("restart choose direct") == 1, counts
    assert not [key for key in counts if key.startswith("rule ")], counts
