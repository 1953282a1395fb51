#!/usr/bin/env python3
"""Fails if a public symbol of a documented module has no doc comment of its own.

Usage: check-doc-comments.py SYMBOL_GRAPH_DIR MODULE...

Reads the symbol graphs that `swift package dump-symbol-graph` writes (MODULE.symbols.json
and MODULE@Other.symbols.json for extensions of other modules' types) and checks every
public or open symbol:

- documented: it has a doc comment written in its own module;
- exempt, synthesized: its identifier contains `::SYNTHESIZED::`: members the compiler or
  a protocol extension provides (`hashValue`, `hash(into:)`, `init(rawValue:)` of a raw
  enum, `!=`, default implementations), which have no source to document;
- exempt, inherited from outside the package: the symbol implements a requirement of a
  protocol from a module that is not part of this package (`Swift`, `Foundation`, ...), has
  no comment of its own, and DocC shows the protocol's (`description`, `==`,
  `init(from:)`, ...);
- exempt, underscored: a name or an enclosing name starts with `_` (not API; DocC hides it);
- otherwise missing, including a symbol whose only comment is inherited from another module
  of this package: a conformance to a FlowKit protocol says what it does in its own words.

It also checks that the catalog's root page (Sources/MODULE/MODULE.docc/MODULE.md) curates
every top-level public symbol in a topic group.

Entries of scripts/docs-pending.txt (`symbol MODULE Path.To.Symbol`) are gaps in sources
this check may not fix yet; they are reported, not failed, and a pending entry that is no
longer missing fails so that the list only shrinks.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load_pending():
    pending = set()
    path = ROOT / "scripts" / "docs-pending.txt"
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[0] == "symbol":
                pending.add((parts[1], parts[2]))
    return pending


def main():
    graph_dir = pathlib.Path(sys.argv[1])
    modules = sys.argv[2:]
    package_modules = {p.name.split(".")[0].split("@")[0] for p in graph_dir.glob("*.symbols.json")}
    pending = load_pending()
    failures = []
    still_pending = set()
    for module in modules:
        counts = dict(checked=0, documented=0, synthesized=0, inherited=0, underscored=0)
        top_level = []
        files = [graph_dir / f"{module}.symbols.json"] + sorted(graph_dir.glob(f"{module}@*.symbols.json"))
        for file in files:
            graph = json.loads(file.read_text())
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                path = symbol["pathComponents"]
                name = ".".join(path)
                counts["checked"] += 1
                if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                    counts["synthesized"] += 1
                    continue
                if any(component.startswith("_") for component in path):
                    counts["underscored"] += 1
                    continue
                if file.name == f"{module}.symbols.json" and len(path) == 1:
                    top_level.append(path[0])
                comment = symbol.get("docComment")
                source = comment.get("module", module) if comment else None
                text = "".join(line.get("text", "") for line in comment["lines"]).strip() if comment else ""
                if comment and source == module and text:
                    counts["documented"] += 1
                elif comment and source not in package_modules:
                    counts["inherited"] += 1
                elif (module, name) in pending:
                    still_pending.add((module, name))
                else:
                    where = f" (only {source}'s comment, inherited)" if comment else ""
                    failures.append(f"{module}: public symbol without a doc comment: {name}{where}")
        root_page = ROOT / "Sources" / module / f"{module}.docc" / f"{module}.md"
        curated = set(re.findall(r"``([A-Za-z0-9_]+)``", root_page.read_text())) if root_page.exists() else set()
        if not root_page.exists():
            failures.append(f"{module}: no catalog root page at {root_page.relative_to(ROOT)}")
        for name in sorted(set(top_level) - curated):
            failures.append(f"{module}: {name} is in no topic group of {root_page.relative_to(ROOT)}")
        pending_here = sum(1 for entry in still_pending if entry[0] == module)
        print(
            f"{module}: {counts['checked']} public symbols; {counts['documented']} documented; "
            f"exempt: {counts['synthesized']} synthesized, {counts['inherited']} inherited from "
            f"outside the package, {counts['underscored']} underscored; {pending_here} pending; "
            f"{len(set(top_level))} top-level symbols to curate")
    for module, name in sorted(still_pending):
        print(f"pending: {module} {name} has no doc comment (tolerated: scripts/docs-pending.txt)")
    for module, name in sorted(pending - still_pending):
        if module in modules:
            failures.append(
                f"scripts/docs-pending.txt: 'symbol {module} {name}' is documented now (or gone): "
                "remove the line")
    for failure in failures:
        print(f"error: {failure}")
    if failures:
        print(f"{len(failures)} documentation problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
