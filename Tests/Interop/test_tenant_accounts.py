"""A tenant's accounts through the Firebase Admin SDK for Python's `auth_for_tenant`, which honours
FIREBASE_AUTH_EMULATOR_HOST (only tenant management itself does not: see test_tenants), and an app
that signs in over REST with `tenantId`, as a client SDK with `auth.tenantId` set does."""
import pytest
from firebase_admin import auth, tenant_mgt

from test_tenants import EmulatorOwner, tenant_app  # noqa: F401 (a fixture, and the credential it uses)

assert EmulatorOwner


def sign_in(rest, email, password, tenant_id):
    return rest.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                     {"email": email, "password": password, "returnSecureToken": True, "tenantId": tenant_id})


def test_auth_for_tenant_manages_users_and_verifies_their_tokens(tenant_app, rest, unique):
    tenant = tenant_mgt.create_tenant("Room-A", allow_password_sign_up=True, app=tenant_app)
    tenant_auth = tenant_mgt.auth_for_tenant(tenant.tenant_id, app=tenant_app)
    email = f"{unique('tenant')}@example.com"
    made = tenant_auth.create_user(email=email, password="secret-1", display_name="Ada")
    assert made.tenant_id == tenant.tenant_id
    assert tenant_auth.get_user(made.uid).email == email
    assert tenant_auth.get_user_by_email(email).uid == made.uid
    assert [user.uid for user in tenant_auth.list_users().iterate_all()] == [made.uid]

    signed_in = sign_in(rest, email, "secret-1", tenant.tenant_id)
    assert signed_in.status_code == 200, signed_in.text
    claims = tenant_auth.verify_id_token(signed_in.json()["idToken"])
    assert claims["uid"] == made.uid
    assert claims["firebase"]["tenant"] == tenant.tenant_id

    imported = tenant_auth.import_users([auth.ImportUserRecord(uid="imported-1", email=f"{unique('imp')}@example.com")])
    assert (imported.success_count, imported.failure_count) == (1, 0)
    assert tenant_auth.get_user("imported-1").tenant_id == tenant.tenant_id
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("imported-1", app=tenant_app)

    tenant_auth.delete_user(made.uid)
    with pytest.raises(auth.UserNotFoundError):
        tenant_auth.get_user(made.uid)
    assert sign_in(rest, email, "secret-1", tenant.tenant_id).status_code == 400


def test_the_same_email_is_three_accounts_in_two_tenants_and_the_project(tenant_app, app, rest, unique):
    first = tenant_mgt.create_tenant("Room-1", allow_password_sign_up=True, app=tenant_app)
    second = tenant_mgt.create_tenant("Room-2", allow_password_sign_up=True, app=tenant_app)
    email = f"{unique('same')}@example.com"
    uids = [tenant_mgt.auth_for_tenant(first.tenant_id, app=tenant_app).create_user(email=email, password="first-1").uid,
            tenant_mgt.auth_for_tenant(second.tenant_id, app=tenant_app).create_user(email=email, password="second-2").uid,
            auth.create_user(email=email, password="project-3", app=app).uid]
    try:
        assert len(set(uids)) == 3
        assert sign_in(rest, email, "first-1", first.tenant_id).json()["localId"] == uids[0]
        assert sign_in(rest, email, "second-2", second.tenant_id).json()["localId"] == uids[1]
        assert rest.sign_in(email, "project-3")["localId"] == uids[2]
        refused = sign_in(rest, email, "second-2", first.tenant_id)
        assert refused.json()["error"]["message"] == "INVALID_LOGIN_CREDENTIALS"
    finally:
        auth.delete_user(uids[2], app=app)


def test_a_token_of_one_tenant_is_refused_in_another(tenant_app, rest):
    first = tenant_mgt.create_tenant("Room-X", allow_password_sign_up=True, app=tenant_app)
    second = tenant_mgt.create_tenant("Room-Y", allow_password_sign_up=True, app=tenant_app)
    first_auth = tenant_mgt.auth_for_tenant(first.tenant_id, app=tenant_app)

    custom = first_auth.create_custom_token("custom-uid").decode()
    elsewhere = rest.post("identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                          {"token": custom, "returnSecureToken": True, "tenantId": second.tenant_id})
    assert elsewhere.json()["error"]["message"] == "TENANT_ID_MISMATCH"
    here = rest.post("identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                     {"token": custom, "returnSecureToken": True, "tenantId": first.tenant_id})
    assert here.status_code == 200, here.text
    id_token = here.json()["idToken"]
    assert first_auth.verify_id_token(id_token)["uid"] == "custom-uid"
    with pytest.raises(tenant_mgt.TenantIdMismatchError):
        tenant_mgt.auth_for_tenant(second.tenant_id, app=tenant_app).verify_id_token(id_token)

    looked_up_elsewhere = rest.post("identitytoolkit.googleapis.com/v1/accounts:lookup",
                                    {"idToken": id_token, "tenantId": second.tenant_id})
    assert looked_up_elsewhere.json()["error"]["message"] == "TENANT_ID_MISMATCH"
    refreshed = rest.refresh(here.json()["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert first_auth.verify_id_token(refreshed.json()["id_token"])["firebase"]["tenant"] == first.tenant_id
