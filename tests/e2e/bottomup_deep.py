#!/usr/bin/env python3
"""Bottom-up under recursion (issue 17): exact numbers on a small recursive
profile worked by hand, and a chain of a million calls of one function
(testdata/fuzz-regressions/pprof-million-deep-recursion.pb.gz, 1 KB) opened
in --report and in the explorer (--bench-keys) under a 512 MB address-space
limit and a time limit.  Each row used to keep every node of its function
still under the path: a million-deep chain cost about 2 KB a frame (2 GB)
in the report, and opening its whole subtree in the explorer did not end.

    bottomup_deep.py WPROF_TUI TESTDATA"""
import json
import os
import resource
import subprocess
import sys
import tempfile

WPROF, TESTDATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
DEEP = os.path.join(TESTDATA, "fuzz-regressions", "pprof-million-deep-recursion.pb.gz")
CHAIN = 1000000  # calls of `deep` on the one stack; the sample is 10 ns
# AddressSanitizer reserves terabytes of address space and runs slower:
# there, the limits are time alone, and longer.
with open(WPROF, "rb") as f:
    SANITIZED = b"__asan_init" in f.read()
SLOWER = 5 if SANITIZED else 1
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def limit_memory():
    limit = 512 << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def run(args, timeout=60, limited=False):
    timeout *= SLOWER
    try:
        r = subprocess.run([WPROF] + args, capture_output=True, timeout=timeout,
                           preexec_fn=limit_memory if limited and not SANITIZED else None)
    except subprocess.TimeoutExpired:
        check(False, "%s: no result in %d s" % (args, timeout))
        return None
    check(r.returncode == 0, "%s exits 0, not %d: %s" % (args, r.returncode, r.stderr[:300]))
    return r if r.returncode == 0 else None


def tree(rows):
    """{name: (self, total, {children})} from a JSON report's rows."""
    return {r["name"]: (r["self"], r["total"], tree(r.get("children", [])))
            for r in rows}


# By hand.  Stacks (root first): main;a;b;a 3, main;a 2, main;b;a 1, x;b;a 4.
# The call tree, with sub(v) = the samples under v:
#   main 6 > a 5 (self 2) > b 3 > a 3 (self 3);  main > b 1 > a 1 (self 1)
#   x 4 > b 4 > a 4 (self 4)
# A bottom-up row f <- c1 <- ... sums over the nodes of f whose callers are
# c1, ...: self, and sub(v) (additive: every such v; exact: only the v with
# no caller of the same function above it, so each sample counts once).
ADDITIVE = {
    "a": (10, 13, {
        "main": (2, 5, {}),
        "b": (8, 8, {
            "a": (3, 3, {"main": (3, 3, {})}),
            "main": (1, 1, {}),
            "x": (4, 4, {}),
        }),
    }),
    "b": (0, 8, {"a": (0, 3, {"main": (0, 3, {})}), "main": (0, 1, {}), "x": (0, 4, {})}),
    "main": (0, 6, {}),
    "x": (0, 4, {}),
}
EXACT = {
    "a": (10, 10, {
        "main": (2, 5, {}),
        "b": (8, 5, {  # main;a;b;a counts under main;a, its outer a
            "a": (3, 0, {"main": (3, 0, {})}),
            "main": (1, 1, {}),
            "x": (4, 4, {}),
        }),
    }),
    "b": (0, 8, {"a": (0, 3, {"main": (0, 3, {})}), "main": (0, 1, {}), "x": (0, 4, {})}),
    "main": (0, 6, {}),
    "x": (0, 4, {}),
}

with tempfile.TemporaryDirectory() as tmp:
    folded = os.path.join(tmp, "recursion.folded")
    with open(folded, "w") as f:
        f.write("main;a;b;a 3\nmain;a 2\nmain;b;a 1\nx;b;a 4\n")
    for rule, want in (("additive", ADDITIVE), ("exact", EXACT)):
        r = run(["--report", "bottom-up", "--rule", rule, "--depth", "all", "-f", "json", folded])
        if r:
            got = tree(json.loads(r.stdout)["rows"])
            check(got == want, "%s bottom-up by hand:\n  got  %s\n  want %s" % (rule, got, want))

# The million-deep chain in a report, 256 levels (the default): row d is
# `deep` called by d `deep`s; its nodes are the 1000000 - d deepest.
for rule in ("additive", "exact"):
    r = run(["--report", "bottom-up", "--rule", rule, "-f", "json", DEEP], limited=True)
    if not r:
        continue
    doc = json.loads(r.stdout)
    row, depth = doc["rows"][0], 0
    while True:
        # Additive: every node of the row counts the sample once; exact:
        # only the outermost node, which is in the top row alone.
        total = (CHAIN - depth) * 0.01 if rule == "additive" else (0.01 if depth == 0 else 0)
        if abs(row["self"] - 0.01) > 1e-9 or abs(row["total"] - total) > 1e-6:
            check(False, "%s row %d: self %s total %s, want 0.01 and %s"
                  % (rule, depth, row["self"], row["total"], total))
            break
        if not row.get("children"):
            break
        row, depth = row["children"][0], depth + 1
    check(depth == 256, "%s: 256 levels below the top row, got %d" % (rule, depth))
    check(doc.get("cut", {}).get("depth") == 256, "%s: the report says it cut" % rule)

# The explorer: bottom-up (2), open the row, then its whole subtree (*),
# which stops at 200000 rows; then another rule over those rows.
with tempfile.NamedTemporaryFile("w", suffix=".keys") as keys:
    keys.write("2\nEnter\n*\nEnd\nr\nwait\n")
    keys.flush()
    r = run(["--bench-keys", keys.name, DEEP], limited=True, timeout=120)
    if r:
        lines = r.stdout.decode().splitlines()
        star = [l for l in lines if l.startswith("*")]
        check(star and star[0].split()[-2] == "200002",
              "* opens 200000 rows under the top row: %r" % star)

for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
