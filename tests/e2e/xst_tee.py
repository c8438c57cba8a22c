#!/usr/bin/env python3
"""A real xst run under wprof-tui --listen, with the bytes the engine sent
kept: xst dials this tee (XSBUG_HOST), the tee dials wprof-tui and copies
both ways, and writes what came from the engine to CAPTURE.  That is how
testdata/live/phases.xsbug was made.

    xst_tee.py WPROF_PORT CAPTURE -- XST ARGS...

The engine's own exit status is the tee's."""
import os
import select
import socket
import subprocess
import sys


def copy_both_ways(engine, wprof):
    """Until both sides have closed; returns what the engine sent."""
    sent = bytearray()
    open_sides = {engine: wprof, wprof: engine}
    while open_sides:
        ready, _, _ = select.select(list(open_sides), [], [], 60)
        if not ready:
            break
        for side in ready:
            data = side.recv(65536)
            other = open_sides[side]
            if not data:
                del open_sides[side]
                try:
                    other.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                continue
            if side is engine:
                sent += data
            try:
                other.sendall(data)
            except OSError:
                pass
    return bytes(sent)


def record(wprof_port, command, env=None):
    """Runs COMMAND with XSBUG_HOST at the tee; (exit status, bytes sent)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    env = dict(env or os.environ, XSBUG_HOST="127.0.0.1:%d" % port)
    xst = subprocess.Popen(command, env=env)
    listener.settimeout(10)
    engine, _ = listener.accept()
    listener.close()
    wprof = socket.create_connection(("127.0.0.1", wprof_port))
    sent = copy_both_ways(engine, wprof)
    engine.close()
    wprof.close()
    return xst.wait(timeout=120), sent


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        raise SystemExit(__doc__)
    status, sent = record(int(sys.argv[1]), sys.argv[4:])
    with open(sys.argv[2], "wb") as f:
        f.write(sent)
    return status


if __name__ == "__main__":
    sys.exit(main())
