"""`authdeck accounts export/import/hash-config` against `authdeck serve`, read and written by the
Firebase Admin SDK for Python: files move between AuthDeck and Firebase's formats both ways."""
import base64
import json
import os
import re
import subprocess
import uuid

import firebase_admin
from firebase_admin import auth

from interop_project import PROJECT_ID, Server, authdeck_binary
from test_admin_sdk import README_HASH, README_PASSWORD, README_SALT, README_SALT_SEPARATOR, README_SIGNER_KEY


def accounts(server, *args, timeout=120, admin_token=None, stderr=subprocess.PIPE):
    """Runs `authdeck accounts …` against `server` as a script would (the emulator variable, the project)."""
    environment = dict(os.environ, FIREBASE_AUTH_EMULATOR_HOST=server.host, GCLOUD_PROJECT=PROJECT_ID)
    environment.pop("AUTHDECK_ADMIN_TOKEN", None)
    if admin_token is not None:
        environment["AUTHDECK_ADMIN_TOKEN"] = admin_token
    return subprocess.run([authdeck_binary(), "accounts", *args], env=environment, stdout=subprocess.PIPE, stderr=stderr,
                          text=True, timeout=timeout)


def hash_config(server):
    result = accounts(server, "hash-config")
    assert result.returncode == 0, result.stderr
    fields = dict(line.strip().rstrip(",").split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    return fields


def test_an_export_is_imported_by_the_admin_sdk_and_its_users_sign_in(server, app, rest, unique, tmp_path):
    # The Admin SDK reads FIREBASE_AUTH_EMULATOR_HOST when an app is made: the source app is made while it names the source.
    source = Server()
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = source.host
    source_app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=unique("source"))
    try:
        prefix = unique("moved")
        for index in range(5):
            auth.create_user(uid=f"{prefix}-{index}", email=f"{prefix}-{index}@example.com", password=f"password-{index}",
                             display_name=f"User, {index}", app=source_app)
        auth.create_user(uid=f"{prefix}-anon", app=source_app)
        export = tmp_path / "users.json"
        result = accounts(source, "export", str(export))
        assert result.returncode == 0, result.stderr
        # Captured, not on a terminal: the final line alone, no running count joined to it by carriage returns.
        assert result.stderr == f"exported 6 accounts to {export}\n"
        config = hash_config(source)
        assert config["algorithm"] == "SCRYPT"
    finally:
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = server.host
        firebase_admin.delete_app(source_app)
        source.stop()

    users = json.loads(export.read_text())["users"]
    assert sorted(u["localId"] for u in users) == sorted([f"{prefix}-{i}" for i in range(5)] + [f"{prefix}-anon"])
    first = next(u for u in users if u["localId"] == f"{prefix}-0")
    assert set(first) >= {"localId", "email", "emailVerified", "passwordHash", "salt", "createdAt", "disabled"}
    assert "lastLoginAt" not in first
    records = [auth.ImportUserRecord(
        u["localId"], email=u.get("email"), display_name=u.get("displayName"),
        password_hash=base64.b64decode(u["passwordHash"]) if u.get("passwordHash") else None,
        password_salt=base64.b64decode(u["salt"]) if u.get("salt") else None) for u in users]
    result = auth.import_users(records, hash_alg=auth.UserImportHash.scrypt(
        key=base64.b64decode(config["base64_signer_key"]), salt_separator=base64.b64decode(config["base64_salt_separator"]),
        rounds=int(config["rounds"]), memory_cost=int(config["mem_cost"])), app=app)
    assert result.failure_count == 0, [e.reason for e in result.errors]
    for index in range(5):
        assert rest.sign_in(f"{prefix}-{index}@example.com", f"password-{index}")["localId"] == f"{prefix}-{index}"
    assert auth.get_user(f"{prefix}-3", app=app).display_name == "User, 3"


def test_a_firebase_json_with_scrypt_hashes_imports_and_signs_in(server, app, rest, unique, tmp_path):
    uid = unique("readme")
    path = tmp_path / "firebase-export.json"
    path.write_text(json.dumps({"users": [
        {"localId": uid, "email": f"{uid}@example.com", "emailVerified": True, "passwordHash": README_HASH,
         "salt": README_SALT, "displayName": "Readme", "createdAt": "1600000000000", "lastSignedInAt": "1600000001000",
         "disabled": False, "providerUserInfo": [{"providerId": "github.com", "rawId": f"gh-{uid}", "email": f"{uid}@example.com"}]},
    ]}, indent=2))
    result = accounts(server, "import", str(path), "--hash-algo", "SCRYPT", "--hash-key", README_SIGNER_KEY,
                      "--salt-separator", README_SALT_SEPARATOR, "--rounds", "8", "--mem-cost", "14")
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"imported 1 accounts from {path}\n"
    assert rest.sign_in(f"{uid}@example.com", README_PASSWORD)["localId"] == uid
    user = auth.get_user(uid, app=app)
    assert user.user_metadata.creation_timestamp == 1600000000000
    assert [p.provider_id for p in user.provider_data if p.provider_id == "github.com"] == ["github.com"]


