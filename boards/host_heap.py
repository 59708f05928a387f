# The host board's heap probes for the tests, imported only when one is asked for (each module on
# the host board is heap the tests' Pico-sized budget pays for): the largest free block, and a heap
# held full on purpose (boards/host.py, Board.squeeze; host_sim.py's faults and ?gc=1 status).
import gc


def largest_free(ceiling):
    """The largest bytearray the heap can hold now (to 64 bytes), found by trying: MicroPython has no
    call that says how big its largest free block is, and fragmentation is what an evening's games
    leave behind. Each failed try costs a collection; nothing tried is kept."""
    low, high = 0, ceiling + 64  # low fits, high does not
    while high - low > 64:
        mid = (low + high) // 2
        try:
            block = bytearray(mid)
            del block
            low = mid
        except MemoryError:
            high = mid
    return low


def squeeze(board, leave):
    """Fill the heap until about `leave` bytes are free, and hold it so (board.ballast) until
    release() or the box restarts: whatever then needs more finds no memory, as on a heap left in
    pieces (the tests' way to make allocation fail where they choose). The pieces are chained in
    pairs, not listed: a list's growth would need ever larger blocks and stop the filling early."""
    gc.collect()
    chain = board.ballast  # filled on from what is held already
    size = 4096
    while size >= 16:
        try:
            while gc.mem_free() > leave + size:
                chain = (chain, bytearray(size))
        except MemoryError:
            pass
        size //= 4
    board.ballast = chain


def release(board):
    board.ballast = None
    gc.collect()
