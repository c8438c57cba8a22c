#!/usr/bin/env python3
"""Folded stacks, perf script, .heapprofile and Firefox Profiler files through the wprof-tui binary.

    formats.py WPROF TESTDATA folded     hand-worked stacks, differential form
    formats.py WPROF TESTDATA perf       testdata files vs perf report's output
    formats.py WPROF TESTDATA perf-live  perf record + script + report now (77: no perf)
    formats.py WPROF TESTDATA heap       .heapprofile vs selfSize summed here
    formats.py WPROF TESTDATA firefox    Firefox Profiler files (processed, Gecko) vs numbers by hand
    formats.py WPROF TESTDATA roundtrip  export to pprof, cpuprofile, folded and back
    formats.py WPROF TESTDATA bad        broken input: one line, the byte, exit 2

Expected numbers are worked by hand, read from the files themselves by
this script, or printed by `perf report --no-children --sort sym`
(testdata/expected/*.perf.report.txt, or perf run during the test)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
FORMATS = os.path.abspath(os.path.join(TESTDATA, "formats"))
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def run(args, check=True):
    p = subprocess.run([WPROF] + args, capture_output=True, text=True, timeout=120)
    if check and p.returncode != 0:
        fail(f"wprof-tui {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p


def flat(path, *extra, rule="exact"):
    p = run(["--report", "flat", "--rule", rule, "--format", "json", path] + list(extra))
    return json.loads(p.stdout) if p.returncode == 0 else None


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def by_name(report, field="self"):
    out = {}
    for r in report["rows"]:
        out[r["name"]] = out.get(r["name"], 0) + r[field]
    return out


def expect_values(label, report, want, field="self"):
    got = by_name(report, field)
    for name, value in want.items():
        if not close(got.get(name, 0), value):
            fail(f"{label}: {name}: {field} {got.get(name)} != {value}")
    for name, value in got.items():
        if name not in want and value:
            fail(f"{label}: {name} has {field} {value}, want none")


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    return path


# ---- folded stacks -----------------------------------------------------------

# docs/time-rules.md's worked example: main>a>leaf 3, main>b>leaf 1, main>a 2.
WORKED = "main;a;leaf 3\nmain;b;leaf 1\nmain;a 2\n"
WORKED_SELF = {"leaf": 4, "a": 2, "b": 0, "main": 0}
WORKED_EXACT = {"leaf": 4, "a": 5, "b": 1, "main": 6}
WORKED_DIVIDED = {"leaf": 4, "a": 4, "b": 2, "main": 6}

# BASE: the worked example; NEW: leaf under a 5, under b gone, c new 4.
DIFFERENTIAL = "main;a;leaf 3 5\nmain;b;leaf 1 0\nmain;a 2 2\nmain;c 0 4\n"


def test_folded(tmp):
    path = write(tmp, "worked.folded", WORKED)
    for rule, want in (("exact", WORKED_EXACT), ("additive", WORKED_EXACT),
                       ("divided", WORKED_DIVIDED)):
        report = flat(path, rule=rule)
        if report:
            expect_values(f"folded {rule}", report, WORKED_SELF)
            expect_values(f"folded {rule}", report, want, "total")
    report = flat(path)
    if report and (report["format"] != "folded stacks" or report["unit"] != "count"
                   or report["samples"] != 0):
        fail(f"folded header: {report['format']} {report['unit']} {report['samples']}")
    # CRLF, blank lines, a fractional count (what --export folded may write).
    report = flat(write(tmp, "crlf.folded", "main;a;leaf 3\r\n\r\nmain;a 2.5\r\n"))
    if report:
        expect_values("folded CRLF", report, {"leaf": 3, "a": 2.5})
    # stackcollapse's type suffixes and py-spy's places.
    text = ("perl;main_[j];Perl_runops_[k] 7\n"
            "python;main (app.py:10);work (app.py:3) 5\n"
            "python;main (app.py:10);helper [lib.py:22] 1\n")
    report = flat(write(tmp, "annotated.folded", text))
    if report:
        expect_values("annotated", report, {"Perl_runops": 7, "work": 5, "helper": 1})
        rows = {r["name"]: r for r in report["rows"]}
        for name, url, line in (("work", "app.py", 3), ("main", "app.py", 10),
                                ("helper", "lib.py", 22)):
            r = rows.get(name)
            if not r or r["url"] != url or r["line"] != line:
                fail(f"annotated: {name} at {r and (r['url'], r['line'])}, want {url}:{line}")
    test_differential(tmp)


def diff_rows(report):
    return {r["name"]: r for r in report["rows"]}


def test_differential(tmp):
    path = write(tmp, "two.folded", DIFFERENTIAL)
    p = run(["--report", "flat", "--diff", "--format", "json", path])
    if p.returncode != 0:
        return
    rows = diff_rows(json.loads(p.stdout))
    want = {  # name: (base self, base total, new self, new total)
        "main": (0, 6, 0, 11), "a": (2, 5, 2, 7), "leaf": (4, 4, 5, 5),
        "b": (0, 1, 0, 0), "c": (0, 0, 4, 4),
    }
    for name, (bs, bt, ns, nt) in want.items():
        r = rows.get(name)
        if not r:
            fail(f"differential: no row {name}")
            continue
        base, new = r.get("base") or {}, r.get("new") or {}
        got = (base.get("self", 0), base.get("total", 0), new.get("self", 0),
               new.get("total", 0))
        if not all(close(g, w) for g, w in zip(got, (bs, bt, ns, nt))):
            fail(f"differential: {name}: {got}, want {(bs, bt, ns, nt)}")
        if not close(r["delta"], nt - bt):
            fail(f"differential: {name}: delta {r['delta']}, want {nt - bt}")
    # Read as one profile it is BASE, and stderr says so.
    p = run(["--report", "flat", "--format", "json", path])
    if p.returncode == 0:
        expect_values("differential as one", json.loads(p.stdout), WORKED_EXACT, "total")
        if "BASE" not in p.stderr:
            fail("differential as one profile: no note on stderr")
    p = run(["--report", "flat", "--diff", path, path], check=False)
    if p.returncode != 2 or "BASE and NEW already" not in p.stderr:
        fail(f"differential with a second file: {p.returncode} {p.stderr.strip()}")
    p = run(["--report", "flat", "--diff", write(tmp, "one.folded", WORKED)], check=False)
    if p.returncode != 2 or "--diff needs two profiles" not in p.stderr:
        fail(f"--diff with one plain file: {p.returncode} {p.stderr.strip()}")


# ---- perf script ----------------------------------------------------------------

V8_TAGS = ("JS:", "LazyCompile:", "Function:", "Script:", "Eval:")


def perf_symbol_name(symbol):
    """perf report's symbol as wprof-tui names the function: V8's perf map
    names lose their tag and tier mark, unresolved addresses are
    [unknown]."""
    if symbol.startswith("0x") or symbol == "[unknown]":
        return "[unknown]"
    for tag in V8_TAGS:
        if symbol.startswith(tag) and " " in symbol:
            name = symbol[len(tag):].rsplit(" ", 1)[0]
            if name[:1] in "*~^+":
                name = name[1:]
            return name or "(anonymous)"
    return symbol


def parse_perf_report(text):
    """{name: (period, samples)} from perf report -F period,sample,sym."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"\s*(\d+)\s+(\d+)\s+\[.\]\s+(.*?)\s*$", line)
        if m:
            name = perf_symbol_name(m.group(3))
            period, samples = out.get(name, (0, 0))
            out[name] = (period + int(m.group(1)), samples + int(m.group(2)))
    return out


