"""Paper Current on the real firmware (MicroPython): the box's buttons, phones entering results, two
phones editing one boat at once, replaying a round, the end and a new course at the same table, power
cuts while results are entered and rounds confirmed."""

import json
import random
import threading
import time
from pathlib import Path

import pytest
from boxrig import INTERPRETERS, ApiError, BoxProcess, wait_until
from power_cut import MID_ANSWER, MID_SAVE, PRESS_CUT_S, SAVE_ENV, Aim

from tidebox.games.paper_current import rules

pytestmark = pytest.mark.slow  # a game played on the real firmware, a box started for every test


@pytest.fixture
def pc_box(sim_tree, tmp_path, request):
    """A box on Paper Current's join screen; a test parametrised with indirect=True chooses the
    interpreter."""
    interpreter = getattr(request, "param", "micropython")
    box = BoxProcess(sim_tree, tmp_path / "state", interpreter=interpreter).start()
    assert box.choose("paper_current") == "join"
    yield box
    box.stop()


def start(box, names):
    tokens = [box.join(n)["token"] for n in names]
    assert box.press("C") == "setup"
    assert box.press("C") == "pc_card"
    return tokens


def hold(box, button):
    """A long press; the held button is released (200 ms after the long event) before the next one."""
    screen = box.press(button, long=True)
    time.sleep(0.4)
    return box.screen() if screen else screen


def game(box, token):
    return box.state(token)["game"]


def to_launches(box):
    """Page through the card (picture, then the bonus) to the launches."""
    screen = box.screen()
    while screen == "pc_card":
        screen = box.press("C")
    assert screen == "pc_launch"


def launch_all(box, token):
    to_launches(box)
    for k in range(8):
        g = game(box, token)
        assert g["boat"] == k + 1
        screen = box.press("C")
    assert screen == "pc_score"


def test_a_course_on_the_box_and_phones(pc_box):
    box = pc_box
    tokens = start(box, ["Ada", "Bo", "Cy"])
    g = game(box, tokens[0])
    assert g["phase"] == "launch" and g["round"] == 1 and g["card"]["zone"] in rules.ZONES
    to_launches(box)
    # one press per launch, a long press goes back one
    assert box.press("C") == "pc_launch"
    assert box.press("C") == "pc_launch"
    assert game(box, tokens[0])["boat"] == 3
    assert hold(box, "C") == "pc_launch"
    g = game(box, tokens[1])
    assert g["boat"] == 2 and g["launcher"] == 1 and g["now"] is True  # "your boat: 2" for Bo
    assert game(box, tokens[0])["next"] == 4
    assert hold(box, "C") == "pc_launch"
    assert game(box, tokens[0])["boat"] == 1
    assert hold(box, "C") == "pc_card"  # back before boat 1: the card again
    launch_all(box, tokens[0])
    # results from the phones (any seat) and from the box
    seq = box.state(tokens[0])["seq"]
    for boat, result in ((1, 2), (2, 1), (3, 0)):
        box.move(tokens[boat % 3], "set_result", {"boat": boat, "result": result, "was": None}, seq)
        seq += 1
    assert game(box, tokens[0])["results"][:3] == [2, 1, 0]
    assert box.press("C") == "pc_score"  # not every boat entered: refused on the box
    assert game(box, tokens[0])["phase"] == "score"
    # the refusal put the cursor on the first boat without a result (boat 4)
    for _boat in range(4, 9):
        assert box.press("B") == "pc_score"  # - -> 2 (inner)
        assert box.press("B") == "pc_score"  # 2 -> 1 (outer)
        box.press("A")
    g = game(box, tokens[0])
    assert g["results"] == [2, 1, 0, 1, 1, 1, 1, 1]
    card = g["card"]["id"]
    assert box.press("C") == "pc_round"
    g = game(box, tokens[0])
    expected = rules.round_score(card, [2, 1, 0, 1, 1, 1, 1, 1])
    assert g["round_scores"] == [expected] and g["total"] == expected and expected <= 18
    # round 2: the rotation carries on (boat 1 is the seat after boat 8's)
    assert box.press("C") == "pc_card"
    g = game(box, tokens[0])
    assert g["round"] == 2 and g["order"][0] == (0 + 8) % 3
    launch_all(box, tokens[0])
    box.move(tokens[2], "set_result", {"boat": 1, "result": 2, "was": None})
    # replay this round: from the in-game menu (long A on the score screen), confirmed
    assert hold(box, "A") == "menu"
    box.press("A")
    box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "pc_card"
    g = game(box, tokens[0])
    assert g["phase"] == "launch" and g["launch"] == 1 and g["replays"] == 1 and g["results"] == [None] * 8
    assert g["order"][0] == 2  # the same starting player
    for after in ("pc_round", "pc_final"):
        launch_all(box, tokens[0])
        for boat in range(1, 9):
            box.move(tokens[0], "set_result", {"boat": boat, "result": 2})
        assert box.press("C") == after
        if after == "pc_round":
            assert box.press("C") == "pc_card"
    # the end: the three rounds' scores (every boat inner in rounds 2 and 3) out of 54
    assert box.screen() == "pc_final"
    g = game(box, tokens[0])
    scores = [expected] + [rules.round_score(r["card"], [2] * 8) for r in g["played"][1:]]
    assert [r["score"] for r in g["played"]] == scores
    assert g["over"] and g["total"] == sum(scores) and g["reached"] is (sum(scores) >= 24)
    assert box.press("C") == "pc_final"  # the three rounds
    # the end's buttons, as on every game's end: A the menu (B there comes back), B the total again
    assert box.press("A") == "menu"
    assert box.press("B") == "pc_final"
    assert box.press("B") == "pc_final"  # the total
    assert box.press("C") == "pc_final"  # the three rounds again, not yet what next
    assert past_the_rounds(box) == "pc_end"
    assert box.press("C") == "confirm"  # new course?
    assert box.press("C") == "pc_card"
    g = game(box, tokens[0])
    assert g["phase"] == "launch" and g["round"] == 1 and g["total"] == 0 and g["past"] == [sum(scores)]
    assert box.state(tokens[0])["box"] == "play"


