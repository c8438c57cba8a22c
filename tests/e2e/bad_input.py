#!/usr/bin/env python3
"""Bad input never crashes wprof-tui: each case exits with status 2, prints
nothing on stdout, and says on stderr `wprof-tui: FILE: <what, where>`."""
import os
import re
import subprocess
import sys
import tempfile

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
failures = 0


def node(i, name, kids="", extra=""):
    return ('{"id":%d,"callFrame":{"functionName":"%s","url":"t.js","lineNumber":1,'
            '"columnNumber":0},"children":[%s]%s}' % (i, name, kids, extra))


def profile(nodes, samples="[1]", deltas="[10]", more=""):
    return ('{"nodes":[%s],"startTime":0,"endTime":100,"samples":%s,"timeDeltas":%s%s}'
            % (",".join(nodes), samples, deltas, more))


VALID = open(os.path.join(TESTDATA, "validate.cpuprofile"), "rb").read()

CASES = [
    # name, file bytes (None: no file), words the message must contain
    ("missing file", None, ["No such file"]),
    ("empty file", b"", ["empty"]),
    ("truncated JSON", VALID[: len(VALID) // 2], ["cpuprofile, byte "]),
    ("corrupt JSON", VALID[:5000] + b"@#!" + VALID[5000:], ["cpuprofile, byte 500"]),
    ("not JSON", b"hello, world\n", ["not a profile"]),
    ("JSON, not a profile", b'{"nodez":[]}', ["not a .cpuprofile"]),
    ("trace events, no profile", b'{"traceEvents":[]}', ["trace-event JSON", "no CPU profile"]),
    ("perf.data", b"PERFILE2" + bytes(200), ["perf.data", "perf script"]),
    ("callgrind, a cost not a number", b"# callgrind format\nevents: Ir\nfn=main\n1 x\n",
     ["callgrind, byte 38: line 4: ", "not a whole number"]),
    ("JSON array", b"[1,2,3]", ["not a profile"]),
    ("child id nowhere", profile([node(1, "main", "99")]).encode(), ["child id 99"]),
    ("sample id nowhere", profile([node(1, "main")], samples="[77]").encode(),
     ["node id 77"]),
    ("cycle", profile([node(1, "main", "2"), node(2, "f", "1")]).encode(),
     ["cycle", "node"]),
    ("self cycle", profile([node(1, "main", "1")]).encode(), ["cycle", "node 1"]),
    ("duplicate id", profile([node(1, "main"), node(1, "f")]).encode(),
     ["node id 1 appears twice"]),
    ("NaN", profile([node(1, "main")], deltas="[NaN]").encode(), ["cpuprofile, byte "]),
    ("huge number", profile([node(1, "main")], deltas="[1e400]").encode(),
     ["out of range"]),
    ("absurd delta", profile([node(1, "main")], deltas="[1e15]").encode(),
     ["out of range"]),
    ("absurd time", profile([node(1, "main")], more=',"startTime":1e30').encode(),
     ["out of range"]),
    ("fractional id", profile([node(1, "main")], samples="[1.5]").encode(),
     ["samples[0]"]),
    ("length mismatch", profile([node(1, "main")], deltas="[1,2]").encode(),
     ["timeDeltas"]),
    ("no nodes", profile([]).encode(), ["empty"]),
    ("no samples, no hits", profile([node(1, "main")], samples="[]", deltas="[]").encode(),
     ["empty"]),
    ("end before start", b'{"nodes":[%s],"startTime":100,"endTime":5,"samples":[1],'
     b'"timeDeltas":[1]}' % node(1, "main").encode(), ["before startTime"]),
    ("deep nesting", b"{\"ignored\":" + b"[" * 200000, ["nesting deeper"]),
    ("control char in string", b'{"nodes":[{"id":1,"callFrame":{"functionName":"a\x01"}}]}',
     ["control character", "cpuprofile, byte "]),
    ("text after the end", profile([node(1, "main")]).encode() + b" {}", ["after the end"]),
    ("bad escape", b'{"nodes":[{"id":1,"callFrame":{"functionName":"\\q"}}]}',
     ["escape", "cpuprofile, byte "]),
]

with tempfile.TemporaryDirectory() as tmp:
    for name, data, words in CASES:
        path = os.path.join(tmp, name.replace(" ", "-") + ".cpuprofile")
        if data is not None:
            with open(path, "wb") as f:
                f.write(data)
        for args in (["--report", "flat"], ["--report", "top-down", "--format", "json"]):
            r = subprocess.run([WPROF] + args + [path], capture_output=True, timeout=60)
            err = r.stderr.decode("utf-8", "replace")
            problems = []
            if r.returncode != 2:
                problems.append("exit status %d, want 2" % r.returncode)
            if r.stdout:
                problems.append("printed %d bytes on stdout" % len(r.stdout))
            if not err.startswith("wprof-tui: %s: " % path):
                problems.append("stderr does not start with 'wprof-tui: FILE: '")
            problems += ["message lacks %r" % w for w in words if w not in err]
            if err.count("\n") != 1:
                problems.append("want exactly one line on stderr")
            if problems:
                failures += 1
                print("FAIL %s %s: %s\n  stderr: %s" % (name, args, "; ".join(problems),
                                                       err.strip()))

    # A directory is not a profile either.
    r = subprocess.run([WPROF, "--report", "flat", tmp], capture_output=True)
    if r.returncode != 2 or b"directory" not in r.stderr:
        failures += 1
        print("FAIL directory: status %d, %r" % (r.returncode, r.stderr))

# Every loader names a fault's place the same way: "FORMAT, byte N: what".
# One small bad file per loader (each picked by its content), with the
# format its message must name.
PPROF_NO_LOCATION = open(os.path.join(TESTDATA, "fuzz-regressions",
                                      "pprof-location-missing.pb"), "rb").read()
GPERFTOOLS_CUT = open(os.path.join(TESTDATA, "legacy", "cppbench.cpu"), "rb").read()[:100]
EVERY_LOADER = [
    # format named, file bytes, extra arguments
    ("speedscope JSON", b'{"$schema":"https://www.speedscope.app/file-format-schema.json",'
     b'"shared":{"frames":[{"name":', []),
    ("Firefox Profiler", b'{"meta":{"version":27},"threads":[{"samples":{"data":[[0,1]]}}]}', []),
    ("trace-event JSON", b'{"traceEvents":[{"name":"x",', []),
    ("heapprofile", b'{"head":{"callFrame":{},"selfSize":1,"children":[3]}}', []),
    ("cpuprofile", b'{"nodes":[{"id":1,', []),
    ("gmon.out", b"gmon\x02" + bytes(15), ["--exe", os.path.join(TESTDATA, "gprof", "validate")]),
    ("WasmProf arcs", b"name 1 f\nadd 0 1 x 1.0\n", []),
    ("xsbug stream", b'<xsbug><pt name="start" value="@0000000000000020"/></xsbug>\n'
     b'<xsbug><pt name="stop" value="@0000000000000010"/></xsbug>\n', []),
    ("gperftools CPU profile", GPERFTOOLS_CUT, []),
    ("Java heapz profile", b"--- heapz 1 ---\nformat = cpp\n", []),
    ("callgrind", b"# callgrind format\nevents: Ir\nfn=f\n1 1x\n", []),
    ("perf script", b"prog 10 1.0: 99999999999999999 cpu-clock:\n\tf\n", []),
    ("folded stacks", b"main;a 3\nmain;b\n", []),
    ("pprof", PPROF_NO_LOCATION, []),
]
with tempfile.TemporaryDirectory() as tmp:
    for i, (fmt, data, args) in enumerate(EVERY_LOADER):
        path = os.path.join(tmp, "bad-%d" % i)
        with open(path, "wb") as f:
            f.write(data)
        r = subprocess.run([WPROF, "--report", "flat"] + args + [path],
                           capture_output=True, timeout=60)
        err = r.stderr.decode("utf-8", "replace")
        want = r"^wprof-tui: %s: %s, byte \d+: " % (re.escape(path), re.escape(fmt))
        if r.returncode != 2 or not re.match(want, err):
            failures += 1
            print("FAIL %s: status %d, want 2 and /%s/: %r" % (fmt, r.returncode, want, err))

# Usage errors also exit 2 with a hint.
for args in (["--report", "sideways", "x"], ["--rule", "fair", "x"], ["--bogus"], []):
    r = subprocess.run([WPROF] + args, capture_output=True)
    if r.returncode != 2 or b"--help" not in r.stderr:
        failures += 1
        print("FAIL usage %s: status %d, %r" % (args, r.returncode, r.stderr))

print("%d cases, %d failed" % (len(CASES) * 2 + len(EVERY_LOADER) + 5, failures))
sys.exit(1 if failures else 0)
