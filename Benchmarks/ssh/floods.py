#!/usr/bin/env python3
"""What two floods cost `authdeck ssh`, and whether a visitor still gets in while they run:

- signature flood: from one address, `--connections` connections at a time (renewed as they end)
  each send `--attempts` public-key requests for an operator's name, signed with one P-521 key
  over another connection's session (every signature is checked, and fails), for `--seconds`;
- handshake flood: `--stalled` connections from as many addresses, each sending its version line
  and nothing more, renewed as the server closes them, for `--seconds`.

For each, the server's CPU time over the flood (its whole process tree, as bench.py reads it),
the CPU per attacking connection, and the time a visitor from another address takes from starting
OpenSSH's client to the sign-in screen, a few seconds into the flood (or "no" when it never
got there: its client's last line is shown).

Usage: python3 Benchmarks/ssh/floods.py [--binary PATH] [--only signatures|handshakes]
Not a test: it prints a table, and asserts nothing.
"""
import argparse
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import paramiko
from paramiko.common import cMSG_SERVICE_REQUEST, cMSG_USERAUTH_REQUEST, MSG_SERVICE_ACCEPT, MSG_USERAUTH_FAILURE, MSG_USERAUTH_SUCCESS, \
    MSG_USERAUTH_BANNER

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ANSI, CLIENT, SCREEN, TreeCPU, Visitor, binary_path  # noqa: E402


def start_server(binary):
    data = tempfile.mkdtemp(prefix="authdeck-bench-floods-")
    server = subprocess.Popen([binary, "ssh", "--host", "127.0.0.1", "--port", "0", "--data", data], stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+), host key", server.stdout.readline()).group(1))
    return server, port, data


def signed_request():
    """A public-key request's parts with a P-521 signature over a session that is not the server's."""
    key = paramiko.ECDSAKey.generate(bits=521)
    signature = key.sign_ssh_data(os.urandom(64))
    return key, signature.asbytes()


class SignatureFlooder:
    """One connection: the key exchange, then `attempts` signed requests at once; ends when the server closes it."""

    def __init__(self, port, source, attempts, key, signature):
        self.failures = 0
        sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0), timeout=10)
        self.transport = paramiko.Transport(sock)
        # The server's answers are counted, never answered with "unimplemented" (which would end the connection early).
        table = self.transport._handler_table
        table[MSG_SERVICE_ACCEPT] = lambda m: None
        table[MSG_USERAUTH_BANNER] = lambda m: None
        table[MSG_USERAUTH_SUCCESS] = lambda m: None
        table[MSG_USERAUTH_FAILURE] = self.failed
        self.transport.start_client(timeout=10)
        message = paramiko.Message()
        message.add_byte(cMSG_SERVICE_REQUEST)
        message.add_string("ssh-userauth")
        self.transport._send_message(message)
        for _ in range(attempts):
            if not self.transport.is_active():
                break
            message = paramiko.Message()
            message.add_byte(cMSG_USERAUTH_REQUEST)
            message.add_string("root")
            message.add_string("ssh-connection")
            message.add_string("publickey")
            message.add_boolean(True)
            message.add_string(key.get_name())
            message.add_string(key.asbytes())
            message.add_string(signature)
            self.transport._send_message(message)

    def failed(self, message):
        self.failures += 1


def flood_signatures(port, args, stop, counts):
    key, signature = signed_request()

    def one():
        while not stop.is_set():
            try:
                flooder = SignatureFlooder(port, "127.9.0.1", args.attempts, key, signature)
                counts["connections"] += 1
                while flooder.transport.is_active() and not stop.is_set():
                    time.sleep(0.05)
                counts["answered"] += flooder.failures
                flooder.transport.close()
            except (OSError, EOFError, paramiko.SSHException):
                counts["refused"] += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(args.connections)]
    for thread in threads:
        thread.start()
    return threads


