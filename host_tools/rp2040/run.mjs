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
  // Who asks for heap: gc_alloc's callers, and one level up through the allocator's wrappers (so
  // that a function call's frame, fun_bc_call through m_malloc_maybe, is told from the rest).
  const wrappers = new Set(['m_malloc', 'm_malloc_maybe', 'm_malloc_with_finaliser', 'm_malloc0', 'm_realloc',
    'm_realloc_maybe', 'gc_realloc']);
  const wrapperPcs = new Set(syms.filter((x) => wrappers.has(x[2])).map((x) => x[0] & ~1));
  let next = 0;
  core.executeInstruction = () => {
    if (GC_PROBE) {
      const pc = core.PC;
      if (pc === GC_PROBE.subtree && GC_PROBE.overflowPc < 0) gcFindOverflow(GC_PROBE);
      if (pc === GC_PROBE.subtree) { const c = symbolize(core.LR & ~1); GC_PROBE.callers.set(c, (GC_PROBE.callers.get(c) || 0) + 1); }
      if (pc === GC_PROBE.pushPc) {
        const d = core.registers[GC_PROBE.depthReg] + 1;
        if (d > GC_PROBE.deepest) GC_PROBE.deepest = d;
        if (d > GC_PROBE.depths[GC_PROBE.inCollection]) GC_PROBE.depths[GC_PROBE.inCollection] = d;
      }
      if (pc === GC_PROBE.collectStart) { GC_PROBE.inCollection++; GC_PROBE.depths.push(0); }
      else if (pc === GC_PROBE.overflowPc) {
        GC_PROBE.events++;
        if (GC_PROBE.seen !== GC_PROBE.inCollection && GC_PROBE.reported < GC_PROBE.max) {
          GC_PROBE.seen = GC_PROBE.inCollection; GC_PROBE.reported++;
          console.log(`[gc] collection ${GC_PROBE.inCollection}: mark stack (${GC_PROBE.stackSize} entries) full`);
          gcDescribe(GC_PROBE, core.registers[0]);
        }
      }
    }
    if (prof) {
      const pc = core.PC;
      if (pc === gcAlloc) {  // called from a wrapper: counted for the wrapper's own caller
        prof.allocs++;
        const c = symbolize(core.LR & ~1);
        count(prof.callers, wrappers.has(c) && prof.wrapped ? prof.wrapped : c);
      } else if (wrapperPcs.has(pc)) { const c = symbolize(core.LR & ~1); if (!wrappers.has(c)) prof.wrapped = c; }
      if (core.cycles >= next) {
        next = core.cycles + PROF_CYCLES;
        prof.pcs.set(pc, (prof.pcs.get(pc) || 0) + 1);
      }
    }
    return execute();
  };
}
// GC_PROBE=1 (with SYMS): each time the collector's mark stack overflows (gc.c's gc_mark_subtree
// sets gc_stack_overflow: every marked block is then scanned again, a second mark of the whole heap)
// print "[gc] overflow" with the object being scanned and its referrers, up to GC_PROBE_MAX times.
const GC_PROBE = syms && process.env.GC_PROBE ? gcProbe() : null;
function gcProbe() {
  const sym = (n) => { const f = syms.find((x) => x[2] === n); return f ? f : null; };
  const subtree = sym('gc_mark_subtree');
  const ctx = sym('mp_state_ctx');
  if (!subtree || !ctx) { console.error('[gc] no gc_mark_subtree/mp_state_ctx in SYMS'); return null; }
  const start = subtree[0] & ~1;
  return { overflowPc: -1, stackSize: 0, ctx: ctx[0], collectStart: (sym('gc_collect_start') || [0])[0] & ~1,
    subtree: start, size: subtree[1], pushPc: -1, deepest: 0, depths: [0], callers: new Map(), events: 0, reported: 0, inCollection: 0, max: Number(process.env.GC_PROBE_MAX || 3) };
}
function gcFindOverflow(probe) {
  // The overflow store: the target of the branch after `cmp r3, #63` (MICROPY_ALLOC_GC_STACK_SIZE 64),
  // found by decoding Thumb (cmp rN,#imm8 is 0x28xx..0x2fxx, bhi is 0xd8xx) once the function is in
  // RAM (rp2 copies gc.c to SRAM at boot).
  for (let a = probe.subtree; a < probe.subtree + probe.size; a += 2) {
    const op = mcu.readUint16(a), next = mcu.readUint16(a + 2);
    if ((op & 0xf800) === 0x2800 && (next & 0xff00) === 0xd800) {
      probe.stackSize = (op & 0xff) + 1;
      probe.pushPc = a + 4;  // the push, with the stack's depth in the compared register
      probe.depthReg = (op >> 8) & 7;
      probe.overflowPc = a + 2 + 4 + (((next & 0xff) << 24) >> 23);
    }
  }
}
function gcDescribe(probe, r0) {
  const rd = (a) => mcu.readUint32(a) >>> 0;
  const atb = rd(probe.ctx + 180 * 4), pool = rd(probe.ctx + 183 * 4), poolEnd = rd(probe.ctx + 184 * 4);
  const kind = (b) => (mcu.readUint8(atb + (b >> 2)) >> ((b & 3) * 2)) & 3;
  const headOf = (addr) => { let b = (addr - pool) >> 4; while (b > 0 && kind(b) === 2) b--; return b; };
  const blocks = (b) => { let n = 1; while (kind(b + n) === 2) n++; return n; };
  const name = (w) => { if (w < 0x10000000 || w >= 0x20000000) return null; const s = symbolize(w); return s.startsWith('?') ? null : s; };
  const word = (w) => {
    if ((w & 1) === 1) return `int ${w >> 1}`;
    if ((w & 7) === 2) return `qstr ${w >>> 3}`;
    if (w >= pool && w < poolEnd) { const h = headOf(w); const t = name(rd(pool + h * 16)); return `heap@${(pool + h * 16).toString(16)}${t ? '(' + t + ')' : ''}`; }
    const n = name(w);
    return n ? n : '0x' + w.toString(16);
  };
  const desc = (b) => {
    const a = pool + b * 16, n = blocks(b);
    const words = [];
    for (let i = 0; i < Math.min(n * 4, 12); i++) words.push(word(rd(a + i * 4)));
    let heapKids = 0;
    for (let i = 0; i < n * 4; i++) { const w = rd(a + i * 4); if (w >= pool && w < poolEnd && (w & 3) === 0) heapKids++; }
    return `@${a.toString(16)} ${n} blocks, ${heapKids} heap words: ${words.join(', ')}`;
  };
  const referrers = (b) => {
    const a = pool + b * 16, end = a + blocks(b) * 16, found = [];
    for (let p = pool; p < poolEnd && found.length < 4; p += 4) { const w = rd(p); if (w >= a && w < end) { const h = headOf(p); if (h !== b && !found.includes(h)) found.push(h); } }
    return found;
  };
  const b = headOf(r0);
  console.log(`[gc] overflow #${probe.events} scanning ${desc(b)}`);
  let level = [b];
  for (let depth = 1; depth <= 5 && level.length; depth++) {
    const next = [];
    for (const x of level) for (const r of referrers(x)) if (next.length < 3) { next.push(r); console.log(`[gc]   ${'  '.repeat(depth)}referred from ${desc(r)}`); }
    level = next.slice(0, 1);
  }
}
function gcMap(probe) {
  // The heap's layout: where the last used block is, and the largest objects with their types.
  const rd = (a) => mcu.readUint32(a) >>> 0;
  const atb = rd(probe.ctx + 180 * 4), pool = rd(probe.ctx + 183 * 4), poolEnd = rd(probe.ctx + 184 * 4);
  const nblocks = (poolEnd - pool) >> 4;
  const kind = (b) => (mcu.readUint8(atb + (b >> 2)) >> ((b & 3) * 2)) & 3;
  let last = 0, heads = 0, used = 0, heapWords = 0;
  const objs = [];
  for (let b = 0; b < nblocks; b++) {
    const k = kind(b);
    if (k !== 0) { last = b; used++; }
    if (k === 1 || k === 3) {
      heads++;
      let n = 1; while (b + n < nblocks && kind(b + n) === 2) n++;
      let hw = 0;
      for (let i = 0; i < n * 4; i++) { const w = rd(pool + b * 16 + i * 4); if (w >= pool && w < poolEnd && (w & 3) === 0) hw++; }
      heapWords += hw;
      const t = rd(pool + b * 16);
      const tn = t >= 0x10000000 && t < 0x20000000 ? symbolize(t) : (t >= pool && t < poolEnd ? 'heap-type' : '-');
      objs.push([n, b, tn, hw]);
    }
  }
  console.log(`[gc] map: ${nblocks} blocks, last used ${last} (${((last + 1) * 16 / 1024).toFixed(1)} KB into the pool), ${used} used, ${heads} objects, ${heapWords} words that point into the heap`);
  objs.sort((x, y) => y[3] - x[3]);
  for (const [n, b, tn, hw] of objs.slice(0, 12)) console.log(`[gc] map   block ${b}: ${n} blocks, ${hw} heap words, ${tn}`);
  objs.sort((x, y) => y[0] - x[0]);
  for (const [n, b, tn, hw] of objs.slice(0, 8)) console.log(`[gc] map   large: block ${b}: ${n} blocks, ${hw} heap words, ${tn}`);
}
function symbolize(pc) {
  let lo = 0, hi = syms.length - 1, best = -1;
  while (lo <= hi) { const mid = (lo + hi) >> 1; if (syms[mid][0] <= pc) { best = mid; lo = mid + 1; } else hi = mid - 1; }
  if (best < 0) return '?';
  const [a, sz, name] = syms[best];
  return pc < a + Math.max(sz, 2) ? name : `?${name}+`;
}
function count(map, key) { map.set(key, (map.get(key) || 0) + 1); }
function dumpProfile(label) {
  const byFn = new Map();
  let total = 0;
  for (const [pc, n] of prof.pcs) { const f = symbolize(pc); byFn.set(f, (byFn.get(f) || 0) + n); total += n; }
  const rows = [...byFn].sort((x, y) => y[1] - x[1]);
  console.log(`[prof] ${label}: ${total} samples of ${PROF_CYCLES} cycles, gc_alloc calls ${prof.allocs}`);
  for (const [f, n] of rows.slice(0, PROF_TOP)) console.log(`[prof] ${label} ${(100 * n / total).toFixed(1).padStart(5)}% ${f}`);
  const askers = [...prof.callers].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([f, n]) => `${f} ${n}`);
  console.log(`[prof] ${label} gc_alloc called from: ${askers.join(', ')}`);
}
let line = '';
function marks(s) {
  line += s;
  let nl;
  while ((nl = line.indexOf('\n')) >= 0) {
    const l = line.slice(0, nl).trim().replace(/^OK/, '');  // the raw REPL's OK precedes the first line
    line = line.slice(nl + 1);
    const label = l.split(' ')[2] || '';
    if (l.startsWith('MARK gcmap') && GC_PROBE) { gcMap(GC_PROBE); GC_PROBE.timedFrom = GC_PROBE.inCollection + 1; }
    if (l.startsWith('MARK prof_off gc_collect') && GC_PROBE) {
      const d = GC_PROBE.depths.slice(GC_PROBE.timedFrom, GC_PROBE.inCollection + 1);
      console.log(`[gc] the timed collections' deepest mark stacks: ${d.join(' ')} (the stack holds ${GC_PROBE.stackSize})`);
    }
    if (l.startsWith('MARK prof_on')) prof = { pcs: new Map(), allocs: 0, callers: new Map(), wrapped: null };
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
  if (GC_PROBE) console.log(`[gc] ${GC_PROBE.events} mark-stack overflows (at 0x${GC_PROBE.overflowPc.toString(16)}, a ${GC_PROBE.stackSize}-entry stack, ${GC_PROBE.deepest} at the deepest) in ${GC_PROBE.inCollection} collections; gc_mark_subtree called from ${[...GC_PROBE.callers].map(([k, v]) => k + ' ' + v).join(', ')}`);
  console.error(`[host] done after ${(Date.now() - t0) / 1000}s wall, ${(mcu.core.cycles / 125e6).toFixed(3)} s emulated`);
  sim.stop();
  process.exit(code);
}
setTimeout(() => { console.error('[host] timeout; output so far:\n' + out); process.exit(2); }, timeoutS * 1000);
for (const n of [10, 11, 12]) mcu.gpio[n].setInputValue(true); // buttons A, B, C idle high (pull-ups)
mcu.core.PC = 0x10000000;
sim.execute();
