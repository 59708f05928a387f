# A fake rp2 `machine` for running boards/pico_*.py under the MicroPython unix port. It records
# every call in fakelog and refuses what the real rp2 port refuses (a watchdog beyond 8388 ms).
import micropython

import fakelog


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8
    levels = {}  # GP -> what an input reads when something outside drives it (a pressed button: 0)
    handlers = {}  # GP -> the IRQ handler set with irq()
    hard = {}  # GP -> whether that handler is a hard IRQ (run with the heap locked)

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        fakelog.log("Pin", id, mode, pull)

    def value(self, v=None):
        if v is not None:
            Pin.levels[self.id] = v
            return None
        if self.id in Pin.levels:
            return Pin.levels[self.id]
        return 1 if self.pull == Pin.PULL_UP else 0

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=12, hard=False):
        Pin.handlers[self.id] = handler
        Pin.hard[self.id] = hard
        fakelog.log("Pin.irq", self.id, trigger, hard)

    @classmethod
    def drive(cls, gp, level):
        """Something outside changes the pin's level: the IRQ handler runs, as on an edge."""
        if cls.levels.get(gp, 1) != level:
            cls.levels[gp] = level
            handler = cls.handlers.get(gp)
            if handler and cls.hard.get(gp):
                # A hard IRQ runs with the heap locked: an allocation raises MemoryError (and
                # MicroPython then disables the handler), as on the chip.
                micropython.heap_lock()
                try:
                    handler(gp)
                finally:
                    micropython.heap_unlock()
            elif handler:
                handler(gp)


class I2C:
    devices = [0x3C]  # addresses that answer a scan
    sent = []  # every transaction's bytes, in order, while `recording` (one writevto is one)
    recording = False

    def __init__(self, id, sda=None, scl=None, freq=400000):
        self.id = id
        fakelog.log("I2C", id, sda.id, scl.id, freq)

    def scan(self):
        return list(I2C.devices)

    def writeto(self, addr, buf):
        if addr not in I2C.devices:
            raise OSError(5)  # EIO: nothing acknowledged
        if I2C.recording:
            I2C.sent.append(bytes(buf))
        return len(buf)

    def writevto(self, addr, bufs):
        if addr not in I2C.devices:
            raise OSError(5)
        if I2C.recording:
            I2C.sent.append(b"".join(bytes(buf) for buf in bufs))


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin.id
        self._freq = 0
        self._duty = 0
        fakelog.log("PWM", pin.id)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if not 8 <= value <= 62_500_000:
            raise ValueError("freq too small")
        self._freq = value
        fakelog.log("PWM.freq", self.pin, value)

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        fakelog.log("PWM.duty_u16", self.pin, value)

    def deinit(self):
        fakelog.log("PWM.deinit", self.pin)


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1
    made = []

    def __init__(self, id=-1, mode=1, period=-1, callback=None):
        self.callback = None
        Timer.made.append(self)
        if callback is not None:
            self.init(mode=mode, period=period, callback=callback)

    def init(self, mode=1, period=-1, callback=None):
        self.callback = callback
        fakelog.log("Timer.init", mode, period)

    def deinit(self):
        self.callback = None
        fakelog.log("Timer.deinit")

    def fire(self):
        """What the real timer does when its period ends."""
        callback = self.callback
        if callback is not None:
            callback(self)


class WDT:
    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout must be 1..8388 ms on rp2")
        fakelog.log("WDT", timeout)

    def feed(self):
        fakelog.log("WDT.feed")


class ResetCalled(Exception):
    pass


_irq_state = [1]


def disable_irq():
    state = _irq_state[0]
    _irq_state[0] = 0
    return state


def enable_irq(state):
    _irq_state[0] = state


def unique_id():
    return b"\xe6\x61\x41\x03\xe7\x45\x2d\x2f"


def reset():
    fakelog.log("reset")
    raise ResetCalled()


def soft_reset():
    fakelog.log("soft_reset")
    raise ResetCalled()
