#!/usr/bin/env python3
"""End-to-end test of the live explorer: the real binary in tmux with
--listen, and a fake XS engine on loopback that logs in and streams
samples for several seconds (a>main>(host) lasting 1000 us, then
b>main>(host) lasting 3000 us, over and over).

Checked: the waiting screen names the address; the timeline strip
shows and scrolls, a range chosen on it keeps its numbers while samples
arrive; the flat pane's numbers
grow while the engine streams and the cursor stays on its function; u
shows sample counts (a and b alike); z freezes; p sends
<stop-profiling/>; w writes both files; a disconnect keeps the data
(hand-computed self time) and says so; q leaves the terminal sane.  Exits 77 (skip) only when tmux is not installed.

usage: live_tui.py WPROF_BINARY"""
import os
import re
import socket
import sys
import tempfile
import threading
import time

from tmux_driver import TIMEOUT, Pane, check, failures, tabs_line, tmux
from loopback import base36, free_port

BINARY = os.path.abspath(sys.argv[1])
live = None  # the explorer's session, once started


def screen():
    return live.screen()


def wait_for(pattern, what):
    return live.wait_for(lambda s: re.search(pattern, s, re.M), what, stable=False)


def press(keys, pattern, what):
    return live.press(keys, pattern, what, stable=False)


def settled(pattern, what):
    """The first screen matching pattern whose rows and status line are
    drawn whole (the same a moment later), for a check on them: curses
    writes a screen in pieces, and the header is drawn first."""
    return live.settled(lambda s: re.search(pattern, s, re.M), what, body)


def press_settled(keys, pattern, what):
    live.keys(*keys)
    return settled(pattern, what)


def whole():
    """The screen now, its rows and status line drawn whole."""
    return live.settled(lambda s: True, "the rows drawn whole", body)


UNITS = {"us": 1, "ms": 1000, "s": 1000000}


def micros(text):
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else 0.0


def body(s):
    """The rows' lines, under the tabs and the column titles."""
    return s.split("\n")[tabs_line(s) + 2:-1]


def flat_rows(s):
    """function name -> (self, total) text of each row under the titles."""
    out = {}
    for line in body(s):
        m = re.match(r"(?![\s▼▲^v]*self\s)\s*(\S+)\s+(?:\S+%\s+|-\s+)?(\S+)\s+(\S+%|-)\s+(?:\d+\.\d\d%\s+)?(.*?)\s*$", line)
        if m:
            out[m.group(4).split()[0]] = (m.group(1), m.group(2))
    return out


def position(s):
    m = re.search(r"(\d+)/(\d+)  \? help", s)
    return int(m.group(1)) if m else None


def row_at(s, index):
    """The name on the screen's row `index` (1-based, as the status counts)."""
    names = [line for line in body(s) if line.strip()]
    m = re.match(r"(?![\s▼▲^v]*self\s)\s*\S+\s+(?:\S+%\s+|-\s+)?\S+\s+\S+\s+(?:\d+\.\d\d%\s+)?(\S+)", names[index - 1])
    return m.group(1) if m else None


