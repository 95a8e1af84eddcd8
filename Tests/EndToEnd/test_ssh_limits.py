"""`authdeck ssh` against those who would take the room from everyone else: sessions that never
start a console, signature floods, handshake floods, local users knocking on the consoles' backend."""
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import paramiko
import pytest
from paramiko.common import cMSG_SERVICE_REQUEST, cMSG_USERAUTH_REQUEST, MSG_SERVICE_ACCEPT, MSG_USERAUTH_BANNER, MSG_USERAUTH_FAILURE

from authdeck_binary import authdeck_binary
from test_room import project_accounts
from test_ssh import keys, ssh_server, wait_until  # noqa: F401 (fixtures)


def operators_file(keys):
    path = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(path, "w", encoding="utf-8") as out:
        out.write(f.read())
    return path


def logged_in_without_a_console(port, source="127.0.0.1"):
    """A visitor's connection that logs in and opens a session channel, then asks for nothing."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0), timeout=10)
    transport = paramiko.Transport(sock)
    transport.start_client(timeout=10)
    transport.auth_password("demo", "")
    return transport, transport.open_session()


def visitor_reaches_sign_in(console, server, source):
    """Seconds from starting OpenSSH's client (from `source`) to the sign-in screen."""
    started = time.monotonic()
    c = console(command=server.client(extra=["-b", source]))
    c.wait_for("Choose a sign-in method", timeout=30)
    return time.monotonic() - started


