"""The OpenSSH recipe in assets/openssh: Debian's sshd with the snippet, on a loopback port, a
password-less visitor account, and `authdeck serve` as the shared backend. Needs root (sshd,
useradd); CI runs the tests as root."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from authdeck_binary import authdeck_binary

ASSETS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "assets", "openssh")
SSHD = "/usr/sbin/sshd"

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="the recipe test starts sshd and adds a user account: run it as root (CI does)"),
    pytest.mark.skipif(not os.path.exists(SSHD), reason="Debian's openssh-server is not installed (Tests/test-all.sh installs it)"),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def recipe():
    user = f"adk{os.getpid() % 100000}"
    work = tempfile.mkdtemp(prefix="authdeck-recipe-")
    os.chmod(work, 0o755)
    token = os.urandom(24).hex()
    # The backend as the recipe's authdeck-serve.service runs it, with an admin token.
    env_token = dict(os.environ, AUTHDECK_ADMIN_TOKEN=token)
    serve = subprocess.Popen([authdeck_binary(), "serve", "--port", "0", "--data", os.path.join(work, "backend")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_token)
    address = re.search(r"listening on http://(127\.0\.0\.1:\d+) ", serve.stdout.readline()).group(1)

    # The binary where the visitor's account can run it (a checkout under /root is not reachable).
    binary = os.path.join(work, "authdeck")
    shutil.copy(authdeck_binary(), binary)
    os.chmod(binary, 0o755)

    subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", user], check=True)
    subprocess.run(["passwd", "-d", user], check=True, capture_output=True)
    consoles = os.path.join(work, "consoles")
    os.mkdir(consoles, 0o700)
    shutil.chown(consoles, user, user)

    with open(os.path.join(ASSETS, "authdeck-visitors.conf"), encoding="utf-8") as f:
        snippet = f.read()
    snippet = re.sub(r"^Match User demo$", f"Match User {user}", snippet, flags=re.M)
    snippet = snippet.replace("/usr/local/bin/authdeck", binary).replace("127.0.0.1:9099", address)
    snippet = snippet.replace("/var/lib/authdeck-demo", consoles).replace("replace-with-the-token-of-authdeck-serve", token)
    assert f"Match User {user}" in snippet and binary in snippet and token in snippet

    port = free_port()
    host_key = os.path.join(work, "host_key")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", host_key], check=True)
    config = os.path.join(work, "sshd_config")
    with open(config, "w", encoding="utf-8") as f:
        f.write(f"Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\nPidFile {work}/sshd.pid\n"
                "UsePAM yes\nKbdInteractiveAuthentication no\nSubsystem sftp internal-sftp\n" + snippet)
    os.chmod(config, 0o600)
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
    subprocess.run([SSHD, "-t", "-f", config], check=True)
    sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", config], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "sshd did not start"
            time.sleep(0.1)
    try:
        yield {"user": user, "port": port, "consoles": consoles}
    finally:
        sshd.terminate()
        sshd.wait(10)
        serve.terminate()
        serve.wait(10)
        subprocess.run(["pkill", "-KILL", "-u", user], capture_output=True)
        subprocess.run(["userdel", "--remove", user], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def client(recipe, *extra):
    return ["ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "-o", "PubkeyAuthentication=no", "-o", "BatchMode=yes",
            "-p", str(recipe["port"]), *extra, f"{recipe['user']}@127.0.0.1"]


def test_the_visitor_logs_in_with_no_password_and_gets_the_console(recipe, console):
    c = console(command=client(recipe))
    c.wait_for("Choose a sign-in method", timeout=30)
    assert "shared demo server" in c.screen()
    c.keys("Enter")
    c.wait_for(r"uid\s+[A-Za-z0-9]{28}")
    c.keys("q")
    assert c.wait_exit(timeout=15) == "0"
    # The console kept its session in memory: nothing in the visitors' data directory says who.
    assert not [name for name in os.listdir(recipe["consoles"]) if name.startswith("session")]


def test_forced_command_and_no_forwarding(recipe):
    marker = tempfile.mktemp(prefix="authdeck-recipe-ran-")
    command = subprocess.run(client(recipe) + [f"touch {marker}"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30)
    # The forced command ran instead: the console, which without a terminal says so and ends.
    assert command.returncode == 1 and "needs an interactive terminal" in command.stderr, command.stderr
    assert not os.path.exists(marker)
    forward = subprocess.run(client(recipe, "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:22"),
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert forward.returncode != 0 and "forwarding failed" in forward.stderr
