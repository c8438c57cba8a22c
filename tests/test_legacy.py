#!/usr/bin/env python3
"""Legacy pprof forms (text profiles, the gperftools binary CPU profile)
end to end through the wprof-tui binary.

    test_legacy.py WPROF TESTDATA top        corpus files vs go tool pprof -top (committed)
    test_legacy.py WPROF TESTDATA hand       hand-written files vs numbers worked by hand
    test_legacy.py WPROF TESTDATA go         every file vs go tool pprof run now (77: no go)
    test_legacy.py WPROF TESTDATA exe        programs built and profiled now, --exe (77: no gcc)
    test_legacy.py WPROF TESTDATA goprog     Go's own legacy profiles written now (77: no go)
    test_legacy.py WPROF TESTDATA roundtrip  export to pprof/cpuprofile/folded and back
    test_legacy.py WPROF TESTDATA bad        broken input: format, byte offset, exit 2

Unsymbolized addresses are named as `go tool pprof` names them: by their
mapping ("[binary]", "<unknown>" outside every mapping), and with
--granularity addresses as with -addresses ("000000000042ed43 [binary]")."""
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from profile_checks import Checks, parse_top, rows_of

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
LEGACY = os.path.join(TESTDATA, "legacy")
C = Checks(WPROF)

HEAP_TYPES = ["alloc_objects", "alloc_space", "inuse_objects", "inuse_space"]
# file, sample types, whether go names rows by address
GO_FILES = [("gobench.heap", HEAP_TYPES, True), ("cppbench.cpu", ["samples", "cpu"], True),
            ("contention.txt", ["contentions", "delay"], True),
            ("threadcreate.txt", ["threadcreate"], True),
            ("growthz.txt", ["objects", "space"], True),
            ("heap_v2.heap", HEAP_TYPES, True),
            ("java-heapz.txt", ["inuse_objects", "inuse_space"], False),
            ("java-contentionz.txt", ["contentions", "delay"], False),
            ("cpp.contention", ["contentions", "delay"], True),
            ("cpp.thread", ["thread"], True)]


ADDRESSES = ("--granularity", "addresses")


def flat_report(path, sample_type=None, extra=()):
    return C.report(path, *extra, sample_type=sample_type)


def at(address, mapping=None):
    """pprof -addresses' name of an unsymbolized address ("0x401004")."""
    return "%016x %s" % (int(address, 16), f"[{mapping}]" if mapping else "<unknown>")


def by_address(want, mapping=None):
    return {at(k, mapping) if k.startswith("0x") else k: v for k, v in want.items()}


def unsample(count, size, rate):
    """pprof's scaleHeapSample, by hand: a sample of average size S was
    kept with probability 1 - exp(-S/rate)."""
    if count == 0 or size == 0:
        return 0, 0
    scale = 1 / (1 - math.exp(-(size / count) / rate))
    return int(count * scale), int(size * scale)


def test_top():
    for name, types, addressed in GO_FILES[:2]:
        corpus = {"gobench.heap": "legacy-gobench.heap", "cppbench.cpu": "gperftools-cppbench.cpu"}[name]
        for t in types:
            with open(os.path.join(TESTDATA, "expected", f"{corpus}.{t}.top.txt")) as f:
                top = f.read()
            report = flat_report(os.path.join(LEGACY, name), t, ADDRESSES if addressed else ())
            if report:
                C.compare_with_top(f"{name} ({t})", report, top)
    # Hand-made C++ contentionz and threadz profiles, against -top -addresses.
    for name, types in (("cpp.contention", ["contentions", "delay"]), ("cpp.thread", ["thread"])):
        for t in types:
            with open(os.path.join(TESTDATA, "expected", f"legacy-{name}.{t}.top.txt")) as f:
                top = f.read()
            report = flat_report(os.path.join(LEGACY, name), t, ADDRESSES)
            if report:
                C.compare_with_top(f"{name} ({t})", report, top)
    # Go's legacy text has no memory map: without the program, pprof shows
    # one <unknown> row.
    with open(os.path.join(TESTDATA, "expected",
                           "legacy-go-heapdemo.heap.inuse_space.no-binary.top.txt")) as f:
        top = f.read()
    report = flat_report(os.path.join(LEGACY, "go-heapdemo.heap"), "inuse_space")
    if report:
        C.compare_with_top("go-heapdemo.heap without the program", report, top)
    # go tool pprof -top (by function): the addresses of each mapping are one row.
    with open(os.path.join(TESTDATA, "expected", "gperftools-cppbench.cpu.cpu.functions.top.txt")) as f:
        top = f.read()
    report = flat_report(os.path.join(LEGACY, "cppbench.cpu"), "cpu")
    if report:
        C.compare_with_top("cppbench.cpu by function", report, top)
    # The default type is the last, as pprof's.
    for name, want in (("gobench.heap", "inuse_space"), ("cppbench.cpu", "cpu"),
                       ("contention.txt", "delay")):
        report = flat_report(os.path.join(LEGACY, name))
        if report and report["sample_type"] != want:
            C.fail(f"{name}: default sample type {report['sample_type']}, want {want}")


