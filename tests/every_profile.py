#!/usr/bin/env python3
"""Every profile in testdata/ and ../shared/corpus (skipped when absent),
through every view, rule and sample type of --report (JSON that parses,
rows whose self values add up to the profile), and --export in each
format read back: the exported profile's flat report has the same self
per function and the same profile total, within rounding (folded stacks
are summed here, by leaf).  Run by the ASan+UBSan build too.

Nearly all the time goes into starting wprof-tui (thousands of runs;
under ASan each start and leak check costs more than the work), so no
run is made twice: files with the same bytes (testdata/ and the corpus
share many) are checked once, every other path only for loading (the
same bytes load or not alike), a report two checks need is read once,
and files are checked on as many workers as there are processors.

usage: every_profile.py WPROF TESTDATA [CORPUS]"""
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

WPROF, TESTDATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CORPUS = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
VIEWS = ("flat", "top-down", "bottom-up", "callgraph")
RULES = ("exact", "additive", "divided", "gprof")
# Files of these kinds must load; any other file is tried, and taken when
# it loads (formats that loaders gain later join in by themselves).
PROFILE_SUFFIXES = (".cpuprofile", ".pprof", ".prof", ".xsbug", ".arcs", "gmon.out")
SKIP_DIRS = ("expected", "fuzz-regressions", "programs")
failures = checks = 0
counts_lock = threading.Lock()


def check(cond, what):
    global failures, checks
    with counts_lock:
        checks += 1
        if not cond:
            failures += 1
            print("FAIL", what, flush=True)
    return cond


# What each run printed, by its arguments: a file's checks ask for some
# reports twice (its sample types, then the same flat report to export).
runs = {}
runs_lock = threading.Lock()


def run(args, timeout=300):
    key = tuple(args)
    with runs_lock:
        done = runs.get(key)
    if done is None:
        done = subprocess.run([WPROF, *args], capture_output=True, timeout=timeout)
        with runs_lock:
            runs[key] = done
    return done


def report(view, fmt, path, extra, options=()):
    """The report's arguments, always in this order, so that the same
    report asked for twice is run once."""
    return run(["--report", view, "--format", fmt, *options, *extra, path])


def close(a, b, scale):
    return abs(a - b) <= 1e-3 * abs(scale) + 1e-6


def load_args(path):
    exe = os.path.join(os.path.dirname(path), "validate")
    return ["--exe", exe] if path.endswith("gmon.out") and os.path.exists(exe) else []


def flat(path, extra, options=()):
    r = report("flat", "json", path, extra, options)
    if r.returncode:
        return None, r
    return json.loads(r.stdout), r


def by_name(doc):
    out = collections.defaultdict(float)
    for row in doc["rows"]:
        out[row["name"]] += row["self"]
    return out


def same_self(what, want, got, scale):
    names = set(want) | set(got)
    bad = [n for n in names if not close(want.get(n, 0.0), got.get(n, 0.0), scale)]
    check(not bad, "%s: self differs for %s" % (what, [(n, want.get(n), got.get(n)) for n in bad[:4]]))


def folded_spelling(csv_name):
    """A CSV name (escaped reversibly: a backslash doubled, a C1 control as
    \\u0080..) as folded stacks spell it (a backslash as it is, a C1
    control as \\x80..), with ';' written ':'."""
    def one(m):
        escape = m.group(1)
        if escape == "\\":
            return "\\"
        if re.fullmatch(r"u00[89][0-9a-f]", escape):
            return "\\x" + escape[3:]
        return m.group(0)
    return re.sub(r"\\(\\|u[0-9a-f]{4}|x[0-9a-f]{2}|.)", one, csv_name).replace(";", ":")


def escaped_selves(path, extra, t):
    """Self per name as the CSV report spells names, in the folded
    export's spelling."""
    import csv
    import io
    r = report("flat", "csv", path, extra, ["--sample-type", str(t)])
    out = collections.defaultdict(float)
    for row in csv.DictReader(io.StringIO(r.stdout.decode("utf-8"))):
        out[folded_spelling(row["name"])] += float(row["self"])
    return out


def folded_selves(path):
    out = collections.defaultdict(float)
    for line in open(path, encoding="utf-8"):
        stack, _, value = line.rstrip("\n").rpartition(" ")
        out[stack.split(";")[-1]] += float(value)
    return out


def candidates():
    roots = [TESTDATA] + ([CORPUS] if CORPUS and os.path.isdir(CORPUS) else [])
    if CORPUS and not os.path.isdir(CORPUS):
        print("no corpus at %s: testdata only" % CORPUS)
    for root in roots:
        for d, dirs, files in os.walk(root):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for f in sorted(files):
                yield os.path.join(d, f)


def sample_types(path, extra):
    types = []
    while True:
        doc, r = flat(path, extra, ["--sample-type", str(len(types))])
        if doc is None:
            return types
        types.append(doc["sample_type"])


