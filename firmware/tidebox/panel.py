# The box's panel: which screen the OLED shows and what buttons A, B and C do on it, for the reader
# (whoever runs the table from the box's buttons). The "reader" in a game's state (Token Tide's
# state["reader"], whose turn it is to read the round) is the game's role, saved with the game.
#
# The screens are a stack of small objects (lobby.py and screens.py for the box's own, the chosen
# game's flow.py for the game's): the top one draws and takes the presses; a menu or a question is
# pushed on top and popped when done; `home()` rebuilds the stack for the box's phase. The
# convention on every screen: A moves or opens the menu, B changes or steps, C goes on (confirm,
# start, reveal, next). Each screen prints its own hints on the bottom line.
import framebuf
import gc
import time

from micropython import const

from tidebox import draw, games, memory, screens
from tidebox.box import CHOOSE, JOIN, NEXT_FILE, OVER, PLAY, SETUP, GameError

SPLASH_MS = const(1500)
FLASH_MS = const(3000)  # a screen showing the countdown flashes this long when it reaches zero
FLASH_HALF_MS = const(250)  # ... four times a second
TONE_HZ = const(2000)  # a piezo's loudest region is around 2-4 kHz
TONE_MS = const(300)
NOT_ENOUGH = "Not enough memory"  # the message line once the box stops rebooting for memory


class QrImages:
    """Draws the join screen's pre-rendered QR codes (see join_qr.py) at the left of the OLED."""

    def __init__(self, pixels):
        self.pixels = pixels  # {"wifi_qr": 512 bytes, "page_qr": ...}: the table screen's copy (api.py)
        self.images = {}
        for view in pixels:
            self.images[view] = framebuf.FrameBuffer(pixels[view], 64, 64, framebuf.MONO_VLSB)

    def draw(self, fb, view):
        fb.blit(self.images[view], 0, 0)

    def raw(self, view):
        return self.pixels[view]


