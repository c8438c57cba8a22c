#!/usr/bin/env python3
"""Live "pin the base" (B) on an XS stream, in tmux at 160x30: a fake XS
engine on loopback streams windows of exactly one second of its samples'
time (1000 samples of 1000 us: `planted`, `steady` and `rest` under
`main`), whose `planted` and `steady` milliseconds come from fixed lists.

Checked: B on the waiting screen, and again with samples in but no
second complete, pins nothing and says so; B after five windows pins
them; the engine then plants a change (+50 ms a window in `planted`,
`steady` drawn from the same values as before) and, once five windows
have followed, the delta layout compares them, each a run, with the
pinned ones: the means, the delta and its 95 % interval are worked out
here from the values streamed (welch_ref.py); `planted` is significant,
listed first and bright, `steady` dimmed exactly when the reference finds
it within the noise.  77 without tmux.

usage: live_pin_xs_tui.py WPROF_BINARY"""
import os
import re
import sys

from tmux_driver import failures, live_explorer, run_tests
from loopback import XsEngine, base36
from pin_screen import TOO_EARLY, check_comparison, flat_total, runs_shown

BINARY = os.path.abspath(sys.argv[1])
# Milliseconds of each window, a sample a millisecond; `rest` fills the
# window up to 1000 samples, one second.
BEFORE = {"planted": [100, 104, 97, 102, 99], "steady": [200, 190, 210, 205, 195]}
AFTER = {"planted": [150, 156, 146, 151, 149], "steady": [205, 195, 200, 190, 210]}
FRAMES = {"planted": 3, "steady": 4, "rest": 5}


class Engine(XsEngine):
    """main, and under it planted, steady and rest: the samples given."""

    def __init__(self, port):
        super().__init__(port, [("main", 2, "m.js", 1)] +
                         [(name, node, "m.js", node - 1) for name, node in FRAMES.items()])

    def send(self, leaves):
        """One 1000 us sample per leaf, in batches as an engine sends them."""
        self.send_samples(["%s,%d,2,0" % (base36(1000), FRAMES[leaf]) for leaf in leaves], 250)


def window(values, i):
    """Window i's 1000 leaves: one second of samples."""
    planted, steady = values["planted"][i], values["steady"][i]
    return ["planted"] * planted + ["steady"] * steady + ["rest"] * (1000 - planted - steady)


def test_pin():
    pane, port = live_explorer(BINARY)
    engine = None
    try:
        pane.press(["B"], TOO_EARLY, "B on the waiting screen", stable=False)
        engine = Engine(port)
        # 300 samples: 0.3 s, no second complete yet.
        first = window(BEFORE, 0)
        engine.send(first[:300])
        pane.wait_for(lambda s: "1 top-down" in s, "the first snapshot", stable=False)
        pane.keys("3")
        # The flat pane drawn whole, its status line too: the waiting
        # screen's answer gone, the one awaited next is this B's own.
        pane.settled(lambda s: flat_total(s, "main") == 300 and not re.search(TOO_EARLY, s),
                     "main 300ms, the first B's answer gone")
        pane.press(["B"], TOO_EARLY, "B before a complete window", stable=False)
        engine.send(first[300:])
        for i in range(1, len(BEFORE["planted"])):
            engine.send(window(BEFORE, i))
        pane.wait_for(lambda s: flat_total(s, "main") == 5000, "five windows: main 5.00s",
                      stable=False)
        pane.press(["B"], r"pinned 5 windows as the base", "B pins", stable=False)
        for i in range(len(AFTER["planted"])):
            engine.send(window(AFTER, i))
        # The rows drawn whole, not only the title above them.
        s, coloured = pane.settled_coloured(lambda s: runs_shown(s) == (5, 5),
                                            "windows 6-10 as five runs")
        check_comparison(s, coloured, BEFORE, AFTER)
        pane.press(["B"], r"unpinned", "B unpins")
        pane.keys("q")
        pane.wait_for(lambda s: re.search(r"quit|EXIT=0", s), "q")
    finally:
        if engine:
            engine.close()
        pane.close()


run_tests([test_pin])
sys.exit(1 if failures else 0)
