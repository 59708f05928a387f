"""A scripted full 8-player Token Tide game against a running box (BoxProcess), with eight phones
polling once a second each: join, every round, the reveal, the final standings.

Used by the memory proof (tests/test_memory.py) and by `make bench` (smallest heap, peak use).
"""

import http.client
import json
import random
import threading
import time

from boxrig import Background, wait_until

# How long every phone may take to be told a change: a guard against a box that never tells them,
# not a figure (a busy machine slows the box and its phones several times over; speed is the bench's).
TOLD_WITHIN_S = 60

NAMES = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
# What a phone's Chrome sends with the page's fetch() (about 700 bytes with the request line): the
# box reads and keeps every header of a request while it is answered, so the proof pays for them.
PHONE_HEADERS = {
    "Connection": "keep-alive",
    "sec-ch-ua-platform": '"Android"',
    "User-Agent": "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/131.0.0.0 Mobile Safari/537.36",
    "sec-ch-ua": '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
    "sec-ch-ua-mobile": "?1",
    "Accept": "*/*",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Dest": "empty",
    "Referer": "http://192.168.4.1/",
    "Accept-Encoding": "gzip, deflate",
    "Accept-Language": "en-GB,en-US;q=0.9,en;q=0.8",
}


class Pollers(Background):
    """Eight phones polling /api/state?v=N once a second each, as the page does, with a phone's headers."""

    def __init__(self, box, tokens, period=1.0):
        super().__init__()
        self.box = box
        self.tokens = tokens
        self.period = period
        self.errors = []
        self.busy = 0  # 503s asked again (a box with retry_busy set: the evening's)
        self.requests = 0
        self.seen = {}  # token -> the last version its phone was told
        self.threads += [threading.Thread(target=self.run, args=(t,), daemon=True) for t in tokens]

    def run(self, token):
        version = 0
        while not self.stop.is_set():
            try:
                status, _, payload = self.box.request("GET", "/api/state?v=%d" % version, token=token,
                                                      headers=PHONE_HEADERS)
                self.requests += 1
                if status == 503 and self.box.retry_busy:
                    self.busy += 1  # "try again": asked again at the next poll, as the page does
                elif status != 200:
                    self.errors.append(status)
                else:
                    version = self.seen[token] = json.loads(payload)["v"]
            except (ValueError, http.client.HTTPException) as exc:  # an answer cut short
                self.errors.append(repr(exc))
            except OSError as exc:
                if not self.box.alive():
                    return
                self.errors.append(repr(exc))
            self.stop.wait(self.period)


def play_full_game(box, seed=8, rounds_check=None, poll=True, table=None):
    """Plays a whole numbered-deck game with 8 players, from the game menu (`table`: a table.Table
    already seated there); returns the final state and poller stats."""
    from table import Table

    rng = random.Random(seed)
    tokens = (table or Table()).sit(box, "token_tide", len(NAMES))
    stats = {"requests": 0, "errors": []}
    told = 0  # phones told the final standings
    pollers = Pollers(box, tokens) if poll else None
    if pollers:
        pollers.__enter__()
    try:
        box.press("C")
        box.press("B")  # numbered deck
        box.press("C")
        while box.state(tokens[0])["box"] != "over":
            box.press("C")  # start the timer
            for token in tokens:
                beacon = rng.randrange(8)
                grove = rng.randrange(8 - beacon)
                box.allocate(token, [beacon, grove, 7 - beacon - grove])
            box.press("C")  # reveal
            while box.screen() == "reveal":
                box.press("C")
            if rounds_check:
                rounds_check(box, tokens)
        if pollers:  # every phone goes on polling until it has been told the game is over
            final = box.state(tokens[0])["v"]
            wait_until(lambda: all(pollers.seen.get(t) == final for t in tokens),
                       "every phone was told the final standings", timeout=TOLD_WITHIN_S)
            told = len(tokens)
        time.sleep(0.2)
    finally:
        if pollers:
            pollers.__exit__()
            stats = {"requests": pollers.requests, "errors": pollers.errors, "told_the_end": told}
    return box.state(tokens[0]), stats
