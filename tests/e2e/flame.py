#!/usr/bin/env python3
"""The flame graph end to end: --report flame, --export svg (well-formed,
the same top frames, and in headless Chromium when it is installed), and
pane 5 in tmux at 80x24 and 200x50: the graph of a real profile, zoom in
and out, search, the differential graph of two profiles.

usage: flame.py WPROF_BINARY TESTDATA_DIR

Numbers come from testdata/expected/validate.cpuprofile.rules.json (the
reference tools'), never from wprof-tui: the graph is as wide as every
sample together (the sum of the self times, 896227 us); f_main_2's exact
total is 446301 us, f_quarter's 302789 us (it never calls itself, so its
search share is its exact total over the whole: 33.8 %)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.dom.minidom

from tmux_driver import Pane as Session, check, failures, run_tests, tmux

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])
PROFILE = os.path.join(DATA, "validate.cpuprofile")
WHOLE = 896227.0
F_MAIN_2 = 446301.0
F_QUARTER = 302789.0


def run(*args, env=None):
    e = dict(os.environ, LANG="C.UTF-8")
    e.update(env or {})
    return subprocess.run([BINARY] + list(args), capture_output=True, text=True, env=e)


def report():
    r = run("--report", "flame", "--width", "100", PROFILE)
    check(r.returncode == 0, "report: exit %d: %s" % (r.returncode, r.stderr))
    lines = [l for l in r.stdout.split("\n") if l.startswith("|")]
    check(lines and lines[0].startswith("|(root)") and len(lines[0]) == 100,
          "report: the root spans 100 columns: %r" % lines[:1])
    # f_main_2 is main's largest child: it starts the line and ends where
    # its share of 100 columns (in eighths, rounded) does.
    row = [l for l in lines if l.startswith("|f_main_2")]
    want = (round(F_MAIN_2 / WHOLE * 800) + 4) // 8
    check(row and row[0].index("|", 1) == want,
          "report: f_main_2 is %d columns wide: %r" % (want, row[:1]))
    up = run("--report", "flame", "--width", "100", "--flame-up", PROFILE).stdout
    up_lines = [l for l in up.split("\n") if l.startswith("|")]
    check(up_lines == lines[::-1], "report: --flame-up puts the root last")
    narrow = run("--report", "flame", PROFILE, env={"COLUMNS": "40"}).stdout
    check("|(root)" + "." * 33 in narrow, "report: $COLUMNS gives the width")
    ascii = run("--report", "flame", "--width", "40", PROFILE, env={"LANG": "C", "LC_ALL": "C"}).stdout
    check("~" in ascii and "\u2026" not in ascii, "report: '~' elides under LANG=C")
    bad = run("--report", "flame", "--width", "x", PROFILE)
    check(bad.returncode == 2, "report: a bad --width is a usage error")


def frames_of(path):
    doc = xml.dom.minidom.parse(path)
    out = []
    for g in doc.getElementsByTagName("g"):
        if g.getAttribute("class") == "f":
            out.append((g.getAttribute("data-n"), float(g.getAttribute("data-w")),
                        int(g.getAttribute("data-i")), int(g.getAttribute("data-e"))))
    return out


def svg():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "flame.svg")
        r = run("--export", "svg", "-o", path, PROFILE)
        check(r.returncode == 0, "svg: exit %d: %s" % (r.returncode, r.stderr))
        try:
            frames = frames_of(path)
        except Exception as e:  # not well-formed
            check(False, "svg: not well-formed XML: %s" % e)
            return
        check(frames[0][0] == "(root)" and abs(frames[0][1] - WHOLE) < 1e-6,
              "svg: the root is the whole profile: %r" % (frames[:1],))
        quarter = sum(w for n, w, i, e in frames if n == "f_quarter")
        check(abs(quarter - F_QUARTER) < 1e-6, "svg: f_quarter's frames add up to %g" % quarter)
        hostile = os.path.join(tmp, "hostile.svg")
        r = run("--export", "svg", "-o", hostile, os.path.join(DATA, "hostile-names.cpuprofile"))
        try:
            frames_of(hostile)
        except Exception as e:
            check(False, "svg: hostile names break the XML: %s" % e)
        chromium_renders(path, frames)


def chromium_renders(path, frames):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("skip: no chromium")
        return
    with tempfile.TemporaryDirectory() as profile_dir:
        flags = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--no-first-run",
                 "--user-data-dir=" + profile_dir]
        try:
            dom = subprocess.run([browser] + flags + ["--dump-dom", "file://" + path],
                                 capture_output=True, text=True, timeout=120).stdout
            shot = os.path.join(profile_dir, "shot.png")
            subprocess.run([browser] + flags + ["--screenshot=" + shot,
                                                "--window-size=1200,400", "file://" + path],
                           capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            print("skip: chromium did not answer")
            return
        # The script ran (it writes each frame's label) and names the top
        # frames as the file does.
        labels = re.findall(r'<text x="[0-9.]+" y="[0-9]+">([^<]+)</text>', dom)
        top = [n for n, w, i, e in frames[:3]]
        check(labels[:3] == top, "chromium: the top frames %r, drawn %r" % (top, labels[:3]))
        check(os.path.exists(shot) and os.path.getsize(shot) > 1000,
              "chromium: a screenshot of the SVG")


# Pane 5 drawn whole: curses draws the status line last, and it names the
# root under the cursor only once the flame graph is up.
FLAME = r"left-heavy (?:\u203a|>) \(whole profile\)[\s\S]*^ \(root\)  self 0  total"


class Pane(Session):
    def __init__(self, args, width, height):
        super().__init__("LANG=C.UTF-8 %s %s; echo EXIT=$?; sleep 600" % (BINARY, args),
                         width, height)


def explore(width, height):
    size = "%dx%d" % (width, height)
    p = Pane(PROFILE, width, height)
    s = p.press(["5"], FLAME, "%s: the flame graph" % size)
    check(" 5 flame " in s and "(root)" in s, "%s: pane 5 shows the root" % size)
    check("(root)  self 0  total 896.23ms  100.00%" in s,
          "%s: the status line names the frame under the cursor" % size)
    # Down twice, then zoom: the breadcrumb shows the path.
    p.keys("j", "j")
    s = p.press(["Enter"], r"\u203a executeUserEntryPoint", "%s: zoomed" % size)
    check("(root) \u203a (anonymous) \u203a executeUserEntryPoint" in s,
          "%s: the zoom path on top" % size)
    p.keys("j")
    s = p.press(["Enter"], r"\u203a Module._load", "%s: zoomed twice" % size)
    s = p.press(["BSpace"], r"executeUserEntryPoint\s*\n", "%s: zoomed out one" % size)
    check("Module._load" not in s.split("\n")[2], "%s: one zoom undone" % size)
    s = p.press(["Escape"], r"whole profile", "%s: zoomed out" % size)
    p.keys("/", "f_quarter")
    # "matched" comes with the first letter typed: wait for Enter to have
    # closed the prompt (/...) on the status line.
    s = p.press(["Enter"], r"matched[\s\S]*^ [^/\s].*\? help$", "%s: search" % size)
    want = "matched %.1f %%" % (100 * F_QUARTER / WHOLE)
    check(want in s, "%s: %s, got %r" % (size, want, re.findall(r"matched [0-9.]+ %", s)))
    check(re.search(r"^ f_quarter  self", s, re.M), "%s: the cursor on the first match" % size)
    s = p.press(["v"], r"\(root\)\s*\n.*\? help", "%s: root at the bottom" % size)
    s = p.press(["x"], r"time order", "%s: time order" % size)
    p.close()


def differential(width, height):
    size = "%dx%d" % (width, height)
    base = os.path.join(DATA, "worked-example.cpuprofile")
    new = os.path.join(DATA, "worked-example-new.cpuprofile")
    p = Pane("%s %s" % (base, new), width, height)
    s = p.press(["5"], r"left-heavy", "%s: the differential flame graph" % size)
    p.keys("o")
    s = p.press(["j"], r"base [0-9.]+m?s|not in base", "%s: NEW's frame against BASE" % size)
    check(s.count("left-heavy") == 2, "%s: both sides draw a flame graph" % size)
    p.close()


def gone_from_new():
    """A call BASE made and NEW no longer does has no width in NEW's graph:
    the status line lists it under its caller, marked '-' (difffolded)."""
    tmp = tempfile.mkdtemp()
    base, new = os.path.join(tmp, "base.folded"), os.path.join(tmp, "new.folded")
    with open(base, "w") as f:
        f.write("main;a 20\nmain;gone 10\nmain;a;old 5\n")
    with open(new, "w") as f:
        f.write("main;a 30\n")
    p = Pane("%s %s" % (base, new), 120, 24)
    p.press(["5"], r"left-heavy", "the differential flame graph")
    p.press(["o"], r"keys move the new side", "the NEW side")
    s = p.press(["j"], r" a  self .*only in base", "NEW's a: the call gone from it")
    check(re.search(r"\(-old 5\S* only in base\)", s), "a lists -old: %r"
          % [l for l in s.split("\n") if "base" in l])
    s = p.press(["k"], r" main  self .*only in base", "NEW's main")
    check(re.search(r"\(-gone 10\S* only in base\)", s), "main lists -gone: %r"
          % [l for l in s.split("\n") if "base" in l])
    p.close()
    shutil.rmtree(tmp)


def no_colour():
    # NO_COLOR and LANG=C: frames told apart by shading characters, names
    # cut with '~', the zoom path with '>'.
    p = Session("NO_COLOR=1 LANG=C %s %s; echo EXIT=$?; sleep 600" % (BINARY, PROFILE), 80, 24)
    s = p.press(["5"], FLAME, "NO_COLOR: the flame graph")
    check(re.search(r"^\(anonymous\)[#.]{20,}", s, re.M), "NO_COLOR: frames shaded")
    check(re.search(r"^f_main_2#+f_half_2\.+", s, re.M), "NO_COLOR: neighbours alternate shades")
    check("~" in s and "\u2026" not in s, "LANG=C: names cut with '~'")
    p.close()


def theme_palettes():
    """The flame graph's colours come from the theme: one whose kind
    palette is all green (46 on 256 colours, green on 8) draws green
    frames; the dark theme's draws none in that green, and a broken
    palette line is named with its line."""
    tmp = tempfile.mkdtemp()
    dark = open(os.path.join(DATA, "..", "themes", "dark.theme")).read()
    green = os.path.join(tmp, "green.theme")
    with open(green, "w") as f:
        f.write(re.sub(r"(?m)^flame-kind(-8)? .*$", "", dark) +
                "flame-kind = 46 46 46 46 46 46 46\nflame-kind-8 = green green green "
                "green green green green\n")
    painted = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:48;5;46|42)m")
    for theme, want in ((green, True), ("dark", False)):
        p = Session("LANG=C.UTF-8 TERM=xterm-256color %s --theme %s %s; echo EXIT=$?; sleep 600"
                    % (BINARY, theme, PROFILE), 80, 24)
        p.press(["5"], FLAME, "theme %s: the flame graph" % theme)
        coloured = tmux("capture-pane", "-p", "-e", "-t", p.name)
        check(bool(painted.search(coloured)) == want,
              "theme %s: frames %s in the theme's green" % (theme, "drawn" if want else "not drawn"))
        p.close()
    bad = os.path.join(tmp, "bad.theme")
    with open(bad, "w") as f:
        f.write("normal = default\nflame-diff = red blue\n")
    r = run("--theme", bad, PROFILE)
    check(r.returncode == 2 and "bad.theme:2: flame-diff takes 11 to 11 colours" in r.stderr,
          "a short palette line is named: %r" % r.stderr)
    shutil.rmtree(tmp)


def function_names(path):
    import json
    with open(path) as f:
        return {n["callFrame"]["functionName"] or "(anonymous)" for n in json.load(f)["nodes"]}


def labels(graph):
    """The texts drawn in frames: runs between blanks, block characters
    and remainder marks."""
    return [t for t in re.split(r"[\s\u2581-\u259f\u2573]+", graph) if t]


def time_order_readable(width, height):
    """recursion.cpuprofile in time order (walk calling a, b, c and leaf
    in turn, thousands of short calls): fragments too narrow for a name
    are merged into blocks named by their main function ("walk +11"), no
    name is cut to a sliver ("l\u2026"), and a block says what it holds
    and opens with Enter."""
    size = "%dx%d" % (width, height)
    profile = os.path.join(DATA, "recursion.cpuprofile")
    names = function_names(profile)
    p = Pane(profile, width, height)
    p.press(["5"], FLAME, "%s: the flame graph" % size)
    # The graph is read under x's message, on the status line drawn last.
    s = p.press(["x"], r"^ time order \u203a[\s\S]*^ flame graph: time order",
                "%s: time order" % size)
    rows = s.split("\n")
    top = next(i for i, l in enumerate(rows) if l.startswith(" time order"))
    graph = "\n".join(rows[top + 1:-2])
    texts = labels(graph)
    cut = [t for t in texts if t.endswith("\u2026") and len(t) < 4]
    check(not cut, "%s: names cut to slivers: %r" % (size, cut))
    whole = [t for t in texts if t in names]
    check(len(whole) >= (40 if width >= 200 else 15) and "walk" in whole and "leaf" in whole,
          "%s: names read whole: %r" % (size, whole))
    blocks = re.findall(r"([^\s\u2581-\u259f\u2573]+) \+(\d+)", graph)
    check(blocks and all(n in names for n, k in blocks),
          "%s: merged blocks named by a function of the profile: %r" % (size, blocks))
    # The root's first callee in time order is a block of the startup's
    # fragments: the status line says what it holds, Enter spreads them.
    s = p.press(["j"], r"^ \d+ fragments merged: ", "%s: the first block" % size)
    status = s.split("\n")[-2]
    said = r"fragments merged: \S+ [0-9.]+%" + (
        ".*  total [0-9.]+m?s  [0-9.]+%  Enter: zoom in" if width >= 200 else "")
    check(re.search(said, status), "%s: the block's status line: %r" % (size, status))
    s = p.press(["Enter"], r"^ time order \u203a \(root\) \u203a \S+ \+\d+[\s\S]*"
                r"^ (?!\d+ fragments merged).*\? help$",
                "%s: zoomed into the block, the status line past it" % size)
    check("(program)" in labels(s.split("\n")[top + 2]),
          "%s: the block's fragments named whole: %r" % (size, s.split("\n")[top + 2]))
    s = p.press(["BSpace"], r"^ time order \u203a \(whole profile\)", "%s: zoomed out" % size)
    p.close()


def tui_80():
    explore(80, 24)
    differential(80, 24)
    time_order_readable(80, 24)


def tui_200():
    explore(200, 50)
    differential(200, 50)
    time_order_readable(200, 50)


report()
svg()
run_tests([tui_80, tui_200, no_colour, theme_palettes, gone_from_new])
sys.exit(1 if failures else 0)
