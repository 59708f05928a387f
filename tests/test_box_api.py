"""The phones' API on the real firmware: clear 4xx answers that change nothing, tokens, rejoin codes,
cheap polling and the captive-portal probes."""

import json
import socket
import struct
from pathlib import Path

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