def compare_perf(label, report, perf_text, by_samples=False):
    expected = parse_perf_report(perf_text)
    if not expected:
        fail(f"{label}: perf report printed no rows")
        return
    want = {n: (s if by_samples else p / 1000) for n, (p, s) in expected.items()}
    expect_values(label, report, want)
    if not close(report["profile_total"], sum(want.values())):
        fail(f"{label}: total {report['profile_total']} != {sum(want.values())}")


THREADS = ("a 10 1.000000:    1000000 cpu-clock:\n\t1 f (x)\n\t2 main (x)\n\n"
           "b 20 1.001000:    3000000 cpu-clock:\n\t1 g (x)\n\t2 main (x)\n\n"
           "a 11 1.002000:    2000000 cpu-clock:\n\t3 h (x)\n")


def test_perf(tmp):
    # One sample of 1001001 ns: _Z4betav's self, everyone's total.
    simple = os.path.join(FORMATS, "perf-script-simple.txt")
    report = flat(simple)
    if report:
        expect_values("perf-script-simple", report, {"_Z4betav": 1001.001})
        for name in ("_Z5deltav", "main", "__libc_start_main", "[unknown]",
                     "simple-terminat"):
            if not close(by_name(report, "total").get(name, 0), 1001.001):
                fail(f"perf-script-simple: {name} total, want 1001.001")
    for name in ("prog", "fib"):
        with open(os.path.join(TESTDATA, "expected", f"{name}.perf.report.txt")) as f:
            expected = f.read()
        report = flat(os.path.join(FORMATS, f"{name}.perf.txt"))
        if report:
            compare_perf(f"{name}.perf.txt", report, expected)
    report = flat(os.path.join(FORMATS, "fib.perf.txt"))
    if report:
        fib = [r for r in report["rows"] if r["name"] == "fib"]
        if len(fib) != 1 or not fib[0]["url"].endswith("fib.js") or fib[0]["line"] != 1:
            fail(f"fib.perf.txt: the JIT frame fib: {fib}")
    # Threads and commands.
    path = write(tmp, "threads.perf", THREADS)
    for args, want in (([], {"f": 1000, "g": 3000, "h": 2000}),
                       (["--thread", "a"], {"f": 1000, "h": 2000}),
                       (["--thread", "20"], {"g": 3000}),
                       (["--thread", "11"], {"h": 2000})):
        report = flat(path, *args)
        if report:
            expect_values(f"threads {args}", report, want)
    # pid/tid, [cpu], an event with modifiers, a dso with parentheses, a
    # srcline, old and new V8 names, a frame on the header line.
    mixed = ("prog 100/101 [002] 5.000000:     2000 cycles:u:\n"
             "\t    1000 foo+0x10 (/bin/x (deleted))\n"
             "\t    2000 LazyCompile:~bar /app/b.js:7 (/tmp/perf-100.map)\n"
             "  b.c:12\n"
             "\t    3000 JS:*get x /app/c.js:3:9 (/tmp/perf-100.map)\n\n"
             "       prog 101 [003] 5.001000:     3000 cycles:u:  4000 baz+0x3 (/bin/x)\n")
    report = flat(write(tmp, "mixed.perf", mixed))
    if report:
        expect_values("mixed", report, {"foo": 2000, "baz": 3000})
        expect_values("mixed", report, {"foo": 2000, "bar": 2000, "get x": 2000,
                                         "baz": 3000, "prog": 5000}, "total")
        places = {r["name"]: (r["url"], r["line"], r["column"]) for r in report["rows"]}
        for name, place in (("foo", ("/bin/x (deleted)", -1, -1)),
                            ("bar", ("/app/b.js", 7, -1)),
                            ("get x", ("/app/c.js", 3, 9))):
            if places.get(name) != place:
                fail(f"mixed: {name} at {places.get(name)}, want {place}")
        if report["sample_type"] != "cycles:u" or report["unit"] != "count":
            fail(f"mixed: type {report['sample_type']} ({report['unit']})")
    # -F tid,time,ip,sym pads short thread ids: a header may start blank.
    padded = " 9876   304.311387: \n\tffff f\n\n  987   304.311390: \n\tffff g\n"
    report = flat(write(tmp, "padded.perf", padded))
    if report:
        expect_values("padded tids", report, {"f": 1, "g": 1})
    # Without -g the ip ends the header, and a user-space address may be
    # all decimal digits: it is no period (one was read as 557208001166).
    # With -F period,ip,sym the period comes first.
    no_stacks = ("23344 36623.604785:      557208001166 leaf_a\n"
                 "23344 36623.605035:      557208001171 leaf_a\n"
                 "23344 36623.605285:  ffffffff8225f2d9 pvm_irq_enable\n")
    report = flat(write(tmp, "no-stacks.perf", no_stacks))
    if report:
        expect_values("ip of digits", report, {"leaf_a": 2, "pvm_irq_enable": 1})
    with_period = ("23344 36623.604785:     250000      557208001166 leaf_a\n"
                   "23344 36623.605035:     250000  ffffffff8225f2d9 pvm_irq_enable\n")
    report = flat(write(tmp, "period-ip.perf", with_period))
    if report:
        expect_values("period, ip of digits", report,
                      {"leaf_a": 250000, "pvm_irq_enable": 250000})
    p = run(["--report", "flat", "--thread", "zzz", path], check=False)
    if p.returncode != 2 or "no thread or command 'zzz'" not in p.stderr:
        fail(f"--thread zzz: {p.returncode} {p.stderr.strip()}")
    test_perf_inline_wasm()


