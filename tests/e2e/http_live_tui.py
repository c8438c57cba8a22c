#!/usr/bin/env python3
"""The explorer on --live URL, in tmux: a loopback server plays a Go
service, answering each /debug/pprof/profile?seconds=1 after a second with
testdata/validate.pprof (main.add: 1490ms flat, go tool pprof -top).

Checked: the waiting screen, counting the seconds the first window takes
(--window 3), then the title counts windows and the flat
pane's main.add grows by 1.49s a window; the timeline strip has a cell a
window (pprof has no sample times inside one), and a range pinned on it
holds 1.49s a window of it while windows come; p pauses (no window comes while
paused) and resumes; w writes the session as pprof, which go tool pprof
reads as the merge of as many copies of validate.pprof as windows, with
its main binary and time; q quits.  77 without tmux.

usage: http_live_tui.py WPROF_BINARY TESTDATA"""
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from tmux_driver import Pane, check, failures, live_windows, run_tests

BINARY = os.path.abspath(sys.argv[1])
with open(os.path.join(sys.argv[2], "validate.pprof"), "rb") as f:
    PROFILE = f.read()
SOURCE = os.path.join(os.path.abspath(sys.argv[2]), "validate.pprof")
asked = []
down = threading.Event()  # the service restarting: 503 till cleared


class Service(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if down.is_set():
            self.send_response(503)
            self.send_header("Content-Length", "11")
            self.end_headers()
            self.wfile.write(b"restarting\n")
            return
        asked.append(self.path)
        # As Go: the answer comes when the profile's seconds are over.
        seconds = re.search(r"seconds=(\d+)", self.path)
        time.sleep(int(seconds.group(1)) if seconds else 1)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(PROFILE)))
        self.end_headers()
        self.wfile.write(PROFILE)


UNITS = {"ms": 1e-3, "s": 1, "mins": 60}


def add_total(screen):
    """main.add's total in seconds, from the flat pane (self, self%, total, total%, sum%)."""
    m = re.search(r"^\s*\S+\s+\S+%\s+([\d.]+)(ms|s|mins)\s+[\d.]+%\s+(?:\d+\.\d\d%\s+)?main\.add\b", screen, re.M)
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def go_top(paths, tmp):
    env = dict(os.environ, HOME=tmp, PPROF_TMPDIR=tmp, GOCACHE=os.path.join(tmp, "gocache"),
               TZ="UTC")
    return subprocess.run(["go", "tool", "pprof", "-top", "-nodecount=1000", *paths],
                          capture_output=True, text=True, env=env)


def go_header(paths, tmp):
    """go tool pprof's File: and Time: lines, and what it says on stderr."""
    p = go_top(paths, tmp)
    return [l for l in p.stdout.split("\n") if l.startswith(("File:", "Time:"))], p.stderr


def go_rows(paths, tmp):
    lines = go_top(paths, tmp).stdout.split("\n")
    heads = [i for i, l in enumerate(lines) if l.split()[:2] == ["flat", "flat%"]]
    return [l for l in lines[heads[0] + 1:] if l.strip()] if heads else []


