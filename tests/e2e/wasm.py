#!/usr/bin/env python3
"""WebAssembly frames of V8 profiles (issue 25): places printed as V8 prints
them, module hash and hex body offset, against wasm-objdump's addresses
(testdata/wasm/*.funcs.txt, `wasm-objdump -d | grep func[`); --symbols
naming and placing a stripped build's frames from the unstripped module,
against wasm-objdump's names and llvm-dwarfdump's subprograms
(hot.subprograms.txt); modules that do not fit refused."""
import json
import os
import re
import tempfile

from e2e import check, finish, wprof, data


def objdump_funcs(name):
    """Function index -> (body offset, name), as wasm-objdump -d prints them."""
    funcs = {}
    for line in open(data("wasm/" + name)):
        m = re.match(r"([0-9a-f]+) func\[(\d+)\](?: <(.*)>)?:", line)
        if m:
            funcs[int(m.group(2))] = (int(m.group(1), 16), m.group(3))
    return funcs


def objdump_offsets(name):
    return {k: v[0] for k, v in objdump_funcs(name).items()}


def code_start():
    """Where the code section's payload starts (wasm-objdump -h)."""
    m = re.search(r"Code start=0x([0-9a-f]+)", open(data("wasm/hot.sections.txt")).read())
    return int(m.group(1), 16)


def dwarf_subprograms():
    """low_pc -> (decl_file, decl_line) of llvm-dwarfdump's subprograms."""
    subs = {}
    for block in open(data("wasm/hot.subprograms.txt")).read().split("\n\n"):
        low = re.search(r"DW_AT_low_pc\t\(0x([0-9a-f]+)\)", block)
        decl_file = re.search(r'DW_AT_decl_file\t\("([^"]*)"\)', block)
        decl_line = re.search(r"DW_AT_decl_line\t\((\d+)\)", block)
        if low and decl_file and decl_line:
            subs.setdefault(int(low.group(1), 16), (decl_file.group(1), int(decl_line.group(1))))
    return subs


def report(*args):
    r = wprof("--report", *args)
    check(r.returncode == 0, "%s exits 0: %s" % (args, r.stderr))
    return r.stdout


STRIPPED = data("wasm/hot.stripped.cpuprofile")
stripped_offsets = objdump_offsets("hot.stripped.funcs.txt")

# Text: every wasm-function[N] row at 0001cfda:0x<wasm-objdump's offset>.
text = report("flat", STRIPPED)
rows = re.findall(r"wasm-function\[(\d+)\]  (\S+)", text)
check(len(rows) >= 10, "the stripped profile's wasm rows: %d" % len(rows))
for index, place in rows:
    want = "0001cfda:0x%x" % stripped_offsets[int(index)]
    check(place == want, "wasm-function[%s] at %s, not %s" % (index, want, place))
check("0001cfda:1" not in text, "no made-up line 1:\n" + text)

# JSON: offset in place of line and column.
rows = json.loads(report("flat", "-f", "json", STRIPPED))["rows"]
wasm = [r for r in rows if r["url"] == "wasm://wasm/0001cfda"]
for r in wasm:
    index = int(re.match(r"wasm-function\[(\d+)\]", r["name"]).group(1))
    check(r.get("offset") == stripped_offsets[index] and "line" not in r and "column" not in r,
          "JSON place of %s: %s" % (r["name"], r))

# The lines of a wasm function are not V8's placeholder line 1.
lines = report("lines", "--function", r"wasm-function\[8\]", STRIPPED)
check(not re.search(r"^\s+\S+\s+\S+\s+1:", lines, re.M), "no line 1 for wasm:\n" + lines)


# --symbols: the stripped build's profile with the unstripped module.  Every
# wasm-function[N] takes wasm-objdump's name for func[N] and llvm-dwarfdump's
# decl_file:decl_line for the subprogram at func[N]'s body (low_pc is an
# offset from the code section's payload); one without DWARF keeps its place.
full = objdump_funcs("hot.funcs.txt")
subs = dwarf_subprograms()
start = code_start()
indexes = sorted({int(r["name"][14:-1]) for r in wasm if r["name"].startswith("wasm-function[")})
text = report("flat", "--symbols", data("wasm/hot.wasm"), STRIPPED)
check("# symbols: hot.wasm (name section, DWARF)\n" in text, "header:\n" + text)
check("wasm-function[" not in text, "every wasm frame named:\n" + text)
# self, self%, sum%, total, total%, then the name and its place
places = dict(re.findall(r"^\s+\S+\s+\S+\s+(?:\S+%\s+)?\S+\s+\S+  (\S+)  (\S+)$", text, re.M))
placed = 0
for index in indexes:
    body, name = full[index]
    sub = subs.get(body - start)
    want = "%s:%d" % sub if sub else "0001cfda:0x%x" % stripped_offsets[index]
    placed += bool(sub)
    check(places.get(name) == want, "func[%d] %s at %s, not %s" % (index, name, want, places.get(name)))
