"""The Admin SDK's custom tokens and email links, used by a client over REST, against `authdeck serve`."""
import os
import urllib.parse
import uuid

import firebase_admin
import jwt
import pytest
from firebase_admin import auth, credentials

from conftest import Rest, Server
from interop_project import PROJECT_ID

CUSTOM_TOKEN = "identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken"
EMAIL_LINK = "identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink"


def claims_of(token):
    return jwt.decode(token, options={"verify_signature": False})


def test_create_custom_token_then_sign_in_with_its_developer_claims(app, rest, unique):
    uid = unique("custom")
    token = auth.create_custom_token(uid, {"premium": True, "tier": "gold"}, app=app).decode()
    # Pointed at an emulator, the SDK makes an unsigned token: a loopback serve without an admin token takes it.
    assert jwt.get_unverified_header(token)["alg"] == "none"
    response = rest.post(CUSTOM_TOKEN, {"token": token, "returnSecureToken": True})
    assert response.status_code == 200, response.text
    signed_in = response.json()
    assert signed_in["isNewUser"] is True
    claims = claims_of(signed_in["idToken"])
    assert claims["sub"] == uid
    assert claims["premium"] is True and claims["tier"] == "gold"
    assert claims["firebase"]["sign_in_provider"] == "custom"
    # The claims belong to the session: the refreshed ID token has them, and the Admin SDK verifies it.
    refreshed = rest.refresh(signed_in["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert claims_of(refreshed.json()["id_token"])["tier"] == "gold"
    assert auth.verify_id_token(refreshed.json()["id_token"], app=app)["premium"] is True
    assert auth.get_user(uid, app=app).uid == uid


def test_generate_sign_in_with_email_link_then_sign_in_with_it(app, rest, unique):
    email = f"{unique('link')}@example.com"
    settings = auth.ActionCodeSettings(url="https://app.example.com/finish", handle_code_in_app=True)
    link = auth.generate_sign_in_with_email_link(email, settings, app=app)
    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
    assert query["mode"] == ["signIn"]
    assert query["continueUrl"] == ["https://app.example.com/finish"]
    response = rest.post(EMAIL_LINK, {"email": email, "oobCode": query["oobCode"][0]})
    assert response.status_code == 200, response.text
    assert response.json()["isNewUser"] is True
    user = auth.get_user_by_email(email, app=app)
    assert user.email_verified is True
    assert [p.provider_id for p in user.provider_data] == ["password"]
    # Used once.
    again = rest.post(EMAIL_LINK, {"email": email, "oobCode": query["oobCode"][0]})
    assert again.json()["error"]["message"] == "INVALID_OOB_CODE"


def test_get_users_with_mixed_identifiers_including_a_provider(app, rest, unique):
    uid = unique("mixed")
    email = f"{uid}@example.com"
    imported = auth.import_users([auth.ImportUserRecord(uid, email=email, phone_number="+15555550199", provider_data=[
        auth.UserProvider(uid=f"g-{uid}", provider_id="google.com", email=email)])], app=app)
    assert imported.failure_count == 0, [e.reason for e in imported.errors]
    other = auth.create_user(app=app)
    result = auth.get_users([auth.UidIdentifier(other.uid), auth.EmailIdentifier(email), auth.PhoneIdentifier("+15555550199"),
                             auth.ProviderIdentifier("google.com", f"g-{uid}"), auth.EmailIdentifier("absent@example.com")],
                            app=app)
    assert sorted(u.uid for u in result.users) == sorted([uid, other.uid])
    assert [type(i).__name__ for i in result.not_found] == ["EmailIdentifier"]


@pytest.fixture
def shared_server():
    running = Server("--admin-token", "interop-admin-token-" + uuid.uuid4().hex)
    yield running
    running.stop()


def test_a_shared_serve_takes_only_tokens_signed_by_its_service_account(shared_server, monkeypatch):
    rest = Rest(shared_server.base)
    account_file = os.path.join(shared_server.data_dir, "service-account.json")
    assert oct(os.stat(account_file).st_mode & 0o777) == "0o600"
    app = firebase_admin.initialize_app(credentials.Certificate(account_file), options={"projectId": PROJECT_ID},
                                        name=f"shared-{uuid.uuid4().hex[:6]}")
    try:
        # Without FIREBASE_AUTH_EMULATOR_HOST the SDK signs with the service account, as against Google.
        monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
        signed = auth.create_custom_token("shared-user", {"role": "editor"}, app=app).decode()
        assert jwt.get_unverified_header(signed)["alg"] == "RS256"
        response = rest.post(CUSTOM_TOKEN, {"token": signed, "returnSecureToken": True})
        assert response.status_code == 200, response.text
        assert claims_of(response.json()["idToken"])["role"] == "editor"

        # An unsigned token, what the SDK makes for an emulator, is refused here.
        monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", shared_server.host)
        emulator_app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"unsigned-{uuid.uuid4().hex[:6]}")
        try:
            unsigned = auth.create_custom_token("intruder", app=emulator_app).decode()
        finally:
            firebase_admin.delete_app(emulator_app)
        refused = rest.post(CUSTOM_TOKEN, {"token": unsigned, "returnSecureToken": True})
        assert refused.status_code == 400
        assert refused.json()["error"]["message"].startswith("INVALID_CUSTOM_TOKEN")
    finally:
        firebase_admin.delete_app(app)
