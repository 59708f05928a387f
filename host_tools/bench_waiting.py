"""What phones waiting for a change (`GET /api/state?v=N&wait=1`) cost the box's heap, on the real
firmware under MicroPython (MICROPYTHON: the 32-bit build gives the Pico's figures) over real
sockets, read from the simulator's status after a collection:

- nine_held_heap_bytes: 8 phones and a table screen waiting at once, against none waiting (the
  first wait also makes the 1 KB buffer woken requests are answered from, and the event they wait on);
- held_request_heap_bytes: each waiting request past the first (its task, its stream, its socket,
  its token: a waiting request gives its 1 KB buffer back), the mean of the other eight;
- after_held_heap_bytes: the heap in use once they were all answered, against before they came.
"""

import socket

import build
from boxrig import BoxProcess, wait_until

PHONES = 8


def alloc(box):
    return box.api("GET", "/sim/status?gc=1")["mem_alloc"]


def wait_on(box, version, token):
    s = socket.create_connection(("127.0.0.1", box.port), timeout=30)
    head = b"GET /api/state?v=%d&wait=1 HTTP/1.1\r\nHost: 192.168.4.1\r\n" % version
    if token:
        head += b"X-Seat-Token: %s\r\n" % token.encode()
    s.sendall(head + b"\r\n")
    return s


def run():
    import tempfile
    from pathlib import Path

    tree = build.build_sim()
    with tempfile.TemporaryDirectory() as folder:
        box = BoxProcess(tree, Path(folder) / "state").start()
        try:
            box.choose()
            tokens = [box.join("Phone%d" % (i + 1))["token"] for i in range(PHONES)] + [None]
            version = box.state()["v"]
            before = alloc(box)
            waiting = [wait_on(box, version, tokens[0])]
            wait_until(lambda: box.status()["held"] == 1, "the first phone waiting", timeout=20)
            first = alloc(box)
            waiting += [wait_on(box, version, token) for token in tokens[1:]]
            wait_until(lambda: box.status()["held"] == len(tokens), "every phone waiting", timeout=20)
            held = alloc(box)
            yield "nine_held_heap_bytes", held - before, "B"
            yield "held_request_heap_bytes", round((held - first) / (len(tokens) - 1)), "B"
            box.api("POST", "/api/rename", {"name": "Phone0"}, tokens[0])  # a change answers them all
            for s in waiting:
                while s.recv(4096):
                    pass
                s.close()
            wait_until(lambda: box.status()["held"] == 0, "every wait answered", timeout=20)
            yield "after_held_heap_bytes", alloc(box) - before, "B"
        finally:
            box.stop()
