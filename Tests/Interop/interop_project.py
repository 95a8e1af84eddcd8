"""What the interop suite serves: the project, the API key its REST calls send, and `authdeck serve`
itself. A module of its own (not conftest), so that `pytest Tests/Interop Tests/EndToEnd` imports
these and not the other suite's conftest."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

PROJECT_ID = "authdeck-interop"
API_KEY = "interop-api-key"

# The binary under test is found as the end-to-end suite finds it.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "EndToEnd"))
from authdeck_binary import authdeck_binary  # noqa: E402


class Server:
    """`authdeck serve --port 0` on a fresh data directory; `host` is what FIREBASE_AUTH_EMULATOR_HOST takes."""

    def __init__(self, *extra_arguments):
        self.data_dir = tempfile.mkdtemp(prefix="authdeck-interop-")
        self.process = subprocess.Popen(
            [authdeck_binary(), "serve", "--port", "0", "--project", PROJECT_ID, "--data", self.data_dir, *extra_arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self._first_line(timeout=60)
        match = re.search(r"listening on http://(\S+) for project (\S+)", line)
        assert match, f"unexpected first line from authdeck serve: {line!r}"
        self.host = match.group(1)
        assert match.group(2) == PROJECT_ID
        self.base = f"http://{self.host}"

    def _first_line(self, timeout):
        lines = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not lines or not lines[0]:
            self.process.kill()
            raise AssertionError(f"authdeck serve did not announce its port: {self.process.stderr.read()}")
        return lines[0]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=20)
        finally:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        assert code == 0, f"authdeck serve exited with {code}: {self.process.stderr.read()}"
