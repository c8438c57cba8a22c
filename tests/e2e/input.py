#!/usr/bin/env python3
"""Where the bytes come from: `-` is standard input and any input may be
gzip-compressed, for every format, with the same report as the plain file;
gzip errors name the place (compressed offsets for gzip's own errors,
uncompressed ones for the format's), and gzip data may not inflate past
its limit (--max-size lifts it), from a file or a pipe."""
import gzip
import json
import os
import random
import tempfile
import zlib

from e2e import check, finish, wprof, data


def run(args, stdin=None):
    return wprof(*args, text=False, input=stdin, timeout=300)


def report(args, path, stdin=None):
    """The flat JSON report without its file name, and the run."""
    r = run(["--report", "flat", "--format", "json", *args, path], stdin)
    try:
        out = json.loads(r.stdout)
        out.pop("file")
    except (ValueError, KeyError):
        out = None
    return out, r


# Every format: plain file, gzip file, plain on stdin, gzip on stdin.
FORMATS = [
    ("validate.cpuprofile", []),
    ("validate.xsbug", []),
    ("validate.pprof", []),  # stored gzipped: also given raw below
    ("arcs/thesis-main.arcs", []),
    ("gprof/gmon.out", ["--exe", data("gprof/validate")]),
]
with tempfile.TemporaryDirectory() as tmp:
    for name, extra in FORMATS:
        raw = open(data(name), "rb").read()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        plain = os.path.join(tmp, os.path.basename(name) + ".plain")
        packed = os.path.join(tmp, os.path.basename(name) + ".plain")  # no .gz: sniffed, not named
        open(plain, "wb").write(raw)
        want, r = report(extra, plain)
        check(want is not None and want["rows"], "%s plain loads: %s" % (name, r.stderr))
        packed = os.path.join(tmp, "packed-" + os.path.basename(name))
        open(packed, "wb").write(gzip.compress(raw))
        for how, path, stdin in (("gzip file", packed, None),
                                 ("stdin", "-", raw),
                                 ("gzip stdin", "-", gzip.compress(raw))):
            got, r = report(extra, path, stdin)
            check(got == want, "%s %s: the same report as the plain file (%s)"
                  % (name, how, r.stderr.decode()))
        # The text header names standard input as `-`.
        r = run(["--report", "flat", *extra, "-"], raw)
        check(r.returncode == 0 and b"file: -" in r.stdout, "%s: text from stdin" % name)

    # Two gzip members back to back are one stream (as gzip -d and Go read it).
    raw = open(data("validate.cpuprofile"), "rb").read()
    two = os.path.join(tmp, "two-members")
    half = len(raw) // 2
    open(two, "wb").write(gzip.compress(raw[:half]) + gzip.compress(raw[half:]))
    got, r = report([], two)
    want, _ = report([], data("validate.cpuprofile"))
    check(got == want, "two gzip members read as one: %s" % r.stderr)

    def bad(path, words, args=(), stdin=None):
        r = run(["--report", "flat", *args, path], stdin)
        err = r.stderr.decode("utf-8", "replace")
        check(r.returncode == 2 and not r.stdout and err.count("\n") == 1 and
              err.startswith("wprof-tui: %s: " % path) and all(w in err for w in words),
              "%s: exit 2 with %s (got %d: %s)" % (path, words, r.returncode, err.strip()))

    # A JSON error inside gzip data: its offset counts the uncompressed bytes.
    broken = raw[:5000] + b"@#!" + raw[5000:]
    path = os.path.join(tmp, "broken-json")
    open(path, "wb").write(gzip.compress(broken))
    bad(path, ["cpuprofile, byte 5000 of the uncompressed data: "])
    bad("-", ["cpuprofile, byte 5000 of the uncompressed data: "], stdin=gzip.compress(broken))
    bad("-", ["cpuprofile, byte 5000: "], stdin=broken)
    r = run(["--report", "flat", "-"], broken)
    check(b"uncompressed" not in r.stderr, "plain stdin does not speak of compression")

    # gzip's own errors: truncated, corrupt (offsets into the compressed data).
    packed = gzip.compress(raw)
    path = os.path.join(tmp, "truncated")
    open(path, "wb").write(packed[:2000])
    bad(path, ["truncated", "2000 compressed bytes"])
    corrupt = bytearray(packed)
    corrupt[500] ^= 0xff
    path = os.path.join(tmp, "corrupt")
    open(path, "wb").write(corrupt)
    bad(path, ["corrupt gzip data at byte", "of the compressed data"])
    path = os.path.join(tmp, "trailing")
    open(path, "wb").write(packed + b"garbage")
    # zlib reads the next header's magic before it gives up: a byte or two on.
    r = run(["--report", "flat", path])
    where = r.stderr.split(b"corrupt gzip data at byte ")[-1].split(b" ")[0]
    check(r.returncode == 2 and where.isdigit() and
          len(packed) <= int(where) <= len(packed) + 2 and b"of the compressed data" in r.stderr,
          "trailing garbage: where the member ends: %s" % r.stderr)
    path = os.path.join(tmp, "empty-gzip")
    open(path, "wb").write(gzip.compress(b""))
    bad(path, ["inflates to nothing"])

    # The bomb kept in testdata: a pprof string table entry of 70 MiB in
    # 70 KB; the default limit stops it at 64 MiB, from a file or a pipe.
    bomb = data("fuzz-regressions/gzip-bomb-pprof-string.pb.gz")
    bad(bomb, ["inflates to more than 64 MiB", "--max-size SIZE"])
    bad("-", ["inflates to more than 64 MiB", "read so far", "--max-size SIZE"],
        stdin=open(bomb, "rb").read())
    # --max-size lifts it: the file then gets as far as the pprof loader.
    r = run(["--report", "flat", "--max-size=80M", bomb])
    check(r.returncode == 2 and b"inflates" not in r.stderr and b"sample types" in r.stderr,
          "--max-size 80M lets the bomb through to the loader: %s" % r.stderr)

    # The ratio: 1.4 MB of random hex digits (about 0.7 MB compressed) then
    # 100 MiB of one letter (about 0.1 MB) in a valid JSON string: over 100
    # times its compressed size and over the 64 MiB floor, so refused at
    # about 100 times its size.
    rng = random.Random(17)
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [z.compress(b'{"nodes":[{"id":1,"callFrame":{"functionName":"'),
             z.compress("".join(rng.choice("0123456789abcdef") for _ in range(1400000)).encode())]
    chunk = b"a" * (1 << 20)
    for _ in range(100):
        parts.append(z.compress(chunk))
    parts.append(z.compress(b'","url":"","lineNumber":0,"columnNumber":0}}],'
                            b'"startTime":0,"endTime":1,"samples":[1],"timeDeltas":[1]}'))
    parts.append(z.flush())
    ratio_bomb = b"".join(parts)
    path = os.path.join(tmp, "ratio-bomb")
    open(path, "wb").write(ratio_bomb)
    limit_mib = len(ratio_bomb) * 100 / (1 << 20)
    check(64 < limit_mib < 100, "the ratio bomb's limit lies between floor and size (%.1f)" % limit_mib)
    bad(path, ["inflates to more than %.1f MiB" % limit_mib, "100 times"])

    # --max-size below a profile's size refuses it; the sizes it takes.
    bad(data("validate.pprof"), ["more than 1 KiB (--max-size)"], ["--max-size", "1K"])
    for size in ("1M", "1MiB", "1mb", "1048576"):
        got, r = report(["--max-size", size], data("validate.pprof"))
        check(got is not None, "--max-size %s takes validate.pprof: %s" % (size, r.stderr))
    for size in ("0", "-1", "1X", "M", "99999999999999999999"):
        r = run(["--report", "flat", "--max-size", size, data("validate.pprof")])
        check(r.returncode == 2 and b"--max-size takes a size" in r.stderr,
              "--max-size %s is a usage error: %s" % (size, r.stderr))

# Standard input once only.
r = run(["-", "-"])
check(r.returncode == 2 and b"only one" in r.stderr, "- - is refused: %s" % r.stderr)

finish()
