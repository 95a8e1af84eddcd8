"""Bounded runs of two attacks on the backend: a few thousand fuzzed requests
against a served backend (never a 5xx, never down), and kill -9 under write load (no acknowledged
account lost, the data opens again)."""
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

from conftest import Server

API = "/identitytoolkit.googleapis.com/v1/"
ADMIN_TOKEN = "fuzz-admin-token-0123456789"
PATHS = [API + name for name in [
    "accounts:signUp", "accounts:signInWithPassword", "accounts:lookup", "accounts:update", "accounts:delete",
    "accounts:sendOobCode", "accounts:resetPassword", "accounts:signInWithIdp", "accounts:sendVerificationCode",
    "accounts:signInWithPhoneNumber", "accounts:createAuthUri", "projects/authdeck-local/accounts",
    "projects/authdeck-local/accounts:lookup", "projects/authdeck-local/accounts:update",
    "projects/authdeck-local/accounts:batchCreate", "projects/authdeck-local/accounts:batchGet",
    "projects/authdeck-local/accounts:batchDelete", "projects/authdeck-local:createSessionCookie",
    "projects/other/accounts:lookup",
]] + [
    "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start", "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:finalize",
    "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start", "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize",
    "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:withdraw",
    "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword", "/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo",
    "/securetoken.googleapis.com/v1/token", "/emulator/v1/projects/authdeck-local/oobCodes",
    "/emulator/v1/projects/authdeck-local/verificationCodes", "/emulator/v1/projects/authdeck-local/config",
    "/emulator/v1/projects/authdeck-local/accounts", "/emulator/action", "/emulator/auth/v1/simulatedIdp:list",
    "/emulator/auth/v1/simulatedIdp:addIdentity", "/emulator/auth/v1/simulatedIdp:authorize",
    "/", "/%00", "/identitytoolkit.googleapis.com/v1/accounts:signUp/../../x", "/" + "a" * 5000,
]
FIELDS = ["email", "password", "idToken", "refreshToken", "grant_type", "returnSecureToken", "localId", "localIds",
          "requestType", "oobCode", "newPassword", "phoneNumber", "code", "sessionInfo", "displayName", "photoUrl",
          "deleteAttribute", "deleteProvider", "customAttributes", "disableUser", "validSince", "users", "hashAlgorithm",
          "signerKey", "saltSeparator", "rounds", "memCost", "postBody", "requestUri", "pendingToken", "providerId",
          "subject", "scopes", "nonce", "mfaPendingCredential", "mfaEnrollmentId", "phoneEnrollmentInfo",
          "phoneVerificationInfo", "totpVerificationInfo", "ownerSecret", "tenantId", "continueUrl", "mfa", "maxResults"]


def value(rng, depth=0, tokens=()):
    kind = rng.randrange(12)
    if kind == 0: return None
    if kind == 1: return rng.choice([True, False])
    if kind == 2: return rng.choice([0, -1, 1, 2**31, 2**63 - 1, -2**63, 10**30, 1.5, float("1e308")])
    if kind == 3: return "".join(rng.choice("ab@.+-_ é\u202e\U0001F600\\\"'") for _ in range(rng.randrange(40)))
    if kind == 4: return "x" * rng.choice([0, 1, 300, 70000])
    if kind == 5 and tokens: return rng.choice(tokens)
    if kind == 6: return f"user{rng.randrange(30)}@example.com"
    if kind == 7: return rng.choice(["+15555550100", "+1", "123", "+999999999999999999", "PASSWORD_RESET", "VERIFY_EMAIL",
                                     "refresh_token", "google.com", "apple.com", "providerId=google.com&id_token=x"])
    if kind == 8 and depth < 4: return [value(rng, depth + 1, tokens) for _ in range(rng.randrange(4))]
    if kind == 9 and depth < 4: return {rng.choice(FIELDS): value(rng, depth + 1, tokens) for _ in range(rng.randrange(4))}
    if kind == 10: return [[[[[]]]]] * 3
    return "secret-1"


def body(rng, tokens):
    kind = rng.randrange(10)
    if kind == 0: return bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    if kind == 1: return b"[" * 5000 + b"]" * 5000
    if kind == 2: return b'{"email": "\xff\xfe"}'
    if kind == 3: return b""
    if kind == 4: return b"grant_type=refresh_token&refresh_token=" + rng.choice(tokens or ["x"]).encode()
    return json.dumps({rng.choice(FIELDS): value(rng, 0, tokens) for _ in range(rng.randrange(6))}).encode()


