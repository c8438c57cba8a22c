#!/usr/bin/env python3
"""The granularity key (a) in live sessions, in tmux, while samples
arrive: the model by files or lines is made from the snapshot shown and
made again on each refresh (app_granularity_refresh), so its rows follow
the session and, back by functions, the numbers are the live totals.
Run under the ASan build too, where a model read after the snapshot it
came from was freed or grew would abort (the EXIT=0 checks).

xs: a fake XS engine (loopback.XsEngine) whose samples alternate
(host) > main (m.js:1) > a (a.js:5) lasting 1000 us and ... > b (b.js:7)
lasting 3000 us.  Hand-worked: after n samples a.js's self is
ceil(n/2) x 1000 us and b.js's floor(n/2) x 3000 us; m.js's total is both.
a is pressed four times while they stream (files, lines, functions,
files), each screen's b within a sample of 3 x a; once the engine pauses,
by files and by functions give the counts sent; more samples then show
by files, and functions again has the same totals.

inspect: the fake inspector streaming over Tracing (inspect.py), with b
in y.js: each chunk has a (x.js) 1000 us and b (y.js) 2000 us under it,
the last sample lasting until the next (b = 2a - 1000 while streaming,
2000 a chunk once p ends tracing).  a while the chunks stream; p; the
files and functions against the chunks sent; p again, a new run (a new
model) followed by files.

go: --live URL against a loopback service answering each window with
testdata/validate.pprof (go tool pprof -top -files: main.go 5.30s flat;
-top: main.add 1.49s): a by files, main.go at 5.30s a window as windows
come; a again skips lines (pprof's are read from the file) to functions,
main.add at 1.49s a window.  Exits 77 (skip) without tmux.

usage: live_granularity_tui.py WPROF_BINARY TESTDATA"""
import http.server
import os
import re
import sys
import tempfile
import threading
import time

from tmux_driver import Pane, check, failures, live_explorer, live_windows, run_tests
from loopback import XsEngine, base36
import inspect as cdp_fake

BINARY = os.path.abspath(sys.argv[1])
with open(os.path.join(sys.argv[2], "validate.pprof"), "rb") as f:
    PROFILE = f.read()
UNITS = {"us": 1, "ms": 1000, "s": 1000000}


