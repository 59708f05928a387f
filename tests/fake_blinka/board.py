"""Blinka's `board` for the tests' stand-in Pi (tests/test_pi_boot.py): the Raspberry Pi's pin names.
Put first on the path of a box started with boards/cpython_main.py --board pi_bonnet."""

SDA = 2
SCL = 3
for _n in range(28):
    globals()["D%d" % _n] = _n
