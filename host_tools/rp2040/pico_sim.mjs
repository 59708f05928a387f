// The emulated Pico W for `make sim-pico` (host_tools/rp2040/sim_pico.py starts it): the real rp2
// MicroPython firmware in rp2040js, with the parts of the box around the chip modelled:
//
// - flash: the 2 MB flash image FLASH (firmware, littlefs) is the chip's flash. The firmware erases
//   and programs it through the boot ROM's flash_range_erase / flash_range_program (pico-sdk's
//   hardware_flash looks them up in the ROM's function table): those two are hooked at their ROM
//   addresses and do to the image what the flash chip would (an erase sets 4 KB sectors or 64 KB
//   blocks to 0xFF, a program can only clear bits), taking the W25Q16JV's typical times (45 ms a
//   sector, 150 ms a block, 0.4 ms a 256-byte page) of emulated time with the core stalled. The
//   image is written back to the file, so a save survives a reset and a restart of the sim.
//   (rp2040js models the SSI only as far as the boot stage needs; modelling the flash chip's SPI
//   commands would mean emulating the SSI's FIFOs and the QSPI pads as well.)
// - the OLED: an SSD1306 at 0x3C on I2C0, decoded from its command stream (control bytes, the
//   addressing modes, column and page ranges, page-mode addresses, contrast, invert, entire-on,
//   display on/off, segment remap, COM direction, start line, offset). Each byte takes its 9 SCL
//   periods at the rate the firmware set (hcnt + lcnt), so a frame costs the core what it would.
//   The zero-length writes of i2c.scan() are bit-banged on GP4/GP5 by MicroPython: a small
//   open-drain I2C target on those pins acknowledges 0x3C.
// - buttons A, B, C on GP10, GP11, GP12 (pulled up, pressed = low), with contact bounce: each press
//   and release flips the pin a few times within BOUNCE_MS before it settles.
// - the buzzer on GP15: PWM slice 7 channel B, its frequency and duty read from the registers.
// - the watchdog: when it fires (not fed, or machine.reset()), the chip is reset: a new rp2040js
//   instance boots from the same flash.
// - USB: the REPL's output is kept (and printed with --echo); POST /console types into it.
// - the phones (--http PORT --ppp PHONES_PPP): rp2040js has no CYW43439, so the board module
//   (sim_board.py) brings up the firmware's own network.PPP on UART0 (GP0 TX, GP1 RX) instead of
//   the hotspot, and the firmware's own lwIP carries the phones' TCP. The other end of that serial
//   line is phones_ppp (phones_ppp/phones_ppp.c: lwIP's unix build, a PPP server that gives the chip
//   its address, and a relay that opens each phone's connection to 127.0.0.1:PORT again to the
//   chip's port 80 with lwIP's TCP), started here afresh at every boot of the chip. The chip's TX
//   bytes go to its stdin (with the chip's time; a tick every LINK_TICK_MS besides, so lwIP's timers
//   there run on the chip's clock), its stdout's bytes are fed to the chip's RX one per 10 bit times
//   at the baud rate the firmware set (8N1), in emulated time, and only while the 32-byte RX FIFO
//   has room: no byte is dropped. The UART's receive interrupts are the PL011's, not rp2040js's one
//   per byte: rp2040js's RPUART is patched (PL011RX below, a small subclass each UART instance is
//   switched to) with the RX FIFO's trigger level from UARTIFLS and the receive timeout after 32
//   idle bit periods. The chip's bytes leave as it writes them (TX takes no line time: rp2040js's
//   TX FIFO never fills). phones_ppp's record of each connection (its times in the chip's ms) is
//   kept for /status. Left out: the radio's CPU time (the CYW43's SPI traffic and its driver), Wi-Fi
//   itself, and the radio's PendSV-level delivery of packets (network.PPP reads the UART in a
//   scheduled callback instead).
//
// HTTP on 127.0.0.1:PORT (0: any free port, printed as "pico-sim: listening on PORT"):
//   GET  /            the page (pico_sim.html)
//   GET  /status      JSON: the panel (its pixels as 128x64 bits, row-major, base64), the buzzer,
//                     the buttons, flash and reset counts, emulated time and the emulator's speed
//   POST /press       {"button": "A", "ms": 120}   a press of that length (emulated ms), with bounce
//   POST /console     {"text": "..."}              bytes to the USB REPL (\u0003 is Ctrl-C)
//   POST /reset       power cycle (the flash is kept)
//   POST /cut         {"op": 2, "fraction": 0.5}: power cut half-way through the 2nd flash operation;
//                     {"at": "erase", "skip": 1, "fraction": 0.5}: half-way through the 2nd erase from
//                     now ("program", "any": of that kind); {"off": true} disarms. /status's `cut`:
//                     the armed cut and the erases and programs since it was armed, then the last one
//   POST /monitor     the bench's monitors start afresh (status's loop and heap_low; see "what the
//                     bench reads" below: the panel loop's passes, the core's busy stretches, the heap)
//   GET  /profile     with PICO_SIM_PROFILE=1 in the environment: the PCs sampled every ~1,000 cycles
//                     since the last call, {pc: count} (map them with the firmware's symbols);
//                     with PICO_SIM_ALLOC_PCS="<gc_alloc>,<wrapper>,..." (entry addresses) also
//                     "allocs": {"<return address>|<the last two wrappers' return addresses>": calls of gc_alloc}
//                     and "alloc_bytes" (the same keys: the bytes those calls asked for)
//
//   node pico_sim.mjs --flash FLASH [--port 8090] [--http 8091 --ppp PHONES_PPP] [--echo] [--seed N]
//                     [--realtime] [--uart-read PCS] [--gc-collect PC]
// (--realtime: the chip's time never runs ahead of the wall clock's, as on a board: what make sim-pico
// and bench_pico.py use. Without it an idle chip skips ahead to its next timer at once, tens of
// times faster than real time: the tests and the power cuts, whose phones wait on the chip's clock.)
// (--http: where phones connect, 127.0.0.1 only; 0: any free port; printed as "pico-sim: phones on
// PORT", before or after the "listening" line. Without it, no phones_ppp: the chip's PPP link
// stays down.)
import fs from 'fs';
import http from 'http';
import { spawn } from 'child_process';
import path from 'path';
import { fileURLToPath } from 'url';
import { Simulator, USBCDC, ConsoleLogger, LogLevel, I2CMode } from 'rp2040js';
import { bootromB1 } from './bootrom.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const opts = { port: 8090, echo: false, seed: 1 };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--flash') opts.flash = process.argv[++i];
  else if (a === '--port') opts.port = Number(process.argv[++i]);
  else if (a === '--seed') opts.seed = Number(process.argv[++i]);
  else if (a === '--http') opts.http = Number(process.argv[++i]);
  else if (a === '--ppp') opts.ppp = process.argv[++i];
  else if (a === '--echo') opts.echo = true;
  else if (a === '--realtime') opts.realtime = true;
  else if (a === '--uart-read') opts.uartRead = process.argv[++i];
  else if (a === '--gc-collect') opts.gcCollect = process.argv[++i];
  else if (a === '--ppp-input') opts.pppInput = process.argv[++i];
  else throw new Error('unknown argument ' + a);
}
if (!opts.flash) throw new Error('usage: node pico_sim.mjs --flash FLASH [--port N] [--echo]');

const FLASH_BYTES = 2 * 1024 * 1024;
const CLK_HZ = 125e6;
const NS_PER_CYCLE = 1e9 / CLK_HZ;
const OLED_ADDR = 0x3c;
const SDA = 4, SCL = 5;
const BUTTONS = { A: 10, B: 11, C: 12 };
const BUZZER_SLICE = 7; // GP15: PWM slice 7, channel B
const BOUNCE_MS = 3;
const ERASE_SECTOR_MS = 45, ERASE_BLOCK_MS = 150, PROGRAM_PAGE_MS = 0.4; // W25Q16JV, typical

// --- flash image -----------------------------------------------------------------------------------
let flash = new Uint8Array(FLASH_BYTES).fill(0xff);
flash.set(fs.readFileSync(opts.flash).subarray(0, FLASH_BYTES));
let flashDirty = null;
function saveFlash() {
  if (flashDirty) { clearTimeout(flashDirty); flashDirty = null; }
  fs.writeFileSync(opts.flash, flash);
}
function flashChanged() {
  if (!flashDirty) flashDirty = setTimeout(saveFlash, 300);
}

