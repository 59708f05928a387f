"""Power cuts during the saves phones' actions make, on the emulated Pico W (make sim-pico's emulator).

    python host_tools/rp2040/power_cuts.py [--cuts 50] [--seed 1]

Two setups, each a base flash made once and copied for every cut, so that each cut starts from the
same state: "join", Token Tide chosen on the box (its join screen, nobody joined yet), where the
three phones' joins over the PPP link are the actions; and "play", three phones joined
and the game started from the box's buttons (the tide card), where the actions are the three
phones' allocations, locked in (POST /api/move {"move": "allocate", "args": {"allocation": [...],
"ready": true}}). A run without a cut counts the erases and programs each setup's actions make.

Each cut: the base booted (in "play", C takes the resume offer), a cut armed at a random kind of
flash operation (erase or program, of those the actions make), a random number of them skipped
and a random fraction of the way through it (pico_sim.mjs POST /cut {"at", "skip", "fraction"}),
then the phones' actions one by one, each answer noted (a 200 is the box's acknowledgement: it
saves before it answers) until the power goes. The chip restarts from the flash as the cut left
it, and the checks are:
- it boots (main.py runs: littlefs mounted; the rp2 port would format a filesystem it cannot
  mount), restarts for nothing but the cut, and its console shows no error after the cut;
- the save is not damaged: the flash read back on the host once the box has resumed (read_lfs.py,
  the firmware's littlefs under the unix port) mounts and holds main.py, the hotspot's password,
  /data/game.json as JSON, no game.json.bad (a save the box could not read is set aside so, with
  "Save damaged" on its splash) and no crash.log (what the box logs when a task dies);
- the box offers the saved game: the panel shows the resume screen (its title bar and hints as in a
  run without a cut) whenever the save has a game under way or a player joined, and only then;
- after C resumes it, every acknowledged action is in the state, through the phones' own /api/state
  with their tokens (a join: the seat is there with its name; an allocation: the phone's, locked),
  and the action the cut hit is either all there or not at all.
Prints each cut and the tally; exits 1 if any check failed.
"""

import argparse
import base64
import http.client
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import build  # noqa: E402
import sim_pico  # noqa: E402

OUT = build.ROOT / "build" / "power-cuts"
NAMES = ("Ada", "Bo", "Cy")
ALLOCATIONS = ([3, 2, 2], [1, 5, 1], [0, 0, 7])
STARTED = "tidebox: pico_w on port"
ROW = 16  # bytes of one panel row (128 pixels)
SPLASH_MS = 1500  # tidebox/panel.py: the splash's time after a start


class Failed(sim_pico.SimError):
    """A check after a cut failed (the emulator's own waits raise its parent, SimError, and count too)."""


def wait(emu, condition, what, timeout=180):
    return emu.wait_for(condition, what, timeout)


def settled(emu, quiet_s=1.5, timeout=120):
    return emu.settled(quiet_s, timeout)


def since_cut(status):
    return status["console"].split("power cut")[-1]


def pixels(status):
    return base64.b64decode(status["panel"]["pixels"])


