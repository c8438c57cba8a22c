"""What the live tests' fake engines share: a free loopback port, a
listening wprof-tui, and the base-36 numbers of the xsbug protocol's
samples."""
import socket
import subprocess
import threading
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


class XsEngine:
    """A fake XS engine on loopback: logs in, waits for wprof-tui's <go/>,
    starts its clock and names its functions (`records`: (name, id, path,
    line), under (host), id 0), then reads and drops what it is sent."""

    def __init__(self, port, records):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b'\r\n<xsbug><login name="fake" value="fake engine"/></xsbug>\r\n')
        received = b""
        while b"<go/>" not in received:
            more = self.sock.recv(4096)
            if not more:
                raise AssertionError("no <go/> from wprof-tui")
            received += more
        threading.Thread(target=self.drain, daemon=True).start()
        self.sock.sendall(
            b'\r\n<xsbug><pt name="start" value="@0000000000001000"/></xsbug>\r\n'
            b'\r\n<xsbug><pr name="(host)" value="0"/></xsbug>\r\n' +
            b"".join(b'\r\n<xsbug><pr name="%s" value="%d" path="%s" line="%d"/></xsbug>\r\n'
                     % (name.encode(), node, path.encode(), line)
                     for name, node, path, line in records))

    def send_samples(self, samples, per_message):
        """Samples ("DELTA,LEAF,...,0") in <ps> messages of per_message."""
        for i in range(0, len(samples), per_message):
            self.sock.sendall(b"\r\n<xsbug><ps>" + ".".join(samples[i:i + per_message]).encode()
                              + b"</ps></xsbug>\r\n")

    def drain(self):
        try:
            while self.sock.recv(4096):
                pass
        except OSError:
            pass

    def close(self):
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
