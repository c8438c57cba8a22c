#!/usr/bin/env python3
"""End-to-end tests of the explorer: the real binary in tmux, driven by
send-keys and read back with capture-pane.

usage: tui.py WPROF_BINARY TESTDATA_DIR

Numbers checked here are worked out by hand from the small profiles
(worked-example: samples leaf@a 3 ms, leaf@b 1 ms, a 2 ms; 6 ms in all)
or read from --report, never from the explorer itself.  Exits 77 (skip)
only when tmux is not installed."""
import os
import re
import json
import signal
import subprocess
import sys
import tempfile
import time

from tmux_driver import FLAT_TITLES, TIMEOUT, Pane as Session, check, failures, run_tests, tmux

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])


class Pane(Session):
    """One explorer run on a testdata profile; after it exits, its status
    and then the terminal's modes."""

    def __init__(self, profile, width=80, height=24, env="", extra=""):
        super().__init__("trap : INT; %s %s %s %s; echo EXIT=$?; stty -a; sleep 600"
                         % (env, BINARY, extra, os.path.join(DATA, profile)),
                         width, height)


def rows(screen):
    """(self, total, name) of each row under the column titles."""
    out = []
    for line in screen.split("\n")[3:-1]:
        # self, self%, total, total% and, in the flat pane, pprof's sum%.
        m = re.match(r"(?![\s▼▲^v]*self\s)\s*(\S+)\s+(?:\S+%\s+|-\s+)?(\S+)\s+(\S+%|-)\s+(?:\d+\.\d\d%\s+)?(?:[│|] )*(?:[▸▾·+\-] )?\s*(.*?)\s*$", line)
        if m and m.group(4):
            out.append((m.group(1), m.group(2), m.group(4)))
    return out


def selected_position(screen):
    m = re.search(r"(\d+)/(\d+)  \? help", screen)
    return (int(m.group(1)), int(m.group(2))) if m else None


# ---- the tests ---------------------------------------------------------------

def header_and_panes():
    p = Pane("worked-example.cpuprofile")
    s = p.screen()
    check("worked-example.cpuprofile" in s.split("\n")[0], "header names the file")
    check(re.search(r"cpuprofile\s+6ms\s+time \(us\)\s+rule: exact", s),
          "header: format, duration, sample type, rule")
    check(rows(s)[0] == ("0", "6ms", "main"), "top-down starts at main: %r" % rows(s))
    s = p.press(["2"], r"4ms\s+66\.67%\s+▸ leaf", "bottom-up")
    check([r[:2] for r in rows(s)] == [("0", "6ms"), ("2ms", "5ms"),
                                       ("4ms", "4ms"), ("0", "1ms")],
          "bottom-up: main, a, leaf, b: %r" % rows(s))
    s = p.press(["3"], r"\b4ms\s+66\.67%\s+\S+%\s+leaf", "flat")
    check([r[2] for r in rows(s)] == ["main", "a", "leaf", "b"], "flat order by total: %r" % rows(s))
    s = p.press(["4"], r"\[main\]", "call graph of main")
    check(re.search(r"^\s+\S+\s+(?:\S+%\s+|-\s+)?\S+\s+\S+\s+\[main\]", s, re.M), "call graph shows [main]")
    check(re.search(r"\s{4}a\s*$", s, re.M) and re.search(r"\s{4}b\s*$", s, re.M),
          "call graph lists main's callees a and b")
    p.press(["Tab"], r"left-heavy", "Tab to the flame graph")
    p.press(["Tab"], r"callers of \[main\]", "Tab to the sandwich")
    p.press(["Tab"], r"▸ main", "Tab wraps to top-down")
    p.press(["BTab"], r"callers of \[main\]", "Shift-Tab back to the sandwich")
    p.press(["BTab"], r"left-heavy", "Shift-Tab back to the flame graph")
    s = p.press(["BTab"], r"\[main\]", "Shift-Tab back to the call graph")
    p.close()


