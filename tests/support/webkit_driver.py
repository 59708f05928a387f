"""Phones on Safari's engine: WebKitGTK's MiniBrowser driven by WebKitWebDriver through Selenium.

Debian's `webkit2gtk-driver` gives `WebKitWebDriver`; it starts `MiniBrowser --automation` (one
browser, with its own storage, per phone) on an X display: the one in $DISPLAY (xvfb-run), or else
an Xvfb these fixtures start. The window is full screen (no toolbar) and sized to an iPhone SE's
viewport, 375x667 CSS pixels.

`WebKitPhone` is a tests/support/phone_flow.py DriverPhone: controls are found by their role and exact
accessible name as WebKit's own accessibility code computes them (WebDriver's computed role and
label), and it can list every visible control's (role, name). WebKitWebDriver has no network log:
what the page's fetch() calls receive is recorded inside the page (DriverPhone). Test modules load
the fixtures with `pytest_plugins = ("webkit_driver",)`.

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads it as a plugin)
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from phone_flow import DriverPhone, phone_opener

WEBKIT_DRIVER = "WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"

# The candidates for each role the tests look for; WebKit then says each one's role and name.
ROLE_CSS = {
    "button": "button, summary",
    "textbox": "input:not([type]), input[type=text]",
    "spinbutton": "input[type=number]",
}


def webkit_missing():
    """Why the WebKit tests cannot run here, or None."""
    if not shutil.which(WEBKIT_DRIVER):
        return "WebKitWebDriver is missing: host_tools/debian_deps.sh installs webkit2gtk-driver"
    if not Path(MINIBROWSER).exists():
        return "WebKitGTK's MiniBrowser is missing (%s): install webkit2gtk-driver" % MINIBROWSER
    if not os.environ.get("DISPLAY") and not shutil.which("Xvfb"):
        return "no X display and no Xvfb: install xvfb"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is missing: make setup installs requirements.txt"
    return None


class WebKitPhone(DriverPhone):
    """One phone: a MiniBrowser under WebKitWebDriver."""

    engine = "webkit"

    def __init__(self, display):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        options.add_argument("--full-screen")  # no toolbar: the window is the viewport
        env = dict(os.environ, DISPLAY=display)
        service = Service(executable_path=shutil.which(WEBKIT_DRIVER), env=env)
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_window_rect(width=self.viewport[0], height=self.viewport[1])
        self.names = {}  # element id -> (computed role, computed label)
        self.version = self.driver.capabilities.get("browserVersion")

    # ------------------------------------------------------------ primitives

    def call(self, function_source):
        return self.driver.execute_script("return (%s)();" % function_source)

    def _load(self, url):
        self.driver.get(url)
        self.names.clear()

    def _reload(self):
        self.driver.refresh()
        self.names.clear()

    def _close(self):
        self.driver.quit()

    def role_and_name(self, element):
        """WebKit's computed role and name. WebKit (like Safari on an iPhone, where VoiceOver says
        "text field") gives an <input type=number> the role textbox, Chromium spinbutton: the tests
        use Chromium's word, so that one difference is translated here, and nothing else."""
        key = element.id
        if key not in self.names:
            role = element.aria_role
            if role == "textbox" and element.get_attribute("type") == "number":
                role = "spinbutton"
            self.names[key] = (role, element.accessible_name)
        return self.names[key]

    def shown_elements(self, css):
        return self.driver.execute_script(
            """return Array.from(document.querySelectorAll(arguments[0])).filter(
                 e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden');""", css)

    def named_controls(self):
        """Every visible control as (role, name), in document order, as WebKit computes them."""
        return [self.role_and_name(e) for e in self.shown_elements(", ".join(ROLE_CSS.values()))]

    describe_controls = named_controls

    def _matching(self, role, name):
        return [e for e in self.shown_elements(ROLE_CSS[role]) if self.role_and_name(e) == (role, name)]

    def _enabled_and_value(self, control):
        return control.is_enabled(), control.get_property("value")

    # ------------------------------------------------------------ what a player does

    def _is_stale(self, error):
        from selenium.common.exceptions import StaleElementReferenceException

        return isinstance(error, StaleElementReferenceException)

    def click(self, role, name):
        """Taps the control once it is visible and enabled (found again should the page replace it
        meanwhile: DriverPhone._act_on)."""
        self._act_on(role, name, lambda control: control.click())

    def fill(self, role, name, text):
        """Types as a person does: tap the field, then the keys (the page selects what it holds)."""
        def type_into(control):
            control.click()
            if role != "spinbutton":
                control.clear()
            control.send_keys(text)

        self._act_on(role, name, type_into)

    def expect_role(self, css, role, name=None):
        self.expect_visible(css)  # WebKit computes no role for what is not shown
        element = self.driver.find_element("css selector", css)
        got = (element.aria_role, element.accessible_name)
        assert got[0] == role and (name is None or got[1] == name), (css, got)

    def screenshot(self, path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        assert self.driver.save_screenshot(str(path)), path


class XDisplay:
    """An Xvfb on a free display number (-displayfd), for a run without xvfb-run."""

    def __init__(self):
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.name = ":" + number

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture(scope="session")
def x_display():
    reason = webkit_missing()
    if reason:
        pytest.skip(reason)
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    display = XDisplay()
    yield display.name
    display.stop()


@pytest.fixture
def open_webkit_phone(x_display):
    """open_webkit_phone(url) -> a WebKitPhone on `url` (a new phone: its own browser and storage)."""
    yield from phone_opener(lambda: WebKitPhone(x_display))


class WebKitScreen(WebKitPhone):
    """A laptop or a TV's browser as the table screen: landscape."""

    viewport = (1280, 720)


@pytest.fixture
def open_webkit_screen(x_display):
    """open_webkit_screen(url) -> a WebKitScreen on `url` (a table screen: /table)."""
    yield from phone_opener(lambda: WebKitScreen(x_display))
