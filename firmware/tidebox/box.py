# The box's state: who joined, which game, its options, the running game, and every action on them.
#
# Both the reader's buttons (panel.py) and the phones (api.py) act through this class, whatever the
# game: the game is a rules module (tidebox/games/<game>/rules.py) and every game action is a move
# applied by `move`. Every action checks first and changes state only when it is allowed; whatever
# must survive a power cut is saved (write-then-rename) before the action reports success, and an
# action whose save fails is undone (the box goes back to what flash holds). What goes to flash and
# comes back is saving.py; what the phones are told of the box is views.py.
import json

from tidebox import games, memory, saving, timer, viewjson
from tidebox.errors import GameError, NotNow
from tidebox.games.base import check_name
from tidebox.seats import Seats

TONIGHT_FILE = "tonight.txt"  # the night's scores (tonight.py)
NEXT_FILE = "next.json"  # the step the box takes after it restarts itself (tidebox/restart.py)
MAX_SEATS = 8  # the hotspot's DHCP server has 8 leases: one phone each

CHOOSE = "choose"  # the reader picks the game
JOIN = "join"  # lobby open, phones join
SETUP = "setup"  # the reader sets the game's options
PLAY = "play"
OVER = "over"
PHASES = (CHOOSE, JOIN, SETUP, PLAY, OVER)
STALE = "the game moved on before this arrived: here it is as it is now"
SHORT_OF_MEMORY = "the box is short of memory: nothing changed, try again"
# A phone's change to the table during a game: the reader makes it on the box (its menu drops a player)


def checked(make, *args):
    """A game's new_game or from_dict, whose checks (games/checks.py) are let go of after it."""
    try:
        return make(*args)
    finally:
        memory.let_go("checked")


BETWEEN_GAMES = "during a game only the reader can %s: ask them to use the box's menu"
NEW_GAME = "new_game"  # the move a phone sends for a new game at the same table (see _phone_new_game)


def default_options(rules):
    options = {}
    for key, _, choices in rules.OPTIONS:
        options[key] = 0 if choices == "seat" else None if choices == "seat_or_random" else choices[0][0]
    return options


def check_choice(rules, key, value):
    """Refuses a value that is not one of a listed option's choices (a phone's new game)."""
    for known, _, choices in rules.OPTIONS:
        if known == key and type(choices) is not str:
            for choice, _ in choices:
                if choice == value and type(choice) is type(value):
                    return
            raise GameError("unknown choice for " + key)


