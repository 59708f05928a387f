"""The phones' API on the real firmware: clear 4xx answers that change nothing, tokens, rejoin codes,
cheap polling and the captive-portal probes."""

import gzip
import json
import socket
import struct
from pathlib import Path

import build
import fuzzing
import pytest
from boxrig import ApiError, BoxProcess


@pytest.fixture(scope="module")
def box(sim_tree, tmp_path_factory):
    b = BoxProcess(sim_tree, tmp_path_factory.mktemp("api") / "state").start()
    b.choose()
    yield b
    b.stop()


def full_state(box, tokens=()):
    views = [box.state()] + [box.state(t) for t in tokens]
    for v in views:
        v.pop("timer")
    return views


def refused(box, status, method, path, body=None, token=None, raw_body=None, headers=None):
    code, hdrs, payload = box.request(method, path, body, token, headers=headers, raw_body=raw_body)
    assert code == status, (code, payload)
    data = json.loads(payload)
    assert isinstance(data["error"], str) and len(data["error"]) > 5
    assert hdrs.get("Connection") == "close"
    return data["error"]


def test_joining_rules(box):
    ada = box.join("Ada")
    assert len(ada["token"]) == 32 and ada["seat"] == 0
    before = full_state(box, [ada["token"]])
    assert "taken" in refused(box, 409, "POST", "/api/join", {"name": "ada"})
    assert "at most 12" in refused(box, 400, "POST", "/api/join", {"name": "x" * 13})
    assert "at least one" in refused(box, 400, "POST", "/api/join", {"name": "   "})
    assert "text" in refused(box, 400, "POST", "/api/join", {"name": 42})
    assert "text" in refused(box, 400, "POST", "/api/join", {})
    assert "JSON" in refused(box, 400, "POST", "/api/join", raw_body=b"{name: Ada")
    assert "JSON" in refused(box, 400, "POST", "/api/join", raw_body=b"\xff\xfe")
    assert "object" in refused(box, 400, "POST", "/api/join", [1, 2])
    assert "too large" in refused(box, 413, "POST", "/api/join", raw_body=b'{"name":"' + b"a" * 5000 + b'"}')
    assert full_state(box, [ada["token"]]) == before
    markup = box.join("<b>Bo</b>")
    assert markup["name"] == "<b>Bo</b>"  # stored as text; the page shows it as text


def test_player_requests_need_a_valid_token(box):
    before = full_state(box)
    assert "no seat" in refused(box, 401, "POST", "/api/move",
                                {"move": "allocate", "args": {"allocation": [7, 0, 0]}})
    body = {"allocation": [7, 0, 0]}
    assert "no seat" in refused(box, 401, "POST", "/api/move",
                                {"move": "allocate", "args": body}, token="0" * 32)
    assert "no seat" in refused(box, 401, "POST", "/api/move", {"move": "unready", "args": {}}, token="zz")
    assert full_state(box) == before


def test_allocations_only_while_playing_and_only_legal(box):
    ada = box.join("Cy")["token"]
    assert "not started" in refused(box, 409, "POST", "/api/move",
                                 {"move": "allocate", "args": {"allocation": [7, 0, 0]}}, token=ada)
    box.press("C")  # to setup
    box.press("C")  # start: shuffled deck
    box.press("C")  # allocate
    before = full_state(box, [ada])
    for bad, words in [
        ([3, 3, 0], "total 7"),
        ([8, -1, 0], "negative"),
        ([2.5, 2.5, 2], "whole number"),
        ([True, 3, 3], "whole number"),
        ("7,0,0", "three numbers"),
        (None, "three numbers"),
        ([10**40, 0, 0], "total 7"),
    ]:
        assert words in refused(box, 400, "POST", "/api/move",
                                {"move": "allocate", "args": {"allocation": bad}}, token=ada)
    assert "ready" in refused(box, 400, "POST", "/api/move",
                              {"move": "allocate", "args": {"allocation": [7, 0, 0], "ready": "yes"}},
                              token=ada)
    assert full_state(box, [ada]) == before
    ok = box.allocate(ada, [4, 1, 2])
    assert ok["ok"] is True
    mine = box.state(ada)["game"]
    assert mine["mine"] == [4, 1, 2] and mine["locked"] is True
    box.api("POST", "/api/move", {"move": "unready", "args": {}}, ada)
    assert box.state(ada)["game"]["locked"] is False


