"""`authdeck accounts … --tenant` against `authdeck serve`, checked by the Firebase Admin SDK for
Python's `auth_for_tenant`: the command's tenant is the SDK's tenant, and the project stays apart."""
import json

import pytest
from firebase_admin import auth, tenant_mgt

from test_accounts_files import accounts
from test_tenants import EmulatorOwner, tenant_app  # noqa: F401 (a fixture, and the credential it uses)

assert EmulatorOwner


def test_the_commands_tenant_is_the_admin_sdks(server, tenant_app, app, unique, tmp_path):
    tenant = tenant_mgt.create_tenant("Room-CLI", allow_password_sign_up=True, app=tenant_app)
    tenant_auth = tenant_mgt.auth_for_tenant(tenant.tenant_id, app=tenant_app)
    made = tenant_auth.create_user(email=f"{unique('cli')}@example.com", password="secret-1")

    listed = accounts(server, "list", "--json", "--tenant", tenant.tenant_id)
    assert listed.returncode == 0, listed.stderr
    assert [user["uid"] for user in json.loads(listed.stdout)] == [made.uid]
    in_project = accounts(server, "list", "--json")
    assert made.uid not in [user["uid"] for user in json.loads(in_project.stdout)]

    uid = unique("imported")
    users = tmp_path / "users.json"
    users.write_text(json.dumps({"users": [{"localId": uid, "email": f"{uid}@example.com"}]}))
    imported = accounts(server, "import", str(users), "--tenant", tenant.tenant_id)
    assert imported.returncode == 0, imported.stderr
    assert tenant_auth.get_user(uid).tenant_id == tenant.tenant_id
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(uid, app=app)
