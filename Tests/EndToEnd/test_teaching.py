"""End to end: the teaching pane shows the SDK code of the step just taken, with the values typed,
and copies it to the visitor's own clipboard."""
import os
import re
import subprocess
import time

from test_ssh import ssh_server  # noqa: F401 (a fixture)


LANGUAGES = ["Swift (Apple platforms)", "Kotlin (Android)", "JavaScript (web, modular API)", "C++"]


def show_each_language(c):
    """The pane's text for each language at full width, as `l` cycles through them: the key bar
    names the language that comes next."""
    shown = {}
    following = ["Kotlin", "JavaScript", "C++", "all four"]
    for language, after in zip(LANGUAGES, following):
        c.keys("l")
        c.wait_for(f"l show {re.escape(after)}")
        shown[language] = c.screen()
    c.keys("l")
    c.wait_for("l show Swift")
    return shown


def test_the_pane_after_anonymous_sign_in_and_after_an_email_sign_up(console):
    c = console(width=80, height=24)
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    c.wait_for(r"s SDK")

    c.keys("s")
    c.wait_for("SDK: Anonymous sign-in")
    screen = c.wait_for(r"Backend: POST \S*accounts:signUp → 200").string
    assert "Swift (Apple platforms)" in screen
    for language, text in show_each_language(c).items():
        name = "SignInAnonymously" if language == "C++" else "signInAnonymously"
        assert name in text, f"{language}:\n{text}"
        # Only the chosen language shows at full width.
        assert f"│ {language} " in text, text
        assert not any(f"│ {other} " in text for other in LANGUAGES if other != language), text
    c.keys("Escape")
    c.wait_for("ANONYMOUS")

    # Signing a guest out loses the account: the console asks first.
    c.keys("o")
    c.wait_for(r"\[ Sign out \]")
    c.keys("y")
    c.wait_for("Signed out")
    c.keys("Down", "Down", "Enter")
    c.wait_for("Create an account")
    # A form types letters: F4 opens the pane there.
    c.wait_for("F4 SDK")
    c.type("grace.hopper@example.com")
    c.keys("Tab")
    c.type("hopper-secret-1")
    c.keys("Enter")
    c.wait_for("Account created")
    c.keys("s")
    c.wait_for("SDK: Email and password: create the account")
    for language, text in show_each_language(c).items():
        assert '"grace.hopper@example.com"' in text, f"{language}:\n{text}"
        assert "hopper-secret-1" not in text
    c.keys("Escape")
    c.wait_for("grace.hopper@example.com")


SWIFT_ANONYMOUS = ("// Anonymous sign-in (Swift (Apple platforms))\n"
                   "let result = try await Auth.auth().signInAnonymously()\n"
                   "let user = result.user  // user.isAnonymous == true\n")


def newest_buffer(tmux, previous):
    """The tmux paste buffer OSC 52 made, once there is a new one."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        names = subprocess.run([*tmux, "list-buffers", "-F", "#{buffer_name}"], capture_output=True, text=True).stdout.split()
        if names and names[0] not in previous:
            return names[0], subprocess.run([*tmux, "show-buffer", "-b", names[0]], capture_output=True, text=True, check=True).stdout
        time.sleep(0.1)
    raise AssertionError("no clipboard buffer: the OSC 52 sequence never reached tmux")


def test_y_copies_the_step_to_the_visitors_clipboard_over_ssh_and_Y_the_transcript(ssh_server, console):
    """The visitor's terminal is tmux with set-clipboard on, running OpenSSH's client: the console's OSC 52
    sequence crosses `authdeck ssh` and tmux decodes it into a paste buffer, which is the code."""
    tmux = ["tmux", "-L", f"authdeck-e2e-{os.getpid()}"]
    subprocess.run([*tmux, "set-option", "-s", "set-clipboard", "on"], check=True)
    server = ssh_server()
    c = console(command=server.client(), width=80, height=24)
    c.wait_for("Choose a sign-in method", timeout=20)
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    c.keys("s")
    c.wait_for("SDK: Anonymous sign-in")
    c.keys("l")
    c.wait_for("l show Kotlin")
    before = subprocess.run([*tmux, "list-buffers", "-F", "#{buffer_name}"], capture_output=True, text=True).stdout.split()
    c.keys("y")
    c.wait_for("Copied")
    assert "Some terminals ignore it" in c.screen()
    name, text = newest_buffer(tmux, before)
    assert text == SWIFT_ANONYMOUS

    # The transcript: t shows every step of this console, Y copies them all.
    c.keys("Escape")
    c.keys("o")
    c.wait_for(r"\[ Sign out \]")
    c.keys("y")
    c.wait_for("Signed out")
    c.keys("s")
    c.keys("t")
    c.wait_for("SDK transcript: 2 steps in Swift")
    c.keys("Y")
    c.wait_for("the transcript")
    _, transcript = newest_buffer(tmux, before + [name])
    assert transcript.startswith("// 1. Anonymous sign-in (Swift (Apple platforms))\nlet result = try await Auth.auth().signInAnonymously()")
    assert "// 2. Sign out (Swift (Apple platforms))\ntry Auth.auth().signOut()" in transcript
