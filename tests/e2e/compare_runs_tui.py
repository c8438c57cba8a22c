#!/usr/bin/env python3
"""The explorer's comparison of several runs a side (issue 28), in tmux at
80x24 and 200x50, on six runs a side of one Node program
(testdata/compare-n: `planted` does 2 units more a round on the new side,
`steady` the same every run, `noisy` a random amount drawn once a run).

The delta layout shows each side's mean, the delta of the means and the
half width of its 95 % interval: each worked out here from every run's
own --report flat (Welch's test from welch_ref.py, independently of
wprof-tui's code).  Rows within the noise are dimmed (SGR 2, read with
capture-pane -e), marked `~` under NO_COLOR, and `!` hides them; one run
a side says there is no spread; NEW's flame graph colours `steady` (no
significant change) in the unchanged colour of the theme, and does not
with one run a side.

usage: compare_runs_tui.py WPROF_BINARY TESTDATA_DIR
Exits 77 (skip) only when tmux is not installed."""
import json
import os
import re
import subprocess
import sys

from tmux_driver import Pane, check, failures, run_tests, tmux
from welch_ref import welch

BINARY = os.path.abspath(sys.argv[1])
DIR = os.path.join(os.path.abspath(sys.argv[2]), "compare-n")
RUNS = 6
BASE = [os.path.join(DIR, "base%d.cpuprofile" % i) for i in range(1, RUNS + 1)]
NEW = [os.path.join(DIR, "new%d.cpuprofile" % i) for i in range(1, RUNS + 1)]
URL = "file:///tmp/cn/v3/work.js"
WATCHED = ["planted", "steady", "noisy"]
UNITS = {"us": 1, "ms": 1e3, "s": 1e6}
# themes/dark.theme's flame-diff: the 6th colour is "unchanged".
UNCHANGED = "252"


def totals(path):
    """name -> total (µs) of the watched functions in one run."""
    out = subprocess.run([BINARY, "--report", "flat", "--format", "json", path],
                         capture_output=True, text=True, check=True).stdout
    return {r["name"]: r["total"] for r in json.loads(out)["rows"]
            if r["name"] in WATCHED and r["url"] == URL}


def expected():
    per_base, per_new = [totals(f) for f in BASE], [totals(f) for f in NEW]
    return {name: welch([v.get(name, 0) for v in per_base], [v.get(name, 0) for v in per_new])
            for name in WATCHED}


WANT = expected()


def command(*extra, base=BASE, new=NEW, env=""):
    args = " ".join("--base %s" % f for f in base) + " " + " ".join(new)
    return "%s %s %s %s; echo EXIT=$?; sleep 600" % (env, BINARY, " ".join(extra), args)


def microseconds(text):
    m = re.fullmatch(r"([+-]?)([\d.]+)(us|ms|s)", text)
    return float(m.group(1) + m.group(2)) * UNITS[m.group(3)]


def row_of(screen, name):
    for line in screen.split("\n")[3:-1]:
        if re.search(r"[ ~+-] %s  work\.js:" % name, line):
            return line
    return None


# g: the cursor on the first row, on the status line, which curses draws
# after the rows (the header, with "runs a side", before them).
FIRST_ROW = r"(?<!\d)1/\d+  \? help$"


def delta_layout(p):
    """d, and the delta layout once its watched rows are drawn."""
    p.keys("d")
    return p.wait_for(lambda s: "delta layout" in s and all(row_of(s, n) for n in WATCHED),
                      "the delta layout with rows for %s" % ", ".join(WATCHED))


def open_delta(width, height, *extra, env=""):
    p = Pane(command(*extra, env=env), width, height)
    delta_layout(p)
    return p, p.press(["g"], r"runs a side[\s\S]*" + FIRST_ROW, "the first row")


def check_row(size, s, name):
    line = row_of(s, name)
    check(line is not None, "%s: a row for %s:\n%s" % (size, name, s))
    if line is None:
        return
    w = WANT[name]
    m = re.search(r"([+-][\d.]+(?:us|ms|s))\s+\u00b1([\d.]+(?:us|ms|s))\s", line)
    check(m is not None, "%s: %s's delta and interval: %r" % (size, name, line))
    if m is None:
        return
    delta, half = microseconds(m.group(1)), microseconds(m.group(2))
    want_half = w["high"] - w["delta"]
    check(abs(delta - w["delta"]) <= 0.006 * abs(w["delta"]) + 10,
          "%s: %s delta %g, want %g" % (size, name, delta, w["delta"]))
    check(abs(half - want_half) <= 0.006 * want_half + 10,
          "%s: %s interval \u00b1%g, want \u00b1%g" % (size, name, half, want_half))