def past_the_rounds(box):
    """C through the three rounds' pages (the cards' names whole take one or two); the screen after."""
    screen = box.press("C")
    if screen == "pc_final":
        screen = box.press("C")
    return screen


def test_new_game_goes_back_to_the_game_menu(pc_box):
    box = pc_box
    tokens = start(box, ["Ada", "Bo"])
    for after in ("pc_round", "pc_round", "pc_final"):
        launch_all(box, tokens[0])
        for boat in range(1, 9):
            box.move(tokens[1], "set_result", {"boat": boat, "result": 0})
        assert box.press("C") == after
        if after == "pc_round":
            box.press("C")
    g = game(box, tokens[0])
    assert g["total"] == 0 and g["reached"] is False
    box.press("C")
    assert past_the_rounds(box) == "pc_end"
    box.press("A")
    assert box.press("C") == "confirm"
    assert box.press("C") == "choose"


@pytest.mark.parametrize("pc_box", INTERPRETERS, indirect=True)  # the Pico's and the Pi's
def test_two_phones_editing_one_boat_the_later_is_refused(pc_box):
    box = pc_box
    tokens = start(box, ["Ada", "Bo", "Cy"])
    launch_all(box, tokens[0])
    seen = box.state(tokens[0])
    seen_b = box.state(tokens[1])
    box.move(tokens[0], "set_result", {"boat": 5, "result": 2, "was": seen["game"]["results"][4]})
    before = box.state(tokens[2])
    # Bo saw boat 5 empty (and the older seq): refused with 409, nothing changed
    with pytest.raises(ApiError) as refused:
        box.move(tokens[1], "set_result", {"boat": 5, "result": 0, "was": seen_b["game"]["results"][4]},
                 seen_b["seq"])
    assert refused.value.status == 409
    with pytest.raises(ApiError) as refused:
        box.move(tokens[1], "set_result", {"boat": 5, "result": 0, "was": None})  # no seq: "was" alone
    assert refused.value.status == 409
    after = box.state(tokens[2])
    assert after["game"] == before["game"] and after["seq"] == before["seq"]
    assert after["game"]["results"][4] == 2


# ---------------------------------------------------------------- power cuts during score entry

