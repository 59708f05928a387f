"""Phones on Safari's engine: WebKitGTK's MiniBrowser driven by WebKitWebDriver through Selenium.

Debian's `webkit2gtk-driver` gives `WebKitWebDriver`; it starts `MiniBrowser --automation` (one
browser, with its own storage, per phone) on an X display: the one in $DISPLAY (xvfb-run), or else
an Xvfb these fixtures start. The window is full screen (no toolbar) and sized to an iPhone SE's
viewport, 375x667 CSS pixels.

`WebKitPhone` is the phones' adapter of tests/phone_flow.py: controls are found by their role and
exact accessible name as WebKit's own accessibility code computes them (WebDriver's computed role
and label). Test modules load the fixtures with `pytest_plugins = ("webkit_driver",)`.

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads it as a plugin)
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from phone_flow import WAIT_S, Phone, wait_until

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "build" / "test-artifacts" / "webkit"
WEBKIT_DRIVER = "WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
VIEWPORT = (375, 667)  # an iPhone SE

# The candidates for each role the tests look for; WebKit then says each one's role and name.
ROLE_CSS = {
    "button": "button, summary",
    "textbox": "input:not([type]), input[type=text]",
    "spinbutton": "input[type=number]",
}

# Every response the page's own fetch() calls receive, recorded inside the page: WebKitWebDriver
# has no network log. The page looks `fetch` up at each call, so wrapping it after a load sees every
# request from then on.
RECORD_FETCH_JS = """() => {
  if (window.__responses) return;
  window.__responses = [];
  const real = window.fetch;
  window.fetch = function (url, opts) {
    return real.call(this, url, opts).then(res => {
      const headers = {};
      res.headers.forEach((v, k) => { headers[k] = v; });
      res.clone().text().then(
        body => window.__responses.push([String(url), res.status, JSON.stringify(headers), body]));
      return res;
    });
  };
}"""


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


class WebKitPhone(Phone):
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
        self.driver.set_window_rect(width=VIEWPORT[0], height=VIEWPORT[1])
        self.names = {}  # element id -> (computed role, computed label)
        self.version = self.driver.capabilities.get("browserVersion")

    def quit(self):
        self.driver.quit()

    # ------------------------------------------------------------ primitives

    def call(self, function_source):
        return self.driver.execute_script("return (%s)();" % function_source)

    def goto(self, url):
        self.driver.get(url)
        self.names.clear()
        self.record_traffic()

    def reload(self):
        self.driver.refresh()
        self.names.clear()
        self.record_traffic()

    def record_traffic(self):
        self.call(RECORD_FETCH_JS)

    def responses(self):
        """What the page's fetch() calls received since the last load: [(url, status, headers, body)]."""
        return [tuple(r) for r in self.call("() => window.__responses || []")]

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

    def controls(self):
        """Every visible control as (role, name), in document order, as WebKit computes them."""
        return [self.role_and_name(e) for e in self.shown_elements(", ".join(ROLE_CSS.values()))]

    def _find_now(self, role, name):
        found = [e for e in self.shown_elements(ROLE_CSS[role]) if self.role_and_name(e) == (role, name)]
        assert len(found) <= 1, "%d visible controls are %s %r" % (len(found), role, name)
        return found[0] if found else None

    def _find(self, role, name, timeout=WAIT_S):
        return wait_until(lambda: self._find_now(role, name),
                          "no visible %s named %r on WebKit; there are %r" % (role, name, self.controls()),
                          timeout)

    # ------------------------------------------------------------ what a player does

    def click(self, role, name):
        control = self._find(role, name)
        wait_until(control.is_enabled, "%s %r stays disabled" % (role, name))
        control.click()

    def fill(self, role, name, text):
        """Types as a person does: tap the field, then the keys (the page selects what it holds)."""
        control = self._find(role, name)
        control.click()
        if role != "spinbutton":
            control.clear()
        control.send_keys(text)

    def expect_control(self, role, name, visible=True, enabled=None, value=None):
        if not visible:
            wait_until(lambda: self._find_now(role, name) is None, "%s %r is still visible" % (role, name))
            return

        def ok():
            control = self._find_now(role, name)
            if control is None:
                return False
            if enabled is not None and control.is_enabled() != enabled:
                return False
            return value is None or control.get_property("value") == value

        wait_until(ok, lambda: "%s %r: not %s on WebKit; the visible controls are %r" % (
            role, name, json.dumps({"enabled": enabled, "value": value}), self.controls()))

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
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
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
    phones = []

    def opener(url):
        phone = WebKitPhone(x_display)
        phones.append(phone)
        phone.goto(url)
        return phone

    yield opener
    for phone in phones:
        phone.quit()
