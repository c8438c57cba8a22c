#!/usr/bin/env python3
"""Builds small -pg programs, runs them, and compares what the system's
`gprof -b` says about each gmon.out with wprof-tui's --rule gprof reports:
every function's flat-profile columns and every primary line of the call
graph (%time, self, children, called, and its index).  Skips (77)
without gcc or gprof.  With --saved DIR, compares DIR's program and
gmon.out with the `gprof -b` output saved beside them (gprof-b.txt)
instead, with no gcc or gprof needed: a C++ program, whose names gprof
demangles.

usage: gprof_compare.py WPROF_TUI SOURCES_DIR
       gprof_compare.py WPROF_TUI --saved DIR"""
import csv
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

SKIP = 77


# A flat profile line: %time, cumulative and self seconds, then calls,
# self and total per call when the function was counted, then the name
# (C++ names hold blanks).
FLAT = re.compile(r"^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+"
                  r"(?:(\d+(?:/\d+)?)\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*)$")


def flat_rows(text):
    rows, inside = {}, False
    for line in text.splitlines():
        if line.lstrip().startswith("time") and "name" in line:
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            m = FLAT.match(line)
            if m:
                rows[m.group(7)] = [g for g in m.groups()[:6] if g is not None]
    return rows


PRIMARY = re.compile(r"^\[(\d+)\]\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+(?:\+\d+)?)?\s*(.*) \[\d+\]$")


def primary_rows(text):
    """{name: [index, %time, self, children, called]}, in printed order."""
    rows = {}
    text = text[text.find("Call graph"):]
    for line in text.splitlines():
        m = PRIMARY.match(line)
        if m:
            rows[m.group(6)] = [m.group(1), m.group(2), m.group(3), m.group(4),
                                m.group(5) or ""]
    return rows


CALLEE = re.compile(r"^\s+(\d+\.\d+)\s+(\d+\.\d+)\s+\d+/\d+\s+(.+?)(?: <cycle \d+>)? \[\d+\]$")


def callee_lines(text):
    """{caller: {callee: self + children}} from gprof's callee lines (the
    lines after each primary line): the time gprof gives each arc."""
    arcs, caller = {}, None
    text = text[text.find("Call graph"):]
    for line in text.splitlines():
        if line.startswith("---"):
            caller = None
            continue
        m = PRIMARY.match(line)
        if m:
            caller = re.sub(r" <cycle \d+>$", "", m.group(6))
            continue
        m = CALLEE.match(line)
        if m and caller:
            arcs.setdefault(caller, {})[m.group(3)] = float(m.group(1)) + float(m.group(2))
    return arcs


def check_tree(label, rows, top, failures, own=1):
    """Top-down (own=1): each row's total is its self plus its children's
    totals, and at the top each child row's total is what gprof gives its
    arc.  Bottom-up (own=0): a row's callers share its total."""
    for row in rows:
        kids = row.get("children", [])
        if kids:
            want = own * row["self"] + sum(k["total"] for k in kids)
            if abs(row["total"] - want) > 1e-6 * max(1.0, abs(want)):
                failures.append(f"{label}: {row['name']}: total {row['total']}, "
                                f"self + children {want}")
            check_tree(label, kids, None, failures, own)
        if top is None:
            continue
        for kid in kids:
            want = top.get(row["name"], {}).get(kid["name"])
            # gprof prints seconds to two places: each of self and children
            # is good to half a hundredth.
            if want is not None and abs(kid["total"] / 1e6 - want) > 0.0101:
                failures.append(f"{label}: {row['name']} -> {kid['name']}: "
                                f"{kid['total'] / 1e6:.4f}s, gprof {want:.2f}s")


def compare_trees(wprof, name, work, reference):
    """Top-down and bottom-up under gprof attribute what gprof does."""
    failures = []
    for view in ("top-down", "bottom-up"):
        out = run([wprof, "gmon.out", "--exe", name, "--report", view, "--rule", "gprof",
                   "--format", "json"], work)
        rows = json.loads(out)["rows"]
        top_down = view == "top-down"
        check_tree(f"{name} {view}", rows, callee_lines(reference) if top_down else None,
                   failures, 1 if top_down else 0)
    for f in failures:
        print(f, file=sys.stderr)
    return len(failures)