RESULT_CUT_S = 0.03  # a phone's request: answered within a few ms after its save
AIMS = ("random", "mid-save", "mid-answer")  # a phone's request is cut in turn at each
CUT_CHANCE = 0.25
CONFIRM_AIMS = ("random", "mid-save", None)  # the box's confirmations are cut in turn (None: not cut)
NAMES = ["Ada", "Bo", "Cy"]


def saved_results(path):
    """The results the saved game holds (None if it cannot be read whole)."""
    try:
        return json.loads(path.read_text())["game"]["results"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def expected_public(model):
    return json.loads(json.dumps(rules.public_view(model)))


def public(view, model):
    """The view's public part, as the model's keys name it."""
    return {k: view["game"].get(k) for k in rules.public_view(model)}


class PoweredCourse:
    """A course with three phones, the box's state followed move by move by a CPython model; the
    plug is pulled at random moments while phones enter results and the box confirms rounds."""

    def __init__(self, box, tokens, rng):
        self.box = box
        self.tokens = tokens
        self.rng = rng
        self.state = Path(box.state_dir)
        self.aim = Aim(self.state)
        self.saved = self.aim.saved
        self.model = rules.from_dict(json.loads(self.saved.read_text())["game"])
        self.seq = box.state(tokens[0])["seq"]
        self.cuts = 0
        self.result_cuts = 0
        self.confirms = 0
        self.outcomes = {}

    def tally(self, outcome):
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def check(self):
        """After a restart: the save whole and not set aside, every phone's view the model's."""
        assert not (self.state / "game.json.bad").exists(), "a power cut damaged the save"
        json.loads(self.saved.read_text())  # whole, never half-written
        if self.aim.saw_a_save_under_way():
            self.tally(MID_SAVE)
        for token in self.tokens:
            view = self.box.state(token)
            assert view["seq"] == self.seq and public(view, self.model) == expected_public(self.model)

    def resume(self, screens):
        """From the saved-game screen back to the game (a finished course goes straight to its final
        screen, as nothing is left to resume); returns the screen."""
        wait_until(lambda: self.box.screen() != "splash", "the splash is over")
        if rules.is_over(self.model):
            screen = self.box.screen()
        else:
            assert self.box.screen() == "resume"
            screen = self.box.press("C")
        assert screen in screens
        return screen

    def restart(self):
        self.box.kill()
        self.cuts += 1
        self.box.start()

    def enter(self):
        """A phone enters a random result for a random boat, as the page does (the boat's value it
        saw and the view's seq); now and then the plug is pulled while it is on its way."""
        seat = self.rng.randrange(len(self.tokens))
        boat = self.rng.randrange(1, rules.BOATS + 1)
        was = self.model["results"][boat - 1]
        args = {"boat": boat, "result": self.rng.choice([r for r in rules.RESULTS if r != was]), "was": was}
        if self.rng.random() >= CUT_CHANCE:
            self.box.move(self.tokens[seat], "set_result", args, self.seq)  # acknowledged: 200
            self.apply(seat, "set_result", args)
            return
        aim = AIMS[self.result_cuts % len(AIMS)]
        self.result_cuts += 1
        def applied():
            return (saved_results(self.saved) or [None] * 8)[boat - 1] == args["result"]

        moment = self.aim.moment(aim, self.rng.uniform(0, RESULT_CUT_S), applied)
        answer = []
        sender = threading.Thread(target=send, args=(self.box, self.tokens[seat], args, self.seq, answer))
        sender.start()
        Aim.wait(moment)
        self.box.kill()
        sender.join(10)
        self.cuts += 1
        self.box.start()
        view = self.box.state(self.tokens[0])
        acknowledged = bool(answer) and isinstance(answer[0], dict)
        took = view["game"]["results"][boat - 1] == args["result"]
        if acknowledged:
            assert took, "an acknowledged result was lost"
        elif answer and isinstance(answer[0], ApiError):
            assert not took, "a refused result was applied"
        if took:
            self.apply(seat, "set_result", args)
        self.tally("acknowledged" if acknowledged else MID_ANSWER if took else "not applied")
        self.check()  # the boat holds the old or the new value, every other boat and round as it was
        self.resume(("pc_score",))

    def confirm(self):
        """The reader confirms the round on the box (every boat entered); now and then the plug is
        pulled a random moment after the press, or while its save is under way."""
        after = "pc_final" if self.model["round"] == rules.ROUNDS - 1 else "pc_round"
        aim = CONFIRM_AIMS[self.confirms % len(CONFIRM_AIMS)]
        self.confirms += 1
        if aim is None:
            assert self.box.press("C") == after
            self.apply(None, "confirm", {})
            return
        moment = self.aim.moment(aim, self.rng.uniform(0, PRESS_CUT_S))
        seen = []
        presser = threading.Thread(target=press, args=(self.box, seen))
        presser.start()
        Aim.wait(moment)
        self.box.kill()
        presser.join(10)
        self.cuts += 1
        self.box.start()
        rounds = len(self.box.state(self.tokens[0])["game"]["played"])
        shown = bool(seen) and seen[0] == after  # the box showed the confirmed round before the cut
        took = rounds == len(self.model["rounds"]) + 1
        if shown:
            assert took, "a round the box showed as confirmed was lost"
        if took:
            self.apply(None, "confirm", {})
        self.tally("round shown" if shown else "round saved, not shown" if took else "round not confirmed")
        self.check()
        self.resume((after,) if took else ("pc_score",))

    def apply(self, seat, name, args):
        rules.move(self.model, seat, name, args)
        self.seq += 1

    def idle_cut(self):
        """Nothing on its way: the plug pulled between two actions."""
        self.restart()
        self.check()
        return self.resume(("pc_card", "pc_launch", "pc_score", "pc_round", "pc_final"))


def send(box, token, args, seq, answer):
    try:
        answer.append(box.move(token, "set_result", args, seq))
    except (ApiError, OSError) as e:
        answer.append(e)


def press(box, seen):
    try:
        seen.append(box.press("C"))
    except (OSError, AssertionError) as e:
        seen.append(e)


@pytest.mark.parametrize("seed", [1, 2])
def test_power_cuts_during_score_entry_lose_no_acknowledged_result(sim_tree, tmp_path, seed):
    """The plug is pulled at random moments while phones enter results and the box confirms rounds:
    after each restart every acknowledged result (answered 200) and every round the box showed as
    confirmed is there, an unanswered result or confirmation is wholly there or not at all, and the
    save is never damaged. The box resumes from its saved-game screen."""
    rng = random.Random(seed)
    box = BoxProcess(sim_tree, tmp_path / "state", env=SAVE_ENV).start()
    try:
        assert box.choose("paper_current") == "join"
        course = PoweredCourse(box, start(box, NAMES), rng)
        model = course.model
        while not rules.is_over(model):
            launch_all(box, course.tokens[0])
            for _ in range(rules.BOATS):
                course.apply(None, "launch", {})
            course.check()
            if rng.random() < CUT_CHANCE:
                assert course.idle_cut() == "pc_score"
            while model["phase"] == rules.PHASE_SCORE:
                if None not in model["results"] and rng.random() < 0.4:
                    course.confirm()
                else:
                    course.enter()
            course.check()
            if rng.random() < CUT_CHANCE:
                course.idle_cut()  # a confirmed round survives a cut with nothing on its way
            if model["phase"] == rules.PHASE_SCORED:
                assert box.press("C") == "pc_card"
                course.apply(None, "next_round", {})
        assert box.state(course.tokens[1])["box"] == "over"
        assert [r["score"] for r in box.state(course.tokens[0])["game"]["played"]] == [
            r["score"] for r in model["rounds"]]
        print("power cuts: %d: %s" % (course.cuts, json.dumps(course.outcomes, sort_keys=True)))
        # the cuts hit what they are meant to: results on their way lost whole and kept whole
        assert course.outcomes.get(MID_SAVE, 0) > 0, course.outcomes
        assert course.outcomes.get("not applied", 0) > 0, course.outcomes
        assert course.outcomes.get(MID_ANSWER, 0) + course.outcomes.get("acknowledged", 0) > 0, (
            course.outcomes)
        confirmations = ("round shown", "round saved, not shown", "round not confirmed")
        assert sum(course.outcomes.get(k, 0) for k in confirmations) > 0, course.outcomes
    finally:
        box.stop()
