"""Drives the real authdeck binary in tmux, as a person at a terminal would."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import uuid

import pytest

from authdeck_binary import authdeck_binary


# A tmux server of our own: a developer's tmux, or another test run on the machine, can
# neither see these sessions nor kill them.
TMUX = ["tmux", "-L", f"authdeck-e2e-{os.getpid()}"]


class Console:
    """One tmux session running authdeck; `screen()` is what a person would see."""

    def __init__(self, data_dir, width=100, height=30, extra_args=(), env=None, command=None):
        self.name = f"authdeck-e2e-{uuid.uuid4().hex[:8]}"
        self.data_dir = data_dir
        self.width, self.height = width, height
        self.extra_args = list(extra_args)
        self.env = dict(env or {})
        # Another program in the pane instead of authdeck (an ssh client, say).
        self.command = command

    def start(self):
        # tmux 3.3 does not always record a dead pane's status, so the shell writes it down.
        self.exit_file = os.path.join(tempfile.gettempdir(), f"{self.name}.exit")
        assignments = [f"{name}={value}" for name, value in self.env.items()]
        program = self.command or [authdeck_binary(), "--data", self.data_dir, *self.extra_args]
        command = " ".join(shlex.quote(part) for part in [*(["env", *assignments] if assignments else []), *program])
        new_session = [*TMUX, "new-session", "-d", "-x", str(self.width), "-y", str(self.height),
                       "-s", self.name, f"{command}; echo $? > {shlex.quote(self.exit_file)}; sleep 60"]
        # Killing the last session makes the tmux server exit; a session started in that moment is
        # refused, so try again once the old server is gone.
        for attempt in range(3):
            if subprocess.run(new_session, capture_output=True).returncode == 0:
                return self
            time.sleep(0.3)
        subprocess.run(new_session, check=True)
        return self

    def screen(self):
        return subprocess.run([*TMUX, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True, check=True).stdout

    def keys(self, *keys):
        subprocess.run([*TMUX, "send-keys", "-t", self.name, *keys], check=True)
        if keys and keys[-1] == "Escape":
            # A key within the escape delay (25 ms) after ESC reads as Alt with it, which the
            # console ignores (ESC q must not quit): a person's next key never comes that fast.
            time.sleep(0.1)

    def type(self, text):
        subprocess.run([*TMUX, "send-keys", "-t", self.name, "-l", text], check=True)

    def wait_for(self, pattern, timeout=15.0):
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            match = re.search(pattern, text)
            if match:
                return match
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {pattern!r}; screen was:\n{text}")
            time.sleep(0.1)

    def wait_exit(self, timeout=10.0):
        """The exit status once authdeck has ended."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(self.exit_file):
                with open(self.exit_file, encoding="utf-8") as f:
                    status = f.read().strip()
                if status:
                    return status
            time.sleep(0.1)
        raise AssertionError(f"authdeck did not exit; screen was:\n{self.screen()}")

    def pid(self):
        """The authdeck process of this session: the child of the pane's shell (not any authdeck on the machine)."""
        shell = subprocess.run([*TMUX, "display-message", "-p", "-t", self.name, "#{pane_pid}"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return int(subprocess.run(["pgrep", "-P", shell, "-x", "authdeck"], capture_output=True, text=True).stdout.split()[0])

    def resize(self, width, height):
        subprocess.run([*TMUX, "resize-window", "-t", self.name, "-x", str(width), "-y", str(height)], check=True)

    def kill(self):
        subprocess.run([*TMUX, "kill-session", "-t", self.name], capture_output=True)
        if os.path.exists(self.exit_file):
            os.remove(self.exit_file)


@pytest.fixture(scope="session", autouse=True)
def tmux_server():
    """Keeps the private tmux server up while no session exists: otherwise killing a test's last
    session races with starting the next one ("server exited unexpectedly")."""
    subprocess.run([*TMUX, "start-server", ";", "set-option", "-g", "exit-empty", "off"], check=True)
    yield


@pytest.fixture
def data_dir():
    path = tempfile.mkdtemp(prefix="authdeck-e2e-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def console(data_dir):
    started = []

    def launch(data=None, **kwargs):
        c = Console(data or data_dir, **kwargs).start()
        started.append(c)
        return c

    yield launch
    for c in started:
        c.kill()


class Server:
    """`authdeck serve --port 0` as a child process; `address` is HOST:PORT from its first line."""

    def __init__(self, data_dir, extra_args=(), env=None):
        self.data_dir = data_dir
        self.process = subprocess.Popen([authdeck_binary(), "serve", "--port", "0", "--data", data_dir, *extra_args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
        self.line = self.process.stdout.readline()
        match = re.search(r"listening on http://(127\.0\.0\.1:(\d+)) ", self.line)
        if not match:
            self.process.kill()
            status = self.process.wait()
            raise AssertionError(f"authdeck serve did not announce its address: {self.line!r}, "
                                 f"exit status {status}, stderr {self.process.stderr.read()!r}")
        self.address, self.port = match.group(1), int(match.group(2))
        self.url = f"http://{self.address}"

    def stop(self, sig=signal.SIGTERM, timeout=10):
        """Signals the server and returns its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout)


@pytest.fixture
def served():
    """Starts `authdeck serve` on a free port in a fresh data directory; stops it afterwards."""
    started = []

    def launch(extra_args=(), data=None, env=None):
        server = Server(data or tempfile.mkdtemp(prefix="authdeck-serve-"), extra_args, env)
        started.append(server)
        return server

    yield launch
    for server in started:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
    for data in {server.data_dir for server in started}:
        shutil.rmtree(data, ignore_errors=True)


def pytest_sessionfinish(session, exitstatus):
    subprocess.run([*TMUX, "kill-server"], capture_output=True)
