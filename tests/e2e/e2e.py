"""What the end-to-end scripts share: the binary and testdata/ from the
command line (absolute paths), check() that counts and prints what failed,
wprof() that runs the binary, and finish(): the last line and the exit
status meson reads."""
import os
import subprocess
import sys

WPROF, TESTDATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
_counts = {"checks": 0, "failures": 0}


def check(cond, what):
    _counts["checks"] += 1
    if not cond:
        _counts["failures"] += 1
        print("FAIL", what)
    return cond


def wprof(*args, text=True, **kwargs):
    """wprof-tui with these arguments, its output captured."""
    return subprocess.run([WPROF, *args], capture_output=True, text=text, **kwargs)


def data(name):
    return os.path.join(TESTDATA, name)


def finish():
    print("%d checks, %d failed" % (_counts["checks"], _counts["failures"]))
    sys.exit(1 if _counts["failures"] else 0)