# ---- hand-written files, numbers worked by hand ------------------------------------------

def expect(label, path, sample_type, want, extra=()):
    report = flat_report(path, sample_type, extra)
    C.expect(label, report, want)
    return report


def expect_addresses(label, path, sample_type, want, mapping=None):
    """want's "0x..." rows by address; by function, all of them one row
    for their mapping: every sample is in it, its self and total the sum."""
    report = expect(label, path, sample_type, by_address(want, mapping), ADDRESSES)
    whole = sum(s for s, _ in want.values())
    expect(label + " by function", path, sample_type,
           {f"[{mapping}]" if mapping else "<unknown>": (whole, whole)})
    return report


def test_hand():
    L = lambda name: os.path.join(LEGACY, name)  # noqa: E731
    # contention: delay cycles * period / (cycles per ns); every address
    # one back.  2000*10/2 = 10000 ns, 1000*10/2 = 5000 ns, 500*10/2 = 2500 ns.
    expect_addresses("contention delay", L("contention.txt"), "delay",
           {"0x401004": (15, 15), "0x402004": (0, 10), "0x403004": (0, 5),
            "0x404004": (2.5, 2.5)})
    expect_addresses("contention count", L("contention.txt"), "contentions",
           {"0x401004": (40, 40), "0x402004": (0, 30), "0x403004": (0, 10),
            "0x404004": (20, 20)})
    # A C++ contentionz profile (no format or resolution: not Java's):
    # cycles at 2 GHz times the period 100, counts times 100; every address
    # one back, as Go 1.19's pprof takes them.  2000000*100/2 ns = 100 ms.
    report = expect_addresses("c++ contentionz", L("cpp.contention"), "delay",
                              {"0x401004": (150000, 150000), "0x402004": (0, 100000),
                               "0x403004": (0, 300000), "0x404004": (0, 50000),
                               "0x405004": (200000, 200000)}, "lockbench")
    if report and abs(report["duration"] - 5e6) > 1:  # ms since reset = 5000
        C.fail(f"c++ contentionz: duration {report['duration']}, want 5 s")
    expect_addresses("c++ contentionz count", L("cpp.contention"), "contentions",
                     {"0x401004": (600, 600), "0x402004": (0, 400), "0x403004": (0, 500),
                      "0x404004": (0, 200), "0x405004": (100, 100)}, "lockbench")
    # threadz: one count a thread, "same as previous thread" one more for
    # the stack before; the leaf as it is, the callers one back.
    expect_addresses("threadz", L("cpp.thread"), "thread",
                     {"0x401005": (3, 3), "0x402004": (0, 1), "0x403004": (0, 3),
                      "0x404004": (0, 2), "0x405005": (1, 1)})
    expect_addresses("threadcreate", L("threadcreate.txt"), None,
           {"0x43a1b0": (3, 3), "0x401000": (0, 2), "0x402000": (0, 1)})
    expect_addresses("growthz", L("growthz.txt"), "space",
           {"0x401000": (3072, 3072), "0x402000": (0, 1024), "0x403000": (0, 2048)})
    # heap_v2/512: each sample unsampled at rate 512 (heap/N would be N/2).
    a, b = unsample(1, 100, 512), unsample(1, 200, 512)
    expect_addresses("heap_v2 inuse", L("heap_v2.heap"), "inuse_space",
           {"0x401000": (a[1], a[1]), "0x403000": (b[1], b[1]), "0x402000": (0, a[1] + b[1])})
    a, b = unsample(2, 300, 512), unsample(1, 400, 512)
    expect_addresses("heap_v2 alloc", L("heap_v2.heap"), "alloc_objects",
           {"0x401000": (a[0], a[0]), "0x403000": (b[0], b[0]), "0x402000": (0, a[0] + b[0])})
    # Java heapz: "bytes count @ stack", unsampled at 512 KiB.
    grow, array = unsample(1, 1048576, 524288), unsample(4, 262144, 524288)
    expect("java heapz", L("java-heapz.txt"), "inuse_space",
           {"com.example.Cache.grow": (grow[1], grow[1]),
            "java.util.ArrayList.<init>": (array[1], array[1]),
            "com.example.Main.main": (0, grow[1] + array[1])})
    report = flat_report(L("java-heapz.txt"))
    if report:
        urls = {r["name"]: r["url"] for r in report["rows"]}
        if urls.get("com.example.Cache.grow") != "Cache.java":
            C.fail(f"java heapz: file of Cache.grow is {urls.get('com.example.Cache.grow')!r}")
    # Java contentionz: both values times the sampling period (100), in
    # the resolution's unit (microseconds).
    expect("java contentionz", L("java-contentionz.txt"), "delay",
           {"java.lang.Object.wait": (1500, 1500), "com.example.Pool.take": (0, 1400),
            "com.example.Worker.run": (0, 100)})
    # pprof's drop_frames for heap profiles, by hand (Prune): from the
    # root, the first allocator frame after a kept one goes with all below
    # it; runtime.panic is kept; a stack of allocator frames only stays.
    expect("drop_frames", L("dropped.heap"), "space",
           {"alloc_buffer": (1024, 3072), "main": (0, 3072), "runtime.panic": (2048, 2048),
            "operator new[](unsigned long)": (512, 512), "runtime.mallocgc": (0, 512),
            "runtime.goexit": (0, 512)})
    # A --- symbol section names addresses by the nearest symbol below.
    expect("symbol section", L("symbols.heap"), "inuse_space",
           {"main": (0, 3072), "alloc_buffer": (2048, 2048), "parse_input": (1024, 1024)})
    expect("symbol section", L("symbols.heap"), "alloc_space",
           {"main": (0, 5120), "alloc_buffer": (3072, 3072), "parse_input": (2048, 2048)})
    # gobench.heap's largest sample: "1: 524288 [3: 1572864]" at heap/1048576,
    # rate 524288, scales by 1/(1-e^-1).
    count, size = unsample(1, 524288, 524288)
    if (count, size) != (1, 829411):  # 524288 / (1 - 1/e)
        C.fail(f"unsampling by hand: {(count, size)}")
    # cppbench.cpu: period 10000 us (the 4th header word, 0x2710); the
    # hottest address has 542 samples.
    report = flat_report(L("cppbench.cpu"), "cpu", ADDRESSES)
    if report:
        got, hottest = rows_of(report), at("0x42ed43", "cppbench_server_main")
        if got.get(hottest) != (5420000, 5420000):
            C.fail(f"cppbench.cpu: {hottest} {got.get(hottest)}, want 542 x 10 ms")
    # The same profile in 32-bit big-endian words reads the same.
    test_word_layouts()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "java.prof")
        with open(path, "wb") as f:
            f.write(cpu_profile(JAVA_RECORDS, maps=JAVA_NAMES, java=True))
        # pprof's --raw form: a symbol section, then the binary profile.
        raw = os.path.join(tmp, "raw.prof")
        symbols = ("--- symbol\nbinary=/usr/bin/busy\n0x401000 leaf_a\n0x402000 leaf_b\n"
                   "0x402f00 mid_a\n0x403f00 top\n0x404f00 mid_b\n---\n--- profile\n")
        with open(raw, "wb") as f:
            f.write(symbols.encode() + cpu_profile(
                [(3, [0x401010, 0x403000, 0x404000]), (1, [0x402010, 0x405000, 0x404000])]))
        expect("symbols + binary cpu", raw, "cpu",
               {"leaf_a": (30000, 30000), "leaf_b": (10000, 10000), "mid_a": (0, 30000),
                "mid_b": (0, 10000), "top": (0, 40000)})
        expect("java cpu", path, "cpu", {"com.example.A.run": (30000, 30000),
                                         "STUB": (10000, 10000),
                                         "com.example.Main.main": (0, 40000)})


