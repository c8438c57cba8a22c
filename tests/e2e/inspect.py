#!/usr/bin/env python3
"""--inspect (the Chrome DevTools protocol) through the binary:
  node     a real `node --inspect=127.0.0.1:0` running a program of known
           relative timings, profiled 5 s: its functions are there and their
           totals keep the program's proportions;
  node-phases  a program timing its own phases over several windows: the
           totals within 5 % of its clock, no time lost between windows,
           (idle) under 5 %, the session ending with it;
  fake     a fake inspector that knows no Tracing (-32601, as Node)
           answering Profiler.stop with a hand-made profile twice (other
           node ids the second time): the folded session's numbers, worked
           by hand; one whose Tracing sends its events only at Tracing.end
           (as Chrome 156): Profiler windows too;
  stream   a fake inspector streaming Tracing.dataCollected batches while
           tracing runs (ProfileChunks of a hand-made profile): the numbers
           of every chunk it sent, worked by hand, through the trace reader;
  hostile  fake inspectors that send garbage, an oversized frame, a masked
           frame, HTML for /json/list, say nothing, close mid-frame, or name
           a WebSocket on another port: exit 2 with a clear message, memory
           small, and nothing dialed beyond the address given.
"""
import base64
import hashlib
import json
import os
import re
import resource
import shutil
import tempfile
import socket
import struct
import subprocess
import sys
import threading
import time

WPROF = None  # the binary, from the command line (or the importer)
failures = 0


def fail(what):
    global failures
    failures += 1
    print("FAIL", what)


def read_until(conn, marker):
    data = b""
    while marker not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    return data