def test_a_session_that_never_starts_a_console_gives_its_place_back(ssh_server, console):
    server = ssh_server(["--max-sessions", "1", "--login-timeout", "4"])
    held, _ = logged_in_without_a_console(server.port)
    # It holds the one place while it logs in...
    full = subprocess.run(server.client(extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert "full (1 sessions)" in full.stderr + full.stdout
    # ...and the login timeout runs until a console runs, not until a channel is open.
    wait_until(lambda: not held.is_active(), 10, "a session without a console outlived the login timeout")
    c = console(command=server.client())
    c.wait_for("Choose a sign-in method", timeout=20)


def test_idle_and_duration_limits_count_from_login(ssh_server, console):
    server = ssh_server(["--max-duration", "6", "--login-timeout", "20"])
    transport, channel = logged_in_without_a_console(server.port)
    time.sleep(4)
    channel.get_pty(term="xterm", width=80, height=24)
    started = time.monotonic()
    channel.invoke_shell()
    wait_until(lambda: channel.exit_status_ready(), 10, "the session outlived its limit")
    # Six seconds from login, of which four went before the shell.
    assert time.monotonic() - started < 4.5
    transport.close()


@pytest.mark.parametrize("limit, notice", [("--max-duration", "reached its limit"), ("--idle-timeout", "without input")])
def test_a_limit_reached_while_the_console_starts_ends_it_once_it_runs(ssh_server, limit, notice):
    server = ssh_server([limit, "1", "--login-timeout", "30"])
    def fork_server():
        return subprocess.run(["pgrep", "-P", str(server.process.pid), "-x", "authdeck-forker"], capture_output=True, text=True).stdout.split()
    # It takes its name once it has drawn a console's first screen and serves.
    wait_until(lambda: len(fork_server()) == 1, 20, "the fork server did not start")
    forker = fork_server()
    transport, channel = logged_in_without_a_console(server.port)
    channel.get_pty(term="xterm", width=80, height=24)
    # A stopped fork server holds the console's start for its answer timeout (3 s), past the one-second limit.
    os.kill(int(forker[0]), signal.SIGSTOP)
    try:
        channel.invoke_shell()
        output = b""
        deadline = time.monotonic() + 15
        while not (channel.exit_status_ready() and not channel.recv_ready()) and time.monotonic() < deadline:
            if channel.recv_ready():
                output += channel.recv(65536)
            else:
                time.sleep(0.05)
        assert channel.exit_status_ready(), "a console started past its limit ran on"
        assert notice in output.decode(errors="replace")
        assert not server.consoles()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(forker[0]), signal.SIGCONT)
        transport.close()


def test_the_room_shows_a_session_logging_in_and_the_presenter_ends_it(ssh_server, console, keys):
    # Every visitor's place is held by a connection that never starts a console: the operators' reserve is still there.
    server = ssh_server(["--operators", operators_file(keys), "--max-sessions", "1", "--login-timeout", "60"])
    held, _ = logged_in_without_a_console(server.port, "127.0.0.7")
    alice = console(command=server.client("alice", key=keys["operator"]), width=110, height=30)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    alice.keys("A")
    alice.wait_for("Accounts")
    alice.keys("W")
    alice.wait_for(r"2 sessions \(1 visitor\)", timeout=10)
    alice.wait_for(r" demo +Logging in")
    alice.keys("/")
    alice.type("logging in")
    alice.keys("Enter")
    alice.wait_for(r"\(1 shown\)")
    alice.keys("x")
    alice.wait_for(r"End this session\?")
    alice.keys("y")
    wait_until(lambda: not held.is_active(), 10, "the presenter could not end a session logging in")
    alice.wait_for(r"1 session \(0 visitors\)", timeout=5)


def test_a_shell_without_a_pty_is_refused(ssh_server):
    server = ssh_server()
    transport, channel = logged_in_without_a_console(server.port)
    channel.invoke_shell()
    wait_until(lambda: channel.exit_status_ready(), 10, "a shell without a pty was not refused")
    assert channel.recv_exit_status() == 1
    assert b"needs a terminal" in channel.recv_stderr(1000)
    transport.close()


class SignatureFlood:
    """One connection's key exchange, then `attempts` public-key requests for an operator's name at
    once, each signed with a P-521 key over another session: the server checks every signature it reads."""

    key = paramiko.ECDSAKey.generate(bits=521)
    signature = key.sign_ssh_data(os.urandom(64)).asbytes()

    def __init__(self, port, source):
        """The key exchange; a refused connection raises here."""
        self.failures = 0
        sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0), timeout=10)
        self.transport = paramiko.Transport(sock)
        table = self.transport._handler_table
        # Answers are counted, never answered as "unimplemented" (which would end the connection by itself).
        table[MSG_SERVICE_ACCEPT] = table[MSG_USERAUTH_BANNER] = lambda m: None
        table[MSG_USERAUTH_FAILURE] = self.failed
        self.transport.start_client(timeout=10)

    def run(self, attempts=1000):
        """Sends until the server closes the connection."""
        try:
            self.send(cMSG_SERVICE_REQUEST, "ssh-userauth")
            for _ in range(attempts):
                self.send(cMSG_USERAUTH_REQUEST, "root", "ssh-connection", "publickey", True, self.key.get_name(), self.key.asbytes(),
                          self.signature)
        except (EOFError, OSError, paramiko.SSHException):
            pass

    def send(self, kind, *fields):
        message = paramiko.Message()
        message.add_byte(kind)
        for field in fields:
            message.add_boolean(field) if isinstance(field, bool) else message.add_string(field)
        self.transport._send_message(message)

    def failed(self, message):
        self.failures += 1


def test_a_signature_flood_is_cut_short_and_slows_only_its_address(ssh_server, console):
    server = ssh_server()
    floods, refused, errors = [], [], []

    def flood():
        try:
            f = SignatureFlood(server.port, "127.9.0.1")
        except (EOFError, OSError, paramiko.SSHException) as error:
            # Once the address has used up enough tries, its next connections are closed before the key exchange.
            refused.append(error)
            return
        floods.append(f)
        try:
            f.run()
            wait_until(lambda: not f.transport.is_active(), 60, "a flooding connection was never closed")
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=flood) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    # A visitor from elsewhere while the flood runs.
    waited = visitor_reaches_sign_in(console, server, "127.3.0.9")
    for thread in threads:
        thread.join(90)
    assert not errors, errors
    # Each connection ends after a few tries (MaxAuthTries), not a thousand.
    assert floods and len(floods) + len(refused) == 8 and all(f.failures <= 13 for f in floods), ([f.failures for f in floods], refused)
    assert waited < 2, f"the visitor waited {waited:.1f} s for the sign-in screen"
    # The flooding address is refused for a while (closed before the server's version line); another is not.
    for source, refused in (("127.9.0.1", True), ("127.9.0.2", False)):
        with socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0), timeout=10) as s:
            try:
                greeting = s.recv(100)
            except ConnectionResetError:
                greeting = b""
            assert greeting.startswith(b"SSH-2.0-") != refused, (source, greeting)
    assert "left after failed authentication attempts" in server.log()


