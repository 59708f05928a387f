"""`make sim-pico`: the whole box on an emulated Pico W (rp2040js), the shipped firmware and board code.

    python host_tools/rp2040/sim_pico.py [--port 8090] [--http-port 8091] [--fresh] [--settings FILE]
                                         [--echo]

The chip runs the firmware Tidebox ships (boards/firmware/tidebox-pico_w.uf2, shipped.py: what a
maker flashes), with the flash laid out as `make deploy` leaves it: the bundle's .mpy files as a
ROMFS image in the firmware's partition (romfs.py), and on the littlefs at 0x12C000 the rest of the
bundle (main.py, settings.json, the page) and the SSD1306 driver that deploy installs with mip
(lib/ssd1306.mpy, from mip/ssd1306.py beside this file). One difference: the radio. The image holds
sim_board.py as board.mpy and the bundle's board.mpy as pico_w.mpy: rp2040js has no Wi-Fi chip, so
the firmware's own network.PPP brings up a PPP link over the chip's UART0 instead, and the
firmware's own lwIP carries the phones' TCP. The host end of that link is phones_ppp (phones_ppp/,
built on demand by phones_link.py): a PPP server and a relay that takes the phones' connections on
http://127.0.0.1:HTTP_PORT/ and opens each again to the chip over PPP with lwIP's TCP. pico_sim.mjs
models the rest (the SSD1306 on I2C0, the buttons with bounce, the buzzer's PWM, the watchdog, flash
erase and program) and serves the box's panel and buttons on http://127.0.0.1:PORT/.

The flash image is build/sim-pico/flash.bin: saves stay in it across resets and across runs, until
the firmware or the bundle changes (then it starts afresh, as a board does after a new deploy and
a wiped filesystem) or --fresh is given. Nothing here needs a MicroPython tree: `make firmware`
rebuilds the shipped image from one.
"""

import argparse
import hashlib
import http.client
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402
import bundle  # noqa: E402
import phones_link  # noqa: E402
import romfs  # noqa: E402
import shipped  # noqa: E402
import uf2  # noqa: E402

OUT = build.ROOT / "build" / "sim-pico"
BOARD = "pico_w"
LAYOUT = romfs.LAYOUTS[BOARD]
FS_OFFSET = LAYOUT.storage_offset  # the littlefs: RPI_PICO_W's 848 KB at the top of 2 MB
FLASH_BYTES = LAYOUT.flash_bytes
DRIVER = HERE / "mip" / "ssd1306.py"  # what `mpremote mip install ssd1306` installs


class SimError(Exception):
    pass


def phones_ppp():
    """The host end of the chip's PPP link, built first if need be (phones_link.py)."""
    try:
        return phones_link.build()
    except phones_link.LinkError as e:
        raise SimError("phones_ppp: %s" % e) from None


def firmware_image():
    """The shipped Pico W firmware as the flash holds it from 0 (its .uf2, checked against
    firmware.json), or a SimError saying what is wrong. TIDEBOX_PICO_UF2 names another ROMFS build
    with the same layout instead (make compat: a release's)."""
    other = os.environ.get("TIDEBOX_PICO_UF2")
    try:
        return uf2.uf2_to_bin(Path(other).read_bytes() if other else shipped.check(BOARD).read_bytes())
    except (OSError, ValueError) as e:
        raise SimError(str(e)) from None


def stage(work, settings_file=None):
    """(the ROMFS image, the littlefs tree): the bundle as deploy writes it, the mip-installed driver,
    and the radio's difference (sim_board.py as board.mpy, the bundle's board.mpy as pico_w.mpy)."""
    made = work / "bundle"
    bundle.build_bundle(made, "pico_w", settings_file)
    rom = work / "rom"
    if rom.exists():
        shutil.rmtree(rom)
    shutil.copytree(made, rom)
    (rom / "board.mpy").rename(rom / "pico_w.mpy")
    build.compile_file(HERE / "sim_board.py", rom / "board.mpy", "board.py")
    image = romfs.bundle_image(rom)
    tree = work / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    for rel in romfs.NOT_IN_IMAGE:
        src = made / rel
        if src.is_dir():
            shutil.copytree(src, tree / rel)
        elif src.exists():
            tree.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, tree / rel)
    (tree / "lib").mkdir(parents=True, exist_ok=True)
    build.compile_file(DRIVER, tree / "lib" / "ssd1306.mpy", "ssd1306.py")
    return image, tree


