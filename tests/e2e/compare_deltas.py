#!/usr/bin/env python3
"""End-to-end tests of the delta layout and the compared flame graph on two
node --cpu-prof runs of testdata/anon.js of different lengths (0.38 s and
2.7 s): three `(anonymous)` functions of one file, told apart by their
lines; the cursor kept on its function across `s` and `n`; the self columns
under `sort: self`; shares and their differences in points.  The expected
shares are worked out here from the .cpuprofile itself (DevTools' rule: a
sample lasts until the next one, the last until endTime), not from
wprof-tui.

usage: compare_deltas.py WPROF_BINARY TESTDATA_DIR
Exits 77 (skip) only when tmux is not installed."""
import json
import os
import re
import sys

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])
SHORT = os.path.join(DATA, "anon-short.cpuprofile")
LONG = os.path.join(DATA, "anon-long.cpuprofile")


def node_totals(path):
    """{(name, url, 1-based line): total µs} and the profile's µs."""
    p = json.load(open(path))
    nodes = {n["id"]: n for n in p["nodes"]}
    parent = {c: n["id"] for n in p["nodes"] for c in n.get("children", [])}
    t, times = p["startTime"], []
    for delta in p["timeDeltas"]:
        t += delta
        times.append(t)
    order = sorted(range(len(times)), key=lambda i: times[i])
    totals, whole = {}, 0
    for k, i in enumerate(order):
        end = times[order[k + 1]] if k + 1 < len(order) else max(p["endTime"], times[i])
        duration = end - times[i]
        whole += duration
        seen, node = set(), p["samples"][i]
        while node is not None:
            f = nodes[node]["callFrame"]
            key = (f["functionName"], f["url"], f["lineNumber"] + 1)
            if key not in seen:
                seen.add(key)
                totals[key] = totals.get(key, 0) + duration
            node = parent.get(node)
    return totals, whole


def share(path, line):
    totals, whole = node_totals(path)
    return 100.0 * totals[("", "file:///tmp/anon/anon.js", line)] / whole


def rows(screen):
    """The delta layout's lines below its titles."""
    return [l for l in screen.split("\n")[3:-1] if l.strip()]


def position(screen):
    m = re.search(r"(\d+)/(\d+)  \? help", screen)
    return int(m.group(1)) if m else None


def selected_line(screen):
    """The row under the cursor (all rows fit: the layout starts at the top)."""
    return rows(screen)[position(screen) - 1]


# The status line once a key's message is gone: it names the row.
AFTER_MESSAGE = r"^ (?!sorted|shares)\S[^\n]*\d+/\d+  \? help"


def after_message_on(row):
    """AFTER_MESSAGE with the cursor on `row`: the screen once j or k has
    moved it, not the one before, which may show AFTER_MESSAGE too."""
    return AFTER_MESSAGE.replace(r"\d+/", r"(?<!\d)%d/" % row)


def status(screen):
    return screen.split("\n")[-2] if screen.endswith("\n") else screen.split("\n")[-1]


def anonymous_rows(p, size):
    # The rows read, not only the header: curses draws them after it.
    p.keys("d")
    s = p.wait_for(lambda s: "delta layout" in s and
                   len(re.findall(r"\(anonymous\)  anon\.js:", s)) >= 3,
                   "the delta layout's (anonymous) rows of anon.js")
    places = sorted(re.search(r"\(anonymous\)  anon\.js:(\d+)", l).group(1)
                    for l in rows(s) if re.search(r"\(anonymous\)  anon\.js:", l))
    check(places == ["1", "5", "6"],
          "%s: three (anonymous) rows of anon.js, at lines 1, 5, 6: %r" % (size, places))
    return s


def cursor_keeps_function(p, size, s):
    # Down to (anonymous) at anon.js:5.
    for _ in range(len(rows(s))):
        if "anon.js:5" in selected_line(s):
            break
        s = p.press(["j"], r"(?<!\d)%d/\d+  \? help" % (position(s) + 1), "one row down")
    check("anon.js:5" in selected_line(s), "%s: the cursor reached anon.js:5" % size)
    for sort in ["regression", "total", "self"]:
        # The header and the key's message: its status line, drawn last.
        s = p.press(["s"], r"sort: %s[\s\S]*^ sorted by %s" % (sort, sort),
                    "sorted by %s" % sort)
        # The row may be cut at 80 columns; the status line names it whole
        # once the key's message is gone (down and back up).
        down = position(p.press(["j"], AFTER_MESSAGE, "one down"))
        s = p.press(["k"], after_message_on(down - 1), "one up")
        check(re.search(r"^ \(anonymous\)  file:///tmp/anon/anon\.js:5:11 ", status(s)),
              "%s: after s (%s) the cursor is still on anon.js:5: %r"
              % (size, sort, status(s)))
    titles = s.split("\n")[2]
    check(re.search(r"base self\s+new self\s+base tot\s+new tot\s+delta\s+delta%", titles),
          "%s: sort: self shows the self columns: %r" % (size, titles))
    s = p.press(["n"], r"sort: self  shares[\s\S]*^ shares: % of each profile", "shares")
    line = selected_line(s)
    down = position(p.press(["j"], AFTER_MESSAGE, "one down"))
    s = p.press(["k"], after_message_on(down - 1), "one up")
    check(re.search(r"^ \(anonymous\)  file:///tmp/anon/anon\.js:5:11 ", status(s)),
          "%s: after n the cursor is still on anon.js:5: %r" % (size, status(s)))
    was, now = share(SHORT, 5), share(LONG, 5)
    want = r"%.2f%%\s+%.2f%%\s+%s pt\s" % (was, now, re.escape("%+.2f" % (now - was)))
    check(re.search(want, line), "%s: shares %.2f%% -> %.2f%%, delta in points (%s): %r"
          % (size, was, now, want, line))
    p.press(["d"], r"\? help", "back to the split screen")


def flame_shares(p, size):
    """NEW's flame graph: n compares shares; the status line gives the
    frame's share of BASE beside its share of NEW."""
    s = p.press(["o", "5"], r"new side: ", "the new side's flame graph")
    # The delta layout left shares on: n in the flame graph turns them off.
    s = p.press(["n"], r"absolute values", "n: absolute values")
    whole = "base %.2fms" % (node_totals(SHORT)[1] / 1000)
    check(whole in p.press(["Home"], r"new side: \(root\)", "the root"),
          "%s: the root's base time, %s" % (size, whole))
    s = p.press(["n"], r"shares: % of each profile", "n: shares")
    root = p.press(["Home"], r"new side: \(root\)", "the root frame")
    check(re.search(r"new side: \(root\).*base 100\.0+ ?%", root),
          "%s: the root is 100%% of base: %r" % (size, status(root)))


def focus_while_comparing(p, size):
    s = p.press(["1", "f"], r"filters one profile at a time", "f in the split screen")
    check("--focus" in s and "filters:" not in s,
          "%s: f says --focus filters both sides: %r" % (size, s.rstrip("\n").split("\n")[-1]))


def run(width, height):
    size = "%dx%d" % (width, height)
    p = Pane("%s %s %s; sleep 600" % (BINARY, SHORT, LONG), width, height)
    s = anonymous_rows(p, size)
    cursor_keeps_function(p, size, s)
    flame_shares(p, size)
    focus_while_comparing(p, size)
    p.close()


run_tests([lambda: run(200, 50), lambda: run(80, 24)])

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