def frame(payload, opcode=1, masked=False, fin=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    mask_bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 65536:
        head += bytes([mask_bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack(">Q", n)
    if masked:
        head += b"\0\0\0\0"
    return head + payload


def read_frame(conn, buf):
    """One client frame (masked, as clients must send): ((opcode, data), rest)."""
    while True:
        if len(buf) >= 2:
            n, h = buf[1] & 0x7f, 2
            if n == 126:
                n, h = struct.unpack(">H", buf[2:4])[0], 4
            elif n == 127:
                n, h = struct.unpack(">Q", buf[2:10])[0], 10
            if not buf[1] & 0x80:
                raise ValueError("client frame not masked")
            if len(buf) >= h + 4 + n:
                mask = buf[h:h + 4]
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(buf[h + 4:h + 4 + n]))
                return (buf[0] & 15, data), buf[h + 4 + n:]
        chunk = conn.recv(65536)
        if not chunk:
            return None, buf
        buf += chunk


def profile(ids, names=("a", "b")):
    """root -> a -> b; samples a, b, b at 1000 us apart in a 3000 us window:
    a self 1000, b self 2000 (the last sample lasts until endTime)."""
    r, a, b = ids
    name_a, name_b = names
    frame_of = lambda name: {"functionName": name, "scriptId": "1", "url": "x.js",
                             "lineNumber": 0, "columnNumber": 0}
    return {"nodes": [{"id": b, "callFrame": frame_of(name_b), "children": []},
                      {"id": r, "callFrame": frame_of("(root)"), "children": [a]},
                      {"id": a, "callFrame": frame_of(name_a), "children": [b]}],
            "startTime": 1000, "endTime": 4000,
            "samples": [a, b, b], "timeDeltas": [0, 1000, 1000]}


def gap_window(k):
    """Window k (0, 1, 2) of the "gap" target, whose first two windows do
    not meet: 800 ms each, samples 10 ms apart (a then three b under it),
    the second starting 400 ms after the first ended, the third where the
    second ends.  Each gives a 200 ms, b 600 ms; the session spans 2.8 s,
    400 ms of it (0.8 s to 1.2 s) profiled by no window."""
    frame_of = lambda name: {"functionName": name, "scriptId": "1", "url": "x.js",
                             "lineNumber": 0, "columnNumber": 0}
    start = k * 800000 + (400000 if k else 0)
    return {"nodes": [{"id": 1, "callFrame": frame_of("(root)"), "children": [2]},
                      {"id": 2, "callFrame": frame_of("a"), "children": [3]},
                      {"id": 3, "callFrame": frame_of("b"), "children": []}],
            "startTime": start, "endTime": start + 800000,
            "samples": [3 if i % 4 else 2 for i in range(80)],
            "timeDeltas": [0] + [10000] * 79}


class Inspector:
    """A fake inspector on loopback: /json/list and one target (behaviour
    "two": a second, T2 "other.js", whose functions are c and d)."""

    def __init__(self, behaviour, ws_port=None, port=0):
        self.behaviour = behaviour
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.ws_port = ws_port or self.port
        self.stops = 0
        self.pongs = []
        self.chunks_sent = 0
        self.delta = 1000  # us between the samples of a batch
        self.urls = {}  # a function's script, when not x.js (batch())
        self.send_lock = threading.Lock()
        self.streaming = None
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn):
        try:
            self.talk(conn)
        except OSError:
            pass  # the behaviours that close the socket themselves

    def talk(self, conn):
        request = read_until(conn, b"\r\n\r\n")
        if not request:
            return
        if request.startswith(b"GET /json/list"):
            return self.list(conn)
        second = request.split(b" ")[1].endswith(b"/T2")
        key = re.search(rb"Sec-WebSocket-Key: (\S+)", request).group(1)
        accept = base64.b64encode(hashlib.sha1(
            key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        if self.behaviour == "silent":
            time.sleep(60)
            return
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        buf = b""
        while True:
            got, buf = read_frame(conn, buf)
            if got is None:
                return
            opcode, data = got
            if opcode == 10:
                self.pongs.append(data)
            elif opcode == 1:
                self.answer(conn, json.loads(data), ("c", "d") if second else ("a", "b"))

    def list(self, conn):
        if self.behaviour == "silent-list":
            time.sleep(60)
            return
        if self.behaviour == "html":
            body = b"<html><body>hello</body></html>"
        else:
            targets = [{"id": "T1", "type": "node", "title": "fake.js",
                        "webSocketDebuggerUrl": "ws://127.0.0.1:%d/T1" % self.ws_port}]
            if self.behaviour == "two":
                targets.append({"id": "T2", "type": "node", "title": "other.js",
                                "webSocketDebuggerUrl": "ws://127.0.0.1:%d/T2" % self.ws_port})
            body = json.dumps(targets).encode()
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        conn.close()

    def answer(self, conn, msg, names=("a", "b")):
        with self.send_lock:
            if not msg["method"].startswith("Tracing.") or not self.tracing(conn, msg):
                self.answer_profiler(conn, msg, names)

    def send_event(self, conn, method, params, params_first=False):
        message = {"params": params, "method": method} if params_first else \
            {"method": method, "params": params}
        with self.send_lock:
            conn.sendall(frame(json.dumps(message).encode()))

    def tracing(self, conn, msg):
        """Tracing.start / Tracing.end as the behaviour says; False when
        the answer is the default one."""
        b = self.behaviour
        if b not in ("stream", "trace-at-end"):
            conn.sendall(frame(json.dumps({"id": msg["id"], "error": {
                "code": -32601, "message": "'%s' wasn't found" % msg["method"]}}).encode()))
            return True
        conn.sendall(frame(json.dumps({"id": msg["id"], "result": {}}).encode()))
        if msg["method"] == "Tracing.start":
            self.streaming = threading.Event()
            self.chunks_sent = 0
            if b == "stream":
                threading.Thread(target=self.stream, args=(conn, self.streaming),
                                 daemon=True).start()
        elif msg["method"] == "Tracing.end":
            threading.Thread(target=self.end_stream, args=(conn,), daemon=True).start()
        return True

    def stream(self, conn, stop):
        try:
            while not stop.wait(0.05):
                # Every other one with its params before its method.
                self.send_event(conn, "Tracing.dataCollected", {"value": self.batch()},
                                params_first=self.chunks_sent % 2 == 0)
        except OSError:
            pass

    def end_stream(self, conn):
        self.streaming.set()
        time.sleep(0.1)  # the streamer's batch under way, if any
        if self.behaviour == "trace-at-end":
            for _ in range(3):
                self.send_event(conn, "Tracing.dataCollected", {"value": self.batch()})
        # V8's last chunk at stop: the profile's endTime, 1000 us after the
        # last sample, so that it lasts as long as the others.
        self.send_event(conn, "Tracing.dataCollected", {"value": [
            {"name": "ProfileChunk", "ph": "P", "id": "0x1", "pid": 1, "tid": 7,
             "ts": 10 ** 6 + self.chunks_sent + 1,
             "args": {"data": {"endTime": 3 * self.delta * self.chunks_sent + self.delta}}}]})
        self.send_event(conn, "Tracing.tracingComplete", {"dataLossOccurred": False})

    def batch(self):
        """The next ProfileChunk (with the Profile event and thread names
        before the first): samples a, b, b `delta` (1000) us apart, so that
        each chunk gives a 1000 us self and b 2000 us under it."""
        events = []
        if not self.chunks_sent:
            frame_of = lambda name: {"functionName": name, "url": self.urls.get(name, "x.js"),
                                     "scriptId": 1, "lineNumber": 0, "columnNumber": 0}
            events = [
                {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "ts": 0,
                 "args": {"name": "CrRendererMain"}},
                {"name": "Profile", "ph": "P", "id": "0x1", "pid": 1, "tid": 1,
                 "ts": 10 ** 6, "args": {"data": {"startTime": 0}}}]
            nodes = [{"id": 1, "callFrame": frame_of("(root)")},
                     {"id": 2, "parent": 1, "callFrame": frame_of("a")},
                     {"id": 3, "parent": 2, "callFrame": frame_of("b")}]
        self.chunks_sent += 1
        data = {"cpuProfile": {"samples": [2, 3, 3]}, "timeDeltas": [self.delta] * 3}
        if self.chunks_sent == 1:
            data["cpuProfile"]["nodes"] = nodes
        events.append({"name": "ProfileChunk", "ph": "P", "id": "0x1", "pid": 1, "tid": 7,
                       "ts": 10 ** 6 + self.chunks_sent, "args": {"data": data}})
        return events

    def answer_profiler(self, conn, msg, names):
        b = self.behaviour
        result = {}
        if msg["method"] == "Profiler.stop":
            self.stops += 1
            result = {"profile": profile([1, 2, 3] if self.stops == 1 else [30, 10, 20],
                                         names)}
            if b == "gap":
                result = {"profile": gap_window(self.stops - 1)}
        if b in ("ends", "gap") and msg["method"] == "Profiler.start" and self.stops == 2:
            # Node's program over in the third window: it says so.
            conn.sendall(frame(json.dumps({"id": msg["id"], "result": {}}).encode()))
            conn.sendall(frame(b'{"method":"NodeRuntime.waitingForDisconnect","params":{}}'))
        elif b == "dies" and self.stops == 3:
            conn.shutdown(socket.SHUT_RDWR)  # the target killed mid-session
            conn.close()
        elif b == "garbage":
            conn.sendall(frame(b"}}not json at all{{"))
        elif b == "oversized":
            conn.sendall(b"\x81\x7f" + struct.pack(">Q", 1 << 40) + b"x" * 1000)
        elif b == "bigping":
            conn.sendall(frame(b"x" * 200, opcode=9))
        elif b == "masked":
            conn.sendall(frame(b"{}", masked=True))
        elif b == "midframe":
            conn.sendall(frame(json.dumps({"id": msg["id"], "result": result}).encode())[:7])
            conn.shutdown(socket.SHUT_RDWR)
            conn.close()
        elif b == "error" and msg["method"] == "Profiler.start":
            conn.sendall(frame(json.dumps({"id": msg["id"], "error": {
                "code": -32000, "message": "Profiler is not enabled"}}).encode()))
        else:
            conn.sendall(frame(b'{"method":"Runtime.consoleAPICalled","params":{}}', opcode=9))
            conn.sendall(frame(b'{"method":"Debugger.paused","params":{}}'))
            text = json.dumps({"id": msg["id"], "result": result}).encode()
            # Two fragments, a ping between them, and the bytes split anywhere.
            data = (frame(text[:5], opcode=1, fin=False) + frame(b"p", opcode=9) +
                    frame(text[5:], opcode=0))
            conn.sendall(data[:1])
            time.sleep(0.01)
            conn.sendall(data[1:])


class EndingTarget(Inspector):
    """A Node whose program ends at an awkward `moment` of the windows'
    ends, with console profiles as Node has them (the bridges of cdp.c).

    Its clock is its own, so that every run sees the same times however
    loaded the machine: 50 ms pass at each Profiler.start, Profiler.stop
    and Runtime.evaluate it is sent.  It samples every 10 ms, 5 ms past
    each 10: a alone every fourth sample, a > b the others, and (idle)
    once its program is over.  A profile (a Profiler window, or a console
    profile) holds the samples from its start to its stop.  Once the
    program is over, JavaScript no longer runs: Runtime.evaluate answers
    an error ("Illegal access") and only Profiler.stop still works.

    moment, when it says NodeRuntime.waitingForDisconnect:
      after-start   right after answering the second Profiler.start
                    (the window just started holds only (idle));
      bridge-start  when the second console.profile comes, before its
                    answer (an error);
      bridge-end    when the first console.profileEnd comes, before its
                    answer: the second window, under way, has samples of
                    the program;
      between       right after answering the second Profiler.stop,
                    before the next Profiler.start's answer;
      later         when the test calls end_now()."""

    def __init__(self, moment):
        self.moment = moment
        self.clock = 0          # ms on the target's clock
        self.ended_at = None    # when the program ended
        self.window = None      # the running Profiler window's start
        self.consoles = {}      # console profiles running: title -> start
        self.sent = []          # every profile sent: (start, end, samples)
        self.starts = self.console_starts = self.console_ends = 0
        self.stops_after_end = 0
        self.conn = None
        self.released = False   # wprof-tui closed the connection
        super().__init__("ending")

    def handle(self, conn):
        super().handle(conn)
        if conn is self.conn:
            self.released = True

    def sample_stack(self, t):
        if self.ended_at is not None and t > self.ended_at:
            return "(idle)"
        return "a" if (t - 5) // 10 % 4 == 0 else "b"

    def profile_of(self, start, end):
        """The Profiler.Profile of (start, end] on the target's clock (ms),
        in us as V8 writes it; kept in self.sent."""
        times = list(range(start + 5, end, 10))
        stacks = [self.sample_stack(t) for t in times]
        self.sent.append((start, end, list(zip(times, stacks))))
        frame_of = lambda name: {"functionName": name, "scriptId": "1", "url": "x.js",
                                 "lineNumber": 0, "columnNumber": 0}
        idle = "(idle)" in stacks
        nodes = [{"id": 1, "callFrame": frame_of("(root)"), "children": [2] + [4] * idle},
                 {"id": 2, "callFrame": frame_of("a"), "children": [3]},
                 {"id": 3, "callFrame": frame_of("b"), "children": []}]
        if idle:
            nodes.append({"id": 4, "callFrame": frame_of("(idle)"), "children": []})
        ids = {"a": 2, "b": 3, "(idle)": 4}
        return {"nodes": nodes, "startTime": start * 1000, "endTime": end * 1000,
                "samples": [ids[s] for s in stacks],
                "timeDeltas": [(t - p) * 1000 for p, t in zip([start] + times, times)]}

    def end_program(self, conn):
        self.ended_at = self.clock
        conn.sendall(frame(b'{"method":"NodeRuntime.waitingForDisconnect","params":{}}'))

    def end_now(self):
        with self.send_lock:
            self.end_program(self.conn)

    def answer_profiler(self, conn, msg, names):
        method = msg["method"]
        self.conn = conn
        reply = lambda what: conn.sendall(frame(json.dumps(dict(what, id=msg["id"])).encode()))
        event = lambda method, params: conn.sendall(frame(json.dumps(
            {"method": method, "params": params}).encode()))
        if method in ("Profiler.start", "Profiler.stop", "Runtime.evaluate"):
            self.clock += 50
        if method == "Profiler.start":
            self.starts += 1
            if self.window is None:
                self.window = self.clock
            reply({"result": {}})
            if self.moment == "after-start" and self.starts == 2:
                self.end_program(conn)
        elif method == "Profiler.stop":
            self.stops += 1
            self.stops_after_end += self.ended_at is not None
            window, self.window = self.window, None  # before the answer, that the test sees
            reply({"result": {"profile": self.profile_of(window, self.clock)}})
            if self.moment == "between" and self.stops == 2:
                self.end_program(conn)
        elif method == "Runtime.evaluate":
            call, title = re.match(r"console\.(profile|profileEnd)\('([^']*)'\)",
                                   msg["params"]["expression"]).groups()
            if call == "profile":
                self.console_starts += 1
                if self.moment == "bridge-start" and self.console_starts == 2:
                    self.end_program(conn)
            else:
                self.console_ends += 1
                if self.moment == "bridge-end" and self.console_ends == 1:
                    self.end_program(conn)
            if self.ended_at is not None:
                return reply({"error": {"code": -32000, "message": "Illegal access"}})
            if call == "profile":
                self.consoles[title] = self.clock
                event("Profiler.consoleProfileStarted", {"id": "1", "title": title})
            else:
                event("Profiler.consoleProfileFinished", {"id": "1", "title": title,
                      "profile": self.profile_of(self.consoles.pop(title), self.clock)})
            reply({"result": {"result": {"type": "undefined"}}})
        else:
            reply({"result": {}})

    def worked_totals(self):
        """{name: (self, total)} in us for a and b, worked from the
        samples sent (docs/time-rules.md): each sample once by its time,
        lasting until the next, but time no profile covered is no one's;
        the trailing (idle) go, the last sample of the program lasting
        until the first of them."""
        by_time = {}
        for _, _, samples in self.sent:
            by_time.update(samples)
        times = sorted(by_time)
        stretches = []  # profiled time: the profiles' spans, joined where they meet
        for start, end, _ in sorted(self.sent):
            if stretches and start <= stretches[-1][1]:
                stretches[-1][1] = max(stretches[-1][1], end)
            else:
                stretches.append([start, end])

        def covered_until(t):
            return next(end for start, end in stretches if start < t <= end)
        own = {"a": 0, "b": 0}
        for t, after in zip(times, times[1:] + [None]):
            name = by_time[t]
            if name == "(idle)":
                break
            end = covered_until(t)
            own[name] += (min(after, end) if after is not None else end) - t
        a = own["a"] * 1000
        return {"a": (a, a + own["b"] * 1000), "b": (own["b"] * 1000, own["b"] * 1000)}


def run(*args, timeout=60):
    return subprocess.run([WPROF, *args], capture_output=True, text=True, timeout=timeout)


def rows_of(report):
    return {r["name"]: r for r in json.loads(report)["rows"]}


def fake():
    ins = Inspector("ok")
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat",
            "--format", "json", "--duration", "2s")
    if p.returncode != 0:
        return fail("fake: exit %d: %s" % (p.returncode, p.stderr))
    doc = json.loads(p.stdout)
    rows = rows_of(p.stdout)
    # Two windows of 3000 us, each a 1000 + b 2000 (worked in profile()).
    want = {"a": (2000, 6000), "b": (4000, 4000)}
    for name, (self_us, total_us) in want.items():
        got = rows.get(name)
        if not got or (got["self"], got["total"]) != (self_us, total_us):
            fail("fake: %s: %r, want self %d total %d" % (name, got, self_us, total_us))
    if not ins.pongs or ins.pongs[0] != b'{"method":"Runtime.consoleAPICalled","params":{}}':
        fail("fake: pings answered with %r" % ins.pongs[:1])
    if doc["duration"] != 6000 or doc["samples"] != 6:
        fail("fake: duration %r samples %r, want 6000 and 6" % (doc["duration"], doc["samples"]))
    if "polling Profiler windows (tracing not available) because Tracing.start: " \
       "'Tracing.start' wasn't found" not in p.stderr:
        fail("fake: stderr does not say why windows: %r" % p.stderr)
    # --connect ws:// directly, and --export of the session.
    out = "/tmp/inspect-fake-%d.cpuprofile" % os.getpid()
    p = run("--connect", "ws://127.0.0.1:%d/T1" % ins.port, "--export", "cpuprofile",
            "-o", out, "--duration", "1s")
    if p.returncode != 0:
        return fail("fake --connect: exit %d: %s" % (p.returncode, p.stderr))
    p = run("--report", "flat", "--format", "json", out)
    os.unlink(out)
    rows = rows_of(p.stdout)
    if rows.get("b", {}).get("self") != 2000:
        fail("fake --connect: exported b self %r, want 2000" % rows.get("b"))
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--target", "fake.js", "--report", "flat",
            "--duration", "500ms")
    if p.returncode != 0 or "fake.js (ws://127.0.0.1:%d/T1)" % ins.port not in p.stdout:
        fail("fake --target fake.js: %d %s" % (p.returncode, p.stderr))
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--target", "nope", "--report", "flat")
    if p.returncode != 2 or "no target named nope" not in p.stderr:
        fail("fake --target nope: %d %s" % (p.returncode, p.stderr))
    # A target that dies in its third window: the two windows before are
    # the report (worked in profile()), with a warning, exit 0.
    ins = Inspector("dies")
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat", "--format", "json",
            "--duration", "5s")
    if p.returncode != 0:
        fail("dies: exit %d: %s" % (p.returncode, p.stderr))
    else:
        rows = rows_of(p.stdout)
        got = {n: (rows.get(n, {}).get("self"), rows.get(n, {}).get("total")) for n in want}
        if got != want or json.loads(p.stdout)["samples"] != 6:
            fail("dies: rows %r, want %r" % (got, want))
        if not re.search(r"wprof-tui: warning: fake\.js .*Profiler\.stop: .*; the report "
                         r"has the 6 samples that arrived before", p.stderr):
            fail("dies: no warning: %r" % p.stderr)
    out = "/tmp/inspect-dies-%d.cpuprofile" % os.getpid()
    ins = Inspector("dies")
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--export", "cpuprofile", "-o", out,
            "--duration", "5s")
    if p.returncode != 0 or not os.path.exists(out):
        fail("dies --export: exit %d: %s" % (p.returncode, p.stderr))
    else:
        os.unlink(out)
    # A target that starts a second after wprof-tui: waited for (--wait),
    # said once; without --wait, refused at once.
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    p = run("--inspect", "127.0.0.1:%d" % port, "--report", "flat", "--duration", "1s")
    if p.returncode != 2 or "Connection refused" not in p.stderr:
        fail("no target, no --wait: %d %r" % (p.returncode, p.stderr))
    before = time.monotonic()
    p = run("--inspect", "127.0.0.1:%d" % port, "--wait", "1", "--report", "flat")
    took = time.monotonic() - before
    if p.returncode != 2 or "Connection refused" not in p.stderr or not 1 <= took < 5:
        fail("--wait 1, no target: %d after %.1f s, %r" % (p.returncode, took, p.stderr))
    late = subprocess.Popen([WPROF, "--inspect", "127.0.0.1:%d" % port, "--wait", "10",
                             "--report", "flat", "--format", "json", "--duration", "2s"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1)
    Inspector("ok", port=port)
    out, err = late.communicate(timeout=60)
    rows = rows_of(out) if late.returncode == 0 else {}
    if rows.get("b", {}).get("self") != 4000 or \
       err.count("waiting up to 10 s for the inspector at 127.0.0.1:%d" % port) != 1:
        fail("late target: exit %d, rows %r, stderr %r" % (late.returncode, rows, err))
    # Tracing that sends its events only when it ends (Chrome 156): a
    # probe of 1 s, then windows; the probe's events are not the session.
    ins = Inspector("trace-at-end")
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat", "--format", "json",
            "--duration", "2s")
    if p.returncode != 0:
        return fail("trace-at-end: exit %d: %s" % (p.returncode, p.stderr))
    rows = rows_of(p.stdout)
    if "polling Profiler windows (tracing not streamed) because Tracing sends its " \
       "events only when it ends" not in p.stderr:
        fail("trace-at-end: stderr %r" % p.stderr)
    if ins.stops < 1 or rows.get("a", {}).get("self") != 1000 * ins.stops or \
       rows.get("b", {}).get("self") != 2000 * ins.stops:
        fail("trace-at-end: %d windows, rows %r" % (ins.stops, rows))