def cpu_profile(records, period=10000, size=8, endian="<", maps="", java=False):
    fmt = endian + ("Q" if size == 8 else "I")
    words = [0, 3, 1 if java else 0, period, 0]
    for count, stack in records:
        words += [count, len(stack), *stack]
    words += [0, 1, 0]
    return b"".join(struct.pack(fmt, w) for w in words) + maps.encode()


MAPS = "00400000-00500000 r-xp 00000000 08:01 42 /usr/bin/busy\n"
# A Java CPU profile: ids instead of pcs (kept as they are, no handler
# frame removed), named by the lines after the trailer.
JAVA_RECORDS = [(3, [1, 2]), (1, [3, 2])]
JAVA_NAMES = ("0x0000000000000001 com.example.A.run (A.java:3)\n"
              "0x0000000000000002 com.example.Main.main (Main.java:9)\n"
              "0x0000000000000003 generated stub/JIT\n")


def test_word_layouts():
    # Stacks leaf first; the callers are taken one back.  By hand: 0x401010
    # 3 samples of 10 ms under 0x403000 (one back: 0x402fff), 0x402010 one
    # under 0x405000; both under 0x404000.
    records = [(3, [0x401010, 0x403000, 0x404000]), (1, [0x402010, 0x405000, 0x404000])]
    want = {"0x401010": (30000, 30000), "0x402010": (10000, 10000),
            "0x402fff": (0, 30000), "0x404fff": (0, 10000), "0x403fff": (0, 40000)}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (4, 8):
            for endian in "<>":
                path = os.path.join(tmp, f"busy-{size}{endian}.prof")
                with open(path, "wb") as f:
                    f.write(cpu_profile(records, size=size, endian=endian, maps=MAPS))
                report = expect_addresses(f"gperftools {size * 8}-bit {endian}", path, "cpu",
                                          want, "busy")
                if report and report["rows"][0]["url"] != "/usr/bin/busy":
                    C.fail(f"gperftools: mapping file {report['rows'][0]['url']!r}")
        # The signal handler's frame (0x409000, second in 40 of 41 samples:
        # all but 41/32) goes from those samples, and a leaf repeated (one
        # back after the adjustment) goes too, as pprof does.
        records = [(1, [0x401010, 0x409000, 0x403000])] * 20 + \
            [(1, [0x401010, 0x409000, 0x405000])] * 20 + \
            [(2, [0x402010, 0x402010, 0x409000, 0x403000])]
        path = os.path.join(tmp, "handler.prof")
        with open(path, "wb") as f:
            f.write(cpu_profile(records, maps=MAPS))
        expect_addresses("gperftools handler frame", path, "samples",
               {"0x401010": (40, 40), "0x402010": (2, 2), "0x402fff": (0, 22),
                "0x404fff": (0, 20), "0x408fff": (0, 2)}, "busy")


