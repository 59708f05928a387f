# The phones' transport under CPython: a server for tidebox/api.py's routes that reads and answers
# every request as the Pico's does, with every limit and refusal (the head into a 1 KB buffer and
# 2 KB at most, a body of 512 bytes at most, a slow client cut off after 5 s or after 250 ms when
# every connection is taken, 503 "try again" when there is no memory to read a request, one answer
# built at a time, the idle poll answered before microdot). All of that is tidebox/transport.py's
# BoxServer, inherited here unchanged; only how a connection arrives is MicroPython's there (a
# non-blocking socket parked in asyncio's IO queue, wrapped in MicroPython's asyncio.StreamReader,
# whose readinto gives None on EAGAIN). Here a connection is accepted with asyncio's sock_accept and
# served through CPython's asyncio streams behind the few stream methods BoxServer and microdot call
# (readinto, read, readline, readexactly, awrite, aclose, get_extra_info).
#
# The connection gate (board.tcp_gate) is used as the host board uses it: a connection is accepted
# only when the gate has room, so the others wait in the kernel's listen queue, in the order they
# came, costing the box nothing. A Pi has no lwIP five-connection ceiling: its gate's limit is a
# setting (boards/pi_bonnet.py, "connections", 16 by default), 16 read at once and the 17th waiting;
# the 250 ms cut for idle sockets starts when all 16 are taken.
#
# install() makes tidebox.transport.BoxServer this Server, so main.py, unchanged, serves the phones
# with it; boards/cpython_main.py calls it for every board. CPython only: never on a Pico.
import asyncio
import socket

from tidebox import transport


class Stream:
    """A connection's CPython StreamReader and StreamWriter as one MicroPython-style stream."""

    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer

    async def readinto(self, buf):
        data = await self.reader.read(len(buf))
        buf[:len(data)] = data
        return len(data)

    async def read(self, n=-1):
        return await self.reader.read(n)

    async def readline(self):
        return await self.reader.readline()

    async def readexactly(self, n):
        return await self.reader.readexactly(n)  # IncompleteReadError is an EOFError, as in MicroPython

    async def awrite(self, data):
        self.writer.write(data)  # the transport copies what it cannot send at once
        await self.writer.drain()

    async def aclose(self):
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:
            pass  # the phone went away first

    def get_extra_info(self, name):
        return self.writer.get_extra_info(name)


class Server(transport.BoxServer):
    """tidebox/transport.py's BoxServer, accepting through CPython's asyncio."""

    async def start_server(self, host="0.0.0.0", port=80, debug=False, ssl=None):
        """Accept while the gate has room and serve each connection in its own task through
        BoxServer.handle_request (the gate, then BoxServer.serve)."""
        loop = asyncio.get_running_loop()
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(info[0], socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(info[-1])
        listener.listen(transport.BACKLOG)
        listener.setblocking(False)
        tasks = set()  # CPython keeps only weak references to tasks: these are the strong ones
        try:
            while True:
                while self.gate.wait and self.gate.active + self.accepted >= self.gate.limit:
                    await asyncio.sleep_ms(5)
                try:
                    conn, _ = await loop.sock_accept(listener)
                except OSError:
                    await asyncio.sleep_ms(50)  # e.g. out of file descriptors: let connections end
                    continue
                self.accepted += 1
                task = asyncio.create_task(self._connection(conn))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        finally:
            listener.close()

    async def _connection(self, conn):
        try:
            reader, writer = await asyncio.open_connection(sock=conn)
        except OSError:
            self.accepted -= 1
            conn.close()
            return
        stream = Stream(reader, writer)
        await self.handle_request(stream, stream)


def install():
    transport.BoxServer = Server
