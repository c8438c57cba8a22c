#!/usr/bin/env python3
"""End-to-end tests of `wprof-tui BASE NEW`: the split screen and the delta
layout, in tmux at 200x50 (side by side) and 80x24 (stacked).

usage: compare.py WPROF_BINARY TESTDATA_DIR

The profiles are worked-example.cpuprofile and its hand-edited run
worked-example-new.cpuprofile; the numbers are the hand-worked ones of
tests/test_diff.c (totals in ms, base -> new): main 6 -> 7, a 5 -> 2.5,
leaf 4 -> 3.5, b 1 -> 2.5, c only in new 2; and validate.xsbug against
validate-xs.cpuprofile under exact, which the graph cannot give.  Exits 77 (skip) only when
tmux is not installed."""
import os
import re
import sys

from tmux_driver import Pane as Session, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])
BASE = os.path.join(DATA, "worked-example.cpuprofile")
NEW = os.path.join(DATA, "worked-example-new.cpuprofile")


class Pane(Session):
    """One `wprof-tui BASE NEW` in its own tmux session of the given size."""

    def __init__(self, width, height):
        super().__init__("%s %s %s; echo EXIT=$?; stty -a; sleep 600" % (BINARY, BASE, NEW),
                         width, height)


def position(screen):
    """The active side's cursor: (row, rows) from the status line."""
    m = re.search(r"(\d+)/(\d+)  \? help", screen)
    return (int(m.group(1)), int(m.group(2))) if m else None


def delta_rows(screen):
    """(base, new, delta, name) of each row of the delta layout; the name
    may be followed by its file:line, two spaces apart."""
    out = []
    for line in screen.split("\n")[3:-1]:
        m = re.match(r"\s*(\S+)\s+(\S+)\s+(\S+(?: pt)?)\s+(\S+)\s+[-+ ]\s(\S+)"
                     r"(?:  \S+)?\s*$", line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3), m.group(5)))
    return out


def both_files_shown(p, size):
    s = p.screen()
    check("worked-example.cpuprofile" in s and "worked-example-new.cpuprofile" in s,
          "%s: both files named on screen" % size)


def cursor_follows(p, size):
    # Flat, by total: base main 6, a 5, leaf 4, b 1; new main 7, leaf 3.5,
    # a 2.5, b 2.5, c 2.  leaf is row 3 of 4 on the base, 2 of 5 on new.
    s = p.press(["3", "j", "j"], r"3/4  \? help", "leaf on the base side")
    s = p.press(["o"], r"new side|keys move the new side", "the new side")
    check(position(s) == (2, 5), "%s: the new side is on leaf too: %r"
          % (size, position(s)))
    s = p.press(["k", "o"], r"keys move the base side", "back on the base")
    # k on new: main (1/5), and the base follows to main (1/4).
    check(position(s) == (1, 4), "%s: the base side followed to main: %r"
          % (size, position(s)))


def expansion_follows(p, size, new_half):
    """Opening main on the base opens it on the new side: c shows there."""
    p.press(["1", "g", "Right"], r"▾ main", "main opened")
    p.wait_for(lambda s: any(re.search(r"· c\s*$", new_half(line))
                             for line in s.split("\n")),
               "%s: main opened on the new side too" % size)


def delta_layout(p, size):
    # Each wait is for what is then read: curses draws the rows after the
    # header, and a key's message on the status line after the rows.
    p.keys("d")
    s = p.wait_for(lambda s: "delta layout" in s and len(delta_rows(s)) == 5,
                   "the delta layout's five rows")
    rows = delta_rows(s)
    check(rows[:1] == [("5ms", "2.50ms", "-2.50ms", "a")],
          "%s: |delta| puts a (-2.5 ms) first: %r" % (size, rows[:2]))
    s = p.press(["s"], r"sort: regression[\s\S]*^ sorted by regression",
                "sorted by regression")
    rows = delta_rows(s)
    check(rows[:2] == [("-", "2ms", "+2ms", "c"), ("1ms", "2.50ms", "+1.50ms", "b")],
          "%s: the largest regression first (c +2, b +1.5): %r" % (size, rows[:2]))
    # As shares: c 0 -> 2/7 = 28.57%, b 1/6 = 16.67% -> 2.5/7 = 35.71%;
    # their differences in points.
    s = p.press(["n"], r"shares \([\s\S]*^ shares: % of each profile", "normalized")
    rows = delta_rows(s)
    check(rows[:2] == [("-", "28.57%", "+28.57 pt", "c"),
                       ("16.67%", "35.71%", "+19.05 pt", "b")],
          "%s: normalized shares: %r" % (size, rows[:2]))
    s = p.press(["?"], r"Keys.*any other key closes", "the help")
    if "scroll" in s.split("\n")[1]:  # 80x24: the keys run past the screen
        p.keys("PageDown", "PageDown")
    p.wait_for(lambda s: re.search(r"^ Keys", s, re.M) and "compare: delta layout" in s and
               "compare: other side" in s,
               "%s: the help's end listing d and w (compare: delta layout, "
               "compare: other side)" % size)
    p.press(["Escape"], r"delta layout", "the help closed")


