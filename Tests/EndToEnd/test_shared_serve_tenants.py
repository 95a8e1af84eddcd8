"""A tenant of a shared `authdeck serve`'s own project (one with an admin token) is reached with that
tenant's key or the admin token only, through the binary: any other key is refused before the tenant's
users can be signed up, locked out or mailed; an operator's console given the admin token and
`--tenant` asks for the tenant's key and works there."""
import json
import urllib.error
import urllib.request
import uuid

from test_multi_factor import create_account

PROJECT = "authdeck-local"


def call(server, path, body=None, key=None, token=None, method=None):
    url = server.url + path + (f"?key={key}" if key else "")
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method or ("POST" if data else "GET"))
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def make_tenant(server, token):
    status, tenant = call(server, f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/tenants",
                          {"displayName": "Team A", "allowPasswordSignup": True}, token=token)
    assert status == 200, tenant
    return tenant["name"].split("/")[-1]


def records(server, tenant, token):
    status, counted = call(server, f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/tenants/{tenant}/accounts:query",
                           {"returnUserInfo": False}, token=token)
    assert status == 200, counted
    return int(counted["recordsCount"])


def test_another_key_is_refused_and_the_tenants_own_is_served(served):
    token = f"e2e-admin-{uuid.uuid4().hex}"
    server = served(extra_args=["--admin-token", token])
    tenant = make_tenant(server, token)
    status, key = call(server, f"/emulator/v1/projects/{PROJECT}/tenants/{tenant}/apiKey", token=token)
    assert status == 200, key
    key = key["apiKey"]
    sign_up = "/identitytoolkit.googleapis.com/v1/accounts:signUp"
    body = {"email": "victim@example.com", "password": "secret-12", "tenantId": tenant}
    for foreign in ("fake-api-key", "anything"):
        status, refused = call(server, sign_up, body, key=foreign)
        assert status == 400 and refused["error"]["message"].startswith("API key not valid. Please pass a valid API key. : "), refused
        status, refused = call(server, "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode",
                               {"requestType": "PASSWORD_RESET", "email": "victim@example.com", "tenantId": tenant}, key=foreign)
        assert status == 400, refused
    assert records(server, tenant, token) == 0
    status, made = call(server, sign_up, body, key=key)
    assert status == 200 and made["idToken"], made
    status, made = call(server, sign_up, {**body, "email": "other@example.com"}, key="fake-api-key", token=token)
    assert status == 200, made
    assert records(server, tenant, token) == 2


def test_an_operators_console_in_a_tenant_of_a_shared_serve_uses_the_tenants_key(console, served):
    token = f"e2e-admin-{uuid.uuid4().hex}"
    server = served(extra_args=["--admin-token", token])
    tenant = make_tenant(server, token)
    c = console(extra_args=["--emulator", server.address, "--tenant", tenant], env={"AUTHDECK_ADMIN_TOKEN": token},
                width=80, height=24)
    create_account(c, "ada@example.com", "hunter22")
    assert c.screen().splitlines()[0].rstrip().endswith(f"tenant {tenant} · ada@example.com")
    c.keys("q")
    assert c.wait_exit() == "0"
    assert records(server, tenant, token) == 1
