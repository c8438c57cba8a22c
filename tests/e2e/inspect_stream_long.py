#!/usr/bin/env python3
"""A long session streamed over Tracing in a short while: a fake target
(inspect.py's Inspector streaming Tracing.dataCollected) sends BATCHES
ProfileChunks of CHUNK samples DELTA us apart over LEAVES distinct stacks
((root) > fI > gJ, I = J // 10; sample k on leaf k % LEAVES), then, once
the probe's second is over, a last chunk whose endTime ends the last
sample like the others, and dies (its socket shut).  600 000 and
1 800 000 samples: far more than the live timeline's 262 144.

  --report of each: exit 0 with the report of what arrived and the
  warning saying so, its totals those of every sample sent (worked from
  the pattern: each leaf N / LEAVES samples of DELTA us), its samples N,
  a warning that the samples are summed per stack; the 3N run's peak
  memory within 1.2 times the N run's (the stacks plus the bounded
  timeline, not every sample).
  --export cpuprofile of the N run: the same warning, and the file reads
  back with the same totals.
Ratios within one run only: the machine is shared.
"""
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inspect as cdp_fake  # noqa: E402  (tests/e2e/inspect.py)
# Its peak memory reading, and its ASan settings (freed memory is not the
# session's growth).
from inspect_long import peak_while_running  # noqa: E402

CHUNK = 20000  # samples a batch, a multiple of LEAVES
DELTA = 10     # us between samples
LEAVES = 100
PROBE = 1.5    # s: the target streams at least this long before it dies

SAMPLE_IDS = ",".join(str(12 + k % LEAVES) for k in range(CHUNK))
DELTAS = ",".join([str(DELTA)] * CHUNK)


def first_events():
    frame = lambda name: {"functionName": name, "url": "long.js", "scriptId": 1,
                          "lineNumber": 0, "columnNumber": 0}
    nodes = [{"id": 1, "callFrame": frame("(root)")}]
    nodes += [{"id": 2 + i, "parent": 1, "callFrame": frame("f%d" % i)} for i in range(10)]
    nodes += [{"id": 12 + j, "parent": 2 + j // 10, "callFrame": frame("g%d" % j)}
              for j in range(LEAVES)]
    return [{"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "ts": 0,
             "args": {"name": "CrRendererMain"}},
            {"name": "Profile", "ph": "P", "id": "0x1", "pid": 1, "tid": 1, "ts": 1000000,
             "args": {"data": {"startTime": 0}}}], nodes


def chunk_text(index, nodes=None):
    """Chunk `index`: CHUNK samples, with the nodes for the first."""
    profile = '"samples":[%s]' % SAMPLE_IDS
    if nodes:
        profile = '"nodes":%s,%s' % (json.dumps(nodes), profile)
    return ('{"name":"ProfileChunk","ph":"P","id":"0x1","pid":1,"tid":1,"ts":%d,'
            '"args":{"data":{"cpuProfile":{%s},"timeDeltas":[%s]}}}'
            % (1000001 + index, profile, DELTAS))


class StreamTarget(cdp_fake.Inspector):
    """Streams `batches` chunks as fast as it can, then dies."""

    def __init__(self, batches):
        self.batches = batches
        super().__init__("stream")

    def send_batch(self, conn, events_text):
        message = '{"method":"Tracing.dataCollected","params":{"value":[%s]}}' % events_text
        with self.send_lock:
            conn.sendall(cdp_fake.frame(message.encode()))

    def stream(self, conn, stop):
        began = time.monotonic()
        try:
            meta, nodes = first_events()
            head = ",".join(json.dumps(e) for e in meta)
            self.send_batch(conn, head + "," + chunk_text(0, nodes))
            for i in range(1, self.batches):
                self.send_batch(conn, chunk_text(i))
            time.sleep(max(0.0, PROBE - (time.monotonic() - began)))
            end = (self.batches * CHUNK + 1) * DELTA
            self.send_batch(conn, '{"name":"ProfileChunk","ph":"P","id":"0x1","pid":1,'
                            '"tid":1,"ts":%d,"args":{"data":{"endTime":%d}}}'
                            % (1000001 + self.batches, end))
            time.sleep(0.3)
            conn.shutdown(socket.SHUT_RDWR)  # killed mid-session
            conn.close()
        except OSError:
            pass


def want_rows(n):
    per_leaf = n // LEAVES * DELTA
    return {"g0": (per_leaf, per_leaf), "f3": (0, 10 * per_leaf),
            "(root)": (0, LEAVES * per_leaf)}


def got_rows(doc, want):
    rows = {r["name"]: r for r in doc["rows"]}
    return {n: (rows.get(n, {}).get("self"), rows.get(n, {}).get("total")) for n in want}


def run(wprof, batches, *how):
    target = StreamTarget(batches)
    p = subprocess.Popen([wprof, "--inspect", "127.0.0.1:%d" % target.port, *how,
                          "--duration", "60s"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return peak_while_running(p) + (p.returncode,)


def check_warnings(failures, what, err, n):
    if not re.search(r"warning: .*; the report has the %d samples that arrived before" % n,
                     err):
        failures.append("%s: no warning of the target's end: %r" % (what, err))
    if not re.search(r"warning: the session's %d samples are summed per stack" % n, err):
        failures.append("%s: no warning of the samples summed: %r" % (what, err))


def report(wprof):
    failures, peaks = [], {}
    for batches in (30, 90):
        n = batches * CHUNK
        peaks[n], out, err, status = run(wprof, batches, "--report", "flat",
                                         "--format", "json")
        if status != 0:
            failures.append("%d samples: exit %d: %s" % (n, status, err))
            continue
        doc = json.loads(out)
        want = want_rows(n)
        got = got_rows(doc, want)
        print("report, %d samples: %r, samples %r" % (n, got, doc["samples"]))
        if got != want or doc["samples"] != n:
            failures.append("%d samples: %r, %r samples; want %r" % (n, got, doc["samples"],
                                                                      want))
        check_warnings(failures, "report of %d" % n, err, n)
    print("report: peak memory %r KiB" % peaks)
    if len(peaks) == 2 and not max(peaks.values()) <= 1.2 * min(peaks.values()):
        failures.append("memory grew with the session: %r KiB" % peaks)
    return failures


def export(wprof):
    failures = []
    n = 30 * CHUNK
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "long.cpuprofile")
        _, _, err, status = run(wprof, 30, "--export", "cpuprofile", "-o", path)
        if status != 0:
            return ["export: exit %d: %s" % (status, err)]
        check_warnings(failures, "export", err, n)
        back = subprocess.run([wprof, "--report", "flat", "--format", "json", path],
                              capture_output=True, text=True)
        want = want_rows(n)
        got = got_rows(json.loads(back.stdout), want)
        print("export read back: %r" % got)
        if got != want:
            failures.append("export read back: %r, want %r" % (got, want))
    return failures


if __name__ == "__main__":
    wprof = os.path.abspath(sys.argv[1])
    failed = report(wprof) + export(wprof)
    for f in failed:
        print("FAIL", f)
    print("%d failures" % len(failed))
    sys.exit(1 if failed else 0)
