"""boards/pico_w.py and pico2_w.py, compiled with mpy-cross, run under the MicroPython unix port on
the fake rp2 hardware in tests/mp_scripts/fakes_pico/ (machine, network, ssd1306, sh1106), which
records every call: pins, pull-ups, I2C, the hotspot's order of calls, PWM, timers, the watchdog."""

import json
import subprocess

import build
import bundle
import pytest
from micropython_runner import MP_SCRIPTS, PICO_HEAP

FAKES = MP_SCRIPTS / "fakes_pico"
ONE_SHOT = 0  # the fake machine.Timer.ONE_SHOT
PULL_UP = 1
IN = 0
PM_NONE = 0x10  # the fake network.WLAN.PM_NONE
WPA2_AES_PSK = 0x00400004


def compile_board(out, board):
    out.mkdir(parents=True, exist_ok=True)
    build.compile_file(build.BOARDS / (board + ".py"), out / "board.mpy", "board.py")
    build.compile_file(build.BOARDS / "pico_common.py", out / "pico_common.mpy", "pico_common.py")
    for module in ("__init__", "gate", "buttons"):  # the firmware modules the board itself imports
        build.compile_file(build.FIRMWARE / "tidebox" / (module + ".py"), out / "tidebox" / (module + ".mpy"),
                           "tidebox/%s.py" % module)
    return out


