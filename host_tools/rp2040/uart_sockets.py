# The phones' sockets on the emulated Pico W (make sim-pico): rp2040js has no CYW43439, so the box's
# TCP goes over UART0 (GP0 TX, GP1 RX, 1,000,000 baud) to pico_sim.mjs, which holds the phones' real
# TCP connections on the machine running the emulator. sim_board.py installs this module as
# sys.modules["socket"] before the box starts its web server. It offers what the box's web server
# (tidebox/transport.py, BoxServer.start_server) and asyncio's streams use: getaddrinfo, socket(),
# setblocking, setsockopt, bind, listen, accept (OSError EAGAIN when no connection waits), and the
# connections' read, readinto and write (None: would block, as asyncio expects), close; and each
# socket is an io.IOBase whose ioctl answers MP_STREAM_POLL, so select.poll and asyncio's IO queue
# wait on it like on an lwIP socket. The UART is pumped whenever a socket is polled or read and
# uart.any() says bytes came (the poll loop calls ioctl for every waiting socket on every pass, and
# the UART's receive interrupt wakes it). The receive interrupt is asked for with an IRQ_RXIDLE
# trigger (no handler): the rp2 driver then sets the RX FIFO's trigger level to 3/4 (24 bytes)
# instead of 1/8 (4), and the receive timeout (32 bit periods without a byte, 32 us at 1,000,000
# baud) brings the rest, so a phone's 110-byte poll wakes the core about 6 times instead of 28. A
# poll that finds nothing calls uart.any() once per socket and allocates nothing.
#
# The frames, both ways (the same in pico_sim.mjs):
#   0xA5, kind, id, length (16 bits, big-endian), then `length` bytes of payload for DATA and HELLO
#   kind 0 HELLO  chip -> host: the bridge is up (after every boot and soft reset); payload: the
#                 window (2 bytes). The host drops every connection it had and starts afresh.
#        1 OPEN   host -> chip: a phone's new connection `id` (1-255); the length field is the
#                 phone's TCP port (no payload).
#        2 DATA   both ways: bytes of connection `id`. Host -> chip only within the window: at most
#                 WINDOW bytes the box has not read yet, per connection.
#        3 CLOSE  host -> chip: the phone sent its FIN or went away (reads give the data, then b"");
#                 chip -> host: the box closed the socket (the host ends the TCP connection once the
#                 data is out). No payload. An id is free again once the chip has sent its CLOSE.
#        4 ACK    chip -> host: the box has read `length` bytes of `id` (no payload): more window.
# The chip acknowledges only when a connection's buffer is empty, so the host's bytes always land
# in one piece at its end. The chip's bytes leave at once (the emulator takes each as the firmware
# writes it); the host feeds the chip at the baud rate, only while the RX FIFO has room.
#
# UDP (the captive DNS) is not bridged: socket(AF_INET, SOCK_DGRAM) is the firmware's own lwIP
# socket, which has no network interface here, so the DNS task binds and waits; nothing arrives.
import errno
import io
import socket as _lwip

import machine
from micropython import const

_START = const(0xA5)
_HELLO = const(0)
_OPEN = const(1)
_DATA = const(2)
_CLOSE = const(3)
_ACK = const(4)
WINDOW = const(512)  # bytes of a connection the host may send ahead of the box's reads
_BAUD = const(1_000_000)
_RXBUF = const(512)  # the UART's receive ring (heap): bytes the chip holds before the FIFO backs up
_TXBUF = const(32)  # its transmit ring: the emulator's TX FIFO never fills, so it stays empty
_MAX_FRAME = const(65535)
_CONNS = const(5)  # connections open at once (the host's limit, lwIP's on the Pico W): buffers kept
_POLL = const(3)  # MP_STREAM_POLL
_STREAM_CLOSE = const(4)  # MP_STREAM_CLOSE
_RD = const(1)  # MP_STREAM_POLL_RD
_WR = const(4)  # MP_STREAM_POLL_WR

