"""End to end: federated sign-in through the simulated providers, linking, and the link-conflict merge."""
import re
import time

UID = r"uid\s+([A-Za-z0-9]{28})"
RELAY = r"([a-z0-9]+@privaterelay\.appleid\.com)"


def choose_method(c, index):
    c.wait_for("Choose a sign-in method")
    c.keys(*(["Up"] * 6), *(["Down"] * index), "Enter")


def add_to_cart(c, *items):
    for item in items:
        c.keys("a")
        c.wait_for("Add to cart")
        c.type(item)
        c.keys("Enter")


def send_request(c, provider):
    """enter goes from field to field of the provider request and sends it from the last."""
    c.keys(*["Enter"] * (5 if provider == "Microsoft" else 2))


def new_identity(c, provider, name, email):
    c.wait_for(r"\+ Add a new identity")
    c.keys("Enter")
    c.wait_for(f"New simulated {provider} identity")
    c.type(name)
    c.keys("Tab")
    c.type(email)
    c.keys("Enter")
    c.wait_for(f"Added {name}")


def sign_in_with_apple(c):
    choose_method(c, 3)
    c.wait_for("The request to the simulated apple.com")
    send_request(c, "Apple")
    c.wait_for("consented before")
    c.wait_for("Email: hidden")
    c.keys("Enter")
    c.wait_for("Signed in")


def sign_up_with_google_then_out(c, name, email):
    """A new Google identity's account from the sign-in methods; signs out and gives its uid."""
    choose_method(c, 5)
    c.wait_for("The request to the simulated google.com")
    send_request(c, "Google")
    new_identity(c, "Google", name, email)
    c.keys("Enter")
    c.wait_for("Account created")
    uid = c.wait_for(UID).group(1)
    c.keys("o")
    c.wait_for("Signed out")
    return uid


def link_from_methods(c, downs, provider):
    c.keys("l")
    c.wait_for("Sign-in methods of this account")
    c.keys(*(["Down"] * downs), "Enter")
    c.wait_for(f"Link {provider} to this account")
    send_request(c, provider)
    c.wait_for(f"SIMULATED {provider.upper()}")


def test_apple_upgrade_sign_in_again_then_a_conflict_merges_the_carts(console, data_dir):
    c = console()
    c.wait_for("Choose a sign-in method")
    c.keys("Enter")
    c.wait_for("ANONYMOUS")
    first = c.wait_for(UID).group(1)
    add_to_cart(c, "apple", "pear", "apple")
    c.wait_for(r"2 × apple")

    # Link Apple, hiding the email: the anonymous account is upgraded in place.
    link_from_methods(c, 1, "Apple")
    new_identity(c, "Apple", "Ada Lovelace", "ada@example.com")
    c.keys("h")
    c.wait_for(r"\[x\] Hide my email")
    c.keys("Enter")
    c.wait_for("Linked apple.com")
    screen = c.screen()
    assert "ANONYMOUS" not in screen
    assert re.search(UID, screen).group(1) == first
    relay = re.search(RELAY, screen).group(1)
    assert "ada@example.com" not in screen
    assert "2 × apple" in screen and "1 × pear" in screen

    # The inspector tells the nonce story of that consent.
    c.keys("i")
    c.keys("Up")
    c.wait_for("raw nonce")
    c.wait_for("the ID token's nonce claim matches the SHA-256")
    c.keys("Escape")

    c.keys("o")
    c.wait_for("Signed out")
    sign_in_with_apple(c)
    screen = c.screen()
    assert re.search(UID, screen).group(1) == first
    assert relay in screen
    assert "2 × apple" in screen and "1 × pear" in screen

    # A second account links a Microsoft identity.
    c.keys("o")
    c.wait_for("Signed out")
    choose_method(c, 2)
    c.wait_for("Create an account")
    c.type("bob@example.com")
    c.keys("Tab")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for("Account created")
    second = c.wait_for(UID).group(1)
    add_to_cart(c, "book")
    c.wait_for(r"1 × book")
    link_from_methods(c, 1, "Microsoft")
    c.wait_for("tenant=common")
    new_identity(c, "Microsoft", "Carol Shaw", "carol@contoso.com")
    c.keys("Enter")
    c.wait_for("Linked microsoft.com")

    # The first account links the same Microsoft identity: the conflict shows both accounts.
    c.keys("o")
    c.wait_for("Signed out")
    sign_in_with_apple(c)
    assert c.wait_for(UID).group(1) == first
    link_from_methods(c, 1, "Microsoft")
    c.wait_for("Carol Shaw")
    c.keys("Enter")
    c.wait_for("This Microsoft identity already belongs to another account")
    c.wait_for("bob@example.com")
    screen = c.screen()
    assert first in screen and second in screen
    assert "2 × apple" in screen and "1 × book" in screen
    c.keys("Right")
    c.wait_for(r"\[>Switch \+ merge cart<\]")
    c.keys("Enter")
    c.wait_for(r"was\s+merged\s+into\s+it")
    c.wait_for(rf"{first}\s+was\s+kept")
    screen = c.screen()
    assert re.search(UID, screen).group(1) == second
    for line in ("2 × apple", "1 × pear", "1 × book"):
        assert line in screen, line

    # The first account is not anonymous any more (it has Apple): it was kept, with an empty cart.
    c.keys("o")
    c.wait_for("Signed out")
    sign_in_with_apple(c)
    assert c.wait_for(UID).group(1) == first
    c.wait_for("empty: press a to add an item")

    with open(f"{data_dir}/authdeck.log", encoding="utf-8") as log:
        text = log.read()
    assert "hunter22" not in text and "eyJ" not in text


