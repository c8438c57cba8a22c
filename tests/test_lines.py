#!/usr/bin/env python3
"""Source lines (--report lines, issue 16), end to end through the binary.

    test_lines.py WPROF TESTDATA pprof  per-line flat/cum against go tool
                                        pprof -lines -top and -list (committed
                                        output; run again when go is here)
    test_lines.py WPROF TESTDATA node   V8 positionTicks: the hot line of a
                                        program whose hot loop is known
    test_lines.py WPROF TESTDATA granularity  --granularity files/lines flat
                                        against go tool pprof -files/-lines -top;
                                        exported, the file's samples
    test_lines.py WPROF TESTDATA bad    usage errors: exit status 2

Expected numbers come from go tool pprof's output and from the source
files' known hot lines, never from wprof-tui's own output."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_checks import Checks  # noqa: E402

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
GO_DIR = os.path.join(TESTDATA, "lines", "go")
NODE_DIR = os.path.join(TESTDATA, "lines", "node")
checks = Checks(WPROF)


def lines_json(path, regex=".", *extra):
    p = checks.run(["--report", "lines", "--function", regex, "--format", "json",
                    path, *extra])
    return json.loads(p.stdout) if p.returncode == 0 else None


def as_lines_top(report):
    """Our lines in go tool pprof -lines -top's terms: one row per
    'function file:line', '(inline)' after an inlined function's."""
    rows = []
    for fn in report["functions"]:
        name = fn["name"]
        inline = name.endswith(" (inline)")
        plain = name[:-len(" (inline)")] if inline else name
        for r in fn["rows"]:
            rows.append({"name": f"{plain} {r['file']}:{r['line']}" +
                                 (" (inline)" if inline else ""),
                         "self": r["self"], "total": r["total"]})
    return {"rows": rows, "profile_total": report["profile_total"]}


def go_available():
    return shutil.which("go") is not None


def check_lines_top(label, path, expected_file, *extra, go_args=()):
    report = lines_json(path, ".", *extra)
    if report is None:
        return
    with open(expected_file) as f:
        checks.compare_with_top(label + " (committed)", as_lines_top(report), f.read())
    if go_available():
        go = subprocess.run(["go", "tool", "pprof", "-lines", "-top", "-nodecount=100000",
                             "-nodefraction=0", "-edgefraction=0", *go_args, path],
                            capture_output=True, text=True)
        checks.compare_with_top(label + " (go now)", as_lines_top(report), go.stdout)


def without_comments(text):
    return "\n".join(l for l in text.splitlines() if not l.startswith("#")) + "\n"


def check_list():
    """The whole -list text, source lines and all, with inlining."""
    args = ["--report", "lines", "--function", r"main\.(hash|mix)",
            os.path.join(GO_DIR, "inline-lines.pprof"),
            "--trim-path", "/tmp/h9go", "--source-path", GO_DIR]
    got = without_comments(checks.run(args).stdout)
    with open(os.path.join(GO_DIR, "list.expected.txt")) as f:
        if got != f.read():
            checks.fail("-list: differs from go tool pprof -list (committed)")
    if go_available():
        go = subprocess.run(["go", "tool", "pprof", "-list", r"main\.(hash|mix)",
                             "-trim_path", "/tmp/h9go", "-source_path", GO_DIR,
                             os.path.join(GO_DIR, "inline-lines.pprof")],
                            capture_output=True, text=True)
        if got != go.stdout:
            checks.fail("-list: differs from go tool pprof -list (now):\n" + got)
    # Through a filter, as pprof -list with the same -focus (main.mix's
    # whole stacks are kept: its lines exactly as pprof has them, and the
    # Total still the whole profile's).
    ours = without_comments(checks.run(["--report", "lines", "--function", r"main\.mix",
                                        "--focus", r"main\.mix", *args[4:]]).stdout)
    with open(os.path.join(GO_DIR, "list-focus-mix.expected.txt")) as f:
        if ours != f.read():
            checks.fail("-list -focus: differs from go tool pprof (committed):\n" + ours)
    if go_available():
        go = subprocess.run(["go", "tool", "pprof", "-list", r"main\.mix", "-focus",
                             r"main\.mix", "-trim_path", "/tmp/h9go", "-source_path", GO_DIR,
                             os.path.join(GO_DIR, "inline-lines.pprof")],
                            capture_output=True, text=True)
        if ours != go.stdout:
            checks.fail("-list -focus: differs from go tool pprof (now):\n" + ours)
    # Without the source: the lines with numbers alone, and what was tried.
    bare = checks.run(args[:5]).stdout
    if not os.path.exists("/tmp/h9go/main.go") and (
            "# source not found (tried /tmp/h9go/main.go)" not in bare or
            not re.search(r"\n\s+200ms\s+280ms\s+21:\n", bare)):
        checks.fail("-list without source: the lines alone and what was tried:\n" + bare)
    csv = checks.run(args[:4] + ["--format", "csv"] + args[4:5]).stdout.splitlines()
    if csv[0] != "function,file,line,self,total" or \
       "main.hash,/tmp/h9go/main.go,21,200000,280000" not in csv:
        checks.fail("CSV lines report: " + "\n".join(csv))


