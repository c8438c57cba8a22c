#!/usr/bin/env python3
"""The live explorer in tmux against the fake xst of fake_xst.py, which
treats its socket as a real xst was measured to: at a break it reads and
spins on an end of file (exit 4), written to after a normal close it dies
of SIGPIPE (exit -13), and a reset makes it detach and run to its end.

- quit-running, quit-at-break, quit-break-loop: `q` `q` while the engine
  runs and profiles, while it sits at a break (it reads its <go/> only 3 s
  later), and while it stops at `debugger` statements in a loop: the
  explorer quits at once and the engine runs to its end, detached,
  status 0;
- suspended: an engine told to stop profiling (p) sends no `resume` at
  its next break; once released, the header no longer says "suspended
  at FILE:LINE" while it runs on;
- newcomer: an engine that logs in while the one shown has left is shown,
  the status line says so with its name; one that logs in beside a
  connected one is named on the status line;

- clock-skip: a real engine's profile started at a break, replayed: the
  header says the clock skipped, and the duration is its samples'.
Exits 77 (skip) only when tmux is not installed.

usage: engine_end_tui.py WPROF_BINARY TESTDATA WHAT"""
import os
import re
import subprocess
import sys
import tempfile
import time

from tmux_driver import check, failures, live_explorer, run_tests

BINARY = os.path.abspath(sys.argv[1])
TESTDATA = os.path.abspath(sys.argv[2])
WHAT = sys.argv[3]
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_xst.py")
REPLAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "live_engine.py")
PLACE = "/work/xs-build/run/dbgphases.js:14"


def explorer():
    return live_explorer(BINARY)


def engine(port, *args):
    proc = subprocess.Popen([sys.executable, FAKE, str(port), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    address = proc.stdout.readline().decode().split()[-1]
    return proc, address


def wait_for(pane, pattern, what):
    return pane.shows(pattern, what)


def ended(proc, what, detached):
    """Status 0 and "ran to its end", not -13 (SIGPIPE) nor 4 (spun)."""
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    check(proc.returncode == 0 and b"ran to its end" in out,
          "%s: the engine ended with status %d (-13: killed by SIGPIPE, 4: "
          "spun at a break): %r %r" % (what, proc.returncode, out, err))
    check((b"(detached)" in out) == detached,
          "%s: detached %s: %r" % (what, detached, out))


def quit_twice(pane, what, engines=1):
    pane.press(["q"], r"%s still connected: quitting lets %s run on unprofiled; "
               r"q again to quit" % ("1 engine" if engines == 1 else "%d engines" % engines,
                                     "it" if engines == 1 else "them"),
               "%s: q asks first" % what, stable=False)
    pane.press(["q"], r"EXIT=0", "%s: the second q quits" % what, stable=False)


def quit_running():
    pane, port = explorer()
    fake, _ = engine(port, "--run", "4")
    wait_for(pane, r"^ live: xst@\S+, profiling", "the engine profiling")
    quit_twice(pane, "running")
    ended(fake, "running", True)
    pane.close()


def quit_at_break():
    pane, port = explorer()
    fake, _ = engine(port, "--breaks", "1", "--run", "2", "--hold", "3")
    wait_for(pane, r"^ live: xst@\S+, suspended at " + re.escape(PLACE),
             "the engine at its break")
    quit_twice(pane, "at a break")
    ended(fake, "at a break", True)
    pane.close()


def quit_break_loop():
    pane, port = explorer()
    fake, _ = engine(port, "--breaks", "100000", "--run", "0")
    wait_for(pane, r"wprof-tui is not a debugger: released xst@\S+ at " +
             re.escape(PLACE), "the breaks released")
    quit_twice(pane, "breaks in a loop")
    ended(fake, "breaks in a loop", True)
    pane.close()


def suspended():
    pane, port = explorer()
    with tempfile.NamedTemporaryFile("r", suffix=".progress") as progress:
        fake, _ = engine(port, "--breaks", "2", "--run", "9", "--progress",
                         progress.name)
        wait_for(pane, r"^ live: xst@\S+, profiling", "the engine profiling")
        pane.press(["p"], r"^ live: xst@\S+, stop requested", "p asks it to stop",
                   stable=False)
        wait_for(pane, r"^ live: xst@\S+, not profiling",
                 "stopped at its first break")
        deadline = time.time() + 15
        while "left break 2" not in progress.read() and time.time() < deadline:
            progress.seek(0)
            time.sleep(0.05)
        time.sleep(0.5)
        # The header drawn whole: curses may write it in more than one piece.
        header = pane.settled(lambda s: True, "the header drawn whole",
                              lambda s: s.split("\n")[0]).split("\n")[0]
        check(fake.poll() is None, "suspended: the engine still runs")
        check("suspended at" not in header and "not profiling" in header,
              "suspended: released at its second break and running, the "
              "header says: %r" % header)
    ended(fake, "suspended", False)
    pane.close()


def newcomer():
    pane, port = explorer()
    first, first_address = engine(port, "--run", "0.5")
    ended(first, "newcomer, the first", False)
    wait_for(pane, r"^ live: xst@" + re.escape(first_address) + ", disconnected",
             "the first engine gone")
    second, address = engine(port, "--run", "5")
    s = wait_for(pane, r"xst@%s logged in: showing it \(xst@%s has left; e goes "
                 r"back\)" % (re.escape(address), re.escape(first_address)),
                 "the status line names the newcomer")
    wait_for(pane, r"^ live: xst@%s \(2 of 2\), profiling" % re.escape(address),
             "the header shows the newcomer")
    third, third_address = engine(port, "--run", "5")
    wait_for(pane, r"xst@%s logged in \(e shows it\)" % re.escape(third_address),
             "a newcomer beside a connected engine is named")
    wait_for(pane, r"^ live: xst@%s \(2 of 3\), profiling" % re.escape(address),
             "the engine shown stays while it is connected")
    quit_twice(pane, "newcomer", 2)
    ended(second, "newcomer, the second", True)
    ended(third, "newcomer, the third", True)
    pane.close()


def clock_skip():
    """A real engine's run replayed (live_engine.py): its second profile,
    started at a break, spans 2.01 s and its samples 320.54 ms
    (testdata/README.md): the header says the clock skipped."""
    pane, port = explorer()
    replay = subprocess.Popen([sys.executable, REPLAY, str(port), os.path.join(
        TESTDATA, "live", "start-at-break.xsbug"), "--seconds", "1"])
    s = wait_for(pane, r"^ live: xst@\S+, disconnected, clock skipped 1\.69 s "
                 r"at a break .*  320\.54ms ", "the clock skip in the header")
    check(replay.wait(timeout=60) == 0, "clock skip: the replay ran to its end")
    pane.press(["q"], r"EXIT=0", "q quits", stable=False)
    pane.close()


run_tests([{"quit-running": quit_running, "quit-at-break": quit_at_break,
            "quit-break-loop": quit_break_loop, "suspended": suspended,
            "newcomer": newcomer, "clock-skip": clock_skip}[WHAT]])
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
