"""What the end-to-end tests of loaders share: running wprof-tui for its
JSON reports, reading `go tool pprof -top`, and comparing rows."""
import json
import re
import subprocess
import sys

TIME_US = {"ns": 1e-3, "us": 1, "\u00b5s": 1, "ms": 1e3, "s": 1e6,
           "mins": 60e6, "hrs": 3600e6, "days": 86400e6}
BYTES = {"B": 1, "kB": 1024, "MB": 1024**2, "GB": 1024**3, "TB": 1024**4,
         "PB": 1024**5}


def parse_value(text):
    """'1.50s' -> (1500000.0 us, tolerance): pprof prints %.2f, '.00' trimmed,
    so a printed value is good to half of its last place."""
    if text == "0":
        return 0.0, 0.0
    m = re.fullmatch(r"(-?[0-9]+(?:\.([0-9]+))?)([a-zA-Z\u00b5]*)", text)
    if not m:
        raise ValueError("not a pprof value: " + text)
    number, decimals, unit = m.groups()
    scale = TIME_US.get(unit) or BYTES.get(unit) or (1 if unit == "" else None)
    if scale is None:
        raise ValueError("unknown unit in " + text)
    places = len(decimals) if decimals else 2
    return float(number) * scale, 0.5 * 10 ** -places * scale * 1.0001


def parse_top(text):
    """{name: (flat, flat_tol, cum, cum_tol)} and the total (value, tol)."""
    rows, total, in_rows = {}, None, False
    for line in text.splitlines():
        m = re.search(r"accounting for .*, .* of (\S+) total", line)
        if m:
            total = parse_value(m.group(1))
        if re.match(r"\s+flat\s+flat%\s+sum%\s+cum\s+cum%", line):
            in_rows = True
            continue
        if in_rows and line.strip():
            flat, _, _, cum, _, name = line.split(None, 5)
            rows[name] = parse_value(flat) + parse_value(cum)
    return rows, total


def rows_of(report):
    return {r["name"]: (r["self"], r["total"]) for r in report["rows"]}


class Checks:
    def __init__(self, wprof):
        self.wprof = wprof
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)
        print("FAIL:", msg, file=sys.stderr)

    def run(self, args, check=True):
        p = subprocess.run([self.wprof] + list(args), capture_output=True, text=True)
        if check and p.returncode != 0:
            self.fail(f"wprof-tui {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
        return p

    def report(self, path, *extra, view="flat", sample_type=None):
        args = ["--report", view, "--rule", "exact", "--format", "json", path, *extra]
        if sample_type is not None:
            args += ["--sample-type", sample_type]
        p = self.run(args)
        return json.loads(p.stdout) if p.returncode == 0 else None

    def expect(self, label, report, want):
        """The rows of `want` {name: (self, total)}, and no other row with
        a value."""
        if report is None:
            return
        got = rows_of(report)
        for name, (self_, total) in want.items():
            g = got.get(name)
            if not g or abs(g[0] - self_) > 1e-6 or abs(g[1] - total) > 1e-6:
                self.fail(f"{label}: {name}: got {g}, want {(self_, total)}")
        extra = [n for n, v in got.items() if n not in want and any(v)]
        if extra:
            self.fail(f"{label}: unexpected rows {extra}")

    def compare_with_top(self, label, report, top_text):
        """Every row go prints equals ours, we show no row go does not, and
        the totals agree (a stackless sample counts in both, with no row)."""
        expected, total = parse_top(top_text)
        if not expected:
            self.fail(f"{label}: no rows in go tool pprof's output")
        got = {}
        for r in report["rows"]:
            got.setdefault(r["name"], []).append(r)
        if total and abs(report["profile_total"] - total[0]) > total[1]:
            self.fail(f"{label}: profile total {report['profile_total']} != {total[0]}")
        for name, (flat, flat_tol, cum, cum_tol) in expected.items():
            rows = got.get(name)
            if not rows or len(rows) != 1:
                self.fail(f"{label}: {name}: {len(rows or [])} rows, want 1")
                continue
            if abs(rows[0]["self"] - flat) > flat_tol:
                self.fail(f"{label}: {name}: self {rows[0]['self']} != flat {flat}")
            if abs(rows[0]["total"] - cum) > cum_tol:
                self.fail(f"{label}: {name}: total {rows[0]['total']} != cum {cum}")
        for name, rows in got.items():
            if name not in expected and any(r["self"] or r["total"] for r in rows):
                self.fail(f"{label}: {name} is not in go tool pprof's output")

    def same_rows(self, label, before, after):
        """A round trip keeps every function's self and total."""
        b, a = rows_of(before), rows_of(after)
        for name, (self_, total) in b.items():
            g = a.get(name)
            if not g or abs(g[0] - self_) > 1e-6 * max(1, abs(self_)) or \
               abs(g[1] - total) > 1e-6 * max(1, abs(total)):
                self.fail(f"{label}: {name}: {g} after, {(self_, total)} before")
        if not b:
            self.fail(f"{label}: nothing compared")

    def check_folded(self, label, before, path):
        """Self per leaf from the folded lines; and, where wprof-tui reads
        folded stacks, the same flat report back."""
        self_by_leaf = {}
        with open(path) as f:
            for line in f:
                stack, value = line.rstrip("\n").rsplit(" ", 1)
                leaf = stack.split(";")[-1]
                self_by_leaf[leaf] = self_by_leaf.get(leaf, 0) + float(value)
        for name, (self_, _) in rows_of(before).items():
            if abs(self_by_leaf.get(name, 0) - self_) > 1e-6 * max(1, abs(self_)):
                self.fail(f"{label}: {name}: {self_by_leaf.get(name)} != {self_}")
        p = self.run(["--report", "flat", "--rule", "exact", "--format", "json", path], check=False)
        if p.returncode == 0:
            self.same_rows(label + " read back", before, json.loads(p.stdout))

    def roundtrip(self, label, src, before, tmp, load_args=(), pprof_args=()):
        """src (read with load_args) exported to pprof, .cpuprofile and
        folded reads back to `before`, its flat report; pprof_args pick the
        same sample type from the pprof export, which keeps them all."""
        for fmt in ("pprof", "cpuprofile", "folded"):
            out = f"{tmp}/{re.sub(r'[^A-Za-z0-9.-]', '_', label)}.{fmt}"
            if self.run(["--export", fmt, "-o", out, src, *load_args]).returncode:
                continue
            if fmt == "folded":
                self.check_folded(f"{label} -> folded", before, out)
            else:
                after = self.report(out, *(pprof_args if fmt == "pprof" else ()))
                if after:
                    self.same_rows(f"{label} -> {fmt}", before, after)

    def bad_inputs(self, tmp, cases, extra=()):
        """{file name: (bytes or text, words)}: exit 2, 'wprof-tui: PATH: '
        and the words on stderr."""
        for name, (data, words) in cases.items():
            path = f"{tmp}/{name}"
            with open(path, "wb" if isinstance(data, bytes) else "w") as f:
                f.write(data)
            p = self.run(["--report", "flat", path, *extra], check=False)
            prefix = f"wprof-tui: {path}: "
            if p.returncode != 2 or not p.stderr.startswith(prefix) or words not in p.stderr:
                self.fail(f"{name}: exit {p.returncode}, stderr {p.stderr.strip()!r} "
                          f"(want exit 2 and {words!r})")

    def finish(self):
        if self.failures:
            print(f"{len(self.failures)} failures", file=sys.stderr)
            sys.exit(1)
        print("ok")