def micros(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else 0.0


def rows(screen):
    """name -> (self, total) in microseconds, from the flat pane; of two
    rows of one name (an inspector's (root) is a file's row of its own
    kind, with no self), the one with the larger self."""
    out = {}
    for line in screen.split("\n")[1:-1]:
        m = re.match(r"\s*(\S+)\s+\S+%\s+(\S+)\s+\S+%\s+\S+%\s+(\S+)", line)
        if m and micros(m.group(1)) >= out.get(m.group(3), (0, 0))[0]:
            out[m.group(3)] = (micros(m.group(1)), micros(m.group(2)))
    return out


def near(got, want, slack=0.0):
    """Shown to three digits: within half a percent (and `slack`)."""
    return abs(got - want) <= 0.005 * want + slack + 1


def header(screen):
    return screen.split("\n")[0]


def by(pane, granularity, names):
    """Waits for the header's granularity ("" for functions), the rows
    `names` and the status line's "granularity: …", drawn after the rows
    (curses draws from the top, in pieces); the screen."""
    def shown(s):
        said = re.search(r"  by (files|lines)\b", header(s))
        return (said.group(1) if said else "") == granularity and \
            all(n in rows(s) for n in names) and \
            re.search(r"^ granularity: %s\b" % (granularity or "functions"), s, re.M)
    return pane.wait_for(shown, "by %s with %s" % (granularity or "functions", names),
                         stable=False)


class Streamer:
    """Sends the xs samples (a, b, a, b, ...) 8 a message every 20 ms while
    `on` is set, counting them."""

    def __init__(self, engine):
        self.engine = engine
        self.sent = 0
        self.on = threading.Event()
        self.quit = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.quit:
            if not self.on.wait(0.05):
                continue
            batch = ["%s,%d,2,0" % (base36(3000 if k % 2 else 1000), 4 if k % 2 else 3)
                     for k in range(self.sent, self.sent + 8)]
            self.engine.send_samples(batch, 8)
            self.sent += 8
            time.sleep(0.02)

    def pause(self):
        self.on.clear()
        time.sleep(0.1)  # the batch under way, if any

    def expected(self):
        """a.js's and b.js's self, worked from the samples sent."""
        return (self.sent + 1) // 2 * 1000, self.sent // 2 * 3000


def while_streaming(pane, files, whole):
    """a four times (files, lines, functions, files) while samples arrive;
    at each, a newer snapshot's rows (the files', or functions a and b)
    given to whole(rows, a, b, granularity) to check."""
    seen = 0
    for granularity, a, b in (("files",) + files, ("lines", "a", "b"), ("", "a", "b"),
                              ("files",) + files):
        pane.keys("a")
        by(pane, granularity, [a, b])
        # A refresh or two later, by the same granularity: still whole,
        # its rows drawn whole (a's row may come before b's).
        s = pane.settled(lambda s: rows(s).get(a, (0, 0))[0] > seen and
                         granularity in header(s), "newer numbers", rows)
        got = rows(s)
        seen = got[a][0]
        whole(got, a, b, granularity)


def settled(pane, streamer, what):
    """Once the engine pauses: by files (shown), then lines, then
    functions, the numbers worked from the samples sent."""
    streamer.pause()
    want_a, want_b = streamer.expected()
    s = pane.settled(lambda s: near(rows(s).get("a.js", (0, 0))[0], want_a),
                     "a.js at %d us" % want_a)
    check(near(rows(s)["b.js"][0], want_b) and "by files" in header(s),
          "%s, by files: b.js %r, want %d" % (what, rows(s)["b.js"][0], want_b))
    pane.keys("a")
    by(pane, "lines", ["a", "b"])
    pane.keys("a")
    got = rows(by(pane, "", ["a", "b"]))
    check(near(got["a"][0], want_a) and near(got["b"][0], want_b),
          "%s, by functions: a %r b %r, want %d %d" % (what, got["a"][0], got["b"][0],
                                                      want_a, want_b))
    return want_a


def xs():
    pane, port = live_explorer(BINARY)
    engine = XsEngine(port, [("main", 2, "m.js", 1), ("a", 3, "a.js", 5),
                             ("b", 4, "b.js", 7)])
    streamer = Streamer(engine)
    try:
        streamer.on.set()
        pane.wait_for(lambda s: re.search(r"^ 1 top-down", s, re.M), "the first snapshot",
                      stable=False)
        pane.keys("3")
        def whole(got, a, b, granularity):
            check(near(got[b][0], 3 * got[a][0], 3000),
                  "by %s while streaming: %s %r, want 3 x %s %r" %
                  (granularity or "functions", b, got[b][0], a, got[a][0]))
            if granularity == "files":
                check(near(got["m.js"][1], got[a][0] + got[b][0], 3000),
                      "m.js's total %r is a.js and b.js" % got["m.js"][1])
        while_streaming(pane, ("a.js", "b.js"), whole)
        paused = settled(pane, streamer, "engine paused")
        pane.keys("a")
        by(pane, "files", ["a.js", "b.js"])
        streamer.on.set()  # more samples, shown by files
        time.sleep(0.5)
        check(settled(pane, streamer, "more samples") > paused, "more samples were sent")
        pane.keys("q")
        pane.press(["q"], r"EXIT=\d+", "q with the engine connected, then q")
        check("EXIT=0" in pane.screen(), "xs: exits with 0:\n" + pane.screen())
    finally:
        streamer.quit = True
        pane.close()
        try:
            engine.close()
        except OSError:
            pass  # the explorer gone first


def inspect():
    ins = cdp_fake.Inspector("stream")
    ins.urls = {"b": "y.js"}
    workdir = tempfile.mkdtemp()
    pane = Pane("cd %s && %s --inspect 127.0.0.1:%d; echo EXIT=$?; sleep 5"
                % (workdir, BINARY, ins.port), width=150, what="the first batches",
                stable=False)
    try:
        pane.press(["3"], r"streaming samples over Tracing", "the flat pane", stable=False)
        def whole(got, a, b, granularity):
            # Hand-worked: n chunks, a 1000n, b 2000n less the last sample.
            check(got[a][0] % 1000 == 0 and got[b][0] == 2 * got[a][0] - 1000,
                  "by %s while streaming: %s %r %s %r, want 1000n and 2000n - 1000" %
                  (granularity or "functions", a, got[a][0], b, got[b][0]))
        while_streaming(pane, ("x.js", "y.js"), whole)
        pane.press(["p"], r"not profiling", "p ends tracing", stable=False)
        time.sleep(0.3)  # the fake's chunk under way, if any, and its last
        sent = ins.chunks_sent
        s = pane.settled(lambda s: rows(s).get("y.js", (0, 0))[0] == 2000 * sent,
                         "y.js at %d chunks" % sent)
        check(rows(s)["x.js"][0] == 1000 * sent and "by files" in header(s),
              "tracing over, by files: x.js %r, want %d" % (rows(s)["x.js"][0], 1000 * sent))
        pane.keys("a")
        by(pane, "lines", ["a", "b"])
        pane.keys("a")
        s = by(pane, "", ["a", "b"])
        got = rows(s)
        check(got["a"][0] == 1000 * sent and got["b"][0] == 2000 * sent,
              "by functions: a %r b %r, want %d chunks' worth" % (got["a"][0], got["b"][0], sent))
        pane.keys("a")
        before = by(pane, "files", ["x.js", "y.js"])
        before = rows(before)["x.js"][0]
        # A new run: a new model, its numbers from 0, made by files again.
        pane.press(["p"], r"streaming samples over Tracing", "p starts a new run", stable=False)
        s = pane.settled(lambda s: 0 < rows(s).get("x.js", (0, 0))[0] < before and
                         "by files" in header(s), "the new run by files", rows)
        got = rows(s)
        check(got["x.js"][0] % 1000 == 0 and got["y.js"][0] == 2 * got["x.js"][0] - 1000,
              "new run by files: x.js %r y.js %r" % (got["x.js"][0], got["y.js"][0]))
        pane.keys("a")
        by(pane, "lines", ["a", "b"])
        pane.press(["q"], r"EXIT=\d+", "q")
        check("EXIT=0" in pane.screen(), "inspect: exits with 0:\n" + pane.screen())
    finally:
        pane.close()


class GoService(http.server.BaseHTTPRequestHandler):
    """Each window's answer, a second after it is asked for (as Go)."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        time.sleep(1)
        self.send_response(200)
        self.send_header("Content-Length", str(len(PROFILE)))
        self.end_headers()
        self.wfile.write(PROFILE)


def go():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), GoService)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/debug/pprof/profile" % server.server_address[1]
    pane = Pane("%s --live %s --window 1; echo EXIT=$?; sleep 30" % (BINARY, url), width=150,
                ready=lambda s: "window" in s, what="the waiting screen")
    main_go = "/home/dev/demo/validate-go/main.go"
    try:
        pane.wait_for(lambda s: live_windows(s) >= 1, "the first window", stable=False)
        pane.keys("3")
        pane.keys("a")
        s = by(pane, "files", [main_go])
        first = live_windows(s)
        # A window or two later, still by files, at 5.30s a window.
        s = pane.wait_for(lambda s: live_windows(s) > first + 1 and
                          near(rows(s).get(main_go, (0, 0))[0], 5.30e6 * live_windows(s)),
                          "main.go at 5.30s a window", stable=False)
        check("by files" in header(s), "go: still by files: " + header(s))
        pane.keys("a")
        s = by(pane, "", ["main.add"])
        s = pane.wait_for(lambda s: near(rows(s).get("main.add", (0, 0))[0],
                                         1.49e6 * live_windows(s)),
                          "main.add at 1.49s a window", stable=False)
        check("by lines" not in header(s), "go: a skips lines: " + header(s))
        pane.press(["q"], r"EXIT=\d+", "q")
        check("EXIT=0" in pane.screen(), "go: exits with 0:\n" + pane.screen())
    finally:
        pane.close()
        server.shutdown()


run_tests([xs, inspect, go])
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