class FakeEngine:
    """Logs in, waits for <go/>, streams until told to stop, keeping what
    wprof-tui sends it."""

    def __init__(self, port, name=b"fake"):
        self.name = name
        self.received = b""
        self.sent = 0
        self.stop = threading.Event()
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def read(self):
        try:
            more = self.sock.recv(4096)
        except OSError:
            more = b""
        self.received += more
        return more

    def run(self):
        s = self.sock
        s.sendall(b'\r\n<xsbug><login name="%s" value="fake engine"/></xsbug>\r\n'
                  % self.name)
        while b"<go/>" not in self.received:
            if not self.read():
                return
        threading.Thread(target=lambda: [None for _ in iter(self.read, b"")],
                         daemon=True).start()
        s.sendall(b'\r\n<xsbug><pt name="start" value="@0000000000001000"/></xsbug>\r\n'
                  b'\r\n<xsbug><pr name="(host)" value="0"/></xsbug>\r\n'
                  b'\r\n<xsbug><pr name="main" value="2" path="m.js" line="1"/></xsbug>\r\n'
                  b'\r\n<xsbug><pr name="a" value="3" path="m.js" line="2"/></xsbug>\r\n'
                  b'\r\n<xsbug><pr name="b" value="4" path="m.js" line="3"/></xsbug>\r\n')
        while not self.stop.is_set():
            batch = []
            for _ in range(8):
                leaf = "3" if self.sent % 2 == 0 else "4"
                delta = 1000 if leaf == "3" else 3000  # a sample's own time
                batch.append("%s,%s,2,0" % (base36(delta), leaf))
                self.sent += 1
            s.sendall(b"\r\n<xsbug><ps>" + ".".join(batch).encode() + b"</ps></xsbug>\r\n")
            time.sleep(0.02)

    def disconnect(self):
        self.stop.set()
        self.thread.join()
        # Shut down first: the reading thread still holds the socket.
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def live_session(workdir):
    port = free_port()
    address = "127.0.0.1:%d" % port
    command = ("cd %s; trap : INT; %s --listen %s; echo EXIT=$?; stty -a; sleep 600"
               % (workdir, BINARY, address))
    global live
    waiting = r"waiting for an engine on " + re.escape(address)
    live = Pane(command, 100, 24, ready=lambda s: re.search(waiting, s),
                what="the waiting screen")
    engine = FakeEngine(port)
    other = None
    try:
        streaming(engine)
        other = FakeEngine(port, b"other")
        two_engines()
    finally:
        engine.stop.set()
        if other:
            other.stop.set()
    if other:
        other.disconnect()
    engine.disconnect()
    s = live.settled(lambda s: "disconnected; its data stays" in s,
                     "the disconnect on the status line")
    check("live: fake" in s.split("\n")[0] and "disconnected" in s.split("\n")[0],
          "header: the engine, disconnected: %r" % s.split("\n")[0])
    # Hand-computed: the samples alternate a, b, each a lasting 1000 us (the
    # delta it carries); shown to three digits.
    pairs = engine.sent // 2
    a_self = micros(flat_rows(s).get("a", ("", ""))[0])
    check(abs(a_self - pairs * 1000) <= 0.005 * pairs * 1000,
          "after the disconnect a's self is %d x 1000 us: %r" % (pairs, flat_rows(s)))
    # EXIT= comes before stty's modes: wait for both.
    s = press(["q"], r"EXIT=[\s\S]*icanon", "the explorer to quit")
    check("EXIT=0" in s, "q exits with status 0")
    modes = s.split()
    check("icanon" in modes and "echo" in modes and "-icanon" not in modes,
          "terminal sane (icanon, echo) after q")


