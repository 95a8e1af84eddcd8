"""`authdeck serve` as a process: its announcement, HTTP answers, published keys, the admin
token rule and clean shutdown on signals."""
import datetime
import json
import os
import re
import signal
import sqlite3
import subprocess
import urllib.error
import urllib.request
from types import SimpleNamespace

import jwt
from cryptography.x509 import load_pem_x509_certificate

from authdeck_binary import authdeck_binary

SIGN_UP = "/identitytoolkit.googleapis.com/v1/accounts:signUp"
SIGN_IN = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
LOOKUP = "/identitytoolkit.googleapis.com/v1/accounts:lookup"
X509 = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
JWKS = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"


def call(server, path, body=None, headers=None, method=None):
    """(status, parsed JSON) of one request; error statuses are answers too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_serve_announces_the_real_port_and_answers_on_the_emulator_paths(served):
    server = served()
    assert server.port > 0
    assert "for project authdeck-local" in server.line
    status, body = call(server, SIGN_UP + "?key=any", {"email": "ada@example.com", "password": "hunter22"})
    assert status == 200 and body["email"] == "ada@example.com"
    status, body = call(server, SIGN_UP, {})
    assert status == 403 and body["error"]["status"] == "PERMISSION_DENIED"
    status, body = call(server, "/no/such/path?key=any", {})
    assert status == 404 and body["error"]["message"].startswith("NOT_FOUND")
    status, body = call(server, SIGN_IN + "?key=any", {"email": "ada@example.com", "password": "wrong-password"})
    assert status == 400 and body["error"]["message"] == "INVALID_LOGIN_CREDENTIALS"
    assert server.stop() == 0
    with open(os.path.join(server.data_dir, "authdeck.log"), encoding="utf-8") as log:
        text = log.read()
    assert "path=/identitytoolkit.googleapis.com/v1/accounts:signUp status=200" in text
    assert "hunter22" not in text and "key=any" not in text and "eyJ" not in text
    # Each line starts with the time in UTC, ISO 8601 to the second.
    now = datetime.datetime.now(datetime.timezone.utc)
    for line in text.splitlines():
        stamp = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) (trace|debug|info|notice|warning|error|critical) ", line)
        assert stamp, line
        when = datetime.datetime.strptime(stamp.group(1), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
        assert abs((now - when).total_seconds()) < 600, line


def test_a_standard_jwt_library_verifies_minted_tokens_with_the_published_keys(served):
    server = served(["--project", "demo-proj"])
    _, body = call(server, SIGN_UP + "?key=any", {"email": "grace@example.com", "password": "hopper1"})
    token = body["idToken"]
    kid = jwt.get_unverified_header(token)["kid"]

    status, certificates = call(server, X509)
    assert status == 200 and list(certificates) == [kid]
    public_key = load_pem_x509_certificate(certificates[kid].encode()).public_key()
    claims = jwt.decode(token, public_key, algorithms=["RS256"], audience="demo-proj",
                        issuer="https://securetoken.google.com/demo-proj")
    assert claims["sub"] == body["localId"] and claims["email"] == "grace@example.com"

    signing_key = jwt.PyJWKClient(server.url + JWKS).get_signing_key_from_jwt(token)
    assert jwt.decode(token, signing_key.key, algorithms=["RS256"], audience="demo-proj")["sub"] == body["localId"]

    tampered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    try:
        jwt.decode(tampered, public_key, algorithms=["RS256"], audience="demo-proj")
        raise AssertionError("a tampered token verified")
    except jwt.InvalidSignatureError:
        pass

    # The certificate is kept beside the key (owner-only) and is the same after a restart.
    assert server.stop() == 0
    mode = os.stat(os.path.join(server.data_dir, "keys", "securetoken.crt")).st_mode & 0o777
    assert mode == 0o600
    again = served(["--project", "demo-proj"], data=server.data_dir)
    assert call(again, X509)[1] == certificates
    assert jwt.decode(token, public_key, algorithms=["RS256"], audience="demo-proj")["sub"] == body["localId"]


def test_sigint_sigterm_and_sighup_stop_the_server_cleanly_and_keep_the_data(served):
    server = served()
    _, created = call(server, SIGN_UP + "?key=any", {"email": "ada@example.com", "password": "hunter22"})
    assert server.stop(signal.SIGINT) == 0

    again = served(data=server.data_dir)
    status, body = call(again, SIGN_IN + "?key=any", {"email": "ada@example.com", "password": "hunter22"})
    assert status == 200 and body["localId"] == created["localId"]
    assert again.stop(signal.SIGTERM) == 0
    third = served(data=server.data_dir)
    assert third.stop(signal.SIGHUP) == 0
    # A clean close checkpoints the write-ahead log into the database and removes it.
    assert not os.path.exists(os.path.join(server.data_dir, "identity.sqlite-wal"))
    db = sqlite3.connect(os.path.join(server.data_dir, "identity.sqlite"))
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        db.close()


def test_a_non_loopback_address_needs_an_admin_token(served, tmp_path):
    refused = subprocess.run([authdeck_binary(), "serve", "--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)],
                             capture_output=True, text=True, timeout=20)
    assert refused.returncode != 0
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "0.0.0.0" in lines[0] and "--admin-token" in lines[0]
    assert not os.path.exists(tmp_path / "identity.sqlite")
    # The token from the environment is held to the flag's minimum length.
    short = subprocess.run([authdeck_binary(), "serve", "--host", "0.0.0.0", "--port", "0", "--data", str(tmp_path)],
                           capture_output=True, text=True, timeout=20, env={**os.environ, "AUTHDECK_ADMIN_TOKEN": "short"})
    assert short.returncode != 0 and "AUTHDECK_ADMIN_TOKEN must be at least 16 characters" in short.stderr
    assert not os.path.exists(tmp_path / "identity.sqlite")

    # The admin-token rules, on loopback: the test binds no address that others can reach.
    token = "an-admin-token-of-some-length"
    server = served(["--host", "127.0.0.1", "--admin-token", token])
    _, created = call(server, SIGN_UP + "?key=any", {"email": "ada@example.com", "password": "hunter22"})
    query = {"localId": [created["localId"]]}
    for header in ("Bearer owner", "Bearer ya29.token", "Bearer wrong"):
        status, body = call(server, LOOKUP, query, {"Authorization": header})
        assert status == 401 and body["error"]["status"] == "UNAUTHENTICATED", header
    status, body = call(server, LOOKUP, query, {"Authorization": f"Bearer {token}"})
    assert status == 200 and body["users"][0]["email"] == "ada@example.com"
    assert server.stop() == 0
    with open(os.path.join(server.data_dir, "authdeck.log"), encoding="utf-8") as log:
        assert token not in log.read()


def test_the_admin_token_comes_from_a_file_and_the_literal_flag_warns(served, tmp_path):
    token = "a-token-kept-in-a-file-0123"
    token_file = tmp_path / "admin-token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    data = str(tmp_path / "data")
    server = served(["--admin-token-file", str(token_file)], data=data)
    with open(f"/proc/{server.process.pid}/cmdline", "rb") as cmdline:
        assert token.encode() not in cmdline.read()
    assert call(server, LOOKUP, {"localId": ["nobody"]}, {"Authorization": "Bearer owner"})[0] == 401
    assert call(server, LOOKUP, {"localId": ["nobody"]}, {"Authorization": f"Bearer {token}"})[0] == 200
    assert server.stop() == 0
    assert "warning" not in server.process.stderr.read()

    # The literal flag still works, and says that other local users can read it.
    literal = served(["--admin-token", token], data=data)
    assert call(literal, LOOKUP, {"localId": ["nobody"]}, {"Authorization": f"Bearer {token}"})[0] == 200
    assert literal.stop() == 0
    warning = literal.process.stderr.read()
    assert "--admin-token shows the token to every local user in the process list (ps)" in warning and "--admin-token-file" in warning
    assert token not in warning

    # A file others can read works, with a warning.
    token_file.chmod(0o644)
    loose = served(["--admin-token-file", str(token_file)], data=data)
    assert loose.stop() == 0
    assert "can be read by other users; chmod 600 it" in loose.process.stderr.read()

    def refused(*args):
        run = subprocess.run([authdeck_binary(), "serve", "--port", "0", "--data", data, *args], capture_output=True, text=True, timeout=20)
        assert run.returncode != 0
        return run.stderr
    assert "Cannot read the admin token file" in refused("--admin-token-file", str(tmp_path / "missing"))
    (tmp_path / "short").write_text("short\n")
    assert f"The token in {tmp_path / 'short'} must be at least 16 characters" in refused("--admin-token-file", str(tmp_path / "short"))
    assert "not both" in refused("--admin-token", token, "--admin-token-file", str(token_file))


def test_on_loopback_the_emulator_owner_convention_holds(served):
    server = served()
    status, body = call(server, LOOKUP, {"localId": ["nobody"]}, {"Authorization": "Bearer owner"})
    assert status == 200


def test_console_backend_flags_are_checked_before_the_screen_starts(tmp_path):
    def run(*args, env=None):
        return subprocess.run([authdeck_binary(), "--data", str(tmp_path), *args], capture_output=True, text=True, timeout=20,
                              env={**os.environ, **(env or {})})

    missing_key = run("--project", "my-proj")
    assert missing_key.returncode != 0 and "--project needs --api-key" in missing_key.stderr
    # The key from the environment is taken: validation then gets as far as the next rule.
    key_from_env = run("--project", "my-proj", "--recent-login-window", "2", env={"AUTHDECK_API_KEY": "AIzaFake"})
    assert key_from_env.returncode != 0 and "embedded backend only" in key_from_env.stderr
    missing_project = run("--api-key", "AIzaFake")
    assert missing_project.returncode != 0 and "--api-key needs --project" in missing_project.stderr
    both = run("--emulator", "localhost:9099", "--project", "p", "--api-key", "k")
    assert both.returncode != 0 and "Choose one backend" in both.stderr
    scheme = run("--emulator", "http://localhost:9099")
    assert scheme.returncode != 0 and "HOST:PORT" in scheme.stderr
    window = run("--emulator", "localhost:9099", "--recent-login-window", "2")
    assert window.returncode != 0 and "embedded backend only" in window.stderr
    bad_env = run(env={"FIREBASE_AUTH_EMULATOR_HOST": "localhost"})
    assert bad_env.returncode != 0 and "FIREBASE_AUTH_EMULATOR_HOST must be HOST:PORT" in bad_env.stderr


def test_an_ipv6_loopback_address_may_be_given_in_brackets(tmp_path):
    process = subprocess.Popen([authdeck_binary(), "serve", "--host", "[::1]", "--port", "0", "--data", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"listening on http://\[::1\]:(\d+) .*FIREBASE_AUTH_EMULATOR_HOST=\[::1\]:(\d+)\)", line)
        assert match, f"{line!r} {process.stderr.read() if process.poll() is not None else ''}"
        status, body = call(SimpleNamespace(url=f"http://[::1]:{match.group(1)}"), SIGN_UP + "?key=any", {"email": "ada@example.com", "password": "hunter22"})
        assert status == 200 and body["email"] == "ada@example.com"
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


def test_the_request_log_has_a_level_and_a_bound(served, tmp_path):
    quiet = served(["--log-level", "notice"])
    assert call(quiet, SIGN_UP + "?key=any", {})[0] == 200
    assert quiet.stop() == 0
    with open(os.path.join(quiet.data_dir, "authdeck.log"), encoding="utf-8") as log:
        assert "path=" not in log.read()

    # A log already at its limit moves aside at the next line and a new one starts.
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    full = data / "authdeck.log"
    with open(full, "wb") as log:
        log.write(b"old line\n" * (8 * 1024 * 1024 // 9 + 1))
    os.chmod(full, 0o600)
    server = served(data=str(data))
    assert call(server, SIGN_UP + "?key=any", {})[0] == 200
    assert server.stop() == 0
    rotated = data / "authdeck.log.1"
    assert rotated.exists() and rotated.stat().st_size > 8 * 1024 * 1024
    assert full.stat().st_size < 64 * 1024
    assert "status=200" in full.read_text(encoding="utf-8") or "status=200" in rotated.read_text(encoding="utf-8")
