# Raspberry Pi Pico 2 W (RP2350, CYW43439 Wi-Fi): the board module the bundle installs as board.mpy
# with `--board pico2_w`.
#
# Same header pinout, wiring and API as the Pico W, so everything but the name lives in
# pico_common.py. Heap: about 457 KB free after boot (RPI_PICO2_W firmware), more than twice the
# Pico W's; the firmware still targets the Pico W's budget. The RP2350's erratum E9 (a GPIO with the
# internal pull-down enabled can latch at about 2 V) does not touch us: the buttons use pull-ups.
# Needs MicroPython 1.25 or newer (the first release with an RPI_PICO2_W build).
import pico_common

NAME = "pico2_w"


def make_board(settings_path=pico_common.SETTINGS_FILE, storage_dir=pico_common.STORAGE_DIR):
    return pico_common.Board(NAME, settings_path, storage_dir)
