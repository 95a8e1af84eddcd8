#!/usr/bin/env bash
# AuthDeck's benchmark suite (Benchmarks/README.md): builds in release mode, then measures the
# console and `authdeck serve` beside their references in the same run and prints one table.
#   bash Benchmarks/run.sh            the full run (medians of 5 interleaved repetitions)
#   bash Benchmarks/run.sh --quick    one short repetition of a debug build: proves the suite
#                                     runs, measures nothing (AUTHDECK_BIN names a binary already built)
# Needs dialog, wrk, openssl and python3 (Tests/test-all.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=release
# The binary the demo host runs (docs/guide.md): the Swift runtime and Foundation linked in, so a console
# starts without the dynamic loader looking up some 40,000 symbols across two dozen shared libraries,
# and no `$ORIGIN` run path, which only Swift's shared libraries need: with it the loader probes the
# binary's folder some 40 times for glibc's libraries before each start.
linking=(--static-swift-stdlib --disable-local-rpath)
quick=()
if [ "${1:-}" = "--quick" ]; then
    configuration=debug
    linking=()
    quick=(--quick)
    shift
fi
for tool in dialog wrk openssl python3; do
    command -v "$tool" >/dev/null || { echo "Benchmarks need $tool (see Tests/test-all.sh)" >&2; exit 1; }
done

authdeck="${AUTHDECK_BIN:-}"
if [ -z "$authdeck" ]; then
    swift build -c "$configuration" "${linking[@]}" --product authdeck
    authdeck="$(swift build -c "$configuration" "${linking[@]}" --show-bin-path)/authdeck"
fi
swift build -c "$configuration" --package-path Benchmarks/ReferenceServer
python3 Benchmarks/bench.py "${quick[@]}" --build "$configuration" --authdeck "$authdeck" \
    --reference-server "$(swift build -c "$configuration" --package-path Benchmarks/ReferenceServer --show-bin-path)/ReferenceServer" "$@"