def stream():
    """--report over a peer that streams: every chunk sent is in the
    numbers (a 1000 us self and b 2000 us each, worked in batch())."""
    ins = Inspector("stream")
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat", "--format", "json",
            "--duration", "2s")
    if p.returncode != 0:
        return fail("stream: exit %d: %s" % (p.returncode, p.stderr))
    doc = json.loads(p.stdout)
    rows = rows_of(p.stdout)
    n = ins.chunks_sent
    print("stream: %d chunks in 2 s" % n)
    if n < 10:
        fail("stream: only %d chunks sent in 2 s" % n)
    want = {"a": (1000 * n, 3000 * n), "b": (2000 * n, 2000 * n)}
    for name, (self_us, total_us) in want.items():
        got = rows.get(name)
        if not got or (got["self"], got["total"]) != (self_us, total_us):
            fail("stream: %s: %r, want self %d total %d" % (name, got, self_us, total_us))
    if doc["samples"] != 3 * n or ins.stops:
        fail("stream: %r samples (want %d), %d Profiler windows (want none)"
             % (doc["samples"], 3 * n, ins.stops))
    if "CrRendererMain" not in doc.get("thread", ""):
        fail("stream: thread %r" % doc.get("thread"))
    if "streaming samples over Tracing" not in p.stderr:
        fail("stream: stderr %r" % p.stderr)
    # A batch that is not trace events ends the run, naming the byte.
    ins = Inspector("stream")
    ins.batch = lambda: [{"name": "ProfileChunk", "id": "0x1", "args": {"data": {
        "cpuProfile": {"samples": [1.5]}}}}]
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat", "--duration", "2s")
    if p.returncode != 2 or not re.search(r"Tracing\.dataCollected: trace-event JSON, byte \d+: "
                                          r"a sample is not a node id", p.stderr):
        fail("stream, bad batch: exit %d: %s" % (p.returncode, p.stderr))