def test_an_anonymous_account_is_deleted_after_the_merge(console):
    c = console()
    c.wait_for("Choose a sign-in method")
    owner = sign_up_with_google_then_out(c, "Alan Turing", "alan@gmail.com")

    c.keys("Up", "Up", "Up", "Enter")
    c.wait_for("ANONYMOUS")
    guest = c.wait_for(UID).group(1)
    add_to_cart(c, "tea")
    c.wait_for(r"1 × tea")
    link_from_methods(c, 3, "Google")
    c.wait_for("Alan Turing")
    c.keys("Enter")
    c.wait_for("This Google identity already belongs to another account")
    c.wait_for("alan@gmail.com")
    c.keys("Right", "Enter")
    c.wait_for(rf"{guest}\s+was\s+deleted")
    screen = c.screen()
    assert re.search(UID, screen).group(1) == owner
    assert "1 × tea" in screen


def test_switch_merge_and_delete_confirms_a_stale_previous_account_then_deletes_it(console):
    """Deleting the previous account after a switch needs a recent sign-in of that account: when its own is
    stale (CREDENTIAL_TOO_OLD_LOGIN_AGAIN), the console asks to confirm it, then deletes it."""
    c = console(width=80, height=24, extra_args=["--recent-login-window", "3"])
    c.wait_for("Choose a sign-in method")
    owner = sign_up_with_google_then_out(c, "Grace Hopper", "grace@gmail.com")
    c.keys("3")
    c.wait_for("Create an account")
    c.type("y@example.com")
    c.keys("Tab")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for("Account created")
    time.sleep(4)
    link_from_methods(c, 2, "Google")
    c.wait_for("Grace Hopper")
    c.keys("Enter")
    c.wait_for("This Google identity already belongs to another account")
    c.wait_for("grace@gmail.com")
    c.keys("Right", "Right", "Enter")
    c.wait_for("Confirm it's you to delete y@example.com")
    c.wait_for("Its own sign-in is too old to delete it")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for(r"Deleted y@example\.com")
    assert re.search(UID, c.screen()).group(1) == owner
    c.keys("o")
    c.wait_for("Signed out")
    c.keys("2")
    c.wait_for("Sign in with email and password")
    c.type("y@example.com")
    c.keys("Tab")
    c.type("hunter22")
    c.keys("Enter")
    c.wait_for("INVALID_LOGIN_CREDENTIALS")


def test_the_simulated_providers_work_against_authdeck_serve(console, served, tmp_path):
    server = served()
    c = console(data=str(tmp_path / "console"), extra_args=["--emulator", server.address])
    choose_method(c, 4)
    c.wait_for("The request to the simulated microsoft.com")
    send_request(c, "Microsoft")
    c.wait_for("SIMULATED MICROSOFT")
    new_identity(c, "Microsoft", "Bill Gates", "bill@outlook.com")
    c.wait_for("personal")
    c.keys("Enter")
    c.wait_for("Account created")
    screen = c.screen()
    assert "microsoft.com" in screen
    assert "bill@outlook.com" in screen
