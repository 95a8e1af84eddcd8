"""Runs the real `authdeck serve` and points the Firebase Admin SDK for Python at it, as a
developer would with FIREBASE_AUTH_EMULATOR_HOST; client-side calls go over REST with requests."""
import os
import uuid

import firebase_admin
import pytest
import requests

from interop_project import API_KEY, PROJECT_ID, Server


class Rest:
    """What an app does over REST (API key, no admin rights)."""

    def __init__(self, base):
        self.base = base

    def post(self, path, body=None, **kwargs):
        return requests.post(f"{self.base}/{path}", params={"key": API_KEY}, json=body, timeout=30, **kwargs)

    def sign_in(self, email, password):
        response = self.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                             {"email": email, "password": password, "returnSecureToken": True})
        assert response.status_code == 200, response.text
        return response.json()

    def sign_in_error(self, email, password):
        response = self.post("identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                             {"email": email, "password": password, "returnSecureToken": True})
        assert response.status_code == 400, response.text
        return response.json()["error"]["message"]

    def sign_up(self, email, password):
        response = self.post("identitytoolkit.googleapis.com/v1/accounts:signUp",
                             {"email": email, "password": password, "returnSecureToken": True})
        assert response.status_code == 200, response.text
        return response.json()

    def refresh(self, refresh_token):
        """The token endpoint with a form body, as the JS SDK sends it."""
        return requests.post(f"{self.base}/securetoken.googleapis.com/v1/token", params={"key": API_KEY},
                             data={"grant_type": "refresh_token", "refresh_token": refresh_token}, timeout=30)


@pytest.fixture(scope="session")
def server():
    running = Server()
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = running.host
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"interop-{uuid.uuid4().hex[:6]}")
    running.app = app
    yield running
    firebase_admin.delete_app(app)
    running.stop()


@pytest.fixture
def app(server):
    return server.app


@pytest.fixture
def rest(server):
    return Rest(server.base)


@pytest.fixture
def unique():
    """A fresh email-safe name per test, so tests share one server without colliding."""
    return lambda prefix: f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def shared_server():
    """A second `authdeck serve` with an admin token: a shared server, as one others reach."""
    running = Server("--admin-token", "interop-admin-token-" + uuid.uuid4().hex)
    running.rest = Rest(running.base)
    yield running
    running.stop()
