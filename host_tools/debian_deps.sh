#!/usr/bin/env bash
# Installs the Debian packages the host side needs (browsers: Chromium, Firefox, WebKitGTK; OpenSCAD,
# QR decoder, Graphviz, Xvfb; dnsmasq and systemd-analyze for the Raspberry Pi board's tests; cc and
# liblwip-dev's headers for the emulated Pico W's PPP link: host_tools/rp2040/phones_link.py; Node;
# libc6-i386 for the committed 32-bit MicroPython the heap tests run on: host_tools/micropython32/).
# Run as root (CI) or with sudo available; otherwise it prints the apt-get line to run.
# With arguments, installs those packages instead (the firmware builds' toolchains: firmware.py).
set -euo pipefail
DEFAULT_PACKAGES="python3 python3-venv python3-pip make gcc libc6-dev libc6-i386 liblwip-dev chromium firefox-esr webkit2gtk-driver openscad zbar-tools graphviz xvfb xauth fonts-dejavu-core dnsmasq-base systemd"
PACKAGES="${*:-$DEFAULT_PACKAGES}"
# The emulated Pico W runs rp2040js on Node 18 or newer; Debian's nodejs and npm where there is none.
if [ $# -eq 0 ] && ! command -v node >/dev/null; then PACKAGES="$PACKAGES nodejs npm"; fi
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "Installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
  echo "Please run as root: apt-get install -y$missing" >&2; exit 1; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
