"""The whole phone flow on Firefox's engine (Debian's firefox-esr over WebDriver BiDi), against the
real firmware at the board's pace.

One box and three Firefox phones, each a window with its own storage, play the short crossing of
tests/support/short_crossing.py (shared with the WebKit test): join, + and - and typing, lock, change,
reload, the reveal step by step as the box shows it and then at once, the record's CSV, a rejoin code
on a fourth phone, the final standings, the record sheet and the print stylesheet, with the secrecy
checks. Each step is checked at 375x667 (no sideways scroll, no control under 44 px, the step's
controls found by the names Firefox computes) and saved as a screenshot in
build/test-artifacts/firefox/.
"""

import pytest
from boxrig import BOARD_PACE_MS
from short_crossing import open_the_table, play_the_short_crossing, url_of

pytest_plugins = ("firefox_bidi",)

pytestmark = pytest.mark.browser  # phones in a real browser


def test_the_phone_flow_in_firefox(new_box, open_firefox_phone, open_firefox_screen):
    box = new_box(pace_ms=BOARD_PACE_MS)
    phones = open_the_table(box, open_firefox_phone)
    table = open_firefox_screen(url_of(box) + "table")
    play_the_short_crossing(box, phones, open_firefox_phone, table)