// The boot ROM's function table: (code, address) halfword pairs from the pointer at 0x14.
function rom16(addr) { return (bootromB1[addr >> 2] >>> ((addr & 2) * 8)) & 0xffff; }
function romFunc(name) {
  const code = name.charCodeAt(0) | (name.charCodeAt(1) << 8);
  for (let p = rom16(0x14); rom16(p); p += 4) if (rom16(p) === code) return rom16(p + 2) & ~1;
  throw new Error('no ROM function ' + name);
}
const ROM_ERASE = romFunc('RE'), ROM_PROGRAM = romFunc('RP');

// --- a tiny seeded random source (bounce patterns are the same from run to run) --------------------
let seed = opts.seed >>> 0 || 1;
function random() { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 4294967296; }

// --- the SSD1306 ---------------------------------------------------------------------------------
const ARGS = { 0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xa8: 1, 0xd3: 1, 0xda: 1, 0xd5: 1, 0xd9: 1, 0xdb: 1,
  0x8d: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0xa3: 2 };
class SSD1306 {
  constructor() { this.reset(); }
  reset() {
    this.ram = new Uint8Array(128 * 8);
    this.on = false; this.contrast = 0x7f; this.inverted = false; this.allOn = false;
    this.mode = 2; this.colStart = 0; this.colEnd = 127; this.pageStart = 0; this.pageEnd = 7;
    this.col = 0; this.page = 0; this.segRemap = false; this.comRemap = false;
    this.startLine = 0; this.offset = 0; this.mux = 63; this.chargePump = false;
    this.cmd = null; this.args = [];
    this.frames = 0; this.dataBytes = 0; this.commands = 0; this.txData = 0; this.lastFrame = null;
    this.expectControl = true;
  }
  begin(now) { this.expectControl = true; this.txData = 0; this.txStart = now; monitor.frameOpen = true; }
  byte(b) {
    if (this.expectControl) { this.co = b & 0x80; this.dc = b & 0x40; this.expectControl = false; return; }
    if (this.dc) this.data(b); else this.command(b);
    if (this.co) this.expectControl = true;
  }
  end(now) {
    monitor.frameOpen = false;
    if (this.txData) {
      this.frames++;
      this.lastFrame = { at_ms: now / 1e6, bytes: this.txData, transfer_us: (now - this.txStart) / 1e3 };
    }
  }
  data(b) {
    monitorFrameByte();
    this.ram[this.page * 128 + this.col] = b;
    this.dataBytes++; this.txData++;
    if (this.mode === 0) {
      if (++this.col > this.colEnd) { this.col = this.colStart; if (++this.page > this.pageEnd) this.page = this.pageStart; }
    } else if (this.mode === 1) {
      if (++this.page > this.pageEnd) { this.page = this.pageStart; if (++this.col > this.colEnd) this.col = this.colStart; }
    } else if (++this.col > 127) this.col = 0;
  }
  command(b) {
    if (this.cmd !== null) {
      this.args.push(b);
      if (this.args.length === ARGS[this.cmd]) { this.apply(this.cmd, this.args); this.cmd = null; }
      return;
    }
    this.commands++;
    if (ARGS[b]) { this.cmd = b; this.args = []; return; }
    this.apply(b, []);
  }
  apply(c, a) {
    if (c === 0xae || c === 0xaf) this.on = c === 0xaf;
    else if (c === 0x81) this.contrast = a[0];
    else if (c === 0xa4 || c === 0xa5) this.allOn = c === 0xa5;
    else if (c === 0xa6 || c === 0xa7) this.inverted = c === 0xa7;
    else if (c === 0x20) this.mode = a[0] & 3;
    else if (c === 0x21) { this.colStart = a[0] & 127; this.colEnd = a[1] & 127; this.col = this.colStart; }
    else if (c === 0x22) { this.pageStart = a[0] & 7; this.pageEnd = a[1] & 7; this.page = this.pageStart; }
    else if (c >= 0xb0 && c <= 0xb7) this.page = c & 7;
    else if (c <= 0x0f) this.col = (this.col & 0xf0) | c;
    else if (c >= 0x10 && c <= 0x1f) this.col = (this.col & 0x0f) | ((c & 0x0f) << 4);
    else if (c >= 0x40 && c <= 0x7f) this.startLine = c & 63;
    else if (c === 0xa0 || c === 0xa1) this.segRemap = c === 0xa1;
    else if (c === 0xc0 || c === 0xc8) this.comRemap = c === 0xc8;
    else if (c === 0xd3) this.offset = a[0] & 63;
    else if (c === 0xa8) this.mux = a[0] & 63;
    else if (c === 0x8d) this.chargePump = !!(a[0] & 4);
  }
  // What the glass shows, 128 x 64, row-major bits (16 bytes a row, MSB first). Upright is the
  // orientation MicroPython's driver sets by default (segment remap A1 and COM scan C8): then the
  // picture is the frame buffer as drawn; A0 with C0 (the driver's rotate(0), Tidebox's "flip")
  // turns it by 180 degrees, as on a real module.
  pixels() {
    const out = new Uint8Array(128 * 64 / 8);
    if (!this.on) return out;
    for (let y = 0; y < 64; y++) {
      const com = this.comRemap ? y : 63 - y;
      if (com > this.mux) continue;
      const row = (com + this.startLine + this.offset) & 63;
      for (let x = 0; x < 128; x++) {
        const col = this.segRemap ? x : 127 - x;
        let lit = (this.ram[(row >> 3) * 128 + col] >> (row & 7)) & 1;
        if (this.allOn) lit = 1;
        else if (this.inverted) lit ^= 1;
        if (lit) out[y * 16 + (x >> 3)] |= 0x80 >> (x & 7);
      }
    }
    return out;
  }
}

// --- the chip and what is wired to it --------------------------------------------------------------
const oled = new SSD1306();
const state = { boots: 0, resets: [], hangs: [], wallStart: Date.now(), emulatedBefore: 0, console: '', flash: { erases: 0, programs: 0, busy_ms: 0 },
  buzzer: { on: false, hz: 0, duty: 0 }, tones: [], buttons: {}, busyCycles: 0, lastPress: null };
let sim = null, mcu = null, cdc = null, rebooting = false;
const pressQueue = [];

function nowNs() { return sim ? sim.clock.nanos : 0; }
function later(ns, fn) { sim.clock.createAlarm(fn).schedule(ns); }

