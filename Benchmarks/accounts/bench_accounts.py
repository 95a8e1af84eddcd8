"""The accounts benchmark (not a timed test): import, open, filter and export rates of the
operator's accounts path at 100,000 and 1,000,000 accounts.

For each size it writes a firebase auth:export JSON file, imports it with `authdeck accounts import`
into a fresh data directory, then runs the console on it (embedded backend) in an 80×24
pseudo-terminal and times, on the screen as a terminal emulator (pyte) draws it, `A` until the
first row shows and each filter keystroke until its first rows show, and until its count follows; then serves the
directory with `authdeck serve` and times what the table asks for over HTTP (AuthAdmin's
`accounts:query` calls), then exports with `authdeck accounts export`. Measures, asserts nothing.
"""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import pyte
import requests

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench import Pty  # noqa: E402  (the console benchmarks' pseudo-terminal)

DAY_MS = 86_400_000


def write_users(path, count, now_ms):
    """70% email accounts (a third unverified, 1% disabled), 20% anonymous of 0–29 days, 10% phone."""
    rng = random.Random(count)
    with open(path, "w") as out:
        out.write('{"users": [\n')
        for index in range(count):
            kind = index % 10
            user = {"localId": f"uid{index:07d}", "createdAt": str(now_ms - rng.randrange(29 * DAY_MS))}
            if kind < 7:
                user.update(email=f"user{index}@example.com", emailVerified=index % 3 != 0, disabled=index % 100 == 0,
                            displayName=f"User {index}", lastSignedInAt=str(now_ms - rng.randrange(10 * DAY_MS)))
            elif kind == 9:
                user.update(phoneNumber=f"+1555{index:07d}")
            out.write(("" if index == 0 else ",\n") + json.dumps(user))
        out.write("\n]}\n")


def run(binary, *args):
    started = time.perf_counter()
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"{' '.join(args[:2])} failed: {result.stderr[-2000:]}")
    return elapsed


class Served:
    def __init__(self, binary, data):
        # The data's own project: `accounts import` made the directory.
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--data", data],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(120)
        match = re.search(r"listening on http://(\S+) for project (\S+) ", lines[0] if lines else "")
        if not match:
            self.process.kill()
            sys.exit(f"authdeck serve did not start: {self.process.stderr.read()}")
        self.url = f"http://{match.group(1)}/identitytoolkit.googleapis.com/v1/projects/{match.group(2)}/accounts:query"
        self.session = requests.Session()
        self.session.headers["Authorization"] = "Bearer owner"

    def query(self, body):
        response = self.session.post(self.url, json=body, timeout=600)
        response.raise_for_status()
        return response.json()

    def table_view(self, authdeck_filter=None):
        """What the table asks for on open and on each keystroke: the count and the first page."""
        started = time.perf_counter()
        extra = {"authdeckFilter": authdeck_filter} if authdeck_filter else {}
        count = self.query({"returnUserInfo": False, **extra})
        page = self.query({"limit": "50", "sortBy": "CREATED_AT", "order": "DESC", **extra})
        return time.perf_counter() - started, int(count["recordsCount"]), len(page.get("userInfo", []))

    def stop(self):
        self.process.terminate()
        self.process.wait(60)


class Screen:
    """The console's pty output drawn by a terminal emulator, so a frame is read as a person sees it."""

    def __init__(self, pty):
        self.pty = pty
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.fed = 0

    def text(self):
        self.stream.feed(bytes(self.pty.output[self.fed:]))
        self.fed = len(self.pty.output)
        return "\n".join(self.screen.display)

    def wait_for(self, pattern, timeout=600.0):
        """Seconds until `pattern` is on the screen."""
        started = time.perf_counter()
        while not re.search(pattern, self.text()):
            if time.perf_counter() - started > timeout or self.pty.read_available(0.002) < 0:
                raise RuntimeError(f"{pattern!r} never showed; the screen was:\n{self.text()}")
        return time.perf_counter() - started

    def press(self, key, pattern):
        self.pty.send(key)
        return self.wait_for(pattern)