def test_a_csv_round_trip_through_the_command_line(server, app, rest, unique, tmp_path):
    prefix = unique("csv")
    auth.create_user(uid=f"{prefix}-a", email=f"{prefix}-a@example.com", password="password-a", display_name='Quote "Q", Comma',
                     app=app)
    export = tmp_path / "users.csv"
    assert accounts(server, "export", str(export)).returncode == 0
    line = next(l for l in export.read_text().splitlines() if l.startswith(f"{prefix}-a,"))
    assert line.endswith(",")
    auth.delete_user(f"{prefix}-a", app=app)
    only = tmp_path / "one.csv"
    only.write_text(line + "\n")
    config = hash_config(server)
    result = accounts(server, "import", str(only), "--hash-algo", "SCRYPT", "--hash-key", config["base64_signer_key"],
                      "--salt-separator", config["base64_salt_separator"], "--rounds", config["rounds"],
                      "--mem-cost", config["mem_cost"])
    assert result.returncode == 0, result.stderr
    assert auth.get_user(f"{prefix}-a", app=app).display_name == 'Quote "Q", Comma'
    assert rest.sign_in(f"{prefix}-a@example.com", "password-a")["localId"] == f"{prefix}-a"


def test_an_export_names_what_firebases_format_has_no_place_for(unique, tmp_path):
    """firebase auth:export's files carry no Apple sign-in: the command says it left one out."""
    source = Server()
    previous = os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = source.host
    source_app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=unique("apple"))
    try:
        uid = unique("apple")
        result = auth.import_users([auth.ImportUserRecord(uid=uid, email=f"{uid}@example.com", provider_data=[
            auth.UserProvider(uid="apple-1", provider_id="apple.com"), auth.UserProvider(uid="google-1", provider_id="google.com")])],
            app=source_app)
        assert result.failure_count == 0
        export = tmp_path / "users.json"
        result = accounts(source, "export", str(export))
        assert result.returncode == 0, result.stderr
        assert result.stderr == (f"exported 1 accounts to {export}\n"
                                 "Not in the file, which Firebase's format has no place for: apple.com sign-ins of 1 account. "
                                 "Accounts imported from it come without them.\n")
        user = json.loads(export.read_text())["users"][0]
        assert [provider["providerId"] for provider in user["providerUserInfo"]] == ["google.com"]
    finally:
        if previous is None:
            os.environ.pop("FIREBASE_AUTH_EMULATOR_HOST")
        else:
            os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = previous
        firebase_admin.delete_app(source_app)
        source.stop()


def test_exporting_twice_to_one_name_replaces_the_file(server, app, unique, tmp_path):
    """An export to the name of an earlier one replaces it, every time."""
    prefix = unique("twice")
    auth.create_user(uid=f"{prefix}-a", app=app)
    export = tmp_path / "users.json"
    for _ in range(3):
        result = accounts(server, "export", str(export))
        assert result.returncode == 0, result.stderr
        assert f"{prefix}-a" in export.read_text()
    assert os.listdir(tmp_path) == ["users.json"]


def test_importing_old_anonymous_accounts_says_the_clean_up_will_delete_them(server, app, unique, tmp_path):
    """Imported anonymous accounts older than 30 days are deleted at the next start: the import says so."""
    prefix = unique("old-anon")
    old = "1700000000000"  # November 2023
    path = tmp_path / "anonymous.json"
    path.write_text(json.dumps({"users": [
        {"localId": f"{prefix}-1", "createdAt": old},
        {"localId": f"{prefix}-2", "createdAt": old},
        {"localId": f"{prefix}-3", "createdAt": old, "email": f"{prefix}-3@example.com"},
    ]}))
    result = accounts(server, "import", str(path))
    assert result.returncode == 0, result.stderr
    assert "imported 3 accounts" in result.stderr
    assert "note: 2 of them are anonymous accounts created more than 30 days ago" in result.stderr