// The emulator's run loop: rp2040js's own (Simulator.execute) with shorter slices, each followed by
// setImmediate instead of setTimeout(0), and a slice ended as soon as the chip has sent bytes on its
// link. Between slices Node takes the host's events (the phones' bytes from phones_ppp, the bench's
// requests); rp2040js's slices of a million cycles (8 ms of the chip's time) and setTimeout's 1 ms
// made every round trip on the link cost the chip up to 8 ms that a radio link would not.
const SLICE_CYCLES = 200000; // 1.6 ms of the chip's time
// --realtime: the chip may be at most as far as the wall clock since boot. When the emulator falls
// behind (a busy chip runs at a tenth of real time or so) the pace starts again from where the chip
// is, with at most CATCH_UP_NS of credit, rather than rushing the idle chip through the lost time.
const CATCH_UP_NS = 20e6;
const pace = { chip0: 0, wall0: 0n };
function paceFrom(nanos) { pace.chip0 = nanos; pace.wall0 = process.hrtime.bigint(); }
function paceLimit(nanos) {
  const wall = Number(process.hrtime.bigint() - pace.wall0);
  if (pace.chip0 + wall - nanos > CATCH_UP_NS) pace.chip0 = nanos + CATCH_UP_NS - wall;
  return pace.chip0 + wall;
}
// The core asleep (WFE/WFI) for longer than LONG_SLEEP_MS of its time: the box's panel loop never
// waits longer than 200 ms, so such a sleep is a wake-up that did not come. The core is then woken,
// as the architecture allows a WFE or WFI to end for no reason at all (software waits in a loop that
// looks again), and the sleep is kept with what the chip's timer and interrupts looked like a
// quarter of the way in (status's long_sleeps, the last LONG_SLEEPS; the evening prints them). Seen
// only on a busy host so far, where the watchdog then reset the chip.
const LONG_SLEEP_MS = 1000, LONG_SLEEPS = 20;
const sleep = { from: null, at: null, list: [] };
function sleepLook() {
  try {
    const core = mcu.core, timer = mcu.peripherals[0x40054]; // rp2040js keeps the TIMER only there
    return { pc: (core.PC >>> 0).toString(16), primask: core.PM, pending: core.pendingInterrupts >>> 0,
      enabled: core.enabledInterrupts >>> 0, pendsv: !!core.pendingPendSV, event: !!core.eventRegistered,
      timer: { now_us: Math.floor(nowNs() / 1e3), armed: timer.alarms.map((a) => a.armed),
        targets: timer.alarms.map((a) => a.targetMicros >>> 0), intr: timer.intRaw, inte: timer.intEnable,
        intf: timer.intForce } };
  } catch (e) {
    return { error: String(e) }; // what is looked at must never stop the chip
  }
}
function sleepEnded(nanos, woken) {
  const ms = (nanos - sleep.from) / 1e6;
  if (ms > LONG_SLEEP_MS) {
    sleep.list.push({ at_ms: Math.round((state.emulatedBefore + sleep.from) / 1e3) / 1e3, ms: Math.round(ms),
      woken: !!woken, ...(sleep.at || sleepLook()) });
    if (sleep.list.length > LONG_SLEEPS) sleep.list.shift();
    console.log(`pico-sim: the core slept ${Math.round(ms)} ms: ${JSON.stringify(sleep.list[sleep.list.length - 1])}`);
  }
  sleep.from = null;
  sleep.at = null;
}
// The phones' end of the link (phones_ppp) is a process of its own, and on a busy host it can fall
// behind the chip: its ACKs and answers then come late in the chip's time, as from phones that never
// answer, and the chip's lwIP holds its sent data (and retransmits it) meanwhile. A radio's peer
// answers in milliseconds whatever the host does, so the chip runs at most PHONES_LEAD_NS ahead of
// the chip time phones_ppp has caught up with ("at US" on its stderr).
const PHONES_LEAD_NS = 20e6;
const PHONES_WAIT_MS = 5;
function phonesLimit() {
  if (!link.proc || link.heardUs === null) return Infinity;
  return link.heardUs * 1e3 - state.emulatedBefore + PHONES_LEAD_NS;
}
function phonesCaughtUp(us) {
  link.heardUs = us;
  const resume = link.resume;
  if (resume && sim && !sim.stopped) {
    link.resume = null;
    clearTimeout(sim.executeTimer);
    sim.executeTimer = setImmediate(resume);
  }
}
function runLoop(simulator) {
  paceFrom(simulator.clock.nanos);
  simulator.execute = function execute() {
    const { rp2040, clock } = this;
    this.executeTimer = null;
    this.stopped = false;
    link.yieldNow = false;
    link.resume = null;
    const paced = opts.realtime ? paceLimit(clock.nanos) : Infinity;
    const behind = phonesLimit();
    const limit = Math.min(paced, behind);
    for (let i = 0; i < SLICE_CYCLES && !this.stopped && !link.yieldNow && clock.nanos < limit; i++) {
      if (rp2040.core.waiting) {
        if (sleep.from === null) { sleep.from = clock.nanos; sleep.at = null; }
        else if (!sleep.at && clock.nanos - sleep.from > LONG_SLEEP_MS * 1e6 / 4) sleep.at = sleepLook();
        if (clock.nanos - sleep.from > LONG_SLEEP_MS * 1e6) { // a wake-up that did not come
          sleepEnded(clock.nanos, true);
          rp2040.core.waiting = false;
          continue;
        }
        const step = Math.min(clock.nanosToNextAlarm, limit - clock.nanos, LONG_SLEEP_MS * 1e6);
        clock.tick(step);
        i += step / NS_PER_CYCLE;
      } else {
        if (sleep.from !== null) sleepEnded(clock.nanos);
        clock.tick(rp2040.core.executeInstruction() * NS_PER_CYCLE);
      }
    }
    if (this.stopped) return;
    if (clock.nanos >= behind) {
      // phones_ppp is behind the chip: go on when it says where it is (or in a moment, whatever it says)
      link.resume = () => this.execute();
      this.executeTimer = setTimeout(() => this.execute(), PHONES_WAIT_MS);
    } else if (clock.nanos >= limit) {
      // ahead of the wall: wait until it catches up (the host's events, phones and presses, go on)
      this.executeTimer = setTimeout(() => this.execute(), 1);
    } else this.executeTimer = setImmediate(() => this.execute());
  };
  simulator.stop = function stop() {
    this.stopped = true;
    if (this.executeTimer != null) {
      clearImmediate(this.executeTimer); // one or the other: each ignores the other's kind
      clearTimeout(this.executeTimer);
      this.executeTimer = null;
    }
  };
}

function hookCore() {
  const core = mcu.core;
  const execute = core.executeInstruction.bind(core);
  let runStart = 0, runEnd = 0;
  core.executeInstruction = () => {
    const t = sim.clock.nanos;
    if (t > runEnd + 1000) { stretchEnded(runStart, runEnd); runStart = t; } // the core slept in between
    const pc = core.PC;
    let c;
    if (pc === ROM_ERASE || pc === ROM_PROGRAM) c = flashOp(core, pc === ROM_ERASE);
    else c = execute();
    if (profile && (profile.n += c) >= 997) { profile.n = 0; const k = pc >>> 0; profile.pcs.set(k, (profile.pcs.get(k) || 0) + 1); }
    if (profile && allocPcs) {
      if (pc === allocPcs[0]) {
        const k = `${core.LR >>> 0}|${profile.wrapped}|${profile.wrapped2}`;
        profile.allocs.set(k, (profile.allocs.get(k) || 0) + 1);
        profile.allocBytes.set(k, (profile.allocBytes.get(k) || 0) + (core.registers[0] >>> 0));
      } else if (allocPcs.includes(pc)) { profile.wrapped2 = profile.wrapped; profile.wrapped = core.LR >>> 0; } // the wrappers' callers
    }
    if (uartRead) uartRead.count(core, pc, c);
    if (pppInput) {
      const was = pppInput.at;
      pppInput.count(core, pc, c);
      if (was && !pppInput.at && pppInput.held) { pppInput.held = false; core.interruptsUpdated = true; }
    }
    if (collecting) monitor.runGcCycles += collecting.count(core, pc, c);
    state.busyCycles += c;
    runEnd = t + c * NS_PER_CYCLE;
    return c;
  };
}

// The core's time inside one function of the firmware, its callees and the interrupts taken
// meanwhile (entry: the function's address; `skip`: a function whose calls from inside are not
// counted). The functions' addresses come from the firmware's symbols (sim_pico.py finds them).
class Inside {
  constructor(entry, skip) { this.entry = entry; this.skip = skip; this.cycles = 0; this.calls = 0; this.at = null; this.skipped = null; }
  count(core, pc, c) {
    if (!this.at) {
      if (pc !== this.entry) return 0;
      this.at = { ret: core.LR & ~1, sp: core.SP };
      this.calls++;
    } else if (this.skipped) {
      if (pc !== this.skipped.ret || core.SP < this.skipped.sp) return 0;
      this.skipped = null;
    } else if (pc === this.skip) {
      this.skipped = { ret: core.LR & ~1, sp: core.SP };
      return 0;
    } else if (pc === this.at.ret && core.SP >= this.at.sp) {
      this.at = null;
      return 0;
    }
    this.cycles += c;
    return c;
  }
}
// --uart-read PCS ("<mp_machine_uart_read>,<mp_call_function_1_protected>"): the core's time in the
// UART driver's reads (status's link.uart_read_ms). That is the PPP link's cost, not the box's:
// network.PPP reads the UART until no byte has come for the driver's inter-character timeout, at
// least 1 ms (the rp2 port's ticks_ms, so 1-2 ms), and for the first byte of the next read until
// the next tick, spinning all that while (ringbuf_avail, ticks_ms, mp_handle_pending); a board's
// radio hands lwIP its packets without that wait. Scheduled callbacks run from inside the spin (a
// nested network.PPP.poll, the box's) are not counted.
// --gc-collect PC (<gc_collect>): the heap's collections, gc.collect()'s and those an allocation
// makes (its threshold, or no room): status's gc (calls, ms) and each busy stretch's.
// --ppp-input PC (<pppos_input>): lwIP's lock around the stand-in link's input. network.PPP's poll,
// a scheduled callback in thread mode, hands the UART's bytes to pppos_input without the lock the
// port's socket calls take (MICROPY_PY_LWIP_ENTER: PendSV held off), while lwIP's timers run at
// PendSV (the port's network soft timer). A timer's TCP work can land in the middle of an input's,
// on the lists they share: on a busy host the box's lwIP looped in tcp_rexmit_rto_prepare until the
// watchdog reset the chip. A board's radio hands lwIP its packets at PendSV
// (cyw43_poll), never inside a timer's work; so while the core is inside pppos_input the emulator
// holds PendSV pending, as the lock would, and lets it in when the input returns.
const pppInputPc = opts.pppInput ? Number(opts.pppInput) & ~1 : null;
let pppInput = null;
function lockLwipForInput(core) {
  const check = core.checkForInterrupts;
  core.checkForInterrupts = function () {
    if (!pppInput || !pppInput.at || !this.pendingPendSV) return check.call(this);
    this.pendingPendSV = false;
    try { return check.call(this); } finally {
      this.pendingPendSV = true;
      if (!pppInput.held) pppInput.holds++; // each PendSV held once, however often the core looks
      pppInput.held = true;
    }
  };
}
const uartReadPcs = opts.uartRead ? opts.uartRead.split(',').map((x) => Number(x) & ~1) : null;
const gcCollectPc = opts.gcCollect ? Number(opts.gcCollect) & ~1 : null;
let uartRead = null, collecting = null;