def expand_and_collapse():
    p = Pane("worked-example.cpuprofile")
    s = p.press(["Enter"], r"▾ main", "main expanded")
    check([r[2] for r in rows(s)] == ["main", "a", "b"], "children of main: %r" % rows(s))
    check(rows(s)[1][:2] == ("2ms", "5ms"), "a: self 2 ms, total 5 ms: %r" % rows(s))
    check(rows(s)[2][:2] == ("0", "1ms"), "b: total 1 ms")
    s = p.press(["Left"], r"▸ main", "main collapsed")
    check(len(rows(s)) == 1, "one row after collapse")
    s = p.press(["*"], r"leaf[\s\S]*leaf", "whole subtree expanded")
    check(len(rows(s)) == 5, "five rows after *: %r" % rows(s))
    p.close()


def sort_keys():
    p = Pane("worked-example.cpuprofile")
    p.press(["3"], r"leaf", "flat")
    s = p.press(["s"], r"sort: self", "sort by self")
    check([r[2] for r in rows(s)] == ["leaf", "a", "b", "main"], "by self: %r" % rows(s))
    s = p.press(["S"], r"sort: self reversed", "reversed")
    check([r[2] for r in rows(s)] == ["main", "b", "a", "leaf"], "by self, reversed: %r" % rows(s))
    p.close()


def rules_cycle():
    p = Pane("worked-example.cpuprofile")
    p.press(["3"], r"leaf", "flat")
    for rule in ["additive", "divided", "exact"]:
        p.press(["r"], r"rule: %s" % rule, "rule %s" % rule)
    p.close()


def rule_not_applicable():
    """exact needs whole stacks: the XS node graph has none, so it is named
    with its reason and no total is shown."""
    p = Pane("validate-xs.cpuprofile")
    s = p.press(["3"], FLAT_TITLES, "flat")
    for _ in range(4):
        if "(n/a)" in s:
            break
        # The header names the rule before the rows below it are drawn.
        rule = re.search(r"rule: .*", s.split("\n")[0]).group(0)
        p.keys("r")
        s = p.settled(lambda s: rule not in s.split("\n")[0], "the rule after " + rule)
    check("(n/a)" in s.split("\n")[0], "a rule shown as n/a in the header")
    check("gives no totals here" in s.split("\n")[-2] or "gives no totals here" in s,
          "the reason is on the status line")
    check(all(r[1] == "-" for r in rows(s)), "no totals shown under it: %r" % rows(s)[:3])
    p.close()


def search():
    p = Pane("worked-example.cpuprofile")
    p.press(["3"], r"leaf", "flat")
    s = p.press(["/", "l", "e", "a"], r"^ /lea", "incremental search prompt")
    check(selected_position(s) == (3, 4), "search selects leaf: %r" % (selected_position(s),))
    p.press(["Enter"], r"3/4", "search closed")
    s = p.press(["/", "^H", "^H", "^H", "b"], r"^ /b", "second search")
    check(selected_position(s) == (4, 4), "search for b: %r" % (selected_position(s),))
    p.keys("Enter")
    s = p.press(["g", "n"], r"4/4", "n finds b again")
    p.close()


def focus_and_hide():
    """A filter stack built with keys, shown in the breadcrumb on the tab
    line, undone step by step with Backspace back to the exact numbers."""
    p = Pane("worked-example.cpuprofile", 120, 24)
    # All four rows, kept to compare with: the status line counts them.
    whole = sorted(rows(p.press(["3"], r"1/4  \? help", "flat")))
    s = p.press(["G", "f"], r"filters: focus=b", "focus on b")
    focused = sorted(rows(s))
    check(focused == sorted([("0", "1ms", "main"), ("0", "1ms", "b"),
                             ("1ms", "1ms", "leaf")]), "focus on b: %r" % focused)
    p.press(["/", "l", "e", "a", "f"], r"/leaf", "search leaf")
    p.keys("Enter")
    s = p.press(["x"], r"filters: focus=b > hide=leaf", "hide leaf on top of the focus")
    got = sorted(rows(s))
    # leaf's 1 ms goes to its caller b; main keeps 1 ms in all
    check(got == sorted([("0", "1ms", "main"), ("1ms", "1ms", "b")]),
          "focus b, hide leaf: %r" % got)
    s = p.press(["BSpace"], r"filter undone, 1 left", "undo the hide")
    check("filters: focus=b" in s and "hide=leaf" not in s, "breadcrumb after one undo")
    check(sorted(rows(s)) == focused, "undo gives the focus's rows back: %r" % rows(s))
    s = p.press(["BSpace"], r"filter undone, 0 left", "undo the focus")
    check("filters:" not in s, "no breadcrumb once all are undone")
    check(sorted(rows(s)) == whole, "undo gives every row back: %r" % rows(s))
    s = p.press(["g", "j", "x"], r"filters: hide=a", "hide a")
    got = rows(s)
    # a's 2 ms of self time move up to main; leaf keeps its 4 ms
    check(("2ms", "6ms", "main") in got and not any(r[2] == "a" for r in got),
          "hide a: %r" % got)
    s = p.press(["i"], r"filters: hide=a > ignore=", "ignore on top")
    s = p.press(["F"], r"filters cleared", "F clears the stack")
    check("filters:" not in s and sorted(rows(s)) == whole, "all rows after F")
    p.close()


