#!/usr/bin/env python3
"""JavaScript source maps through the binary (testdata/sourcemap): the
bundle's frames under their original names in text and JSON reports, the
header's count, JSON's generated place (the profile's own callFrame), a
map given with --source-map, the explorer's status line, and a broken map
a warning with exit status 0, never a crash."""
import json
import os
import shutil
import subprocess
import tempfile
import sys

sys.path.insert(0, os.path.dirname(__file__))

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
ROOT = os.path.join(TESTDATA, "sourcemap")
failures = 0

# The profile's scripts where no machine has them (the material it was
# made from may be on this one): found only under --source-path.
WORK = tempfile.mkdtemp(prefix="wprof-sourcemaps-")
PROFILE = os.path.join(WORK, "bundle.cpuprofile")
with open(os.path.join(ROOT, "dist", "bundle.cpuprofile")) as f:
    text = f.read().replace("file:///work/material/sm/", "file:///nonexistent/sm/")
with open(PROFILE, "w") as f:
    f.write(text)


def fail(what):
    global failures
    failures += 1
    print("FAIL", what)


def run(*args):
    return subprocess.run([WPROF, "--report", "flat", *args, PROFILE],
                          capture_output=True, text=True, timeout=60)


r = run("--source-path", ROOT)
if r.returncode != 0:
    fail(f"exit {r.returncode}: {r.stderr}")
if "# source maps: 1 of 1 scripts" not in r.stdout:
    fail("header: " + r.stdout[:400])
for place in ("sortByKey  ", "src/main.js:3:10", "makeItems  ", "src/util.js:1:17"):
    if place not in r.stdout:
        fail(f"{place!r} not in the report")

# JSON: the generated place is the profile's own callFrame of p, 1-based
# as DevTools shows it.
doc = json.load(open(PROFILE))
p = next(n["callFrame"] for n in doc["nodes"] if n["callFrame"]["functionName"] == "p")
r = run("--source-path", ROOT, "--format", "json")
rows = json.loads(r.stdout)["rows"]
row = next((x for x in rows if x["name"] == "sortByKey"), None)
if not row or row.get("generated") != {"url": p["url"], "line": p["lineNumber"] + 1,
                                       "column": p["columnNumber"] + 1}:
    fail(f"sortByKey's generated place: {row}")
top = next((x for x in rows if x["url"] == p["url"]), None)
if not top or "no original" not in top.get("unmapped", ""):
    fail(f"the bundle's top level says why it is not mapped: {top}")
if json.loads(r.stdout).get("symbols") != "source maps: 1 of 1 scripts":
    fail("JSON symbols")

# Compare: both sides mapped before pairing, each side's generated place.
r = subprocess.run([WPROF, "--report", "flat", "--diff", "--format", "json",
                    "--source-path", ROOT, PROFILE, PROFILE],
                   capture_output=True, text=True, timeout=60)
pair = next((x for x in json.loads(r.stdout)["rows"] if x["name"] == "sortByKey"), None)
if not pair or pair["match"] != "same" or \
        pair["new"].get("generated", {}).get("column") != p["columnNumber"] + 1:
    fail(f"compare: {pair}")

# Without the script, a map given by hand.
r = run("--source-map", os.path.join(ROOT, "dist", "bundle.min.js.map"))
if "checksum  " not in r.stdout or "# source maps: 1 of 1 scripts" not in r.stdout:
    fail("--source-map FILE: " + r.stdout[:600])
r = run("--source-map", os.path.join(ROOT, "dist"))
if "busyLoop  " not in r.stdout:
    fail("--source-map DIR: " + r.stdout[:600])

# x_google_ignoreList: util.js is third-party, so --mine folds its
# functions into their callers as it folds node_modules.
r = run("--mine", "--root", ROOT, "--source-map",
        os.path.join(ROOT, "ignore", "bundle.min.js.map"))
if "makeItems" in r.stdout or "checksum" in r.stdout or "sortByKey  " not in r.stdout:
    fail("--mine with an ignore list: " + r.stdout[:800])

# Speedscope counts lines and columns from 1: the same frames, each a
# sample of its own, map to the same places.
frames, samples = [], []
for node in doc["nodes"]:
    cf = node["callFrame"]
    if "bundle" in cf["url"] and cf["functionName"] in ("p", "u"):
        frames.append({"name": cf["functionName"],
                       "file": cf["url"].replace("file:///work/material/sm/", "/nowhere/"),
                       "line": cf["lineNumber"] + 1, "col": cf["columnNumber"] + 1})
        samples.append([len(frames) - 1])
speedscope = os.path.join(WORK, "bundle.speedscope.json")
with open(speedscope, "w") as f:
    json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json",
               "shared": {"frames": frames},
               "profiles": [{"type": "sampled", "name": "bundle", "unit": "microseconds",
                             "startValue": 0, "endValue": len(samples),
                             "samples": samples, "weights": [1] * len(samples)}]}, f)
r = subprocess.run([WPROF, "--report", "flat", "--source-path", ROOT, speedscope],
                   capture_output=True, text=True, timeout=60)
for place in ("sortByKey  ", "src/main.js:3:10", "makeItems  ", "src/util.js:1:17"):
    if place not in r.stdout:
        fail(f"speedscope: {place!r} not in " + r.stdout[:600])

# Without anything: the profile as it is, no header note.
r = run()
if "source maps" in r.stdout or "sortByKey" in r.stdout:
    fail("no maps found, yet mapped: " + r.stdout[:400])

# A broken map: a warning naming it, the frames as the profile has them.
bad = os.path.join(ROOT, "bad", "bundle.min.js.map")
r = run("--source-map", bad)
if r.returncode != 0 or bad not in r.stderr or "byte 91" not in r.stderr:
    fail(f"broken map: exit {r.returncode}, stderr {r.stderr!r}")
if "# source maps: 0 of 1 scripts" not in r.stdout or "  p  " not in r.stdout:
    fail("broken map report: " + r.stdout[:600])

# The explorer: the header's count, and the status line's generated place
# for the row found by search.
if shutil.which("tmux"):
    import tmux_driver as td  # noqa: E402

    def explorer():
        command = "%s --source-path %s %s" % (WPROF, ROOT, PROFILE)
        pane = td.Pane(command, 160, 30)
        pane.shows("source maps: 1 of 1 scripts", "the header's note")
        pane.press(["3"], "flat", "the flat pane")
        screen = pane.press(["/", "sortByKey", "Enter"], "generated ", "the status line")
        status = screen.rstrip("\n").split("\n")[-1]
        if "src/main.js:3:10" not in status or "bundle.min.js:1:636" not in status:
            fail("status line: " + status)
        pane.close()

    td.run_tests([explorer])
    failures += len(td.failures)

shutil.rmtree(WORK)
print("ok" if not failures else f"{failures} failures")
sys.exit(1 if failures else 0)
