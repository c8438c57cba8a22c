#!/usr/bin/env python3
"""Headers and percentages (issue 24), end to end through the binary.

    percentages.py WPROF TESTDATA report  after a filter, % of the whole
                   profile as go tool pprof -top -focus, of what is left
                   with --relative as its -relative_percentages (its
                   output in testdata/pprof-focus); the header's sample
                   count through filters, --mine and --granularity, counted
                   from the file
    percentages.py WPROF TESTDATA tui     the explorer: a pprof CPU
                   profile's duration (pprof's "Duration: 1.22s"), the %
                   key switching between the two bases, ? listing it

Expected numbers come from go tool pprof's output and from the files
themselves, never from wprof-tui's own output."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from profile_checks import Checks  # noqa: E402

WPROF, TESTDATA, WHAT = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
FOCUS_DIR = os.path.join(TESTDATA, "pprof-focus")
PPROF = os.path.join(FOCUS_DIR, "ackermann.pprof")
checks = Checks(WPROF)

PPROF_ROW = re.compile(r"^\s*(\S+)\s+([\d.]+)%\s+[\d.]+%\s+(\S+)\s+([\d.]+)%\s+(\S+)$")
# self, self%, pprof's sum% (flat), total, total%, name
OUR_ROW = re.compile(r"^\s*(\S+)\s+([\d.]+)%\s+(?:[\d.]+%\s+)?(\S+)\s+([\d.]+)%\s+(\S+)")


def percents(text, row):
    """{name: (flat %, cum %)} from the rows of a text report."""
    got = {}
    for line in text.splitlines():
        m = row.match(line)
        if m:
            got[m.group(5)] = (float(m.group(2)), float(m.group(4)))
    return got


def check_focus(function):
    for relative in (False, True):
        name = f"top-focus-{function}{'-relative' if relative else ''}.txt"
        with open(os.path.join(FOCUS_DIR, name)) as f:
            want = percents(f.read(), PPROF_ROW)
        extra = ["--relative"] if relative else []
        ours = checks.run(["--report", "flat", "--focus", function, PPROF, *extra]).stdout
        got = percents(ours, OUR_ROW)
        if not want:
            checks.fail(f"{name}: no rows read")
        for fn, (flat, cum) in want.items():
            g = got.get(fn)
            if not g or abs(g[0] - flat) > 0.006 or abs(g[1] - cum) > 0.006:
                checks.fail(f"--focus {function}{' --relative' if relative else ''} {fn}: "
                            f"{g}, go tool pprof {(flat, cum)}")
        report = json.loads(checks.run(["--report", "flat", "--focus", function, PPROF,
                                        "--format", "json", *extra]).stdout)
        with open(os.path.join(FOCUS_DIR, name)) as f:
            checks.compare_with_top(name, report, f.read())


def check_sample_counts():
    """validate.cpuprofile's samples, counted here from its `samples`."""
    path = os.path.join(TESTDATA, "validate.cpuprofile")
    with open(path) as f:
        want = len(json.load(f)["samples"])
    for extra in ([], ["--focus", "."], ["--hide", "^\\(idle\\)$"], ["--mine", "--root", "/"],
                  ["--granularity", "files"]):
        text = checks.run(["--report", "flat", path, *extra]).stdout
        if f"samples: {want} " not in text:
            checks.fail(f"{' '.join(extra) or 'no option'}: header "
                        f"{[l for l in text.splitlines() if 'samples:' in l]}, want {want}")


def check_cpuprofile_focus():
    """A .cpuprofile through --focus: % of the whole profile (the samples'
    durations, worked out from the file), --relative of what is left."""
    path = os.path.join(TESTDATA, "validate.cpuprofile")
    with open(path) as f:
        prof = json.load(f)
    t, times = prof["startTime"], []
    for d in prof["timeDeltas"]:
        t += d
        times.append(t)
    whole = max(prof["endTime"], max(times)) - min(times)
    for extra, relative in (([], False), (["--relative"], True)):
        report = json.loads(checks.run(["--report", "flat", "--focus", "^f_half", path,
                                        "--format", "json", *extra]).stdout)
        left = sum(r["self"] for r in report["rows"])
        want = left if relative else whole
        if not 0 < left < whole or abs(report["profile_total"] - want) > 1e-6 * whole:
            checks.fail(f"--focus ^f_half {' '.join(extra)}: % of {report['profile_total']}, "
                        f"want {want} (the whole: {whole}, left: {left})")


def test_report():
    check_cpuprofile_focus()
    check_focus("main.busy")
    check_focus("main.ackermann")
    check_sample_counts()


def test_tui():
    from tmux_driver import Pane, check, failures, run_tests

    def duration_and_key():
        p = Pane("LANG=C.UTF-8 %s --focus main.busy %s; echo EXIT=$?; sleep 600"
                 % (WPROF, PPROF), 100, 30)
        try:
            # The flat pane: self, self%, total, total%, pprof's sum%, name.
            # "3 flat" is on every pane's tabs: wait for the row itself.
            s = p.press(["3"], r"80ms +[\d.]+% +110ms +27\.50% +[\d.]+% +main\.busy",
                        "the flat pane: % of the whole profile, as pprof -focus")
            header = s.split("\n")[0]
            # go tool pprof -top: "Duration: 1.22s" (testdata/pprof-focus/top.txt).
            check(" 1.22s " in header and "n/a" not in header, "duration: " + header)
            # Both rows in one wait: the screen is drawn a row at a time.
            p.press(["%"], r"110ms +100\.00% +[\d.]+% +main\.busy[\s\S]*"
                    r"30ms +27\.27% +30ms +27\.27% +[\d.]+% +runtime\.asyncPreempt",
                    "% of what the filter left, as pprof -relative_percentages")
            p.press(["%"], r"110ms +27\.50% +[\d.]+% +main\.busy", "% of the whole again")
            p.press(["?"], r"^ *% +% of the whole / of what is left", "? listing %")
        finally:
            p.close()

    def relative_option():
        p = Pane("LANG=C.UTF-8 %s --relative --focus main.busy %s; echo EXIT=$?; sleep 600"
                 % (WPROF, PPROF), 100, 30)
        try:
            p.press(["3"], r"110ms +100\.00% +[\d.]+% +main\.busy", "--relative in the explorer")
        finally:
            p.close()

    run_tests([duration_and_key, relative_option])
    for f in failures:
        checks.fail(f)


if WHAT == "report":
    test_report()
else:
    test_tui()
checks.finish()
