#!/usr/bin/env bash
# Runs the whole test suite, with the model-based random test at a moderate budget, under
# AddressSanitizer and under ThreadSanitizer (separate build directories .build-asan and
# .build-tsan). Fails on a failing test, a non-zero exit or any sanitizer report.
#
#   scripts/sanitize.sh            # both
#   scripts/sanitize.sh address    # one of them (CI runs the address pass)
#
# LeakSanitizer (part of AddressSanitizer on Linux) is turned off: it cannot see references
# held in Swift's tagged and bridged pointers (spare bits of object references, small string
# and array storage reached only through them), so it reports live objects as leaked: the
# toolchain's own XCTest and Foundation allocations, Swift runtime metadata caches, and
# FlowKit's arrays of paths, all on this toolchain (Swift 6.3.1, Linux). Leaks are checked by
# the suite itself instead: weak-reference censuses in TeardownTests and in the random test
# check that every released node, token and runtime is deallocated. See Docs/Reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."

passes=("${@:-address thread}")
passes=(${passes[@]})
export FLOWKIT_FUZZ_OPERATIONS="${FLOWKIT_FUZZ_OPERATIONS:-20000}"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1"
status=0
for pass in "${passes[@]}"; do
    case "$pass" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "unknown sanitizer '$pass' (address or thread)"; exit 2 ;;
    esac
    mkdir -p "$scratch"
    log="$scratch/sanitize.log"
    echo "== swift test --sanitize=$pass (random test: $FLOWKIT_FUZZ_OPERATIONS operations)"
    if [ "$pass" = address ]; then
        # Some demo tests start `flowdemo` with an environment of their own, which would drop
        # ASAN_OPTIONS: they run it through a wrapper that puts the options back.
        bin=$(swift build --sanitize=address --scratch-path "$scratch" --show-bin-path)
        wrapper="$scratch/flowdemo-asan"
        printf '#!/bin/sh\nASAN_OPTIONS="%s" exec "%s" "$@"\n' "$ASAN_OPTIONS" "$bin/flowdemo" >"$wrapper"
        chmod +x "$wrapper"
        export FLOWDEMO_BINARY="$PWD/$wrapper"
    else
        unset FLOWDEMO_BINARY
    fi
    started=$(date +%s)
    set +e
    swift test --sanitize="$pass" --scratch-path "$scratch" >"$log" 2>&1
    code=$?
    set -e
    elapsed=$(( $(date +%s) - started ))
    reports=$(grep -cE 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer|runtime error:' "$log" || true)
    grep -E '^fuzz:|Test run with|Executed .* tests' "$log" | tail -4 || true
    if [ "$code" -ne 0 ] || [ "$reports" -ne 0 ]; then
        echo "== $pass: FAILED (exit $code, $reports sanitizer reports) in ${elapsed}s; the first report or failure:"
        grep -m1 -A40 -E 'ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer|runtime error:' "$log" \
            || grep -m20 -E '✘|error:|failed' "$log" || tail -40 "$log"
        status=1
    else
        echo "== $pass: clean in ${elapsed}s"
    fi
    echo "   (full output: $log)"
done
exit "$status"
