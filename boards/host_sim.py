# The simulator's pages, served by the firmware itself on the host board only:
#   GET  /sim            the box: the OLED at 4x scale, live, and buttons A, B, C (keys a, b, c too)
#   GET  /sim/oled.png   the current frame as a 128x64 PNG
#   POST /sim/press      {"button": "A", "ms": 80} holds a button down (ms >= 700 is a long press);
#                        "squeeze": n fills the heap but for n bytes while the box reads the press;
#                        "fault": "draw" fails the first frame drawn once the press is handled
#   POST /sim/advance    {"ms": 15000} moves the box's clock forward (tests skip a countdown)
#   POST /sim/clock      {"hold": true | false} stops the box's clock (it then moves only by advance
#                        and by button presses: exact figures) or lets it run on
#   POST /sim/fault      {"kind": "raise" | "hang"}: the button task crashes once, or the loop hangs;
#                        {"kind": "squeeze", "leave": n}: the heap held full but for n bytes until
#                        {"kind": "release"} or the box restarts; {"kind": "draw"}: the next frame
#                        drawn raises MemoryError
#   GET  /sim/status     {"frames": n, "tones": [...], "tcp_peak": n, "screen": "...", "mem_free": n,
#                         "crashed_tasks": tasks restarted after a crash, "boot": interpreters started
#                         before this one, "message": the reader's message line, ...}
#                        (?gc=1 collects garbage first, so mem_free is what is really in use;
#                        &largest=1 adds "max_free": the largest block the heap could give now)
import gc
import json

# The /sim page is a file beside the firmware (boards/host_sim.html, copied by the build): as a
# string constant it would hold 2 KB of heap for the whole run.
_PAGE_FILE = "host_sim.html"


def _press(board, box, data):
    button = data.get("button")
    ms = data.get("ms", 80)
    leave = data.get("squeeze")
    if button not in ("A", "B", "C") or type(ms) is not int or not 0 < ms <= 10000:
        return {"error": "press needs button A, B or C and ms from 1 to 10000"}, 400
    if leave is not None and (type(leave) is not int or leave < 0):
        return {"error": "squeeze is the bytes to leave free"}, 400
    arm = None
    if data.get("fault") == "draw":
        # The first frame drawn once the press is handled fails, not one already due when it began
        # (a phone's move redraws the screen the press is about to leave).
        def arm():
            panel, before = board.panel, board.panel.presses
            board.display.fail_when = lambda: board.panel is panel and panel.presses > before
    board.buttons.press(button, ms, None if leave is None else lambda: board.squeeze(leave), arm)
    return {"pressed": button, "ms": ms}


def _advance(board, box, data):
    ms = data.get("ms")
    if type(ms) is not int or not 0 < ms <= 3600000:
        return {"error": "advance needs ms from 1 to 3600000"}, 400
    board.clock.advance(ms)
    return {"advanced": ms}


def _clock(board, box, data):
    hold = data.get("hold")
    if hold not in (True, False):
        return {"error": "clock needs hold: true or false"}, 400
    board.clock.hold(hold)
    return {"held": hold}


def _fault(board, box, data):
    kind = data.get("kind")
    if kind == "squeeze":  # the heap held full but for "leave" bytes (Board.squeeze)
        leave = data.get("leave")
        if type(leave) is not int or leave < 0:
            return {"error": "squeeze needs leave: the bytes to leave free"}, 400
        board.squeeze(leave)
        return {"fault": kind}
    if kind == "release":
        import host_heap

        host_heap.release(board)
        return {"fault": kind}
    if kind == "draw":  # the next frame drawn finds no memory
        board.display.fail_when = lambda: True
        return {"fault": kind}
    if kind not in ("raise", "hang"):
        return {"error": "fault kind must be raise, hang, squeeze, release or draw"}, 400
    board.buttons.fault = kind
    return {"fault": kind}


def _status(board, box, request):
    measured = {}
    if request.args.get("gc"):
        gc.collect()  # only on request: tests poll this often and a collection is not free
        if request.args.get("largest"):
            import sys

            import host_heap

            measured["max_free"] = host_heap.largest_free(gc.mem_free())
            del host_heap
            sys.modules.pop("host_heap")  # a probe, not part of the box: its code is not kept
            gc.collect()
    if request.args.get("modules"):  # which modules are imported now (what a game left behind)
        import sys

        measured["modules"] = sorted(sys.modules)
    tones = board.buzzer.tones if board.buzzer else []
    measured.update({
        "frames": board.display.frames, "tones": [list(t) for t in tones],
        "tcp_peak": board.tcp_gate.peak, "tcp_waited": board.tcp_gate.waited,
        "tcp_active": board.tcp_gate.active,
        # requests waiting for a change now (this one, being answered, is not), at most, answered
        "held": request.app.held, "held_peak": request.app.held_peak, "held_served": request.app.held_served,
        "screen": board.panel.screen if board.panel else None,
        # a list on the panel (a menu): its lines and the cursor's, so a test picks a line by its words
        "menu": [label for label, _ in board.panel.top().items] if board.panel and hasattr(
            board.panel.top(), "items") else None,
        "cursor": getattr(board.panel.top(), "cursor", None) if board.panel else None,
        "presses": board.panel.presses if board.panel else 0,
        "mem_free": gc.mem_free(), "mem_alloc": gc.mem_alloc(),
        "feeds": board.watchdog.feeds, "crashed_tasks": board.crashed_tasks,
        "inverted": board.display.inverted,
        "boot": board.boot, "message": board.panel.message if board.panel else "",
        # presses not yet over: held, waiting to begin, or just released and not settled yet
        "buttons_down": len(board.buttons.held) + len(board.buttons.queued) + bool(board.buttons.settling),
    })
    return json.dumps(measured), 200, {"Content-Type": "application/json"}


_ACTIONS = {"press": _press, "advance": _advance, "clock": _clock, "fault": _fault}


def add_routes(app, box, board):
    """Two routes for all of /sim: each microdot route costs heap for the whole run. The PNG's code
    is loaded here, at boot: the /sim page asks for frames mid-game, when the heap has none to spare."""
    import host_png
    from microdot import Response

    @app.get("/sim")
    async def sim_page(request):
        return Response.send_file(_PAGE_FILE, content_type="text/html; charset=utf-8")

    @app.route("/sim/<what>", methods=["GET", "POST"])
    async def sim(request, what):
        if request.method == "POST":
            action = _ACTIONS.get(what)
            if action is not None:
                return action(board, box, request.json if isinstance(request.json, dict) else {})
        elif what == "oled.png":
            headers = {"Content-Type": "image/png", "Cache-Control": "no-store"}
            return Response(host_png.png_1bit(board.display), headers=headers)
        elif what == "status":
            return _status(board, box, request)
        if what in _ACTIONS or what in ("oled.png", "status"):
            return {"error": "that method is not allowed here"}, 405
        return {"error": "no such address on the box"}, 404