# perf 6.1 on the two real files of testdata/formats (54 and 84 samples),
# from `perf report --stdio --sort sym -g none`, --no-children (self) and
# --children (total), percentages of the event count.
INLINE_SELF = {"work": 87.04, "other": 7.41, "_raw_spin_unlock_irqrestore": 1.85,
               "put_cred_rcu": 1.85, "sched_balance_update_blocked_averages": 1.85}
# perf lists `mix (inlined)` twice (59.26% and 16.67%): one function here.
INLINE_TOTAL = {"work": 92.59, "mix (inlined)": 59.26 + 16.67, "main": 100.0,
                "__libc_start_main_impl (inlined)": 100.0, "other": 7.41}


def percentages(report, field):
    return {name: 100 * v / report["profile_total"]
            for name, v in by_name(report, field).items()}


def near(label, got, want):
    for name, value in want.items():
        if abs(got.get(name, 0) - value) > 0.006:
            fail(f"{label}: {name} {got.get(name)}% != {value}%")


def test_perf_inline_wasm():
    report = flat(os.path.join(FORMATS, "inline.perf.txt"))
    if report:
        near("inline.perf.txt self", percentages(report, "self"), INLINE_SELF)
        if abs(sum(percentages(report, "self").values()) - 100) > 1e-6:
            fail("inline.perf.txt: self does not add up to 100 %")
        near("inline.perf.txt total", percentages(report, "total"), INLINE_TOTAL)
        inlined = [r for r in report["rows"] if r["name"].endswith(" (inlined)")]
        if len(inlined) != 2 or any(r["url"] for r in inlined):
            fail(f"inline.perf.txt: inlined functions {inlined}")
    # JS:fib-0-turbofan (71.43% self, 72.62% children) and JS:fib-0-liftoff
    # (0% self, 23.81% children, always under turbofan): one wasm fib.
    report = flat(os.path.join(FORMATS, "wasm.perf.txt.gz"))
    if report:
        fib = [r for r in report["rows"] if "fib" in r["name"]]
        if [(r["name"], r["url"]) for r in fib] != [("fib", "")]:
            fail(f"wasm.perf.txt.gz: fib rows {fib}")
        near("wasm.perf.txt.gz self", percentages(report, "self"), {"fib": 71.43})
        near("wasm.perf.txt.gz total", percentages(report, "total"),
             {"fib": 72.62, "driver": 72.62, "Builtins_GenericJSToWasmWrapper": 72.62})


