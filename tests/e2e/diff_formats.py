#!/usr/bin/env python3
"""--diff across formats: a .cpuprofile against its own pprof export pairs
every function with a zero delta; against validate.pprof (the same program
written in Go, whose function names differ) nothing pairs, and every
function is reported as one-sided with its own total as the delta."""
import json
import math
import os
import tempfile

from e2e import TESTDATA, check, finish, wprof


def run(*args):
    r = wprof(*args)
    check(r.returncode == 0, "%s exits 0: %s" % (args, r.stderr))
    return r.stdout


cpu = os.path.join(TESTDATA, "validate.cpuprofile")
go = os.path.join(TESTDATA, "validate.pprof")

with tempfile.TemporaryDirectory() as tmp:
    exported = os.path.join(tmp, "validate.pb.gz")
    run("--export", "pprof", "-o", exported, cpu)
    out = json.loads(run("--report", "flat", "--diff", "--format", "json", cpu, exported))
    check(out["base"]["format"] == "cpuprofile" and out["new"]["format"] == "pprof",
          "formats named")
    for row in out["rows"]:
        check(row["base"] is not None and row["new"] is not None,
              "%s paired across formats" % row["name"])
        check(row["delta"] is not None and math.isclose(row["delta"], 0, abs_tol=1e-6),
              "%s delta 0 across formats: %s" % (row["name"], row["delta"]))

single = {path: json.loads(run("--report", "flat", "--format", "json", path))["rows"]
          for path in (cpu, go)}

out = json.loads(run("--report", "flat", "--diff", "--normalize", "--format", "json", cpu, go))
names = {}
for row in out["rows"]:
    side = "base" if row["base"] is not None else "new"
    check((row["base"] is None) != (row["new"] is None),
          "%s is one-sided (JS and Go names differ)" % row["name"])
    names[row[side]["name"]] = side
check(names.get("add") == "base" and names.get("main.add") == "new",
      "add only in base, main.add only in new")
check(len(out["rows"]) == len(single[cpu]) + len(single[go]),
      "every function of both reports appears once")

finish()
