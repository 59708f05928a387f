# Runs tidebox.dns.CaptiveDNS for the host tests. Environment: DNS_PORT (required), DNS_HOST
# (default 127.0.0.1), DNS_IP (the address to answer, default 192.168.4.1), DNS_POLL=1 to poll the
# socket instead of asyncio's IO queue, DNS_SECONDS (a hard limit, default 30). Prints "ready" once
# the server task has bound its socket; a line "stop" on stdin (or stdin closing) calls stop();
# then prints {"answered": n, "dropped": n, "stopped": true} and exits.
import json
import os
import select
import sys
import time

import asyncio
from tidebox.dns import CaptiveDNS


async def watch_stdin(server, deadline):
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    while time.ticks_diff(deadline, time.ticks_ms()) > 0:
        if poller.poll(0):
            line = sys.stdin.readline()
            if not line or line.strip() == "stop":
                break
        await asyncio.sleep_ms(20)
    server.stop()


async def main():
    server = CaptiveDNS(os.getenv("DNS_IP") or "192.168.4.1", int(os.getenv("DNS_PORT")),
                        os.getenv("DNS_HOST") or "127.0.0.1")
    server.io_queue = os.getenv("DNS_POLL") != "1"
    task = asyncio.create_task(server.run())
    await asyncio.sleep_ms(0)  # run() binds its socket before its first wait
    await asyncio.sleep_ms(0)
    print("ready")
    deadline = time.ticks_add(time.ticks_ms(), int(os.getenv("DNS_SECONDS") or "30") * 1000)
    await watch_stdin(server, deadline)
    await asyncio.wait_for_ms(task, 2000)
    print(json.dumps({"answered": server.answered, "dropped": server.dropped, "stopped": True}))


asyncio.run(main())
