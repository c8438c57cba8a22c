#!/usr/bin/env python3
"""speedscope JSON end to end through the wprof-tui binary.

    test_speedscope.py WPROF TESTDATA numbers    hand-written files vs numbers worked by hand
    test_speedscope.py WPROF TESTDATA roundtrip  export to pprof/cpuprofile/folded and back
    test_speedscope.py WPROF TESTDATA bad        broken input: format, byte offset, exit 2
"""
import json
import os
import subprocess
import sys
import tempfile

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
DIR = os.path.join(TESTDATA, "speedscope")
PYSPY = os.path.join(DIR, "pyspy.speedscope.json")
EVENTED = os.path.join(DIR, "evented.speedscope.json")
SCHEMA = "https://www.speedscope.app/file-format-schema.json"
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, file=sys.stderr)


def run(args, check=True):
    p = subprocess.run([WPROF] + args, capture_output=True, text=True)
    if check and p.returncode != 0:
        fail(f"wprof-tui {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p


def report(path, *extra, view="flat"):
    p = run(["--report", view, "--rule", "exact", "--format", "json", path, *extra])
    return json.loads(p.stdout) if p.returncode == 0 else None


def rows_of(rep):
    return {r["name"]: (r["self"], r["total"]) for r in rep["rows"]}


def expect(label, rep, want):
    if rep is None:
        return
    got = rows_of(rep)
    for name, (self_, total) in want.items():
        g = got.get(name)
        if not g or abs(g[0] - self_) > 1e-6 or abs(g[1] - total) > 1e-6:
            fail(f"{label}: {name}: got {g}, want {(self_, total)}")
    extra = [n for n, v in got.items() if n not in want and any(v)]
    if extra:
        fail(f"{label}: unexpected rows {extra}")


# By hand from the files (µs).  pyspy: MainThread's samples (root first,
# seconds) [<module>,main,parse] .01, [<module>,main,compute] .02 and .01,
# [<module>,main] .01, [<module>,main,parse,compute] .01.
MAIN_THREAD = {"<module>": (0, 60000), "main": (10000, 60000), "parse": (10000, 20000),
               "compute": (40000, 40000)}
# worker: [worker_loop] .03, [worker_loop,compute] .02.
WORKER = {"worker_loop": (30000, 50000), "compute": (20000, 20000)}
# evented "calls" (ms): a opens at 0, b 1..5 inside it, c 2..4 inside b,
# c again 5..8 inside a, a closes at 10; nothing is open 10..12.
CALLS = {"a": (3000, 10000), "b": (2000, 4000), "c": (5000, 5000)}
# evented "recursion": a 0..4, a again 1..3 inside it: 4 ms, counted once.
RECURSION = {"a": (4000, 4000)}


def test_numbers():
    expect("py-spy first profile", report(PYSPY), MAIN_THREAD)
    expect("py-spy --thread 2", report(PYSPY, "--thread", "2"), WORKER)
    expect("py-spy --thread name", report(PYSPY, "--thread", 'Process 4242 Thread 4250 "worker"'), WORKER)
    rep = report(PYSPY)
    if rep and (rep["samples"] != 5 or abs(rep["duration"] - 60000) > 1e-6):
        fail(f"py-spy: {rep['samples']} samples over {rep['duration']} us, want 5 over 60000")
    # activeProfileIndex 1 is the default; --thread 1 is the first.
    expect("evented default", report(EVENTED), RECURSION)
    expect("evented --thread 1", report(EVENTED, "--thread", "1"), CALLS)
    expect("evented --thread calls", report(EVENTED, "--thread", "calls"), CALLS)
    # Exact stacks: c under b and c under a are two paths of the tree.
    rep = report(EVENTED, "--thread", "calls", view="top-down")
    if rep:
        paths = {}

        def walk(rows, prefix):
            for r in rows:
                path = prefix + [r["name"]]
                paths[";".join(path)] = r["total"]
                walk(r.get("children", []), path)
        walk(rep["rows"], [])
        want = {"a": 10000, "a;b": 4000, "a;b;c": 2000, "a;c": 3000}
        if paths != want:
            fail(f"evented top-down: {paths}, want {want}")
    p = run(["--report", "flat", EVENTED, "--thread", "nope"], check=False)
    if p.returncode != 2 or "1 'calls', 2 'recursion'" not in p.stderr:
        fail(f"unknown --thread: exit {p.returncode}, {p.stderr.strip()!r}")
    # Units: bytes are a bytes type, none a count.
    with tempfile.TemporaryDirectory() as tmp:
        for unit, want_unit in (("bytes", "bytes"), ("none", "count"), ("nanoseconds", "us")):
            path = os.path.join(tmp, unit + ".json")
            write(path, {"$schema": SCHEMA, "shared": {"frames": [{"name": "f"}]},
                         "profiles": [{"type": "sampled", "name": "p", "unit": unit,
                                       "startValue": 0, "endValue": 4000,
                                       "samples": [[0], [0]], "weights": [1000, 3000]}]})
            rep = report(path)
            if rep and (rep["unit"] != want_unit or rows_of(rep)["f"][0] != (4 if unit == "nanoseconds" else 4000)):
                fail(f"unit {unit}: {rep['unit']}, {rows_of(rep)}")


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)


