#!/usr/bin/env python3
"""End-to-end tests of the explorer's columns and header, in tmux at
80x24 and 200x50 (and 30 columns): self % beside total %, a name column
on a narrow terminal, a long path cut at its start with `…`, and the
granularity key (`a`) keeping the timeline, ranges and units, and
pressed before its model is made.

Numbers are hand-worked from worked-example.cpuprofile (6 ms: main 0 /
6 ms, a 2 / 5 ms, leaf 4 / 4 ms, b 0 / 1 ms) and from the sample count of
anon-long.cpuprofile (its "samples" array), never read from wprof-tui.

usage: columns_tui.py WPROF_BINARY TESTDATA_DIR
Exits 77 (skip) only when tmux is not installed."""
import json
import os
import re
import shutil
import sys
import tempfile

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])
WORKED = os.path.join(DATA, "worked-example.cpuprofile")
ANON = os.path.join(DATA, "anon-long.cpuprofile")
SIZES = [(80, 24), (200, 50)]


def explorer(path, width, height):
    return Pane("%s %s; sleep 600" % (BINARY, path), width, height)


def both_shares():
    """flat: self, self %, total, total % of each function (then pprof's
    sum%, the flat pane's running sum of self %)."""
    for width, height in SIZES:
        size = "%dx%d" % (width, height)
        p = explorer(WORKED, width, height)
        s = p.press(["3"], r"leaf", "flat")
        check(re.search(r"self\s+self%\s+▼total\s+total%\s+sum%\s+name", s),
              "%s: the titles name both shares: %r" % (size, s.split("\n")[4]))
        for name, row in [("leaf", r"4ms\s+66\.67%\s+4ms\s+66\.67%"),
                          ("a", r"2ms\s+33\.33%\s+5ms\s+83\.33%"),
                          ("main", r"0\s+0\.00%\s+6ms\s+100\.00%")]:
            check(re.search(r"^\s+%s\s+[\d.]+%%\s+%s\s*$" % (row, name), s, re.M),
                  "%s: %s's self and total with their shares" % (size, name))
        p.close()


def narrow_keeps_name():
    p = explorer(WORKED, 30, 12)
    s = p.press(["3"], r"leaf", "flat at 30 columns")
    check(re.search(r"^\s+4ms\s+leaf\s*$", s, re.M),
          "30 columns: total and the name, the rest given way: %r" % s)
    p.close()


def cut_name_on_status():
    """A name cut at the edge of its row is whole on the status line; one
    that fits leaves the status line to its place."""
    name = "handleIncomingRequestAndDispatchToMiddlewareWithRetries"
    for width, height in SIZES:
        size = "%dx%d" % (width, height)
        p = explorer(os.path.join(DATA, "long-name.cpuprofile"), width, height)
        s = p.press(["3", "j"], r"2/2  \? help", "flat, on the long name")
        status = s.rstrip("\n").split("\n")[-1]
        row = [l for l in s.split("\n") if "handleIncoming" in l and "? help" not in l][0]
        if width == 80:
            check(row.rstrip().endswith("…") and status.startswith(" " + name + "  file:"),
                  "%s: the cut name is whole on the status line: %r / %r" % (size, row, status))
        else:
            check(name in row and status.startswith(" file:///srv/app/server.js:42:5 "),
                  "%s: the whole name on its row, the place on the status: %r" % (size, status))
        p.close()


