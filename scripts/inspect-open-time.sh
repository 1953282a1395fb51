#!/usr/bin/env bash
# How long the inspector page of a 10,000-transaction session takes to open in headless
# Chromium, and to show a step once open.
#
#     scripts/inspect-open-time.sh [TRANSACTIONS]
#
# Records the demo (`flowdemo --record`, piped input) selecting a book and going back until
# the session has TRANSACTIONS changes (10,000 by default: each select and each back is one),
# writes its page with `flowinspect`, opens it from file:// with networking off, and prints
# the page's own measurements: the time from navigation to the end of its script (parsing
# the embedded session, indexing it, drawing the first step) and the mean time to show one of
# 100 steps spread over the session (`#timing`). Takes a minute with the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."

transactions=${1:-10000}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z "$chromium" ]]; then
    echo "inspect-open-time.sh: no chromium (apt-get install chromium, or set CHROMIUM)" >&2
    exit 2
fi
swift build --product flowdemo >/dev/null
swift build --product flowinspect >/dev/null
bin=$(swift build --show-bin-path)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
    echo "login alice wonderland"
    for ((i = 0; i < transactions / 2; i++)); do
        echo "select 1"
        echo "back"
    done
    echo "quit"
} >"$tmp/commands.txt"
"$bin/flowdemo" --record "$tmp/session.jsonl" <"$tmp/commands.txt" >/dev/null
"$bin/flowinspect" "$tmp/session.jsonl" -o "$tmp/session.html"
steps=$(grep -c '"k":"step"' "$tmp/session.jsonl")
size=$(wc -c <"$tmp/session.html")

open_page() {
    "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
        --disable-background-networking --disable-component-update --disable-sync \
        --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$tmp/profile" \
        --dump-dom "file://$tmp/session.html$1" 2>/dev/null
}
open_page "" >/dev/null  # a first run warms the browser's own caches
dom=$(open_page "#timing")
open_ms=$(grep -o 'data-open-ms="[0-9.]*"' <<<"$dom" | grep -o '[0-9.]*')
step_ms=$(grep -o 'data-step-ms="[0-9.]*"' <<<"$dom" | grep -o '[0-9.]*')
echo "session: $steps transactions; page: $((size / 1024)) KiB"
echo "open time in headless Chromium: ${open_ms} ms (navigation to the first step drawn)"
echo "show a step once open: ${step_ms} ms (mean of 100 steps spread over the session)"
