#!/usr/bin/env python3
"""The explorer on a trace with three profiled threads (testdata/trace/
hand.json), in tmux: the header names the thread, T loads the next one
(the first of the others the report lists), round to the first again;
the same on a Firefox Profiler file.
Exits 77 (skip) only when tmux is not installed.

usage: trace_tui.py WPROF_BINARY TESTDATA_DIR"""
import os
import re
import sys

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
TRACE = os.path.join(os.path.abspath(sys.argv[2]), "trace", "hand.json")


def header(screen):
    return screen.split("\n")[0]


def thread_shown(name):
    """The header naming the thread `name` (a regex) and, drawn after the
    rows, the status line that T leaves: the screen T drew, all of it."""
    return r"^ .*%s[\s\S]*^ thread: %s" % (name, name)


def cycle_threads():
    p = Pane("%s %s; echo EXIT=$?; sleep 600" % (BINARY, TRACE), 160, 30)
    try:
        s = p.screen()
        check("CrRendererMain (Renderer pid 1, tid 10)" in header(s),
              "the busiest renderer main thread first: %r" % header(s))
        # Its functions (docs/formats.md's worked example); T keeps the pane.
        s = p.press(["3"], r" leaf ", "the flat pane")
        check(" main " in s and " a " in s, "its functions are shown")
        s = p.press(["T"], thread_shown(r"Worker \(Renderer pid 1, tid 20\)"), "T: the worker")
        check(" work " in s and " main " not in s, "the worker's tree: %s" % s)
        s = p.press(["T"], thread_shown(r"CrRendererMain \(pid 2, tid 10\)"),
                    "T: the other renderer")
        s = p.press(["T"], thread_shown(r"CrRendererMain \(Renderer pid 1, tid 10\)"),
                    "T: round to the first")
        check(" main " in s, "the first thread's tree again")
        s = p.press(["?"], r"next thread", "help lists T")
        p.keys("q")
        p.keys("q")
        s = p.wait_for(lambda s: "EXIT=" in s, "exit")
        check("EXIT=0" in s, "exit status 0")
    finally:
        p.close()


def firefox_threads():
    # A Firefox Profiler file: the tab's GeckoMain first, T to the parent
    # process's and back (testdata/firefox/gecko-main.processed.json).
    data = os.path.join(os.path.dirname(TRACE), "..", "firefox", "gecko-main.processed.json")
    p = Pane("%s %s; echo EXIT=$?; sleep 600" % (BINARY, data), 160, 30)
    try:
        s = p.screen()
        check("GeckoMain (Web Content, pid 200, tid 201)" in header(s),
              "the tab's main thread first: %r" % header(s))
        s = p.press(["3"], r" render ", "the flat pane")
        s = p.press(["T"], thread_shown(r"GeckoMain \(Parent Process, pid 100, tid 100\)"),
                    "T: the parent")
        check(" compute " in s and " render " not in s, "the parent's functions: %s" % s)
        s = p.press(["T"], thread_shown(r"GeckoMain \(Web Content, pid 200, tid 201\)"),
                    "T: round to the tab")
        p.keys("q")
        s = p.wait_for(lambda s: "EXIT=" in s, "exit")
        check("EXIT=0" in s, "exit status 0")
    finally:
        p.close()


def duration_events():
    # A trace of duration events only (testdata/trace/begin-end.json): the
    # header says so, the strip draws its timeline, T goes to the worker.
    data = os.path.join(os.path.dirname(TRACE), "begin-end.json")
    p = Pane("%s %s; echo EXIT=$?; sleep 600" % (BINARY, data), 160, 30)
    try:
        s = p.screen()
        check("CrRendererMain (Renderer pid 1, tid 1)" in header(s),
              "the renderer main thread first: %r" % header(s))
        check("trace-event JSON (duration events)" in s, "the format says so: %s" % s)
        check("timeline: the whole profile" in s, "the timeline strip: %s" % s)
        s = p.press(["3"], r" Commit\b[\s\S]* Task\b", "the flat pane: Commit, Task under it")
        check(re.search(r" Task\b", s) and " Compile" not in s, "the main thread's events: %s" % s)
        s = p.press(["T"], thread_shown(r"Worker \(Renderer pid 1, tid 2\)"), "T: the worker")
        check(" Compile" in s and not re.search(r" Task\b", s), "the worker's events: %s" % s)
        p.keys("q")
        s = p.wait_for(lambda s: "EXIT=" in s, "exit")
        check("EXIT=0" in s, "exit status 0")
    finally:
        p.close()


def one_thread():
    # A .cpuprofile has one profile: T says so and changes nothing.
    data = os.path.join(os.path.dirname(TRACE), "..", "worked-example.cpuprofile")
    p = Pane("%s %s; echo EXIT=$?; sleep 600" % (BINARY, data), 120, 30)
    try:
        p.press(["T"], r"no other thread", "T on a single profile")
    finally:
        p.close()


run_tests([cycle_threads, firefox_threads, duration_events, one_thread])
print("trace_tui: %s" % ("FAILED %d" % len(failures) if failures else "ok"))
sys.exit(1 if failures else 0)
