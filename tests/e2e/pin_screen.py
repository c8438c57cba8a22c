"""What the live pin tests (B) read on the screen of a session whose
samples are milliseconds: the runs each side counts, a flat row's total,
and a delta row's means, delta and interval checked against Welch's test
worked out here (welch_ref.py) from the values the fake engine sent."""
import re

from tmux_driver import check
from welch_ref import welch

TOO_EARLY = r"no complete window yet: B pins once one has arrived"
UNITS = {"us": 1e-3, "ms": 1, "s": 1e3}


def runs_shown(screen):
    """(base runs, new runs) the comparison's title counts, or (0, 0)."""
    m = re.search(r"windows 1-(\d+) \((\d+) runs\) -> windows? \d+(?:-\d+)? \((\d+) runs?\)",
                  screen)
    return (int(m.group(2)), int(m.group(3))) if m else (0, 0)


def millis(text):
    """12.3ms, +1.5s, ±3.2ms, 0: in milliseconds."""
    if text == "0":
        return 0.0
    m = re.fullmatch(r"[±]?([+-]?[\d.]+)(us|ms|s)", text)
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def flat_total(screen, name):
    """The function's total in the flat pane, in milliseconds."""
    for line in screen.split("\n"):
        m = re.match(r"\s*\S+\s+\S+%%\s+(\S+)\s+\S+%%\s+\S+%%\s+%s\s" % re.escape(name), line)
        if m:
            return millis(m.group(1))
    return None


def named(line):
    """The function of a delta row: its name before its place (FILE:LINE)."""
    m = re.search(r" (\S+)  \S+\.js:\d+\s*$", line)
    return m.group(1) if m else None


def check_row(rows, coloured, name, before, after):
    """The delta row of `name` against the reference on the per-window
    milliseconds `before` and `after`: means, delta, interval, and dimmed
    exactly when the reference finds it within the noise."""
    want = welch(before, after)
    line = next((l for l in rows if named(l) == name), None)
    check(line is not None, "a row for %s:\n%s" % (name, "\n".join(rows)))
    if line is None:
        return
    m = re.search(r"([\d.]+(?:us|ms|s))\s+([\d.]+(?:us|ms|s))\s+([+-]?[\d.]+(?:us|ms|s)|0)"
                  r"\s+(\u00b1[\d.]+(?:us|ms|s))\s", line)
    check(m is not None, "%s: means, delta and interval: %r" % (name, line))
    if m is None:
        return
    got = [millis(g) for g in m.groups()]
    half = want["high"] - want["delta"]
    for g, w, what in ((got[0], want["mean_a"], "base mean"), (got[1], want["mean_b"], "new mean"),
                       (got[2], want["delta"], "delta"), (got[3], half, "interval")):
        check(g is not None and abs(g - w) <= 0.006 * abs(w) + 0.06,
              "%s: %s %s ms, want %g (%r)" % (name, what, g, w, line))
    significant = want["low"] > 0 or want["high"] < 0
    if name == "planted":
        check(significant, "the reference: planted significant: %r" % want)
    dim = next((l for l in coloured if named(re.sub(r"\x1b\[[0-9;]*m", "", l)) == name), "")
    cells = dim[:dim.find(" %s" % name)]
    check(("\x1b[2m" in cells) == (not significant),
          "%s %s: %r" % (name, "bright" if significant else "dimmed", dim))


def check_comparison(screen, coloured, before, after):
    """planted (significant) listed before steady, each row checked."""
    rows = screen.split("\n")[3:-1]
    order = [named(r) for r in rows]
    check("planted" in order and "steady" in order and
          order.index("planted") < order.index("steady"),
          "planted (significant) before steady:\n%s" % screen)
    for name in ("planted", "steady"):
        check_row(rows, coloured, name, before[name], after[name])
