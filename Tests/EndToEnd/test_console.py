"""End to end: anonymous sign-in, cart, upgrade, sign-out, sign-in, relaunch, errors, reauthentication."""
import os
import re
import signal
import stat
import subprocess
import time

UID = r"uid\s+([A-Za-z0-9]{28})"


def sign_in_with_email(c, email, password):
    c.wait_for("Choose a sign-in method")
    c.keys("Up", "Up", "Down", "Enter")
    c.wait_for("Sign in with email and password")
    c.type(email)
    c.keys("Tab")
    c.type(password)
    c.keys("Enter")


def link_email_and_password(c, email, password):
    """From the account screen: link the email/password provider and wait until it is linked."""
    c.keys("l")
    c.wait_for("Sign-in methods of this account")
    c.keys("Enter")
    c.wait_for("Link email and password to this account")
    c.type(email)
    c.keys("Tab")
    c.type(password)
    c.keys("Enter")
    c.wait_for("Linked password")


def test_anonymous_upgrade_sign_out_sign_in_and_relaunch(console, data_dir):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    uid = c.wait_for(UID).group(1)

    for item in ("apple", "pear", "apple"):
        c.keys("a")
        c.wait_for("Add to cart")
        c.type(item)
        c.keys("Enter")
    c.wait_for(r"2 × apple")
    c.wait_for(r"1 × pear")

    link_email_and_password(c, "ada@example.com", "hunter22")
    screen = c.screen()
    assert "ANONYMOUS" not in screen
    assert re.search(UID, screen).group(1) == uid
    assert re.search(r"password\s+ada@example.com", screen)
    assert "hunter22" not in screen
    assert "2 × apple" in screen and "1 × pear" in screen

    c.keys("o")
    c.wait_for("Signed out")
    sign_in_with_email(c, "ada@example.com", "hunter22")
    c.wait_for("Signed in")
    assert c.wait_for(UID).group(1) == uid
    c.wait_for("2 × apple")

    c.keys("q")
    assert c.wait_exit() == "0"
    c.kill()

    again = console()
    again.wait_for("ada@example.com")
    assert again.wait_for(UID).group(1) == uid
    again.wait_for("2 × apple")

    for name in ("identity.sqlite", "session.json", "appdata.sqlite", "authdeck.log"):
        mode = stat.S_IMODE(os.stat(os.path.join(data_dir, name)).st_mode)
        assert mode == 0o600, (name, oct(mode))
    with open(os.path.join(data_dir, "authdeck.log"), encoding="utf-8") as log:
        assert "hunter22" not in log.read()


def test_every_sign_in_error_is_explained(console):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("Down", "Down", "Enter")
    c.wait_for("Create an account")
    c.type("grace@example.com")
    c.keys("Tab")
    c.type("hopper1")
    c.keys("Enter")
    c.wait_for("Account created")
    c.keys("o")
    c.wait_for("Signed out")

    def create(email, password):
        c.keys("Up", "Up", "Down", "Down", "Enter")
        c.wait_for("Create an account")
        c.type(email)
        c.keys("Tab")
        c.type(password)
        c.keys("Enter")

    create("grace@example.com", "another1")
    c.wait_for("already used by another account")
    c.wait_for("EMAIL_EXISTS")
    c.keys("Escape")
    create("new@example.com", "12345")
    c.wait_for("at least 6 characters")
    c.wait_for("WEAK_PASSWORD")
    c.keys("Escape")
    create("not-an-email", "hopper1")
    c.wait_for("email address is not valid")
    c.keys("Escape")

    sign_in_with_email(c, "grace@example.com", "wrong-password")
    c.wait_for("INVALID_LOGIN_CREDENTIALS")
    c.keys("Escape")
    sign_in_with_email(c, "nobody@example.com", "hopper1")
    c.wait_for("INVALID_LOGIN_CREDENTIALS")