let profile = process.env.PICO_SIM_PROFILE ? { n: 0, pcs: new Map(), allocs: new Map(), allocBytes: new Map(), wrapped: 0, wrapped2: 0 } : null;
const allocPcs = process.env.PICO_SIM_ALLOC_PCS ? process.env.PICO_SIM_ALLOC_PCS.split(',').map((x) => Number(x) & ~1) : null;
// POST /cut {"op": n, "fraction": f}: the n-th erase or program from now gets only the first
// fraction f of its bytes done (an erase sets them to 0xFF, a program clears its bits), then the
// power goes: the chip restarts from the flash as that left it. {"at": "erase" | "program" | "any",
// "skip": k, "fraction": f}: the same for the (k+1)-th operation of that kind from now (ROM calls:
// an erase call of littlefs is one 4 KB block). `cuts` counts the calls of each kind since the cut
// was armed (kept after it fired: how far a save had got), and `last` says what the cut hit.
let cut = null;
const cuts = { armed: null, erases: 0, programs: 0, last: null };
function flashOp(core, erase) {
  if (cut) {
    if (erase) cuts.erases++; else cuts.programs++;
    const n = cut.at === 'erase' ? cuts.erases : cut.at === 'program' ? cuts.programs : cuts.erases + cuts.programs;
    if ((cut.at === 'any' || (cut.at === 'erase') === erase) && n === cut.skip + 1) return powerCut(core, erase);
  }
  const r = core.registers;
  let addr = r[0] >>> 0, count = r[1] >>> 0;
  let ms = 0;
  if (erase) {
    // flash_range_erase(addr, count, block_size, block_cmd): 64 KB blocks where aligned, else sectors
    const block = r[2] >>> 0;
    addr &= ~0xfff;
    const end = Math.min(FLASH_BYTES, (r[0] >>> 0) + count);
    while (addr < end) {
      const size = block && addr % block === 0 && addr + block <= end ? block : 4096;
      flash.fill(0xff, addr, addr + size);
      mcu.flash.fill(0xff, addr, addr + size);
      ms += size === 4096 ? ERASE_SECTOR_MS : ERASE_BLOCK_MS;
      addr += size;
      state.flash.erases++;
    }
  } else {
    // flash_range_program(addr, data, count): NOR flash only clears bits
    const data = r[1] >>> 0;
    count = r[2] >>> 0;
    for (let i = 0; i < count && addr + i < FLASH_BYTES; i++) {
      const v = flash[addr + i] & mcu.readUint8(data + i);
      flash[addr + i] = v; mcu.flash[addr + i] = v;
    }
    ms = Math.ceil(count / 256) * PROGRAM_PAGE_MS;
    state.flash.programs++;
  }
  state.flash.busy_ms += ms;
  monitorFlash();
  flashChanged();
  core.PC = core.LR & ~1; // return from the ROM function
  return Math.round(ms * 1e6 / NS_PER_CYCLE);
}

function powerCut(core, erase) {
  const r = core.registers;
  const addr = erase ? (r[0] >>> 0) & ~0xfff : r[0] >>> 0;
  const count = erase ? Math.min(r[1] >>> 0, r[2] >>> 0 || 4096) : r[2] >>> 0;
  const done = Math.floor(count * cut.fraction);
  for (let i = 0; i < done && addr + i < FLASH_BYTES; i++) {
    const v = erase ? 0xff : flash[addr + i] & mcu.readUint8((r[1] >>> 0) + i);
    flash[addr + i] = v;
  }
  const what = `power cut ${Math.round(cut.fraction * 100)} % into ${erase ? 'an erase' : 'a program'} of ${count} bytes at 0x${addr.toString(16)}`;
  cuts.last = { kind: erase ? 'erase' : 'program', fraction: cut.fraction, bytes: count, done, addr,
    at_ms: chipMs(), reason: what, ...cuts.armed };
  cuts.armed = null;
  cut = null;
  saveFlash();
  sim.stop();
  setImmediate(() => boot(what));
  return 1;
}

function wireI2C() {
  const i2c = mcu.i2c[0];
  const bitNs = () => (i2c.speed === 1 ? i2c.ssClockHighPeriod + i2c.ssClockLowPeriod
    : i2c.fsClockHighPeriod + i2c.fsClockLowPeriod) * NS_PER_CYCLE;
  let ours = false;
  i2c.onStart = () => later(bitNs(), () => i2c.completeStart());
  i2c.onConnect = (address, mode) => {
    ours = address === OLED_ADDR;
    if (ours && mode === I2CMode.Write) oled.begin(nowNs());
    later(9 * bitNs(), () => i2c.completeConnect(ours));
  };
  i2c.onWriteByte = (value) => {
    if (ours) oled.byte(value);
    later(9 * bitNs(), () => i2c.completeWrite(ours));
  };
  // A read from the SSD1306 gives its status byte: bit 6 set while the display is off.
  i2c.onReadByte = () => later(9 * bitNs(), () => i2c.completeRead(oled.on ? 0x00 : 0x40));
  i2c.onStop = () => {
    if (ours) oled.end(nowNs());
    ours = false;
    later(bitNs(), () => i2c.completeStop());
  };
}

// i2c.scan()'s zero-length writes are bit-banged by MicroPython (machine_i2c.c): an open-drain
// target on the pins that acknowledges its address. The lines idle high (the module's pull-ups).
function wireSoftI2C() {
  const sda = mcu.gpio[SDA], scl = mcu.gpio[SCL];
  const driven = (pin) => pin.outputEnable && !pin.outputValue; // pulled low by the chip
  let sdaAck = false, bits = 0, byte = 0, active = false, lastScl = true, lastSda = true, ackNext = false;
  const update = () => {
    const sclLevel = !driven(scl);
    const sdaLevel = !driven(sda) && !sdaAck;
    if (sclLevel && lastScl && lastSda && !sdaLevel) { active = true; bits = 0; byte = 0; } // start
    else if (sclLevel && lastScl && !lastSda && sdaLevel) { active = false; } // stop
    else if (active && sclLevel && !lastScl) { // rising SCL: sample
      if (bits < 8) { byte = (byte << 1) | (sdaLevel ? 1 : 0); bits++; if (bits === 8) ackNext = (byte >> 1) === OLED_ADDR; }
    } else if (active && !sclLevel && lastScl) { // falling SCL: the target drives SDA for the ACK
      if (bits === 8 && ackNext) { sdaAck = true; ackNext = false; bits = 9; }
      else if (bits === 9) { sdaAck = false; active = false; }
    }
    lastScl = sclLevel; lastSda = !driven(sda) && !sdaAck;
    sda.setInputValue(lastSda); scl.setInputValue(sclLevel);
  };
  sda.addListener(update); scl.addListener(update);
  sda.setInputValue(true); scl.setInputValue(true);
}

function wireButtons() {
  for (const [name, n] of Object.entries(BUTTONS)) { mcu.gpio[n].setInputValue(true); state.buttons[name] = false; }
}