def test_idle_poll_is_tiny_and_connections_close(box):
    full = box.state()
    status, headers, payload = box.request("GET", "/api/state?v=%d" % full["v"])
    assert status == 200 and json.loads(payload) == {"v": full["v"]}
    head = "HTTP/1.0 200 OK\r\n" + "".join("%s: %s\r\n" % kv for kv in headers.items()) + "\r\n"
    assert len(head.encode()) + len(payload) <= 200
    assert headers["Connection"] == "close"
    status, _, payload = box.request("GET", "/api/state?v=%d" % (full["v"] - 1))
    assert json.loads(payload)["box"] == full["box"]


def test_a_full_view_says_its_length_so_a_cut_answer_shows(new_box):
    box = new_box()
    ada = box.join("Lena")["token"]
    for token in (None, ada):
        reply = fuzzing.call(box.port, "GET", "/api/state", token=token)  # read until the box closes
        assert reply.status == 200 and reply.raw.lower().count(b"content-length:") == 1
        assert reply.headers["content-length"] == str(len(reply.body))
        assert reply.json()["v"] >= 1


@pytest.mark.parametrize("path", ["/generate_204", "/hotspot-detect.html", "/connecttest.txt", "/ncsi.txt",
                                  "/library/test/success.html", "/some/where/else"])
def test_captive_portal_probes_are_sent_to_the_page(box, path):
    status, headers, _ = box.request("GET", path, headers={"Host": "connectivitycheck.gstatic.com"})
    assert status == 302
    assert headers["Location"] == "http://localhost:%d/" % box.port


def test_each_game_part_of_the_page_is_served_from_flash(box, sim_tree):
    """GET /part/<game>.js: the registered game's part, the built file byte for byte, pre-gzipped."""
    games = build.game_ids()
    assert games
    for game in games:
        status, headers, payload = box.request("GET", "/part/%s.js" % game)
        assert status == 200, (game, payload[:200])
        assert headers["Content-Encoding"] == "gzip" and headers["Content-Type"].startswith("text/javascript")
        assert headers["Connection"] == "close"
        assert payload == (sim_tree / "www" / (game + ".js.gz")).read_bytes()
        assert gzip.decompress(payload).startswith(b'Tidebox.style("%s", ' % game.encode())
    # nothing but a registered game's part: no other file, no way out of the folder
    for path in ("/part/nothing.js", "/part/token_tide", "/part/token_tide.js.gz", "/part/index.html.js",
                 "/part/../game.json", "/part/%2e%2e/main.py", "/part/"):
        assert "no such part" in refused(box, 404, "GET", path), path


def test_unknown_api_is_a_clear_404(box):
    assert "no such" in refused(box, 404, "GET", "/api/nothing")
    assert "not allowed" in refused(box, 405, "GET", "/api/join")


def test_rejoin_code_moves_a_seat_to_another_phone(new_box):
    b = new_box()
    ada = b.join("Ada")["token"]
    b.join("Bo")
    b.press("C")
    b.press("C")
    b.allocate(ada, [5, 1, 1])
    assert b.press("A") == "menu"
    b.press("A")  # "Rejoin code"
    assert b.press("C") == "pick_seat"
    assert b.press("C") == "show_code"
    saved = json.loads((Path(b.state_dir) / "game.json").read_text())
    code = next(iter(saved["seats"]["codes"]))
    assert "not valid" in refused(b, 403, "POST", "/api/rejoin", {"code": "000000" if code != "000000"
                                                                  else "111111"})
    moved = b.api("POST", "/api/rejoin", {"code": code})
    assert moved["seat"] == 0 and moved["name"] == "Ada" and moved["token"] != ada
    assert b.state(moved["token"])["game"]["mine"] == [5, 1, 1]
    assert b.state(ada)["you"] is None  # the old phone is signed out
    assert "not valid" in refused(b, 403, "POST", "/api/rejoin", {"code": code})  # one-time
    with pytest.raises(ApiError):
        b.allocate(ada, [7, 0, 0])

