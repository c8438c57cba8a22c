#!/usr/bin/env python3
"""The live explorer in tmux against the fake xst of live_engine.py, which
replays a real engine's run (testdata/live/trace-debugger.xsbug: trace()
lines, two `debugger` statements, a caught exception), blocks at a break
until it reads <go/>, reads nothing while it runs and dies of SIGPIPE
when written to after wprof-tui closed its socket, as xst does.

Checked:
- breaks: the engine runs to its end (exit 0); while it waits after its
  <go/> (--hold: a slow device) the header says "suspended at FILE:LINE";
  the status line says it was released and that wprof-tui is not a
  debugger; L lists the trace() lines with their times;
- quitting: q while an engine runs asks first ("1 engine still connected:
  quitting lets it run on unprofiled; q again to quit"); any other key answers no, and the
  engine runs on to its end, not killed; once it has left, q quits.
Exits 77 (skip) only when tmux is not installed.

usage: live_tui_engine.py WPROF_BINARY TESTDATA"""
import os
import re
import subprocess
import sys
import time

from tmux_driver import check, failures, live_explorer, run_tests

BINARY = os.path.abspath(sys.argv[1])
CAPTURE = os.path.join(os.path.abspath(sys.argv[2]), "live", "trace-debugger.xsbug")
ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "live_engine.py")
PLACE = "/home/dev/demo/trace-debugger.js"


def explorer():
    return live_explorer(BINARY)


def engine(port, seconds, *more):
    return subprocess.Popen([sys.executable, ENGINE, str(port), CAPTURE,
                             "--seconds", str(seconds), *more])


def wait_for(pane, pattern, what):
    return pane.shows(pattern, what)


def exit_status(proc, what):
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        check(False, "%s: the engine did not end" % what)
        return proc.wait()


def breaks():
    pane, port = explorer()
    fake = engine(port, 4, "--hold", "2")
    s = wait_for(pane, r"^ live: xst@\S+, suspended at " + re.escape(PLACE + ":6"),
                 "suspended at the first debugger statement, in the header")
    s = wait_for(pane, r"wprof-tui is not a debugger: released xst@\S+ at " +
                 re.escape(PLACE) + r":6 \(Break: debugger!\)",
                 "the break and its release on the status line")
    rc = exit_status(fake, "breaks")
    check(rc == 0, "a program with debugger statements runs to its end: status %d" % rc)
    s = wait_for(pane, r"^ live: xst@\S+, disconnected", "the engine gone")
    # The log's lines drawn whole, not only its title above them.
    pane.keys("L")
    s = pane.settled(lambda s: re.search(r"Log of xst@\S+: 6 lines", s), "L lists the log")
    lines = [line.strip() for line in s.split("\n")]
    for text in ("before 1st debugger", 'after 1st debugger <&> "quoted"',
                 "after 2nd debugger", PLACE + ":12: Exception: throw!",
                 "caught TypeError: cannot coerce null to object (in (anonymous-643))",
                 "done"):
        check(any(re.fullmatch(r"\d\d:\d\d:\d\d\.\d{3}  " + re.escape(text), line)
                  for line in lines), "L shows %r with its time: %r" % (text, lines))
    # The log gone: the panes' line shows under it as well.
    pane.keys("j")
    pane.wait_for(lambda s: re.search(r"^ 1 top-down", s, re.M) and "Log of" not in s,
                  "any key closes the log", stable=False)
    s = pane.press(["q"], r"EXIT=0", "q quits at once: no engine connected", stable=False)
    pane.close()


def quitting():
    pane, port = explorer()
    fake = engine(port, 6)
    wait_for(pane, r"^ live: xst@\S+, profiling", "the engine profiling")
    s = pane.press(["q"], r"1 engine still connected: quitting lets it run on unprofiled; q again to quit",
                   "q asks first", stable=False)
    check("EXIT=" not in s, "the first q does not quit")
    # The question gone: the header alone was there before the key.
    pane.keys("j")
    pane.wait_for(lambda s: re.search(r"^ live: xst", s, re.M) and "still connected" not in s,
                  "another key answers no: the question gone", stable=False)
    time.sleep(0.5)
    check("EXIT=" not in pane.screen() and fake.poll() is None,
          "the explorer and the engine run on")
    rc = exit_status(fake, "quitting")
    check(rc == 0, "the engine was not killed by a q answered no: status %d" % rc)
    wait_for(pane, r"^ live: xst@\S+, disconnected", "the engine gone")
    pane.press(["q"], r"EXIT=0", "q quits once no engine is connected", stable=False)
    pane.close()


run_tests([breaks, quitting])
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