def hostile():
    cases = {
        "garbage": "not JSON",
        "oversized": "more than 64 MiB",
        "masked": "masked frame",
        "bigping": "control frame of 200 bytes",
        "midframe": "closed",
        "html": "not a JSON list",
        "silent-list": "does not answer",
        "silent": "does not answer",
        "error": "Profiler is not enabled",
    }
    for behaviour, message in cases.items():
        ins = Inspector(behaviour)
        start = time.time()
        try:
            p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat",
                    "--duration", "1s", timeout=40)
        except subprocess.TimeoutExpired:
            fail("%s: still running after 40 s" % behaviour)
            continue
        if p.returncode != 2 or message not in p.stderr or "\n" != p.stderr[-1:]:
            fail("%s: exit %d, stderr %r (want 2 and %r)" % (behaviour, p.returncode,
                                                            p.stderr, message))
        print("%s: %.1f s: %s" % (behaviour, time.time() - start, p.stderr.strip()))
    # A target whose WebSocket is on another port than the one named: refused,
    # and nothing connects there.
    elsewhere = socket.socket()
    elsewhere.bind(("127.0.0.1", 0))
    elsewhere.listen(1)
    elsewhere.settimeout(0.5)
    ins = Inspector("ok", ws_port=elsewhere.getsockname()[1])
    p = run("--inspect", "127.0.0.1:%d" % ins.port, "--report", "flat", "--duration", "1s")
    if p.returncode != 2 or "elsewhere" not in p.stderr:
        fail("elsewhere: exit %d, %s" % (p.returncode, p.stderr))
    try:
        elsewhere.accept()
        fail("elsewhere: wprof-tui connected to a port the user did not name")
    except socket.timeout:
        pass
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if rss_mb > 150:
        fail("hostile: a run took %.0f MB" % rss_mb)


