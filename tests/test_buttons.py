"""The firmware's button debouncer under MicroPython: bounces, short and long presses."""

import pytest


def timeline(*spans, until=2000, step=5):
    """Raw samples every `step` ms; spans are (button, down_ms, up_ms) plus optional bounce lists."""
    samples = []
    for now in range(0, until, step):
        held = ""
        for button, down, up, *bounce in spans:
            bounces = bounce[0] if bounce else ()
            if down <= now < up and not any(b <= now < b + step for b in bounces):
                held += button
        samples.append([now, held])
    return samples


@pytest.fixture
def press(mp):
    """The debouncer on a screen that tells every button's short and long presses apart."""
    return lambda samples, long_presses="ABC": mp.call("mp_buttons", "run", samples, long_presses)


def test_a_short_press_is_one_short_event_on_release(press):
    events = press(timeline(("A", 100, 250)))
    assert [e[1:] for e in events] == [["A", "short"]]
    assert 250 <= events[0][0] <= 300


def test_contact_bounce_is_ignored(press):
    # The contact chatters for 15 ms at both ends: still one press.
    events = press(timeline(("B", 100, 300, [105, 115, 290])))
    assert [e[1:] for e in events] == [["B", "short"]]


def test_a_glitch_shorter_than_the_debounce_time_is_no_press(press):
    assert press(timeline(("C", 100, 115))) == []
    assert press(timeline(("C", 100, 115)), "") == []  # nor where a press acts once down


def test_a_release_shorter_than_the_debounce_time_is_bounce_not_a_second_press(press):
    # Down 15 ms is a press, but up for less than 25 ms inside it is the contact bouncing.
    events = press(timeline(("A", 100, 400, [200, 205, 210])), "")
    assert [e[1:] for e in events] == [["A", "short"]]


def test_holding_gives_one_long_event_while_held_and_nothing_on_release(press):
    events = press(timeline(("A", 100, 1500)))
    assert [e[1:] for e in events] == [["A", "long"]]
    assert 800 <= events[0][0] < 1500  # fires while still held, after 700 ms


def test_a_button_with_no_long_press_on_the_screen_acts_once_down(press):
    # The screen tells only C's presses apart: A is a press 15 ms after it settled down, not at
    # its release, and neither holding it nor letting go gives anything more.
    events = press(timeline(("A", 100, 1500), ("C", 1600, 1700)), "C")
    assert [e[1:] for e in events] == [["A", "short"], ["C", "short"]]
    assert 115 <= events[0][0] <= 125
    assert events[1][0] >= 1700


def test_a_bouncing_press_acting_once_down_is_still_one_press(press):
    events = press(timeline(("B", 100, 300, [105, 115, 290])), "")
    assert [e[1:] for e in events] == [["B", "short"]]
    assert 130 <= events[0][0] <= 140  # down 15 ms after the last bounce at 115-120
    assert press(timeline(("C", 100, 115)), "") == []  # a glitch is still no press


def test_two_buttons_at_once_are_two_presses(press):
    events = press(timeline(("A", 100, 250), ("C", 120, 260)))
    assert sorted(e[1:] for e in events) == [["A", "short"], ["C", "short"]]


@pytest.fixture
def host_presses(mp):
    return lambda presses: [e[1:] for e in mp.call("mp_buttons", "host_presses", presses)]


def test_a_press_right_after_a_long_press_is_a_press_of_its_own(host_presses):
    # A long press is handled while held; the next press, sent as soon as the first is handled and
    # released, waits on the host board until the release has settled: else the two are one hold.
    assert host_presses([["C", 700], ["C", 80]]) == [["C", "long"], ["C", "short"]]
    assert host_presses([["A", 80], ["A", 80], ["C", 700], ["C", 700], ["B", 80]]) == [
        ["A", "short"], ["A", "short"], ["C", "long"], ["C", "long"], ["B", "short"]]


def test_the_read_that_takes_a_press_comes_the_moment_it_has_settled(mp):
    """While a press settles the loop reads every HELD_READ_MS (5 ms), or sooner when the press
    settles sooner (PRESS_MS, 15 ms after its edge); a release keeps the plain period."""
    samples = [[0, ""], [100, "A"], [104, "A"], [108, "A"], [112, "A"], [115, "A"], [120, ""], [124, ""]]
    waits = mp.call("mp_buttons", "next_reads", samples)
    assert waits == [None, 5, 5, 5, 3, 5, 5, 5]