def help_scrolls():
    """? at 80x24: one key a line, scrolling; every key of the table,
    G and h among them; at 200x50 all of it at once."""
    # Curses draws the help's first line before its rows, and every key
    # keeps "Keys" on it: each wait is for the rows then read, or for the
    # line's range moved.
    p = explorer(WORKED, 80, 24)
    s = p.press(["?"], r"Keys[\s\S]*^ Home End g G\s+first / last row[\s\S]*"
                r"^ Right Left h\s+expand / collapse, to parent",
                "80x24: the help, G and h listed whole")
    check("quit" not in s and re.search(r"scroll.*1–21 of \d+", s.split("\n")[1]),
          "80x24: the help says it scrolls: %r" % s.split("\n")[1])
    s = p.press(["PageDown", "PageDown"], r"–(\d+) of \1$[\s\S]*^ q\s+quit\s*$",
                "80x24: the help's last page, q the last key after scrolling")
    first, last, keys = map(int, re.search(r"(\d+)–(\d+) of (\d+)", s).groups())
    p.press(["k"], r"(?<!\d)%d–%d of %d$\n \S" % (first - 1, last - 1, keys),
            "80x24: k scrolls back a line, to a key")
    p.keys("x")
    p.wait_for(lambda s: "Keys" not in s.split("\n")[1], "any other key closes it")
    s = p.press(["3"], r"▼total\s+total%\s+sum%", "the flat pane, not x's filter")
    check("filters:" not in s, "80x24: the key that closed the help did nothing else")
    p.close()
    p = explorer(WORKED, 200, 50)
    s = p.press(["?"], r"Keys[\s\S]*\bq\s+quit", "200x50: the help, q among its keys")
    check("scroll" not in s.split("\n")[1] and re.search(r"1-5\s+top-down", s),
          "200x50: every key at once")
    p.close()


def source_sideways():
    """The source pane scrolls sideways: Right by 8 columns, Left back,
    Left at the edge back to the pane.  testdata/anon.js line 3 starts
    "function spin(until) {"."""
    for width, height in SIZES:
        size = "%dx%d" % (width, height)
        p = Pane("%s --source-path %s %s; sleep 600" % (BINARY, DATA, ANON), width, height)
        p.press(["3", "/", "s", "p", "i", "n", "Enter"], r"spin", "spin found")
        s = p.press(["l"], r"source: spin", "the source pane")
        check(re.search(r"^\s.*\s3  function spin\(until\)", s, re.M), "%s: line 3 whole" % size)
        s = p.press(["Right"], r"source from column 9", "one step right")
        check(re.search(r"^\s.*\s3   spin\(until\) \{", s, re.M),
              "%s: Right hides the first 8 columns: %r" % (size, s))
        s = p.press(["Left"], r"line  source\s*$", "back left")
        check(re.search(r"^\s.*\s3  function spin", s, re.M), "%s: Left shows them again" % size)
        p.press(["Left"], r"▼total", "Left at the edge: back to flat")
        p.close()


def flame_backspace_and_range():
    """Pane 5: Backspace after a filter undoes it, as the filter's message
    says; with a range chosen the breadcrumb names it."""
    for width, height in SIZES:
        size = "%dx%d" % (width, height)
        p = explorer(WORKED, width, height)
        p.press(["5"], r"left-heavy › \(whole profile\)", "the flame graph")
        s = p.press(["j", "f"], r"Backspace undoes", "a focus from the flame graph")
        check("filters: focus=" in s, "%s: the focus is in force" % size)
        s = p.press(["BSpace"], r"filter undone", "Backspace")
        check("filters:" not in s, "%s: Backspace undid the filter: %r" % (size, s))
        s = p.press(["["], r"left-heavy › \(range \S+–\S+ of \S+\)", "a range")
        s = p.press(["Enter"], r"left-heavy › \(range \S+–\S+ of \S+\) › main", "zoomed")
        p.close()


