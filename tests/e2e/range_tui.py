#!/usr/bin/env python3
"""The timeline strip and time ranges in the explorer, in tmux at 80x24 and
200x50: the strip on real profiles, a range chosen with keys and with a
mouse drag (xterm SGR mouse sequences, as a terminal sends them), the
header and the panes' numbers for it, worked by hand on the worked
example (leaf@a 3 ms at 0, leaf@b 1 ms at 3 ms, a 2 ms at 4 ms).

usage: range_tui.py WPROF_BINARY TESTDATA_DIR"""
import os
import re
import sys
import time

from tmux_driver import Pane as Session, check, failures, run_tests, tmux

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])


class Pane(Session):
    def __init__(self, profile, width=80, height=24, env="LANG=C.UTF-8"):
        super().__init__("TERM=xterm-256color %s %s %s; echo EXIT=$?; sleep 600"
                         % (env, BINARY, os.path.join(DATA, profile)), width, height)

    def drag(self, x0, x1, y=2):
        """Button 1 down at column x0 of screen line y (1-based), moved
        to x1 and released there."""
        for seq in ("\033[<0;%d;%dM" % (x0, y), "\033[<32;%d;%dM" % (x1, y),
                    "\033[<0;%d;%dm" % (x1, y)):
            tmux("send-keys", "-t", self.name, "-l", seq)
            time.sleep(0.3)  # a hand takes longer than ncurses' click interval


def totals(screen):
    """name -> total column of the flat pane's rows."""
    out = {}
    for line in screen.split("\n"):
        m = re.match(r"(?![\s▼▲^v]*self\s)\s*(\S+)\s+(?:\S+%\s+|-\s+)?(\S+)\s+\S+%\s+(?:\d+\.\d\d%\s+)?(\w+)\s*$", line)
        if m:
            out[m.group(3)] = m.group(2)
    return out


def keys_and_drag(width, height):
    p = Pane("worked-example.cpuprofile", width, height)
    s = p.press(["3"], r"^\s+\S+\s+\S+%\s+6ms", "the flat pane")
    lines = s.split("\n")
    check("█" in lines[1], "%dx%d: the strip on line 2:\n%s" % (width, height, s))
    check("timeline: the whole profile" in lines[2], "the ruler says whole:\n" + s)
    # One step: the start passes the first sample (3 ms long, at 0).  The
    # status line says it too, drawn after the rows: wait for both.
    s = p.press(["["], r"\A.*range 3\.0ms–6\.0ms of 6\.0ms[\s\S]*^ range 3\.0ms–6\.0ms of",
                "the range in the header and on the status line")
    check(totals(s) == {"main": "3ms", "a": "2ms", "leaf": "1ms", "b": "1ms"},
          "%dx%d: numbers for 3-6 ms: %s" % (width, height, totals(s)))
    # divided: leaf's one caller in the range is b (r: exact -> additive -> divided).
    s = p.press(["r", "r"], r"^ rule: divided(?:, computed)?  ", "divided computed")
    check(totals(s) == {"main": "3ms", "a": "2ms", "leaf": "1ms", "b": "1ms"},
          "divided for 3-6 ms: %s" % totals(s))
    # divided is made again for the whole profile: its status line may
    # follow or not, so the rows are read once the whole screen stays.
    p.keys("0")
    s = p.settled(lambda s: "the whole profile" in s and "computing" not in s,
                  "the whole profile again")
    check(totals(s).get("main") == "6ms" and totals(s).get("a") == "4ms",
          "divided on the whole profile: a gets half of leaf: %s" % totals(s))
    # A drag over the first third of the strip: the first sample only.
    p.drag(1, width // 3)
    s = p.settled(lambda s: "range 0.00s–3.0ms of 6.0ms" in s and "computing" not in s,
                  "the dragged range")
    check(totals(s) == {"main": "3ms", "a": "3ms", "leaf": "3ms"},
          "%dx%d: numbers for the dragged 0-3 ms: %s" % (width, height, totals(s)))
    # _ hides the strip: the tabs go back to line 2.
    s = p.press(["_"], r"^ 1 top-down", "the strip hidden")
    check(s.split("\n")[1].startswith(" 1 top-down"), "_ hides the strip:\n" + s)
    s = p.press(["q"], "EXIT=0", "quit")
    p.close()


def at_80x24():
    keys_and_drag(80, 24)


def at_200x50():
    keys_and_drag(200, 50)


def real_profile_and_ascii():
    p = Pane("validate.cpuprofile", 80, 24, env="LANG=C LC_ALL=C")
    s = p.screen()
    lines = s.split("\n")
    check(re.search(r"[.:+*#]", lines[1]) and "█" not in s,
          "ASCII strip under LANG=C:\n" + s)
    check("timeline: the whole profile" in lines[2] and "-" in lines[2],
          "ASCII ruler:\n" + s)
    # The header names the range before the ruler under it is drawn; }
    # waits for another range than {'s, which is on the screen before it.
    p.keys("{")
    s = p.settled(lambda s: re.search(r"range \S+-\S+ of", s), "ten steps")
    stepped = re.search(r"range (\S+-\S+) of", s).group(1)
    p.keys("}")
    s = p.settled(lambda s: re.search(r"range (?!%s )\S+-\S+ of" % re.escape(stepped), s),
                  "ten steps from the end")
    check("=" in s.split("\n")[2], "the range is marked on the ruler:\n" + s)
    p.keys("q")
    p.close()
    # No times (pprof): no strip, and the keys say why.
    p = Pane("validate.pprof", 80, 24)
    s = p.screen()
    check(s.split("\n")[1].startswith(" 1 top-down"), "no strip without times:\n" + s)
    p.press(["["], r"no sample times", "[ without times")
    p.keys("q")
    p.close()


run_tests([at_80x24, at_200x50, real_profile_and_ascii])
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
