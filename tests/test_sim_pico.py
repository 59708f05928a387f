"""The emulated Pico W (`make sim-pico`): the shipped firmware (boards/firmware/tidebox-pico_w.uf2),
the bundle as deploy writes it (its ROMFS image in the firmware's partition, the rest on littlefs),
the real boards/pico_w.py and pico_common.py, in rp2040js (host_tools/rp2040/pico_sim.mjs).

The smoke test: the chip boots to the game menu (the panel, decoded from the I2C command stream,
shows what the host box shows on its game menu), one press of A on the button's GPIO, with
contact bounce, draws the next frame over I2C, and once C has chosen that game a phone joins
over the PPP link (phones_ppp on the host, the firmware's own network.PPP and lwIP on the chip's
UART0) and reads its state.
The power cuts' test: ten cuts of `make power-cuts-pico` (power_cuts.py) in the saves of phones'
allocations and joins, each checked as the harness checks them.
The phones' pages: three headless Chromium phones play a Token Tide round to its reveal over PPP.
The evening in small: every game back to back on one chip with 8 phones (evening_pico.py).
They run on every `make test`: Node (debian_deps.sh), rp2040js from npm and phones_ppp are made
here, and the firmware is the committed one; nothing needs a MicroPython tree.
The symbols' test: the firmware functions the bench times, found in an ELF symbol table (a small
ELF file it writes itself) as `make firmware` records them in firmware.json.
"""

import base64
import struct
import sys
import threading
import time
import zlib

import pytest

import build
import shipped
from boxrig import BoxProcess

sys.path.insert(0, str(build.ROOT / "host_tools" / "rp2040"))
import bench_pico  # noqa: E402
import evening_pico  # noqa: E402
import power_cuts  # noqa: E402
import sim_pico  # noqa: E402

pytestmark = pytest.mark.chip
BOOT_TIMEOUT = 240  # wall seconds: the emulator runs at about real time when idle, slower when busy


def png_bits(png):
    """The host box's frame (boards/host_sim.py's 1-bit PNG) as 128x64 bits, 16 bytes a row."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(png):
        n = int.from_bytes(png[pos:pos + 4], "big")
        if png[pos + 4:pos + 8] == b"IDAT":
            idat += png[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    rows = [raw[y * 17 + 1:y * 17 + 17] for y in range(64)]  # each row: filter byte (0), 16 bytes
    return b"".join(rows)


def text(bits):
    return "\n".join("".join("#" if bits[y * 16 + x // 8] >> (7 - x % 8) & 1 else "." for x in range(128))
                     for y in range(64))


def wait_panel(chip, want, timeout, since_frames=-1):
    """The chip's status once its panel shows `want` in a frame after `since_frames`."""
    deadline = time.monotonic() + timeout
    status = None
    while time.monotonic() < deadline:
        status = chip.status()
        panel = status["panel"]
        if panel["frames"] > since_frames and base64.b64decode(panel["pixels"]) == want:
            return status
        if not chip.alive():
            break
        time.sleep(0.5)
    shown = base64.b64decode(status["panel"]["pixels"]) if status else b""
    raise AssertionError("the emulated panel does not show the expected frame; it shows\n%s\n"
                         "console:\n%s" % (text(shown), status and status["console"]))


@pytest.fixture(scope="module")
def chip_parts():
    """What the emulated chip needs, made here: rp2040js (npm ci), phones_ppp (phones_link.py), and
    the shipped firmware, checked against firmware.json. None of it needs a MicroPython tree."""
    sim_pico.node_modules()
    sim_pico.phones_ppp()
    sim_pico.firmware_image()


