# The reader's flow: which screen the OLED shows and what buttons A, B and C do on it.
#
# Every screen is a name; `on_<name>(button, kind)` handles a press (here for the box's own screens,
# in the game's flow, e.g. tide_flow.py, for the game's) and screens.py / tide_screens.py
# draw it. The convention on every screen: A moves or opens the menu, B changes or steps,
# C goes on (confirm, start, reveal, next). Each screen prints its own hints on the bottom line.
import time

from tidebox import screens
from tidebox.box import OVER, PLAY, SETUP, Refused
from tidebox.buttons import LONG

SPLASH_MS = 1500
FLASH_MS = 3000  # the screen flashes this long when the countdown reaches zero
TONE_HZ = 2000  # a piezo's loudest region is around 2-4 kHz
TONE_MS = 300

MENU_ITEMS = screens.MENU_ITEMS
JOIN_MENU_ITEMS = screens.JOIN_MENU_ITEMS
NAME_CHARS = screens.NAME_CHARS
PAGE_SIZE = 5


class QrImages:
    """Draws the join screen's pre-rendered QR codes (see join_qr.py) at the left of the OLED."""

    def __init__(self, images):
        self.images = images

    def draw(self, fb, view):
        fb.blit(self.images[view], 0, 0)


class Reader:
    def __init__(self, box, display, buzzer, flow):
        self.box = box
        self.flow = flow(self)  # the game's own screens and buttons (e.g. tide_flow.TideFlow)
        self.fb = display
        self.buzzer = buzzer
        self.screen = "splash"
        self.cursor = 0  # highlighted line on list screens
        self.page = 0  # page of a long list
        self.step = 0  # reveal step
        self.pick = 0  # seat being picked
        self.action = None  # what picking a seat is for
        self.entry = [0, 0, 0]  # allocation typed on the box
        self.name = ""  # name typed on the box
        self.char = 0
        self.code = ""
        self.message = ""  # short feedback line shown until the next press
        self.confirm = None  # (question, on_yes, back_screen)
        self.resume_offer = False
        self.splash_until = None
        self.expired_at = None
        self.presses = 0  # button events handled (the simulator's tests wait on this)
        self.qr_drawer = None  # draw(fb, "wifi_qr" | "page_qr"), set when QR codes are available
        self.dirty = True
        self.last_second = -1
        box.listeners.append(self.touch)
        box.reader = self

    # ------------------------------------------------------------ plumbing

    def touch(self):
        self.dirty = True

    def screen_name(self):
        return self.screen

    def go(self, screen, cursor=0):
        self.screen = screen
        self.cursor = cursor
        self.page = 0
        self.message = ""
        self.dirty = True

    def boot(self, now, resume_offer):
        self.resume_offer = resume_offer
        self.splash_until = time.ticks_add(now, SPLASH_MS)
        self.go("splash")

    def press(self, button, kind):
        self.presses += 1
        self.message = ""
        handler = getattr(self, "on_" + self.screen, None) or getattr(self.flow, "on_" + self.screen)
        try:
            handler(button, kind)
        except Refused as e:
            self.message = e.message
        self.dirty = True

    def tick(self, now):
        """Called every loop: time-driven changes (splash, countdown, flashing)."""
        box = self.box
        splash_over = self.splash_until is not None and time.ticks_diff(now, self.splash_until) >= 0
        if self.screen == "splash" and splash_over:
            self.splash_until = None
            self.go("resume" if self.resume_offer else self.home())
        if box.countdown.running():
            second = box.countdown.left_ms(now) // 1000
            if second != self.last_second:
                self.last_second = second
                if self.screen == "allocate":
                    self.dirty = True
            if box.countdown.expired(now) and self.expired_at is None:
                self.expired_at = now
                if self.buzzer:
                    self.buzzer.tone(TONE_HZ, TONE_MS)
                self.dirty = True
        flashing = self.expired_at is not None and time.ticks_diff(now, self.expired_at) < FLASH_MS
        if self.screen == "allocate" and flashing:
            self.fb.invert((now // 250) % 2)  # flash four times a second
        elif self.expired_at is not None and not flashing:
            self.fb.invert(0)
        if self.dirty:
            self.dirty = False
            self.draw(now)
            return True
        return False

    def draw(self, now):
        self.fb.fill(0)
        name = "draw_" + self.screen
        drawer = getattr(screens, name, None) or getattr(self.flow.screens, name)
        drawer(self.fb, self, now)
        self.fb.show()

    def home(self):
        """The screen for the box's current phase (after boot, a menu or a resume)."""
        box = self.box
        if box.phase == SETUP:
            return "setup"
        if box.phase == OVER:
            return "final"
        if box.phase == PLAY:
            if box.state["phase"] == self.box.rules.PHASE_REVEALED:
                return "reveal"
            return "allocate" if box.countdown.running() or box.all_ready() else "card"
        return "join"

    def present_seats(self):
        seats = self.box.seats
        return [i for i in range(len(seats.names)) if seats.present[i]]

    def next_seat(self):
        seats = self.present_seats()
        if seats:
            at = seats.index(self.pick) if self.pick in seats else -1
            self.pick = seats[(at + 1) % len(seats)]

    # ------------------------------------------------------------ boot

    def on_splash(self, button, kind):
        pass  # the splash leaves by itself

    def on_resume(self, button, kind):
        if button == "C":
            self.go(self.home())
        elif button == "A":
            self.ask("Discard saved?", self.discard_saved, "resume")

    def discard_saved(self):
        self.box.discard()
        self.go("join")

    # ------------------------------------------------------------ confirmations

    def ask(self, question, on_yes, back):
        self.confirm = (question, on_yes, back)
        self.go("confirm")

    def on_confirm(self, button, kind):
        question, on_yes, back = self.confirm
        if button == "C":
            self.confirm = None
            on_yes()
        elif button == "A":
            self.confirm = None
            self.go(back)

    # ------------------------------------------------------------ joining

    def on_join(self, button, kind):
        if button == "A":
            self.go("join_menu")
        elif button == "B":
            self.page += 1
        elif button == "C":
            self.box.to_setup()
            self.go("setup")

    def on_join_menu(self, button, kind):
        if button == "A":
            self.cursor = (self.cursor + 1) % len(JOIN_MENU_ITEMS)
        elif button == "B":
            self.go("join")
        elif button == "C":
            item = JOIN_MENU_ITEMS[self.cursor]
            if item == "Add player here":
                self.name = ""
                self.char = 0
                self.go("name_entry")
            elif item == "Remove player":
                if not self.box.seats.names:
                    self.message = "Nobody joined yet"
                    return
                self.pick = 0
                self.action = "remove"
                self.go("pick_seat")
            else:
                self.go("join")

    def on_name_entry(self, button, kind):
        if button == "A":
            step = -1 if kind == LONG else 1
            self.char = (self.char + step) % len(NAME_CHARS)
        elif button == "B":
            if kind == LONG:
                self.name = self.name[:-1]
            elif len(self.name) < self.box.rules.MAX_NAME:
                self.name += NAME_CHARS[self.char]
        elif button == "C":
            if kind == LONG:
                self.go("join")
                return
            self.box.join(self.name)  # a Refused keeps the screen and shows why
            self.go("join")

    # ------------------------------------------------------------ recovery menu

    def on_menu(self, button, kind):
        if button == "A":
            self.cursor = (self.cursor + 1) % len(MENU_ITEMS)
        elif button == "B":
            self.go(self.home())
        elif button == "C":
            item = MENU_ITEMS[self.cursor]
            if item == "Back":
                self.go(self.home())
                return
            self.action = {"Drop player": "drop", "Rejoin code": "code", "Enter on box": "enter"}[item]
            seats = self.present_seats()
            if self.action == "enter":
                seats = [s for s in self.box.rules.waiting_for(self.box.state)] or seats
            self.pick = seats[0] if seats else 0
            self.go("pick_seat")

    def on_pick_seat(self, button, kind):
        if button == "A":
            if self.action == "remove":
                self.pick = (self.pick + 1) % len(self.box.seats.names)
            else:
                self.next_seat()
        elif button == "B":
            self.go("join" if self.action == "remove" else "menu")
        elif button == "C":
            name = self.box.seats.names[self.pick]
            if self.action == "remove":
                self.ask("Remove " + name + "?", self.remove_picked, "join")
            elif self.action == "drop":
                self.ask("Drop " + name + "?", self.drop_picked, "menu")
            elif self.action == "code":
                self.code = self.box.rejoin_code(self.pick)
                self.go("show_code")
            else:
                self.go("handoff")

    def remove_picked(self):
        self.box.remove_player(self.pick)
        self.go("join")

    def drop_picked(self):
        self.box.drop(self.pick)
        self.go(self.home())

    def on_show_code(self, button, kind):
        if button == "C" or button == "B":
            self.code = ""
            self.go(self.home())

    def on_handoff(self, button, kind):
        if button == "C":
            mine = self.box.state["hidden"][self.pick]
            self.entry = list(mine) if mine else [0, 0, 0]
            self.go("entry")
        elif button == "B" or button == "A":
            self.go("menu")

    def on_entered(self, button, kind):
        if button == "C":
            self.go(self.home())


