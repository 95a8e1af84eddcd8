"""The real console in tmux against `authdeck serve` over HTTP, as against a Firebase Auth Emulator."""
import os
import re
import signal
import uuid

from test_console import UID, link_email_and_password, sign_in_with_email
from test_multi_factor import create_account


def test_the_console_drives_a_served_backend_over_http(console, served, data_dir):
    server = served()
    c = console(extra_args=["--emulator", server.address])
    c.wait_for("Choose a sign-in method")
    assert f"emulator {server.address}" in c.screen()
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    uid = c.wait_for(UID).group(1)
    c.keys("a")
    c.wait_for("Add to cart")
    c.type("apple")
    c.keys("Enter")
    c.wait_for(r"1 × apple")

    link_email_and_password(c, "ada@example.com", "hunter22")
    screen = c.screen()
    assert "ANONYMOUS" not in screen
    assert re.search(UID, screen).group(1) == uid
    assert f"emulator {server.address}" in screen

    c.keys("o")
    c.wait_for("Signed out")
    sign_in_with_email(c, "ada@example.com", "hunter22")
    c.wait_for("Signed in")
    assert c.wait_for(UID).group(1) == uid
    assert "1 × apple" in c.screen()

    # The inspector lists the real HTTP exchanges, secrets shortened.
    c.keys("i")
    c.wait_for("accounts:signInWithPassword 200")
    assert "accounts:signUp 200" in c.screen() and "hunter22" not in c.screen()
    c.keys("Escape")
    c.keys("q")
    assert c.wait_exit() == "0"

    # The accounts live in the served backend; the console keeps only its session, cart and log,
    # and its session file is the emulator's, not the embedded backend's.
    assert not os.path.exists(os.path.join(data_dir, "identity.sqlite"))
    assert os.path.exists(os.path.join(server.data_dir, "identity.sqlite"))
    session = f"session-emulator-127.0.0.1-{server.port}.json"
    assert os.path.exists(os.path.join(data_dir, session))
    assert not os.path.exists(os.path.join(data_dir, "session.json"))
    assert server.stop() == 0


def test_the_saved_session_belongs_to_its_backend(console, served, data_dir):
    server = served()
    c = console(env={"FIREBASE_AUTH_EMULATOR_HOST": server.address})
    c.wait_for("Choose a sign-in method")
    assert f"emulator {server.address}" in c.screen()
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    c.keys("q")
    assert c.wait_exit() == "0"
    c.kill()

    # The embedded backend in the same data directory does not resume the emulator's session.
    embedded = console()
    embedded.wait_for("Choose a sign-in method")
    assert "embedded" in embedded.screen()
    embedded.keys("q")
    assert embedded.wait_exit() == "0"
    embedded.kill()

    # The flag wins over the variable: a second server, named by --emulator, has no session either.
    other = served()
    flagged = console(extra_args=["--emulator", other.address], env={"FIREBASE_AUTH_EMULATOR_HOST": server.address})
    flagged.wait_for("Choose a sign-in method")
    assert f"emulator {other.address}" in flagged.screen()
    flagged.keys("q")
    flagged.wait_exit()
    flagged.kill()

    # Back on the first server, the anonymous session resumes.
    again = console(extra_args=["--emulator", server.address])
    again.wait_for("ANONYMOUS")


def test_two_consoles_share_one_served_backend(console, served, tmp_path):
    server = served()
    first = console(data=str(tmp_path / "first"), extra_args=["--emulator", server.address])
    second = console(data=str(tmp_path / "second"), extra_args=["--emulator", server.address])

    first.wait_for("Choose a sign-in method")
    first.keys("Down", "Down", "Enter")
    first.wait_for("Create an account")
    first.type("grace@example.com")
    first.keys("Tab")
    first.type("hopper1")
    first.keys("Enter")
    first.wait_for("Account created")
    uid = first.wait_for(UID).group(1)

    sign_in_with_email(second, "grace@example.com", "hopper1")
    second.wait_for("Signed in")
    assert second.wait_for(UID).group(1) == uid

    # A change made in one console is what the other signs in with.
    first.keys("p")
    first.wait_for("Change the password")
    first.type("newpass1")
    first.keys("Enter")
    first.type("newpass1")
    first.keys("Enter")
    first.wait_for("Password changed")
    second.keys("o")
    second.wait_for("Signed out")
    sign_in_with_email(second, "grace@example.com", "hopper1")
    second.wait_for("INVALID_LOGIN_CREDENTIALS")
    second.keys("Escape")
    sign_in_with_email(second, "grace@example.com", "newpass1")
    second.wait_for("Signed in")
    assert second.wait_for(UID).group(1) == uid


def test_a_stopped_server_is_a_network_error_not_a_crash(console, served):
    server = served()
    c = console(extra_args=["--emulator", server.address])
    c.wait_for("Choose a sign-in method")
    assert server.stop() == 0
    c.keys("Enter")
    c.wait_for("could not be reached")
    assert f"the emulator at {server.address} refused the connection (is it running?)" in c.screen()
    c.keys("i")
    c.wait_for("accounts:signUp unreachable")
    assert "transportError" in c.screen()
    c.keys("Escape")
    c.keys("C-c")
    assert c.wait_exit() == "0"


def test_ctrl_c_with_a_console_connected_leaves_no_write_ahead_log(console, served):
    """After a console's lookups, stopping serve with ctrl-c (SIGINT) leaves no identity.sqlite-wal or -shm."""
    server = served()
    c = console(extra_args=["--emulator", server.address])
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    c.keys("r")
    c.wait_for("Reloaded: nothing changed")
    assert server.stop(signal.SIGINT) == 0
    assert not [name for name in os.listdir(server.data_dir) if name in ("identity.sqlite-wal", "identity.sqlite-shm")]
    assert "identity.sqlite" in os.listdir(server.data_dir)


def test_the_outbox_of_a_server_with_an_admin_token(console, served):
    # The console takes the token from the variable serve reads, never from its command line.
    token = f"e2e-admin-{uuid.uuid4().hex}"
    server = served(extra_args=["--admin-token", token])
    c = console(extra_args=["--emulator", server.address], env={"AUTHDECK_ADMIN_TOKEN": token})
    create_account(c, "ada@example.com", "hunter22")
    c.keys("v")
    # Not "verification email": "Sending the verification email…" says so too, and keys wait while busy.
    c.wait_for("is in the outbox")
    c.keys("m")
    c.wait_for("Verify your email")
    c.keys("Enter")
    c.wait_for("Email verified")
    c.wait_for(r"ada@example.com \(verified\)")

    c.keys("i")
    c.wait_for("oobCodes 200")
    assert token not in c.screen()
    c.keys("Escape")
    c.keys("q")
    assert c.wait_exit() == "0"
    with open(os.path.join(c.data_dir, "authdeck.log")) as log:
        assert token not in log.read()
