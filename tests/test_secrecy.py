"""Nobody sees a hidden allocation early: every byte the box sends during a whole 8-player game
(the real firmware under MicroPython, boards/host.py), to every seat and to requests without a seat,
is recorded, and before each reveal none of it holds another player's allocation of that round,
in bodies, headers or error messages; no answer holds another player's seat token either.

Phones poll their full view and the tiny "unchanged" answer; a curious phone asks for other seats,
guesses tokens and codes, sends bad allocations to read the error messages, and looks for the save
file. (The simulator's own /sim pages are the box's OLED and buttons, not part of a real box's
network, and are left out.)
"""

import json
import random
import re
import threading

import pytest
from boxrig import Background

import fuzzing

pytestmark = pytest.mark.slow  # a whole 8-player game, every byte audited

TRIPLE = re.compile(rb"\d\D{0,6}\d\D{0,6}\d")  # three numbers close together, however written
REVEALED = (("game", "history"), ("game", "last"))  # earlier rounds, checked to be earlier
SAFE_HEADERS = {"content-type", "content-length", "connection", "cache-control", "location", "allow",
                "x-frame"}  # the panel copy's frame number (/api/panel)
PIXELS = "application/octet-stream"  # the table screen's copies of the OLED and its codes: no text


def allocation_shaped(value):
    return (isinstance(value, list) and len(value) == 3 and all(type(v) is int and v >= 0 for v in value)
            and sum(value) == 7)


def walk(value, path=()):
    """(path, list) for every allocation-shaped list in a JSON value."""
    if allocation_shaped(value):
        yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, path + (i,))