def units_cycle():
    p = Pane("worked-example.cpuprofile")
    p.press(["3"], r"leaf", "flat")
    s = p.press(["u"], r"units: % of total", "percent")
    check(("66.67%", "66.67%", "leaf") in [(r[0], r[1], r[2]) for r in rows(s)],
          "leaf: 4 of 6 ms is 66.67%%: %r" % rows(s))
    s = p.press(["u"], r"units: samples", "samples")
    check(("2", "2", "leaf") in rows(s), "leaf: 2 samples: %r" % rows(s))
    p.close()


def report_flat(path, *args):
    """(self, total, name) of each row of --report flat."""
    report = subprocess.run([BINARY, "--report", "flat", *args, path],
                            check=True, capture_output=True, text=True).stdout
    out = []
    for line in report.split("\n"):
        m = re.match(r"\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(\S+)", line)  # sum% too
        if m and not line.startswith("#") and "total%" not in line:
            out.append(m.groups())
    return out


def flat_equals_report():
    expected = report_flat(os.path.join(DATA, "validate.cpuprofile"))
    for width, height in [(80, 24), (200, 50)]:
        p = Pane("validate.cpuprofile", width, height)
        p.keys("3")
        s = p.wait_for(lambda s: len(rows(s)) >= 10 and "? help" in s, "ten flat rows")
        got = [(r[0], r[1], r[2].split()[0]) for r in rows(s)]
        n = min(len(got), 10)
        check(n >= 5 and got[:n] == expected[:n],
              "flat at %dx%d equals --report flat:\n%r\n%r" % (width, height, got[:n], expected[:n]))
        p.close()


def write_clique_profile(path, functions=140, each=10**10):
    """Every function calls every later one (root > f_i > f_j for all
    i < j, each sample 2.8 hours): without cycles to drop, f_j still has
    j + 1 callers, and divided carries shares down every decreasing path.
    Shares of one size travel together, so it takes this many functions
    and hours for about 3 s (120 took 1.7 s, and a loaded run found
    divided, which starts with the first screen, done by the third key)."""
    frame = lambda name, line: {"functionName": name, "scriptId": "1", "url": "clique.js",
                                "lineNumber": line, "columnNumber": 0}
    nodes = [{"id": 1, "callFrame": frame("(root)", -1), "children": []}]
    made, samples = {}, []

    def child(parent, f):
        if (parent["id"], f) not in made:
            node = {"id": len(nodes) + 1, "callFrame": frame("f%d" % f, f), "children": []}
            nodes.append(node)
            parent["children"].append(node["id"])
            made[(parent["id"], f)] = node
        return made[(parent["id"], f)]

    for i in range(functions):
        for j in range(i + 1, functions):
            samples.append(child(child(nodes[0], i), j)["id"])
    with open(path, "w") as out:
        json.dump({"nodes": nodes, "startTime": 0, "endTime": each * len(samples),
                   "samples": samples, "timeDeltas": [each] * len(samples)}, out)


