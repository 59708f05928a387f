#!/usr/bin/env bash
# Installs Tidebox on a Raspberry Pi with Adafruit's 128x64 OLED Bonnet, on Raspberry Pi OS (Lite)
# Bookworm or newer. Run on the Pi, as root, from a copy of this project:
#
#   sudo bash host_tools/pi_install.sh GB        (GB: your country's two letters, for the Wi-Fi rules)
#   sudo make pi-install COUNTRY=GB              (the same, where make is installed)
#
# Without a country it uses the one the Pi already has (set by Raspberry Pi Imager or raspi-config).
# What it does (boards/raspberry-pi.md):
#   1. Debian packages: python3-venv, python3-libgpiod (Blinka's GPIO), i2c-tools (i2cdetect)
#   2. enables I2C (raspi-config nonint do_i2c 0) at 400 kHz, and sets the Wi-Fi country
#   3. a venv in /opt/tidebox/venv with Blinka, the SSD1306 driver, adafruit_framebuf and microdot
#      from the package index (boards/pi_requirements.txt)
#   4. copies the firmware and the Pi's board modules to /opt/tidebox, builds the phones' page
#   5. writes /etc/tidebox/settings.json (an existing one is kept, its country updated)
#   6. installs and enables tidebox.service (starts at boot, restarted when it dies or hangs)
# Run it again to update: the saved games in /var/lib/tidebox and the settings stay.
set -euo pipefail

# Where things go (the tests move them into a folder of their own; a maker leaves them as they are).
PREFIX=${TIDEBOX_PREFIX:-/opt/tidebox}
SETTINGS=${TIDEBOX_SETTINGS:-/etc/tidebox/settings.json}
STATE=${TIDEBOX_STATE:-/var/lib/tidebox}
UNIT=${TIDEBOX_UNIT:-/etc/systemd/system/tidebox.service}
CONFIG=${TIDEBOX_BOOT_CONFIG:-/boot/firmware/config.txt}
PIP=${TIDEBOX_PIP:-$PREFIX/venv/bin/pip}
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
COUNTRY=${1:-${COUNTRY:-}}

say() { printf '\n== %s\n' "$*"; }
fail() { printf 'pi_install: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "run it as root: sudo bash host_tools/pi_install.sh GB"
command -v raspi-config >/dev/null || fail "raspi-config is missing: this is for Raspberry Pi OS"
command -v nmcli >/dev/null || fail "NetworkManager (nmcli) is missing: Raspberry Pi OS Bookworm or newer manages Wi-Fi with it"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || fail "Python 3.11 or newer is needed (Bookworm has it)"
if [ -z "$COUNTRY" ]; then
  COUNTRY=$(raspi-config nonint get_wifi_country 2>/dev/null || true)
fi
[[ "$COUNTRY" =~ ^[A-Z]{2}$ ]] || fail "say which country the box is in, for its Wi-Fi rules: sudo bash host_tools/pi_install.sh GB"

say "Debian packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv python3-libgpiod i2c-tools

say "I2C on, 400 kHz; Wi-Fi country $COUNTRY"
raspi-config nonint do_i2c 0  # 0 means "enable"
[ -f "$CONFIG" ] || CONFIG=/boot/config.txt  # before Bookworm
if ! grep -q '^dtparam=i2c_arm_baudrate=' "$CONFIG"; then
  echo 'dtparam=i2c_arm_baudrate=400000' >> "$CONFIG"  # a frame in ~25 ms instead of ~100 ms
fi
raspi-config nonint do_wifi_country "$COUNTRY"
rfkill unblock wifi 2>/dev/null || true

say "venv with Blinka and the drivers"
mkdir -p "$PREFIX"
# The system site packages give the venv Debian's libgpiod bindings (Blinka's GPIO on a Pi).
python3 -m venv --system-site-packages "$PREFIX/venv"
"$PIP" install -q --upgrade pip
"$PIP" install -q --upgrade -r "$SRC/boards/pi_requirements.txt"

say "firmware"
rm -rf "$PREFIX/firmware.new" "$PREFIX/boards.new"
cp -r "$SRC/firmware" "$PREFIX/firmware.new"
mkdir -p "$PREFIX/boards.new"
for f in pi_bonnet.py pi_system.py pi_compat.py cpython_main.py cpython_transport.py font_petme128_8x8.bin; do
  cp "$SRC/boards/$f" "$PREFIX/boards.new/$f"
done
"$PREFIX/venv/bin/python" "$SRC/host_tools/pagebuild.py" "$PREFIX/firmware.new/www"
rm -rf "$PREFIX/firmware" "$PREFIX/boards"
mv "$PREFIX/firmware.new" "$PREFIX/firmware"
mv "$PREFIX/boards.new" "$PREFIX/boards"
mkdir -p "$STATE"

say "settings ($SETTINGS)"
mkdir -p "$(dirname "$SETTINGS")"
"$PREFIX/venv/bin/python" "$PREFIX/boards/pi_bonnet.py" settings "$SETTINGS" "$COUNTRY"

say "tidebox.service"
mkdir -p "$(dirname "$UNIT")"
"$PREFIX/venv/bin/python" "$PREFIX/boards/pi_bonnet.py" unit "$PREFIX" "$SETTINGS" > "$UNIT.new"
mv "$UNIT.new" "$UNIT"
systemctl daemon-reload
systemctl enable tidebox.service

say "done"
echo "Reboot to start the box: sudo reboot"
echo "After that the Pi's Wi-Fi is the box's hotspot (Tidebox-XXXX, its password on the OLED);"
echo "reach the Pi over it (ssh to 192.168.4.1), over Ethernet or a USB gadget link."
echo "The box's log: journalctl -u tidebox -f"