def test_the_emulated_chip_boots_to_the_game_menu_a_press_draws_a_frame_and_a_phone_joins(
        chip_parts, sim_tree, tmp_path):
    # What the game menu and the menu after one A look like, from the host box (same firmware).
    host = BoxProcess(sim_tree, tmp_path / "host" / "state").start()
    try:
        host.wait_screen("choose", timeout=15)
        menu = png_bits(host.oled_png())
        host.press("A")
        deadline = time.monotonic() + 5
        after = menu
        while after == menu and time.monotonic() < deadline:
            after = png_bits(host.oled_png())
            time.sleep(0.05)
    finally:
        host.stop()
    assert after != menu, "pressing A on the host's game menu drew nothing new"

    flash = sim_pico.prepare(tmp_path / "pico", fresh=True)
    chip = sim_pico.Emulator(flash, tmp_path / "pico-sim.log")
    try:
        booted = wait_panel(chip, menu, BOOT_TIMEOUT)
        panel = booted["panel"]
        assert panel["on"] and panel["charge_pump"], panel  # the driver's init sequence reached the panel
        assert panel["addressing"] == "horizontal" and panel["last_frame"]["bytes"] == 1024, panel
        assert "tidebox: pico_w on port 80" in booted["console"], booted["console"]
        # the box knew its firmware by the board's name: lwIP has room for the phones to wait
        assert "phones wait for changes" in booted["console"], booted["console"]
        frames = panel["frames"]
        chip.press("A", 120)
        pressed = wait_panel(chip, after, 60, since_frames=frames)
        # The new frame went over I2C, only the pages (128 bytes each) from the first that changed to
        # the last: the cursor's move touches a few of the eight.
        sent = pressed["panel"]["last_frame"]["bytes"]
        assert pressed["panel"]["data_bytes"] == booted["panel"]["data_bytes"] + sent, pressed["panel"]
        assert 0 < sent < 1024 and sent % 128 == 0, pressed["panel"]
        for bad in ("Traceback", "Uncaught exception", "MemoryError"):
            assert bad not in pressed["console"], pressed["console"]

        # A phone, over PPP: the chosen game's join screen takes Ada, and her state says so.
        chip.press("C", 120)
        deadline = time.monotonic() + 60
        while chip.status()["panel"]["frames"] == pressed["panel"]["frames"] and time.monotonic() < deadline:
            time.sleep(0.3)
        status, joined, _ = chip.phone("POST", "/api/join", {"name": "Ada"})
        assert status == 200 and joined["name"] == "Ada" and len(joined["token"]) == 32, (status, joined)
        status, view, port = chip.phone("GET", "/api/state", token=joined["token"])
        assert status == 200, (status, view)
        assert view["box"] == "join" and view["you"] == {"seat": joined["seat"], "name": "Ada"}, view
        assert view["seats"] == [{"name": "Ada", "present": True}], view
        # A second phone waits for the next change, and has it once Bo joins from a third.
        waited = {}
        waiting = threading.Thread(target=lambda: waited.update(answer=chip.phone(
            "GET", "/api/state?v=%d&wait=1" % view["v"], timeout=120)))
        waiting.start()
        deadline = time.monotonic() + 60
        while chip.status()["link"]["open"] < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        opened = chip.status()["chip_ms"]
        while chip.status()["chip_ms"] < opened + 2000 and time.monotonic() < deadline:
            time.sleep(0.2)
        # held: two chip seconds on (a poll is answered in a tenth of that), still open, unanswered
        assert chip.status()["link"]["open"] == 1 and "answer" not in waited, waited
        assert chip.phone("POST", "/api/join", {"name": "Bo"})[0] == 200
        waiting.join(120)
        status, woken, _ = waited["answer"]
        assert status == 200 and [s["name"] for s in woken["seats"]] == ["Ada", "Bo"], woken
        record = chip.connection(port)  # phones_ppp saw the box answer and close the connection
        assert record and record["bytes_out"] > 0 and record["end"] == "closed by the chip", record
        print("state over PPP: %.1f chip ms from the phone's connect to the box's close "
              "(emulator at %.2f x real time)"
              % (record["closed_ms"] - record["accepted_ms"], chip.status()["speed"]))
        console = chip.status()["console"]
        for bad in ("Traceback", "Uncaught exception", "MemoryError"):
            assert bad not in console, console
    finally:
        chip.stop()


CUTS = 10  # on every make test; make power-cuts-pico runs 50


@pytest.mark.slow
def test_power_cuts_in_phones_saves_keep_every_acknowledged_action_and_the_resume_offer(
        chip_parts, tmp_path, monkeypatch):
    monkeypatch.setattr(power_cuts, "OUT", tmp_path)
    tally, failures = power_cuts.run(CUTS, seed=1)
    # Each cut that failed a check (no boot, littlefs not mounting, an error on the console, a damaged
    # save set aside or logged, no resume offer, an acknowledged action missing, a cut one half there)
    # is in failures, with why.
    assert failures == [], failures
    assert tally["cuts"] == CUTS and tally["not reached"] == 0, tally  # seed 1: every cut lands in a save
    assert tally["play"] >= 1 and tally["join"] >= 1 and tally["play"] + tally["join"] == CUTS, tally
    assert tally["erase"] >= 1 and tally["program"] >= 1, tally
    assert tally["kept"] == tally["acknowledged"], tally
    # the offer where the save had players or a game (a cut in the first join leaves nobody to offer)
    assert tally["offered"] == tally["should offer"] >= 1, tally
    assert tally["cut action kept"] + tally["cut action lost"] == CUTS, tally


