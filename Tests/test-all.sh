#!/usr/bin/env bash
# The one test command (README.md): installs what the tests need when it is missing,
# builds, runs the Swift test suites, then drives the real binary in tmux.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
# The -dev packages also hold the static archives `authdeck` links in (Linking/README.md).
for header in /usr/include/ncursesw/curses.h /usr/include/sqlite3.h /usr/include/qrencode.h /usr/include/zlib.h; do
    [ -f "$header" ] || need_apt+=(libncurses-dev libsqlite3-dev libqrencode-dev zlib1g-dev)
done
command -v tmux >/dev/null || need_apt+=(tmux)
# Decodes the QR code the TOTP enrollment screen draws, as a phone camera would.
command -v zbarimg >/dev/null || need_apt+=(zbar-tools)
command -v python3 >/dev/null || need_apt+=(python3 python3-pip)
# The benchmark suite's references and load generator (Benchmarks/run.sh --quick runs below).
command -v dialog >/dev/null || need_apt+=(dialog)
command -v wrk >/dev/null || need_apt+=(wrk)
command -v openssl >/dev/null || need_apt+=(openssl)
# The SDK pane's JavaScript snippets are also parsed by Node's own parser (Tests/Snippets).
command -v node >/dev/null || need_apt+=(nodejs)
# Tokens are signed through the system's libcrypto when it is there (SystemRSAKey); its tests expect it.
ldconfig -p | grep -q 'libcrypto\.so\.3 ' || need_apt+=(libssl3)
# `authdeck ssh` is tested with Debian's OpenSSH client (ssh, sftp, ssh-keygen, ssh-keyscan), and the
# OpenSSH recipe in assets/openssh with Debian's sshd.
command -v ssh >/dev/null && command -v sftp >/dev/null || need_apt+=(openssh-client)
[ -x /usr/sbin/sshd ] || need_apt+=(openssh-server)
# Answers the (empty) password `authdeck ssh` asks a visitor without a key for.
command -v sshpass >/dev/null || need_apt+=(sshpass)
if [ ${#need_apt[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
    else
        echo "missing packages: ${need_apt[*]} (install them with apt-get as root)" >&2
        exit 1
    fi
fi
# Debian's own python3 is "externally managed" (PEP 668): pip then needs --break-system-packages.
pip_install() {
    python3 -m pip install -q "$@" 2>/dev/null || python3 -m pip install -q --break-system-packages "$@"
}
python3 -c 'import pytest' 2>/dev/null || pip_install pytest
# The served backend's published keys are checked with a standard JWT library.
python3 -c 'import jwt, cryptography' 2>/dev/null || pip_install PyJWT cryptography
# The interop suite: the Firebase Admin SDK for Python against authdeck serve, requests for REST calls.
python3 -c 'import firebase_admin, requests' 2>/dev/null || pip_install firebase-admin requests
# An authenticator app's TOTP, independent of AuthDeck's, for the MFA end-to-end test.
python3 -c 'import pyotp' 2>/dev/null || pip_install pyotp
# The accounts benchmark reads the console's screen through a terminal emulator.
python3 -c 'import pyte' 2>/dev/null || pip_install pyte
# An SSH client that sends what OpenSSH never does (absurd pty sizes, floods of window changes).
python3 -c 'import paramiko' 2>/dev/null || pip_install paramiko
# The SDK pane's snippets are parsed by the languages' tree-sitter grammars (Tests/Snippets).
python3 -c 'import tree_sitter, tree_sitter_swift, tree_sitter_kotlin, tree_sitter_javascript, tree_sitter_cpp' 2>/dev/null \
    || pip_install tree-sitter tree-sitter-swift tree-sitter-kotlin tree-sitter-javascript tree-sitter-cpp

# The documents' links and the paths they name, first: it takes seconds.
python3 -m pytest -q Tests/Documents

# C compiled with -O2 in this debug build: BoringSSL's scrypt at -O0 takes about 320 ms a password (45 ms
# optimized), and the suites' password sign-ins, queued on one process-wide pool of hashing threads,
# would make the whole run over twice as long and bring single requests near the client's 30-s timeout.
swift build --build-tests --explicit-target-dependency-import-check error -Xcc -O2
swift test --skip-build
# Every SDK snippet as the pane draws it, through the languages' parsers (it runs the export test itself).
python3 -m pytest -q Tests/Snippets
AUTHDECK_BIN="$(swift build --show-bin-path)/authdeck" python3 -m pytest -q Tests/EndToEnd
AUTHDECK_BIN="$(swift build --show-bin-path)/authdeck" python3 -m pytest -q Tests/Interop
# The benchmarks once, briefly, on the debug build above (a release build of everything would
# double CI's time): the suite must keep working; its numbers come from `bash Benchmarks/run.sh`.
AUTHDECK_BIN="$(swift build --show-bin-path)/authdeck" bash Benchmarks/run.sh --quick
