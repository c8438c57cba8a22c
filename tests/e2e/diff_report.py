#!/usr/bin/env python3
"""wprof-tui --report flat --diff against the two single --report flat
reports of the same files: every number of the diff is a number of one of
them (or their difference), under every rule, in JSON and CSV; one-sided
functions are null on the side that lacks them, a total the rule cannot
give is null on a side that has the function; bad use exits with 2.

usage: diff_report.py WPROF_TUI TESTDATA_DIR
"""
import csv
import io
import json
import math
import subprocess
import sys

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
RULES = ["exact", "additive", "divided"]
PAIRS = [
    ("worked-example.cpuprofile", "worked-example-new.cpuprofile"),
    ("validate.cpuprofile", "validate-xs.cpuprofile"),
    ("validate-xs.cpuprofile", "validate.cpuprofile"),
    ("validate.cpuprofile", "validate.cpuprofile"),
    ("recursion.cpuprofile", "chrome65-simple.cpuprofile"),
]
failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message, file=sys.stderr)


def check(condition, message):
    if not condition:
        fail(message)


def close(got, want):
    if got is None or want is None:
        return got is None and want is None
    return abs(got - want) <= 1e-9 * max(1.0, abs(got), abs(want))


def run(*args, status=0):
    p = subprocess.run([WPROF, *args], capture_output=True, text=True)
    check(p.returncode == status,
          f"{' '.join(args)}: exit {p.returncode}, wanted {status}: {p.stderr}")
    return p


def path(name):
    return f"{TESTDATA}/{name}"


def key(obj):
    return (obj["name"], obj["url"], obj["line"], obj["column"])


def single(name, rule, *extra):
    report = json.loads(run("--report", "flat", "--rule", rule, "--format",
                            "json", *extra, path(name)).stdout)
    rows = {}
    for row in report["rows"]:
        check(key(row) not in rows, f"{name}: {key(row)} twice")
        rows[key(row)] = row
    return report, rows


def sort_key(row):
    return -1 if row["delta"] is None else abs(row["delta"])


def check_side(what, side, diff_row, single_rows, seen, scale, present_rows):
    obj = diff_row[side]
    if obj is None:
        return 0.0
    k = key(obj)
    want = single_rows.get(k)
    if want is None and k in present_rows:
        # Listed by no single report under a rule without totals on that
        # side, but its calls hold time (additive): present, total n/a.
        check(k not in seen, f"{what}: {side} {k} in two rows")
        seen.add(k)
        check(obj["total"] is None and
              close(obj["self"], present_rows[k]["self"] * scale),
              f"{what}: {side} {k}: {obj['self']}/{obj['total']} is not "
              f"present with a total of n/a")
        return None
    check(want is not None, f"{what}: {side} {k} not in the single report")
    if want is None:
        return 0.0
    check(k not in seen, f"{what}: {side} {k} in two rows")
    seen.add(k)
    want_total = None if want["total"] is None else want["total"] * scale
    check(close(obj["self"], want["self"] * scale) and close(obj["total"], want_total),
          f"{what}: {side} {k}: {obj['self']}/{obj['total']}, single report "
          f"{want['self']}/{want['total']} (x{scale})")
    return obj["total"]