def test_three_chromium_phones_join_over_ppp_and_play_a_token_tide_round_to_the_reveal(chip_parts, tmp_path):
    """bench_pico's crossing, its first round: three headless Chromium phones join by the page over the
    PPP link, lock in their allocations; before the reveal no phone holds another's, after it every
    phone shows the whole breakdown as the rules score it (tests/support/phone_flow.py's checks)."""
    assert bench_pico.browser_ready() is None, bench_pico.browser_ready()
    base = bench_pico.Base(sim_pico.prepare(tmp_path / "base", fresh=True))
    rows, checks = [], []
    bench_pico.token_tide_crossing(tmp_path / "crossing", base, rows, checks, rounds=1)
    assert len(checks) == 3, checks  # joined; the round locked in; no leak before, everything after
    for name, measured, goal in rows:
        print("%s: %s (goal %s)" % (name, measured, goal))


@pytest.mark.slow
def test_an_evening_in_small_every_game_back_to_back_on_one_chip_with_8_phones(chip_parts, tmp_path):
    """evening_pico.py: one whole game of each game in GAMES on one chip, never switched off, 8 phones
    polling once a chip second. The restart after each game is the design; restarts for memory are
    what restart.log holds."""
    figures = evening_pico.run(tmp_path / "evening")
    evening_pico.report(figures)
    games = figures["games"]
    assert sorted(g["game"] for g in games) == sorted(build.game_ids())
    for g in games:
        assert g["unanswered"] == [], g
        assert g["polls"] > 0, g
        assert g["low_free"] >= 64 * 1024, g  # the heap's low-water during the game
    assert figures["memory_errors"] == 0
    assert figures["memory_restarts"] == 0, figures["restart_log"]
    assert figures["chip_resets"] == []  # no watchdog or power-on reset: only the box's own restarts
    assert figures["soft_reboots"] == len(games)  # the one after each game
    assert figures["crash_log"] == [] or figures["crash_log"] == [""], figures["crash_log"]


def tiny_elf(symbols):
    """An ELF32 file with only a symbol table: symbols as (name, value, kind), kind 2 a function."""
    strtab = b"\0" + b"".join(name.encode() + b"\0" for name, _, _ in symbols)
    symtab = bytes(16)  # the null symbol
    at = 1
    for name, value, kind in symbols:
        symtab += struct.pack("<IIIBBH", at, value, 4, 0x10 | kind, 0, 1)
        at += len(name) + 1
    header_size = 52
    shoff = header_size + len(symtab) + len(strtab)
    sections = [bytes(40),
                struct.pack("<IIIIIIIIII", 0, 2, 0, 0, header_size, len(symtab), 2, 1, 4, 16),
                struct.pack("<IIIIIIIIII", 0, 3, 0, 0, header_size + len(symtab), len(strtab), 0, 0, 1, 0)]
    ident = b"\x7fELF\x01\x01\x01" + bytes(9)
    header = ident + struct.pack("<HHIIIIIHHHHHH", 2, 40, 1, 0, 0, shoff, 0, header_size, 0, 0, 40,
                                 len(sections), 0)
    return header + symtab + strtab + b"".join(sections)


def test_the_bench_finds_the_firmware_functions_it_times_by_their_symbols(tmp_path):
    """pico_sim.mjs times the UART driver's reads and the collections from their entry addresses,
    which `make firmware` reads from the build's ELF symbol table into firmware.json (shipped.py);
    objects of the same name are not functions."""
    elf = tmp_path / "firmware.elf"
    elf.write_bytes(tiny_elf([("mp_machine_uart_read", 0x1001F181, 2), ("gc_collect", 0x100333CD, 2),
                              ("mp_call_function_1_protected", 0x10019D7D, 2),
                              ("gc_collect", 0x20000000, 1)]))
    assert shipped.elf_symbols(elf, ("gc_collect", "mp_machine_uart_read", "absent")) == {
        "gc_collect": 0x100333CD, "mp_machine_uart_read": 0x1001F181}
    found = shipped.symbols("pico_w")
    assert sorted(found) == sorted(shipped.BENCH_SYMBOLS)
    assert sim_pico.symbol_args() == ["--uart-read", "0x%x,0x%x" % (found["mp_machine_uart_read"],
                                                                    found["mp_call_function_1_protected"]),
                                      "--gc-collect", "0x%x" % found["gc_collect"],
                                      "--ppp-input", "0x%x" % found["pppos_input"]]
    # Thumb functions: odd addresses in the firmware's flash
    assert all(0x10000000 < a < 0x10100000 and a & 1 for a in found.values()), found
