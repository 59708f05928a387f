# board.mpy on the emulated Pico W (make sim-pico): the real boards/pico_w.py, which the bundle
# installs as board.mpy and the emulator's image holds as pico_w.mpy beside this module, with one
# difference: the radio. rp2040js has no CYW43439, so network.WLAN(AP_IF).active(True) would wait
# for a chip that never answers. This radio checks the passphrase as pico_common's does and starts
# no hotspot; instead the firmware's own network.PPP brings up a PPP link over UART0 (GP0 TX, GP1
# RX, 1,000,000 baud) to the emulator's phones_ppp, which gives the chip its usual address and
# carries the phones' TCP. So the box's web server and captive DNS use the firmware's own lwIP
# sockets, as on the board; only the link under lwIP is a serial line instead of the radio.
# Everything else (the SSD1306 on I2C0, the buttons' pins and interrupts, the buzzer's PWM, the
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
        self.link.connect()  # SEC_NONE: the host end asks for no authentication
        start = time.ticks_ms()
        while not self.link.isconnected() and time.ticks_diff(time.ticks_ms(), start) < _LINK_WAIT_MS:
            time.sleep_ms(10)
        if self.link.isconnected():
            self.ip = self.link.ipconfig("addr4")[0]
        gc.collect()
        print("radio: emulated chip, no Wi-Fi: hotspot %s not started; phones over PPP on UART0, %s "
              "(%s, %d bytes of heap)" % (ssid, self.ip, "up" if self.link.isconnected() else "not up yet",
                                          free - gc.mem_free()))
        return self.ip


def make_board(*args):
    board = pico_w.make_board(*args)
    board.radio = Radio(board.settings["country"])
    return board