def refused_unheard(server, source):
    """Whether a connection from `source` is closed before the server's version line."""
    with socket.create_connection(("127.0.0.1", server.port), source_address=(source, 0), timeout=10) as s:
        try:
            return not s.recv(100).startswith(b"SSH-2.0-")
        except ConnectionResetError:
            return True


def test_connections_that_stop_short_of_their_tries_still_cost_their_address(ssh_server):
    server = ssh_server()
    for _ in range(4):
        # Four failed signatures each, two short of --max-auth-tries, then the client goes.
        f = SignatureFlood(server.port, "127.9.2.1")
        f.run(attempts=4)
        wait_until(lambda: f.failures >= 4, 30, "the tries were not answered")
        f.transport.close()
    # 4 x 5 s is past 15 s: the address is refused for a while, another is not.
    wait_until(lambda: refused_unheard(server, "127.9.2.1"), 10, "an address whose connections keep failing was never refused")
    assert not refused_unheard(server, "127.9.2.2")


def test_a_handshake_flood_keeps_no_visitor_out(ssh_server, console):
    server = ssh_server()
    stop = threading.Event()
    held = []

    def stall(number):
        s = socket.socket()
        s.bind((f"127.10.{number // 250}.{number % 250 + 1}", 0))
        s.settimeout(10)
        s.connect(("127.0.0.1", server.port))
        s.sendall(b"SSH-2.0-stalled\r\n")
        return s

    def hold():
        # 300 stalled handshakes from 300 addresses, each renewed as the server closes it.
        sockets = {number: stall(number) for number in range(300)}
        held.append(len(sockets))
        while not stop.is_set():
            for number, s in list(sockets.items()):
                s.setblocking(False)
                try:
                    gone = s.recv(65536) == b""
                except BlockingIOError:
                    gone = False
                except OSError:
                    gone = True
                if gone:
                    s.close()
                    sockets[number] = stall(number)
            time.sleep(0.05)
        for s in sockets.values():
            s.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        wait_until(lambda: held, 30, "the stalled handshakes were not opened")
        waited = visitor_reaches_sign_in(console, server, "127.3.0.10")
        assert waited < 3, f"the visitor waited {waited:.1f} s for the sign-in screen"
    finally:
        stop.set()
        holder.join(30)


def test_a_room_behind_an_exempt_address_is_not_closed_by_one_attendees_flood(ssh_server, console):
    server = ssh_server(["--penalty-exempt", "127.9.1.1"])
    floods = []
    for _ in range(8):
        # Each connection still ends after its tries...
        f = SignatureFlood(server.port, "127.9.1.1")
        f.run()
        wait_until(lambda: not f.transport.is_active(), 60, "a flooding connection was never closed")
        floods.append(f.failures)
    assert all(failures <= 13 for failures in floods), floods
    # ...but the room's address stays open to the others behind it.
    assert visitor_reaches_sign_in(console, server, "127.9.1.1") < 5
    bad = subprocess.run([authdeck_binary(), "ssh", "--penalty-exempt", "room.example"], capture_output=True, text=True, timeout=30)
    assert bad.returncode != 0 and "IPv4 or IPv6 address" in bad.stderr


class SlowLink:
    """A network with 50 ms each way between a visitor at `source` and the server: a key exchange
    takes a few hundred milliseconds, as it does over a conference's Wi-Fi."""

    def __init__(self, port, source):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.target, self.source = port, source
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        client, _ = self.listener.accept()
        server = socket.create_connection(("127.0.0.1", self.target), source_address=(self.source, 0))
        for a, b in ((client, server), (server, client)):
            threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    @staticmethod
    def pump(source, destination):
        try:
            while chunk := source.recv(65536):
                time.sleep(0.05)
                destination.sendall(chunk)
        except OSError:
            pass
        for s in (source, destination):
            s.close()