# ---- go tool pprof now ------------------------------------------------------------------------

def go_env(tmp):
    return dict(os.environ, PPROF_TMPDIR=tmp, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"))


def go_top(go, tmp, path, sample_type, addressed, extra=()):
    args = [go, "tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0",
            "-edgefraction=0", "-sample_index=" + sample_type, *extra]
    if addressed:
        args.append("-addresses")
    p = subprocess.run(args + [path], capture_output=True, text=True, env=go_env(tmp))
    if p.returncode != 0:
        C.fail(f"go tool pprof {path}: {p.stderr.strip()}")
    return p.stdout


def test_go(tmp):
    go = shutil.which("go")
    if not go:
        print("go is not installed: skipped")
        sys.exit(77)
    for name, types, addressed in GO_FILES:
        path = os.path.join(LEGACY, name)
        for t in types:
            report = flat_report(path, t, ADDRESSES if addressed else ())
            if report:
                C.compare_with_top(f"go: {name} ({t})", report,
                                   go_top(go, tmp, path, t, addressed))
            report = flat_report(path, t)
            if report and addressed:
                C.compare_with_top(f"go: {name} ({t}) by function", report,
                                   go_top(go, tmp, path, t, False))
    # The hand-made CPU profiles of test_hand, in every word layout, and
    # the handler-frame heuristics: go agrees with the numbers by hand.
    records = [(1, [0x401010, 0x409000, 0x403000])] * 20 + \
        [(1, [0x401010, 0x409000, 0x405000])] * 20 + \
        [(2, [0x402010, 0x402010, 0x409000, 0x403000])]
    path = os.path.join(tmp, "java.prof")
    with open(path, "wb") as f:
        f.write(cpu_profile(JAVA_RECORDS, maps=JAVA_NAMES, java=True))
    report = flat_report(path, "cpu")
    if report:
        C.compare_with_top("go: java cpu", report, go_top(go, tmp, path, "cpu", False))
    for size in (4, 8):
        for endian in "<>":
            path = os.path.join(tmp, f"handler-{size}{endian}.prof")
            with open(path, "wb") as f:
                f.write(cpu_profile(records, size=size, endian=endian, maps=MAPS))
            for t in ("samples", "cpu"):
                report = flat_report(path, t, ADDRESSES)
                if report:
                    C.compare_with_top(f"go: handler-{size}{endian} ({t})", report,
                                       go_top(go, tmp, path, t, True))


# ---- programs built and profiled now ----------------------------------------------------------

BUSY_C = r"""
#include <stdlib.h>
volatile unsigned long sink;
__attribute__((noinline)) void spin_a(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
__attribute__((noinline)) void spin_b(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink ^= i + (sink << 1); }
__attribute__((noinline)) void work(int rounds) { for (int r = 0; r < rounds; r++) { spin_a(3000000); spin_b(1000000); } }
int main(int argc, char **argv) { work(argc > 1 ? atoi(argv[1]) : 60); return 0; }
"""


def libprofiler():
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"):
        for n in ("libprofiler.so.0", "libprofiler.so"):
            if os.path.exists(os.path.join(d, n)):
                return os.path.join(d, n)
    return None


def test_exe(tmp):
    gcc, nm = shutil.which("gcc"), shutil.which("nm")
    if not gcc or not nm:
        print("gcc or nm is not installed: skipped")
        sys.exit(77)
    src = os.path.join(tmp, "busy.c")
    with open(src, "w") as f:
        f.write(BUSY_C)
    # A legacy heap profile of a non-PIE program, addresses inside its
    # functions: --exe names them (the memory map says which file).
    exe = os.path.join(tmp, "busy-nopie")
    subprocess.run([gcc, "-O1", "-g", "-no-pie", "-fno-pie", "-o", exe, src], check=True)
    syms = {}
    for line in subprocess.run([nm, exe], capture_output=True, text=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "Tt":
            syms[parts[2]] = int(parts[0], 16)
    heap = os.path.join(tmp, "busy.heap")
    with open(heap, "w") as f:
        f.write("heap profile: 2: 3072 [2: 3072] @ heapprofile\n")
        f.write(f"1: 1024 [1: 1024] @ 0x{syms['spin_a'] + 5:x} 0x{syms['work'] + 9:x} 0x{syms['main'] + 9:x}\n")
        f.write(f"1: 2048 [1: 2048] @ 0x{syms['spin_b'] + 5:x} 0x{syms['work'] + 20:x} 0x{syms['main'] + 9:x}\n")
        f.write(f"\nMAPPED_LIBRARIES:\n00400000-00500000 r-xp 00000000 08:01 42 {exe}\n")
    expect("heap --exe", heap, "space",
           {"spin_a": (1024, 1024), "spin_b": (2048, 2048), "work": (0, 3072),
            "main": (0, 3072)}, ["--exe", exe])
    test_gperftools_program(tmp, gcc, src)


def test_gperftools_program(tmp, gcc, src):
    lib = libprofiler()
    if not lib:
        print("gperftools' libprofiler is not installed: the real CPU profile is skipped")
        return
    exe = os.path.join(tmp, "busy-pie")  # Debian's gcc makes PIE by default
    subprocess.run([gcc, "-O1", "-g", "-fpie", "-pie", "-o", exe, src], check=True)
    prof = os.path.join(tmp, "busy.prof")
    env = dict(os.environ, CPUPROFILE=prof, CPUPROFILE_FREQUENCY="1000", LD_PRELOAD=lib)
    subprocess.run([exe, "200"], env=env, check=True, capture_output=True)
    report = flat_report(prof, "samples", ["--exe", exe])
    if not report:
        return
    got = rows_of(report)
    samples = sum(r["self"] for r in report["rows"])
    # spin_a runs three times as many iterations of a cheaper loop than
    # spin_b: both must be there, named, and together nearly all samples.
    a, b = got.get("spin_a", (0, 0))[0], got.get("spin_b", (0, 0))[0]
    if samples < 20 or a == 0 or b == 0 or a + b < 0.8 * samples:
        C.fail(f"gperftools program: spin_a {a}, spin_b {b} of {samples} samples: {sorted(got.items())[:10]}")
    if got.get("work", (0, 0))[1] < a + b or got.get("main", (0, 0))[1] < a + b:
        C.fail(f"gperftools program: work/main totals {got.get('work')}, {got.get('main')} below {a + b}")
    go = shutil.which("go")
    if go:
        # go tool pprof symbolizes from the binary named in the profile's
        # memory map: the program's own functions must agree.
        top, _ = parse_top(go_top(go, tmp, prof, "samples", False))
        for name in ("spin_a", "spin_b", "work", "main"):
            if name in top and name in got:
                flat, _, cum, _ = top[name]
                if (flat, cum) != got[name]:
                    C.fail(f"gperftools program vs go: {name}: {got[name]} != {(flat, cum)}")
            elif name in ("spin_a", "spin_b"):
                C.fail(f"gperftools program vs go: {name} missing ({name in top}, {name in got})")


# ---- Go's own legacy text profiles, written now -----------------------------------------

GO_PROFILES = {"heap": HEAP_TYPES, "mutex": ["contentions", "delay"],
               "block": ["contentions", "delay"], "goroutine": ["goroutine"]}


def comment_functions(path):
    """Go writes '#\t0xPC\tfunction+0xOFF\tfile:line' under each sample:
    the truth for what names each (already adjusted) pc."""
    names = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3 and parts[0] == "#" and parts[1].startswith("0x"):
                names[int(parts[1], 16)] = parts[2].rsplit("+", 1)[0]
    return names


def test_heapdemo(go, tmp, env):
    """go-heapdemo.heap, cut from Go 1.19.8's /debug/pprof/heap?debug=1 of
    legacy/heapdemo.go: with the program rebuilt, --exe gives go tool
    pprof's rows (committed, and run now), allocator frames dropped and
    runtime.goexit named as Go's tables name it."""
    prog = os.path.join(tmp, "heapdemo")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "legacy", "heapdemo.go")
    subprocess.run([go, "build", "-o", prog, src], check=True, env=env, cwd=tmp)
    nm = subprocess.run([go, "tool", "nm", prog], capture_output=True, text=True, env=env)
    if " 6a2aa0 T main.allocBig" not in "\n" + nm.stdout:
        print("another Go than 1.19.8 built heapdemo (other addresses): skipped")
        return
    heap = os.path.join(LEGACY, "go-heapdemo.heap")
    for t in HEAP_TYPES:
        report = flat_report(heap, t, ["--exe", prog])
        if not report:
            continue
        with open(os.path.join(TESTDATA, "expected", f"legacy-go-heapdemo.heap.{t}.top.txt")) as f:
            C.compare_with_top(f"heapdemo --exe ({t})", report, f.read())
        C.compare_with_top(f"heapdemo --exe ({t}), go now", report,
                           go_top(go, tmp, heap, t, False, [prog]))


def test_goprog(tmp):
    go = shutil.which("go")
    if not go:
        print("go is not installed: skipped")
        sys.exit(77)
    prog = os.path.join(tmp, "profiles")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "legacy", "profiles.go")
    env = dict(os.environ)
    env.setdefault("GOCACHE", os.path.join(tmp, "gocache"))
    subprocess.run([go, "build", "-o", prog, src], check=True, env=env, cwd=tmp)
    out = os.path.join(tmp, "out")
    os.mkdir(out)
    subprocess.run([prog, out], check=True)
    test_heapdemo(go, tmp, env)
    for name, types in GO_PROFILES.items():
        path = os.path.join(out, name + ".txt")
        for t in types:
            report = flat_report(path, t, ADDRESSES)
            if report:
                C.compare_with_top(f"go {name} ({t})", report, go_top(go, tmp, path, t, True))
            report = flat_report(path, t)
            if report:
                C.compare_with_top(f"go {name} ({t}) by function", report,
                                   go_top(go, tmp, path, t, False))
    # --exe: the program's ELF symbols name the addresses.  go tool pprof,
    # given the program, names them from its own tables (which also know
    # inlined calls and other spellings, like runtime.goexit for the
    # symbol runtime.goexit.abi0): main.allocate and main.main agree.
    heap = os.path.join(out, "heap.txt")
    for t in HEAP_TYPES:
        report = flat_report(heap, t, ["--exe", prog])
        if not report:
            continue
        ours = rows_of(report)
        top, _ = parse_top(go_top(go, tmp, heap, t, False, [prog]))
        for fn in ("main.allocate", "main.main"):
            if fn not in top or fn not in ours:
                C.fail(f"go heap --exe ({t}): {fn} missing (go: {fn in top}, ours: {fn in ours})")
                continue
            flat, flat_tol, cum, cum_tol = top[fn]
            if abs(ours[fn][0] - flat) > flat_tol or abs(ours[fn][1] - cum) > cum_tol:
                C.fail(f"go heap --exe ({t}): {fn}: {ours[fn]} != go's {(flat, cum)}")
    # Every pc Go's comments put in a main.* function gets that name.
    truth = {pc: fn for name in GO_PROFILES
             for pc, fn in comment_functions(os.path.join(out, name + ".txt")).items()
             if fn.startswith("main.")}
    if len(truth) < 3:
        C.fail(f"go comments name only {len(truth)} main.* pcs")
    for pc, fn in truth.items():
        one = os.path.join(tmp, f"pc-{pc:x}.txt")
        with open(one, "w") as f:
            f.write(f"goroutine profile: total 1\n1 @ 0x{pc + 1:x}\n")
        report = flat_report(one, None, ["--exe", prog])
        if report and [r["name"] for r in report["rows"]] != [fn]:
            C.fail(f"0x{pc:x}: {[r['name'] for r in report['rows']]}, Go says {fn}")