def test_pprof():
    check_lines_top("inline-lines", os.path.join(GO_DIR, "inline-lines.pprof"),
                    os.path.join(GO_DIR, "inline-lines.lines-top.txt"))
    check_lines_top("inline.pprof", os.path.join(TESTDATA, "inline.pprof"),
                    os.path.join(GO_DIR, "inline.lines-top.txt"))
    for t in range(4):
        check_lines_top(f"heap.pprof type {t}", os.path.join(TESTDATA, "heap.pprof"),
                        os.path.join(GO_DIR, f"heap.{t}.lines-top.txt"),
                        "--sample-type", str(t), go_args=(f"-sample_index={t}",))
    check_list()
    check_recursion()


def check_recursion():
    """main.ackermann recurses on its one line (10): that line's flat is
    its self (180ms), not lost under the calls above it (go tool pprof
    -list, list-ackermann.txt, made with -trim_path so the ROUTINE line
    names the file as below)."""
    here = os.path.join(TESTDATA, "lines", "go-recursion")
    made_in = "/work/material/r3/05-go-pprof/cpu"
    got = without_comments(checks.run(
        ["--report", "lines", "--function", r"main\.ackermann",
         os.path.join(here, "cpu.pprof"), "--trim-path", made_in,
         "--source-path", here]).stdout)
    with open(os.path.join(here, "list-ackermann.txt")) as f:
        want = f.read().replace(f" in {made_in}/main.go\n", " in main.go\n")
    if got != want:
        checks.fail("-list main.ackermann: differs from go tool pprof -list:\n" + got)
    if go_available():
        go = subprocess.run(["go", "tool", "pprof", "-list", r"main\.ackermann",
                             "-trim_path", made_in, "-source_path", here,
                             os.path.join(here, "cpu.pprof")],
                            capture_output=True, text=True)
        if got != go.stdout:
            checks.fail("-list main.ackermann: differs from go tool pprof (now):\n" + got)


def check_hot_line(label, profile, *extra):
    """spin()'s loop body is line 8 of hot.js (1-based, as DevTools shows
    it): the hottest line, and every line inside spin()."""
    report = lines_json(profile, "^spin$", *extra)
    if report is None:
        return
    fns = report["functions"]
    if len(fns) != 1:
        checks.fail(f"{label}: {len(fns)} functions named spin")
        return
    rows = fns[0]["rows"]
    hottest = max(rows, key=lambda r: r["self"])
    if hottest["line"] != 8:
        checks.fail(f"{label}: hottest line {hottest['line']}, want 8")
    if fns[0]["start_line"] != 5 or any(not 5 <= r["line"] <= 11 for r in rows):
        checks.fail(f"{label}: spin() is lines 5-11: {fns[0]['start_line']} {rows}")
    if abs(sum(r["self"] for r in rows) - fns[0]["self"]) > 1e-6 or \
       any(r["total"] is not None for r in rows):
        checks.fail(f"{label}: self adds up, total n/a: {fns[0]}")
    return fns[0]