def test_a_stale_sign_in_is_confirmed_then_the_change_runs_by_itself(console):
    c = console(extra_args=["--recent-login-window", "2"])
    c.wait_for("Choose a sign-in method")
    c.keys("Down", "Down", "Enter")
    c.type("ada@example.com")
    c.keys("Tab")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for("Account created")
    time.sleep(3)
    c.keys("p")
    c.wait_for("Change the password")
    # The screen names the window the console was started with.
    c.wait_for("if you signed in more than 2 seconds ago")
    c.type("newpass1")
    c.keys("Enter")
    c.type("newpass1")
    c.keys("Enter")
    c.wait_for("Confirm it's you to change the password")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for("Password changed")
    c.keys("o")
    sign_in_with_email(c, "ada@example.com", "newpass1")
    c.wait_for("Signed in")


def test_starting_in_a_small_terminal_says_so_until_it_grows(console):
    c = console(width=70, height=20)
    c.wait_for("too small")
    c.resize(100, 30)
    c.wait_for("Choose a sign-in method")


def test_resizing_mid_form_keeps_the_input_help_and_ctrl_c(console):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("?")
    c.wait_for("quit at once")
    c.keys("Escape")
    c.keys("Down", "Enter")
    c.type("pasted\x1b[31mjunk")
    c.wait_for("pastedjunk")
    c.resize(70, 20)
    c.wait_for("too small")
    c.resize(100, 30)
    c.wait_for("pastedjunk")
    c.keys("C-c")
    assert c.wait_exit() == "0"


def test_a_dropped_connection_restores_the_terminal_and_keeps_the_session(console, data_dir):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    uid = c.wait_for(UID).group(1)
    os.kill(c.pid(), signal.SIGHUP)
    assert c.wait_exit() == str(128 + signal.SIGHUP)
    assert "ANONYMOUS" not in c.screen()
    c.kill()
    again = console()
    assert again.wait_for(UID).group(1) == uid


def test_the_account_screen_shows_what_another_console_changed(console, data_dir):
    """The account screen does not wait for a key to show what another console on the same directory
    (and session) changed: a quiet reload shows it."""
    first = console(width=80, height=24)
    first.wait_for("Choose a sign-in method")
    first.keys("3")
    first.wait_for("Create an account")
    first.type("ada@example.com")
    first.keys("Tab")
    first.type("hunter22")
    first.keys("Enter")
    first.wait_for("Account created")
    second = console(width=80, height=24, data=data_dir)
    second.wait_for(r"ada@example.com \(not verified\)")
    first.keys("v")
    first.wait_for("is in the outbox")
    first.keys("m")
    first.wait_for("Verify your email")
    first.keys("Enter")
    first.wait_for("Email verified")
    second.wait_for(r"ada@example.com \(verified\)", timeout=25)


def test_plain_console_command_lines_skip_argument_parser_and_behave_as_through_it(console, data_dir):
    """The console reads its plainest command lines itself (ConsoleLaunch.plain: ArgumentParser's
    reflection cost a sixth of a start); the forms it reads start the console, and anything else still
    gets ArgumentParser's own answer."""
    from authdeck_binary import authdeck_binary
    for command in ([authdeck_binary(), f"--data={data_dir}"], [authdeck_binary(), "console", "--data", data_dir, "--no-color"]):
        c = console(command=command)
        c.wait_for("Choose a sign-in method")
        c.keys("q")
        assert c.wait_exit() == "0"
    for extra, message in ((["--bogus"], "Unknown option '--bogus'"),
                           (["--recent-login-window", "0"], "--recent-login-window must be at least 1 second"),
                           (["--ssh-role", "nobody"], "The value 'nobody' is invalid for '--ssh-role'"),
                           (["--emulator", "http://x:1"], "--emulator must be HOST:PORT without a scheme")):
        result = subprocess.run([authdeck_binary(), "--data", data_dir, *extra], capture_output=True, text=True, timeout=60)
        assert result.returncode != 0
        assert message in result.stderr and "Usage: authdeck console" in result.stderr
