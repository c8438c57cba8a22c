#!/usr/bin/env python3
"""A long inspector session in a short while: a fake target (inspect.py's
Inspector, knowing no Tracing nor console profiles, as an engine of
Profiler windows only) whose every Profiler.stop answers a window of
SAMPLES samples 10 us apart over 100 distinct stacks, one after the
other on its clock, so that a few dozen windows are millions of samples,
far more than the live timeline's window (262 144).

  explorer  wprof-tui --inspect in tmux for RUN seconds from its third
            window (the timeline's window overrun): the CPU time a window
            of the last third of the windows (5 at least) took on average
            within 1.2 times the first third's unless a permutation test
            finds the difference within chance (each refresh costs the new
            window, not the session), and its
            resident memory over the last tenth of the run within 1.2 times
            the first tenth's (the stacks plus the bounded timeline).
  report    --report over targets killed after 3 and after 8 windows:
            each gives the report of what arrived with a warning, exit 0,
            its totals those of every sample sent (worked from the fake's
            pattern, although the timeline kept only the newest), and the
            8-window run's peak memory within 1.2 times the 3-window run's.
Ratios within one run only: the machine is shared.
"""
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inspect as cdp_fake  # noqa: E402  (tests/e2e/inspect.py)

# Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
# default) that would count as growth; the bound is wprof-tui's, not ASan's.
QUIET_ASAN = os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=16"
os.environ["ASAN_OPTIONS"] = QUIET_ASAN

SAMPLES = 300000  # a window's samples
DELTA = 10        # us between them
LEAVES = 100      # distinct stacks: (root) > fI > gJ, I = J // 10
RUN = float(os.environ.get("RUN", 26.0))  # seconds the explorer follows the target


def window_text(index):
    """Window `index`'s Profiler.Profile, from the pattern: sample k is on
    leaf k % LEAVES, so each leaf has SAMPLES / LEAVES samples of DELTA us."""
    start = index * SAMPLES * DELTA
    return ('{"nodes":%s,"startTime":%d,"endTime":%d,"samples":%s,"timeDeltas":%s}'
            % (NODES, start, start + SAMPLES * DELTA, SAMPLE_IDS, DELTAS))


def build_pattern():
    frame = lambda name: {"functionName": name, "scriptId": "1", "url": "long.js",
                          "lineNumber": 0, "columnNumber": 0}
    nodes = [{"id": 1, "callFrame": frame("(root)"), "children": list(range(2, 12))}]
    for i in range(10):
        nodes.append({"id": 2 + i, "callFrame": frame("f%d" % i),
                      "children": [12 + 10 * i + j for j in range(10)]})
    for leaf in range(LEAVES):
        nodes.append({"id": 12 + leaf, "callFrame": frame("g%d" % leaf), "children": []})
    ids = ",".join(str(12 + k % LEAVES) for k in range(SAMPLES))
    deltas = ",".join(["0"] + [str(DELTA)] * (SAMPLES - 1))
    return json.dumps(nodes), "[%s]" % ids, "[%s]" % deltas


NODES, SAMPLE_IDS, DELTAS = build_pattern()


class LongTarget(cdp_fake.Inspector):
    """Profiler windows from the pattern; killed (its socket shut) at the
    Profiler.stop after `windows` of them."""

    def __init__(self, windows=None):
        self.windows = windows
        self.stop_times = []
        super().__init__("long")

    def answer_profiler(self, conn, msg, names):
        result = '{}'
        if msg["method"] == "Profiler.stop":
            if self.windows is not None and len(self.stop_times) == self.windows:
                conn.shutdown(socket.SHUT_RDWR)  # killed mid-session
                conn.close()
                return
            result = '{"profile":%s}' % window_text(len(self.stop_times))
            self.stop_times.append(time.monotonic())
        conn.sendall(cdp_fake.frame(('{"id":%d,"result":%s}' % (msg["id"], result)).encode()))


