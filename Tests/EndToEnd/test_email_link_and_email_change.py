"""End to end, embedded and over `authdeck serve`: passwordless sign-in and linking with an email link
from the outbox, changing the account's email (at once with its recovery message, or verified first),
how an email signs in on the "account exists" screen, and an outbox that cannot be read."""
import re
import time
import uuid

import pytest

from test_console import UID, sign_in_with_email
from test_federated import new_identity, send_request
from test_multi_factor import choose_method, create_account
from test_serve import call

BACKENDS = ["embedded", "served"]


def launch(console, served, backend, tmp_path, **kwargs):
    """A console on the embedded backend, or on a fresh `authdeck serve`; and that server (or None)."""
    if backend == "embedded":
        return console(**kwargs), None
    server = served()
    return console(data=str(tmp_path / "console"), extra_args=["--emulator", server.address], **kwargs), server


def open_first_message(c, subject):
    c.keys("m")
    c.wait_for(r"▸ mail .*" + re.escape(subject))
    c.keys("Enter")


def send_sign_in_link(c, email):
    c.wait_for("Sign in with an email link|Link an email by a sign-in link")
    c.type(email)
    c.keys("Enter")
    c.wait_for(f"A sign-in link to {re.escape(email)} is in the outbox")


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_email_link_from_the_outbox_signs_in_and_a_second_one_signs_in_again(console, served, backend, tmp_path):
    c, _ = launch(console, served, backend, tmp_path)
    choose_method(c, "Sign in with an email link (passwordless)")
    send_sign_in_link(c, "lin@example.com")
    open_first_message(c, "Sign in with this link")
    c.wait_for("Account created")
    uid = c.wait_for(UID).group(1)
    screen = c.screen()
    assert "lin@example.com" in screen and "ANONYMOUS" not in screen

    c.keys("o")
    c.wait_for("Signed out")
    choose_method(c, "Sign in with an email link (passwordless)")
    send_sign_in_link(c, "lin@example.com")
    open_first_message(c, "Sign in with this link")
    c.wait_for("Signed in")
    assert c.wait_for(UID).group(1) == uid
    # Used: the backend dropped both messages; the pane keeps them, marked.
    c.keys("m")
    c.wait_for(r"Sign in with this link \(used\)[\s\S]*Sign in with this link \(used\)")
    c.keys("Escape")
    c.keys("q")
    assert c.wait_exit() == "0"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_email_link_upgrades_a_guest_and_keeps_its_uid_and_cart(console, served, backend, tmp_path):
    c, _ = launch(console, served, backend, tmp_path)
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    guest = c.wait_for(UID).group(1)
    c.keys("a")
    c.wait_for("Add to cart")
    c.type("tea")
    c.keys("Enter")
    c.wait_for(r"1 × tea")

    c.keys("l")
    c.wait_for("Sign-in methods of this account")
    for _ in range(10):
        if re.search(r"▸ Email link", c.screen()):
            break
        c.keys("Down")
    c.wait_for(r"▸ Email link")
    c.keys("Enter")
    send_sign_in_link(c, "guest@example.com")
    open_first_message(c, "Sign in with this link")
    c.wait_for("Linked")
    screen = c.screen()
    assert "ANONYMOUS" not in screen
    assert re.search(UID, screen).group(1) == guest
    assert "guest@example.com" in screen and "1 × tea" in screen


@pytest.mark.parametrize("backend", BACKENDS)
def test_changing_the_email_at_once_and_taking_it_back_from_the_old_address(console, served, backend, tmp_path):
    c, _ = launch(console, served, backend, tmp_path)
    create_account(c, "old@example.com", "hunter22")
    uid = c.wait_for(UID).group(1)
    c.keys("e")
    c.wait_for("Change the email of this account")
    c.type("new@example.com")
    c.keys("Tab")
    c.wait_for(r"\(•\) change it at once")
    c.keys("Enter")
    c.wait_for("The email is now new@example.com")
    screen = c.screen()
    assert re.search(r"A message to old@example\.com\s+can\s+undo", screen), screen

    # The previous address's message undoes it; every session of the account ends. (Revocation counts
    # whole seconds, as Firebase's validSince does: a token from the same second would outlive it.)
    time.sleep(1.1)
    open_first_message(c, "Your email was changed")
    c.wait_for(r"The email is old@example\.com again")
    c.wait_for("Choose a sign-in method")
    sign_in_with_email(c, "old@example.com", "hunter22")
    c.wait_for("Signed in")
    assert c.wait_for(UID).group(1) == uid


