"""End to end: every step of assets/demo-walkthrough.md at 80×24, as a presenter types it, in a local
console and in a visitor's console over SSH, and every screen on the way checked for text cut
without an ellipsis or drawn over a border."""
import re
import time

import pyotp
import pytest

from test_multi_factor import KEY_LINE
from test_ssh import keys, ssh_server  # noqa: F401 (fixtures)

WIDTH, HEIGHT = 80, 24
UID = r"uid\s+([A-Za-z0-9]{28})"
BORDERS = set("│┌┐└┘─├┤┬┴┼")


def layout_problems(screen):
    """What is wrong with how a screen is laid out: a character in the right margin (the app draws
    within columns 1–78), a box whose side a line overwrote, or a line that fills a box to its border
    without an ellipsis (cut). Boxes partly under an overlay are not judged: their corners are hidden."""
    rows = [row.ljust(WIDTH) for row in screen.split("\n")[:HEIGHT]]
    problems = []
    for number, row in enumerate(rows[1:-1], start=1):
        if row[WIDTH - 1] not in BORDERS | {" "}:
            problems.append(f"row {number} runs into the right margin: {row.rstrip()!r}")
    for top, row in enumerate(rows):
        for left, corner in enumerate(row):
            if corner != "┌" or left + 1 >= WIDTH or row[left + 1] != "─":
                continue
            right = next((c for c in range(left + 1, WIDTH) if row[c] in "┐┌│└┘"), None)
            if right is None or row[right] != "┐":
                continue
            bottom = next((r for r in range(top + 1, len(rows)) if rows[r][left] == "└" and rows[r][right] == "┘"), None)
            if bottom is None:
                continue
            for inner in range(top + 1, bottom):
                line = rows[inner]
                if line[left] != "│" or line[right] != "│":
                    problems.append(f"row {inner} overwrites the border of the box at row {top}: {line.rstrip()!r}")
                elif line[right - 1] not in BORDERS | {" ", "…", "↑", "↓"}:
                    problems.append(f"row {inner} fills the box at row {top} to its border without an ellipsis: {line.rstrip()!r}")
    return problems


class Walk:
    """The console, each screen it showed checked as it went."""

    def __init__(self, console, **kwargs):
        self.c = console(width=WIDTH, height=HEIGHT, **kwargs)
        self.problems = []

    def wait_for(self, pattern, timeout=15.0):
        match = self.c.wait_for(pattern, timeout)
        self.look()
        return match

    def look(self):
        screen = self.c.screen()
        # A frame caught half drawn (over SSH it arrives in pieces) is judged once it has settled: the
        # same screen twice, 0.1 s apart. A real fault stays on a settled screen.
        deadline = time.monotonic() + 3
        while layout_problems(screen) and time.monotonic() < deadline:
            time.sleep(0.1)
            again = self.c.screen()
            if again == screen:
                break
            screen = again
        self.problems += [f"{problem}\n{screen}" for problem in layout_problems(screen)
                          if not any(problem in seen for seen in self.problems)]

    def keys(self, *keys):
        self.c.keys(*keys)

    def type(self, text):
        self.c.type(text)

    def sign_out(self):
        self.keys("o")
        self.wait_for("Signed out")

    def credentials(self, number, title, email, password):
        """The sign-in method `number` (email and password, or create an account), and its form filled in and sent."""
        self.keys(number)
        self.wait_for(title)
        self.type(email)
        self.keys("Tab")
        self.type(password)
        self.keys("Enter")

    def check(self):
        assert not self.problems, "\n\n".join(self.problems)


def test_the_layout_check_sees_a_cut_line_and_an_overwritten_border():
    good = ["┌─ Box ────┐", "│ fits     │", "│ cut it a…│", "└──────────┘"]
    assert layout_problems("\n".join(good)) == []
    assert layout_problems("\n".join(["┌─ Box ────┐", "│ overflows it", "└──────────┘"]))
    assert layout_problems("\n".join(["┌─ Box ────┐", "│ cut it at│", "└──────────┘"]))
    assert layout_problems("\n".join(["title", "x" * WIDTH, "bar"]))


