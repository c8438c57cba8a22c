#!/usr/bin/env python3
"""End-to-end tests of the explorer's navigation (issue 26): search that
opens the way to rows under closed ones and finds files, the cursor after
a re-sort and after undoing `=`, H (heaviest path), - (collapse all) and
Backspace in the call graph; each at 80x24 and 200x50, on screen text.

usage: nav_tui.py WPROF_BINARY TESTDATA_DIR

Where rows are, by hand from the files' trees: validate.cpuprofile is
(root) > (anonymous) run_main_module > executeUserEntryPoint >
Module._load > Module.load > Module._extensions..js > Module._compile >
(anonymous) validate.js:1 > main validate.js:11, whose children by total
are f_main_2, f_half_2 (> f_quarter), f_main_4 (> f_quarter), f_main_1,
f_quarter, f_main_3, f_half; main is the ninth row, its first f_quarter
in tree order the twelfth once f_half_2 is open.  recursion.cpuprofile's
fib.js walks down to leaf.  Exits 77 (skip) without tmux."""
import os
import re
import sys

from tmux_driver import FLAT_TITLES, Pane as Session, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])
SIZES = [(80, 24), (200, 50)]


class Pane(Session):
    def __init__(self, profile, width, height):
        super().__init__("%s %s; echo EXIT=$?; sleep 600"
                         % (BINARY, os.path.join(DATA, profile)), width, height)


def position(screen):
    m = re.search(r"(\d+)/(\d+)  \? help", screen)
    return (int(m.group(1)), int(m.group(2))) if m else None


def status(screen):
    return screen.rstrip("\n").split("\n")[-1]


def selected_line(screen):
    """The selected row's line, while the window shows the top rows."""
    lines = screen.split("\n")
    titles = next(i for i, line in enumerate(lines) if "total" in line and "name" in line)
    return lines[titles + position(screen)[0]]


def each_size(test):
    def run():
        for width, height in SIZES:
            test(width, height)
    run.__name__ = test.__name__
    return run


@each_size
def search_opens_closed_rows(width, height):
    """The issue's case: a function 34 % of the profile, under closed rows
    on the first screen, is found and the way to it opened."""
    p = Pane("validate.cpuprofile", width, height)
    s = p.press(["/", "f_quarter", "Enter"], r"validate\.js:7:19", "f_quarter found")
    check("no row" not in s, "%dx%d: no 'no row shown' message: %s" % (width, height, status(s)))
    check(position(s) == (12, 27), "%dx%d: the first f_quarter in tree order: %r"
          % (width, height, position(s)))
    check(re.search(r"▾ main\s+validate\.js:11", s) and re.search(r"▾ f_half_2", s),
          "%dx%d: main and f_half_2 opened" % (width, height))
    s = p.press(["n"], r"14/28", "n: the next, under f_main_4")
    check(re.search(r"▾ f_main_4", s), "%dx%d: n opened f_main_4" % (width, height))
    s = p.press(["n"], r"16/28", "n: the one called by main")
    s = p.press(["N"], r"14/28", "N: back to the one under f_main_4")
    s = p.press(["N", "N"], r"16/28", "N twice: round from the first to the last")
    check("validate.js:7:19" in status(s), "%dx%d: still f_quarter" % (width, height))
    p.close()


@each_size
def search_by_file(width, height):
    p = Pane("validate.cpuprofile", width, height)
    s = p.press(["/", "validate.js", "Enter"], r"validate\.js:1:1", "a row of validate.js")
    check(position(s)[0] == 8, "%dx%d: the first row of the file: %r"
          % (width, height, position(s)))
    check(re.search(r"▾ Module\._compile", s), "%dx%d: the way opened" % (width, height))
    s = p.press(["/", "nowhere_at_all", "Enter"], r"no row matches 'nowhere_at_all'",
                "no match named")
    p.close()


@each_size
def search_bottom_up_callers(width, height):
    """In bottom-up the next match in tree order may be a caller: walk
    calls itself."""
    p = Pane("recursion.cpuprofile", width, height)
    p.press(["2"], r"2 bottom-up", "bottom-up")
    s = p.press(["/", "walk", "Enter"], r"fib\.js:7:14", "walk")
    first = position(s)
    # The row opens above the status line that counts it: wait for both.
    s = p.press(["n"], r"▾ walk[\s\S]* %d/\d+  \? help" % (first[0] + 1),
                "%dx%d: n opens walk's callers, its caller walk right under it (after %r)"
                % (width, height, first))
    check("fib.js:7:14" in status(s), "%dx%d: on walk" % (width, height))
    p.close()


