#!/usr/bin/env python3
"""The explorer following an inspector target (--inspect on a terminal),
in tmux, against the fake inspectors of inspect.py.

follow: one that knows no Tracing (-32601, as Node); every Profiler.stop
answers a window where a lasts 1000 us (self) and b 2000 us under it.
Checked: the header says the windows are polled because tracing is not
available; the timeline strip is on screen; in the flat pane the
totals grow window after window with b's self exactly twice a's (hand
worked: n windows give a 1000n, b 2000n); z freezes the numbers; p stops
the windows (the header says so); w writes a .cpuprofile that loads with
the same proportions, and the same session as trace-event JSON that
loads as a trace with the same flat report; q leaves.  Streamed over Tracing: the numbers
grow; the timeline strip shows and scrolls, and a range pinned on it holds
the samples in it while more arrive.  With two targets,
e switches to the other one's own functions, and back.  A program that
ends (NodeRuntime.waitingForDisconnect) ends the session, said in the
header; at each awkward moment of a window's end (right after a
Profiler.start, a bridge's console call unanswered, between windows) the
window under way is still stopped, and the explorer's totals are
--report's and those worked from the fake's samples; paused by p, the
explorer still hears the end.  Windows that leave a gap: the strip draws it as blank cells where
the session's clock puts it, and the panes count only samples.  Exits 77
(skip) without tmux.

usage: inspect_tui.py WPROF_BINARY"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from tmux_driver import Pane, check, failures, run_tests, tabs_line
import inspect as cdp_fake

BINARY = os.path.abspath(sys.argv[1])
UNITS = {"us": 1, "ms": 1000, "s": 1000000}


def micros(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else 0.0


def self_of(screen, name):
    for line in screen.split("\n")[3:-1]:
        m = re.match(r"(?![\s▼▲^v]*self\s)\s*(\S+)\s+(?:\S+%\s+|-\s+)?(\S+)\s+(\S+%|-)\s+(?:\d+\.\d\d%\s+)?(\S+)", line)
        if m and m.group(4) == name:
            return micros(m.group(1))
    return 0.0


def body(screen):
    """The lines under the tabs: a live screen's part that keeps still
    between windows, while its header and strip go on moving."""
    return screen.split("\n")[tabs_line(screen) + 1:-1]


def flat(screen):
    """The flat pane is up: its sum% column is titled."""
    return re.search(r"sum% name", screen)


def follow():
    ins = cdp_fake.Inspector("ok")
    workdir = tempfile.mkdtemp()
    pane = Pane("cd %s && %s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (workdir, BINARY, ins.port),
                width=150, what="the first window")
    try:
        # The header says it before 3 too; the flat pane's rows are what
        # the strip and `first` are read with.  Curses draws a screen in
        # pieces, so every wait below is for rows drawn whole.
        pane.keys("3")
        s = pane.settled(lambda s: flat(s) and re.search(
            r"polling Profiler windows \(tracing not available", s), "the flat pane", part=body)
        lines = s.split("\n")
        check("█" in lines[1] and "timeline: the last" in lines[2],
              "windows keep every sample: the strip is on screen:\n" + s)
        first = (self_of(s, "a"), self_of(s, "b"))
        s = pane.settled(lambda s: self_of(s, "a") >= first[0] + 2000, "two more windows",
                         part=body)
        a, b = self_of(s, "a"), self_of(s, "b")
        check(a > 0 and a % 1000 == 0 and b == 2 * a, "a %r b %r: want b = 2a, 1000n" % (a, b))
        s = pane.press(["z"], r"frozen", "z")
        frozen = self_of(s, "a")
        time.sleep(2.5)
        check(self_of(pane.screen(), "a") == frozen, "z: the numbers moved")
        pane.press(["z"], r"following", "z again")
        pane.press(["p"], r"not profiling", "p stops the windows")
        s = pane.press(["w"], r"wrote wprof-inspect-\S+\.cpuprofile and \S+\.trace\.json", "w")
        names = re.search(r"wrote (wprof-inspect-\S+\.cpuprofile) and (\S+\.trace\.json)", s)
        reports = []
        for name in names.groups():
            out = subprocess.run([BINARY, "--report", "flat", "--format", "json",
                                  os.path.join(workdir, name)], capture_output=True, text=True)
            reports.append(json.loads(out.stdout))
        rows = {r["name"]: r for r in reports[0]["rows"]}
        check(rows["b"]["self"] == 2 * rows["a"]["self"] and rows["a"]["self"] % 1000 == 0,
              "w: wrote a %r b %r" % (rows["a"], rows["b"]))
        check(reports[1]["rows"] == reports[0]["rows"],
              "w: the trace JSON reads back as another report: %r" % reports[1]["rows"])
        check(reports[1]["format"] == "trace" and reports[1]["duration"] == reports[0]["duration"],
              "w: the trace JSON is read as a trace of the same length: %r" % reports[1]["format"])
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


def stream():
    """A peer streaming Tracing.dataCollected batches: the header says so,
    the totals grow batch after batch with b's self twice a's less the last
    sample, which lasts until the next (each chunk a 1000 us, b 2000 us,
    inspect.py's batch()) and no Profiler
    window is asked for; p ends tracing and w writes a .cpuprofile of
    every chunk sent, worked the same way; p again follows a new run."""
    ins = cdp_fake.Inspector("stream")
    workdir = tempfile.mkdtemp()
    pane = Pane("cd %s && %s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (workdir, BINARY, ins.port),
                width=150, what="the first batches", stable=False)
    try:
        pane.keys("3")
        s = pane.wait_for(lambda s: flat(s) and "streaming samples over Tracing" in s,
                          "the flat pane", stable=False)
        first = self_of(s, "a")
        s = pane.settled(lambda s: self_of(s, "a") >= first + 5000, "five more chunks",
                         part=body)
        a, b = self_of(s, "a"), self_of(s, "b")
        # The last sample (a b) lasts until the next comes: 1000 us less.
        check(a > 0 and a % 1000 == 0 and b == 2 * a - 1000,
              "a %r b %r: want b = 2a - 1000, a = 1000n" % (a, b))
        pane.press(["p"], r"not profiling", "p ends tracing", stable=False)
        sent = ins.chunks_sent
        s = pane.press(["w"], r"wrote wprof-inspect-\S+\.cpuprofile", "w")
        name = re.search(r"wrote (wprof-inspect-\S+\.cpuprofile)", s).group(1)
        out = subprocess.run([BINARY, "--report", "flat", "--format", "json",
                              os.path.join(workdir, name)], capture_output=True, text=True)
        rows = {r["name"]: r for r in json.loads(out.stdout)["rows"]}
        check(rows["a"]["self"] == 1000 * sent and rows["b"]["self"] == 2000 * sent,
              "w: wrote a %r b %r, want %d chunks' worth" % (rows["a"], rows["b"], sent))
        check(ins.stops == 0, "%d Profiler windows asked for" % ins.stops)
        # p again: a new tracing run, whose profile starts again (node ids
        # and all); the explorer follows it.
        before = self_of(pane.screen(), "a")
        s = pane.press(["p"], r"streaming samples over Tracing", "p starts a new run",
                       stable=False)
        s = pane.settled(lambda s: 0 < self_of(s, "a") < before, "the new run's numbers",
                         part=body)
        a, b = self_of(s, "a"), self_of(s, "b")
        check(a % 1000 == 0 and b == 2 * a - 1000, "new run: a %r b %r" % (a, b))
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


def column(screen, name, index):
    """Column `index` (0 self, 1 total) of the row named `name`, as text."""
    for line in screen.split("\n")[3:-1]:
        m = re.match(r"(?![\s▼▲^v]*self\s)\s*(\S+)\s+(?:\S+%\s+|-\s+)?(\S+)\s+(\S+%|-)\s+(?:\d+\.\d\d%\s+)?(\S+)", line)
        if m and m.group(4) == name:
            return m.group(1 + index)
    return None


def strip():
    """The timeline strip of a streamed session, each sample 20 ms (a, b,
    b every 50 ms or so): it is on screen under the header and scrolls as
    samples arrive; [ then ] pin a range (from the second cell to one
    cell before the newest, ends on 100 ms cells, so whole samples) whose
    sample counts are the samples in it, hand worked from its ends: a
    range of T seconds holds T / 20 ms samples, b twice a's give or take
    one at each end; its rows keep their numbers while samples arrive
    and the strip goes on moving; 0 follows the whole session again."""
    ins = cdp_fake.Inspector("stream")
    ins.delta = 20000
    pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (BINARY, ins.port),
                width=100, height=20, what="the first batches", stable=False)
    try:
        pane.keys("3")
        pane.wait_for(lambda s: flat(s) and "streaming samples over Tracing" in s,
                      "the flat pane", stable=False)
        s = pane.settled(lambda s: "█" in s.split("\n")[1], "the strip",
                         part=lambda s: s.split("\n")[2:4])
        lines = s.split("\n")
        check("timeline: the last" in lines[2] and lines[3].startswith(" 1 top-down"),
              "the strip and its title over the panes:\n" + s)
        time.sleep(1.0)
        later = pane.lines()
        check(later[1] != lines[1] and "█" in later[1],
              "the strip moves as samples arrive:\n%s\n%s" % (lines[1], later[1]))
        pane.press(["u", "u"], r"(?m)^\s+\d+\s+\S+%\s+\d+\s+\S+%\s+(?:\d+\.\d\d%\s+)?a\b", "u u: sample counts",
                   stable=False)
        pane.keys("[")
        pane.keys("]")
        s = pane.settled(lambda s: re.search(r"range \S+–\S+ of", s), "[ ]: a range pinned",
                         part=body)
        ends = re.search(r"range ([\d.]+)(ms|s)–([\d.]+)(ms|s) of", s.split("\n")[0])
        a, b = column(s, "a", 0), column(s, "b", 0)
        check(ends is not None and a and b and a.isdigit() and b.isdigit(),
              "the range's ends and sample counts:\n" + s)
        if ends and a and b and a.isdigit() and b.isdigit():
            start = float(ends.group(1)) * (1000 if ends.group(2) == "s" else 1)
            end = float(ends.group(3)) * (1000 if ends.group(4) == "s" else 1)
            want = round((end - start) / 20)
            check(int(a) + int(b) == want and abs(int(b) - 2 * int(a)) <= 2,
                  "range %s: a %s b %s samples, want %d in all, b twice a:\n%s"
                  % (ends.group(0), a, b, want, s))
        pinned = s.split("\n")[3:-1]
        time.sleep(1.2)
        s = pane.screen()
        check(s.split("\n")[3:-1] == pinned,
              "a pinned range keeps its numbers:\n%s\n%s" % ("\n".join(pinned), s))
        check(s.split("\n")[1] != later[1], "the strip goes on moving under a pinned range")
        pane.press(["0"], r"range: the whole profile", "0: the whole session", stable=False)
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


def switch():
    """e attaches to the next target /json/list names, and back: the
    header names it, its own functions come (a new session: c 1000 us a
    window, d twice that), and the first target's after the second e."""
    ins = cdp_fake.Inspector("two")
    pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (BINARY, ins.port),
                width=150, what="the first window")
    try:
        pane.keys("3")
        s = pane.settled(lambda s: flat(s) and "live: fake.js, polling" in s, "the flat pane",
                         part=body)
        check(self_of(s, "a") > 0 and self_of(s, "c") == 0, "the first target's a")
        s = pane.press(["e"], r"live: other\.js", "e: the second target")
        s = pane.settled(lambda s: self_of(s, "c") > 0 and "no profile yet" not in s,
                         "the second target's first window", part=body)
        c, d = self_of(s, "c"), self_of(s, "d")
        check(self_of(s, "a") == 0 and c % 1000 == 0 and d == 2 * c,
              "after e: a %r c %r d %r (want no a, d = 2c)" % (self_of(s, "a"), c, d))
        s = pane.press(["e"], r"live: fake\.js", "e again: the first target")
        s = pane.settled(lambda s: self_of(s, "a") > 0, "the first target's data again",
                         part=body)
        check(self_of(s, "c") == 0, "back on the first target: c is gone")
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


