// Boots a MicroPython rp2 firmware (.bin: the flash image from 0x10000000) in rp2040js and runs a
// script through the raw REPL over USB CDC; the script's output goes to stdout.
//   node run.mjs firmware.bin script.py [timeout_s]
// LFS_IMG: a littlefs image written where the RPI_PICO_W build keeps its filesystem (2 MB flash less
// MICROPY_HW_FLASH_STORAGE_BYTES, 848 KB: offset 0x12C000; LFS_OFFSET overrides).
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
  if (state === 'script') process.stdout.write(s);
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
