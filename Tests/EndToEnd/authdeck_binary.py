"""Where the authdeck binary under test is: $AUTHDECK_BIN, else SwiftPM's build directory.
A module of its own (not conftest), so that test suites run together import the one they mean."""
import os
import subprocess


def authdeck_binary():
    path = os.environ.get("AUTHDECK_BIN")
    if not path:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=root, capture_output=True, text=True, check=True)
        path = os.path.join(out.stdout.strip(), "authdeck")
    assert os.access(path, os.X_OK), f"authdeck binary not found at {path}; run swift build first"
    return path
