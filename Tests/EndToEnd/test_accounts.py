"""The operator's accounts view, end to end: `authdeck serve` with 3,000 accounts made through the
Firebase Admin SDK for Python, and the console (`--emulator`) driving it in tmux."""
import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timezone

import firebase_admin
import pytest
from firebase_admin import auth

from authdeck_binary import authdeck_binary

PROJECT_ID = "authdeck-local"
DAY_MS = 86_400_000


@pytest.fixture
def admin_app(served):
    server = served()
    previous = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = server.address
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"accounts-{uuid.uuid4().hex[:6]}")
    yield server, app
    firebase_admin.delete_app(app)
    if previous is None:
        os.environ.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
    else:
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = previous


def seed(app):
    """2,993 email accounts (u0000 the oldest), 5 anonymous ones 40 days old and 2 made today."""
    now = int(time.time() * 1000)
    records = [auth.ImportUserRecord(uid=f"u{i:04d}", email=f"user{i:04d}@example.com",
                                     user_metadata=auth.UserMetadata(creation_timestamp=now - 20 * DAY_MS + i * 1000))
               for i in range(2993)]
    records += [auth.ImportUserRecord(uid=f"anon-old-{i}", user_metadata=auth.UserMetadata(creation_timestamp=now - 40 * DAY_MS + i))
                for i in range(5)]
    records += [auth.ImportUserRecord(uid=f"anon-new-{i}", user_metadata=auth.UserMetadata(creation_timestamp=now - 1000 + i))
                for i in range(2)]
    for start in range(0, len(records), 1000):
        result = auth.import_users(records[start:start + 1000], app=app)
        assert result.failure_count == 0, [error.reason for error in result.errors]


def gone(app, uid):
    try:
        auth.get_user(uid, app=app)
    except auth.UserNotFoundError:
        return True
    return False


def test_operator_filters_disables_deletes_marked_and_cleans_up(admin_app, console):
    server, app = admin_app
    seed(app)
    c = console(extra_args=["--emulator", server.address], width=100, height=30)
    c.wait_for(r"Choose a sign-in method")
    c.wait_for(r"A accounts")
    c.keys("A")
    c.wait_for(r"3,000 accounts in all · no filter · sort: created ↓", timeout=30)

    # Filter to one email as it is typed, then disable that account.
    c.keys("/")
    c.type("USER0042@")
    c.wait_for(r"1 account matches · filter: \"USER0042@\"")
    c.wait_for(r"> +u0042 +user0042@example\.com")
    c.keys("Enter")
    c.keys("d")
    c.wait_for(r"Disable: 1 account[\s\S]*Disable the account\s+│\n.*│ user0042@example\.com\?")
    c.keys("y")
    c.wait_for(r"ok: Disabled 1 account\. Written to the audit log\.")
    c.wait_for(r"u0042 +user0042@example\.com .* ·DU·")
    assert auth.get_user("u0042", app=app).disabled

    # Back to every account; mark the three newest and delete them with one confirmation.
    c.keys("Escape")
    c.wait_for(r"3,000 accounts in all · no filter")
    rows = c.wait_for(r"> +(\S+) .*\n +(\S+) .*\n +(\S+) ")
    marked = [rows.group(1), rows.group(2), rows.group(3)]
    assert marked == ["anon-new-1", "anon-new-0", "u2992"]
    for _ in marked:
        c.keys("Space")
    c.wait_for(r"3 marked")
    c.keys("D")
    c.wait_for(r"Delete: 3 accounts[\s\S]*Delete 3 marked accounts")
    c.keys("y")
    c.wait_for(r"ok: Deleted 3 accounts\. Written to the audit log\.")
    c.wait_for(r"2,997 accounts in all")
    assert all(gone(app, uid) for uid in marked)
    assert not gone(app, "u2991")

    # Clean up anonymous accounts older than 30 days: the count first, then the deletion.
    c.keys("C")
    c.wait_for(r"Delete anonymous accounts created more than")
    c.keys("Enter")
    c.wait_for(r"Delete: 5 accounts[\s\S]*Delete 5 anonymous accounts created")
    c.keys("y")
    c.wait_for(r"ok: Deleted 5 accounts\.")
    c.wait_for(r"2,992 accounts in all")
    assert all(gone(app, f"anon-old-{i}") for i in range(5))
    assert not gone(app, "u0000")

    # The audit log lists the three actions, newest first.
    c.keys("L")
    log = c.wait_for(r"Audit log: every operator action, newest first\n\n.*delete  5 accounts .*\n.*delete  3 accounts .*\n.*disable  1 account ")
    assert log


