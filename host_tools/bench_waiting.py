"""What phones waiting for a change (`GET /api/state?v=N&wait=1`) cost the box's heap, on the real
firmware under MicroPython (MICROPYTHON: the 32-bit build gives the Pico's figures) over real
sockets, read from the simulator's status after a collection:

- woken_slot_heap_bytes: what the shipped gate makes at boot besides stock MicroPython's (the 1 KB
  buffer woken requests are answered from), from the heap in use at the join screen on the two;
- held_request_heap_bytes: one waiting request (its task, its stream, its socket, its token: a
  waiting request gives its 1 KB buffer back), the mean over 8 phones and a table screen waiting at
  once (nine_held_heap_bytes, all of them);
- after_held_heap_bytes: the heap in use once they were all answered, against before they came.
"""

import socket

import build
from boxrig import BoxProcess, wait_until

PHONES = 8


def alloc(box):
    return box.api("GET", "/sim/status?gc=1")["mem_alloc"]


def join_screen(tree, work, lwip):
    box = BoxProcess(tree, work / lwip / "state", env={"TIDEBOX_LWIP": lwip}).start()
    box.choose()
    return box


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
        work = Path(folder)
        stock = join_screen(tree, work, "stock")
        try:
            stock_alloc = alloc(stock)
        finally:
            stock.stop()
        box = join_screen(tree, work, "tidebox")
        try:
            yield "woken_slot_heap_bytes", alloc(box) - stock_alloc, "B"
            tokens = [box.join("Phone%d" % (i + 1))["token"] for i in range(PHONES)] + [None]
            version = box.state()["v"]
            before = alloc(box)
            waiting = [wait_on(box, version, token) for token in tokens]
            wait_until(lambda: box.status()["held"] == len(tokens), "every phone waiting", timeout=20)
            held = alloc(box) - before
            yield "nine_held_heap_bytes", held, "B"
            yield "held_request_heap_bytes", round(held / len(tokens)), "B"
            box.api("POST", "/api/rename", {"name": "Phone0"}, tokens[0])  # a change answers them all
            for s in waiting:
                while s.recv(4096):
                    pass
                s.close()
            wait_until(lambda: box.status()["held"] == 0, "every wait answered", timeout=20)
            yield "after_held_heap_bytes", alloc(box) - before, "B"
        finally:
            box.stop()