def divided_in_background():
    """divided on a graph of many paths takes seconds: it is computed on a
    thread of its own; meanwhile the header says so, no totals are shown
    and keys go on; then the numbers are --report's."""
    path = os.path.join(tempfile.mkdtemp(), "clique.cpuprofile")
    write_clique_profile(path)
    p = Pane(path, 120, 40)
    p.press(["3"], r"3 flat", "flat")
    p.press(["r"], r"rule: additive", "additive")
    p.keys("r")
    # The header says so before the rows under it are drawn.
    s = p.settled(lambda s: "rule: divided (computing)" in s, "divided being computed")
    check(rows(s) and all(r[1] == "-" for r in rows(s)),
          "no totals while divided is computed: %r" % rows(s)[:3])
    s = p.press(["j"], r"2/\d+  \? help", "a key while divided is computed")
    check("(computing)" in s.split("\n")[0], "still computing after a key")
    deadline = time.time() + 20 * TIMEOUT  # the ASan build walks slowly
    while "(computing)" in p.screen().split("\n")[0] and time.time() < deadline:
        time.sleep(0.2)
    s = p.settled(lambda s: "(computing)" not in s.split("\n")[0], "divided's numbers")
    got = [(r[0], r[1], r[2].split()[0]) for r in rows(s)]
    want = report_flat(path, "--rule", "divided")
    check(got and got == want[:len(got)], "divided from the thread is --report's:\n%r\n%r"
          % (got[:5], want[:5]))
    p.close()


def big_screen_tour():
    p = Pane("recursion.cpuprofile", 200, 50)
    for key, what in [("2", "2 bottom-up"), ("j", "2/"), ("*", "▾"), ("4", "\\["), ("1", "1 top-down"),
                      ("*", "▾"), ("End", "\\? help"), ("PageUp", "\\? help")]:
        p.press([key], what, "key %s" % key)
    # Its title comes before its lines: wait for the line itself.
    p.press(["?"], r"focus, ignore, hide it", "the help listing f from the key table")
    p.press(["x"], r"\? help", "help closed")
    p.close()


def resize():
    p = Pane("recursion.cpuprofile", 80, 24)
    tmux("resize-window", "-t", p.name, "-x", "120", "-y", "40")
    s = p.wait_for(lambda s: len(s.rstrip("\n").split("\n")) >= 39 and
                   "? help" in s.rstrip("\n").split("\n")[-1], "a redraw at 120x40")
    check(len(s.split("\n")[0].rstrip()) > 80 or True, "header redrawn")
    tmux("resize-window", "-t", p.name, "-x", "60", "-y", "12")
    p.wait_for(lambda s: "? help" in s.rstrip("\n").split("\n")[-1] and
               len(s.rstrip("\n").split("\n")) <= 12, "a redraw at 60x12")
    p.close()


def sane_after(keys, status):
    p = Pane("worked-example.cpuprofile")
    p.keys(*keys)
    s = p.wait_for(lambda s: "EXIT=" in s and "icanon" in s, "the shell after quitting")
    check("EXIT=%d" % status in s, "exit status %d after %r" % (status, keys))
    modes = s[s.index("EXIT="):]
    check(re.search(r"(?<!-)icanon", modes) and re.search(r"(?<![-\w])echo\b", modes),
          "terminal sane (icanon, echo) after %r" % (keys,))
    p.close()


def quit_q():
    sane_after(["q"], 0)


def quit_ctrl_c():
    sane_after(["C-c"], 130)


def sane_after_signal(sig):
    """SIGTERM, a lost SSH session (SIGHUP) or a crash signal sent to the
    explorer itself: the shell after it finds the terminal sane."""
    p = Pane("worked-example.cpuprofile")
    shell = int(tmux("display-message", "-p", "-t", p.name, "#{pane_pid}").strip())
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(shell)],
                              capture_output=True, text=True).stdout.split()
    check(len(children) == 1, "one explorer process under the pane's shell")
    if children:
        os.kill(int(children[0]), sig)
    s = p.wait_for(lambda s: "EXIT=" in s and "icanon" in s, "the shell after signal %d" % sig)
    check("EXIT=%d" % (128 + sig) in s, "exit status %d after signal %d" % (128 + sig, sig))
    modes = s[s.index("EXIT="):]
    check(re.search(r"(?<!-)icanon", modes) and re.search(r"(?<![-\w])echo\b", modes),
          "terminal sane (icanon, echo) after signal %d" % sig)
    p.close()


