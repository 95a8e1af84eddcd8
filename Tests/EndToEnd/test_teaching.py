"""End to end: the teaching pane shows the SDK code of the step just taken, with the values typed."""
import re


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
