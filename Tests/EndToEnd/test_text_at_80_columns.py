"""End to end at 80×24: what the screens say is whole or wrapped on purpose, the TOTP QR code keeps
out of the title bar, and a form's key bar says what enter does on the focused field."""
import re

from test_multi_factor import KEY_LINE, create_account, scan_qr


def rows(screen):
    """The rows between the title bar and the key bar."""
    return screen.splitlines()[1:-1]


def bar(screen):
    return screen.splitlines()[-1]


def test_the_totp_qr_code_stays_under_the_title_bar(console, data_dir):
    c = console(width=80, height=24)
    create_account(c, "ada@example.com", "hunter22")
    c.keys("v")
    c.wait_for("is in the outbox")
    c.keys("m")
    c.wait_for("Verify your email")
    c.keys("Enter")
    c.wait_for(r"ada@example.com \(verified\)")
    c.keys("f")
    c.wait_for("2-step verification")
    c.keys("t")
    # The whole frame: the key's two lines and the key bar under the code.
    screen = c.wait_for(r"(?s)Scan the QR code.*(\b[A-Z2-7]{4} ){3}[A-Z2-7]{4}.*(\b[A-Z2-7]{4} ){3}[A-Z2-7]{4}.*\n enter added it").string
    lines = screen.splitlines()
    # The title bar is whole: the screen's title on the left, who is signed in on the right.
    assert lines[0].startswith(" AuthDeck · Add an authenticator app "), lines[0]
    assert lines[0].rstrip().endswith("ada@example.com"), lines[0]
    assert not re.search("[█▀▄]", lines[0]) and not re.search("[█▀▄]", lines[-1]), screen
    secret = "".join("".join(groups) for groups in (m.groups() for m in KEY_LINE.finditer(screen)))
    assert len(secret) == 32, screen
    assert scan_qr(screen, 43, 22, top=1) == f"otpauth://totp/AuthDeck:ada@example.com?secret={secret}&issuer=AuthDeck"


def test_long_sentences_wrap_and_titles_fit(console, data_dir):
    c = console(width=80, height=24)
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    c.keys("l")
    screen = c.wait_for(r"(?s)Sign-in methods of this account.*\n enter link").string
    words = " ".join(" ".join(rows(screen)).split())
    assert "Linking any of them upgrades this anonymous account: the uid and the cart stay." in words, screen
    assert not any("…" in row for row in rows(screen)), screen
    # The title bar names the screen whole; the heading says all of it.
    c.keys("Enter")
    screen = c.wait_for(r"(?s)Link email and password to this account.*\n enter next").string
    assert re.match(r" AuthDeck · Link email and password {2,}\S", screen.splitlines()[0]), screen


def test_a_forms_bar_says_what_enter_does_on_each_field(console, data_dir):
    c = console(width=80, height=24)
    c.wait_for("Choose a sign-in method")
    c.keys("2")
    # One frame holds both the focused field and the bar (a capture mid-frame may hold one of them).
    c.wait_for(r"(?s)> Email.*\n enter next · tab next")
    c.type("ada@example.com")
    c.keys("Enter")
    c.wait_for(r"(?s)> Password.*\n enter sign in · tab next")
    c.keys("Escape")
    # The Microsoft request: enter goes from field to field and sends from the last.
    c.wait_for("Choose a sign-in method")
    c.keys("5")
    c.wait_for("Microsoft request")
    for field in ("Tenant", "Prompt", "Login hint", "Scopes"):
        c.wait_for(rf"(?s)> {field}.*\n enter next · ")
        c.keys("Enter")
    c.wait_for(r"(?s)> Parameters.*\n enter send request · ")
    assert "submit" not in bar(c.screen()), c.screen()