def perf_works(tmp):
    if not shutil.which("perf") or not shutil.which("gcc"):
        return False
    p = subprocess.run(["perf", "record", "-o", os.path.join(tmp, "probe.data"), "true"],
                       capture_output=True)
    return p.returncode == 0


def perf_record(tmp, name, command, extra=()):
    data = os.path.join(tmp, name + ".data")
    p = subprocess.run(["perf", "record", *extra, "-o", data, "--"] + command,
                       capture_output=True, text=True, cwd=tmp)
    if p.returncode != 0:
        fail(f"perf record {command}: {p.stderr.strip()}")
        return None
    return data


def perf_script(tmp, data, name, fields=None):
    out = os.path.join(tmp, name)
    args = ["perf", "script", "-i", data] + (["-F", fields] if fields else [])
    with open(out, "w") as f:
        subprocess.run(args, stdout=f, stderr=subprocess.DEVNULL, check=True)
    return out


def perf_report(data):
    return subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "sym",
                           "--stdio", "-g", "none", "-F", "period,sample,sym"],
                          capture_output=True, text=True).stdout


def test_perf_live(tmp):
    if not perf_works(tmp):
        print("perf record does not work here (or gcc is missing): skipped")
        sys.exit(77)
    prog = os.path.join(tmp, "prog")
    subprocess.run(["gcc", "-O1", "-g", "-fno-omit-frame-pointer", "-o", prog,
                    os.path.join(FORMATS, "prog.c")], check=True)
    cases = [("prog -g", [prog, "200"], ["-g"]), ("prog", [prog, "100"], [])]
    if shutil.which("node"):
        cases.append(("node --perf-basic-prof", ["node", "--perf-basic-prof",
                      os.path.join(FORMATS, "fib.js")], ["-g"]))
    else:
        print("node is not installed: its JIT frames are not tried")
    for label, command, extra in cases:
        data = perf_record(tmp, label.split()[0], command, extra)
        if not data:
            continue
        expected = perf_report(data)
        text = perf_script(tmp, data, label.replace(" ", "_") + ".txt")
        report = flat(text)
        if report:
            compare_perf(f"live {label}", report, expected)
        # -F without period, dso or comm: each sample counts one.
        report = flat(perf_script(tmp, data, label.replace(" ", "_") + ".F.txt",
                                  "tid,time,ip,sym"))
        if report:
            compare_perf(f"live {label} -F tid,time,ip,sym", report, expected, True)
            if report["unit"] != "count":
                fail(f"live {label} -F: unit {report['unit']}, want count")
        remove_perf_maps(text)


