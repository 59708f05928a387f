"""Raw HTTP over sockets, for the reliability tests and the load benchmark.

The fuzzer sends bytes no well-behaved client library would produce (broken request lines, invalid
UTF-8, lying Content-Length headers), so requests here are plain bytes on a socket, every exchange
bounded in time. `Transcript` keeps every byte the box sends back, for the secrecy test.
Only loopback addresses are ever contacted.
"""

import json
import socket
import threading
import time
from pathlib import Path

HOST = "127.0.0.1"
NAMES = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


class Reply:
    """One answer as it came off the wire: status (None if there was none), headers, body."""

    def __init__(self, raw, error=None):
        self.raw = raw
        self.error = error  # what went wrong on the socket, if anything
        self.status = None
        self.headers = {}
        self.body = b""
        head, sep, body = raw.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ", 2) if lines and lines[0] else []
        if sep and len(parts) >= 2 and parts[0].startswith(b"HTTP/") and parts[1].isdigit():
            self.status = int(parts[1])
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                self.headers[name.strip().decode("latin-1").lower()] = value.strip().decode("latin-1")
            self.body = body

    def json(self):
        return json.loads(self.body)

    def error_message(self):
        """The {"error": "..."} message of a refusal, or None if the body is not one."""
        try:
            data = self.json()
        except ValueError:
            return None
        message = data.get("error") if isinstance(data, dict) else None
        return message if isinstance(message, str) else None

    def __repr__(self):
        return "<Reply %s %r%s>" % (self.status, self.raw[:200], " " + self.error if self.error else "")


def exchange(port, data, timeout=5.0, half_close=True):
    """Send `data` on a fresh connection and read until the box closes it (or `timeout` passes).

    A box that refuses a large body answers before reading it and closes, so sending may fail
    part-way: what matters is the answer, which is read whatever happened to the sending."""
    deadline = time.monotonic() + timeout
    error = None
    chunks = []
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError as exc:
            error = "send: %s" % exc.__class__.__name__
        while time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                error = "timed out"
                break
            except OSError as exc:  # a reset after the answer (unread body) is normal
                if not chunks:
                    error = "recv: %s" % exc.__class__.__name__
                break
            if not chunk:
                break
            chunks.append(chunk)
    return Reply(b"".join(chunks), error)


def build_request(method, path, body=None, token=None, headers=(), version="HTTP/1.1"):
    """Bytes of one request. `body`: bytes as they are, or any other value as JSON."""
    if isinstance(method, str):
        method = method.encode()
    if isinstance(path, str):
        path = path.encode("utf-8", "surrogateescape")
    lines = [b"%s %s %s" % (method, path, version.encode()), b"Host: 127.0.0.1"]
    if token is not None:
        lines.append(b"X-Seat-Token: " + (token.encode() if isinstance(token, str) else token))
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
        lines.append(b"Content-Type: application/json")
    names = set()
    for name, value in headers:
        name = name.encode() if isinstance(name, str) else name
        value = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
        names.add(name.lower())
        lines.append(name + b": " + value)
    if body is not None and b"content-length" not in names:
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


def call(port, method, path, body=None, token=None, headers=(), timeout=5.0):
    return exchange(port, build_request(method, path, body, token, headers), timeout)


class Transcript:
    """Every exchange made through it, with every byte the box sent back (thread-safe)."""

    def __init__(self, port):
        self.port = port
        self.lock = threading.Lock()
        self.entries = []  # (label, request bytes, Reply)

    def send(self, label, data, timeout=5.0):
        reply = exchange(self.port, data, timeout)
        with self.lock:
            self.entries.append((label, data, reply))
        return reply

    def call(self, label, method, path, body=None, token=None, headers=(), timeout=5.0):
        return self.send(label, build_request(method, path, body, token, headers), timeout)

    def take(self):
        """The entries since the last take()."""
        with self.lock:
            entries, self.entries = self.entries, []
        return entries


# ---------------------------------------------------------------- a table around one box


def seat_table(box, names=NAMES):
    """Joins every name from its own 'phone'; returns {seat: token}."""
    tokens = {}
    for name in names:
        joined = box.join(name)
        tokens[joined["seat"]] = joined["token"]
    return tokens


def start_game(box, timer_off=False):
    """From the join screen: setup, the numbered deck, optionally the timer off, start (tide card)."""
    assert box.press("C") == "setup"
    box.press("B")  # deck: shuffled -> numbered
    if timer_off:
        box.press("A")  # to the timer line
        for _ in range(4):  # 45 -> 30 -> 60 -> 90 -> off
            box.press("B")
    assert box.press("C") == "card"


def saved(box):
    """The bytes of the box's save file (None if there is none)."""
    path = Path(box.state_dir) / "game.json"
    return path.read_bytes() if path.exists() else None


def view_bytes(box, tokens):
    """Every phone's whole view as the box sends it (the anonymous one first), byte for byte."""
    views = []
    for token in [None] + [tokens[s] for s in sorted(tokens)]:
        reply = call(box.port, "GET", "/api/state", token=token)
        assert reply.status == 200, reply
        views.append(reply.body)
    return views


def random_allocation(rng):
    beacon = rng.randrange(8)
    grove = rng.randrange(8 - beacon)
    return [beacon, grove, 7 - beacon - grove]
