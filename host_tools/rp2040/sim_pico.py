"""`make sim-pico`: the whole box on an emulated Pico W (rp2040js), the real firmware and board code.

    python host_tools/rp2040/sim_pico.py [--src MICROPYTHON_SRC] [--firmware-dir build/firmware]
                                         [--port 8090] [--http-port 8091] [--fresh] [--settings FILE]
                                         [--echo]

The chip runs MicroPython's own RPI_PICO_W firmware (firmware.py --stock: what a maker flashes),
with the flash laid out as `make deploy` leaves it: the bundle (bundle.py: main.py, the .mpy files,
settings.json, the page) and the SSD1306 driver that deploy installs with mip (lib/ssd1306.mpy,
compiled here from the source tree's micropython-lib), on the littlefs at 0x12C000. One difference:
the radio (sim_board.py, installed as board.mpy, with the bundle's board.mpy beside it as
pico_w.mpy): rp2040js has no Wi-Fi chip, so the firmware's own network.PPP brings up a PPP link
over the chip's UART0 instead, and the firmware's own lwIP carries the phones' TCP. The host end of
that link is phones_ppp (phones_ppp/, built on demand by phones_link.py): a PPP server and a
relay that takes the phones' connections on http://127.0.0.1:HTTP_PORT/ and opens each again to
the chip over PPP with lwIP's TCP. pico_sim.mjs models the rest (the SSD1306
on I2C0, the buttons with bounce, the buzzer's PWM, the watchdog, flash erase and program) and
serves the box's panel and buttons on http://127.0.0.1:PORT/.

The flash image is build/sim-pico/flash.bin: saves stay in it across resets and across runs, until
the firmware or the bundle changes (then it starts afresh, as a board does after a new deploy and
a wiped filesystem) or --fresh is given.

With --src (MICROPYTHON_SRC), the stock firmware is (re)built first, the driver's source copied
next to it (OUT/stock-RPI_PICO_W/mip/ssd1306.py); without, both must be there from a run with it.
"""

import argparse
import hashlib
import http.client
import json
import os
import shutil
import struct
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

OUT = build.ROOT / "build" / "sim-pico"
BOARD = "RPI_PICO_W"
FS_OFFSET = 0x12C000  # the RPI_PICO_W build's littlefs: 2 MB flash less its 848 KB
FLASH_BYTES = 2 * 1024 * 1024
# Where micropython-lib keeps the driver `mpremote mip install ssd1306` installs.
SSD1306_IN_SRC = Path("lib/micropython-lib/micropython/drivers/display/ssd1306/ssd1306.py")


class SimError(Exception):
    pass


def stock_dir(firmware_dir):
    return Path(firmware_dir).resolve() / ("stock-" + BOARD)


def phones_ppp(firmware_dir=None):
    """The host end of the chip's PPP link, built first if need be (phones_link.py: no firmware or
    source tree is needed, so `firmware_dir` is not either)."""
    try:
        return phones_link.build()
    except phones_link.LinkError as e:
        raise SimError("phones_ppp: %s" % e) from None


def parts(firmware_dir):
    """The stock firmware, the driver's source and phones_ppp, or a SimError saying what is missing."""
    d = stock_dir(firmware_dir)
    fw, driver = d / "firmware.bin", d / "mip" / "ssd1306.py"
    missing = [str(p) for p in (fw, driver) if not p.exists()]
    if missing:
        raise SimError("no %s: build it with `make sim-pico MICROPYTHON_SRC=<a MicroPython tree>` "
                       "(boards/README.md)" % " and no ".join(missing))
    phones_ppp()
    return fw, driver


def build_parts(src, firmware_dir):
    """The stock firmware (firmware.py --stock) and a copy of the tree's ssd1306 driver."""
    src = Path(src).resolve()
    driver = src / SSD1306_IN_SRC
    if not driver.exists():
        raise SimError("%s has no %s (is lib/micropython-lib there?)" % (src, SSD1306_IN_SRC))
    subprocess.run([sys.executable, str(HERE.parent / "firmware.py"), "firmware", "--src", str(src),
                    "--out", str(Path(firmware_dir).resolve()), "--board", "pico_w", "--stock",
                    "--no-frozen"], check=True)
    dest = stock_dir(firmware_dir) / "mip" / "ssd1306.py"
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(driver, dest)


def stage(work, driver, settings_file=None):
    """The littlefs tree: the bundle as deploy writes it, the mip-installed driver, and the radio's
    difference (sim_board.py as board.mpy, the bundle's board.mpy as pico_w.mpy)."""
    made = work / "bundle"
    bundle.build_bundle(made, "pico_w", settings_file)
    tree = work / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(made, tree)
    (tree / "board.mpy").rename(tree / "pico_w.mpy")
    build.compile_file(HERE / "sim_board.py", tree / "board.mpy", "board.py")
    (tree / "lib").mkdir(exist_ok=True)
    build.compile_file(driver, tree / "lib" / "ssd1306.mpy", "ssd1306.py")
    return tree


def littlefs(tree, out_img):
    subprocess.run([build.micropython(), "-X", "heapsize=4M", str(HERE / "make_lfs.py"), str(tree),
                    str(out_img)], check=True)


