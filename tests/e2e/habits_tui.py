#!/usr/bin/env python3
"""What users of other profilers reach for by habit, in tmux at 80x24 and
200x50: the sandwich pane (6, y), the flat pane's sum%, hiding small
rows (%, --min-share), the : prompt edited as a shell line, w saving
what is shown.  The numbers are worked by hand from
testdata/sandwich.cpuprofile (testdata/README.md): main calls a and b,
each calls work, work calls leaf and, under b, itself once.  Exits 77
(skip) only when tmux is not installed.

usage: habits_tui.py WPROF_BINARY TESTDATA_DIR"""
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
TESTDATA = os.path.abspath(sys.argv[2])
SANDWICH = os.path.join(TESTDATA, "sandwich.cpuprofile")
SIZES = [(80, 24), (200, 50)]


def explorer(size, extra=""):
    return Pane("LANG=C.UTF-8 %s %s %s; echo EXIT=$?; sleep 600" % (BINARY, extra, SANDWICH),
                *size)


def row(screen, pattern):
    return re.search(pattern, screen, re.M)


def sandwich_pane():
    for size in SIZES:
        p = explorer(size)
        try:
            p.press(["3"], r"3 flat", "the flat pane")
            p.keys("/", "work", "Enter")
            # Each wait takes in the last row then read: curses draws a
            # screen in pieces, from the top.
            s = p.press(["y"], r"callees of \[work\][\s\S]*\bwork  sandwich\.js:31",
                        "y: the sandwich of work, to its last row")
            # Callers: work 5 ms self, 10 ms total; a and b 5 ms each.
            check(row(s, r"^ +5ms +\S+ +10ms +62\.50% +\S+ callers of \[work\]"),
                  "%s: the callers' root:\n%s" % (size, s))
            check(row(s, r"^ +2ms +\S+ +5ms +31\.25% .*\ba  sandwich\.js:11"),
                  "%s: a calls work for 5 ms:\n%s" % (size, s))
            check(row(s, r"^ +1ms +\S+ +5ms +31\.25% .*\bb  sandwich\.js:21"),
                  "%s: b calls work for 5 ms:\n%s" % (size, s))
            # Callees, merged over a's and b's work: 3 ms of their own,
            # leaf 3 + 1 ms, the recursive work 2 + 1 ms.
            check(row(s, r"^ +3ms +\S+ +10ms +62\.50% +\S+ callees of \[work\]"),
                  "%s: the callees' root:\n%s" % (size, s))
            check(row(s, r"^ +4ms +\S+ +4ms +25\.00% .*\bleaf  sandwich\.js:41"),
                  "%s: work calls leaf for 4 ms:\n%s" % (size, s))
            check(row(s, r"^ +2ms +\S+ +3ms +18\.75% .*\bwork  sandwich\.js:31"),
                  "%s: work calls itself for 3 ms:\n%s" % (size, s))
            check("6 sandwich" in s, "%s: the pane's tab" % (size,))
            # From any pane: in bottom-up, 6 centres on the row under the cursor.
            p.press(["2"], r"2 bottom-up", "bottom-up")
            s = p.press(["g", "j", "6"], r"callers of \[main\][\s\S]*callees of \[main\]",
                        "6 on main")
            check(row(s, r"^ +1ms +\S+ +16ms +100\.00% +\S+ callees of \[main\]"),
                  "%s: main's callees:\n%s" % (size, s))
            s = p.help_text()
            check(row(s, r"6 y +sandwich: callers/callees"),
                  "%s: help:\n%s" % (size, s))
        finally:
            p.close()


def sum_and_min_share():
    for size in SIZES:
        p = explorer(size)
        try:
            # Flat by total: self 0, 1, 5, 9, 1, 0 ms of 16, summed in order.
            s = p.press(["3"], r"sum%[\s\S]*\ba  sandwich", "the flat pane, to its last row")
            for name, sum_pct in [("main", "6.25"), ("work", "37.50"), ("leaf", "93.75"),
                                  ("b", "100.00"), ("a", "100.00")]:
                check(row(s, r"%%\s+%s%%\s+%s  sandwich" % (sum_pct, name)),
                      "%s: sum%% of %s is %s:\n%s" % (size, name, sum_pct, s))
            # % hides rows under 0.5 %, nothing here; 1 % nothing; 5 %
            # nothing either (a is 31 %), so the header is what tells.
            # The header, then the message on the status line, drawn last.
            p.press([">"], r"hiding <0\.5%[\s\S]*rows under 0\.5% of the profile hidden",
                    "%s: > once: the header and the message" % (size,))
            s = p.press([">", ">", ">"], r"every row shown", "> back to none")
            check("hiding" not in s.split("\n")[0], "%s: header clear:\n%s" % (size, s))
        finally:
            p.close()
        # --min-share 35: a (31.25 %) goes from flat and from top-down.
        p = explorer(size, "--min-share 35")
        try:
            s = p.press(["3"], r"sum%[\s\S]*\bb  sandwich\.js:21", "the flat pane, to b")
            check("hiding <35%" in s.split("\n")[0], "%s: header:\n%s" % (size, s))
            check(row(s, r"\bb  sandwich\.js:21") and not row(s, r"\ba  sandwich\.js:11"),
                  "%s: a hidden, b shown:\n%s" % (size, s))
            s = p.press(["1", "*"], r"▾ main[\s\S]*\bb  sandwich\.js:21", "top-down opened, to b")
            check(row(s, r"\bb  sandwich\.js:21") and not row(s, r"\ba  sandwich\.js:11"),
                  "%s: top-down without a:\n%s" % (size, s))
        finally:
            p.close()