@each_size
def sort_shows_the_top(width, height):
    p = Pane("validate.cpuprofile", width, height)
    p.press(["3"], FLAT_TITLES, "flat")
    s = p.press(["G"], r"(\d+)/\1  \?", "the last row")
    count = position(s)[1]
    s = p.press(["S"], r"sorted by total, reversed", "S")
    check(position(s) == (1, count), "%dx%d: S shows the top: %r" % (width, height, position(s)))
    p.press(["S"], r"largest first", "S again")
    p.press(["1", "/", "f_main_4", "Enter"], r"validate\.js:9:18", "top-down: f_main_4")
    s = p.press(["s"], r"sorted by self", "s in top-down")
    check(position(s)[0] == 1, "%dx%d: s shows the first row: %r" % (width, height, position(s)))
    check(re.search(r"^\s+\S+\s+\S+\s+\S+\s+\S+\s+▾ \(root\)", s, re.M), "(root) on top")
    p.close()


@each_size
def undo_show_keeps_the_function(width, height):
    p = Pane("validate.cpuprofile", width, height)
    p.press(["/", "f_main_4", "Enter"], r"validate\.js:9:18", "f_main_4")
    s = p.press(["="], r"show=f_main_4 \(Backspace", "= shows only it")
    s = p.press(["BSpace"], r"filter undone, 0 left", "undo the =")
    check(position(s) == (12, 26), "%dx%d: the cursor on f_main_4: %r"
          % (width, height, position(s)))
    check(re.search(r"▾ main\s+validate\.js:11", s), "%dx%d: the tree open" % (width, height))
    s = p.press(["P"], r"prune_from=f_main_4 \(Backspace", "P prunes from f_main_4")
    p.close()


@each_size
def heaviest_and_collapse_all(width, height):
    p = Pane("recursion.cpuprofile", width, height)
    s = p.press(["H"], r"heaviest path: \d+ levels down", "H")
    check(re.search(r"· leaf\s+fib\.js:3\s*$", selected_line(s)),
          "%dx%d: H ends on leaf: %r" % (width, height, selected_line(s)))
    s = p.press(["-"], r"1/1  \?", "- closes every row")
    check(re.search(r"▸ \(root\)", s), "%dx%d: (root) closed" % (width, height))
    s = p.press(["3", "-"], r"not a tree", "- in flat")
    p.close()


@each_size
def call_graph_back(width, height):
    p = Pane("recursion.cpuprofile", width, height)
    p.press(["4"], r"\[\(root\)\]", "the call graph of (root)")
    p.press(["Down", "Enter"], r"\[\(anonymous\)\]", "centre (anonymous)")
    p.press(["Down", "Enter"], r"\[executeUserEntryPoint\]", "centre executeUserEntryPoint")
    s = p.press(["BSpace"], r"back to \(anonymous\) \(1 more back\)", "Backspace")
    check(re.search(r"\[\(anonymous\)\]", s), "%dx%d: centre (anonymous) again" % (width, height))
    s = p.press(["BSpace"], r"back to \(root\) \(0 more back\)", "Backspace again")
    check(re.search(r"\[\(root\)\]", s), "%dx%d: centre (root) again" % (width, height))
    p.press(["BSpace"], r"no filter to undo", "then Backspace undoes filters")
    p.close()


@each_size
def help_lists_the_keys(width, height):
    p = Pane("worked-example.cpuprofile", width, height)
    s = p.help_text()
    check(re.search(r"\bH -\s+heaviest path; close all", s) and
          re.search(r"\bEnter Bksp\s+open, zoom; Bksp goes back", s),
          "%dx%d: H, - and the graph's Backspace in the help" % (width, height))
    p.close()


run_tests([search_opens_closed_rows, search_by_file, search_bottom_up_callers,
           sort_shows_the_top, undo_show_keeps_the_function, heaviest_and_collapse_all,
           call_graph_back, help_lists_the_keys])
sys.exit(1 if failures else 0)
