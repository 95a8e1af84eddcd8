"""`authdeck ssh` driven by Debian's OpenSSH client, in tmux, as visitors and operators would."""
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import paramiko
import pytest

from authdeck_binary import authdeck_binary

UID = r"uid\s+([A-Za-z0-9]{28})"
SSH_OPTIONS = ["-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
               "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10"]


class SSHServer:
    """`authdeck ssh --port 0` on loopback; `port` and `fingerprint` come from its one line."""

    def __init__(self, data_dir, extra_args=(), env=None):
        self.data_dir = data_dir
        self.process = subprocess.Popen([authdeck_binary(), "ssh", "--host", "127.0.0.1", "--port", "0", "--data", data_dir,
                                         *extra_args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={**os.environ, **(env or {})})
        self.line = self.process.stdout.readline()
        match = re.search(r"listening on 127\.0\.0\.1:(\d+), host key 256 (SHA256:[A-Za-z0-9+/]{43}) \(ED25519\)$", self.line.strip())
        if not match:
            self.process.kill()
            raise AssertionError(f"authdeck ssh did not announce itself: {self.line!r}, stderr {self.process.stderr.read()!r}")
        self.port, self.fingerprint = int(match.group(1)), match.group(2)

    def client(self, user="demo", key=None, extra=()):
        """OpenSSH's client, with `key` or with none: then it is asked for a password, and answers an empty one."""
        if key:
            return ["ssh", *SSH_OPTIONS, "-o", "IdentitiesOnly=yes", "-i", key, "-p", str(self.port), *extra, f"{user}@127.0.0.1"]
        return ["sshpass", "-p", "", "ssh", *SSH_OPTIONS, "-o", "PubkeyAuthentication=no", "-p", str(self.port), *extra, f"{user}@127.0.0.1"]

    def consoles(self):
        """Process ids of the consoles this server started (its children but the fork server)."""
        out = subprocess.run(["pgrep", "-P", str(self.process.pid), "-x", "authdeck"], capture_output=True, text=True).stdout
        return {int(pid) for pid in out.split()}

    def log(self):
        with open(os.path.join(self.data_dir, "authdeck.log"), encoding="utf-8") as f:
            return f.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def ssh_server():
    started = []

    def launch(extra_args=(), data=None, env=None):
        server = SSHServer(data or tempfile.mkdtemp(prefix="authdeck-ssh-"), extra_args, env)
        started.append(server)
        return server

    yield launch
    for server in started:
        server.stop()
    for data in {server.data_dir for server in started}:
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def keys():
    directory = tempfile.mkdtemp(prefix="authdeck-ssh-keys-")
    paths = {}
    for name in ("operator", "other"):
        path = os.path.join(directory, name)
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path], check=True)
        paths[name] = path
    yield paths
    shutil.rmtree(directory, ignore_errors=True)


def wait_until(predicate, timeout, message):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(message)


def ssh_client_pid(c):
    """The ssh process in a tmux pane: under the pane's shell, or under sshpass there."""
    pane = subprocess.run(["tmux", "-L", f"authdeck-e2e-{os.getpid()}", "display-message", "-p", "-t", c.name, "#{pane_pid}"],
                          capture_output=True, text=True, check=True).stdout.strip()
    parents = [pane]
    while parents:
        for parent in parents:
            found = subprocess.run(["pgrep", "-P", parent, "-x", "ssh"], capture_output=True, text=True).stdout.split()
            if found:
                return int(found[0])
        parents = [child for parent in parents
                   for child in subprocess.run(["pgrep", "-P", parent], capture_output=True, text=True).stdout.split()]
    raise AssertionError("no ssh client in the pane")


def test_fingerprint_is_the_one_openssh_sees(ssh_server):
    server = ssh_server()
    scanned = subprocess.run(["ssh-keyscan", "-t", "ed25519", "-p", str(server.port), "127.0.0.1"],
                             capture_output=True, text=True, timeout=20).stdout
    printed = subprocess.run(["ssh-keygen", "-lf", "-"], input=scanned, capture_output=True, text=True, check=True).stdout
    assert printed.split()[1] == server.fingerprint
    key_file = os.path.join(server.data_dir, "ssh_host_ed25519_key")
    assert oct(os.stat(key_file).st_mode & 0o777) == "0o600"
    # The same key on the next start.
    server.stop()
    again = ssh_server(data=server.data_dir)
    assert again.fingerprint == server.fingerprint