END_MOMENTS = ("after-start", "bridge-start", "bridge-end", "between")


def ends():
    """--report over a Node whose program ends at each awkward moment of
    the windows' ends (EndingTarget): exit 0 once it has, "program ended"
    said, the window under way then stopped (a Profiler.stop after the
    end) and Node let go; a and b as worked from the samples sent."""
    for moment in END_MOMENTS:
        target = EndingTarget(moment)
        p = run("--inspect", "127.0.0.1:%d" % target.port, "--report", "flat", "--format",
                "json", "--duration", "60s")
        if p.returncode != 0:
            fail("ends %s: exit %d: %s" % (moment, p.returncode, p.stderr))
            continue
        rows = rows_of(p.stdout)
        got = {n: (rows.get(n, {}).get("self"), rows.get(n, {}).get("total")) for n in "ab"}
        want = target.worked_totals()
        print("ends %s: %r, worked %r" % (moment, got, want))
        if got != want:
            fail("ends %s: %r, worked from the samples sent %r" % (moment, got, want))
        if rows.get("(idle)", {}).get("total", 0):
            fail("ends %s: (idle) %r" % (moment, rows["(idle)"]))
        if ": program ended" not in p.stderr or not target.stops_after_end or \
           target.window is not None:
            fail("ends %s: %d stops after the end, a window left running from %r, stderr %r"
                 % (moment, target.stops_after_end, target.window, p.stderr))
        deadline = time.monotonic() + 5
        while not target.released and time.monotonic() < deadline:
            time.sleep(0.05)
        if not target.released:
            fail("ends %s: Node not let go" % moment)