def program_end():
    """Node's program ends in the third window (waitingForDisconnect):
    the header says "program ended", the three windows stay (a 1000 us
    self each, b twice that), and no window comes after."""
    ins = cdp_fake.Inspector("ends")
    pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (BINARY, ins.port),
                width=150, what="the first window")
    try:
        s = pane.press(["3"], r"live: fake\.js", "the flat pane")
        s = pane.wait_for(lambda s: "program ended" in s.split("\n")[0] and
                          self_of(s, "a") == 3000, "the program's end", stable=False)
        time.sleep(1.5)
        s = pane.screen()
        check(self_of(s, "a") == 3000 and self_of(s, "b") == 6000 and ins.stops == 3,
              "after the end: a %r b %r, %d windows" % (self_of(s, "a"), self_of(s, "b"),
                                                         ins.stops))
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


def gap():
    """Windows that do not meet (inspect.py's gap_window: no console
    profiles bridge them): 800 ms of samples, 400 ms profiled by no
    window, then 1.6 s more, the program ending in the third window.
    At 100 ms a cell the strip (100 cells, the newest at the right: the
    last sample, at 2.79 s, in its last cell) is blank for 72 cells
    before the session, then 8 cells of samples, 4 blank ones for the
    gap, 16 of samples; the header says 2.80 s, the flat pane counts the
    samples alone: a 3 x 200 ms, b 3 x 600 ms.  [ then ] pin the range
    from the second cell to the one before the newest, 100 ms to 2.70 s
    on the session's clock (its ruler over the gap's cells too), whose
    samples are 70 + 80 + 70 of 10 ms: a 17 + 20 + 18 of them, 550 ms;
    b 1.65 s."""
    ins = cdp_fake.Inspector("gap")
    pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (BINARY, ins.port),
                width=100, height=24, what="the first window")
    try:
        s = pane.press(["3"], r"program ended", "the flat pane")
        s = pane.wait_for(lambda s: self_of(s, "a") == 600000, "the three windows")
        lines = s.split("\n")
        check(lines[1] == " " * 72 + "█" * 8 + " " * 4 + "█" * 16,
              "the strip: 8 cells, the gap's 4 blank, 16:\n%r" % lines[1])
        check(" 2.80s " in lines[0], "the session's 2.8 s in the header:\n" + lines[0])
        check(self_of(s, "b") == 1800000, "b %r, want 1.80s" % self_of(s, "b"))
        pane.keys("[")
        # The header, then the range's message on the status line: curses
        # draws the ruler and the rows in between, and the strip's cells
        # before them change only colour, which capture-pane does not see.
        s = pane.press(["]"], r"range 100\.0ms–2\.70s of 2\.80s[\s\S]*^ range 100\.0ms–2\.70s",
                       "[ ]: a range over the gap")
        lines = s.split("\n")
        check(lines[2][73:99] == "━" * 26 and lines[2][72] == "─" and lines[2][99] == "─",
              "the range's ruler, cells 73 to 98:\n%r" % lines[2])
        check(self_of(s, "a") == 550000 and self_of(s, "b") == 1650000,
              "range: a %r b %r, want 550ms, 1.65s" % (self_of(s, "a"), self_of(s, "b")))
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


