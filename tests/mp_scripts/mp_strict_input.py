# Names and request bodies checked the way the box checks them, for tests/test_box_api.py: the same
# functions under MicroPython as under CPython. Bytes travel as hex (the driver speaks JSON).
import binascii

from tidebox import jsoncheck
from tidebox.games.base import GameError, check_name, folded


def json_ok(hex_body):
    try:
        jsoncheck.check(binascii.unhexlify(hex_body))
        return True
    except ValueError:
        return False


def fold(name):
    return binascii.hexlify(folded(name)).decode()


def name_check(name, taken):
    try:
        return ["ok", check_name(name, taken)]
    except GameError as e:
        return [e.status, e.message]
