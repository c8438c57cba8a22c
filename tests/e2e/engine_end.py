#!/usr/bin/env python3
"""--report against the fake xst of fake_xst.py, which treats its socket
as a real xst was measured to (spins on an end of file at a break, dies
of SIGPIPE when written to after a normal close, detaches on a reset):

- report-one: one engine with `debugger` statements, one of them held (an
  engine sitting at a break): the report is made, and the engine runs to
  its end, status 0;
- report-two: the first engine is reported, a second one, still running
  and stopping at breaks, is served until its end: both end with status
  0, neither killed nor spinning;
- break-speed: 200 `debugger` statements back to back, each break written
  in pieces of 256 bytes with Nagle's algorithm on, as xst writes it:
  answered in well under 2 s in all (a delayed acknowledgement per break
  made each cost about 40 ms, 200 of them 7 s);
- clock-skip: a real engine's profile started at a break, whose clock
  skipped: it lasts its samples, and the report's warning says so.

usage: engine_end.py WPROF_BINARY TESTDATA WHAT"""
import json
import os
import subprocess
import sys
import tempfile

from loopback import start_listener

WPROF = os.path.abspath(sys.argv[1])
TESTDATA = os.path.abspath(sys.argv[2])
WHAT = sys.argv[3]
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_xst.py")
failures = 0


def fail(what):
    global failures
    failures += 1
    print("FAIL:", what)


def engine(port, *args):
    return subprocess.Popen([sys.executable, FAKE, str(port), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def ended(proc, what):
    """The engine's end: status 0 and "ran to its end" (not -13: killed by
    SIGPIPE, not 4: spun on read() = 0 at a break)."""
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    if proc.returncode != 0 or b"ran to its end" not in out:
        fail("%s: the engine ended with status %d (-13: SIGPIPE, 4: spun at a "
             "break): %r %r" % (what, proc.returncode, out, err))
    return out


def report(proc, what):
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        fail("%s: wprof-tui did not finish" % what)
    if proc.returncode != 0 or b'"samples"' not in out:
        fail("%s: wprof-tui status %d: %r" % (what, proc.returncode, err))
    return err.decode(errors="replace")


def report_one():
    proc, port = start_listener(WPROF)
    fake = engine(port, "--breaks", "3", "--run", "1", "--hold", "1")
    err = report(proc, "report-one")
    ended(fake, "report-one")
    released = "stopped at /work/xs-build/run/dbgphases.js:14 (Break: debugger!); " \
               "released it"
    # Identical lines are said once, then once more with their count.
    if err.count(released) != 2 or "(\u00d73)" not in err:
        fail("report-one: stderr tells 3 breaks (the first, then x3): %r" % err)


def report_two():
    proc, port = start_listener(WPROF)
    first = engine(port, "--run", "1")
    first.stdout.readline()  # connected: the second comes after it
    second = engine(port, "--breaks", "5", "--run", "3", "--hold", "0.5")
    report(proc, "report-two")
    ended(first, "report-two, the engine reported")
    out = ended(second, "report-two, the other engine")
    if b"detached" in out:
        fail("report-two: the other engine was served to its end, not "
             "detached: %r" % out)


def break_speed():
    proc, port = start_listener(WPROF)
    with tempfile.NamedTemporaryFile("r", suffix=".times") as times:
        fake = engine(port, "--breaks", "200", "--run", "0", "--times", times.name)
        ended(fake, "break-speed")
        report(proc, "break-speed")
        took = [float(line) for line in times.read().split()]
    if len(took) != 200:
        fail("break-speed: %d breaks answered, want 200" % len(took))
    print("200 breaks: %.3f s in all, the slowest %.3f s" % (sum(took), max(took)))
    if sum(took) >= 2.0:
        fail("break-speed: 200 breaks took %.2f s (each waits for a delayed "
             "acknowledgement?)" % sum(took))


def clock_skip():
    """testdata/live/start-at-break.xsbug (testdata/README.md): its second
    profile, started at a break, spans 2 011 554 us from start to stop and
    its samples sum to 320 539 us: it lasts the samples, and says that the
    clock skipped 1.69 s; its first, stopped at a break, says nothing."""
    capture = os.path.join(TESTDATA, "live", "start-at-break.xsbug")
    got = json.loads(subprocess.run([WPROF, "--report", "flat", "--format", "json",
                                     capture], capture_output=True).stdout)
    if got["duration"] != 320539 or got["profile_total"] != 320539 or \
            not got.get("warning", "").startswith("clock skipped 1.69 s at a break"):
        fail("clock-skip: %r" % {k: v for k, v in got.items() if k != "rows"})
    first = json.loads(subprocess.run([WPROF, "--report", "flat", "--format", "json",
                                       "--session", "1", capture],
                                      capture_output=True).stdout)
    if "warning" in first:
        fail("clock-skip: session 1 warns: %r" % first["warning"])


{"report-one": report_one, "report-two": report_two,
 "break-speed": break_speed, "clock-skip": clock_skip}[WHAT]()
print("%s: %d failed" % (WHAT, failures))
sys.exit(1 if failures else 0)
