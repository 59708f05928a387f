# JSON written in pieces of about CHUNK bytes (bytearrays), for answers that grow with the game (the full view
# of an 8-player game is ~3.5 KB). One big json.dumps() string plus its bytes copy needs a large
# contiguous block, which a long-running, fragmented Pico heap may not have; small pieces always fit.
# Walks the value with an explicit stack: nested generators cost more heap than they save.
import json

from micropython import const

CHUNK = const(256)


def chunks(value):
    """Yields the JSON text of `value` as bytes chunks of about CHUNK bytes."""
    out = bytearray()
    # Stack entries: [container, keys or None, next index]
    stack = []
    pending = value
    while True:
        if pending is not None or stack == []:
            item = pending
            pending = None
            if isinstance(item, dict):
                out.extend(b"{")
                stack.append([item, list(item), 0])
            elif isinstance(item, (list, tuple)):
                out.extend(b"[")
                stack.append([item, None, 0])
            else:
                out.extend(json.dumps(item).encode())
        if not stack:
            break
        top = stack[-1]
        container, keys, index = top
        length = len(keys) if keys is not None else len(container)
        if index >= length:
            out.extend(b"}" if keys is not None else b"]")
            stack.pop()
            if not stack:
                break
            continue
        if index:
            out.extend(b",")
        top[2] = index + 1
        if keys is not None:
            out.extend(json.dumps(str(keys[index])).encode())
            out.extend(b":")
            child = container[keys[index]]
        else:
            child = container[index]
        if isinstance(child, (dict, list, tuple)):
            pending = child
        else:
            out.extend(json.dumps(child).encode())
        if len(out) >= CHUNK:
            yield out  # handed over whole, never changed afterwards: no copy needed
            out = bytearray()
    if out:
        yield out
