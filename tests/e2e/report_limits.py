#!/usr/bin/env python3
"""Tree reports stay bounded: one pprof sample a million frames deep (a
1 MB file) must not print gigabytes.  Indentation stops at 32 levels and
deeper rows show their depth as a number; tree reports open 256 levels
and print 100000 rows unless --depth / --max-rows say otherwise, and say
when that cut anything (text: a '# cut:' line, CSV: stderr, JSON: "cut")."""
import json
import os
import tempfile

from protobuf_bytes import field, varint

from e2e import TESTDATA, check, finish, wprof


def deep_pprof(depth):
    """profile.proto by hand: one sample whose stack is location 1 (function
    `deep`) `depth` times: a chain `depth` levels deep in top-down."""
    sample_type = field(1, field(1, varint(1), 0) + field(2, varint(2), 0))
    sample = field(2, field(1, varint(1) * depth) + field(2, varint(10)))
    line = field(4, field(1, varint(1), 0) + field(2, varint(7), 0))
    location = field(4, field(1, varint(1), 0) + line)
    function = field(5, field(1, varint(1), 0) + field(2, varint(3), 0))
    strings = b"".join(field(6, s) for s in (b"", b"cpu", b"nanoseconds", b"deep"))
    return sample_type + sample + location + function + strings


def run(*args):
    r = wprof(*args, text=False, timeout=300)
    check(r.returncode == 0, "%s exits 0: %s" % (args, r.stderr[:300]))
    return r


with tempfile.TemporaryDirectory() as tmp:
    million = os.path.join(tmp, "million.pb")
    open(million, "wb").write(deep_pprof(1000000))
    check(os.path.getsize(million) < 1100000, "the million-deep profile is about 1 MB")
    hundred_k = os.path.join(tmp, "hundred-k.pb")
    open(hundred_k, "wb").write(deep_pprof(100000))

    # Defaults: 256 levels, said so; small output for every tree view.
    # (Bottom-up costs about 2 KB of memory a frame of the chain: the
    # 100000-deep profile keeps the test quick.)
    for view, path in (("top-down", million), ("bottom-up", hundred_k), ("callgraph", million)):
        r = run("--report", view, path)
        check(len(r.stdout) < 200000, "%s default: %d bytes" % (view, len(r.stdout)))
    out = run("--report", "top-down", million).stdout.decode()
    lines = out.splitlines()
    rows = [l for l in lines if not l.startswith("#") and "deep" in l]
    check(len(rows) == 257, "default depth 256: rows 0..256, got %d" % len(rows))
    check(lines[-1].startswith("# cut: rows below depth 256 not shown")
          and "--depth" in lines[-1], "text says where it cut: %r" % lines[-1])

    # Indentation: 2 columns a level up to 32 levels, then the depth as [N].
    name_at = [row.index("deep") for row in rows]
    check(name_at[31] - name_at[0] == 62, "31 levels indent 62 columns")
    check(rows[32].rstrip().endswith("[32] deep") and rows[256].rstrip().endswith("[256] deep"),
          "deeper rows show their depth: %r" % rows[32])
    check(len(set(len(r) - len(r.lstrip(" ")) for r in rows[40:])) <= 2,
          "indentation does not grow past 32 levels")

    # --depth all: the row limit stops it at 100000 rows, and says so.
    r = run("--report", "top-down", "--depth=all", million)
    lines = r.stdout.decode().splitlines()
    rows = [l for l in lines if not l.startswith("#")][1:]
    check(len(rows) == 100000, "--max-rows default 100000: %d rows" % len(rows))
    check(len(r.stdout) < 200 * 100000, "100000 rows in %d bytes" % len(r.stdout))
    check(lines[-1].startswith("# cut: --max-rows 100000") and "left closed" in lines[-1],
          "text says the row limit cut: %r" % lines[-1])

    # No limits: every row, linear in the depth (not its square).
    r = run("--report", "top-down", "--depth", "all", "--max-rows", "all", hundred_k)
    lines = r.stdout.decode().splitlines()
    check(lines[-1].rstrip().endswith("[99999] deep") and not lines[-1].startswith("# cut"),
          "no limits: the whole chain, no cut line: %r" % lines[-1])
    check(len(r.stdout) < 200 * 100000, "100000 levels in %d bytes" % len(r.stdout))

    # JSON: the default depth keeps the nesting readable; "cut" says why.
    r = run("--report", "top-down", "--format", "json", million)
    doc = json.loads(r.stdout)
    check(doc["cut"]["depth"] == 256 and doc["cut"]["rows_with_children_deeper"] == 1,
          "JSON cut: %s" % doc.get("cut"))
    node, depth = doc["rows"][0], 0
    while node.get("children"):
        node, depth = node["children"][0], depth + 1
    check(depth == 256, "JSON nests 256 levels below the root: %d" % depth)
    r = run("--report", "bottom-up", "--format=json", hundred_k)
    check("cut" in json.loads(r.stdout), "bottom-up JSON says it was cut")

    # Exports of the million-deep stack: folded stacks wrote it by
    # recursion, one C frame a stack frame, and crashed.
    for fmt in ("folded", "cpuprofile", "pprof"):
        out = os.path.join(tmp, "million." + fmt)
        run("--export", fmt, "-o", out, million)
        if fmt == "folded":
            text = open(out).read()
            check(text.count(";") == 999999 and text.endswith(" 0.01\n"),
                  "folded: one line of a million frames (%d)" % text.count(";"))

    # CSV: rows only; the note goes to stderr.
    r = run("--report", "top-down", "--format", "csv", million)
    check(len(r.stdout.splitlines()) == 258, "CSV: header and 257 rows")
    check(b"the report is cut: rows below depth 256" in r.stderr, "CSV note on stderr: %r" % r.stderr)

# An ordinary profile is not cut: no note anywhere.
profile = os.path.join(TESTDATA, "validate.cpuprofile")
for view in ("top-down", "bottom-up", "callgraph"):
    r = run("--report", view, profile)
    check(b"# cut" not in r.stdout, "%s of validate is whole" % view)
    r = run("--report", view, "-f", "json", profile)
    check("cut" not in json.loads(r.stdout), "%s JSON of validate has no cut" % view)
    r = run("--report", view, "-f", "csv", profile)
    check(not r.stderr, "%s CSV of validate: nothing on stderr" % view)

# --max-rows: top-down stops at N rows; the call graph at whole blocks.
r = run("--report", "top-down", "--max-rows", "10", "-f", "csv", profile)
check(len(r.stdout.splitlines()) == 11, "top-down --max-rows 10: 10 rows")
r = run("--report", "callgraph", "--max-rows=10", "-f", "json", profile)
doc = json.loads(r.stdout)
whole = json.loads(run("--report", "callgraph", "-f", "json", profile).stdout)
shown = sum(1 + len(b["callers"]) + len(b["callees"]) for b in doc["rows"])
check(0 < shown <= 10 and doc["rows"] == whole["rows"][:len(doc["rows"])],
      "callgraph --max-rows 10: whole blocks, %d rows" % shown)
check(doc["cut"]["rows_past_max_rows"] ==
      sum(1 + len(b["callers"]) + len(b["callees"]) for b in whole["rows"]) - shown,
      "callgraph cut counts the rows left out")

finish()