@pytest.mark.parametrize("backend", BACKENDS)
def test_changing_the_email_after_verifying_the_new_address(console, served, backend, tmp_path):
    c, _ = launch(console, served, backend, tmp_path)
    create_account(c, "before@example.com", "hunter22")
    uid = c.wait_for(UID).group(1)
    c.keys("e")
    c.wait_for("Change the email of this account")
    c.type("after@example.com")
    c.keys("Enter")
    c.wait_for("A link that confirms after@example.com is in the outbox")
    # Nothing changed yet.
    assert "before@example.com" in c.screen()
    time.sleep(1.1)
    open_first_message(c, "Confirm your new email")
    c.wait_for("has its new email now")
    c.wait_for("Choose a sign-in method")
    sign_in_with_email(c, "after@example.com", "hunter22")
    c.wait_for("Signed in")
    assert c.wait_for(UID).group(1) == uid


def facebook_with_the_email_of(c, email):
    choose_method(c, "Sign in with Facebook")
    c.wait_for("The request to the simulated facebook.com")
    send_request(c, "Facebook")
    c.wait_for("SIMULATED FACEBOOK")
    new_identity(c, "Facebook", "Mark Z", email)
    c.keys("Enter")
    c.wait_for(f"An account already uses {re.escape(email)}")


def test_the_account_exists_screen_says_how_the_email_signs_in_when_the_backend_tells(console, served, tmp_path):
    server = served()
    c = console(data=str(tmp_path / "console"), extra_args=["--emulator", server.address])
    create_account(c, "mark@example.com", "hunter22")
    c.keys("o")
    c.wait_for("Signed out")
    # Production's default: email-enumeration protection on, so the backend does not tell.
    facebook_with_the_email_of(c, "mark@example.com")
    c.wait_for("Email-enumeration protection is on")
    c.keys("Escape")
    c.wait_for("Choose a sign-in method")

    # The emulator's default: protection off, and fetchSignInMethodsForEmail answers.
    status, _ = call(server, f"/emulator/v1/projects/authdeck-local/config",
                     {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}, method="PATCH")
    assert status == 200
    choose_method(c, "Sign in with Facebook")
    c.wait_for("The request to the simulated facebook.com")
    send_request(c, "Facebook")
    c.wait_for("Mark Z")
    c.keys("Enter")
    c.wait_for("An account already uses mark@example.com")
    c.wait_for(r"signs in with: Email and password\.")
    assert "enumeration protection is on" not in c.screen()
    # The method it named is first: enter asks for its password (leaving that form, the screen still
    # says what the backend told), and Facebook is linked after.
    c.keys("Enter")
    c.wait_for("Sign in to link Facebook")
    c.keys("Escape")
    c.wait_for(r"signs in with: Email and password\.")
    c.keys("Enter")
    c.wait_for("Sign in to link Facebook")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for("linked Facebook")


def test_the_outbox_says_it_is_for_administrators_and_follows_a_served_project(console, served, tmp_path):
    # A shared serve without the token in the console: the banner and the outbox say why, and the fix.
    token = f"e2e-admin-{uuid.uuid4().hex}"
    locked = served(extra_args=["--admin-token", token])
    c = console(data=str(tmp_path / "locked"), extra_args=["--emulator", locked.address])
    create_account(c, "ada@example.com", "hunter22")
    c.keys("v")
    c.wait_for("AUTHDECK_ADMIN_TOKEN")
    c.keys("m")
    c.wait_for("The outbox could not be read")
    assert "No messages" not in c.screen()
    c.keys("Escape")

    # A serve for another project: the console without --project finds the served project's outbox,
    # and --project beside --emulator is taken.
    other = served(extra_args=["--project", "demo-x"])
    for extra in ([], ["--project", "demo-x"]):
        d = console(data=str(tmp_path / f"demo-{len(extra)}"), extra_args=["--emulator", other.address, *extra])
        create_account(d, f"x{len(extra)}@example.com", "hunter22")
        d.keys("v")
        d.wait_for("is in the outbox")
        d.keys("m")
        d.wait_for("Verify your email")
        assert "could not be read" not in d.screen()
        d.keys("Escape")
        d.keys("q")
        assert d.wait_exit() == "0"