def quit_signals():
    for sig in [signal.SIGTERM, signal.SIGHUP, signal.SIGSEGV]:
        sane_after_signal(int(sig))


def x10_mouse(button, x, y):
    """An xterm (X10) mouse report, as terminals with kmous=\\E[M send it."""
    return "\033[M" + chr(32 + button) + chr(33 + x) + chr(33 + y)


def mouse():
    p = Pane("worked-example.cpuprofile", env="TERM=screen")
    p.press(["3"], r"1/4", "flat")
    # Rows, tabs and the rest sit two lines lower under the timeline strip.
    click = x10_mouse(0, 30, 7) + x10_mouse(3, 30, 7)
    p.keys("-l", click)
    p.wait_for(lambda s: "3/4  ? help" in s, "a click selects the third row")
    p.keys("-l", x10_mouse(65, 30, 7))
    p.wait_for(lambda s: "4/4  ? help" in s, "the wheel scrolls down")
    p.keys("-l", x10_mouse(0, 3, 3) + x10_mouse(3, 3, 3))
    p.wait_for(lambda s: "▸ main" in s, "a click on a tab opens its pane")
    row = x10_mouse(0, 30, 5) + x10_mouse(3, 30, 5)
    p.keys("-l", row + row)
    p.wait_for(lambda s: "▾ main" in s, "a double click expands")
    p.close()


def suspend_and_resume():
    """^Z hands a sane terminal to the shell; fg brings the screen back."""
    session = "z%d" % os.getpid()
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24",
         "bash", "--norc", "--noprofile", "-i")
    p = Pane.__new__(Pane)
    p.name = session
    p.wait_for(lambda s: "$" in s or "#" in s, "a shell prompt")
    p.keys("%s %s" % (BINARY, os.path.join(DATA, "worked-example.cpuprofile")), "Enter")
    p.wait_for(lambda s: "? help" in s, "the explorer")
    p.keys("C-z")
    p.wait_for(lambda s: "Stopped" in s, "the job stopped")
    p.keys("stty -a | tr ' ' '\\n' | grep -x -e -icanon -e icanon -e echo -e -echo | tr '\\n' ' '; echo END",
           "Enter")
    s = p.wait_for(lambda s: re.search(r"^\S*icanon echo END", s, re.M), "stty after ^Z")
    check(re.search(r"^icanon echo END", s, re.M), "terminal sane after ^Z")
    p.keys("fg", "Enter")
    p.wait_for(lambda s: "? help" in s and "1 top-down" in s, "the screen back after fg")
    p.keys("q")
    p.wait_for(lambda s: "? help" not in s, "quit after fg")
    p.close()