// A press: the contact bounces for up to BOUNCE_MS on the way down and on the way up. A press of a
// button still held, or let go less than REST_MS ago, starts once it has rested that long: a finger
// cannot press again sooner, and the box acts on many presses while they are still held.
const REST_MS = 60;
const restedAt = {};  // emulated ms from which each button may be pressed again
function press(name, ms) {
  const wait = (restedAt[name] || 0) - nowNs() / 1e6;
  if (wait > 0) {
    restedAt[name] += Math.max(ms, BOUNCE_MS + 1) + 2 * BOUNCE_MS + REST_MS;  // queued presses keep their order
    later(wait * 1e6, () => { restedAt[name] = 0; press(name, ms); });
    return;
  }
  const n = BUTTONS[name];
  const pin = () => mcu.gpio[n];
  const bounce = (settle, start) => {
    let t = start;
    const flips = 2 + Math.floor(random() * 4);
    for (let i = 0; i < flips; i++) {
      const level = i % 2 === 0 ? settle : !settle;
      later(t * 1e6, () => pin().setInputValue(level));
      t += 0.05 + random() * (BOUNCE_MS / flips);
    }
    later(t * 1e6, () => pin().setInputValue(settle));
    return t;
  };
  state.buttons[name] = true;
  monitor.holding++; monitor.hold++;
  state.lastPress = { button: name, at_ms: nowNs() / 1e6 };
  bounce(false, 0);
  const up = Math.max(ms, BOUNCE_MS + 1);
  state.lastPress.release_ms = state.lastPress.at_ms + up;
  const end = bounce(true, up);
  restedAt[name] = state.lastPress.at_ms + end + REST_MS;
  later(end * 1e6, () => { state.buttons[name] = false; monitor.holding--; });
}

function wirePWM() {
  const pwm = mcu.pwm;
  const write = pwm.writeUint32.bind(pwm);
  pwm.writeUint32 = (offset, value) => { write(offset, value); buzzerChanged(); };
}
function buzzerChanged() {
  const base = 0x40050000 + BUZZER_SLICE * 0x14;
  const csr = mcu.readUint32(base), div = mcu.readUint32(base + 4), cc = mcu.readUint32(base + 12), top = mcu.readUint32(base + 16);
  const divider = ((div >> 4) & 0xff || 256) + (div & 0xf) / 16;
  const hz = CLK_HZ / (divider * (top + 1) * (csr & 2 ? 2 : 1));
  const duty = ((cc >>> 16) & 0xffff) / (top + 1);
  const on = !!(csr & 1) && duty > 0;
  const b = { on, hz: on ? Math.round(hz * 10) / 10 : 0, duty: on ? Math.round(duty * 1000) / 1000 : 0 };
  if (b.on !== state.buzzer.on || b.hz !== state.buzzer.hz || b.duty !== state.buzzer.duty) {
    state.buzzer = b;
    state.tones.push({ at_ms: Math.round(nowNs() / 1e5) / 10, ...b });
    if (state.tones.length > 40) state.tones.shift();
  }
}

function wireUSB() {
  cdc = new USBCDC(mcu.usbCtrl);
  // As run.mjs: answer the device's reads only when there are bytes (rp2040js would otherwise
  // complete every armed OUT buffer at once, an interrupt storm a real host never causes).
  let pendingRead = null;
  const queue = [];
  const pump = () => { while (queue.length && !cdc.txFIFO.full) cdc.txFIFO.push(queue.shift()); };
  const complete = (size) => {
    const buffer = new Uint8Array(Math.min(size, cdc.txFIFO.itemCount));
    for (let i = 0; i < buffer.length; i++) buffer[i] = cdc.txFIFO.pull();
    mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, buffer);
  };
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    pump();
    if (cdc.txFIFO.itemCount === 0) { pendingRead = size; return; }
    complete(size);
  };
  cdc.send = (bytes) => {
    for (const b of bytes) queue.push(b);
    pump();
    if (pendingRead != null && cdc.txFIFO.itemCount > 0) { const s = pendingRead; pendingRead = null; complete(s); }
  };
  cdc.onSerialData = (value) => {
    const s = Buffer.from(value).toString('latin1');
    state.console = (state.console + s).slice(-16384);
    if (opts.echo) process.stdout.write(s.replace(/^/gm, ''));
  };
}

// --- the phones' link (--http): PPP over UART0 to phones_ppp (see the top) ----------------------------
const LINK_TICK_MS = 1; // how often phones_ppp hears the chip's time when the chip sends nothing
const LINK_RECENT = 64;
const link = {
  proc: null, port: null, up: false, addr: null, baud: 0, out: [], outAt: 0, outBytes: 0, feeding: false,
  alarm: null, tick: null, tx: [], txFlush: false, yieldNow: false, open: 0, heardUs: null, resume: null,
  stats: { fifo_full: 0, connections: 0, to_chip: 0, frames_to_chip: 0, from_chip: 0, ups: 0, downs: 0 },
  recent: [], // the last LINK_RECENT connections, their times in emulated ms (see chipMs)
};
function chipMs() { return Math.round((state.emulatedBefore + nowNs()) / 1e3) / 1e3; }

function byteNs() { return 10 * 1e9 / (link.baud || 1e6); }

// A message to phones_ppp: kind, the chip's time in us, length, bytes.
function linkSend(kind, bytes) {
  if (!link.proc) return;
  const m = Buffer.alloc(11 + (bytes ? bytes.length : 0));
  m[0] = kind.charCodeAt(0);
  m.writeBigUInt64BE(BigInt(Math.round((state.emulatedBefore + nowNs()) / 1e3)), 1);
  m.writeUInt16BE(bytes ? bytes.length : 0, 9);
  if (bytes) bytes.copy(m, 11);
  link.proc.stdin.write(m);
}

function linkFlushTx() {
  link.txFlush = false;
  while (link.tx.length) {
    const chunk = Buffer.from(link.tx.splice(0, 65535));
    linkSend('D', chunk);
  }
}

function wireLink() {
  const uart = mcu.uart[0];
  link.feeding = false; link.out = []; link.outAt = 0; link.outBytes = 0; link.tx = []; link.up = false;
  link.inFrame = false;
  link.alarm = sim.clock.createAlarm(linkFeed);
  link.tick = sim.clock.createAlarm(() => { linkSend('T'); link.tick.schedule(LINK_TICK_MS * 1e6); });
  link.tick.schedule(LINK_TICK_MS * 1e6);
  uart.onBaudRateChange = (baud) => { link.baud = baud; };
  uart.onByte = (b) => {
    if (!link.proc) return;
    link.stats.from_chip++;
    monitor.runPhones = true;
    link.tx.push(b);
    if (!link.txFlush) { link.txFlush = true; link.yieldNow = true; setImmediate(linkFlushTx); }
  };
  if (opts.http !== undefined) startLink();
}