def strings(value, path=()):
    """(path, text) for every string in a JSON value."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings(item, path + (i,))


def renderings(allocation):
    a, b, c = allocation
    return [b"[%d, %d, %d]" % (a, b, c), b"[%d,%d,%d]" % (a, b, c)]


class Phones(Background):
    """Eight phones and a curious one, every exchange recorded (fuzzing.Transcript)."""

    join_s = 10

    def __init__(self, box, tokens, transcript):
        super().__init__()
        self.box = box
        self.tokens = tokens
        self.transcript = transcript
        self.errors = []
        self.threads += [threading.Thread(target=self.poll, args=(seat,), daemon=True) for seat in tokens]
        self.threads.append(threading.Thread(target=self.poll, args=(None,), daemon=True))
        self.threads.append(threading.Thread(target=self.curious, daemon=True))

    def poll(self, seat):
        token = None if seat is None else self.tokens[seat]
        version = 0
        while not self.stop.is_set():
            for path in ("/api/state", "/api/state?v=%d" % version):
                reply = self.transcript.call(seat, "GET", path, token=token)
                if reply.status != 200:
                    self.errors.append((seat, reply))
                else:
                    version = reply.json()["v"]
            self.stop.wait(0.25)

    def curious_requests(self):
        me = self.tokens[0]
        stolen = self.tokens[3][:-1] + ("0" if self.tokens[3][-1] != "0" else "1")
        requests = [
            ("GET", "/api/state?seat=3", None, me), ("GET", "/api/state?seat=3&v=0", None, None),
            ("GET", "/api/state?you=3", None, stolen), ("HEAD", "/api/state", None, stolen),
            ("OPTIONS", "/api/state", None, None), ("GET", "/api/state/3", None, me),
            ("POST", "/api/move", {"move": "allocate", "args": {"allocation": [8, -1, 0], "seat": 3}}, me),
            ("POST", "/api/move", {"move": "allocate", "args": {"allocation": [3, 3, 3]}}, me),
            ("POST", "/api/move", {"move": "allocate", "args": {"allocation": "mine of seat 3"}}, me),
            ("POST", "/api/move", {"move": "allocate", "args": {"allocation": [7, 0, 0]}}, stolen),
            ("POST", "/api/move",
             {"move": "unready", "args": {}}, stolen), ("POST", "/api/rejoin", {"code": "123456"}, None),
            ("POST", "/api/join", {"name": "Spy"}, None), ("GET", "/api/join", None, me),
            # what a table screen asks for, which anyone on the hotspot can open
            ("GET", "/api/panel", None, None), ("GET", "/api/codes", None, None),
            ("GET", "/api/games", None, None),
        ]
        for path in ["/game.json", "/sim_state/game.json", "/state/game.json", "/../game.json",
                     "/%2e%2e/game.json", "/www/../game.json", "/api/../../game.json", "/main.py"]:
            requests.append(("GET", path, None, None))
        return requests

    def curious(self):
        requests = self.curious_requests()
        i = 0
        while not self.stop.is_set():
            method, path, body, token = requests[i % len(requests)]
            self.transcript.call("curious", method, path, body, token)
            i += 1
            self.stop.wait(0.05)


class Audit:
    def __init__(self, tokens):
        self.tokens = tokens
        self.seat_of = {token: seat for seat, token in tokens.items()}
        self.replies = 0
        self.bytes = 0
        self.checked_rounds = 0

    def no_stray_tokens(self, entries):
        """A reply never holds a seat token, except the one a join or rejoin has just handed out."""
        for label, request, reply in entries:
            self.replies += 1
            self.bytes += len(reply.raw)
            handed_out = None
            if request.startswith((b"POST /api/join ", b"POST /api/rejoin ")) and reply.status == 200:
                handed_out = reply.json()["token"]
            for token in self.tokens.values():
                if token != handed_out:
                    assert token.encode() not in reply.raw, (label, request[:200], reply)
            assert "set-cookie" not in reply.headers, reply

    def before_reveal(self, entries, secrets, round_number):
        """Nothing answered while round `round_number` was hidden shows another seat's allocation."""
        self.no_stray_tokens(entries)
        for label, request, reply in entries:
            viewer = self.seat_of.get(fuzzing_token(request))
            assert set(reply.headers) <= SAFE_HEADERS, reply  # headers: only these, whose values are plain
            try:
                body = reply.json()
            except ValueError:
                body = None
            legit = []
            if isinstance(body, dict):
                message = body.get("error")
                if isinstance(message, str):
                    assert not TRIPLE.search(message.encode()), (request[:200], message)
                game = body.get("game") or {}
                last = game.get("last")
                assert last is None or last["round"] < round_number, (label, reply)
                assert all(r["round"] < round_number for r in game.get("history", [])), (label, reply)
                for path, text in strings(body):  # free text: only names (the players' own) may hold digits
                    if path[-1:] not in (("name",), ("ssid",)) and path[:2] not in REVEALED:
                        assert not TRIPLE.search(text.encode()), (label, path, text)
                for path, value in walk(body):
                    if path[:2] == ("game", "mine"):
                        assert viewer is not None and value in secrets[viewer], (label, path, value)
                    elif path[:2] in REVEALED:
                        pass  # earlier rounds, revealed
                    else:
                        raise AssertionError("an allocation at %r in %r" % (path, reply))
                    legit.append(value)
            elif reply.body and reply.headers.get("content-type") != PIXELS:
                assert not TRIPLE.search(reply.body) or request.startswith(b"GET / "), (request[:200], reply)
            for seat, values in secrets.items():
                if seat == viewer:
                    continue
                for value in values:
                    if value not in legit:  # the same numbers revealed in an earlier round are not a leak
                        for text in renderings(value):
                            assert text not in reply.raw, (label, seat, value, reply)
        self.checked_rounds += 1