def streaming(engine):
    s = live.settled(lambda s: re.search(r"^ live: fake", s, re.M), "the first snapshot",
                     lambda s: s.split("\n")[0])
    check("profiling" in s.split("\n")[0], "header says profiling: %r" % s.split("\n")[0])
    # The timeline strip under the header: it scrolls (0.1 s a cell, the
    # newest at the right) as samples arrive (past the window of samples
    # kept: live_window_tui.py).
    s = wait_for(r"^ 1 top-down", "the panes")
    lines = s.split("\n")
    check(tabs_line(s) == 3 and "█" in lines[1], "the strip on line 2:\n" + s)
    time.sleep(1.0)
    later = screen().split("\n")
    check(later[1] != lines[1] and "█" in later[1],
          "the strip moves as samples arrive:\n%s\n%s" % (lines[1], later[1]))
    # A range chosen on it stays on its samples: its numbers stand still
    # while new samples arrive; 0 follows the whole session again.  Its
    # rows are those drawn with the status line's "range …", after the
    # header's: curses draws from the top.
    s = press_settled(["["], r"^ range \S+–\S+ of", "a range chosen on the strip")
    pinned = body(s)
    time.sleep(1.0)
    s = whole()
    check(body(s) == pinned and "█" in s.split("\n")[1],
          "a pinned range keeps its numbers:\n%s\n%s" % ("\n".join(pinned), s))
    press(["0"], r"range: the whole profile", "0: the whole session")
    # Top-down: open (host) and main; they stay open across snapshots.
    wait_for(r"▸ \(host\)", "(host) with calls below it")
    press(["Enter"], r"▾ \(host\)", "(host) open")
    press(["j", "Enter"], r"▾ main", "main open")
    time.sleep(1.0)
    s = whole()
    check(re.search(r"▾ \(host\)", s) and re.search(r"▾ main", s) and
          re.search(r"\sa\s+m\.js:2", s), "open rows stay open across snapshots")
    check(position(s) == 2, "the cursor stays on main: %r" % position(s))
    s = press(["3", "s"], r"sorted by self", "flat pane sorted by self")
    time.sleep(0.6)
    s = whole()
    check("sort: self" in s.split("\n")[tabs_line(s)], "the sort stays across snapshots")
    check([row_at(s, i) for i in (1, 2)] == ["b", "a"], "by self: b, a first")
    # Down to a's row.
    names = [line for line in body(s) if line.strip()]
    index = next(i for i, line in enumerate(names) if " a  m.js:2" in line) + 1
    live.keys("g", *(["j"] * (index - 1)))
    s = wait_for(r"\b%d/\d+  \? help" % index, "the cursor on a")
    first = micros(flat_rows(s)["a"][1])
    time.sleep(1.5)
    s = whole()
    later = micros(flat_rows(s).get("a", ("", ""))[1])
    check(later > first > 0, "a's total grows while streaming: %g then %g" % (first, later))
    check(position(s) == index and row_at(s, index) == "a",
          "the cursor stays on a: %r at %r" % (row_at(s, index), position(s)))
    b_self = micros(flat_rows(s).get("b", ("", ""))[0])
    check(abs(b_self - 3 * micros(flat_rows(s)["a"][0])) <= 0.02 * b_self + 3000,
          "b's self is three times a's: %r" % flat_rows(s))

    # u twice: sample counts, which the snapshots carry; a and b alternate.
    s = press_settled(["u", "u"], r"units: samples", "u twice: sample counts")
    counts = flat_rows(s)
    a_count, b_count = counts["a"][0], counts["b"][0]
    check(a_count.isdigit() and b_count.isdigit() and
          int(a_count) - int(b_count) in (0, 1) and int(b_count) > 0,
          "a and b counted alike: %r" % counts)
    press(["u"], r"units: time", "u back to time")

    s = press_settled(["z"], r"^ frozen: ", "freeze, on the status line")
    frozen = flat_rows(s)["a"]
    time.sleep(1.0)
    check(flat_rows(whole())["a"] == frozen, "frozen numbers stay")
    s = press(["z"], r"following the engine again", "unfreeze")
    time.sleep(0.6)
    check(flat_rows(whole())["a"] != frozen, "unfrozen numbers move on")

    press(["w"], r"wrote wprof-live-1-\S+\.xsbug and wprof-live-1-\S+\.cpuprofile",
          "the written file names")
    press(["p"], r"asked fake@\S+ to stop profiling", "p")
    deadline = time.time() + TIMEOUT
    while b"<stop-profiling/>" not in engine.received and time.time() < deadline:
        time.sleep(0.05)
    check(b"<stop-profiling/>" in engine.received, "p sent <stop-profiling/>")
    # The live keys, awaited all: the help's rows come after its title.
    live_keys = ("live: start/stop profiling", "live: next engine", "live: freeze/follow")
    s = press_settled(["?"], r"Keys", "the help")
    if live_keys[0] not in s:  # a short screen: it scrolls
        live.keys("PageDown")
    live.settled(lambda s: all(k in s for k in live_keys), "help lists the live keys: p, e and z")
    # The help gone: its status line shows under it as well.
    live.keys("Escape")
    live.wait_for(lambda s: re.search(r"\? help", s) and "Keys —" not in s, "help closed",
                  stable=False)


def two_engines():
    """e shows the next engine that logged in, and back."""
    s = wait_for(r"^ live: fake\S+ \(1 of 2\)", "a second engine in the header")
    s = press_settled(["e"], r"^ live: other\S+ \(2 of 2\), profiling  [\s\S]*"
                      r"^ showing other@", "the second engine shown, and said")
    check(position(s) is not None, "the panes stay usable: %r" % s.split("\n")[-2:])
    press(["e"], r"^ live: fake\S+ \(1 of 2\)", "back to the first engine")


def main():
    with tempfile.TemporaryDirectory() as workdir:
        try:
            live_session(workdir)
        except AssertionError as e:
            check(False, str(e))
        finally:
            tmux("kill-server", check=False)
        written = sorted(os.listdir(workdir))
        check(len(written) == 2 and written[0].endswith(".cpuprofile") and
              written[1].endswith(".xsbug"), "w wrote two files: %r" % written)
    if failures:
        print("%d failures" % len(failures))
        sys.exit(1)
    print("ok")


main()
