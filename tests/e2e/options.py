#!/usr/bin/env python3
"""The command line: every option as `--opt value`, `--opt=value` and its
short form gives the same output; a missing value or unknown option is a
usage error (exit 2) that names the option."""
import os
import tempfile

from e2e import TESTDATA, check, finish, wprof


def run(*args):
    return wprof(*args)


PROFILE = TESTDATA + "/validate.cpuprofile"
HEAP = TESTDATA + "/heap.pprof"

# Each row: the same request three ways (separate value, `=`, short form).
same = [
    (["--report", "flat", "--rule", "additive", PROFILE],
     ["--report=flat", "--rule=additive", PROFILE],
     ["--report", "flat", "-r", "additive", PROFILE]),
    (["--report", "flat", "--format", "csv", "--sort", "self", PROFILE],
     ["--report=flat", "--format=csv", "--sort=self", PROFILE],
     ["--report", "flat", "-f", "csv", "-s", "self", PROFILE]),
    (["--report", "top-down", "--depth", "2", PROFILE],
     ["--report=top-down", "--depth=2", PROFILE],
     ["--report", "top-down", "-d2", PROFILE]),
    (["--report", "flat", "--sample-type", "alloc_space", HEAP],
     ["--report=flat", "--sample-type=alloc_space", HEAP],
     ["--report", "flat", "-t", "alloc_space", HEAP]),
    (["--report", "flat", "--rule", "exact", "--format", "json", PROFILE],
     [PROFILE, "--report=flat", "--rule=exact", "--format=json"],
     [PROFILE, "--report", "flat", "-rexact", "-fjson"]),
]
for forms in same:
    outs = [run(*f) for f in forms]
    for f, r in zip(forms, outs):
        check(r.returncode == 0, "%s exits 0: %s" % (f, r.stderr))
    check(outs[0].stdout and all(o.stdout == outs[0].stdout for o in outs),
          "%s: the three forms print the same" % forms[0])

# The sample type chosen by -t really is the one used.
r = run("--report", "flat", "-t", "alloc_space", "--format", "json", HEAP)
check('"sample_type":"alloc_space"' in r.stdout, "-t picks alloc_space")

# --export with -o and --output= and --output.
with tempfile.TemporaryDirectory() as tmp:
    outs = []
    for i, form in enumerate((["-o"], ["--output"], None)):
        path = os.path.join(tmp, "out%d.folded" % i)
        args = ["--export=folded"] + (form + [path] if form else ["--output=" + path])
        r = run(*args, PROFILE)
        check(r.returncode == 0, "%s exits 0: %s" % (args, r.stderr))
        outs.append(open(path).read() if os.path.exists(path) else None)
    check(outs[0] and outs.count(outs[0]) == 3, "-o, --output and --output= write the same")

r = run("-h")
check(r.returncode == 0 and "--rule" in r.stdout and "-r, --rule" in r.stdout, "-h is help")
for v in ("-V", "--version"):
    r = run(v)
    check(r.returncode == 0 and r.stdout.startswith("wprof-tui "), "%s is the version" % v)

# Usage errors: exit 2, the option named.
for args, word in ((["--rule"], "--rule needs a value"),
                   (["-r"], "-r needs a value"),
                   ([PROFILE, "--report"], "--report needs a value"),
                   (["--bogus", PROFILE], "unknown option '--bogus'"),
                   (["-x", PROFILE], "unknown option '-x'"),
                   (["--rule=nope", PROFILE], "unknown rule 'nope'"),
                   (["--depth=-1", "--report=top-down", PROFILE], "--depth takes a whole number"),
                   (["--depth=x", "--report=top-down", PROFILE], "--depth takes a whole number"),
                   (["--report=flat", PROFILE, PROFILE, PROFILE], "one too many")):
    r = run(*args)
    check(r.returncode == 2 and word in r.stderr,
          "%s: exit 2 and %r (got %d %r)" % (args, word, r.returncode, r.stderr))

# `--` ends the options: a profile may start with a dash.
with tempfile.TemporaryDirectory() as tmp:
    odd = os.path.join(tmp, "-odd.cpuprofile")
    with open(odd, "w") as f:
        f.write(open(PROFILE).read())
    os.chdir(tmp)
    r = run("--report", "flat", "--", "-odd.cpuprofile")
    check(r.returncode == 0 and "-odd.cpuprofile" in r.stdout, "-- then a dashed name: %s" % r.stderr)

finish()