// phones_ppp, afresh with every boot of the chip: the new chip knows no link and no connection, so
// its partner starts from nothing too (the phones' connections close, as a board's reset closes them).
function startLink() {
  if (link.proc) { const old = link.proc; link.proc = null; old.kill(); }
  const port = link.port === null ? opts.http : link.port;
  const proc = spawn(opts.ppp, ['--port', String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  link.proc = proc; link.open = 0;
  link.heardUs = null; link.resume = null; // no limit until it first says where it is
  proc.on('exit', (code, signal) => {
    if (link.proc !== proc) return;
    console.log(`pico-sim: phones_ppp ended (${code === null ? signal : code})`);
    link.proc = null;
  });
  proc.stdin.on('error', () => {});
  proc.stdout.on('data', (d) => { if (link.proc !== proc) return; link.out.push(d); link.outBytes += d.length; linkKick(); });
  let text = '';
  proc.stderr.on('data', (d) => {
    text += d.toString('latin1');
    let nl;
    while ((nl = text.indexOf('\n')) >= 0) { linkLine(text.slice(0, nl), proc); text = text.slice(nl + 1); }
  });
}

function linkLine(line, proc) {
  let m;
  if (line.startsWith('rec ')) { // a record of the old link's connections too: they ended with its chip
    const rec = JSON.parse(line.slice(4));
    for (const k of Object.keys(rec)) if (k.endsWith('_ms') && rec[k] < 0) rec[k] = null; // never happened
    link.recent.push(rec);
    if (link.recent.length > LINK_RECENT) link.recent.shift();
  } else if (link.proc !== proc) {
    return;
  } else if (line.startsWith('at ')) {
    phonesCaughtUp(Number(line.slice(3)));
  } else if ((m = /^open (\d+)/.exec(line))) {
    const n = Number(m[1]);
    if (n > link.open) link.stats.connections++;
    link.open = n;
  } else if ((m = /^phones-ppp: phones on (\d+)/.exec(line))) {
    if (link.port === null) console.log(`pico-sim: phones on ${m[1]}`);
    link.port = Number(m[1]);
  } else if ((m = /^phones-ppp: link up (\S+)/.exec(line))) {
    link.up = true; link.addr = m[1]; link.stats.ups++;
    state.console += `\n[pico-sim: the phones' PPP link is up: the chip is ${m[1]}, ${link.baud} baud]\n`;
  } else if (line.startsWith('phones-ppp: link down')) {
    // The chip hung up (its box closes the link before a soft reset: sim_board.py): its partner starts
    // afresh for the link the next boot opens, as at a reset of the chip.
    link.up = false; link.stats.downs++;
    setImmediate(startLink);
  } else if (line) console.log(line);
}

// --- what the bench reads from outside the chip (nothing here changes what the firmware does) -------
// - the panel loop's passes: tidebox's panel loop feeds the watchdog every 8th pass (a write of
//   its LOAD register), and every pass while it rests (between edges and changes); and while a
//   button is held, every pass reads the buttons' pins (SIO GPIO_IN), which a pass with nothing held
//   skips. Both give intervals in chip time: feed to feed (8 passes, or 1 at rest) always, pass to
//   pass while the host holds a button. Each interval
//   is flagged when a flash erase or program, or a byte of a frame to the OLED, fell within it.
// - the heap: MicroPython's GC keeps 2 bits a 16-byte block in its allocation table (free, head,
//   tail, mark) at the start of its area; the area's pointers (table start, its length, the pool's
//   start and end) are found in RAM once gc_init has set them, and the table is read every
//   HEAP_SAMPLE_MS of chip time: the free bytes (what gc.mem_free() says then, garbage not collected
//   yet counted as used) and the largest run of free blocks, their lowest values kept.
const HEAP_SAMPLE_MS = 2;
function newWindows() { return { all: 0, flash: 0, frame: 0, n: 0, flash_n: 0, frame_n: 0, worst_at_ms: 0 }; }
const monitor = { feeds: newWindows(), passes: newWindows(), lastFeed: null, lastRead: null, lastPass: null,
  feedFlash: false, feedFrame: false, passFlash: false, passFrame: false, frameOpen: false, hold: 0, holding: 0,
  heap: null, heapLow: null, heapArea: null, stretches: [], runFlash: false, runFrame: false, runPhones: false, runGcCycles: 0 };
function monitorReset() {
  monitor.feeds = newWindows(); monitor.passes = newWindows(); monitor.stretches = [];
  monitor.heapLow = monitor.heap ? { ...monitor.heap, at_ms: chipMs() } : null;
}
function windowed(w, ms, flash, frame) {
  w.n++;
  if (ms > w.all) { w.all = ms; w.worst_at_ms = chipMs(); }
  if (flash) { w.flash_n++; w.flash = Math.max(w.flash, ms); }
  if (frame) { w.frame_n++; w.frame = Math.max(w.frame, ms); }
}
function monitorFlash() { monitor.feedFlash = monitor.passFlash = monitor.runFlash = true; }
function monitorFrameByte() { monitor.feedFrame = monitor.passFrame = monitor.runFrame = true; }
// - the core's busy stretches: from the first instruction after a sleep (WFE/WFI: asyncio waiting
//   for its next task) to the last before the next one, flash stalls included. The longest ones
//   (5 ms and more) are kept with what fell within them (a flash operation, a frame's bytes, bytes
//   to or from the phones on the link: a connection merely open, waiting, costs the core nothing;
//   with --gc-collect, the time the heap's collections took in them):
//   a pass of the panel loop that does more than look at the buttons (a press's frame, a save, a
//   Pearl Reach rival's move) is one of them.
const STRETCH_MIN_MS = 5, STRETCHES = 200;
function stretchEnded(start, end) {
  const ms = (end - start) / 1e6;
  if (ms >= STRETCH_MIN_MS) {
    monitor.stretches.push({ at_ms: Math.round((state.emulatedBefore + start) / 1e3) / 1e3, ms: Math.round(ms * 1000) / 1000,
      flash: monitor.runFlash, frame: monitor.runFrame, phones: monitor.runPhones,
      gc_ms: collecting ? Math.round(monitor.runGcCycles * NS_PER_CYCLE / 1e3) / 1e3 : null });
    if (monitor.stretches.length > STRETCHES) monitor.stretches.shift();
  }
  monitor.runFlash = monitor.runFrame = monitor.frameOpen; monitor.runPhones = false; monitor.runGcCycles = 0;
}
function wireMonitor() {
  monitor.lastFeed = monitor.lastRead = monitor.lastPass = null; monitor.heapArea = null;
  const watchdog = mcu.peripherals[0x40058];
  const write = watchdog.writeUint32.bind(watchdog);
  watchdog.writeUint32 = (offset, value) => {
    if (offset === 4) { // LOAD: a feed
      const now = nowNs();
      if (monitor.lastFeed !== null) windowed(monitor.feeds, (now - monitor.lastFeed) / 1e6, monitor.feedFlash, monitor.feedFrame);
      monitor.lastFeed = now; monitor.feedFlash = false; monitor.feedFrame = monitor.frameOpen;
    }
    write(offset, value);
  };
  const sio = mcu.sio;
  const read = sio.readUint32.bind(sio);
  sio.readUint32 = (offset) => {
    if (offset === 4 && monitor.holding) { // GPIO_IN while the host holds a button: a full read of the pins
      const now = nowNs();
      if (monitor.lastRead === null || now - monitor.lastRead > 2e6) { // a new pass (a read takes ~0.3 ms)
        if (monitor.lastPass !== null && monitor.lastPass.hold === monitor.hold) {
          windowed(monitor.passes, (now - monitor.lastPass.at) / 1e6, monitor.passFlash, monitor.passFrame);
        }
        monitor.lastPass = { at: now, hold: monitor.hold }; monitor.passFlash = false; monitor.passFrame = monitor.frameOpen;
      }
      monitor.lastRead = now;
    }
    return read(offset);
  };
  const alarm = sim.clock.createAlarm(() => { heapSample(); alarm.schedule(HEAP_SAMPLE_MS * 1e6); });
  alarm.schedule(HEAP_SAMPLE_MS * 1e6);
}
// The GC area: gc_alloc_table_start, its byte length L, (the finaliser's and weak references' tables,)
// gc_pool_start = gc_pool_end - 64 L, gc_pool_end, consecutive words of mp_state_ctx.mem.area.
function findHeapArea() {
  const RAM = 0x20000000, TOP = 0x20042000;
  const w = (a) => mcu.readUint32(a) >>> 0;
  for (let a = RAM; a < RAM + 0x10000; a += 4) {
    const atb = w(a), len = w(a + 4);
    if (atb < RAM || atb >= TOP || len < 256 || len > 0x4000) continue;
    for (let k = 2; k <= 4; k++) {
      const start = w(a + 4 * k), end = w(a + 4 * k + 4);
      if (end > RAM && end <= TOP && start === end - 64 * len && start >= atb + len) return { atb, len, start, end };
    }
  }
  return null;
}
function heapSample() {
  if (!monitor.heapArea) { monitor.heapArea = findHeapArea(); if (!monitor.heapArea) return; }
  const { atb, len } = monitor.heapArea;
  let free = 0, run = 0, largest = 0;
  for (let i = 0; i < len; i++) {
    const byte = mcu.readUint8(atb + i);
    if (byte === 0) { free += 4; run += 4; if (run > largest) largest = run; continue; }
    for (let j = 0; j < 4; j++) {
      if (((byte >> (2 * j)) & 3) === 0) { free++; run++; if (run > largest) largest = run; } else run = 0;
    }
  }
  const h = { free: free * 16, largest_free: largest * 16, pool: len * 64 };
  monitor.heap = h;
  const low = monitor.heapLow;
  if (!low) monitor.heapLow = { ...h, at_ms: chipMs(), largest_at_ms: chipMs() };
  else {
    if (h.free < low.free) { low.free = h.free; low.at_ms = chipMs(); }
    if (h.largest_free < low.largest_free) { low.largest_free = h.largest_free; low.largest_at_ms = chipMs(); }
  }
}

// --- core 1's reset handshake ---------------------------------------------------------------------
// rp2040js runs core 0 only and has no inter-core FIFOs. MicroPython's soft reset (machine.soft_reset,
// which the box does after every game) resets core 1 (pico-sdk's multicore_reset_core1: PSM FRCE_OFF
// PROC1 set, then cleared) and waits for the 0 that core 1's bootrom pushes into core 0's mailbox once
// it is out of reset; without it core 0 read garbage from the FIFO and crashed. Modelled here: that 0,
// the FIFO status (SIO 0x50: VLD while the mailbox holds a word, RDY always) and its read (0x58).
const PROC1 = 1 << 16;
function wireCore1Mailbox() {
  const mailbox = [];
  const psm = mcu.peripherals[0x40010];
  const psmWrite = psm.writeUint32.bind(psm);
  psm.writeUint32 = (offset, value) => {
    const wasOff = psm.frceOff & PROC1;
    psmWrite(offset, value);
    if (offset === 4 && wasOff && !(psm.frceOff & PROC1)) mailbox.push(0); // core 1 out of reset
  };
  const sio = mcu.sio;
  const read = sio.readUint32.bind(sio);
  sio.readUint32 = (offset) => {
    if (offset === 0x50) return (mailbox.length ? 1 : 0) | 2; // FIFO_ST: VLD, RDY
    if (offset === 0x58) return mailbox.length ? mailbox.shift() : 0; // FIFO_RD
    return read(offset);
  };
  const write = sio.writeUint32.bind(sio);
  sio.writeUint32 = (offset, value) => {
    if (offset === 0x54) return; // FIFO_WR: to core 1, which is not run
    write(offset, value);
  };
}

// --- the PL011's receive interrupts (both UARTs) -------------------------------------------------
// rp2040js's RPUART raises RXINTR for every byte fed to it (it has no trigger level and no receive
// timeout), so every byte of a phone's request would interrupt the core and wake asyncio's poll
// loop. PL011RX, a small subclass of it that each UART instance is switched to at boot, models the
// receive side as the PL011 (ARM DDI 0183) has it:
// - UARTIFLS (0x34, reset 0x12) is kept; RXIFLSEL (bits 5:3) sets the trigger level: 1/8, 1/4, 1/2,
//   3/4, 7/8 of the 32-byte FIFO (4, 8, 16, 24, 28 bytes; 1 with the FIFOs off, LCR_H.FEN = 0).
//   MicroPython's rp2 driver sets 1/8 at init (pico-sdk's uart_set_irqs_enabled) and 3/4 when an
//   IRQ_RXIDLE trigger is asked for with UART.irq() (machine_uart.c, uart_set_irq_level).
// - RXINTR (bit 4) is set when a received byte brings the FIFO to the level or above, and cleared
//   by reading the FIFO below the level or by UARTICR.
// - RTINTR (bit 6, the receive timeout) is set when the FIFO is not empty and no byte has arrived
//   for 32 bit periods (at the baud rate set), cleared when the FIFO is read empty or by UARTICR.
// - TXINTR: rp2040js sets it on every check (its TX FIFO never fills, so it is always at or below
//   its level), and the rp2 driver enables it; the core would take that interrupt again and again.
//   The driver's write() puts every byte straight into the FIFO here, so it is kept in UARTRIS as
//   before but not raised on the interrupt line.
const UART_DR = 0x0, UART_IFLS = 0x34, UART_RXINTR = 1 << 4, UART_TXINTR = 1 << 5, UART_RTINTR = 1 << 6;
const UART_RX_LEVELS = [4, 8, 16, 24, 28, 28, 28, 28];
let PL011RX = null;
function modelPL011RX(uart) {
  if (!PL011RX) {
    const RPUART = Object.getPrototypeOf(uart).constructor;
    PL011RX = class extends RPUART {
      get rxLevel() { return this.fifosEnabled ? UART_RX_LEVELS[(this.ifls >> 3) & 7] : 1; }
      checkInterrupts() {
        this.interruptStatus |= UART_TXINTR;
        const on = !!(this.interruptStatus & this.interruptMask & ~UART_TXINTR);
        if (on && !this.lineUp) this.raised++; // the line's rising edges: the interrupts the core takes
        this.lineUp = on;
        this.rp2040.setInterrupt(this.irq, on);
      }
      feedByte(value) {
        this.rxFIFO.push(value);
        this.rxBytes++;
        if (this.rxFIFO.itemCount >= this.rxLevel) this.interruptStatus |= UART_RXINTR;
        this.rtAlarm.schedule(32 * 1e9 / (this.baudRate || 115200)); // restarted by every byte received
        this.checkInterrupts();
      }
      rxTimeout() {
        if (this.rxFIFO.empty) return;
        this.interruptStatus |= UART_RTINTR;
        this.rxTimeouts++;
        this.checkInterrupts();
      }
      readUint32(offset) {
        if (offset === UART_IFLS) return this.ifls;
        if (offset !== UART_DR) return super.readUint32(offset);
        const value = this.rxFIFO.pull();
        if (this.rxFIFO.itemCount < this.rxLevel) this.interruptStatus &= ~UART_RXINTR;
        if (this.rxFIFO.empty) this.interruptStatus &= ~UART_RTINTR;
        this.checkInterrupts();
        return value;
      }
      writeUint32(offset, value) {
        if (offset !== UART_IFLS) return super.writeUint32(offset, value);
        this.ifls = value & 0x3f;
        if (this.rxFIFO.itemCount >= this.rxLevel) this.interruptStatus |= UART_RXINTR;
        else this.interruptStatus &= ~UART_RXINTR;
        this.checkInterrupts();
      }
    };
  }
  Object.setPrototypeOf(uart, PL011RX.prototype);
  uart.ifls = 0x12;
  uart.rxBytes = 0; uart.rxTimeouts = 0; uart.raised = 0; uart.lineUp = false;
  uart.rtAlarm = sim.clock.createAlarm(() => uart.rxTimeout());
}

function linkKick() {
  if (link.feeding || !link.outBytes) return;
  link.feeding = true;
  link.alarm.schedule(byteNs());
}

// One byte to the chip's RX per byte time, while there is one to send and the FIFO has room; after
// each whole PPP frame (its closing flag, 0x7E) the line rests FRAME_GAP_NS, longer than the UART
// driver's inter-character timeout (13 bit times, at least 1 ms): network.PPP's poll reads the UART
// until no byte comes for that long, and a line that never rested (the phones' side with a backlog,
// on a busy host) kept it reading for seconds, with the box's loop and its watchdog waiting. A radio
// hands the chip one packet at a time; this is the stand-in link's way of doing the same.
const FRAME_GAP_NS = 1.5e6;
function linkFeed() {
  link.feeding = false;
  if (!link.outBytes) return;
  const uart = mcu.uart[0];
  let rest = byteNs();
  if (!uart.rxFIFO.full) {
    const piece = link.out[0];
    const value = piece[link.outAt++];
    uart.feedByte(value);
    link.outBytes--; link.stats.to_chip++; monitor.runPhones = true;
    if (link.outAt === piece.length) { link.out.shift(); link.outAt = 0; }
    if (value === 0x7e && link.inFrame) { rest = FRAME_GAP_NS; link.stats.frames_to_chip++; }
    link.inFrame = value !== 0x7e;
  } else link.stats.fifo_full++;
  link.feeding = true;
  link.alarm.schedule(rest);
}

// The words on the core's stack that look like return addresses into the firmware's code (Thumb,
// odd, in flash): with the firmware's ELF (arm-none-eabi-addr2line -f), roughly where a hang was called from.
function codeOnStack() {
  const found = [];
  for (let at = mcu.core.SP >>> 0, n = 0; n < 512 && at < 0x20042000 && found.length < 48; at += 4, n++) {
    const w = mcu.readUint32(at) >>> 0;
    if ((w & 1) && w >= 0x10000100 && w < 0x10200000) found.push(w.toString(16));
  }
  return found;
}

function boot(reason) {
  if (sim) { state.emulatedBefore += sim.clock.nanos; sim.stop(); }
  sim = new Simulator();
  mcu = sim.rp2040;
  mcu.loadBootrom(bootromB1);
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.flash.set(flash, 0);
  state.boots++;
  state.busyCycles = 0;
  sleep.from = null;
  sleep.at = null;
  if (reason) {
    state.resets.push({ reason, after_ms: Math.round(state.emulatedBefore / 1e6) });
    state.console += `\n[pico-sim: ${reason}: the chip restarts]\n`;
    console.log(`pico-sim: ${reason}: the chip restarts (boot ${state.boots})`);
  }
  oled.reset();
  for (const name of Object.keys(restedAt)) delete restedAt[name]; // in the chip's time, which starts again
  uartRead = uartReadPcs ? new Inside(uartReadPcs[0], uartReadPcs[1]) : null; // of this boot, as busyCycles
  collecting = gcCollectPc ? new Inside(gcCollectPc, null) : null;
  pppInput = pppInputPc ? Object.assign(new Inside(pppInputPc, null), { held: false, holds: 0 }) : null;
  if (pppInput) lockLwipForInput(mcu.core);
  hookCore();
  wireI2C();
  wireSoftI2C();
  wireButtons();
  wirePWM();
  wireUSB();
  monitor.holding = 0;
  wireMonitor();
  wireCore1Mailbox();
  modelPL011RX(mcu.uart[0]);
  modelPL011RX(mcu.uart[1]);
  wireLink();
  // rp2040js keeps the watchdog only in its peripheral map (0x40058000)
  const watchdog = mcu.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    // rp2040js re-arms the expired alarm at once (a loop in one clock tick): stop it first
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
    if (rebooting) return;
    rebooting = true;
    if (sleep.from !== null) sleepEnded(sim.clock.nanos, false); // asleep till the end
    // what the core was doing when nothing fed the watchdog: where it is, and how much of the time
    // since the last feed it spent reading the phones' link (network.PPP's poll)
    const since = monitor.lastFeed === null ? null : (sim.clock.nanos - monitor.lastFeed) / 1e6;
    state.hangs.push({ at_ms: chipMs(), since_feed_ms: since && Math.round(since), pc: (mcu.core.PC >>> 0).toString(16),
      waiting: mcu.core.waiting, uart_read_ms: uartRead ? Math.round(uartRead.cycles * NS_PER_CYCLE / 1e6) : null,
      in_uart_read: uartRead ? !!uartRead.at : null, busy_ms: Math.round(state.busyCycles * NS_PER_CYCLE / 1e6),
      to_chip_queued: link.outBytes, fifo_full: link.stats.fifo_full, to_chip: link.stats.to_chip,
      lr: (mcu.core.LR >>> 0).toString(16), stack: codeOnStack() });
    console.log(`pico-sim: the watchdog was not fed: ${JSON.stringify(state.hangs[state.hangs.length - 1])}`);
    sim.stop();
    // REASON's FORCE bit: the firmware asked (machine.reset()); TIMER: nothing fed it in time (a hang)
    const why = watchdog.reason & 2 ? 'machine.reset()' : 'watchdog reset: not fed in time';
    setImmediate(() => { rebooting = false; boot(why); });
  };
  mcu.core.PC = 0x10000000;
  runLoop(sim);
  sim.execute();
}

// --- HTTP ------------------------------------------------------------------------------------------
function status() {
  const emulatedMs = (state.emulatedBefore + nowNs()) / 1e6;
  const wallMs = Date.now() - state.wallStart;
  return {
    boots: state.boots, resets: state.resets, hangs: state.hangs, emulated_ms: Math.round(emulatedMs), chip_ms: chipMs(), wall_ms: wallMs,
    uptime_ms: Math.round(nowNs() / 1e6), speed: Math.round(1000 * emulatedMs / Math.max(1, wallMs)) / 1000,
    panel: { on: oled.on, contrast: oled.contrast, inverted: oled.inverted, all_on: oled.allOn,
      addressing: ['horizontal', 'vertical', 'page', 'page'][oled.mode], columns: [oled.colStart, oled.colEnd],
      pages: [oled.pageStart, oled.pageEnd], seg_remap: oled.segRemap, com_remap: oled.comRemap,
      charge_pump: oled.chargePump, frames: oled.frames, data_bytes: oled.dataBytes, commands: oled.commands,
      last_frame: oled.lastFrame, pixels: Buffer.from(oled.pixels()).toString('base64') },
    buzzer: state.buzzer, tones: state.tones, buttons: state.buttons, flash: state.flash,
    cut: { armed: cuts.armed, erases: cuts.erases, programs: cuts.programs, last: cuts.last },
    last_press: state.lastPress, link: { up: link.up, addr: link.addr, baud: link.baud, open: link.open,
      to_chip_queued: link.outBytes, ...link.stats, recent: link.recent,
      uart_rx_bytes: mcu.uart[0].rxBytes, uart_irqs: mcu.uart[0].raised, uart_rx_timeouts: mcu.uart[0].rxTimeouts,
      uart_read_ms: uartRead ? Math.round(uartRead.cycles * NS_PER_CYCLE / 1e3) / 1e3 : null,
      ppp_inputs: pppInput ? pppInput.calls : null, pendsv_held: pppInput ? pppInput.holds : null },
    gc: collecting ? { calls: collecting.calls, ms: Math.round(collecting.cycles * NS_PER_CYCLE / 1e3) / 1e3 } : null, busy_ms: Math.round(state.busyCycles * NS_PER_CYCLE / 1e3) / 1e3,
    loop: { feeds: monitor.feeds, passes: monitor.passes, stretches: monitor.stretches }, long_sleeps: sleep.list, heap: monitor.heap, heap_low: monitor.heapLow,
    console: state.console.slice(-4000),
  };
}

function body(req) {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c) => { data += c; });
    req.on('end', () => { try { resolve(data ? JSON.parse(data) : {}); } catch { resolve(null); } });
  });
}

