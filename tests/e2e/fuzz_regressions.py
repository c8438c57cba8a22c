#!/usr/bin/env python3
"""Every input in testdata/fuzz-regressions/ through the binary: the exit
status and messages testdata/fuzz-regressions/expect.json asks for, and
never a crash or a sanitizer report (run under the ASan+UBSan build too).

    fuzz_regressions.py WPROF_TUI TESTDATA"""
import json
import os
import subprocess
import sys

WPROF, TESTDATA = sys.argv[1], sys.argv[2]
DIR = os.path.join(TESTDATA, "fuzz-regressions")
GPROF_EXE = os.path.join(TESTDATA, "gprof", "validate")
with open(os.path.join(DIR, "expect.json")) as f:
    EXPECT = json.load(f)
failures = []

for name in sorted(os.listdir(DIR)):
    if name in ("expect.json", "README.md"):
        continue
    want = EXPECT.get(name, {})
    extra = [GPROF_EXE if a == "GPROF_EXE" else a for a in want.get("args", [])]
    for report in (["--report", "flat"], ["--report", "top-down", "--format", "json"]):
        p = subprocess.run([WPROF] + extra + report + [os.path.join(DIR, name)],
                           capture_output=True, timeout=120)
        err = p.stderr.decode("utf-8", "replace")
        out = p.stdout.decode("utf-8", "replace")
        label = f"{name} ({' '.join(report)})"
        if "runtime error" in err or "Sanitizer" in err:
            failures.append(f"{label}: sanitizer report: {err[:300]}")
        if p.returncode not in (0, 2) or ("exit" in want and p.returncode != want["exit"]):
            failures.append(f"{label}: exit {p.returncode}, want {want.get('exit', '0 or 2')}: "
                            f"{err.strip()[:200]}")
        for words in want.get("stderr", []):
            if words not in err:
                failures.append(f"{label}: '{words}' not on stderr: {err.strip()[:200]}")
        if report[1] == "flat":
            for words in want.get("stdout", []):
                if words not in out:
                    failures.append(f"{label}: '{words}' not in the report")

for f in failures:
    print("FAIL:", f, file=sys.stderr)
print(f"{len(os.listdir(DIR)) - 2} inputs, {len(failures)} failures")
sys.exit(1 if failures else 0)