class Box:
    def __init__(self, board, storage):
        self.board = board
        self.storage = storage
        self.seats = self.new_seats()
        self.game_id = None  # the chosen game (tidebox.games.GAMES), None until the reader picks one
        self.rules = None  # its rules module: pure functions on plain data
        self.phase = CHOOSE
        self.state = None  # the game's state dict while playing
        self.options = {}
        self.seq = 0  # moves applied in this game: a phone's move may name the one it saw (stale: 409)
        self.undo_text = None  # the game before its last move, for games with UNDO (JSON text)
        self.tag = 0  # which game of the night this is (new_tag at its start): tonight.py counts it once
        self.countdown = timer.Countdown()
        # What the reader's screen is showing, for the phones to follow (e.g. {"reveal": {"round": 2,
        # "step": 3}}: how far the box's stepped reveal has gone). A game's screen sets it through
        # show(); it is part of every phone's view, and is not saved (a screen publishes it again).
        self.shown = {}
        # Bumped on every change a phone can see. It starts from a random 24-bit number at every boot,
        # so a phone's "unchanged since N" is not answered about a different game after a power cut
        # (that needs the new boot's numbers to reach N again: about 1 in 16 million per change).
        raw = board.urandom(3)
        self.version = ((raw[0] << 16) | (raw[1] << 8) | raw[2]) + 1
        self.shared = viewjson.JsonOut()  # the shared part of the phones' view, as JSON (views.py)
        self.shared_version = 0  # ... of this version
        self.own = viewjson.JsonOut(viewjson.SLACK)  # one seat's own part, for one answer
        self._ssid = None
        self.password = ""  # the hotspot's passphrase, shown on the join screen
        self.notice = ""  # a one-line message for the OLED (e.g. a damaged save was set aside)
        self.listeners = []  # called after every change (the reader redraws)
        # The runs of shortages of heap that the box, the web server and the panel report, and
        # whether they call for a reboot (tidebox/memory.py: the box's one memory policy)
        self.shortages = memory.Shortages(board.ticks_ms)

    def new_seats(self):
        return Seats(self.board.urandom, MAX_SEATS, self.check_name)

    def check_name(self, name, taken):
        """The name rule: the chosen game's at its MAX_NAME (games.load gives a game without one
        base's); base's before a game is chosen."""
        if self.rules:
            return self.rules.check_name(name, taken, self.rules.MAX_NAME)
        return check_name(name, taken)

    # ------------------------------------------------------------ bookkeeping

    def changed(self, save=True):
        """Something a phone can see changed; with `save`, it is saved first. When the save fails the
        box goes back to what flash holds (the last acknowledged state) and the action is refused."""
        self.version += 1
        if save:
            try:
                saving.save(self)
            except OSError:
                saving.restore(self)
                self.version += 1
                self._notify()
                raise GameError("the box could not save: try again", 503)
            except MemoryError:
                self.put_back()
                raise self.refused_short()
            self.shortages.fine(memory.MOVES)
        self._notify()

    def refused_short(self):
        """An action refused for want of memory, the box put back as flash holds it: the phone is
        told to try again (the error returned), and the miss is counted (memory.MOVES)."""
        self.shortages.miss(memory.MOVES)
        return GameError(SHORT_OF_MEMORY, 503)

    def put_back(self):
        """After a MemoryError half-way through a change: back to what flash holds (the last
        acknowledged state); when even that finds no memory, only a reboot mends it (memory.py)."""
        try:
            saving.restore(self)
            self.version += 1
            self._notify()
        except MemoryError:
            self.shortages.lost()

    def _notify(self):
        for listener in self.listeners:
            listener()

    def discard(self):
        """Forget everything: a brand new box (the chosen game is chosen again)."""
        self.seats = self.new_seats()
        self.state = None
        self.phase = CHOOSE
        self.countdown.stop()
        self.changed()

    def let_go(self):
        """Drop the game and the views from RAM (the box is about to restart from flash)."""
        self.state = None
        self.undo_text = None
        self.shared = self.own = None
        self.listeners = []

    def now(self):
        return self.board.ticks_ms()

    def ssid(self):
        if self._ssid is None:  # the board's id never changes: worked out once, not in every view
            from tidebox import hotspot  # needed once (main.py unloads it after the boot)

            self._ssid = hotspot.ssid_for(self.board.unique_id())
        return self._ssid

    def show(self, key, value):
        """A game's screen tells the phones what the box shows now (see `shown`): the phones' view
        changes, nothing is saved."""
        if self.shown.get(key) != value:
            self.shown[key] = value
            fresh = self.shared_version == self.version
            self.changed(save=False)
            if fresh:
                # `shown` travels apart from the cached shared part (views.public_view), which stays
                # valid: a reveal step costs the phones' polls no new 3 KB copy of it.
                self.shared_version = self.version

    # ------------------------------------------------------------ the game menu

    def choose_game(self, game_id):
        """The reader picks the game; the players who joined stay. Only the chosen game's rules are
        loaded (at the game menu the box holds none: see to_game_menu); choosing the game the table
        played last keeps the options it chose."""
        if self.phase not in (CHOOSE, JOIN, SETUP):
            raise NotNow("a game is being played: finish or discard it first")
        if game_id != self.game_id or self.rules is None:
            self.forget_rules()
            try:
                rules = games.load(game_id)
            except ValueError:
                raise GameError("no such game on this box")
            options = default_options(rules)
            if game_id == self.game_id:
                for key in options:
                    if key in self.options:
                        options[key] = self.options[key]
            self.game_id, self.rules, self.options = game_id, rules, options
        if self.seats.count() > self.rules.MAX_PLAYERS:
            raise NotNow("%s seats at most %d players" % (self.rules.SHORT, self.rules.MAX_PLAYERS))
        self.phase = JOIN
        self.changed()

    def forget_rules(self):
        """Unload the chosen game's rules (the game menu needs none): an evening's next game, the same
        or another, finds the heap as a fresh box has it. The game's id and options stay."""
        if self.rules is not None:
            self.rules = None
            games.unload(self.game_id)

    def to_choose(self):
        if self.phase not in (JOIN, SETUP, OVER):
            raise NotNow("a game is being played: finish or discard it first")
        self.phase = CHOOSE
        self.forget_rules()
        self.changed()

    # ------------------------------------------------------------ joining (phones and box)

    def join(self, name):
        if self.phase not in (CHOOSE, JOIN):
            raise NotNow("the game has started: ask the reader for a rejoin code")
        if self.rules is not None and self.seats.count() >= self.rules.MAX_PLAYERS:
            raise NotNow("the table is full")
        seat, token = self.seats.join(name)
        self.changed()
        return {"token": token, "seat": seat, "name": self.seats.names[seat]}

    def rejoin(self, code):
        try:
            seat, token = self.seats.use_code(code)
        except ValueError as e:
            raise GameError(str(e), 403)
        self.changed()
        return {"token": token, "seat": seat, "name": self.seats.names[seat]}

    def remove_player(self, seat):
        """Before the game: take a joined player off the list."""
        if self.phase not in (CHOOSE, JOIN, SETUP) or not 0 <= seat < len(self.seats.names):
            raise NotNow("players can only be removed before the game")
        self.seats.remove_unstarted(seat)
        if self.rules:
            self.options = default_options(self.rules)  # a seat option may name the removed seat
        self.changed()

    def rename(self, seat, name):
        """A phone's player takes another name, between games (during one, the names are the game's)."""
        if self.phase not in (CHOOSE, JOIN, SETUP):
            raise NotNow(BETWEEN_GAMES % "change a name")
        name = self.seats.rename(seat, name)
        self.changed()
        return {"seat": seat, "name": name}

    def leave(self, seat):
        """A phone's player leaves the table, between games (their phone asked them first)."""
        if self.phase not in (CHOOSE, JOIN, SETUP):
            raise NotNow(BETWEEN_GAMES % "leave")
        self.remove_player(seat)
        return {"ok": True}

    def rejoin_code(self, seat):
        code = self.seats.rejoin_code(seat)
        try:
            saving.save(self)
        except OSError:
            saving.restore(self)
            raise GameError("the box could not save: try again", 503)
        return code

    # ------------------------------------------------------------ setup

    def to_setup(self):
        if self.rules is None:
            raise NotNow("choose a game first")
        if self.seats.count() < self.rules.MIN_PLAYERS:
            raise NotNow("at least %d players must join" % self.rules.MIN_PLAYERS)
        self.phase = SETUP
        self.changed()

    def back_to_join(self):
        self.phase = JOIN
        self.changed()

    def option_label(self, key):
        """The option's current value as the setup screen shows it."""
        for known, _, choices in self.rules.OPTIONS:
            if known == key:
                value = self.options[key]
                if choices in ("seat", "seat_or_random"):
                    return "random" if value is None else self.seats.names[value]
                for choice, label in choices:
                    if choice == value:
                        return label
        return "?"

    def next_option(self, key):
        """The reader steps an option to its next choice (seats: the next player; 'random' first)."""
        for known, _, choices in self.rules.OPTIONS:
            if known != key:
                continue
            value = self.options[key]
            if choices in ("seat", "seat_or_random"):
                count = len(self.seats.names)
                nxt = 0 if value is None else value + 1
                if nxt >= count:
                    nxt = None if choices == "seat_or_random" else 0
                self.options[key] = nxt
            else:
                values = [c[0] for c in choices]
                at = values.index(value) if value in values else -1
                self.options[key] = values[(at + 1) % len(values)]
            self.changed(save=False)
            return
        raise GameError("no such option")

    def start_game(self):
        self.shared.reserve(self.rules.VIEW_ROOM)  # first: a MemoryError here changes nothing
        try:
            self.state = checked(self.rules.new_game, list(self.seats.names), self.options, self.random_below)
        except GameError as e:
            raise NotNow(e.message)  # a table the game cannot seat: not now, whatever the rules said
        self.phase = PLAY
        self.seq = 0
        self.tag = self.new_tag()
        self.undo_text = None
        self.shown = {}
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

    # ------------------------------------------------------------ playing

    def move(self, seat, name, args=None, seq=None, save=True):
        """Apply one of the game's moves for a seat (None: the box itself, for the reader). `seq`, when
        given, is the number of moves the phone had seen: a move sent on a stale copy of the game (a
        retried request, or two phones at once) is refused, so a turn is never applied twice.
        `save=False`: the move is saved with the next one, made at once after it with nothing
        awaited in between (a computer rival's shift and placement: one step, one save); should that
        one fail, put_back() takes the box back to what flash holds, before both."""
        if self.phase in (PLAY, OVER) and name == NEW_GAME and self.rules.PHONE_OPTIONS:
            return self._phone_new_game(seat, args, seq)
        if self.phase == OVER:
            raise NotNow("the game is over")
        if self.phase != PLAY or self.state is None:
            raise NotNow("the game has not started yet")
        if seq is not None and seq != self.seq:
            raise NotNow(STALE)
        undo = json.dumps(self.rules.to_dict(self.state)) if self.rules.UNDO else None
        try:
            self.rules.move(self.state, seat, name, {} if args is None else args)
        except MemoryError:  # the move may have changed the game half-way
            self.put_back()
            raise self.refused_short()
        self.seq += 1
        self.undo_text = undo
        if self.rules.is_over(self.state):
            self.phase = OVER
        self.changed(save)  # saved before anyone hears it happened
        return self.version

    def _phone_new_game(self, seat, args, seq):
        """A new game at the same table started from a phone (the phone asks its player first; during
        a game too, which ends it), for a game whose rules offer it (PHONE_OPTIONS: the options a
        phone may change for it, e.g. the rivals' speed; the others stay as the table set them).
        Played at once, like the box's own rematch; `shown` says who started it."""
        if seat is None:
            raise NotNow("the reader starts a new game from the box's menu")
        if seq is not None and seq != self.seq:  # two phones at once: the second sees the new game
            raise NotNow(STALE)
        if False in self.seats.present:
            raise NotNow("someone has left the table: the reader starts the next game on the box")
        options = dict(self.options)
        for key in args:
            if key not in self.rules.PHONE_OPTIONS:
                raise GameError("a new game from a phone cannot change " + str(key))
            options[key] = args[key]
            check_choice(self.rules, key, args[key])  # refused before the game over is let go
        self.to_tonight()
        self.state = None  # the game over is on flash: its room goes to the new one
        try:
            state = checked(self.rules.new_game, list(self.seats.names), options, self.random_below)
        except GameError as e:
            saving.restore(self)
            raise GameError(e.message)  # the phone's choices the rules refuse: 400, whatever they said
        except MemoryError:
            self.put_back()
            raise self.refused_short()
        self.options = options
        self.state = state  # (restart() checks a game is under way)
        self.rematch(state)
        self.shown = {NEW_GAME: seat}  # every phone and the box's board say who started it
        return self.version

    def new_tag(self):
        # The version: random at every boot and moved on by every change, so two games of a night
        # share one by chance only (about 1 in 16 million); taking no random bytes, it leaves the
        # games' draws as they were.
        return self.version

    def to_tonight(self):
        """The game held now goes into the night's scores (tonight.py), finished or ended early, before
        it leaves the box. A flash that cannot take it costs the line, never the table."""
        from tidebox import tonight

        try:
            tonight.add(self.storage, tonight.entry(self))
        except (OSError, MemoryError) as e:
            print("tidebox: the night's scores could not be written:", repr(e))
        del tonight
        memory.let_go("tonight_done")

    def can_undo(self):
        return self.undo_text is not None and self.phase in (PLAY, OVER)

    def undo(self):
        """The reader takes back the last move (until the next one is made)."""
        if not self.can_undo():
            raise NotNow("there is nothing to undo")
        self.state = checked(self.rules.from_dict, json.loads(self.undo_text))
        self.undo_text = None
        self.phase = OVER if self.rules.is_over(self.state) else PLAY
        self.seq += 1
        self.changed()

    def to_act(self):
        """Seats that may act now."""
        if self.phase != PLAY or self.state is None:
            return []
        return self.rules.to_act(self.state)

    def start_timer(self, seconds):
        """A game's screen starts the table's countdown (timer.py; 0: none); the phones follow it."""
        self.countdown.start(seconds, self.now())
        self.changed(save=False)

    def extend_timer(self):
        """More time on a running countdown (also after zero); False when none runs."""
        if self.countdown.extend(self.now()):
            self.changed(save=False)
            return True
        return False

    def drop(self, seat):
        """The reader drops a player who has left: past scores stay, they stop counting."""
        self.rules.leave(self.state, seat)
        self.seats.drop(seat)
        self.changed()

    def rematch(self, state):
        """A fresh game at the same table, made by the game's rules (a new course, a rematch): it is
        played at once. The move count goes on (a move sent on the old game stays stale: 409), undo
        and what the screen showed are cleared, and it is saved like any change (a failed save puts
        the box back to what flash holds and is refused)."""
        if self.phase not in (PLAY, OVER) or self.state is None:
            raise NotNow("no game is being played")
        if self.state is not state:
            self.to_tonight()  # the game it replaces (a phone's new game has recorded it already)
        self.state = state
        self.phase = PLAY
        self.tag = self.new_tag()
        self.seq += 1
        self.undo_text = None
        self.shown = {}
        self.countdown.stop()
        self.changed()

    def to_game_menu(self):
        """After the final standings: same table (dropped players stay out), back to the game menu,
        where the same game or another is chosen. The game's code is unloaded (forget_rules)."""
        if self.state is not None and self.phase in (PLAY, OVER):
            self.to_tonight()
        keep = [i for i in range(len(self.seats.names)) if self.seats.present[i]]
        for seat in range(len(self.seats.names) - 1, -1, -1):
            if seat not in keep:
                self.seats.remove_unstarted(seat)
        self.state = None
        self.phase = CHOOSE
        self.seq = 0
        self.undo_text = None
        self.shown = {}
        if self.rules:
            # The table's choices stay for the next game of the same game; a seat may have left.
            defaults = default_options(self.rules)
            for key, _, choices in self.rules.OPTIONS:
                if choices in ("seat", "seat_or_random"):
                    self.options[key] = defaults[key]
        self.forget_rules()
        self.changed()
