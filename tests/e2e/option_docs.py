#!/usr/bin/env python3
"""The option table, --help and the man page name the same options: every
option of the table (wprof-tui --all-options) is in --help, with its short
name, and in the man page's OPTIONS section; --help and the man page name
no option the table lacks."""
import os
import re

from e2e import TESTDATA, check, finish, wprof

MAN_PAGE = os.path.join(TESTDATA, "..", "docs", "wprof-tui.1")


def table_options():
    """{long name: short letter or None} from --all-options."""
    r = wprof("--all-options")
    check(r.returncode == 0 and r.stdout, "--all-options lists the table: %s" % r.stderr)
    options = {}
    for line in r.stdout.splitlines():
        m = re.fullmatch(r"--([a-z][a-z-]*)(?: \S+)?(?:, -(\w))?", line)
        if check(m, "--all-options line %r reads" % line):
            options[m.group(1)] = m.group(2)
    return options


def help_options(text):
    """{long name: short letter or None} from the lines of --help that
    start an option's description."""
    options = {}
    for line in text.splitlines():
        m = re.match(r"  (?:-(\w), )?--([a-z][a-z-]*)", line)
        if m:
            options[m.group(2)] = m.group(1)
    return options


def man_options(path):
    """{long name: short letter or None} from the tags (the lines after
    .TP and .TQ) of the man page's OPTIONS section."""
    lines = open(path, encoding="utf-8").read().splitlines()
    start = lines.index(".SH OPTIONS")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(".SH "))
    options = {}
    for before, tag in zip(lines[start:end], lines[start + 1:end]):
        if before not in (".TP", ".TQ"):
            continue
        tag = tag.replace("\\-", "-")
        letter = re.search(r"(?<![\w-])-(\w)\b", tag)
        for name in re.findall(r"--([a-z][a-z-]*[a-z])", tag):
            options[name] = letter.group(1) if letter else None
    return options


table = table_options()
check(len(table) > 40, "the table has its options (%d)" % len(table))
check("all-options" not in table, "--all-options is hidden")

r = wprof("--help")
check(r.returncode == 0, "--help exits 0")
in_help = help_options(r.stdout)
in_man = man_options(MAN_PAGE)

for name, letter in sorted(table.items()):
    check(name in in_help, "--help lists --%s" % name)
    check(in_help.get(name) == letter,
          "--help gives --%s the short name %s" % (name, letter))
    check(name in in_man, "the man page lists --%s" % name)
    check(in_man.get(name) == letter,
          "the man page gives --%s the short name %s (has %s)"
          % (name, letter, in_man.get(name)))
for name in sorted(set(in_help) - set(table)):
    check(False, "--help lists --%s, which the table lacks" % name)
for name in sorted(set(in_man) - set(table)):
    check(False, "the man page lists --%s, which the table lacks" % name)

finish()
