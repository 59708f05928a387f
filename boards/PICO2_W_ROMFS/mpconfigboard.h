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

// The board's name says the firmware is Tidebox's (os.uname().machine: "Raspberry Pi Pico 2 W (Tidebox) with
// RP20x0"): at boot the box reads it to know that lwIP below has the room set here, and lets the
// phones wait for a change (tidebox/gate.py); on stock firmware they poll.
#undef MICROPY_HW_BOARD_NAME
#define MICROPY_HW_BOARD_NAME "Raspberry Pi Pico 2 W (Tidebox)"

// TCP connections lwIP serves at once (its default is 5): each phone's request waiting for a
// change holds one, so 8 phones and the table screen wait together, with room left for joins,
// moves, the page and the captive portal. The listener has a pool of its own. 16 cost 2,156 bytes
// of static RAM, which the heap gives up.
#define MEMP_NUM_TCP_PCB (16)

// lwIP's TCP timer, in ms (its default is 250). A request that reaches lwIP before the box has
// accepted its connection, as nearly every request does, is refused by MicroPython's lwIP glue until
// the connection is accepted, and lwIP offers it again only at this timer: a phone's move waited up
// to 250 ms before the box saw it. The rp2 port runs lwIP's timers every 64 ms, so 50 means every
// run. Every TCP timeout is counted in these ticks and keeps its length.
#define TCP_TMR_INTERVAL (50)
