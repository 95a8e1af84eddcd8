"""The presenter's room in `authdeck ssh`, with Debian's OpenSSH client in tmux: three visitors and an operator."""
import os
import re
import shutil
import subprocess
import tempfile
import time

from authdeck_binary import authdeck_binary
from test_ssh import UID, keys, pane_flag, ssh_server, wait_until  # noqa: F401 (fixtures)


def project_accounts(server):
    """Accounts per project, through the admin API (`authdeck accounts projects`)."""
    listed = subprocess.run([authdeck_binary(), "accounts", "projects", "--data", server.data_dir],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    return {line.split()[0]: int(line.split()[1]) for line in listed.stdout.splitlines()[1:] if line.strip()}


def test_the_presenter_sees_follows_messages_ends_and_resets_the_room(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        out.write(f.read())
    server = ssh_server(["--operators", operators, "--max-sessions-per-address", "8"])
    # Named by what they type: the second "ada" is ada-2 in the room, "Bob" is bob.
    # One after another: two "ada"s arriving together would take their names in either order.
    visitors = []
    for name in ("ada", "ada", "Bob"):
        visitors.append(console(command=server.client(name), width=80, height=24))
        visitors[-1].wait_for("Choose a sign-in method", timeout=30)
    # One signed in anonymously, one waiting for a texted code, one on the sign-in methods.
    visitors[0].keys("Enter")
    visitors[0].wait_for(UID)
    visitors[1].keys("8")
    visitors[1].wait_for("Sign in with a phone number")
    visitors[1].type("+15555550123")
    visitors[1].keys("Enter")
    visitors[1].wait_for("code")

    alice = console(command=server.client("alice", key=keys["operator"]), width=100, height=30)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    # The operator's own account, in the server's own project: a reset leaves it.
    alice.keys("Enter")
    alice.wait_for(UID)
    alice.keys("A")
    alice.wait_for("Accounts")
    alice.keys("W")
    alice.wait_for(r"4 sessions \(3 visitors\)", timeout=10)
    screen = alice.screen()
    assert all(re.search(rf"^ [> ][! ] {re.escape(name)} ", screen, re.M) for name in ("ada", "ada-2", "bob")), screen
    assert "Phone sign-in: code sent" in screen and "anonymous" in screen and "you (operator)" in screen, screen
    # A visitor who moves shows in the room within a second or two.
    visitors[2].keys("8")
    alice.wait_for("Phone sign-in: number", timeout=5)

    # Follow the visitor waiting for a code, found with the filter: their screen, read-only; they are told.
    alice.keys("/")
    alice.type("code sent")
    alice.keys("Enter")
    alice.wait_for(r"\(1 shown\)")
    alice.keys("Enter")
    alice.wait_for(r"Following ada-2@127\.0\.0\.1", timeout=5)
    alice.wait_for("Sign in with a phone number", timeout=5)
    visitors[1].wait_for("The presenter is watching your screen", timeout=5)
    visitors[1].keys("Escape")
    visitors[1].keys("Escape")
    visitors[1].wait_for("Choose a sign-in method")
    alice.wait_for("Choose a sign-in method", timeout=5)
    alice.keys("Escape")
    alice.wait_for(r"\(0 shown\)")
    alice.keys("Escape")
    alice.wait_for(r"4 sessions \(3 visitors\) · order")
    wait_until(lambda: "watching" not in visitors[1].screen(), 5, "the visitor still reads that they are watched")

    # A message, its control characters stripped, on every visitor's console.
    alice.keys("M")
    alice.wait_for("Message every visitor")
    alice.type("Hello room\x07 and welcome")
    alice.keys("Enter")
    alice.wait_for("Sent to 3 visitors")
    for v in visitors:
        v.wait_for("From the presenter: Hello room and welcome", timeout=5)

    # A message to one visitor, from their row: the one who failed to sign in keeps their error beside it.
    visitors[2].keys("Escape")
    visitors[2].wait_for("Choose a sign-in method")
    visitors[2].keys("2")
    visitors[2].wait_for("Sign in with email and password")
    visitors[2].type("nobody@example.com")
    visitors[2].keys("Tab")
    visitors[2].type("wrong-password")
    visitors[2].keys("Enter")
    visitors[2].wait_for("INVALID_LOGIN_CREDENTIALS")
    alice.keys("/")
    alice.type("bob")
    alice.keys("Enter")
    alice.wait_for(r"\(1 shown\)")
    alice.keys("m")
    alice.wait_for(r"Message bob@127\.0\.0\.1")
    alice.type("Check the password")
    alice.keys("Enter")
    alice.wait_for(r"Sent to bob@127\.0\.0\.1: Check the password")
    screen = visitors[2].wait_for("From the presenter: Check the password", timeout=5).string
    assert "INVALID_LOGIN_CREDENTIALS" in screen, screen
    for v in visitors[:2]:
        assert "Check the password" not in v.screen()
    alice.keys("Escape")
    visitors[2].keys("Escape")
    visitors[2].wait_for("Choose a sign-in method")
    visitors[2].keys("8")
    visitors[2].wait_for("Sign in with a phone number")

    # End the third visitor's session: theirs alone ends, their terminal given back with a notice.
    alice.keys("/")
    alice.type("number")
    alice.keys("Enter")
    alice.wait_for(r"\(1 shown\)")
    alice.keys("x")
    alice.wait_for(r"End this session\?")
    alice.keys("y")
    try:
        assert visitors[2].wait_exit(timeout=15) == "0"
    except AssertionError:
        raise AssertionError(f"the session did not end; the presenter saw:\n{alice.screen()}\nlog:\n{server.log()[-3000:]}")
    ended = visitors[2].wait_for("AuthDeck: the presenter ended this session").string
    # The console gave the terminal back before the notice: none of it is left on the screen.
    assert "AuthDeck ·" not in ended, ended
    assert pane_flag(visitors[2], "alternate_on") == "0" and pane_flag(visitors[2], "cursor_flag") == "1"
    alice.wait_for(r"3 sessions \(2 visitors\)", timeout=5)
    alice.keys("Escape")
    for v in visitors[:2]:
        assert "the presenter ended this session" not in v.screen() and not os.path.exists(v.exit_file), v.screen()

    # Reset: every visitor's project emptied, the operator's untouched.
    visitors[1].keys("1")
    visitors[1].wait_for(UID)
    before = project_accounts(server)
    visitor_projects = {p: n for p, n in before.items() if p.startswith(("guest-", "visitor-"))}
    own = {p: n for p, n in before.items() if p not in visitor_projects}
    assert sum(visitor_projects.values()) == 2 and sum(own.values()) == 1, before
    alice.keys("R")
    alice.wait_for("Reset the demo?")
    dialog = re.sub(r"[\s│|]+", " ", alice.screen())
    assert f"{len(visitor_projects)} visitor projects (2 accounts" in dialog and "the 2 visitors connected now" in dialog, dialog
    alice.keys("y")
    alice.wait_for("The demo was reset", timeout=15)
    for v in visitors[:2]:
        v.wait_for("The presenter reset the demo", timeout=5)
        assert "Choose a sign-in method" in v.screen()
    after = project_accounts(server)
    assert all(after.get(p, 0) == 0 for p in visitor_projects), after
    assert {p: after[p] for p in own} == own, after

    # The room's log: who joined with their project, the message, the reset, newest last.
    alice.keys("l")
    alice.wait_for(r"Room log · \d+ events, newest last")
    alice.wait_for(r"ada@127\.0\.0\.1 joined, project (guest|visitor)-")
    alice.wait_for(r"alice@127\.0\.0\.1 sent to 3 visitors: Hello room and welcome")
    alice.wait_for(r"alice@127\.0\.0\.1 ended bob@127\.0\.0\.1, project (guest|visitor)-")
    alice.wait_for(r"alice@127\.0\.0\.1 reset the demo: \d+ projects?, 2 accounts, 2 visitors told\n")
    alice.keys("l")
    alice.wait_for(r"3 sessions \(2 visitors\) · order")

    # A visitor who drops while followed: the presenter reads that they left and is back in the room.
    visitors[0].keys("8")
    alice.keys("/")
    alice.type("number")
    alice.keys("Enter")
    alice.wait_for(r"\(1 shown\)", timeout=5)
    alice.keys("Enter")
    alice.wait_for("Sign in with a phone number", timeout=5)
    visitors[0].kill()
    alice.wait_for(r"ada@127\.0\.0\.1 left\.", timeout=10)
    alice.wait_for(r"2 sessions \(1 visitor\)", timeout=5)

    alice.keys("q")
    assert alice.wait_exit(timeout=15) == "0"
    log = server.log()
    assert "room message" in log and "room reset" in log and re.search(r"room status.*project=guest-", log)
    assert re.search(r"ssh session .*outcome=closed by the server.*project=guest-|ssh session .*project=guest-.*outcome=closed by the server", log), log


def test_visitors_are_named_by_what_they_type_and_operators_names_are_theirs(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        kind, blob = f.read().split()[:2]
        out.write(f"{kind} {blob} presenter@laptop\n")
    server = ssh_server(["--operators", operators, "--max-sessions-per-address", "8"])
    grace = console(command=server.client("Grace.Hopper"), width=80, height=24)
    keyed = console(command=server.client("ada", key=keys["other"]), width=100, height=30)
    for v in (grace, keyed):
        v.wait_for("Choose a sign-in method", timeout=30)
    grace.keys("Enter")
    grace.wait_for(UID)

    # The operators file's comment reserves "presenter", and alice's login reserves "alice": without
    # the operator's key, both are refused, where any other name is a visitor's.
    for name in ("presenter", "alice"):
        if name == "alice":
            alice = console(command=server.client("alice", key=keys["operator"]), width=80, height=24)
            alice.wait_for(r"shared demo server \(operator\)", timeout=30)
        refused = subprocess.run(server.client(name, key=keys["other"], extra=["-o", "BatchMode=yes"]),
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        assert refused.returncode == 255 and "Permission denied" in refused.stderr, (name, refused.stderr)

    # At 80x24 the room names them as they typed, cleaned, and the keyed one by their key's project.
    alice.keys("A")
    alice.wait_for("Accounts")
    alice.keys("W")
    alice.wait_for(r"3 sessions \(2 visitors\)", timeout=10)
    screen = alice.screen()
    assert re.search(r"name +screen +sign-in methods +sandbox +idle", screen), screen
    # Name, screen, the account's sign-in methods and the project, in 80 columns.
    grace_row = next(line for line in screen.splitlines() if " grace.hopper " in line)
    assert re.search(r"grace\.hopper +Account.* anonymous +guest-[0-9a-f]+", grace_row), grace_row
    assert re.search(r" ada +Sign in +signed out +visitor-[0-9a-f]+", screen), screen
    alice.keys("/")
    alice.type("ada")
    alice.keys("Enter")
    project = alice.wait_for(r"ada@127\.0\.0\.1 · (visitor-[0-9a-f]{16})").group(1)

    # The keyed visitor comes back under another name: the same project, and the name they chose
    # first, which their project keeps, in the room as in the project listing.
    keyed.keys("q")
    assert keyed.wait_exit(timeout=15) == "0"
    back = console(command=server.client("lovelace", key=keys["other"]), width=100, height=30)
    back.wait_for("Choose a sign-in method", timeout=30)
    alice.keys("Escape")
    alice.wait_for(r"\(1 visitor\)|\(2 visitors\)")
    alice.keys("/")
    alice.type(project)
    alice.keys("Enter")
    alice.wait_for(rf"ada@127\.0\.0\.1 · {project}", timeout=10)
    assert "lovelace" not in alice.screen(), alice.screen()
    listed = subprocess.run([authdeck_binary(), "accounts", "projects", "--data", server.data_dir],
                            capture_output=True, text=True, timeout=60)
    listing = {line.split()[0]: line.split() for line in listed.stdout.splitlines()[1:] if line.strip()}
    assert listing[project][2] == "ada" and "lovelace" not in listed.stdout, listed.stdout
    alice.keys("q")
    assert alice.wait_exit(timeout=15) == "0"


def test_a_visitor_whose_request_failed_is_marked_stuck_and_sorted_first(ssh_server, console, keys):
    from test_console import sign_in_with_email

    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    shutil.copy(keys["operator"] + ".pub", operators)
    server = ssh_server(["--operators", operators, "--max-sessions-per-address", "8"])
    fine = console(command=server.client("fine"), width=80, height=24)
    lost = console(command=server.client("lost"), width=80, height=24)
    fine.wait_for("Choose a sign-in method", timeout=30)
    sign_in_with_email(lost, "nobody@example.com", "wrong-password")
    lost.wait_for("INVALID_LOGIN_CREDENTIALS")

    for width, height in ((80, 24), (120, 36)):
        alice = console(command=server.client("alice", key=keys["operator"]), width=width, height=height)
        alice.wait_for(r"shared demo server \(operator\)", timeout=30)
        alice.keys("W")
        alice.wait_for(r"3 sessions \(2 visitors, 1 stuck !\)", timeout=10)
        screen = alice.screen()
        assert re.search(r"^ [> ]! lost ", screen, re.M) and not re.search(r"! fine ", screen), screen
        # o: the stuck first, and the detail line says why.
        alice.keys("o")
        alice.wait_for("order: stuck")
        alice.keys("g")
        alice.wait_for(r"lost@127\.0\.0\.1 · stuck: INVALID_LOGIN_CREDENTIALS · guest-")
        assert alice.screen().index(" lost ") < alice.screen().index(" fine ")
        alice.keys("q")
        assert alice.wait_exit(timeout=15) == "0"

    # Back on their feet: a request that succeeds clears the mark.
    lost.keys("Escape")
    lost.wait_for("Choose a sign-in method")
    lost.keys("Up", "Up", "Enter")
    lost.wait_for(UID)
    alice = console(command=server.client("alice", key=keys["operator"]), width=80, height=24)
    alice.wait_for(r"shared demo server \(operator\)", timeout=30)
    alice.keys("W")
    alice.wait_for(r"3 sessions \(2 visitors\) · order", timeout=10)


def test_the_room_opens_at_once_on_the_last_snapshot(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    shutil.copy(keys["operator"] + ".pub", operators)
    server = ssh_server(["--operators", operators])
    visitor = console(command=server.client("ada"), width=80, height=24)
    visitor.wait_for("Choose a sign-in method", timeout=30)
    for width, height in ((80, 24), (120, 36)):
        alice = console(command=server.client("alice", key=keys["operator"]), width=width, height=height)
        alice.wait_for(r"shared demo server \(operator\)", timeout=30)
        for _ in range(2):
            # Snapshots come each second: by now one has arrived while the sign-in screen showed.
            time.sleep(1.5)
            alice.keys("W")
            started = time.monotonic()
            seen = []
            while time.monotonic() - started < 2:
                seen.append(alice.screen())
                if "2 sessions (1 visitor)" in seen[-1]:
                    break
            elapsed = time.monotonic() - started
            assert not any("Waiting for the room" in s for s in seen), seen[0]
            assert elapsed < 0.3, f"the room took {elapsed:.2f}s to show"
            alice.keys("Escape")
            alice.wait_for("Choose a sign-in method")
        alice.keys("q")
        assert alice.wait_exit(timeout=15) == "0"


def test_refused_visitors_are_in_the_room_log_wrapped(ssh_server, console, keys):
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    shutil.copy(keys["operator"] + ".pub", operators)
    server = ssh_server(["--operators", operators, "--max-sessions-per-address", "1"])
    first = console(command=server.client("ada"), width=80, height=24)
    first.wait_for("Choose a sign-in method", timeout=30)
    for _ in range(2):
        refused = subprocess.run(server.client("grace", extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        assert refused.returncode == 1 and "too many sessions from your address" in refused.stderr + refused.stdout
    for width, height in ((80, 24), (120, 36)):
        alice = console(command=server.client("alice", key=keys["operator"]), width=width, height=height)
        alice.wait_for(r"shared demo server \(operator\)", timeout=30)
        alice.keys("W")
        alice.wait_for(r"2 sessions \(1 visitor\)", timeout=10)
        alice.keys("l")
        # The frame is complete once the last event is drawn, not its first line.
        alice.wait_for(r"\(2\s+times\)")
        screen = alice.screen()
        # Wrapped under its time, never cut: the whole sentence reads once the lines are joined.
        text = " ".join(line.strip() for line in screen.splitlines())
        text = re.sub(r" \d\d:\d\d:\d\d ", " ", text)
        assert ("grace@127.0.0.1 was turned away: too many sessions from their address "
                "(--max-sessions-per-address 1) (2 times)") in text, screen
        assert "…" not in screen, screen
        alice.keys("q")
        assert alice.wait_exit(timeout=15) == "0"


def test_a_kept_name_an_operator_has_taken_since_is_not_shown_for_the_visitor(ssh_server, console, keys):
    # A keyed visitor chooses "ada" while no operator is called so.
    first = ssh_server()
    ada = console(command=first.client("ada", key=keys["other"]), width=80, height=24)
    ada.wait_for("Choose a sign-in method", timeout=30)
    ada.keys("q")
    assert ada.wait_exit(timeout=15) == "0"
    first.stop()

    # The same data, now with an operator whose key says ada@laptop: the name is hers from now on.
    operators = os.path.join(tempfile.mkdtemp(prefix="authdeck-ops-"), "authorized_keys")
    with open(keys["operator"] + ".pub", encoding="utf-8") as f, open(operators, "w", encoding="utf-8") as out:
        kind, blob = f.read().split()[:2]
        out.write(f"{kind} {blob} ada@laptop\n")
    server = ssh_server(["--operators", operators], data=first.data_dir)
    back = console(command=server.client("grace", key=keys["other"]), width=80, height=24)
    back.wait_for("Choose a sign-in method", timeout=30)
    presenter = console(command=server.client("ada", key=keys["operator"]), width=100, height=30)
    presenter.wait_for(r"shared demo server \(operator\)", timeout=30)
    presenter.keys("W")
    presenter.wait_for(r"2 sessions \(1 visitor\)", timeout=10)
    screen = presenter.wait_for(r"(?m)^ [> ][! ] grace ").string
    # ada is the operator alone: the visitor is not a second ada (nor ada-2).
    assert re.search(r"(?m)^ [> ][! ] ada .*you \(operator\)", screen) and "ada-2" not in screen, screen
    assert re.search(r"(?m)^ [> ][! ] grace .*visitor-", screen), screen
    presenter.keys("q")
    assert presenter.wait_exit(timeout=15) == "0"