def test_a_file_with_bad_records_names_them_and_imports_nothing(server, app, unique, tmp_path):
    prefix = unique("bad")
    path = tmp_path / "bad.json"
    path.write_text('{"users": [\n'
                    f'  {{"localId": "{prefix}-1", "email": "{prefix}@example.com"}},\n'
                    f'  {{"localId": "{prefix}-1"}},\n'
                    f'  {{"localId": "{prefix}-2", "email": "{prefix.upper()}@EXAMPLE.COM"}},\n'
                    f'  {{"localId": "{prefix}-3", "customAttributes": "{{\\"firebase\\": 1}}"}}\n'
                    ']}\n')
    result = accounts(server, "import", str(path))
    assert result.returncode != 0
    assert f"line 3 ({prefix}-1): duplicate uid (also on line 2)" in result.stderr
    assert f"line 4 ({prefix}-2): duplicate email" in result.stderr
    assert f"line 5 ({prefix}-3): custom claims refused: reserved claim firebase" in result.stderr
    assert "nothing imported" in result.stderr
    listed = [u.uid for u in auth.list_users(app=app).iterate_all() if u.uid.startswith(prefix)]
    assert listed == []

    unknown = accounts(server, "import", str(path), "--hash-algo", "ROT13")
    assert unknown.returncode != 0
    assert "Unknown hash algorithm 'ROT13'" in unknown.stderr


def test_list_filters_and_prints_json(server, app, unique):
    prefix = unique("listed")
    auth.create_user(uid=f"{prefix}-on", email=f"{prefix}-on@example.com", app=app)
    auth.create_user(uid=f"{prefix}-off", email=f"{prefix}-off@example.com", disabled=True, app=app)
    result = accounts(server, "list", "--filter", prefix, "--filter", "disabled", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert [u["uid"] for u in listed] == [f"{prefix}-off"]
    assert listed[0]["disabled"] is True
    assert "passwordHash" not in result.stdout
    table = accounts(server, "list", "--filter", prefix, "--sort", "uid", "--ascending")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].startswith("UID")
    assert [l.split()[0] for l in lines[1:]] == [f"{prefix}-off", f"{prefix}-on"]
    assert "disabled" in lines[1] and "unverified" in lines[1]


def on_a_terminal(server, *args):
    """`authdeck accounts …` with its standard error on a pseudo-terminal: what a person at one sees."""
    controller, terminal = os.openpty()
    try:
        result = accounts(server, *args, stderr=terminal)
    finally:
        os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO: the terminal's last holder has gone
            break
        if not chunk:
            break
        seen += chunk
    os.close(controller)
    return result, seen.decode()


def test_the_running_count_is_rewritten_in_place_on_a_terminal_only(server, app, unique, tmp_path):
    auth.create_user(uid=unique("counted"), app=app)
    export = tmp_path / "users.json"
    result, seen = on_a_terminal(server, "export", str(export))
    assert result.returncode == 0, seen
    assert re.fullmatch(rf"exported (\d+) accounts\rexported \1 accounts to {re.escape(str(export))}\r\n", seen), repr(seen)

    # An import whose second record the backend refuses: the refusal starts a line of its own, after the count.
    taken = unique("taken")
    auth.create_user(uid=taken, app=app)
    users = tmp_path / "import.json"
    users.write_text(f'{{"users": [\n  {{"localId": "{unique("fresh")}"}},\n  {{"localId": "{taken}"}}\n]}}\n')
    result, seen = on_a_terminal(server, "import", str(users), "--skip-invalid")
    assert result.returncode == 0, seen
    lines = seen.split("\r\n")
    assert lines[0] == "imported 1 of 2 accounts", repr(seen)
    assert lines[1].startswith(f"{users}: line 3 ({taken}): "), repr(seen)
    assert lines[2:] == [f"imported 1 accounts from {users}", ""], repr(seen)


def test_a_serve_that_refuses_the_admin_credentials_says_to_set_its_token(tmp_path):
    token = "interop-admin-token-" + uuid.uuid4().hex
    shared = Server("--admin-token", token)
    try:
        without = accounts(shared, "list")
        assert without.returncode != 0
        assert without.stderr == (f"Error: {shared.host} refused the administrator credentials: for an authdeck serve "
                                  "--admin-token, set AUTHDECK_ADMIN_TOKEN to its token.\n")
        wrong = accounts(shared, "export", str(tmp_path / "users.json"), admin_token="not-" + token)
        assert wrong.returncode != 0
        assert wrong.stderr == (f"Error: {shared.host} refused the token in AUTHDECK_ADMIN_TOKEN: set it to the token of its "
                                "authdeck serve --admin-token.\n")
        assert not (tmp_path / "users.json").exists()
        right = accounts(shared, "list", admin_token=token)
        assert right.returncode == 0, right.stderr
        assert right.stdout.startswith("UID")
    finally:
        shared.stop()
