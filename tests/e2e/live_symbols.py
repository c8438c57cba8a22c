#!/usr/bin/env python3
"""Live sessions symbolized (issue 25): a real `node --inspect-brk` running

  maps  the esbuild bundle of testdata/sourcemap (its map beside it),
        profiled until it ends: every bundle row as Mozilla's source-map
        library maps it (bundle.reference.txt), the generated place kept
        in JSON, the header's count;
  wasm  the stripped wasm build of testdata/wasm with --symbols hot.wasm:
        every wasm-function[N] named as wasm-objdump names function N
        (hot.funcs.txt);
  tui   the bundle followed by the explorer in tmux: the header's count,
        and the flat pane's rows under the original names at every
        refresh, none under the bundle's own (77 without tmux)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from e2e import check, finish, wprof, data

if not shutil.which("node"):
    print("no node: skipped")
    sys.exit(77)


def start_node(args, cwd):
    """node --inspect-brk running args, and the port it listens on."""
    proc = subprocess.Popen(["node", "--inspect-brk=127.0.0.1:0", *args], cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:
        m = re.search(r"Debugger listening on ws://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, m.group(1)
    return proc, None


def session(args, cwd, *options):
    """The report of a node program profiled from its start to its end."""
    proc, port = start_node(args, cwd)
    try:
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


def tui():
    if not shutil.which("tmux"):
        print("no tmux: skipped")
        sys.exit(77)
    from tmux_driver import Pane, run_tests, failures
    # The bundle runs 1.5 s; refresh after refresh needs longer, so a
    # loop runs it again for 8 s (a second script, without a map).
    loop_dir = tempfile.mkdtemp(prefix="wprof-live-symbols-")
    with open(os.path.join(loop_dir, "loop.js"), "w") as f:
        f.write("const bundle = process.argv[2];\n"
                "const end = Date.now() + 8000;\n"
                "while (Date.now() < end) {\n"
                "  delete require.cache[bundle];\n"
                "  require(bundle);\n"
                "}\n")
    proc, port = start_node(["loop.js", os.path.abspath(data("sourcemap/dist/bundle.min.js"))],
                            loop_dir)
    minified = ("i", "u", "p", "h", "c", "d")

    def rows(screen):
        return [line.split()[-2] for line in screen.split("\n")[4:-1]
                if len(line.split()) >= 6]

    def follow():
        pane = Pane("%s --inspect 127.0.0.1:%s; echo EXIT=$?; sleep 60" % (
            os.path.abspath(sys.argv[1]), port), width=160, height=30,
            what="the session's first screen")
        try:
            s = pane.press(["3"], r"sortByKey", "the flat pane, mapped")
            for k in range(3):  # refresh after refresh
                if k:
                    before = s
                    # Drawn whole: its header and rows, not the one
                    # and the other's of the refresh before.
                    s = pane.settled(lambda s: s != before and "sortByKey" in s,
                                     "a refresh")
                check("source maps: 1 of 2 scripts" in s, "the header's count:\n" + s)
                check(not set(rows(s)) & set(minified),
                      "no row under the bundle's names: %s" % rows(s))
                check({"sortByKey", "render"} & set(rows(s)), "mapped rows: %s" % rows(s))
        finally:
            pane.keys("q")
            pane.close()
    try:
        check(port, "node says where it listens")
        if port:
            run_tests([follow])
        for f in failures:
            check(False, f)
    finally:
        proc.kill()
        shutil.rmtree(loop_dir, ignore_errors=True)
        proc.wait()


{"maps": maps, "wasm": wasm, "tui": tui}[sys.argv[3]]()
finish()
