# The box's state: who joined, the options, the running game, and every action on them.
#
# Both the reader's buttons (reader.py) and the phones (web.py) act through this class. Every action
# checks first and changes state only when it is allowed; whatever must survive a power cut is saved
# (write-then-rename) before the action reports success.
import json

from tidebox import hotspot, jsonstream, timer
from tidebox.seats import Seats

SAVE_FILE = "game.json"

JOIN = "join"  # lobby open, phones join
SETUP = "setup"  # the reader chooses deck, timer, first reader, practice
PLAY = "play"
OVER = "over"


def _open_object(chunks):
    """JSON chunks of an object, as a list, without the final closing brace."""
    parts = list(chunks)
    parts[-1] = parts[-1][:-1]
    return parts


class Refused(Exception):
    """An action refused with an HTTP-like status and a message for a person."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message


class Box:
    def __init__(self, board, storage, rules):
        self.board = board
        self.rules = rules  # the game's rules module (tidebox/games/...): pure functions on plain data
        self.storage = storage
        self.seats = Seats(board.urandom, self.rules.MAX_PLAYERS, self.rules.check_name)
        self.phase = JOIN
        self.state = None  # the game's state dict while playing
        self.options = {"deck": 0, "timer": 0, "reader": 0, "practice": False}
        self.countdown = timer.Countdown()
        self.version = 1  # bumped on every change a phone can see
        self._public = None  # cached JSON chunks of the shared part of the phones' view
        self._public_version = 0
        self.password = ""  # the hotspot's passphrase, shown on the join screen
        self.notice = ""  # a one-line message for the OLED (e.g. a damaged save was set aside)
        self.listeners = []  # called after every change (the reader redraws)
        self.reader = None  # the Reader driving the OLED, once there is one

    # ------------------------------------------------------------ bookkeeping

    def changed(self, save=True):
        self.version += 1
        if save:
            self.save()
        for listener in self.listeners:
            listener()

    def save(self):
        self.storage.save(SAVE_FILE, {
            "phase": self.phase,
            "seats": self.seats.to_dict(),
            "options": self.options,
            "game": self.rules.to_dict(self.state) if self.state else None,
        })

    def load(self):
        """Restore a saved box. Returns True if an unfinished game was restored. A file that cannot
        be read is set aside and the box starts fresh, saying so; it never stops the boot."""
        try:
            data = self.storage.load(SAVE_FILE)
            if data is None:
                return False
            seats = Seats(self.board.urandom, self.rules.MAX_PLAYERS, self.rules.check_name)
            seats.load(data.get("seats") or {})
            state = self.rules.from_dict(data["game"]) if data.get("game") else None
            phase = data.get("phase")
            if phase not in (JOIN, SETUP, PLAY, OVER) or (phase in (PLAY, OVER) and state is None):
                raise ValueError("saved phase is damaged")
            if state is not None and len(state["names"]) != len(seats.names):
                raise ValueError("saved seats do not match the game")
            options = data.get("options")
            if isinstance(options, dict):
                for key in self.options:
                    if key in options:
                        self.options[key] = options[key]
        except (ValueError, KeyError, TypeError, self.rules.GameError):
            self.storage.set_aside(SAVE_FILE)
            self.notice = "Save damaged: new"
            return False
        self.seats = seats
        self.state = state
        self.phase = phase
        self.version += 1
        return phase == PLAY or (phase in (JOIN, SETUP) and self.seats.count() > 0)

    def discard(self):
        """Forget everything: a brand new box."""
        self.seats = Seats(self.board.urandom, self.rules.MAX_PLAYERS, self.rules.check_name)
        self.state = None
        self.phase = JOIN
        self.countdown.stop()
        self.changed()

    def now(self):
        return self.board.ticks_ms()

    # ------------------------------------------------------------ joining (phones and box)

    def join(self, name):
        if self.phase != JOIN:
            raise Refused(409, "the game has started: ask the reader for a rejoin code")
        try:
            seat, token = self.seats.join(name)
        except (ValueError, self.rules.GameError) as e:
            status = 409 if ("taken" in str(e) or "full" in str(e)) else 400
            raise Refused(status, str(e))
        self.changed()
        return {"token": token, "seat": seat, "name": self.seats.names[seat]}

    def rejoin(self, code):
        try:
            seat, token = self.seats.use_code(code)
        except ValueError as e:
            raise Refused(403, str(e))
        self.changed()
        return {"token": token, "seat": seat, "name": self.seats.names[seat]}

    def remove_player(self, seat):
        """Before the game: take a joined player off the list."""
        if self.phase not in (JOIN, SETUP) or not 0 <= seat < len(self.seats.names):
            raise Refused(409, "players can only be removed before the game")
        self.seats.remove_unstarted(seat)
        self.options["reader"] = 0
        self.changed()

    def rejoin_code(self, seat):
        code = self.seats.rejoin_code(seat)
        self.save()
        return code

    # ------------------------------------------------------------ setup and rounds

    def to_setup(self):
        if self.seats.count() < self.rules.MIN_PLAYERS:
            raise Refused(409, "at least 2 players must join")
        self.phase = SETUP
        if self.options["reader"] >= len(self.seats.names):
            self.options["reader"] = 0
        self.changed()

    def back_to_join(self):
        self.phase = JOIN
        self.changed()

    def start_game(self):
        deck = self.rules.DECK_MODES[self.options["deck"] % len(self.rules.DECK_MODES)]
        try:
            self.state = self.rules.new_game(
                list(self.seats.names), deck=deck, first_reader=self.options["reader"],
                below=self.random_below, practice=bool(self.options["practice"]),
            )
        except self.rules.GameError as e:
            raise Refused(409, str(e))
        self.phase = PLAY
        self.countdown.stop()
        self.changed()

    def random_below(self, n):
        # The hardware RNG (os.urandom is seeded from the RP2040's ring oscillator). Rejection
        # sampling keeps every card order equally likely.
        limit = 65536 - 65536 % n
        while True:
            raw = self.board.urandom(2)
            value = (raw[0] << 8) | raw[1]
            if value < limit:
                return value % n

    def timer_seconds(self):
        return timer.TIMER_CHOICES[self.options["timer"] % len(timer.TIMER_CHOICES)]

    def start_timer(self):
        self.countdown.start(self.timer_seconds(), self.now())
        self.changed(save=False)

    def extend_timer(self):
        if self.countdown.extend(self.now()):
            self.changed(save=False)
            return True
        return False

    def all_ready(self):
        if self.state is None or self.state["phase"] != self.rules.PHASE_ALLOCATE:
            return False
        return not self.rules.waiting_for(self.state)

    def reveal(self):
        try:
            self.rules.reveal(self.state)
        except self.rules.GameError as e:
            raise Refused(409, str(e))
        self.countdown.stop()
        self.changed()

    def next_round(self):
        try:
            self.rules.next_round(self.state)
        except self.rules.GameError as e:
            raise Refused(409, str(e))
        if self.rules.is_over(self.state):
            self.phase = OVER
        self.changed()

    def drop(self, seat):
        """The reader drops a player who has left: past scores stay, readiness stops counting."""
        try:
            self.rules.leave(self.state, seat)
        except self.rules.GameError as e:
            raise Refused(409, str(e))
        self.seats.drop(seat)
        self.changed()

    def new_game(self):
        """After the final standings: same table, a fresh game (dropped players stay out)."""
        keep = [i for i in range(len(self.seats.names)) if self.seats.present[i]]
        for seat in range(len(self.seats.names) - 1, -1, -1):
            if seat not in keep:
                self.seats.remove_unstarted(seat)
        self.state = None
        self.phase = JOIN
        self.options["reader"] = 0
        self.changed()

    # ------------------------------------------------------------ allocations

    def allocate(self, seat, allocation, ready=True):
        if self.phase != PLAY or self.state is None:
            raise Refused(409, "there is no round to allocate in yet")
        before = (self.state["hidden"][seat] if 0 <= seat < len(self.state["hidden"]) else None,
                  self.state["locked"][seat] if 0 <= seat < len(self.state["locked"]) else None)
        try:
            self.rules.set_allocation(self.state, seat, allocation, ready)
        except self.rules.GameError as e:
            status = 409 if ("closed" in str(e) or "left" in str(e)) else 400
            raise Refused(status, str(e))
        try:
            self.changed()  # saved before the phone hears "locked"
        except OSError:
            self.state["hidden"][seat], self.state["locked"][seat] = before
            raise Refused(503, "the box could not save: try again")
        return self.version

    def unready(self, seat):
        if self.phase != PLAY or self.state is None:
            raise Refused(409, "there is no round to allocate in yet")
        try:
            self.rules.unlock(self.state, seat)
        except self.rules.GameError as e:
            raise Refused(409, str(e))
        self.changed()
        return self.version

    # ------------------------------------------------------------ what the phones see

    def public_chunks(self):
        """The part of every phone's view that is the same for all seats, as JSON chunks with the
        closing braces left open. Built once per version and shared: eight phones polling at once
        then cost one copy of it, not eight (a full 8-player view is ~3.5 KB of JSON)."""
        if self._public_version != self.version:
            self._public = None  # free the old copy before building the new one
            seats = [{"name": n, "present": p} for n, p in zip(self.seats.names, self.seats.present)]
            head = {"box": self.phase, "ssid": self.ssid(), "seats": seats}
            parts = _open_object(jsonstream.chunks(head))
            if self.state:
                parts.append(b',"game":')
                parts.extend(_open_object(jsonstream.chunks(self.rules.view_for(self.state, None))))
            self._public = parts
            self._public_version = self.version
        return self._public

    def view_chunks(self, seat):
        """One phone's whole view (seat None: not joined), as a list of JSON chunks. Never contains
        another player's hidden allocation: only `seat`'s own is added to the shared public part.
        A list, not a generator, so that the answer can say its length before it is sent."""
        chunks = list(self.public_chunks())
        if self.state:
            if seat is None:
                chunks.append(b"}")
            else:
                mine = self.state["hidden"][seat]
                chunks.append((',"you":%d,"mine":%s,"locked":%s}' % (
                    seat, json.dumps(mine), "true" if self.state["locked"][seat] else "false")).encode())
        else:
            chunks.append(b',"game":null')
        you = "null" if seat is None else json.dumps({"seat": seat, "name": self.seats.names[seat]})
        timer_json = json.dumps(self.countdown.describe(self.now()))
        chunks.append((',"v":%d,"you":%s,"timer":%s}' % (self.version, you, timer_json)).encode())
        return chunks

    def ssid(self):
        return hotspot.ssid_for(self.board.unique_id())
