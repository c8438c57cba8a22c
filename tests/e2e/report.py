#!/usr/bin/env python3
"""--report: the header, the JSON schema, the nesting of tree views, CSV and
text, against the reference numbers in testdata/expected and hand-worked
values for the worked example of time-rules.md."""
import csv
import io
import json
import math
import os
import re
import tempfile

from e2e import TESTDATA, check, finish, wprof, data


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


def report(path, *args):
    r = wprof("--report", *args, path)
    check(r.returncode == 0, "%s %s exits 0: %s" % (path, args, r.stderr))
    return r.stdout


def expected(name):
    return json.load(open(os.path.join(TESTDATA, "expected", name + ".rules.json")))


def key(row):
    """The reference's name for a row: the file's own lineNumber and
    columnNumber, 0-based, where the report's are 1-based."""
    def in_file(place):
        return place - 1 if place > 0 else place
    return "%s %s:%d:%d" % (row["name"], row["url"], in_file(row["line"]),
                            in_file(row["column"]))


# Flat JSON: the schema of the foundation issue, numbers from the reference.
for name in ("validate.cpuprofile", "recursion.cpuprofile", "validate-xs.cpuprofile"):
    ref = expected(name)
    for rule in ("exact", "additive", "divided"):
        out = json.loads(report(data(name), "flat", "--rule", rule, "--format", "json"))
        for field in ("file", "format", "rule", "sample_type", "unit", "duration",
                      "samples", "rows"):
            check(field in out, "%s flat json has %s" % (name, field))
        check(out["rule"] == rule and out["unit"] == "us", "%s rule and unit" % name)
        check(close(out["duration"], ref["duration"]), "%s duration" % name)
        for row in out["rows"]:
            for field in ("name", "url", "line", "column", "self", "total"):
                check(field in row, "%s row has %s" % (name, field))
            want = ref["functions"][key(row)]
            check(close(row["self"], want["self"]), "%s %s self" % (name, key(row)))
            check(close(row["total"], want[rule]),
                  "%s %s %s total %s want %s" % (name, key(row), rule, row["total"], want[rule]))
        totals = [r["total"] for r in out["rows"] if r["total"] is not None]
        check(totals == sorted(totals, reverse=True), "%s sorted by total" % name)
        if rule == "exact" and name.startswith("validate-xs"):
            check("total_unavailable" in out, "XS exact says why it has no total")

# Top-down JSON nests children; each node's total is its self plus its
# children's totals, and the roots add up to the profile.
out = json.loads(report(data("validate.cpuprofile"), "top-down", "--format", "json"))


def walk(row):
    kids = row.get("children", [])
    check(close(row["total"], row["self"] + sum(k["total"] for k in kids)),
          "top-down node %s adds up" % row["name"])
    for k in kids:
        walk(k)


for root in out["rows"]:
    walk(root)
ref = expected("validate.cpuprofile")
check(close(out["rows"][0]["total"], ref["functions"]["(root) :-1:-1"]["exact"]),
      "top-down root is the whole profile")

# Worked example, by hand (time-rules.md): leaf 4 ms = 3 via a + 1 via b.
we = data("worked-example.cpuprofile")
bu = json.loads(report(we, "bottom-up", "--format", "json"))
leaf = next(r for r in bu["rows"] if r["name"] == "leaf")
callers = {c["name"]: c["total"] for c in leaf["children"]}
check(close(leaf["total"], 4000) and callers == {"a": 3000, "b": 1000},
      "bottom-up leaf <- a 3 ms, b 1 ms: %s" % callers)
bu = json.loads(report(we, "bottom-up", "--rule", "divided", "--format", "json"))
leaf = next(r for r in bu["rows"] if r["name"] == "leaf")
callers = {c["name"]: c["total"] for c in leaf["children"]}
check(callers == {"a": 2000, "b": 2000}, "divided bottom-up splits leaf evenly: %s" % callers)

cg = json.loads(report(we, "callgraph", "--format", "json"))
leaf = next(r for r in cg["rows"] if r["name"] == "leaf")
check({c["name"]: c["total"] for c in leaf["callers"]} == {"a": 3000, "b": 1000},
      "callgraph: leaf's callers")
main = next(r for r in cg["rows"] if r["name"] == "main")
check({c["name"]: c["total"] for c in main["callees"]} == {"a": 5000, "b": 1000},
      "callgraph: main's callees")
check(cg["rows"][0]["name"] == "main", "callgraph blocks sorted by total")

# Text: a header naming file, format, duration, samples, sample type, rule.
# (and, for a .cpuprofile, how long its samples last).
text = report(data("validate.cpuprofile"), "flat", "--rule", "divided")
head = text.splitlines()[:5]
for word in ("validate.cpuprofile", "format: cpuprofile", "duration: 908ms",
             "samples: 1797", "sample type: time (us)",
             "sample time: next sample (as DevTools)", "rule: divided"):
    check(any(word in line for line in head), "text header has %r" % word)
text = report(data("validate-xs.cpuprofile"), "flat", "--rule", "exact")
check("n/a" in text and "only a function graph" in text, "text says why exact is n/a")

