# Reads the rp2 port's littlefs out of a flash image, as the chip would mount it, and prints its
# files as JSON: {"files": {path: text}} (each file's first 8 KB; one that is not text by its
# size), or {"error": why} when it does not mount. Runs under the MicroPython unix port (its
# VfsLfs2 is the firmware's littlefs code), as make_lfs.py does:
#   micropython read_lfs.py FLASH_IMG [OFFSET] [BLOCKS]
# The image is only read: its blocks are copied into RAM, and nothing is written back.
import json
import os
import sys
import vfs

from make_lfs import BLOCK, RamBlocks  # beside this file: the same block device, on the image's bytes


def walk(path, out):
    for name, kind, *_ in os.ilistdir(path):
        p = path + "/" + name
        if kind == 0x4000:
            walk(p, out)
        else:
            with open(p, "rb") as f:
                raw = f.read(8192)
            try:
                out[p[len("/lfs"):]] = raw.decode()
            except UnicodeError:
                out[p[len("/lfs"):]] = "<%d bytes, not text>" % len(raw)


def main():
    img = sys.argv[1]
    offset = int(sys.argv[2], 0) if len(sys.argv) > 2 else 0x12C000
    blocks = int(sys.argv[3]) if len(sys.argv) > 3 else 212
    with open(img, "rb") as f:
        f.seek(offset)
        data = bytearray(f.read(blocks * BLOCK))
    try:
        vfs.mount(vfs.VfsLfs2(RamBlocks(blocks, data), progsize=256, readsize=256), "/lfs")
    except OSError as e:
        print(json.dumps({"error": "littlefs does not mount: %r" % e}))
        return
    files = {}
    walk("/lfs", files)
    vfs.umount("/lfs")
    print(json.dumps({"files": files}))


main()
