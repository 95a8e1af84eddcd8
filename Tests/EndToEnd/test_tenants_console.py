"""The console and `authdeck accounts` within an Identity Platform tenant of `authdeck serve`, made
through the administrator API as the Admin SDK's tenant_mgt makes it."""
import json
import os
import subprocess
import time
import urllib.request

from authdeck_binary import authdeck_binary
from test_multi_factor import create_account

PROJECT = "authdeck-local"


def make_tenant(server, display_name):
    request = urllib.request.Request(
        f"{server.url}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants",
        data=json.dumps({"displayName": display_name, "allowPasswordSignup": True}).encode(),
        headers={"Authorization": "Bearer owner", "Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["name"].split("/")[-1]


def accounts(server, *args, cwd=None):
    return subprocess.run([authdeck_binary(), "accounts", *args, "--emulator", server.address],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def emails(server, *args):
    listed = accounts(server, "list", "--json", *args)
    assert listed.returncode == 0, listed.stderr
    return sorted(user.get("email") for user in json.loads(listed.stdout))


def test_a_console_in_a_tenant_signs_up_there_and_the_operator_sees_it_there_only(console, served, data_dir):
    server = served()
    tenant = make_tenant(server, "Team A")
    c = console(extra_args=["--emulator", server.address, "--tenant", tenant], width=80, height=24)
    c.wait_for("Choose a sign-in method")
    assert f"tenant {tenant} · signed out" in c.screen().splitlines()[0]
    create_account(c, "same@example.com", "hunter22")
    title = c.screen().splitlines()[0]
    assert title.rstrip().endswith(f"tenant {tenant} · same@example.com"), title
    # The operator's accounts view of a console in a tenant is the tenant's.
    c.keys("A")
    c.wait_for(r"1 account in all · no filter")
    assert "same@example.com" in c.screen()
    c.keys("Escape")
    c.wait_for("same@example.com")
    c.keys("q")
    assert c.wait_exit() == "0"
    c.kill()

    assert emails(server, "--tenant", tenant) == ["same@example.com"]
    assert emails(server) == []
    assert os.path.exists(os.path.join(data_dir, f"session-emulator-127.0.0.1-{server.port}-tenant-{tenant}.json"))

    # The project's console does not resume the tenant's saved session, and the same address there is
    # another account.
    project = console(extra_args=["--emulator", server.address], width=80, height=24)
    project.wait_for("Choose a sign-in method")
    project.keys("A")
    project.wait_for(r"0 accounts in all · no filter")
    project.keys("Escape")
    create_account(project, "same@example.com", "other-secret")
    assert "tenant" not in project.screen().splitlines()[0]
    project.keys("q")
    assert project.wait_exit() == "0"
    tenant_users = json.loads(accounts(server, "list", "--json", "--tenant", tenant).stdout)
    project_users = json.loads(accounts(server, "list", "--json").stdout)
    assert [u["email"] for u in project_users] == ["same@example.com"]
    assert tenant_users[0]["uid"] != project_users[0]["uid"]

    # Each kept its saved session: the tenant's console resumes its own account.
    again = console(extra_args=["--emulator", server.address, "--tenant", tenant], width=80, height=24)
    again.wait_for(f"tenant {tenant} · same@example.com")
    assert again.wait_for(r"uid\s+(\S+)").group(1) == tenant_users[0]["uid"]
    again.keys("q")
    assert again.wait_exit() == "0"


def test_accounts_export_and_import_stay_within_their_tenant(served, tmp_path):
    server = served()
    first, second = make_tenant(server, "First"), make_tenant(server, "Second")
    users = tmp_path / "users.json"
    users.write_text(json.dumps({"users": [{"localId": "u-ada", "email": "ada@example.com"},
                                           {"localId": "u-bob", "email": "bob@example.com"}]}))
    imported = accounts(server, "import", str(users), "--tenant", first)
    assert imported.returncode == 0, imported.stderr
    assert emails(server, "--tenant", first) == ["ada@example.com", "bob@example.com"]

    exported = tmp_path / "first.json"
    written = accounts(server, "export", str(exported), "--tenant", first)
    assert written.returncode == 0, written.stderr
    assert sorted(u["email"] for u in json.loads(exported.read_text())["users"]) == ["ada@example.com", "bob@example.com"]
    again = accounts(server, "import", str(exported), "--tenant", second)
    assert again.returncode == 0, again.stderr
    assert emails(server, "--tenant", second) == ["ada@example.com", "bob@example.com"]
    assert emails(server) == []


def test_an_unknown_tenant_is_told_before_anything_is_done(console, served):
    server = served()
    listed = accounts(server, "list", "--tenant", "no-such-tenant")
    assert listed.returncode != 0
    assert "There is no tenant no-such-tenant in project authdeck-local" in listed.stderr
    c = console(extra_args=["--emulator", server.address, "--tenant", "no-such-tenant"], width=80, height=24)
    assert c.wait_exit(timeout=20) != "0"
    c.wait_for("There is no tenant no-such-tenant")
    bad = console(extra_args=["--emulator", server.address, "--tenant", "team_a"], width=80, height=24)
    assert bad.wait_exit(timeout=20) != "0"
    bad.wait_for("--tenant needs a tenant id")


def admin_create(server, tenant, email):
    """An account made by the administrator, in `tenant` or (None) the project's own."""
    scope = f"/tenants/{tenant}" if tenant else ""
    request = urllib.request.Request(
        f"{server.url}/identitytoolkit.googleapis.com/v1/projects/{PROJECT}{scope}/accounts",
        data=json.dumps({"email": email, "password": "hunter22"}).encode(),
        headers={"Authorization": "Bearer owner", "Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["localId"]


def settled(c):
    """The screen once two captures in a row agree: a frame caught half drawn is never read."""
    previous = c.screen()
    for _ in range(100):
        time.sleep(0.1)
        current = c.screen()
        if current == previous:
            return current
        previous = current
    raise AssertionError(f"the screen never settled:\n{previous}")


def listed_rows(c, *rows):
    """The projects-and-tenants list once each of `rows` is drawn: the list's lines from "All projects"."""
    for row in rows:
        c.wait_for(row)
    lines = settled(c).splitlines()
    start = next(i for i, line in enumerate(lines) if "All projects (every project's accounts in one table)" in line)
    return lines[start:]


def test_an_operator_picks_a_tenant_sees_and_acts_on_its_accounts_only_and_goes_back(console, served, data_dir):
    server = served()
    team_a, team_b = make_tenant(server, "Team A"), make_tenant(server, "Team B")
    admin_create(server, team_a, "ada@team-a.example")
    admin_create(server, team_a, "bob@team-a.example")
    admin_create(server, team_b, "cy@team-b.example")
    admin_create(server, None, "own@example.com")

    c = console(extra_args=["--emulator", server.address], width=80, height=24)
    c.wait_for("Choose a sign-in method")
    # From sign-in, P is the list of projects and tenants: the project's tenants under it, counted.
    c.keys("P")
    rows = listed_rows(c, r"2 accounts\s+tenant Team A", r"1 account\s+tenant Team B")
    assert any(line.strip().startswith("authdeck-local ") and "1 account" in line and "the backend's own" in line for line in rows), rows
    tenant_a_row = next(i for i, line in enumerate(rows) if team_a in line)
    assert "2 accounts" in rows[tenant_a_row] and "tenant Team A" in rows[tenant_a_row]
    assert rows[0].lstrip().startswith("▸ All projects"), rows
    for _ in range(tenant_a_row):
        c.keys("Down")
    c.wait_for(rf"▸\s+{team_a}")
    c.keys("Enter")
    c.wait_for(rf"2 accounts in all · no filter · tenant {team_a}")
    c.wait_for("bob@team-a.example")
    c.wait_for("ada@team-a.example")
    screen = settled(c)
    assert screen.splitlines()[0].startswith(" AuthDeck · Accounts of tenant Team A "), screen
    assert "cy@team-b.example" not in screen and "own@example.com" not in screen

    # An action on one of the tenant's accounts is done in the tenant, and audited as the tenant's.
    c.keys("/")
    c.keys("ada")
    c.wait_for(rf"1 account matches · filter: \"ada\" · tenant {team_a}")
    c.keys("Enter")
    c.keys("d")
    c.wait_for("Disable the account")
    c.keys("y")
    c.wait_for("Disabled 1 account. Written to the audit log.")
    tenant_users = {u["email"]: u for u in json.loads(accounts(server, "list", "--json", "--tenant", team_a).stdout)}
    assert tenant_users["ada@team-a.example"].get("disabled") is True
    assert not tenant_users["bob@team-a.example"].get("disabled")
    assert not any(u.get("disabled") for u in json.loads(accounts(server, "list", "--json", "--tenant", team_b).stdout))
    assert not any(u.get("disabled") for u in json.loads(accounts(server, "list", "--json").stdout))
    with open(os.path.join(data_dir, "audit-log.jsonl"), encoding="utf-8") as log:
        entries = [json.loads(line) for line in log if line.strip()]
    assert [(e["action"], e.get("tenant")) for e in entries] == [("disable", team_a)]

    # Back to the project's own accounts: its row in the same list.
    c.keys("Escape")
    c.wait_for(rf"2 accounts in all · no filter · tenant {team_a}")
    c.keys("P")
    rows = listed_rows(c, r"2 accounts\s+tenant Team A", r"1 account\s+tenant Team B")
    # This time it starts on the tenant shown, a step below the project's own row.
    assert rows[1].strip().startswith("authdeck-local ")
    assert rows[tenant_a_row].split() == ["▸", team_a, "2", "accounts", "tenant", "Team", "A"], rows
    for _ in range(tenant_a_row - 1):
        c.keys("Up")
    c.wait_for(r"▸\s+authdeck-local ")
    c.keys("Enter")
    c.wait_for(r"1 account in all · no filter · project authdeck-local · sort: created ↓")
    c.wait_for("own@example.com")
    screen = settled(c)
    assert screen.splitlines()[0].startswith(" AuthDeck · Accounts "), screen
    assert "tenant" not in screen.splitlines()[0]
    assert "team-a.example" not in screen and "cy@team-b.example" not in screen
    c.keys("q")
    assert c.wait_exit() == "0"