# CSV carries the same numbers as JSON.
rows = list(csv.DictReader(io.StringIO(report(we, "flat", "--format", "csv"))))
check([r["name"] for r in rows] == ["main", "a", "leaf", "b"], "csv rows in total order")
check(close(float(rows[1]["total"]), 5000) and close(float(rows[1]["self"]), 2000), "csv a")

# CSV tells a tab from a backslash and a t: control characters spelled
# out (never raw), a backslash doubled, commas and quotes quoted (RFC 4180).
NAMES = ["tab\there", "tab\\there", "comma, \"quoted\"", "esc\x1b[2J\u009b"]
WANT = ["tab\\there", "tab\\\\there", "comma, \"quoted\"", "esc\\e[2J\\u009b"]
with tempfile.NamedTemporaryFile("w", suffix=".cpuprofile") as odd:
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "url": "", "lineNumber": -1,
                                     "columnNumber": -1, "scriptId": "0"},
              "children": [2 + i for i in range(len(NAMES))]}]
    nodes += [{"id": 2 + i, "callFrame": {"functionName": name, "url": "", "lineNumber": -1,
                                          "columnNumber": -1, "scriptId": "0"}}
              for i, name in enumerate(NAMES)]
    json.dump({"nodes": nodes, "startTime": 0, "endTime": 5000,
               "samples": [2, 3, 4, 5], "timeDeltas": [1000, 1000, 1000, 1000]}, odd)
    odd.flush()
    text = report(odd.name, "flat", "--format", "csv", "--sort", "name")
    check("\t" not in text and "\x1b" not in text and "\u009b" not in text,
          "csv: no raw control characters")
    names = [r["name"] for r in csv.DictReader(io.StringIO(text)) if r["name"] != "(root)"]
    check(sorted(names) == sorted(WANT), "csv names %r, wanted %r" % (names, WANT))
    check('"comma, ""quoted"""' in text, "csv: a comma and quotes are quoted")
    for name, field in zip(NAMES, WANT):
        got = re.sub(r"\\(\\|t|e|u[0-9a-f]{4})", lambda m: {"\\": "\\", "t": "\t",
                     "e": "\x1b"}.get(m.group(1)) or chr(int(m.group(1)[1:], 16)), field)
        check(got == name, "csv field %r reads back as %r, not %r" % (field, got, name))

# The legacy Node 10 form (head + timestamps, times in seconds) of the same
# profile as chrome65-simple: its endTime is a whole second, earlier than
# the last sample, so that sample lasts 0 instead of the 1972 us the modern
# file gives it (endTime 163140647178 - last sample 163140645206); all else
# equals the chrome65 reference.
legacy = json.loads(report(data("node10-example.cpuprofile"), "flat", "--format", "json"))
modern = expected("chrome65-simple.cpuprofile")["functions"]
by_name = {r["name"]: r for r in legacy["rows"]}
for name, ref_key, last in (("d", "d :13:10", 1972), ("c", "c :9:10", 1972),
                            ("b", "b :5:10", 0), ("(anonymous)", "(anonymous) :0:0", 1972)):
    check(close(by_name[name]["total"], modern[ref_key]["exact"] - last),
          "legacy %s total %s" % (name, by_name[name]["total"]))
check(close(by_name["(anonymous)"]["self"], 1060), "legacy (anonymous) self")

# Sorting and depth options.
out = json.loads(report(we, "flat", "--sort", "self", "--format", "json"))
check([r["name"] for r in out["rows"]][:2] == ["leaf", "a"], "--sort self")
out = json.loads(report(we, "flat", "--sort", "name", "--format", "json"))
check([r["name"] for r in out["rows"]] == ["a", "b", "leaf", "main"], "--sort name")
out = json.loads(report(we, "flat", "--sort", "name", "--reverse", "--format", "json"))
check([r["name"] for r in out["rows"]] == ["main", "leaf", "b", "a"], "--reverse")
out = json.loads(report(we, "top-down", "--depth", "1", "--format", "json"))
check(all("children" not in k for k in out["rows"][0]["children"]), "--depth 1")

# Lines and columns: 1-based in every format, as DevTools shows them (the
# file's callFrame counts from 0; the text report prints url:line:column).
with open(data("validate.cpuprofile")) as f:
    frames = {n["callFrame"]["functionName"]: n["callFrame"] for n in json.load(f)["nodes"]}
cf = frames["f_main_2"]
want = (cf["lineNumber"] + 1, cf["columnNumber"] + 1)
rows = json.loads(report(data("validate.cpuprofile"), "flat", "--format", "json"))["rows"]
got = [(r["line"], r["column"]) for r in rows if r["name"] == "f_main_2"]
check(got == [want], "JSON f_main_2 at %s, want %s" % (got, want))
table = list(csv.DictReader(io.StringIO(report(data("validate.cpuprofile"), "flat",
                                                "--format", "csv"))))
got = [(int(r["line"]), int(r["column"])) for r in table if r["name"] == "f_main_2"]
check(got == [want], "CSV f_main_2 at %s, want %s" % (got, want))
text = report(data("validate.cpuprofile"), "flat")
check("f_main_2  %s:%d:%d" % (cf["url"], want[0], want[1]) in text,
      "text f_main_2 at %d:%d" % want)

finish()