def fuzzing_token(request):
    for line in request.split(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"x-seat-token":
            return value.strip().decode()
    return None


def test_no_allocation_is_seen_before_its_reveal(real_box, tmp_path):
    real_box.choose()  # on Token Tide's join screen
    rng = random.Random(77)
    transcript = fuzzing.Transcript(real_box.port)
    tokens = {}
    for name in fuzzing.NAMES:
        joined = transcript.call("join", "POST", "/api/join", {"name": name}).json()
        tokens[joined["seat"]] = joined["token"]
    audit = Audit(tokens)
    audit.no_stray_tokens(transcript.take())
    with Phones(real_box, tokens, transcript) as phones:
        fuzzing.start_game(real_box)
        rounds = 0
        while real_box.state()["box"] != "over":
            round_number = real_box.state()["game"]["round"]
            assert real_box.press("C") == "allocate"
            audit.no_stray_tokens(transcript.take())  # the previous reveal: public by now
            secrets = {seat: [] for seat in tokens}
            for seat in rng.sample(sorted(tokens), len(tokens)):
                for _ in range(rng.choice([1, 1, 2])):  # some change their mind before the reveal
                    allocation = fuzzing.random_allocation(rng)
                    secrets[seat].append(allocation)
                    reply = transcript.call(seat, "POST", "/api/move",
                                            {"move": "allocate", "args": {"allocation": allocation}},
                                            tokens[seat])
                    assert reply.status == 200, reply
                if rng.random() < 0.2:
                    assert transcript.call(seat, "POST", "/api/move",
                                           {"move": "unready", "args": {}}, tokens[seat]).status == 200
                    reply = transcript.call(seat, "POST", "/api/move",
                                            {"move": "allocate", "args": {"allocation": secrets[seat][-1]}},
                                            tokens[seat])
                    assert reply.status == 200
            before = len(transcript.entries)
            for _ in range(100):  # until every phone has polled the locked table (10 s at most)
                if len(transcript.entries) >= before + 40:
                    break
                phones.stop.wait(0.1)
            audit.before_reveal(transcript.take(), secrets, round_number)
            assert real_box.press("C") == "reveal"
            revealed = real_box.state()["game"]["last"]
            assert [row["allocation"] for row in revealed["rows"]] == [secrets[s][-1] for s in sorted(tokens)]
            while real_box.press("C") == "reveal":
                pass
            rounds += 1
        assert phones.errors == []
    audit.no_stray_tokens(transcript.take())
    (tmp_path / "secrecy-summary.json").write_text(json.dumps(
        {"rounds": rounds, "replies": audit.replies, "bytes": audit.bytes}))
    print("secrecy: %d rounds, %d answers, %d bytes recorded" % (rounds, audit.replies, audit.bytes))
    assert rounds == 6 and audit.checked_rounds == 6


def test_the_audit_catches_leaks():
    """The audit itself: each of these answers, had the box sent it before the reveal, fails it."""
    tokens = {0: "a" * 32, 1: "b" * 32}
    secrets = {0: [[4, 1, 2]], 1: [[1, 2, 4]]}
    request = fuzzing.build_request("GET", "/api/state", token=tokens[0])

    def view(game, headers=b""):
        body = json.dumps({"game": game, "v": 3}).encode()
        head = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n" + headers
        return fuzzing.Reply(head + b"\r\n" + body)

    own = {"mine": [4, 1, 2], "history": [], "last": None}
    Audit(tokens).before_reveal([(0, request, view(own))], secrets, 0)  # one's own allocation is fine
    leaks = [
        view({"mine": [4, 1, 2], "players": [{"hidden": [1, 2, 4]}], "history": [], "last": None}),
        view({"mine": [1, 2, 4], "history": [], "last": None}),
        view({"history": [{"round": 0, "allocations": [[1, 2, 4]]}], "last": None}),
        view(own, b"X-Debug: 1-2-4\r\n"),
        view(dict(own, note="seat 1 has 1, 2 and 4")),
        fuzzing.Reply(b'HTTP/1.0 400 N/A\r\n\r\n{"error": "not like seat 1: 1/2/4"}'),
        view(dict(own, peer=tokens[1])),
    ]
    for reply in leaks:
        with pytest.raises(AssertionError):
            Audit(tokens).before_reveal([(0, request, reply)], secrets, 0)