def check_pair(base, new, rule, normalize):
    what = f"{base} vs {new}, {rule}{' normalized' if normalize else ''}"
    base_report, base_rows = single(base, rule)
    new_report, new_rows = single(new, rule)
    present = [single(name, "additive")[1] if "total_unavailable" in report else {}
               for name, report in ((base, base_report), (new, new_report))]
    args = ["--report", "flat", "--diff", "--rule", rule, "--format", "json"]
    diff = json.loads(run(*args, *(["--normalize"] if normalize else []),
                          path(base), path(new)).stdout)
    check(diff["rule"] == rule and diff["normalize"] == normalize, f"{what}: header")
    check(diff["base"]["file"] == path(base) and diff["new"]["file"] == path(new),
          f"{what}: files")
    scales = [100 / r["profile_total"] if normalize else 1
              for r in (base_report, new_report)]
    seen = (set(), set())
    for row in diff["rows"]:
        check(row["base"] is not None or row["new"] is not None,
              f"{what}: {key(row)} on neither side")
        # Named after the base side's function wherever it has one.
        if row["base"] or row["match"] == "none":
            check(key(row) == key(row["base"] or row["new"]),
                  f"{what}: {key(row)} is not named after its side")
        b = check_side(what, "base", row, base_rows, seen[0], scales[0], present[0])
        n = check_side(what, "new", row, new_rows, seen[1], scales[1], present[1])
        want = None if b is None or n is None else n - b
        check(close(row["delta"], want),
              f"{what}: {key(row)} delta {row['delta']}, wanted {want}")
        one_sided = row["base"] is None or row["new"] is None
        check(row["match"] != "none" or one_sided,
              f"{what}: {key(row)} on both sides but unpaired")
    for i, (rows, present_rows) in enumerate(((base_rows, present[0]),
                                              (new_rows, present[1]))):
        want = set(rows) | set(present_rows)
        check(seen[i] == want, f"{what}: side {i}: rows {sorted(seen[i] ^ want)} "
              f"are in the diff or a single report but not both")
    deltas = [sort_key(r) for r in diff["rows"]]
    check(deltas == sorted(deltas, reverse=True), f"{what}: not sorted by |delta|")
    if base == new:
        check(all(r["delta"] in (0, None) and r["match"] == "same"
                  for r in diff["rows"]), f"{what}: a profile differs from itself")
    return diff


def check_csv_and_text(base, new, diff_json):
    csv_out = run("--report", "flat", "--diff", "--rule", diff_json["rule"],
                  "--format", "csv", path(base), path(new)).stdout
    rows = list(csv.DictReader(io.StringIO(csv_out)))
    check(len(rows) == len(diff_json["rows"]), f"{base} vs {new}: CSV rows")
    for got, want in zip(rows, diff_json["rows"]):
        def number(field):
            return None if got[field] == "" else float(got[field])
        for side in ("base", "new"):
            for field in ("self", "total"):
                w = want[side][field] if want[side] else None
                check(close(number(f"{side}_{field}"), w),
                      f"CSV {got['name']} {side}_{field}: {got[f'{side}_{field}']}")
        check(close(number("delta"), want["delta"]), f"CSV {got['name']} delta")
        check(got["match"] == want["match"] and got["name"] == want["name"],
              f"CSV {got['name']}: match {got['match']}")
        check(got["base_file"] == path(base) and got["new_file"] == path(new),
              f"CSV {got['name']}: files")
    text = run("--report", "flat", "--diff", path(base), path(new)).stdout
    lines = text.splitlines()
    check(any(l.startswith("# base") and path(base) in l for l in lines) and
          any(l.startswith("# new") and path(new) in l for l in lines),
          "text report does not name both files")


def row_named(diff, name):
    rows = [r for r in diff["rows"] if r["name"] == name]
    check(len(rows) == 1, f"{len(rows)} rows named {name}")
    return rows[0] if rows else None


def check_engines(diff):
    """V8 against XS: same program, other urls and engines."""
    add = row_named(diff, "add")
    if add:
        check(add["match"] == "name" and add["base"]["url"] != add["new"]["url"],
              f"add paired as {add['match']}")
    program = row_named(diff, "(program)")
    if program:
        check(program["new"] is None and program["match"] == "none",
              "(program) is not base-only")
    string = row_named(diff, "String")
    if string:
        check(string["base"] is None, "String is not new-only")
    root = row_named(diff, "(root)")
    if root:
        check(root["match"] == "kind" and root["new"]["name"] == "(host)",
              "(root) is not paired with (host)")


def check_usage():
    one, two = path("worked-example.cpuprofile"), path("worked-example-new.cpuprofile")
    run(one, two, status=2)
    run("--report", "top-down", "--diff", one, two, status=2)
    run("--report", "flat", "--diff", one, status=2)
    run("--report", "flat", "--normalize", one, status=2)
    run("--report", "flat", "--diff", "--sort", "calls", one, two, status=2)
    p = run("--report", "flat", "--diff", one, path("missing.cpuprofile"), status=2)
    check(p.stderr.startswith(f"wprof-tui: {path('missing.cpuprofile')}: "),
          f"missing file: {p.stderr!r}")
    check(p.stdout == "", "output despite a missing file")
    p = run("--report", "flat", "--diff", "--sort", "regression", "--format",
            "json", one, two)
    first = json.loads(p.stdout)["rows"][0]
    check(first["name"] == "c", f"largest regression first: {first['name']}")