def test_two_visitors_have_their_own_consoles_resize_and_hang_up(ssh_server, console):
    server = ssh_server()
    a = console(command=server.client())
    b = console(command=server.client())
    a.wait_for("Choose a sign-in method", timeout=20)
    b.wait_for("Choose a sign-in method", timeout=20)
    assert re.search(r"demo project guest-[0-9a-f]{12}", a.screen()) and "demo project" in b.screen()

    a.keys("Enter")
    uid_a = a.wait_for(UID).group(1)
    screen_b = b.screen()
    assert "Choose a sign-in method" in screen_b and not re.search(UID, screen_b)
    b.keys("Enter")
    uid_b = b.wait_for(UID).group(1)
    assert uid_a != uid_b
    # Visitors never share the saved session of the data directory's owner.
    assert not os.path.exists(os.path.join(server.data_dir, "session.json"))
    assert not [name for name in os.listdir(server.data_dir) if name.startswith("session")]

    # A window change reaches the console as SIGWINCH: below 80×24 it says so, and redraws when larger.
    a.resize(60, 20)
    a.wait_for("too small")
    a.resize(100, 30)
    a.wait_for(UID)

    consoles = server.consoles()
    assert len(consoles) == 2
    os.kill(ssh_client_pid(a), signal.SIGKILL)
    wait_until(lambda: len(server.consoles()) == 1, 5, f"a console outlived its client: {server.consoles()}")
    b.keys("i")
    b.wait_for("Inspector")
    b.keys("Escape")
    b.keys("q")
    assert b.wait_exit(timeout=15) == "0"
    wait_until(lambda: "exit=0" in server.log(), 5, "no log line for the ended session")
    line = [l for l in server.log().splitlines() if "ssh session" in l and "exit=0" in l][0]
    for field in ("address=127.0.0.1", "user=demo", "role=visitor", "key=none", "start=", "end="):
        assert field in line, line


