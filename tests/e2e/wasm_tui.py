#!/usr/bin/env python3
"""WebAssembly frames in the explorer, in tmux: the status line gives a
wasm frame's place as V8 prints it (0001cfda:0x1d7, wasm-objdump's body
offset of func[6] in the stripped module: testdata/wasm/hot.stripped
.funcs.txt); with --symbols the unstripped module names it churn, places
it at hot.c:12 (llvm-dwarfdump's decl_line, hot.subprograms.txt) and
keeps the place that ran; a frame a symbol map does not name says why.
Exits 77 (skip) only when tmux is not installed.

usage: wasm_tui.py WPROF_BINARY TESTDATA_DIR"""
import os
import sys
import tempfile

from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
WASM = os.path.join(os.path.abspath(sys.argv[2]), "wasm")
PROFILE = os.path.join(WASM, "hot.stripped.cpuprofile")


def last_line(s):
    return [l for l in s.split("\n") if l.strip()][-1]


def status_of(extra, search, want):
    """The status line once the search for `search` shows `want`."""
    p = Pane("LANG=C.UTF-8 %s %s %s; echo EXIT=$?; sleep 600" % (BINARY, extra, PROFILE),
             160, 30)
    try:
        p.press(["3"], r"3 flat", "the flat pane")
        p.keys("/", search, "Enter")
        s = p.wait_for(lambda s: want in last_line(s), "the status line of " + search)
        return last_line(s), s
    finally:
        p.close()


def unnamed():
    status, s = status_of("", "wasm-function[6]", "0001cfda:0x1d7")
    check("0001cfda:1" not in s, "no made-up line 1:\n" + s)


def named():
    status, s = status_of("--symbols " + os.path.join(WASM, "hot.wasm"), "churn", "hot.c:12")
    check("generated 0001cfda:0x1d7" in status, "churn generated at 0001cfda:0x1d7: " + status)
    check("symbols: hot.wasm (name section, DWARF)" in s, "the header:\n" + s)


def not_in_map():
    """A symbol map naming func[6] and the last, func[60], as wasm-objdump
    names them, not func[8]."""
    with tempfile.TemporaryDirectory() as tmp:
        symbols = os.path.join(tmp, "hot.js.symbols")
        with open(symbols, "w") as f:
            f.write("6:churn\n60:_start.command_export\n")
        status, _ = status_of("--symbols " + symbols, "wasm-function[8]", "0001cfda:0x2c8")
    check("not mapped: the symbol map does not name it" in status,
          "wasm-function[8] says why it kept its name: " + status)


run_tests([unnamed, named, not_in_map])
sys.exit(1 if failures else 0)