AF_INET = const(2)
SOCK_STREAM = const(1)
SOCK_DGRAM = const(2)
IPPROTO_TCP = const(6)
SOL_SOCKET = const(1)
SO_REUSEADDR = const(4)

_link = None


def getaddrinfo(host, port, af=0, type=0, proto=0, flags=0):  # noqa: A002 - socket's own names
    return [(AF_INET, SOCK_STREAM, IPPROTO_TCP, "", (host, port))]


def socket(af=AF_INET, type=SOCK_STREAM, proto=0):  # noqa: A002
    if type == SOCK_DGRAM:
        return _lwip.socket(af, type)
    if type != SOCK_STREAM:
        raise OSError(errno.EINVAL)
    return _Socket(start(), 0)


def start():
    """The link, started once per boot: the UART, then HELLO to the host."""
    global _link
    if _link is None:
        _link = _Link()
    return _link


class _Link:
    def __init__(self):
        self.uart = uart = machine.UART(0, baudrate=_BAUD, tx=machine.Pin(0), rx=machine.Pin(1),
                                        rxbuf=_RXBUF, txbuf=_TXBUF, timeout=0, timeout_char=0)
        rxidle = getattr(machine.UART, "IRQ_RXIDLE", 0)
        if rxidle:  # the FIFO's level at 24 bytes, the receive timeout for the rest (see the top)
            uart.irq(handler=None, trigger=rxidle)
        self.any = uart.any  # bound once: ioctl calls it on every poll
        self.head = bytearray(4)  # a frame's kind, id and length, as read
        self.out = bytearray(5)  # a frame's head, as sent
        self.scratch = bytearray(32)  # payload of a connection no longer here, read and dropped
        self.conns = {}  # id -> _Socket, until the box closes it
        self.waiting = []  # opened by the host, not accepted by the box yet, in order
        self.started = False  # the start byte of the next frame has been read
        self.left = 0  # payload bytes of the current frame still to read
        self.conn = None  # ... and whose they are (None: dropped)
        self.lost = 0  # bytes that were not a frame's start (none on a link that drops nothing)
        # The connections' receive buffers, made once: lwIP keeps a connection's bytes outside the
        # heap, and a 512-byte block sought in a fragmented heap for every connection cost the box
        # more than the rest of the bridge (the search, and the collections it brought on).
        self.buffers = []
        for _ in range(_CONNS):
            b = bytearray(WINDOW)
            self.buffers.append((b, memoryview(b)))
        n = uart.any()
        while n:  # what the host sent before a soft reset
            uart.readinto(self.scratch, min(n, 32))
            n = uart.any()
        self.send(_HELLO, 0, WINDOW.to_bytes(2, "big"), 2)

    def send(self, kind, cid, data=None, n=0):
        out = self.out
        out[0] = _START
        out[1] = kind
        out[2] = cid
        out[3] = n >> 8
        out[4] = n & 255
        self.write(out)
        if data is not None and n:
            self.write(data)

    def write(self, data):
        sent = self.uart.write(data)
        while sent is None or sent < len(data):  # a full transmit ring (a real UART): wait for it
            if sent:
                data = memoryview(data)[sent:]
            sent = self.uart.write(data)

    def pump(self):
        """Reads what the UART holds: frames to the connections' buffers."""
        uart = self.uart
        while True:
            n = uart.any()  # (drains the FIFO into the ring first)
            if not n:
                return
            if self.left:
                self.payload(uart, n)
            elif not self.started:
                uart.readinto(self.head, 1)
                if self.head[0] == _START:
                    self.started = True
                else:
                    self.lost += 1
            elif n < 4:
                return  # the rest of the head is on its way
            else:
                uart.readinto(self.head, 4)
                self.started = False
                self.frame()

    def frame(self):
        head = self.head
        kind = head[0]
        cid = head[1]
        size = head[2] << 8 | head[3]
        conn = self.conns.get(cid)
        if kind == _OPEN:
            conn = _Socket(self, cid, size)
            self.conns[cid] = conn
            self.waiting.append(conn)
        elif kind == _CLOSE:
            if conn is not None:
                conn.eof = True
        elif kind == _DATA and size:
            self.left = size
            self.conn = conn

    def payload(self, uart, n):
        # (Here and in _Socket.take, frames within 11 words: MicroPython takes a larger one from the
        # heap at every call, which the radio's C code would not cost the box.)
        k = min(n, self.left)
        conn = self.conn
        if conn is not None and conn.hi < WINDOW:
            k = conn.take(uart, k)
        else:  # a closed connection's (or, never, beyond the window): dropped
            k = min(k, 32)
            uart.readinto(self.scratch, k)
        self.left -= k
        if not self.left:
            self.conn = None


