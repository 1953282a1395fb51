#!/usr/bin/env bash
# Coverage-guided fuzzing of FlowKit's four doors for outside bytes and of its operations
# (Docs/Reliability.md, "Coverage-guided fuzzing"): builds the Fuzz package with libFuzzer and
# AddressSanitizer, then runs one target on top of its seed corpus (Tests/Fuzz/Corpus/TARGET)
# and dictionary (if it has one).
#
#   scripts/fuzz-inputs.sh TARGET [SECONDS]    # TARGET: links, snapshots, charts, scxml
#                                              # or operations (30 s)
#   scripts/fuzz-inputs.sh TARGET FILE...      # replays inputs (a crash file, a seed)
#
# Fails (exit 1) on a crash, a sanitizer report, an oracle failure, a timeout or running out
# of memory, and prints each saved input as a file path and as base64. New inputs found go to
# .build-fuzz/corpus/TARGET (kept between runs, not committed). LeakSanitizer is off, as in
# scripts/sanitize.sh: leaks are the oracles' weak censuses' business.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:-}"
case "$target" in
links | snapshots | charts | scxml | operations) ;;
*)
    echo "usage: scripts/fuzz-inputs.sh links|snapshots|charts|scxml|operations [SECONDS | FILE...]" >&2
    exit 2
    ;;
esac
shift
scratch=.build-fuzz
# -enable-testing: the operations target shares the model-based test's code, whose platform
# checks read FlowKit's internals (@testable import). --disable-build-manifest-caching: FlowKit
# is a path dependency of this package, and a cached build manifest does not see a source file
# added to it since the last build (the build then fails on a missing member).
flags=(-c release --package-path Fuzz --scratch-path "$scratch" --disable-build-manifest-caching
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
echo "== build (release, -sanitize=fuzzer,address, -enable-testing)"
swift build "${flags[@]}" 2>&1 | tail -n 3
binary="$(swift build "${flags[@]}" --show-bin-path)/flowkit-fuzz"
export FLOWKIT_FUZZ_TARGET="$target"
# The Swift backtracer would run after libFuzzer reports a crash and can hang there.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:strict_string_checks=1"
seeds="Tests/Fuzz/Corpus/$target"
# An operations input is a sequence of up to 100 operations (OperationsTarget.maxOperations),
# a few bytes each: longer inputs would only carry bytes it never reads.
max_len=8192
if [ "$target" = operations ]; then max_len=512; fi
options=(-max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
if [ -f "$seeds.dict" ]; then options+=(-dict="$seeds.dict"); fi

if [ $# -gt 0 ] && ! [[ "$1" =~ ^[0-9]+$ ]]; then
    echo "== replay $target: $*"
    exec "$binary" "${options[@]}" "$@"
fi

seconds="${1:-30}"
corpus="$scratch/corpus/$target"
artifacts="$scratch/artifacts/$target/"
mkdir -p "$corpus" "$artifacts"
rm -f "$artifacts"*
log="$scratch/fuzz-$target.log"
echo "== fuzz $target for ${seconds}s (seeds: $seeds; corpus: $corpus; log: $log)"
status=0
"$binary" "${options[@]}" -max_total_time="$seconds" -artifact_prefix="$artifacts" \
    "$corpus" "$seeds" >"$log" 2>&1 || status=$?
grep -E '^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb' "$log" | tail -n 3
if [ "$status" -ne 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
    # An oracle's message (flowkit-fuzz: ...) can go on over several lines: the operations
    # target's replay.
    awk '/^flowkit-fuzz: / { on = 1 } /^==[0-9]+==/ { on = 0 } on' "$log" | head -n 60
    grep -E 'ERROR: AddressSanitizer|ERROR: libFuzzer|Fatal error|SUMMARY' "$log" \
        | head -n 10 || true
    for input in "$artifacts"*; do
        [ -f "$input" ] || continue
        echo "input: $input"
        echo "base64: $(base64 -w0 "$input")"
        echo "replay: bash scripts/fuzz-inputs.sh $target $input"
    done
    echo "FAILED: fuzz $target (exit $status); the whole output is in $log"
    exit 1
fi
echo "ok: fuzz $target"
