#!/usr/bin/env python3
"""xsbug captures through the binary: bad captures exit 2 with
`wprof-tui: FILE: <what, where>`; a capture cut short keeps the samples
that arrived; --session picks a profile."""
import json
import os
import re
import subprocess
import sys
import tempfile

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
VALID = open(os.path.join(TESTDATA, "validate.xsbug"), "rb").read()
failures = 0


def msg(body):
    return b"\r\n<xsbug>" + body + b"</xsbug>\r\n"


def run(path, *args):
    return subprocess.run([WPROF, "--report", "flat", "--format", "json", *args, path],
                          capture_output=True, timeout=60)


def fail(what):
    global failures
    failures += 1
    print("FAIL", what)


BAD = [
    ("no profile", msg(b'<login name="x" value="y"/>') + b"garbage" * 100, ["no profile"]),
    ("endless element", b"<xsbug><pr name=\"" + b"a" * 10_000_000, ["byte", "longer than"]),
    ("id out of range", msg(b'<pt name="start" value="@0000000000000000"/>') +
     msg(b"<ps>1,ZZZZZZ,0</ps>"), ["byte", "out of range"]),
]

with tempfile.TemporaryDirectory() as tmp:
    for name, data, words in BAD:
        path = os.path.join(tmp, name.replace(" ", "-") + ".xsbug")
        open(path, "wb").write(data)
        r = run(path)
        err = r.stderr.decode("utf-8", "replace")
        if (r.returncode != 2 or r.stdout or not err.startswith("wprof-tui: %s: " % path)
                or any(w not in err for w in words)):
            fail("%s: status %d, stderr %r" % (name, r.returncode, err))

    # Cut in the middle of a message: what arrived is the profile.
    path = os.path.join(tmp, "cut.xsbug")
    open(path, "wb").write(VALID[: len(VALID) // 2 + 3])
    r = run(path)
    if r.returncode != 0:
        fail("cut capture: status %d %r" % (r.returncode, r.stderr))
    else:
        samples = json.loads(r.stdout)["samples"]
        if not 0 < samples < 6608:
            fail("cut capture: %d samples" % samples)

    # Two sessions: the default is the last, --session 1 the first.
    start = VALID.index(b"\r\n<xsbug><pt")
    two = VALID + VALID[start:]
    path = os.path.join(tmp, "two.xsbug")
    open(path, "wb").write(two)
    for args in ([], ["--session", "1"], ["--session", "2"]):
        r = run(path, *args)
        if r.returncode != 0 or json.loads(r.stdout)["samples"] != 6608:
            fail("two sessions %s: status %d" % (args, r.returncode))
    r = run(path, "--session", "3")
    if r.returncode != 2 or b"no session 3" not in r.stderr:
        fail("--session 3: %d %r" % (r.returncode, r.stderr))
    r = run(path, "--session", "0")
    if r.returncode != 2 or b"--session" not in r.stderr:
        fail("--session 0: %d %r" % (r.returncode, r.stderr))

# Names as real engines send them (raw `<`, `"`, `&`; CESU-8 outside the
# basic plane): the JSON report is valid UTF-8 and names them rightly.
# Self times summed by hand from the captures' deltas (time-rules.md).
NAMES = {
    "unescaped-names.xsbug": {"plain": 245126, "computed": 226042, "a<b": 258804,
                              'q"uote': 239481, "amp&er": 251022, "[sym]": 253898},
    "cesu8-names.xsbug": {"caf\u00e9_\u00fcn\u00ef_\U0001F600": 388615, "getter": 309514,
                          "Symbol.for": 289561, "(anonymous-646)": 273821},
}
for capture, want in NAMES.items():
    r = run(os.path.join(TESTDATA, capture))
    try:
        rows = json.loads(r.stdout.decode("utf-8"))["rows"]
    except (UnicodeDecodeError, ValueError, KeyError) as e:
        fail("%s: not valid UTF-8 JSON: %s" % (capture, e))
        continue
    got = {row["name"]: row["self"] for row in rows}
    for name, self_time in want.items():
        if got.get(name) != self_time:
            fail("%s: %r self %r, want %d" % (capture, name, got.get(name), self_time))
    if any(name.startswith("(unknown") for name in got):
        fail("%s: unknown records: %r" % (capture, sorted(got)))

# A real engine stopped at a `debugger` statement (its break arrives
# between the samples): the capture loads with every sample, and all its
# time is the leaf it sampled, summed here from the <ps> deltas (base 36,
# leaf first).
STOPPED = os.path.join(TESTDATA, "debugger-stop.xsbug")
raw = open(STOPPED, "rb").read().decode("latin-1")
samples = [s.split(",") for batch in re.findall(r"<ps>([^<]*)</ps>", raw)
           for s in batch.split(".")]
leaf_time = {}
for fields in samples:
    leaf = int(fields[1], 36)
    leaf_time[leaf] = leaf_time.get(leaf, 0) + int(fields[0], 36)
r = run(STOPPED)
if r.returncode != 0:
    fail("debugger-stop.xsbug: status %d %r" % (r.returncode, r.stderr))
else:
    doc = json.loads(r.stdout)
    got = {row["name"]: row["self"] for row in doc["rows"]}
    # <pr name="Math.imul" value="309"/>: the one leaf.
    if doc["samples"] != len(samples) or set(leaf_time) != {309}:
        fail("debugger-stop.xsbug: %d samples, want %d; leaves %r" % (
            doc["samples"], len(samples), sorted(leaf_time)))
    elif got.get("Math.imul") != leaf_time[309]:
        fail("debugger-stop.xsbug: Math.imul self %r, want %d" % (
            got.get("Math.imul"), leaf_time[309]))

print("%d failed" % failures)
sys.exit(1 if failures else 0)