def chance_of_growth(first, last):
    """The one-sided permutation test's p: of every way to split the costs
    into two groups of these sizes, the share whose second group's mean
    exceeds its first's by at least as much as `last`'s does `first`'s."""
    pooled = first + last
    observed = sum(last) / len(last) - sum(first) / len(first)
    splits = as_large = 0
    for chosen in itertools.combinations(range(len(pooled)), len(last)):
        picked = set(chosen)
        b = [pooled[i] for i in chosen]
        a = [pooled[i] for i in range(len(pooled)) if i not in picked]
        splits += 1
        if sum(b) / len(b) - sum(a) / len(a) >= observed - 1e-12:
            as_large += 1
    return as_large / splits


def proc_numbers(pid):
    """(CPU seconds, resident KiB) of the process, or None once it is gone.
    The CPU time is the scheduler's for every thread, in nanoseconds
    (schedstat), not utime's 10 ms ticks."""
    try:
        cpu_ns = sum(int(open("/proc/%d/task/%s/schedstat" % (pid, task)).read().split()[0])
                     for task in os.listdir("/proc/%d/task" % pid))
        status = open("/proc/%d/status" % pid).read()
    except OSError:
        return None
    return cpu_ns / 1e9, int(re.search(r"VmRSS:\s+(\d+)", status).group(1))


