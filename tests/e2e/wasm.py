#!/usr/bin/env python3
"""WebAssembly frames of V8 profiles (issue 25): places printed as V8 prints
them, module hash and hex body offset, against wasm-objdump's addresses
(testdata/wasm/*.funcs.txt, `wasm-objdump -d | grep func[`)."""
import json
import re

from e2e import check, finish, wprof, data


def objdump_offsets(name):
    """Function index -> body offset, as wasm-objdump -d prints them."""
    offsets = {}
    for line in open(data("wasm/" + name)):
        m = re.match(r"([0-9a-f]+) func\[(\d+)\]", line)
        if m:
            offsets[int(m.group(2))] = int(m.group(1), 16)
    return offsets


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

finish()
