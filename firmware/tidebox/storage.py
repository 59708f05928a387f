# Saving to flash: write a temporary file, then rename it over the old one. littlefs renames
# atomically even on power loss, so a save is either the old state or the new one, never half.
import json
import os


class Storage:
    def __init__(self, folder):
        self.folder = folder

    def path(self, name):
        return self.folder + "/" + name

    def save(self, name, data):
        final = self.path(name)
        temp = final + ".tmp"
        with open(temp, "w") as f:
            json.dump(data, f)
        os.rename(temp, final)

    def load(self, name):
        """The saved dict, None if there is none. Raises ValueError if the file is unreadable."""
        try:
            with open(self.path(name)) as f:
                text = f.read()
        except OSError:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            raise ValueError("saved file is damaged")
        if not isinstance(data, dict):
            raise ValueError("saved file is damaged")
        return data

    def set_aside(self, name):
        """Keep a damaged file for later inspection, out of the way of the next save."""
        try:
            os.rename(self.path(name), self.path(name + ".bad"))
        except OSError:
            pass

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError:
            pass

    def append_log(self, name, text, cap):
        """Append to a log file; when it would pass `cap` bytes it starts over with the newest text."""
        path = self.path(name)
        try:
            size = os.stat(path)[6]
        except OSError:
            size = 0
        mode = "a" if size + len(text) <= cap else "w"
        with open(path, mode) as f:
            f.write(text[-cap:])