# The program's design (after programs/validate.js): f_main_1..4 take the
# same time; f_half is called for 1.5 of them, f_quarter for 1.75, f_half_2
# is half of one.  --jitless: V8's optimizer would inline and reorder.
PROGRAM = """
const MAIN = 100000, HALF = MAIN / 2, QUARTER = MAIN / 4;
function add(a, b) { return (a + b) | 0; }
function f_main_1() { let s = 0; for (let i = 0; i < MAIN; i++) s = (s + add(1, i)) | 0; return s; }
function f_main_2() { let s = 0; for (let i = MAIN - 1; i >= 0; i--) s = (s + add(1, i)) | 0; return s; }
function f_half(start) { let s = start; for (let i = 0; i < HALF; i++) s = (s + add(1, i)) | 0; return s; }
function f_quarter(start) { let s = start; for (let i = 0; i < QUARTER; i++) s = (s + add(1, i)) | 0; return s; }
function f_main_3() { return f_half(1) + f_half(2); }
function f_main_4() { return f_quarter(1) + f_quarter(2) + f_quarter(3) + f_quarter(4); }
function f_half_2() { return f_quarter(1) + f_quarter(2); }
function main() {
  let sum = 0;
  sum += f_main_1(); sum -= f_main_2(); sum += f_main_3(); sum -= f_main_4();
  sum += f_half(0); sum -= f_half_2(); sum -= f_quarter(0);
  return sum;
}
setInterval(main, 0);
"""


def listening_port(proc):
    """The port Node says it listens on ("Debugger listening on ..."), or None."""
    for line in proc.stderr:
        m = re.search(r"Debugger listening on ws://127\.0\.0\.1:(\d+)/", line)
        if m:
            return m.group(1)
    return None


