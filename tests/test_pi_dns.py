"""The Raspberry Pi box's captive DNS beside NetworkManager's: in shared mode NetworkManager runs
dnsmasq on the hotspot (DHCP and port 53), started with the options below and reading the drop-ins
of /etc/NetworkManager/dnsmasq-shared.d; the board's drop-in (boards/pi_bonnet.py) sends every name
to the firmware's captive DNS. Here a real dnsmasq, started as NetworkManager starts it (on loopback
and a free port instead of the hotspot's address and 53, without DHCP), with that drop-in, in front of
a box running the firmware on both interpreters: a phone's lookups come back as the box's address."""

import os
import shutil
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from boxrig import INTERPRETERS, free_port

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "boards"))
import pi_bonnet  # noqa: E402 - CPython only (the Pi board), from boards/
import pi_system  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("dnsmasq") is None,
                                reason="dnsmasq is not installed (Debian's dnsmasq-base)")
BOX_IP = "192.168.4.1"
A, AAAA = 1, 28


def query(name, qtype, qid):
    header = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    labels = b"".join(bytes([len(part)]) + part.encode() for part in name.split(".")) + b"\x00"
    return header + labels + struct.pack(">HH", qtype, 1)


def ask(port, name, qtype=A, qid=7, timeout=3):
    """(rcode, answer count, the last 4 bytes) of dnsmasq's answer; None if none came."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(timeout)
        sock.sendto(query(name, qtype, qid), ("127.0.0.1", port))
        try:
            reply, _ = sock.recvfrom(512)
        except TimeoutError:
            return None
    assert struct.unpack(">H", reply[:2])[0] == qid
    return reply[3] & 0x0F, struct.unpack(">H", reply[6:8])[0], reply[-4:]


def free_for_dns():
    """A port free for UDP and for TCP: dnsmasq listens on both."""
    while True:
        port = free_port(socket.SOCK_DGRAM)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue


@pytest.fixture
def dnsmasq(tmp_path):
    """Starts dnsmasq as NetworkManager's shared mode does, with the board's drop-in for a box's DNS
    port; yields start(dns_port) -> dnsmasq's port."""
    procs = []

    def start(dns_port):
        conf_dir = tmp_path / "dnsmasq-shared.d"
        conf_dir.mkdir()
        settings = dict(pi_bonnet.DEFAULTS, dns_port=dns_port)
        (conf_dir / "tidebox.conf").write_text(pi_system.dnsmasq_dropin(settings))
        port = free_for_dns()
        # NetworkManager's own options (nm-dnsmasq-manager.c), less DHCP and the hotspot's address
        command = ["dnsmasq", "--conf-file=/dev/null", "--no-hosts", "--keep-in-foreground",
                   "--bind-interfaces", "--clear-on-reload", "--strict-order", "--listen-address=127.0.0.1",
                   "--port=%d" % port, "--pid-file=%s" % (tmp_path / "dnsmasq.pid"),
                   "--conf-dir=%s" % conf_dir]
        if os.geteuid() == 0:
            command.append("--user=root")  # as root it would switch to a user "dnsmasq" (none here)
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        procs.append(proc)
        deadline = time.monotonic() + 10
        while ask(port, "probe.test", timeout=0.3) is None:
            assert proc.poll() is None, proc.stdout.read().decode()
            assert time.monotonic() < deadline, "dnsmasq did not answer"
        return port

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(5)


@pytest.mark.parametrize("interpreter", INTERPRETERS)
def test_networkmanagers_dnsmasq_answers_every_name_with_the_box(new_box, dnsmasq, interpreter):
    box = new_box(interpreter=interpreter, env={"TIDEBOX_IP": BOX_IP})
    port = dnsmasq(box.dns_port)
    names = ["connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com", "example.org"]
    for qid, name in enumerate(names):
        assert ask(port, name, A, qid) == (0, 1, socket.inet_aton(BOX_IP)), name
    rcode, answers, _ = ask(port, "captive.apple.com", AAAA, 99)
    assert (rcode, answers) == (0, 0)  # no IPv6 address: the phone uses the box's IPv4 one
    # Nothing is asked of the Pi's own resolvers: with the box gone, a new name gets no address.
    box.kill()
    answer = ask(port, "elsewhere.example.net", A, 100)
    assert answer is None or answer[1] == 0
