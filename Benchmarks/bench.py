#!/usr/bin/env python3
"""AuthDeck's benchmarks, each beside a reference measured in the same run.

Run through `bash Benchmarks/run.sh`, which builds what is measured (Benchmarks/README.md). Every measure is repeated,
AuthDeck and its reference interleaved, and the table shows medians. The console is driven in
a pseudo-terminal of 80×24, as a person's terminal would; the server with wrk over loopback.
"""
import argparse
import base64
import hashlib
import http.client
import json
import multiprocessing
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
API = "/identitytoolkit.googleapis.com/v1"
KEY = "?key=benchmark"
VISITOR_PROJECT = "guest-0123456789ab"
# Firebase's scrypt parameters (ModifiedScrypt: N = 2^memCost, r = rounds, p = 1, 64 bytes).
SCRYPT = dict(n=1 << 14, r=8, p=1, maxmem=64 * 1024 * 1024, dklen=64)
DOWN, UP = b"\x1bOB", b"\x1bOA"  # what xterm sends for the arrows in keypad mode
SIGNING_KEYS = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"


# MARK: - A program in a pseudo-terminal

class Pty:
    """A process on its own pseudo-terminal; `wait_for` reads its output until a marker shows."""

    def __init__(self, argv, env=None, cols=80, rows=24):
        import fcntl
        import struct
        import termios
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        environment = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
        environment.update(TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        environment.update(env or {})
        self.started = time.perf_counter()
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=environment,
                                        start_new_session=True, close_fds=True)
        os.close(slave)
        self.fd = master
        self.output = bytearray()

    def read_available(self, timeout):
        import select
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return 0
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:
            return -1
        self.output += chunk
        return len(chunk)

    def wait_for(self, marker, timeout=30.0):
        """Seconds since the start when `marker` was first written."""
        deadline = time.perf_counter() + timeout
        while marker not in self.output:
            if time.perf_counter() > deadline or self.read_available(deadline - time.perf_counter()) < 0:
                raise RuntimeError(f"{marker!r} never appeared; output ended with {bytes(self.output[-300:])!r}")
        return time.perf_counter() - self.started

    def settle(self, quiet=0.03, limit=5.0):
        """Reads until nothing has come for `quiet` seconds; the bytes read."""
        total = 0
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            count = self.read_available(quiet)
            if count <= 0:
                break
            total += count
        return total

    def cpu_seconds(self):
        """CPU time of every thread of the process so far (the scheduler's nanoseconds)."""
        total = 0
        for task in os.listdir(f"/proc/{self.process.pid}/task"):
            with open(f"/proc/{self.process.pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9

    def private_memory_mb(self):
        fields = {}
        with open(f"/proc/{self.process.pid}/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0].endswith(":"):
                    fields[parts[0][:-1]] = int(parts[1])
        # Dirty only: private clean pages are the binary's code, shared once a second console runs.
        return fields.get("Private_Dirty", 0) / 1024

    def send(self, data):
        os.write(self.fd, data)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.close(self.fd)


def dialog_menu():
    """dialog's menu of 20 items, labels as long as the console's sign-in methods."""
    items = []
    for number in range(1, 21):
        items += [str(number), f"Choice {number:02d} of the sign-in menu"]
    return ["dialog", "--menu", "Choose a sign-in method", "24", "60", "16", *items]


# First-frame targets: the files in the page cache (warm), and evicted from it (cold).
WARM, COLD = 1.1, 1.2
DIALOG_MARKER = b"Choice 16"  # the last item that fits: the menu is drawn
CONSOLE_MARKER = b"sign-in method"  # "Choose a sign-in method": the first screen that takes keys


def console(authdeck, data):
    return [authdeck, "--data", data]


def program_files(argv):
    """The files a start of `argv[0]` reads: the program, the shared libraries the loader maps for it
    (as `ldd` lists them) and the terminal description both programs read."""
    program = shutil.which(argv[0]) or argv[0]
    listing = subprocess.run(["ldd", program], capture_output=True, text=True).stdout
    libraries = re.findall(r"(/\S+) \(0x", listing)
    return [os.path.realpath(path) for path in [program, *libraries, *terminal_description()] if os.path.exists(path)]


def terminal_description():
    for folder in ("/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"):
        path = os.path.join(folder, "x", "xterm")
        if os.path.exists(path):
            return [path]
    return []


def mapping_processes(path):
    """Other processes that have `path` mapped: its pages stay in the page cache while they run."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/maps") as f:
                if path in f.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


def evict(paths):
    """Drops the files' pages from the page cache, so that the next start reads them from the disk.
    Pages another process has mapped stay (glibc's, which every process maps): for both programs alike."""
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


# MARK: - Console measures

def first_frame(argv, marker):
    p = Pty(argv)
    try:
        return p.wait_for(marker) * 1000
    finally:
        p.stop()


def per_key(argv, marker, presses):
    """CPU milliseconds and bytes written per arrow key (↓ and ↑ in turn, one frame each)."""
    p = Pty(argv)
    try:
        p.wait_for(marker)
        p.settle(0.2)
        for key in (DOWN, UP):  # the first presses may build what later ones reuse
            p.send(key)
            p.settle()
        cpu = p.cpu_seconds()
        written = 0
        for index in range(presses):
            p.send(DOWN if index % 2 == 0 else UP)
            written += p.settle()
        return (p.cpu_seconds() - cpu) * 1000 / presses, written / presses
    finally:
        p.stop()


def idle_memory(argv, marker, sign_in):
    p = Pty(argv)
    try:
        p.wait_for(marker)
        if sign_in:
            p.send(b"\r")  # the first method: anonymous
            p.wait_for(b"ANONYMOUS")
        p.settle(0.2)
        time.sleep(1.0)
        return p.private_memory_mb()
    finally:
        p.stop()


# MARK: - Server measures

class Serve:
    def __init__(self, authdeck, data, extra=()):
        self.process = subprocess.Popen([authdeck, "serve", "--port", "0", "--data", data, *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"serve did not start: {line!r}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def call(self, path, body, headers=None, form=False):
        data = body.encode() if form else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded" if form else "application/json", **(headers or {})})
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class ReferenceServer:
    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"listening on (\d+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"the reference server did not start: {line!r}")
        self.url = f"http://127.0.0.1:{match.group(1)}"

    def stop(self):
        self.process.kill()
        self.process.wait()


def lua_bodies(path, bodies, content_type, scratch):
    """A wrk script that posts `bodies` in turn to `path`."""
    script = os.path.join(scratch, f"bodies-{len(os.listdir(scratch))}.lua")
    quoted = ",\n".join("[==[" + body + "]==]" for body in bodies)
    with open(script, "w") as f:
        f.write(f"""
local bodies = {{
{quoted}
}}
local counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "{content_type}"
request = function()
  counter = counter + 1
  return wrk.format(nil, "{path}", nil, bodies[(counter % #bodies) + 1])
end
""")
    return script


def wrk(url, script, connections, seconds, latency=False):
    """Requests per second (and the p99 in milliseconds with `latency`); refuses failed requests."""
    threads = min(2, connections)
    argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "-s", script]
    output = subprocess.run(argv + (["--latency"] if latency else []) + [url], capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise RuntimeError(f"wrk saw {errors.group(1)} failed requests:\n{output}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    if not latency:
        return rate
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)\b", output).groups()
    return rate, float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def openssl_rsa_signs():
    """RS256's floor: RSA-2048 signatures per second on every core."""
    cores = os.cpu_count() or 1
    output = subprocess.run(["openssl", "speed", "-seconds", "2", "-multi", str(cores), "rsa2048"],
                            capture_output=True, text=True, check=True).stdout
    rows = re.findall(r"rsa\s+2048 bits\s+[\d.]+s\s+[\d.]+s\s+([\d.]+)\s+[\d.]+", output)
    return float(rows[-1])


def scrypt_loop(seconds, counter):
    salt = secrets.token_bytes(16)
    deadline = time.perf_counter() + seconds
    count = 0
    while time.perf_counter() < deadline:
        hashlib.scrypt(b"correct horse", salt=salt, **SCRYPT)
        count += 1
    with counter.get_lock():
        counter.value += count


def raw_scrypt_rate(seconds, processes=2):
    """Hashes per second with Firebase's parameters, one process per core: sign-in's floor."""
    counter = multiprocessing.Value("i", 0)
    workers = [multiprocessing.Process(target=scrypt_loop, args=(seconds, counter)) for _ in range(processes)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return counter.value / (time.perf_counter() - started)


def batch_get_seconds(serve):
    connection = http.client.HTTPConnection("127.0.0.1", serve.port)
    started = time.perf_counter()
    token, users = "", 0
    while True:
        connection.request("GET", f"/identitytoolkit.googleapis.com/v1/projects/authdeck-local/accounts:batchGet?maxResults=1000"
                           f"&nextPageToken={token}", headers={"Authorization": "Bearer owner"})
        answer = json.loads(connection.getresponse().read())
        users += len(answer.get("users", []))
        token = answer.get("nextPageToken")
        if not token:
            break
    elapsed = time.perf_counter() - started
    connection.close()
    return elapsed, users


def batch_get_floor_seconds(database):
    """The same pages straight from SQLite and into JSON, in Python: the floor for batchGet."""
    db = sqlite3.connect(database)
    db.row_factory = sqlite3.Row
    started = time.perf_counter()
    token, users = "", 0
    while True:
        rows = db.execute("SELECT * FROM user WHERE localId > ? ORDER BY localId LIMIT 1000", (token,)).fetchall()
        if not rows:
            break
        ids = [row["localId"] for row in rows]
        marks = ",".join("?" * len(ids))
        providers = {}
        for provider in db.execute(f"SELECT * FROM provider WHERE localId IN ({marks}) ORDER BY providerId", ids):
            providers.setdefault(provider["localId"], []).append(
                {"providerId": provider["providerId"], "rawId": provider["rawId"], "email": provider["email"]})
        page = []
        for row in rows:
            user = {"localId": row["localId"], "email": row["email"], "emailVerified": bool(row["emailVerified"]),
                    "validSince": str(row["validSince"]), "createdAt": str(row["createdAt"]), "disabled": bool(row["disabled"]),
                    "providerUserInfo": providers.get(row["localId"], [])}
            if row["passwordHash"] is not None:
                user["passwordHash"] = base64.urlsafe_b64encode(row["passwordHash"]).decode()
                user["salt"] = base64.urlsafe_b64encode(row["salt"]).decode()
                user["passwordUpdatedAt"] = row["passwordUpdatedAt"]
            page.append(user)
        json.dumps({"kind": "identitytoolkit#DownloadAccountResponse", "users": page, "nextPageToken": ids[-1]}).encode()
        users += len(rows)
        token = ids[-1]
    elapsed = time.perf_counter() - started
    db.close()
    return elapsed, users


def add_accounts(data, count):
    """`count` password accounts written straight into the database, as an import would leave them."""
    now = int(time.time() * 1000)
    db = sqlite3.connect(os.path.join(data, "identity.sqlite"))
    users, providers = [], []
    for index in range(count):
        local_id = secrets.token_hex(14)
        email = f"user{index}@example.com"
        users.append((local_id, email, secrets.token_bytes(64), secrets.token_bytes(16), now, now // 1000, now - index))
        providers.append((local_id, "password", email, email))
    db.executemany("INSERT INTO user (localId, email, passwordHash, salt, passwordUpdatedAt, validSince, createdAt) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", users)
    db.executemany("INSERT INTO provider (localId, providerId, rawId, email) VALUES (?, ?, ?, ?)", providers)
    db.commit()
    db.close()


# MARK: - The run

class Results:
    def __init__(self):
        self.rows = {}

    def add(self, name, ours, reference, unit, target, better, reference_note=""):
        row = self.rows.setdefault(name, dict(ours=[], reference=[], unit=unit, target=target, better=better, note=reference_note))
        row["ours"].append(ours)
        row["reference"].append(reference)

    def table(self):
        lines = ["| measure | AuthDeck | reference | ratio | target | met |", "|---|---|---|---|---|---|"]
        for name, row in self.rows.items():
            ours, reference = statistics.median(row["ours"]), statistics.median(row["reference"])
            ratio = ours / reference if reference else float("inf")
            limit = row["target"]
            met = ratio <= limit if row["better"] == "lower" else ratio >= limit
            sign = "≤" if row["better"] == "lower" else "≥"
            lines.append(f"| {name} | {fmt(ours)} {row['unit']} | {fmt(reference)} {row['unit']}{row['note']} | {ratio:.2f}× "
                         f"| {sign} {limit:g}× | {'yes' if met else '**no**'} |")
        return "\n".join(lines)


def fmt(value):
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def machine():
    model = ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores, Linux {platform.release()}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--authdeck", required=True)
    parser.add_argument("--reference-server", required=True)
    parser.add_argument("--quick", action="store_true", help="one short repetition of everything: the suite still works")
    parser.add_argument("--build", default="release")
    parser.add_argument("--only", default="", help="comma-separated groups: console, serve, batch")
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    repetitions = 1 if args.quick else args.repetitions
    seconds = 1 if args.quick else 4
    presses = 20 if args.quick else 200
    frames = 1 if args.quick else 9
    accounts = 2_000 if args.quick else 100_000
    groups = set(args.only.split(",")) if args.only else {"console", "serve", "batch"}
    authdeck = args.authdeck
    cold_files = program_files([authdeck]) + program_files(dialog_menu())
    results = Results()
    scratch = tempfile.mkdtemp(prefix="authdeck-bench-")
    try:
        existing = os.path.join(scratch, "existing")
        many = os.path.join(scratch, "many")
        # Data directories: one used before, one with many accounts (created by a serve, then filled).
        # A backend makes its signing key when first asked for it: the published keys ask, so both
        # directories hold one, as any directory that has served a sign-in does.
        for data in (existing, many):
            serve = Serve(authdeck, data)
            try:
                with urllib.request.urlopen(serve.url + SIGNING_KEYS) as response:
                    response.read()
            finally:
                serve.stop()
        add_accounts(many, accounts)

        for repetition in range(repetitions):
            print(f"repetition {repetition + 1} of {repetitions}", file=sys.stderr)
            if "console" in groups:
                # A first frame takes a few milliseconds, and one such sample is mostly the machine's noise:
                # several pairs (AuthDeck, then dialog) per repetition, each pair one sample of the median.
                # Warm: the programs' files are in the page cache, as for every start after the first.
                for index in range(frames):
                    fresh = os.path.join(scratch, f"fresh-{repetition}-{index}")
                    results.add("first frame, new data directory", first_frame(console(authdeck, fresh), CONSOLE_MARKER),
                                first_frame(dialog_menu(), DIALOG_MARKER), "ms", WARM, "lower")
                for index in range(frames):
                    results.add("first frame, existing data directory", first_frame(console(authdeck, existing), CONSOLE_MARKER),
                                first_frame(dialog_menu(), DIALOG_MARKER), "ms", WARM, "lower")
                for index in range(frames):
                    results.add(f"first frame, {accounts:,} accounts", first_frame(console(authdeck, many), CONSOLE_MARKER),
                                first_frame(dialog_menu(), DIALOG_MARKER), "ms", WARM, "lower")
                # Cold: each start comes after both programs' files were dropped from the page cache.
                if mapping_processes(cold_files[0]):
                    print(f"note: another process runs {cold_files[0]}, so its cold starts are partly warm", file=sys.stderr)
                for index in range(frames):
                    fresh = os.path.join(scratch, f"cold-{repetition}-{index}")
                    evict(cold_files)
                    ours = first_frame(console(authdeck, fresh), CONSOLE_MARKER)
                    evict(cold_files)
                    results.add("first frame, cold, new data directory", ours, first_frame(dialog_menu(), DIALOG_MARKER), "ms", COLD, "lower")
                for index in range(frames):
                    evict(cold_files)
                    ours = first_frame(console(authdeck, existing), CONSOLE_MARKER)
                    evict(cold_files)
                    results.add("first frame, cold, existing data directory", ours, first_frame(dialog_menu(), DIALOG_MARKER), "ms", COLD,
                                "lower")
                ours_cpu, ours_bytes = per_key(console(authdeck, existing), CONSOLE_MARKER, presses)
                dialog_cpu, dialog_bytes = per_key(dialog_menu(), DIALOG_MARKER, presses)
                results.add("CPU per arrow key", ours_cpu, dialog_cpu, "ms", 1.1, "lower")
                results.add("bytes per arrow key", ours_bytes, dialog_bytes, "B", 1, "lower")
                signed_in = os.path.join(scratch, f"memory-{repetition}")
                results.add("private dirty memory, idle signed-in console", idle_memory(console(authdeck, signed_in), CONSOLE_MARKER, True),
                            8.0, "MB", 1, "lower", reference_note=" (budget)")
            if "serve" in groups:
                serve_measures(authdeck, args.reference_server, os.path.join(scratch, f"serve-{repetition}"), seconds, results, scratch)
            if "batch" in groups:
                serve = Serve(authdeck, many)
                try:
                    ours, users = batch_get_seconds(serve)
                finally:
                    serve.stop()
                floor, floor_users = batch_get_floor_seconds(os.path.join(many, "identity.sqlite"))
                assert users == floor_users == accounts, (users, floor_users, accounts)
                results.add(f"batchGet of {accounts:,} accounts", ours * 1000, floor * 1000, "ms", 1.5, "lower")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"\nAuthDeck benchmarks — {args.build} build, {'quick: one short repetition, a check that the suite runs, not a measurement' if args.quick else f'medians of {repetitions} interleaved repetitions ({frames} first frames of each kind per repetition)'}")
    print(f"Machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print(results.table())
    print("\nReferences: dialog --menu (20 items) for the console; 8 MB for memory; `openssl speed rsa2048` on every core "
          "for signUp and refresh; a bare Hummingbird 2 handler for lookup; lookup p99 beside 2 processes hashing scrypt "
          "(N=2^14, r=8) for lookup under load; Python's hashlib.scrypt on 2 processes for sign-in; SQLite plus JSON in "
          "Python for batchGet.")


def resident_mb(pid):
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        return int(re.search(r"^VmRSS:\s+(\d+) kB", f.read(), re.M).group(1)) / 1024


def stalled_bodies(serve, count):
    """`count` connections, each from an address of its own, that announce a 1 MB body, send 900 KB of
    it and stop: serve's resident memory growth while they are held, how long another request waits
    meanwhile, and the growth still held 5 s after they close."""
    before = resident_mb(serve.process.pid)
    sockets = []
    for n in range(count):
        connection = socket.create_connection(("127.0.0.1", serve.port), timeout=10, source_address=(f"127.4.{n // 250}.{n % 250 + 1}", 0))
        sockets.append(connection)
        try:
            connection.sendall(f"POST {API}/accounts:signUp{KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                               f"Content-Length: 1000000\r\n\r\n".encode() + b" " * 900_000)
        except OSError:
            pass  # closed by the server: over its body memory
    time.sleep(1)
    held = resident_mb(serve.process.pid) - before
    started = time.monotonic()
    serve.call(f"{API}/accounts:signUp{KEY}", {"returnSecureToken": True})
    other = (time.monotonic() - started) * 1000
    for connection in sockets:
        connection.close()
    time.sleep(5)
    return held, other, resident_mb(serve.process.pid) - before


def serve_measures(authdeck, reference_binary, data, seconds, results, scratch):
    serve = Serve(authdeck, data)
    reference = ReferenceServer(reference_binary)
    try:
        # The key a visitor's console is given: it reaches that project only. Asked once serve has made
        # the backend: the command reads a data directory, it makes none.
        visitor_key = subprocess.run([authdeck, "accounts", "projects", "--data", data, "--api-key", VISITOR_PROJECT],
                                     capture_output=True, text=True, check=True).stdout.strip()
        sessions = [serve.call(f"{API}/accounts:signUp{KEY}", {"returnSecureToken": True}) for _ in range(16)]
        password = serve.call(f"{API}/accounts:signUp{KEY}", {"email": "bench@example.com", "password": "correct horse",
                                                             "returnSecureToken": True})
        sign_up = lua_bodies(f"{API}/accounts:signUp{KEY}", ['{"returnSecureToken":true}'], "application/json", scratch)
        refresh = lua_bodies(f"/securetoken.googleapis.com/v1/token{KEY}",
                             [f"grant_type=refresh_token&refresh_token={s['refreshToken']}" for s in sessions],
                             "application/x-www-form-urlencoded", scratch)
        lookup = lua_bodies(f"{API}/accounts:lookup{KEY}", [json.dumps({"idToken": s["idToken"]}) for s in sessions],
                            "application/json", scratch)
        bare_lookup = lua_bodies("/lookup", [json.dumps({"idToken": s["idToken"]}) for s in sessions], "application/json", scratch)
        # A visitor's project beside the data directory's own, reached with its project key as a visitor's console reaches it.
        visitor_sessions = [serve.call(f"{API}/accounts:signUp?key={visitor_key}", {"returnSecureToken": True}) for _ in range(16)]
        visitor_lookup = lua_bodies(f"{API}/accounts:lookup?key={visitor_key}", [json.dumps({"idToken": s["idToken"]}) for s in visitor_sessions],
                                    "application/json", scratch)
        sign_in = lua_bodies(f"{API}/accounts:signInWithPassword{KEY}",
                             [json.dumps({"email": "bench@example.com", "password": "correct horse", "returnSecureToken": True})],
                             "application/json", scratch)
        del password

        rsa = openssl_rsa_signs()
        results.add("signUp, 16 clients", wrk(serve.url, sign_up, 16, seconds), rsa, "/s", 0.6, "higher")
        results.add("token refresh, 16 clients", wrk(serve.url, refresh, 16, seconds), rsa, "/s", 0.65, "higher")
        results.add("accounts:lookup, 16 clients", wrk(serve.url, lookup, 16, seconds), wrk(reference.url, bare_lookup, 16, seconds),
                    "/s", 0.6, "higher")
        results.add("accounts:lookup in a visitor's project, 16 clients", wrk(serve.url, visitor_lookup, 16, seconds),
                    wrk(reference.url, bare_lookup, 16, seconds), "/s", 0.6, "higher")
        # A few hashes at least, even in a quick run.
        hashing = max(seconds, 3)
        results.add("password sign-in, 2 clients", wrk(serve.url, sign_in, 2, hashing), raw_scrypt_rate(hashing), "/s", 0.95, "higher")

        # lookup's p99 while sign-ins keep both cores busy, beside the same load from outside processes.
        load = subprocess.Popen(["wrk", "-t2", "-c2", f"-d{seconds + 2}s", "-s", sign_in, serve.url],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
        _, under_sign_ins = wrk(serve.url, lookup, 1, seconds, latency=True)
        load.wait()
        counter = multiprocessing.Value("i", 0)
        outside = [multiprocessing.Process(target=scrypt_loop, args=(seconds + 1.5, counter)) for _ in range(2)]
        for process in outside:
            process.start()
        time.sleep(0.5)
        _, under_outside = wrk(serve.url, lookup, 1, seconds, latency=True)
        for process in outside:
            process.join()
        results.add("lookup p99 while 2 clients sign in", under_sign_ins, under_outside, "ms", 2, "lower")

        stalling = 20 if seconds < 2 else 200
        held, other, kept = stalled_bodies(serve, stalling)
        results.add(f"serve memory while {stalling} clients stall 1 MB bodies", held, 128, "MB", 1, "lower", " (budget)")
        results.add("a sign-up meanwhile", other, 100, "ms", 1, "lower", " (budget)")
        results.add("memory still held 5 s after they close", kept, max(held, 1), "MB", 0.5, "lower", " (held)")
    finally:
        serve.stop()
        reference.stop()


if __name__ == "__main__":
    main()
