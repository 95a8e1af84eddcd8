"""End to end: what a terminal may send besides key presses (invalid UTF-8, an escape and a
character at once, answers to queries) never quits the console; only `q` does. A terminal the
console cannot use is named in one line."""
import subprocess
import time

import pytest

from authdeck_binary import authdeck_binary

HELP = "quit at once, from anywhere"  # only the help overlay says this


def still_running(c):
    """The loop still answers keys: `?` opens help, esc closes it."""
    c.keys("?")
    c.wait_for(HELP)
    c.keys("Escape")
    deadline = time.monotonic() + 15
    while HELP in c.screen():
        assert time.monotonic() < deadline, f"help did not close; screen was:\n{c.screen()}"
        time.sleep(0.1)


@pytest.mark.parametrize("hex_bytes", ["e9", "80", "ff", "c0 af", "e2 82", "ed a0 80", "e9 61"])
def test_invalid_utf8_is_not_the_end_of_input(console, hex_bytes):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("-H", *hex_bytes.split())
    still_running(c)
    c.keys("q")
    assert c.wait_exit() == "0"


def test_invalid_utf8_in_a_form_is_a_replacement_character(console):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("Up", "Up", "Down", "Enter")
    c.wait_for("Sign in with email and password")
    c.type("ab")
    c.keys("-H", "e9")  # é from a Latin-1 terminal
    c.type("cd")
    c.wait_for("ab\ufffdcd")


def test_escape_and_q_at_once_is_not_q(console):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("-H", "1b", "71")  # ESC q in one write: Alt-q, or a fast escape then q
    still_running(c)
    c.keys("q")
    assert c.wait_exit() == "0"


@pytest.mark.parametrize("sequence", [
    "1b 50 2b 71 36 34 36 31 1b 5c",  # DCS +q (an XTGETTCAP query), ended by ST
    "1b 5d 31 30 3b 3f 07",  # OSC 10 ; ? ended by BEL
    "1b 5b 3f 31 3b 32 63",  # a CSI answer (device attributes)
    "1b 4f 71",  # SS3 q
])
def test_unknown_sequences_are_swallowed_whole(console, sequence):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("-H", *sequence.split())
    still_running(c)
    c.keys("q")
    assert c.wait_exit() == "0"


def test_without_a_usable_terminal_the_console_says_what_to_do(console, data_dir):
    """No terminal at all, and one that ncurses has no description of: one line each, exit 1."""
    piped = subprocess.run([authdeck_binary(), "--data", data_dir], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=20)
    assert piped.returncode == 1
    assert "needs an interactive terminal: its standard input and output are not one (over SSH, `ssh -t`" in piped.stderr
    unknown = console(env={"TERM": "no-such-terminal"})
    unknown.wait_for(r"needs an interactive terminal: ncurses has no description of TERM=no-such-terminal")
    assert unknown.wait_exit() == "1"