def on_fakes(tree, script, request):
    """Runs a script of the fakes' folder on the compiled board under MicroPython; returns its output."""
    env = build.micropython_env(tree)
    env["MICROPYPATH"] = "%s:%s:.frozen" % (FAKES, tree)
    cmd = [build.micropython(), "-X", "heapsize=" + PICO_HEAP, str(FAKES / script)]
    proc = subprocess.run(cmd, input=json.dumps(request), capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.fixture
def run_board(tmp_path):
    def run(actions=(), settings=None, levels=None, i2c=None, board="pico_w"):
        tree = compile_board(tmp_path / ("tree_" + board), board)
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        request = {"dir": str(work), "settings": settings, "levels": levels or {}, "actions": list(actions)}
        if i2c is not None:
            request["i2c"] = i2c
        *printed, last = on_fakes(tree, "check_board.py", request).strip().splitlines()
        out = json.loads(last)
        out["printed"] = "\n".join(printed)
        return out

    return run


@pytest.fixture
def run_taps(tmp_path):
    """Plays edges and reads (check_taps.py) against the Pico's buttons and the firmware's debouncer."""

    def run(*spans, reads=(), edges=False, long_presses="ABC"):
        """spans: (press ms, release ms, button) each; reads: the main loop's read times; edges: the
        debouncer is given the pins' edge times, as the panel loop gives them."""
        tree = compile_board(tmp_path / "tree_taps", "pico_w")
        timeline = [[t, "read"] for t in reads]
        for pressed, released, button in spans:
            timeline += [[pressed, "press", button], [released, "release", button]]
        timeline.sort(key=lambda step: (step[0], step[1] != "read"))  # at the same ms, the read first
        job = {"timeline": timeline, "edges": edges, "long_presses": long_presses}
        return json.loads(on_fakes(tree, "check_taps.py", job).strip().splitlines()[-1])

    return run


def every(start, stop, step=10):
    return list(range(start, stop, step))


def kinds(out):
    return [(name, kind) for _, name, kind in out["events"]]


def test_a_press_the_reads_see_gives_one_event_and_no_replay(run_taps):
    out = run_taps((5, 105, "A"), reads=every(0, 400))
    assert kinds(out) == [("A", "short")]
    assert not any(level[0] for t, level in out["levels"] if t >= 110)


def test_a_tap_made_during_a_stall_of_the_main_loop_is_played_back(run_taps):
    # The loop reads at 0, then not until 300 ms (a long web answer): the 90 ms tap fell in between.
    out = run_taps((20, 110, "B"), reads=[0] + every(300, 500))
    assert kinds(out) == [("B", "short")]
    held = [t for t, level in out["levels"] if level[1]]
    assert held[0] == 300 and 90 <= held[-1] - held[0] <= 100  # played back for as long as it was held


def test_a_tap_seen_only_at_its_start_is_played_back_once(run_taps):
    out = run_taps((5, 90, "C"), reads=[0, 10] + every(300, 500))
    assert kinds(out) == [("C", "short")]


def test_a_press_the_debouncer_already_took_is_not_played_back_again(run_taps):
    # Seen down at 10, 20, 30 and 35 (25 ms: the debouncer has it), then the loop stalls past the release.
    out = run_taps((1, 50, "A"), reads=[0, 10, 20, 30, 35] + every(300, 500))
    assert kinds(out) == [("A", "short")]


def test_contact_bounce_in_a_stall_is_not_a_press(run_taps):
    out = run_taps((20, 23, "A"), (40, 52, "A"), reads=[0] + every(300, 500))
    assert kinds(out) == []


def test_bounce_inside_a_missed_tap_still_gives_one_press(run_taps):
    out = run_taps((20, 22, "B"), (23, 26, "B"), (27, 120, "B"), reads=[0] + every(300, 500))
    assert kinds(out) == [("B", "short")]


def test_a_tap_made_while_another_is_played_back_is_a_press_of_its_own(run_taps):
    # The first tap is played back from 300 to 390; the second falls inside that playback.
    out = run_taps((20, 110, "B"), (330, 380, "B"), reads=[0] + every(300, 700))
    assert kinds(out) == [("B", "short"), ("B", "short")]


def test_a_long_press_missed_whole_is_played_back_long(run_taps):
    out = run_taps((50, 950, "A"), reads=[0] + every(1500, 2600))
    assert kinds(out) == [("A", "long")]


def loop_reads(first, stop):
    """The panel loop's reads from `first`: every 5 ms (a button is held), as tidebox/running.py."""
    return [0] + every(first, stop, 5)


def test_a_press_is_timed_from_its_contact_with_the_edge_times(run_taps):
    # Pressed at 1 ms; the loop's next read is at 10 (its 10 ms period), then one every 5 ms.
    without = run_taps((1, 200, "A"), reads=loop_reads(10, 300), long_presses="")
    timed = run_taps((1, 200, "A"), reads=loop_reads(10, 300), edges=True, long_presses="")
    assert [e[0] for e in without["events"]] == [25]  # PRESS_MS (15) after the read that found it
    assert [e[0] for e in timed["events"]] == [20]  # the first read PRESS_MS after the contact


def test_contact_bounce_restarts_the_edge_timed_press(run_taps):
    # The contact bounces until 9 ms: the press is taken PRESS_MS after the last edge, not the first.
    out = run_taps((1, 3, "A"), (5, 7, "A"), (9, 200, "A"), reads=loop_reads(10, 300), edges=True,
                   long_presses="")
    assert [e[0] for e in out["events"]] == [25]


def test_a_tap_played_back_after_a_stall_stays_short_with_the_edge_times(run_taps):
    # A 90 ms tap the loop missed, played back 800 ms later: its old edges do not make it long.
    out = run_taps((20, 110, "B"), reads=[0] + every(900, 1300), edges=True)
    assert kinds(out) == [("B", "short")]


def test_buttons_have_interrupts_on_both_edges(run_board):
    out = run_board()
    irqs = events(out, "Pin.irq")
    assert sorted(e[1] for e in irqs) == [10, 11, 12]
    assert all(e[2] == 4 | 8 and e[3] is True for e in irqs)  # falling and rising, hard


def events(out, *names):
    return [e for e in out["events"] if e[0] in names]


def index(out, event):
    return out["events"].index(event)


def test_both_boards_and_the_common_module_compile(tmp_path):
    for name in ("pico_w", "pico2_w", "pico_common"):
        dst = tmp_path / (name + ".mpy")
        subprocess.run([build.mpy_cross(), "-o", str(dst), str(build.BOARDS / (name + ".py"))], check=True)
        assert dst.read_bytes()[:2] == b"M\x06"


def test_pins_pull_ups_and_the_oled(run_board):
    out = run_board()
    assert out["name"] == "pico_w" and out["board_module_name"] == "pico_w"
    assert events(out, "I2C") == [["I2C", 0, 4, 5, 400000]]  # I2C0 on GP4/GP5 at 400 kHz
    assert events(out, "SSD1306_I2C") == [["SSD1306_I2C", 128, 64, 0x3C]]
    buttons = [e for e in events(out, "Pin") if e[1] in (10, 11, 12)]
    assert buttons == [["Pin", 10, IN, PULL_UP], ["Pin", 11, IN, PULL_UP], ["Pin", 12, IN, PULL_UP]]
    assert all(e[1] not in (23, 24, 25, 29) for e in events(out, "Pin"))  # the CYW43's pins
    assert out["display"] == [128, 64, "SSD1306_I2C"]
    assert out["http"] == ["0.0.0.0", 80, 53]
    assert out["uid"] == "e6614103e7452d2f"
    assert out["storage_dir"].endswith("/data") and "data" in out["dir"]
    assert out["urandom"] == 16 and out["ticks"] and out["clock"]


def test_buttons_read_low_as_pressed(run_board):
    out = run_board([["read"]])
    assert out["results"][0]["ok"] == [False, False, False]  # pulled up, nothing pressed
    out = run_board([["read"]], levels={"11": 0})
    assert out["results"][0]["ok"] == [False, True, False]
    out = run_board([["read"]], levels={"10": 0, "12": 0})
    assert out["results"][0]["ok"] == [True, False, True]


def test_hotspot_sets_the_country_first_then_wpa2_then_no_power_saving(run_board):
    out = run_board([["hotspot", "Tidebox-2D2F", "tidewater42"], ["page_url"]])
    assert out["results"][0] == {"ok": "192.168.4.1"}
    assert out["results"][1] == {"ok": "http://192.168.4.1/"}
    country = index(out, ["country", "XX"])
    wlan = index(out, ["WLAN", 1])  # network.AP_IF
    ssid = index(out, ["config", "ssid", "Tidebox-2D2F"])
    key = index(out, ["config", "key", "tidewater42"])
    security = index(out, ["config", "security", WPA2_AES_PSK])
    active = index(out, ["active", True])
    pm = index(out, ["config", "pm", PM_NONE])
    assert country < wlan < ssid < active and key < active and security < active < pm
    assert not [e for e in events(out, "config") if e[1] == "max_clients"]  # it raises on rp2


def test_hotspot_country_comes_from_the_settings(run_board):
    out = run_board([["hotspot", "Tidebox-2D2F", "tidewater42"]], settings={"country": "DE"})
    assert ["country", "DE"] in out["events"] and ["country", "XX"] not in out["events"]


def test_hotspot_refuses_a_passphrase_wpa2_cannot_take(run_board):
    out = run_board([["hotspot", "Tidebox-2D2F", "short"]])
    assert out["results"][0]["error"] == "ValueError"
    assert not events(out, "active")


def test_buzzer_starts_pwm_and_a_one_shot_timer_stops_it(run_board):
    out = run_board([["tone", 880, 120], ["fire_timer"], ["tone", 3, 50], ["tone", 0, 100]])
    assert out["buzzer"] is True
    assert ["PWM", 15] in out["events"]
    first = index(out, ["PWM.freq", 15, 880])
    on = out["events"].index(["PWM.duty_u16", 15, 32768], first)
    timer = out["events"].index(["Timer.init", ONE_SHOT, 120], on)
    off = out["events"].index(["PWM.duty_u16", 15, 0], timer)
    assert first < on < timer < off
    assert ["PWM.freq", 15, 20] in out["events"]  # 3 Hz is raised to the lowest tone a piezo plays
    assert out["events"][-2:] == [["Timer.deinit"], ["PWM.duty_u16", 15, 0]]  # 0 Hz: a rest, silent now
    assert all(r == {"ok": None} for r in out["results"])


def test_no_buzzer_when_the_settings_say_so(run_board):
    out = run_board(settings={"buzzer": None})
    assert out["buzzer"] is False and not events(out, "PWM")


def test_watchdog_clamps_to_the_rp2_limit_and_feeds(run_board):
    out = run_board([["feed"], ["wdt_start", 20000], ["feed"], ["feed"]])
    assert all("error" not in r for r in out["results"])
    assert events(out, "WDT") == [["WDT", 8388]]
    assert index(out, ["WDT", 8388]) < out["events"].index(["WDT.feed"])
    assert len(events(out, "WDT.feed")) == 2  # a feed before start() touches no hardware


def test_tcp_gate_counts_like_the_hosts(run_board):
    out = run_board([["gate"]])
    assert out["results"][0]["ok"] == [2, 0, 2]  # inside both: 2 active; after: 0; peak 2


def test_reset_calls_machine_reset(run_board):
    out = run_board([["reset"]])
    assert out["results"][0]["ok"] == "reset" and ["reset"] in out["events"]


def test_sh1106_panel_from_the_settings_sends_whole_frames(run_board):
    out = run_board([["show"]], settings={"display": "sh1106", "flip": True})
    assert events(out, "SH1106_I2C") == [["SH1106_I2C", 128, 64, 0x3C, 180]]
    assert not events(out, "SSD1306_I2C")
    shows = events(out, "show")
    assert len(shows) >= 3 and all(e == ["show", "sh1106", True] for e in shows)  # always whole frames
    assert out["display"][:2] == [128, 64]


def test_ssd1306_flip(run_board):
    out = run_board(settings={"flip": True})
    assert ["rotate", 0] in out["events"]
    assert "rotate" not in [e[0] for e in run_board()["events"]]


def test_panel_found_at_the_other_address(run_board):
    out = run_board(i2c=[0x3D])
    assert events(out, "SSD1306_I2C") == [["SSD1306_I2C", 128, 64, 0x3D]]
    assert "nothing at 0x3C, using the panel at 0x3D" in out["printed"]


def test_other_pins_from_the_settings(run_board):
    settings = {"sda": 2, "scl": 3, "buttons": [16, 17, 18], "buzzer": 22}
    out = run_board([["tone", 440, 10]], settings=settings)
    assert events(out, "I2C") == [["I2C", 1, 2, 3, 400000]]  # GP2/GP3 is I2C1
    assert [e[1] for e in events(out, "Pin") if e[2] == IN] == [16, 17, 18]
    assert ["PWM", 22] in out["events"]


@pytest.mark.parametrize("settings, why", [
    ({"buttons": [10, 11, 23]}, "is not a free GP pin"),  # GP23 drives the Wi-Fi chip's power
    ({"buzzer": 4}, "a pin is used twice"),
    ({"sda": 5, "scl": 6}, "sda must be an even GP"),
    ({"display": "st7735"}, "display must be"),
    ("{not json", "is not valid JSON"),
])
def test_broken_settings_fall_back_to_the_defaults(run_board, settings, why):
    out = run_board(settings=settings)
    assert why in out["printed"]
    assert out["settings"] == bundle.make_settings()[0]
    assert [e[1] for e in events(out, "Pin") if e[2] == IN] == [10, 11, 12]


def test_unknown_setting_is_reported_and_ignored(run_board):
    out = run_board(settings={"buzer": None})
    assert "unknown key 'buzer' ignored" in out["printed"] and out["buzzer"] is True


def test_board_defaults_are_the_bundles_settings(run_board):
    out = run_board()
    assert out["settings"] == bundle.make_settings()[0]


def test_pico2_w_is_the_same_board_by_another_name(run_board):
    out = run_board([["read"], ["hotspot", "Tidebox-2D2F", "tidewater42"]], levels={"12": 0}, board="pico2_w")
    assert out["name"] == "pico2_w" and out["board_module_name"] == "pico2_w"
    assert out["results"][0]["ok"] == [False, False, True]
    assert out["results"][1]["ok"] == "192.168.4.1"
    assert events(out, "I2C") == [["I2C", 0, 4, 5, 400000]]


# --- the wiring diagram and the README agree with the code ----------------------------------


def test_wiring_diagram_renders(tmp_path):
    import wiring
    from PIL import Image

    paths = wiring.render(tmp_path)
    svg = paths["svg"].read_text()
    for label in ("GP4 SDA", "GP5 SCL", "GP10 A", "GP11 B", "GP12 C", "GP15 PWM", "3V3 OUT", "Buzzer"):
        assert label in svg, label
    with Image.open(paths["png"]) as image:
        assert image.size[0] > 1000 and image.size[1] > 300
    bom = paths["tsv"].read_text()
    assert "tactile switch" in bom and "SSD1306" in bom and "100 ohm" in bom
    small = wiring.readme_png(paths["png"], tmp_path / "small.png")
    assert small.stat().st_size < 100 * 1024


def test_wiring_and_readme_match_the_board_defaults():
    import wiring
    import yaml

    settings = bundle.make_settings()[0]
    roles = {"SDA": settings["sda"], "SCL": settings["scl"], "A": settings["buttons"][0],
             "B": settings["buttons"][1], "C": settings["buttons"][2], "PWM": settings["buzzer"]}
    pico = yaml.safe_load(wiring.SOURCE.read_text())["connectors"]["Pico W"]
    seen = set()
    for pin, label in zip(pico["pins"], pico["pinlabels"], strict=True):
        if label == "GND":
            assert pin in wiring.PICO_GND
        elif label == "3V3 OUT":
            assert pin == wiring.PICO_3V3_OUT
        else:
            gp, role = label.split()
            assert wiring.PICO_HEADER[int(gp[2:])] == pin, label
            assert roles[role] == int(gp[2:]), label
            seen.add(role)
    assert seen == set(roles)
    readme = (build.BOARDS / "README.md").read_text()
    rows = (("OLED | SDA", roles["SDA"]), ("OLED | SCL", roles["SCL"]), ("button A | to GND", roles["A"]),
            ("button B | to GND", roles["B"]), ("button C | to GND", roles["C"]))
    for part, gp in rows:
        assert "| %s | GP%d | %d |" % (part, gp, wiring.PICO_HEADER[gp]) in readme, part
    assert "| GP%d | %d |" % (roles["PWM"], wiring.PICO_HEADER[roles["PWM"]]) in readme
    assert "(wiring.png)" in readme and (build.BOARDS / "wiring.png").exists()


class Glass:
    """The SSD1306's RAM as its I2C commands fill it (horizontal addressing: column and page ranges)."""

    def __init__(self):
        self.ram = bytearray(1024)
        self.cols, self.pages, self.col, self.page = (0, 127), (0, 7), 0, 0
        self.pending = []

    def feed(self, transaction):
        control, *rest = transaction
        if control == 0x40:  # data
            for byte in rest:
                self.ram[self.page * 128 + self.col] = byte
                self.col += 1
                if self.col > self.cols[1]:
                    self.col = self.cols[0]
                    self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]
            return len(rest)
        assert control == 0x80 and len(rest) == 1
        self.pending.append(rest[0])
        if self.pending[0] in (0x21, 0x22) and len(self.pending) == 3:
            cmd, start, end = self.pending
            if cmd == 0x21:
                self.cols, self.col = (start, end), start
            else:
                self.pages, self.page = (start, end), start
            self.pending = []
        elif self.pending[0] not in (0x21, 0x22):
            self.pending = []
        return 0


