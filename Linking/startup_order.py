#!/usr/bin/env python3
"""Writes Linking/startup-order.txt: the functions a console runs from `exec` to its first frame, which
the linker places side by side at the start of the code (`--symbol-ordering-file`, Package.swift), so
that a start maps a few contiguous pages of code instead of pages scattered over 37 MB.

    python3 Linking/startup_order.py BINARY     # a release build of authdeck; needs valgrind

It runs the console under callgrind in an 80×24 pseudo-terminal on a new data directory, takes the
functions callgrind saw once "Choose a sign-in method" is written, and keeps those the binary defines,
in the order callgrind first named them. Run it again after a change to the console's start.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Benchmarks"))
import bench  # noqa: E402  (the benchmark's pseudo-terminal)

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "startup-order.txt")


def defined_symbols(binary):
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    return {line.split(" ", 2)[2] for line in listing.splitlines() if line.count(" ") >= 2 and line.split(" ")[1] in "tTwW"}


def main():
    binary = os.path.abspath(sys.argv[1])
    scratch = tempfile.mkdtemp(prefix="authdeck-order-")
    try:
        # valgrind cannot read the debug information of a binary this size: a copy without it.
        copy = os.path.join(scratch, "authdeck")
        subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
        profile = os.path.join(scratch, "callgrind.out")
        console = bench.Pty(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={profile}",
                             copy, "--data", os.path.join(scratch, "data")])
        try:
            console.wait_for(bench.CONSOLE_MARKER, timeout=600)
            subprocess.run(["callgrind_control", "--dump=frame", str(console.process.pid)], check=True, capture_output=True)
        finally:
            os.killpg(console.process.pid, 9)
            console.process.wait()
            os.close(console.fd)
        dumps = sorted(path for path in os.listdir(scratch) if path.startswith("callgrind.out") and os.path.getsize(os.path.join(scratch, path)))
        names = []
        for dump in dumps:
            with open(os.path.join(scratch, dump)) as f:
                names += re.findall(r"^c?fn=\(\d+\) (.+)$", f.read(), re.MULTILINE)
        defined = defined_symbols(binary)
        ordered = [name for name in dict.fromkeys(names) if name in defined]
        with open(OUTPUT, "w") as f:
            f.write("\n".join(ordered) + "\n")
        print(f"{len(ordered)} functions in {OUTPUT}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