class _Socket(io.IOBase):
    """A listening socket (id 0) or a phone's connection (id 1-255)."""

    def __init__(self, link, cid, port=0):
        self.link = link
        self.id = cid
        self.port = port
        self.listening = False
        self.closed = False
        self.eof = False  # the phone will send nothing more
        self.lo = 0  # buf[lo:hi]: received, not read yet
        self.hi = 0
        self.buf = self.view = None
        if cid:
            if link.buffers:
                self.buf, self.view = link.buffers.pop()
            else:  # never with the host's five at once
                self.buf = bytearray(WINDOW)
                self.view = memoryview(self.buf)

    def setblocking(self, flag):
        pass  # always non-blocking, as the box and asyncio use them

    def setsockopt(self, level, name, value):
        pass

    def bind(self, address):
        self.port = address[1]

    def listen(self, backlog=0):
        self.listening = True

    def accept(self):
        link = self.link
        if link.any():
            link.pump()
        if not link.waiting:
            raise OSError(errno.EAGAIN)
        conn = link.waiting.pop(0)
        return conn, ("127.0.0.1", conn.port)

    def _took(self, n):
        self.lo += n
        if self.lo == self.hi:  # all read: the window back, the buffer from its start again
            self.link.send(_ACK, self.id, None, self.hi)
            self.lo = self.hi = 0

    def take(self, uart, k):
        """Up to k bytes of this connection from the UART into its window: how many."""
        hi = self.hi
        k = min(k, WINDOW - hi)
        uart.readinto(self.view[hi:hi + k], k)
        self.hi = hi + k
        return k

    def readinto(self, buf, size=-1):
        if self.lo == self.hi and self.link.any():
            self.link.pump()
        n = self.hi - self.lo
        if not n:
            return 0 if self.eof or self.closed else None
        if 0 <= size < n:
            n = size
        if n > len(buf):
            n = len(buf)
        buf[:n] = self.view[self.lo:self.lo + n]
        self._took(n)
        return n

    def read(self, size=-1):
        if self.lo == self.hi and self.link.any():
            self.link.pump()
        n = self.hi - self.lo
        if not n:
            return b"" if self.eof or self.closed else None
        if 0 <= size < n:
            n = size
        data = bytes(self.view[self.lo:self.lo + n])
        self._took(n)
        return data

    def write(self, data):
        if self.closed:
            raise OSError(errno.EBADF)
        n = len(data)
        if n > _MAX_FRAME:
            n = _MAX_FRAME
            data = memoryview(data)[:n]
        if n:
            self.link.send(_DATA, self.id, data, n)
        return n

    def close(self):
        if self.closed:
            return
        self.closed = True
        link = self.link
        if self.id:
            if link.conns.get(self.id) is self:
                del link.conns[self.id]
                link.send(_CLOSE, self.id)
            if self in link.waiting:
                link.waiting.remove(self)
            if len(link.buffers) < _CONNS:
                link.buffers.append((self.buf, self.view))
            self.buf = self.view = None
            self.lo = self.hi = 0

    def ioctl(self, req, arg):
        if req == _POLL:
            link = self.link
            if link.any():
                link.pump()
            if self.listening:
                return _RD if arg & _RD and (link.waiting or self.closed) else 0
            ready = arg & _WR
            if arg & _RD and (self.lo < self.hi or self.eof or self.closed):
                ready |= _RD
            return ready
        if req == _STREAM_CLOSE:
            self.close()
            return 0
        return -errno.EINVAL
