# A small seeded random source that gives the same numbers under CPython and MicroPython
# (their `random` modules differ), so a whole game is reproducible from one seed.
# xorshift32 (Marsaglia 2003): plenty for shuffling six cards, not for secrets.

_MASK = 0xFFFFFFFF


class Seeded:
    def __init__(self, seed):
        self.state = (seed & _MASK) or 0x9E3779B9  # xorshift must never hold zero

    def next32(self):
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x
        return x

    def below(self, n):
        """A uniform int in [0, n), by rejection so that no value is favoured."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n
