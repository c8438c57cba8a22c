#!/usr/bin/env python3
"""The explorer at 80x24 in tmux: after a re-sort, a rule or a sample type
change the cursor's row is on screen; deep trees show their depth as a
number once the guides stop; counts are abbreviated (118.1M) and every
column keeps a gap; times past a minute read 2m37s; cut names end in an
ellipsis ('>' under LANG=C); a row shows its file's base name and line,
the status line the whole URL of the row under the cursor.

usage: tui_screen.py WPROF_BINARY TESTDATA_DIR"""
import os
import re
import subprocess
import sys
import tempfile

from protobuf_bytes import field, varint
from tmux_driver import FLAT_TITLES, Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
DATA = os.path.abspath(sys.argv[2])
TMP = tempfile.mkdtemp()


def pprof(strings, types, samples, functions, depth_chain=0):
    """profile.proto by hand.  types: (name, unit) string indexes;
    samples: (location ids, values); functions: (name, file, line) string
    indexes and a line, one location each (ids from 1)."""
    out = b"".join(field(1, field(1, varint(t), 0) + field(2, varint(u), 0)) for t, u in types)
    for locs, values in samples:
        out += field(2, field(1, b"".join(varint(l) for l in locs)) +
                     field(2, b"".join(varint(v) for v in values)))
    for i, (name, filename, line) in enumerate(functions, 1):
        out += field(4, field(1, varint(i), 0) +
                     field(4, field(1, varint(i), 0) + field(2, varint(line), 0)))
        out += field(5, field(1, varint(i), 0) + field(2, varint(name), 0) +
                     field(4, varint(filename), 0) + field(5, varint(line), 0))
    return out + b"".join(field(6, s) for s in strings)


def write(name, data):
    path = os.path.join(TMP, name)
    open(path, "wb").write(data)
    return path


LONG_NAME = "a_function_with_a_name_far_too_long_for_eighty_columns_" * 3
URL = "https://cdn.example.com/some/deeply/nested/build/output/directory/_tsc.js"
# cpu: 157 s in `main` alone; samples: 118065721 for each function.
NUMBERS = write("numbers.pb", pprof(
    [b"", b"cpu", b"nanoseconds", b"samples", b"count", b"main", b"m.go",
     LONG_NAME.encode(), URL.encode()],
    [(1, 2), (3, 4)],
    [([1], [157 * 10**9, 118065721]), ([2, 1], [10**9, 118065721])],
    [(5, 6, 3), (7, 8, 132095)]))
# One sample 60 frames deep: `deep` calling itself.
DEEP = write("deep.pb", pprof([b"", b"cpu", b"nanoseconds", b"deep"], [(1, 2)],
                              [([1] * 60, [10])], [(3, 0, 7)]))


def explorer(path, env="", extra=""):
    return Pane("%s %s %s --theme mono %s; sleep 600" % (env, BINARY, extra, path))


def selected_line(lines):
    """The screen line in reverse video (mono theme: the cursor's row) in
    a screen's lines read with their colours."""
    # Rows start under the column titles (below the timeline strip and the
    # tabs, whose current tab is in reverse video too, and which say
    # "sort: name" when sorted by name).
    first = next(i for i, l in enumerate(lines) if re.search(r"\btotal\b.*\bname\b", l)) + 1
    hits = [i - first + 3 for i, l in enumerate(lines[first:-2], first)
            if re.search(r"\x1b\[(?:[0-9;]*;)?7m", l)]
    selected_line.page = len(lines[first:-2])
    return hits


def position(screen):
    m = re.search(r"(\d+)/(\d+)  \? help", screen)
    return (int(m.group(1)), int(m.group(2))) if m else None


def resort_window():
    """validate.cpuprofile's flat pane has 88 rows: from the last one, each
    s, r and t keeps the cursor's row on screen, and that row is the one
    the status line counts."""
    p = explorer(os.path.join(DATA, "validate.cpuprofile"))
    p.press(["3"], r"/88", "the flat pane")
    screen = p.press(["G"], r"88/88", "the last row")
    for key in ("s", "s", "s", "s", "s", "r", "r", "r", "r", "PageUp", "s", "s"):
        # Each key changes the screen: its position and its reverse video
        # are read from one drawing of the next one, drawn whole.
        p.keys(key)
        last = screen
        screen, coloured = p.settled_coloured(lambda s: s != last and position(s),
                                              "the screen after " + key)
        hits = selected_line(coloured)
        at = position(screen)
        check(len(hits) == 1, "after %s the cursor's row is on screen (%s):\n%s"
              % (key, at, screen))
        if len(hits) == 1 and at:
            first = at[0] - (hits[0] - 3)  # the index of the top row shown
            page = selected_line.page
            check(first >= 1 and first + page - 1 <= max(at[1], page),
                  "after %s the window holds row %d of %d" % (key, at[0], at[1]))
    p.close()


