"""The Firebase Admin SDK for Python's tenant management against `authdeck serve`. The SDK sends
tenant calls to Google even when FIREBASE_AUTH_EMULATOR_HOST is set (firebase-admin-python #910),
so they are pointed at the server as its emulator support would point them: the base address and
the emulator's `Bearer owner` credential. Everything else is the SDK's own code."""
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import _utils, credentials, tenant_mgt

from interop_project import PROJECT_ID


class EmulatorOwner(credentials.Base):
    """What the Admin SDK authorises emulator calls with (`Bearer owner`)."""

    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


@pytest.fixture
def tenant_app(server, monkeypatch):
    monkeypatch.setattr(tenant_mgt._TenantManagementService, "TENANT_MGT_URL",
                        f"{server.base}/identitytoolkit.googleapis.com/v2")
    app = firebase_admin.initialize_app(EmulatorOwner(), options={"projectId": PROJECT_ID},
                                        name=f"tenants-{uuid.uuid4().hex[:6]}")
    yield app
    for tenant in tenant_mgt.list_tenants(app=app).iterate_all():
        tenant_mgt.delete_tenant(tenant.tenant_id, app=app)
    firebase_admin.delete_app(app)


def test_tenants_are_created_read_updated_listed_and_deleted(tenant_app):
    made = tenant_mgt.create_tenant("Room-A", allow_password_sign_up=True, app=tenant_app)
    assert made.display_name == "Room-A"
    assert made.allow_password_sign_up is True
    assert made.enable_email_link_sign_in is False
    assert tenant_mgt.get_tenant(made.tenant_id, app=tenant_app).display_name == "Room-A"

    updated = tenant_mgt.update_tenant(made.tenant_id, display_name="Room-B", enable_email_link_sign_in=True, app=tenant_app)
    assert (updated.display_name, updated.allow_password_sign_up, updated.enable_email_link_sign_in) == ("Room-B", True, True)
    assert tenant_mgt.get_tenant(made.tenant_id, app=tenant_app).display_name == "Room-B"

    others = [tenant_mgt.create_tenant(f"Room-{n}", app=tenant_app) for n in range(3)]
    expected = sorted([made.tenant_id] + [t.tenant_id for t in others])
    first = tenant_mgt.list_tenants(max_results=2, app=tenant_app)
    assert [t.tenant_id for t in first.tenants] == expected[:2]
    assert first.has_next_page
    assert [t.tenant_id for t in first.iterate_all()] == expected

    tenant_mgt.delete_tenant(made.tenant_id, app=tenant_app)
    assert made.tenant_id not in [t.tenant_id for t in tenant_mgt.list_tenants(app=tenant_app).iterate_all()]


def test_an_app_cannot_manage_tenants(server):
    answer = requests.post(f"{server.base}/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/tenants",
                           params={"key": "fake-api-key"}, json={"displayName": "Mine"}, timeout=30)
    assert answer.status_code == 400
    assert answer.json()["error"]["message"] == \
        "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id."