def source_path_from_explorer():
    """A source not found says how to add a directory; :source-path adds
    one from inside the explorer."""
    tmp = tempfile.mkdtemp()
    with open(os.path.join(tmp, "server.js"), "w") as f:
        f.write("".join("// line %d\n" % i for i in range(1, 42)))
        f.write("function handleIncomingRequestAndDispatchToMiddlewareWithRetries() {\n"
                "  return 42;\n}\n")
    p = explorer(os.path.join(DATA, "long-name.cpuprofile"), 200, 50)
    s = p.press(["3", "j", "l"], r"source not found", "no source")
    check(re.search(r"source not found \(tried /srv/app/server\.js\): add a directory with "
                    r":source-path DIR or --source-path DIR", s),
          "the message names both ways to add a source path: %r" % s.split("\n")[-2:])
    p.press(["q", ":"], r"filter \(KIND PATTERN\)", "the : prompt")
    p.keys("source-path %s" % tmp, "Enter")
    # The row, then the source pane's status line, drawn after it.
    s = p.press(["l"], r"  42  function handleIncoming[\s\S]*^ .*q back", "the source found")
    check(tmp in s.rstrip("\n").split("\n")[-1], "the status names the file read")
    p.close()
    shutil.rmtree(tmp)


def mine_elsewhere():
    """M with the default root on a profile of /srv/app: says so, filters
    nothing; :mine /srv/app does."""
    p = explorer(os.path.join(DATA, "long-name.cpuprofile"), 200, 50)
    s = p.press(["3", "M"], r"no function of this profile is under", "M")
    check(":mine DIR" in s and "filters:" not in s, "M offers :mine DIR: %r" % s.split("\n")[-2:])
    p.press([":"], r"filter \(KIND PATTERN\)", "the : prompt")
    p.keys("mine /srv/app", "Enter")
    # The header, then the filter's message on the status line, drawn
    # after the rows.
    s = p.press([], r"filters: mine=/srv/app[\s\S]*^ mine=/srv/app \(Backspace undoes",
                "my code under /srv/app")
    check(re.search(r"3ms\s+100\.00%\s+3ms\s+100\.00%\s+(?:[\d.]+%\s+)?handleIncoming", s),
          "the function of /srv/app stays with its 3 ms: %r" % s)
    p.close()


def messages_say_what_to_do():
    """# lists the labels' values (labels.pprof: worker alpha and beta,
    phase load and save, as go tool pprof -tags lists them); t on a Go
    CPU profile (samples/count and cpu/nanoseconds) points at u."""
    p = explorer(os.path.join(DATA, "labels.pprof"), 200, 50)
    s = p.press(["#"], r"labels: ", "the labels")
    status = s.rstrip("\n").split("\n")[-1]
    check(re.search(r"worker = (alpha, beta|beta, alpha)", status) and
          re.search(r"phase = (load, save|save, load)", status),
          "# lists keys with their values: %r" % status)
    p.close()
    p = explorer(os.path.join(DATA, "validate.pprof"), 200, 50)
    s = p.press(["t"], r"other sample type", "t")
    check("samples (count)" in s and "shows with u" in s and "one sample type" not in s,
          "t names the other type and the key that shows it: %r" % s.split("\n")[-2:])
    p.close()


def long_path_header():
    """A long path loses its start, marked; the file's name stays whole,
    with a range too."""
    tmp = tempfile.mkdtemp()
    deep = os.path.join(tmp, "a-rather-long-directory-name", "and-another-one-below-it")
    os.makedirs(deep)
    path = os.path.join(deep, "worked-example.cpuprofile")
    shutil.copy(WORKED, path)
    for width, height in SIZES:
        size = "%dx%d" % (width, height)
        p = explorer(path, width, height)
        head = p.screen().split("\n")[0]
        check(re.match(r" (…)?\S*/worked-example\.cpuprofile  cpuprofile", head),
              "%s: the header keeps the file's name whole: %r" % (size, head))
        s = p.press(["["], r"range \S+", "a range")
        head = s.split("\n")[0]
        check("worked-example.cpuprofile" in head and "range" in head,
              "%s: with a range, the file's name still shows: %r" % (size, head))
        p.close()
    shutil.rmtree(tmp)


