"""Runs the real `authdeck serve` and points the Firebase Admin SDK for Python at it, as a
developer would with FIREBASE_AUTH_EMULATOR_HOST; client-side calls go over REST with requests."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import uuid

import firebase_admin
import pytest
import requests

from interop_project import API_KEY, PROJECT_ID

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


class Rest:
    """What an app does over REST (API key, no admin rights)."""

    def __init__(self, base):
        self.base = base

    def post(self, path, body=None, **kwargs):
        return requests.post(f"{self.base}/{path}", params={"key": API_KEY}, json=body, timeout=30, **kwargs)

    def sign_in(self, email, password):
        response = self.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                             {"email": email, "password": password, "returnSecureToken": True})
        assert response.status_code == 200, response.text
        return response.json()

    def sign_in_error(self, email, password):
        response = self.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                             {"email": email, "password": password, "returnSecureToken": True})
        assert response.status_code == 400, response.text
        return response.json()["error"]["message"]

    def sign_up(self, email, password):
        response = self.post("identitytoolkit.googleapis.com/v1/accounts:signUp",
                             {"email": email, "password": password, "returnSecureToken": True})
        assert response.status_code == 200, response.text
        return response.json()

    def refresh(self, refresh_token):
        """The token endpoint with a form body, as the JS SDK sends it."""
        return requests.post(f"{self.base}/securetoken.googleapis.com/v1/token", params={"key": API_KEY},
                             data={"grant_type": "refresh_token", "refresh_token": refresh_token}, timeout=30)


@pytest.fixture(scope="session")
def server():
    running = Server()
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = running.host
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"interop-{uuid.uuid4().hex[:6]}")
    running.app = app
    yield running
    firebase_admin.delete_app(app)
    running.stop()


@pytest.fixture
def app(server):
    return server.app


@pytest.fixture
def rest(server):
    return Rest(server.base)


@pytest.fixture
def unique():
    """A fresh email-safe name per test, so tests share one server without colliding."""
    return lambda prefix: f"{prefix}-{uuid.uuid4().hex[:10]}"