def remove_perf_maps(perf_text):
    """node --perf-basic-prof leaves /tmp/perf-PID.map behind."""
    with open(perf_text) as f:
        for path in set(re.findall(r"\((/tmp/perf-\d+\.map)\)", f.read())):
            if os.path.exists(path):
                os.remove(path)


# ---- heap profiles -----------------------------------------------------------------

def heap_expected(path):
    """Per function (name, url, line, column): selfSize summed, and the
    selfSize of every node with the function on its path (exact)."""
    with open(path) as f:
        head = json.load(f)["head"]
    self_, total = {}, {}
    stack = [(head, ())]
    while stack:
        node, above = stack.pop()
        cf = node["callFrame"]
        # The report's lines and columns are 1-based, as DevTools shows them.
        key = (cf["functionName"] or "(anonymous)", cf["url"],
               cf["lineNumber"] + 1 if cf["lineNumber"] >= 0 else -1,
               cf["columnNumber"] + 1 if cf["columnNumber"] >= 0 else -1)
        path = above if key in above else above + (key,)
        self_[key] = self_.get(key, 0) + node["selfSize"]
        for k in path:
            total[k] = total.get(k, 0) + node["selfSize"]
        stack += [(c, path) for c in node["children"]]
    return self_, total


def compare_heap(label, path):
    want_self, want_total = heap_expected(path)
    report = flat(path)
    if not report:
        return
    if report["unit"] != "bytes":
        fail(f"{label}: unit {report['unit']}")
    got = {(r["name"], r["url"], r["line"], r["column"]): r for r in report["rows"]}
    for key, value in want_self.items():
        r = got.get(key)
        if not r:
            fail(f"{label}: no row for {key}")
        elif not close(r["self"], value) or not close(r["total"], want_total[key]):
            fail(f"{label}: {key}: {r['self']}/{r['total']}, want "
                 f"{value}/{want_total[key]}")
    if len(got) != len(want_self):
        fail(f"{label}: {len(got)} functions, want {len(want_self)}")


def test_heap(tmp):
    compare_heap("alloc.heapprofile", os.path.join(FORMATS, "alloc.heapprofile"))
    if not shutil.which("node"):
        print("node is not installed: node --heap-prof not tried")
        return
    subprocess.run(["node", "--heap-prof", "--heap-prof-interval=4096",
                    "--heap-prof-dir", tmp, os.path.join(FORMATS, "alloc.js")],
                   check=True, capture_output=True)
    made = [f for f in os.listdir(tmp) if f.endswith(".heapprofile")]
    if len(made) != 1:
        fail(f"node --heap-prof wrote {made}")
    else:
        compare_heap("node --heap-prof now", os.path.join(tmp, made[0]))


