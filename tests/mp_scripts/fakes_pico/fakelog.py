# What the fake hardware was asked to do, in order: the tests read it back as JSON.
events = []


def log(*event):
    events.append(list(event))


def named(name):
    return [e for e in events if e[0] == name]
