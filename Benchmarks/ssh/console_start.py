#!/usr/bin/env python3
"""What one visitor's console costs `authdeck ssh`, measured on the console itself: its CPU time
and page faults from its start to the sign-in screen, and its private memory at rest there; plus
the share of the process that started it (the fork server, where there is one).

Visitors connect one after another (each waits for the previous one's sign-in screen), so the
figures are a console's own, not a burst's. Each binary given runs in turn, `--rounds` times,
interleaved, so that a busy machine moves them alike.

Usage: python3 Benchmarks/ssh/console_start.py --binary PATH [--binary PATH …] [--visitors 20] [--rounds 2]
Not a test: it prints a table, and asserts nothing.
"""
import argparse
import fcntl
import os
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import tempfile
import termios
import time

CLIENT = ["sshpass", "-p", "", "ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
          "-o", "LogLevel=ERROR", "-o", "PubkeyAuthentication=no", "-tt"]
SCREEN = b"Choose a sign-in method"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def connect(port):
    """`ssh` on a pty of its own (80×24), once its console shows the sign-in screen; None if it never does."""
    master, slave = os.openpty()
    os.set_blocking(master, False)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(CLIENT + ["-p", str(port), "demo@127.0.0.1"], stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    while SCREEN not in re.sub(rb"\x1b\[[0-9;?]*[ -/]*[@-~]", b"", seen) and time.monotonic() < deadline:
        if select.select([master], [], [], 1)[0]:
            try:
                seen = (seen + os.read(master, 65536))[-20000:]
            except OSError:
                break
    return process, master


def proc_stat(pid):
    """(minor faults, CPU seconds) of a process, its ended threads included."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[7]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rollup(pid, name):
    with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as f:
        return int(re.search(rf"^{name}:\s+(\d+) kB", f.read(), re.M).group(1))


def children(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(child) for child in out.split()]


def comm(pid):
    with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
        return f.read().strip()


def run(binary, visitors):
    data = tempfile.mkdtemp(prefix="authdeck-bench-start-")
    server = subprocess.Popen([binary, "ssh", "--host", "127.0.0.1", "--port", "0", "--data", data, "--max-sessions", str(visitors + 5),
                               "--max-sessions-per-address", str(visitors + 5)], stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+), host key", server.stdout.readline()).group(1))
    open_visitors, consoles = [], []
    try:
        forker = None
        for _ in range(visitors):
            before = set(children(server.pid))
            open_visitors.append(connect(port))
            new = [pid for pid in children(server.pid) if pid not in before]
            forker = forker or next((pid for pid in children(server.pid) if comm(pid) == "authdeck-forker"), None)
            consoles += [pid for pid in new if comm(pid) != "authdeck-forker"]
            if forker and len(consoles) == 1:
                forker_start = proc_stat(forker)
        # At rest: a second for the consoles' services to open.
        time.sleep(1)
        faults, cpu, dirty = zip(*[(*proc_stat(pid), rollup(pid, "Private_Dirty")) for pid in consoles])
        share = None
        if forker:
            end = proc_stat(forker)
            share = ((end[0] - forker_start[0]) / (len(consoles) - 1), (end[1] - forker_start[1]) / (len(consoles) - 1))
        return statistics.median(faults), statistics.mean(cpu) * 1000, statistics.median(dirty), share
    finally:
        for process, master in open_visitors:
            process.kill()
            process.wait()
            os.close(master)
        server.send_signal(signal.SIGTERM)
        server.wait(20)
        shutil.rmtree(data, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append", required=True)
    parser.add_argument("--visitors", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print("| binary | round | page faults (median) | CPU to sign-in (mean) | private dirty at rest (median) | fork server per console |")
    print("|---|---|---|---|---|---|")
    for round_number in range(1, args.rounds + 1):
        for binary in args.binary:
            faults, cpu, dirty, share = run(binary, args.visitors)
            forked = f"{share[0]:.0f} faults, {share[1] * 1000:.1f} ms" if share else "none"
            print(f"| {binary} | {round_number} | {faults:.0f} | {cpu:.1f} ms | {dirty / 1024:.2f} MiB | {forked} |", flush=True)


if __name__ == "__main__":
    main()