def test_read_only_console_offers_no_action(admin_app, console):
    server, app = admin_app
    auth.create_user(uid="ro-1", email="ro@example.com", app=app)
    c = console(extra_args=["--emulator", server.address, "--read-only"], width=100, height=30)
    c.wait_for(r"Choose a sign-in method")
    c.keys("A")
    c.wait_for(r"1 account in all · no filter · sort: created ↓ · READ-ONLY")
    bar = c.screen().splitlines()[-1]
    assert "disable" not in bar and "delete" not in bar
    # Each key confirmed, as a writable console would ask; help, drawn after them, shows they were read.
    c.keys("d", "y", "D", "y", "?")
    c.wait_for("Keys: Accounts")
    assert "Disable" not in c.screen() and "Delete" not in c.screen()
    c.keys("Escape")
    c.wait_for("1 account in all")
    assert not auth.get_user("ro-1", app=app).disabled


def sign_in(server, email, password):
    """A password sign-in through the REST API, as a client app makes it: None, or the error's message."""
    request = urllib.request.Request(
        f"http://{server.address}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any-key",
        data=json.dumps({"email": email, "password": password, "returnSecureToken": True}).encode(),
        headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30):
            return None
    except urllib.error.HTTPError as error:
        return json.load(error)["error"]["message"]


def lock(server, email):
    """Wrong passwords until the address is locked: the answer is then the same, account or not."""
    for _ in range(5):
        assert sign_in(server, email, "wrong-password") == "INVALID_LOGIN_CREDENTIALS"
    locked = sign_in(server, email, "wrong-password")
    assert locked.startswith("TOO_MANY_ATTEMPTS_TRY_LATER"), locked
    return locked


