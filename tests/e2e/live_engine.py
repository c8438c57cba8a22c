#!/usr/bin/env python3
"""A fake XS engine that behaves as a real `xst` (mxInstrument) does
towards its debugger, replaying a capture of what a real one sent:

- it dials PORT, then turns SIGPIPE back on, as xst does once it is
  connected: written to after wprof-tui closed the socket, it dies
  (exit status -13, 141 in a shell);
- it sends its login and reads commands until `<go/>`;
- then it "runs": it sends the capture's messages one by one, spread over
  SECONDS, and does not read its socket while it runs (commands wait);
- at a `<break>` it stops and reads until `<go/>`, then (with --hold)
  waits a while before going on, as a slow device would;
- at the end it closes the socket and exits 0.

The capture keeps the engine's batching: 8 samples a <ps>, a last
partial batch dropped.  Everything the engine read goes to --received.

usage: live_engine.py PORT CAPTURE [--seconds S] [--hold S] [--received FILE]
"""
import argparse
import re
import signal
import socket
import sys
import time

MESSAGE = re.compile(rb"\r\n<xsbug>.*?</xsbug>\r\n", re.S)


def messages(capture):
    """The capture's messages, whole, in order."""
    return [m.group(0) for m in MESSAGE.finditer(capture)]


class Engine:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        # xst ignores SIGPIPE only while it connects.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        self.received = b""

    def wait_for_go(self):
        """Reads commands until the next <go/>, as xst does at its login
        and at a break; False when the socket closed first."""
        start = len(self.received)
        while b"<go/>" not in self.received[start:]:
            more = self.sock.recv(4096)
            if not more:
                return False
            self.received += more
        # What followed the <go/> is read later, as the engine would.
        return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("capture")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--hold", type=float, default=0.0)
    ap.add_argument("--received")
    args = ap.parse_args()
    parts = messages(open(args.capture, "rb").read())
    engine = Engine(args.port)
    pause = args.seconds / max(1, len(parts))
    released = True
    for i, part in enumerate(parts):
        engine.sock.sendall(part)
        if i == 0 or b"</break>" in part:
            released = engine.wait_for_go()
            if not released:
                break
            if i:
                time.sleep(args.hold)
        time.sleep(pause)
    engine.sock.close()
    if args.received:
        with open(args.received, "wb") as f:
            f.write(engine.received)
    return 0 if released else 3


if __name__ == "__main__":
    sys.exit(main())
