#!/usr/bin/env python3
"""Go sources found where Go keeps them (issue 25), through --report lines.

    test_go_sources.py WPROF places    a hand-made pprof whose files are in a
                                       fake module cache with capitals, a
                                       vendor tree, a -trimpath main module
                                       and a fake GOROOT
    test_go_sources.py WPROF trimpath  a Go program built with -trimpath and
                                       profiled with runtime/pprof now (77:
                                       no go): its own file under the module
                                       root found from go.mod, runtime's under
                                       the GOROOT of the go on PATH

The expected text of each line is the text written into the file (or, for
the standard library, read from `go env GOROOT`), never wprof-tui's output."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "e2e"))
from profile_checks import Checks  # noqa: E402
from go_places import make_places, pprof, write  # noqa: E402

WPROF, WHAT = os.path.abspath(sys.argv[1]), sys.argv[2]
checks = Checks(WPROF)


def lines(profile, regex, cwd, env, *extra, fmt="text"):
    p = subprocess.run([WPROF, "--report", "lines", "--function", regex, "--format", fmt,
                        profile, *extra], capture_output=True, text=True, cwd=cwd, env=env)
    if p.returncode:
        checks.fail(f"--function {regex}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def expect_line(label, text, line, source):
    """The line's number with the file's own text beside it."""
    if not re.search(r"\n +\S+ +\S+ +%d:%s\n" % (line, re.escape(source)), text):
        checks.fail(f"{label}: no line {line} with {source!r} in:\n{text}")


def expect_found(label, profile, regex, cwd, env, want_path, source, *extra):
    text = lines(profile, regex, cwd, env, *extra)
    expect_line(label, text, 2, source)
    report = lines(profile, regex, cwd, env, *extra, fmt="json")
    got = json.loads(report)["functions"] if report else []
    if [f["source"] for f in got] != [want_path]:
        checks.fail(f"{label}: source {[f['source'] for f in got]}, want {want_path}")


def test_places(tmp):
    places = make_places(tmp)
    cache, app, files, profile = places.cache, places.app, places.files, places.profile
    os.mkdir(os.path.join(tmp, "elsewhere"))
    env = dict(os.environ, GOMODCACHE=cache, GOROOT=places.goroot, PATH="/nonexistent",
               GOENV="off")
    for name, (_, here, source) in files.items():
        if here:
            expect_found(name, profile, "^" + re.escape(name) + "$", app, env, here, source)
    # The module root from --source-path when the current directory is
    # outside every module.
    main = files["main.main"]
    expect_found("main.main --source-path", profile, r"^main\.main$",
                 os.path.join(tmp, "elsewhere"), env, main[1], main[2],
                 "--source-path", os.path.join(app, "cmd"))
    # $GOPATH/pkg/mod when GOMODCACHE is not set.
    os.makedirs(os.path.join(tmp, "gopath", "pkg"))
    os.rename(cache, os.path.join(tmp, "gopath", "pkg", "mod"))
    gopath_env = dict(env, GOPATH=os.path.join(tmp, "gopath"))
    del gopath_env["GOMODCACHE"]
    expect_found("baz.X under $GOPATH/pkg/mod", profile, r"^baz\.X$", app, gopath_env,
                 os.path.join(tmp, "gopath", "pkg", "mod", "github.com", "!foo!bar",
                              "baz@v1.0.0", "x.go"), files["baz.X"][2])
    # Settings made with `go env -w` (the go env file) where the
    # environment has none: GOMODCACHE from $GOENV's file, and GOPATH from
    # $XDG_CONFIG_HOME/go/env, found in GOPATH mode.
    bare_env = {k: v for k, v in env.items() if k not in ("GOMODCACHE", "GOPATH", "GOENV")}
    goenv = os.path.join(tmp, "goenv")
    write(goenv, "GOMODCACHE=" + os.path.join(tmp, "gopath", "pkg", "mod") + "\n")
    expect_found("baz.X under GOMODCACHE of the go env file", profile, r"^baz\.X$", app,
                 dict(bare_env, GOENV=goenv),
                 os.path.join(tmp, "gopath", "pkg", "mod", "github.com", "!foo!bar",
                              "baz@v1.0.0", "x.go"), files["baz.X"][2])
    test_gopath_mode(tmp, dict(bare_env, PATH="/nonexistent"))
    # Not found: the message lists the places tried, Go's among them.
    text = lines(profile, r"^nope\.Z$", app, env)
    want = [files["nope.Z"][0],
            os.path.join(cache, "github.com", "!nope", "z@v1.0.0", "z.go"),
            os.path.join(app, "vendor", "github.com", "Nope", "z", "z.go")]
    if "# source not found (tried " + ", ".join(want) + ")\n" not in text:
        checks.fail(f"nope.Z: the places tried should be {want}:\n{text}")


def test_gopath_mode(tmp, env):
    """Files of GOPATH-mode packages, $GOPATH/src/<import path>/f.go, named
    from another machine's GOPATH and by a -trimpath build, with GOPATH set
    only in the go env file under $XDG_CONFIG_HOME (or ~/.config)."""
    gopath, config = os.path.join(tmp, "oldgopath"), os.path.join(tmp, "config")
    pkg = os.path.join(gopath, "src", "github.com", "Old", "lib")
    write(os.path.join(pkg, "a.go"), "package lib\n\treturn 7 // GOPATH mode\n}\n")
    write(os.path.join(pkg, "b.go"), "package lib\n\treturn 8 // GOPATH, -trimpath\n}\n")
    write(os.path.join(config, "go", "env"), "GOFLAGS=-mod=mod\nGOPATH=" + gopath + "\n")
    profile = os.path.join(tmp, "gopath.pprof")
    with open(profile, "wb") as f:
        f.write(pprof([("lib.A", "/home/y/go/src/github.com/Old/lib/a.go"),
                       ("lib.B", "github.com/Old/lib/b.go")]))
    for name, file, source in (("lib.A", "a.go", "\treturn 7 // GOPATH mode"),
                               ("lib.B", "b.go", "\treturn 8 // GOPATH, -trimpath")):
        expect_found(name + " in GOPATH mode, GOPATH from the go env file", profile,
                     "^" + re.escape(name) + "$", tmp,
                     dict(env, XDG_CONFIG_HOME=config), os.path.join(pkg, file), source)
        home = dict(env, HOME=tmp)
        home.pop("XDG_CONFIG_HOME", None)
        os.makedirs(os.path.join(tmp, ".config"), exist_ok=True)
        if not os.path.exists(os.path.join(tmp, ".config", "go")):
            os.symlink(os.path.join(config, "go"), os.path.join(tmp, ".config", "go"))
        expect_found(name + ", the go env file in ~/.config", profile,
                     "^" + re.escape(name) + "$", tmp, home, os.path.join(pkg, file), source)
    # The environment's GOPATH, when set, is the one.
    expect_found("lib.A, GOPATH from the environment", profile, r"^lib\.A$", tmp,
                 dict(env, GOPATH=gopath, GOENV="off"), os.path.join(pkg, "a.go"),
                 "\treturn 7 // GOPATH mode")
    text = lines(profile, r"^lib\.A$", tmp,
                 dict(env, GOPATH=os.path.join(tmp, "elsewhere"), XDG_CONFIG_HOME=config))
    if "# source not found" not in text:
        checks.fail("lib.A: the environment's GOPATH should win over the file's:\n" + text)


def test_trimpath(tmp):
    go = shutil.which("go")
    if not go:
        print("go is not installed: skipped")
        sys.exit(77)
    app = os.path.join(tmp, "app")
    spin = "\t\tx = x*2862933555777941757 + uint64(i) // the hot line"
    write(os.path.join(app, "go.mod"), "module example.com/Hot/app\n\ngo 1.19\n")
    write(os.path.join(app, "work", "spin.go"),
          "package work\n\nfunc Spin(n int) uint64 {\n\tx := uint64(1)\n"
          "\tfor i := 0; i < n; i++ {\n" + spin + "\n\t}\n\treturn x\n}\n")
    write(os.path.join(app, "main.go"), """package main

