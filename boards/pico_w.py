# Raspberry Pi Pico W (RP2040, CYW43439 Wi-Fi): the board module the bundle installs as board.mpy.
#
# Everything but the name lives in pico_common.py, shared with the Pico 2 W. Heap: about 205 KB
# free after boot on MicroPython 1.2x (RPI_PICO_W firmware); the firmware is budgeted well under
# half of that. Needs MicroPython 1.20 or newer (.mpy version 6, network.country(), PM_NONE).
import pico_common

NAME = "pico_w"


def make_board(settings_path=pico_common.SETTINGS_FILE, storage_dir=pico_common.STORAGE_DIR):
    return pico_common.Board(NAME, settings_path, storage_dir)