def compare_formats(wprof, name, work, text_rows):
    """JSON and CSV carry every function the text flat profile shows
    (gprof shows functions with calls and no time, too; they may carry
    more, such as main with no time of its own but a total)."""
    args = [wprof, "gmon.out", "--exe", name, "--report", "flat", "--rule", "gprof"]
    in_json = {r["name"] for r in json.loads(run(args + ["--format", "json"], work))["rows"]}
    csv_rows = list(csv.reader(run(args + ["--format", "csv"], work).splitlines()))
    column = csv_rows[0].index("name")
    in_csv = {row[column] for row in csv_rows[1:] if row}
    failures = 0
    for fmt, names in (("json", in_json), ("csv", in_csv)):
        if not names >= set(text_rows):
            print(f"{name}: {fmt} lacks {sorted(set(text_rows) - names)} of the text rows",
                  file=sys.stderr)
            failures += 1
    return failures


def compare_rows(wprof, name, work, primary):
    """The rows every pane shows (JSON here) under any rule: under gprof,
    total % of the call graph's base (gprof's % time); under every rule,
    the calls the data counts (gprof's called, N+M for N calls from others
    and M from itself)."""
    failures = 0
    for rule in ("gprof", "divided"):
        report = json.loads(run([wprof, "gmon.out", "--exe", name, "--report", "flat",
                                 "--rule", rule, "--format", "json"], work))
        rows = {r["name"]: r for r in report["rows"]}
        for fn, (_, percent, _, _, called) in primary.items():
            fn = re.sub(r" <cycle \d+>$", "", fn)
            row = rows.get(fn)
            if "<cycle" in fn or row is None:
                continue
            calls = sum(int(c) for c in called.split("+")) if called else 0
            total_pct = 100 * row["total"] / report["profile_total"]
            pct_ok = rule != "gprof" or abs(total_pct - float(percent)) <= 0.051
            if not pct_ok or row["calls"] != calls:
                print(f"{name} --rule {rule} {fn}: {total_pct:.2f}% {row['calls']} calls, "
                      f"gprof {percent}% {called}", file=sys.stderr)
                failures += 1
    return failures


def compare_sample_count(wprof, name, work, reference, exact=None):
    """The header's samples are the histogram's: gprof's total time (its
    top row's self seconds over its %time) over "Each sample counts as"
    seconds; `exact` when the file's bins are known."""
    per_sample = float(re.search(r"Each sample counts as ([0-9.]+) seconds",
                                 reference).group(1))
    top = max(flat_rows(reference).values(), key=lambda r: float(r[2]))
    want = float(top[2]) / (float(top[0]) / 100) / per_sample
    flat = json.loads(run([wprof, "gmon.out", "--exe", name, "--report", "flat",
                           "--rule", "gprof", "--format", "json"], work))
    got = flat["samples"]
    if abs(got - want) > 0.01 * want + 1 or (exact is not None and got != exact):
        print(f"{name}: {got} samples, gprof says {want:.1f}" +
              (f", the file has {exact}" if exact else ""),
              file=sys.stderr)
        return 1
    return 0


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout


def compare(wprof, source, work):
    name = os.path.splitext(os.path.basename(source))[0]
    run(["gcc", "-O1", "-pg", "-o", name, source], work)
    if os.path.exists(os.path.join(work, "gmon.out")):
        os.remove(os.path.join(work, "gmon.out"))
    run(["./" + name], work)
    failures = compare_outputs(wprof, name, work)
    # Without --exe, a.out beside the file, as gprof.
    shutil.copy(os.path.join(work, name), os.path.join(work, "a.out"))
    flat = run([wprof, "gmon.out", "--exe", name, "--report", "flat", "--rule", "gprof"], work)
    default = run([wprof, "gmon.out", "--report", "flat", "--rule", "gprof"], work)
    if flat_rows(default) != flat_rows(flat):
        print(f"{name}: a.out beside gmon.out not used as the executable", file=sys.stderr)
        failures += 1
    return failures


def without_index(rows):
    return {name: values[1:] for name, values in rows.items()}


def compare_outputs(wprof, name, work, reference=None):
    """With a saved reference the order and the call graph's indexes are
    compared too: a run made now may have functions whose totals tie
    to the last bit in one tool's sums and not in the other's."""
    exact = reference is not None
    if reference is None:
        reference = run(["gprof", "-b", name, "gmon.out"], work)
    flat = run([wprof, "gmon.out", "--exe", name, "--report", "flat", "--rule", "gprof"], work)
    graph = run([wprof, "gmon.out", "--exe", name, "--report", "callgraph", "--rule", "gprof"], work)
    failures = 0
    want_graph, got_graph = primary_rows(reference), primary_rows(graph)
    if not exact:
        want_graph, got_graph = without_index(want_graph), without_index(got_graph)
    for kind, want, got in (("flat", flat_rows(reference), flat_rows(flat)),
                            ("call graph", want_graph, got_graph)):
        if not want:
            print(f"{name}: gprof printed no {kind} rows", file=sys.stderr)
            failures += 1
        for fn in sorted(set(want) | set(got)):
            if want.get(fn) != got.get(fn):
                print(f"{name} {kind} {fn}: gprof {want.get(fn)}, wprof-tui {got.get(fn)}",
                      file=sys.stderr)
                failures += 1
        if exact and list(want) != list(got):
            print(f"{name}: the {kind} is not in gprof's order", file=sys.stderr)
            failures += 1
    failures += compare_trees(wprof, name, work, reference)
    failures += compare_formats(wprof, name, work, flat_rows(flat))
    failures += compare_sample_count(wprof, name, work, reference)
    failures += compare_rows(wprof, name, work, primary_rows(reference))
    print(f"{name}: {len(flat_rows(reference))} flat rows, "
          f"{len(primary_rows(reference))} primary lines compared")
    return failures


