# The refusals the box and the games raise, at the bottom of the house: the box, the web side, the
# panel and every game's rules import them, and this module imports nothing.


class GameError(Exception):
    """A move, setup or action refused (by a game's rules or by the box); the message is meant for a
    person. `status` says why, as the web API answers it: 400 the request itself is malformed or
    illegal, 409 not now (someone else's turn, the wrong phase, a stale copy of the game); the box's
    own refusals also 401, 403 and 503."""

    status = 400

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class NotNow(GameError):
    """Well formed, but not allowed at this moment (HTTP 409)."""

    status = 409
