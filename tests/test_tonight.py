"""The night's scores (tidebox/tonight.py) on the real firmware: a game played to its end and one ended
early from the box are tonight's games, in order, with everybody's points and the winners (none for
the ended one); they survive the box's restart after each game and a power cut; the phones read them
from GET /api/tonight; the game menu's last line shows them on the box; New table clears them after
asking."""

import csv
import io
import json

import pytest
from game_drivers import driver_for
from table import Table, back_to_menu, firmware_games

pytestmark = pytest.mark.slow  # the real firmware, restarting itself after each game
pytest_plugins = ("page_fakebox", "browser_firmware")


def tonight(box):
    status, headers, payload = box.request("GET", "/api/tonight")
    assert status == 200 and headers["Content-Type"] == "application/x-ndjson"
    return [json.loads(line) for line in payload.decode().splitlines()]


def games():
    return [game for game, _ in firmware_games().GAMES]


def open_tonight(box):
    """The game menu's last line, Tonight's scores: A past every game, then C."""
    box.wait_screen("choose", timeout=15)
    for _ in games():
        box.press("A")
    return box.press("C")


def end_game(box):
    assert box.press("A") == "menu"
    lines = box.status()["menu"]
    for _ in range(lines.index("End game")):
        box.press("A")
    assert box.press("C") == "confirm"
    box.press("C")
    box.wait_screen("choose", timeout=15)


def test_a_finished_game_and_an_ended_one_are_tonights_scores_until_a_new_table(real_box):
    assert tonight(real_box) == []
    table = Table()
    final, _ = driver_for("quiet_dividend")().play(real_box, table)
    assert final["box"] == "over"
    back_to_menu(real_box)
    [played] = tonight(real_box)
    assert played["game"] == "quiet_dividend" and played["ended"] is False
    assert played["names"] == table.names
    assert played["points"] == final["game"]["totals"]  # everybody's, as the phones were told at the end
    assert played["winners"] == final["game"]["winners"] != []
    best = max(played["points"])

    # Token Tide, ended from the box right after its start: in the scores as ended, nobody won
    real_box.choose("token_tide")
    real_box.press("C")  # setup
    real_box.press("C")  # the first card
    assert real_box.state(table.tokens[0])["box"] == "play"
    end_game(real_box)
    first, second = tonight(real_box)
    assert first == played
    assert second["game"] == "token_tide" and second["ended"] is True and second["winners"] == []
    assert second["names"] == table.names and second["points"] == [0] * len(table.names)

    # switched off and on: still there, and on the box as the game menu's last page
    real_box.kill()
    real_box.start()
    real_box.wait_screen("resume", timeout=15)
    assert real_box.press("C") == "choose"
    assert tonight(real_box) == [first, second]
    assert open_tonight(real_box) == "tonight"
    lines = real_box.status()["menu"]
    winner = played["names"][played["winners"][0]]
    assert lines[0].startswith("QD ") and lines[0].endswith(" %d" % best), lines
    if len(played["winners"]) == 1:
        assert lines[0] == "QD %s %d" % (winner[:9] if len(winner) <= 9 else winner[:8] + ".", best)
    assert lines[1:] == ["TT ended", "Back"], lines
    assert all(len(line) <= 16 for line in lines)
    assert real_box.press("C") == "tonight_game"  # the first game's points, best first
    real_box.press("B")
    for _ in range(len(lines) - 1):
        real_box.press("A")
    assert real_box.press("C") == "choose"  # Back
    real_box.press("A")  # the game menu's cursor, on its last line still, round to the first game

    # New table, from the join screen's players menu: asked first, then everyone and the scores go
    real_box.choose("token_tide")
    assert real_box.press("A") == "join_menu"
    for _ in range(real_box.status()["menu"].index("New table")):
        real_box.press("A")
    assert real_box.press("C") == "confirm"
    assert real_box.press("A") == "join_menu"  # no: nothing cleared
    assert len(tonight(real_box)) == 2
    assert real_box.press("C") == "confirm"
    real_box.press("C")
    assert tonight(real_box) == []
    assert real_box.state()["seats"] == []


def test_tonights_scores_are_public_and_read_only(real_box):
    status, _, payload = real_box.request("POST", "/api/tonight", body={})
    assert status == 404 and b"no such address" in payload
    status, _, _ = real_box.request("GET", "/api/tonight?x=1")
    assert status == 200


@pytest.mark.browser
def test_the_phones_show_tonights_scores_between_games_and_save_them_as_csv(fw_box, open_fw_phone):
    """Two phones at Token Tide's join screen; the reader starts the game and ends it from the box:
    back between games, each phone shows the ended game in Tonight, and saves it as CSV."""
    from phone_flow import join
    from playwright.sync_api import expect

    ada, bo = open_fw_phone(), open_fw_phone()
    join(ada, "Ada")
    join(bo, "Bo")
    expect(ada.locator("#tonight")).to_be_hidden()  # nothing played yet tonight
    fw_box.press("C")  # setup
    fw_box.press("C")  # the first card
    end_game(fw_box)
    for phone in (ada, bo):
        expect(phone.locator("#tonightList li")).to_have_text(["Token Tide: ended early. Ada 0 \u00b7 Bo 0"])
    with ada.expect_download() as info:
        ada.get_by_role("button", name="Save tonight\u2019s scores (CSV)").click()
    download = info.value
    assert download.suggested_filename == "tidebox-tonight.csv"
    with open(download.path(), encoding="utf-8") as f:
        rows = list(csv.reader(io.StringIO(f.read())))
    assert rows == [["Game", "Title", "Ended early", "Player", "Points", "Won"],
                    ["1", "Token Tide", "yes", "Ada", "0", "no"], ["1", "Token Tide", "yes", "Bo", "0", "no"]]


def test_a_game_written_twice_counts_once_and_the_oldest_go_past_the_cap(tmp_path):
    """tonight.add on its own (CPython, as the Raspberry Pi box runs it): the same game (its tag)
    written again, as after a power cut between the line and the save, is one line; past the cap the
    oldest games go, whole lines, and the newest is always kept; a broken last line is skipped."""
    from tidebox import tonight
    from tidebox.storage import Storage

    storage = Storage(str(tmp_path))

    def game(tag):
        return {"game": "token_tide", "title": "Token Tide", "tag": tag, "names": ["Ada", "Bo"],
                "points": [tag, 0], "winners": [0], "ended": False}

    tonight.add(storage, game(1))
    tonight.add(storage, game(1))
    assert tonight.read(storage) == [game(1)]
    for tag in range(2, 200):
        tonight.add(storage, game(tag))
    kept = tonight.read(storage)
    assert (tmp_path / tonight.FILE).stat().st_size <= 8192
    assert kept[-1] == game(199) and [g["tag"] for g in kept] == list(range(kept[0]["tag"], 200))
    assert len(kept) > 50  # only the oldest went
    with open(tmp_path / tonight.FILE, "a") as f:
        f.write('{"game": "tok')  # the power went in the middle of a line
    assert tonight.read(storage) == kept
    tonight.add(storage, game(200))
    assert tonight.read(storage)[-1] == game(200)