# ---- round trips ------------------------------------------------------------------

def unique_rows(report, key):
    rows = {}
    for r in report["rows"]:
        rows.setdefault(key(r), []).append(r)
    return {k: v[0] for k, v in rows.items() if len(v) == 1}


def same_report(label, before, after, key):
    if not close(before["profile_total"], after["profile_total"]):
        fail(f"{label}: total {after['profile_total']} != {before['profile_total']}")
    a = unique_rows(after, key)
    compared = 0
    for k, r in unique_rows(before, key).items():
        got = a.get(k)
        if not got:
            if r["self"] or r["total"]:
                fail(f"{label}: {k} is missing")
            continue
        for field in ("self", "total"):
            if not close(r[field], got[field]):
                fail(f"{label}: {k}: {field} {got[field]} != {r[field]}")
        compared += 1
    if not compared:
        fail(f"{label}: nothing compared")
    # Whatever shares a key, its self values still add up.
    bs, as_ = {}, {}
    for r in before["rows"]:
        bs[key(r)] = bs.get(key(r), 0) + r["self"]
    for r in after["rows"]:
        as_[key(r)] = as_.get(key(r), 0) + r["self"]
    for k, v in bs.items():
        if not close(v, as_.get(k, 0)):
            fail(f"{label}: {k}: self {as_.get(k)} != {v}")


def check_integer_times(tmp):
    """Exported startTime and endTime are integers (not 1.79529795496375e+15
    nor …050.0).  validate.xsbug starts at its `start` time, 0x660D060611C0C
    µs, and its samples end by its `stop` time, 0x660D060DF4320."""
    start, stop = 0x660D060611C0C, 0x660D060DF4320
    src = os.path.join(TESTDATA, "validate.xsbug")
    out = os.path.join(tmp, "validate.cpuprofile")
    run(["--export", "cpuprofile", "-o", out, src])
    raw = open(out).read()
    doc = json.loads(raw)
    for field in ("startTime", "endTime"):
        if not re.search(r'"%s":\d+[,}]' % field, raw):
            fail(f"export cpuprofile: {field} is not written as an integer")
    if doc["startTime"] != start or not start < doc["endTime"] <= stop:
        fail(f"export cpuprofile: {doc['startTime']}..{doc['endTime']}, "
             f"wanted {start}..(at most) {stop}")
    out = os.path.join(tmp, "validate.trace.json")
    run(["--export", "trace", "-o", out, src])
    raw = open(out).read()
    for field in ("ts", "startTime", "endTime"):
        if not re.search(r'"%s":\d+[,}]' % field, raw) or re.search(r'"%s":[\d.]*[.eE]' % field, raw):
            fail(f"export trace: {field} is not written as an integer")


def test_roundtrip(tmp):
    check_integer_times(tmp)
    sources = [os.path.join(FORMATS, n) for n in
               ("perf-script-simple.txt", "prog.perf.txt", "fib.perf.txt",
                "alloc.heapprofile")]
    sources += [os.path.join(TESTDATA, "firefox", n) for n in
                ("gecko-main.processed.json", "shared-tables.processed.json",
                 "firefox.gecko.json")]
    sources.append(write(tmp, "worked.folded", WORKED))
    for src in sources:
        before = flat(src)
        if not before:
            continue
        name = os.path.basename(src)
        for fmt, ext in (("pprof", ".pb.gz"), ("cpuprofile", ".cpuprofile"),
                         ("folded", ".folded")):
            out = os.path.join(tmp, name + ext)
            if run(["--export", fmt, "-o", out, src]).returncode != 0:
                continue
            after = flat(out)
            if not after:
                continue
            # Folded stacks keep names only; the others keep the file too.
            key = (lambda r: r["name"]) if fmt == "folded" else \
                (lambda r: (r["name"], r["url"]))
            same_report(f"{name} -> {fmt}", before, after, key)


# ---- Firefox Profiler ----------------------------------------------------------

