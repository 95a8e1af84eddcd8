"""Only a data directory that never completed its first start is initialised again: a database that
completed it and was emptied or lost is refused at every start, and every file is left as it is."""
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from authdeck_binary import authdeck_binary
from conftest import Server

ADMIN = {"Authorization": "Bearer owner", "Content-Type": "application/json"}
REFUSED = "is empty, but this data directory has been used"
# The scenario of an operator's recovery drill, as many times as it once failed silently 5 times in 30.
REPETITIONS = 50


def post(url, path, body, headers=ADMIN):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), dict(error.headers)


def batch_create(server, project, round_number):
    users = [{"localId": f"uid-{round_number}-{index}", "email": f"user{index}@example.com"} for index in range(50)]
    status, body, _ = post(server.url, f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:batchCreate", {"users": users})
    assert status == 200 and not body.get("error"), body


def files(directory):
    """Every file's bytes by path, but the log, which the refusal is written to."""
    found = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            if os.path.relpath(path, directory) != "authdeck.log":
                with open(path, "rb") as file:
                    found[os.path.relpath(path, directory)] = file.read()
    return found


def start(data_dir):
    """A serve that may or may not start: (exit status or None if it is running, its first line, the process)."""
    process = subprocess.Popen([authdeck_binary(), "serve", "--port", "0", "--data", data_dir],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "listening on" in line:
        process.send_signal(signal.SIGTERM)
        process.wait(10)
        return None, line
    process.wait(20)
    return process.returncode, line + process.stderr.read()


def emptied_and_started(round_number):
    """One round: a new directory, an import, a stop at once, the database truncated, a start.
    Whether the start was refused with every file left as it was."""
    data_dir = tempfile.mkdtemp(prefix="authdeck-first-start-")
    try:
        server = Server(data_dir)
        batch_create(server, "authdeck-local", round_number)
        assert server.stop() == 0
        os.truncate(os.path.join(data_dir, "identity.sqlite"), 0)
        before = files(data_dir)
        status, output = start(data_dir)
        return status is not None and status != 0 and REFUSED in output and files(data_dir) == before
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def test_a_database_emptied_after_an_admin_import_is_refused_at_every_start():
    # Four rounds at a time, each on its own directory and port.
    with ThreadPoolExecutor(max_workers=4) as pool:
        refused = sum(pool.map(emptied_and_started, range(REPETITIONS)))
    assert refused == REPETITIONS, f"{REPETITIONS - refused} of {REPETITIONS} starts took an emptied database for a new one or changed a file"


def test_a_served_project_emptied_after_an_admin_import_is_refused_at_every_request():
    data_dir = tempfile.mkdtemp(prefix="authdeck-first-start-")
    try:
        projects = [f"room-{index}-alpha" for index in range(REPETITIONS)]
        server = Server(data_dir)
        for index, project in enumerate(projects):
            batch_create(server, project, index)
        assert server.stop() == 0
        for project in projects:
            os.truncate(os.path.join(data_dir, "projects", project, "identity.sqlite"), 0)
        # The projects' files: the default project is served, and its database written, as always.
        before = files(os.path.join(data_dir, "projects"))
        server = Server(data_dir)
        try:
            for project in projects:
                for tail, body in [("/accounts", {"email": "new@example.com", "password": "secret-1"}),
                                   ("/accounts:batchCreate", {"users": [{"localId": "again"}]})]:
                    status, answer, headers = post(server.url, f"/identitytoolkit.googleapis.com/v1/projects/{project}{tail}", body)
                    assert status == 503 and answer["error"]["status"] == "UNAVAILABLE", (project, status, answer)
                    # Retrying cannot help until someone repairs it: no Retry-After.
                    assert "Retry-After" not in headers, headers
            # The listing still answers: the default project counted, each refused one marked as such.
            listing = urllib.request.Request(server.url + "/emulator/v1/projects", headers=ADMIN)
            with urllib.request.urlopen(listing, timeout=30) as response:
                listed = {entry["projectId"]: entry for entry in json.load(response)["projects"]}
            assert listed["authdeck-local"]["accounts"] == 0 and "unavailable" not in listed["authdeck-local"], listed
            assert all("cannot be opened" in listed[project]["unavailable"] for project in projects), listed
        finally:
            assert server.stop() == 0
        assert files(os.path.join(data_dir, "projects")) == before
        # The command line lists them all, says which cannot be read, and fails.
        command = subprocess.run([authdeck_binary(), "accounts", "projects", "--data", data_dir], capture_output=True, text=True, timeout=60)
        assert command.returncode == 1, command
        rows = {line.split()[0]: line.split()[1] for line in command.stdout.splitlines()[1:]}
        assert rows["authdeck-local"] == "0" and all(rows[project] == "unavailable" for project in projects), command.stdout
        assert all(f"project {project}:" in command.stderr for project in projects), command.stderr
        with open(os.path.join(data_dir, "authdeck.log"), encoding="utf-8") as log:
            text = log.read()
        assert all(f"projects/{project}/identity.sqlite is empty, but this data directory has been used" in text for project in projects)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def test_a_first_start_killed_before_its_first_write_starts_again():
    for delay in [0, 0.002, 0.005, 0.01, 0.02, 0.05]:
        data_dir = tempfile.mkdtemp(prefix="authdeck-first-start-")
        try:
            process = subprocess.Popen([authdeck_binary(), "serve", "--port", "0", "--data", data_dir],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)
            process.kill()
            process.wait(10)
            server = Server(data_dir)
            try:
                status, body, _ = post(server.url, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                                       {"email": "first@example.com", "password": "secret-1"}, {"Content-Type": "application/json"})
                assert status == 200, body
            finally:
                assert server.stop() == 0
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)
