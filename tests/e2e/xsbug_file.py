#!/usr/bin/env python3
"""xsbug captures through the binary: bad captures exit 2 with
`wprof-tui: FILE: <what, where>`; a capture cut short keeps the samples
that arrived; --session picks a profile."""
import json
import os
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

print("%d failed" % failures)
sys.exit(1 if failures else 0)
