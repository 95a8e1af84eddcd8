"""The Firebase Admin SDK for Python against `authdeck serve` (FIREBASE_AUTH_EMULATOR_HOST)."""
import base64
import json
import time

import jwt
import pytest
import requests
from firebase_admin import auth, exceptions

from interop_project import PROJECT_ID

# The project parameters and test user of the README of Firebase's scrypt (github.com/firebase/scrypt).
README_SIGNER_KEY = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
README_SALT_SEPARATOR = "Bw=="
README_SALT = "42xEC+ixf3L2lw=="
README_HASH = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
README_PASSWORD = "user1password"


def claims_of(token):
    return jwt.decode(token, options={"verify_signature": False})


def test_create_user_then_get_it_by_uid_email_and_phone(app, unique):
    uid = unique("created")
    email = f"{uid}@example.com"
    user = auth.create_user(uid=uid, email=email, password="secret-1", display_name="Ada Admin",
                            phone_number="+15555550123", photo_url="https://example.com/ada.png",
                            email_verified=True, app=app)
    assert user.uid == uid
    for found in (auth.get_user(uid, app=app), auth.get_user_by_email(email, app=app),
                  auth.get_user_by_phone_number("+15555550123", app=app)):
        assert found.uid == uid
        assert found.email == email
        assert found.display_name == "Ada Admin"
        assert found.phone_number == "+15555550123"
        assert found.photo_url == "https://example.com/ada.png"
        assert found.email_verified is True
        assert found.disabled is False
        assert sorted(p.provider_id for p in found.provider_data) == ["password", "phone"]
        assert found.user_metadata.creation_timestamp > 0

    generated = auth.create_user(app=app)
    assert len(generated.uid) == 28
    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid=uid, app=app)
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email=email, app=app)
    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.create_user(phone_number="+15555550123", app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(unique("missing"), app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email(f"{unique('missing')}@example.com", app=app)

    result = auth.get_users([auth.UidIdentifier(uid), auth.EmailIdentifier("nobody-here@example.com"),
                             auth.PhoneIdentifier("+15555550123")], app=app)
    assert [u.uid for u in result.users] == [uid]
    assert [type(i).__name__ for i in result.not_found] == ["EmailIdentifier"]


def test_list_users_pages_through_thousands_of_imported_users(server, app, capsys):
    # A clean slate, so the listing can be compared exactly.
    assert requests.delete(f"{server.base}/emulator/v1/projects/{PROJECT_ID}/accounts", timeout=30).status_code == 200
    count = 3000
    uids = [f"listed-{n:05d}" for n in range(count)]
    started = time.monotonic()
    for start in range(0, count, 1000):
        batch = [auth.ImportUserRecord(uid, email=f"{uid}@example.com", display_name=f"User {uid[-5:]}")
                 for uid in uids[start:start + 1000]]
        result = auth.import_users(batch, app=app)
        assert result.success_count == len(batch) and result.failure_count == 0
    imported_in = time.monotonic() - started

    started = time.monotonic()
    listed = [user.uid for user in auth.list_users(app=app).iterate_all()]
    listed_in = time.monotonic() - started
    assert listed == uids

    pages = []
    page = auth.list_users(max_results=700, app=app)
    while page:
        pages.append(len(page.users))
        page = page.get_next_page()
    assert pages == [700, 700, 700, 700, 200]
    with capsys.disabled():
        print(f"\n  import_users of {count} users (3 batches of 1000) took {imported_in:.2f} s; "
              f"list_users of {count} users (1000 per page) took {listed_in:.2f} s")


def test_update_user_disables_renames_and_verifies(app, rest, unique):
    email = f"{unique('updated')}@example.com"
    user = auth.create_user(email=email, password="secret-1", app=app)
    updated = auth.update_user(user.uid, display_name="Grace", email_verified=True, disabled=True, app=app)
    assert updated.display_name == "Grace"
    assert updated.email_verified is True
    assert updated.disabled is True
    assert rest.sign_in_error(email, "secret-1") == "USER_DISABLED"

    auth.update_user(user.uid, disabled=False, display_name=auth.DELETE_ATTRIBUTE, app=app)
    again = auth.get_user(user.uid, app=app)
    assert again.disabled is False
    assert again.display_name is None
    token = claims_of(rest.sign_in(email, "secret-1")["idToken"])
    assert token["email_verified"] is True


def test_custom_claims_appear_in_a_fresh_id_token(app, rest, unique):
    email = f"{unique('claims')}@example.com"
    user = auth.create_user(email=email, password="secret-1", app=app)
    before = rest.sign_in(email, "secret-1")
    assert "role" not in claims_of(before["idToken"])

    auth.set_custom_user_claims(user.uid, {"role": "admin", "level": 3}, app=app)
    assert auth.get_user(user.uid, app=app).custom_claims == {"role": "admin", "level": 3}
    signed_in = claims_of(rest.sign_in(email, "secret-1")["idToken"])
    assert signed_in["role"] == "admin" and signed_in["level"] == 3
    refreshed = rest.refresh(before["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert claims_of(refreshed.json()["id_token"])["role"] == "admin"
    assert auth.verify_id_token(refreshed.json()["id_token"], app=app)["role"] == "admin"

    # Reserved names are refused by the server too, not only by the SDK's own check.
    response = requests.post(f"{rest.base}/identitytoolkit.googleapis.com/v1/projects/{PROJECT_ID}/accounts:update",
                             headers={"Authorization": "Bearer owner"},
                             json={"localId": user.uid, "customAttributes": json.dumps({"auth_time": 1})}, timeout=30)
    assert response.status_code == 400 and response.json()["error"]["message"] == "FORBIDDEN_CLAIM : auth_time"

    auth.set_custom_user_claims(user.uid, None, app=app)
    assert auth.get_user(user.uid, app=app).custom_claims is None
    assert "role" not in claims_of(rest.sign_in(email, "secret-1")["idToken"])


def test_revoke_refresh_tokens_ends_sessions(app, rest, unique):
    email = f"{unique('revoked')}@example.com"
    user = auth.create_user(email=email, password="secret-1", app=app)
    session = rest.sign_in(email, "secret-1")
    assert rest.refresh(session["refreshToken"]).status_code == 200
    assert auth.verify_id_token(session["idToken"], check_revoked=True, app=app)["uid"] == user.uid

    # validSince has one-second resolution: a token from the same second counts as issued after it.
    time.sleep(1.1)
    auth.revoke_refresh_tokens(user.uid, app=app)
    assert auth.get_user(user.uid, app=app).tokens_valid_after_timestamp >= (claims_of(session["idToken"])["iat"] + 1) * 1000
    refused = rest.refresh(session["refreshToken"])
    assert refused.status_code == 400 and refused.json()["error"]["message"] == "TOKEN_EXPIRED"
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(session["idToken"], check_revoked=True, app=app)
    assert auth.verify_id_token(session["idToken"], app=app)["uid"] == user.uid

    time.sleep(1.1)
    fresh = rest.sign_in(email, "secret-1")
    assert auth.verify_id_token(fresh["idToken"], check_revoked=True, app=app)["uid"] == user.uid
    assert rest.refresh(fresh["refreshToken"]).status_code == 200


def test_verify_id_token_and_session_cookies_minted_by_authdeck(app, rest, unique):
    email = f"{unique('verified')}@example.com"
    signed_up = rest.sign_up(email, "secret-1")
    decoded = auth.verify_id_token(signed_up["idToken"], app=app)
    assert decoded["uid"] == signed_up["localId"]
    assert decoded["email"] == email
    assert decoded["firebase"]["sign_in_provider"] == "password"
    assert decoded["iss"] == f"https://securetoken.google.com/{PROJECT_ID}"
    assert decoded["aud"] == PROJECT_ID

    cookie = auth.create_session_cookie(signed_up["idToken"], expires_in=3600, app=app)
    verified = auth.verify_session_cookie(cookie, check_revoked=True, app=app)
    assert verified["uid"] == signed_up["localId"]
    assert verified["iss"] == f"https://session.firebase.google.com/{PROJECT_ID}"
    assert verified["exp"] - verified["iat"] == 3600
    with pytest.raises(ValueError):
        auth.create_session_cookie(signed_up["idToken"], expires_in=60, app=app)

    auth.update_user(signed_up["localId"], disabled=True, app=app)
    with pytest.raises(auth.UserDisabledError):
        auth.verify_id_token(signed_up["idToken"], check_revoked=True, app=app)


def _scrypt_hash(key_b64, separator_b64, rounds, memory_cost):
    return auth.UserImportHash.scrypt(key=base64.b64decode(key_b64), salt_separator=base64.b64decode(separator_b64),
                                      rounds=rounds, memory_cost=memory_cost)


def test_import_users_with_scrypt_hashes_signs_in_and_rehashes(app, rest, unique):
    uid = unique("scrypt")
    email = f"{uid}@example.com"
    record = auth.ImportUserRecord(uid, email=email, email_verified=True, custom_claims={"imported": True},
                                   password_hash=base64.b64decode(README_HASH), password_salt=base64.b64decode(README_SALT))
    result = auth.import_users([record], hash_alg=_scrypt_hash(README_SIGNER_KEY, README_SALT_SEPARATOR, 8, 14), app=app)
    assert (result.success_count, result.failure_count) == (1, 0)
    exported = next(u for u in auth.list_users(app=app).iterate_all() if u.uid == uid)
    assert base64.urlsafe_b64decode(exported.password_hash + "==") == base64.b64decode(README_HASH)

    assert rest.sign_in_error(email, "not-the-password") == "INVALID_LOGIN_CREDENTIALS"
    signed_in = rest.sign_in(email, README_PASSWORD)
    assert signed_in["localId"] == uid
    assert claims_of(signed_in["idToken"])["imported"] is True
    rehashed = next(u for u in auth.list_users(app=app).iterate_all() if u.uid == uid)
    assert rehashed.password_hash != exported.password_hash
    assert rehashed.password_salt != exported.password_salt
    assert rest.sign_in(email, README_PASSWORD)["localId"] == uid


def test_import_users_with_other_scrypt_parameters_and_per_user_errors(app, rest, unique):
    # A user of a project with other parameters, hashed here independently of AuthDeck (hashlib's
    # scrypt and AES-256-CTR from `cryptography`, the modified-scrypt recipe), imported with those parameters.
    import hashlib
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    key, separator, salt, rounds, memory_cost = bytes(range(64)), b"\x01", b"other-salt", 4, 10
    derived = hashlib.scrypt(b"other-password", salt=salt + separator, n=2 ** memory_cost, r=rounds, p=1, dklen=64,
                             maxmem=128 * rounds * (2 ** memory_cost) * 2)
    encryptor = Cipher(algorithms.AES(derived[:32]), modes.CTR(b"\x00" * 16)).encryptor()
    password_hash = encryptor.update(key) + encryptor.finalize()

    uid = unique("other")
    existing = auth.create_user(app=app).uid
    records = [
        auth.ImportUserRecord(uid, email=f"{uid}@example.com", password_hash=password_hash, password_salt=salt),
        auth.ImportUserRecord(existing, email=f"{unique('taken')}@example.com"),
    ]
    result = auth.import_users(records, hash_alg=auth.UserImportHash.scrypt(
        key=key, salt_separator=separator, rounds=rounds, memory_cost=memory_cost), app=app)
    assert result.success_count == 1
    assert [(e.index, e.reason) for e in result.errors] == [(1, "localId belongs to an existing account - can not overwrite.")]
    assert rest.sign_in_error(f"{uid}@example.com", README_PASSWORD) == "INVALID_LOGIN_CREDENTIALS"
    assert rest.sign_in(f"{uid}@example.com", "other-password")["localId"] == uid

    # Only Firebase SCRYPT hashes can be imported; other algorithms are refused as a whole.
    with pytest.raises(exceptions.InvalidArgumentError) as refused:
        auth.import_users([auth.ImportUserRecord(unique("bcrypt"), password_hash=b"$2a$10$abc")],
                          hash_alg=auth.UserImportHash.bcrypt(), app=app)
    assert "INVALID_HASH_ALGORITHM" in str(refused.value)


def test_password_reset_and_email_verification_links(server, app, rest, unique):
    email = f"{unique('links')}@example.com"
    user = auth.create_user(email=email, password="secret-1", app=app)

    reset = auth.generate_password_reset_link(email, app=app)
    assert "mode=resetPassword" in reset and "oobCode=" in reset
    code = requests.utils.urlparse(reset).query.split("oobCode=")[1].split("&")[0]
    applied = rest.post("identitytoolkit.googleapis.com/v1/accounts:resetPassword", {"oobCode": code, "newPassword": "reset-pw-1"})
    assert applied.status_code == 200, applied.text
    assert rest.sign_in(email, "reset-pw-1")["localId"] == user.uid

    verify = auth.generate_email_verification_link(email, app=app)
    assert "mode=verifyEmail" in verify and "oobCode=" in verify
    code = requests.utils.urlparse(verify).query.split("oobCode=")[1].split("&")[0]
    applied = rest.post("identitytoolkit.googleapis.com/v1/accounts:update", {"oobCode": code})
    assert applied.status_code == 200, applied.text
    assert auth.get_user(user.uid, app=app).email_verified is True


def test_delete_user_and_delete_users(app, rest, unique):
    one = auth.create_user(email=f"{unique('gone')}@example.com", password="secret-1", app=app)
    session = rest.sign_in(one.email, "secret-1")
    auth.delete_user(one.uid, app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(one.uid, app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user(one.uid, app=app)
    # As the emulator answers: the account is gone, so the token is unknown.
    assert rest.refresh(session["refreshToken"]).json()["error"]["message"] == "INVALID_REFRESH_TOKEN"

    many = [auth.create_user(app=app).uid for _ in range(5)]
    result = auth.delete_users(many + [unique("never-existed")], app=app)
    assert (result.success_count, result.failure_count) == (6, 0)
    assert auth.get_users([auth.UidIdentifier(uid) for uid in many], app=app).users == []


def test_a_standard_jwt_library_verifies_id_tokens_with_the_published_keys(server, rest, unique):
    signed_up = rest.sign_up(f"{unique('jwks')}@example.com", "secret-1")
    token = signed_up["idToken"]
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256" and header["kid"]

    jwks = jwt.PyJWKClient(f"{server.base}/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
    key = jwks.get_signing_key_from_jwt(token)
    decoded = jwt.decode(token, key.key, algorithms=["RS256"], audience=PROJECT_ID,
                         issuer=f"https://securetoken.google.com/{PROJECT_ID}")
    assert decoded["sub"] == signed_up["localId"]

    certificates = requests.get(
        f"{server.base}/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", timeout=30).json()
    from cryptography.x509 import load_pem_x509_certificate
    public_key = load_pem_x509_certificate(certificates[header["kid"]].encode()).public_key()
    assert jwt.decode(token, public_key, algorithms=["RS256"], audience=PROJECT_ID)["sub"] == signed_up["localId"]

    tampered = token[:-8] + ("A" * 8 if not token.endswith("A" * 8) else "B" * 8)
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(tampered, key.key, algorithms=["RS256"], audience=PROJECT_ID)
