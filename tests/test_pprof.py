#!/usr/bin/env python3
"""pprof in and out, end to end through the wprof-tui binary.

    test_pprof.py WPROF TESTDATA top        corpus pprof files vs go tool pprof -top
    test_pprof.py WPROF TESTDATA roundtrip  .cpuprofile <-> pprof keep exact totals
    test_pprof.py WPROF TESTDATA go         exported files vs go tool pprof (77: no go)
    test_pprof.py WPROF TESTDATA bad        broken input: message and exit status 2
    test_pprof.py WPROF TESTDATA filters    --focus, --ignore, --hide, --show,
                                            --prune-from, --tagfocus, --tagignore
                                            vs go tool pprof -top with the same flag

Expected numbers come from testdata/expected/*.top.txt (go tool pprof -top)
or from the original file read by wprof-tui before the conversion."""
import datetime
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from profile_checks import parse_top, parse_value

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


# ---- wprof-tui -----------------------------------------------------------------

def run(args, check=True):
    p = subprocess.run([WPROF] + args, capture_output=True, text=True)
    if check and p.returncode != 0:
        fail(f"wprof-tui {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p


def flat_report(path, sample_type=None):
    args = ["--report", "flat", "--rule", "exact", "--format", "json", path]
    if sample_type is not None:
        args += ["--sample-type", sample_type]
    p = run(args)
    return json.loads(p.stdout) if p.returncode == 0 else None


def rows_by_name(report):
    rows = {}
    for r in report["rows"]:
        rows.setdefault(r["name"], []).append(r)
    return rows


def compare_with_top(label, report, top_text):
    expected, total = parse_top(top_text)
    got = rows_by_name(report)
    if total and abs(report["profile_total"] - total[0]) > total[1]:
        fail(f"{label}: profile total {report['profile_total']} != {total[0]}")
    for name, (flat, flat_tol, cum, cum_tol) in expected.items():
        rows = got.get(name)
        if not rows or len(rows) != 1:
            fail(f"{label}: {name}: {len(rows or [])} rows, want 1")
            continue
        r = rows[0]
        if abs(r["self"] - flat) > flat_tol:
            fail(f"{label}: {name}: self {r['self']} != flat {flat}")
        if abs(r["total"] - cum) > cum_tol:
            fail(f"{label}: {name}: total {r['total']} != cum {cum}")
    for name, rows in got.items():
        if name not in expected and any(r["self"] or r["total"] for r in rows):
            fail(f"{label}: {name} is not in go tool pprof's output")


def heap_types():
    return ["alloc_objects", "alloc_space", "inuse_objects", "inuse_space"]


MS = 1_000_000  # nanoseconds


def pruned_profile(keep):
    """b <- runtime.x <- a <- main (10ms), a <- main (5ms), runtime.x alone
    (7ms), with drop_frames "runtime\\..*" and, if asked, keep_frames
    "runtime.x"."""
    strings = ("", "cpu", "nanoseconds", "main", "a", "runtime.x", "b",
               "runtime\\..*", "runtime.x")
    return profile(samples=(((4, 3, 2, 1), (10 * MS,)), ((2, 1), (5 * MS,)),
                            ((3,), (7 * MS,))),
                   locations=((1, 1), (2, 2), (3, 3), (4, 4)),
                   functions=((1, 3), (2, 4), (3, 5), (4, 6)),
                   strings=strings, drop=7, keep=8 if keep else 0)


# By hand from pprof's Prune: a dropped frame goes with its callees, but
# not before the first frame that is kept (runtime.x alone stays).
PRUNED = {"main": (0, 15000), "a": (15000, 15000), "runtime.x": (7000, 7000)}
KEPT = {"main": (0, 15000), "a": (5000, 15000), "runtime.x": (7000, 17000),
        "b": (10000, 10000)}


def test_prune(tmp):
    for keep, want in ((False, PRUNED), (True, KEPT)):
        path = os.path.join(tmp, f"prune-{keep}.pb")
        with open(path, "wb") as f:
            f.write(pruned_profile(keep))
        report = flat_report(path)
        if not report:
            continue
        got = {r["name"]: (r["self"], r["total"]) for r in report["rows"]}
        if got != want:
            fail(f"drop_frames (keep_frames: {keep}): {got}, want {want}")


def test_top():
    cases = [("validate.pprof", None), ("inline.pprof", None),
             ("speedscope-simple.prof", None)]
    cases += [("heap.pprof", t) for t in heap_types()]
    for name, sample_type in cases:
        expected = f"{name}.{sample_type}.top.txt" if sample_type else f"{name}.top.txt"
        with open(os.path.join(TESTDATA, "expected", expected)) as f:
            top = f.read()
        report = flat_report(os.path.join(TESTDATA, name), sample_type)
        if report:
            compare_with_top(expected, report, top)
    # The default sample type is the last one (inuse_space for Go heaps),
    # and an index picks like a name.
    report = flat_report(os.path.join(TESTDATA, "heap.pprof"))
    if report and report["sample_type"] != "inuse_space":
        fail(f"heap.pprof: default sample type {report['sample_type']}")
    report = flat_report(os.path.join(TESTDATA, "heap.pprof"), "1")
    if report and report["sample_type"] != "alloc_space":
        fail(f"heap.pprof: --sample-type 1 gave {report['sample_type']}")
    p = run(["--report", "flat", "--sample-type", "nope",
             os.path.join(TESTDATA, "heap.pprof")], check=False)
    if p.returncode != 2 or "no sample type 'nope'" not in p.stderr:
        fail(f"unknown --sample-type: exit {p.returncode}, {p.stderr.strip()}")


# ---- round trips ------------------------------------------------------------------

def keyed(report):
    """Rows by (name, url, line): how both formats name a function (the
    report's lines are 1-based whatever the format)."""
    out = {}
    for r in report["rows"]:
        out.setdefault((r["name"], r["url"], r["line"]), []).append(r)
    return out


def same_totals(label, before, after):
    b = keyed(before)
    a = keyed(after)
    compared = 0
    for key, rows in b.items():
        if len(rows) != 1:
            continue  # differs only by column: one function in pprof
        want = rows[0]
        got = a.get(key)
        if not got or len(got) != 1:
            fail(f"{label}: {key} missing after the round trip")
            continue
        for field in ("self", "total"):
            w, g = want[field], got[0][field]
            if (w is None) != (g is None) or (w is not None and abs(w - g) > 1e-9 * max(1, abs(w))):
                fail(f"{label}: {key[0]}: {field} {g} != {w}")
        compared += 1
    if not compared:
        fail(f"{label}: nothing compared")


def convert(src, fmt, out, sample_type=None):
    args = ["--export", fmt, "-o", out, src]
    if sample_type:
        args += ["--sample-type", sample_type]
    return run(args).returncode == 0


def test_roundtrip(tmp):
    for name in ["validate.cpuprofile", "recursion.cpuprofile",
                 "worked-example.cpuprofile", "chrome65-simple.cpuprofile"]:
        src = os.path.join(TESTDATA, name)
        out = os.path.join(tmp, name + ".pb.gz")
        if convert(src, "pprof", out):
            same_totals(name + " -> pprof", flat_report(src), flat_report(out))
            with open(out, "rb") as f:
                if f.read(2) != b"\x1f\x8b":
                    fail(f"{name} -> pprof is not gzipped")
    for name in ["validate.pprof", "inline.pprof", "speedscope-simple.prof"]:
        src = os.path.join(TESTDATA, name)
        out = os.path.join(tmp, name + ".cpuprofile")
        if convert(src, "cpuprofile", out):
            same_totals(name + " -> cpuprofile", flat_report(src), flat_report(out))
        back = os.path.join(tmp, name + ".again.pb.gz")
        if convert(src, "pprof", back):
            same_totals(name + " -> pprof", flat_report(src), flat_report(back))
    heap = os.path.join(TESTDATA, "heap.pprof")
    back = os.path.join(tmp, "heap.again.pb.gz")
    convert(heap, "pprof", back)
    for t in heap_types():
        same_totals(f"heap.pprof ({t}) -> pprof", flat_report(heap, t), flat_report(back, t))
        out = os.path.join(tmp, f"heap.{t}.cpuprofile")
        if convert(heap, "cpuprofile", out, t):
            same_totals(f"heap.pprof ({t}) -> cpuprofile", flat_report(heap, t),
                        flat_report(out))
    # Folded stacks: "root;...;leaf value", one line per stack.
    folded = os.path.join(tmp, "worked.folded")
    if convert(os.path.join(TESTDATA, "worked-example.cpuprofile"), "folded", folded):
        report = flat_report(os.path.join(TESTDATA, "worked-example.cpuprofile"))
        self_by_leaf = {}
        with open(folded) as f:
            for line in f:
                stack, value = line.rstrip("\n").rsplit(" ", 1)
                leaf = stack.split(";")[-1]
                self_by_leaf[leaf] = self_by_leaf.get(leaf, 0) + float(value)
        for r in report["rows"]:
            if abs(self_by_leaf.get(r["name"], 0) - r["self"]) > 1e-9:
                fail(f"folded: {r['name']}: {self_by_leaf.get(r['name'])} != {r['self']}")
    # Samples with no stack have no row but count in pprof's total: the
    # export writes them back.  threadcreate: 4 (go tool pprof, in
    # testdata/expected); by hand: main 10, stackless +7 and -5, so
    # 10 + 7 + 5 = 22 (the absolute values, as pprof sums them).
    both_signs = os.path.join(tmp, "stackless.pb")
    with open(both_signs, "wb") as f:
        f.write(profile(samples=(((1,), (10,)), ((), (7,)), ((), (-5,)))))
    for src, total in ((os.path.join(TESTDATA, "threadcreate.pprof"), 4), (both_signs, 22e-3)):
        out = os.path.join(tmp, os.path.basename(src) + ".again.pb.gz")
        if convert(src, "pprof", out):
            p = run(["--report", "flat", "--format", "json", out])
            got = json.loads(p.stdout)["profile_total"] if p.returncode == 0 else None
            if got is None or abs(got - total) > 1e-9:
                fail(f"{os.path.basename(src)} -> pprof: total {got}, want {total}")
    # Only a function graph: what can be written is, and stderr says what not.
    xs = os.path.join(TESTDATA, "validate-xs.cpuprofile")
    out = os.path.join(tmp, "xs.pb.gz")
    p = run(["--export", "pprof", "-o", out, xs])
    if "no whole stacks" not in p.stderr:
        fail("node graph export: no note on stderr: " + p.stderr)
    before, after = flat_report(xs), flat_report(out)
    if before and after:
        got = {r["name"]: r["self"] for r in after["rows"]}
        for r in before["rows"]:
            if abs(got.get(r["name"], 0) - r["self"]) > 1e-9 * max(1, r["self"]):
                fail(f"xs -> pprof: {r['name']}: self {got.get(r['name'])} != {r['self']}")


# ---- go tool pprof on exported files --------------------------------------------

def test_go(tmp):
    go = shutil.which("go")
    if not go:
        print("go is not installed: skipped")
        sys.exit(77)
    env = dict(os.environ, PPROF_TMPDIR=tmp, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"))
    cases = [("validate.pprof", None), ("inline.pprof", None),
             ("worked-example.cpuprofile", None)]
    cases += [("heap.pprof", t) for t in heap_types()]
    for name, sample_type in cases:
        out = os.path.join(tmp, f"{name}.{sample_type}.pb.gz")
        if not convert(os.path.join(TESTDATA, name), "pprof", out, sample_type):
            continue
        args = [go, "tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0",
                "-edgefraction=0"]
        if sample_type:
            args.append("-sample_index=" + sample_type)
        p = subprocess.run(args + [out], capture_output=True, text=True, env=env)
        if p.returncode != 0:
            fail(f"go tool pprof {name}: {p.stderr.strip()}")
            continue
        report = flat_report(out, sample_type)
        if report:
            compare_with_top(f"go tool pprof on exported {name} ({sample_type})",
                             report, p.stdout)
    # drop_frames / keep_frames: go applies them as it reads, as we do.
    for keep in (False, True):
        path = os.path.join(tmp, f"prune-{keep}.pb")
        with open(path, "wb") as f:
            f.write(pruned_profile(keep))
        p = subprocess.run([go, "tool", "pprof", "-top", "-nodefraction=0", path],
                           capture_output=True, text=True, env=env)
        report = flat_report(path)
        if p.returncode != 0:
            fail(f"go tool pprof on the pruned profile: {p.stderr.strip()}")
        elif report:
            compare_with_top(f"go tool pprof, drop_frames (keep: {keep})", report, p.stdout)
    test_totals_go(tmp, go, env)
    test_export_header_go(tmp, go, env)


def go_time(seconds):
    """Go's "Jan 2, 2006 at 3:04pm (MST)" in UTC."""
    t = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    half = "am" if t.hour < 12 else "pm"
    return f"{t:%b} {t.day}, {t.year} at {(t.hour + 11) % 12 + 1}:{t:%M}{half} (UTC)"


def test_export_header_go(tmp, go, env):
    """go tool pprof's header on exports: a pprof source's own time and
    main binary; a .cpuprofile (a clock from boot) its file's time less
    its duration (908005 us), and a main mapping that needs no symbols,
    so no "Main binary filename not available"."""
    env = dict(env, TZ="UTC")
    cases = [("heap.pprof", None)]
    copy = os.path.join(tmp, "validate.cpuprofile")
    shutil.copy(os.path.join(TESTDATA, "validate.cpuprofile"), copy)
    os.utime(copy, (1785000000, 1785000000))
    cases.append((copy, go_time(1785000000 - 0.908005)))
    for src, want_time in cases:
        path = src if os.path.isabs(src) else os.path.join(TESTDATA, src)
        out = os.path.join(tmp, os.path.basename(src) + ".header.pb.gz")
        if not convert(path, "pprof", out):
            continue
        got = subprocess.run([go, "tool", "pprof", "-top", out], capture_output=True, text=True, env=env)
        if want_time is None:  # the source's own header
            orig = subprocess.run([go, "tool", "pprof", "-top", path], capture_output=True,
                                  text=True, env=env).stdout
            want_lines = [line for line in orig.splitlines() if line.startswith(("File:", "Time:"))]
            if len(want_lines) != 2:
                fail(f"{src}: go tool pprof's own header: {want_lines}")
        else:
            want_lines = ["Time: " + want_time]
        for line in want_lines:
            if line not in got.stdout.splitlines():
                fail(f"{src} -> pprof: go tool pprof's header lacks {line!r}:\n{got.stdout[:300]}")
        if "Main binary filename not available" in got.stderr or "Jan 1, 1970" in got.stdout:
            fail(f"{src} -> pprof: {got.stderr.strip()} {got.stdout[:200]}")


# ---- what go tool pprof counts that has no row --------------------------------------

def delta_profile():
    """A Parca-style delta profile (alloc_space_delta): main>a +1000
    bytes, main>b -400 (freed since the last profile), main +300, and a
    sample with no locations (+7), as Go's threadcreate profile writes.
    By hand: rows a 1000, b -400, main 300 (cum 900); pprof's total is
    the sum of absolute values, 1000 + 400 + 300 + 7 = 1707."""
    return profile(types=((1, 2),),
                   samples=(((2, 1), (1000,)), ((3, 1), (-400,)), ((1,), (300,)),
                            ((), (7,))),
                   locations=((1, 1), (2, 2), (3, 3)),
                   functions=((1, 3), (2, 4), (3, 5)),
                   strings=("", "alloc_space", "bytes", "main", "a", "b"))


DELTA_TOP = """Showing nodes accounting for 900B, 52.72% of 1707B total
      flat  flat%   sum%        cum   cum%
     1000B 58.58% 58.58%      1000B 58.58%  a
     -400B 23.43% 35.15%      -400B 23.43%  b
      300B 17.57% 52.72%       900B 52.72%  main
"""


def header_samples(path, records=False):
    p = run(["--report", "flat", path])
    m = re.search(r"samples: (\d+)(?: \((\d+) records\))?", p.stdout)
    return (m and m.group(2 if records else 1)) and int(m.group(2 if records else 1))


def test_totals(tmp):
    """Percentages are of pprof's total; the header counts samples."""
    path = os.path.join(tmp, "delta.pb")
    with open(path, "wb") as f:
        f.write(delta_profile())
    report = flat_report(path)
    if report:
        compare_with_top("delta profile (by hand)", report, DELTA_TOP)
    if header_samples(path) != 4:
        fail(f"delta profile: header says samples: {header_samples(path)}, want 4")
    # Go's threadcreate profile: one sample of value 4 with no stack
    # (testdata/expected/threadcreate.pprof.top.txt: "0, 0% of 4 total").
    tc = os.path.join(TESTDATA, "threadcreate.pprof")
    with open(os.path.join(TESTDATA, "expected", "threadcreate.pprof.top.txt")) as f:
        top = f.read()
    report = flat_report(tc)
    if report:
        compare_with_top("threadcreate.pprof", report, top)
        if report["rule"] != "exact":
            fail(f"threadcreate.pprof opens on {report['rule']}, want exact")
    p = run(["--report", "flat", "--format", "json", tc])
    if p.returncode == 0 and json.loads(p.stdout)["rule"] != "exact":
        fail("threadcreate.pprof: the default rule is not exact")
    if header_samples(tc) != 1:
        fail(f"threadcreate.pprof: samples: {header_samples(tc)}, want 1")
    # validate.pprof: "Total samples = 530" (go tool pprof
    # -sample_index=samples: the sum of its samples/count values), in 91
    # records as `go tool pprof -raw` lists them.
    validate = os.path.join(TESTDATA, "validate.pprof")
    if header_samples(validate) != 530 or header_samples(validate, True) != 91:
        fail(f"validate.pprof: samples: {header_samples(validate)} "
             f"({header_samples(validate, True)} records), want 530 (91 records)")
    return path


def test_totals_go(tmp, go, env):
    """The same files through go tool pprof itself."""
    delta = test_totals(tmp)
    for path in (delta, os.path.join(TESTDATA, "threadcreate.pprof")):
        p = subprocess.run([go, "tool", "pprof", "-top", "-nodefraction=0", path],
                           capture_output=True, text=True, env=env)
        report = flat_report(path)
        if p.returncode != 0:
            fail(f"go tool pprof {path}: {p.stderr.strip()}")
        elif report:
            compare_with_top(f"go tool pprof on {os.path.basename(path)}", report, p.stdout)
    # -raw lists every sample with a stack (and leaves stackless ones out).
    path = os.path.join(TESTDATA, "validate.pprof")
    raw = subprocess.run([go, "tool", "pprof", "-raw", path],
                         capture_output=True, text=True, env=env).stdout
    listed = raw.split("Samples:\n", 1)[1].split("Locations", 1)[0]
    count = len(re.findall(r"^\s+-?\d+\s+-?\d+:", listed, re.M))
    if header_samples(path, True) != count:
        fail(f"{path}: header records {header_samples(path, True)}, -raw lists {count}")
    # The samples are pprof's "Total samples" with -sample_index=samples.
    top = subprocess.run([go, "tool", "pprof", "-top", "-sample_index=samples", path],
                         capture_output=True, text=True, env=env).stdout
    m = re.search(r"Total samples = (\d+)", top)
    if not m or header_samples(path) != int(m.group(1)):
        fail(f"{path}: header samples {header_samples(path)}, go tool pprof: "
             f"{m and m.group(0)}")


# ---- filters: the same flag as go tool pprof ------------------------------------

# (file, sample type, [(pprof flag, value)]); wprof-tui takes them in order
# as --flag VALUE (prune_from as --prune-from).
FILTER_CASES = [
    ("validate.pprof", None, [("focus", "fHalf")]),
    ("validate.pprof", None, [("ignore", "fHalf")]),
    ("validate.pprof", None, [("hide", "fHalf")]),
    ("validate.pprof", None, [("show", "main\\.f")]),
    ("validate.pprof", None, [("prune_from", "fMain")]),
    ("validate.pprof", None, [("focus", "fMain[12]"), ("hide", "add")]),
    ("heap.pprof", "alloc_space", [("focus", "main\\.work")]),
    ("heap.pprof", "alloc_space", [("ignore", "^runtime")]),
    ("heap.pprof", "alloc_space", [("hide", "strings")]),
    ("heap.pprof", "alloc_space", [("show", "^main\\.")]),
    ("heap.pprof", "alloc_space", [("hide", "Builder")]),
    ("labels.pprof", None, [("tagfocus", "worker=alpha")]),
    ("labels.pprof", None, [("tagfocus", "phase=save")]),
    ("labels.pprof", None, [("tagfocus", "beta")]),
    ("labels.pprof", None, [("tagignore", "worker=alpha")]),
    ("labels.pprof", None, [("tagfocus", "worker=alpha,beta"), ("hide", "asyncPreempt")]),
    ("labels.pprof", None, [("tagroot", "worker")]),
    # A value that reads as a number or range is one on numeric labels
    # (pprof's parseTagFilterRange): Go's labels are strings, so shard=1
    # and shard=1:12 match nothing; any other value is a regexp.
    ("shards.pprof", None, [("tagfocus", "shard=1")]),
    ("shards.pprof", None, [("tagfocus", "shard=1:12")]),
    ("shards.pprof", None, [("tagignore", "shard=1")]),
    ("shards.pprof", None, [("tagfocus", "shard=^1$")]),
    ("shards.pprof", None, [("tagfocus", "shard=1[0-9]")]),
    ("shards.pprof", None, [("tagfocus", "shard=0x1")]),
    ("shards.pprof", None, [("tagfocus", "shard=(1)"), ("hide", "asyncPreempt")]),
    # Go's heap profiles label each sample with its size, "bytes".
    ("heap.pprof", "alloc_space", [("tagfocus", "bytes=64kb")]),
    ("heap.pprof", "alloc_space", [("tagfocus", "bytes=1kb:")]),
    ("heap.pprof", "alloc_space", [("tagfocus", "bytes=:1kb")]),
    ("heap.pprof", "alloc_space", [("tagfocus", "bytes=64kb:1mb")]),
    ("heap.pprof", "alloc_space", [("tagfocus", "bytes=65536")]),
    ("heap.pprof", "alloc_space", [("tagfocus", "1mb")]),
    ("heap.pprof", "alloc_space", [("tagignore", "bytes=64B")]),
]


def filter_case_name(name, sample_type, flags):
    slug = "_".join(f"{flag}-{re.sub(r'[^A-Za-z0-9]+', '.', value)}" for flag, value in flags)
    return f"{name}.{sample_type or 'default'}.{slug}.top.txt"


def go_top(go, env, path, sample_type, flags):
    args = [go, "tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0",
            "-edgefraction=0"]
    if sample_type:
        args.append("-sample_index=" + sample_type)
    args += [f"-{flag}={value}" for flag, value in flags]
    p = subprocess.run(args + [path], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"go tool pprof {' '.join(args[3:])}: {p.stderr.strip()}")
    return p.stdout


def compare_filtered(label, report, top_text, whole_total=True):
    """Rows as go tool pprof -top.  Its percentages stay of the whole
    profile ("of 5.30s total") and so do ours (not an exported file's: it
    holds only what the filters left); what it accounts for when all nodes
    show is the sum of the rows' self."""
    expected, _ = parse_top(top_text)
    whole = re.search(r" of (\S+) total", top_text)
    shown = re.search(r"accounting for (\S+), ", top_text)
    if whole and whole_total and report is not None:
        value, tol = parse_value(whole.group(1))
        if abs(report["profile_total"] - value) > tol:
            fail(f"{label}: total {report['profile_total']} != {value}")
    if shown and report is not None:
        value, tol = parse_value(shown.group(1))
        selves = sum(r["self"] for r in report["rows"])
        if abs(selves - value) > tol * max(1, len(report["rows"])):
            fail(f"{label}: rows account for {selves}, not {value}")
    compare_with_top(label, report, "\n".join(
        line for line in top_text.splitlines() if "total" not in line or "flat" in line))
    if report is not None and not expected and report["rows"]:
        fail(f"{label}: rows where go tool pprof shows none")


def test_filters(tmp):
    go = shutil.which("go")
    env = dict(os.environ, PPROF_TMPDIR=tmp, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"))
    for name, sample_type, flags in FILTER_CASES:
        path = os.path.join(TESTDATA, name)
        args = ["--report", "flat", "--rule", "exact", "--format", "json"]
        if sample_type:
            args += ["--sample-type", sample_type]
        for flag, value in flags:
            args += ["--" + flag.replace("_", "-"), value]
        p = run(args + [path])
        report = json.loads(p.stdout) if p.returncode == 0 else None
        label = f"{name} {' '.join(f'-{f}={v}' for f, v in flags)}"
        expected_file = os.path.join(TESTDATA, "expected", filter_case_name(name, sample_type, flags))
        with open(expected_file) as f:
            compare_filtered(label + " (expected/)", report, f.read())
        if go:
            compare_filtered(label + " (go tool pprof)", report,
                             go_top(go, env, path, sample_type, flags))
    # By files, pprof shows -tagroot's frames by their file, the key: one
    # root holding every sample, not one per value.
    path = os.path.join(TESTDATA, "labels.pprof")
    p = run(["--report", "flat", "--rule", "exact", "--format", "json",
             "--granularity", "files", "--tagroot", "worker", path])
    report = json.loads(p.stdout) if p.returncode == 0 else None
    label = "labels.pprof -files -tagroot=worker"
    with open(os.path.join(TESTDATA, "expected", "labels.pprof.files.tagroot-worker.top.txt")) as f:
        compare_filtered(label + " (expected/)", report, f.read())
    if go:
        compare_filtered(label + " (go tool pprof)", report,
                         go_top(go, env, path, None, [("files", "true"), ("tagroot", "worker")]))
    # Headers list the filters in force, as pprof's Active filters.
    path = os.path.join(TESTDATA, "validate.pprof")
    text = run(["--report", "flat", "--focus", "fHalf", "--hide", "add", path]).stdout
    if "# Active filters:\n#    focus=fHalf\n#    hide=add\n" not in text:
        fail("text report: no Active filters block: " + text[:300])
    js = json.loads(run(["--report", "flat", "--format", "json", "--ignore", "fHalf",
                         path]).stdout)
    if js.get("filters") != ["ignore=fHalf"]:
        fail(f"json report: filters {js.get('filters')}")
    # --export writes the filtered profile: go tool pprof reads back what
    # its own -focus gives.
    out = os.path.join(tmp, "focused.pb.gz")
    run(["--export", "pprof", "-o", out, "--focus", "fHalf", path])
    with open(os.path.join(TESTDATA, "expected",
                           filter_case_name("validate.pprof", None, [("focus", "fHalf")]))) as f:
        compare_filtered("--export pprof --focus fHalf", flat_report(out), f.read(),
                         whole_total=False)
    tags = run(["--report", "tags", os.path.join(TESTDATA, "labels.pprof")]).stdout
    for line in (" worker: Total 320ms", "240ms ( 75.00%): alpha", "80ms ( 25.00%): beta",
                 " phase: Total 320ms", "180ms ( 56.25%): load", "140ms ( 43.75%): save"):
        if line not in tags:  # go tool pprof -tags labels.pprof
            fail(f"--report tags: no '{line}' in {tags!r}")
    if not go:
        print("go is not installed: compared with testdata/expected/ only")


# ---- bad input -------------------------------------------------------------------------

def varint(n):
    """A protobuf varint; a negative int64 takes ten bytes."""
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number, payload):
    if isinstance(payload, int):
        return varint(number << 3) + varint(payload)
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def profile(types=((1, 2),), samples=(((1,), (10,)),), locations=((1, 1),),
            functions=((1, 3),), strings=("", "cpu", "nanoseconds", "main"),
            drop=0, keep=0):
    """A tiny Profile: types (type, unit), samples (location ids, values),
    locations (id, function id), functions (id, name), drop_frames and
    keep_frames string indexes."""
    out = field(7, drop) + field(8, keep) if drop else b""
    for t, u in types:
        out += field(1, field(1, t) + field(2, u))
    for locs, values in samples:
        body = b"".join(field(1, i) for i in locs) + b"".join(field(2, v) for v in values)
        out += field(2, body)
    for lid, fid in locations:
        out += field(4, field(1, lid) + field(4, field(1, fid)))
    for fid, name in functions:
        out += field(5, field(1, fid) + field(2, name))
    for s in strings:
        out += field(6, s.encode())
    return out


def test_bad(tmp):
    good = profile()
    with open(os.path.join(TESTDATA, "validate.pprof"), "rb") as f:
        real = f.read()
    cases = {
        "truncated.pb.gz": (real[: len(real) // 2], "truncated"),
        "wrong-magic.pb.gz": (b"\x1f\x8c" + real[2:], "not a profile"),
        "bad-gzip-body.pb.gz": (real[:20] + bytes(64) + real[84:], "gzip"),
        # Offsets by hand: sample_type takes bytes 0-5, the sample 6-11,
        # the location 12-19, the function from 20.
        "string-index.pb": (profile(functions=((1, 99),)),
                            "pprof, byte 20: function 1 names string 99"),
        "location-id.pb": (profile(samples=(((7,), (10,)),)),
                           "pprof, byte 6: sample 0 names location 7"),
        "function-id.pb": (profile(locations=((1, 5),)),
                           "pprof, byte 12: location 1 names function 5"),
        "two-locations.pb": (profile(locations=((1, 1), (1, 1))),
                             "pprof, byte 20: two locations have id 1 (the first at byte 12)"),
        "location-id-0.pb": (profile(locations=((0, 1),)),
                             "pprof, byte 12: location 0 has id 0"),
        "value-count.pb": (profile(samples=(((1,), (10, 20)),)),
                           "pprof, byte 6: sample 0 has 2 values for 1 sample"),
        "gigabyte.pb": (field(1, field(1, 1) + field(2, 2)) + varint(2 << 3 | 2)
                        + varint(1 << 30) + b"\x08\x01", "runs past the end"),
        "no-types.pb": (profile(types=(), samples=()), "no sample types"),
        "gzipped-no-types.pb.gz": (gzip.compress(profile(types=(), samples=())),
                                   "no sample types"),
        "string-zero.pb": (profile(strings=("x", "cpu", "nanoseconds", "main")),
                           "string_table[0]"),
    }
    with open(os.path.join(tmp, "good.pb"), "wb") as f:
        f.write(good)
    report = flat_report(os.path.join(tmp, "good.pb"))
    if report and [(r["name"], r["self"]) for r in report["rows"]] != [("main", 0.01)]:
        fail(f"hand-made profile: {report['rows']}")
    for name, (data, words) in cases.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        p = run(["--report", "flat", path], check=False)
        prefix = f"wprof-tui: {path}: "
        if p.returncode != 2 or not p.stderr.startswith(prefix) or words not in p.stderr:
            fail(f"{name}: exit {p.returncode}, stderr {p.stderr.strip()!r} "
                 f"(want exit 2 and '{words}')")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if WHAT == "top":
            test_top()
            test_prune(tmp)
            test_totals(tmp)
        elif WHAT == "roundtrip":
            test_roundtrip(tmp)
        elif WHAT == "go":
            test_go(tmp)
        elif WHAT == "bad":
            test_bad(tmp)
        elif WHAT == "filters":
            test_filters(tmp)
        else:
            sys.exit("unknown test " + WHAT)
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        sys.exit(1)
    print("ok")


main()