const server = http.createServer(async (req, res) => {
  const json = (code, obj) => { res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }); res.end(JSON.stringify(obj)); };
  const url = req.url.split('?')[0];
  if (req.method === 'GET' && (url === '/' || url === '/sim')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(fs.readFileSync(path.join(HERE, 'pico_sim.html')));
  } else if (req.method === 'GET' && url === '/status') json(200, status());
  else if (req.method === 'POST' && url === '/press') {
    const b = await body(req);
    if (!b || !(b.button in BUTTONS)) return json(400, { error: 'button must be A, B or C' });
    const ms = Number(b.ms || 120);
    if (!(ms > 0 && ms < 60000)) return json(400, { error: 'ms must be between 0 and 60000' });
    press(b.button, ms);
    json(200, { pressed: b.button, ms });
  } else if (req.method === 'POST' && url === '/console') {
    const b = await body(req);
    if (!b || typeof b.text !== 'string') return json(400, { error: 'text must be a string' });
    cdc.send(Buffer.from(b.text, 'latin1'));
    json(200, { sent: b.text.length });
  } else if (req.method === 'POST' && url === '/cut') {
    const b = await body(req);
    if (b && b.off === true) { cut = null; cuts.armed = null; return json(200, { armed: null }); }
    const at = b && (b.at === undefined ? 'any' : b.at);
    const skip = b && (b.op !== undefined ? Math.floor(b.op) - 1 : b.skip === undefined ? 0 : b.skip);
    if (!b || !['erase', 'program', 'any'].includes(at) || !(Number.isInteger(skip) && skip >= 0)
        || (b.op !== undefined && b.at !== undefined) || !(b.fraction >= 0 && b.fraction <= 1)) {
      return json(400, { error: '{"op": n >= 1} or {"at": "erase" | "program" | "any", "skip": k >= 0}, and 0 <= fraction <= 1' });
    }
    cut = { at, skip, fraction: b.fraction };
    cuts.armed = { ...cut, armed_ms: chipMs() };
    cuts.erases = 0; cuts.programs = 0;
    json(200, { armed: cuts.armed });
  } else if (req.method === 'GET' && url === '/profile' && profile) {
    json(200, { ...Object.fromEntries(profile.pcs), allocs: Object.fromEntries(profile.allocs),
      alloc_bytes: Object.fromEntries(profile.allocBytes) });
    profile.pcs = new Map(); profile.allocs = new Map(); profile.allocBytes = new Map();
  } else if (req.method === 'POST' && url === '/monitor') {
    monitorReset();
    json(200, { reset: true });
  } else if (req.method === 'POST' && url === '/reset') {
    boot('power cycle');
    json(200, { boots: state.boots });
  } else json(404, { error: 'no such address' });
});
server.listen(opts.port, '127.0.0.1', () => {
  console.log(`pico-sim: listening on ${server.address().port}`);
  
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { saveFlash(); process.exit(0); });
process.on('exit', () => { if (flashDirty) saveFlash(); });
boot(null);
