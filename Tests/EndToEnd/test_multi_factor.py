"""End to end: verify the email from the outbox, enroll TOTP (the QR code scanned with zbarimg, the
code computed with pyotp) and SMS (the code read off the phone pane), then sign in with the password
and each second factor; phone sign-in and forgot password."""
import os
import re
import subprocess
import tempfile
import time

import pyotp

KEY_LINE = re.compile(r"\b([A-Z2-7]{4}) ([A-Z2-7]{4}) ([A-Z2-7]{4}) ([A-Z2-7]{4})\b")
QR_GLYPHS = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1)}


def choose_method(c, title):
    """Moves down the sign-in methods to the one titled `title` and chooses it."""
    c.wait_for("Choose a sign-in method")
    for _ in range(12):
        if re.search(r"▸ \d " + re.escape(title), c.screen()):
            c.keys("Enter")
            return
        c.keys("Down")
        time.sleep(0.1)
    raise AssertionError(f"no sign-in method {title!r}:\n{c.screen()}")


def create_account(c, email, password):
    c.wait_for("Choose a sign-in method")
    c.keys("Down", "Down", "Enter")
    c.wait_for("Create an account")
    c.type(email)
    c.keys("Tab")
    c.type(password)
    c.keys("Enter")
    c.wait_for("Account created")


def sign_in_with_password(c, email, password):
    c.wait_for("Choose a sign-in method")
    c.keys("Up", "Up", "Up", "Up", "Down", "Enter")
    c.wait_for("Sign in with email and password")
    c.type(email)
    c.keys("Tab")
    c.type(password)
    c.keys("Enter")


def texted_code(c):
    """The code the phone pane shows (the line under 'your code is')."""
    c.wait_for(r"your code is")
    lines = c.screen().splitlines()
    for index, line in enumerate(lines):
        if "your code is" in line:
            match = re.search(r"\b(\d{6})\b", lines[index + 1])
            assert match, lines[index + 1]
            return match.group(1)
    raise AssertionError("no code in the phone pane")