def write_gmon32(path):
    """A gmon.out with 4-byte words for tests/gprof/elf32.c linked at
    0x08049000: two histograms of the same range (they add up), arcs, and
    a basic-block record."""
    low, high, bins = 0x08049000, 0x08049030, 12

    def hist(counts):
        return struct.pack("<BIIII15sc", 0, low, high, bins, 100, b"seconds", b"s") + \
            struct.pack("<12H", *counts)

    arcs = b"".join(struct.pack("<BIII", 1, f, t, c) for f, t, c in (
        (0x0804900a, 0x08049000, 2), (0x08049016, 0x08049008, 1),
        (0x08049018, 0x08049000, 1), (0x0804901b, 0x08049014, 1)))
    blocks = struct.pack("<BIII", 2, 1, 0x08049000, 3)
    with open(path, "wb") as f:
        f.write(b"gmon" + struct.pack("<I", 1) + bytes(12))
        f.write(hist((5, 1, 0, 4, 2, 0, 7, 0, 0, 0, 0, 0)) + arcs)
        f.write(hist((1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0)) + blocks)


def compare_32bit(wprof, source, work):
    """32-bit ELF words, where gcc can build for i386 (no C library needed)."""
    try:
        run(["gcc", "-m32", "-O1", "-nostdlib", "-static", "-fno-pie", "-no-pie",
             "-Wl,-Ttext=0x08049000", "-o", "elf32", source], work)
    except subprocess.CalledProcessError:
        print("elf32: gcc cannot build for i386 here: not compared")
        return 0
    write_gmon32(os.path.join(work, "gmon.out"))
    failures = compare_outputs(wprof, "elf32", work)
    reference = run(["gprof", "-b", "elf32", "gmon.out"], work)
    return failures + compare_sample_count(wprof, "elf32", work, reference, exact=23)


# Rows of each saved program's call graph, as gprof -b printed them:
# cxx's main has no time of its own and its %time is of the time that
# fell in functions (100.0); parity-edge's shares sit on rounding edges
# (31.25 and 93.75 of the propagated time, which gprof's sums put a hair
# under: 31.2 and 93.7).
SAVED_ROWS = {
    "cxx": (("main", ["1", "100.0", "0.00", "0.40", ""]),
            ("churn(int)", ["2", "75.0", "0.01", "0.29", "1"])),
    "parity-edge": (("is_odd <cycle 1>", ["4", "31.2", "0.05", "0.00", "44000000"]),
                    ("<cycle 1 as a whole>", ["2", "93.7", "0.15", "0.00", "4000+87998000"])),
}


def compare_saved(wprof, directory):
    """A program (a.out) and its gmon.out with gprof -b's output on them,
    saved (testdata/gprof/cxx: g++ -O0 -pg; parity-edge: tests/gprof/
    parity.c, gcc -O1 -pg; binutils 2.40's gprof)."""
    with open(os.path.join(directory, "gprof-b.txt")) as f:
        reference = f.read()
    failures = compare_outputs(wprof, "a.out", directory, reference)
    graph = primary_rows(reference)
    for fn, want in SAVED_ROWS[os.path.basename(os.path.normpath(directory))]:
        if graph.get(fn) != want:
            print(f"gprof-b.txt: {fn} {graph.get(fn)}, want {want}", file=sys.stderr)
            failures += 1
    return 1 if failures else 0


def main():
    if sys.argv[2] == "--saved":
        return compare_saved(os.path.abspath(sys.argv[1]), sys.argv[3])
    wprof, sources = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not shutil.which("gcc") or not shutil.which("gprof"):
        print("gcc or gprof missing: skipped")
        return SKIP
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for source in ("recursion.c", "mutual.c", "callers.c", "parity.c"):
            failures += compare(wprof, os.path.abspath(os.path.join(sources, source)), work)
        failures += compare_32bit(wprof, os.path.abspath(os.path.join(sources, "elf32.c")), work)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