def interval_and_noise(width, height):
    size = "%dx%d" % (width, height)
    p, s = open_delta(width, height)
    check(re.search(r"\u00b195%", s.split("\n")[2]), "%s: the titles name the interval: %r"
          % (size, s.split("\n")[2]))
    check(WANT["planted"]["low"] > 0 and WANT["steady"]["low"] < 0 < WANT["steady"]["high"],
          "the reference: planted significant, steady not")
    first = s.split("\n")[3]
    check(re.search(r" planted  work\.js:", first), "%s: planted first: %r" % (size, first))
    for name in WATCHED:
        check_row(size, s, name)
    coloured = tmux("capture-pane", "-e", "-p", "-t", p.name).split("\n")
    for name, dim in (("planted", False), ("steady", True), ("noisy", True)):
        line = next((l for l in coloured if re.search(r" %s  " % name, l)), "")
        check(("\x1b[2m" in line) == dim, "%s: %s %s: %r"
              % (size, name, "dimmed" if dim else "not dimmed", line))
    # ! hides the rows within the noise, and shows them again.
    s = p.press(["!"], r"noise hidden[\s\S]*hiding \d+ rows within the noise",
                "the noise hidden, said on the status line")
    check(row_of(s, "planted") and not row_of(s, "steady") and not row_of(s, "noisy"),
          "%s: ! leaves planted, hides steady and noisy:\n%s" % (size, s))
    check(re.search(r"hiding \d+ rows within the noise", s), "%s: ! says what it hid" % size)
    s = p.press(["!"], r"showing every row", "every row again")
    s = p.press(["g"], FIRST_ROW, "the first row")
    check(row_of(s, "noisy") is not None, "%s: ! shows noisy again" % size)
    p.close()


def interval_80x24():
    interval_and_noise(80, 24)


def interval_200x50():
    interval_and_noise(200, 50)


def marker_without_colour():
    for width, height in ((80, 24), (200, 50)):
        p, s = open_delta(width, height, env="NO_COLOR=1")
        for name, marked in (("planted", False), ("steady", True), ("noisy", True)):
            line = row_of(s, name) or ""
            check(bool(re.search(r"~ %s  " % name, line)) == marked,
                  "%dx%d NO_COLOR: %s %s: %r" % (width, height, name,
                                                 "marked ~" if marked else "unmarked", line))
        # (The places after the names are dim, as in every pane.)
        coloured = tmux("capture-pane", "-e", "-p", "-t", p.name).split("\n")
        for name in WATCHED:
            line = next((l for l in coloured if re.search(r" %s  " % name, l)), "")
            cells = line[:line.find(" %s  " % name)]
            check(line and "\x1b[2m" not in cells,
                  "%dx%d NO_COLOR: %s's cells not dimmed: %r" % (width, height, name, line))
        p.close()


def one_run_a_side():
    p = Pane("%s %s %s; echo EXIT=$?; sleep 600" % (BINARY, BASE[0], NEW[0]), 80, 24)
    s = delta_layout(p)
    check("1 run a side: no spread" in s, "one run: says no spread:\n%s" % s)
    check("\u00b1" not in s, "one run: no interval column")
    s = p.press(["!"], r"no spread, so no noise", "! says why")
    p.close()


def background_at(line, needle, from_col):
    """The background colour (256-colour number, or None) of the first
    `needle` at or right of column from_col of a capture-pane -e line."""
    col, bg = 0, None
    for part in re.split(r"(\x1b\[[0-9;]*m)", line):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if m:
            codes = m.group(1).split(";") if m.group(1) else ["0"]
            i = 0
            while i < len(codes):
                if codes[i] == "48" and i + 2 < len(codes) and codes[i + 1] == "5":
                    bg, i = codes[i + 2], i + 3
                    continue
                if codes[i] in ("0", "49"):
                    bg = None
                i += 1
            continue
        at = part.find(needle)
        if at >= 0 and col + at >= from_col:
            return bg
        col += len(part)
    return "absent"


def new_flame_background(pane, name):
    pane.press(["o"], r"new side", "the keys on the new side")
    pane.press(["5"], r"new side: ", "the flame graph")
    for line in tmux("capture-pane", "-e", "-p", "-t", pane.name).split("\n"):
        bg = background_at(line, name, 100)
        if bg != "absent":
            return bg
    return "absent"


def flame_colours():
    p = Pane(command(), 200, 50)
    bg = new_flame_background(p, "steady")
    check(bg == UNCHANGED, "runs: NEW's steady frame in the unchanged colour, not %s" % bg)
    p.close()
    one = Pane("%s %s %s; echo EXIT=$?; sleep 600" % (BINARY, BASE[0], NEW[0]), 200, 50)
    bg = new_flame_background(one, "steady")
    check(bg not in (UNCHANGED, "absent"),
          "one run a side: steady's change coloured (%s)" % bg)
    one.close()


run_tests([interval_80x24, interval_200x50, marker_without_colour, one_run_a_side,
           flame_colours])
sys.exit(1 if failures else 0)