FIREFOX = os.path.abspath(os.path.join(TESTDATA, "firefox"))
GECKO_MAIN = os.path.join(FIREFOX, "gecko-main.processed.json")
SHARED = os.path.join(FIREFOX, "shared-tables.processed.json")
GECKO = os.path.join(FIREFOX, "firefox.gecko.json")

# By hand from the files (us); the profiler's traced timing: a sample
# lasts until the next, the last one interval (1 ms).  Parent Process
# GeckoMain: main 0..1, parse 1..4, compute 4..7 and 10..11, 0x1234
# under compute 7..9, no stack 9..10.
PARENT_SELF = {"main": 1000, "parse": 3000, "compute": 4000, "0x1234": 2000}
PARENT_TOTAL = {"main": 10000, "parse": 3000, "compute": 6000, "0x1234": 2000}
# Web Content GeckoMain (the default: a tab's main thread): render 20..22
# and one interval.
CONTENT_SELF = {"render": 3000}
# Shared tables: "tracer" (meta.initialSelectedThreads) weighs tracing-ms;
# "wasm" weighs samples of 0.5 ms: add 3, mul 2, run 1.
TRACER_SELF = {"run": 1000, "add": 1250, "mul": 2000}
WASM_SELF = {"run": 500, "add": 1500, "mul": 1000}
# Gecko: the parent GeckoMain (tid 10), 1 ms interval: main 0..2, run
# 2..3 and 5..6, helper 3..5, 0x7f00aa 6..9, js::RunScript 10..11.
GECKO_PARENT = {"Startup::XRE_Main": 0, "main": 2000, "js::RunScript": 1000,
                "(root scope) http://x.js": 0, "run": 2000, "helper": 2000, "0x7f00aa": 3000}
# The child process's tab GeckoMain (the default): render 100..103, layout 1.
GECKO_CONTENT = {"render": 3000, "layout": 1000}


def test_firefox(tmp):
    rep = flat(GECKO_MAIN)
    if rep:
        expect_values("default thread", rep, CONTENT_SELF)
    for wanted in ("100", "GeckoMain (Parent Process, pid 100, tid 100)"):
        rep = flat(GECKO_MAIN, "--thread", wanted)
        if rep:
            expect_values(f"--thread {wanted}", rep, PARENT_SELF)
            expect_values(f"--thread {wanted}", rep, PARENT_TOTAL, field="total")
            if rep["samples"] != 7 or not close(rep["duration"], 11000):
                fail(f"parent: {rep['samples']} samples over {rep['duration']} us, want 7 over 11000")
    rep = flat(SHARED)
    if rep:
        expect_values("shared tables, default", rep, TRACER_SELF)
    rep = flat(SHARED, "--thread", "wasm")
    if rep:
        expect_values("shared tables, wasm", rep, WASM_SELF)
    rep = flat(GECKO, "--thread", "10")
    if rep:
        expect_values("gecko --thread 10", rep, GECKO_PARENT)
    rep = flat(GECKO)
    if rep:
        expect_values("gecko default", rep, GECKO_CONTENT)
    # The timeline: the parent thread's first 4 ms are main 1, parse 3.
    rep = flat(GECKO_MAIN, "--thread", "100", "--range", "0ms-4ms")
    if rep:
        expect_values("range 0-4 ms", rep, {"main": 1000, "parse": 3000})
    p = run(["--report", "flat", GECKO_MAIN, "--thread", "nope"], check=False)
    if p.returncode != 2 or "GeckoMain (Parent Process, pid 100, tid 100)" not in p.stderr:
        fail(f"unknown --thread: exit {p.returncode}, {p.stderr.strip()!r}")


# ---- bad input ---------------------------------------------------------------------------

PERF_HEADER = "prog 10 1.000000:    250000 cpu-clock:\n"
HEAP = open(os.path.join(FORMATS, "alloc.heapprofile"), "rb").read()

FIREFOX_FILE = open(os.path.join(TESTDATA, "firefox", "gecko-main.processed.json"), "rb").read()

