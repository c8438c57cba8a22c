#!/usr/bin/env python3
"""callgrind.out through the wprof-tui binary.

    callgrind.py WPROF TESTDATA hand   testdata/callgrind/small.callgrind: numbers
                                       worked by hand (and callgrind_annotate's, when
                                       it is installed)
    callgrind.py WPROF TESTDATA live   a C program built and run under valgrind
                                       --tool=callgrind now, against callgrind_annotate
                                       (77: no valgrind or gcc)
    callgrind.py WPROF TESTDATA real   valgrind 3.19's files (testdata/callgrind/{inline,
                                       exit,thread}.callgrind) against callgrind_annotate's
                                       output saved in testdata/expected/
    callgrind.py WPROF TESTDATA bad    broken input: the line, the byte, exit 2

Self per function is callgrind_annotate's; inclusive cost (the gprof
rule's total, from the measured cost of each call) is callgrind_annotate
--inclusive=yes's for functions outside recursion."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
SMALL = os.path.abspath(os.path.join(TESTDATA, "callgrind", "small.callgrind"))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def flat(path, *extra):
    p = subprocess.run([WPROF, "--report", "flat", "--rule", "gprof", "--format", "json",
                        path, *extra], capture_output=True, text=True, timeout=120)
    if p.returncode:
        fail(f"{path} {extra}: exit {p.returncode}: {p.stderr.strip()}")
        return None
    return json.loads(p.stdout)


def by_function(doc):
    """file:function -> (self, total), as callgrind_annotate names them."""
    return {f"{row['url']}:{row['name']}": (row["self"], row["total"]) for row in doc["rows"]}


def annotate(path, inclusive, event=None):
    """callgrind_annotate's function lines: file:function -> cost."""
    args = ["callgrind_annotate", "--threshold=100", f"--inclusive={inclusive}"]
    if event:
        args.append(f"--show={event}")
    out = subprocess.run(args + [path], capture_output=True, text=True, timeout=120,
                         cwd="/").stdout
    return annotate_costs(out)


def annotate_costs(out):
    costs, body = {}, False
    for line in out.splitlines():
        if "file:function" in line:
            body = True
            continue
        m = re.match(r"^\s*([\d,]+) \([ \d.]+%\)\s+(\S.*?)(?: \[.*\])?$", line)
        if body and m:
            costs[m.group(2)] = int(m.group(1).replace(",", ""))
        elif body and line.startswith("----") and costs:
            break
    return costs


def check_equal(what, got, want):
    if got != want:
        fail(f"{what}: got {got}, want {want}")


# ---- the committed file, worked by hand ------------------------------------
# main: self 10 + 5 + 5 (Ir), calls parse twice (600) and copy once (100);
# parse: self 300 in prog.c, 100 inlined from util.h (fi=): callgrind_annotate
# counts that to util.h:parse; it calls copy three times (200); copy: self
# 300.  Inclusive: main 720 (the summary), copy 100 + 200; parse's 600 is
# measured into it (callgrind_annotate's inclusive), util.h:parse's 100
# included: that code is inside prog.c:parse, an arc of no calls.
HAND = {
    "Ir": {"prog.c:main": (20, 720), "prog.c:parse": (300, 600),
           "util.h:parse": (100, 100), "util.h:copy": (300, 300)},
    "Dr": {"prog.c:main": (2, 252), "prog.c:parse": (100, 200),
           "util.h:parse": (10, 10), "util.h:copy": (140, 140)},
}


def hand():
    for event, want in HAND.items():
        doc = flat(SMALL, "--sample-type", event)
        by_index = flat(SMALL, "--sample-type", str(list(HAND).index(event)))
        if not doc or not by_index:
            continue
        check_equal(f"{event} by its number", by_function(by_index), by_function(doc))
        check_equal(f"{event} sample type", doc["sample_type"], event)
        check_equal(f"{event} duration (summary:)", doc["duration"],
                    720 if event == "Ir" else 252)
        check_equal(f"{event} functions", by_function(doc), want)
        calls = {f"{r['url']}:{r['name']}": r["calls"] for r in doc["rows"]}
        check_equal(f"{event} calls", calls,
                    {"prog.c:main": 0, "prog.c:parse": 2, "util.h:parse": 0, "util.h:copy": 4})
    if not shutil.which("callgrind_annotate"):
        return
    for event in HAND:
        doc = flat(SMALL, "--sample-type", event)
        ours = by_function(doc) if doc else {}
        selfs = annotate(SMALL, "no", event)
        check_equal(f"{event}: self as callgrind_annotate",
                    {k: v[0] for k, v in ours.items() if v[0]}, selfs)
        incl = annotate(SMALL, "yes", event)
        for name in ("prog.c:main", "prog.c:parse", "util.h:parse", "util.h:copy"):
            check_equal(f"{event}: inclusive {name} as callgrind_annotate",
                        ours.get(name, (0, 0))[1], incl.get(name))


# ---- a program run under callgrind now -----------------------------------------
PROGRAM = r"""
#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long work(int k) { long s = 0; for (int i = 0; i < k * 1000; i++) s += i % 7; return s; }
static long helper(int k) { return work(k) + work(k / 2); }
int main(void)
{
	long s = 0;
	for (int i = 0; i < 5; i++)
		s += helper(i + 3);
	s += fib(15);
	printf("%ld\n", s);
	return 0;
}
"""