def console_view(binary, data, count):
    """Open-to-first-row and filter-keystroke-to-rows and -to-count in the console on the embedded backend."""
    pty = Pty([binary, "--data", data, "--no-color"])
    screen = Screen(pty)
    try:
        screen.wait_for(r"Choose a sign-in method")
        time.sleep(0.5)
        opened = screen.press(b"A", r"(accounts in all|counting…) · [\s\S]*\n +> \S")
        print(f"  console: A to first row      {milliseconds(opened)}  ({count:,} accounts, embedded backend)")
        screen.press(b"/", r"/ ")
        typed = ""
        for character in "user12":
            typed += character
            shown = screen.press(character.encode(), r"filter: \"" + re.escape(typed) + r"\"[\s\S]*\n +> \S")
            counted = shown + screen.wait_for(r"\d accounts? match · filter: \"" + re.escape(typed) + r"\"")
            matched = re.search(r"([\d,]+) accounts? match", screen.text()).group(1)
            print(f"  console: keystroke {typed!r:10} to rows {milliseconds(shown)}, to count {milliseconds(counted)}  ({matched} match)")
    finally:
        pty.stop()


def milliseconds(seconds):
    return f"{seconds * 1000:8.1f} ms"


def bench(binary, count, keep):
    directory = tempfile.mkdtemp(prefix=f"authdeck-bench-{count}-")
    try:
        data = os.path.join(directory, "data")
        source = os.path.join(directory, "users.json")
        write_users(source, count, int(time.time() * 1000))
        imported = run(binary, "accounts", "import", source, "--data", data)
        print(f"\n{count:,} accounts")
        print(f"  import (JSON, no hashes)      {count / imported:12,.0f} accounts/s  ({imported:.1f} s)")
        console_view(binary, data, count)

        served = Served(binary, data)
        try:
            cold, total, rows = served.table_view()
            warm = statistics.median(served.table_view()[0] for _ in range(5))
            print(f"  open: count + first page     {milliseconds(cold)} cold, {milliseconds(warm)} warm  ({total:,} accounts, {rows} rows)")
            for text in ["u", "us", "use", "user", "user1", "user12", "user123", "USER1234", "+1555", "uid00042"]:
                times = [served.table_view({"prefix": text}) for _ in range(3)]
                print(f"  filter keystroke {text!r:12} {milliseconds(statistics.median(t[0] for t in times))}  ({times[0][1]:,} match)")
            for name, chips in [("anonymous", {"anonymous": True}), ("disabled", {"disabled": True}),
                                ("unverified", {"emailVerified": False}), ("provider phone", {"providerId": "phone"}),
                                ("anonymous > 7 days", {"anonymous": True, "createdBefore": str(int(time.time() * 1000) - 7 * DAY_MS)})]:
                elapsed, matched, _ = served.table_view(chips)
                print(f"  chip {name:22}  {milliseconds(elapsed)}  ({matched:,} match)")
            deep = time.perf_counter()
            served.query({"limit": "50", "offset": str(max(count - 100, 0)), "sortBy": "CREATED_AT", "order": "DESC"})
            print(f"  last page (offset {max(count - 100, 0):,})      {milliseconds(time.perf_counter() - deep)}")
        finally:
            served.stop()

        for fmt in ["json", "csv"]:
            target = os.path.join(directory, f"export.{fmt}")
            exported = run(binary, "accounts", "export", target, "--data", data)
            print(f"  export ({fmt})                {count / exported:12,.0f} accounts/s  ({exported:.1f} s)")
    finally:
        if keep:
            print(f"  kept {directory}")
        else:
            shutil.rmtree(directory, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the authdeck binary (a release build)")
    parser.add_argument("--counts", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--keep", action="store_true", help="keep the data directories")
    options = parser.parse_args()
    for count in options.counts:
        bench(options.bin, count, options.keep)


if __name__ == "__main__":
    main()