def text(bits):
    return "\n".join("".join("#" if bits[y * ROW + x // 8] >> (7 - x % 8) & 1 else "." for x in range(128))
                     for y in range(64))


def bars(status):
    """The panel's title bar and hint line (rows 0-8 and 55-63): the screen's kind, not its lines."""
    p = pixels(status)
    return p[:9 * ROW] + p[55 * ROW:]


def past_splash(emu, condition, what):
    """The status once the box has started (`condition`) and its splash has had its time (SPLASH_MS,
    1.5 s of chip time, in which the panel draws nothing), then settled."""
    s = wait(emu, condition, what)
    wait(emu, lambda t, at=s["uptime_ms"]: t["uptime_ms"] >= at + SPLASH_MS + 300, "the splash's end")
    return settled(emu)


def boot(flash, log):
    emu = sim_pico.Emulator(flash, log)
    try:
        return emu, past_splash(emu, lambda s: STARTED in s["console"], "the box's start")
    except BaseException:
        emu.stop()
        raise


def press(emu, button):
    before = emu.status()["panel"]["frames"]
    emu.press(button, 120)
    wait(emu, lambda s: s["panel"]["frames"] > before, "a frame after %s" % button, 60)
    return settled(emu)


def halt(emu):
    """Stop the emulator with its flash written out (SIGTERM: pico_sim.mjs saves the image first)."""
    if emu.alive():
        emu.proc.terminate()
        try:
            emu.proc.wait(20)
        except subprocess.TimeoutExpired:
            pass
    emu.stop()


def files(flash):
    """The littlefs on the flash image, read on the host: {path: text}; Failed if it does not mount."""
    out = subprocess.run([build.micropython(), "-X", "heapsize=8M", str(HERE / "read_lfs.py"), str(flash),
                          hex(sim_pico.FS_OFFSET)], capture_output=True, text=True, timeout=60)
    try:
        got = json.loads(out.stdout)
    except ValueError:
        raise Failed("read_lfs.py: %s %s" % (out.stdout[-300:], out.stderr[-300:])) from None
    if "error" in got:
        raise Failed(got["error"])
    return got["files"]


def call(emu, method, path, body=None, token=None):
    """A phone's request: (status, answer), or (None, why) when the connection went (the power cut)."""
    try:
        code, answer, _ = emu.phone(method, path, body, token=token, timeout=90)
        return code, answer
    except (OSError, http.client.HTTPException) as e:
        return None, repr(e)


def state_after_restart(emu):
    """The box's public /api/state, once the phones' link is up again (a phone reaches the box only
    when its hotspot is: the PPP link comes up again after the restart, up to a few seconds after
    the box has started); a failure says what the link saw of the request."""
    wait(emu, lambda s: s["link"]["up"], "the phones' link after the restart")
    code, public = call(emu, "GET", "/api/state")
    if code != 200:
        link = emu.status()["link"]
        raise Failed("the state after the restart: %s %s (the link %s; its last connections: %s)"
                     % (code, public, "up" if link["up"] else "down", link["recent"][-2:]))
    return public


class Setup:
    """One setup's base flash, the phones' tokens in it, its actions and what a run without a cut saw."""

    def __init__(self, name, base, tokens, resume_at_boot):
        self.name = name
        self.base = base
        self.tokens = list(tokens)  # the seats joined in the base
        self.resume_at_boot = resume_at_boot
        self.ops = None  # {"erase": n, "program": n} the actions make, from the run without a cut

    def actions(self):
        if self.name == "join":
            return [("join", i, {"name": NAMES[i]}) for i in range(3)]
        return [("allocate", i, {"move": "allocate", "args": {"allocation": ALLOCATIONS[i], "ready": True}})
                for i in range(3)]

    def act(self, emu, action, tokens):
        kind, i, body = action
        if kind == "join":
            return call(emu, "POST", "/api/join", body)
        return call(emu, "POST", "/api/move", body, tokens[i])


def make_bases():
    """The join base (Token Tide chosen, nobody joined) and the play base (three joined, started)."""
    first = sim_pico.prepare(OUT, fresh=True)
    emu, _ = boot(first, OUT / "base.log")  # the first boot saves the hotspot's password
    try:
        press(emu, "C")  # the game menu starts on Token Tide: its join screen (saved)
        time.sleep(1)
    finally:
        halt(emu)
    join_base = OUT / "base-join.bin"
    shutil.copyfile(first, join_base)
    emu, s = boot(first, OUT / "base-play.log")
    tokens = []
    try:
        for name in NAMES:
            code, answer = call(emu, "POST", "/api/join", {"name": name})
            if code != 200:
                raise Failed("%s could not join: %s %s" % (name, code, answer))
            tokens.append(answer["token"])
        press(emu, "C")  # the setup screen
        press(emu, "C")  # the game starts: the tide card
        code, view = call(emu, "GET", "/api/state", token=tokens[0])
        if code != 200 or view["box"] != "play":
            raise Failed("the game did not start: %s %s" % (code, view))
        time.sleep(1)
    finally:
        halt(emu)
    play_base = OUT / "base-play.bin"
    shutil.copyfile(first, play_base)
    return (Setup("join", join_base, [], False),
            Setup("play", play_base, tokens, True))


def start(setup, flash, log):
    """The base booted; in play, the resume offer taken. Returns (emulator, resume screen's status)."""
    shutil.copyfile(setup.base, flash)
    emu, s = boot(flash, log)
    offer = None
    try:
        if setup.resume_at_boot:
            offer = s
            press(emu, "C")
    except BaseException:
        emu.stop()
        raise
    return emu, offer


def reference(setup):
    """A run without a cut: the erases and programs each action makes, and (play) the resume screen."""
    emu, offer = start(setup, OUT / "trial.bin", OUT / ("reference-%s.log" % setup.name))
    tokens = list(setup.tokens)
    counts = []
    try:
        emu._call("/cut", {"at": "any", "skip": 10 ** 9, "fraction": 0})  # counts, never fires
        for action in setup.actions():
            before = emu.status()["cut"]
            code, answer = setup.act(emu, action, tokens)
            if code != 200:
                raise Failed("%s: %s %s" % (action, code, answer))
            if action[0] == "join":
                tokens.append(answer["token"])
            after = emu.status()["cut"]
            counts.append((after["erases"] - before["erases"], after["programs"] - before["programs"]))
        emu._call("/cut", {"off": True})
    finally:
        halt(emu)
    setup.ops = {"erase": sum(e for e, _ in counts), "program": sum(p for _, p in counts)}
    print("# %s: the three actions' saves take %s (erases, programs), %d erases and %d programs in all"
          % (setup.name, counts, setup.ops["erase"], setup.ops["program"]), flush=True)
    return offer


def check_state(emu, setup, sent, tokens, hit):
    """After resuming: every acknowledged action is there, and the one cut is all there or not at all.
    Returns whether the cut action was kept (None: no action was cut)."""
    public = state_after_restart(emu)
    names = [seat["name"] for seat in public["seats"]]
    kept = None
    if setup.name == "join":
        acked = [a for a, ok in sent if ok]
        want = [NAMES[a[1]] for a in acked]
        if names[:len(want)] != want or len(names) > len(want) + (1 if hit else 0):
            raise Failed("seats %s after joins %s acknowledged (one more cut: %s)" % (names, want, hit))
        for (_, i, _), token in zip(acked, tokens):
            code, view = call(emu, "GET", "/api/state", token=token)
            if code != 200 or view["you"] != {"seat": i, "name": NAMES[i]}:
                raise Failed("%s's token after the restart: %s %s" % (NAMES[i], code, view))
        if hit:
            kept = names == want + [NAMES[hit[1]]]
        return kept, names
    if names != list(NAMES) or public["box"] != "play":
        raise Failed("the table after the restart: %s, %s" % (names, public["box"]))
    for action, ok in sent + ([(hit, None)] if hit else []):
        _, i, body = action
        code, view = call(emu, "GET", "/api/state", token=tokens[i])
        if code != 200:
            raise Failed("%s's state after the restart: %s %s" % (NAMES[i], code, view))
        mine, locked = view["game"]["mine"], view["game"]["locked"]
        there = mine == body["args"]["allocation"] and locked is True
        if ok and not there:
            raise Failed("%s's acknowledged allocation %s is not kept: %s, locked %s"
                         % (NAMES[i], body["args"]["allocation"], mine, locked))
        if ok is None:
            if not there and (mine is not None or locked):
                raise Failed("%s's cut allocation is half there: %s, locked %s" % (NAMES[i], mine, locked))
            kept = there
    return kept, names


def trial(setup, n, kind, skip, fraction, resume_bars, tally):
    flash = OUT / "trial.bin"
    emu, _ = start(setup, flash, OUT / ("cut-%d.log" % n))
    tokens = list(setup.tokens)
    sent, hit = [], None
    try:
        emu._call("/cut", {"at": kind, "skip": skip, "fraction": fraction})
        for action in setup.actions():
            code, answer = setup.act(emu, action, tokens)
            status = emu.status()
            if code is None or status["boots"] > 1:
                hit = action if code is None else None
                if code is not None:  # an answer that came just before the power went: still acknowledged
                    sent.append((action, code == 200))
                break
            if code != 200:
                raise Failed("%s was refused without a cut: %s %s" % (action, code, answer))
            sent.append((action, True))
            if action[0] == "join":
                tokens.append(answer["token"])
        else:
            status = emu.status()
            if status["cut"]["armed"]:
                emu._call("/cut", {"off": True})
                halt(emu)
                print("cut %2d: %s %s skip %d: not reached (the actions made %d erases, %d programs)"
                      % (n, setup.name, kind, skip, status["cut"]["erases"], status["cut"]["programs"]))
                tally["not reached"] += 1
                return
        after = past_splash(emu, lambda s: s["boots"] > 1 and STARTED in since_cut(s),
                            "the restart after the cut")
        last = after["cut"]["last"]
        if [r["reason"] for r in after["resets"]] != [last["reason"]]:
            raise Failed("restarts other than the cut's: %s" % after["resets"])
        errors = [w for w in ("Traceback", "Error", "crash", "damaged") if w in since_cut(after)]
        if errors:
            raise Failed("the console after the cut: %s\n%s" % (errors, since_cut(after)[-1500:]))
        public = state_after_restart(emu)
        offered = bars(after) == resume_bars
        should = public["box"] == "play" or len(public["seats"]) > 0
        if offered != should:
            raise Failed("resume offered: %s, with the box at %s and %d seats; the panel:\n%s" % (
                offered, public["box"], len(public["seats"]), text(pixels(after))))
        if offered:
            press(emu, "C")
        kept, names = check_state(emu, setup, sent, tokens, hit)
        if bars(emu.status()) == resume_bars:
            raise Failed("C did not take the resume offer")
    finally:
        halt(emu)
    saved = files(flash)
    if "/main.py" not in saved or "/data/wifi.json" not in saved:
        raise Failed("files gone from the flash: %s" % sorted(saved))
    bad = sorted(p for p in saved if p.endswith(".bad") or p.endswith("crash.log"))
    if bad:
        raise Failed("a damaged save set aside or a crash logged: %s" % {p: saved[p][:300] for p in bad})
    try:
        json.loads(saved["/data/game.json"])
    except (KeyError, ValueError) as e:
        raise Failed("the save on flash: %r" % e) from None
    acked = sum(1 for _, ok in sent if ok)
    mid = 0 < last["done"] < last["bytes"]
    tally["cuts"] += 1
    tally[setup.name] += 1
    tally[last["kind"]] += 1
    tally["mid-" + last["kind"]] += mid
    tally["acknowledged"] += acked
    tally["kept"] += acked
    tally["offered"] += offered
    tally["should offer"] += should
    tally["cut action kept"] += kept is True
    tally["cut action lost"] += kept is False
    print("cut %2d: %s, %s skip %d at %3.0f %% (%s of %d bytes at 0x%x): %d acknowledged, kept; "
          "the cut %s: %s; resume %s; seats %s" % (
              n, setup.name, kind, skip, 100 * fraction, last["kind"], last["bytes"], last["addr"], acked,
              hit[0] if hit else "-", {True: "all there", False: "not there", None: "-"}[kept],
              "offered" if offered else "not offered (nobody joined)", names), flush=True)


TALLY = ("cuts", "join", "play", "erase", "program", "mid-erase", "mid-program", "acknowledged", "kept",
         "cut action kept", "cut action lost", "offered", "should offer", "not reached")


def run(cuts, seed, only=None):
    """The bases, the runs without a cut, then `cuts` cuts: (tally, [(cut, why it failed)]); `only`:
    just that cut of the seed's series, to look at one again."""
    rng = random.Random(seed)
    setups = make_bases()
    offer = None
    for setup in setups:
        offer = reference(setup) or offer
    resume_bars = bars(offer)
    tally = dict.fromkeys(TALLY, 0)
    failures = []
    for n in range(cuts):
        setup = setups[0] if n % 3 == 2 else setups[1]  # a third of the cuts in joins, the rest in play
        kind = rng.choice([k for k in ("erase", "program") if setup.ops[k]])
        skip, fraction = rng.randrange(setup.ops[kind]), round(rng.random(), 3)
        if only is not None and n != only:
            continue
        try:
            trial(setup, n, kind, skip, fraction, resume_bars, tally)
        except sim_pico.SimError as e:
            failures.append((n, "%s, %s skip %d at %.3f: %s" % (setup.name, kind, skip, fraction, e)))
            print("cut %2d: %s, %s skip %d at %.3f: FAILED: %s" % (n, setup.name, kind, skip, fraction, e),
                  flush=True)
    return tally, failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", type=int, help="only this cut of the series (from 0)")
    args = parser.parse_args(argv)
    try:
        sim_pico.firmware_image()
        sim_pico.phones_ppp()
    except sim_pico.SimError as e:
        print("power-cuts: %s" % e, file=sys.stderr)
        return 1
    sim_pico.node_modules()
    t0 = time.monotonic()
    tally, failures = run(max(args.cuts, (args.only or 0) + 1), args.seed, args.only)
    print("| power cuts during phones' saves (join / play) | %d (%d / %d) |"
          % (tally["cuts"], tally["join"], tally["play"]))
    print("| cut in an erase / in a program | %d / %d |" % (tally["erase"], tally["program"]))
    print("| of which part-way (some bytes done, some not): mid-erase / mid-program | %d / %d |"
          % (tally["mid-erase"], tally["mid-program"]))
    print("| actions acknowledged (200) before the power went / kept after the restart | %d / %d |"
          % (tally["acknowledged"], tally["kept"]))
    print("| the action the cut hit: all there / not at all | %d / %d |"
          % (tally["cut action kept"], tally["cut action lost"]))
    print("| damaged saves (failed checks) | %d |" % len(failures))
    print("| resume offered after the restart / where a save had players or a game | %d / %d |"
          % (tally["offered"], tally["should offer"]))
    if tally["not reached"]:
        print("| cuts armed past the actions' last flash operation (not counted) | %d |"
              % tally["not reached"])
    print("# %.0f s of wall time" % (time.monotonic() - t0))
    for n, why in failures:
        print("# failure: cut %d: %s" % (n, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
