#!/usr/bin/env bash
# The long run of the model-based random test (Tests/FlowKitTests/ModelBased): a release
# build, then FLOWKIT_FUZZ_OPERATIONS operations (default 1,000,000) split over several
# seeds, printing operations per second and the totals. Exits non-zero on any difference
# from the model; each failure prints its seed and a shrunk sequence of operations.
#
#   scripts/fuzz.sh                        # 1,000,000 operations over 4 seeds
#   FLOWKIT_FUZZ_OPERATIONS=50000 FLOWKIT_FUZZ_SEEDS="1 2" scripts/fuzz.sh
#   FLOWKIT_FUZZ_EXCLUDE=navigate scripts/fuzz.sh   # look past a known failure
#
# Every run includes the scene operations (a FlowApp beside the model's runtimes, about 8% of
# the operations: see Tests/FlowKitTests/ModelBased/FuzzGenerator+Scenes.swift);
# FLOWKIT_FUZZ_EXCLUDE=scenes leaves them out.
set -euo pipefail
cd "$(dirname "$0")/.."

total="${FLOWKIT_FUZZ_OPERATIONS:-1000000}"
seeds=(${FLOWKIT_FUZZ_SEEDS:-20260417 1 77 4242})
per_seed=$(( (total + ${#seeds[@]} - 1) / ${#seeds[@]} ))
filter='ModelBasedTests'

# The suite uses @testable imports, so the release build enables testing.
echo "== swift build -c release --build-tests -Xswiftc -enable-testing"
swift build -c release --build-tests -Xswiftc -enable-testing

failures=0
operations=0
started=$(date +%s)
for seed in "${seeds[@]}"; do
    echo "== seed $seed: $per_seed operations"
    log=$(mktemp)
    if FLOWKIT_FUZZ_SEED="$seed" FLOWKIT_FUZZ_OPERATIONS="$per_seed" FLOWKIT_FUZZ_KEEP_GOING=1 \
        swift test -c release --skip-build --filter "$filter" >"$log" 2>&1; then
        :
    else
        failures=$((failures + 1))
    fi
    grep -E '^fuzz:|^FlowKit differs|^  step|^  replay|^    ' "$log" || true
    if ! grep -q '^fuzz:' "$log"; then
        echo "fuzz: the run for seed $seed did not finish; its output:"
        tail -40 "$log"
        failures=$((failures + 1))
    fi
    operations=$((operations + per_seed))
    rm -f "$log"
done
elapsed=$(( $(date +%s) - started ))
echo "== total: $operations operations over ${#seeds[@]} seeds in ${elapsed}s" \
    "($(( operations / (elapsed > 0 ? elapsed : 1) )) operations/s including process start)," \
    "$failures seeds with differences"
[ "$failures" -eq 0 ]