def prepare(work, firmware_dir, settings_file=None, fresh=False):
    """build the flash image work/flash.bin (kept when firmware and bundle are unchanged); returns it."""
    fw, driver = parts(firmware_dir)
    work.mkdir(parents=True, exist_ok=True)
    tree = stage(work, driver, settings_file)
    img = work / "littlefs.img"
    littlefs(tree, img)
    firmware = fw.read_bytes()
    if len(firmware) > FS_OFFSET:
        raise SimError("%s (%d bytes) runs into the filesystem at 0x%x" % (fw, len(firmware), FS_OFFSET))
    lfs = img.read_bytes()
    digest = hashlib.sha256(firmware + lfs).hexdigest()
    flash, stamp = work / "flash.bin", work / "flash.json"
    old = json.loads(stamp.read_text()) if stamp.exists() else {}
    if not fresh and flash.exists() and old.get("sha256") == digest:
        print("sim-pico: the flash from the last run (saves kept): %s" % flash)
        return flash
    image = bytearray(b"\xff" * FLASH_BYTES)
    image[:len(firmware)] = firmware
    image[FS_OFFSET:FS_OFFSET + len(lfs)] = lfs
    flash.write_bytes(bytes(image))
    stamp.write_text(json.dumps({"sha256": digest, "firmware": str(fw)}) + "\n")
    print("sim-pico: a fresh flash image: %s (firmware %d KB, littlefs with %d files)"
          % (flash, len(firmware) // 1024, sum(1 for p in tree.rglob("*") if p.is_file())))
    return flash


def node_modules():
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=HERE, check=True)


def elf_symbols(elf, names):
    """{name: address} of the functions `names` in an ARM ELF file's symbol table (what the firmware
    build leaves beside firmware.uf2), read here so no ARM binutils are needed to run."""
    data = Path(elf).read_bytes()
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    found = {}
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, value, _, info, _, _ = struct.unpack_from("<IIIBBH", data, at)
            end = data.index(b"\0", strings + name_at)
            name = data[strings + name_at:end].decode()
            if name in names and info & 0xF == 2:  # STT_FUNC
                found[name] = value
    return found


def symbol_args(firmware_dir):
    """pico_sim.mjs's --uart-read and --gc-collect (the UART driver's read and the scheduler's
    callback call; the port's collection), or none when the firmware's ELF file is not there (the
    bench then leaves those figures out)."""
    elf = stock_dir(firmware_dir) / "firmware.elf"
    names = ("mp_machine_uart_read", "mp_call_function_1_protected", "gc_collect")
    found = elf_symbols(elf, names) if elf.is_file() else {}
    if len(found) < len(names):
        return []
    return ["--uart-read", "0x%x,0x%x" % (found[names[0]], found[names[1]]),
            "--gc-collect", "0x%x" % found[names[2]]]


def command(flash, port, echo=False, http_port=None, firmware_dir=None, realtime=False):
    """realtime: the chip's time kept to the wall's, as a person at the box or a browser's phone
    needs; without it the idle chip skips ahead, for phones that wait on the chip's own clock."""
    cmd = ["node", str(HERE / "pico_sim.mjs"), "--flash", str(flash), "--port", str(port)]
    if http_port is not None:
        cmd += ["--http", str(http_port), "--ppp", str(phones_ppp(firmware_dir))]
        cmd += symbol_args(firmware_dir)
    return cmd + (["--echo"] if echo else []) + (["--realtime"] if realtime else [])


class Emulator:
    """A running pico_sim.mjs on a free port (what the smoke test and bench_pico.py drive), and
    the phones' port (`http_port`, also free) where phones_ppp takes their connections."""

    def __init__(self, flash, log, firmware_dir, realtime=False):
        self.log = open(log, "w+b")  # noqa: SIM115
        self.proc = subprocess.Popen(command(flash, 0, http_port=0, firmware_dir=firmware_dir,
                                             realtime=realtime),
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
        """The status once no frame has been drawn for quiet_s of wall time."""
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            status = self.status()
            if status["panel"]["frames"] != last:
                last, since = status["panel"]["frames"], time.monotonic()
            elif time.monotonic() - since >= quiet_s:
                return status
            time.sleep(0.2)
        raise SimError("the panel never settled")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.log.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=os.environ.get("MICROPYTHON_SRC") or None)
    parser.add_argument("--firmware-dir", default=str(build.ROOT / "build" / "firmware"))
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--http-port", type=int, default=8091, help="where phones connect (phones_ppp)")
    parser.add_argument("--settings", default=os.environ.get("TIDEBOX_SETTINGS") or None)
    parser.add_argument("--fresh", action="store_true", help="start from an empty /data (no saves)")
    parser.add_argument("--echo", action="store_true", help="print the USB console")
    parser.add_argument("--build-only", action="store_true", help="build the firmware (--src), run nothing")
    args = parser.parse_args(argv)
    try:
        if args.src:
            build_parts(args.src, args.firmware_dir)
        if args.build_only:
            return 0
        flash = prepare(OUT, args.firmware_dir, args.settings, args.fresh)
    except (SimError, bundle.BundleError) as e:
        print("sim-pico: %s" % e, file=sys.stderr)
        return 1
    node_modules()
    print("sim-pico: the box on an emulated Pico W at http://127.0.0.1:%d/, phones join at "
          "http://127.0.0.1:%d/ (Ctrl-C stops it)" % (args.port, args.http_port))
    try:
        cmd = command(flash, args.port, args.echo, args.http_port, args.firmware_dir, realtime=True)
        return subprocess.run(cmd).returncode
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
