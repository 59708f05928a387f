# Captive-portal DNS for the hotspot: every A query is answered with the box's own address, so a
# phone that joins looks up its connectivity-check host, reaches the box's web server and opens the
# captive portal. Other query types get an empty NOERROR answer (no such record), other opcodes a
# header-only NOTIMP; responses, truncated or malformed packets and oversized datagrams are dropped.
# `answer()` is pure and runs under CPython too; `CaptiveDNS.run()` needs MicroPython's asyncio.
import errno
import socket

try:
    import asyncio
    from micropython import const
except ImportError:  # CPython (host tests of answer())

    def const(x):
        return x


_TTL = const(60)  # seconds; short, so phones forget the box's answers soon after leaving
_MAX_PACKET = const(512)  # classic DNS over UDP; longer datagrams are not for us
_IDLE_MS = const(20)  # poll interval when asyncio's IO queue is not usable
_ERROR_MS = const(100)  # back-off after an unexpected socket error
_QTYPE_A = const(1)
_QTYPE_ANY = const(255)
_QCLASS_IN = const(1)
_QCLASS_ANY = const(255)
_RCODE_NOTIMP = const(4)


def ip_bytes(ip):
    """'192.168.4.1' (or 4 bytes) -> b'\\xc0\\xa8\\x04\\x01'."""
    if isinstance(ip, str):
        parts = [int(p) for p in ip.split(".")]
        if len(parts) != 4 or min(parts) < 0 or max(parts) > 255:
            raise ValueError("bad IPv4 address")
        return bytes(parts)
    if len(ip) != 4:
        raise ValueError("bad IPv4 address")
    return bytes(ip)


def answer(query, ip):
    """The response to the DNS packet `query` (bytes), pointing every A query at the 4-byte `ip`;
    None when the packet is to be dropped."""
    n = len(query)
    if n < 12 or n > _MAX_PACKET:
        return None
    flags = query[2]  # QR | opcode(4) | AA | TC | RD
    if flags & 0x80:  # a response: never answer one (two captive resolvers would ping-pong)
        return None
    opcode = (flags >> 3) & 0x0F
    rd = flags & 0x01
    if opcode != 0:  # not a standard query: NOTIMP, header only
        return bytes((query[0], query[1], 0x80 | (opcode << 3) | rd, 0x80 | _RCODE_NOTIMP,
                      0, 0, 0, 0, 0, 0, 0, 0))
    if query[4] != 0 or query[5] != 1:  # exactly one question, as every resolver sends
        return None
    i = 12
    while True:  # QNAME: labels of 1..63 bytes, then a zero byte; no compression in a question
        if i >= n:
            return None
        length = query[i]
        if length == 0:
            break
        if length > 63:
            return None
        i += length + 1
    i += 1
    if i - 12 > 255 or i + 4 > n:
        return None
    qtype = (query[i] << 8) | query[i + 1]
    qclass = (query[i + 2] << 8) | query[i + 3]
    end = i + 4
    found = qtype in (_QTYPE_A, _QTYPE_ANY) and qclass in (_QCLASS_IN, _QCLASS_ANY)
    # Header: same ID; QR, AA, RD copied, RA; NOERROR; one question, one answer or none.
    head = bytes((query[0], query[1], 0x84 | rd, 0x80, 0, 1, 0, 1 if found else 0, 0, 0, 0, 0))
    question = bytes(query[12:end])
    if not found:
        return head + question
    # The answer names the question by a pointer to offset 12, type A, class IN, TTL, 4 bytes.
    return b"".join((head, question, b"\xc0\x0c\x00\x01\x00\x01",
                     bytes((0, 0, _TTL >> 8, _TTL & 0xFF, 0, 4)), bytes(ip)))


class CaptiveDNS:
    """The hotspot's DNS server: `asyncio.create_task(CaptiveDNS("192.168.4.1").run())`."""

    def __init__(self, ip, port=53, host="0.0.0.0"):
        self.ip = ip_bytes(ip)
        self.port = port
        self.host = host
        self.answered = 0  # packets answered
        self.dropped = 0  # packets ignored
        self.io_queue = True  # False: poll the socket every _IDLE_MS instead of asyncio's IO queue
        self._stopping = False
        self._waiting = None  # the run() task while it is parked waiting for a packet

    async def run(self):
        """Serve until stop(). Each packet is handled as soon as it arrives when asyncio's IO queue
        can be used; otherwise the socket is polled every _IDLE_MS. (MicroPython's asyncio has no UDP
        streams: the task waits in asyncio's IO queue as the web server's accept does.)"""
        from tidebox.asyncio_shim import io_queue, readable

        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(socket.getaddrinfo(self.host, self.port)[0][-1])
            sock.setblocking(False)
            queued = self.io_queue and io_queue()
            self._stopping = False
            while not self._stopping:
                try:
                    packet, addr = sock.recvfrom(_MAX_PACKET + 1)
                except OSError as e:
                    if e.errno != errno.EAGAIN:
                        await asyncio.sleep_ms(_ERROR_MS)
                    elif queued:
                        self._waiting = asyncio.current_task()
                        try:
                            await readable(sock)
                        except asyncio.CancelledError:
                            if not self._stopping:
                                raise
                        finally:
                            self._waiting = None
                    else:
                        await asyncio.sleep_ms(_IDLE_MS)
                    continue
                reply = answer(packet, self.ip)
                if reply is None:
                    self.dropped += 1
                else:
                    try:
                        sock.sendto(reply, addr)
                        self.answered += 1
                    except OSError:
                        self.dropped += 1
                await asyncio.sleep_ms(0)  # a flood of queries must not starve the other tasks
        finally:
            sock.close()

    def stop(self):
        """Make run() close its socket and return (it wakes at once if it is waiting)."""
        self._stopping = True
        task = self._waiting
        if task is not None:
            self._waiting = None
            task.cancel()