def dns_query(name, qid=0x1234):
    header = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    labels = b"".join(bytes([len(part)]) + part.encode() for part in name.split(".")) + b"\x00"
    return header + labels + struct.pack(">HH", 1, 1)  # type A, class IN


def test_the_running_box_answers_every_dns_name_with_its_address(box):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(3)
        for qid, name in enumerate(["connectivitycheck.gstatic.com", "captive.apple.com", "example.org"]):
            sock.sendto(dns_query(name, qid), ("127.0.0.1", box.dns_port))
            reply, _ = sock.recvfrom(512)
            assert struct.unpack(">H", reply[:2])[0] == qid
            assert reply[-4:] == socket.inet_aton("127.0.0.1")  # the host board's address


# ---------------------------------------------------------------- strict JSON and names


def _cpython_accepts(body):
    """What strict JSON is: CPython's reader without its NaN/Infinity extension, one object deep
    enough for the box (16 brackets)."""
    def no_constants(word):
        raise ValueError(word)
    try:
        json.loads(body.decode("utf-8"), parse_constant=no_constants)
        return True
    except ValueError:
        return False


JSON_BODIES = [
    b'{"name":"Ada"}', b' {"name" : "Ada" } \r\n', b"{}", b"[]", b'{"a":[1,2,4]}', b'{"a":[]}', b"[[[]]]",
    b'{"move":"allocate","args":{"allocation":[4,1,2],"ready":true}}', b'"x"', b"0", b"-0", b"12",
    b"-1.5e+3", b"1E9", b"0.25", b"true", b"false", b"null", b'{"a":null,"b":false}',
    b'"\\u00e9\\n\\"\\\\\\/"', b'"\xc3\x89mile"', b'{"":1}',
    # what MicroPython's own reader lets through
    b'{"allocation":[1,2,4],}', b"[07,0,0]", b'{"name":"Ada"}\x00', b"[1,]", b"[,1]", b"{,}", b"[1 2]",
    b'{"a" 1}', b"[1,,2]", b'{"a":1,,"b":2}', b"01", b"[1.]", b"[-]", b"[-01]", b"[.5]", b"[+1]",
    b'["a\x01"]', b'["a\x00"]', b'["\\x41"]', b'["\\u12"]', b"[tru]", b"[nul]", b"[True]", b'{"a":1}}',
    b"[1]]", b"[[1]", b'{"a"}', b'{"a":}', b"{1:2}", b"{'a':1}", b"", b"   ", b"\x00", b'{"a":1} {}',
    b"[1e]", b"[1e+]", b"[0x10]", b"[NaN]", b"[Infinity]", b"[1]\x0b", b'{"a":1\x0c}', b'"abc',
    b'{"a":[1,2,4]', b"[1.5.2]", b"[--1]", b"[1-2]",
]


def _mutations(count=300, seed=15):
    """Valid bodies with one byte inserted, deleted or replaced: near misses of every kind."""
    import random
    rng = random.Random(seed)
    valid = [b for b in JSON_BODIES if _cpython_accepts(b)]
    alphabet = b' ,:[]{}"0123456789-+.eE\\tfnu\x00\x01'
    out = []
    for _ in range(count):
        body = bytearray(rng.choice(valid))
        at = rng.randrange(len(body) + 1)
        kind = rng.randrange(3)
        if kind == 0 or not body:
            body[at:at] = bytes([rng.choice(alphabet)])
        elif kind == 1:
            del body[min(at, len(body) - 1)]
        else:
            body[min(at, len(body) - 1)] = rng.choice(alphabet)
        try:
            body.decode("utf-8")  # broken UTF-8 is for the decoder to refuse, not this check
        except UnicodeDecodeError:
            continue
        out.append(bytes(body))
    return out