def deep_indentation():
    p = explorer(DEEP)
    p.keys("*")
    screen = p.press(["G"], r"60/60", "the deepest row")
    lines = screen.split("\n")
    check(re.search(r"\[59\] . deep\s*$", lines[-3]), "the deepest row says 59: %r" % lines[-3])
    check(re.search(r"\[58\] . deep\s*$", lines[-4]), "its parent says 58: %r" % lines[-4])
    p.keys("g")
    screen = p.wait_for(lambda s: position(s) == (1, 60), "the top")
    check("[" not in screen.split("\n")[4], "shallow rows show guides, not numbers")
    p.close()


def counts_units_names():
    p = explorer(NUMBERS, extra="--sample-type samples")
    p.keys("3")
    # The rows under the titles: read once the whole screen is drawn.
    screen = p.settled(lambda s: re.search(FLAT_TITLES, s), "the flat pane")
    rows = screen.split("\n")[3:5]
    check(any("118.1M" in r for r in rows) and "236.1M" in screen,
          "counts abbreviated: %r" % rows)
    check(not re.search(r"\d{7,}", "\n".join(screen.split("\n")[3:-1])),
          "no count of seven digits or more on screen")
    check(all(re.match(r"\s*\S+\s{2,}\S+\s{2,}\S+", r) for r in rows if r.strip()),
          "every column keeps a gap: %r" % rows)
    # cpu: 157 s reads 2m37s; main's total 158 s reads 2m38s.
    p.keys("t")
    # The header names the type before the rows under it are drawn.
    screen = p.settled(lambda s: re.search(r"cpu \(us\)", s), "the cpu sample type")
    check("2m37s" in screen and "2m38s" in screen and "min" not in screen,
          "times past a minute read as a clock: %s" % screen)
    # The long name ends in an ellipsis at the right edge; its URL is the
    # base name and line in the row, the whole URL on the status line.
    long_row = next((l for l in screen.split("\n") if "a_function_with" in l), "")
    check(long_row.rstrip().endswith("\u2026") and len(long_row.rstrip()) <= 80,
          "a cut name ends in an ellipsis: %r" % long_row)
    p.close()
    p = explorer(NUMBERS, extra="--sample-type samples")
    p.press(["3"], FLAT_TITLES, "the flat pane")
    screen = p.press(["s"], r"sorted by", "sorted by self")
    screen = p.press(["G"], r"2/2", "the second row")
    statuses = []
    for key, row in (("g", 1), ("j", 2)):
        statuses.append(p.press([key], r"%d/2  \? help" % row, key).split("\n")[-2])
    check(any("_tsc.js:132095" in st and "nested/build" in st for st in statuses),
          "the status line names the URL: %r" % statuses)
    p.close()
    p = Pane("LANG=C LC_ALL=C %s --theme mono %s; sleep 600" % (BINARY, NUMBERS))
    p.keys("3")
    screen = p.settled(lambda s: re.search(FLAT_TITLES, s), "the flat pane under LANG=C")
    long_row = next((l for l in screen.split("\n") if "a_function_with" in l), "")
    check(long_row.rstrip().endswith(">"), "LANG=C: a cut name ends in '>': %r" % long_row)
    p.close()


def base_name_in_row():
    """A short name leaves room: the row shows _tsc.js:132095, not the URL."""
    short = write("short.pb", pprof(
        [b"", b"cpu", b"nanoseconds", b"f", URL.encode()], [(1, 2)],
        [([1], [10**9])], [(3, 4, 132095)]))
    p = explorer(short)
    p.keys("3")
    screen = p.settled(lambda s: re.search(FLAT_TITLES, s), "the flat pane")
    row = next((l for l in screen.split("\n")[3:-1] if " f " in l), "")
    check(row.rstrip().endswith("f  _tsc.js:132095"), "base name and line in the row: %r" % row)
    status = screen.split("\n")[-2]
    check(re.search(r"\u2026.*/build/output/directory/_tsc\.js:132095\s", status),
          "the URL on the status line, its beginning cut: %r" % status)
    p.close()


run_tests([resort_window, deep_indentation, counts_units_names, base_name_in_row])
sys.exit(1 if failures else 0)