def node_at_break(what, program):
    """`program` in a file of its own, run by Node stopped before its first
    line (--inspect-brk, on a port Node picks), its output piped: (the
    process, the file).  Without node the test is skipped (77)."""
    if not shutil.which("node"):
        print("no node: skipped")
        sys.exit(77)
    path = "/tmp/inspect-%s-%d.js" % (what, os.getpid())
    open(path, "w").write(program)
    return subprocess.Popen(["node", "--inspect-brk=127.0.0.1:0", path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True), path


def node():
    path = "/tmp/inspect-program-%d.js" % os.getpid()
    open(path, "w").write(PROGRAM)
    proc = subprocess.Popen(["node", "--jitless", "--inspect=127.0.0.1:0", path],
                            stderr=subprocess.PIPE, text=True)
    try:
        port = listening_port(proc)
        if not port:
            return fail("node: no 'Debugger listening' line")
        p = run("--inspect", "127.0.0.1:" + port, "--report", "flat", "--format",
                "json", "--duration", "5s")
        if p.returncode != 0:
            return fail("node: exit %d: %s" % (p.returncode, p.stderr))
        rows = rows_of(p.stdout)
        total = {n: rows[n]["total"] for n in rows if n.startswith("f_")}
        missing = {"f_main_1", "f_main_2", "f_main_3", "f_main_4", "f_half",
                   "f_quarter", "f_half_2"} - set(total)
        if missing:
            return fail("node: missing %s in %s" % (missing, p.stdout))
        unit = sum(total["f_main_%d" % i] for i in range(1, 5)) / 4
        print("node: totals in f_main units:",
              {n: round(t / unit, 2) for n, t in sorted(total.items())})
        # Interpreter samples taken at a call's edges land in the caller,
        # so the tolerance is wide; the design's order must hold.
        for i in range(1, 5):
            if not 0.6 < total["f_main_%d" % i] / unit < 1.4:
                fail("node: f_main_%d is %.2f of the mean" % (i, total["f_main_%d" % i] / unit))
        for name, want in (("f_half", 1.5), ("f_quarter", 1.75), ("f_half_2", 0.5)):
            if not want * 0.6 < total[name] / unit < want * 1.6:
                fail("node: %s is %.2f f_main, want about %.2f" % (name, total[name] / unit, want))
        if not total["f_half_2"] < unit < total["f_half"]:
            fail("node: f_half_2 < f_main < f_half does not hold")
        # --pid: the random port found among the process's listening sockets.
        p = run("--pid", str(proc.pid), "--report", "flat", "--format", "json",
                "--duration", "1s")
        if p.returncode != 0 or "ws://127.0.0.1:%s/" % port not in json.loads(p.stdout)["file"] \
           or not any(n.startswith("f_") for n in rows_of(p.stdout)):
            fail("node --pid %d: exit %d: %s" % (proc.pid, p.returncode, p.stderr))
        p = run("--pid", "999999999", "--report", "flat")
        if p.returncode != 2 or "--pid 999999999: process 999999999: No such file" not in p.stderr:
            fail("--pid of no process: %d %r" % (p.returncode, p.stderr))
    finally:
        proc.kill()
        proc.wait()
        os.unlink(path)


BUSY = """const end = Date.now() + 1500;
let x = 0;
function spin() { while (Date.now() < end) x += Math.sqrt(x + 1); }
spin();
"""


def node_end():
    """A program busy for 1.5 s, then over: the session (asked for 30 s)
    ends with it, says so, lets Node exit, and (idle) is under 5 %."""
    proc, path = node_at_break("busy", BUSY)
    try:
        port = listening_port(proc)
        before = time.monotonic()
        p = run("--inspect", "127.0.0.1:%s" % port, "--report", "flat", "--format", "json",
                "--duration", "30s")
        took = time.monotonic() - before
        if p.returncode != 0:
            return fail("node end: exit %d: %s" % (p.returncode, p.stderr))
        doc = json.loads(p.stdout)
        idle = rows_of(p.stdout).get("(idle)", {}).get("total", 0)
        print("node end: %.2f s, duration %d us, (idle) %d us" % (took, doc["duration"], idle))
        if took > 10 or ": program ended" not in p.stderr:
            fail("node end: %.1f s, stderr %r" % (took, p.stderr))
        if not 1.4e6 <= doc["duration"] < 3e6 or idle >= 0.05 * doc["duration"]:
            fail("node end: duration %r, (idle) %r" % (doc["duration"], idle))
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            fail("node end: Node still waits for the debugger")
    finally:
        proc.kill()
        proc.wait()
        os.unlink(path)


# Three phases that time themselves (process.hrtime around each call),
# never idle, twice over about 3.6 s, so over several windows; then the
# program ends and prints its own totals (us).  Long phases (a sample's
# place at each change of phase is out by up to an interval) of integer
# work (no garbage collection, which a profile charges to a root of its
# own).
PHASES = """const own = { phase_a: 0, phase_b: 0, phase_c: 0 };
function phase_a(ms) { const end = Date.now() + ms; let s = 0; while (Date.now() < end) for (let i = 0; i < 2000; i++) s = (s + i) | 0; return s; }
function phase_b(ms) { const end = Date.now() + ms; let s = 0; while (Date.now() < end) for (let i = 0; i < 2000; i++) s = (s ^ i) | 0; return s; }
function phase_c(ms) { const end = Date.now() + ms; let s = 0; while (Date.now() < end) for (let i = 0; i < 2000; i++) s = (s - i) | 0; return s; }
function timed(f, ms) { const t = process.hrtime.bigint(); f(ms); own[f.name] += Number(process.hrtime.bigint() - t) / 1000; }
for (let round = 0; round < 2; round++) { timed(phase_a, 900); timed(phase_b, 600); timed(phase_c, 300); }
console.log(JSON.stringify(own));
"""


def node_phases():
    """A program that times its own phases over several windows: each
    phase function's total within 5 % of the program's own timing, the
    session ending with the program, (idle) under 5 %, and no time lost
    between windows (the samples cover the session but for 5 ms)."""
    proc, path = node_at_break("phases", PHASES)
    try:
        port = listening_port(proc)
        p = run("--inspect", "127.0.0.1:%s" % port, "--report", "flat", "--format", "json",
                "--duration", "60s")
        own = json.loads(proc.stdout.readline() or "{}")
        if p.returncode != 0 or not own:
            return fail("node phases: exit %d, program said %r: %s" % (p.returncode, own,
                                                                        p.stderr))
        doc = json.loads(p.stdout)
        rows = rows_of(p.stdout)
        covered = sum(r["self"] for r in doc["rows"])
        idle = rows.get("(idle)", {}).get("total", 0)
        print("node phases: own %r; profile %r; duration %d us, samples cover %d, (idle) %d"
              % ({n: round(t) for n, t in own.items()},
                 {n: rows.get(n, {}).get("total") for n in own}, doc["duration"], covered, idle))
        for name, took in own.items():
            got = rows.get(name, {}).get("total", 0)
            if not abs(got - took) <= 0.05 * took:
                fail("node phases: %s %d us in the profile, %d by its own clock" % (name, got, took))
        if ": program ended" not in p.stderr:
            fail("node phases: the session did not end with the program: %r" % p.stderr)
        if idle >= 0.05 * doc["duration"]:
            fail("node phases: (idle) %d us of %d" % (idle, doc["duration"]))
        if doc["duration"] - covered > 5000:
            fail("node phases: %d us of the session are no sample's (gaps between windows)"
                 % (doc["duration"] - covered))
    finally:
        proc.kill()
        proc.wait()
        os.unlink(path)


# A page whose busy function is WebAssembly: spin(n) sums n..1 (a
# hand-assembled module: one function, exported as "spin"), called by
# drive() again and again.
WASM = bytes([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0,
              7, 8, 1, 4, 115, 112, 105, 110, 0, 0, 10, 35, 1, 33, 1, 1, 127, 2, 64,
              3, 64, 32, 0, 69, 13, 1, 32, 1, 32, 0, 106, 33, 1, 32, 0, 65, 1, 107,
              33, 0, 12, 0, 11, 11, 32, 1, 11])
PAGE = """<html><title>wasm page</title><script>
const m = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(%s)));
function drive() { m.exports.spin(20000000); setTimeout(drive, 0); }
drive();
</script></html>"""


def chrome():
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("chromium is not installed: skipping")
        sys.exit(77)
    work = tempfile.mkdtemp()
    page = os.path.join(work, "wasm.html")
    open(page, "w").write(PAGE % list(WASM))
    proc = subprocess.Popen([browser, "--headless=new", "--no-sandbox", "--disable-gpu",
                             "--remote-debugging-port=0", "--user-data-dir=" + work + "/profile",
                             "file://" + page], stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        port = None
        for line in proc.stderr:
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = m.group(1)
                break
        if not port:
            return fail("chrome: no 'DevTools listening' line")
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        out = os.path.join(work, "wasm.pb.gz")
        p = run("--inspect", "127.0.0.1:" + port, "--export",
                "pprof", "-o", out, "--duration", "4s")
        if p.returncode != 0:
            return fail("chrome: exit %d: %s" % (p.returncode, p.stderr))
        # Chromium 156 delivers Tracing's events only at Tracing.end (tried:
        # nothing while it runs, in every record mode): windows, said so.
        # A Chromium that streams would be followed over Tracing instead.
        mode = re.search(r"(streaming samples over Tracing|polling Profiler windows "
                         r"\(tracing not streamed\) because Tracing sends its events "
                         r"only when it ends)", p.stderr)
        print("chrome:", mode.group(1) if mode else p.stderr)
        if not mode:
            fail("chrome: how the samples came is not said: %r" % p.stderr)
        p = run("--report", "flat", "--format", "json", out)
        doc = json.loads(p.stdout)
        rows = {r["name"]: r for r in doc["rows"]}
        wasm = [r for n, r in rows.items() if n in ("wasm-function[0]", "spin", "$spin")]
        print("chrome:", {n: r["total"] for n, r in rows.items()})
        if not wasm or "drive" not in rows:
            return fail("chrome: no WebAssembly function or no drive in %s" % sorted(rows))
        # The page does little but spin: its time is most of what drive does.
        if not 0.7 * rows["drive"]["total"] <= wasm[0]["total"] <= rows["drive"]["total"]:
            fail("chrome: spin %r against drive %r" % (wasm[0]["total"], rows["drive"]["total"]))
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    WPROF = sys.argv[1]
    {"node": node, "node-end": node_end, "node-phases": node_phases, "fake": fake, "ends": ends, "stream": stream, "hostile": hostile,
     "chrome": chrome}[sys.argv[3]]()
    print("%d failures" % failures)
    sys.exit(1 if failures else 0)
