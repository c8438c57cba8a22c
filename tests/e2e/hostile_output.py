#!/usr/bin/env python3
"""Every output over profiles full of hostile names (ESC sequences, OSC 52
and title sequences, BEL, C1 controls, bidi controls, invalid UTF-8, lone
surrogates, newlines): every view, rule and format of --report, every
--export, and the explorer in tmux.  No output carries a raw control byte
(C0 but newline and tab, DEL, C1) or a bidi control, all is valid UTF-8,
JSON parses (and keeps the controls, as \\u escapes), and the explorer
neither changes the title nor sets the clipboard."""
import json
import os
import subprocess
import sys
import tempfile

from protobuf_bytes import field, varint

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

WPROF, TESTDATA = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
problems = []
checks = 0

BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        problems.append(what)
        print("FAIL", what)


def safe_bytes(data, what, json_text=False):
    """No raw control, valid UTF-8, no C1 or bidi character."""
    bad = [b for b in data if (b < 0x20 and b not in (0x0A, 0x09)) or b == 0x7F]
    check(not bad, "%s: raw control bytes %r" % (what, sorted(set(bad))[:8]))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, "%s: not UTF-8 (%s)" % (what, e))
        return
    odd = [c for c in text if 0x80 <= ord(c) < 0xA0 or ord(c) in BIDI]
    check(not odd, "%s: C1 or bidi characters %r" % (what, odd[:8]))


def hostile_pprof():
    """profile.proto with hostile sample type, unit, function and file names
    (pprof strings are raw bytes: ED A0 80 is a lone surrogate as CESU-8
    writers leave it)."""
    strings = [b"", b"cpu\x1b]0;PWNED\x07", b"nano\xc2\x9bs", b"\xe2\x80\xaeevil\xed\xa0\x80",
               b"f\x1b]52;c;cHduZWQ=\x07\xff.go", b"main\x07;x"]
    st = field(1, field(1, varint(1), 0) + field(2, varint(2), 0))
    sample = field(2, field(1, varint(1) + varint(2)) + field(2, varint(7)))
    fn = lambda i, name: field(5, field(1, varint(i), 0) + field(2, varint(name), 0) +
                                 field(4, varint(4), 0))
    loc = lambda i: field(4, field(1, varint(i), 0) +
                          field(4, field(1, varint(i), 0) + field(2, varint(3), 0)))
    return (st + sample + loc(1) + loc(2) + fn(1, 3) + fn(2, 5) +
            b"".join(field(6, s) for s in strings))


def run(args, what):
    r = subprocess.run([WPROF, *args], capture_output=True, timeout=120)
    check(r.returncode in (0, 2), "%s: exit %d" % (what, r.returncode))
    safe_bytes(r.stdout, what + " stdout")
    safe_bytes(r.stderr, what + " stderr")
    return r


def has_control(obj):
    """Some string in the JSON document holds a raw ESC or C1 control: the
    escaping kept the name's characters, it did not drop them."""
    if isinstance(obj, str):
        return "\x1b" in obj or "\x9b" in obj
    if isinstance(obj, dict):
        return any(has_control(v) for v in obj.values())
    if isinstance(obj, list):
        return any(has_control(v) for v in obj)
    return False


with tempfile.TemporaryDirectory() as tmp:
    pprof = os.path.join(tmp, "hostile.pb")
    open(pprof, "wb").write(hostile_pprof())
    profiles = [os.path.join(TESTDATA, "hostile-everything.cpuprofile"),
                os.path.join(TESTDATA, "hostile-names.cpuprofile"), pprof]
    for path in profiles:
        name = os.path.basename(path)
        for view in ("flat", "top-down", "bottom-up", "callgraph"):
            for rule in ("exact", "additive", "divided", "gprof"):
                for fmt in ("text", "csv", "json"):
                    what = "%s %s %s %s" % (name, view, rule, fmt)
                    r = run(["--report", view, "--rule", rule, "--format", fmt, path], what)
                    if fmt == "json" and r.returncode == 0:
                        try:
                            doc = json.loads(r.stdout.decode("utf-8"))
                            if name != "hostile-names.cpuprofile" and view == "flat":
                                check(has_control(doc), what + ": names keep their controls")
                        except ValueError as e:
                            check(False, "%s: not JSON: %s" % (what, e))
        for fmt in ("cpuprofile", "folded", "pprof"):
            out = os.path.join(tmp, "%s.%s" % (name, fmt))
            run(["--export", fmt, "-o", out, path], "%s export %s" % (name, fmt))
            data = open(out, "rb").read()
            if fmt != "pprof":
                safe_bytes(data, "%s export %s file" % (name, fmt))
            if fmt == "cpuprofile":
                try:
                    json.loads(data.decode("utf-8"))
                except ValueError as e:
                    check(False, "%s export cpuprofile: not JSON: %s" % (name, e))
            # Read back, every export is still safe to report.
            if fmt != "folded":
                run(["--report", "flat", "--format", "json", out], "%s %s read back" % (name, fmt))
    # Hostile diffs and a hostile file name.
    run(["--report", "flat", "--diff", "--format", "json", profiles[0], pprof], "diff json")
    run(["--report", "flat", "--diff", profiles[0], pprof], "diff text")
    odd_name = os.path.join(tmp, "name\x1b]0;PWNED\x07\xe2\x80\xae.cpuprofile".encode().decode("utf-8"))
    open(odd_name, "wb").write(open(profiles[0], "rb").read())
    for fmt in ("text", "json"):
        run(["--report", "flat", "--format", fmt, odd_name], "hostile file name " + fmt)
    run(["--report", "flat", odd_name + ".missing"], "hostile missing file name")

# The explorer: every pane of the hostile profile at 120x30 in tmux.
from tmux_driver import Pane, failures, run_tests, tmux  # noqa: E402


def explorer():
    tmux("set-option", "-g", "set-titles", "on", check=False)
    tmux("set-option", "-g", "set-clipboard", "on", check=False)
    p = Pane("%s %s; sleep 600" % (WPROF, os.path.join(TESTDATA, "hostile-everything.cpuprofile")),
             120, 30)
    # Each pane once drawn down to its last row (the profile's last
    # function, or the call graph's callee of the root): a wait for any
    # screen took the one before the key.
    screens = []
    for key, what, drawn in (("*", "every row of the top-down tree open",
                              r"▾ \(root\)[\s\S]*· semi;colon"),
                             ("2", "bottom-up", r"· \(root\)[\s\S]*▸ semi;colon"),
                             ("3", "flat", r"sum% name[\s\S]*%  semi;colon"),
                             ("4", "the call graph", r"\[\(root\)\][\s\S]*esc\\e\[2J")):
        screens.append(p.press([key], drawn, what))
    for s in screens:
        safe_bytes(s.encode("utf-8"), "explorer screen")
    flat = screens[2]
    check(r"\u202e" in flat and r"osc52\e]52;c;" in flat and r"c1\x9b31m" in flat,
          "the flat pane shows the controls spelled out:\n" + flat)
    title = tmux("display-message", "-p", "-t", p.name, "#{pane_title}")
    check("PWNED" not in title, "the title is unchanged: %r" % title)
    buffers = tmux("list-buffers", check=False)
    check("cHduZWQ" not in buffers and "pwned" not in buffers, "no clipboard set: %r" % buffers)
    p.close()


run_tests([explorer])
problems += failures
print("%d checks, %d failed" % (checks, len(problems)))
sys.exit(1 if problems else 0)