def explorer(wprof):
    from tmux_driver import Pane, check, failures, tmux
    target = LongTarget()
    pidfile = "/tmp/inspect-long-%d.pid" % os.getpid()
    pane = Pane("echo $$ > %s; exec env ASAN_OPTIONS='%s' %s --inspect 127.0.0.1:%d" % (
        pidfile, QUIET_ASAN, wprof, target.port),
                width=120, height=30, what="the first window", stable=False)
    try:
        pid = int(open(pidfile).read())
        # The run starts once the session has outgrown its timeline's
        # window (the second window's samples push the first's out): from
        # there on every window costs the same, where the first two, whose
        # samples all fit, cost a little less.
        pane.press(["3"], r"(?m)\bg0\b", "the first window's rows", stable=False)
        while len(target.stop_times) < 3:
            time.sleep(0.1)
        began = time.monotonic()
        looks = []  # (time, cpu, rss), every 0.1 s
        while time.monotonic() - began < RUN:
            got = proc_numbers(pid)
            if got is None:
                break
            looks.append((time.monotonic(),) + got)
            time.sleep(0.1)
        # Window k's cost: the CPU time from just before the target sent it
        # to just before it sent the next (wprof-tui waits between them).
        sent = [t for t in target.stop_times if looks[0][0] < t < looks[-1][0]]

        def cpu_before(t):
            return [l for l in looks if l[0] < t][-1][1]

        costs = [cpu_before(b) - cpu_before(a) for a, b in zip(sent, sent[1:])]
        # The CPU of the first and the last third of the windows.  Single
        # windows vary by half under load (a fold that outlasts its second
        # spills into the next window's: 0.141 0.077 0.18 in one CI run, and
        # 0.08 to 0.21 over 52 flat windows here), so the last third fails
        # only when its mean is over 1.2 times the first's and a permutation
        # test says that is not chance (p < 0.01).  A refresh that grows
        # with the session (the old rebuild) is several times the first
        # third by the last, with every window of it above.
        third = max(5, len(costs) // 3)
        enough = len(costs) >= 2 * third
        first, last = costs[:third], costs[-third:]
        cpu_first = sum(first) / third if enough else None
        cpu_last = sum(last) / third if enough else None
        p_value = chance_of_growth(first, last) if enough else None
        span = looks[-1][0] - looks[0][0]
        rss_first = [l[2] for l in looks if l[0] <= looks[0][0] + span / 10]
        rss_last = [l[2] for l in looks if l[0] >= looks[-1][0] - span / 10]
        rss_first = sum(rss_first) / len(rss_first)
        rss_last = sum(rss_last) / len(rss_last)
        windows = len(target.stop_times)
        print("costs", [round(c, 3) for c in costs])
        print("explorer: %d windows, %d samples; CPU a window %.3f s (first %d windows) "
              "%.3f s (last %d); RSS %.0f KiB (first tenth of the run), %.0f KiB (last)"
              % (windows, windows * SAMPLES, cpu_first or 0, third, cpu_last or 0, third,
                 rss_first, rss_last))
        check(windows * SAMPLES > 4 * 262144, "only %d windows in %.0f s" % (windows, RUN))
        check(enough, "too few windows: %d" % len(costs))
        check(not enough or cpu_last <= 1.2 * cpu_first or p_value >= 0.01,
              "CPU a window grew: %r then %r (p = %r)" % (cpu_first, cpu_last, p_value))
        check(rss_last <= 1.2 * rss_first, "memory grew: %.0f KiB then %.0f KiB"
              % (rss_first, rss_last))
        # The header drawn whole: curses may write it in more than one piece.
        s = pane.settled(lambda s: True, "the header drawn whole", lambda s: s.split("\n")[0])
        check("live: " in s and "polling Profiler windows" in s, "the header:\n" + s)
    finally:
        tmux("send-keys", "-t", pane.name, "q", "q")
        pane.close()
        os.unlink(pidfile)
    return failures


def peak_while_running(p):
    """The process's peak resident memory (VmHWM, KiB) as last seen before
    it ends, with its output."""
    peak = 0
    while p.poll() is None:
        try:
            peak = int(re.search(r"VmHWM:\s+(\d+)",
                                 open("/proc/%d/status" % p.pid).read()).group(1))
        except (OSError, AttributeError):
            pass
        time.sleep(0.1)
    out, err = p.communicate()
    return peak, out, err


def report(wprof):
    failures = []
    peaks = {}
    for windows in (3, 8):
        target = LongTarget(windows)
        p = subprocess.Popen([wprof, "--inspect", "127.0.0.1:%d" % target.port, "--report",
                              "flat", "--format", "json", "--duration", "60s"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        peaks[windows], out, err = peak_while_running(p)
        if p.returncode != 0:
            failures.append("killed after %d windows: exit %d: %s" % (windows, p.returncode, err))
            continue
        doc = json.loads(out)
        rows = {r["name"]: r for r in doc["rows"]}
        per_leaf = windows * SAMPLES // LEAVES * DELTA
        want = {"g0": (per_leaf, per_leaf), "f3": (0, 10 * per_leaf),
                "(root)": (0, LEAVES * per_leaf)}
        got = {n: (rows.get(n, {}).get("self"), rows.get(n, {}).get("total")) for n in want}
        print("report, %d windows: %r, samples %r" % (windows, got, doc["samples"]))
        if got != want or doc["samples"] != windows * SAMPLES:
            failures.append("killed after %d windows: %r, %r samples; want %r, %d"
                            % (windows, got, doc["samples"], want, windows * SAMPLES))
        if not re.search(r"warning: .*; the report has the %d samples that arrived before"
                         % (windows * SAMPLES), err):
            failures.append("killed after %d windows: no warning: %r" % (windows, err))
    print("report: peak memory %r KiB" % peaks)
    if not peaks[8] <= 1.2 * peaks[3]:
        failures.append("memory grew with the session: %d KiB after 3 windows, %d after 8"
                        % (peaks[3], peaks[8]))
    return failures


if __name__ == "__main__":
    wprof = os.path.abspath(sys.argv[1])
    what = sys.argv[2]
    if what == "explorer":
        from tmux_driver import run_tests, failures as tmux_failures
        run_tests([lambda: explorer(wprof)])
        failed = tmux_failures
    else:
        failed = report(wprof)
        for f in failed:
            print("FAIL", f)
    print("%d failures" % len(failed))
    sys.exit(1 if failed else 0)
