#!/usr/bin/env bash
# FlowKit's chart engine beside Qt SCXML, on the same SCXML documents and the same events
# (Docs/SCXML.md, "Beside Qt SCXML"). One run:
#
#   scripts/bench-scxml.sh
#
# 1. Installs Debian's qt6-scxml-dev when Qt SCXML is missing (the benchmark's own
#    dependency; FlowKit never depends on Qt) and builds the small driver
#    Benchmarks/qt/driver.cpp against it.
# 2. Builds the benchmarks in release and runs `flowkit-bench --scxml DIR`: it writes each
#    generated chart (Benchmarks/Sources/flowkit-bench/ChartDocuments.swift: a ring, nested
#    states, a parallel state of 4 regions, an eventless chain; 10, 100 and 1,000 states;
#    1,000 events each) as SCXML through FlowKit's writer, reads it back with
#    FlowChart(scxml:) and runs FlowChartMachine in-process on its events (no printing).
# 3. Runs the Qt driver on the same documents and events: QScxmlStateMachine with the null
#    data model, every event submitted, the queue processed in-process.
# 4. Prints events/s for each engine and their ratio, the parse cost per state, the growth
#    from 10 to 1,000 states, and whether both end in the same configuration.
set -euo pipefail
cd "$(dirname "$0")/.."

work=.build-bench-scxml
mkdir -p "$work/documents"
if ! pkg-config --exists Qt6Scxml 2>/dev/null; then
    echo "== installing qt6-scxml-dev (Debian)"
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
        --no-install-recommends qt6-scxml-dev g++ pkg-config >/dev/null
fi
echo "== build the Qt driver (Qt SCXML $(pkg-config --modversion Qt6Scxml))"
# shellcheck disable=SC2046
g++ -O2 -std=c++17 -fPIC Benchmarks/qt/driver.cpp -o "$work/qt-scxml-driver" \
    $(pkg-config --cflags --libs Qt6Scxml Qt6Core)
echo "== build flowkit-bench (release)"
swift build -c release --package-path Benchmarks 2>&1 | tail -n 1
bench="$(swift build -c release --package-path Benchmarks --show-bin-path)/flowkit-bench"

echo "== FlowKit: FlowChartMachine in-process"
"$bench" --scxml "$work/documents" | tee "$work/flowkit.txt"
echo "== Qt SCXML: QScxmlStateMachine in-process"
: >"$work/qt.txt"
while read -r _ name _; do
    "$work/qt-scxml-driver" "$work/documents/$name.scxml" "$work/documents/$name.events" 7 \
        | tee -a "$work/qt.txt"
done <"$work/flowkit.txt"

echo
echo "== side by side (events/s: median of 7; parse: fastest, per state)"
awk '
    function field(line, key,    n, i, parts, kv) {
        n = split(line, parts, " ")
        for (i = 3; i <= n; i++) {
            split(parts[i], kv, "=")
            if (kv[1] == key) return kv[2]
        }
        return ""
    }
    FNR == NR { qt[$2] = $0; next }
    {
        name = $2; order[++count] = name; fk[name] = $0
    }
    END {
        printf "%-14s %7s %14s %14s %10s %12s %12s %8s\n", "document", "states", \
            "Qt events/s", "FlowKit ev/s", "FK / Qt", "Qt parse ns", "FK parse ns", "config"
        for (i = 1; i <= count; i++) {
            name = order[i]
            q = field(qt[name], "events_per_s"); f = field(fk[name], "events_per_s")
            same = field(qt[name], "config") == field(fk[name], "config") ? "same" : "DIFFERS"
            printf "%-14s %7s %14s %14s %10.3f %12s %12s %8s\n", name, \
                field(fk[name], "states"), q, f, (q > 0 ? f / q : 0), \
                field(qt[name], "parse_ns_per_state"), field(fk[name], "parse_ns_per_state"), same
            rate["qt", name] = q; rate["fk", name] = f
        }
        print ""
        print "growth, events/s at the smallest document over the largest of each shape:"
        for (i = 1; i <= count; i++) {
            name = order[i]; shape = name; sub(/[0-9]+$/, "", shape)
            if (!(shape in first)) first[shape] = name
            last[shape] = name
        }
        for (shape in first) {
            a = first[shape]; b = last[shape]
            printf "  %-10s Qt %6.2fx   FlowKit %6.2fx   (%s -> %s)\n", shape, \
                rate["qt", a] / rate["qt", b], rate["fk", a] / rate["fk", b], a, b
        }
    }
' "$work/qt.txt" "$work/flowkit.txt"

# Not a timing: where the two engines end up on the repository's SCXML documents (the
# examples and hand-checked examples as written by FlowKit, and the hand-written ones), each
# fed its own events. A difference is a place where the engines read SCXML differently (the
# final configuration is compared; FlowKit's wrapper root `scxml` is left out).
echo
echo "== final configurations on the SCXML corpus, Qt beside FlowKit"
swift build --product flowchart 2>&1 | tail -n 1
flowchart="$(swift build --show-bin-path)/flowchart"
same=0
for document in Tests/FlowKitChartsTests/SCXML/Corpus/*.scxml Tests/FlowKitChartsTests/SCXML/*.scxml; do
    name="$(basename "$document" .scxml)"
    sed -n 's|.*<flowkit:events>\(.*\)</flowkit:events>.*|\1|p' "$document" | tr ' ' '\n' \
        >"$work/corpus.events"
    qt="$("$work/qt-scxml-driver" "$document" "$work/corpus.events" 1 2>/dev/null \
        | sed 's/.*config=//')"
    flowkit="$("$flowchart" trace "$document" | tail -n 1 | sed 's/^config //' | tr ' ' '\n' \
        | grep -vx scxml | sort | paste -sd, -)"
    if [ "$qt" = "$flowkit" ]; then
        same=$((same + 1))
    else
        echo "  $name: Qt $qt; FlowKit $flowkit"
    fi
done
echo "  $same documents end in the same configuration"
