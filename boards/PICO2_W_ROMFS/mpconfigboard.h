// Tidebox's ROMFS firmware for the Raspberry Pi Pico 2 W: RPI_PICO2_W with a ROMFS partition.
//
// The rp2 port puts the partition just below the littlefs storage, which keeps RPI_PICO2_W's place
// and size (2560 KB at 0x10180000), so a board's files and saved games survive flashing this build
// over the stock one. The partition takes the top 256 KB of the firmware's own space: 0x10140000 to
// 0x10180000. The firmware must end below it (host_tools/firmware.py checks; the linker does not).
// Tidebox's bundle as a ROMFS image is about 120 KB.
#include "boards/RPI_PICO2_W/mpconfigboard.h"

#define MICROPY_HW_ROMFS_BYTES (256 * 1024)

// The collector's mark stack, in entries (2 bytes each on rp2; MicroPython's rp2 boards keep gc.c's
// 64). With the box's modules loaded, marking sys.modules and microdot's class dicts depth-first
// needs more, and each overflow makes gc.c scan every marked block again: a collection took twice
// as long. 256 entries cost 384 bytes of static RAM, which the heap gives up.
#define MICROPY_ALLOC_GC_STACK_SIZE (256)
