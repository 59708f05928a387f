# Writes a littlefs image of a folder, as the rp2 port's flash filesystem holds it. Runs under the
# MicroPython unix port (its VfsLfs2 is the same littlefs code as the firmware's), so no other tool
# is needed:  micropython make_lfs.py SRC_DIR OUT_IMG [BLOCKS]
# The RPI_PICO_W filesystem: 212 blocks of 4096 bytes (848 KB); rp2 mounts it with progsize=256.
import os
import sys
import vfs

BLOCK = 4096


class RamBlocks:
    """A littlefs block device in RAM: erased flash, or `data` (a flash image's blocks) to read."""

    def __init__(self, count, data=None):
        self.count = count
        self.data = bytearray(b"\xff" * (BLOCK * count)) if data is None else data  # erased flash

    def readblocks(self, n, buf, off=0):
        start = n * BLOCK + off
        buf[:] = self.data[start:start + len(buf)]

    def writeblocks(self, n, buf, off=None):
        start = n * BLOCK + (off or 0)
        self.data[start:start + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.count
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase
            self.data[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
            return 0
        return 0


def copy(src, dst):
    for name, kind, *_ in os.ilistdir(src):
        s = src + "/" + name
        d = dst + "/" + name
        if kind == 0x4000:
            os.mkdir(d)
            copy(s, d)
        else:
            with open(s, "rb") as fi, open(d, "wb") as fo:
                fo.write(fi.read())


def main():
    src, out = sys.argv[1], sys.argv[2]
    blocks = int(sys.argv[3]) if len(sys.argv) > 3 else 212
    dev = RamBlocks(blocks)
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    vfs.mount(vfs.VfsLfs2(dev, progsize=256), "/lfs")
    copy(src, "/lfs")
    vfs.umount("/lfs")
    with open(out, "wb") as f:
        f.write(dev.data)


if __name__ == "__main__":
    main()