def live():
    if not shutil.which("valgrind") or not shutil.which("gcc") or \
            not shutil.which("callgrind_annotate"):
        print("valgrind, gcc or callgrind_annotate missing: skipped")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "prog.c"), os.path.join(tmp, "prog")
        out = os.path.join(tmp, "callgrind.out.1")
        with open(src, "w") as f:
            f.write(PROGRAM)
        subprocess.run(["gcc", "-O0", "-g", "-o", exe, src], check=True)
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", exe],
                       check=True, capture_output=True, timeout=300)
        doc = flat(out)
        if not doc:
            return
        ours = by_function(doc)
        selfs = annotate(out, "no")
        if len(selfs) < 20:
            fail(f"callgrind_annotate listed {len(selfs)} functions only")
        # callgrind_annotate strips the current directory from file names;
        # it runs in / here, so names are as the file gives them.
        check_equal("self of every function as callgrind_annotate",
                    {k: v[0] for k, v in ours.items() if v[0]}, selfs)
        incl = annotate(out, "yes")
        src_file = src if f"{src}:main" in ours else None
        for fn in ("main", "helper", "work"):
            name = f"{src_file}:{fn}"
            check_equal(f"inclusive {fn} as callgrind_annotate",
                        ours.get(name, (None, None))[1], incl.get(name))
        check_equal("duration: summary", doc["duration"], sum(selfs.values()))
        gz = out + ".gz"
        subprocess.run(["gzip", "-k", out], check=True)
        doc_gz = flat(gz)
        if doc_gz:
            check_equal("gzip", by_function(doc_gz), ours)


# ---- valgrind's own files --------------------------------------------------------
# valgrind 3.19 on three small programs (testdata/README.md): code inlined
# from another file (hot.h into a.c's run_a and b.c's run_b), a program
# that ends in _Exit, a thread made by clone.  testdata/expected/ has
# `callgrind_annotate --threshold=100 --auto=no --inclusive=yes|no` run in
# / on each: every function's self and inclusive cost.
REAL = {
    "inline": {"/work/material/r3/03-callgrind/inline/a.c:run_a": (700006, 1300006),
               "/work/material/r3/03-callgrind/inline/hot.h:run_a": (600000, 600000)},
    "exit": {"./posix/../sysdeps/unix/sysv/linux/_exit.c:_Exit": (4, 4)},
    "thread": {"./misc/../sysdeps/unix/sysv/linux/x86_64/clone.S:clone": (25, 18)},
}


def real():
    for name, spot in REAL.items():
        doc = flat(os.path.join(TESTDATA, "callgrind", f"{name}.callgrind"))
        if not doc:
            continue
        ours = by_function(doc)
        costs = []
        for inclusive in ("no", "yes"):
            path = os.path.join(TESTDATA, "expected",
                                f"{name}.callgrind.annotate.inclusive-{inclusive}.txt")
            with open(path) as f:
                costs.append(annotate_costs(f.read()))
        selfs, incl = costs
        check_equal(f"{name}: self as callgrind_annotate",
                    {k: v[0] for k, v in ours.items() if v[0]}, selfs)
        check_equal(f"{name}: inclusive as callgrind_annotate",
                    {k: v[1] for k, v in ours.items() if v[1]}, incl)
        for function, want in spot.items():
            check_equal(f"{name}: {function}", ours.get(function), want)


# ---- bad input ---------------------------------------------------------------
HEAD = b"# callgrind format\nevents: Ir\n"  # 30 bytes
BAD = [
    ("cost before fn=", HEAD + b"1 10\n", ["callgrind, byte 30: line 3: ", "before any fn="]),
    ("not a number", HEAD + b"fn=f\n1 1x\n", ["callgrind, byte 35: line 4: ", "not a whole number"]),
    ("too many costs", HEAD + b"fn=f\n1 1 2\n", ["more costs than events", "line 4"]),
    ("calls= without cfn=", HEAD + b"fn=f\ncalls=1 2\n1 3\n", ["without a cfn=", "line 4"]),
    ("calls= without its cost", HEAD + b"fn=f\ncfn=g\ncalls=1 2\nfn=h\n",
     ["callgrind, byte 51: line 6: ", "not followed by its cost line"]),
    ("cut after calls=", HEAD + b"fn=f\ncfn=g\ncalls=1 2\n", ["ends after calls="]),
    ("name used before defined", HEAD + b"fn=(3)\n1 1\n",
     ["callgrind, byte 30: line 3: ", "used before it is defined"]),
    ("bad compression", HEAD + b"fn=(x) f\n1 1\n", ["compressed name", "line 3"]),
    ("enormous cost", HEAD + b"fn=f\n1 99999999999999999999\n", ["1e18", "line 4"]),
    ("unknown line", HEAD + b"fn=f\nwhat is this\n", ["callgrind, byte 35: line 4: ", "not callgrind's"]),
    ("fi before fn", HEAD + b"fi=a.h\n", ["before any fn=", "line 3"]),
    ("no events", b"# callgrind format\nversion: 1\npositions: line\n", ['no "events:" line']),
    ("unknown event", None, ["no event 'Dx'", "events: 0=Ir 1=Dr"]),
]


def bad():
    small = open(SMALL, "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, words in BAD:
            extra = []
            if data is None:
                data, extra = small, ["--sample-type", "Dx"]
            path = os.path.join(tmp, "bad.out")
            with open(path, "wb") as f:
                f.write(data)
            p = subprocess.run([WPROF, "--report", "flat", path, *extra], capture_output=True,
                               text=True, timeout=60)
            lines = p.stderr.strip().splitlines()
            ok = p.returncode == 2 and not p.stdout and len(lines) == 1 and \
                "callgrind" in lines[0] and all(w in lines[0] for w in words)
            if not ok:
                fail(f"{name}: exit {p.returncode}, stderr {p.stderr!r}")


{"hand": hand, "live": live, "real": real, "bad": bad}[WHAT]()
if failures:
    sys.exit(1)
print("ok")
