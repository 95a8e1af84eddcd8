"""One `authdeck serve`, several projects: the Admin SDK initialised once per project id in one
process, as developers do against the Firebase Auth Emulator."""
import uuid

import firebase_admin
from firebase_admin import auth


def test_two_project_ids_in_one_process_are_two_sets_of_accounts(server):
    apps = {project: firebase_admin.initialize_app(options={"projectId": project}, name=f"{project}-{uuid.uuid4().hex[:6]}")
            for project in ("room-alpha", "room-bravo")}
    try:
        users = {project: auth.create_user(email="same@example.com", password="secret-1", phone_number="+15555550101", app=app)
                 for project, app in apps.items()}
        assert users["room-alpha"].uid != users["room-bravo"].uid
        for project, app in apps.items():
            assert [u.uid for u in auth.list_users(app=app).iterate_all()] == [users[project].uid]
            assert auth.get_user_by_email("same@example.com", app=app).uid == users[project].uid
            assert auth.get_user_by_phone_number("+15555550101", app=app).uid == users[project].uid
            auth.set_custom_user_claims(users[project].uid, {"room": project}, app=app)
            assert auth.get_user(users[project].uid, app=app).custom_claims == {"room": project}
            # A uid of one project is no account of the other.
            other = users["room-bravo" if project == "room-alpha" else "room-alpha"].uid
            try:
                auth.get_user(other, app=app)
                raise AssertionError(f"{project} found another project's account")
            except auth.UserNotFoundError:
                pass

        auth.delete_user(users["room-alpha"].uid, app=apps["room-alpha"])
        assert list(auth.list_users(app=apps["room-alpha"]).iterate_all()) == []
        assert auth.get_user(users["room-bravo"].uid, app=apps["room-bravo"]).email == "same@example.com"
        # The served default project saw none of it.
        assert all(u.email != "same@example.com" for u in auth.list_users(app=server.app).iterate_all())
    finally:
        for app in apps.values():
            firebase_admin.delete_app(app)
