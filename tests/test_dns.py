"""The captive-portal DNS responder (firmware/tidebox/dns.py).

answer() is checked on packets built here with struct, under CPython and under MicroPython (which
must agree byte for byte); CaptiveDNS is run in a MicroPython process on a loopback UDP port and
queried from here, garbage included.
"""

import json
import random
import select
import socket
import struct
import subprocess
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from micropython_runner import MP_SCRIPTS
from tidebox import dns

IP = bytes((192, 168, 4, 1))
A, AAAA, ANY, HTTPS = 1, 28, 255, 65


def question(name, qtype=A, qclass=1):
    labels = b"".join(bytes((len(p),)) + p.encode() for p in name.split(".") if p)
    return labels + b"\x00" + struct.pack(">HH", qtype, qclass)


def query(name, qtype=A, qid=0x1234, flags=0x0100, qclass=1, qdcount=1, additional=b"", arcount=0):
    header = struct.pack(">HHHHHH", qid, flags, qdcount, 0, 0, arcount)
    return header + question(name, qtype, qclass) + additional


# An EDNS(0) OPT record as resolvers append: root name, type 41, 1232-byte UDP payload.
OPT = b"\x00" + struct.pack(">HHIH", 41, 1232, 0, 0)


def parse(reply):
    """(id, flags, counts, question bytes, answers [(name ptr, type, class, ttl, rdata)])."""
    qid, flags, qd, an, ns, ar = struct.unpack(">HHHHHH", reply[:12])
    i = 12
    for _ in range(qd):
        while reply[i]:
            i += reply[i] + 1
        i += 5
    q = reply[12:i]
    answers = []
    for _ in range(an):
        ptr, rtype, rclass, ttl, rdlen = struct.unpack(">HHHIH", reply[i:i + 12])
        answers.append((ptr, rtype, rclass, ttl, reply[i + 12:i + 12 + rdlen]))
        i += 12 + rdlen
    assert i == len(reply), "trailing bytes"
    return qid, flags, (qd, an, ns, ar), q, answers


# ---------------------------------------------------------------------------------------------
# answer()


def test_a_query_gets_the_box_address():
    q = query("connectivitycheck.gstatic.com", qid=0xBEEF)
    qid, flags, counts, qsec, answers = parse(dns.answer(q, IP))
    assert qid == 0xBEEF
    assert flags == 0x8580  # response, authoritative, recursion desired (copied) and available, NOERROR
    assert counts == (1, 1, 0, 0)
    assert qsec == question("connectivitycheck.gstatic.com")
    assert answers == [(0xC00C, A, 1, 60, IP)]


def test_case_and_flags_are_kept():
    q = query("CaPtIvE.ApPlE.CoM", flags=0x0000)  # no recursion desired
    qid, flags, counts, qsec, answers = parse(dns.answer(q, IP))
    assert flags == 0x8480 and qsec == question("CaPtIvE.ApPlE.CoM") and answers[0][4] == IP


def test_edns_query_is_answered_without_opt():
    q = query("example.org", additional=OPT, arcount=1)
    _, flags, counts, _, answers = parse(dns.answer(q, IP))
    assert flags & 0x000F == 0 and counts == (1, 1, 0, 0) and answers[0][4] == IP


@pytest.mark.parametrize("qtype", [AAAA, HTTPS, 16, 15])
def test_other_types_get_an_empty_noerror(qtype):
    _, flags, counts, qsec, answers = parse(dns.answer(query("example.org", qtype), IP))
    assert flags & 0x000F == 0 and counts == (1, 0, 0, 0) and answers == []
    assert qsec == question("example.org", qtype)


def test_any_gets_the_address_and_chaos_class_does_not():
    assert parse(dns.answer(query("example.org", ANY), IP))[4] == [(0xC00C, A, 1, 60, IP)]
    assert parse(dns.answer(query("version.bind", 16, qclass=3), IP))[2] == (1, 0, 0, 0)


def test_root_name():
    _, _, counts, qsec, answers = parse(dns.answer(query("."), IP))
    assert qsec == b"\x00\x00\x01\x00\x01" and answers[0][4] == IP


@pytest.mark.parametrize("opcode", [1, 2, 4, 5, 15])
def test_other_opcodes_get_notimp(opcode):
    reply = dns.answer(query("example.org", flags=(opcode << 11) | 0x0100, qid=7), IP)
    assert reply == struct.pack(">HHHHHH", 7, 0x8000 | (opcode << 11) | 0x0100 | 0x80 | 4, 0, 0, 0, 0)


HEADER = struct.pack(">HHHHHH", 1, 0x100, 1, 0, 0, 0)


DROPPED = {
    "empty": b"",
    "short header": b"\x12\x34\x01\x00\x00\x01",
    "response": query("example.org", flags=0x8180),
    "no question": query("example.org", qdcount=0),
    "two questions": query("example.org", qdcount=2),
    "label over 63": HEADER + b"\x40" + b"a" * 64 + b"\x00\x00\x01\x00\x01",
    "compression pointer": HEADER + b"\xc0\x0c\x00\x01\x00\x01",
    "name runs off the end": query("example.org")[:20],
    "no type and class": query("example.org")[:-3],
    "name over 255": HEADER + (b"\x3f" + b"a" * 63) * 4 + b"\x00\x00\x01\x00\x01",
    "over 512 bytes": query("example.org", additional=b"\x00" * 600, arcount=1),
}


@pytest.mark.parametrize("name", sorted(DROPPED))
def test_garbage_is_dropped(name):
    assert dns.answer(DROPPED[name], IP) is None