def test_no_pty_no_command_no_subsystem(ssh_server):
    server = ssh_server()
    no_pty = subprocess.run(server.client(extra=["-T"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert no_pty.returncode == 1
    assert "needs a terminal" in no_pty.stderr

    marker = tempfile.mktemp(prefix="authdeck-ssh-ran-")
    command = subprocess.run(server.client() + [f"touch {marker}; ls /"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30)
    assert command.returncode == 1
    assert "never a command" in command.stderr
    assert "bin" not in command.stdout and not os.path.exists(marker)

    sftp = subprocess.run(["sshpass", "-p", "", "sftp", *SSH_OPTIONS, "-o", "PubkeyAuthentication=no", "-P", str(server.port), "demo@127.0.0.1"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert sftp.returncode != 0
    assert server.process.poll() is None


def test_forwarding_is_refused(ssh_server):
    server = ssh_server(["--login-timeout", "6"])
    # -R: the global request is refused, and the client says so.
    remote = subprocess.run(server.client(extra=["-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:22"]),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert remote.returncode != 0
    assert "forwarding failed" in remote.stderr

    # -X: swift-nio-ssh 0.15.1 cannot parse an x11-req (apple/swift-nio-ssh#221) and closes the
    # connection: no X11 either way, and the server goes on. Which words OpenSSH prints depends on whether
    # the close reaches it before its next write ("Broken pipe") or after (closed by remote host).
    x11 = subprocess.run(server.client(extra=["-X", "-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=30, env=dict(os.environ, DISPLAY=":99"))
    assert x11.returncode == 255 and ("closed by remote host" in x11.stderr or "Broken pipe" in x11.stderr), x11.stderr
    assert "Choose a sign-in method" not in x11.stdout

    # -L: the tunnel's channel is refused, nothing crosses it, and a connection with no session ends.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        local_port = probe.getsockname()[1]
    started = time.monotonic()
    tunnel = subprocess.Popen(server.client(extra=["-N", "-L", f"{local_port}:127.0.0.1:{server.port}"]),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        def try_tunnel():
            try:
                with socket.create_connection(("127.0.0.1", local_port), timeout=5) as s:
                    s.settimeout(5)
                    return s.recv(100)
            except OSError:
                return None
        answers = []
        wait_until(lambda: answers.append(try_tunnel()) or answers[-1] is not None, 4, "the -L listener never came up")
        # The tunnel leads to the SSH port itself: had the channel opened, its banner would come back.
        assert answers[-1] == b"", answers[-1]
        tunnel.wait(15)
        assert time.monotonic() - started < 15, "a connection with no session outlived the login timeout"
    finally:
        if tunnel.poll() is None:
            tunnel.kill()
            tunnel.wait()


def test_operators_and_visitors(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f:
        public = f.read()
    with open(operators, "w", encoding="utf-8") as f:
        f.write("# the presenters\n" + public)
    server = ssh_server(["--operators", operators])

    alice = console(command=server.client("alice", key=keys["operator"]))
    alice.wait_for(r"shared demo server \(operator\)", timeout=20)

    # An operator's name is theirs once they have logged in under it: another key cannot take it.
    other = subprocess.run(server.client("alice", key=keys["other"], extra=["-o", "BatchMode=yes"]),
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert other.returncode == 255 and "Permission denied" in other.stderr

    with_key = console(command=server.client("demo", key=keys["operator"]))
    without = console(command=server.client("demo"))
    for visitor in (with_key, without):
        visitor.wait_for("Choose a sign-in method", timeout=20)
        assert "(operator)" not in visitor.screen() and "demo project" in visitor.screen()

    alice.keys("q")
    assert alice.wait_exit(timeout=15) == "0"
    fingerprint = subprocess.run(["ssh-keygen", "-lf", keys["operator"] + ".pub"], capture_output=True, text=True,
                                 check=True).stdout.split()[1]
    wait_until(lambda: "user=alice" in server.log(), 5, "no log line for the operator")
    line = [l for l in server.log().splitlines() if "user=alice" in l][0]
    assert "role=operator" in line and f"key={fingerprint}" in line
    shutil.rmtree(os.path.dirname(operators), ignore_errors=True)


def test_only_operators_get_the_accounts_view(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    shutil.copy(keys["operator"] + ".pub", operators)
    server = ssh_server(["--operators", operators])

    # A visitor (even one offering the operator's key as `demo`): no `A` in any bar, and `A` does nothing.
    for visitor in (console(command=server.client("demo")), console(command=server.client("demo", key=keys["operator"]))):
        visitor.wait_for("Choose a sign-in method", timeout=20)
        assert "accounts" not in visitor.screen().splitlines()[-1]
        visitor.keys("A")
        visitor.keys("?")
        help_text = visitor.wait_for(r"Keys: Sign in[\s\S]*ctrl-c").group(0)
        assert "accounts" not in help_text
        visitor.keys("Escape")
        visitor.keys("Enter")
        visitor.wait_for("ANONYMOUS", timeout=20)
        assert "accounts" not in visitor.screen().splitlines()[-1]
        # Help, drawn after `A`, shows the key was read: it names the screen `A` left in place.
        visitor.keys("A", "?")
        visitor.wait_for(r"Keys: ")
        assert "Accounts" not in visitor.screen(), visitor.screen()
        visitor.keys("Escape")
        visitor.wait_for("ANONYMOUS")

    # The operator's accounts view is the server's own project: the visitors' accounts are in theirs.
    alice = console(command=server.client("alice", key=keys["operator"]))
    alice.wait_for(r"A accounts", timeout=20)
    alice.keys("A")
    alice.wait_for(r"0 accounts in all · no filter", timeout=20)
    alice.keys("Escape")
    for _ in range(2):
        alice.wait_for("Choose a sign-in method")
        alice.keys("Enter")
        alice.wait_for("ANONYMOUS", timeout=20)
        alice.keys("o")
        alice.wait_for(r"\[ Sign out \]")
        alice.keys("y")
        alice.wait_for("Signed out")
    alice.keys("A")
    alice.wait_for(r"2 accounts in all · no filter", timeout=20)
    # The visitors' projects are a key away: each with its account, and who it is for.
    alice.keys("P")
    alice.wait_for(r"Projects: this backend's own and its visitors'")
    # Each named by the visitor's name, then whether they are there, their address and key.
    alice.wait_for(r"guest-[0-9a-f]{12}\s+1 account\s+demo connected 127\.0\.0\.1 no key")
    alice.wait_for(r"visitor-[0-9a-f]{16}\s+1 account\s+demo connected 127\.0\.0\.1 SHA256:")
    alice.keys("Down")
    alice.keys("Down")
    alice.keys("Enter")
    alice.wait_for(r"1 account in all · no filter · project (guest|visitor)-", timeout=20)
    alice.wait_for(r"\(anonymous\)")
    alice.keys("P")
    alice.wait_for(r"▸ All projects")
    alice.keys("Down")
    alice.wait_for(r"▸ authdeck-local")
    alice.keys("Enter")
    alice.wait_for(r"2 accounts in all · no filter · project authdeck-local", timeout=20)
    alice.wait_for(r"\(anonymous\) .* A···")
    alice.keys("Space")
    alice.keys("Space")
    alice.wait_for(r"2 marked")
    alice.keys("d")
    alice.wait_for(r"Disable 2 marked accounts\?")
    alice.keys("y")
    alice.wait_for(r"ok: Disabled 2 accounts\. Written to the audit log\.", timeout=20)
    with open(os.path.join(server.data_dir, "audit-log.jsonl"), encoding="utf-8") as f:
        entry = f.read()
    fingerprint = subprocess.run(["ssh-keygen", "-lf", keys["operator"] + ".pub"], capture_output=True, text=True,
                                 check=True).stdout.split()[1]
    # The operator is named by their key's comment and fingerprint; the project is the server's own.
    assert '"action":"disable"' in entry and f'"operator":"operator ({fingerprint})"' in entry, entry
    assert '"project":"authdeck-local"' in entry
    # All projects: every account in one table, each with its project (cut at 80 columns, whole in the detail).
    alice.keys("P")
    alice.wait_for(r"▸ All projects")
    alice.keys("Enter")
    alice.wait_for(r"4 accounts in all · no filter · all projects", timeout=20)
    alice.wait_for(r"uid\s+project\s+email / phone")
    alice.wait_for(r"authdeck-… \(anonymous\)")
    alice.wait_for(r"guest-[0-9a-f]{3}… \(anonymous\)")
    alice.wait_for(r"visitor-[0-9a-f]… \(anonymous\)")
    alice.keys("Enter")
    alice.wait_for(r"project {13}authdeck-local", timeout=20)
    shutil.rmtree(os.path.dirname(operators), ignore_errors=True)


def test_the_operators_messages_pane_lists_every_visitors_messages(ssh_server, console, keys):
    from test_multi_factor import create_account

    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    shutil.copy(keys["operator"] + ".pub", operators)
    server = ssh_server(["--operators", operators])
    visitor = console(command=server.client(), width=80, height=24)
    project = visitor.wait_for(r"demo project (guest-[0-9a-f]{12})", timeout=20).group(1)
    create_account(visitor, "room@example.com", "hunter22")
    visitor.keys("v")
    visitor.wait_for("A verification email to room@example.com is in the outbox")

    # Wide enough for each row's project: at 80 columns it is cut, and named in the detail.
    alice = console(command=server.client("alice", key=keys["operator"]), width=120, height=24)
    alice.wait_for(r"A accounts", timeout=20)
    alice.keys("m")
    alice.wait_for(rf"room@example\.com\s+Verify your email\s+{project}", timeout=20)
    assert "/emulator/action" not in alice.screen(), alice.screen()
    alice.wait_for(rf"To room@example\.com in {project}: Verify your email\. Sent ")
    alice.keys("Enter")
    alice.keys("Escape")
    alice.wait_for(rf"That message is in project {project}: it opens from a console in that project")
    # The visitor's own pane still opens it.
    visitor.keys("m")
    visitor.wait_for("Verify your email")
    visitor.keys("Enter")
    visitor.wait_for("Email verified", timeout=20)
    shutil.rmtree(os.path.dirname(operators), ignore_errors=True)


def test_a_visitor_whose_account_the_operator_disables_is_told_why(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    shutil.copy(keys["operator"] + ".pub", operators)
    server = ssh_server(["--operators", operators])
    visitor = console(command=server.client("demo"))
    visitor.wait_for("Choose a sign-in method", timeout=20)
    visitor.keys("Enter")
    visitor.wait_for("ANONYMOUS", timeout=20)
    # A banner from before must not stand in for the reason.
    visitor.keys("r")
    visitor.wait_for("Reloaded: nothing changed")

    alice = console(command=server.client("alice", key=keys["operator"]))
    alice.wait_for(r"A accounts", timeout=20)
    alice.keys("A")
    alice.wait_for(r"0 accounts in all", timeout=20)
    alice.keys("P")
    alice.wait_for(r"guest-[0-9a-f]{12}\s+1 account")
    # All projects, then the backend's own, then the visitor's.
    alice.keys("Down", "Down")
    alice.wait_for(r"▸ guest-")
    alice.keys("Enter")
    alice.wait_for(r"1 account in all · no filter · project guest-", timeout=20)
    alice.keys("d")
    alice.wait_for(r"Disable: 1 account")
    alice.keys("y")
    alice.wait_for(r"ok: Disabled", timeout=20)

    # The console's quiet reload (every 15 s) finds out.
    screen = visitor.wait_for(r"This account was disabled by an administrator", timeout=25).string
    assert "Choose a sign-in method" in screen and "Reloaded: nothing changed" not in screen
    shutil.rmtree(os.path.dirname(operators), ignore_errors=True)


def test_over_the_limit_is_told_and_disconnected(ssh_server, console):
    server = ssh_server(["--max-sessions", "2"])
    first = console(command=server.client())
    second = console(command=server.client())
    first.wait_for("Choose a sign-in method", timeout=20)
    second.wait_for("Choose a sign-in method", timeout=20)
    started = time.monotonic()
    third = subprocess.run(server.client(extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert third.returncode == 1
    assert "full" in third.stderr + third.stdout and "try again later" in third.stderr + third.stdout
    assert "--max-sessions" in third.stderr + third.stdout
    assert time.monotonic() - started < 10
    # A place frees up when a visitor leaves.
    first.keys("q")
    first.wait_exit(timeout=15)
    wait_until(lambda: len(server.consoles()) == 1, 5, "the first console did not end")
    fourth = console(command=server.client())
    fourth.wait_for("Choose a sign-in method", timeout=20)


def test_sessions_per_address_are_limited_and_the_refusal_says_how_to_raise_it(ssh_server, console):
    server = ssh_server(["--max-sessions-per-address", "1"])
    first = console(command=server.client())
    first.wait_for("Choose a sign-in method", timeout=20)
    second = subprocess.run(server.client(extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    told = second.stderr + second.stdout
    assert second.returncode == 1 and "too many sessions from your address" in told
    # A room behind one NAT address meets this first: the message says what the presenter can do.
    assert "--max-sessions-per-address" in told


def test_idle_sessions_are_closed_with_a_notice_and_the_terminal_given_back(ssh_server, console):
    server = ssh_server(["--idle-timeout", "3"])
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)
    assert pane_flag(c, "alternate_on") == "1"
    c.wait_exit(timeout=20)
    screen = c.wait_for("AuthDeck: this session was closed after 3 seconds without input").string
    assert "AuthDeck ·" not in screen, screen
    assert pane_flag(c, "alternate_on") == "0" and pane_flag(c, "cursor_flag") == "1"
    wait_until(lambda: not server.consoles(), 5, "the idle console is still running")


def test_garbage_and_stalled_handshakes(ssh_server, console):
    server = ssh_server(["--login-timeout", "3"])
    for garbage in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"\n", os.urandom(4096), b"SSH-2.0-x\r\n" + os.urandom(2048)):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.settimeout(10)
            assert s.recv(100).startswith(b"SSH-2.0-")
            s.sendall(garbage)
            received = b""
            try:
                while chunk := s.recv(65536):
                    received += chunk
            except ConnectionResetError:
                pass
    stalled = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    stalled.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)
    stalled.settimeout(10)
    started = time.monotonic()
    try:
        while stalled.recv(65536):
            pass
    except ConnectionResetError:
        pass
    assert time.monotonic() - started < 8, "a stalled handshake outlived the login timeout"
    stalled.close()
    assert server.process.poll() is None
    c.keys("Enter")
    c.wait_for(UID)


ANSI = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78M]|\][^\x07]*\x07)")


class RawSession:
    """A session from paramiko, for what OpenSSH never sends: absurd pty sizes, resize floods."""

    def __init__(self, port, width, height):
        self.transport = paramiko.Transport(("127.0.0.1", port))
        self.transport.start_client(timeout=10)
        self.transport.auth_password("demo", "")
        self.channel = self.transport.open_session()
        self.channel.get_pty(term="xterm", width=width, height=height)
        self.channel.invoke_shell()
        self.channel.settimeout(0.5)
        self.output = b""

    def wait_for(self, text, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = self.channel.recv(1 << 20)
                if not chunk:
                    break
                self.output += chunk
            except socket.timeout:
                pass
            if text.encode() in ANSI.sub(b"", self.output):
                return
        raise AssertionError(f"{text!r} never came; got {ANSI.sub(b'', self.output)[-800:]!r}")

    def close(self):
        self.transport.close()


@pytest.mark.parametrize("width,height,first", [(0, 0, "Choose a sign-in method"), (10000, 10000, "Choose a sign-in method"),
                                                (1, 1, "T")])
def test_absurd_pty_sizes_get_a_console(ssh_server, width, height, first):
    server = ssh_server()
    raw = RawSession(server.port, width, height)
    try:
        # 0×0 means "unknown" (80×24 is used), 10000×10000 is clamped, 1×1 is drawn as what fits.
        raw.wait_for(first)
        raw.output = b""
        raw.channel.resize_pty(width=100, height=30)
        raw.wait_for("Choose a sign-in method")
    finally:
        raw.close()
    assert server.process.poll() is None


def test_window_change_flood_and_a_megabyte_paste(ssh_server, console):
    server = ssh_server()
    raw = RawSession(server.port, 100, 30)
    other = console(command=server.client())
    try:
        raw.wait_for("Choose a sign-in method")
        for i in range(3000):
            raw.channel.resize_pty(width=60 + i % 200, height=20 + i % 60)
        raw.channel.resize_pty(width=100, height=30)
        other.wait_for("Choose a sign-in method", timeout=20)
        # A megabyte of a key the sign-in screen does not use.
        raw.channel.settimeout(120)
        raw.channel.sendall(b"x" * (1 << 20))
        other.keys("Enter")
        other.wait_for(UID)
        raw.channel.settimeout(0.5)
        raw.channel.sendall(b"\r")
        # A debug build takes most of two minutes over a megabyte of keys on a busy machine.
        raw.wait_for("ANONYMOUS", timeout=240)
    finally:
        raw.close()
    assert server.process.poll() is None
    assert "xxxxxxxx" not in server.log()


def phone_sign_in(c, number):
    from test_multi_factor import texted_code

    c.wait_for("Choose a sign-in method")
    c.keys("8")
    c.wait_for("Sign in with a phone number")
    c.type(number)
    c.keys("Enter")
    code = texted_code(c)
    c.type(code)
    c.keys("Enter")
    c.wait_for(r"via phone")
    return code


def test_each_visitor_works_in_a_project_of_their_own(ssh_server, console, keys):
    from test_multi_factor import choose_method, create_account

    server = ssh_server()
    guest = console(command=server.client(), width=80, height=24)
    keyed = console(command=server.client("demo", key=keys["other"]), width=80, height=24)
    guest.wait_for(r"demo project guest-[0-9a-f]{12}", timeout=20)
    keyed.wait_for(r"demo project visitor-[0-9a-f]{16}", timeout=20)

    # The same address and the same number are two accounts, one in each project: the second
    # phone sign-in creates an account rather than signing in to the first.
    for c in (guest, keyed):
        create_account(c, "same@example.com", "hunter22")
        c.keys("o")
        c.wait_for("Signed out")
    # A reset asked for in one project is in that project's outbox only: each visitor asks for one,
    # the guest last, so the guest's outbox, once it shows its own, would show the other's too.
    for c in (keyed, guest):
        choose_method(c, "Reset a forgotten password")
        c.wait_for("Reset a forgotten password")
        c.type("same@example.com")
        c.keys("Enter")
        c.wait_for("reset email is in the outbox")
    for c in (keyed, guest):
        c.keys("m")
        c.wait_for("Messages: the backend's outbox")
        c.wait_for("Reset your password")
        assert len(re.findall(r"mail .* same@example\.com", c.screen())) == 1, c.screen()
        # The link points at the server's loopback address, which on the visitor's machine is
        # their own: the pane says what enter does instead of showing it.
        c.wait_for("enter opens it here")
        assert "127.0.0.1" not in c.screen() and "/emulator/action" not in c.screen(), c.screen()
        c.keys("Escape")
        c.keys("Escape")
    uids = []
    for c in (guest, keyed):
        phone_sign_in(c, "+15555550101")
        c.wait_for(r"Account created")
        uids.append(re.search(UID, c.screen()).group(1))
    assert uids[0] != uids[1]

    # A visitor with a key comes back to their project and their session; one without starts afresh.
    keyed.keys("q")
    assert keyed.wait_exit(timeout=15) == "0"
    guest.keys("q")
    assert guest.wait_exit(timeout=15) == "0"
    again = console(command=server.client("demo", key=keys["other"]), width=80, height=24)
    again.wait_for(uids[1], timeout=20)
    fresh = console(command=server.client(), width=80, height=24)
    fresh.wait_for("Choose a sign-in method", timeout=20)
    assert uids[0] not in fresh.screen()
    projects = sorted(os.listdir(os.path.join(server.data_dir, "projects")))
    assert len([p for p in projects if p.startswith("visitor-")]) == 1
    # The first guest's project keeps its accounts for a while; the second's is still open.
    assert len([p for p in projects if p.startswith("guest-")]) == 2
    fresh.keys("q")
    assert fresh.wait_exit(timeout=15) == "0"
    # A guest who leaves nothing behind leaves no project behind.
    wait_until(lambda: len([p for p in os.listdir(os.path.join(server.data_dir, "projects")) if p.startswith("guest-")]) == 1,
               10, "an empty guest project was kept")

    # The operator reaches every visitor's project from the command line, beside the running server.
    listed = subprocess.run([authdeck_binary(), "accounts", "projects", "--data", server.data_dir],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    fingerprint = subprocess.run(["ssh-keygen", "-lf", keys["other"] + ".pub"], capture_output=True, text=True,
                                 check=True).stdout.split()[1]
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    keyed_project = [p for p in projects if p.startswith("visitor-")][0]
    assert fingerprint in rows[keyed_project] and rows[keyed_project].split()[1] == "2"
    guest_project = [p for p in rows if p.startswith("guest-")][0]
    assert "no key" in rows[guest_project] and rows[guest_project].split()[1] == "2"
    for project, uid in ((guest_project, uids[0]), (keyed_project, uids[1])):
        accounts = subprocess.run([authdeck_binary(), "accounts", "list", "--data", server.data_dir, "--project", project, "--json"],
                                  capture_output=True, text=True, timeout=60)
        assert accounts.returncode == 0, accounts.stderr
        assert uid in accounts.stdout and "same@example.com" in accounts.stdout


def test_a_visitor_signs_in_with_an_email_link_and_links_a_new_phone_number(ssh_server, console):
    from test_email_link_and_email_change import open_first_message, send_sign_in_link
    from test_multi_factor import texted_code

    server = ssh_server()
    c = console(command=server.client(), width=80, height=24)
    c.wait_for("Choose a sign-in method", timeout=20)
    c.keys("0")
    send_sign_in_link(c, "fresh@example.com")
    open_first_message(c, "Sign in with this link")
    c.wait_for("Account created")
    c.wait_for("fresh@example.com")
    c.keys("n")
    c.wait_for("phone number")
    c.type("+15555550177")
    c.keys("Enter")
    c.type(texted_code(c))
    c.keys("Enter")
    c.wait_for(r"phone\s+\+15555550177")


def guest_projects(server):
    directory = os.path.join(server.data_dir, "projects")
    return sorted(p for p in os.listdir(directory) if p.startswith("guest-")) if os.path.isdir(directory) else []


def test_visitors_projects_are_bounded_however_often_they_reconnect(ssh_server, console):
    server = ssh_server(["--max-visitor-projects", "2"])
    # Reconnecting without a key and leaving nothing behind leaves no project behind.
    for _ in range(3):
        c = console(command=server.client(), width=80, height=24)
        c.wait_for("Choose a sign-in method", timeout=20)
        c.keys("q")
        assert c.wait_exit(timeout=15) == "0"
        wait_until(lambda: guest_projects(server) == [], 10, f"an empty guest project was kept: {guest_projects(server)}")
    # When every project is in use, the next visitor is told so, and how the presenter makes room.
    holders = [console(command=server.client(), width=80, height=24) for _ in range(2)]
    for holder in holders:
        holder.wait_for("Choose a sign-in method", timeout=20)
    refused = subprocess.run(server.client(extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1
    told = refused.stderr + refused.stdout
    assert "This demo is full" in told and "--max-visitor-projects" in told, told


def test_console_options_reach_every_visitor_and_the_invitation_is_printed(ssh_server, console):
    from test_multi_factor import create_account

    server = ssh_server(["--recent-login-window", "2", "--no-color", "--sdk", "kotlin"])
    invitation = "".join(server.process.stdout.readline() for _ in range(3))
    assert f"visitors type `ssh -p {server.port} NAME@127.0.0.1`" in invitation
    assert "NAME is how the room shows them" in invitation and "a taken one becomes ada-2" in invitation
    assert "at most 4 sessions come from one address (--max-sessions-per-address)" in invitation, invitation
    c = console(command=server.client(), width=80, height=24)
    create_account(c, "quick@example.com", "hunter22")
    # The SDK pane opens on Kotlin alone; l would show JavaScript next.
    c.keys("s")
    c.wait_for("l show JavaScript")
    screen = c.wait_for('createUserWithEmailAndPassword\\("quick@example.com"').string
    assert "Kotlin (Android)" in screen and "Swift (Apple platforms)" not in screen
    c.keys("Escape")
    time.sleep(3)
    c.keys("p")
    c.wait_for("Change the password")
    # The window is the server's, and the visitor's screen names it.
    c.wait_for("if you signed in more than 2 seconds ago")
    c.type("newpass1")
    c.keys("Enter")
    c.type("newpass1")
    c.keys("Enter")
    c.wait_for("Confirm it's you to change the password")
    # --no-color reached the console too: its screen has attributes (reverse, bold) and no colour.
    styled = subprocess.run(["tmux", "-L", f"authdeck-e2e-{os.getpid()}", "capture-pane", "-e", "-p", "-t", c.name],
                            capture_output=True, text=True, check=True).stdout
    colours = [code for sgr in re.findall(r"\x1b\[([0-9;]*)m", styled) for code in sgr.split(";") if re.fullmatch(r"3[0-8]|4[0-8]|9[0-7]|10[0-7]", code)]
    assert "\x1b[" in styled and not colours, colours


def test_stopping_the_server_hangs_up_every_console(ssh_server, console):
    server = ssh_server()
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)
    # The visitor's console reads and writes the shared backend before the stop.
    c.keys("Enter")
    c.wait_for("ANONYMOUS", timeout=20)
    consoles = server.consoles()
    assert len(consoles) == 1
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(15) == 0
    c.wait_exit(timeout=10)
    for pid in consoles:
        wait_until(lambda: not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z", 5,
                   "a console outlived the server")
    # A normal stop leaves no database WAL or shared memory, and does not log the shared backend's
    # cancellation as an error ("Waiting on child channel: CancellationError()").
    assert not [name for name in os.listdir(server.data_dir) if name in ("identity.sqlite-wal", "identity.sqlite-shm")]
    assert " error " not in server.log()


def pane_flag(c, name):
    """A tmux format variable of the console's pane (alternate_on, cursor_flag)."""
    return subprocess.run(["tmux", "-L", f"authdeck-e2e-{os.getpid()}", "display-message", "-p", "-t", c.name, f"#{{{name}}}"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_stopping_the_server_tells_each_console_and_gives_its_terminal_back(ssh_server, console, keys):
    server = ssh_server(["--operators", keys["operator"] + ".pub"])
    visitor = console(command=server.client())
    alice = console(command=server.client("alice", key=keys["operator"]))
    visitor.wait_for("Choose a sign-in method", timeout=20)
    visitor.keys("Enter")
    visitor.wait_for("ANONYMOUS", timeout=20)
    alice.wait_for(r"A accounts", timeout=20)
    assert pane_flag(visitor, "alternate_on") == "1"
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(15) == 0
    for c in (visitor, alice):
        # The console's own exit status, 128 + SIGTERM, reaches the client with the channel's close.
        assert c.wait_exit(timeout=10) == "143"
        screen = c.wait_for(r"AuthDeck: the demo server is stopping; this session ends now\.")
        assert "Choose a sign-in method" not in screen.string and "ANONYMOUS" not in screen.string
        assert pane_flag(c, "alternate_on") == "0" and pane_flag(c, "cursor_flag") == "1"
    assert " error " not in server.log()


def silent(server, source):
    """A TCP connection from `source` (any 127/8 address reaches the server) that never says a word."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))


def closed_by_server(s, timeout=20):
    """Whether the server closes `s` (reading whatever it sent first) within `timeout`."""
    s.settimeout(timeout)
    try:
        while s.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_connections_that_never_log_in_take_no_sessions_place(ssh_server, console):
    server = ssh_server(["--max-sessions", "2", "--handshake-timeout", "60", "--login-timeout", "60"])
    # Three times the session limit: four from one address, two from another (within the per-address limit).
    quiet = [silent(server, f"127.0.0.{2 + n // 4}") for n in range(6)]
    for s in quiet:
        assert s.recv(100).startswith(b"SSH-2.0-")
    first = console(command=server.client())
    first.wait_for("Choose a sign-in method", timeout=20)
    second = console(command=server.client())
    second.wait_for("Choose a sign-in method", timeout=20)
    # The sessions' places are the visitors': the third is told it is full.
    third = subprocess.run(server.client(extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert third.returncode == 1 and "full (2 sessions)" in third.stderr + third.stdout
    for s in quiet:
        s.close()
    first.keys("Enter")
    first.wait_for(UID)


def test_connections_beyond_the_handshake_bounds_are_closed_unheard_or_make_room(ssh_server, console):
    server = ssh_server(["--max-handshakes", "4", "--max-handshakes-per-address", "2", "--handshake-timeout", "60",
                         "--login-timeout", "60"])
    # One after the other, each heard before the next connects: connections that arrive together are
    # admitted in whichever order the server's event loops take them, and the test needs to know the oldest.
    held = []
    for _ in range(2):
        held.append(silent(server, "127.0.0.2"))
        assert held[-1].recv(100).startswith(b"SSH-2.0-")
    # A third from the same address is over its bound; from another address it is not.
    with silent(server, "127.0.0.2") as over:
        over.settimeout(10)
        try:
            assert over.recv(100) == b""
        except ConnectionResetError:
            pass
    for _ in range(2):
        held.append(silent(server, "127.0.0.3"))
        assert held[-1].recv(100).startswith(b"SSH-2.0-")
    # Four in all: a fifth address is heard, and the connection that has waited longest is closed for it.
    held.append(silent(server, "127.0.0.4"))
    assert held[-1].recv(100).startswith(b"SSH-2.0-")
    assert closed_by_server(held[0], timeout=10)
    assert all(not closed_by_server(s, timeout=0.2) for s in held[1:])
    # A visitor too: the stalled connections make room for them.
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)
    for s in held:
        s.close()
    assert server.process.poll() is None


def test_a_silent_connection_is_closed_at_the_handshake_deadline(ssh_server, console):
    server = ssh_server(["--handshake-timeout", "2", "--login-timeout", "120"])
    quiet = silent(server, "127.0.0.2")
    half = silent(server, "127.0.0.2")
    half.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
    # Well before the login timeout, each is closed.
    assert closed_by_server(quiet, timeout=30) and closed_by_server(half, timeout=30)
    quiet.close()
    half.close()
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)


def test_a_visitor_who_stops_reading_does_not_slow_the_others(ssh_server, console):
    server = ssh_server()
    # A small window that the client never opens again: the console's output backs up on its own pty.
    stuck = []
    for _ in range(3):
        transport = paramiko.Transport(("127.0.0.1", server.port))
        transport.start_client(timeout=10)
        transport.auth_password("demo", "")
        channel = transport.open_session(window_size=4096)
        channel.get_pty(term="xterm", width=200, height=60)
        channel.invoke_shell()
        stuck.append((transport, channel))
    wait_until(lambda: len(server.consoles()) == 3, 20, "the unread consoles did not start")
    for _, channel in stuck:
        for _ in range(20):
            channel.send(b"?")
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)
    c.keys("Enter")
    c.wait_for(UID)
    assert len(server.consoles()) == 4 and all(transport.is_active() for transport, _ in stuck)
    for transport, _ in stuck:
        transport.close()
