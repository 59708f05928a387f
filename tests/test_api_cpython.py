"""tidebox/api.py under CPython: its routes are functions a test calls by name, and make_app serves
them from any server that offers what the top of api.py lists. Here that server is a plain CPython
microdot app (no fast path), as a transport for another interpreter would be, driven by microdot's
own test client; the box is the firmware's Box with Token Tide, on page_fakebox's board."""

import asyncio
import threading

import pytest
from microdot import Microdot
from microdot.test_client import TestClient
from page_fakebox import TOKEN_HEADER, FakeBoard, FakeRequest, as_bytes, run_route

from tidebox import api
from tidebox.box import Box
from tidebox.games.base import GameError
from tidebox.storage import Storage


class CPythonServer(Microdot):
    """What api.make_app needs of a server, and nothing more."""

    def __init__(self):
        super().__init__()
        self.box = None
        self.page_url = None
        self.served = self.idle_served = self.view_served = self.accepted = 0
        self.polls = None

    def seat_of(self, request):
        return self.box.seats.seat_of(request.headers.get(TOKEN_HEADER))

    def page_stream(self, page_file):
        return page_file

    def answer_polls(self, idle_response, view_response):
        self.polls = (idle_response, view_response)  # kept to show make_app offers them; not used here

    def box_changed(self):
        pass  # every request is answered at once here: none waits for a change


class Board(FakeBoard):
    def add_routes(self, app, box):
        pass  # only the simulator's board has pages of its own


@pytest.fixture
def box(tmp_path):
    box = Box(Board(str(tmp_path)), Storage(str(tmp_path)))
    box.choose_game("token_tide")
    return box


@pytest.fixture
def client(box):
    server = api.make_app(box, box.board, CPythonServer())
    assert server.box is box and server.polls == (api.idle_response, api.view_response)
    return TestClient(server)


def call(coroutine):
    """Runs the test client's request in an event loop of its own thread: the browser tests'
    Playwright keeps one running in this thread for the rest of the session."""
    result = []
    runner = threading.Thread(target=lambda: result.append(asyncio.run(coroutine)))
    runner.start()
    runner.join(30)
    assert result, "the request did not finish"
    return result[0]


def test_the_routes_answer_through_a_cpython_server(client, box):
    joined = call(client.post("/api/join", body={"name": "Ada"}))
    assert joined.status_code == 200 and joined.json["name"] == "Ada"
    token = joined.json["token"]
    view = call(client.get("/api/state", headers={TOKEN_HEADER: token}))
    assert view.status_code == 200 and view.json["you"] == {"seat": joined.json["seat"], "name": "Ada"}
    assert view.headers["Connection"] == "close" and view.headers["Cache-Control"] == "no-store"
    assert int(view.headers["Content-Length"]) == len(view.body)
    unchanged = call(client.get("/api/state?v=%d" % view.json["v"], headers={TOKEN_HEADER: token}))
    assert unchanged.body == b'{"v":%d}' % box.version
    no_seat = call(client.post("/api/move", body={"move": "allocate", "args": {}}))
    assert no_seat.status_code == 401 and "no seat" in no_seat.json["error"]
    bad = call(client.post("/api/join", body=b'{"name": "Bo",}'))
    assert bad.status_code == 400 and bad.json == {"error": "the request body must be JSON"}
    assert call(client.get("/api/join")).status_code == 405
    assert call(client.post("/api/state")).status_code == 405
    assert call(client.get("/api/nothing")).status_code == 404
    probe = call(client.get("/generate_204"))
    assert probe.status_code == 302 and probe.headers["Location"] == box.board.page_url()
    assert [s["name"] for s in view.json["seats"]] == ["Ada"]  # the refused requests changed nothing
    assert [s["name"] for s in call(client.get("/api/state")).json["seats"]] == ["Ada"]


def test_each_route_is_a_function_a_test_calls_by_name(box):
    request = FakeRequest(FakeServer(box), "", {}, b'{"name": "Cy"}')
    joined = api.join(request)
    assert joined["name"] == "Cy"
    request = FakeRequest(FakeServer(box), "", {TOKEN_HEADER: joined["token"]},
                          b'{"move": "allocate", "args": {"allocation": [7, 0, 0]}, "seq": "1"}')
    with pytest.raises(GameError) as refused:
        api.move(request)
    assert refused.value.status == 400 and "seq" in refused.value.message
    status, body = as_bytes(run_route(api.refused(request, refused.value)))
    assert status == 400 and b"seq must be a whole number" in body
    status, body = as_bytes(run_route(api.state(FakeRequest(FakeServer(box), "v=%d" % box.version, {}, b""))))
    assert (status, body) == (200, b'{"v":%d}' % box.version)


class FakeServer:
    """The server's part that the routes read, for calling them without any server."""

    def __init__(self, box):
        self.box = box

    def seat_of(self, request):
        return self.box.seats.seat_of(request.headers.get(TOKEN_HEADER))
