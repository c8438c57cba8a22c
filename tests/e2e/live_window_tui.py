#!/usr/bin/env python3
"""End-to-end test of a live session longer than its timeline's window
(262 144 samples): the real binary in tmux with --listen, and a fake XS
engine on loopback that sends its samples in bursts (a>main>(host)
lasting 1000 us, then b>main>(host) lasting 3000 us, over and over: the
engine's clock, not the wall's, so 300 000 samples take a moment).

Checked, with numbers worked by hand: past the window the strip is still
there and the totals are every sample's; a range pinned on the strip
keeps its numbers while the window slides under it, and when its samples
leave the window, says so and keeps them; 0 shows the whole session's
exact totals again.  Exits 77 (skip) only when tmux is not installed.

usage: live_window_tui.py WPROF_BINARY"""
import os
import re
import sys
import time

from tmux_driver import Pane, check, failures, run_tests, tabs_line
from loopback import XsEngine, base36, free_port

BINARY = os.path.abspath(sys.argv[1])
WINDOW = 262144  # LIVE_TIMELINE_ENTRIES
UNITS = {"us": 1, "ms": 1000, "s": 1000000}


def micros(text):
    """1.5ms, 12s, 7m30s: in microseconds."""
    m = re.fullmatch(r"(\d+)m(\d+)s", text)
    if m:
        return (int(m.group(1)) * 60 + int(m.group(2))) * 1e6
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else 0.0


def body(s):
    """The rows' lines, under the tabs and the column titles."""
    return s.split("\n")[tabs_line(s) + 2:-1]


def self_of(s, name):
    for line in body(s):
        m = re.match(r"(?![\s▼▲^v]*self\s)\s*(\S+)\s+(?:\S+%\s+|-\s+)?(\S+)\s+(\S+%|-)\s+(?:\d+\.\d\d%\s+)?(\S+)", line)
        if m and m.group(4) == name:
            return micros(m.group(1))
    return 0.0


def close(got, want):
    return abs(got - want) <= 0.005 * want


class Engine(XsEngine):
    """main, a and b: sends samples when asked."""

    def __init__(self, port):
        super().__init__(port, [("main", 2, "m.js", 1), ("a", 3, "m.js", 2),
                                ("b", 4, "m.js", 3)])
        self.sent = 0

    def send(self, n):
        """n samples (n even): a 1000 us, b 3000 us in turn."""
        a, b = "%s,3,2,0" % base36(1000), "%s,4,2,0" % base36(3000)
        self.send_samples([a, b] * (n // 2), 1000)
        self.sent += n


def session():
    port = free_port()
    address = "127.0.0.1:%d" % port
    waiting = r"waiting for an engine on " + re.escape(address)
    live = Pane("%s --listen %s; sleep 600" % (BINARY, address), 100, 24,
                ready=lambda s: re.search(waiting, s), what="the waiting screen")
    engine = Engine(port)

    def wait(predicate, what):
        return live.wait_for(predicate, what, stable=False)

    # 300 000 samples, more than the window: 150 000 of a (150 s), as many
    # of b (450 s).  The strip is still on line 2, the totals every sample's.
    engine.send(300000)
    wait(lambda s: "1 top-down" in s, "the first snapshot")
    live.keys("3")
    s = wait(lambda s: close(self_of(s, "a"), 150e6) and close(self_of(s, "b"), 450e6),
             "every sample's totals past the window: a 150 s, b 450 s")
    check("█" in s.split("\n")[1], "the strip past the window:\n" + s)

    # A range on the strip (its last cells): pinned while the window
    # slides 1000 samples (2 s) under it, its numbers stay, its ends too.
    # Its rows are waited for, not only its header: curses may write a
    # screen in more than one piece, and tmux can be read in between.
    live.keys("[")
    s = live.settled(lambda s: re.search(r"range \S+–\S+ of 600\.00s", s) and
                     0 < self_of(s, "a") < 20e6,
                     "a range of the last cells, with some of a's samples", body)
    pinned = body(s)
    ends = re.search(r"range (\S+–\S+) of", s).group(1)
    engine.send(1000)
    s = wait(lambda s: "of 602.00s" in s, "the window sliding under the range")
    check(body(s) == pinned and "range %s of 602.00s" % ends in s,
          "the pinned range keeps its samples and numbers:\n%s\n%s" % ("\n".join(pinned), s))

    # 300 000 more: its samples leave the window; it keeps its numbers
    # and says so; the strip goes on.
    engine.send(300000)
    s = wait(lambda s: "its samples have left the strip" in s, "the range kept")
    check(body(s) == pinned, "the kept range's numbers:\n%s\n%s" % ("\n".join(pinned), s))
    check("█" in s.split("\n")[1], "the strip goes on:\n" + s)

    # 0: the whole session, exact: a 300 500 x 1000 us, b 300 500 x 3000 us.
    s = live.press(["0"], r"range: the whole profile", "0: the whole session",
                   stable=False)
    s = wait(lambda s: close(self_of(s, "a"), 300.5e6) and close(self_of(s, "b"), 901.5e6),
             "every sample's totals: a 300.5 s, b 901.5 s")
    engine.close()


run_tests([session])
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