def reports(path, extra, t):
    for view in VIEWS:
        for rule in RULES:
            what = "%s type %d %s %s" % (path, t, view, rule)
            r = report(view, "json", path, extra, ["--rule", rule, "--sample-type", str(t)])
            if not check(r.returncode == 0, "%s exits 0: %s" % (what, r.stderr[:200])):
                continue
            doc = json.loads(r.stdout)
            if view == "flat" and doc["rows"] and doc["profile_total"]:
                selves = sum(row["self"] for row in doc["rows"])
                # pprof's total counts stackless samples too (no row).
                stackless = doc["format"] in STACKLESS_FORMATS and selves < doc["profile_total"]
                check(close(selves, doc["profile_total"], doc["profile_total"]) or stackless or
                      doc["format"] in ("gmon", "arcs"),
                      "%s: selves add up to the total (%s vs %s)" % (what, selves,
                                                                       doc["profile_total"]))
        for fmt in ("text", "csv"):
            r = report(view, fmt, path, extra, ["--sample-type", str(t)])
            check(r.returncode == 0 and r.stdout, "%s type %d %s %s" % (path, t, view, fmt))


# Formats whose total, as pprof's, also counts samples without a stack.
STACKLESS_FORMATS = ("pprof", "pprof-legacy", "gperftools")


def exports(path, extra, t, type_name, tmp):
    want, _ = flat(path, extra, ["--sample-type", str(t)])
    scale = want["profile_total"] or 1.0
    selves = by_name(want)
    negative = sum(v for v in selves.values() if v < 0)
    for fmt in ("pprof", "cpuprofile", "folded"):
        out = os.path.join(tmp, "type%d.%s" % (t, fmt))  # a new name: runs are kept
        r = run(["--export", fmt, "-o", out, "--sample-type", str(t), *extra, path])
        notes = r.stderr
        what = "%s type %s --export %s" % (path, type_name, fmt)
        if not check(r.returncode == 0, "%s: %s" % (what, r.stderr[:300])):
            continue
        if negative and fmt != "pprof":
            # A sample cannot last less than nothing: left out, and said.
            check(b"negative self" in notes, "%s: says what it left out" % what)
        if fmt == "folded":
            same_self(what + " (folded, by leaf)",
                      {n: v for n, v in escaped_selves(path, extra, t).items() if v > 0},
                      folded_selves(out), scale)
            continue
        if not any(selves.values()):
            continue  # only stackless samples: nothing to export, nothing to read
        pick = ["--sample-type", type_name] if fmt == "pprof" else []
        got, r = flat(out, [], pick)
        if not check(got is not None, "%s reads back: %s" % (what, r.stderr[:300])):
            continue
        kept = dict(selves)
        if negative and fmt == "cpuprofile":
            kept = {n: v for n, v in selves.items() if v > 0}
        # What the rows hold: gmon.out's histogram total is counted in
        # whole ticks, its rows are not, and a stackless pprof sample has
        # no row to export (docs/pprof.md); pprof's total is by absolute
        # value.  Elsewhere this is the profile's total (checked above).
        whole = sum(abs(v) for v in kept.values())
        check(close(got["profile_total"], whole, scale),
              "%s: total %s, want %s" % (what, got["profile_total"], whole))
        same_self(what, kept, by_name(got), scale)


def same_bytes(path):
    """What decides what a run of the file does: its bytes and those of
    the executable given with it (the loaders sniff content, not names)."""
    key = hashlib.sha256()
    for p in [path] + load_args(path)[1:]:
        with open(p, "rb") as f:
            key.update(hashlib.sha256(f.read()).digest())
    return key.digest()


def check_file(paths, tmp):
    """The whole matrix for the first of paths (files of the same bytes);
    the others must load alike.  Says whether they load."""
    path = paths[0]
    extra = load_args(path)
    doc, r = flat(path, extra)
    for p in paths:
        if doc is None:
            check(not p.endswith(PROFILE_SUFFIXES), "%s loads: %s" % (p, r.stderr[:300]))
    if doc is None:
        return 0
    types = sample_types(path, extra)
    check(types, "%s has sample types" % path)
    for t, name in enumerate(types):
        reports(path, extra, t)
        exports(path, extra, t, name, tmp)
    return len(paths)


def workers():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


groups = collections.OrderedDict()
for path in candidates():
    groups.setdefault(same_bytes(path), []).append(path)

with tempfile.TemporaryDirectory() as tmp, \
        concurrent.futures.ThreadPoolExecutor(workers()) as pool:
    jobs = []
    for i, paths in enumerate(groups.values()):
        os.mkdir(os.path.join(tmp, str(i)))
        jobs.append(pool.submit(check_file, paths, os.path.join(tmp, str(i))))
    seen = sum(job.result() for job in jobs)
    check(seen >= 12, "%d profiles found" % seen)
    print("%d profiles (%d distinct), %d runs of wprof-tui" %
          (seen, sum(1 for job in jobs if job.result()), len(runs)))

print("%d checks, %d failed" % (checks, failures))
sys.exit(1 if failures else 0)
