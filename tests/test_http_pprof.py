#!/usr/bin/env python3
"""Profiles named by URL (src/input/fetch.c), end to end through the binary.

    test_http_pprof.py WPROF TESTDATA go       a Go service with net/http/pprof
                                               built now: its heap and CPU
                                               profiles by URL equal go tool
                                               pprof -top of the same bytes
                                               (77: no go)
    test_http_pprof.py WPROF TESTDATA hostile  servers that answer wrong: exit
                                               2 with a clear message, bounded
                                               memory, no hang

The bytes are fetched once by this script and served again by a loopback
server, so that wprof-tui and go tool pprof read the same profile."""
import gzip
import http.server
import json
import os
import pty
import resource
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zlib

from profile_checks import Checks

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
C = Checks(WPROF)
HERE = os.path.dirname(os.path.abspath(__file__))
BOMB_BYTES = 1536 << 20  # inflates far past the input layer's limit


def gzip_bomb():
    """A pprof string table whose second string is 1.5 GiB of 'a': it
    looks like a profile, so only the inflation limit stops it."""
    size = BOMB_BYTES
    varint = b""
    while True:
        varint += bytes([(size & 0x7f) | (0x80 if size >> 7 else 0)])
        size >>= 7
        if not size:
            break
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    fill = b"a" * (1 << 20)
    parts = [z.compress(b"\x32\x00\x32" + varint)]
    parts += [z.compress(fill) for _ in range(BOMB_BYTES >> 20)]
    return b"".join(parts) + z.flush()