import (
	"os"
	"runtime/pprof"

	"example.com/Hot/app/work"
)

func main() {
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	println(work.Spin(300000000))
	pprof.StopCPUProfile()
	f.Close()
}
""")
    env = dict(os.environ)
    env.setdefault("GOCACHE", os.path.join(tmp, "gocache"))
    prog, profile = os.path.join(tmp, "hot"), os.path.join(tmp, "hot.pprof")
    subprocess.run([go, "build", "-trimpath", "-o", prog, "."], check=True, env=env, cwd=app)
    subprocess.run([prog, profile], check=True, capture_output=True)
    env.pop("GOROOT", None)
    text = lines(profile, r"work\.Spin$", app, env)
    if "ROUTINE ======================== example.com/Hot/app/work.Spin in " \
       "example.com/Hot/app/work/spin.go\n" not in text:
        checks.fail("work.Spin: the -trimpath name as the profile has it:\n" + text)
    expect_line("work.Spin", text, 6, spin)
    # runtime.main is in runtime/proc.go: under the GOROOT of the go on
    # PATH, each listed line with that file's text.
    goroot = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True,
                            check=True).stdout.strip()
    proc = os.path.join(goroot, "src", "runtime", "proc.go")
    with open(proc) as f:
        proc_lines = f.read().split("\n")
    report = json.loads(lines(profile, r"^runtime\.main$", app, env, fmt="json") or "{}")
    fn = report.get("functions", [{}])[0]
    if fn.get("source") != proc or not fn.get("rows"):
        checks.fail(f"runtime.main: source {fn.get('source')}, want {proc}")
        return
    text = lines(profile, r"^runtime\.main$", app, env)
    for row in fn["rows"]:
        expect_line("runtime.main", text, row["line"], proc_lines[row["line"] - 1])


with tempfile.TemporaryDirectory() as tmpdir:
    {"places": test_places, "trimpath": test_trimpath}[WHAT](tmpdir)
if checks.failures:
    sys.exit(1)
print("ok")
