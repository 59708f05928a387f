"""The whole phone flow on Safari's engine (WebKitGTK), against the real firmware.

One box and three WebKit phones, each its own MiniBrowser with its own storage, play the short
crossing of tests/support/short_crossing.py (shared with the Firefox test): join, + and - and typing, lock,
change, reload, the reveal step by step and at once, the record's CSV, a rejoin code on a fourth
phone, the final standings, the record sheet and the print stylesheet, with the secrecy checks. Each
step is checked at 375x667 (no sideways scroll, no control under 44 px, every visible control named
as WebKit computes it) and saved as a screenshot in build/test-artifacts/webkit/.
"""

import pytest
from boxrig import BOARD_PACE_MS
from short_crossing import open_the_table, play_the_short_crossing, url_of

pytest_plugins = ("webkit_driver",)

pytestmark = pytest.mark.browser  # phones in a real browser


def test_the_phone_flow_in_webkit(new_box, open_webkit_phone, open_webkit_screen):
    box = new_box(pace_ms=BOARD_PACE_MS)
    phones = open_the_table(box, open_webkit_phone)
    table = open_webkit_screen(url_of(box) + "table")
    # WebKit only: no vibration API, as on an iPhone (the games buzz only where it exists)
    assert phones[0].call("() => typeof navigator.vibrate") == "undefined"
    play_the_short_crossing(box, phones, open_webkit_phone, table)