def quits_sane(p, size):
    s = p.press(["q"], r"EXIT=", "the shell")
    s = p.wait_for(lambda s: "icanon" in s, "stty")
    modes = s[s.index("EXIT="):]
    check("EXIT=0" in s, "%s: q exits 0" % size)
    check(re.search(r"(?<!-)icanon", modes) and re.search(r"(?<![-\w])echo\b", modes),
          "%s: terminal sane (icanon, echo) after q" % size)


def side_by_side():
    p = Pane(200, 50)
    both_files_shown(p, "200x50")
    first = p.screen().split("\n")[0]
    check(first.index("worked-example-new") > 100, "200x50: new is the right half")
    cursor_follows(p, "200x50")
    expansion_follows(p, "200x50", lambda line: line[100:])
    delta_layout(p, "200x50")
    quits_sane(p, "200x50")
    p.close()


def stacked():
    p = Pane(80, 24)
    s = p.screen()
    both_files_shown(p, "80x24")
    check("stacked" in s.split("\n")[-2] or "stacked" in s, "80x24: the status says stacked")
    lines = s.split("\n")
    check("worked-example.cpuprofile" in lines[0] and
          any("worked-example-new" in line for line in lines[8:16]),
          "80x24: base on top, new below")
    cursor_follows(p, "80x24")
    expansion_follows(p, "80x24", lambda line: line)
    delta_layout(p, "80x24")
    quits_sane(p, "80x24")
    p.close()


def not_applicable():
    """A stream (exact applies) against the XS file profiler's function
    graph of the same program (no exact), under exact (r from divided, the
    pair's default): main is on
    both sides, its new total n/a, not absent ('-') nor -100 %; String,
    which the stream never ran, is absent from the base."""
    p = Session("%s %s %s; sleep 600" % (
        BINARY, os.path.join(DATA, "validate.xsbug"),
        os.path.join(DATA, "validate-xs.cpuprofile")), 200, 50)
    p.keys("d")
    s = p.wait_for(lambda s: "delta layout" in s and
                   any(row[3] == "main" for row in delta_rows(s)),
                   "the delta layout's rows, main among them")
    for _ in range(4):
        if "rule: exact" in s:
            break
        rule = re.search(r"rule: (\w+)", s).group(1)
        s = p.press(["r"], r"rule: (?!%s\b)(\w+)[\s\S]*^ rule: \1\b" % rule,
                    "the next rule, in the header and the message")
    check("rule: exact" in s, "exact: the header names the rule")
    rows = {row[3]: row for row in delta_rows(s)}
    check(rows.get("main") == ("8.26s", "n/a", "n/a", "main"),
          "exact: main is present with n/a on the new side: %r" % (rows.get("main"),))
    check(rows.get("String") == ("-", "n/a", "n/a", "String"),
          "exact: String is absent from the base: %r" % (rows.get("String"),))
    line = [l for l in s.split("\n") if re.search(r"\smain(  \S+)?\s*$", l)]
    check(len(line) == 1 and "-100" not in line[0] and re.search(r"n/a\s+n/a\s+main", line[0]),
          "exact: main's delta%% is n/a and it is not one-sided: %r" % (line,))
    line = [l for l in s.split("\n") if re.search(r"\sString(  \S+)?\s*$", l)]
    check(len(line) == 1 and re.search(r"\+ String", line[0]),
          "exact: String is marked only in new: %r" % (line,))
    p.close()


run_tests([side_by_side, stacked, not_applicable])

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
