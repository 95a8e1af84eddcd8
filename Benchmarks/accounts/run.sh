#!/usr/bin/env bash
# The accounts benchmark: builds authdeck in release as the demo host runs it (README.md) and prints import, open, filter-keystroke
# and export figures at 100,000 and 1,000,000 accounts (or the counts given: run.sh 10000).
# Needs python3 with requests and pyte (Tests/test-all.sh installs them). Takes minutes; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --static-swift-stdlib --disable-local-rpath --product authdeck >&2
binary="$(swift build -c release --static-swift-stdlib --disable-local-rpath --show-bin-path)/authdeck"
if [ $# -gt 0 ]; then
    exec python3 Benchmarks/accounts/bench_accounts.py --bin "$binary" --counts "$@"
fi
exec python3 Benchmarks/accounts/bench_accounts.py --bin "$binary"
