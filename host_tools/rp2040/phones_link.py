"""phones_ppp, the host end of the emulated Pico W's PPP link (phones_ppp/phones_ppp.c), built on demand.

    python host_tools/rp2040/phones_link.py      # builds it if needed and prints its path

It is compiled with `cc` from phones_ppp.c, our lwipopts.h, the lwIP 2.1.3 sources vendored in
phones_ppp/lwip/ (core, IPv4, PPP) and the headers of Debian's liblwip-dev (/usr/include/lwip; its
library has no PPP, so only its headers are used). No MicroPython tree is needed. build() compiles
again only when those sources, the headers' version or the command change (a hash kept beside the
binary), into a new file that then replaces the old one: an emulator running meanwhile keeps its own.
"""

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "phones_ppp"
LWIP_INCLUDE = Path("/usr/include/lwip")  # Debian's liblwip-dev
LWIP_VERSION = "2.1.3"  # what phones_ppp/lwip/ holds; the headers must be the same
OUT = HERE.parent.parent / "build" / "phones_ppp" / "phones_ppp"


class LinkError(Exception):
    pass


def sources():
    return [SRC / "phones_ppp.c", *sorted((SRC / "lwip").rglob("*.c"))]


def command(out):
    """cc's command line; phones_ppp/ comes first so that our lwipopts.h wins over Debian's."""
    return ["cc", "-O2", "-w", "-I", str(SRC), "-I", str(LWIP_INCLUDE), *map(str, sources()), "-o", str(out)]


def headers_version():
    init = LWIP_INCLUDE / "lwip" / "init.h"
    if not init.is_file():
        raise LinkError("no lwIP headers in %s: apt-get install liblwip-dev (host_tools/debian_deps.sh)"
                        % LWIP_INCLUDE)
    found = dict(re.findall(r"#define LWIP_VERSION_(MAJOR|MINOR|REVISION)\s+(\d+)", init.read_text()))
    return "%s.%s.%s" % (found.get("MAJOR"), found.get("MINOR"), found.get("REVISION"))


def digest(out):
    h = hashlib.sha256()
    h.update(repr((command(out), headers_version())).encode())
    for path in [*sources(), *sorted(SRC.glob("*.h"))]:
        h.update(b"\0%s\0" % path.relative_to(SRC).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build(out=OUT):
    """phones_ppp at `out`, compiled first if it is missing or its sources or command have changed."""
    out = Path(out)
    version = headers_version()
    if version != LWIP_VERSION:
        raise LinkError("the lwIP headers in %s are %s, the sources in %s are %s"
                        % (LWIP_INCLUDE, version, SRC / "lwip", LWIP_VERSION))
    stamp = out.with_name(out.name + ".stamp")
    want = digest(out)
    if out.is_file() and stamp.is_file() and stamp.read_text().strip() == want:
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    new = out.with_name("%s.new.%d" % (out.name, os.getpid()))
    cmd = command(out)
    cmd[-1] = str(new)
    print("+ cc ... -o %s (phones_ppp and lwIP %s's core, IPv4 and PPP)" % (out, LWIP_VERSION), flush=True)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        raise LinkError("no C compiler (cc): apt-get install gcc libc6-dev (host_tools/debian_deps.sh)") \
            from None
    if proc.returncode != 0:
        new.unlink(missing_ok=True)
        raise LinkError("cc could not build phones_ppp:\n%s" % (proc.stdout + proc.stderr)[-3000:])
    os.replace(new, out)  # an emulator running meanwhile keeps the one it started
    new_stamp = stamp.with_name("%s.new.%d" % (stamp.name, os.getpid()))
    new_stamp.write_text(want + "\n")
    os.replace(new_stamp, stamp)
    return out


if __name__ == "__main__":
    try:
        print(build())
    except LinkError as e:
        sys.exit("phones_link: %s" % e)
