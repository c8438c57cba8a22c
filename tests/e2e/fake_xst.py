#!/usr/bin/env python3
"""A fake XS engine that treats its debugger's socket as a real `xst`
(XS 17.9.1, mxDebug + mxInstrument) was measured to (docs/live.md), on
loopback only:

- it dials PORT, then turns SIGPIPE back on, as xst does once connected;
  its writes are small and Nagle's algorithm is left on, as in xst;
- it sends its login and reads until a command and then CR LF;
- it "runs" for --run seconds, writing a batch of 8 samples every 10 ms
  while it profiles, and reads nothing while it runs;
- at each of its --breaks `debugger` statements (spread over the run, or
  back to back with --run 0) it sends the real bytes of a break
  (testdata/live/break-engine-bytes.bin, after a suspend time of its
  own clock while it profiles) in pieces of at most 256 bytes, each its own write, and
  reads until `<go/>` and then CR LF (commands read there are obeyed:
  start-profiling, stop-profiling); --hold S waits that long at the
  first break before reading, as an engine sitting at a break;
- as xst's fxReceive and fxSend: a read or write that fails (ECONNRESET
  after the debugger's reset) detaches it and it runs on to its end,
  its later `debugger` statements doing nothing; a read of end of file at
  a break leaves it spinning: it loops on read() = 0 for half a second,
  says "SPUN" on stderr and exits 4 (a real xst spins for ever); a write
  after the debugger's normal close kills it by SIGPIPE (exit -13, 141
  in a shell).
- at its end it stops profiling, closes and exits 0, printing "ran to
  its end" (and "detached" if it was) on stdout.

It prints its own address first ("connected from 127.0.0.1:PORT").
--times FILE writes, per break, the seconds from its first byte written
to the <go/> read; --progress FILE gets "left break N" as it does.

usage: fake_xst.py PORT [--breaks N] [--run S] [--hold S] [--times FILE]
                   [--progress FILE]"""
import argparse
import os
import re
import signal
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BREAK = os.path.join(HERE, "..", "..", "testdata", "live", "break-engine-bytes.bin")
LOGIN = b'\r\n<xsbug><login name="xst" value="XS 17.9.1 64-bit LE 32-bit ID" flags="e"/></xsbug>\r\n'
PIECE = 256
# What leaves a break (fxDebugLoop: debugExit > 1), and what is enough
# to leave the login (debugExit > 0).
LEAVE_BREAK = re.compile(rb"<(go|step|step-inside|step-outside|logout|abort)/>")
COMMAND = re.compile(rb"<([a-z-]+)/>")
WORK = 100  # the profile record of the function "running"


def now_us():
    return int(time.time() * 1e6)


def message(body):
    return b"\r\n<xsbug>" + body + b"</xsbug>\r\n"


def time_message(name):
    return message(b'<pt name="%s" value="@%016X"/>' % (name, now_us()))


class Engine:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        # xst ignores SIGPIPE only while it connects.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        self.pending = b""    # read, not yet parsed
        self.profiling = False
        self.detached = False
        # The real suspend's time is another clock's: the engine sends
        # its own, then the real break element.
        self.break_bytes = open(BREAK, "rb").read().split(b"</xsbug>\r\n", 1)[1]

    def detach(self, why):
        """fxDisconnect: the socket is closed, the engine runs on."""
        if not self.detached:
            print("detached: %s" % why, file=sys.stderr)
            self.sock.close()
            self.detached = True

    def write(self, data):
        """fxSend: each call one write; a failure detaches.  A write after
        the debugger's FIN draws its reset, and the write after that
        raises SIGPIPE, which kills."""
        if self.detached:
            return
        try:
            self.sock.send(data)
        except OSError as e:
            self.detach("write: %s" % e)

    def write_in_pieces(self, data):
        for k in range(0, len(data), PIECE):
            self.write(data[k:k + PIECE])

    def obey(self, name):
        if name == b"start-profiling" and not self.profiling:
            self.profiling = True
            self.write(time_message(b"start"))
            self.write(message(b'<pr name="(host)" value="0"/>'))
            self.write(message(b'<pr name="(gc)" value="1"/>'))
            self.write(message(b'<pr name="work" value="%d" path="/home/dev/demo/fake.js" '
                               b'line="3"/>' % WORK))
        elif name == b"stop-profiling" and self.profiling:
            self.profiling = False
            self.write(time_message(b"stop"))

    def spin(self):
        reads = 0
        deadline = time.time() + 0.5
        while time.time() < deadline:
            reads += self.sock.recv(255) == b""
        print("SPUN: read() = 0 %d times at a break" % reads, file=sys.stderr)
        sys.exit(4)

    def debug_loop(self, leave):
        """fxDebugLoop: reads and obeys commands until one that leaves has
        been read, and then CR LF."""
        leaving = False
        while not self.detached:
            last = 0
            for m in COMMAND.finditer(self.pending):
                self.obey(m.group(1))
                leaving |= bool(leave.fullmatch(m.group(0)))
                last = m.end()
            self.pending = self.pending[last:]
            crlf = self.pending.find(b"\r\n")
            if leaving and crlf >= 0:
                self.pending = self.pending[crlf + 2:]
                return
            try:
                more = self.sock.recv(255)
            except OSError as e:
                self.detach("read: %s" % e)
                return
            if not more:
                self.spin()
            self.pending += more

    def at_break(self, hold):
        if self.detached:
            return None  # fxDebugLoop returns at once
        first = time.time()
        if self.profiling:
            self.write(time_message(b"suspend"))
        self.write_in_pieces(self.break_bytes)
        time.sleep(hold)
        self.debug_loop(LEAVE_BREAK)
        took = time.time() - first
        if self.profiling:
            self.write(time_message(b"resume"))
        return took

    def run(self, seconds):
        """Runs: a batch of 8 samples every 10 ms while profiling."""
        if seconds <= 0:
            return  # debugger statements back to back
        end = time.time() + seconds
        batch = message(b"<ps>" + b".".join([b"YQ,2S,0"] * 8) + b"</ps>")
        while time.time() < end:
            time.sleep(0.01)
            if self.profiling:
                self.write(batch)

    def finish(self):
        if self.profiling:
            self.profiling = False
            self.write(time_message(b"stop"))
        if not self.detached:
            self.sock.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--breaks", type=int, default=0)
    ap.add_argument("--run", type=float, default=1.0)
    ap.add_argument("--hold", type=float, default=0.0)
    ap.add_argument("--times")
    ap.add_argument("--progress")
    args = ap.parse_args()
    engine = Engine(args.port)
    print("connected from 127.0.0.1:%d" % engine.sock.getsockname()[1], flush=True)
    engine.write(LOGIN)
    engine.debug_loop(COMMAND)  # any command lets it leave its login
    times = []
    slice_ = args.run / (args.breaks + 1)
    for k in range(args.breaks):
        engine.run(slice_)
        took = engine.at_break(args.hold if k == 0 else 0)
        if took is not None:
            times.append(took)
        if args.progress:
            with open(args.progress, "a") as f:
                f.write("left break %d\n" % (k + 1))
    engine.run(slice_)
    engine.finish()
    if args.times:
        with open(args.times, "w") as f:
            f.write("".join("%.6f\n" % t for t in times))
    print("ran to its end%s" % (" (detached)" if engine.detached else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
