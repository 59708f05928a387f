"""The chunked JSON writer gives exactly the JSON of the value, in bounded pieces, on both interpreters."""

import json
import random

from tidebox import jsonstream


def random_value(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.4:
        return rng.choice([None, True, False, 0, -5, 10**12, 3.5, 'a"b\n<\\', "", "ü"])
    if r < 0.7:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(6))]
    return {"k%d" % i: random_value(rng, depth + 1) for i in range(rng.randrange(6))}


def test_chunks_round_trip_and_stay_small_cpython():
    rng = random.Random(5)
    for _ in range(2000):
        value = random_value(rng)
        pieces = list(jsonstream.chunks(value))
        assert json.loads(b"".join(pieces)) == value
        assert all(len(p) < jsonstream.CHUNK + 64 for p in pieces[:-1]) or len(pieces) == 1


def test_chunks_same_under_micropython(mp):
    rng = random.Random(6)
    values = [[random_value(rng)] for _ in range(300)]
    results = mp.call_many("mp_jsonstream", "joined", values, heap="4M")
    for (value,), result in zip(values, results):
        assert json.loads(result["ok"]) == value
