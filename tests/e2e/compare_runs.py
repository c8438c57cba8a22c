#!/usr/bin/env python3
"""Several runs a side (--base) and the --fail-if-slower gate, on six runs
a side of one Node program (testdata/compare-n/work.js, profiled with
node --cpu-prof): `planted` does 2 units more a round on the new side,
`steady` the same every run, `noisy` a random amount drawn once a run.

Every expected number is worked out here from each run's own --report
flat (per-run totals, and their shares of profile_total): the means, the
sample deviations, Welch's t and degrees of freedom, and p and the 95 %
interval from Student's t density integrated numerically (Simpson's rule,
not the continued fraction wprof-tui uses).

usage: compare_runs.py WPROF_TUI TESTDATA_DIR
"""
import csv
import io
import json
import subprocess
import sys
import tempfile

from welch_ref import welch

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
DIR = f"{TESTDATA}/compare-n"
RUNS = 6
BASE = [f"{DIR}/base{i}.cpuprofile" for i in range(1, RUNS + 1)]
NEW = [f"{DIR}/new{i}.cpuprofile" for i in range(1, RUNS + 1)]
URL = "file:///tmp/cn/v3/work.js"
WATCHED = ["planted", "steady", "noisy"]
failures = 0


def check(condition, message):
    global failures
    if not condition:
        failures += 1
        print("FAIL:", message, file=sys.stderr)


def close(got, want, rel=1e-9):
    if got is None or want is None:
        return got is None and want is None
    return abs(got - want) <= rel * max(1.0, abs(got), abs(want))


def run(*args):
    return subprocess.run([WPROF, *args], capture_output=True, text=True)


def base_args(files):
    return [a for f in files for a in ("--base", f)]


def diff_json(*extra, base=BASE, new=NEW):
    p = run("--report", "flat", "--diff", "--format", "json", *extra,
            *base_args(base), *new)
    check(p.returncode == 0, f"diff {extra}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def run_values(path, normalize):
    """name -> total of the watched functions in one run, read alone."""
    report = json.loads(run("--report", "flat", "--format", "json", path).stdout)
    values = {}
    for row in report["rows"]:
        if row["name"] in WATCHED and row["url"] == URL:
            scale = 100 / report["profile_total"] if normalize else 1
            values[row["name"]] = row["total"] * scale
    return values


def rows_by_name(report):
    return {r["name"]: r for r in report["rows"] if r["url"] == URL}


def check_runs(normalize):
    label = "--normalize" if normalize else "absolute"
    extra = ["--normalize"] if normalize else []
    per_base = [run_values(f, normalize) for f in BASE]
    per_new = [run_values(f, normalize) for f in NEW]
    rows = rows_by_name(diff_json(*extra))
    for name in WATCHED:
        row = rows.get(name)
        check(row is not None, f"{label}: no row for {name}")
        if row is None:
            continue
        a = [v.get(name, 0) for v in per_base]
        b = [v.get(name, 0) for v in per_new]
        want = welch(a, b)
        for got, w in zip(row["base"]["runs"], a):
            check(close(got, w), f"{label} {name}: base run {got} != {w}")
        for got, w in zip(row["new"]["runs"], b):
            check(close(got, w), f"{label} {name}: new run {got} != {w}")
        check(len(row["base"]["runs"]) == RUNS and len(row["new"]["runs"]) == RUNS,
              f"{label} {name}: runs")
        pairs = [(row["base"]["mean"], want["mean_a"]), (row["new"]["mean"], want["mean_b"]),
                 (row["base"]["total"], want["mean_a"]), (row["base"]["sd"], want["sd_a"]),
                 (row["new"]["sd"], want["sd_b"]), (row["delta"], want["delta"]),
                 (row["t"], want["t"]), (row["df"], want["df"])]
        for got, w in pairs:
            check(close(got, w), f"{label} {name}: {got} != {w}")
        check(close(row["p"], want["p"], 1e-5), f"{label} {name}: p {row['p']} != {want['p']}")
        check(close(row["delta_low"], want["low"], 1e-5),
              f"{label} {name}: low {row['delta_low']} != {want['low']}")
        check(close(row["delta_high"], want["high"], 1e-5),
              f"{label} {name}: high {row['delta_high']} != {want['high']}")
        check(close(row["delta_pct"], 100 * want["delta"] / want["mean_a"]),
              f"{label} {name}: delta_pct")
        check(row["significant"] == (want["p"] < 0.05), f"{label} {name}: significant")
    # The planted change is real, the others are within the noise.
    check(rows["planted"]["significant"] is True, f"{label}: planted not significant")
    check(rows["planted"]["delta_low"] > 0, f"{label}: planted's interval holds 0")
    for name in ("steady", "noisy"):
        check(rows[name]["significant"] is False, f"{label}: {name} significant")
        check(rows[name]["delta_low"] < 0 < rows[name]["delta_high"],
              f"{label}: {name}'s interval excludes 0")


def check_one_run_a_side():
    """One run a side: no spread, so p and significance are null; the
    numbers are those of the plain two-file diff."""
    one = rows_by_name(diff_json(base=BASE[:1], new=NEW[:1]))
    two = rows_by_name(json.loads(run("--report", "flat", "--diff", "--format", "json",
                                      BASE[0], NEW[0]).stdout))
    alone_a, alone_b = run_values(BASE[0], False), run_values(NEW[0], False)
    for name in WATCHED:
        for rows in (one, two):
            r = rows[name]
            check(r["p"] is None and r["significant"] is None and r["delta_low"] is None,
                  f"one run: {name} has a test: {r['p']} {r['significant']}")
            check(r["base"]["runs"] == [alone_a[name]] and r["new"]["runs"] == [alone_b[name]],
                  f"one run: {name} runs")
            check(close(r["delta"], alone_b[name] - alone_a[name]), f"one run: {name} delta")
            check(r["base"]["sd"] is None, f"one run: {name} sd")
    text = run("--report", "flat", "--diff", *base_args(BASE[:2]), NEW[0]).stdout
    check("a side has one run: no spread" in text, "one run: the text says so")


def check_text_and_csv():
    p = run("--report", "flat", "--diff", *base_args(BASE), *NEW)
    lines = p.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("base self"))
    rows = lines[start + 1:]
    check(" ! " in rows[0] and "planted" in rows[0], f"text: planted not first and marked: {rows[0]}")
    marked = [line for line in rows if " ! " in line]
    check(all(" ! " in line for line in rows[:len(marked)]), "text: significant rows first")
    for line in rows:
        if " steady " in line or " noisy " in line:
            check(" ! " not in line, f"text: marked: {line}")
    table = list(csv.DictReader(io.StringIO(
        run("--report", "flat", "--diff", "--format", "csv", *base_args(BASE), *NEW).stdout)))
    by = {r["name"]: r for r in table if r["url"] == URL}
    per_base = [run_values(f, False) for f in BASE]
    check([float(x) for x in by["planted"]["base_runs"].split(";")] ==
          [v["planted"] for v in per_base], "csv: base_runs")
    check(by["planted"]["significant"] == "true" and by["steady"]["significant"] == "false",
          "csv: significant")
    for col in ("base_mean", "new_mean", "delta_low", "delta_high", "p"):
        check(by["planted"][col] != "", f"csv: {col} empty")