@pytest.mark.parametrize("route", ["local", "ssh"])
def test_the_demo_walkthrough_at_80_by_24(console, ssh_server, keys, route):  # noqa: F811
    # Over SSH as a visitor with a key, whom a reconnection brings back to their project and session.
    if route == "ssh":
        server = ssh_server(["--recent-login-window", "3"])

        def launch(previous=None):
            return Walk(console, command=server.client("demo", key=keys["other"]))
    else:
        def launch(previous=None):
            data = {"data": previous.c.data_dir} if previous else {}
            return Walk(console, extra_args=["--recent-login-window", "3"], **data)
    w = launch()
    w.wait_for("Choose a sign-in method", timeout=20)

    # 1. Anonymous sign-in, by its number.
    w.keys("1")
    w.wait_for("ANONYMOUS")
    uid = w.wait_for(UID).group(1)
    w.wait_for("via anonymous")

    # 2. App data.
    for item in ("apple", "pear"):
        w.keys("a")
        w.wait_for("Add to cart")
        w.type(item)
        w.keys("Enter")
        w.wait_for(f"1 × {item}")

    # 3. Upgrade: the account's sign-in methods, email and password.
    w.keys("l")
    w.wait_for("Sign-in methods of this account")
    w.keys("Enter")
    w.wait_for("Link email and password to this account")
    w.type("ada@example.com")
    w.keys("Tab")
    w.type("hunter22")
    w.keys("Enter")
    w.wait_for("Linked password")
    assert "ANONYMOUS" not in w.c.screen() and re.search(UID, w.c.screen()).group(1) == uid

    # 4. Inspector: the signUp call carried the anonymous user's idToken, the password as its length.
    w.keys("i")
    w.wait_for("accounts:signUp 200")
    w.keys("Up")
    w.wait_for("request")
    w.keys("space")
    w.look()
    w.keys("?")
    w.wait_for("Keys: Inspector")
    w.keys("Escape")
    w.wait_for("Inspector:")
    w.keys("Escape")
    w.wait_for("Linked providers")

    # 5. Sign out and back in; quit and relaunch: still signed in.
    w.sign_out()
    w.credentials("2", "Sign in with email and password", "ada@example.com", "hunter22")
    w.wait_for("Signed in")
    assert re.search(UID, w.c.screen()).group(1) == uid and "1 × apple" in w.c.screen()
    w.keys("q")
    assert w.c.wait_exit() == "0"
    again = launch(w)
    again.wait_for("ada@example.com", timeout=20)
    assert re.search(UID, again.c.screen()).group(1) == uid
    again.problems = w.problems + again.problems  # the first console's screens are judged at the end too
    w = again

    # 6. Errors: EMAIL_EXISTS, WEAK_PASSWORD, one wrong password (five would lock the email).
    w.sign_out()
    for email, password, code in (("ada@example.com", "hunter22", "EMAIL_EXISTS"), ("bo@example.com", "12345", "WEAK_PASSWORD")):
        w.credentials("3", "Create an account", email, password)
        w.wait_for(code)
        w.keys("Escape")
        w.wait_for("Choose a sign-in method")
    w.credentials("2", "Sign in with email and password", "ada@example.com", "wrong-one")
    w.wait_for("INVALID_LOGIN_CREDENTIALS")
    w.type("hunter22")
    w.keys("Enter")
    w.wait_for("Signed in")

    # 7. Reauthentication: after the recent-login window, p asks for the password, then changes it.
    time.sleep(4)
    w.keys("p")
    w.wait_for("Change the password")
    w.type("newpass1")
    w.keys("Enter")
    w.type("newpass1")
    w.keys("Enter")
    w.wait_for("Confirm it's you to change the password")
    w.type("hunter22")
    w.keys("Enter")
    w.wait_for("Password changed")

    # 8. Sign in with Apple: the SIMULATED consent, a new identity, Hide My Email; the nonce in the inspector.
    w.sign_out()
    w.keys("4")
    w.wait_for("The request to the simulated apple.com")
    w.keys("Enter", "Enter")
    w.wait_for("SIMULATED APPLE")
    w.keys("n")
    w.wait_for("New simulated Apple identity")
    w.type("Ada Lovelace")
    w.keys("Tab")
    w.type("ada.l@example.com")
    w.keys("Enter")
    w.wait_for("Added Ada Lovelace")
    w.keys("h")
    w.wait_for(r"\[x\] Hide my email")
    w.keys("Enter")
    w.wait_for("Account created")
    w.keys("i")
    w.wait_for("accounts:signInWithIdp")
    w.keys("Up")
    w.wait_for("the ID token's nonce claim matches the SHA-256")
    w.keys("Escape")

    # 9. Link conflict: a guest links the same Apple identity; switch, merge, and the guest is deleted.
    w.sign_out()
    w.keys("1")
    w.wait_for("ANONYMOUS")
    w.keys("a")
    w.wait_for("Add to cart")
    w.type("book")
    w.keys("Enter")
    w.wait_for("1 × book")
    w.keys("l")
    w.wait_for("Sign-in methods of this account")
    w.keys("Down", "Enter")
    w.wait_for("Link Apple to this account")
    w.keys("Enter", "Enter")
    w.wait_for("consented before")
    w.keys("Enter")
    w.wait_for("This Apple identity already belongs to another account")
    w.wait_for(r"Switch \+ merge cart")
    w.keys("Tab", "Enter")
    w.wait_for(r"(?s)was merged into it\..*was deleted\.", timeout=20)

    # 10. Second factor: verify the email, enroll TOTP, sign in with the password and the code.
    w.sign_out()
    w.credentials("3", "Create an account", "grace@example.com", "hunter22")
    w.wait_for("Account created")
    w.keys("v")
    w.wait_for("is in the outbox")
    w.keys("m")
    w.wait_for("Verify your email")
    w.keys("Enter")
    w.wait_for("Email verified")
    w.keys("f")
    w.wait_for("2-step verification")
    w.keys("t")
    w.wait_for("Scan the QR code")
    assert w.c.screen().splitlines()[0].strip(), "the QR code blanked the title row"
    secret = "".join("".join(groups) for groups in (m.groups() for m in KEY_LINE.finditer(w.c.screen())))
    w.keys("Enter")
    w.wait_for("Add an authenticator app: code")
    enrolled_at = time.time()
    w.type(pyotp.TOTP(secret).at(enrolled_at))
    w.keys("Enter")
    w.wait_for("Add an authenticator app: name")
    w.keys("Enter")
    w.wait_for('Enrolled "Authenticator app"')
    w.keys("Escape")
    w.wait_for("Linked providers")
    w.sign_out()
    w.credentials("2", "Sign in with email and password", "grace@example.com", "hunter22")
    w.wait_for("Authenticator app")
    w.keys("Enter")
    w.wait_for("Second factor: Authenticator app")
    # A code works once: the sign-in's comes from the next 30-second step.
    while int(time.time()) // 30 <= int(enrolled_at) // 30:
        time.sleep(0.5)
    w.type(pyotp.TOTP(secret).now())
    w.keys("Enter")
    w.wait_for(r"via password \+ totp")

    w.check()