def send(url, rng, tokens):
    method = rng.choices(["POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS"], [8, 2, 1, 1, 1, 1])[0]
    path = rng.choice(PATHS) + rng.choice(["", "?key=k", "?key=", "?key=k&key=j", "?%zz"])
    headers = {"Content-Type": rng.choice(["application/json", "application/x-www-form-urlencoded", "text/plain", ""])}
    auth = rng.randrange(5)
    if auth == 0: headers["Authorization"] = "Bearer " + ADMIN_TOKEN
    if auth == 1: headers["Authorization"] = rng.choice(["Bearer owner", "Bearer ya29.x", "Basic x", "Bearer", ""])
    if auth == 2: headers["X-Goog-Api-Key"] = "k"
    data = body(rng, tokens) if method != "GET" else None
    request = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("admin_token", [False, True])
def test_fuzzed_requests_never_get_a_server_error(admin_token):
    data_dir = tempfile.mkdtemp(prefix="authdeck-fuzz-")
    server = Server(data_dir, ["--admin-token", ADMIN_TOKEN] if admin_token else [])
    try:
        tokens = []
        for index in range(3):
            request = urllib.request.Request(server.url + API + "accounts:signUp?key=k", method="POST",
                                             data=json.dumps({"email": f"user{index}@example.com", "password": "secret-1"}).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                answer = json.load(response)
            tokens += [answer["idToken"], answer["refreshToken"], answer["localId"]]
        seed = random.randrange(2**32)
        failures, answered, lock = [], [0], threading.Lock()

        def worker(offset):
            rng = random.Random(seed + offset)
            for _ in range(250):
                # A reset connection or a request past its timeout is a failure too, not a lost thread.
                try:
                    status = send(server.url, rng, tokens)
                except Exception as error:
                    status = f"{type(error).__name__}: {error}"
                with lock:
                    answered[0] += isinstance(status, int)
                    if not isinstance(status, int) or status >= 500:
                        failures.append(status)
        workers = [threading.Thread(target=worker, args=(offset,)) for offset in range(8)]
        for worker_thread in workers:
            worker_thread.start()
        for worker_thread in workers:
            worker_thread.join(120)
        assert not any(worker_thread.is_alive() for worker_thread in workers), f"seed {seed}: requests still waiting"
        assert failures == [], f"seed {seed}"
        assert answered[0] == 8 * 250
        assert server.process.poll() is None
        with open(os.path.join(data_dir, "authdeck.log"), encoding="utf-8") as log:
            assert "status=5" not in log.read()
    finally:
        assert server.stop() == 0
        shutil.rmtree(data_dir, ignore_errors=True)


def sign_up(url, email):
    request = urllib.request.Request(url + API + "accounts:signUp?key=k", method="POST",
                                     data=json.dumps({"email": email, "password": "secret-1"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


def test_kill_9_under_write_load_loses_no_acknowledged_account():
    rng = random.Random()
    for trial in range(3):
        data_dir = tempfile.mkdtemp(prefix="authdeck-crash-")
        try:
            server = Server(data_dir)
            acknowledged, lock, stop = [], threading.Lock(), threading.Event()

            def writer(offset):
                index = 0
                while not stop.is_set():
                    email = f"t{trial}w{offset}n{index}@example.com"
                    index += 1
                    try:
                        if sign_up(server.url, email) == 200:
                            with lock:
                                acknowledged.append(email)
                    except (urllib.error.URLError, ConnectionError, OSError):
                        return
            writers = [threading.Thread(target=writer, args=(offset,)) for offset in range(6)]
            for writer_thread in writers:
                writer_thread.start()
            time.sleep(rng.uniform(0.8, 2.0))
            server.process.send_signal(signal.SIGKILL)
            server.process.wait(10)
            stop.set()
            for writer_thread in writers:
                writer_thread.join(30)
            assert acknowledged, "no write was acknowledged before the kill"

            again = Server(data_dir)
            try:
                lost = []
                for email in acknowledged:
                    request = urllib.request.Request(again.url + API + "accounts:signInWithPassword?key=k", method="POST",
                                                     data=json.dumps({"email": email, "password": "secret-1"}).encode(),
                                                     headers={"Content-Type": "application/json"})
                    try:
                        with urllib.request.urlopen(request, timeout=30):
                            pass
                    except urllib.error.HTTPError:
                        lost.append(email)
                assert lost == [], f"trial {trial}: {len(lost)} of {len(acknowledged)} acknowledged accounts lost"
            finally:
                assert again.stop() == 0
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)