def list_accounts(*args):
    listed = subprocess.run([authdeck_binary(), "accounts", "list", *args], env=dict(os.environ, GCLOUD_PROJECT=PROJECT_ID),
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    return listed.stdout


def list_locked():
    return list_accounts("--filter", "locked")


def flags_by_uid():
    """The FLAGS column of `accounts list`, by uid."""
    return {line.split()[0]: line.split()[-1] for line in list_accounts().splitlines()[1:]}


def test_locked_accounts_are_marked_filtered_and_every_lockout_is_cleared(admin_app, console):
    server, app = admin_app
    auth.create_user(uid="locked-1", email="locked@example.com", password="correct horse", app=app)
    auth.create_user(uid="free-1", email="free@example.com", password="correct horse", app=app)
    account_answer = lock(server, "locked@example.com")
    # A script finds it as the console's chip does, and sees it flagged as the console's L flags it.
    listed = list_locked()
    assert "locked@example.com" in listed and "free@example.com" not in listed, listed
    assert flags_by_uid() == {"locked-1": "unverified,locked", "free-1": "unverified"}
    by_uid = {user["uid"]: user for user in json.loads(list_accounts("--json"))}
    assert by_uid["locked-1"]["locked"] is True and by_uid["free-1"]["locked"] is False
    assert "lockedUntil" not in by_uid["free-1"]
    left = datetime.fromisoformat(by_uid["locked-1"]["lockedUntil"].replace("Z", "+00:00")) - datetime.now(timezone.utc)
    assert 14 * 60 < left.total_seconds() <= 15 * 60, left
    c = console(extra_args=["--emulator", server.address], width=80, height=24)
    c.wait_for(r"Choose a sign-in method")
    c.keys("A")
    c.wait_for(r"2 accounts in all · no filter · sort: created ↓ · 1 locked out \(K\)", timeout=30)
    c.wait_for(r"locked-1 +locked@example\.com .* ··U·L")
    assert re.search(r"free-1 +free@example\.com .* ··U··", c.screen())

    # The "locked" chip, the last one: only the locked account, counted in the header.
    c.keys("f")
    c.wait_for(r"\[ \] locked out by wrong passwords")
    for _ in range(6):
        c.keys("Down")
    c.keys("Enter")
    c.wait_for(r"\[x\] locked out by wrong passwords")
    c.keys("Escape")
    c.wait_for(r"1 account matches · filter: locked")
    assert "free@example.com" not in c.screen()
    c.keys("Escape")
    c.wait_for(r"2 accounts in all · no filter")

    # Two addresses with no account, locked the same way: the lock-outs list shows all three.
    assert lock(server, "ghost@example.com") == account_answer
    lock(server, "nobody@example.com")
    c.keys("K")
    c.wait_for(r"Lock-outs in this project")
    c.wait_for(r"ghost@example\.com +\d\d:\d\d:\d\d UTC +5")
    c.wait_for(r"nobody@example\.com")

    # u lifts the selected one at once, the first locked: the account's.
    screen = c.screen()
    first = re.search(r"▸ (\S+@example\.com)", screen)
    assert first and first.group(1) == "locked@example.com", screen
    c.keys("u")
    c.wait_for(r"ok: Cleared 1 password lock-out\. Written to the audit log\.")
    wait_gone = time.time() + 10
    while "locked@example.com" in c.screen() and time.time() < wait_gone:
        time.sleep(0.2)
    assert "locked@example.com" not in c.screen()
    assert sign_in(server, "locked@example.com", "correct horse") is None

    # U lifts all of them after a yes that names the count.
    c.keys("U")
    c.wait_for(r"Clear 2 password lock-outs\?")
    c.keys("y")
    c.wait_for(r"ok: Cleared 2 password lock-outs")
    c.wait_for(r"No address is locked out\.")
    assert "locked@example.com" not in list_locked()
    assert flags_by_uid() == {"locked-1": "unverified", "free-1": "unverified"}
    assert sign_in(server, "ghost@example.com", "wrong-password") == "INVALID_LOGIN_CREDENTIALS"
    c.keys("Escape")
    c.wait_for(r"2 accounts in all · no filter · sort: created ↓\s*\n")
    assert "·L" not in c.screen()

    # Both clearings are in the audit log, by address.
    c.keys("L")
    c.wait_for(r"clear password lock-out  2 addresses  in authdeck-local.*\n.*clear password lock-out  1 address  in authdeck-local")


def run_accounts(*args, cwd, environment=None):
    """`authdeck accounts …` on the embedded backend, with no emulator in the environment."""
    environment = dict(os.environ if environment is None else environment)
    environment.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
    return subprocess.run([authdeck_binary(), "accounts", *args], env=environment, cwd=cwd, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("command", [["list"], ["list", "--json"], ["export", "users.json"], ["hash-config"], ["projects"],
                                     ["projects", "--api-key", "some-project"]])
def test_reading_a_data_directory_without_a_backend_is_an_error_that_creates_nothing(tmp_path, command):
    """A mistyped --data is not a backend without accounts: the reading commands name the path and make nothing."""
    work = tmp_path / "work"
    empty = tmp_path / "empty"
    work.mkdir()
    empty.mkdir()
    for data in [tmp_path / "typo" / "dir", empty]:
        result = run_accounts(*command, "--data", str(data), cwd=work)
        assert result.returncode != 0, result.stdout
        assert result.stderr == f"Error: No AuthDeck data in {data} (no identity database): check --data DIR.\n"
        assert result.stdout == ""
    # The default data directory, when --data is not given, is checked the same way.
    default = run_accounts(*command, cwd=work, environment=dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg")))
    assert default.returncode != 0
    assert f"No AuthDeck data in {tmp_path / 'xdg' / 'authdeck'} " in default.stderr
    assert sorted(os.listdir(tmp_path)) == ["empty", "work"]
    assert os.listdir(empty) == [] and os.listdir(work) == []


def test_an_import_into_a_new_data_directory_makes_its_backend_and_says_so(tmp_path):
    users = tmp_path / "users.json"
    users.write_text(json.dumps({"users": [{"localId": "seeded-1", "email": "seeded@example.com"}]}))
    data = tmp_path / "new" / "data"
    imported = run_accounts("import", str(users), "--data", str(data), cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    assert imported.stderr == (f"note: {data} held no AuthDeck data: a new embedded backend is made there\n"
                               f"imported 1 accounts from {users}\n")
    listed = run_accounts("list", "--data", str(data), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "seeded@example.com" in listed.stdout
    more = tmp_path / "more.json"
    more.write_text(json.dumps({"users": [{"localId": "seeded-2", "email": "more@example.com"}]}))
    again = run_accounts("import", str(more), "--data", str(data), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stderr == f"imported 1 accounts from {more}\n"
