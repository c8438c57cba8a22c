"""A Go profile whose files are where Go keeps them, for the tests of
finding sources (test_go_sources.py, e2e/go_sources_tui.py): in a temporary
directory, a fake module cache (mod/) with capitals escaped, a module
(app/, module example.com/App) with a vendor tree, a fake GOROOT
(goroot/), and places.pprof naming each file as a profile from another
machine or a -trimpath build names it: one 10ms sample per function, at
line 2 of its file."""
import os
from types import SimpleNamespace

from protobuf_bytes import field, varint


def pprof(functions):
    """A CPU profile of one 10ms sample per function at line 2 of its
    file: functions is a list of (name, file name)."""
    strings = ["", "cpu", "nanoseconds"]
    out = field(1, field(1, varint(1), 0) + field(2, varint(2), 0))
    for i, (name, filename) in enumerate(functions, 1):
        strings += [name, filename]
        out += field(2, field(1, varint(i), 0) + field(2, varint(10_000_000), 0))
        out += field(4, field(1, varint(i), 0) +
                     field(4, field(1, varint(i), 0) + field(2, varint(2), 0)))
        out += field(5, field(1, varint(i), 0) + field(2, varint(len(strings) - 2), 0) +
                     field(4, varint(len(strings) - 1), 0))
    for s in strings:
        out += field(6, s.encode())
    return out


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_places(tmp):
    """The tree and the profile; `files` maps each function to the path
    the profile names, the file here (None: nowhere) and its line 2."""
    cache, app, goroot = (os.path.join(tmp, d) for d in ("mod", "app", "goroot"))
    cached = os.path.join(cache, "github.com", "!foo!bar", "baz@v1.0.0")
    vendored = os.path.join(app, "vendor", "github.com", "Vend", "lib")
    files = {
        "baz.X": ("/home/x/go/pkg/mod/github.com/!foo!bar/baz@v1.0.0/x.go",
                  os.path.join(cached, "x.go"), "\treturn 1 // x.go in the module cache"),
        "baz.Y": ("github.com/FooBar/baz@v1.0.0/sub/y.go",
                  os.path.join(cached, "sub", "y.go"), "\treturn 2 // y.go, -trimpath"),
        "lib.V": ("/build/app/vendor/github.com/Vend/lib/v.go",
                  os.path.join(vendored, "v.go"), "\treturn 3 // v.go vendored"),
        "lib.W": ("/home/x/go/pkg/mod/github.com/!vend/lib@v0.2.0/w.go",
                  os.path.join(vendored, "w.go"), "\treturn 4 // w.go vendored, not cached"),
        "main.main": ("example.com/App/cmd/main.go",
                      os.path.join(app, "cmd", "main.go"), "\treturn 5 // the main module"),
        "fake.Std": ("/usr/local/go/src/fake/std.go",
                     os.path.join(goroot, "src", "fake", "std.go"), "\treturn 6 // GOROOT"),
        "nope.Z": ("/home/x/go/pkg/mod/github.com/!nope/z@v1.0.0/z.go", None, None),
    }
    for name, (_, here, source) in files.items():
        if here:
            write(here, f"package {name.split('.')[0]}\n{source}\n}}\n")
    write(os.path.join(app, "go.mod"), "module example.com/App // the app\n\ngo 1.19\n")
    profile = os.path.join(tmp, "places.pprof")
    with open(profile, "wb") as f:
        f.write(pprof([(name, named) for name, (named, _, _) in files.items()]))
    return SimpleNamespace(cache=cache, app=app, goroot=goroot, files=files,
                           profile=profile)
