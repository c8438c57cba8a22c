"""The tmux driver the explorer's end-to-end tests share: a private tmux
server, sessions of a given size running a shell command, keys sent with
send-keys and screens read back with capture-pane, and the checks' list of
failures.  Importing it exits 77 (skip) when tmux is not installed."""
import os
import re
import shutil
import subprocess
import sys
import time

if shutil.which("tmux") is None:
    print("tmux is not installed: skipping")
    sys.exit(77)

TIMEOUT = 15.0  # generous: the ASan build is slow to start
SOCKET = "wprof-%s-%d" % (os.path.basename(sys.argv[0]).split(".")[0], os.getpid())
failures = []


def tmux(*args, check=True):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null"] + list(args),
                          check=check, capture_output=True, text=True).stdout


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run_tests(tests):
    """Each test in turn, an AssertionError (a timeout) failing only that
    one, beside a session that keeps the server up between tests."""
    tmux("new-session", "-d", "-s", "keep", "-x", "80", "-y", "24", "sleep", "3600")
    try:
        for fn in tests:
            print("--", fn.__name__)
            try:
                fn()
            except AssertionError as e:
                check(False, "%s: %s" % (fn.__name__, e))
    finally:
        tmux("kill-server", check=False)


class Pane:
    """One tmux session of the given size running `command` in sh."""

    count = 0

    def __init__(self, command, width=80, height=24, ready=None, what="the first screen",
                 stable=True):
        Pane.count += 1
        self.name = "p%d" % Pane.count
        tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height),
             "sh", "-c", command)
        self.wait_for(ready or (lambda s: "? help" in s or "EXIT=" in s), what, stable)

    def screen(self):
        return tmux("capture-pane", "-p", "-t", self.name)

    def lines(self):
        return self.screen().split("\n")

    def keys(self, *keys):
        tmux("send-keys", "-t", self.name, *keys)

    def wait_for(self, predicate, what, stable=True):
        """The first screen that satisfies predicate; with `stable`, one that
        stays the same a moment (not caught half drawn).  A live screen that
        keeps changing is taken as it is."""
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            s = self.screen()
            if predicate(s):
                if not stable:
                    return s
                time.sleep(0.05)
                if self.screen() == s:
                    return s
                continue
            time.sleep(0.05)
        raise AssertionError("timed out waiting for %s; screen:\n%s" % (what, self.screen()))

    def settled(self, predicate, what, part=lambda s: s):
        """The first screen that satisfies predicate and is drawn whole:
        its `part` (the whole screen, or the rows of a live one whose
        header goes on changing) the same a moment later.  Curses writes
        a screen in pieces (a write every hundred bytes or so), and tmux
        can be read between two of them: a predicate on the header alone
        may meet the rows of the screen before."""
        for _ in range(100):
            s = self.wait_for(predicate, what, stable=False)
            time.sleep(0.1)
            again = self.screen()
            if predicate(again) and part(again) == part(s):
                return again
        raise AssertionError("%s never stayed the same; screen:\n%s" % (what, self.screen()))

    def shows(self, pattern, what):
        """The first screen with a line matching `pattern`, as it is."""
        return self.wait_for(lambda s: re.search(pattern, s, re.M), what, stable=False)

    def help_text(self):
        """Every page of the ? help as one text: a short screen scrolls it
        ("Keys — j/k, PgDn/PgUp scroll …  1–21 of 44").  Each page is read
        settled: its title, which says the page, is drawn before its lines."""
        self.keys("?")
        s = self.settled(lambda s: "Keys" in s, "the help")
        text = s
        for _ in range(8):
            m = re.search(r"(\d+)\u2013(\d+) of (\d+)", s.split("\n")[1])
            if not m or int(m.group(2)) >= int(m.group(3)):
                break
            self.keys("NPage")
            page = r"(?<!\d)(?!%s\u2013)\d+\u2013\d+ of" % m.group(1)
            s = self.settled(lambda s: re.search(page, s), "the next page of the help")
            text += "\n" + s
        return text

    def press(self, keys, until, what, stable=True):
        """Sends keys, then waits until the screen shows `until`."""
        self.keys(*keys)
        return self.wait_for(lambda s: re.search(until, s, re.M), what, stable)

    def close(self):
        tmux("kill-session", "-t", self.name, check=False)

    def settled_coloured(self, predicate, what, part=lambda s: s):
        """The screen of `settled` and its lines with their colours
        (capture-pane -e), both of one drawing: its `part` the same
        after the coloured capture as before it."""
        for _ in range(100):
            s = self.settled(predicate, what, part)
            coloured = tmux("capture-pane", "-e", "-p", "-t", self.name)
            if part(self.screen()) == part(s):
                return s, coloured.split("\n")
        raise AssertionError("%s changed under every coloured capture; screen:\n%s"
                             % (what, self.screen()))


def live_windows(screen):
    """How many windows a live explorer's header says it holds (0 before
    the first): `[N windows of 1s`."""
    m = re.search(r"\[(\d+) windows? of 1s", screen)
    return int(m.group(1)) if m else 0


def live_explorer(binary):
    """`binary --listen` on a free loopback port, in a 160x30 pane that
    shows EXIT=N when it ends, once it waits for an engine; the pane and
    the port."""
    from loopback import free_port
    port = free_port()
    address = "127.0.0.1:%d" % port
    command = "%s --listen %s; echo EXIT=$?; sleep 600" % (binary, address)
    waiting = r"waiting for an engine on " + re.escape(address)
    pane = Pane(command, 160, 30, ready=lambda s: re.search(waiting, s),
                what="the waiting screen")
    return pane, port


def tabs_line(screen):
    """The index of the panes' tab line: 1, or 3 under the timeline strip."""
    lines = screen.split("\n")
    return next((i for i, line in enumerate(lines) if line.startswith(" 1 top-down")), 1)


# The flat pane's column titles, its own: "3 flat" is on every pane's tab
# line, so a wait for it after the key 3 waits for nothing.
FLAT_TITLES = r"sum% +name"
