# The hotspot's name and passphrase. The name comes from the board's unique id; the passphrase is
# generated once from the hardware RNG and kept in flash, so phones that joined once rejoin later.
from micropython import const

SETTINGS_FILE = "wifi.json"
PASSWORD_LENGTH = const(12)  # WPA2 needs 8-63 characters
# No 0/O, 1/l/I: the passphrase is also read off the OLED and typed by hand.
ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def ssid_for(unique_id):
    return "Tidebox-" + unique_id[-4:].upper()


def new_password(urandom):
    raw = urandom(PASSWORD_LENGTH)
    return "".join(ALPHABET[b % len(ALPHABET)] for b in raw)  # 32 letters: 256 % 32 == 0, unbiased


def load_or_create(storage, urandom):
    try:
        data = storage.load(SETTINGS_FILE)
    except ValueError:
        data = None
    if data and isinstance(data.get("password"), str) and 8 <= len(data["password"]) <= 63:
        return data["password"]
    password = new_password(urandom)
    storage.save(SETTINGS_FILE, {"password": password})
    return password
