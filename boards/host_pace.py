# The host board at a Pico W's pace (boards/host.py: TIDEBOX_PACE_MS, TIDEBOX_SAVE_MS), imported only
# by a paced board: an unpaced one does not hold this code.
import time


def pace(app, ms):
    """Every connection costs ms/8 and every answer the web server builds costs ms more, spent
    blocking as on the board (host.py: TIDEBOX_PACE_MS); the /sim routes only pay the connection."""
    serve = app.serve
    dispatch = app.dispatch_request

    async def paced_serve(stream_in, stream_out):
        time.sleep_ms(ms // 8)
        await serve(stream_in, stream_out)

    async def paced_dispatch(request):
        response = await dispatch(request)
        if request is None or not request.path.startswith("/sim"):
            time.sleep_ms(ms)
        return response

    app.serve = paced_serve
    app.dispatch_request = paced_dispatch


def pace_saves(ms):
    """Every save (tidebox/storage.py: a temporary file, then a rename) blocks ms after writing the
    temporary file, before the rename, as the flash's programming does (host.py: TIDEBOX_SAVE_MS)."""
    from tidebox import storage

    real = storage.os

    class PacedOs:
        stat = staticmethod(real.stat)
        remove = staticmethod(real.remove)

        @staticmethod
        def rename(old, new):
            if old.endswith(".tmp"):
                time.sleep_ms(ms)
            real.rename(old, new)

    storage.os = PacedOs