def self_by_line(profile, url_end):
    """DevTools' line costs worked out from the file: each node's self
    (the next-sample rule on its samples, in timestamp order) split over
    its positionTicks; per function (line, column), lines 1-based."""
    times, t = [], profile["startTime"]
    for d in profile["timeDeltas"]:
        t += d
        times.append(t)
    order = sorted(range(len(times)), key=lambda i: times[i])
    node_self = {}
    for k, i in enumerate(order):
        end = times[order[k + 1]] if k + 1 < len(order) else max(times[i], profile["endTime"])
        node_self[profile["samples"][i]] = node_self.get(profile["samples"][i], 0) + end - times[i]
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    by_id = {n["id"]: n for n in profile["nodes"]}
    totals = {}  # per function (line, column): its samples, each once (exact)
    for node, self in node_self.items():
        seen, v = set(), node
        while v is not None:
            cf = by_id[v]["callFrame"]
            if cf["url"].endswith(url_end):
                seen.add((cf["lineNumber"] + 1, cf["columnNumber"] + 1))
            v = parent.get(v)
        for place in seen:
            totals[place] = totals.get(place, 0) + self
    functions = {}
    for n in profile["nodes"]:
        cf = n["callFrame"]
        ticks = n.get("positionTicks", [])
        if not cf["url"].endswith(url_end) or not ticks:
            continue
        lines = functions.setdefault((cf["lineNumber"] + 1, cf["columnNumber"] + 1), {})
        all_ticks = sum(p["ticks"] for p in ticks)
        for p in ticks:
            lines[p["line"]] = lines.get(p["line"], 0) + \
                node_self.get(n["id"], 0) * p["ticks"] / all_ticks
    return functions, totals


def check_anonymous_functions():
    """Three (anonymous) functions in anon.js (the script, a map callback,
    a sort comparator): each listed with its own lines only."""
    path = os.path.join(NODE_DIR, "anon.cpuprofile")
    with open(path) as f:
        want, totals = self_by_line(json.load(f), "/anon.js")
    report = lines_json(path, r"^\(anonymous\)$")
    if report is None:
        return
    got = [fn for fn in report["functions"] if fn["file"].endswith("/anon.js")]
    if sorted(fn["start_line"] for fn in got) != sorted(line for line, _ in want):
        checks.fail(f"anon.js: functions at lines {[fn['start_line'] for fn in got]}, "
                    f"want {sorted(want)}")
        return
    for fn in got:
        lines = next(v for (line, _), v in want.items() if line == fn["start_line"])
        rows = {r["line"]: r["self"] for r in fn["rows"]}
        if sorted(rows) != sorted(lines) or \
           any(abs(rows[line] - lines[line]) > 1e-6 * max(1, lines[line]) for line in lines):
            checks.fail(f"anon.js function at line {fn['start_line']}: {rows}, want {lines}")
        # The ROUTINE's cum: the function's total, where lines have none.
        total = next(v for (line, _), v in totals.items() if line == fn["start_line"])
        if abs(fn["total"] - total) > 1e-6 * total:
            checks.fail(f"anon.js function at line {fn['start_line']}: total {fn['total']}, "
                        f"want {total}")
    # The comparator (line 12) holds most of the time of lines 13-15.
    comparator = next(fn for fn in got if fn["start_line"] == 12)
    if not {13, 14, 15} <= {r["line"] for r in comparator["rows"]}:
        checks.fail(f"the sort comparator's lines: {comparator['rows']}")


