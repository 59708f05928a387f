# A strict JSON check (RFC 8259) for request bodies, run before json.loads.
#
# MicroPython's json reader is lenient: it accepts trailing and missing commas ({"a":[1,2,4],},
# [1 2]), a missing colon, leading zeros ([07,0,0]), "1." and anything after a NUL. The box
# promises a 400 for anything malformed, so a body is checked here first, one byte at a time: no
# copy of it is made, only a small stack of the open brackets.
from micropython import const

MAX_DEPTH = const(16)  # a phone's request is an object holding a list at most

_VALUE = const(0)  # a value must come next
_VALUE_OR_CLOSE = const(1)  # just after "[": a value or "]"
_AFTER = const(2)  # after a value: "," or a closing bracket (or the end)
_KEY_OR_CLOSE = const(3)  # just after "{": a key or "}"
_KEY = const(4)  # after "," in an object: a key
_COLON = const(5)  # after a key
_END = const(6)  # the top value is complete: only whitespace may follow

_WHITESPACE = b" \t\n\r"
_ESCAPES = b'"\\/bfnrtu'
_HEX = b"0123456789abcdefABCDEF"


def _string(raw, i):
    """raw[i] is the opening quote: the index after the closing one. Control bytes (below 32) must
    be escaped; an escape must be one JSON knows."""
    i += 1
    count = len(raw)
    while i < count:
        byte = raw[i]
        if byte == 0x22:  # "
            return i + 1
        if byte < 0x20:
            raise ValueError("a control character in a string")
        if byte == 0x5C:  # backslash
            if i + 1 >= count or raw[i + 1] not in _ESCAPES:
                raise ValueError("an unknown escape")
            if raw[i + 1] == 0x75:  # \uXXXX
                for k in range(i + 2, i + 6):
                    if k >= count or raw[k] not in _HEX:
                        raise ValueError("a broken \\u escape")
                i += 6
            else:
                i += 2
        else:
            i += 1
    raise ValueError("a string is not closed")


def _digits(raw, i):
    start = i
    while i < len(raw) and 0x30 <= raw[i] <= 0x39:
        i += 1
    if i == start:
        raise ValueError("a number needs digits")
    return i


def _number(raw, i):
    """A number starts at raw[i]: the index after it. No leading zeros, no "+", no bare "." ends."""
    count = len(raw)
    if raw[i] == 0x2D:  # -
        i += 1
    if i < count and raw[i] == 0x30:  # a lone 0: "07" then fails on the 7 where a comma must be
        i += 1
    else:
        i = _digits(raw, i)
    if i < count and raw[i] == 0x2E:  # .
        i = _digits(raw, i + 1)
    if i < count and raw[i] in b"eE":
        i += 1
        if i < count and raw[i] in b"+-":
            i += 1
        i = _digits(raw, i)
    return i


def check(raw):
    """Raises ValueError unless the bytes `raw` are exactly one JSON value, optionally surrounded by
    whitespace. Strings are checked for JSON's rules, not for valid UTF-8 (decoding does that)."""
    stack = bytearray(MAX_DEPTH)  # b"{" or b"[" for each open bracket
    depth = 0
    state = _VALUE
    i = 0
    count = len(raw)
    while i < count:
        byte = raw[i]
        if byte in _WHITESPACE:
            i += 1
            continue
        if state == _END:
            raise ValueError("something follows the JSON value")
        closes = (byte == 0x5D and depth and stack[depth - 1] == 0x5B) or (
            byte == 0x7D and depth and stack[depth - 1] == 0x7B)  # ] closing [, } closing {
        if state in (_VALUE, _VALUE_OR_CLOSE):
            if byte == 0x5D and state == _VALUE_OR_CLOSE:
                depth -= 1
                i += 1
            elif byte == 0x7B or byte == 0x5B:  # { [
                if depth == MAX_DEPTH:
                    raise ValueError("nested too deeply")
                stack[depth] = byte
                depth += 1
                state = _KEY_OR_CLOSE if byte == 0x7B else _VALUE_OR_CLOSE
                i += 1
                continue
            elif byte == 0x22:
                i = _string(raw, i)
            elif byte == 0x2D or 0x30 <= byte <= 0x39:
                i = _number(raw, i)
            elif raw[i:i + 4] == b"true" or raw[i:i + 4] == b"null":
                i += 4
            elif raw[i:i + 5] == b"false":
                i += 5
            else:
                raise ValueError("a value was expected")
        elif state == _AFTER:
            if byte == 0x2C and depth:  # ,
                state = _KEY if stack[depth - 1] == 0x7B else _VALUE
                i += 1
                continue
            if not closes:
                raise ValueError("a comma or a closing bracket was expected")
            depth -= 1
            i += 1
        elif state in (_KEY_OR_CLOSE, _KEY):
            if byte == 0x7D and state == _KEY_OR_CLOSE:
                depth -= 1
                i += 1
            elif byte == 0x22:
                i = _string(raw, i)
                state = _COLON
                continue
            else:
                raise ValueError("a key was expected")
        else:  # _COLON
            if byte != 0x3A:
                raise ValueError("a colon was expected")
            state = _VALUE
            i += 1
            continue
        state = _AFTER if depth else _END  # a value (or a whole bracket) is complete
    if state != _END:
        raise ValueError("the JSON ends too early")
