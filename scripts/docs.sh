#!/usr/bin/env bash
# Builds the documentation of FlowKit, FlowKitTesting, FlowKitCharts, FlowKitLinks, FlowKitStore,
# FlowKitRecorder and FlowKitInspector with the
# toolchain's docc, into .build/docs/MODULE.doccarchive (or $DOCS_OUTPUT/...).
#
# Fails on any docc warning and on any public symbol without a doc comment
# (scripts/check-doc-comments.py). scripts/docs-pending.txt lists the few gaps in sources
# that are tolerated until fixed; a listed gap that is gone fails too, so that list only
# shrinks.
#
# The guides live in Docs/ and are linked into each catalog as Guides/*.md symlinks; this
# script copies each catalog with the guides resolved and their links between guides turned
# into DocC links, so the same Markdown reads well on GitHub and in DocC.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(FlowKit FlowKitTesting FlowKitCharts FlowKitLinks FlowKitStore FlowKitRecorder FlowKitInspector)
output=${DOCS_OUTPUT:-.build/docs}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "-- symbol graphs (swift package dump-symbol-graph: reuses the debug build)"
swift package dump-symbol-graph --minimum-access-level public >"$work/dump.log" 2>&1 || {
    cat "$work/dump.log"
    exit 1
}
graphs=$(sed -n 's/^Files written to //p' "$work/dump.log")
[ -d "$graphs" ] || { cat "$work/dump.log"; echo "docs: no symbol graph directory"; exit 1; }

echo "-- doc comments"
python3 scripts/check-doc-comments.py "$graphs" "${modules[@]}"

pending_warnings() { # MODULE: the tolerated docc warnings of MODULE, one per line
    sed -n "s/^warning $1 //p" scripts/docs-pending.txt
}

failed=0
mkdir -p "$output"
for module in "${modules[@]}"; do
    catalog="$work/$module.docc"
    cp -RL "Sources/$module/$module.docc" "$catalog"
    # Links between guides: [text](Name.md) -> [text](doc:Name) when Name is in this
    # catalog; a link to a guide of another module's catalog becomes plain text.
    if [ -d "$catalog/Guides" ]; then
        for guide in "$catalog"/Guides/*.md; do
            python3 - "$guide" "$catalog/Guides" <<'PY'
import pathlib, re, sys
guide, folder = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
here = {p.stem for p in folder.glob("*.md")}
def link(m):
    text, name, anchor = m.group(1), m.group(2), m.group(3) or ""
    return f"[{text}](doc:{name}{anchor})" if name in here else f"{text} (Docs/{name}.md)"
guide.write_text(re.sub(r"\[([^\]]+)\]\(([A-Za-z]+)\.md(#[^)]*)?\)", link, guide.read_text()))
PY
        done
    fi
    mkdir -p "$work/graphs-$module"
    cp "$graphs/$module.symbols.json" "$work/graphs-$module/"
    cp "$graphs/$module"@*.symbols.json "$work/graphs-$module/" 2>/dev/null || true
    rm -rf "${output:?}/$module.doccarchive"
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$work/graphs-$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.flowkit.$module" \
        --transform-for-static-hosting \
        --output-path "$output/$module.doccarchive" >"$work/$module.log" 2>&1 || {
        cat "$work/$module.log"
        echo "docs: docc convert failed for $module"
        failed=1
        continue
    }
    # Every warning, minus the tolerated ones (each of which must still occur).
    sed -n 's/.*warning: //p' "$work/$module.log" | sort >"$work/$module.warnings"
    pending_warnings "$module" | sort >"$work/$module.pending"
    new=$(comm -23 "$work/$module.warnings" "$work/$module.pending")
    gone=$(comm -13 "$work/$module.warnings" "$work/$module.pending")
    count=$(grep -c . "$work/$module.warnings" || true)
    tolerated=$(comm -12 "$work/$module.warnings" "$work/$module.pending" | grep -c . || true)
    echo "$module: $count docc warning(s), $tolerated of them pending in scripts/docs-pending.txt -> $output/$module.doccarchive"
    if [ -n "$new" ]; then
        grep -B1 -A8 "warning: " "$work/$module.log" || true
        echo "docs: $module has docc warnings (above)"
        failed=1
    fi
    if [ -n "$gone" ]; then
        echo "docs: scripts/docs-pending.txt lists a $module warning that no longer occurs; remove it:"
        echo "$gone"
        failed=1
    fi
done
exit $failed
