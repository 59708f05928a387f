# Tidebox firmware: the box's own parts (screens, buttons, timer, storage, web) around the games.
VERSION = "0.1.0"