def theme_errors():
    """Themes are data: a missing or broken one is named, exit status 2."""
    def run(*args, env=None):
        return subprocess.run([BINARY] + list(args) + [os.path.join(DATA, "worked-example.cpuprofile")],
                              capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    r = run("--theme", "no-such-theme")
    check(r.returncode == 2 and "theme 'no-such-theme' not found" in r.stderr,
          "a missing theme: %d %r" % (r.returncode, r.stderr))
    bad = os.path.join(os.environ.get("TMPDIR", "/tmp"), "wprof-bad-%d.theme" % os.getpid())
    with open(bad, "w") as f:
        f.write("# fine\nselected = white on blue bold\nheader = purple\n")
    r = run("--theme", bad)
    os.unlink(bad)
    check(r.returncode == 2 and ":3: 'purple' is not a colour" in r.stderr,
          "a broken theme names its line: %r" % r.stderr)
    env = dict(os.environ, WPROF_THEME="no-such-theme")
    r = run(env=env)
    check(r.returncode == 2 and "no-such-theme" in r.stderr, "WPROF_THEME is read")
    for theme in ["dark", "light", "mono"]:
        p = Pane("worked-example.cpuprofile", extra="--theme " + theme)
        check("rule: exact" in p.screen(), "theme %s opens" % theme)
        p.close()


def ascii_under_lang_c():
    p = Pane("worked-example.cpuprofile", env="LANG=C LC_ALL=C")
    s = p.press(["Enter"], r"- main", "ASCII expanded marker")
    check("| + a" in s and "▸" not in s and "│" not in s, "ASCII tree markers under LANG=C")
    # The help, longer than 24 lines, says how to scroll it with ASCII dashes.
    p.press(["?"], r"^ Keys - j/k, PgDn/PgUp scroll .*  1-\d+ of \d+ *$",
            "the help's title in ASCII under LANG=C")
    # A range's message on the status line (the last line), its dash too.
    p.press(["Escape"], r"^ 1 top-down", "the help closed")
    s = p.press(["{"], r"\A(.*\n){23} range [\d.]+ms-[\d.]+ms of 6\.0ms ",
                "the range's message in ASCII under LANG=C")
    check("?" not in s.split("\n")[23].split("? help")[0],
          "no ??? on the status line: %r" % s.split("\n")[23])
    p.close()


def hostile_names():
    tmux("set-option", "-g", "set-titles", "on", check=False)
    p = Pane("hostile-names.cpuprofile", 120, 24)
    p.keys("3")
    # The rows under the titles: read once the whole screen is drawn.
    s = p.settled(lambda s: re.search(FLAT_TITLES, s), "flat")
    check(r"clear\e[2Jscreen" in s, "ESC [2J shown escaped")
    check(r"title\e]0;PWNED\x07set" in s, "OSC title shown escaped")
    check("3 flat" in s.split("\n")[3], "the screen was not cleared")  # under the strip
    title = tmux("display-message", "-p", "-t", p.name, "#{pane_title}")
    check("PWNED" not in title, "the title is unchanged: %r" % title)
    p.close()


def sample_types():
    """t cycles heap.pprof's sample types (as --sample-type picks one); the
    numbers are go tool pprof -top's (testdata/expected/heap.pprof.*)."""
    p = Pane("heap.pprof", 200, 50)
    s = p.screen()
    check("inuse_space" in s.split("\n")[0], "heap.pprof opens on its default type")
    p.keys("3", "t")
    # The header names the type before the rows under it are drawn.
    s = p.settled(lambda s: "alloc_objects" in s, "the next sample type")
    got = {r[2].split("  ")[0]: r for r in rows(s)}
    check(got.get("main.small", ("",))[0] == "16723",
          "alloc_objects: main.small self 16723 as pprof says: %r" % (got.get("main.small"),))
    s = p.press(["t"], r"alloc_space", "the type after")
    p.close()
    p = Pane("heap.pprof", 200, 50, extra="--sample-type inuse_objects")
    check("inuse_objects" in p.screen().split("\n")[0], "--sample-type reaches the explorer")
    p.close()


def xs_file_header():
    """The XS file profiler's .cpuprofile opens under divided (xsbug's) and
    its header says how its samples were timed: in full where the line has
    room, shorter where it has less, and not before the file's name (80
    columns); --sample-time next too."""
    p = Pane("validate-xs.cpuprofile", 160, 24)
    top = p.screen().split("\n")[0]
    check("rule: divided" in top and "sample time: own delta (XS file profiler)" in top,
          "XS file header at 160 columns: %r" % top)
    p.close()
    p = Pane("validate-xs.cpuprofile", 100, 24)
    top = p.screen().split("\n")[0]
    check("validate-xs.cpuprofile  cpuprofile (XS)" in top and top.rstrip().endswith("sample time: own delta"),
          "at 100 columns: %r" % top)
    p.close()
    p = Pane("validate-xs.cpuprofile")
    top = p.screen().split("\n")[0]
    check("validate-xs.cpuprofile  cpuprofile (XS)" in top and top.rstrip().endswith("rule: divided"),
          "at 80 columns: %r" % top)
    p.close()
    p = Pane("validate-xs.cpuprofile", 160, 24, extra="--sample-time next")
    top = p.screen().split("\n")[0]
    check("sample time: next sample (as DevTools)" in top, "--sample-time next: %r" % top)
    p.close()


run_tests([header_and_panes, expand_and_collapse, sort_keys, rules_cycle,
              rule_not_applicable, search, focus_and_hide, units_cycle,
              flat_equals_report, divided_in_background, big_screen_tour, resize, quit_q, quit_ctrl_c, quit_signals, mouse, suspend_and_resume, theme_errors,
              ascii_under_lang_c, hostile_names, sample_types, xs_file_header])

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
