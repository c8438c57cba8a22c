#!/usr/bin/env python3
"""Live "pin the base" (B) on an inspector target, in tmux at 200x50: the
fake inspector of inspect.py streaming over Tracing, each ProfileChunk
samples 1000 us apart, sent only when the test queues them: windows of
one second of sample time (1000 samples: `planted`, `steady` and `rest`
under `main`), whose `planted` and `steady` milliseconds come from fixed
lists.  Black-box: only what the binary shows is read.

Checked: B before a second of samples is complete pins nothing and says
so; B after five windows pins them; the target then plants a change (+50
ms a window in `planted`, `steady` drawn from the same values) and, once
five windows have followed, the delta layout compares them with the
pinned ones: means, delta and 95 % interval worked out here from the
values sent (welch_ref.py), `planted` significant, listed first and
bright, `steady` dimmed exactly when the reference finds it within the
noise.  A sample's time lasts until the next (DevTools' reading), so each
window begins and ends with `rest` samples: a window edge one sample off
moves only those.  77 without tmux.

usage: live_pin_inspect_tui.py WPROF_BINARY"""
import os
import sys
import threading

from tmux_driver import Pane, failures, run_tests
from pin_screen import TOO_EARLY, check_comparison, flat_total, runs_shown
import inspect as cdp_fake

BINARY = os.path.abspath(sys.argv[1])
BEFORE = {"planted": [100, 104, 97, 102, 99], "steady": [200, 190, 210, 205, 195]}
AFTER = {"planted": [150, 156, 146, 151, 149], "steady": [205, 195, 200, 190, 210]}
NODES = {"main": 2, "planted": 3, "steady": 4, "rest": 5}
CHUNK = 500  # samples a ProfileChunk


class Paced(cdp_fake.Inspector):
    """The streaming fake, sending the samples queued, a chunk at a time."""

    def __init__(self):
        super().__init__("stream")
        self.queue = []
        self.lock = threading.Lock()

    def send(self, leaves):
        with self.lock:
            self.queue.extend(NODES[leaf] for leaf in leaves)

    def pending(self):
        with self.lock:
            return len(self.queue)

    def batch(self):
        with self.lock:
            samples, self.queue = self.queue[:CHUNK], self.queue[CHUNK:]
        if not samples:
            return []
        events = []
        data = {"cpuProfile": {"samples": samples}, "timeDeltas": [1000] * len(samples)}
        if not self.chunks_sent:
            frame_of = lambda name, line: {"functionName": name, "url": "p.js", "scriptId": 1,
                                           "lineNumber": line, "columnNumber": 0}
            events = [{"name": "Profile", "ph": "P", "id": "0x1", "pid": 1, "tid": 1,
                       "ts": 10 ** 6, "args": {"data": {"startTime": 0}}}]
            data["cpuProfile"]["nodes"] = [{"id": 1, "callFrame": frame_of("(root)", 0)}] + [
                {"id": node, "parent": 1 if name == "main" else 2,
                 "callFrame": frame_of(name, node)} for name, node in NODES.items()]
        self.chunks_sent += 1
        events.append({"name": "ProfileChunk", "ph": "P", "id": "0x1", "pid": 1, "tid": 1,
                       "ts": 10 ** 6 + self.chunks_sent, "args": {"data": data}})
        return events


def window(values, i):
    """Window i's 1000 leaves, `rest` at both ends."""
    planted, steady = values["planted"][i], values["steady"][i]
    return (["rest"] * 10 + ["planted"] * planted + ["steady"] * steady +
            ["rest"] * (990 - planted - steady))


def test_pin():
    target = Paced()
    pane = Pane("%s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 30" % (BINARY, target.port),
                200, 50, ready=lambda s: "over Tracing" in s or "EXIT=" in s)
    try:
        before = [leaf for i in range(5) for leaf in window(BEFORE, i)]
        after = [leaf for i in range(5) for leaf in window(AFTER, i)]
        target.send(before[:300])
        pane.wait_for(lambda s: "1 top-down" in s, "the first samples", stable=False)
        pane.keys("3")
        pane.wait_for(lambda s: (flat_total(s, "main") or 0) >= 290, "main 0.3 s", stable=False)
        pane.press(["B"], TOO_EARLY, "B before a complete window", stable=False)
        # The five windows and the first sample of the sixth: the fifth
        # lasts until it.
        target.send(before[300:] + after[:1])
        pane.wait_for(lambda s: target.pending() == 0 and flat_total(s, "main") == 5000,
                      "five windows: main 5.00s", stable=False)
        pane.press(["B"], r"pinned 5 windows as the base", "B pins", stable=False)
        target.send(after[1:] + ["rest"])
        # The rows drawn whole, not only the title above them.
        s, coloured = pane.settled_coloured(lambda s: runs_shown(s) == (5, 5),
                                            "windows 6-10 as five runs")
        check_comparison(s, coloured, BEFORE, AFTER)
        pane.press(["B"], r"unpinned", "B unpins")
    finally:
        pane.close()


run_tests([test_pin])
sys.exit(1 if failures else 0)
