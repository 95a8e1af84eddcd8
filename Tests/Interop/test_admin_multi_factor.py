"""An administrator manages second factors on `authdeck serve`. The Admin SDK for Python has no
multi-factor API (firebase-admin-python issue #611: no `multi_factor` on create_user/update_user,
UserImportRecord or UserRecord), so the factors go over the admin REST calls it would make,
with the emulator's `Bearer owner`; the SDK does the rest and must cope with accounts that have factors."""
import jwt
import pytest
import requests
from firebase_admin import auth

from interop_project import PROJECT_ID

ADMIN = {"Authorization": "Bearer owner"}


def admin_post(server, tail, body):
    return requests.post(f"{server.base}/identitytoolkit.googleapis.com/v1/projects/{PROJECT_ID}{tail}",
                         headers=ADMIN, json=body, timeout=30)


def challenged(rest, email, password):
    """A password sign-in that must stop at the second factor."""
    response = rest.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                         {"email": email, "password": password, "returnSecureToken": True})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "idToken" not in body and "refreshToken" not in body
    assert body["mfaPendingCredential"]
    return body


def finish_with_sms(server, rest, pending, enrollment_id):
    started = rest.post("identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start",
                        {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment_id, "phoneSignInInfo": {}})
    assert started.status_code == 200, started.text
    session_info = started.json()["phoneResponseInfo"]["sessionInfo"]
    codes = requests.get(f"{server.base}/emulator/v1/projects/{PROJECT_ID}/verificationCodes", timeout=30).json()
    code = next(entry["code"] for entry in codes["verificationCodes"] if entry["sessionInfo"] == session_info)
    finished = rest.post("identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize",
                         {"mfaPendingCredential": pending, "phoneVerificationInfo": {"sessionInfo": session_info, "code": code}})
    assert finished.status_code == 200, finished.text
    return finished.json()["idToken"]


def test_an_administrator_enrolls_a_phone_factor_and_the_next_sign_in_needs_it(server, app, rest, unique):
    email = f"{unique('mfa')}@example.com"
    user = auth.create_user(email=email, password="secret-1", email_verified=True, app=app)
    assert "idToken" in rest.sign_in(email, "secret-1")

    response = admin_post(server, "/accounts:update", {"localId": user.uid, "mfa": {"enrollments": [
        {"mfaEnrollmentId": "work-phone-0000000000000000a", "phoneInfo": "+15555550100", "displayName": "Work phone"},
    ]}})
    assert response.status_code == 200, response.text

    first = challenged(rest, email, "secret-1")
    assert len(first["mfaInfo"]) == 1
    hint = first["mfaInfo"][0]
    assert hint["phoneInfo"] == "+*******0100"
    assert hint["displayName"] == "Work phone"
    assert len(hint["mfaEnrollmentId"]) == 28
    assert hint["enrolledAt"].endswith("Z")

    id_token = finish_with_sms(server, rest, first["mfaPendingCredential"], hint["mfaEnrollmentId"])
    claims = auth.verify_id_token(id_token, app=app)
    assert claims["uid"] == user.uid
    assert claims["firebase"]["sign_in_second_factor"] == "phone"
    assert claims["firebase"]["second_factor_identifier"] == hint["mfaEnrollmentId"]

    # The SDK reads an account with factors as any other; lookup shows the whole number.
    assert auth.get_user(user.uid, app=app).email == email
    looked_up = admin_post(server, "/accounts:lookup", {"localId": [user.uid]}).json()["users"][0]
    assert [factor["phoneInfo"] for factor in looked_up["mfaInfo"]] == ["+15555550100"]
    assert [factor["unobfuscatedPhoneInfo"] for factor in looked_up["mfaInfo"]] == ["+15555550100"]

    # Bad lists are refused with Firebase's messages and change nothing.
    refusals = [
        ([{"phoneInfo": "555-0100"}], "INVALID_MFA_PHONE_NUMBER : Invalid format."),
        ([{"mfaEnrollmentId": f"f{n}", "phoneInfo": f"+1555555011{n}"} for n in range(6)],
         "SECOND_FACTOR_LIMIT_EXCEEDED : The maximum number of second factors (5) for this account has been reached."),
        # As the emulator: an update names each factor by its id.
        ([{"phoneInfo": "+15555550120"}], "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined."),
    ]
    for enrollments, message in refusals:
        refused = admin_post(server, "/accounts:update", {"localId": user.uid, "mfa": {"enrollments": enrollments}})
        assert refused.status_code == 400 and refused.json()["error"]["message"] == message
    assert challenged(rest, email, "secret-1")["mfaInfo"] == first["mfaInfo"]

    # `mfa: {}` clears the factors: the password alone signs in again. An app cannot do it.
    app_call = rest.post("identitytoolkit.googleapis.com/v1/accounts:update", {"localId": user.uid, "mfa": {}})
    assert app_call.status_code == 400
    assert admin_post(server, "/accounts:update", {"localId": user.uid, "mfa": {}}).status_code == 200
    assert "idToken" in rest.sign_in(email, "secret-1")


def test_created_and_imported_accounts_bring_their_factors(server, app, rest, unique):
    created_email = f"{unique('mfa-created')}@example.com"
    created = admin_post(server, "/accounts", {
        "email": created_email, "password": "secret-1", "emailVerified": True,
        "mfaInfo": [{"phoneInfo": "+15555550131", "displayName": "Created"}],
    })
    assert created.status_code == 200, created.text
    assert challenged(rest, created_email, "secret-1")["mfaInfo"][0]["phoneInfo"] == "+*******0131"

    # The SDK's import_users has no factors; the batchCreate it calls takes them, enrollment ids kept.
    imported_uid = unique("mfa-imported")
    imported_email = f"{imported_uid}@example.com"
    unverified_uid = unique("mfa-unverified")
    answer = admin_post(server, "/accounts:batchCreate", {"users": [
        {"localId": imported_uid, "email": imported_email, "emailVerified": True,
         "mfaInfo": [{"mfaEnrollmentId": f"{imported_uid}-phone", "phoneInfo": "+15555550132",
                      "enrolledAt": "2024-02-03T04:05:06Z"}]},
        {"localId": unverified_uid, "email": f"{unverified_uid}@example.com", "mfaInfo": [{"phoneInfo": "+15555550133"}]},
    ]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["error"] == [{"index": 1, "message": "Second factor account requires email to be verified."}]
    auth.update_user(imported_uid, password="secret-1", app=app)
    first = challenged(rest, imported_email, "secret-1")
    assert first["mfaInfo"] == [{"mfaEnrollmentId": f"{imported_uid}-phone", "phoneInfo": "+*******0132",
                                 "enrolledAt": "2024-02-03T04:05:06.000Z"}]
    id_token = finish_with_sms(server, rest, first["mfaPendingCredential"], f"{imported_uid}-phone")
    assert jwt.decode(id_token, options={"verify_signature": False})["firebase"]["second_factor_identifier"] == f"{imported_uid}-phone"
    assert auth.get_user(imported_uid, app=app).email_verified
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(unverified_uid, app=app)
