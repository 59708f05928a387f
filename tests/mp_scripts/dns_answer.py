# Runs tidebox.dns.answer() under MicroPython for the host tests, streaming so a long batch never
# sits whole in the heap. stdin: the address to answer on the first line ("192.168.4.1"), then one
# packet per line as hex. stdout: one line per packet: the response as hex, "-" when dropped, or
# "!ExceptionName" if answer() raised.
import sys

from tidebox import dns

ip = dns.ip_bytes(sys.stdin.readline().strip())
while True:
    line = sys.stdin.readline()
    if not line:
        break
    try:
        reply = dns.answer(bytes.fromhex(line.strip()), ip)
        print("-" if reply is None else "".join("%02x" % b for b in reply))
    except Exception as e:  # reported to the test, which fails on it
        print("!" + type(e).__name__)
