"""The phones' page against the real firmware (MicroPython unix port, Pico-sized heap): size,
requests, the idle poll, and how soon eight phones in headless Chromium show a reveal.

    python host_tools/bench_page.py        prints `name: value unit` lines (also part of `make bench`)

Figures:
  page_gzip_bytes            the shared page every phone downloads (build/sim/www/index.html.gz)
  page_part_gzip_bytes_<game>  each game's part, which a phone downloads once that game is chosen
                             (build/sim/www/<game>.js.gz); the table screen downloads it too
  table_page_gzip_bytes      the table screen (/table: build/sim/www/table.html.gz)
  page_requests              requests one phone makes to load the page and join (until its lobby shows;
                             the chosen game's part among them)
  idle_poll_bytes            the whole answer (status line, headers, body) to `GET /api/state?v=<current>`
  reveal_latency_ms_median   from the reader's reveal press (the POST /sim/press C) until a phone's page
  reveal_latency_ms_max      shows the reveal, over every phone and round (8 phones, ROUNDS rounds)
  reveal_press_to_screen_ms_median   from that press until /sim/status says the box shows "reveal"
                             (button debouncing and the box's loop; the phones' share is the rest)
  reveal_tcp_peak            the most connections the box served at once during the run (its limit is 5)

Pages poll once a second, so a reveal reaches a phone after up to about a second. All pages and
this script run on one machine, so the press time (time.time()) and the pages' Date.now() read the
same clock; each page records Date.now() from a MutationObserver the moment its reveal is in the DOM.
"""

import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _p in (HERE, HERE.parent / "firmware"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import build  # noqa: E402
from boxrig import BoxProcess  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", "--no-first-run",
]
NAMES = ["Ada", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
ROUNDS = 3
WAIT_MS = 15000

# Records when this page first shows round `n`'s reveal (its heading "Round n: ...", unfolded).
WATCH_JS = """n => {
  window.__revealAt = 0;
  const box = document.getElementById('reveal');
  const head = document.getElementById('revealHead');
  const seen = () => !box.hidden && box.open && head.textContent.startsWith('Round ' + n + ':');
  const watch = new MutationObserver(() => {
    if (!window.__revealAt && seen()) { window.__revealAt = Date.now(); watch.disconnect(); }
  });
  watch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def idle_poll_bytes(box, token):
    """The whole answer to an idle poll, read off a raw socket until the box closes it."""
    for _ in range(5):
        version = box.state(token)["v"]
        request = ("GET /api/state?v=%d HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Seat-Token: %s\r\n\r\n"
                   % (version, box.port, token)).encode()
        with socket.create_connection(("127.0.0.1", box.port), timeout=10) as s:
            s.sendall(request)
            answer = b""
            while True:
                data = s.recv(4096)
                if not data:
                    break
                answer += data
        if answer.endswith(b'{"v":%d}' % version):  # nothing changed in between: a true idle poll
            return answer
    raise RuntimeError("the box kept changing; no idle poll measured")


def join_phone(browser, url, name, count=False):
    """A new phone joins through the page; returns (page, requests it made until the lobby showed)."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    ctx.set_default_timeout(WAIT_MS)
    page = ctx.new_page()
    requests = []
    if count:
        page.on("request", lambda r: requests.append(r.method + " " + r.url))
    page.goto(url + "/")
    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    page.locator("#lobby").wait_for(state="visible")
    return page, len(requests)


def reveal_round(box, pages, tokens, round_number):
    """One round: the timer, everybody's allocation, then the timed reveal. Returns
    (press-to-page latencies in ms, press-to-screen ms)."""
    assert box.press("C") == "allocate"
    for seat, token in enumerate(tokens):
        beacon = (seat + round_number) % 8
        box.allocate(token, [beacon, 7 - beacon, 0])
    for page in pages:  # every phone has seen everybody ready: polling with ?v= when the reveal comes
        page.locator("#readyHead").filter(has_text="8 of 8").wait_for()
        page.evaluate(WATCH_JS, round_number)
    pressed = time.time() * 1000
    box.api("POST", "/sim/press", {"button": "C", "ms": 80})
    while box.screen() != "reveal":
        if time.time() * 1000 - pressed > WAIT_MS:
            raise RuntimeError("the box did not reveal")
        time.sleep(0.005)
    on_screen = time.time() * 1000
    latencies = []
    for page in pages:
        page.wait_for_function("window.__revealAt > 0", timeout=WAIT_MS)
        latencies.append(page.evaluate("window.__revealAt") - pressed)
    while box.screen() == "reveal":
        box.press("C")
    return latencies, on_screen - pressed


def run():
    tree = build.build_sim()
    yield "page_gzip_bytes", (tree / "www" / "index.html.gz").stat().st_size, "bytes"
    for game in build.game_ids():
        yield "page_part_gzip_bytes_" + game, (tree / "www" / (game + ".js.gz")).stat().st_size, "bytes"
    yield "table_page_gzip_bytes", (tree / "www" / "table.html.gz").stat().st_size, "bytes"
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian chromium is not installed: no browser figures")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        box = BoxProcess(tree, Path(tmp) / "state").start()
        try:
            box.choose()
            url = "http://127.0.0.1:%d" % box.port
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                try:
                    first, requests = join_phone(browser, url, NAMES[0], count=True)
                    yield "page_requests", requests, "requests"
                    pages = [first] + [join_phone(browser, url, name)[0] for name in NAMES[1:]]
                    tokens = [p.evaluate("localStorage.getItem('tidebox.token')") for p in pages]
                    yield "idle_poll_bytes", len(idle_poll_bytes(box, tokens[0])), "bytes"
                    hidden = sum(p.evaluate("document.hidden") for p in pages)
                    if hidden:
                        print("# %d of the pages count as hidden (they poll every 5 s)" % hidden)
                    assert box.press("C") == "setup"
                    assert box.press("B") == "setup"  # numbered: round n is card n
                    assert box.press("C") == "card"
                    latencies, to_screen = [], []
                    for n in range(1, ROUNDS + 1):
                        page_ms, screen_ms = reveal_round(box, pages, tokens, n)
                        latencies += page_ms
                        to_screen.append(screen_ms)
                    yield "reveal_latency_ms_median", round(statistics.median(latencies)), "ms"
                    yield "reveal_latency_ms_max", round(max(latencies)), "ms"
                    yield "reveal_latency_ms_min", round(min(latencies)), "ms"
                    yield "reveal_latency_samples", len(latencies), "pages x rounds"
                    yield "reveal_press_to_screen_ms_median", round(statistics.median(to_screen)), "ms"
                    yield "reveal_tcp_peak", box.status()["tcp_peak"], "connections"
                finally:
                    browser.close()
        finally:
            box.stop()


if __name__ == "__main__":
    for figure, value, unit in run():
        print("%s: %s %s" % (figure, value, unit), flush=True)
