#!/usr/bin/env python3
"""speedscope JSON end to end through the wprof-tui binary.

    test_speedscope.py WPROF TESTDATA numbers    hand-written files vs numbers worked by hand
    test_speedscope.py WPROF TESTDATA roundtrip  export to pprof/cpuprofile/folded and back
    test_speedscope.py WPROF TESTDATA bad        broken input: format, byte offset, exit 2
"""
import json
import os
import sys
import tempfile

from profile_checks import Checks, rows_of

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
DIR = os.path.join(TESTDATA, "speedscope")
PYSPY = os.path.join(DIR, "pyspy.speedscope.json")
EVENTED = os.path.join(DIR, "evented.speedscope.json")
SCHEMA = "https://www.speedscope.app/file-format-schema.json"
C = Checks(WPROF)


def report(path, *extra, view="flat"):
    return C.report(path, *extra, view=view)


def expect(label, rep, want):
    C.expect(label, rep, want)


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
        C.fail(f"py-spy: {rep['samples']} samples over {rep['duration']} us, want 5 over 60000")
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
            C.fail(f"evented top-down: {paths}, want {want}")
    p = C.run(["--report", "flat", EVENTED, "--thread", "nope"], check=False)
    if p.returncode != 2 or "1 'calls', 2 'recursion'" not in p.stderr:
        C.fail(f"unknown --thread: exit {p.returncode}, {p.stderr.strip()!r}")
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
                C.fail(f"unit {unit}: {rep['unit']}, {rows_of(rep)}")
        # An empty stack: no row, but in the total, as speedscope's import
        # counts it (StackListProfileBuilder: the sample lands on its root;
        # the total weight is the sum of the weights): f 1000 of 4000.
        path = os.path.join(tmp, "empty-stack.json")
        write(path, {"$schema": SCHEMA, "shared": {"frames": [{"name": "f"}]},
                     "profiles": [{"type": "sampled", "name": "p", "unit": "none",
                                   "startValue": 0, "endValue": 0,
                                   "samples": [[0], []], "weights": [1000, 3000]}]})
        rep = report(path)
        if rep and (rep["profile_total"] != 4000 or rows_of(rep) != {"f": (1000, 1000)}):
            C.fail(f"empty stack: total {rep['profile_total']}, rows {rows_of(rep)}; "
                   "want 4000 and f (1000, 1000)")


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)


# ---- round trips ------------------------------------------------------------------------

def test_roundtrip(tmp):
    for src, thread in ((PYSPY, "1"), (PYSPY, "2"), (EVENTED, "1"), (EVENTED, "2")):
        C.roundtrip(f"{os.path.basename(src)} --thread {thread}", src,
                    report(src, "--thread", thread), tmp, ["--thread", thread])


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
    C.bad_inputs(tmp, cases)


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
    C.finish()


main()