def title_row(c):
    return c.screen().splitlines()[0]


def test_the_ssh_title_bar_and_the_accounts_detail_at_80_by_24(ssh_server, console, keys):  # noqa: F811
    """A room at 80×24: the title bar says whose console it is, whole, and the operator's table and
    account detail keep what they are for (the times, every id) without cutting it."""
    operators = keys["operator"] + ".pub"
    server = ssh_server(["--operators", operators])
    visitor = Walk(console, command=server.client("demo"))
    visitor.wait_for("Choose a sign-in method", timeout=20)
    visitor.credentials("3", "Create an account", "alice.a@example.com", "hunter22")
    visitor.wait_for(UID, timeout=20)
    row = title_row(visitor.c)
    assert re.search(r"demo project guest-[0-9a-f]{12} · alice\.a@example\.com$", row.rstrip()), row
    screen = visitor.wait_for(r"ID token\s+expires \d\d:\d\d:\d\d UTC · via password").string
    # Whole: it ends with the shortened token's length, not with a cut.
    assert re.search(r"…\(\d+\)$", next(line for line in screen.splitlines() if "ID token" in line).rstrip())

    operator = Walk(console, command=server.client("alice", key=keys["operator"]))
    operator.wait_for(r"A accounts", timeout=20)
    assert title_row(operator.c).rstrip().endswith("shared demo server (operator) · signed out"), title_row(operator.c)
    operator.keys("A")
    operator.wait_for(r"0 accounts in all", timeout=20)
    operator.keys("P")
    operator.wait_for(r"guest-[0-9a-f]{12}\s+1 account")
    # All projects, then the backend's own, then the visitor's.
    operator.keys("Down", "Down")
    operator.wait_for(r"▸ guest-")
    operator.keys("Enter")
    # The table keeps the time of day at 80 columns.
    operator.wait_for(r"alice\.a@example\.com\s+pw\s+\d\d-\d\d \d\d:\d\d \d\d-\d\d \d\d:\d\d", timeout=20)
    operator.keys("Enter")
    detail = operator.wait_for(r"Sign-in providers \(1\)").string
    uid = re.search(r"uid\s+([A-Za-z0-9]{28})", detail).group(1)
    assert "raw id alice.a@example.com" in detail and uid in detail
    assert "…" not in "\n".join(detail.splitlines()[1:-1]), detail
    visitor.check()
    operator.check()