# ---- round trips --------------------------------------------------------------------------------

def test_roundtrip(tmp):
    cases = [(name, types) for name, types, _ in GO_FILES] + [("symbols.heap", ["inuse_space"])]
    for name, types in cases:
        src = os.path.join(LEGACY, name)
        # pprof keeps every type; .cpuprofile and folded the chosen one.
        back = os.path.join(tmp, name + ".pb.gz")
        if C.run(["--export", "pprof", "-o", back, src]).returncode == 0:
            for t in types:
                C.same_rows(f"{name} ({t}) -> pprof", flat_report(src, t), flat_report(back, t))
        t = types[-1]
        C.roundtrip(f"{name} ({t})", src, flat_report(src, t), tmp,
                    ["--sample-type", t], ["--sample-type", t])


# ---- bad input -------------------------------------------------------------------------------------

def test_bad(tmp):
    with open(os.path.join(LEGACY, "cppbench.cpu"), "rb") as f:
        cpu = f.read()
    cases = {
        # 40 header bytes, then record 2's stack claims more than is left.
        "cut.cpu": (cpu[:100], "gperftools CPU profile, byte 40: a stack of 11 addresses runs past"),
        "huge-depth.cpu": (cpu_profile([(1, [1])])[:40] + struct.pack("<QQ", 1, 1 << 60),
                           "gperftools CPU profile, byte 40: a stack of"),
        "odd-tail.cpu": (cpu_profile([(1, [0x401000])])[:-24] + b"\x01\x02\x03",
                         "gperftools CPU profile, byte 64: record cut short"),
        "bad-heap-line.heap": (b"heap profile: 1: 2 [3: 4] @ heap/1024\n1: 2 [3: 4] @ 0x1\nrubbish\n",
                               "legacy heap profile, byte 56: expected 'N: N [N: N] @ 0x...'"),
        "zero-count.heap": (b"heap profile: 1: 2 [3: 4] @ heap_v2/1024\n0: 16 [0: 0] @ 0x10\n",
                            "legacy heap profile, byte 41: inuse count is 0 but inuse bytes is 16"),
        "kind.heap": (b"heap profile: 1: 2 [3: 4] @ heapy\n", "unknown heap profile kind 'heapy'"),
        "overflow.heap": (b"heap profile: 1: 2 [3: 4] @ heap\n1: 99999999999999999999 [3: 4] @ 0x1\n",
                          "legacy heap profile, byte 33: expected"),
        "attribute.txt": (b"--- contention ---\nflavour = 3\n", "legacy contention profile, byte 19: unknown attribute 'flavour'"),
        "contention-line.txt": (b"--- contention ---\ncycles/second = 10\n12 @ 0x1\n",
                                "legacy contention profile, byte 38: expected 'N N @ 0x...'"),
        "java-format.txt": (b"--- heapz 1 ---\nformat = cpp\n", "Java heapz profile, byte 16: format 'cpp'"),
        "java-zero.txt": (b"--- heapz 1 ---\nformat = java\nresolution = bytes\n 16 0 @ 0x1\n",
                          "Java heapz profile, byte 50: a heap sample's count must not be 0"),
        "symbols.txt": (b"--- symbol\n0xzz main\n---\n--- heap\n", "legacy pprof profile, byte 11: expected '0xADDRESS name'"),
        "symbols-only.txt": (b"--- symbol\n0x10 main\n---\n", "expected '--- KIND' after the symbol section"),
        "count.txt": (b"goroutine profile: total 1\n1 @ 0x1\nzz\n", "legacy count profile, byte 35: expected 'N @ 0x...'"),
        # go tool pprof refuses both too ("unrecognized profile format").
        "open.thread": (b"--- threadz 1 ---\n--- Thread 1 (name: a/1) stack: ---\n 0x1\n",
                        "legacy threadz profile, byte 59: no memory map"),
        "bad.thread": (b"--- Thread 1 (name: a/1) stack: ---\n 0x1\n--- Thread\n",
                       "legacy threadz profile, byte 41: expected '--- Thread ID"),
    }
    C.bad_inputs(tmp, cases)
    p = C.run(["--report", "flat", "--exe", "/nonexistent/prog", os.path.join(LEGACY, "cppbench.cpu")], check=False)
    if p.returncode != 2 or "/nonexistent/prog" not in p.stderr:
        C.fail(f"missing --exe: exit {p.returncode}, {p.stderr.strip()!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if WHAT == "top":
            test_top()
        elif WHAT == "hand":
            test_hand()
        elif WHAT == "go":
            test_go(tmp)
        elif WHAT == "exe":
            test_exe(tmp)
        elif WHAT == "goprog":
            test_goprog(tmp)
        elif WHAT == "roundtrip":
            test_roundtrip(tmp)
        elif WHAT == "bad":
            test_bad(tmp)
        else:
            sys.exit("unknown test " + WHAT)
    C.finish()


main()