def scan_qr(screen, width, height, top=1):
    """Decodes the half-block QR code at the left under the title bar with zbarimg, as a camera would."""
    rows = []
    for line in screen.splitlines()[top:top + height]:
        line = line.ljust(width)[:width]
        rows.append([QR_GLYPHS.get(ch, (0, 0))[0] for ch in line])
        rows.append([QR_GLYPHS.get(ch, (0, 0))[1] for ch in line])
    scale = 6
    with tempfile.NamedTemporaryFile("w", suffix=".pbm", delete=False) as image:
        image.write(f"P1\n{width * scale} {len(rows) * scale}\n")
        for row in rows:
            pixels = " ".join(str(v) for v in row for _ in range(scale))
            for _ in range(scale):
                image.write(pixels + "\n")
    try:
        out = subprocess.run(["zbarimg", "-q", "--raw", image.name], capture_output=True, text=True)
    finally:
        os.remove(image.name)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_verify_enroll_totp_and_sms_then_sign_in_with_each(console, data_dir):
    c = console(width=80, height=24)
    create_account(c, "ada@example.com", "hunter22")

    # Verify the email from the outbox.
    c.keys("v")
    c.wait_for("is in the outbox")  # "Sending the verification email…" matches too, and keys wait while busy
    c.keys("m")
    c.wait_for("Verify your email")
    c.keys("Enter")
    c.wait_for("Email verified")
    c.wait_for(r"ada@example.com \(verified\)")

    # TOTP: the QR code fits 80×24 under the title bar and scans; the key is read off the screen into pyotp.
    c.keys("f")
    c.wait_for("2-step verification")
    c.keys("t")
    c.wait_for("Scan the QR code")
    screen = c.screen()
    groups = [m.groups() for m in KEY_LINE.finditer(screen)]
    secret = "".join("".join(g) for g in groups)
    assert len(secret) == 32, screen
    assert scan_qr(screen, 43, 22) == f"otpauth://totp/AuthDeck:ada@example.com?secret={secret}&issuer=AuthDeck"
    c.keys("Enter")
    c.wait_for("Add an authenticator app: code")
    totp = pyotp.TOTP(secret)
    enrolled_at = time.time()
    c.type(totp.at(enrolled_at))
    c.keys("Enter")
    c.wait_for("Add an authenticator app: name")
    c.keys("Enter")
    c.wait_for('Enrolled "Authenticator app"')

    # SMS: the code comes from the outbox, shown in the phone pane.
    c.keys("p")
    c.wait_for("phone number")
    c.type("+1 555 555 0100")
    c.keys("Enter")
    code = texted_code(c)
    c.type(code)
    c.keys("Enter")
    c.wait_for("Add an SMS second factor: name")
    c.keys("Enter")
    c.wait_for('Enrolled "Phone ending 0100"')
    screen = c.screen()
    assert re.search(r"TOTP\s+Authenticator app", screen)
    assert re.search(r"SMS\s+Phone ending 0100\s+\+\*{7}0100", screen)

    c.keys("Escape")
    c.wait_for("2-step.*on: TOTP Authenticator app, SMS Phone ending 0100")
    c.keys("o")
    c.wait_for("Signed out")

    # Password, then the factor selection lists both; SMS.
    sign_in_with_password(c, "ada@example.com", "hunter22")
    c.wait_for("choose how to confirm")
    screen = c.screen()
    assert re.search(r"TOTP\s+Authenticator app", screen)
    assert re.search(r"SMS\s+Phone ending 0100\s+\+\*\*\*\*\*\*\*0100", screen)
    c.keys("Down", "Enter")
    c.type(texted_code(c))
    c.keys("Enter")
    c.wait_for("Signed in with a second factor")
    c.wait_for(r"via password \+ phone")

    # Again, with the authenticator app: a code of a later interval than the one that enrolled it.
    c.keys("o")
    c.wait_for("Signed out")
    sign_in_with_password(c, "ada@example.com", "hunter22")
    c.wait_for("choose how to confirm")
    c.keys("Enter")
    c.wait_for("Second factor: Authenticator app")
    while int(time.time()) // 30 <= int(enrolled_at) // 30:
        time.sleep(0.5)
    c.type(totp.now())
    c.keys("Enter")
    c.wait_for("Signed in with a second factor")
    c.wait_for(r"via password \+ totp")

    with open(os.path.join(data_dir, "authdeck.log"), encoding="utf-8") as log:
        text = log.read()
    assert secret not in text
    assert code not in text
    assert "hunter22" not in text


def test_a_wrong_code_is_explained_and_a_phone_number_signs_in(console):
    c = console(width=80, height=24)
    choose_method(c, "Sign in with a phone number")
    c.wait_for("Sign in with a phone number")
    c.type("5555550100")
    c.keys("Enter")
    c.wait_for("E.164")
    c.keys("Home")
    c.type("+1")
    c.keys("Enter")
    code = texted_code(c)
    c.type("000000" if code != "000000" else "111111")
    c.keys("Enter")
    c.wait_for("INVALID_CODE")
    c.type(code)
    c.keys("Enter")
    c.wait_for("Account created")
    c.wait_for(r"phone\s+\+15555550100")
    c.wait_for(r"via phone")
    # The backend drops a code once it is used; the messages pane keeps it, marked.
    c.keys("m")
    c.wait_for(rf"code {code} \(used\)")


def test_forgot_password_through_the_outbox(console):
    c = console(width=80, height=24)
    create_account(c, "bo@example.com", "hunter22")
    c.keys("o")
    c.wait_for("Signed out")
    choose_method(c, "Reset a forgotten password")
    c.wait_for("Reset a forgotten password")
    c.type("bo@example.com")
    c.keys("Enter")
    c.wait_for("reset email is in the outbox")
    c.keys("m")
    c.wait_for("Reset your password")
    c.keys("Enter")
    c.wait_for("Choose a new password for bo@example.com")
    c.type("brand-new1")
    c.keys("Tab")
    c.type("brand-new1")
    c.keys("Enter")
    c.wait_for("Password changed")
    c.type("brand-new1")
    c.keys("Enter")
    c.wait_for("Signed in")
    c.wait_for(r"bo@example.com \(verified\)")