def flood_handshakes(port, args, stop, counts):
    """`--stalled` sockets from 127.10.0.0/16, one an address, each renewed as soon as the server closes it."""
    selector = selectors.DefaultSelector()

    def open_one(number):
        sock = socket.socket()
        try:
            sock.bind((f"127.10.{number // 250}.{number % 250 + 1}", 0))
            sock.settimeout(5)
            sock.connect(("127.0.0.1", port))
            sock.send(b"SSH-2.0-stalled\r\n")
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, number)
            counts["connections"] += 1
        except OSError:
            counts["refused"] += 1
            sock.close()

    def run():
        for number in range(args.stalled):
            open_one(number)
        while not stop.is_set():
            for key, _ in selector.select(0.1):
                try:
                    chunk = key.fileobj.recv(65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    counts["closed"] += 1
                    open_one(key.data)
        for key in list(selector.get_map().values()):
            key.fileobj.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return [thread]


def visitor_during(port, timeout):
    """OpenSSH's client from 127.3.x.y to the sign-in screen: seconds, or None and the client's last words."""
    selector = selectors.DefaultSelector()
    visitor = Visitor(["sshpass", "-p", ""] + CLIENT + ["-p", str(port), "demo@127.0.0.1"], selector)
    deadline = time.monotonic() + timeout
    while visitor.ready_after is None and time.monotonic() < deadline and visitor.process.poll() is None:
        for key, _ in selector.select(0.05):
            if not key.data.read():
                selector.unregister(key.fileobj)
    while visitor.ready_after is None and visitor.read():
        pass
    last = ANSI.sub(b"", visitor.output).decode(errors="replace").strip().splitlines()[-1:] or ["nothing"]
    visitor.close(selector)
    return visitor.ready_after, last[0]


def measure(name, flood, binary, args):
    server, port, data = start_server(binary)
    try:
        time.sleep(0.5)
        stop = threading.Event()
        counts = {"connections": 0, "refused": 0, "answered": 0, "closed": 0}
        cpu = TreeCPU([server.pid]).start()
        threads = flood(port, args, stop, counts)
        time.sleep(args.visitor_after)
        waited, last = visitor_during(port, args.seconds - args.visitor_after)
        remaining = args.seconds - (time.monotonic() - cpu.started)
        if remaining > 0:
            time.sleep(remaining)
        stop.set()
        seconds, elapsed = cpu.stop()
        for thread in threads:
            thread.join(10)
        return {"name": name, "cpu": seconds, "elapsed": elapsed, "counts": counts, "visitor": waited, "last": last}
    finally:
        server.terminate()
        server.wait(20)
        shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--only", choices=["signatures", "handshakes"])
    parser.add_argument("--seconds", type=float, default=15, help="how long each flood runs")
    parser.add_argument("--visitor-after", type=float, default=3, help="seconds into the flood the visitor connects")
    parser.add_argument("--connections", type=int, default=8, help="signature flood: connections at once from its one address")
    parser.add_argument("--attempts", type=int, default=1000, help="signature flood: signed requests per connection")
    parser.add_argument("--stalled", type=int, default=300, help="handshake flood: stalled connections, one per address")
    args = parser.parse_args()
    binary = binary_path(args.binary)
    print(f"binary {binary}; {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}; {args.seconds:.0f} s each")
    results = []
    if args.only != "handshakes":
        results.append(measure(f"signatures: {args.connections} connections × {args.attempts} from one address", flood_signatures, binary, args))
    if args.only != "signatures":
        results.append(measure(f"handshakes: {args.stalled} stalled from {args.stalled} addresses", flood_handshakes, binary, args))
    print("| flood | server CPU | per attacking connection | attacking connections (refused) | failures answered | visitor to sign-in |")
    print("|---|---|---|---|---|---|")
    for r in results:
        c = r["counts"]
        per = r["cpu"] / max(1, c["connections"]) * 1000
        visitor = f"{r['visitor']:.2f} s" if r["visitor"] is not None else f"no ({r['last'][:60]})"
        print(f"| {r['name']} | {r['cpu']:.2f} s in {r['elapsed']:.1f} s ({r['cpu'] / r['elapsed'] * 100:.0f} % of a core) | {per:.1f} ms "
              f"| {c['connections']} ({c['refused']}) | {c['answered']} | {visitor} |")


if __name__ == "__main__":
    main()