def test_longest_legal_name_is_answered():
    name = ".".join(["a" * 63] * 3 + ["b" * 61])  # 253 characters, 255 bytes encoded
    assert len(question(name)) - 4 == 255
    assert parse(dns.answer(query(name), IP))[4][0][4] == IP


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_never_raise(packet):
    reply = dns.answer(packet, IP)
    if reply is not None:
        parse(reply)
        assert reply[:2] == packet[:2]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abcXYZ019-_", min_size=1, max_size=20), min_size=1, max_size=5),
       st.sampled_from([A, AAAA, ANY, HTTPS]), st.integers(0, 0xFFFF))
def test_any_well_formed_query_is_answered(labels, qtype, qid):
    q = query(".".join(labels), qtype, qid=qid)
    got_id, flags, counts, qsec, answers = parse(dns.answer(q, IP))
    assert got_id == qid and flags & 0x800F == 0x8000 and qsec == q[12:]
    assert answers == ([(0xC00C, A, 1, 60, IP)] if qtype in (A, ANY) else [])


def test_ip_bytes():
    assert dns.ip_bytes("192.168.4.1") == IP
    assert dns.ip_bytes(IP) == IP
    for bad in ("192.168.4", "1.2.3.256", b"\x01\x02\x03"):
        with pytest.raises(ValueError):
            dns.ip_bytes(bad)


def test_micropython_agrees_with_cpython(mp):
    rnd = random.Random(53)
    packets = list(DROPPED.values())
    packets += [query(n, t) for n in ("connectivitycheck.gstatic.com", "example.org", "Captive.Apple.com")
                for t in (A, AAAA, ANY, HTTPS)]
    packets += [query("example.org", additional=OPT, arcount=1), query("example.org", flags=0x2900)]
    base = query("www.example.org")
    for _ in range(300):  # mutated queries and random bytes
        p = bytearray(base)
        for _ in range(rnd.randrange(1, 4)):
            p[rnd.randrange(len(p))] = rnd.randrange(256)
        packets.append(bytes(p[:rnd.randrange(len(p) + 1)] if rnd.random() < 0.3 else p))
        packets.append(bytes(rnd.randrange(256) for _ in range(rnd.randrange(40))))
    stdin = "192.168.4.1\n" + "".join(p.hex() + "\n" for p in packets)
    proc = mp.run(MP_SCRIPTS / "dns_answer.py", stdin)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    replies = proc.stdout.splitlines()
    assert sum(r != "-" for r in replies) > 20 and sum(r == "-" for r in replies) > 20
    for packet, reply in zip(packets, replies, strict=True):
        want = dns.answer(packet, IP)
        assert reply == ("-" if want is None else want.hex()), packet.hex()


# ---------------------------------------------------------------------------------------------
# The server, end to end on loopback


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_line(proc, timeout):
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "no output from the DNS server within %.0f s" % timeout
    return proc.stdout.readline()


def ask(client, port, packet, tries=3):
    """Send packet, return the reply (retrying a lost datagram a few times)."""
    for _ in range(tries):
        client.sendto(packet, ("127.0.0.1", port))
        try:
            reply, _ = client.recvfrom(1024)
            return reply
        except TimeoutError:
            continue
    raise AssertionError("no DNS reply")


@pytest.mark.parametrize("mode", ["io_queue", "poll"])
def test_server_end_to_end(mp, mode):
    port = free_udp_port()
    env = mp.env({"DNS_PORT": str(port), "DNS_HOST": "127.0.0.1", "DNS_IP": "192.168.4.1",
                  "DNS_POLL": "1" if mode == "poll" else "0", "DNS_SECONDS": "60"})
    # The server alone, on a small heap: it waits on its socket with asyncio_shim.readable, and
    # importing tidebox.transport brings microdot's server with it (on the box it is loaded anyway).
    proc = subprocess.Popen([mp.executable, "-X", "heapsize=80K", str(MP_SCRIPTS / "dns_serve.py")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client.settimeout(2)
    try:
        assert read_line(proc, 20).strip() == "ready"
        rtts = []
        for i, name in enumerate(["connectivitycheck.gstatic.com", "example.org"] * 10):
            t0 = time.perf_counter()
            reply = ask(client, port, query(name, qid=i))
            rtts.append((time.perf_counter() - t0) * 1000)
            qid, _, _, qsec, answers = parse(reply)
            assert qid == i and qsec == question(name) and answers == [(0xC00C, A, 1, 60, IP)]
        rtts.sort()
        print("%s: median round trip %.2f ms, max %.2f ms" % (mode, rtts[len(rtts) // 2], rtts[-1]))
        for packet in DROPPED.values():  # garbage: no reply, and the server carries on
            client.sendto(packet, ("127.0.0.1", port))
        reply = ask(client, port, query("example.org", AAAA, qid=99))
        assert parse(reply)[0] == 99 and parse(reply)[2] == (1, 0, 0, 0)  # not a reply to garbage
        assert parse(ask(client, port, query("example.org", qid=100)))[4][0][4] == IP
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        stats = json.loads(read_line(proc, 10))
        assert proc.wait(10) == 0
        assert stats["stopped"] and stats["answered"] >= 22 and stats["dropped"] >= len(DROPPED) - 1
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()


def test_cpython_import_has_no_side_effects():
    # The module imports on CPython for answer(); constructing the server must not open a socket.
    server = dns.CaptiveDNS("192.168.4.1", 5353, "127.0.0.1")
    assert server.ip == IP and server.answered == 0