BAD = [
    # name, bytes, words the one line on stderr must hold
    ("firefox: truncated", FIREFOX_FILE[: len(FIREFOX_FILE) // 2], ["Firefox Profiler", "byte"]),
    # The thread shown by default (the tab's GeckoMain) points past its stacks.
    ("firefox: stack out of range", FIREFOX_FILE.replace(b'"stack": [0, 0]', b'"stack": [0, 9]'),
     ["Firefox Profiler", "samples.stack[1] = 9", "byte %d" % (FIREFOX_FILE.index(b'[0, 0]'))]),
    ("firefox: gecko data without schema",
     b'{"meta":{"version":27},"threads":[{"samples":{"data":[[0,1]]}}]}',
     ["Firefox Profiler", "samples.data without a schema", "byte 53"]),
    ("firefox: corrupt", FIREFOX_FILE[:496] + b"@" + FIREFOX_FILE[497:], ["Firefox Profiler", "byte 496"]),
    ("folded: no count", b"main;a 3\nmain;b\n", ["folded stacks, byte 9: line 2: "]),
    ("folded: not a number", b"main;a 3\nmain;b x7\n", ["folded stacks, byte 9: line 2: "]),
    ("folded: counts mixed", b"main;a 3 4\nmain;b 5\n", ["folded stacks, byte 11: line 2: ",
                                                          "one count"]),
    ("folded: enormous count", b"main;a 3\nmain;b 1e30\n", ["folded stacks, byte 9: line 2: ",
                                                             "beyond"]),
    ("folded: NUL", b"main;a 3\nma\x00in 2\n", ["not a profile"]),
    ("perf: stack before header", b"# comment\n" + PERF_HEADER.encode() + b"\tf\n\n\tg\n",
     ["perf script, byte ", ": line 5: ", "no sample header"]),
    ("perf: garbage header", PERF_HEADER.encode() + b"\tf\n\nwhat is this\n",
     ["perf script, byte %d: line 4: " % (len(PERF_HEADER) + 4), "not a sample header"]),
    ("perf: enormous line", PERF_HEADER.encode() + b"\t" + b"x" * (2 << 20) + b"\n",
     ["perf script, byte %d: " % len(PERF_HEADER), "longer than 1 MiB"]),
    ("perf: enormous period", b"prog 10 1.0: 99999999999999999 cpu-clock:\n\tf\n",
     ["perf script, byte 0: line 1: ", "period"]),
    ("heap: truncated", HEAP[: len(HEAP) // 2], ["heapprofile, byte "]),
    ("heap: corrupt", HEAP[:3000] + b"@" + HEAP[3001:], ["heapprofile, byte 300"]),
    ("heap: negative size", HEAP.replace(b'"selfSize":0', b'"selfSize":-5', 1),
     ["heapprofile, byte ", "negative selfSize"]),
    ("heap: enormous size", HEAP.replace(b'"selfSize":0', b'"selfSize":1e300', 1),
     ["heapprofile, byte ", "out of range"]),
    ("heap: child not a node", b'{"head":{"callFrame":{},"selfSize":1,"children":[3]}}',
     ["heapprofile, byte 49: ", "not a node"]),
]


def test_bad(tmp):
    for name, data, words in BAD:
        path = write(tmp, re.sub(r"\W+", "-", name), data)
        p = subprocess.run([WPROF, "--report", "flat", path], capture_output=True, timeout=60)
        err = p.stderr.decode("utf-8", "replace")
        problems = []
        if p.returncode != 2:
            problems.append(f"exit {p.returncode}, want 2")
        if p.stdout:
            problems.append("printed on stdout")
        if not err.startswith(f"wprof-tui: {path}: ") or err.count("\n") != 1:
            problems.append("want one line 'wprof-tui: FILE: ...'")
        problems += [f"lacks {w!r}" for w in words if w not in err]
        if problems:
            fail(f"{name}: {'; '.join(problems)}: {err.strip()}")


TESTS = {"folded": test_folded, "perf": test_perf, "perf-live": test_perf_live,
         "heap": test_heap, "firefox": test_firefox, "roundtrip": test_roundtrip, "bad": test_bad}

with tempfile.TemporaryDirectory() as tmp:
    TESTS[WHAT](tmp)
print(f"{WHAT}: {len(failures)} failures")
sys.exit(1 if failures else 0)
