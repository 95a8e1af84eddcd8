"""Hardening, end to end: several processes on one data directory, data that belongs to a
project, damaged or emptied data refused at start-up with a clear message, file modes, bad
start-up settings named clearly, and answers that tell nothing about an email."""
import base64
import http.client
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

from authdeck_binary import authdeck_binary
from conftest import Server

API = "/identitytoolkit.googleapis.com/v1/"


def call(url, path, body, headers=None, timeout=30):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def run_serve(data_dir, *args, env=None, timeout=20):
    """A serve that is expected not to start: (exit status, stderr)."""
    process = subprocess.run([authdeck_binary(), "serve", "--port", "0", "--data", data_dir, *args],
                             capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})
    return process.returncode, process.stdout + process.stderr


def sign_ups(server, prefix, count, statuses, threads=6):
    def worker(offset):
        for index in range(offset, count, threads):
            status, _ = call(server.url, API + "accounts:signUp?key=k",
                             {"email": f"{prefix}{index}@example.com", "password": "secret-1"})
            statuses.append(status)
    workers = [threading.Thread(target=worker, args=(offset,)) for offset in range(threads)]
    for worker_thread in workers:
        worker_thread.start()
    return workers


@pytest.fixture
def shared_dir():
    path = tempfile.mkdtemp(prefix="authdeck-harden-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_two_serves_on_one_directory_answer_every_write_and_keep_every_log_line(shared_dir):
    first = Server(shared_dir)
    try:
        statuses = []
        load = sign_ups(first, "first", 60, statuses)
        # The second starts while the first is writing.
        second = Server(shared_dir)
        try:
            load += sign_ups(second, "second", 60, statuses)
            for worker in load:
                worker.join(120)
        finally:
            assert second.stop() == 0
    finally:
        assert first.stop() == 0
    assert len(statuses) == 120
    assert [status for status in statuses if status != 200] == []
    with open(os.path.join(shared_dir, "authdeck.log"), encoding="utf-8") as log:
        lines = log.read().splitlines()
    requests = [line for line in lines if "path=/identitytoolkit.googleapis.com/v1/accounts:signUp status=200" in line]
    assert len(requests) == 120
    assert all(re.match(r"\d{4}-\d\d-\d\dT", line) for line in lines), "a line was cut or overwritten"


def test_a_data_directory_keeps_its_project(shared_dir):
    server = Server(shared_dir, ["--project", "alpha-project"])
    status, body = call(server.url, API + "accounts:signUp?key=k", {"email": "ada@example.com", "password": "secret-1"})
    assert status == 200
    refresh_token = body["refreshToken"]
    assert server.stop() == 0

    status, output = run_serve(shared_dir, "--project", "beta-project")
    assert status != 0
    assert "belongs to project alpha-project, not beta-project" in output
    assert "--project alpha-project" in output

    again = Server(shared_dir)
    try:
        assert "for project alpha-project" in again.line
        request = urllib.request.Request(again.url + "/securetoken.googleapis.com/v1/token?key=k",
                                         data=f"grant_type=refresh_token&refresh_token={refresh_token}".encode(),
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        with urllib.request.urlopen(request, timeout=10) as response:
            exchanged = json.load(response)
        payload = exchanged["id_token"].split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        assert claims["aud"] == "alpha-project"
    finally:
        assert again.stop() == 0


def test_an_emptied_database_beside_its_keys_is_refused_and_left_empty(shared_dir):
    server = Server(shared_dir)
    assert call(server.url, API + "accounts:signUp?key=k", {"email": "ada@example.com", "password": "secret-1"})[0] == 200
    assert server.stop() == 0
    database = os.path.join(shared_dir, "identity.sqlite")
    os.truncate(database, 0)
    status, output = run_serve(shared_dir)
    assert status != 0
    assert "is empty, but this data directory has been used" in output
    assert os.path.getsize(database) == 0


def test_damage_inside_the_database_is_refused_and_nothing_is_written(shared_dir):
    server = Server(shared_dir)
    for index in range(40):
        call(server.url, API + "accounts:signUp?key=k", {"email": f"u{index}@example.com", "password": "secret-1"})
    assert server.stop() == 0
    database = os.path.join(shared_dir, "identity.sqlite")
    with open(database, "r+b") as file:
        file.seek(2 * 4096)
        file.write(b"\xa5" * 4096)
    with open(database, "rb") as file:
        before = file.read()
    status, output = run_serve(shared_dir)
    assert status != 0
    assert "is damaged or is not an AuthDeck database" in output
    with open(database, "rb") as file:
        assert file.read() == before


def test_the_console_refuses_a_damaged_identity_database_before_creating_anything(console, data_dir):
    database = os.path.join(data_dir, "identity.sqlite")
    with open(database, "wb") as file:
        file.write(b"SQLite format 3\x00" + b"\xff" * 8000)
    c = console()
    # The message wraps at the pane's width: one word of it is enough here, the exact text is tested on serve.
    c.wait_for("damaged")
    assert c.wait_exit() != 0
    assert not os.path.exists(os.path.join(data_dir, "appdata.sqlite"))


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_everything_written_is_owner_only_and_an_open_directory_is_closed(console, data_dir):
    os.chmod(data_dir, 0o755)
    c = console()
    c.wait_for("Sign in")
    assert mode(data_dir) == 0o700
    # The first frame comes before the backend and the app data are opened (on a thread of their
    # own): their files appear just after it.
    names = ["identity.sqlite", "appdata.sqlite", "authdeck.log"]

    def opened():
        present = os.listdir(data_dir)
        return all(name in present for name in names) and any(
            name.startswith("appdata.sqlite") and name.endswith(("-wal", "-shm")) for name in present)

    deadline = time.monotonic() + 10
    while not opened() and time.monotonic() < deadline:
        time.sleep(0.05)
    for name in names:
        assert mode(os.path.join(data_dir, name)) == 0o600, name
    companions = [name for name in os.listdir(data_dir) if name.endswith(("-wal", "-shm"))]
    assert any(name.startswith("appdata.sqlite") for name in companions), companions
    for name in companions:
        assert mode(os.path.join(data_dir, name)) == 0o600, name


def test_a_missing_data_directory_is_made_with_its_parents_and_a_path_through_a_file_or_a_dangling_link_is_named(console, shared_dir):
    nested = os.path.join(shared_dir, "made", "for", "the", "console")
    c = console(nested)
    c.wait_for("Sign in")
    for path in [nested, os.path.join(shared_dir, "made"), os.path.join(shared_dir, "made", "for")]:
        assert mode(path) == 0o700, path

    a_file = os.path.join(shared_dir, "a-file")
    with open(a_file, "w") as f:
        f.write("not a directory")
    dangling = os.path.join(shared_dir, "dangling")
    os.symlink(os.path.join(shared_dir, "nowhere"), dangling)
    for path, message in [(a_file, f"The data path {a_file} exists but is not a directory."),
                          (os.path.join(a_file, "below"), f"Cannot create the data directory {a_file}/below: Not a directory"),
                          (dangling, f"Cannot create the data directory {dangling}: {dangling} is a symbolic link to a missing path"),
                          (os.path.join(dangling, "below"),
                           f"Cannot create the data directory {dangling}/below: {dangling} is a symbolic link to a missing path")]:
        result = subprocess.run([authdeck_binary(), "--data", path], capture_output=True, text=True, timeout=20)
        assert result.returncode != 0
        assert message in result.stderr, result.stderr


def test_an_admin_token_of_spaces_is_refused(shared_dir):
    status, output = run_serve(shared_dir, "--admin-token", " " * 16)
    assert status != 0
    assert "without spaces" in output
    status, output = run_serve(shared_dir, env={"AUTHDECK_ADMIN_TOKEN": "\t" * 20})
    assert status != 0
    assert "AUTHDECK_ADMIN_TOKEN must be at least 16 characters, without spaces" in output


def test_a_log_path_that_is_a_directory_is_named_clearly(shared_dir):
    os.mkdir(os.path.join(shared_dir, "authdeck.log"))
    status, output = run_serve(shared_dir)
    assert status != 0
    assert "Cannot open the log file" in output and "is a directory" in output
    assert "NSCocoaErrorDomain" not in output


def test_a_damaged_signing_certificate_is_an_error_not_replaced(shared_dir):
    assert Server(shared_dir).stop() == 0
    certificate = os.path.join(shared_dir, "keys", "securetoken.crt")
    with open(certificate, "w") as file:
        file.write("junk\n")
    status, output = run_serve(shared_dir)
    assert status != 0
    assert "securetoken.crt is damaged" in output
    with open(certificate) as file:
        assert file.read() == "junk\n"


def test_connect_gets_a_complete_answer(served):
    """SwiftNIO sends no body and no length in answers to CONNECT, so an answer ends where the
    connection does: a 405 naming the allowed methods, then the end of the stream, never a hang."""
    server = served()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        answer = b""
        while True:
            chunk = connection.recv(4096)  # times out (fails) if the answer never ends
            if not chunk:
                break
            answer += chunk
    head = answer.partition(b"\r\n\r\n")[0]
    assert head.split(b"\r\n")[0].split()[1] == b"405", answer
    assert re.search(rb"(?i)\r\nallow: GET, POST", head), head
    # The server goes on serving.
    assert call(server.url, API + "accounts:signUp?key=k", {})[0] == 200


def test_failed_sign_ins_tell_nothing_about_the_email_by_answer_or_time(served):
    """An unknown email, an account without a password (Google only) and a password account answer
    alike, in about the same time, before and after the lock-out (email-enumeration protection)."""
    server = served()
    key = "?key=k"
    google_only, with_password = [], []
    for index in range(3):
        status, identity = call(server.url, "/emulator/auth/v1/simulatedIdp:addIdentity" + key,
                                {"providerId": "google.com", "displayName": f"G {index}", "email": f"g{index}@example.com"})
        assert status == 200
        status, authorized = call(server.url, "/emulator/auth/v1/simulatedIdp:authorize" + key,
                                  {"providerId": "google.com", "subject": identity["subject"], "scopes": ["email"]})
        assert status == 200
        status, signed_in = call(server.url, API + "accounts:signInWithIdp" + key,
                                 {"requestUri": "http://localhost", "returnIdpCredential": True,
                                  "postBody": f"providerId=google.com&id_token={authorized['idToken']}"})
        assert status == 200 and signed_in.get("idToken"), signed_in
        google_only.append(f"g{index}@example.com")
        assert call(server.url, API + "accounts:signUp" + key, {"email": f"p{index}@example.com", "password": "secret-1"})[0] == 200
        with_password.append(f"p{index}@example.com")
    kinds = {"unknown": [f"nobody{index}@example.com" for index in range(3)], "no password": google_only, "password": with_password}

    timings = {kind: [] for kind in kinds}
    answers = {kind: set() for kind in kinds}
    for attempt in range(7):
        for index in range(3):
            for kind, emails in kinds.items():
                started = time.perf_counter()
                status, body = call(server.url, API + "accounts:signInWithPassword" + key,
                                    {"email": emails[index], "password": "wrong-guess"})
                elapsed = time.perf_counter() - started
                answers[kind].add((attempt < 5, status, body["error"]["message"].split(" ")[0]))
                if attempt < 5:
                    timings[kind].append(elapsed)
    expected = {(True, 400, "INVALID_LOGIN_CREDENTIALS"), (False, 400, "TOO_MANY_ATTEMPTS_TRY_LATER")}
    assert all(found == expected for found in answers.values()), answers
    medians = {kind: sorted(values)[len(values) // 2] for kind, values in timings.items()}
    # A leak would show as ~3 ms against ~38 ms (no hash against a hash): each kind must take at least half of the slowest.
    assert min(medians.values()) >= 0.5 * max(medians.values()), medians


def test_a_wrong_password_racing_the_accounts_deletion_is_never_a_server_error(served):
    server = served()
    statuses = []
    for round_ in range(10):
        email = f"racer{round_}@example.com"
        status, account = call(server.url, API + "accounts:signUp?key=k", {"email": email, "password": "secret-1"})
        assert status == 200
        guesses = [threading.Thread(target=lambda: statuses.append(call(
            server.url, API + "accounts:signInWithPassword?key=k", {"email": email, "password": "wrong-guess"})[0])) for _ in range(3)]
        for guess in guesses:
            guess.start()
        time.sleep(0.005 * (round_ % 4))
        statuses.append(call(server.url, API + "accounts:delete?key=k", {"idToken": account["idToken"]})[0])
        for guess in guesses:
            guess.join(30)
    assert [status for status in statuses if status >= 500] == []


def test_a_read_only_identity_database_is_named_as_such():
    # Root writes to any file: as root, the server runs as nobody for this test.
    as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.getuid() == 0 else []
    if as_user and not shutil.which("setpriv"):
        pytest.skip("needs setpriv (util-linux) to drop root")
    root = tempfile.mkdtemp(prefix="authdeck-ro-")
    try:
        os.chmod(root, 0o777)
        data = os.path.join(root, "data")
        first = subprocess.Popen([*as_user, authdeck_binary(), "serve", "--port", "0", "--data", data],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "listening on" in first.stdout.readline()
        first.terminate()
        assert first.wait(10) == 0
        database = os.path.join(data, "identity.sqlite")
        os.chmod(database, 0o400)
        process = subprocess.run([*as_user, authdeck_binary(), "serve", "--port", "0", "--data", data],
                                 capture_output=True, text=True, timeout=20)
        assert process.returncode != 0
        assert f"The account database {database} cannot be opened for reading and writing" in process.stderr
    finally:
        shutil.rmtree(root, ignore_errors=True)


def stalled_body(server, source, length=1_000_000, sent=900_000):
    """A request from `source` that announces a large body, sends most of it and stops."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))
    s.sendall(f"POST {API}accounts:signUp?key=k HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              f"Content-Length: {length}\r\n\r\n".encode() + b" " * sent)
    return s


def answer_or_close(s, timeout):
    """What the server sends on `s` until it closes it (None if it keeps it open past `timeout`)."""
    s.settimeout(timeout)
    received = b""
    try:
        while chunk := s.recv(65536):
            received += chunk
        return received
    except ConnectionResetError:
        return received
    except socket.timeout:
        return None


def sign_up_from(server, source, email):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    connection.request("POST", API + "accounts:signUp?key=k", json.dumps({"email": email, "password": "secret-1"}),
                       {"Content-Type": "application/json"})
    status = connection.getresponse().status
    connection.close()
    return status


def test_stalled_request_bodies_are_bounded_per_address_and_closed_at_their_deadline(served):
    server = served(["--max-connections-per-address", "4", "--body-timeout", "3"])
    stalled = [stalled_body(server, "127.0.0.2") for _ in range(4)]
    # A fifth from the same address is closed unanswered; another address is served at once.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.2", 0)) as over:
        over.sendall("GET /emulator/v1/projects HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert answer_or_close(over, 10) == b""
    assert sign_up_from(server, "127.0.0.3", "ada@example.com") == 200
    # Each stalled one is closed at its body's deadline, with no answer (never a 5xx).
    for s in stalled:
        assert answer_or_close(s, 30) == b""
        s.close()
    assert sign_up_from(server, "127.0.0.2", "grace@example.com") == 200
    server.stop()
    with open(os.path.join(server.data_dir, "authdeck.log"), encoding="utf-8") as log:
        text = log.read()
    assert "request body too slow" in text and "too many connections" in text
    assert not re.search(r"status=5\d\d", text)


def test_many_stalled_bodies_from_many_addresses_leave_other_requests_answered(served):
    server = served(["--max-connections-per-address", "8", "--body-timeout", "60"])
    stalled = [stalled_body(server, f"127.0.1.{n}") for n in range(1, 7) for _ in range(8)]
    for index in range(5):
        assert sign_up_from(server, "127.0.0.9", f"user{index}@example.com") == 200
    for s in stalled:
        s.close()
    assert server.process.poll() is None


def test_a_console_left_on_the_accounts_view_does_not_fill_its_log(console, data_dir):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("A")
    c.wait_for(r"0 accounts in all")
    log = os.path.join(data_dir, "authdeck.log")
    before = os.path.getsize(log)
    # The view reloads every 3 seconds: three reloads.
    time.sleep(10)
    assert "0 accounts in all" in c.screen()
    with open(log, encoding="utf-8") as f:
        f.seek(before)
        assert f.read() == ""
