# board.mpy on the emulated Pico W (make sim-pico): the real boards/pico_w.py, which the bundle
# installs as board.mpy and the emulator's image holds as pico_w.mpy beside this module, with one
# difference: the radio. rp2040js has no CYW43439, so network.WLAN(AP_IF).active(True) would wait
# for a chip that never answers; this radio checks the passphrase as pico_common's does, starts
# no hotspot, reports the AP's usual address, and puts the phones' bridge in the place of the
# socket module: uart_sockets.py (TCP over UART0 to pico_sim.mjs, which holds the phones'
# connections), installed as sys.modules["socket"] before main.py starts the web server and the
# captive DNS. Everything else (the SSD1306 on I2C0, the buttons' pins and interrupts, the buzzer's
# PWM, the watchdog, the littlefs storage) is pico_common's own.
import gc
import sys

import pico_common
import pico_w

NAME = pico_w.NAME


class Radio(pico_common.Radio):
    def start_hotspot(self, ssid, password):
        if not 8 <= len(password) <= 63:
            raise ValueError("a WPA2 passphrase has 8 to 63 characters")
        self.ssid = ssid
        self.password = password
        gc.collect()
        free = gc.mem_free()
        import uart_sockets

        uart_sockets.start()
        sys.modules["socket"] = uart_sockets
        gc.collect()
        print("radio: emulated chip, no Wi-Fi: hotspot %s not started; phones through the UART bridge "
              "(uart_sockets: %d bytes of heap)" % (ssid, free - gc.mem_free()))
        return self.ip


def make_board(*args):
    board = pico_w.make_board(*args)
    board.radio = Radio(board.settings["country"])
    return board
