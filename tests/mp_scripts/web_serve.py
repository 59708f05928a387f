# Serves one request through tidebox.transport.BoxServer.serve() from an in-memory stream, for the host
# tests. stdin: {"request": "<raw request text>", "fail": "memory" | null}; "memory" makes reading
# the request raise MemoryError. stdout: one JSON object: "writes" (each write that reached the
# connection, as text), "closed", and "headers" (the header names a route saw).
import json
import sys

import asyncio
from tidebox import transport
from tidebox.gate import ConnectionGate

job = json.loads(sys.stdin.read())
seen = {}


class Connection:
    """Both ends of a phone's connection: reads come from the request, writes are kept."""

    def __init__(self, data):
        self.data = data
        self.writes = []
        self.closed = False

    async def read(self, n):
        if job.get("fail") == "memory":
            raise MemoryError()
        piece = self.data[:n]
        self.data = self.data[n:]
        return piece

    async def readexactly(self, n):
        return await self.read(n)

    async def readinto(self, buf):
        piece = await self.read(min(len(buf), job.get("piece") or len(buf)))
        buf[:len(piece)] = piece
        return len(piece)

    async def awrite(self, data):
        self.writes.append(bytes(data).decode())

    async def aclose(self):
        self.closed = True

    def get_extra_info(self, name):
        return ("127.0.0.1", 5000)


app = transport.BoxServer(ConnectionGate())


@app.route("/echo", methods=["GET", "POST"])
async def echo(request):
    seen["headers"] = sorted(request.headers)
    return {"ok": True}


conn = Connection(job["request"].encode())
asyncio.run(app.serve(conn, conn))
print(json.dumps({"writes": conn.writes, "closed": conn.closed, "headers": seen.get("headers")}))
