#!/usr/bin/env python3
"""The key table (src/tui/keys.c, which the ? help is drawn from; printed
by the hidden --list-keys), README's key table and the man page's KEYS
section name the same keys: every key of the table is in both, and
neither names a one-character key the table lacks."""
import os
import re

from e2e import TESTDATA, check, finish, wprof

ROOT = os.path.join(TESTDATA, "..")
# How the docs spell the keys the help abbreviates.
ALIASES = {"S-Tab": ["Shift-Tab"], "Bksp": ["Backspace"], "Down": ["arrows", "Down"],
           "Up": ["arrows", "Up"], "Right": ["arrows", "Right"], "Left": ["arrows", "Left"]}


def table_keys():
    """(one-character keys, named keys) of --list-keys."""
    r = wprof("--list-keys")
    check(r.returncode == 0 and r.stdout, "--list-keys prints the table: %s" % r.stderr)
    chars, named = set(), set()
    for line in r.stdout.splitlines():
        names, _, text = line.partition("\t")
        check(names and text, "--list-keys line %r has names and help" % line)
        for token in names.split():
            m = re.fullmatch(r"(\d)-(\d)", token)
            if m:
                chars.update(str(d) for d in range(int(m.group(1)), int(m.group(2)) + 1))
            elif len(token) == 1:
                chars.add(token)
            else:
                named.add(token)
    return chars, named


def readme_keys():
    """(the first column's text, the one-character keys in its backquotes)
    of README's key table."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    start = text.index("| keys | action |")
    rows = text[start:text.index("\n\n", start)].splitlines()[2:]
    first = [row.split(" | ")[0].lstrip("| ") for row in rows]
    chars = set()
    for cell in first:
        for quoted in re.findall(r"`([^`]+)`", cell):
            chars.update(quoted)  # `hjk`: three keys
    return " ".join(first), chars


def man_keys():
    """(the tags' text, their one-character words) of the man page's KEYS."""
    lines = open(os.path.join(ROOT, "docs", "wprof-tui.1"), encoding="utf-8").read().splitlines()
    start = lines.index(".SH KEYS")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(".SH "))
    tags = [tag for before, tag in zip(lines[start:end], lines[start + 1:end])
            if before == ".TP"]
    words = set()
    for tag in tags:
        tag = re.sub(r"^\.B\w* ", "", tag).replace("\\-", "-").replace("\\e", "\\")
        words.update(w for w in re.split(r"[ ,]+", tag.strip('"')) if w)
    return " ".join(tags).replace("\\-", "-"), {w for w in words if len(w) == 1}


chars, named = table_keys()
check(len(chars) > 40, "the table has its keys (%d)" % len(chars))
for where, (text, found) in (("README's key table", readme_keys()),
                             ("the man page's KEYS", man_keys())):
    check(not chars - found, "%s lacks %s" % (where, sorted(chars - found)))
    check(not found - chars, "%s names keys the table lacks: %s" % (where, sorted(found - chars)))
    for name in sorted(named):
        check(any(re.search(r"\b%s\b" % re.escape(alias), text)
                  for alias in ALIASES.get(name, [name])),
              "%s lacks %s" % (where, name))
finish()