def test_live():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/debug/pprof/profile"
    tmp = tempfile.mkdtemp()
    pane = Pane(f"cd {tmp} && {BINARY} --live {url} --window 1; echo EXIT=$?; sleep 30", width=120,
                ready=lambda s: "fetching the first window" in s or "window" in s)
    try:
        s = pane.wait_for(lambda s: live_windows(s) >= 1, "the first window", stable=False)
        s = pane.press(["3"], r"main\.add", "the flat pane")
        first = live_windows(s)
        s = pane.wait_for(lambda s: live_windows(s) >= first + 2 and add_total(s), "two more windows")
        n = live_windows(s)
        # the shown total is rounded to 4 digits
        check(abs(add_total(s) - 1.49 * n) <= 0.0006 * n * 1.49 + 0.01,
              f"main.add {add_total(s)}s after {n} windows")
        # The strip: pprof has no sample times inside a window, so a cell
        # is a window (the newest at the right), as many cells as windows.
        lines = s.split("\n")
        check("timeline: a cell a window" in lines[2] and
              len(lines[1].strip().replace(" ", "")) == n,
              f"the strip has {n} windows' cells:\n{s}")
        # [ pins a range from the second window on: main.add is 1.49s a
        # window of the range (the ruler's marked cells), and stays so as
        # windows come.
        s = pane.press(["["], r"range \S+–\S+ of", "a range from the second window")
        cells = s.split("\n")[2].count("━")
        check(cells >= 2 and abs(add_total(s) - 1.49 * cells) <= 0.0006 * cells * 1.49 + 0.01,
              f"main.add {add_total(s)}s in a range of {cells} windows:\n{s}")
        held = live_windows(s)
        # Drawn whole: the ruler and rows under the header's new count.
        s = pane.settled(lambda s: live_windows(s) > held, "a window while the range is pinned")
        check(s.split("\n")[2].count("━") == cells and
              abs(add_total(s) - 1.49 * cells) <= 0.0006 * cells * 1.49 + 0.01,
              f"the pinned range moved: main.add {add_total(s)}s:\n{s}")
        pane.press(["0"], r"range: the whole profile", "0: the whole session")
        s = pane.press(["p"], r"paused", "paused")
        time.sleep(1.2)  # the window under way may still come
        held = live_windows(pane.screen())
        time.sleep(2.5)
        check(live_windows(pane.screen()) == held, "a window came while paused")
        s = pane.press(["p"], r"fetching windows again", "resumed")
        s = pane.wait_for(lambda s: live_windows(s) > held, "a window after resuming", stable=False)
        # A service that restarts: its error on the status line, cleared
        # once it answers again.
        down.set()
        s = pane.wait_for(lambda s: "HTTP status 503: restarting" in s, "the restart said",
                          stable=False)
        down.clear()
        # Drawn whole, the status line too: no piece of the old error left.
        s = pane.settled(lambda s: "the service answers again" in s, "the error cleared")
        check("503" not in s, f"the old error stays:\n{s}")
        s = pane.press(["w"], r"wrote wprof-live-\S+ \(\d+ windows\)", "the session written")
        m = re.search(r"wrote (wprof-live-\S+) \((\d+) windows\)", s)
        written, count = os.path.join(tmp, m.group(1)), int(m.group(2))
        check(os.path.exists(written), f"{written} is not there")
        if shutil.which("go"):
            got, want = go_rows([written], tmp), go_rows([SOURCE] * count, tmp)
            check(got and got == want, f"go tool pprof: {got} != {want}")
            # The windows' main binary and start, as go tool pprof shows
            # validate.pprof's own ("File: validate", "Time: Nov 21, 2026 ...").
            (got, said), (want, _) = go_header([written], tmp), go_header([SOURCE], tmp)
            check(len(want) == 2 and got == want and "Main binary" not in said,
                  f"go tool pprof's header: {got} ({said.strip()}), want {want}")
        check(all(p == "/debug/pprof/profile?seconds=1" for p in asked), f"asked {asked}")
        pane.press(["q"], r"EXIT=0", "the exit")
    finally:
        pane.close()
        server.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


def test_waiting():
    """The waiting screen counts the seconds the first window takes
    (--window 3: the service answers after 3 s), as --report does."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/debug/pprof/profile"
    pane = Pane(f"{BINARY} --live {url} --window 3; echo EXIT=$?; sleep 30", width=120,
                ready=lambda s: "fetching the first window" in s)
    try:
        counted = set()
        began = time.monotonic()
        while time.monotonic() - began < 2.5:
            m = re.search(r"fetching the first window, a 3 s profile, from \S+… (\d+) s",
                          pane.screen())
            if m:
                counted.add(int(m.group(1)))
            time.sleep(0.2)
        check({0, 1, 2} <= counted, f"the waiting screen counted {sorted(counted)}")
        pane.wait_for(lambda s: "[1 window of 3s" in s, "the first window", stable=False)
        pane.press(["q"], r"EXIT=0", "q")
    finally:
        pane.close()
        server.shutdown()


run_tests([test_live, test_waiting])
sys.exit(1 if failures else 0)
