#!/usr/bin/env python3
"""`authdeck ssh` beside Debian's sshd running the recipe in assets/openssh, measured in one run
with a real OpenSSH client on a pty per visitor:

- burst: N visitors connect at once; time from starting `ssh` to the sign-in screen (p50, p99);
- next: with N open, one more visitor, several times (p50, p99);
- memory: proportional set size (PSS) of the server's whole process tree, per session;
- idle CPU: CPU time of that tree over an idle interval (30 s unless told, from 10 s after the burst),
  per session, in % of a core;
- server CPU per connection: the tree's CPU time during the burst, divided by N (what each visitor
  costs the server, beside what their own client costs the same cores);
- left over: console processes still running 10 s after every visitor has gone.

CPU time is read in nanoseconds: each process's CPU clock, the sum of its threads' run times
(/proc/PID/task/TID/schedstat), those that exited included; a process that exits counts through its
parent (`TreeCPU`). For the sshd route the tree is sshd's and `authdeck serve`'s, which serves its
consoles as the embedded backend serves `authdeck ssh`'s.

Each visitor connects from a loopback address of its own (127.3.0.0/16), on an 80×24 pty, so
the servers' per-address limits apply as they would to a room.

Usage (as root for the sshd route, which adds a user and starts sshd on a loopback port):
    python3 Benchmarks/ssh/bench.py [--sessions 50] [--next 10] [--idle 30] [--binary PATH]
The binary defaults to the release build (`swift build -c release --static-swift-stdlib --disable-local-rpath`, as
docs/guide.md builds it for the demo host), else the debug one.
Not a test: it prints a table, and asserts nothing.
"""
import argparse
import fcntl
import os
import re
import selectors
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREEN = re.compile(rb"Choose a sign-in method")
ANSI = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78M]|\][^\x07]*\x07)")
CLIENT = ["ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
          "-o", "LogLevel=ERROR", "-o", "PubkeyAuthentication=no", "-o", "ConnectTimeout=30", "-tt"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def binary_path(explicit):
    if explicit:
        return explicit
    for configuration in ("release", "debug"):
        path = subprocess.run(["swift", "build", "-c", configuration, "--show-bin-path"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip() + "/authdeck"
        if os.access(path, os.X_OK):
            return path
    raise SystemExit("build authdeck first: swift build -c release --static-swift-stdlib --disable-local-rpath")


class Visitor:
    """One `ssh` on a pty of its own (80×24) from an address of its own, read until the sign-in screen appears."""

    addresses = 0

    def __init__(self, command, selector):
        Visitor.addresses += 1
        number = Visitor.addresses
        command = command[:-1] + ["-b", f"127.3.{number // 250}.{number % 250 + 1}", command[-1]]
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
        os.close(slave)
        self.master = master
        self.output = b""
        self.ready_after = None
        os.set_blocking(master, False)
        selector.register(master, selectors.EVENT_READ, self)

    def read(self):
        try:
            chunk = os.read(self.master, 65536)
        except OSError:
            chunk = b""
        if self.ready_after is None:
            self.output += chunk
            if SCREEN.search(ANSI.sub(b"", self.output[-20000:])):
                self.ready_after = time.monotonic() - self.started
                self.output = b""
        return bool(chunk)

    def close(self, selector):
        try:
            selector.unregister(self.master)
        except (KeyError, ValueError):
            pass
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self.master)


def pump(selector, until, timeout):
    """Reads every visitor's output (clients must never block on a full pty) until `until()`."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise SystemExit("visitors did not reach the sign-in screen in time")
        for key, _ in selector.select(0.05):
            if not key.data.read():
                selector.unregister(key.fileobj)


def open_visitors(command, count, selector):
    visitors = [Visitor(command, selector) for _ in range(count)]
    pump(selector, lambda: all(v.ready_after is not None for v in visitors), 180)
    return visitors


def tree(pid):
    """pid and all its descendants."""
    pids, frontier = [pid], [pid]
    while frontier:
        children = subprocess.run(["pgrep", "-P", ",".join(map(str, frontier))], capture_output=True, text=True).stdout.split()
        frontier = [int(c) for c in children]
        pids += frontier
    return pids


def pss_kib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="utf-8") as f:
                total += int(re.search(r"^Pss:\s+(\d+) kB", f.read(), re.M).group(1))
        except (OSError, AttributeError):
            pass
    return total


def cpu_clock(pid):
    """The process's CPU clock (clock_getcpuclockid's CPUCLOCK_SCHED, made by hand): the kernel's
    sum of its threads' run times in ns, the first field of each /proc/PID/task/TID/schedstat,
    with those of threads that have exited."""
    return time.clock_gettime_ns(((~pid) << 3) | 2)


def reaped_ns(pid):
    """CPU time of the children the process has reaped (cutime + cstime: summed in ns by the
    kernel, shown in clock ticks)."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) * 1_000_000_000 // CLOCK_TICKS


class TreeCPU:
    """CPU time of the process trees under `roots` between `start()` and `stop()`, in ns.

    Each process counts by its CPU clock, which keeps the time of its threads that exit. A process
    born in the interval counts from zero; one that exits in it counts whole through its parent's
    reaped children's time (within a clock tick per parent), if its parent is in the tree.
    """

    def __init__(self, roots):
        self.roots = roots

    def read(self):
        counters = {}
        for pid in [p for root in self.roots for p in tree(root)]:
            try:
                counters[pid] = (cpu_clock(pid), reaped_ns(pid))
            except (OSError, IndexError):
                pass
        return counters

    def start(self):
        self.before = self.read()
        self.started = time.monotonic()
        return self

    def stop(self):
        """Seconds of CPU over the interval, and the interval's seconds."""
        after = self.read()
        elapsed = time.monotonic() - self.started
        ran = sum(own + reaped - sum(self.before.get(pid, (0, 0))) for pid, (own, reaped) in after.items())
        return ran / 1e9, elapsed


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def measure(name, roots, command, args):
    """`roots`: the server, and whatever else serves its consoles; their trees are measured together."""
    server_pid = roots[0]
    selector = selectors.DefaultSelector()
    baseline_pids = tree(server_pid)
    baseline = pss_kib(baseline_pids)
    connecting = TreeCPU(roots).start()
    burst = open_visitors(command, args.sessions, selector)
    burst_times = [v.ready_after for v in burst]
    connect_cpu = connecting.stop()[0] / args.sessions * 1000
    # Idle means after the start-up's tail: libdispatch's workers, in every console and server, leave after 5 s without work.
    settled = time.monotonic() + 10
    pump(selector, lambda: time.monotonic() > settled, 15)
    memory = (pss_kib(tree(server_pid)) - baseline) / args.sessions / 1024
    idling = TreeCPU(roots).start()
    idle_end = time.monotonic() + args.idle
    pump(selector, lambda: time.monotonic() > idle_end, args.idle + 5)
    idle_seconds, elapsed = idling.stop()
    idle_cpu = idle_seconds / elapsed / args.sessions * 100
    next_times = []
    for _ in range(args.next):
        visitor = open_visitors(command, 1, selector)[0]
        next_times.append(visitor.ready_after)
        visitor.close(selector)
        time.sleep(0.3)
    for visitor in burst:
        visitor.close(selector)
    # The server's own helpers (sshd's listener, a backend) were there before the first visitor.
    gone = time.monotonic() + 10
    while time.monotonic() < gone and len(tree(server_pid)) > len(baseline_pids):
        time.sleep(0.2)
    left_over = len(tree(server_pid)) - len(baseline_pids)
    return {"name": name, "burst": burst_times, "next": next_times, "memory": memory, "idle_cpu": idle_cpu,
            "left_over": left_over, "connect_cpu": connect_cpu}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def authdeck_ssh(binary, args):
    data = tempfile.mkdtemp(prefix="authdeck-bench-ssh-")
    # Room for the burst and the next visitors; each has an address of its own, so the per-address limits stay at their defaults.
    server = subprocess.Popen([binary, "ssh", "--host", "127.0.0.1", "--port", "0", "--data", data, "--max-sessions",
                               str(args.sessions + 10)], stdout=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+), host key", server.stdout.readline()).group(1))
    try:
        # A visitor without a key is asked for a password, and any (an empty one) lets them in.
        return measure("authdeck ssh", [server.pid], ["sshpass", "-p", ""] + CLIENT + ["-p", str(port), "demo@127.0.0.1"], args)
    finally:
        server.terminate()
        server.wait(20)
        shutil.rmtree(data, ignore_errors=True)


def openssh_recipe(binary, args):
    """Debian's sshd with assets/openssh/authdeck-visitors.conf, as Tests/EndToEnd/test_openssh_recipe.py sets it up."""
    user = f"adb{os.getpid() % 100000}"
    work = tempfile.mkdtemp(prefix="authdeck-bench-sshd-")
    os.chmod(work, 0o755)
    token = os.urandom(24).hex()
    serve = subprocess.Popen([binary, "serve", "--port", "0", "--data", os.path.join(work, "backend")], stdout=subprocess.PIPE,
                             text=True, env=dict(os.environ, AUTHDECK_ADMIN_TOKEN=token))
    address = re.search(r"http://(127\.0\.0\.1:\d+) ", serve.stdout.readline()).group(1)
    copy = os.path.join(work, "authdeck")
    shutil.copy(binary, copy)
    os.chmod(copy, 0o755)
    subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", user], check=True)
    subprocess.run(["passwd", "-d", user], check=True, capture_output=True)
    consoles = os.path.join(work, "consoles")
    os.mkdir(consoles, 0o700)
    shutil.chown(consoles, user, user)
    with open(os.path.join(ROOT, "assets", "openssh", "authdeck-visitors.conf"), encoding="utf-8") as f:
        snippet = f.read()
    snippet = re.sub(r"^Match User demo$", f"Match User {user}", snippet, flags=re.M).replace("/usr/local/bin/authdeck", copy)
    snippet = snippet.replace("127.0.0.1:9099", address).replace("/var/lib/authdeck-demo", consoles)
    snippet = snippet.replace("replace-with-the-token-of-authdeck-serve", token)
    port = free_port()
    key = os.path.join(work, "host_key")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    config = os.path.join(work, "sshd_config")
    with open(config, "w", encoding="utf-8") as f:
        # MaxStartups: sshd's default (10:30:100) would drop most of a burst of 50 unauthenticated connections.
        f.write(f"Port {port}\nListenAddress 127.0.0.1\nHostKey {key}\nPidFile {work}/sshd.pid\nUsePAM yes\n"
                f"KbdInteractiveAuthentication no\nMaxStartups {args.sessions + 10}\n" + snippet)
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
    sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    try:
        # The backend serves this route's consoles as the embedded one serves `authdeck ssh`'s: its CPU
        # is measured with sshd's tree (its memory is shown beside).
        result = measure("sshd + ForceCommand", [sshd.pid, serve.pid], CLIENT + ["-p", str(port), f"{user}@127.0.0.1"], args)
        serve_pss = pss_kib([serve.pid]) / 1024
        result["note"] = f"plus authdeck serve: {serve_pss:.1f} MiB in all"
        return result
    finally:
        sshd.terminate()
        sshd.wait(10)
        serve.terminate()
        serve.wait(10)
        subprocess.run(["pkill", "-KILL", "-u", user], capture_output=True)
        subprocess.run(["userdel", "--remove", user], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--next", type=int, default=10, help="how many times one more visitor joins the N open")
    parser.add_argument("--idle", type=float, default=30, help="seconds of idle CPU measurement")
    parser.add_argument("--binary")
    parser.add_argument("--only", choices=["authdeck", "sshd"])
    args = parser.parse_args()
    binary = binary_path(args.binary)
    print(f"binary {binary}; N = {args.sessions}; {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}")
    results = []
    if args.only != "sshd":
        results.append(authdeck_ssh(binary, args))
    if args.only != "authdeck":
        if os.geteuid() == 0 and os.path.exists("/usr/sbin/sshd"):
            results.append(openssh_recipe(binary, args))
        else:
            print("sshd route skipped: needs root and openssh-server")
    print(f"| route | burst of {args.sessions}: p50 / p99 | server CPU per connection | next visitor: p50 / p99 | memory per session "
          "| idle CPU per session | consoles left |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['name']} | {statistics.median(r['burst']):.2f} s / {percentile(r['burst'], 99):.2f} s | {r['connect_cpu']:.1f} ms "
              f"| {statistics.median(r['next']) * 1000:.0f} ms / {percentile(r['next'], 99) * 1000:.0f} ms "
              f"| {r['memory']:.1f} MiB | {r['idle_cpu']:.4f} % of a core | {r['left_over']} |" + (f" {r['note']}" if "note" in r else ""))
    ours = next((r for r in results if r["name"] == "authdeck ssh"), None)
    if ours is None:
        return
    sshd = next((r for r in results if r["name"] != "authdeck ssh"), None)
    targets = [("burst p99", percentile(ours["burst"], 99), 2.0, "s"), ("next visitor p99", percentile(ours["next"], 99) * 1000, 100, "ms"),
               ("memory per session", ours["memory"], 2.5, "MiB"), ("consoles left", ours["left_over"], 0, "")]
    if sshd is not None:
        targets.append(("idle CPU per session (sshd's)", ours["idle_cpu"], sshd["idle_cpu"], "%"))
    print()
    print("| authdeck ssh | figure | target | met |")
    print("|---|---|---|---|")
    for label, figure, target, unit in targets:
        print(f"| {label} | {figure:.4g} {unit} | ≤ {target:.4g} {unit} | {'yes' if figure <= target else '**no**'} |")

if __name__ == "__main__":
    main()
