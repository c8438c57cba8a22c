#!/usr/bin/env python3
"""Loaders take time linear in their input (issue 17): each case is timed
on an input of N and of 2N items, and the ratio must stay well under the
4 a quadratic cost gives (< 3; processor time, the best of three runs
each, so that a busy machine does not decide).  Absolute times are not asserted.

    linear_time.py WPROF_TUI GPROF_EXE"""
import os
import resource
import struct
import subprocess
import sys
import tempfile

WPROF, EXE = sys.argv[1], sys.argv[2]
failures = []


def arcs_names(n):
    """WasmProf arcs naming n functions, called in a chain: each name is
    looked up once per arc (a linear search made this quadratic)."""
    lines = [f"name {i} f{i}" for i in range(1, n + 1)]
    lines += [f"add {i - 1} {i} 1 0.001" for i in range(1, n + 1)]
    return ("\n".join(lines) + "\nprint\n").encode()


def gmon_histograms(n):
    """A gmon.out of n one-bin histograms of distinct ranges: each was
    checked against every earlier one for overlap (quadratic).  The file
    ends in an error about the executable, after the check."""
    records = b"".join(
        b"\x00" + struct.pack("<QQII", 0x1000 + 16 * k, 0x1008 + 16 * k, 1, 100)
        + b"seconds".ljust(15, b"\0") + b"s" + b"\x01\x00" for k in range(n))
    return b"gmon" + struct.pack("<I", 1) + bytes(12) + records


def cpuprofile_parents(n):
    """A .cpuprofile of n nodes in a chain stated by both "parent" and
    "children", and n samples."""
    nodes = ['{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,'
             '"columnNumber":-1},"children":[2]}']
    for i in range(2, n + 1):
        kids = f',"children":[{i + 1}]' if i < n else ""
        nodes.append(f'{{"id":{i},"parent":{i - 1},"callFrame":{{"functionName":"f{i}",'
                     f'"url":"a.js","lineNumber":{i},"columnNumber":0}}{kids}}}')
    samples = ",".join(str(2 + i % (n - 1)) for i in range(n))
    return (f'{{"nodes":[{",".join(nodes)}],"startTime":0,"endTime":{n + 1},'
            f'"samples":[{samples}],"timeDeltas":[{",".join(["1"] * n)}]}}').encode()


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def best_time(path, args):
    """The processor time the run took (not the wall clock: the machine
    is shared), the best of three."""
    best = None
    for _ in range(3):
        start = cpu_seconds()
        try:
            subprocess.run([WPROF] + args + [path], capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return 60.0  # quadratic: the 2N run cannot be 3 times this
        took = cpu_seconds() - start
        best = took if best is None else min(best, took)
    return best


CASES = [
    ("WasmProf arc names", arcs_names, 100000, "x.arcs", ["--report", "flat", "--rule", "gprof"]),
    ("gmon.out histograms", gmon_histograms, 400000, "gmon.out",
     ["--exe", EXE, "--report", "flat"]),
    (".cpuprofile parent and children", cpuprofile_parents, 100000, "x.cpuprofile",
     ["--report", "flat"]),
]

with tempfile.TemporaryDirectory() as tmp:
    for name, make, n, file_name, args in CASES:
        times = []
        for size in (n, 2 * n):
            path = os.path.join(tmp, file_name)
            with open(path, "wb") as f:
                f.write(make(size))
            times.append(best_time(path, args))
        ratio = times[1] / max(times[0], 1e-3)
        if times[0] >= 60:
            failures.append(f"{name}: {n} items take over a minute")
        print(f"{name}: {n}: {times[0]:.3f}s, {2 * n}: {times[1]:.3f}s, ratio {ratio:.2f}")
        if ratio >= 3:
            failures.append(f"{name}: doubling the input took {ratio:.2f} times as long")

for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