def status(s):
    return [l for l in s.split("\n") if l.strip()][-1]


def prompt_editing():
    for size in SIZES:
        p = explorer(size)
        try:
            p.press(["3", ":"], r"filter \(KIND PATTERN\)", "the : prompt")
            p.keys("hide lea")
            # Left four times lands after "hide"; Backspace takes its e.
            s = p.press(["Left", "Left", "Left", "Left", "BSpace"], r": hid lea",
                        "Backspace in the middle")
            s = p.press(["e", "End", "f"], r": hide leaf", "typed in the middle and at the end")
            s = p.press(["Home", "DC"], r": ide leaf", "Delete at Home")
            s = p.press(["h", "Home", "Right", "Right", "Right", "Right", "Right",
                         "^", "End", "$"], r": hide \^leaf\$", "Right moves by characters")
            # The filter's message on the status line, drawn after the
            # rows read (the header, which may cut it, before them).
            s = p.press(["Enter"], r"^ hide=\^leaf\$ \(Backspace undoes", "Enter pushes the filter")
            check(not row(s, r"\bleaf  sandwich"), "%s: leaf hidden:\n%s" % (size, s))
            # Up brings the line back; edited, it is a new filter.
            p.press(["BSpace"], r"sort: total$", "the filter undone")
            s = p.press([":", "Up"], r": hide \^leaf\$", "Up: the line entered before")
            p.press(["Down"], r"filter \(KIND PATTERN\): +\d+/\d+", "Down: the line being typed")
            p.press(["Up", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace"],
                    r": hide \^ +\d", "the end taken back")
            s = p.press(["w", "o", "r", "k", "$", "Enter"],
                        r"^ hide=\^work\$ \(Backspace undoes",
                        "the edited line")
            check(row(s, r"\bleaf  sandwich") and not row(s, r"\bwork  sandwich"),
                  "%s: work hidden, leaf back:\n%s" % (size, s))
        finally:
            p.close()


def flat_csv(path):
    out = subprocess.run([BINARY, "--report", "flat", "--format", "csv", path],
                         capture_output=True, text=True, check=True).stdout
    return {r["name"]: r for r in csv.DictReader(io.StringIO(out))}


def save_view():
    for size in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            p = Pane("cd %s && LANG=C.UTF-8 %s %s; echo EXIT=$?; sleep 600"
                     % (tmp, BINARY, SANDWICH), *size)
            try:
                p.press(["3", ":"], r"filter \(KIND PATTERN\)", "the : prompt")
                p.press(["hide ^leaf$", "Enter"], r"hide=\^leaf", "leaf hidden")
                s = p.press(["w"], r"save as: wprof-view\.cpuprofile", "w: the default name")
                s = p.press(["Enter"], r"wrote wprof-view\.cpuprofile", "written")
                # The profile as shown: leaf's time is its callers' self
                # now: work 5 + 3 + 1 + 1, main 1 + 4 ms; 16 ms in all.
                rows = flat_csv(os.path.join(tmp, "wprof-view.cpuprofile"))
                check("leaf" not in rows, "%s: no leaf in the file: %r" % (size, rows))
                check(rows.get("work", {}).get("self") == "10000" and
                      rows.get("main", {}).get("self") == "5000" and
                      rows.get("(root)", {}).get("total") == "16000",
                      "%s: the numbers shown: %r" % (size, rows))
                # The same name again is refused.
                s = p.press(["w", "Enter"], r"exists: nothing written", "not written over")
                # The pane's rows as text, the name edited at the prompt.
                p.keys("w")
                p.keys(*["BSpace"] * len("cpuprofile"))
                s = p.press(["txt", "Enter"], r"wrote wprof-view\.txt", "the rows as text")
                with open(os.path.join(tmp, "wprof-view.txt")) as f:
                    text = f.read()
                check("# wprof-tui flat report" in text and "hide=^leaf$" in text,
                      "%s: the report's header:\n%s" % (size, text))
                check(re.search(r"^\s+10ms\s+62\.50%\s+93\.75%\s+10ms\s+62\.50%\s+work",
                                text, re.M) and "leaf" not in text.split("rule:")[1],
                      "%s: the rows shown:\n%s" % (size, text))
                s = p.press(["w", "BSpace", "BSpace", "BSpace", "Enter"],
                            r"end it in \.cpuprofile", "an unknown ending")
            finally:
                p.close()


run_tests([sandwich_pane, sum_and_min_share, prompt_editing, save_view])
sys.exit(1 if failures else 0)
