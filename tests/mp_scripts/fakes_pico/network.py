# A fake rp2 `network` (CYW43): records the order of calls and, like the real driver, rejects
# config keys it does not know (rp2 raises on max_clients).
import fakelog

STA_IF = 0
AP_IF = 1
_KNOWN = ("ssid", "essid", "key", "password", "security", "pm", "channel", "hostname", "txpower")


def country(code=None):
    if code is None:
        return "XX"
    fakelog.log("country", code)


class WLAN:
    PM_NONE = 0x10  # rp2's values
    PM_PERFORMANCE = 0xA11142
    PM_POWERSAVE = 0xA11C82
    polls_until_up = 3  # active() reads False this many times after active(True)

    def __init__(self, itf=STA_IF):
        self.itf = itf
        self.up = False
        self.polls = 0
        fakelog.log("WLAN", itf)

    def config(self, *args, **kwargs):
        for key in kwargs:
            if key not in _KNOWN:
                raise ValueError("unknown config param")
        for key in sorted(kwargs):
            fakelog.log("config", key, kwargs[key])

    def active(self, value=None):
        if value is None:
            if not self.up:
                return False
            self.polls += 1
            return self.polls > WLAN.polls_until_up
        self.up = bool(value)
        self.polls = 0
        fakelog.log("active", bool(value))

    def ifconfig(self):
        return ("192.168.4.1", "255.255.255.0", "192.168.4.1", "192.168.4.1")
