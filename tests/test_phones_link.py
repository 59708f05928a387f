"""phones_ppp, the host end of the emulated Pico W's PPP link, built from the vendored lwIP sources and
Debian's liblwip-dev headers (host_tools/rp2040/phones_link.py), and a short PPP exchange with it in
place of the chip: LCP and IPCP up, then a phone's connection arrives as a TCP SYN to the chip's port
80, sent again after about 1 s of the chip's time (LWIP_TCP_RTO_TIME), not lwIP 2.1's 3 s."""

import os
import select
import shutil
import socket
import struct
import subprocess
import sys

import pytest

import build

sys.path.insert(0, str(build.ROOT / "host_tools" / "rp2040"))
import phones_link  # noqa: E402

CHIP, HOST = "192.168.4.1", "192.168.4.2"
LCP, IPCP, IP = 0xC021, 0x8021, 0x0021
CONF_REQ, CONF_ACK, CONF_NAK = 1, 2, 3


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    return phones_link.build(tmp_path_factory.mktemp("link") / "phones_ppp")


def fcs16(data):
    fcs = 0xFFFF
    for b in data:
        fcs ^= b
        for _ in range(8):
            fcs = (fcs >> 1) ^ 0x8408 if fcs & 1 else fcs >> 1
    return fcs


def frame(protocol, payload):
    """One HDLC-like frame (RFC 1662) as the chip sends it: address, control, protocol, all escaped."""
    body = bytes([0xFF, 0x03]) + struct.pack(">H", protocol) + payload
    body += struct.pack("<H", fcs16(body) ^ 0xFFFF)
    out = bytearray([0x7E])
    for b in body:
        out += bytes([0x7D, b ^ 0x20]) if b < 0x20 or b in (0x7D, 0x7E) else bytes([b])
    return bytes(out + b"\x7e")


def unframe(raw):
    """(protocol, payload) of one frame's bytes between flags, or None when its FCS is wrong."""
    data, escape = bytearray(), False
    for b in raw:
        if escape:
            data.append(b ^ 0x20)
            escape = False
        elif b == 0x7D:
            escape = True
        else:
            data.append(b)
    if len(data) < 4 or fcs16(data) != 0xF0B8:
        return None
    data = data[:-2]
    if data[:2] == b"\xff\x03":
        data = data[2:]
    if data[0] & 1:
        return data[0], bytes(data[1:])
    return (data[0] << 8) | data[1], bytes(data[2:])


class Link:
    """phones_ppp on pipes, with this test as the chip and its clock."""

    def __init__(self, binary):
        self.proc = subprocess.Popen([str(binary), "--port", "0", "--chip", CHIP, "--host", HOST],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.us, self.pending, self.lines = 0, b"", []
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stderr.fileno(), False)
        self._err = b""

    def send(self, kind, data=b""):
        self.proc.stdin.write(kind + struct.pack(">QH", self.us, len(data)) + data)
        self.proc.stdin.flush()

    def chip_sends(self, protocol, payload):
        self.send(b"D", frame(protocol, payload))

    def tick(self, ms):
        self.us += int(ms * 1000)
        self.send(b"T")

    def frames(self, wait_s=0.2):
        """The frames phones_ppp has sent down the line within `wait_s`."""
        ready, _, _ = select.select([self.proc.stdout, self.proc.stderr], [], [], wait_s)
        for f in ready:
            chunk = os.read(f.fileno(), 65536)
            if f is self.proc.stderr:
                self._err += chunk
                *done, self._err = self._err.split(b"\n")
                self.lines += [line.decode() for line in done]
            else:
                self.pending += chunk
        *whole, self.pending = self.pending.split(b"\x7e")
        return [f for f in (unframe(raw) for raw in whole if raw) if f]

    def close(self):
        self.proc.stdin.close()
        rc = self.proc.wait(10)
        self.frames(0)
        return rc