# ---- round trips ------------------------------------------------------------------------

def same_rows(label, before, after):
    b, a = rows_of(before), rows_of(after)
    for name, (self_, total) in b.items():
        g = a.get(name)
        if not g or abs(g[0] - self_) > 1e-6 * max(1, self_) or abs(g[1] - total) > 1e-6 * max(1, total):
            fail(f"{label}: {name}: {g} after, {(self_, total)} before")
    if not b:
        fail(f"{label}: nothing compared")


def test_roundtrip(tmp):
    for src, thread in ((PYSPY, "1"), (PYSPY, "2"), (EVENTED, "1"), (EVENTED, "2")):
        before = report(src, "--thread", thread)
        for fmt in ("pprof", "cpuprofile", "folded"):
            out = os.path.join(tmp, f"{os.path.basename(src)}.{thread}.{fmt}")
            if run(["--export", fmt, "-o", out, src, "--thread", thread]).returncode:
                continue
            label = f"{os.path.basename(src)} --thread {thread} -> {fmt}"
            if fmt == "folded":
                check_folded(label, before, out)
            else:
                same_rows(label, before, report(out))


def check_folded(label, before, path):
    self_by_leaf = {}
    with open(path) as f:
        for line in f:
            stack, value = line.rstrip("\n").rsplit(" ", 1)
            leaf = stack.split(";")[-1]
            self_by_leaf[leaf] = self_by_leaf.get(leaf, 0) + float(value)
    for name, (self_, _) in rows_of(before).items():
        if abs(self_by_leaf.get(name, 0) - self_) > 1e-6 * max(1, self_):
            fail(f"{label}: {name}: {self_by_leaf.get(name)} != {self_}")
    p = run(["--report", "flat", "--rule", "exact", "--format", "json", path], check=False)
    if p.returncode == 0:  # where wprof-tui reads folded stacks
        same_rows(label + " read back", before, json.loads(p.stdout))


# ---- bad input ----------------------------------------------------------------------------

def test_bad(tmp):
    def doc(profile, frames=({"name": "f"},)):
        return json.dumps({"$schema": SCHEMA, "shared": {"frames": list(frames)},
                           "profiles": [profile]}, separators=(",", ":"))

    sampled = {"type": "sampled", "name": "p", "unit": "seconds", "startValue": 0,
               "endValue": 1, "samples": [[0]], "weights": [1]}
    bad_index = doc(dict(sampled, samples=[[0], [3]], weights=[1, 1]))
    events = lambda ev: doc({"type": "evented", "name": "e", "unit": "seconds",  # noqa: E731
                              "startValue": 0, "endValue": 1, "events": ev}, ({"name": "f"}, {"name": "g"}))
    unbalanced = events([{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 1, "at": 1}])
    backwards = events([{"type": "O", "frame": 0, "at": 5}, {"type": "C", "frame": 0, "at": 1}])
    with open(PYSPY) as f:
        real = f.read()
    CLOSE = '{"type":"C"'
    cases = {
        "index.json": (bad_index, f"speedscope JSON, byte {bad_index.index('[3]')}: frame 3 of a sample is not in shared.frames"),
        "weights.json": (doc(dict(sampled, weights=[1, 2])), "2 weights for 1 samples"),
        "type.json": (doc(dict(sampled, type="flame")), "type 'flame'"),
        "unbalanced.json": (unbalanced, f"byte {unbalanced.index(CLOSE)}: closes frame 1, which is not the innermost open frame"),
        "backwards.json": (backwards, f"byte {backwards.index(CLOSE)}: event at 1 comes after one at 5"),
        "truncated.json": (real[:300], "speedscope JSON, byte 300:"),
        "negative.json": (doc(dict(sampled, weights=[-1])), "weight -1 is not a number of 0 or more"),
        "schema.json": ('{"$schema":"https://www.speedscope.app/file-format-schema.json.x","profiles":[]}',
                        "$schema is not speedscope's"),
    }
    for name, (data, words) in cases.items():
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(data)
        p = run(["--report", "flat", path], check=False)
        prefix = f"wprof-tui: {path}: "
        if p.returncode != 2 or not p.stderr.startswith(prefix) or words not in p.stderr:
            fail(f"{name}: exit {p.returncode}, stderr {p.stderr.strip()!r} (want exit 2 and {words!r})")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if WHAT == "numbers":
            test_numbers()
        elif WHAT == "roundtrip":
            test_roundtrip(tmp)
        elif WHAT == "bad":
            test_bad(tmp)
        else:
            sys.exit("unknown test " + WHAT)
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        sys.exit(1)
    print("ok")


main()
