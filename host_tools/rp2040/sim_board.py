# board.mpy on the emulated Pico W (make sim-pico): the real boards/pico_w.py, which the bundle
# installs as board.mpy and the emulator's image holds as pico_w.mpy beside this module, with one
# difference: the radio. rp2040js has no CYW43439, so network.WLAN(AP_IF).active(True) would wait
# for a chip that never answers. This radio checks the passphrase as pico_common's does and starts
# no hotspot; instead the firmware's own network.PPP brings up a PPP link over UART0 (GP0 TX, GP1
# RX, 1,000,000 baud) to the emulator's phones_ppp, which gives the chip its usual address and
# carries the phones' TCP. So the box's web server and captive DNS use the firmware's own lwIP
# sockets, as on the board; only the link under lwIP is a serial line instead of the radio.
# The box's soft reset after a game closes that link first (close_link), and the next boot opens it
# again. Everything else (the SSD1306 on I2C0, the buttons' pins and interrupts, the buzzer's PWM, the
# watchdog, the littlefs storage) is pico_common's own.
import gc
import time

import machine
import network
import pico_common
import pico_w
from micropython import const

NAME = pico_w.NAME
_BAUD = const(1_000_000)
# The UART's receive ring (heap) that network.PPP reads from: bytes the chip takes in while Python
# is busy (a frame to the panel, a collection) before the FIFO backs up and the line waits.
_RXBUF = const(2048)
_LINK_WAIT_MS = const(3000)  # at boot, before the box goes on without its phones (the link comes up later)
_CLOSE_WAIT_MS = const(3000)  # before a soft reset, for the link's close to be answered
_WATCHDOG_MS = const(8000)  # the box's own (main.py)


class Radio(pico_common.Radio):
    def start_hotspot(self, ssid, password):
        if not 8 <= len(password) <= 63:
            raise ValueError("a WPA2 passphrase has 8 to 63 characters")
        self.ssid = ssid
        self.password = password
        gc.collect()
        free = gc.mem_free()
        uart = machine.UART(0, _BAUD, tx=machine.Pin(0), rx=machine.Pin(1), rxbuf=_RXBUF)
        self.link = network.PPP(uart)
        # Twice at most: after a soft reset that followed a hang-up (close_link), the first attempt
        # was seen to send nothing down the line (why is not known: the chip's UART takes other
        # writes), and a second one, after hanging up that one, to come up at once.
        for _ in range(2):
            self.link.connect()  # SEC_NONE: the host end asks for no authentication
            if self._wait(True, _LINK_WAIT_MS):
                break
            self.link.disconnect()
            self._wait(False, _CLOSE_WAIT_MS)
        if self.link.isconnected():
            self.ip = self.link.ipconfig("addr4")[0]
        gc.collect()
        print("radio: emulated chip, no Wi-Fi: hotspot %s not started; phones over PPP on UART0, %s "
              "(%s, %d bytes of heap)" % (ssid, self.ip, "up" if self.link.isconnected() else "not up yet",
                                          free - gc.mem_free()))
        return self.ip

    def _wait(self, up, ms):
        """Whether the link is up (or closed: status 0), waiting up to `ms` for it. The watchdog is fed
        meanwhile: it runs on through a soft reset (the box's 8 s), and these waits, the stand-in's
        own, add up to more than a board's radio ever waits (its hotspot outlives the soft reset)."""
        watchdog = machine.WDT(timeout=_WATCHDOG_MS)
        start = time.ticks_ms()
        while (self.link.isconnected() if up else self.link.status() == 0) is not True:
            if time.ticks_diff(time.ticks_ms(), start) >= ms:
                return False
            watchdog.feed()
            time.sleep_ms(10)
        return True

    def close_link(self):
        """Before the box's soft reset: the radio's hotspot is in the Wi-Fi chip and outlives a soft
        reset, but this link's PPP control block is lwIP's, and a soft reset would leave it held for
        an object that is gone (the next boot's network.PPP then finds none free). So the link is
        closed first, as a hang-up the phones' end sees, and comes up again at the next boot."""
        link = getattr(self, "link", None)
        if link is None:
            return
        link.disconnect()
        closed = self._wait(False, _CLOSE_WAIT_MS)
        print("radio: the phones' link hung up for a soft reset (%s)" % ("closed" if closed else
                                                                        "status %d" % link.status()))
        # (network.PPP's finaliser still runs at the soft reset's sweep, where the heap is locked: its
        # call to the UART's irq() fails there and the console shows "MemoryError: " right after "MPY:
        # soft reboot". Any network.PPP does that; a board's Wi-Fi has none. evening_pico.py knows it.)


def make_board(*args):
    board = pico_w.make_board(*args)
    board.radio = radio = Radio(board.settings["country"])
    soft_reset = board.restart

    def restart():
        radio.close_link()
        soft_reset()

    board.restart = restart
    return board