def check_filtered():
    """--diff with a filter and source paths: both sides focused as the
    single reports are (under ASan, with detect_leaks, the options freed
    on this way out too)."""
    base, new = "worked-example.cpuprofile", "worked-example-new.cpuprofile"
    extra = ("--focus", "^b$", "--source-path", TESTDATA, "--trim-path", "/tmp")
    p = run("--report", "flat", "--diff", "--rule", "exact", "--format", "json", *extra,
            path(base), path(new))
    diff = json.loads(p.stdout) if p.returncode == 0 else {"rows": []}
    names = sorted(r["name"] for r in diff["rows"])
    check(names == ["b", "leaf", "main"], f"--diff --focus ^b$: rows {names}")
    for side, name in (("base", base), ("new", new)):
        _, rows = single(name, "exact", *extra)
        for row in diff["rows"]:
            want = rows.get(key(row[side]))
            check(want is not None and close(row[side]["total"], want["total"]) and
                  close(row[side]["self"], want["self"]),
                  f"--diff --focus ^b$: {side} {row['name']} {row[side]} is not {want}")


def check_not_applicable():
    """A stream (exact applies) against the XS file profiler's function
    graph (no exact): under exact, `main` is on both sides, its new total
    n/a, so its delta is n/a too, never -100 % or only-in-base; functions
    the graph lacks are still only in base."""
    base, new = path("validate.xsbug"), path("validate-xs.cpuprofile")
    args = ["--report", "flat", "--diff", "--rule", "exact"]
    diff = json.loads(run(*args, "--format", "json", base, new).stdout)
    main = row_named(diff, "main")
    if main:
        check(main["base"] is not None and main["new"] is not None and
              main["new"]["self"] == 0 and main["new"]["total"] is None and
              main["delta"] is None and main["delta_pct"] is None,
              f"exact, stream vs XS graph: main is not present with n/a: {main}")
    rows = {r["name"]: r for r in
            csv.DictReader(io.StringIO(run(*args, "--format", "csv", base, new).stdout))}
    main = rows.get("main", {})
    check(main.get("new_self") == "0" and main.get("new_total") == "" and
          main.get("delta") == "" and main.get("delta_pct") == "",
          f"CSV: main is not present with n/a on the new side: {main}")
    text = run(*args, base, new).stdout.splitlines()
    line = [l for l in text if l.split()[-1:] != [] and " main  " in l]
    check(len(line) == 1 and line[0].split()[:6] == ["0", "8.26s", "0", "n/a", "n/a", "n/a"],
          f"text: main is not 'n/a' on the new side: {line}")
    check(any(l == "# functions: 11 in both, 0 only in base (-), 2 only in new (+); "
                   "10 paired by name or kind only (~)" for l in text),
          f"text: counts {[l for l in text if l.startswith('# functions')]}")
    # Absent is still absent: V8's (program) has no XS counterpart.
    diff = json.loads(run(*args, "--format", "json", path("validate.cpuprofile"), new).stdout)
    program = row_named(diff, "(program)")
    if program:
        check(program["new"] is None and program["delta_pct"] == -100,
              f"exact: (program) is not only in base: {program}")


def check_xs_pair():
    """The stream and the XS file profiler of one program name a native
    differently; paired by the name's tail and place, on both sides."""
    diff = json.loads(run("--report", "flat", "--diff", "--format", "json",
                          path("xs-pair/phases.xsbug"),
                          path("xs-pair/phases.cpuprofile")).stdout)
    getter = row_named(diff, "String.prototype.@fxStringAccessorGetter")
    if getter:
        check(getter["match"] == "tail+place" and getter["new"] is not None and
              getter["new"]["name"] == "@fxStringAccessorGetter",
              f"the getter is not paired: {getter}")
    check(not [r for r in diff["rows"] if r["name"] == "@fxStringAccessorGetter"],
          "@fxStringAccessorGetter has a row of its own")


for base, new in PAIRS:
    for rule in RULES:
        for normalize in (False, True):
            diff = check_pair(base, new, rule, normalize)
            if (base, new, rule, normalize) == PAIRS[1] + ("additive", False):
                check_engines(diff)
            if not normalize:
                check_csv_and_text(base, new, diff)
check_usage()
check_filtered()
check_not_applicable()
check_xs_pair()
print(f"{failures} failures", file=sys.stderr)
sys.exit(1 if failures else 0)
