# Who is at the table: joined names, their secret seat tokens and one-time rejoin codes.
# This is the box's own (any game joins players the same way); the game only sees names and seats.
import binascii

from micropython import const

from tidebox.errors import GameError, NotNow

TOKEN_BYTES = const(16)  # 128 random bits from the hardware RNG: not guessable from a phone
TOKEN_CHARS = const(32)  # ... as a phone sends them: hex
_LEFT = bytes(TOKEN_CHARS)  # a dropped seat's token: zero bytes, never a phone's hex digits


def _text(token):
    return "" if token == _LEFT else token.decode()


def _plain_text(name):
    """MicroPython's UTF-8 decoding lets through what is not text: overlong forms, surrogates
    (from raw bytes or from JSON's \\ud800 escapes) and code points past U+10FFFF. A name made of
    them would reach every phone as invalid UTF-8, so it is refused. Checked on the bytes: iterating
    a str interns each distinct non-ASCII character as a qstr, heap that is never given back."""
    raw = name.encode()
    i = 0
    while i < len(raw):
        lead = raw[i]
        size = 1 if lead < 0x80 else 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4
        if size == 4 and not 0xF0 <= lead <= 0xF4 or i + size > len(raw):
            raise GameError("a name must be plain text")
        code = lead & (0xFF >> (size + 1)) if size > 1 else lead
        for k in range(1, size):
            if not 0x80 <= raw[i + k] <= 0xBF:
                raise GameError("a name must be plain text")
            code = (code << 6) | (raw[i + k] & 0x3F)
        if code < (0, 0, 0x80, 0x800, 0x10000)[size] or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise GameError("a name must be plain text")
        i += size


class Seats:
    def __init__(self, urandom, max_players, check_name):
        self.urandom = urandom
        self.max_players = max_players
        self.check_name = check_name  # check_name(name, taken): the name rule (box.py gives the game's)
        self.names = []
        self.tokens = []  # as bytes (hex digits), compared in place with what a phone sends
        self.present = []  # False once the reader has dropped the seat
        self.codes = {}  # rejoin code -> seat, one-time

    def new_token(self):
        return binascii.hexlify(self.urandom(TOKEN_BYTES))

    def join(self, name):
        """Adds a player; returns (seat, token). Raises GameError with a message for a person."""
        if len(self.names) >= self.max_players:
            raise NotNow("the table is full")
        if isinstance(name, str):
            _plain_text(name)
        name = self.check_name(name, self.names)
        token = self.new_token()
        self.names.append(name)
        self.tokens.append(token)
        self.present.append(True)
        return len(self.names) - 1, token.decode()

    def rename(self, seat, name):
        """A seat's new name, by the name rule, other seats' names taken. Returns it."""
        if isinstance(name, str):
            _plain_text(name)
        name = self.check_name(name, self.names[:seat] + self.names[seat + 1:])
        self.names[seat] = name
        return name

    def seat_of(self, token, start=0, length=-1):
        """The seat a token belongs to, or None. `token`: bytes-like (then token[start:start+length]
        is looked at where it is: the web server passes the request's own buffer) or a str.
        Allocates nothing for bytes: iterating a str would intern each distinct non-ASCII character
        of whatever a phone sends as a qstr, heap that is never given back.

        A seat whose token starts with the same four characters is a candidate, and a candidate's
        whole token is compared byte by byte to the end, so the time taken says nothing about how
        much of the secret part matched. What the prefix check may tell by its timing is at most
        whether someone's token starts with the guessed 16 bits; the other 112 bits stay as secret.
        Comparing every seat's whole token took 8 x 32 steps of the VM per request (2.8 ms on the
        board); a candidate's compare is 32."""
        if isinstance(token, str):
            token = token.encode()
        elif token is None:
            return None
        if length < 0:
            length = len(token) - start
        if length != TOKEN_CHARS:
            return None
        t0 = token[start]
        t1 = token[start + 1]
        t2 = token[start + 2]
        t3 = token[start + 3]
        tokens = self.tokens
        found = None
        for seat in range(len(tokens)):
            known = tokens[seat]
            if known[0] != t0 or known[1] != t1 or known[2] != t2 or known[3] != t3:
                continue
            same = 0
            for i in range(TOKEN_CHARS):
                same |= known[i] ^ token[start + i]
            if same == 0 and self.present[seat]:
                found = seat
        return found

    def rejoin_code(self, seat):
        """A fresh one-time code for a seat; any older code for that seat stops working."""
        for code in list(self.codes):
            if self.codes[code] == seat:
                del self.codes[code]
        while True:
            raw = self.urandom(4)
            number = ((raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]) % 1000000
            code = "%06d" % number
            if code not in self.codes:
                break
        self.codes[code] = seat
        return code

    def use_code(self, code):
        """Takes a seat back with a code: the seat gets a new token (the old phone is signed out)."""
        if not isinstance(code, str) or code not in self.codes:
            raise ValueError("that rejoin code is not valid: ask the reader for a new one")
        seat = self.codes.pop(code)
        if not self.present[seat]:
            raise ValueError("that seat has left the game")
        token = self.new_token()
        self.tokens[seat] = token
        return seat, token.decode()

    def drop(self, seat):
        self.present[seat] = False
        self.tokens[seat] = _LEFT
        for code in list(self.codes):
            if self.codes[code] == seat:
                del self.codes[code]

    def remove_unstarted(self, seat):
        """Before a game starts a seat can simply be removed (later seats move up)."""
        for lst in (self.names, self.tokens, self.present):
            lst.pop(seat)
        self.codes = {}

    def count(self):
        return sum(1 for p in self.present if p)

    def to_dict(self):
        tokens = [_text(token) for token in self.tokens]  # saved as hex text, as it always was
        return {"names": self.names, "tokens": tokens, "present": self.present, "codes": self.codes}

    def load(self, data):
        names = data.get("names")
        tokens = data.get("tokens")
        present = data.get("present")
        codes = data.get("codes", {})
        if not (isinstance(names, list) and isinstance(tokens, list) and isinstance(present, list)):
            raise ValueError("saved seats are damaged")
        if not len(names) == len(tokens) == len(present) or len(names) > self.max_players:
            raise ValueError("saved seats are damaged")
        for token in tokens:
            if not isinstance(token, str) or len(token) not in (0, TOKEN_CHARS):
                raise ValueError("saved seats are damaged")
        self.names = names
        self.tokens = [token.encode() if token else _LEFT for token in tokens]
        self.present = present
        self.codes = codes if isinstance(codes, dict) else {}
