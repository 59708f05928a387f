# Tidebox firmware: the box's own parts (screens, buttons, timer, storage, web) around the games.
import sys

VERSION = "0.1.0"


def forget(name, keep=()):
    """Unload the module `name` so its code and data can be collected (the next import loads it
    again): it leaves sys.modules and the package that holds it as an attribute. A package goes
    with every module in it but those named in `keep`. The one way the box unloads code: the
    screens not shown now (panel.py), a game's modules (games.unload), the QR encoder (main.py)."""
    module = sys.modules.get(name)
    if module is None:
        return
    if not hasattr(module, "__path__"):  # a module, not a package: nothing to look for
        _drop(name)
        return
    inside = name + "."
    for known in [known for known in sys.modules if known == name or known.startswith(inside)]:
        if known not in keep:
            _drop(known)


def _drop(name):
    del sys.modules[name]
    at = name.rfind(".")
    if at > 0:
        owner, part = sys.modules.get(name[:at]), name[at + 1:]
        if owner is not None and part in owner.__dict__:
            delattr(owner, part)
