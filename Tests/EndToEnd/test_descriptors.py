"""File descriptors are a budget: `authdeck serve` raises its soft limit to the hard one, keeps its open
projects within the limit, and answers 503 with Retry-After, never a 500, when it runs out."""
import http.client
import json
import re
import signal
import socket
import subprocess
import tempfile
import shutil
import time

import pytest

from authdeck_binary import authdeck_binary

PROJECTS = 60


def serve(data_dir, nofile, *args):
    process = subprocess.Popen(["prlimit", f"--nofile={nofile}", authdeck_binary(), "serve", "--port", "0", "--data", data_dir, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", line)
    if not match:
        process.kill()
        raise AssertionError(f"authdeck serve did not start: {line!r} {process.stderr.read()!r}")
    return process, int(match.group(1))


def stop(process):
    process.send_signal(signal.SIGTERM)
    return process.wait(20)


def open_limit(pid):
    with open(f"/proc/{pid}/limits", encoding="utf-8") as limits:
        line = next(line for line in limits if line.startswith("Max open files"))
    return [int(value) for value in line.split()[3:5]]


def request(connection, method, path, body=None):
    headers = {"Content-Type": "application/json", "Authorization": "Bearer owner"}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read()), response.getheader("Retry-After")


def create_account(connection, project, email="ada@example.com"):
    """An administrator's new account in `project`, which is made at its first request."""
    return request(connection, "POST", f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts",
                   {"email": email, "password": "secret-1"})


def look_up(connection, project, email="ada@example.com"):
    return request(connection, "POST", f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:lookup", {"email": [email]})


@pytest.fixture
def data_dir():
    path = tempfile.mkdtemp(prefix="authdeck-descriptors-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_the_soft_limit_is_raised_to_the_hard_one(data_dir):
    process, _ = serve(data_dir, "256:4096")
    try:
        assert open_limit(process.pid) == [4096, 4096]
    finally:
        assert stop(process) == 0


def test_more_projects_than_descriptors_allow_open_are_served_and_running_out_is_a_503(data_dir):
    process, port = serve(data_dir, "256:256", "--project-idle-timeout", "1", "--max-connections-per-address", "2000",
                          "--max-connections", "2000")
    statuses = []
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        # Far more projects than 256 descriptors hold open at once (each holds about five): the ones
        # unused longest close to make room, and open again when asked for.
        for index in range(PROJECTS):
            status, body, _ = create_account(connection, f"room-{index}-alpha")
            statuses.append(status)
            assert status == 200, body
        for index in range(PROJECTS):
            status, body, _ = look_up(connection, f"room-{index}-alpha")
            statuses.append(status)
            assert status == 200 and len(body["users"]) == 1, body
        status, listing, _ = request(connection, "GET", "/emulator/v1/projects")
        statuses.append(status)
        assert status == 200 and len(listing["projects"]) == PROJECTS + 1
        assert all(project["accounts"] == 1 for project in listing["projects"][1:])

        # Idle projects close after a second; then connections take every descriptor left.
        time.sleep(2.5)
        fillers = []
        for _ in range(300):
            filler = socket.create_connection(("127.0.0.1", port), timeout=5)
            fillers.append(filler)
        time.sleep(1)
        answers = [create_account(connection, "room-new-alpha"), look_up(connection, "room-3-alpha"),
                   request(connection, "GET", "/emulator/v1/projects")]
        for status, body, retry_after in answers:
            statuses.append(status)
            assert status == 503, body
            assert body["error"]["code"] == 503 and body["error"]["status"] == "UNAVAILABLE", body
            assert retry_after == "1"

        # Descriptors given back, the same requests are answered.
        for filler in fillers:
            filler.close()
        time.sleep(1.5)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        assert create_account(connection, "room-new-alpha")[0] == 200
        assert look_up(connection, "room-3-alpha")[0] == 200
        assert request(connection, "GET", "/emulator/v1/projects")[0] == 200
    finally:
        assert stop(process) == 0
    assert 500 not in statuses