def test_the_strict_json_check_agrees_with_a_strict_reader_under_both_interpreters(mp):
    from tidebox import jsoncheck

    bodies = JSON_BODIES + _mutations()
    expected = [_cpython_accepts(b) for b in bodies]
    assert expected.count(True) > 20 and expected.count(False) > 100

    def cpython_check(body):
        try:
            jsoncheck.check(body)
            return True
        except ValueError:
            return False

    assert [cpython_check(b) for b in bodies] == expected
    results = mp.call_many("mp_strict_input", "json_ok", [[b.hex()] for b in bodies], heap="2M")
    assert [r["ok"] for r in results] == expected
    # brackets nest at most 16 deep (a phone's request is an object holding a list)
    assert cpython_check(b"[" * 16 + b"]" * 16) and not cpython_check(b"[" * 17 + b"]" * 17)


def test_malformed_json_is_refused_and_changes_nothing(new_box):
    box = new_box()
    ann = box.join("Ann")["token"]
    box.join("Bob")
    for raw in (b'{"name":"Cy",}', b'{"name":"Cy"}\x00', b'{"name" "Cy"}'):
        assert "JSON" in refused(box, 400, "POST", "/api/join", raw_body=raw)
    box.press("C")  # to setup
    box.press("C")  # start: shuffled deck
    box.press("C")  # allocate
    before = full_state(box, [ann])
    for raw in (
        b'{"move":"allocate","args":{"allocation":[1,2,4],}}',
        b'{"move":"allocate","args":{"allocation":[07,0,0]}}',
        b'{"move":"allocate","args":{"allocation":[1,2,4]}}\x00',
        b'{"move":"allocate","args":{"allocation":[1 2 4]}}',
        b'{"move":"allocate" "args":{"allocation":[1,2,4]}}',
    ):
        assert "JSON" in refused(box, 400, "POST", "/api/move", raw_body=raw, token=ann), raw
    assert full_state(box, [ann]) == before
    assert box.state(ann)["game"]["mine"] is None
    body = b' {"move": "allocate", "args": {"allocation": [1, 2, 4], "ready": true}}\r\n'
    status, _, payload = box.request("POST", "/api/move", raw_body=body, token=ann)
    assert status == 200, payload
    assert box.state(ann)["game"]["mine"] == [1, 2, 4]


# Upper and lower case beyond ASCII: Latin-1 Supplement, Latin Extended-A, Greek, Cyrillic.
CASE_RANGES = [(0xC0, 0x17F), (0x386, 0x3CE), (0x400, 0x45F)]


def test_names_fold_case_beyond_ascii_the_same_under_both_interpreters(mp):
    from tidebox.games.base import folded

    letters = [chr(cp) for lo, hi in CASE_RANGES for cp in range(lo, hi + 1)
               if len(chr(cp).lower()) == 1 and chr(cp).isalpha()]
    assert len(letters) > 300
    for c in letters + list("AZaz@[`{"):
        # a capital and its small letter fold alike; nothing else folds onto the small letter
        assert folded(c) == folded(c.lower()), c
        assert folded(c) == c.lower().encode() or c == "\u03c2", c  # final sigma folds to sigma
    names = ["Émile", "ÉMILE", "Łukasz", "ŁUKASZ", "Ÿves", "ÿves", "ΑΛΈΞΗΣ", "αλέξης", "ΟΔΥΣΣΕΥΣ",
             "οδυσσευς", "Иван", "ИВАН", "Ёжик", "ёжик", "Straße", "×÷", "Bo"]
    results = mp.call_many("mp_strict_input", "fold", [[n] for n in names])
    assert [bytes.fromhex(r["ok"]) for r in results] == [folded(n) for n in names]
    assert folded("Émile") == folded("émile") and folded("ΑΛΈΞΗΣ") == folded("αλέξης")
    assert folded("ΟΔΥΣΣΕΥΣ") == folded("οδυσσευς") and folded("ИВАН") == folded("иван")
    assert folded("Ёжик") == folded("ёжик") and folded("Łukasz") == folded("łukasz")
    assert folded("×") != folded("÷") and folded("Bo") != folded("Bö")
    # every letter of the ranges, under MicroPython too
    results = mp.call_many("mp_strict_input", "fold", [[c + c.lower()] for c in letters], heap="2M")
    assert [bytes.fromhex(r["ok"]) for r in results] == [folded(c + c.lower()) for c in letters]


