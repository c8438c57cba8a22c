"""What the live tests' fake engines share: a free loopback port, a
listening wprof-tui, and the base-36 numbers of the xsbug protocol's
samples."""
import socket
import subprocess
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def base36(n):
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out = ""
    while True:
        out = digits[n % 36] + out
        n //= 36
        if not n:
            return out


def start_listener(wprof, *args):
    """wprof-tui --listen --report flat --format json on a free loopback
    port, once it accepts; returns the process and the port."""
    for _ in range(5):
        port = free_port()
        proc = subprocess.Popen([wprof, "--listen", "127.0.0.1:%d" % port,
                                 "--report", "flat", "--format", "json", *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                return proc, port
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.02)
        proc.kill()
        proc.wait()
    raise SystemExit("cannot start a listener")
