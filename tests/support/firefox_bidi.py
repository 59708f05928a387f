"""Phones on Firefox's engine: Debian's firefox-esr driven through WebDriver BiDi, with no driver.

`firefox-esr --headless --remote-debugging-port 0 --profile <dir>` opens a WebDriver BiDi server and
writes its port to <dir>/WebDriverBiDiServer.json; the tests speak BiDi's JSON over its websocket
(the `websocket-client` package) themselves, so nothing is downloaded: no geckodriver, no browser
build. The profile's user.js turns off the first-run pages, updates, telemetry and every background
connection, so the browser talks only to the box.

One Firefox serves a test module; each phone is a window of its own in a user context of its own
(its own cookies and storage, as a separate phone has), with an iPhone SE's viewport, 375x667 CSS
pixels. `FirefoxPhone` is a tests/support/phone_flow.py DriverPhone: controls are found by their role and
exact accessible name as Firefox's own accessibility code computes them (BiDi's accessibility
locator, which searches by a name but does not say one, so the names cannot be listed), clicked with
real pointer input (input.performActions) and typed into with real keys. Test modules load the
fixtures with `pytest_plugins = ("firefox_bidi",)`.

PYTEST_DONT_REWRITE (test modules import helpers from here before pytest loads it as a plugin)
"""

import base64
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from phone_flow import DriverPhone, phone_opener, wait_until

BROWSERS = ("firefox-esr", "firefox")

# What a fresh profile would do by itself besides showing the page: all of it off.
USER_JS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False,
    "startup.homepage_welcome_url": "about:blank",
    "trailhead.firstrun.didSeeAboutWelcome": True,
    "app.update.disabledForTesting": True,
    "app.update.auto": False,
    "app.normandy.enabled": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "browser.search.update": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.ping-centre.telemetry": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "services.settings.server": "http://127.0.0.1:9/",
    "browser.region.network.url": "",
    "messaging-system.rsexperimentloader.enabled": False,
    # every phone is a window of its own: none of them may be slowed down as a background tab
    "dom.min_background_timeout_value": 4,
    "dom.timeout.enable_budget_timer_throttling": False,
}

VISIBLE_JS = "e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'"

# WebDriver's key codes
CONTROL, BACKSPACE = "\ue009", "\ue003"


def firefox_missing():
    """Why the Firefox tests cannot run here, or None."""
    if not any(shutil.which(b) for b in BROWSERS):
        return "Firefox is missing: host_tools/debian_deps.sh installs firefox-esr"
    try:
        import websocket  # noqa: F401
    except ImportError:
        return "websocket-client is missing: make setup installs requirements.txt"
    return None


class BiDiError(Exception):
    def __init__(self, method, answer):
        super().__init__("%s: %s: %s" % (method, answer.get("error"), answer.get("message")))
        self.error = answer.get("error")


def from_remote(value):
    """A BiDi RemoteValue as Python data (a node as {"sharedId": ...}, which BiDi takes back)."""
    kind = value["type"]
    if kind in ("undefined", "null"):
        return None
    if kind in ("string", "boolean"):
        return value["value"]
    if kind == "number":
        v = value["value"]
        return float(v.replace("Infinity", "inf")) if isinstance(v, str) else v
    if kind in ("array", "set", "nodelist", "htmlcollection"):
        return [from_remote(v) for v in value.get("value", [])]
    if kind in ("object", "map"):
        return {k if isinstance(k, str) else json.dumps(from_remote(k)): from_remote(v)
                for k, v in value.get("value", [])}
    if kind == "node":
        return {"sharedId": value["sharedId"]}
    return {"type": kind}


class Firefox:
    """One headless firefox-esr with its BiDi session."""

    def __init__(self):
        import websocket

        self.binary = next(shutil.which(b) for b in BROWSERS if shutil.which(b))
        self.profile = tempfile.TemporaryDirectory(prefix="tidebox-firefox-")
        profile = Path(self.profile.name)
        (profile / "user.js").write_text("".join(
            "user_pref(%s, %s);\n" % (json.dumps(k), json.dumps(v)) for k, v in USER_JS.items()))
        self.log = profile / "firefox.log"
        with open(self.log, "wb") as log:  # the browser keeps its own copy of the descriptor
            self.proc = subprocess.Popen(
                [self.binary, "--headless", "--no-remote", "--remote-debugging-port", "0",
                 "--profile", str(profile), "about:blank"], stdout=log, stderr=subprocess.STDOUT)
        server = profile / "WebDriverBiDiServer.json"

        def port():
            assert self.proc.poll() is None, "Firefox exited: %s" % self.log.read_text()[-2000:]
            try:
                return json.loads(server.read_text())["ws_port"]
            except (OSError, ValueError, KeyError):
                return None

        ws_port = wait_until(port, "Firefox opened no WebDriver BiDi port", timeout=60)
        # Firefox refuses a websocket handshake that names an Origin
        self.ws = websocket.create_connection("ws://127.0.0.1:%d/session" % ws_port, timeout=60,
                                              suppress_origin=True)
        self.next_id = 0
        self.version = self.send("session.new", {"capabilities": {}})["capabilities"]["browserVersion"]

    def send(self, method, params=None):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params or {}}))
        while True:
            answer = json.loads(self.ws.recv())
            if answer.get("id") == self.next_id:
                if answer.get("type") == "error":
                    raise BiDiError(method, answer)
                return answer["result"]
            # no events are subscribed to; anything else is ignored

    def quit(self):
        try:
            self.send("browser.close")
        except Exception:  # noqa: BLE001 - the connection closes as Firefox goes
            pass
        try:
            self.ws.close()
        finally:
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.profile.cleanup()


