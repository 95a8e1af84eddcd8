"""Accounts made with a second factor, as the Firebase Auth Emulator's own tests make them, then
signed in with the password over REST: a pending credential, the SMS factor, tokens the Admin SDK
verifies. The Admin SDK for Python has no `multi_factor` on `create_user` (7.7.0: it takes uid,
display_name, email, phone_number, photo_url, password, disabled and email_verified only), so the
administrator's creation is the `accounts` call the Node Admin SDK's `createUser({multiFactor})` makes."""
import requests
from firebase_admin import auth

from interop_project import PROJECT_ID
from test_admin_multi_factor import admin_post, challenged, finish_with_sms


def second_factor_of(app, id_token):
    return auth.verify_id_token(id_token, app=app)["firebase"]


def test_an_administrator_creates_a_user_with_a_factor_and_the_password_then_needs_it(server, app, rest, unique):
    email = f"{unique('mfa-create')}@example.com"
    created = admin_post(server, "/accounts", {
        "email": email, "password": "notasecret", "emailVerified": True,
        "mfaInfo": [{"phoneInfo": "+15555550140", "displayName": "Cell Phone", "mfaEnrollmentId": "given-id-is-ignored"}],
    })
    assert created.status_code == 200, created.text
    uid = created.json()["localId"]
    assert "idToken" not in created.json()
    assert auth.get_user(uid, app=app).email == email

    first = challenged(rest, email, "notasecret")
    hint = first["mfaInfo"][0]
    assert hint["phoneInfo"] == "+*******0140" and hint["displayName"] == "Cell Phone"
    assert hint["mfaEnrollmentId"] != "given-id-is-ignored" and len(hint["mfaEnrollmentId"]) == 28

    id_token = finish_with_sms(server, rest, first["mfaPendingCredential"], hint["mfaEnrollmentId"])
    claims = auth.verify_id_token(id_token, app=app)
    assert claims["uid"] == uid
    assert claims["firebase"]["sign_in_second_factor"] == "phone"
    assert claims["firebase"]["second_factor_identifier"] == hint["mfaEnrollmentId"]


def test_an_apps_sign_up_with_a_factor_on_a_loopback_serve_and_its_password_sign_in(server, app, rest, unique):
    email = f"{unique('mfa-signup')}@example.com"
    signed_up = rest.post("identitytoolkit.googleapis.com/v1/accounts:signUp", {
        "email": email, "password": "notasecret", "returnSecureToken": True,
        "mfaInfo": [{"phoneInfo": "+15555550141"}, {"phoneInfo": "+15555550141"}],
    })
    assert signed_up.status_code == 200, signed_up.text
    uid = signed_up.json()["localId"]
    # As the emulator: the sign-up answers tokens, and the factors are stored, one a number.
    assert auth.verify_id_token(signed_up.json()["idToken"], app=app)["uid"] == uid
    looked_up = admin_post(server, "/accounts:lookup", {"localId": [uid]}).json()["users"][0]
    assert [factor["phoneInfo"] for factor in looked_up["mfaInfo"]] == ["+15555550141"]

    first = challenged(rest, email, "notasecret")
    hint = first["mfaInfo"][0]
    assert hint["phoneInfo"] == "+*******0141" and "displayName" not in hint
    id_token = finish_with_sms(server, rest, first["mfaPendingCredential"], hint["mfaEnrollmentId"])
    assert second_factor_of(app, id_token)["second_factor_identifier"] == hint["mfaEnrollmentId"]
    assert auth.get_user(uid, app=app).email == email

    # Such a user's phone cannot become a first factor.
    sent = rest.post("identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode", {"phoneNumber": "+15555550142"})
    assert sent.status_code == 200, sent.text
    session_info = sent.json()["sessionInfo"]
    codes = requests.get(f"{server.base}/emulator/v1/projects/{PROJECT_ID}/verificationCodes", timeout=30).json()
    code = next(entry["code"] for entry in codes["verificationCodes"] if entry["sessionInfo"] == session_info)
    linked = rest.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber",
                       {"sessionInfo": session_info, "code": code, "idToken": id_token})
    assert linked.status_code == 400
    assert linked.json()["error"]["message"] == \
        "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user."


def test_a_shared_serve_refuses_an_apps_factors(shared_server, unique):
    refused = shared_server.rest.post("identitytoolkit.googleapis.com/v1/accounts:signUp", {
        "email": f"{unique('mfa-shared')}@example.com", "password": "notasecret", "mfaInfo": [{"phoneInfo": "+15555550143"}],
    })
    assert refused.status_code == 400
    assert refused.json()["error"]["message"].startswith("INSUFFICIENT_PERMISSION : ((only an administrator may set mfaInfo")
