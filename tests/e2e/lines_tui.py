#!/usr/bin/env python3
"""The source pane in tmux: `l` on spin(), the hot function of a Node
profile whose source is in testdata/lines/node, shows line 8 (its loop
body, as DevTools shows it) shaded and selected; n/N move between hot
lines; q goes back; without the source the status line says which paths
were tried.  Exits 77 (skip) only when tmux is not installed.

usage: lines_tui.py WPROF_BINARY TESTDATA_DIR"""
import os
import re
import sys

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
NODE_DIR = os.path.join(os.path.abspath(sys.argv[2]), "lines", "node")
PROFILE = os.path.join(NODE_DIR, "hot.cpuprofile")
HOT = r"(▓▓|##) +\S+ +n/a +8  +x = \(x \* 31 \+ i\) % 1000003;"


def open_spin(extra):
    p = Pane("LANG=C.UTF-8 %s %s %s; echo EXIT=$?; sleep 600" % (BINARY, extra, PROFILE),
             120, 30)
    p.press(["3"], r"3 flat", "the flat pane")
    p.keys("/", "spin", "Enter")
    return p


def selected_line(s):
    """The selected row's number, from the status line ("4/9")."""
    m = re.search(r" (\d+)/(\d+)  n/N hot lines", s)
    return int(m.group(1)) if m else None


def with_source():
    p = open_spin("--trim-path /tmp/h9node --source-path " + NODE_DIR)
    try:
        # The status line, drawn last, says the whole pane is there.
        p.keys("l")
        s, coloured = p.settled_coloured(lambda s: "source: spin" in s and selected_line(s),
                                         "the source pane")
        check(re.search(HOT, s), "line 8 shaded as the hottest:\n" + s)
        check(re.search(r"(░░|▒▒|▓▓|\.\.|\+ |##)? +\S+ +n/a +7  +for \(let i", s),
              "line 7 with its share:\n" + s)
        check("from line 5" in s.split("\n")[0], "the function's range: " + s.split("\n")[0])
        status = [l for l in s.split("\n") if l.strip()][-1]
        check(os.path.join(NODE_DIR, "hot.js") in status,
              "the status line names the file read: " + status)
        first = selected_line(s)
        # Highlighted: the selected row (the hot line) is drawn in other
        # colours than its neighbours.
        hot_row = [l for l in coloured if "1000003;" in l]
        plain_row = [l for l in coloured if "let x = 0;" in l]
        check(hot_row and plain_row and hot_row[0].split("x = (x")[0] !=
              plain_row[0].split("let x")[0], "the hot line has its own colours")
        # The status line shows n/N hot lines before the key is read too.
        p.keys("n")
        p.wait_for(lambda s: selected_line(s) not in (None, first), f"n moves from {first}")
        p.keys("N")
        p.wait_for(lambda s: selected_line(s) == first, f"N moves back to {first}")
        s = p.press(["q"], r"3 flat", "q: back to the flat pane")
        s = p.press(["?"], r"source lines", "help lists l")
        p.keys("q")
        p.keys("q")
        s = p.wait_for(lambda s: "EXIT=" in s, "exit")
        check("EXIT=0" in s, "exit status 0")
    finally:
        p.close()


def without_source():
    p = open_spin("--source-path /nonexistent")
    try:
        s = p.press(["l"], r"source: spin", "the source pane")
        check(re.search(r"source not found \(tried /tmp/h9node/hot.js, /nonexistent/", s) or
              os.path.exists("/tmp/h9node/hot.js"), "the paths tried:\n" + s)
        check(re.search(r" +\S+ms +n/a +8 *$", s, re.M) or
              os.path.exists("/tmp/h9node/hot.js"), "the numbers alone:\n" + s)
    finally:
        p.close()


def from_flame():
    """l on the flame graph's selected frame opens its source lines."""
    p = Pane("LANG=C.UTF-8 %s --source-path %s --trim-path /tmp/h9node %s; echo EXIT=$?; "
             "sleep 600" % (BINARY, NODE_DIR, PROFILE), 120, 30)
    try:
        p.press(["5"], r"5 flame", "the flame graph")
        p.keys("/", "spin", "Enter")
        s = p.press(["l"], r"source: spin[\s\S]* n/N hot lines", "l in the flame graph")
        check(re.search(HOT, s), "line 8 shaded as the hottest:\n" + s)
    finally:
        p.close()


def granularity():
    """a: by files, by lines (pprof read again by line), by addresses, by
    functions; a filter by pattern kept."""
    pprof = os.path.join(os.path.dirname(NODE_DIR), "go", "inline-lines.pprof")
    p = Pane("LANG=C.UTF-8 %s %s; echo EXIT=$?; sleep 600" % (BINARY, pprof), 140, 30)
    try:
        p.press(["3"], r"3 flat", "the flat pane")
        s = p.press(["a"], r"granularity: files", "a: files")
        check(re.search(r"520ms .* /tmp/h9go/main\.go", s), "main.go's flat 520ms:\n" + s)
        s = p.press(["a"], r"granularity: lines", "a: lines")
        check(re.search(r"200ms .*280ms .*main\.hash +(/tmp/h9go/)?main\.go:21", s),
              "main.hash line 21 (200ms flat, 280ms cum in pprof -lines):\n" + s)
        s = p.press(["a"], r"granularity: addresses", "a: addresses")
        check(re.search(r"110ms .*00000000004a8996 main\.hash +(/tmp/h9go/)?main\.go:21", s),
              "main.hash at 0x4a8996 (110ms flat in pprof -addresses):\n" + s)
        s = p.press(["a"], r"granularity: functions", "a: functions")
        check(re.search(r"340ms .*main\.hash ", s), "main.hash by function:\n" + s)
        # A filter by pattern stays across the switch: hiding asyncPreempt
        # (its function and its file match) leaves its 300ms in main.go.
        p.keys(":", "hide preempt")
        s = p.press(["Enter"], r"hide=preempt", "hide preempt")
        s = p.press(["a"], r"granularity: files", "a: files, filtered")
        check("hide=preempt" in s and re.search(r"820ms .*main\.go", s),
              "the filter kept, main.go's flat 820ms:\n" + s)
    finally:
        p.close()


def anonymous_functions():
    """l on the sort comparator of anon.js (one of three (anonymous)
    functions in the file, the 9th row of the flat pane by total) shows
    its own lines, 12-15, not the script's nor the map callback's."""
    anon = os.path.join(NODE_DIR, "anon.cpuprofile")
    p = Pane("LANG=C.UTF-8 %s --source-path %s --trim-path /tmp/r3v-js %s; echo EXIT=$?; "
             "sleep 600" % (BINARY, NODE_DIR, anon), 120, 30)
    try:
        p.press(["3"], r"3 flat", "the flat pane")
        s = p.press(["j"] * 8, r"anon\.js:12:21 +9/", "the comparator's row")
        s = p.press(["l"], r"source: \(anonymous\)[\s\S]* n/N hot lines", "its source pane")
        check("from line 12" in s.split("\n")[0], "the comparator's range: " + s.split("\n")[0])
        check(re.search(r"\S+ms +n/a +14 +for \(let k = 0; k < 8", s),
              "its loop, line 14, with its self:\n" + s)
        check(not re.search(r"\d +n/a +(4|5|7|11) ", s),
              "no line of the other anonymous functions:\n" + s)
    finally:
        p.close()


run_tests([with_source, without_source, from_flame, granularity, anonymous_functions])
sys.exit(1 if failures else 0)