class Handler(http.server.BaseHTTPRequestHandler):
    files = {}
    bomb = b""
    sequence = []   # /seq/profile serves these one after the other
    requested = []  # the paths /seq/profile was asked for

    def log_message(self, *args):
        pass

    def send(self, status, body, ctype="application/octet-stream", length=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]  # --live adds seconds=N
        if path.startswith("/seq/profile"):
            self.requested.append(self.path)
            self.send(200, self.sequence[min(len(self.requested), len(self.sequence)) - 1])
        elif path == "/dies":
            # A service that answers two windows, then dies: an empty reply.
            self.requested.append(self.path)
            if len(self.requested) > 2:
                self.close_connection = True
                return
            self.send(200, self.files["heap"])
        elif path == "/slow/profile":
            time.sleep(2.5)  # a profile being taken
            self.send(200, self.files["heap"])
        elif path.startswith("/file/"):
            self.send(200, self.files[path[6:]])
        elif path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/file/heap")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/redirect-file":
            self.send_response(302)
            self.send_header("Location", "file:///etc/passwd")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/html":
            self.send(200, b"<!DOCTYPE html><html><body>pprof</body></html>", "text/html")
        elif path == "/missing":
            self.send(404, b"404 page not found\n", "text/plain")
        elif path == "/error":
            self.send(500, b"Could not enable CPU profiling: already in use\n", "text/plain")
        elif path == "/truncated":
            body = self.files["heap"]
            self.send(200, body[: len(body) // 2], length=len(body))
        elif path == "/truncated-gzip":
            body = self.files["heap"]
            self.send(200, body[: len(body) // 2])
        elif path == "/bomb":
            self.send(200, self.bomb)
        elif path == "/hang":
            time.sleep(20)
        elif path == "/empty":
            self.send(200, b"")
        else:
            self.send(404, b"no such test path\n", "text/plain")


def serve():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def go_top(go, tmp, path, sample_type, *more):
    env = dict(os.environ, PPROF_TMPDIR=tmp, HOME=tmp, GOCACHE=os.path.join(tmp, "gocache"))
    args = [go, "tool", "pprof", "-top", "-nodecount=100000", "-nodefraction=0",
            "-edgefraction=0", "-sample_index=" + sample_type, path, *more]
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        C.fail(f"go tool pprof {path}: {p.stderr.strip()}")
    return p.stdout


def start_service(go, tmp):
    env = dict(os.environ, GOFLAGS="-mod=mod", GOPROXY="off",
               GOCACHE=os.path.join(tmp, "gocache"), HOME=tmp)
    prog = os.path.join(tmp, "pprofserver")
    subprocess.run([go, "build", "-o", prog, os.path.join(HERE, "http", "pprofserver.go")],
                   check=True, env=env, cwd=tmp)
    service = subprocess.Popen([prog], stdout=subprocess.PIPE, text=True)
    port = int(service.stdout.readline())
    return service, f"http://127.0.0.1:{port}"


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.read()


def test_go(tmp):
    go = shutil.which("go")
    if not go:
        print("go is not installed: skipped")
        sys.exit(77)
    service, base = start_service(go, tmp)
    try:
        time.sleep(1)  # some work and a GC, so that the heap has rows
        profiles = {"heap": (base + "/debug/pprof/heap", ["inuse_space", "alloc_space"]),
                    "cpu": (base + "/debug/pprof/profile?seconds=2", ["cpu"])}
        for name, (url, _) in profiles.items():
            Handler.files[name] = fetch(url)
        server, replay = serve()
        for name, (_, types) in profiles.items():
            path = os.path.join(tmp, name + ".pb.gz")
            with open(path, "wb") as f:
                f.write(Handler.files[name])
            for t in types:
                report = C.report(replay + "/file/" + name, sample_type=t)
                if report is None:
                    C.fail(f"{name} ({t}): no report")
                    continue
                C.compare_with_top(f"{name} ({t})", report, go_top(go, tmp, path, t))
        check_live_service(base)
        check_as_pprof_typed(base)
        check_live_windows(go, tmp, base, replay)
        server.shutdown()
    finally:
        service.kill()
        service.wait()


def check_live_service(base):
    """Straight from the service: the CPU profile has the program's work,
    burnA about twice burnB (they spin 20 and 10 million rounds)."""
    report = C.report(base + "/debug/pprof/profile?seconds=2")
    rows = {r["name"]: r for r in (report or {"rows": []})["rows"]}
    a, b = rows.get("main.burnA"), rows.get("main.burnB")
    if not a or not b:
        C.fail(f"live CPU profile without main.burnA/main.burnB: {sorted(rows)[:10]}")
    elif not 1.2 < a["total"] / max(b["total"], 1) < 3.5:
        C.fail(f"burnA/burnB = {a['total']}/{b['total']}, want about 2")


def check_as_pprof_typed(base):
    """The service named as go tool pprof takes it: -seconds 2 (pprof's
    flag), --seconds 2 on a bare profile URL and on HOST:PORT each give a
    2 s CPU profile with the program's work; a bare profile URL without
    seconds is Go's 30 s profile, which the fetch waits for."""
    hostport = base[len("http://"):]
    for args in (["-seconds", "2", base + "/debug/pprof/profile"],
                 ["--seconds", "2", base + "/debug/pprof/profile"],
                 ["--seconds", "2", base],
                 ["-seconds", "2", hostport]):
        before = time.monotonic()
        p = C.run(["--report", "flat", "--format", "json", *args], check=False)
        took = time.monotonic() - before
        if p.returncode != 0:
            C.fail(f"{args}: exit {p.returncode}: {p.stderr.strip()}")
            continue
        names = {r["name"] for r in json.loads(p.stdout)["rows"]}
        if "main.burnA" not in names or not 1.5 < took < 10:
            C.fail(f"{args}: {took:.1f} s, rows {sorted(names)[:5]}")
    before = time.monotonic()
    p = C.run(["--report", "flat", "--format", "json", base + "/debug/pprof/profile"],
              check=False)
    took = time.monotonic() - before
    if p.returncode != 0 or not 29 < took < 45:
        C.fail(f"bare profile URL: exit {p.returncode} after {took:.1f} s: {p.stderr.strip()}")


def check_live_windows(go, tmp, base, replay):
    """--live: three windows fetched by this script, served again in
    turn, fold into one session equal to go tool pprof's merge of the
    three files; each request asks for seconds=1 (--window 1)."""
    paths = []
    for i in range(3):
        Handler.sequence.append(fetch(base + "/debug/pprof/profile?seconds=1"))
        paths.append(os.path.join(tmp, f"window{i}.pb.gz"))
        with open(paths[-1], "wb") as f:
            f.write(Handler.sequence[-1])
    p = C.run(["--live", replay + "/seq/profile?debug=0&seconds=30", "--window", "1",
               "--windows", "3", "--report", "flat", "--rule", "exact", "--format", "json"])
    if p.returncode != 0:
        C.fail(f"--live: exit {p.returncode}: {p.stderr.strip()}")
        return
    if Handler.requested != ["/seq/profile?debug=0&seconds=1"] * 3:
        C.fail(f"--live asked for {Handler.requested}")
    if p.stderr.count("window ") != 3:
        C.fail(f"--live: {p.stderr!r}, want three windows told")
    report = json.loads(p.stdout)
    C.compare_with_top("--live (3 windows)", report, go_top(go, tmp, paths[0], "cpu", *paths[1:]))
    p = C.run(["--live", base + "/debug/pprof/profile", "--window", "1", "--windows", "2",
               "--report", "flat", "--format", "json"])
    if p.returncode != 0 or json.loads(p.stdout)["duration"] < 2e6 * 0.9:
        C.fail(f"--live on the service: exit {p.returncode}, {p.stderr.strip()}")


def expect_failure(url, message, extra=(), seconds=30, live=False):
    before = time.monotonic()
    args = ["--live", url, "--windows", "2"] if live else [url]
    p = subprocess.run([WPROF, "--report", "flat", *args, *extra], capture_output=True,
                       text=True, timeout=seconds)
    took = time.monotonic() - before
    if p.returncode != 2:
        C.fail(f"{url}: exit {p.returncode}, want 2 ({p.stderr.strip()})")
    elif not p.stderr.startswith(f"wprof-tui: {url}: ") or message not in p.stderr:
        C.fail(f"{url}: message {p.stderr.strip()!r}, want {message!r}")
    return took


def test_hostile(tmp):
    heap = os.path.join(TESTDATA, "heap.pprof")
    with open(heap, "rb") as f:
        raw = f.read()
    Handler.files["heap"] = raw if raw[:2] == b"\x1f\x8b" else gzip.compress(raw)
    Handler.bomb = gzip_bomb()
    server, base = serve()
    if C.report(base + "/redirect") is None:
        C.fail("a redirect to a profile is not followed")
    expect_failure(base + "/html", "the server sent an HTML page, not a profile")
    expect_failure(base + "/missing", "HTTP status 404: 404 page not found")
    expect_failure(base + "/error", "HTTP status 500: Could not enable CPU profiling")
    expect_failure(base + "/truncated", "the body is truncated")
    expect_failure(base + "/truncated-gzip", "the gzip data is truncated")
    expect_failure(base + "/empty", "empty body")
    expect_failure(base + "/redirect-file", "Protocol \"file\" not supported")
    took = expect_failure(base + "/hang", "no whole answer within 2 s",
                          ("--fetch-timeout", "2"))
    if took > 10:
        C.fail(f"the hanging server held wprof-tui {took:.1f} s with a 2 s timeout")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
    # default) that would count here; the bound is wprof-tui's, not ASan's.
    os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=16"
    # The input layer's limit, as for a file: 100 times the ~1.5 MiB body.
    expect_failure(base + "/bomb", "inflates to more than 14", seconds=200)
    expect_failure(base + "/bomb", "(the limit is 100 times its 1", seconds=200)
    expect_failure(base + "/bomb", "inflates to more than 10 MiB (--max-size)",
                   ("--max-size", "10M"), seconds=200)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if max(peak, before) > (400 << 10):  # KiB: the limit plus some
        C.fail(f"the gzip bomb took {peak >> 10} MiB")
    expect_failure("ftp://127.0.0.1:1/x", "", ())  # not a URL we fetch: a file name
    expect_failure(base + "/missing", "HTTP status 404", live=True)
    expect_failure(base + "/html", "an HTML page", live=True)
    p = C.run(["--live", base + "/file/heap", "--report", "flat"], check=False)
    if p.returncode != 2 or "needs --windows N" not in p.stderr:
        C.fail(f"--live --report without --windows: exit {p.returncode}, {p.stderr!r}")
    check_dies(base)
    check_progress(base)
    server.shutdown()


def check_dies(base):
    """A service that dies after two windows: they are the report, with a
    warning and exit 0; the report is that of two windows from a service
    that lives."""
    two = C.run(["--live", base + "/file/heap", "--window", "1", "--windows", "2",
                 "--report", "flat", "--format", "json"])
    Handler.requested = []
    p = C.run(["--live", base + "/dies", "--window", "1", "--windows", "4", "--report",
               "flat", "--format", "json"], check=False)
    if p.returncode != 0:
        C.fail(f"--live on a service that dies: exit {p.returncode}, {p.stderr!r}")
        return
    if "Empty reply from server; the report has the 2 windows that arrived before" \
            not in p.stderr:
        C.fail(f"--live on a service that dies: no warning in {p.stderr!r}")
    got, want = json.loads(p.stdout), json.loads(two.stdout)
    if len(Handler.requested) != 3 or got["rows"] != want["rows"] or not got["rows"]:
        C.fail(f"--live on a service that dies: {len(Handler.requested)} asked, rows "
               f"{got['rows'][:3]}, want {want['rows'][:3]}")


def check_progress(base):
    """A fetch that waits for a profile says so on a terminal, each
    second, and clears its line at the end."""
    main_fd, tty = pty.openpty()
    p = subprocess.run([WPROF, "--report", "flat", base + "/slow/profile?seconds=3"],
                       stdout=subprocess.PIPE, stderr=tty, timeout=30)
    os.close(tty)
    said = b""
    while select.select([main_fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(main_fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        said += chunk
    os.close(main_fd)
    text = said.decode(errors="replace")
    want = ["\rwprof-tui: fetching 3 s profile… 1 s", "\rwprof-tui: fetching 3 s profile… 2 s",
            "\r\x1b[K"]
    if p.returncode != 0 or any(w not in text for w in want):
        C.fail(f"fetch progress: exit {p.returncode}, stderr {text!r}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if WHAT == "go":
            test_go(tmp)
        elif WHAT == "hostile":
            test_hostile(tmp)
        else:
            sys.exit("unknown test " + WHAT)
    C.finish()


main()
