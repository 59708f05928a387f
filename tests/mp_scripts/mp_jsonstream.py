# Joins jsonstream's chunks into one string, for the host test that compares them with CPython's JSON.
from tidebox import jsonstream


def joined(value):
    return b"".join(jsonstream.chunks(value)).decode()
