#!/usr/bin/env python3
"""Live "pin the base" (B), in tmux at 200x50: a loopback server plays a
Go service for --live URL --window 1, answering each window with a pprof
profile whose `planted` and `steady` counts come from fixed lists; once the
windows so far are pinned as the base, the service plants a change (+50
samples a window in `planted`, `steady` drawn from the same values as
before).  The delta layout then compares the windows since the pin, each a
run, with the pinned ones: the means, the delta and its 95 % interval are
worked out here from the values served (welch_ref.py), `planted` is
significant and first, `steady` is dimmed as noise exactly when the
reference finds it so; B again unpins.  77 without tmux.

usage: live_pin_tui.py WPROF_BINARY"""
import http.server
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

from tmux_driver import Pane, check, failures, live_windows, run_tests
from welch_ref import welch

BINARY = os.path.abspath(sys.argv[1])
BEFORE = {"planted": [100, 104, 97, 102, 99, 101], "steady": [200, 190, 210, 205, 195, 200]}
AFTER = {"planted": [150, 148, 153, 149, 152, 151], "steady": [205, 195, 200, 190, 210, 200]}
served = []  # (phase, index) of each window, in order
planted = threading.Event()  # the change is in: AFTER's values


def profiles(tmp):
    """phase -> the pprof bytes of each of its windows, written by
    wprof-tui from folded stacks."""
    out = {}
    for phase, values in (("before", BEFORE), ("after", AFTER)):
        out[phase] = []
        for i in range(len(values["planted"])):
            folded = os.path.join(tmp, "%s%d.folded" % (phase, i))
            with open(folded, "w") as f:
                f.write("main;planted %d\nmain;steady %d\nmain 5\n"
                        % (values["planted"][i], values["steady"][i]))
            pprof = folded + ".pb.gz"
            subprocess.run([BINARY, "--export", "pprof", "-o", pprof, folded], check=True)
            with open(pprof, "rb") as f:
                out[phase].append(f.read())
    return out


PROFILES = profiles(tempfile.mkdtemp())


class Service(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        time.sleep(0.3)
        phase = "after" if planted.is_set() else "before"
        index = sum(1 for p, _ in served if p == phase) % len(PROFILES[phase])
        body = PROFILES[phase][index]
        served.append((phase, index))
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # wprof-tui quit while a window was under way


def values(phase, name):
    source = BEFORE if phase == "before" else AFTER
    return [source[name][i] for p, i in served if p == phase]


def runs_shown(screen):
    m = re.search(r"windows 1-(\d+) \((\d+) runs\) -> windows? \d+(?:-\d+)? \((\d+) runs?\)",
                  screen)
    return (int(m.group(2)), int(m.group(3))) if m else (0, 0)


def number(text):
    return float(text)


def test_pin():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/debug/pprof/profile" % server.server_address[1]
    pane = Pane("%s --live %s --window 1; echo EXIT=$?; sleep 30" % (BINARY, url), 200, 50,
                ready=lambda s: "window" in s)
    try:
        pane.wait_for(lambda s: live_windows(s) >= 4, "four windows", stable=False)
        pane.press(["p"], r"paused", "paused", stable=False)
        # The window under way still comes: the screen then shows every
        # window served.
        pane.wait_for(lambda s: live_windows(s) == len(served) and live_windows(s) >= 4,
                      "the windows served", stable=False)
        time.sleep(0.5)
        pinned = live_windows(pane.screen())
        check(pinned == len(served), "a window after the pause: %d shown, %d served"
              % (pinned, len(served)))
        planted.set()
        s = pane.press(["B"], r"pinned %d windows as the base" % pinned, "B pins", stable=False)
        pane.keys("p")
        # The rows drawn whole, not only the title above them, with their
        # colours from that drawing.
        s, coloured = pane.settled_coloured(lambda s: runs_shown(s)[1] >= 4,
                                            "four windows after the pin")
        base_n, new_n = runs_shown(s)
        check(base_n == pinned, "the base is the %d windows pinned, not %d" % (pinned, base_n))
        check(re.search(r"\d+ runs a side|\d+ base runs, \d+ new", s),
              "the tab line counts the runs:\n%s" % s)
        rows = s.split("\n")[3:-1]
        order = [r.split()[-1] for r in rows if r.strip()]
        check("planted" in order and "steady" in order and
              order.index("planted") < order.index("steady"),
              "planted (significant) before steady:\n%s" % s)
        for name in ("planted", "steady"):
            want = welch(values("before", name)[:base_n], values("after", name)[:new_n])
            line = next((l for l in rows if re.search(r" %s\s*$" % name, l)), None)
            check(line is not None, "a row for %s:\n%s" % (name, s))
            if line is None:
                continue
            m = re.search(r"([\d.]+)\s+([\d.]+)\s+([+-]?[\d.]+)\s+\u00b1([\d.]+)\s", line)
            check(m is not None, "%s: means, delta and interval: %r" % (name, line))
            if m is None:
                continue
            got = [number(g) for g in m.groups()]
            half = want["high"] - want["delta"]
            for g, w, what in ((got[0], want["mean_a"], "base mean"),
                               (got[1], want["mean_b"], "new mean"),
                               (got[2], want["delta"], "delta"), (got[3], half, "interval")):
                check(abs(g - w) <= 0.006 * abs(w) + 0.06, "%s: %s %g, want %g (%r)"
                      % (name, what, g, w, line))
            significant = want["low"] > 0 or want["high"] < 0
            if name == "planted":
                check(significant, "the reference: planted significant: %r" % want)
            dim = next((l for l in coloured
                        if re.search(r" %s\s*$" % name, re.sub(r"\x1b\[[0-9;]*m", "", l))), "")
            cells = dim[:dim.find(" %s" % name)]
            check(("\x1b[2m" in cells) == (not significant),
                  "%s %s: %r" % (name, "bright" if significant else "dimmed", dim))
        s = pane.press(["B"], r"\[\d+ windows of 1s", "B unpins")
        check("delta layout" not in s, "unpinned: the session again:\n%s" % s)
        pane.keys("q")
        pane.wait_for(lambda s: "EXIT=0" in s, "the exit")
    finally:
        pane.close()
        server.shutdown()


run_tests([test_pin])
sys.exit(1 if failures else 0)
