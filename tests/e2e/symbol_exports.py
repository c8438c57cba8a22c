#!/usr/bin/env python3
"""Exports of symbolized profiles (issue 25) keep the profile's own names
and places where the format has room (docs/pprof.md, Exporting):

- pprof, read back by `go tool pprof -raw` and `-traces`: each bundle frame
  as the original Mozilla's source-map library names it
  (sourcemap/dist/bundle.reference.txt) with the generated name as
  system_name; wasm frames as wasm-objdump names them (wasm/hot.funcs.txt)
  with V8's wasm-function[N] as system_name;
- .cpuprofile and trace, read back as JSON: the original callFrame, and the
  profile's own callFrame under "generated"."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from e2e import check, finish, wprof, data

GO = shutil.which("go")
if not GO:
    print("go is not installed: skipped")
    sys.exit(77)

WORK = tempfile.mkdtemp(prefix="wprof-symbol-exports-")
ROOT = data("sourcemap")
PROFILE = os.path.join(WORK, "bundle.cpuprofile")
with open(os.path.join(ROOT, "dist", "bundle.cpuprofile")) as f:
    text = f.read().replace("file:///work/material/sm/", "file:///nonexistent/sm/")
with open(PROFILE, "w") as f:
    f.write(text)
callframes = {}
for node in json.loads(text)["nodes"]:
    c = node["callFrame"]
    callframes["%s %d:%d" % (c["functionName"] or "(anonymous)", c["lineNumber"] + 1,
                             c["columnNumber"] + 1)] = c

# Reference: generated "name L:C" -> (original name, source, line), the
# library's answers that have an original.
refs = {}
for line in open(os.path.join(ROOT, "dist", "bundle.reference.txt")):
    m = re.match(r"(\S+ \d+:\d+) -> (\S+) (\S+):(\d+):", line)
    if m and m.group(3) != "null":
        name = m.group(2) if m.group(2) != "null" else "(anonymous)"
        refs[m.group(1)] = (name, m.group(3).lstrip("./"), int(m.group(4)))
check(len(refs) >= 8, "the reference's mapped frames: %d" % len(refs))


def export(fmt, *args):
    out = os.path.join(WORK, "out." + fmt)
    r = wprof("--export", fmt, "-o", out, *args)
    check(r.returncode == 0, "--export %s %s exits 0: %s" % (fmt, args, r.stderr))
    return out


def go_pprof(flag, path):
    r = subprocess.run([GO, "tool", "pprof", flag, path], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, PPROF_BINARY_PATH=WORK))
    check(r.returncode == 0, "go tool pprof %s: %s" % (flag, r.stderr))
    return r.stdout


# pprof: "NAME FILE:LINE s=START(SYSTEM_NAME)" per location, pprof's own
# printing of a Function whose system_name differs from its name.
raw = go_pprof("-raw", export("pprof", "--source-path", ROOT, PROFILE))
for generated, (name, source, line) in refs.items():
    gen_name = generated.split()[0]
    tail = "" if gen_name == name else "(%s)" % gen_name
    want = re.compile(r": 0x0 M=1 %s \S*/%s:%d s=%d%s$" % (
        re.escape(name), re.escape(source), line, line, re.escape(tail)), re.M)
    check(want.search(raw), "pprof -raw: %s as %s %s:%d%s" % (generated, name, source,
                                                                 line, tail))
# -traces: stacks of original names only.
traces = go_pprof("-traces", os.path.join(WORK, "out.pprof"))
# (each stack line: a value column of 10 characters, 3 spaces, the name)
frames = {s[13:].strip() for s in traces.split("\n") if len(s) > 13 and s[0] != "-"}
for generated, (name, _, _) in refs.items():
    check(name in frames, "pprof -traces has %s" % name)
    gen_name = generated.split()[0]
    check(gen_name in (name, "(anonymous)") or gen_name not in frames,
          "pprof -traces has no generated %s" % gen_name)


def check_callframes(nodes, label):
    """Each reference frame as its original, the profile's own callFrame
    under "generated" (0-based, as V8 wrote it)."""
    for generated, (name, source, line) in refs.items():
        own = callframes[generated]
        want = {"functionName": own["functionName"] or "(anonymous)", "url": own["url"],
                "lineNumber": own["lineNumber"], "columnNumber": own["columnNumber"]}
        found = [n["callFrame"] for n in nodes
                 if n["callFrame"]["functionName"] == name and
                 n["callFrame"]["url"].endswith("/" + source) and
                 n["callFrame"]["lineNumber"] == line - 1 and
                 n["callFrame"].get("generated") == want]
        check(found, "%s: %s as %s %s:%d with generated %s" % (label, generated, name,
                                                                source, line, want))
    unmapped = [n["callFrame"] for n in nodes if n["callFrame"]["url"].startswith("node:")]
    check(unmapped and all("generated" not in c for c in unmapped),
          "%s: frames not mapped have no generated" % label)


doc = json.load(open(export("cpuprofile", "--source-path", ROOT, PROFILE)))
check_callframes(doc["nodes"], "cpuprofile")
trace = json.load(open(export("trace", "--source-path", ROOT, PROFILE)))
nodes = [n for e in trace["traceEvents"] if e.get("name") == "ProfileChunk"
         for n in e["args"]["data"].get("cpuProfile", {}).get("nodes", [])]
check_callframes(nodes, "trace")

# wasm: a stripped build's frames named from the unstripped module, V8's
# wasm-function[N] kept as system_name.
names = {}
for line in open(data("wasm/hot.funcs.txt")):
    m = re.match(r"[0-9a-f]+ func\[(\d+)\] <(.*)>:", line)
    if m:
        names[int(m.group(1))] = m.group(2)
raw = go_pprof("-raw", export("pprof", "--symbols", data("wasm/hot.wasm"),
                              data("wasm/hot.stripped.cpuprofile")))
kept = re.findall(r": 0x0 M=1 (\S+) \S+ s=\d+\(wasm-function\[(\d+)\]\)$", raw, re.M)
check(len(kept) >= 10, "wasm frames with wasm-function[N] as system_name: %d" % len(kept))
for name, index in kept:
    check(names.get(int(index)) == name,
          "wasm-function[%s] exported as %s, wasm-objdump says %s" % (index, name,
                                                                      names.get(int(index))))
shutil.rmtree(WORK)
finish()
