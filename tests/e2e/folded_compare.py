#!/usr/bin/env python3
"""A differential folded file (`STACK BASE NEW` lines) opens straight into
the explorer's comparison, in tmux at 200x50: both columns named on
screen, and the delta layout with the hand-worked numbers.

usage: folded_compare.py WPROF_BINARY

BASE is docs/time-rules.md's worked example (main>a>leaf 3, main>b>leaf 1,
main>a 2); NEW has leaf under a 5, nothing under b, main>a 2, main>c 4:
totals base -> new: main 6 -> 11, a 5 -> 7, leaf 4 -> 5, b 1 -> 0, c 0 -> 4.
Exits 77 (skip) only when tmux is not installed."""
import os
import re
import sys
import tempfile

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
TMP = tempfile.mkdtemp()
FILE = os.path.join(TMP, "diff.folded")
with open(FILE, "w") as f:
    f.write("main;a;leaf 3 5\nmain;b;leaf 1 0\nmain;a 2 2\nmain;c 0 4\n")


def delta_rows(screen):
    """name -> (base, new, delta) of each row of the delta layout."""
    rows = {}
    for line in screen.split("\n")[3:-1]:
        m = re.match(r"\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+[-+ ]\s(\S+)\s*$", line)
        if m:
            rows[m.group(5)] = (m.group(1), m.group(2), m.group(3))
    return rows


def opens_as_comparison():
    p = Pane("%s %s; echo EXIT=$?; sleep 600" % (BINARY, FILE), 200, 50)
    s = p.screen()
    first = s.split("\n")[0]
    check("diff.folded (BASE)" in first and "diff.folded (NEW)" in first,
          "both columns are named on the first line: %r" % first)
    check(first.index("(NEW)") > 100, "NEW is the right half")
    want = {"main": ("6", "11", "+5"), "a": ("5", "7", "+2"), "leaf": ("4", "5", "+1"),
            "c": ("-", "4", "+4")}
    # The rows, not only the header: curses draws them after it.
    p.keys("d")
    s = p.wait_for(lambda s: "delta layout" in s and set(want) <= set(delta_rows(s)),
                   "the delta layout with rows for %s" % ", ".join(want))
    rows = delta_rows(s)
    for name, values in want.items():
        check(rows.get(name) == values, "delta row %s: %r, want %r"
              % (name, rows.get(name), values))
    s = p.press(["q"], r"EXIT=", "the shell")
    check("EXIT=0" in s, "q exits 0")
    p.close()


run_tests([opens_as_comparison])
os.remove(FILE)
os.rmdir(TMP)
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
