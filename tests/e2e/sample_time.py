#!/usr/bin/env python3
"""--sample-time through the binary (time-rules.md, "Samples and their
duration"): the XS file profiler's .cpuprofile is read by each sample's
own delta unless `--sample-time next` asks for DevTools' reading, a V8
file by the next sample unless `own` asks; every header says which.
Self times are summed here from the files' own arrays."""
import json
import os
import subprocess
import sys

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
XS = os.path.join(TESTDATA, "validate-xs.cpuprofile")
V8 = os.path.join(TESTDATA, "validate.cpuprofile")
OWN_TEXT = "own delta (XS file profiler)"
NEXT_TEXT = "next sample (as DevTools)"
failures = 0


def fail(what):
    global failures
    failures += 1
    print("FAIL", what)


def self_by_function(path, reading):
    """{(name, line): self µs}: a sample lasts its own timeDelta, or until
    the next sample in time order (the last until endTime)."""
    doc = json.load(open(path))
    frame = {n["id"]: (n["callFrame"]["functionName"] or "(anonymous)",
                       n["callFrame"]["lineNumber"]) for n in doc["nodes"]}
    t, times = doc["startTime"], []
    for delta in doc["timeDeltas"]:
        t += delta
        times.append(t)
    order = sorted(range(len(times)), key=lambda i: times[i])  # stable
    self = {}
    for k, i in enumerate(order):
        if reading == "own":
            lasts = max(doc["timeDeltas"][i], 0)
        else:
            after = times[order[k + 1]] if k + 1 < len(order) else doc["endTime"]
            lasts = max(after - times[i], 0)
        key = frame[doc["samples"][i]]
        self[key] = self.get(key, 0) + lasts
    return self


def report(path, *args, form="text"):
    r = subprocess.run([WPROF, "--report", "flat", "--format", form, *args, path],
                       capture_output=True, timeout=60)
    if r.returncode != 0:
        fail("%s %s: exit %d %r" % (path, args, r.returncode, r.stderr))
    return r


def check_reading(path, args, reading, text):
    r = report(path, *args)
    header = [line for line in r.stdout.decode().splitlines() if line.startswith("# sample time:")]
    if header != ["# sample time: " + text]:
        fail("%s %s: header %r" % (path, args, header))
    doc = json.loads(report(path, *args, form="json").stdout)
    if doc.get("sample_time") != text:
        fail("%s %s: JSON sample_time %r" % (path, args, doc.get("sample_time")))
    want = self_by_function(path, reading)
    got = {}
    for row in doc["rows"]:
        # JSON's lines are 1-based (-1 unknown), the file's from 0.
        key = (row["name"], row["line"] - 1 if row["line"] > 0 else -1)
        got[key] = got.get(key, 0) + row["self"]
    for key, value in want.items():
        if abs(got.get(key, 0) - value) > 1e-6 * max(value, 1):
            fail("%s %s: %s self %r, want %r" % (path, args, key, got.get(key), value))
    # CSV has no header: the own-delta reading is noted on stderr, the
    # DevTools reading goes without saying.
    csv = report(path, *args, form="csv")
    if csv.stderr != (("wprof-tui: %s: sample time: %s\n" % (path, text)).encode()
                      if reading == "own" else b""):
        fail("%s %s: CSV's stderr: %r" % (path, args, csv.stderr))
    return doc


own = check_reading(XS, [], "own", OWN_TEXT)
check_reading(XS, ["--sample-time", "own"], "own", OWN_TEXT)
next_ = check_reading(XS, ["--sample-time", "next"], "next", NEXT_TEXT)
check_reading(V8, [], "next", NEXT_TEXT)
check_reading(V8, ["--sample-time", "own"], "own", OWN_TEXT)

# The two readings of the XS file give different numbers.
if own["profile_total"] == next_["profile_total"]:
    fail("own and next give one profile total, %r" % own["profile_total"])

# The engine's function graph opens under divided; --rule still rules.
if own["rule"] != "divided":
    fail("XS file opens under %r" % own["rule"])
if json.loads(report(XS, "--rule", "additive", form="json").stdout)["rule"] != "additive":
    fail("--rule additive on the XS file")

# A stream has no choice to make: no such line.
stream = report(os.path.join(TESTDATA, "validate.xsbug")).stdout.decode()
if "# sample time:" in stream:
    fail("an xsbug capture says a sample time")

bad = subprocess.run([WPROF, "--report", "flat", "--sample-time", "later", XS],
                     capture_output=True, timeout=60)
if bad.returncode != 2 or b"--sample-time" not in bad.stderr and b"sample time" not in bad.stderr:
    fail("--sample-time later: exit %d %r" % (bad.returncode, bad.stderr))

print("%d failed" % failures)
sys.exit(1 if failures else 0)