def drawn(boxes):
    """The frame buffer (MONO_VLSB, 128 x 64) with those boxes filled."""
    ram = bytearray(1024)
    for x, y, w, h in boxes:
        for px in range(x, x + w):
            for py in range(y, y + h):
                ram[(py // 8) * 128 + px] |= 1 << (py % 8)
    return ram


def test_a_frame_sends_the_ssd1306_only_the_pages_that_changed(run_board):
    frames = [
        [[0, 0, 128, 8], [0, 12, 128, 10]],  # a title and a highlighted line
        [[0, 0, 128, 8], [0, 22, 128, 10]],  # the highlight one line down: pages 1-3 change, not 0
        [[0, 0, 128, 8], [0, 22, 128, 10]],  # nothing changed
        [[0, 0, 128, 8], [0, 22, 128, 10], [120, 60, 8, 4]],  # a mark in the last page
        [],  # everything off
    ]
    out = run_board([["frames", frames]])
    sent = out["results"][0]["ok"]
    glass = Glass()  # as the driver's start left it: a whole blank frame
    data = []
    for boxes, transactions in zip(frames, sent):
        data.append(sum(glass.feed(t) for t in transactions))
        assert glass.ram == drawn(boxes)
    assert data == [128 * 3, 128 * 3, 0, 128, 128 * 8]
