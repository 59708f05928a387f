"""How tidebox/transport.py reads requests and writes answers, under MicroPython on an in-memory connection
(tests/mp_scripts/web_serve.py): only the headers it uses are kept, a small answer leaves in one
write, and a box short of heap tells the phone to try again instead of blaming its request."""

import json

from micropython_runner import MP_SCRIPTS

BROWSER_GET = (
    "GET /echo HTTP/1.1\r\nHost: 192.168.4.1\r\nConnection: keep-alive\r\n"
    "User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36\r\n"
    "Accept: */*\r\nReferer: http://192.168.4.1/\r\nAccept-Encoding: gzip, deflate\r\n"
    "Accept-Language: en-GB,en;q=0.9\r\nX-Seat-Token: 0123456789abcdef0123456789abcdef\r\n\r\n"
)


def serve(mp, request, fail=None):
    proc = mp.run(MP_SCRIPTS / "web_serve.py", json.dumps({"request": request, "fail": fail}))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_only_the_headers_the_box_uses_are_kept(mp):
    out = serve(mp, BROWSER_GET)
    assert out["headers"] == ["X-Seat-Token"]
    post = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    assert serve(mp, post)["headers"] == ["Content-Length", "Content-Type"]


def test_a_small_answer_leaves_in_one_write_and_the_connection_is_closed(mp):
    out = serve(mp, BROWSER_GET)
    assert len(out["writes"]) == 1
    head, body = out["writes"][0].split("\r\n\r\n")
    assert head.startswith("HTTP/1.0 200 OK\r\n")
    assert json.loads(body) == {"ok": True}
    assert out["closed"]


def test_a_header_line_without_a_colon_is_still_refused(mp):
    out = serve(mp, "GET /echo HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
    assert "".join(out["writes"]).startswith("HTTP/1.0 400 ")
    assert out["headers"] is None


def test_no_heap_to_read_a_request_means_try_again_not_bad_request(mp):
    out = serve(mp, BROWSER_GET, fail="memory")
    answer = "".join(out["writes"])
    assert answer.startswith("HTTP/1.0 503 ") and "Retry-After: 1" in answer
    assert json.loads(answer.split("\r\n\r\n", 1)[1]) == {"error": "the box is busy for a moment: try again"}
    assert out["closed"] and out["headers"] is None
