#!/usr/bin/env python3
"""--range: a range's numbers equal those of the profile cut to the same
samples.  The cut is written with --export cpuprofile --range, loaded back,
and its flat report compared with --report flat --range under every rule;
the report header states the range; bad ranges exit 2 with a message."""
import json
import math
import os
import tempfile

from e2e import TESTDATA, check, finish, wprof


def run(*args):
    return wprof(*args)


def flat(path, rule, *extra):
    r = run("--report", "flat", "--format", "json", "--rule", rule, *extra, path)
    check(r.returncode == 0, "%s %s %s: %s" % (path, rule, extra, r.stderr))
    return json.loads(r.stdout) if r.returncode == 0 else {"rows": []}


def rows_by_function(report):
    return {(r["name"], r["url"], r["line"], r["column"]): (r["self"], r["total"])
            for r in report["rows"]}


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)


PROFILES = ["worked-example.cpuprofile", "validate.cpuprofile", "recursion.cpuprofile",
            "node10-example.cpuprofile", "chrome65-simple.cpuprofile"]
RANGES = ["20%-60%", "#2-#40", "1ms-", "-50%"]

with tempfile.TemporaryDirectory() as tmp:
    for name in PROFILES:
        path = os.path.join(TESTDATA, name)
        for spec in RANGES:
            cut = os.path.join(tmp, "cut.cpuprofile")
            r = run("--export", "cpuprofile", "--range", spec, "-o", cut, path)
            if r.returncode == 2 and "no sample" in r.stderr:
                continue  # a small profile may have none there
            check(r.returncode == 0, "export %s %s: %s" % (name, spec, r.stderr))
            for rule in ("exact", "additive", "divided"):
                ranged = flat(path, rule, "--range", spec)
                loaded = flat(cut, rule)
                check(ranged.get("range", "").startswith("range "),
                      "%s %s: the JSON report states the range" % (name, spec))
                check(close(ranged.get("duration"), loaded.get("duration")) and
                      ranged.get("samples") == loaded.get("samples"),
                      "%s %s %s: duration and samples" % (name, spec, rule))
                a, b = rows_by_function(ranged), rows_by_function(loaded)
                check(a.keys() == b.keys(),
                      "%s %s %s: the same functions" % (name, spec, rule))
                for k in a.keys() & b.keys():
                    check(close(a[k][0], b[k][0]) and close(a[k][1], b[k][1]),
                          "%s %s %s %s: %s != %s" % (name, spec, rule, k, a[k], b[k]))

# The worked example cut at 3 ms, by hand: main>b>leaf 1 ms, main>a 2 ms.
path = os.path.join(TESTDATA, "worked-example.cpuprofile")
rows = rows_by_function(flat(path, "divided", "--range", "3ms-"))
by_name = {k[0]: v for k, v in rows.items()}
check(by_name == {"main": (0, 3000), "a": (2000, 2000), "b": (0, 1000),
                  "leaf": (1000, 1000)}, "worked example 3ms-: %s" % by_name)
text = run("--report", "flat", "--range", "3ms-", path).stdout
check("# range 3.0ms-6.0ms of 6.0ms (samples #2-#3)" in text,
      "the text header states the range:\n" + text)

# Bad ranges: a usage error or a message about the file, exit 2.
for spec, want in (("3", "START-END"), ("1-2", "needs a unit"),
                   ("5.5ms-5.9ms", "no sample"), ("200%-300%", "past 100%")):
    r = run("--report", "flat", "--range", spec, path)
    check(r.returncode == 2 and want in r.stderr,
          "--range %s: exit %d %r" % (spec, r.returncode, r.stderr))
# The profile's length in its own unit (worked-example: 3 samples, 6 ms).
r = run("--report", "flat", "--range", "50s-", path)
check(r.returncode == 2 and "the profile has 3 samples over 6ms)" in r.stderr,
      "--range past the end says the length in ms: %r" % r.stderr)
r = run("--report", "flat", "--range", "1s-2s", os.path.join(TESTDATA, "validate.pprof"))
check(r.returncode == 2 and "needs sample times" in r.stderr,
      "a profile without times: %r" % r.stderr)

finish()