def bring_up(link):
    """LCP and IPCP as the chip's network.PPP negotiates them; returns phones_ppp's stderr lines."""
    link.chip_sends(LCP, bytes([CONF_REQ, 1]) + struct.pack(">H", 4))
    lcp_acked = ipcp_acked = ipcp_sent = False
    for _ in range(50):
        for protocol, p in link.frames():
            if protocol in (LCP, IPCP) and p[0] == CONF_REQ:  # the chip takes what phones_ppp asks for
                link.chip_sends(protocol, bytes([CONF_ACK]) + p[1:])
            elif protocol == LCP and p[0] == CONF_ACK:
                lcp_acked = True
            elif protocol == IPCP and p[0] == CONF_ACK:
                ipcp_acked = True
            elif protocol == IPCP and p[0] == CONF_NAK:
                raise AssertionError("phones_ppp would not give the chip %s: %r" % (CHIP, p))
        if lcp_acked and not ipcp_sent:
            ipcp_sent = True  # the chip asks for the address it is to have
            option = bytes([3, 6]) + socket.inet_aton(CHIP)
            link.chip_sends(IPCP, bytes([CONF_REQ, 1]) + struct.pack(">H", 4 + len(option)) + option)
        if ipcp_acked and any(line.startswith("phones-ppp: link up") for line in link.lines):
            return link.lines
        link.tick(10)
    raise AssertionError("no link: LCP acked %s, IPCP acked %s; stderr %s"
                         % (lcp_acked, ipcp_acked, link.lines))


def syn_to_chip(protocol, p):
    if protocol != IP or len(p) < 40 or p[9] != 6:
        return None
    ihl = (p[0] & 15) * 4
    src, dst = socket.inet_ntoa(p[12:16]), socket.inet_ntoa(p[16:20])
    sport, dport, seq = struct.unpack(">HHI", p[ihl:ihl + 8])
    flags = p[ihl + 13]
    return (src, dst, dport, seq) if flags & 0x02 else None


def test_it_builds_and_says_how_it_is_used(binary):
    proc = subprocess.run([str(binary), "--speed", "9"], capture_output=True, text=True, timeout=10)
    assert proc.returncode == 2
    assert "usage: phones_ppp" in proc.stderr


def test_it_listens_for_phones_and_ends_when_the_emulator_does(binary):
    link = Link(binary)
    assert link.close() == 0
    assert any(line.startswith("phones-ppp: phones on ") for line in link.lines), link.lines


def test_the_chip_gets_its_link_and_a_phone_s_connection_is_a_syn_sent_again_after_1_s(binary):
    link = Link(binary)
    try:
        lines = bring_up(link)
        assert "phones-ppp: link up %s" % CHIP in lines
        port = int(next(x for x in lines if x.startswith("phones-ppp: phones on ")).split()[-1])
        phone = socket.create_connection(("127.0.0.1", port), timeout=5)
        syns = []
        for _ in range(40):  # 4 s of the chip's time
            syns += [(link.us, syn) for syn in (syn_to_chip(*f) for f in link.frames(0.05)) if syn]
            if len(syns) >= 2:
                break
            link.tick(100)
        phone.close()
        assert syns, "no SYN to the chip; stderr %s" % link.lines
        (t0, first), *_ = syns
        assert first[:3] == (HOST, CHIP, 80)
        assert len(syns) >= 2, "the SYN was not sent again within 4 s of the chip's time"
        (t1, again) = syns[1]
        assert again == first
        # lwIP counts its RTO in ticks of its 500 ms slow timer: 1 s is 2 ticks, the first of them
        # anywhere in the 500 ms after the SYN; lwIP 2.1's own 3 s would be 3 to 3.5 s
        assert 400_000 <= t1 - t0 <= 1_600_000, "sent again after %d ms" % ((t1 - t0) // 1000)
    finally:
        link.close()


def test_it_is_compiled_again_only_when_its_sources_or_command_change(binary, tmp_path, monkeypatch, capsys):
    before = binary.stat().st_ino
    assert phones_link.build(binary) == binary
    assert binary.stat().st_ino == before and "+ cc" not in capsys.readouterr().out
    src = tmp_path / "phones_ppp"
    shutil.copytree(phones_link.SRC, src)
    monkeypatch.setattr(phones_link, "SRC", src)
    digest = phones_link.digest(binary)
    with open(src / "lwipopts.h", "a") as f:
        f.write("/* a change */\n")
    assert phones_link.digest(binary) != digest
    assert phones_link.build(binary) == binary  # the edited lwipopts.h: built again, into a new file
    assert "+ cc" in capsys.readouterr().out and binary.stat().st_ino != before
    assert not list(binary.parent.glob("*.new.*"))