class Panel:
    """The OLED and the buttons: the stack of screens, the chosen game's flow, and what its screens
    share (`kept`). Every screen holds it as `screen.panel`."""

    def __init__(self, box, display, buzzer):
        self.box = box
        self.fb = display
        self.buzzer = buzzer
        self.stack = [self.welcome().Splash(self)]
        self.flow = None  # the chosen game's flow module (its screens), loaded with the game
        self.flow_id = None
        self.flow_tick = None
        self.kept = None  # what the game's flow keeps between its screens (flow.kept()), or None
        self.message = ""  # short feedback line shown until the next press
        self.resume_offer = False
        self.splash_until = None
        self.expired_at = None  # when the box's countdown was seen at zero (None: not yet, or let be)
        self.last_second = -1
        self.inverted = 0  # what the panel was last told, so invert() is sent only on a change
        self.presses = 0  # button events handled (the simulator's tests wait on this)
        self.frames = 0  # frames drawn: the table screen asks for the panel again when this moves
        self.qr_drawer = None  # QrImages: the join screen's QR codes, set when they are available
        # (tries, box.version) once the box came back from a reboot for memory: a shortage before
        # the box changes again is one more try at the same thing (short_of_memory)
        self.came_back = None
        self.dirty = True
        self.wake = None  # the board's flag that wakes a resting panel loop (resting.py), if it has one
        # From a press until its screen is shown: [button, kind, screen, box.seq] (see press).
        self.pressing = [None, None, None, 0]
        box.listeners.append(self.touch)

    # ------------------------------------------------------------ the stack

    @property
    def screen(self):
        """The top screen's name (the simulator and the tests read it)."""
        return self.stack[-1].name

    def top(self):
        return self.stack[-1]

    def push(self, screen):
        self.stack.append(screen)
        self.touch()

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()
        else:
            self.home()
        self.touch()

    def replace(self, screen):
        self.stack[-1] = screen
        self.touch()

    def ask(self, question, on_yes):
        self.push(screens.Confirm(self, question, on_yes))

    def home(self):
        """The screen for the box's phase (after boot, a menu, a resume or any action)."""
        box = self.box
        if box.phase in (PLAY, OVER):
            self.load_flow()
        else:
            self.forget_flow()  # joining and setup need only the rules: the players' phones need the heap
        memory.let_go("home")
        if box.phase != OVER:
            memory.let_go("not_over")
        if box.phase == CHOOSE:
            screen = self.lobby().ChooseGame(self)
        elif box.phase == JOIN:
            screen = self.lobby().Join(self)
        elif box.phase == SETUP:
            screen = self.lobby().Setup(self)
        else:
            self.stack = []
            memory.let_go("playing")
            # The join screen's codes neither: after the game the box reboots (restart.py) and
            # draws them again at its boot.
            self.qr_drawer = None
            screen = self.flow.home(self)
        self.stack = [screen]
        self.message = ""
        self.touch()

    def lobby(self):
        """The screens before a game (lobby.py), imported when one is needed."""
        from tidebox import lobby

        return lobby

    def welcome(self):
        """The splash and the resume offer (welcome.py), imported when one is needed."""
        from tidebox import welcome

        return welcome

    def load_flow(self, game_id=None):
        """The chosen game's flow module (and its rules); the previous game's was unloaded with its
        rules. `game_id`: a game about to be restored from flash, before the box knows it."""
        game_id = game_id or self.box.game_id
        if self.flow_id != game_id:
            self.flow = None
            self.flow_tick = None
            self.kept = None
            self.flow_id = game_id
            if self.flow_id is not None:
                self.flow = games.load(self.flow_id, "flow")
                # A game that acts by itself (computer rivals) offers tick(panel, now) -> changed,
                # called while it is played (games.load fills in None for one that does not).
                self.flow_tick = self.flow.tick
                # A game whose screens share state offers kept() -> a dict of it, which the panel
                # holds (panel.kept) until the game's screens are let go.
                self.kept = self.flow.kept() if self.flow.kept else None

    def forget_flow(self):
        """Unload the game's screens (its rules stay with the box) until the game starts."""
        if self.flow is not None:
            games.unload(self.flow_id, keep_rules=True)
        self.flow = None
        self.flow_tick = None
        self.kept = None
        self.flow_id = None

    def touch(self):
        self.dirty = True
        if self.wake is not None:
            self.wake.set()  # a phone's change is drawn now, not at the resting loop's next look

    def boot(self, now, resume_offer, step=None):
        """After a start: the splash, then the resume offer or the screen for the box's phase. `step`:
        the box restarted itself (tidebox/restart.py) and takes the step it was taking instead."""
        if step is not None:
            self.welcome().carry_on(self, step)
            if step["do"] != "menu":  # (after a game the box reboots with room to spare)
                self.came_back = (step["tries"], self.box.version)
            return
        self.resume_offer = resume_offer
        if self.box.phase in (PLAY, OVER):  # the resume offer says how far the game has come
            self.load_flow()
        self.splash_until = time.ticks_add(now, SPLASH_MS)
        self.stack = [self.welcome().Splash(self)]
        self.touch()

    # ------------------------------------------------------------ restarting (tidebox/restart.py)

    def to_game_menu(self):
        """After a game: the same table back at the game menu, on a fresh heap."""
        self.box.to_game_menu()
        self.restart("menu")

    def play(self):
        """The game set up starts (the lobby's screens make way for its own). Short of memory for
        it, the box restarts and starts it on a fresh heap."""
        try:
            self.box.start_game()
            self.home()
        except MemoryError:
            self.short_of_memory("start")

    def short_of_memory(self, step="home", game=None, tries=None):
        """A MemoryError in the reader's flow or a phone's move the box could not put back: the panel
        says so and the box restarts where flash says it was, then takes `step` again. `tries`: the
        reboots that already tried it (None: one more than the box came back with, if nothing has
        changed since, else none). After memory.TRIES the box stays up instead (stay_short)."""
        if tries is None:
            back = self.came_back
            tries = back[0] + 1 if back is not None and back[1] == self.box.version else 0
        if tries >= memory.TRIES:
            self.stay_short()
            return
        self.restart(step, game, tries, True)

    def stay_short(self):
        """A fresh heap did not help: no more reboots for it; the panel says so and the box goes on
        (the phones are told to try again where a view finds no room)."""
        self.box.shortages.stayed()
        self.message = NOT_ENOUGH
        self.dirty = True

    def restart(self, step, game=None, tries=0, short=False):
        """Restart the box, which then takes `step` (tidebox/restart.py says why and how). What the
        box holds in RAM goes first: it comes back from flash, and the room is needed to write the
        step down (with a short of memory, the press under way too, made again if nothing was saved
        since) and to say on the panel what happens."""
        self.stack = []
        self.flow = self.flow_tick = self.kept = None
        self.box.let_go()
        gc.collect()
        pressing = self.pressing
        press = pressing if short and step == "home" and pressing[0] is not None else None
        try:
            self.box.storage.save(NEXT_FILE, {"do": step, "game": game, "tries": tries, "press": press})
        except (OSError, MemoryError):
            pass  # without the step the box comes back at its save, with the resume offer
        fb = self.fb
        fb.fill(0)
        if self.inverted:
            self.inverted = 0
            fb.invert(0)
        draw.title(fb, "Short of memory" if short else "One moment")
        try:
            # The rest of the words, and the log of why: imported only now, into the room just let
            # go of, so the rest of the time this code takes no heap.
            from tidebox import restart

            restart.say(self, step, short)
        except MemoryError:
            pass
        try:
            fb.show()
        except MemoryError:
            pass  # the reboot must not wait on the words
        self.box.board.restart()

    # ------------------------------------------------------------ buttons and time

    def press(self, button, kind):
        self.presses += 1
        self.message = ""
        # What is being pressed, kept until its screen has been drawn: a MemoryError on the way
        # restarts the box (short_of_memory), which presses it again if nothing was saved meanwhile.
        # (Kept in a list made once: recording it must not need memory.)
        pressing = self.pressing
        pressing[0] = button
        pressing[1] = kind
        pressing[2] = self.screen
        pressing[3] = self.box.seq
        try:
            self.top().press(button, kind)
        except GameError as e:
            self.message = e.message
        self.dirty = True

    def tick(self, now):
        """Called every loop: time-driven changes (the splash, the countdown, the screen's and the
        game's own, such as a rival's move). Allocates nothing and writes nothing to the panel when
        nothing changed."""
        if self.splash_until is not None and time.ticks_diff(now, self.splash_until) >= 0:
            self.splash_until = None
            if self.resume_offer:
                self.stack = [self.welcome().Resume(self)]
                self.touch()
            else:
                self.home()
        countdown = self.box.countdown
        # The box's countdown (timer.py), a service for any game: a screen that shows it (class
        # attribute `counts_down`) is redrawn once a second and flashes when it reaches zero; the
        # box beeps once whatever it shows.
        counts_down = getattr(self.top(), "counts_down", False)
        if countdown.deadline is not None:
            second = countdown.left_ms(now) // 1000
            if second != self.last_second:
                self.last_second = second
                if counts_down:
                    self.dirty = True
            if self.expired_at is None and countdown.expired(now):
                self.expired_at = now
                if self.buzzer:
                    self.buzzer.tone(TONE_HZ, TONE_MS)
                self.dirty = True
        invert = 0
        if counts_down and self.expired_at is not None:
            since = time.ticks_diff(now, self.expired_at)
            if since < FLASH_MS:
                invert = (since // FLASH_HALF_MS) & 1
        if invert != self.inverted:
            self.inverted = invert
            self.fb.invert(invert)
        if self.top().tick(now):
            self.dirty = True
        if self.flow_tick is not None and self.box.phase == PLAY and self.flow_tick(self, now):
            self.dirty = True  # the game acted by itself (e.g. a computer rival's move)
        if self.dirty:
            self.dirty = False
            self.draw(now)
            return True
        return False

    def pixels(self):
        """What the OLED shows: its 1,024 bytes, 8 rows of pixels to a byte (MONO_VLSB), for the
        table screen's copy (api.py). The Pi's driver keeps them as `buf`, MicroPython's as `buffer`."""
        fb = self.fb
        return fb.buf if hasattr(fb, "buf") else fb.buffer

    def stop_flash(self):
        """The countdown was extended or stopped: no more flashing."""
        self.expired_at = None
        if self.inverted:
            self.inverted = 0
            self.fb.invert(0)

    def draw(self, now):
        self.fb.fill(0)
        self.top().draw(self.fb, now)
        self.fb.show()
        self.frames += 1
        self.pressing[0] = None  # the press, if any, is done: its screen is shown
