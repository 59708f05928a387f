# Tidebox's ROMFS firmware for the Raspberry Pi Pico W: MicroPython's own RPI_PICO_W board, unchanged
# but for a ROMFS partition and a larger mark stack (mpconfigboard.h). Built by `make firmware`
# (host_tools/firmware.py; boards/README.md).
include(${MICROPY_PORT_DIR}/boards/RPI_PICO_W/mpconfigboard.cmake)

# That file names ${MICROPY_BOARD_DIR}/manifest.py, which is this folder: freeze RPI_PICO_W's own.
set(MICROPY_FROZEN_MANIFEST ${MICROPY_PORT_DIR}/boards/RPI_PICO_W/manifest.py)
set(MICROPY_BOARD_PINS ${MICROPY_PORT_DIR}/boards/RPI_PICO_W/pins.csv)