def test_node():
    check_anonymous_functions()
    committed = os.path.join(NODE_DIR, "hot.cpuprofile")
    fn = check_hot_line("committed hot.cpuprofile", committed)
    # By hand from the file: spin's positionTicks are line 8: 42, line 7:
    # 19, its self time split in that proportion.
    with open(committed) as f:
        prof = json.load(f)
    if fn:
        by_line = {r["line"]: r["self"] for r in fn["rows"]}
        if abs(by_line[8] / by_line[7] - 42 / 19) > 1e-9:
            checks.fail(f"committed: line 8 / line 7 = {by_line[8] / by_line[7]}, want 42/19")
    del prof
    text = checks.run(["--report", "lines", "--function", "^spin$", committed,
                       "--trim-path", "/tmp/h9node", "--source-path", NODE_DIR]).stdout
    if not re.search(r"\n\s+\S+ms\s+n/a\s+8:\t\tx = \(x \* 31 \+ i\) % 1000003;\n", text):
        checks.fail("text report: line 8 with its source text:\n" + text)
    # A trace's per-sample `lines` (testdata/trace/hand.json, 1-based as
    # DevTools shows them): a sample of leaf at line 31 and one of a at 12;
    # a's other two samples have no line, so line 12 has less than a's
    # whole self.
    trace = lines_json(os.path.join(TESTDATA, "trace", "hand.json"), "^(a|leaf)$")
    if trace:
        got = {f["name"]: f for f in trace["functions"]}
        a, leaf = got.get("a"), got.get("leaf")
        if not a or [r["line"] for r in a["rows"]] != [12] or \
           not 0 < a["rows"][0]["self"] < 2500 or \
           not leaf or [r["line"] for r in leaf["rows"]] != [31]:
            checks.fail(f"trace lines: {trace['functions']}")
    if not shutil.which("node"):
        return
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(NODE_DIR, "hot.js"), tmp)
        subprocess.run(["node", "--cpu-prof", "--cpu-prof-interval", "100",
                        "--cpu-prof-name", "hot.cpuprofile", "hot.js"], cwd=tmp,
                       check=True, capture_output=True)
        check_hot_line("node --cpu-prof now", os.path.join(tmp, "hot.cpuprofile"))
        # file:// URL as it is: the source is found without any option.
        report = lines_json(os.path.join(tmp, "hot.cpuprofile"), "^spin$")
        if report and report["functions"][0]["source"] != os.path.join(tmp, "hot.js"):
            checks.fail(f"file:// source not found: {report['functions'][0]['source']}")


def flat_by(granularity, path, *extra):
    """The flat report at a granularity, rows named as go tool pprof
    names them (-lines: 'f file:line', '(inline)' last; -files: the file)."""
    p = checks.run(["--report", "flat", "--granularity", granularity, "--format", "json",
                    path, *extra])
    if p.returncode:
        return None
    report = json.loads(p.stdout)
    for r in report["rows"]:
        if granularity == "lines" and report["format"] == "pprof":
            inline = r["name"].endswith(" (inline)")
            plain = r["name"][:-len(" (inline)")] if inline else r["name"]
            r["name"] = f"{plain} {r['url']}:{r['line']}" + (" (inline)" if inline else "")
    return report


def test_granularity():
    for name, path in (("inline-lines", os.path.join(GO_DIR, "inline-lines.pprof")),
                       ("inline", os.path.join(TESTDATA, "inline.pprof"))):
        for granularity in ("files", "lines"):
            report = flat_by(granularity, path)
            if report is None:
                continue
            with open(os.path.join(GO_DIR, f"{name}.{granularity}-top.txt")) as f:
                checks.compare_with_top(f"{name} --granularity {granularity} (committed)",
                                        report, f.read())
            if go_available():
                go = subprocess.run(["go", "tool", "pprof", "-" + granularity, "-top",
                                     "-nodecount=100000", "-nodefraction=0",
                                     "-edgefraction=0", path], capture_output=True, text=True)
                checks.compare_with_top(f"{name} --granularity {granularity} (go now)",
                                        report, go.stdout)
    test_granularity_labels()
    test_granularity_export()
    # V8: spin's self split over its lines 7 and 8 by their ticks (19 and
    # 42 in the file), under spin itself, which keeps no self.  The JSON
    # report gives lines 1-based, as DevTools shows them: spin at 5.
    report = flat_by("lines", os.path.join(NODE_DIR, "hot.cpuprofile"))
    rows = {(r["name"], r["line"]): r for r in report["rows"]} if report else {}
    whole = lines_json(os.path.join(NODE_DIR, "hot.cpuprofile"), "^spin$")
    spin_self = whole["functions"][0]["self"] if whole else None
    l7, l8, fn = rows.get(("spin", 7)), rows.get(("spin", 8)), rows.get(("spin", 5))
    if not (l7 and l8 and fn) or abs(l8["self"] / l7["self"] - 42 / 19) > 1e-9 or \
       fn["self"] != 0 or abs(l7["self"] + l8["self"] - spin_self) > 1e-6 or \
       abs(fn["total"] - spin_self) > 1e-6:
        checks.fail(f"V8 by lines: {l7} {l8} {fn} (spin's self {spin_self})")