def littlefs(tree, out_img):
    subprocess.run([build.micropython(), "-X", "heapsize=4M", str(HERE / "make_lfs.py"), str(tree),
                    str(out_img)], check=True)


def prepare(work, settings_file=None, fresh=False):
    """build the flash image work/flash.bin (kept when firmware and bundle are unchanged); returns it."""
    firmware = firmware_image()
    phones_ppp()
    work.mkdir(parents=True, exist_ok=True)
    rom, tree = stage(work, settings_file)
    img = work / "littlefs.img"
    littlefs(tree, img)
    if len(firmware) > LAYOUT.romfs_offset:
        raise SimError("the firmware (%d bytes) runs into the ROMFS partition at 0x%x"
                       % (len(firmware), LAYOUT.romfs_offset))
    if len(rom) > LAYOUT.romfs_bytes:
        raise SimError("the bundle's ROMFS image (%d bytes) does not fit the partition (%d bytes)"
                       % (len(rom), LAYOUT.romfs_bytes))
    lfs = img.read_bytes()
    digest = hashlib.sha256(firmware + rom + lfs).hexdigest()
    flash, stamp = work / "flash.bin", work / "flash.json"
    old = json.loads(stamp.read_text()) if stamp.exists() else {}
    if not fresh and flash.exists() and old.get("sha256") == digest:
        print("sim-pico: the flash from the last run (saves kept): %s" % flash)
        return flash
    image = bytearray(b"\xff" * FLASH_BYTES)
    image[:len(firmware)] = firmware
    image[LAYOUT.romfs_offset:LAYOUT.romfs_offset + len(rom)] = rom
    image[FS_OFFSET:FS_OFFSET + len(lfs)] = lfs
    flash.write_bytes(bytes(image))
    stamp.write_text(json.dumps({"sha256": digest, "firmware": shipped.shown(shipped.uf2_path(BOARD))})
                     + "\n")
    print("sim-pico: a fresh flash image: %s (firmware %d KB, ROMFS image %d KB, littlefs with %d files)"
          % (flash, len(firmware) // 1024, len(rom) // 1024, sum(1 for p in tree.rglob("*") if p.is_file())))
    return flash


def node_modules():
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)


def symbol_args():
    """pico_sim.mjs's --uart-read and --gc-collect (the UART driver's read and the scheduler's
    callback call; the port's collection) and --ppp-input (lwIP's input from the link), from
    firmware.json, or none when it lacks them (the bench then leaves those figures out)."""
    found = shipped.symbols(BOARD)
    if any(name not in found for name in shipped.BENCH_SYMBOLS):
        return []
    read, callback = found["mp_machine_uart_read"], found["mp_call_function_1_protected"]
    return ["--uart-read", "0x%x,0x%x" % (read, callback),
            "--gc-collect", "0x%x" % found["gc_collect"], "--ppp-input", "0x%x" % found["pppos_input"]]


def command(flash, port, echo=False, http_port=None, realtime=False):
    """realtime: the chip's time kept to the wall's, as a person at the box or a browser's phone
    needs; without it the idle chip skips ahead, for phones that wait on the chip's own clock."""
    cmd = ["node", str(HERE / "pico_sim.mjs"), "--flash", str(flash), "--port", str(port)]
    if http_port is not None:
        cmd += ["--http", str(http_port), "--ppp", str(phones_ppp())]
        cmd += symbol_args()
    return cmd + (["--echo"] if echo else []) + (["--realtime"] if realtime else [])


class Emulator:
    """A running pico_sim.mjs on a free port (what the smoke test and bench_pico.py drive), and
    the phones' port (`http_port`, also free) where phones_ppp takes their connections."""

    def __init__(self, flash, log, realtime=False):
        self.log = open(log, "w+b")  # noqa: SIM115
        self.proc = subprocess.Popen(command(flash, 0, http_port=0, realtime=realtime),
                                     stdout=subprocess.PIPE, stderr=self.log)
        lines = [self.proc.stdout.readline().decode() for _ in range(2)]  # in either order
        ports = {line.split()[1]: int(line.split()[-1]) for line in lines
                 if line.startswith(("pico-sim: listening on ", "pico-sim: phones on "))}
        if set(ports) != {"listening", "phones"}:
            self.stop()
            raise SimError("the emulator did not start (%r); see %s" % (lines, log))
        self.port = ports["listening"]
        self.http_port = ports["phones"]

    def _call(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path), data=data,
                                     method="GET" if body is None else "POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def status(self):
        return self._call("/status")

    def press(self, button, ms):
        return self._call("/press", {"button": button, "ms": ms})

    def phone(self, method, path, body=None, token=None, timeout=60):
        """A phone's request over the PPP link: (status, the answer's JSON or bytes, the phone's TCP
        port, by which status()["link"]["recent"] times the connection in chip time)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=timeout)
        try:
            headers = {"Connection": "close"}
            if token:
                headers["X-Seat-Token"] = token
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.connect()
            port = conn.sock.getsockname()[1]
            conn.request(method, path, data, headers)
            r = conn.getresponse()
            raw = r.read()
            kind = r.getheader("Content-Type") or ""
            return r.status, json.loads(raw) if kind.startswith("application/json") else raw, port
        finally:
            conn.close()

    def connection(self, port):
        """phones_ppp's record of a phone's connection once it has ended (chip-time ms: accepted_ms,
        opened_ms, data_ms, answer_ms, closed_ms; bytes_in, bytes_out; end), or None."""
        deadline = time.monotonic() + 10  # the record comes once phones_ppp has closed its end too
        while True:
            for c in reversed(self.status()["link"]["recent"]):
                if c["port"] == port:
                    return c
            if time.monotonic() > deadline:
                return None
            time.sleep(0.1)

    def alive(self):
        return self.proc.poll() is None

    def wait_for(self, condition, what, timeout=120):
        """The status once condition(status) holds; SimError, with the console's end, when it has not
        within `timeout` s of wall time or the emulator has stopped."""
        deadline = time.monotonic() + timeout
        status = None
        while time.monotonic() < deadline:
            status = self.status()
            if condition(status):
                return status
            if not self.alive():
                break
            time.sleep(0.2)
        raise SimError("%s did not happen; console:\n%s" % (what, status and status["console"][-1500:]))

    def settled(self, quiet_s=2.0, timeout=120):
        """The status once no frame has been drawn for quiet_s of the chip's time (on a busy host the
        chip runs slower than the wall: the splash's wait must pass on the chip, not on the wall);
        `timeout` is wall time."""
        deadline = time.monotonic() + timeout
        last, since = None, None
        while time.monotonic() < deadline:
            status = self.status()
            if status["panel"]["frames"] != last or since is None:
                last, since = status["panel"]["frames"], status["chip_ms"]
            elif status["chip_ms"] - since >= quiet_s * 1000:
                return status
            if not self.alive():
                break
            time.sleep(0.2)
        raise SimError("the panel never settled")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.log.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--http-port", type=int, default=8091, help="where phones connect (phones_ppp)")
    parser.add_argument("--settings", default=os.environ.get("TIDEBOX_SETTINGS") or None)
    parser.add_argument("--fresh", action="store_true", help="start from an empty /data (no saves)")
    parser.add_argument("--echo", action="store_true", help="print the USB console")
    args = parser.parse_args(argv)
    try:
        flash = prepare(OUT, args.settings, args.fresh)
    except (SimError, bundle.BundleError) as e:
        print("sim-pico: %s" % e, file=sys.stderr)
        return 1
    node_modules()
    print("sim-pico: the box on an emulated Pico W at http://127.0.0.1:%d/, phones join at "
          "http://127.0.0.1:%d/ (Ctrl-C stops it)" % (args.port, args.http_port))
    try:
        cmd = command(flash, args.port, args.echo, args.http_port, realtime=True)
        return subprocess.run(cmd).returncode
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
