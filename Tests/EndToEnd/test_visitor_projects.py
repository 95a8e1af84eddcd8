"""At `authdeck ssh --max-visitor-projects`, projects with nothing in them make room, keyed or not;
a project holding a visitor's work is never removed for a newcomer."""
import os
import subprocess

from test_ssh import keys, ssh_server  # noqa: F401 (fixtures)


def visitor_projects(server):
    directory = os.path.join(server.data_dir, "projects")
    return sorted(os.listdir(directory)) if os.path.isdir(directory) else []


def visit(server, console, key=None, work=False):
    """A visitor comes, makes an anonymous account if `work`, and leaves; answers their project."""
    c = console(command=server.client("demo", key=key), width=80, height=24)
    project = c.wait_for(r"demo project ((?:guest|visitor)-[0-9a-f]+)", timeout=20)
    c.wait_for("Choose a sign-in method", timeout=20)
    if work:
        c.keys("Enter")
        c.wait_for("ANONYMOUS", timeout=20)
    c.keys("q")
    assert c.wait_exit(timeout=15) == "0"
    assert project.group(1) in visitor_projects(server), (project.group(1), visitor_projects(server))
    return project.group(1)


def test_empty_projects_make_room_and_work_is_never_removed_for_a_newcomer(ssh_server, console, keys):
    server = ssh_server(["--max-visitor-projects", "2"])
    worker = visit(server, console, key=keys["operator"], work=True)
    idle = visit(server, console, key=keys["other"])
    assert visitor_projects(server) == sorted([worker, idle])

    # At the limit, the keyed project with nothing in it goes, although it was used after the other.
    guest = visit(server, console, work=True)
    assert visitor_projects(server) == sorted([worker, guest])

    # Both hold work: the next visitor is turned away, and both stay.
    refused = subprocess.run(server.client(extra=["-tt"]), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 1
    told = refused.stderr + refused.stdout
    assert "This demo is full" in told and "hold work" in told, told
    assert visitor_projects(server) == sorted([worker, guest])
