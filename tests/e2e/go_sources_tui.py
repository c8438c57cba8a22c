#!/usr/bin/env python3
"""The source pane in tmux on Go files where Go keeps them (issue 25): `l`
on a -trimpath build's module@version file shows it from the module cache
(capitals escaped), the status line naming the file read; on a file that
is nowhere, the status line lists the places tried, the module cache's and
vendor's among them.  Exits 77 (skip) only when tmux is not installed.

usage: go_sources_tui.py WPROF_BINARY"""
import os
import sys
import tempfile

from go_places import make_places
from tmux_driver import Pane, check, failures, run_tests

BINARY = os.path.abspath(sys.argv[1])
TMP = tempfile.TemporaryDirectory()
PLACES = make_places(TMP.name)


def open_on(function):
    p = Pane("cd %s && LANG=C.UTF-8 GOMODCACHE=%s GOROOT=%s %s %s; echo EXIT=$?; sleep 600"
             % (PLACES.app, PLACES.cache, PLACES.goroot, BINARY, PLACES.profile), 250, 20)
    p.press(["3"], r"3 flat", "the flat pane")
    p.keys("/", function, "Enter")
    return p


def found():
    p = open_on("baz.Y")
    try:
        named, here, source = PLACES.files["baz.Y"]
        # Its title, then the status line, which curses draws after the
        # source's lines.
        s = p.press(["l"], r"source: baz\.Y[\s\S]*^ .*q back", "the source pane")
        check(source.strip() in s, f"line 2 of {here}:\n" + s)
        status = [l for l in s.split("\n") if l.strip()][-1]
        check(here in status, "the status line names the file read: " + status)
    finally:
        p.close()


def not_found():
    p = open_on("nope.Z")
    try:
        s = p.press(["l"], r"source: nope\.Z[\s\S]*source not found \(tried", "the source pane")
        tried = [PLACES.files["nope.Z"][0],
                 os.path.join(PLACES.cache, "github.com", "!nope", "z@v1.0.0", "z.go"),
                 os.path.join(PLACES.app, "vendor", "github.com", "Nope", "z", "z.go")]
        check("source not found (tried " + ", ".join(tried) + ")" in s,
              "the places tried:\n" + s)
    finally:
        p.close()


run_tests([found, not_found])
TMP.cleanup()
if failures:
    sys.exit(1)
print("ok")