def test_new_connections_cannot_close_a_key_exchange_while_a_flood_holds_the_pool_logging_in(ssh_server, console):
    server = ssh_server(["--max-handshakes", "32", "--handshake-timeout", "60", "--login-timeout", "60"])
    held, stop = [], threading.Event()
    for number in range(31):
        # Key exchange done, one `none` request, then silence: each is logging in.
        transport = paramiko.Transport(socket.create_connection(("127.0.0.1", server.port), source_address=(f"127.11.0.{number + 1}", 0)))
        transport.start_client(timeout=10)
        try:
            transport.auth_none("demo")
        except paramiko.BadAuthenticationType:
            pass
        held.append(transport)

    def stream():
        # A new bare connection every 50 ms, each from another address.
        for number in range(400):
            if stop.is_set():
                break
            s = socket.socket()
            s.bind((f"127.12.{number // 250}.{number % 250 + 1}", 0))
            s.connect(("127.0.0.1", server.port))
            s.sendall(b"SSH-2.0-stalled\r\n")
            held.append(s)
            time.sleep(0.05)

    streamer = threading.Thread(target=stream)
    streamer.start()
    try:
        link = SlowLink(server.port, "127.3.0.12")
        started = time.monotonic()
        command = server.client()
        command[command.index(str(server.port))] = str(link.port)
        c = console(command=command)
        c.wait_for("Choose a sign-in method", timeout=20)
        waited = time.monotonic() - started
        assert waited < 5, f"the visitor waited {waited:.1f} s for the sign-in screen"
    finally:
        stop.set()
        streamer.join(30)
        for h in held:
            h.close()


def backend_port(server):
    """The loopback port of the backend `authdeck ssh` serves its consoles (its listening socket that is not SSH's)."""
    listening = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True, check=True).stdout
    for line in listening.splitlines():
        if f"pid={server.process.pid}," in line:
            port = int(line.split()[3].rsplit(":", 1)[1])
            if port != server.port:
                return port
    raise AssertionError(f"no backend port for pid {server.process.pid}:\n{listening}")


def test_the_consoles_backend_answers_only_the_consoles(ssh_server, console, keys):
    server = ssh_server(["--operators", operators_file(keys)])
    port = backend_port(server)
    # Any local user may reach the port; without a console's credential they are refused, whatever key they bring.
    for key in ("anything", "authdeck", "adk-authdeck-local-AAAAAAAAAAAAAAAAAAAAAA"):
        request = urllib.request.Request(f"http://127.0.0.1:{port}/identitytoolkit.googleapis.com/v1/accounts:signUp?key={key}",
                                         data=b'{"returnSecureToken":true}', headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raise AssertionError(f"signed up with key {key!r}: {response.status} {response.read()[:200]!r}")
        except urllib.error.HTTPError as error:
            assert error.code == 400 and "API key not valid" in json.loads(error.read())["error"]["message"], key
    assert sum(project_accounts(server).values()) == 0
    # The consoles it started still reach it: a visitor's project and the operators' own.
    visitor = console(command=server.client())
    visitor.wait_for("Choose a sign-in method", timeout=20)
    visitor.keys("Enter")
    visitor.wait_for(r"uid\s+[A-Za-z0-9]{28}", timeout=20)
    alice = console(command=server.client("alice", key=keys["operator"]), width=100, height=30)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    alice.keys("Enter")
    alice.wait_for(r"uid\s+[A-Za-z0-9]{28}", timeout=20)
    assert sorted(n for n in project_accounts(server).values() if n) == [1, 1]
    # Its command line names no credential.
    for pid in server.consoles():
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            arguments = f.read().decode(errors="replace")
        assert "adk-" not in arguments and not re.search(r"[0-9a-f]{40}", arguments), arguments
