#!/usr/bin/env python3
"""Live mode through the binary, on loopback sockets:
  replay   validate.xsbug sent to --listen in chunks of 1, 7 and 4096 bytes
           gives exactly the numbers of loading the file;
  fake     a fake engine logs in, waits for <go/>, streams generated samples
           for a few seconds and disconnects: hand-computed self times;
  hostile  garbage, a 100 MB element, one byte a second, a silent peer,
           50 connections, a disconnect mid-message, all beside a replayed
           engine whose profile must come out complete; memory stays small;
  logs     600 identical log lines said as one run with its count.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from loopback import base36, start_listener

WPROF, TESTDATA, WHAT = sys.argv[1], sys.argv[2], sys.argv[3]
CAPTURE = open(os.path.join(TESTDATA, "validate.xsbug"), "rb").read()
failures = 0


def fail(what):
    global failures
    failures += 1
    print("FAIL", what)




def finish(proc, timeout=60):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        fail("wprof-tui did not finish")
    return proc.returncode, out, err


def numbers(report):
    doc = json.loads(report)
    return doc["duration"], doc["samples"], [
        (r["name"], r["self"], r["total"]) for r in doc["rows"]]


def file_numbers(*args):
    out = subprocess.run([WPROF, "--report", "flat", "--format", "json", *args,
                          os.path.join(TESTDATA, "validate.xsbug")],
                         capture_output=True, check=True).stdout
    return numbers(out)


def send_capture(port, chunk, data=CAPTURE):
    """As an engine does: reads the commands it is sent (closing with them
    unread would reset the connection and lose the end of the stream)."""
    s = socket.create_connection(("127.0.0.1", port))
    try:
        for i in range(0, len(data), chunk):
            s.sendall(data[i:i + chunk])
        s.shutdown(socket.SHUT_WR)
    except (BrokenPipeError, ConnectionResetError):
        # --report leaves once the engine stops profiling: what follows the
        # stop in the capture may find nobody listening.
        s.close()
        return
    s.settimeout(30)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
    s.close()


def replay():
    for rule in ("exact", "additive", "divided"):
        want = file_numbers("--rule", rule)
        for chunk in (1, 7, 4096):
            if rule != "exact" and chunk != 4096:
                continue
            proc, port = start_listener(WPROF, "--rule", rule)
            send_capture(port, chunk)
            rc, out, err = finish(proc)
            if rc != 0 or numbers(out) != want:
                fail("replay rule %s chunk %d: status %d %r" % (rule, chunk, rc, err))


def fake_engine(port, seconds, got_go):
    """Logs in, waits for <go/>, then streams 2 kinds of samples:
    a>main>(host) lasting 1000 µs and b>main>(host) lasting 3000 µs."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b'\r\n<xsbug><login name="fake" value="fake engine"/></xsbug>\r\n')
    answer = b""
    while b"<go/>" not in answer:
        more = s.recv(100)
        if not more:
            return
        answer += more
    got_go.append(b"<start-profiling/>" in answer)
    s.sendall(b'\r\n<xsbug><pt name="start" value="@0000000000001000"/></xsbug>\r\n'
              b'\r\n<xsbug><pr name="(host)" value="0"/></xsbug>\r\n'
              b'\r\n<xsbug><pr name="main" value="2" path="m.js" line="1"/></xsbug>\r\n'
              b'\r\n<xsbug><pr name="a" value="3" path="m.js" line="2"/></xsbug>\r\n'
              b'\r\n<xsbug><pr name="b" value="4" path="m.js" line="3"/></xsbug>\r\n')
    # A sample lasts the delta it carries: a 1000 µs, b 3000 µs.
    end = time.time() + seconds
    sent = 0
    while time.time() < end:
        batch = []
        for _ in range(8):
            leaf = "3" if sent % 2 == 0 else "4"
            delta = 1000 if leaf == "3" else 3000
            batch.append("%s,%s,2,0" % (base36(delta), leaf))
            sent += 1
        s.sendall(b"\r\n<xsbug><ps>" + ".".join(batch).encode() + b"</ps></xsbug>\r\n")
        time.sleep(0.01)
    # Stopped 500 µs after the last sample: time that is no sample's.
    t = 0x1000 + (sent // 2) * 4000 + 500
    s.sendall(b'\r\n<xsbug><pt name="stop" value="@%016X"/></xsbug>\r\n' % t)
    s.close()
    got_go.append(sent)


def fake():
    proc, port = start_listener(WPROF)
    got = []
    fake_engine(port, 3, got)
    rc, out, err = finish(proc)
    if rc != 0 or len(got) != 2 or not got[0]:
        fail("fake engine: status %d, answered %r, %r" % (rc, got, err))
        return
    pairs = got[1] // 2
    duration, samples, rows = numbers(out)
    self_of = {name: s for name, s, _ in rows}
    total_of = {name: t for name, _, t in rows}
    want = {"a": pairs * 1000, "b": pairs * 3000, "main": 0, "(host)": 0}
    if samples != got[1] or any(self_of.get(k) != v for k, v in want.items()) \
            or total_of.get("main") != pairs * 4000 or duration != 500 + pairs * 4000:
        fail("fake engine: %d samples sent, got %r %r" % (got[1], samples, rows))


def peak_rss(pid, stop, result):
    peak = 0
    while not stop.is_set():
        try:
            for line in open("/proc/%d/status" % pid):
                if line.startswith("VmRSS:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            break
        time.sleep(0.02)
    result.append(peak)


def hostile():
    want = file_numbers()
    proc, port = start_listener(WPROF)
    stop = threading.Event()
    rss = []
    threading.Thread(target=peak_rss, args=(proc.pid, stop, rss), daemon=True).start()
    keep = []
    # A silent peer and 50 connections at once.
    for _ in range(51):
        keep.append(socket.create_connection(("127.0.0.1", port)))
    # Garbage, then a disconnect mid-message.
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(os.urandom(200000).replace(b"<", b"(") + b"<<<>>><xsbug><p")
    s.close()
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"\r\n<xsbug><ps>1,2,3,")
    s.close()

    def endless():
        e = socket.create_connection(("127.0.0.1", port))
        try:
            e.sendall(b"\r\n<xsbug><pr name=\"")
            block = b"a" * (1 << 20)
            for _ in range(100):
                e.sendall(block)
        except OSError:
            pass  # dropped by wprof-tui, as it should be
        e.close()

    def one_byte_a_second():
        e = socket.create_connection(("127.0.0.1", port))
        try:
            for b in b"\r\n<xsbug><ps>1,2,0</ps></xsbug>"[:4]:
                e.send(bytes([b]))
                time.sleep(1)
        except OSError:
            pass
        e.close()

    threads = [threading.Thread(target=endless), threading.Thread(target=one_byte_a_second)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    send_capture(port, 4096)
    rc, out, err = finish(proc)
    stop.set()
    for t in threads:
        t.join()
    for s in keep:
        s.close()
    if rc != 0 or numbers(out) != want:
        fail("hostile: status %d, %r" % (rc, err[-2000:]))
    if b"longer than the limit" not in err:
        fail("hostile: the endless element was not named: %r" % err[-2000:])
    print("hostile: peak RSS %s kB" % rss)
    if not rss or rss[0] > 64 * 1024:
        fail("hostile: peak RSS %r kB" % rss)


def connect():
    """--connect: a program that serves its stream, in chunks of 7 bytes."""
    want = file_numbers()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    proc = subprocess.Popen([WPROF, "--connect", "127.0.0.1:%d" % port, "--report",
                             "flat", "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    server.settimeout(30)
    conn, _ = server.accept()
    for i in range(0, len(CAPTURE), 7):
        conn.sendall(CAPTURE[i:i + 7])
    # As an engine does: it leaves (--report waits for that), reading the
    # commands it was sent (closing with them unread would reset the
    # connection and lose the end of the stream).
    conn.shutdown(socket.SHUT_WR)
    conn.settimeout(30)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass
    conn.close()
    rc, out, err = finish(proc)
    server.close()
    if rc != 0 or numbers(out) != want:
        fail("connect: status %d %r" % (rc, err))
    # Nobody there: exit 2 with a message.
    r = subprocess.run([WPROF, "--connect", "127.0.0.1:%d" % port, "--report", "flat"],
                       capture_output=True, timeout=30)
    if r.returncode != 2 or b"cannot connect" not in r.stderr:
        fail("connect to nobody: %d %r" % (r.returncode, r.stderr))


def arcs():
    """WasmProf arc lines live, in chunks of 3 bytes, beside an xsbug
    garbage peer: the numbers of loading the file, under the gprof rule."""
    path = os.path.join(TESTDATA, "arcs", "thesis-main.arcs")
    want = subprocess.run([WPROF, "--report", "flat", "--format", "json", "--rule", "gprof",
                           path], capture_output=True, check=True).stdout
    proc, port = start_listener(WPROF, "--rule", "gprof")
    junk = socket.create_connection(("127.0.0.1", port))
    junk.sendall(b"hello there\n")  # not an arc line: dropped, not counted
    send_capture(port, 3, open(path, "rb").read())
    rc, out, err = finish(proc)
    junk.close()
    if rc != 0 or numbers(out) != numbers(want):
        fail("arcs: status %d %r" % (rc, err))


ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "live_engine.py")
LIVE_DATA = os.path.join(TESTDATA, "live")


def start_engine(port, capture, seconds=1.0, *more):
    """The fake xst (live_engine.py) replaying a real engine's capture."""
    return subprocess.Popen([sys.executable, ENGINE, str(port), capture,
                             "--seconds", str(seconds), *more])


def engine_status(engine, what):
    try:
        rc = engine.wait(timeout=60)
    except subprocess.TimeoutExpired:
        engine.kill()
        rc = engine.wait()
    if rc != 0:
        fail("%s: the engine ended with status %d (-13: killed by SIGPIPE, "
             "3: left waiting at a break)" % (what, rc))


def breaks():
    """A real engine's run with two `debugger` statements, trace() lines
    and a caught exception: released at each break, it runs to its end;
    the report is the capture's, and stderr tells the breaks and logs."""
    capture = os.path.join(LIVE_DATA, "trace-debugger.xsbug")
    want = numbers(subprocess.run([WPROF, "--report", "flat", "--format", "json",
                                   capture], capture_output=True, check=True).stdout)
    proc, port = start_listener(WPROF)
    engine = start_engine(port, capture)
    rc, out, err = finish(proc)
    engine_status(engine, "breaks")
    if rc != 0 or numbers(out) != want:
        fail("breaks: status %d %r" % (rc, err))
    text = err.decode(errors="replace")
    for said in ("stopped at /home/dev/demo/trace-debugger.js:6 (Break: debugger!); "
                 "released it: wprof-tui profiles, it is not a debugger",
                 "stopped at /home/dev/demo/trace-debugger.js:9",
                 "log: before 1st debugger",
                 'log: after 1st debugger <&> "quoted"',
                 "log: /home/dev/demo/trace-debugger.js:12: Exception: throw!",
                 "log: done"):
        if said not in text:
            fail("breaks: stderr lacks %r: %r" % (said, text))


def stop_at_break():
    """The real engine was told to stop profiling a second after it stopped
    at its first `debugger`: its first profile ends at the suspend.  From
    the capture's times: start @…51241FC, suspend @…51335DF: 62 435 us
    (the stop, @…5229FDD, came 1.01 s later)."""
    capture = os.path.join(LIVE_DATA, "stop-at-break.xsbug")
    proc, port = start_listener(WPROF)
    engine = start_engine(port, capture)
    rc, out, err = finish(proc)
    engine_status(engine, "stop at a break")
    if rc != 0 or abs(numbers(out)[0] - 62435) > 0.5:
        fail("stop at a break: status %d, duration %r %r" % (
            rc, numbers(out)[0] if rc == 0 else None, err))


def others():
    """--report with several engines: the first is reported; the others,
    still running, are served until they end instead of dying of SIGPIPE
    when wprof-tui leaves."""
    capture = os.path.join(LIVE_DATA, "trace-debugger.xsbug")
    want = numbers(subprocess.run([WPROF, "--report", "flat", "--format", "json",
                                   capture], capture_output=True, check=True).stdout)
    proc, port = start_listener(WPROF)
    first = start_engine(port, capture, 2)
    while True:  # it has logged in
        line = proc.stderr.readline()
        if b"logged in" in line or not line:
            break
    slow = [start_engine(port, capture, 5) for _ in range(2)]
    rc, out, err = finish(proc)
    for engine in [first] + slow:
        engine_status(engine, "others")
    if rc != 0 or numbers(out) != want:
        fail("others: status %d %r" % (rc, err))


def silent():
    """An engine that logs in and never starts a profile (an xst built
    with mxProfile): exit 2, and the error says why."""
    with tempfile.NamedTemporaryFile(suffix=".xsbug") as capture:
        capture.write(CAPTURE[:CAPTURE.index(b"</xsbug>") + 10])  # the login
        capture.flush()
        proc, port = start_listener(WPROF)
        engine = start_engine(port, capture.name, 2.5)
        rc, out, err = finish(proc)
        engine_status(engine, "silent")
    if rc != 2 or b"logged in but sent no profile" not in err or \
            b"-DmxInstrument=1" not in err:
        fail("silent: status %d %r" % (rc, err))


def logs():
    """A program that logs the same caught exception 600 times in a row:
    --report says it on stderr at once and, when the run ends, once more
    with its count; not 600 lines."""
    exception = (b'\r\n<xsbug><log path="/t/loop.js" line="3">'
                 b'# Exception: boom&#10;</log></xsbug>\r\n')
    done = b'\r\n<xsbug><log>done&#10;</log></xsbug>\r\n'
    first_samples = CAPTURE.index(b"</xsbug>", CAPTURE.index(b"<ps>")) + 10
    data = CAPTURE[:first_samples] + exception * 600 + done + CAPTURE[first_samples:]
    proc, port = start_listener(WPROF)
    send_capture(port, 4096, data)
    rc, out, err = finish(proc)
    lines = err.decode().splitlines()
    boom = [l for l in lines if "boom" in l]
    want = ["/t/loop.js:3: Exception: boom", "/t/loop.js:3: Exception: boom (×600)"]
    if rc != 0 or len(boom) != 2 or [l[l.index("/t/"):] for l in boom] != want or \
            not any(l.endswith("log: done") for l in lines):
        fail("logs: status %d, stderr %r" % (rc, lines[:8]))


def backlog():
    """The listener's queue of pending connections is the system's
    maximum, not 64 (ss shows it as the listening socket's Send-Q)."""
    try:
        want = int(open("/proc/sys/net/core/somaxconn").read())
    except OSError:
        print("backlog: no /proc/sys/net/core/somaxconn; skipped")
        return
    proc, port = start_listener(WPROF)
    try:
        ss = subprocess.run(["ss", "-ltnH", "sport = :%d" % port],
                            capture_output=True, text=True).stdout.split()
    except FileNotFoundError:
        ss = []
    proc.kill()
    proc.wait()
    if not ss:
        print("backlog: ss is not installed; skipped")
        return
    if int(ss[2]) != want:
        fail("backlog: %r, want %d" % (ss, want))


{"replay": replay, "fake": fake, "hostile": hostile, "connect": connect,
 "arcs": arcs, "breaks": breaks, "stop-at-break": stop_at_break,
 "others": others, "silent": silent, "backlog": backlog, "logs": logs}[WHAT]()
print("%s: %d failed" % (WHAT, failures))
sys.exit(1 if failures else 0)