def rows_ab(screen):
    """{name: (self, total)} in us of a and b as the flat pane shows them."""
    return {n: (micros(column(screen, n, 0) or ""), micros(column(screen, n, 1) or ""))
            for n in "ab"}


def report_ab(target):
    """--report's a and b over another run of the same target."""
    out = subprocess.run([BINARY, "--inspect", "127.0.0.1:%d" % target.port, "--report",
                          "flat", "--format", "json", "--duration", "60s"],
                         capture_output=True, text=True, timeout=60)
    rows = {r["name"]: r for r in json.loads(out.stdout)["rows"]} if not out.returncode else {}
    return {n: (rows.get(n, {}).get("self"), rows.get(n, {}).get("total")) for n in "ab"}


def wait_released(target):
    deadline = time.monotonic() + 5
    while not target.released and time.monotonic() < deadline:
        time.sleep(0.05)
    return target.released


def end_moments():
    """Node's program ends at each awkward moment of a window's end
    (inspect.py's EndingTarget: right after a Profiler.start, while a
    bridge's console.profile or profileEnd is unanswered, between a
    Profiler.stop and the next start): the header says "program ended",
    the window under way is stopped (a Profiler.stop after the end) and
    Node let go, and the flat pane's a and b are --report's of the same
    target and those worked from the samples it sent."""
    for moment in cdp_fake.END_MOMENTS:
        target = cdp_fake.EndingTarget(moment)
        pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (BINARY, target.port),
                    width=150, what="the first window")
        try:
            pane.keys("3")
            # The header may say it a refresh before the last window's
            # numbers are drawn: the screen that has both, else the last.
            ended = lambda s: "program ended" in s.split("\n")[0]
            try:
                s = pane.wait_for(lambda s: ended(s) and
                                  rows_ab(s) == target.worked_totals(), "%s: the end" % moment)
            except AssertionError:
                s = pane.screen()
            shown = rows_ab(s)
            worked = target.worked_totals()
            check(ended(s), "%s: the header does not say the program ended:\n%s" % (moment, s))
            check(wait_released(target) and target.stops_after_end and target.window is None,
                  "%s: %d stops after the end, a window left running from %r, released %r"
                  % (moment, target.stops_after_end, target.window, target.released))
            check(shown == worked, "%s: the explorer shows %r, worked from the samples %r"
                  % (moment, shown, worked))
            reported = report_ab(cdp_fake.EndingTarget(moment))
            check(reported == worked, "%s: --report gives %r, the explorer %r"
                  % (moment, reported, shown))
            pane.press(["q"], r"EXIT=0", "q")
        finally:
            pane.close()


def end_paused():
    """The program ends while p has stopped the windows: the explorer
    still hears it, says "program ended" and lets Node go, its numbers
    those of the windows before p (worked from the samples sent)."""
    target = cdp_fake.EndingTarget("later")
    pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5" % (BINARY, target.port),
                width=150, what="the first window")
    try:
        s = pane.press(["3"], r"live: fake\.js", "the flat pane")
        pane.wait_for(lambda s: rows_ab(s)["a"][0] > 0, "the first window", stable=False)
        s = pane.press(["p"], r"not profiling", "p stops the windows")
        target.end_now()
        s = pane.wait_for(lambda s: "program ended" in s.split("\n")[0], "the program's end")
        check(wait_released(target) and not target.stops_after_end,
              "paused: released %r, %d stops after the end" % (target.released,
                                                               target.stops_after_end))
        check(rows_ab(s) == target.worked_totals(), "paused: the explorer shows %r, worked %r"
              % (rows_ab(s), target.worked_totals()))
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()


run_tests([follow, stream, strip, switch, program_end, end_moments, end_paused, gap])
sys.exit(1 if failures else 0)
