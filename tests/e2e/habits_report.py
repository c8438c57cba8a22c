#!/usr/bin/env python3
"""--report flat's sum% (pprof's) and --min-share, in text, CSV and JSON,
and --report sandwich --function, on testdata/sandwich.cpuprofile, whose
numbers are worked by hand in testdata/README.md: 16 ms in all; self
main 1, work 5, leaf 9, b 1, a 0 ms; total main 16, work 10, leaf 9,
b 6, a 5 ms.

usage: habits_report.py WPROF_BINARY TESTDATA_DIR"""
import csv
import io
import json
import os
import re
import subprocess
import sys

WPROF = sys.argv[1]
PROFILE = os.path.join(sys.argv[2], "sandwich.cpuprofile")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(*args):
    return subprocess.run([WPROF, *args, PROFILE], capture_output=True, text=True)


def sum_column():
    # Flat by total: (root) 0, main 1, work 5, leaf 9, b 1, a 0 ms of self,
    # so the running sums are 0, 6.25, 37.5, 93.75, 100, 100 %.
    want = [0, 6.25, 37.5, 93.75, 100, 100]
    out = run("--report", "flat").stdout
    check(re.search(r"^\s+self\s+self%\s+sum%\s+total\s+total%\s+name$", out, re.M),
          "text: a sum% column after self%:\n" + out)
    rows = [l.split() for l in out.split("\n") if l and not l.startswith("#")][1:]
    check([float(r[2].rstrip("%")) for r in rows] == want, "text sum%%: %r" % rows)
    rows = list(csv.DictReader(io.StringIO(run("--report", "flat", "--format", "csv").stdout)))
    check([float(r["sum_pct"]) for r in rows] == want, "CSV sum_pct: %r" % rows)
    data = json.loads(run("--report", "flat", "--format", "json").stdout)
    check([r["sum_pct"] for r in data["rows"]] == want, "JSON sum_pct: %r" % data["rows"])


def min_share():
    # Under 35 %: a (31.25 %) goes; b (37.5 %) stays.
    out = run("--report", "flat", "--min-share", "35").stdout
    check("# hidden: rows under 35% of the profile (--min-share)" in out,
          "text header says so:\n" + out)
    check(" a  " not in out and re.search(r"^.* b  file:", out, re.M),
          "a hidden, b shown:\n" + out)
    res = run("--report", "flat", "--min-share", "35", "--format", "csv")
    check([r["name"] for r in csv.DictReader(io.StringIO(res.stdout))] ==
          ["(root)", "main", "work", "leaf", "b"], "CSV rows:\n" + res.stdout)
    check("rows under 35% of the profile hidden" in res.stderr, "CSV note: " + res.stderr)
    data = json.loads(run("--report", "flat", "--min-share", "35", "--format", "json").stdout)
    check(data.get("min_share") == 35, "JSON min_share: %r" % data.get("min_share"))
    # A tree loses the row and what is under it: leaf's 4 ms under main
    # (25 %) goes, and so does a (31.25 %) with its work.
    out = run("--report", "top-down", "--min-share", "35").stdout
    check(not re.search(r"^\s+\S+\s+\S+\s+\S+\s+\S+\s+(leaf|a)\b", out, re.M),
          "top-down without leaf and a:\n" + out)
    check(re.search(r"^\s+1ms\s+6\.25%\s+6ms\s+37\.50%\s+b\b", out, re.M),
          "top-down keeps b:\n" + out)
    bad = run("--report", "flat", "--min-share", "150")
    check(bad.returncode == 2 and "--min-share takes a percentage" in bad.stderr,
          "--min-share 150: %d %s" % (bad.returncode, bad.stderr))


def sandwich_report():
    out = run("--report", "sandwich", "--function", "^w").stdout
    check(re.search(r"# callers of work\n\s+5ms\s+31\.25%\s+10ms\s+62\.50%\s+work", out),
          "callers' root:\n" + out)
    check(re.search(r"# callees of work\n\s+3ms\s+18\.75%\s+10ms\s+62\.50%\s+work", out),
          "callees' root:\n" + out)
    check(re.search(r"^\s+4ms\s+25\.00%\s+4ms\s+25\.00%\s+leaf", out, re.M), "leaf:\n" + out)
    rows = list(csv.DictReader(io.StringIO(
        run("--report", "sandwich", "--function", "work", "--format", "csv").stdout)))
    check([(r["role"], r["name"]) for r in rows if r["depth"] == "1"] ==
          [("caller", "a"), ("caller", "b"), ("caller", "work"),
           ("callee", "leaf"), ("callee", "work")], "CSV roles: %r" % rows)
    missing = run("--report", "sandwich", "--function", "nothing")
    check(missing.returncode == 2 and "no function matches 'nothing'" in missing.stderr,
          "no match: %d %s" % (missing.returncode, missing.stderr))
    alone = run("--report", "sandwich")
    check(alone.returncode == 2 and "--function" in alone.stderr,
          "sandwich without --function: %d %s" % (alone.returncode, alone.stderr))


sum_column()
min_share()
sandwich_report()
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