def granularity_keeps_time():
    samples = len(json.load(open(ANON))["samples"])
    for width, height in SIZES:
        size = "%dx%d" % (width, height)
        p = explorer(ANON, width, height)
        p.press(["3", "u", "u"], r"units: samples", "sample counts")
        s = p.press(["a", "a"], r"granularity: lines", "by lines")
        head = s.split("\n")[0]
        check(" by lines " in head and "samples (count)" in head,
              "%s: the header says by lines, the units stay: %r" % (size, head))
        counts = re.findall(r"^(?!\s+▼?self)\s+(\S+)\s+\S+%\s+(\S+)\s+\S+%\s", s, re.M)
        check(counts and all(re.fullmatch(r"\d+", c) for pair in counts for c in pair),
              "%s: whole sample counts only: %r" % (size, counts))
        check(re.search(r"^\s+0\s+0\.00%%\s+%d\s+100\.00%%\s+(?:[\d.]+%%\s+)?\(root\)" % samples, s, re.M),
              "%s: (root) holds the %d samples of the file" % (size, samples))
        # Said on the status line too, which is where a refusal would be.
        s = p.press(["["], r"range \S+–\S+ of[\s\S]*^ range \S+–\S+ of", "a range by lines")
        check("no sample times" not in s, "%s: [ chooses a range by lines" % size)
        p.press(["0"], r"the whole profile", "the whole profile")
        p.press(["u"], r"units: time", "time again")
        s = p.press(["5", "x"], r"^ .*time order.*\? help$", "time order by lines, said")
        check("has none" not in s, "%s: x gives time order by lines" % size)
        p.close()


def granularity_at_once():
    """`a` pressed the moment the first screen shows, while the models by
    files and lines may still be being made on their thread: the explorer
    ends by files all the same.  The profile: (root) > main (a.js) > 50 000
    functions of b.js, one 10 us sample each, so by files b.js has all
    500 ms as self time and a.js all of it as total."""
    n = 50000
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "many.cpuprofile")
    frame = lambda name, url: {"functionName": name, "scriptId": "1", "url": url,
                               "lineNumber": 0, "columnNumber": 0}
    nodes = [{"id": 1, "callFrame": frame("(root)", ""), "children": [2]},
             {"id": 2, "callFrame": frame("main", "a.js"), "children": list(range(3, 3 + n))}]
    nodes += [{"id": 3 + i, "callFrame": frame("f%d" % i, "b.js")} for i in range(n)]
    with open(path, "w") as f:
        # Sample i comes at 10 (i + 1) us and lasts until the next one
        # (DevTools' reading), the last until endTime.
        json.dump({"nodes": nodes, "startTime": 0, "endTime": 10 * (n + 1),
                   "samples": list(range(3, 3 + n)), "timeDeltas": [10] * n}, f)
    p = Pane("%s %s; sleep 600" % (BINARY, path), 200, 50, stable=False)
    p.keys("a")
    p.shows(r"granularity: files", "by files")
    p.keys("3")
    s = p.wait_for(lambda s: "sum% name" in s and re.search(r"\sa\.js\s*$", s, re.M) and
                   re.search(r"\sb\.js\s*$", s, re.M), "the flat pane by files, both rows")
    check(re.search(r"^\s*500(\.0+)?ms\s+100\.00%\s+500(\.0+)?ms\s+100\.00%.*b\.js", s, re.M),
          "b.js holds all 500 ms as self time:\n%s" % s)
    check(re.search(r"^\s*0\s+0\.00%\s+500(\.0+)?ms\s+100\.00%.*a\.js", s, re.M),
          "a.js holds all 500 ms as total:\n%s" % s)
    check(" by files " in s.split("\n")[0], "the header says by files: %r" % s.split("\n")[0])
    p.close()
    shutil.rmtree(tmp)


run_tests([both_shares, narrow_keeps_name, cut_name_on_status, help_scrolls, source_sideways,
           flame_backspace_and_range, source_path_from_explorer, mine_elsewhere,
           messages_say_what_to_do,
           long_path_header, granularity_keeps_time, granularity_at_once])

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