def test_names_refuse_c1_controls_and_fold_case_beyond_ascii_on_the_box(new_box, mp):
    from tidebox.games.base import GameError, check_name

    # C1 controls are C2 80 to C2 9F; C2 A0 (no-break space) and a capital A circumflex (C3 82) are not
    # (CPython's strip() would take a leading U+0085 away as whitespace; MicroPython's does not)
    cases = [("B\u0085o", []), ("Bo\u009b", []), ("A\u0080", []), ("B\u00a0o", []), ("\u00c2Bo", []),
             ("émile", ["Émile"]), ("ΑΛΈΞΗΣ", ["αλέξης"]), ("иван", ["ИВАН"]), ("Bö", ["Bo"])]
    expected = [[400, "a name cannot contain control characters"]] * 3
    expected += [["ok", "B\u00a0o"], ["ok", "\u00c2Bo"]]
    expected += [[409, "that name is taken at this table"]] * 3 + [["ok", "Bö"]]
    results = mp.call_many("mp_strict_input", "name_check", [[n, t] for n, t in cases])
    assert [r["ok"] for r in results] == expected

    def cpython(name, taken):
        try:
            return ["ok", check_name(name, taken)]
        except GameError as e:
            return [e.status, e.message]

    assert [cpython(n, t) for n, t in cases] == expected

    box = new_box()
    for name in ("\u0085Bo", "Bo\u009b", "\u009fZed"):
        assert "control" in refused(box, 400, "POST", "/api/join", {"name": name})
    box.join("Émile")
    box.join("Иван")
    for name in ("émile", "ÉMILE", "иван"):
        assert "taken" in refused(box, 409, "POST", "/api/join", {"name": name})
    assert box.join("Emile")["name"] == "Emile"  # another name: no accent


def test_new_table_in_the_players_menu_lets_everyone_leave_after_a_confirmation(new_box):
    # the players of an earlier game leave in four presses and a confirmation, not three each
    box = new_box()
    tokens = [box.join(name)["token"] for name in ("Ada", "Bo", "Cy")]
    assert box.press("A") == "join_menu"  # Remove player, Add player here, New table, ...
    box.press("A")
    box.press("A")
    assert box.press("C") == "confirm"  # "Everyone leaves?"
    assert box.press("A") == "join_menu"  # no: nobody left
    assert [seat["name"] for seat in box.state()["seats"]] == ["Ada", "Bo", "Cy"]
    assert box.press("C") == "confirm"
    assert box.press("C") == "join"  # yes
    assert box.state()["seats"] == []
    assert all(box.state(token)["you"] is None for token in tokens)  # their phones join again
    assert box.join("Ada")["seat"] == 0


def test_a_refused_request_is_one_line_in_the_box_log_not_a_traceback(new_box):
    box = new_box()  # on its join screen
    box.join("Ada")
    refused(box, 409, "POST", "/api/join", {"name": "Ada"})
    refused(box, 401, "POST", "/api/move", {"move": "allocate", "args": {}}, token="0" * 32)
    log = Path(box.log.name).read_text(errors="replace")
    assert "tidebox: refused join 409 " in log and "tidebox: refused move 401 " in log, log
    assert "Traceback" not in log, log  # a refusal is an answer, not a failure