class FirefoxPhone(DriverPhone):
    """One phone: a Firefox window in a user context of its own."""

    engine = "firefox"

    def __init__(self, firefox):
        self.ff = firefox
        self.version = firefox.version
        self.user_context = firefox.send("browser.createUserContext")["userContext"]
        self.context = firefox.send("browsingContext.create",
                                    {"type": "window", "userContext": self.user_context})["context"]
        firefox.send("browsingContext.setViewport", {"context": self.context, "viewport": {
            "width": self.viewport[0], "height": self.viewport[1]}})

    def _close(self):
        """The phone is gone: its window closed, its storage with it."""
        self.ff.send("browsingContext.close", {"context": self.context})
        self.ff.send("browser.removeUserContext", {"userContext": self.user_context})

    # ------------------------------------------------------------ primitives

    def call(self, function_source, *nodes):
        """Runs `function_source` in the page, with `nodes` (from `_find`) as its arguments."""
        result = self.ff.send("script.callFunction", {
            "functionDeclaration": function_source, "target": {"context": self.context},
            "arguments": list(nodes),
            "awaitPromise": True, "resultOwnership": "none"})
        if result["type"] == "exception":
            raise AssertionError("JS on firefox: %s" % result["exceptionDetails"].get("text"))
        return from_remote(result["result"])

    def _load(self, url):
        self.ff.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def _reload(self):
        self.ff.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def _named(self, role, name=None, start=None):
        """Every node (from `start` down) whose role and accessible name (Firefox's own) are exactly
        these; any name when `name` is None."""
        value = {"role": role} if name is None else {"role": role, "name": name}
        params = {"context": self.context, "locator": {"type": "accessibility", "value": value}}
        if start is not None:
            params["startNodes"] = [start]
        nodes = self.ff.send("browsingContext.locateNodes", params)["nodes"]
        return [{"sharedId": n["sharedId"]} for n in nodes]

    def _matching(self, role, name):
        return [n for n in self._named(role, name) if self.call(VISIBLE_JS, n)]

    def _enabled_and_value(self, node):
        return tuple(self.call("e => [!e.disabled, e.value === undefined ? null : e.value]", node))

    def describe_controls(self):
        """The visible controls' text, for failure messages (BiDi does not say the computed names)."""
        return self.call("""() => Array.from(document.querySelectorAll('button, input, summary')).filter(
            e => e.getClientRects().length > 0).map(
            e => e.localName + ' ' + (e.getAttribute('aria-label') || e.textContent || e.value))""")

    def _pointer_click(self, node):
        self.call("e => e.scrollIntoView({block: 'center', inline: 'center'})", node)
        self.ff.send("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": node}},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def _keys(self, keys):
        actions = []
        for key in keys:
            if isinstance(key, tuple):  # a chord: (modifier, key)
                actions += [{"type": "keyDown", "value": k} for k in key]
                actions += [{"type": "keyUp", "value": k} for k in reversed(key)]
            else:
                actions += [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self.ff.send("input.performActions", {"context": self.context, "actions": [
            {"type": "key", "id": "keyboard", "actions": actions}]})

    # ------------------------------------------------------------ what a player does

    def click(self, role, name):
        """Waits for the control to be visible and enabled, then taps it (found again should the
        page replace it meanwhile: DriverPhone._act_on)."""
        self._act_on(role, name, self._pointer_click)

    def _is_stale(self, error):
        return isinstance(error, BiDiError) and error.error == "no such node"

    def fill(self, role, name, text):
        """Types as a person does: tap the field, then the keys (the page selects what a number field
        holds on focus; a text field is emptied first with select-all and backspace)."""
        self.click(role, name)
        keys = [] if role == "spinbutton" else [(CONTROL, "a"), BACKSPACE]
        self._keys(keys + list(text))

    def expect_role(self, css, role, name=None):
        """The element `css` selects has this role (and accessible name) in Firefox's accessibility tree."""
        self.expect_visible(css)
        element = self.call("() => document.querySelector(%s)" % json.dumps(css))
        assert element in self._named(role, name, start=element), "%s is not %s %r on Firefox" % (
            css, role, name)

    def screenshot(self, path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        data = self.ff.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        Path(path).write_bytes(base64.b64decode(data))


@pytest.fixture(scope="module")
def firefox():
    reason = firefox_missing()
    if reason:
        pytest.skip(reason)
    browser = Firefox()
    yield browser
    browser.quit()


@pytest.fixture
def open_firefox_phone(firefox):
    """open_firefox_phone(url) -> a FirefoxPhone on `url` (a new phone: its own window and storage)."""
    yield from phone_opener(lambda: FirefoxPhone(firefox))


class FirefoxScreen(FirefoxPhone):
    """A laptop or a TV's browser as the table screen: landscape."""

    viewport = (1280, 720)


@pytest.fixture
def open_firefox_screen(firefox):
    """open_firefox_screen(url) -> a FirefoxScreen on `url` (a table screen: /table)."""
    yield from phone_opener(lambda: FirefoxScreen(firefox))
