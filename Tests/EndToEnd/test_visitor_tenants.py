"""`authdeck ssh --emulator` on a shared `authdeck serve`: each visitor works in an Identity Platform tenant
of their own, which this host makes, gives back to their key, removes when a guest leaves it empty, and
empties at the presenter's reset; its console holds the tenant's key, never the serve's admin token."""
import json
import os
import re
import secrets
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request

from authdeck_binary import authdeck_binary
from test_ssh import UID, keys, ssh_server, wait_until  # noqa: F401 (fixtures)

PROJECT = "authdeck-local"
TOKEN = "e2e-admin-" + secrets.token_hex(12)


def call(serve, method, path, body=None):
    """An administrator's request to the serve, with its admin token."""
    request = urllib.request.Request(serve.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"{}")


def tenants(serve):
    listed = call(serve, "GET", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants?pageSize=1000")
    return {tenant["name"].split("/")[-1]: tenant for tenant in listed.get("tenants", [])}


def accounts(serve, tenant=None):
    scope = f"/tenants/{tenant}" if tenant else ""
    answer = call(serve, "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}{scope}/accounts:query", {"returnUserInfo": False})
    return int(answer.get("recordsCount", "0"))


def sandboxes(host):
    """This host's visitors' sandboxes, each with its record (who it is for, its tenant)."""
    root = os.path.join(host.data_dir, "visitor-tenants")
    found = {}
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        path = os.path.join(root, name, "owner.json")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                found[name] = json.load(f)
    return found


def held_in_memory(pid, needles):
    """Which of `needles` are anywhere in the process's writable memory: its environment, heap and stacks. A
    forked console's /proc/PID/environ still shows the fork server's, not the one it was given."""
    found = set()
    with open(f"/proc/{pid}/maps", encoding="utf-8") as maps, open(f"/proc/{pid}/mem", "rb", 0) as memory:
        for line in maps:
            addresses, permissions = line.split()[:2]
            if not permissions.startswith("rw"):
                continue
            start, end = (int(part, 16) for part in addresses.split("-"))
            try:
                memory.seek(start)
                region = memory.read(end - start)
            except OSError:
                continue
            found.update(needle for needle in needles if needle in region)
    return found


def test_each_visitor_works_in_a_tenant_of_their_own_that_this_host_alone_manages(served, ssh_server, console, keys):
    serve = served(env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        out.write(f.read())
    host = ssh_server(["--emulator", serve.address, "--operators", operators, "--max-sessions-per-address", "8"],
                      env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    # Another host's visitor on the same serve: this host never touches their tenant.
    stranger = call(serve, "POST", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants", {"displayName": "visitor-other"})
    stranger_id = stranger["name"].split("/")[-1]
    call(serve, "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/tenants/{stranger_id}/accounts", {"email": "x@example.com"})

    # A visitor with a key: a tenant of their own, with every method of the room on, named after them.
    ada = console(command=host.client("ada", key=keys["other"]), width=100, height=30)
    ada.wait_for("Choose a sign-in method", timeout=30)
    [(sandbox, record)] = sandboxes(host).items()
    tenant = record["tenantId"]
    assert sandbox.startswith("visitor-") and record["owner"]["name"] == "ada", record
    made = tenants(serve)[tenant]
    assert made["displayName"] == "visitor-ada" and made.get("allowPasswordSignup") and made.get("enableEmailLinkSignin"), made
    assert made.get("enableAnonymousUser") and made.get("mfaConfig", {}).get("state") == "ENABLED", made
    ada.wait_for(rf"tenant {tenant}")

    # Their console holds the tenant's key, never the admin token.
    [pid] = host.consoles()
    key = call(serve, "GET", f"/emulator/v1/projects/{PROJECT}/tenants/{tenant}/apiKey")["apiKey"]
    assert held_in_memory(pid, [f"AUTHDECK_API_KEY={key}".encode(), TOKEN.encode()]) == {f"AUTHDECK_API_KEY={key}".encode()}

    # Sign-up, and the verification email read from the tenant's outbox.
    ada.keys("3")
    ada.wait_for("Create an account")
    ada.type("ada@example.com")
    ada.keys("Tab")
    ada.type("secret123")
    ada.keys("Enter")
    ada.wait_for("Account created", timeout=20)
    ada.keys("v")
    ada.wait_for("is in the outbox")
    ada.keys("m")
    ada.wait_for(r"ada@example\.com +Verify your email", timeout=10)
    ada.keys("Enter")
    ada.wait_for("Email verified", timeout=10)
    assert accounts(serve, tenant) == 1 and accounts(serve) == 0
    ada.keys("q")
    assert ada.wait_exit(timeout=15) == "0"

    # Back with the same key under another name: the same tenant, signed in as before.
    again = console(command=host.client("someone", key=keys["other"]), width=100, height=30)
    again.wait_for(rf"tenant {tenant} · ada@example\.com", timeout=30)
    again.wait_for(r"ada@example\.com \(verified\)")
    assert list(sandboxes(host)) == [sandbox]

    # A guest who leaves with nothing in their tenant takes it along.
    ben = console(command=host.client("ben"), width=100, height=30)
    ben.wait_for("Choose a sign-in method", timeout=30)
    guests = {name: entry["tenantId"] for name, entry in sandboxes(host).items() if name.startswith("guest-")}
    [(guest, guest_tenant)] = guests.items()
    assert guest_tenant in tenants(serve)
    ben.keys("q")
    assert ben.wait_exit(timeout=15) == "0"
    wait_until(lambda: guest not in sandboxes(host) and guest_tenant not in tenants(serve), 15, "the guest's empty tenant stayed")

    # The presenter's reset: this host's visitors' tenants emptied, the other host's untouched.
    visitors_consoles = host.consoles()
    alice = console(command=host.client("alice", key=keys["operator"]), width=100, height=30)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    # The operator's console, in the project itself, is the one that holds the token.
    [operator_pid] = host.consoles() - visitors_consoles
    assert held_in_memory(operator_pid, [TOKEN.encode()]) == {TOKEN.encode()}
    alice.keys("A")
    alice.wait_for("Accounts")
    alice.keys("W")
    alice.wait_for(r"2 sessions \(1 visitor\) · order", timeout=10)
    alice.keys("R")
    alice.wait_for("Reset the demo?")
    alice.wait_for("untouched")
    dialog = re.sub(r"[\s│|]+", " ", alice.screen())
    assert "1 visitor project (1 account" in dialog and "the 1 visitor connected now" in dialog, dialog
    alice.keys("y")
    alice.wait_for("The demo was reset", timeout=15)
    again.wait_for("The presenter reset the demo", timeout=10)
    assert accounts(serve, tenant) == 0 and tenant in tenants(serve)
    assert accounts(serve, stranger_id) == 1 and stranger_id in tenants(serve)
    alice.keys("l")
    alice.wait_for(rf"alice@127\.0\.0\.1 reset the demo: 1 project, 1 account, 1 visitor told\n")
    alice.wait_for(rf"ada@127\.0\.0\.1 joined, project {tenant}")
    # The visitor starts again in the same tenant.
    again.wait_for("Choose a sign-in method")
    again.keys("Enter")
    again.wait_for(UID, timeout=10)
    wait_until(lambda: accounts(serve, tenant) == 1, 10, "the anonymous account is not in the visitor's tenant")
    again.keys("q")
    assert again.wait_exit(timeout=15) == "0"

    # A tenant deleted behind the host's back: the visitor's key gets a new one, recorded in its place.
    call(serve, "DELETE", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants/{tenant}")
    back = console(command=host.client("ada", key=keys["other"]), width=100, height=30)
    back.wait_for("Choose a sign-in method", timeout=30)
    renewed = sandboxes(host)[sandbox]["tenantId"]
    assert renewed != tenant and tenants(serve)[renewed]["displayName"] == "visitor-ada"
    back.wait_for(rf"tenant {renewed}")


def test_a_host_that_cannot_manage_tenants_says_what_is_missing_and_shared_project_needs_none(served, ssh_server, console, keys):
    serve = served(env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    data = tempfile.mkdtemp(prefix="authdeck-ssh-")
    environment = {name: value for name, value in os.environ.items() if name not in ("AUTHDECK_ADMIN_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS")}
    for backend, missing in ((["--emulator", serve.address], "AUTHDECK_ADMIN_TOKEN"),
                             (["--project", "some-project", "--api-key", "some-key"], "GOOGLE_APPLICATION_CREDENTIALS")):
        stopped = subprocess.run([authdeck_binary(), "ssh", "--host", "127.0.0.1", "--port", "0", "--data", data, *backend],
                                 env=environment, capture_output=True, text=True, timeout=30)
        told = re.sub(r"\s+", " ", stopped.stderr)
        assert stopped.returncode != 0 and missing in told and "--shared-project" in told, (stopped.returncode, told)
        assert "listening" not in stopped.stdout
    assert tenants(serve) == {}

    # --shared-project: every console in the project itself, as before tenants; the admin token the host
    # holds goes to an operator's console only.
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        out.write(f.read())
    host = ssh_server(["--emulator", serve.address, "--shared-project", "--operators", operators], env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    visitor = console(command=host.client("ada"), width=100, height=30)
    visitor.wait_for("Choose a sign-in method", timeout=30)
    visitor.keys("Enter")
    visitor.wait_for(UID, timeout=10)
    assert "tenant" not in visitor.screen().splitlines()[0] and sandboxes(host) == {} and tenants(serve) == {}
    assert accounts(serve) == 1
    [visitor_pid] = host.consoles()
    assert held_in_memory(visitor_pid, [TOKEN.encode()]) == set()
    alice = console(command=host.client("alice", key=keys["operator"]), width=100, height=30)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    [operator_pid] = host.consoles() - {visitor_pid}
    assert held_in_memory(operator_pid, [TOKEN.encode()]) == {TOKEN.encode()}


def test_at_the_limit_an_empty_tenant_makes_room_and_one_holding_work_never_does(served, ssh_server, console, keys):
    serve = served(env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    host = ssh_server(["--emulator", serve.address, "--max-visitor-projects", "1"], env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    keyed = console(command=host.client("ada", key=keys["other"]), width=100, height=30)
    keyed.wait_for("Choose a sign-in method", timeout=30)
    keyed.keys("q")
    assert keyed.wait_exit(timeout=15) == "0"
    [(_, record)] = sandboxes(host).items()
    assert record["tenantId"] in tenants(serve)

    # The keyed visitor's tenant holds nothing: it makes room for a guest, on the serve too.
    guest = console(command=host.client("ben"), width=100, height=30)
    guest.wait_for("Choose a sign-in method", timeout=30)
    guest.keys("Enter")
    guest.wait_for(UID, timeout=10)
    [(name, entry)] = sandboxes(host).items()
    assert name.startswith("guest-") and set(tenants(serve)) == {entry["tenantId"]}

    # The guest's tenant holds an account and is in use: the next visitor is told, and nothing goes.
    refused = subprocess.run(host.client("cy", extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1 and "This demo is full" in refused.stderr + refused.stdout, refused
    assert list(sandboxes(host)) == [name] and accounts(serve, entry["tenantId"]) == 1


def test_two_connections_with_one_key_at_once_share_one_tenant(served, ssh_server, console, keys):
    serve = served(env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    host = ssh_server(["--emulator", serve.address], env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    both = [console(command=host.client("ada", key=keys["other"]), width=100, height=30) for _ in range(2)]
    for visitor in both:
        visitor.wait_for(r"tenant [A-Za-z0-9-]+", timeout=30)
    [(_, record)] = sandboxes(host).items()
    assert list(tenants(serve)) == [record["tenantId"]]
    for visitor in both:
        visitor.wait_for(rf"tenant {record['tenantId']}")


class Relay:
    """A TCP relay to a serve, as the host's backend, that can be made slow (each answer held `delay`
    seconds) or a black hole (connections accepted, nothing answered): a backend that hangs."""

    def __init__(self, port):
        self.port, self.mode, self.delay = port, "pass", 0.0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.held.append(client)
            if self.mode == "black hole":
                continue
            upstream = socket.create_connection(("127.0.0.1", self.port))
            asked = threading.Event()
            threading.Thread(target=self._pipe, args=(client, upstream, asked, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, asked, True), daemon=True).start()

    def _pipe(self, source, sink, asked, answers):
        try:
            while data := source.recv(65536):
                if self.mode == "black hole":
                    continue
                if not answers:
                    asked.set()
                elif asked.is_set() and self.mode == "slow":
                    asked.clear()
                    time.sleep(self.delay)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            sink.close()

    def close(self):
        self.listener.close()
        for held in self.held:
            held.close()


def test_a_backend_that_stops_answering_is_told_to_the_visitor_never_a_silent_close(served, ssh_server, console, keys):
    serve = served(env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
    relay = Relay(serve.port)
    try:
        host = ssh_server(["--emulator", relay.address, "--login-timeout", "10"], env={"AUTHDECK_ADMIN_TOKEN": TOKEN})
        ada = console(command=host.client("ada", key=keys["other"]), width=100, height=30)
        ada.wait_for("Choose a sign-in method", timeout=30)
        ada.keys("q")
        assert ada.wait_exit(timeout=15) == "0"

        # The backend accepts and never answers: the visitor is told, well within the login time.
        relay.mode = "black hole"
        started = time.monotonic()
        refused = subprocess.run(host.client("ada", key=keys["other"], extra=["-tt"]), stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, timeout=30)
        told = refused.stderr + refused.stdout
        assert refused.returncode == 1 and "could not prepare your sandbox; try again later" in told, refused
        assert time.monotonic() - started < 10

        # Each answer comes, slowly: the sandbox is not ready at the login time, which the visitor is told in a line.
        relay.mode, relay.delay = "slow", 4
        late = subprocess.run(host.client("ada", key=keys["other"], extra=["-tt"]), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=30)
        told = late.stderr + late.stdout
        assert late.returncode == 1 and "AuthDeck: your console did not start within 10 seconds; try again later." in told, late
        # The console that came too late never runs on.
        time.sleep(6)
        assert host.consoles() == set()
    finally:
        relay.close()


def test_a_visitors_console_that_cannot_reach_the_backend_says_so_in_a_sentence(console):
    listener = socket.create_server(("127.0.0.1", 0))

    def hang_up():
        while True:
            try:
                listener.accept()[0].close()
            except OSError:
                return

    threading.Thread(target=hang_up, daemon=True).start()
    try:
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        c = console(extra_args=["--ssh-role", "visitor", "--emulator", address, "--project", PROJECT, "--tenant", "t-1"], width=200, height=30)
        assert c.wait_exit(timeout=20) != "0"
        c.wait_for(r"Try again in a moment\.")
        screen = c.screen()
        assert re.search(rf"AuthDeck could not start: [^\n]*the emulator at {re.escape(address)}[^\n]*\. Try again in a moment\.", screen), screen
        assert 'network("' not in screen, screen
    finally:
        listener.close()
