#!/usr/bin/env python3
"""Live sessions symbolized (issue 25): a real `node --inspect-brk` running

  maps  the esbuild bundle of testdata/sourcemap (its map beside it),
        profiled until it ends: every bundle row as Mozilla's source-map
        library maps it (bundle.reference.txt), the generated place kept
        in JSON, the header's count;
  wasm  the stripped wasm build of testdata/wasm with --symbols hot.wasm:
        every wasm-function[N] named as wasm-objdump names function N
        (hot.funcs.txt)."""
import json
import os
import re
import shutil
import subprocess
import sys

from e2e import check, finish, wprof, data

if not shutil.which("node"):
    print("no node: skipped")
    sys.exit(77)


def session(args, cwd, *options):
    """The report of a node program profiled from its start to its end."""
    proc = subprocess.Popen(["node", "--inspect-brk=127.0.0.1:0", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in proc.stderr:
            m = re.search(r"Debugger listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = m.group(1)
                break
        if not check(port, "node says where it listens"):
            return {}
        r = wprof("--inspect", "127.0.0.1:" + port, "--duration", "60s", "--report", "flat",
                  "--format", "json", *options, timeout=120)
        check(r.returncode == 0, "exit %d: %s" % (r.returncode, r.stderr))
        return json.loads(r.stdout) if r.returncode == 0 else {}
    finally:
        proc.kill()
        proc.wait()


def maps():
    dist = data("sourcemap/dist")
    doc = session(["bundle.min.js"], dist)
    check("source maps: 1 of" in (doc.get("symbols") or ""),
          "the header says the bundle had a map: %s" % doc.get("symbols"))
    refs = {}
    for line in open(os.path.join(dist, "bundle.reference.txt")):
        m = re.match(r"(\S+) (\d+):(\d+) -> (\S+) (\S+):(\d+):", line)
        if m:
            refs[(int(m.group(2)), int(m.group(3)))] = (
                m.group(1), m.group(4), m.group(5).lstrip("./"), int(m.group(6)))
    mapped = 0
    for row in doc.get("rows", []):
        gen = row.get("generated")
        if gen is None:
            check(not row["url"].endswith("bundle.min.js") or
                  refs.get((row["line"], row["column"]), ("", "", "null"))[2] == "null",
                  "%s at %s:%s kept its generated place though the library maps it" %
                  (row["name"], row["url"], row["line"]))
            continue
        ref = refs.get((gen["line"], gen["column"]))
        if not check(ref, "%s generated at %s has a reference" % (row["name"], gen)):
            continue
        _, name, source, line = ref
        want = name if name != "null" else "(anonymous)"
        check(row["name"] == want and row["url"].endswith("/" + source) and
              row["line"] == line,
              "%s:%s:%s as %s %s:%d" % (row["name"], row["url"], row["line"], want, source,
                                        line))
        mapped += 1
    check(mapped >= 5, "mapped rows of the live session: %d" % mapped)


def wasm():
    names = {}
    for line in open(data("wasm/hot.funcs.txt")):
        m = re.match(r"[0-9a-f]+ func\[(\d+)\] <(.*)>:", line)
        if m:
            names[m.group(2)] = int(m.group(1))
    doc = session(["run.mjs", "hot.stripped.wasm"], data("wasm"),
                  "--symbols", data("wasm/hot.wasm"))
    check("symbols: hot.wasm" in (doc.get("symbols") or ""),
          "the header names the module: %s" % doc.get("symbols"))
    rows = doc.get("rows", [])
    check(not [r for r in rows if r["name"].startswith("wasm-function[")],
          "no wasm-function[N] left: %s" % [r["name"] for r in rows])
    wasm_rows = [r for r in rows if r.get("generated", {}).get("url", "").startswith("wasm://")]
    check(len(wasm_rows) >= 3, "named wasm rows: %d" % len(wasm_rows))
    stripped = {}
    for line in open(data("wasm/hot.stripped.funcs.txt")):
        m = re.match(r"([0-9a-f]+) func\[(\d+)\]", line)
        if m:
            stripped[int(m.group(1), 16)] = int(m.group(2))
    for r in wasm_rows:
        index = stripped.get(r["generated"].get("offset"))
        check(index is not None and names.get(r["name"]) == index,
              "%s ran as func[%s] of the stripped build" % (r["name"], index))


{"maps": maps, "wasm": wasm}[sys.argv[3]]()
finish()
