# Runs firmware functions under MicroPython for the host tests.
# stdin: {"module": "tidebox.games.token_tide", "func": "score_round", "calls": [[arg, ...], ...]}
# stdout: one JSON list, per call either {"ok": result} or {"error": "ExceptionName", "msg": "..."}.
import json
import sys

request = json.loads(sys.stdin.read())
module = __import__(request["module"], None, None, [request["func"]])
func = getattr(module, request["func"])
results = []
for args in request["calls"]:
    try:
        results.append({"ok": func(*args)})
    except Exception as e:  # reported to the test, which decides what it expected
        results.append({"error": type(e).__name__, "msg": str(e)})
print(json.dumps(results))
