// Boots a MicroPython rp2 firmware (.bin: the flash image from 0x10000000) in rp2040js and runs a
// script through the raw REPL over USB CDC; the script's output goes to stdout.
//   node run.mjs firmware.bin script.py [timeout_s]
// LFS_IMG: a littlefs image written where the RPI_PICO_W build keeps its filesystem (2 MB flash less
// MICROPY_HW_FLASH_STORAGE_BYTES, 848 KB: offset 0x12C000; LFS_OFFSET overrides).
// ROMFS_IMG: a ROMFS image written at ROMFS_OFFSET, where a build with MICROPY_HW_ROMFS_BYTES keeps
// its ROMFS partition (just below the filesystem); the firmware mounts it at /rom at boot.
// Adapted from the method of rp2040js's demo/micropython-run.ts (MIT, Uri Shaked).
import fs from 'fs';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { bootromB1 } from './bootrom.mjs';

const [fwPath, scriptPath, timeoutArg] = process.argv.slice(2);
const script = fs.readFileSync(scriptPath);
const timeoutS = Number(timeoutArg || 900);
const sim = new Simulator();
const mcu = sim.rp2040;
mcu.loadBootrom(bootromB1);
mcu.logger = new ConsoleLogger(LogLevel.Error);
mcu.flash.set(fs.readFileSync(fwPath), 0);
if (process.env.LFS_IMG) {
  const off = Number(process.env.LFS_OFFSET || 0x12c000);
  mcu.flash.set(fs.readFileSync(process.env.LFS_IMG), off);
}
if (process.env.ROMFS_IMG) {
  if (!process.env.ROMFS_OFFSET) throw new Error('ROMFS_IMG needs ROMFS_OFFSET');
  mcu.flash.set(fs.readFileSync(process.env.ROMFS_IMG), Number(process.env.ROMFS_OFFSET));
}
// PC sampler (SYMS=syms.txt, from `arm-none-eabi-nm -n -S firmware.elf`): one sample every
// PROF_CYCLES cycles between the device's "MARK prof_on <label>" and "MARK prof_off <label>" lines,
// printed as "[prof] <label> <share>% <function>" (the top PROF_TOP), with gc_alloc's calls.
const PROF_CYCLES = Number(process.env.PROF_CYCLES || 64);
const PROF_TOP = Number(process.env.PROF_TOP || 25);
let prof = null;
let syms = null;
if (process.env.SYMS) {
  syms = fs.readFileSync(process.env.SYMS, 'utf8').trim().split('\n').map((l) => l.split(/\s+/))
    .filter((f) => f.length >= 4).map((f) => [parseInt(f[0], 16), parseInt(f[1], 16), f[3]])
    .sort((x, y) => x[0] - y[0]);
  const core = mcu.core;
  const execute = core.executeInstruction.bind(core);
  const found = syms.find((x) => x[2] === 'gc_alloc');
  const gcAlloc = found ? found[0] & ~1 : -1;
  let next = 0;
  core.executeInstruction = () => {
    if (prof) {
      const pc = core.PC;
      if (pc === gcAlloc) prof.allocs++;
      if (core.cycles >= next) {
        next = core.cycles + PROF_CYCLES;
        prof.pcs.set(pc, (prof.pcs.get(pc) || 0) + 1);
      }
    }
    return execute();
  };
}
function symbolize(pc) {
  let lo = 0, hi = syms.length - 1, best = -1;
  while (lo <= hi) { const mid = (lo + hi) >> 1; if (syms[mid][0] <= pc) { best = mid; lo = mid + 1; } else hi = mid - 1; }
  if (best < 0) return '?';
  const [a, sz, name] = syms[best];
  return pc < a + Math.max(sz, 2) ? name : `?${name}+`;
}
function dumpProfile(label) {
  const byFn = new Map();
  let total = 0;
  for (const [pc, n] of prof.pcs) { const f = symbolize(pc); byFn.set(f, (byFn.get(f) || 0) + n); total += n; }
  const rows = [...byFn].sort((x, y) => y[1] - x[1]);
  console.log(`[prof] ${label}: ${total} samples of ${PROF_CYCLES} cycles, gc_alloc calls ${prof.allocs}`);
  for (const [f, n] of rows.slice(0, PROF_TOP)) console.log(`[prof] ${label} ${(100 * n / total).toFixed(1).padStart(5)}% ${f}`);
}
let line = '';
function marks(s) {
  line += s;
  let nl;
  while ((nl = line.indexOf('\n')) >= 0) {
    const l = line.slice(0, nl).trim().replace(/^OK/, '');  // the raw REPL's OK precedes the first line
    line = line.slice(nl + 1);
    const label = l.split(' ')[2] || '';
    if (l.startsWith('MARK prof_on')) prof = { pcs: new Map(), allocs: 0 };
    else if (l.startsWith('MARK prof_off') && prof) { dumpProfile(label); prof = null; }
  }
}
const cdc = new USBCDC(mcu.usbCtrl);
let out = '';
let state = 'boot';
const t0 = Date.now();
// rp2040js's USBCDC answers every OUT buffer the device arms at once, with an empty packet when it
// has nothing to send: the device then takes an interrupt storm (TinyUSB re-arms, the host answers
// again...) that a real USB controller NAKs without the CPU; it ate ~60% of the cycles. So a read
// is held back until there are bytes for it.
let pendingRead = null;
const queue = []; // bytes wait here and enter the CDC's small FIFO only as it has room
function pump() { while (queue.length && !cdc.txFIFO.full) cdc.txFIFO.push(queue.shift()); }
mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  pump();
  if (cdc.txFIFO.itemCount === 0) { pendingRead = size; return; }
  completeRead(size);
};
function completeRead(size) {
  const buffer = new Uint8Array(Math.min(size, cdc.txFIFO.itemCount));
  for (let i = 0; i < buffer.length; i++) buffer[i] = cdc.txFIFO.pull();
  mcu.usbCtrl.endpointReadDone(cdc.outEndpoint, buffer);
}
function send(bytes) {
  for (const b of bytes) queue.push(b);
  pump();
  if (pendingRead != null && cdc.txFIFO.itemCount > 0) { const size = pendingRead; pendingRead = null; completeRead(size); }
}
cdc.onDeviceConnected = () => { send([13, 10]); };
cdc.onSerialData = (value) => {
  const s = Buffer.from(value).toString('latin1');
  out += s;
  if (state === 'script') { process.stdout.write(s); if (syms) marks(s); }
  if (state === 'boot' && out.includes('>>> ')) {
    console.error(`[host] REPL up after ${(Date.now() - t0) / 1000}s wall, ${(mcu.core.cycles / 125e6).toFixed(3)} s emulated`);
    state = 'raw'; out = '';
    send([1]); // Ctrl-A: raw REPL
  } else if (state === 'raw' && out.includes('raw REPL; CTRL-B to exit\r\n>')) {
    state = 'script'; out = '';
    send(script);
    send([4]);
  } else if (state === 'script' && (out.match(/\x04/g) || []).length >= 2) {
    const parts = out.split('\x04');
    if (parts[1]) process.stderr.write('[device error]\n' + parts[1] + '\n');
    finish(parts[1] ? 1 : 0);
  }
};
function finish(code) {
  console.error(`[host] done after ${(Date.now() - t0) / 1000}s wall, ${(mcu.core.cycles / 125e6).toFixed(3)} s emulated`);
  sim.stop();
  process.exit(code);
}
setTimeout(() => { console.error('[host] timeout; output so far:\n' + out); process.exit(2); }, timeoutS * 1000);
for (const n of [10, 11, 12]) mcu.gpio[n].setInputValue(true); // buttons A, B, C idle high (pull-ups)
mcu.core.PC = 0x10000000;
sim.execute();