def check_gate():
    args = ["--report", "flat", "--diff", *base_args(BASE), *NEW]
    p = run("--fail-if-slower", "50", *args)
    check(p.returncode == 1, f"gate 50: exit {p.returncode}")
    check("slower: planted" in p.stderr, f"gate 50: planted not named: {p.stderr}")
    check("slower: steady" not in p.stderr and "slower: noisy" not in p.stderr,
          f"gate 50: names noise: {p.stderr}")
    p = run("--normalize", "--fail-if-slower", "50:^plant", *args)
    check(p.returncode == 1 and "planted" in p.stderr, f"gate normalized: {p.returncode}")
    # planted rose by about 200 %: not by more than 1000 %.  (Among the
    # fifty functions of Node's start-up some pass p < 0.05 by chance:
    # the regular expression keeps to the program's.)
    p = run("--fail-if-slower", "1000:^(planted|steady|noisy)$", *args)
    check(p.returncode == 0, f"gate 1000: exit {p.returncode}: {p.stderr}")
    p = run("--fail-if-slower", "0:^(steady|noisy)$", *args)
    check(p.returncode == 0, f"gate on the unchanged: exit {p.returncode}: {p.stderr}")
    # The base runs against themselves: nothing slower.
    p = run("--report", "flat", "--diff", "--fail-if-slower", "0", *base_args(BASE[:3]), *BASE[3:])
    check(p.returncode == 0, f"gate base against base: exit {p.returncode}: {p.stderr}")
    for bad in (["--fail-if-slower", "5:(", *args],
                ["--fail-if-slower", "x", *args],
                ["--fail-if-slower", "5", "--report", "flat", "--diff", BASE[0], NEW[0]],
                ["--report", "flat", "--diff", "--base", BASE[0]],
                ["--report", "top-down", "--base", BASE[0], NEW[0]],
                ["--report", "flat", "--diff", "--base", BASE[0], f"{DIR}/missing.cpuprofile"]):
        p = run(*bad)
        check(p.returncode == 2 and p.stderr, f"{bad}: exit {p.returncode}")


def check_mixed_formats():
    """A run of another format (the first base run written as pprof) is a
    run like the others: the same values, paired by name, file and line."""
    with tempfile.TemporaryDirectory() as tmp:
        pprof = f"{tmp}/base1.pb.gz"
        p = run("--export", "pprof", "-o", pprof, BASE[0])
        check(p.returncode == 0, f"export: {p.stderr}")
        rows = rows_by_name(diff_json(base=[pprof] + BASE[1:]))
        plain = rows_by_name(diff_json())
        for name in WATCHED:
            check(rows[name]["base"]["runs"] == plain[name]["base"]["runs"],
                  f"mixed: {name}: {rows[name]['base']['runs']}")
            check(close(rows[name]["p"], plain[name]["p"]), f"mixed: {name}: p")


check_runs(False)
check_runs(True)
check_one_run_a_side()
check_text_and_csv()
check_gate()
check_mixed_formats()
sys.exit(1 if failures else 0)