def test_granularity_export():
    """A profile exported by files or lines keeps the file's samples, in
    their order with their time deltas from the second on, as the file
    gives them (each sample lasts until the next, as DevTools reads it:
    the export starts at the first): the model by files or lines
    borrows the loaded model's timeline, which the command frees once
    that model is made."""
    path = os.path.join(NODE_DIR, "hot.cpuprofile")
    with open(path) as f:
        src = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        for granularity in ("files", "lines"):
            out = os.path.join(tmp, granularity + ".cpuprofile")
            if checks.run(["--granularity", granularity, "--export", "cpuprofile",
                           "-o", out, path]).returncode:
                continue
            with open(out) as f:
                exported = json.load(f)
            if exported["timeDeltas"][1:] != src["timeDeltas"][1:] or \
               len(exported["samples"]) != len(src["samples"]):
                checks.fail(f"--granularity {granularity} --export cpuprofile: "
                            f"deltas {exported['timeDeltas'][1:4]}..., "
                            f"{len(exported['samples'])} samples; the file's "
                            f"{src['timeDeltas'][1:4]}..., {len(src['samples'])}")


def test_granularity_labels():
    """pprof labels survive the files and lines granularity: tag filters
    as go tool pprof -files/-lines -tagfocus, the tags as without."""
    path = os.path.join(TESTDATA, "labels.pprof")
    for granularity in ("files", "lines"):
        for flag in ("tagfocus", "tagignore"):
            label = f"labels.pprof --granularity {granularity} --{flag} worker=alpha"
            report = flat_by(granularity, path, "--rule", "exact", "--" + flag, "worker=alpha")
            if report is None:
                continue
            with open(os.path.join(GO_DIR, f"labels.{granularity}.{flag}-worker.alpha-top.txt")) as f:
                checks.compare_with_top(label + " (committed)", report, f.read())
            if go_available():
                go = subprocess.run(["go", "tool", "pprof", "-" + granularity, "-top",
                                     "-nodecount=100000", "-nodefraction=0", "-edgefraction=0",
                                     f"-{flag}=worker=alpha", path],
                                    capture_output=True, text=True)
                checks.compare_with_top(label + " (go now)", report, go.stdout)
        tags = checks.run(["--report", "tags", "--granularity", granularity, path]).stdout
        for line in (" worker: Total 320ms", "240ms ( 75.00%): alpha", "80ms ( 25.00%): beta",
                     " phase: Total 320ms", "180ms ( 56.25%): load", "140ms ( 43.75%): save"):
            if line not in tags:  # go tool pprof -tags labels.pprof
                checks.fail(f"--report tags --granularity {granularity}: no '{line}' in {tags!r}")


def test_bad():
    for args in (["--report", "lines", os.path.join(GO_DIR, "inline-lines.pprof")],
                 ["--function", "x", os.path.join(GO_DIR, "inline-lines.pprof")],
                 ["--report", "lines", "--function", "(", os.path.join(GO_DIR, "inline-lines.pprof")],
                 ["--report", "flat", "--granularity", "words", os.path.join(GO_DIR, "inline-lines.pprof")],
                 ["--report", "flat", "--granularity", "files", os.path.join(TESTDATA, "gprof", "gmon.out")]):
        p = checks.run(args, check=False)
        if p.returncode != 2 or not p.stderr.startswith("wprof-tui: "):
            checks.fail(f"{args}: exit {p.returncode}, {p.stderr!r}")


{"pprof": test_pprof, "node": test_node, "granularity": test_granularity,
 "bad": test_bad}[WHAT]()
if checks.failures:
    sys.exit(1)
print("ok")
