"""The presenter follows a visitor in `authdeck ssh`'s room, with Debian's OpenSSH client in tmux; a reset and the outbox."""
import os
import re
import subprocess
import tempfile
import time

from test_ssh import UID, keys, ssh_server, wait_until  # noqa: F401 (fixtures)


def operator_server(ssh_server, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        out.write(f.read())
    return ssh_server(["--operators", operators, "--max-sessions-per-address", "8"])


def open_room(alice, name):
    """The room, with `name`'s row alone selected."""
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    alice.keys("W")
    alice.wait_for(r"sessions \(\d visitors?\)", timeout=10)
    alice.keys("/")
    alice.type(name)
    alice.keys("Enter")
    alice.wait_for(r"\(1 shown\)")


def rows(c, width=None):
    return [line[:width].rstrip() if width else line.rstrip() for line in c.screen().splitlines()]


def same_rows(alice, visitor, alice_rows, visitor_rows, width=None):
    """Waits until `alice_rows` of the presenter's screen are the visitor's `visitor_rows` (frames come at most ten a second)."""
    def same():
        a, v = rows(alice, width), rows(visitor, width)
        return [a[i] for i in alice_rows] == [v[i] for i in visitor_rows]
    try:
        wait_until(same, 5, "")
    except AssertionError:
        raise AssertionError(f"the presenter's copy differs; presenter:\n{alice.screen()}\nvisitor:\n{visitor.screen()}")


def test_following_shows_the_visitors_whole_screen_their_sdk_pane_and_the_way_back(ssh_server, console, keys):
    server = operator_server(ssh_server, keys)
    ada = console(command=server.client("ada", key=keys["other"]), width=80, height=24)
    ada.wait_for("Choose a sign-in method", timeout=30)
    ada.keys("Enter")
    ada.wait_for(UID)
    fingerprint = subprocess.run(["ssh-keygen", "-lf", keys["other"] + ".pub"], capture_output=True, text=True,
                                 check=True).stdout.split()[1]

    alice = console(command=server.client("alice", key=keys["operator"]), width=80, height=24)
    open_room(alice, "ada")
    # The selected session whole under the table at 80 columns: its key's fingerprint is not cut.
    alice.wait_for(r"ada@127\.0\.0\.1 · visitor-[0-9a-f]{16} · uid [A-Za-z0-9]{28}\n")
    alice.wait_for(re.escape(fingerprint))

    # At the same size: their whole screen, key bar included, under the presenter's bar on their title row.
    alice.keys("Enter")
    alice.wait_for(r"^Following ada@127\.0\.0\.1 · esc: back to the room · m: message them", timeout=5)
    ada.wait_for("The presenter is watching your screen", timeout=5)
    same_rows(alice, ada, range(1, 24), range(1, 24))
    assert re.search(r"\bs SDK\b", rows(alice)[23]), alice.screen()

    # Their SDK pane when they open it; the presenter's s, ?, i and F1 to F4 open nothing of the presenter's own.
    ada.keys("s")
    ada.wait_for("Swift")
    same_rows(alice, ada, range(1, 24), range(1, 24))
    ada.keys("Escape")
    same_rows(alice, ada, range(1, 24), range(1, 24))
    for key in ("s", "?", "i", "F1", "F2", "F3", "F4"):
        alice.keys(key)
        time.sleep(0.5)
        same_rows(alice, ada, range(1, 24), range(1, 24))
        assert rows(alice)[0].startswith("Following ada@127.0.0.1"), alice.screen()

    # m: a message to them from over their screen; the bar says it went.
    alice.keys("m")
    alice.wait_for(r"Message ada@127\.0\.0\.1")
    alice.wait_for(r"^Following ada@127\.0\.0\.1 · enter: send · esc: cancel")
    alice.keys("F1")
    time.sleep(0.5)
    assert "Keys: Room" not in alice.screen(), alice.screen()
    alice.type("Try Swift")
    alice.keys("Enter")
    ada.wait_for("From the presenter: Try Swift", timeout=5)
    alice.wait_for(r"m: message them · Sent to ada", timeout=5)

    # A larger terminal: their screen whole where it is, the bar under it.
    alice.resize(100, 30)
    alice.wait_for(r"\nFollowing ada@127\.0\.0\.1 · esc: back to the room", timeout=5)
    same_rows(alice, ada, range(0, 24), range(0, 24), width=80)
    assert rows(alice)[24].startswith("Following ada@127.0.0.1"), alice.screen()

    # A smaller terminal than theirs says what it leaves out and how to see it, and keeps their key bar.
    alice.resize(80, 24)
    ada.resize(100, 30)
    alice.wait_for(r"Not shown: their rows 21–26 and columns 81–100 · resize to 100×31 to see it all", timeout=5)
    same_rows(alice, ada, [23], [29], width=80)
    same_rows(alice, ada, range(2, 20), range(2, 20), width=80)

    alice.keys("Escape")
    alice.wait_for(r"sessions \(1 visitor\)", timeout=5)
    wait_until(lambda: "watching" not in ada.screen(), 5, "the visitor still reads that they are watched")
    # Wider, the selected session is still whole under the table.
    alice.resize(120, 30)
    alice.wait_for(r"ada@127\.0\.0\.1 · visitor-[0-9a-f]{16} · uid [A-Za-z0-9]{28}", timeout=5)
    alice.wait_for(re.escape(fingerprint))
    alice.keys("q")
    assert alice.wait_exit(timeout=15) == "0"


def test_a_reset_drops_the_visitors_messages_rather_than_marking_them_used(ssh_server, console, keys):
    from test_multi_factor import create_account

    server = operator_server(ssh_server, keys)
    visitor = console(command=server.client("ada"), width=80, height=24)
    visitor.wait_for("Choose a sign-in method", timeout=30)
    def unused_verification_email():
        """An account, its verification email sent, and the messages pane showing it not used."""
        create_account(visitor, "ada@example.com", "hunter22")
        visitor.keys("v")
        visitor.wait_for("A verification email to ada@example.com is in the outbox")
        visitor.keys("m")
        visitor.wait_for(r"Verify your email")
        assert "(used)" not in visitor.screen(), visitor.screen()

    unused_verification_email()
    visitor.keys("Escape")

    alice = console(command=server.client("alice", key=keys["operator"]), width=100, height=30)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    alice.keys("m")
    alice.wait_for(r"ada@example\.com\s+Verify your email", timeout=10)
    alice.keys("Escape")
    alice.keys("W")
    alice.wait_for(r"sessions \(1 visitor\)", timeout=10)
    alice.keys("R")
    alice.wait_for("Reset the demo?")
    alice.keys("y")
    alice.wait_for("The demo was reset", timeout=15)
    visitor.wait_for("The presenter reset the demo", timeout=5)

    # The project was emptied, its message with it: it was never used, and is not listed as if it were.
    # The pane opens on the list it last read and reads the outbox again: wait for that answer.
    visitor.keys("m")
    visitor.wait_for(r"No messages\.", timeout=10)
    screen = visitor.screen()
    assert "Verify your email" not in screen and "(used)" not in screen, screen
    visitor.keys("Escape")
    alice.keys("Escape")
    alice.keys("m")
    alice.wait_for(r"No messages\.", timeout=10)
    screen = alice.screen()
    assert "ada@example.com" not in screen and "(used)" not in screen, screen

    # A message sent after the reset is listed as any other.
    visitor.keys("Escape")
    unused_verification_email()