check(placed >= 8, "functions placed by DWARF: %d" % placed)

# JSON keeps the place that ran as generated.offset.
rows = json.loads(report("flat", "-f", "json", "--symbols", data("wasm/hot.wasm"), STRIPPED))["rows"]
churn = [r for r in rows if r["name"] == "churn"]
check(len(churn) == 1 and churn[0].get("generated") ==
      {"url": "wasm://wasm/0001cfda", "offset": stripped_offsets[6]}, "churn: %s" % churn)

# The source of a symbolized wasm function: hot.c from its decl_line on.
lines = report("lines", "--function", "^churn$", "--symbols", data("wasm/hot.wasm"),
               "--trim-path", "/work/material/wasm", "--source-path", data("wasm"), STRIPPED)
check(re.search(r"^\s+\S+ms\s+n/a\s+%d:__attribute__\(\(noinline\)\) unsigned churn"
                % subs[full[6][0] - start][1], lines, re.M), "churn's source:\n" + lines)

# A directory: the unstripped module fits, its stripped copy is passed over.
text = report("flat", "--symbols", data("wasm"), STRIPPED)
check("# symbols: hot.wasm (name section, DWARF)\n" in text, "directory:\n" + text)

# An Emscripten symbol map (N:name lines, written here from wasm-objdump's
# names): names only.
with tempfile.TemporaryDirectory() as tmp:
    symbols = os.path.join(tmp, "hot.js.symbols")
    with open(symbols, "w") as f:
        f.writelines("%d:%s\n" % (k, v[1]) for k, v in sorted(full.items()) if v[1])
    text = report("flat", "--symbols", symbols, STRIPPED)
    check("# symbols: hot.js.symbols (symbol map)\n" in text, "symbol map:\n" + text)
    check(re.search(r"  churn  0001cfda:0x%x$" % stripped_offsets[6], text, re.M),
          "churn by the map:\n" + text)

    # DWARF in a separate file: the stripped module (whose bodies are the
    # unstripped one's) with an external_debug_info custom section naming
    # hot.wasm, as emcc -gseparate-dwarf writes it (a name: LEB length and
    # bytes), beside it.
    def leb(n):
        out = b""
        while True:
            byte, n = n & 0x7f, n >> 7
            out += bytes([byte | (0x80 if n else 0)])
            if not n:
                return out
    def name(b):
        return leb(len(b)) + b
    payload = name(b"external_debug_info") + name(b"hot.wasm")
    linked = os.path.join(tmp, "linked.wasm")
    with open(linked, "wb") as f:
        f.write(open(data("wasm/hot.stripped.wasm"), "rb").read() + b"\0" + leb(len(payload)) + payload)
    with open(os.path.join(tmp, "hot.wasm"), "wb") as f:
        f.write(open(data("wasm/hot.wasm"), "rb").read())
    text = report("flat", "--symbols", linked, STRIPPED)
    check("# symbols: linked.wasm (DWARF)\n" in text, "external DWARF:\n" + text)
    body, _ = full[6]
    check(re.search(r"  wasm-function\[6\]  %s:%d$" % subs[body - start], text, re.M),
          "func[6] placed from the separate DWARF:\n" + text)

    # Modules that do not fit are refused, never applied: the stripped
    # module has none of the names of the unstripped build's profile, and a
    # profile whose bodies lie otherwise than the module's (func[7] 5 bytes
    # further than func[6]'s shift says) does not fit it either.
    r = wprof("--report", "flat", "--symbols", data("wasm/hot.stripped.wasm"),
              data("wasm/hot.cpuprofile"))
    check(r.returncode == 2 and "hot.stripped.wasm: does not fit the profile" in r.stderr,
          "stripped module for the unstripped profile: %d %s" % (r.returncode, r.stderr))
    check(r.stdout == "", "nothing reported: " + r.stdout)
    moved = os.path.join(tmp, "moved.cpuprofile")
    frame = ('{"id":%d,"callFrame":{"functionName":"wasm-function[%d]","scriptId":"1",'
             '"url":"wasm://wasm/0001cfda","lineNumber":0,"columnNumber":%d},"hitCount":1%s}')
    with open(moved, "w") as f:
        f.write('{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"",'
                '"lineNumber":-1,"columnNumber":-1},"children":[2]},%s,%s],'
                '"startTime":0,"endTime":2,"samples":[2,3],"timeDeltas":[1,1]}'
                % (frame % (2, 6, stripped_offsets[6], ',"children":[3]'),
                   frame % (3, 7, stripped_offsets[7] + 5, "")))
    r = wprof("--report", "flat", "--symbols", data("wasm/hot.wasm"), moved)
    check(r.returncode == 2 and "hot.wasm: does not fit the profile: its function bodies"
          in r.stderr, "moved bodies: %d %s" % (r.returncode, r.stderr))

finish()
