"""A room on two `authdeck ssh` hosts sharing one `authdeck serve`: every visitor in an Identity
Platform tenant of their own, each presenter with a room of their own. Real OpenSSH clients in tmux."""
import json
import os
import re
import tempfile
import urllib.request

from test_multi_factor import create_account
from test_ssh import UID, keys, phone_sign_in, ssh_server, wait_until  # noqa: F401 (fixtures)

ADMIN_TOKEN = "several-hosts-admin-token"
PROJECT = "authdeck-local"


def admin(serve, method, path, body=None):
    """An administrator's call to the shared backend, as the Admin SDKs make it."""
    request = urllib.request.Request(f"{serve.url}/identitytoolkit.googleapis.com/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def emails_by_tenant(serve):
    """Every tenant of the backend's project and the addresses of its accounts."""
    listed = admin(serve, "GET", f"v2/projects/{PROJECT}/tenants?pageSize=1000").get("tenants", [])
    found = {}
    for tenant in listed:
        tenant_id = tenant["name"].split("/")[-1]
        users = admin(serve, "GET", f"v1/projects/{PROJECT}/tenants/{tenant_id}/accounts:batchGet?maxResults=100").get("users", [])
        found[tenant_id] = sorted(user.get("email") or user.get("phoneNumber") or user["localId"] for user in users)
    return found


def test_two_hosts_on_one_backend_keep_their_visitors_and_rooms_apart(served, ssh_server, console, keys):
    environment = {"AUTHDECK_ADMIN_TOKEN": ADMIN_TOKEN}
    serve = served(env=environment)
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        out.write(f.read())
    hosts = [ssh_server(["--emulator", serve.address, "--operators", operators], env=environment) for _ in range(2)]
    visitors = [console(command=host.client("ada"), width=80, height=24) for host in hosts]

    # The same address in two sandboxes: two accounts. The same number: two accounts, each sign-in
    # answered by the code in its own visitor's phone pane.
    for c in visitors:
        create_account(c, "ada@example.com", "hunter22")
        c.keys("o")
        c.wait_for("Signed out")
    uids = []
    for c in visitors:
        phone_sign_in(c, "+15555550101")
        c.wait_for("Account created")
        uids.append(re.search(UID, c.screen()).group(1))
        c.keys("o")
        c.wait_for("Signed out")
    assert uids[0] != uids[1]
    # Mail never crosses: each asks for a password reset, the second visitor last; each outbox shows one.
    for c in visitors:
        c.wait_for("Choose a sign-in method")
        c.keys("9")
        c.wait_for("Reset a forgotten password")
        c.type("ada@example.com")
        c.keys("Enter")
        c.wait_for("reset email is in the outbox")
    for c in visitors:
        c.keys("m")
        c.wait_for("Reset your password")
        assert len(re.findall(r"mail .* ada@example\.com", c.screen())) == 1, c.screen()
        c.keys("Escape")
        c.keys("Escape")

    accounts = emails_by_tenant(serve)
    assert sorted(accounts.values()) == [["+15555550101", "ada@example.com"]] * 2, accounts

    # Each presenter's room holds their own host's visitors only; the reset empties only theirs.
    alice = console(command=hosts[0].client("alice", key=keys["operator"]), width=100, height=30)
    alice.wait_for(r"\(operator\)", timeout=30)
    alice.keys("W")
    alice.wait_for(r"2 sessions \(1 visitor\)", timeout=10)
    alice.keys("R")
    alice.wait_for("Reset the demo?")
    alice.keys("y")
    alice.wait_for("The demo was reset", timeout=20)
    visitors[0].wait_for("The presenter reset the demo", timeout=10)
    after = emails_by_tenant(serve)
    assert sorted(after.values()) == [[], ["+15555550101", "ada@example.com"]], after
    assert "reset the demo" not in visitors[1].screen(), visitors[1].screen()

    # The first host stops: its visitor's session ends; the other host's visitor works on.
    hosts[0].stop()
    assert hosts[0].process.returncode == 0
    visitors[1].wait_for("Choose a sign-in method")
    visitors[1].keys("2")
    visitors[1].wait_for("Sign in with email and password")
    visitors[1].type("ada@example.com")
    visitors[1].keys("Tab")
    visitors[1].type("hunter22")
    visitors[1].keys("Enter")
    visitors[1].wait_for(UID, timeout=20)
    visitors[1].keys("m")
    visitors[1].wait_for("Reset your password")
    visitors[1].keys("Escape")
    visitors[1].keys("Escape")
    visitors[1].keys("q")
    assert visitors[1].wait_exit(timeout=15) == "0"
    # The second host's visitor left an account behind: their tenant stays for them.
    wait_until(lambda: sorted(emails_by_tenant(serve).values())[-1] == ["+15555550101", "ada@example.com"], 10,
               "the second host's visitor's tenant was lost")
